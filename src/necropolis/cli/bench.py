"""``necropolis bench``: random-play, clone and IS-MCTS speeds, beside C++ backgammon.

Prints a table per game and player count (or, with ``--json``, one JSON object) with
each game's random-play steps and clones per second (the engine's own, and through the
OpenSpiel adapter as a pyspiel state's ``clone()``) also as a ratio to OpenSpiel's C++
backgammon measured in the same run by the same loop, determinizations per second, and
IS-MCTS iterations per second with rollouts to the end and cut off as the levels search.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from necropolis.analysis.bench import CLOCKS, run_bench
from necropolis.cli.common import console, fail
from necropolis.games import game_ids


def bench(
    game: Annotated[
        list[str] | None,
        typer.Option("--game", "-g", help=f"only this game (repeatable): {', '.join(game_ids())}"),
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.001, help="wall-clock time per figure")
    ] = 1.0,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            help="time figures by wall-clock time (wall) or by this process's CPU time "
            "(cpu: steadier on cores shared with other work)",
        ),
    ] = "wall",
) -> None:
    """Measure random-play, clone (bare and through pyspiel) and IS-MCTS speed for each
    game and player count, beside OpenSpiel's C++ backgammon."""
    known = game_ids()
    for name in game or []:
        if name not in known:
            raise fail(f"no game called {name!r}; the games are: {', '.join(known)}")
    if clock not in CLOCKS:
        raise fail(f"no clock called {clock!r}; the clocks are: {', '.join(CLOCKS)}")
    if as_json:
        print(json.dumps(run_bench(game, seconds, clock=clock), indent=1))
        return
    with console.status("benchmarking") as status:
        result = run_bench(game, seconds, on_progress=lambda text: status.update(text), clock=clock)
    ref = result["reference"]
    console.print(
        f"Reference, {ref['game']}: {ref['steps_per_s']:,.0f} steps/s, "
        f"{ref['clones_per_s']:,.0f} clones/s"
    )
    per = "s of CPU time" if clock == "cpu" else "s"
    # Two tables, each within 80 columns: the figures that have backgammon's beside them
    # (as a ratio), then those with no counterpart there (backgammon hides nothing, and
    # its search is not measured).
    speed = Table(title=f"necropolis bench ({seconds:g} {per} per figure): × ref is × backgammon")
    for column in ("game", "players", "steps/s", "× ref", "clones/s", "× ref", "pyspiel", "× ref"):
        speed.add_column(column, justify="left" if column == "game" else "right")
    search = Table(title="determinizations and IS-MCTS iterations per second")
    for column in ("game", "players", "resample/s", "MCTS it/s", "cut-off it/s"):
        search.add_column(column, justify="left" if column == "game" else "right")
    for game_id, entry in result["games"].items():
        for players, row in entry["players"].items():
            speed.add_row(
                game_id,
                players,
                f"{row['steps_per_s']:,.0f}",
                f"{row['steps_ratio']:.3f}",
                f"{row['clones_per_s']:,.0f}",
                f"{row['clones_ratio']:.3f}",
                f"{row['spiel_clones_per_s']:,.0f}",
                f"{row['spiel_clones_ratio']:.3f}",
            )
            search.add_row(
                game_id,
                players,
                f"{row['resamples_per_s']:,.0f}",
                f"{row['mcts_iterations_per_s']:,.0f}",
                f"{row['mcts_cutoff_iterations_per_s']:,.0f}",
            )
    console.print(speed)
    console.print("pyspiel: clones of the pyspiel state, as a researcher's Python loop makes them")
    console.print(search)
