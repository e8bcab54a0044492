"""``necropolis simulate``: a batch of bot matches with a summary of scores and lengths."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from necropolis.analysis.simulate import BatchSummary, run_batch
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
    wins_text,
)


def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    matches: Annotated[int, typer.Option("-n", "--matches", min=1, help="how many matches")] = 100,
    players: Annotated[int | None, typer.Option("--players", "-p", help="players")] = None,
    seed: Annotated[int, typer.Option("--seed", help="batch seed (match i: derived)")] = 0,
    bots: Annotated[
        str,
        typer.Option("--bots", help=f"bot per seat, comma-separated, or one for all ({BOT_NAMES})"),
    ] = "random",
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="processes")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="a game option, name=value")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="play on the Ray cluster at ADDRESS (or auto) instead"),
    ] = None,
) -> None:
    """Play N matches of bots and summarise scores, wins by seat and match length."""
    options = parse_options(option)
    if players is not None:
        options["players"] = players
    game = open_game(game_id, options)
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names *= game.num_players
    if len(names) != game.num_players:
        raise fail(f"--bots names {len(names)} bots for {game.num_players} players")
    for name in names:
        if name not in BOTS:
            raise fail(f"no bot called {name!r}; the bots are: {', '.join(BOTS)}")
    summary = BatchSummary(game.num_players)
    batch = run_batch(game.id, dict(game.options), names, matches, seed, workers, ray_address=ray)
    with ray_session_or_fail(ray), batch_progress(as_json) as progress:
        task = progress.add_task(f"{game.id} ×{game.num_players}", total=matches)
        for result in batch:
            summary.add(result)
            progress.advance(task)
    if as_json:
        print(json.dumps(_summary_json(game.id, dict(game.options), names, summary), indent=1))
        return
    _print_summary(summary, names)


def _summary_json(
    game_id: str, options: dict[str, object], names: list[str], summary: BatchSummary
) -> dict[str, object]:
    seats = []
    for seat in range(summary.players):
        mean, sd, low, high = summary.score_stats(seat)
        seats.append(
            {
                "bot": names[seat],
                "score_mean": mean,
                "score_sd": sd,
                "score_min": low,
                "score_max": high,
                "wins": summary.wins(seat),
            }
        )
    mean, median, low, high = summary.length_stats(lambda r: r.actions)
    dmean, dmedian, dlow, dhigh = summary.length_stats(lambda r: r.decisions)
    return {
        "game": game_id,
        "options": options,
        "matches": len(summary.results),
        "seats": seats,
        "no_winner": summary.no_winner(),
        "actions": {"mean": mean, "median": median, "min": low, "max": high},
        "decisions": {"mean": dmean, "median": dmedian, "min": dlow, "max": dhigh},
    }


def _print_summary(summary: BatchSummary, names: list[str]) -> None:
    total = len(summary.results)
    table = Table(title=f"{total} matches")
    for column in ("seat", "bot", "mean score", "sd", "min", "max", "wins", "win %"):
        table.add_column(column, justify="right" if column not in ("seat", "bot") else "left")
    for seat in range(summary.players):
        mean, sd, low, high = summary.score_stats(seat)
        wins = summary.wins(seat)
        table.add_row(
            str(seat),
            names[seat],
            f"{mean:.2f}",
            f"{sd:.2f}",
            f"{low:g}",
            f"{high:g}",
            wins_text(wins),
            f"{100 * wins / total:.1f}",
        )
    console.print(table)
    if summary.no_winner():
        console.print(f"Matches with no winner: {summary.no_winner()}")
    mean, median, low, high = summary.length_stats(lambda r: r.actions)
    console.print(
        f"Actions per match (chance included): mean {mean:.1f}, median {median}, "
        f"min {low}, max {high}"
    )
    mean, median, low, high = summary.length_stats(lambda r: r.decisions)
    console.print(f"Decisions per match: mean {mean:.1f}, median {median}, min {low}, max {high}")
