"""``necropolis strength``: two bots compared on duplicate deals, with intervals.

``strength play GAME A B`` plays bot A against bot B (at more players, A against copies
of B; ``--lineup`` names every seat) on a bank of duplicate deals, each deal once per
seating with the same dice and cards (:mod:`necropolis.analysis.duel`), and prints A's
score share with its 95% interval, the Elo difference, the mean score margin and each
bot's CPU a decision. Every match is appended to the run's file as it ends; ``--resume``
takes a stopped run up again (or extends it to more deals) from that file. Given an
earlier run on the same bank (``--against-previous``), it also prints the paired
difference between the two candidates, deal by deal. ``strength report FILE`` prints the
figures of a run's file (finished or not) again. ``strength calibration GAME`` measures how
well a judgement's chances come true (the game's estimate, or a model's beside it), and
``strength recalibrate GAME`` fits the map that makes the estimate's come true.

Long runs belong at low priority (``--nice 19``, or ``nice -n 19 necropolis …``): the
workers inherit it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from necropolis.analysis.duel import (
    DuelMatch,
    DuelRun,
    ResumeMismatchError,
    UnpairedRunsError,
    contender,
    iter_table,
    paired,
    play_lineup,
)
from necropolis.analysis.headroom import RESEARCH
from necropolis.analysis.tournament import rotations
from necropolis.bots import BOTS
from necropolis.cli.common import (
    GAME_HELP,
    App,
    batch_progress,
    console,
    fail,
    open_game,
    parse_options,
    ray_session_or_fail,
)

strength_app = App(
    help="Bots compared on duplicate deals: score share, interval, Elo, paired difference.",
    no_args_is_help=True,
)

_BOTS_HELP = f"{', '.join([*BOTS, *RESEARCH])}, or module:function"


@strength_app.command("play")
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    candidate: Annotated[
        str | None, typer.Argument(metavar="A", help=f"the bot measured ({_BOTS_HELP})")
    ] = None,
    opponent: Annotated[
        str | None, typer.Argument(metavar="B", help="the bot in every other seat")
    ] = None,
    lineup: Annotated[
        str | None,
        typer.Option(
            "--lineup", help="one bot per seat, the measured one first (instead of A and B)"
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="seats (default: two, or the lineup's)")
    ] = None,
    deals: Annotated[
        int,
        typer.Option("--deals", "-d", min=1, help="deals, each played once per seating"),
    ] = 500,
    bank: Annotated[int, typer.Option("--bank", help="the bank of deals (its seed)")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="processes")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="a game option, name=value")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="the run's file (JSON Lines, a line a match)"),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="keep the matches already in --out and play the rest"),
    ] = False,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against-previous",
            help="an earlier run on the same bank: print the paired difference with it",
        ),
    ] = None,
    niceness: Annotated[
        int, typer.Option("--nice", min=0, max=19, help="run (and the workers) this much nicer")
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="play on the Ray cluster at ADDRESS (or auto) instead"),
    ] = None,
) -> None:
    """Play bot A against bot B on duplicate deals and print A's figures."""
    if lineup:
        if candidate or opponent:
            raise fail("name the bots either as A B or with --lineup, not both")
        seats = [b.strip() for b in lineup.split(",") if b.strip()]
        if players is not None and players != len(seats):
            raise fail(f"the lineup names {len(seats)} bots for {players} seats")
    else:
        if not (candidate and opponent):
            raise fail("name two bots, A and B (or every seat with --lineup)")
        seats = [candidate, *[opponent] * ((players or 2) - 1)]
    for spec in dict.fromkeys(seats):
        try:
            contender(spec)
        except ValueError as error:
            raise fail(str(error)) from None
    options = parse_options(option)
    options["players"] = len(seats)
    game = open_game(game_id, options)
    name = "-vs-".join(dict.fromkeys(s.replace(":", ".") for s in seats))
    path = out or Path("strength") / f"{game.id}-{name}-{game.num_players}p-bank{bank}.jsonl"
    previous = _read(against) if against is not None else None
    words = ["necropolis", "strength", "play", game.id, "--lineup", ",".join(seats)]
    words += ["--deals", str(deals), "--bank", str(bank)]
    for given in option or ():
        words += ["-o", given]
    command = shlex.join([*words, "--out", str(path)])
    if niceness:
        os.nice(niceness)
    seatings = len(rotations(seats))
    with ray_session_or_fail(ray), batch_progress(as_json) as progress:
        task = progress.add_task(f"{game.id} ×{game.num_players}", total=deals * seatings)

        def finished(match: DuelMatch) -> None:
            progress.advance(task)

        if resume and path.exists():
            progress.advance(task, len(DuelRun.read(path).matches))
        try:
            run = play_lineup(
                seats,
                game.id,
                deals,
                bank,
                workers,
                options=dict(game.options),
                out=path,
                resume=resume,
                ray_address=ray,
                on_match=finished,
                command=command,
            )
        except (ResumeMismatchError, FileExistsError, ValueError) as error:
            raise fail(str(error)) from None
    _report(run, previous, as_json)
    if not as_json:
        console.print(f"Run: {path}", soft_wrap=True)


