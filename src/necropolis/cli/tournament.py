"""``necropolis tournament``: bots against each other, seats rotated, ratings and a plot.

Matches run on local processes (``--workers``) or a Ray cluster (``--ray``) with a
progress bar; the results (win
rates with 95% Wilson intervals, Bradley–Terry Elo ratings, seat win rates, seconds per
decision, every match) are printed, written as JSON, and drawn as a PNG beside it. A
long run can write its JSON every few matches (``--checkpoint``) and, once stopped, be
taken up again from that file (``--resume``), with the same matches as an unbroken run.
"""

from __future__ import annotations

import json
import shlex
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from necropolis.analysis.tournament import (
    ResumeMismatchError,
    TournamentMatch,
    TournamentResult,
    lineups,
    run_tournament,
)
from necropolis.bots import BOTS
from necropolis.cli.common import (
    GAME_HELP,
    batch_progress,
    console,
    fail,
    open_game,
    parse_options,
    ray_session_or_fail,
    wins_text,
)


def tournament(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    bots: Annotated[
        str, typer.Option("--bots", help=f"bots to compare, comma-separated ({', '.join(BOTS)})")
    ] = "heuristic,random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="how many matches")] = 100,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="seats per match (default: one per bot if allowed)"),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="processes")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="tournament seed (match i: derived)")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="a game option, name=value")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="the JSON file (the plot goes beside it, as .png)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
    lineup: Annotated[
        str | None,
        typer.Option(
            "--lineup",
            help="one bot per seat, repeats allowed (hard,heuristic,heuristic), turned round "
            "the table from match to match; replaces --bots and --players",
        ),
    ] = None,
    checkpoint: Annotated[
        int,
        typer.Option(
            "--checkpoint",
            min=0,
            help="rewrite the JSON every this many matches (0: only at the end)",
        ),
    ] = 0,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="keep the matches already in the --out file (a run stopped after a "
            "checkpoint) and play the rest",
        ),
    ] = False,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="play on the Ray cluster at ADDRESS (or auto) instead"),
    ] = None,
) -> None:
    """Play a tournament between bots, with seats rotated, and rate them."""
    seating = [b.strip() for b in lineup.split(",") if b.strip()] if lineup else None
    if seating is not None:
        bots, players = ",".join(seating), len(seating)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [n for n in names if n not in BOTS]
    if unknown or not names:
        raise fail(f"unknown bot {', '.join(unknown) or '(none)'}: the bots are {', '.join(BOTS)}")
    names = list(dict.fromkeys(names))
    options = parse_options(option)
    cls_game = open_game(game_id, options)
    if players is None and "players" not in options:
        fits = cls_game.declared_options()[0].choices or ()
        options["players"] = len(names) if len(names) in fits else cls_game.num_players
    elif players is not None:
        options["players"] = players
    game = open_game(game_id, options)
    cycle = len(seating) if seating else len(lineups(names, game.num_players))
    path = out or Path("tournaments") / f"{game.id}-{datetime.now():%Y%m%d-%H%M%S}.json"
    earlier = _earlier_run(path) if resume else None
    what = ["--lineup", ",".join(seating)] if seating else ["--bots", ",".join(names)]
    if not seating:
        what += ["-p", str(game.num_players)]
    command = _command_line(game.id, what, games, workers, seed, option, path)
    partial = TournamentResult(game.id, dict(game.options), names, seed, command=command)
    if earlier is not None:
        partial.matches.extend(earlier.matches)

    def finished(match: TournamentMatch) -> None:
        progress.advance(task)
        partial.matches.append(match)
        # A long run stopped early still leaves the matches it played as evidence.
        if checkpoint and len(partial.matches) % checkpoint == 0:
            partial.matches.sort(key=lambda m: m.index)
            partial.write_json(path)

    with ray_session_or_fail(ray), batch_progress(as_json) as progress:
        task = progress.add_task(f"{game.id} ×{game.num_players}", total=games)
        progress.advance(task, len(partial.matches))
        try:
            result = run_tournament(
                game.id,
                dict(game.options),
                names,
                games,
                seed,
                workers,
                on_match=finished,
                lineup=seating,
                resume=earlier,
                ray_address=ray,
            )
        except ResumeMismatchError as error:
            raise fail(f"cannot resume from {path}: {error}") from None
    result.command = partial.command
    result.write_json(path)
    plot = path.with_suffix(".png")
    result.write_plot(plot)
    if as_json:
        print(json.dumps(result.to_json(), indent=1))
        return
    _print_result(result, cycle)
    console.print(f"Results: {path}\nPlot: {plot}", soft_wrap=True)


def _command_line(
    game_id: str,
    what: list[str],
    games: int,
    workers: int,
    seed: int,
    option: list[str] | None,
    path: Path,
) -> str:
    """The command that plays this tournament again, for its results to say: the game,
    the bots (``what``: ``--bots …`` or ``--lineup …`` and ``-p``), the matches, seed,
    options and file (how it was stopped and taken up again is left out)."""
    words = ["necropolis", "tournament", game_id, *what, "-n", str(games)]
    words += ["--workers", str(workers), "--seed", str(seed)]
    for given in option or ():
        words += ["-o", given]
    return shlex.join([*words, "--out", str(path)])


def _earlier_run(path: Path) -> TournamentResult:
    """The stopped run to resume, read from its checkpoint file."""
    if not path.exists():
        raise fail(f"nothing to resume: {path} does not exist (run without --resume first)")
    try:
        return TournamentResult.read_json(path)
    except (ValueError, KeyError, TypeError) as error:
        raise fail(f"cannot resume from {path}: not a tournament's results ({error})") from None


def _print_result(result: TournamentResult, cycle: int) -> None:
    table = Table(title=f"{result.game}, {result.players} players, {len(result.matches)} matches")
    columns = (
        "bot",
        "seats",
        "wins",
        "win %",
        "95% CI",
        "Elo",
        "Elo 95%",
        "s/decision p50·p95·max",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    summary = result.bot_summary()
    for name, row in sorted(summary.items(), key=lambda kv: -kv[1]["elo"]):
        low, high = row["win_rate_ci95"]
        elo_low, elo_high = row["elo_ci95"]
        think = row["decision_seconds"]
        table.add_row(
            name,
            str(row["seats_played"]),
            wins_text(row["wins"]),
            f"{100 * row['win_rate']:.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
            f"{row['elo']:.0f}",
            f"{elo_low:.0f}–{elo_high:.0f}",
            f"{think['p50']:.3f}·{think['p95']:.3f}·{think['max']:.3f}",
        )
    console.print(table)
    seats = Table(title="win rate by seat (any bot)")
    for column in ("seat", "wins", "win %", "95% CI"):
        seats.add_column(column, justify="right")
    for row in result.seat_summary():
        low, high = row["win_rate_ci95"]
        seats.add_row(
            str(row["seat"]),
            wins_text(row["wins"]),
            f"{100 * row['win_rate']:.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
        )
    console.print(seats)
    if len(result.matches) % cycle:
        console.print(
            f"Note: the seat rotation repeats every {cycle} matches; {len(result.matches)} "
            "is not a multiple, so some seatings were played once more than others."
        )
