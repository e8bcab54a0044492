"""``necropolis balance``: a designer's balance report of a game, as a page with plots.

Plays the report's matches (:mod:`necropolis.analysis.balance`) on local processes with a
progress bar, or on a Ray cluster with ``--ray``, then writes ``index.html``, its PNG
figures, ``summary.json`` and every match into the output folder. Stopped with Ctrl-C,
the same command goes on from the matches already played.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from necropolis.analysis.balance import (
    Plan,
    PlanMismatchError,
    make_plan,
    read_matches,
    run_balance,
)
from necropolis.analysis.balance_report import write_report
from necropolis.bots import BOTS
from necropolis.cli.common import (
    BOT_NAMES,
    GAME_HELP,
    batch_progress,
    console,
    fail,
    open_game,
    parse_options,
    ray_session_or_fail,
)
from necropolis.engine.errors import NecropolisError


def balance(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[
        list[int] | None,
        typer.Option("--players", "-p", help="player count (repeat for several; default all)"),
    ] = None,
    matches: Annotated[
        int, typer.Option("--matches", "-n", min=1, help="matches per cell (level × count × …)")
    ] = 200,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help=f"bot levels side by side, comma-separated ({BOT_NAMES}), each filling every "
            "seat; LEVEL:N plays N matches per cell at that level instead of --matches",
        ),
    ] = "random,heuristic,medium",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="a game option, name=value (fixed: not swept)"),
    ] = None,
    components: Annotated[
        Path | None,
        typer.Option("--components", help="a changed component data file: the 'what if'"),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="the report's folder")] = Path("balance"),
    seed: Annotated[int, typer.Option("--seed", help="seed (match i of every cell: derived)")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="local processes")] = 1,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="play on the Ray cluster at ADDRESS (or auto) instead"),
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="throw away the matches already in --out")
    ] = False,
) -> None:
    """Write a balance report (DIR/index.html): seat order, seat features, variants,
    lengths, under several bot levels, and what a changed component file changes."""
    options = parse_options(option)
    open_game(game_id, options)  # a clean error for a bad game or option
    levels: list[str] = []
    own: dict[str, int] = {}
    for entry in (b.strip() for b in bots.split(",") if b.strip()):
        name, _, count = entry.partition(":")
        levels.append(name)
        if count:
            if not count.isdigit() or int(count) < 1:
                raise fail(f"--bots {entry!r}: a level's own count is a whole number, LEVEL:N")
            own[name] = int(count)
    unknown = [b for b in levels if b not in BOTS]
    if unknown or not levels:
        raise fail(f"unknown bot {', '.join(unknown) or '(none)'}: the bots are {', '.join(BOTS)}")
    text = None
    if components is not None:
        try:
            text = components.read_text(encoding="utf-8")
        except OSError as error:
            raise fail(f"cannot read {components}: {error}") from None
    try:
        plan = make_plan(
            game_id,
            levels,
            players,
            matches,
            seed,
            options,
            text,
            components.name if components is not None else None,
            own,
        )
    except (NecropolisError, ValueError) as error:
        raise fail(str(error)) from None
    if text is not None:
        _check_components(plan, text)
    if fresh and out.exists():
        for name in ("plan.json", "matches.jsonl"):
            (out / name).unlink(missing_ok=True)
    total = sum(cell.matches for cell in plan.cells())
    already = len(read_matches(out / "matches.jsonl")) if (out / "plan.json").exists() else 0
    started = time.perf_counter()
    try:
        with ray_session_or_fail(ray), batch_progress(False) as progress:
            task = progress.add_task(f"{plan.game} balance", total=total, completed=already)
            played = run_balance(
                plan, out, workers, ray, text, on_match=lambda _: progress.advance(task)
            )
    except PlanMismatchError as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        console.print(
            f"\nStopped. The matches played so far are kept in {out}/matches.jsonl: run the "
            "same command again to go on from them."
        )
        raise typer.Exit(130) from None
    seconds = time.perf_counter() - started
    write_report(plan, played, out, _command(plan, bots, components, out, ray, workers))
    console.print(
        f"{len(played)} matches ({len(played) - already} played now, {seconds:.1f} s); "
        f"report: {out / 'index.html'}",
        soft_wrap=True,
    )


def _check_components(plan: Plan, text: str) -> None:
    """Refuse a changed data file the game cannot read, before any worker starts."""
    import os
    import subprocess

    from necropolis.engine.balance import components_variable

    # The game's tables are built on import, so the file is tried in a fresh process.
    env = {**os.environ, components_variable(plan.game): text}
    check = subprocess.run(
        [
            sys.executable or shutil.which("python3") or "python3",
            "-c",
            f"from necropolis.games import load_game; load_game({plan.game!r})",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if check.returncode != 0:
        last = (check.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise fail(f"the changed component file does not load: {last}")


def _command(
    plan: Plan, bots: str, components: Path | None, out: Path, ray: str | None, workers: int
) -> str:
    """The command that makes this report, written out in full (defaults included)."""
    words = ["necropolis", "balance", plan.game]
    for count in plan.players:
        words += ["-p", str(count)]
    words += ["--matches", str(plan.matches), "--bots", bots.replace(" ", "")]
    for name, value in plan.options.items():
        words += ["-o", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    if components is not None:
        words += ["--components", str(components)]
    words += ["--seed", str(plan.seed), "--out", str(out)]
    words += ["--ray", ray] if ray else ["-w", str(workers)]
    return shlex.join(words)