@strength_app.command("calibration")
def calibration(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[int, typer.Option("--players", "-p", help="seats")] = 2,
    model: Annotated[
        Path | None,
        typer.Option("--model", help="a learned model's file, judged beside the estimate"),
    ] = None,
    matches: Annotated[
        int, typer.Option("--matches", "-n", min=1, help="matches of the heuristic played")
    ] = 300,
    seed: Annotated[int, typer.Option("--seed", help="the matches' seed")] = 5,
    worlds: Annotated[
        int,
        typer.Option(
            "--worlds", min=1, help="worlds drawn from each view, the estimate their mean"
        ),
    ] = 1,
    every: Annotated[
        int,
        typer.Option(
            "--every", min=1, help="judge every N-th decision of a match (more matches, same time)"
        ),
    ] = 1,
    raw: Annotated[
        bool,
        typer.Option("--raw", help="the estimate without the game's recalibration"),
    ] = False,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="processes sharing the matches")
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="the table's file (JSON; its plot beside it, as .png)"),
    ] = None,
    niceness: Annotated[int, typer.Option("--nice", min=0, max=19, help="run this much nicer")] = 0,
) -> None:
    """How well a judgement's chances come true: the game's estimate (or a model beside
    it) on the heuristic's positions, binned by predicted chance against who won."""
    from necropolis.analysis.training import plot_reliability, reliability
    from necropolis.bots.judgement import Network

    game = open_game(game_id, {"players": players})
    network = None
    if model is not None:
        try:
            network = Network.load(model)
        except (OSError, ValueError, KeyError) as error:
            raise fail(f"cannot read the model {model}: {error}") from None
        if (network.meta.get("game"), network.meta.get("players")) != (game.id, players):
            raise fail(
                f"{model} is a model of {network.meta.get('game')} at "
                f"{network.meta.get('players')} players, not {game.id} at {players}"
            )
    path = out or Path("strength") / f"calibration-{game.id}-{players}p.json"
    words = ["necropolis", "strength", "calibration", game.id, "--players", str(players)]
    if model is not None:
        words += ["--model", str(model)]
    words += ["--matches", str(matches), "--seed", str(seed)]
    if worlds != 1:
        words += ["--worlds", str(worlds)]
    if every != 1:
        words += ["--every", str(every)]
    if raw:
        words += ["--raw"]
    words += ["--out", str(path)]
    if niceness:
        os.nice(niceness)
    table = reliability(
        game.id,
        network,
        matches,
        seed,
        players=players,
        worlds=worlds,
        every=every,
        recalibrated=not raw,
        workers=workers,
    )
    table["command"] = shlex.join(words)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table, indent=1) + "\n")
    plot_reliability(table, path.with_suffix(".png"))
    grid = Table(
        "predicted",
        "observed",
        "95% over matches",
        "positions",
        title=f"{game.id}: {table['model']}",
    )
    for p, o, (lo, hi), n in zip(
        table["predicted"],
        table["observed"],
        table["observed_ci95"],
        table["positions"],
        strict=True,
    ):
        grid.add_row(f"{p:.3f}", f"{o:.3f}", f"{lo:.3f}–{hi:.3f}", str(n))
    console.print(grid)
    console.print(
        f"wrote {path} and its plot: off by {table['error']:.3f} on "
        f"{sum(table['positions'])} positions, Brier {table['brier']:.4f}"
    )


