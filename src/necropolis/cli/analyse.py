"""``necropolis analyse``: a finished match explained, seat by seat.

For each seat: its chance to win along the match as it could see it then, its decisions
weighed against the best the analysis finds (marks for the costly ones), its luck, and
its three key moments; ``--json`` prints the whole analysis (every moment's chances and
every decision) for programs. The method is :mod:`necropolis.analysis.explain`'s, and
``docs/analysis.md`` describes it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from necropolis.analysis.explain import Depth, MatchAnalysis, analyse_record
from necropolis.cli.common import console, err_console, fail
from necropolis.engine.errors import MatchRecordError
from necropolis.engine.record import MatchRecord
from necropolis.games import load_game

#: Characters of the chance line, low to high.
_BARS = "▁▂▃▄▅▆▇█"
#: Columns of the chance line.
_WIDTH = 60
#: Log entries told of a key moment (the end of a match tells every score).
_ENTRIES = 3


def analyse(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="a finished match (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the analysis as JSON")] = False,
    worlds: Annotated[
        int, typer.Option("--worlds", min=1, help="worlds drawn from a seat's view a moment")
    ] = Depth.worlds,
    rollout: Annotated[
        int,
        typer.Option("--rollout", min=0, help="actions played in each world before judging"),
    ] = Depth.rollout,
    seed: Annotated[int, typer.Option("--seed", help="the analysis's own draws")] = Depth.seed,
    seat: Annotated[
        int | None, typer.Option("--seat", min=1, help="only Player N (default: every seat)")
    ] = None,
) -> None:
    """Explain a finished match: each seat's chances, decisions, luck and key moments."""
    try:
        record = MatchRecord.load(path)
        game = record.load_game(load_game)
        if seat is not None and seat > game.num_players:
            raise fail(f"--seat must be 1 to {game.num_players}")
        depth = Depth(worlds=worlds, rollout=rollout, seed=seed)
        seats = None if seat is None else [seat - 1]
        with err_console.status("analysing the match…") as status:

            def told(done: int, total: int) -> None:
                status.update(f"analysing the match… {100 * done // max(1, total)}%")

            analysis = analyse_record(record, load_game, depth, progress=told, seats=seats)
    except MatchRecordError as exc:
        raise fail(str(exc)) from None
    if as_json:
        console.print_json(json.dumps(analysis.to_json()))
        return
    show(analysis)


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def _points(swing: float) -> str:
    return f"{100 * swing:+.1f}"


def _line(series: list[float]) -> str:
    """The chances as a line of block characters, ``_WIDTH`` wide at most."""
    if not series:
        return ""
    columns = min(_WIDTH, len(series))
    picked = [series[round(i * (len(series) - 1) / max(1, columns - 1))] for i in range(columns)]
    top = len(_BARS) - 1
    return "".join(_BARS[min(top, max(0, round(c * top)))] for c in picked)


def show(analysis: MatchAnalysis) -> None:
    """Print ``analysis`` for a person."""
    depth = analysis.depth
    console.print(
        f"[bold]{analysis.game}[/], {len(analysis.players)} players: "
        f"{depth.worlds} worlds a moment, {depth.rollout} rollout actions, "
        f"judged by the {analysis.judge}"
    )
    table = Table()
    for column in ("seat", "player", "start", "result", "decisions", "luck", "accuracy"):
        table.add_column(column, justify="left" if column == "player" else "right")
    table.add_column("inaccuracies / mistakes / blunders", justify="right")
    for row in analysis.seats:
        table.add_row(
            f"{row.seat + 1}",
            analysis.players[row.seat],
            _percent(row.start),
            _percent(row.result),
            _points(row.decisions),
            _points(row.luck),
            f"{row.accuracy:.0f}",
            f"{row.marks['inaccuracy']} / {row.marks['mistake']} / {row.marks['blunder']}",
        )
    console.print(table)
    console.print("decisions and luck in points of chance to win; they add up to result − start")
    for row in analysis.seats:
        seat = row.seat
        console.print(f"\n[bold]Player {seat + 1}[/] ({analysis.players[seat]})")
        console.print("  chance " + _line([moment[seat] for moment in analysis.chances]))
        for moment in row.moments:
            texts = [entry["text"] for entry in moment.entries]
            said = "; ".join(texts[:_ENTRIES]) + ("; …" if len(texts) > _ENTRIES else "")
            console.print(
                f"  key moment, action {moment.index}: {_percent(moment.before)} → "
                f"{_percent(moment.after)} ({moment.cause}) {said}"
            )
            if moment.preferred is not None:
                console.print(f"    the analysis preferred: {moment.preferred['text']}")
        for decision in analysis.decisions:
            if decision.seat != seat or decision.mark is None:
                continue
            better = decision.preferred["text"] if decision.preferred is not None else ""
            console.print(
                f"  {decision.mark}, action {decision.index} ({_points(-decision.loss)}): "
                f"{decision.played['text']}; better: {better}"
            )