@strength_app.command("recalibrate")
def recalibrate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[int, typer.Option("--players", "-p", help="seats")] = 2,
    matches: Annotated[
        int, typer.Option("--matches", "-n", min=1, help="matches of the heuristic played")
    ] = 4000,
    seed: Annotated[
        int, typer.Option("--seed", help="the matches' seed (apart from calibration's)")
    ] = 11,
    worlds: Annotated[
        int, typer.Option("--worlds", min=1, help="worlds drawn from each view")
    ] = 16,
    every: Annotated[
        int, typer.Option("--every", min=1, help="judge every N-th decision of a match")
    ] = 4,
    method: Annotated[
        str,
        typer.Option(
            "--method",
            help="monotone (a share per bin) or logistic (a slope and a shift in logits)",
        ),
    ] = "monotone",
    mover: Annotated[
        bool,
        typer.Option(
            "--mover", help="a term for the seat that decides next (with --method logistic)"
        ),
    ] = False,
    views: Annotated[
        Path | None,
        typer.Option(
            "--views",
            help="keep the judged views in this file (.npz): read where it holds the same "
            "matches, else written, so that other maps fit without playing again",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="processes sharing the matches")
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="the map's file (default: where the game ships it)"),
    ] = None,
    niceness: Annotated[int, typer.Option("--nice", min=0, max=19, help="run this much nicer")] = 0,
) -> None:
    """Fit the map from the game's estimate (its mean over a view's worlds) to the share
    that comes true, on matches of the heuristic, and write it where the game ships it:
    the analysis, hints and the evaluator then show recalibrated chances (hard's search
    is unchanged). Measure it afterwards with ``strength calibration`` on other seeds."""
    from necropolis.analysis.recalibration import METHODS, Judged, collect, fit
    from necropolis.bots.judgement import RECALIBRATION_FILE

    if method not in METHODS:
        raise fail(f"no recalibration method {method!r}: {', '.join(METHODS)}")
    if mover and method != "logistic":
        raise fail("--mover fits a term for the seat to move beside --method logistic only")
    game = open_game(game_id, {"players": players})
    path = out or (
        Path(sys.modules[type(game).__module__].__file__ or ".").parent
        / RECALIBRATION_FILE.format(players=players)
    )
    words = ["necropolis", "strength", "recalibrate", game.id, "--players", str(players)]
    words += ["--matches", str(matches), "--seed", str(seed), "--worlds", str(worlds)]
    words += ["--every", str(every)]
    if method != "monotone":
        words += ["--method", method]
    if mover:
        words += ["--mover"]
    if out is not None:
        words += ["--out", str(out)]
    if niceness:
        os.nice(niceness)
    made = {
        "game": game.id,
        "players": players,
        "matches": matches,
        "seed": seed,
        "worlds": worlds,
        "every": every,
    }
    judged = None
    if views is not None and views.exists():
        try:
            judged, kept = Judged.load(views)
        except (OSError, ValueError, KeyError) as error:
            raise fail(f"cannot read the views {views}: {error}") from None
        if kept != made:
            raise fail(f"{views} holds the views of other matches: {kept}")
        console.print(f"read {judged.won.shape[0]} views from {views}")
    if judged is None:
        judged = collect(
            game.id, matches, seed, players=players, worlds=worlds, every=every, workers=workers
        )
        if views is not None:
            views.parent.mkdir(parents=True, exist_ok=True)
            judged.save(views, made)
    try:
        mapping = fit(judged, method=method, mover=mover)
    except ValueError as error:
        raise fail(str(error)) from None
    meta = {
        "game": game.id,
        "players": players,
        "positions_of": "heuristic in every seat",
        "matches": matches,
        "seed": seed,
        "worlds": worlds,
        "every": every,
        "method": method + (" with a term for the seat to move" if mover else ""),
        "positions": int(judged.won.shape[0]),
        "command": shlex.join(words),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    mapping = dataclasses.replace(mapping, meta=meta)
    path.write_text(json.dumps(mapping.to_json(), indent=1) + "\n")
    console.print(
        f"wrote {path}: {len(mapping.knots)} knots fitted on {meta['positions']} views of "
        f"{matches} matches"
    )


@strength_app.command("report")
def report(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a run's file")],
    bot: Annotated[
        str | None, typer.Option("--bot", help="whose figures (default: the first seat's)")
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option("--against-previous", help="an earlier run on the same bank, to pair with"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Print the figures of a run (finished or stopped), paired with another if given."""
    run = _read(path)
    previous = _read(against) if against is not None else None
    if bot is not None and bot not in run.lineup:
        raise fail(f"{bot} did not play in {path} ({', '.join(run.lineup)})")
    _report(run, previous, as_json, bot)


def _read(path: Path) -> DuelRun:
    try:
        return DuelRun.read(path)
    except FileNotFoundError:
        raise fail(f"{path} does not exist") from None
    except (ValueError, KeyError, TypeError) as error:
        raise fail(f"cannot read {path}: {error}") from None


def _report(run: DuelRun, previous: DuelRun | None, as_json: bool, bot: str | None = None) -> None:
    figure = run.figures(bot)
    if not figure["deals"] and not as_json:
        # Figures of no deal would read as a share of nothing: say what there is instead.
        console.print(
            f"No deal played in every seating yet ({len(run.matches)} matches of "
            f"{run.deals} deals so far)."
        )
        return
    pair: dict[str, Any] | None = None
    if previous is not None:
        try:
            pair = paired(run, previous, bot)
        except UnpairedRunsError as error:
            raise fail(f"cannot pair the runs: {error}") from None
    if as_json:
        print(json.dumps({"figures": figure, "paired": pair}, indent=1))
        return
    title = (
        f"{run.game}, {run.players} players: {figure['bot']} against "
        f"{', '.join(figure['against'])}, bank {run.bank}"
    )
    table = Table(title=title, show_header=False)
    table.add_column("", justify="left")
    table.add_column("", justify="right")
    for label, value in iter_table(figure):
        table.add_row(label, value)
    if pair is not None:
        low, high = pair["ci95"]
        table.add_row(
            f"paired with {pair['previous_bot']} ({pair['deals']} deals)",
            f"{100 * pair['score_share']:.1f}% against {100 * pair['previous_score_share']:.1f}%",
        )
        table.add_row(
            "difference",
            f"{100 * pair['difference']:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f})",
        )
    console.print(table)
    if figure["deals"] < run.deals:
        console.print(f"{figure['deals']} of {run.deals} deals played in every seating so far.")
