"""Many matches in a batch: seeded, optionally parallel, summarised per seat.

Each match ``i`` of a batch seeded ``s`` uses seed ``s * 1_000_003 + i`` (see
:mod:`necropolis.analysis.batch`, which plays the batch) so that any single match can be
replayed alone, and so that splitting the batch across processes changes nothing.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.bots import make_bot
from necropolis.engine.driver import play_match
from necropolis.games import load_game


@dataclass(frozen=True)
class MatchResult:
    """What one finished match says: per-seat scores and returns, and its length."""

    seed: int
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    actions: int
    decisions: int


def play_one(game_id: str, options: dict[str, Any], bots: Sequence[str], seed: int) -> MatchResult:
    """Play one match of bots; only the bots' names cross process boundaries."""
    game = load_game(game_id, **options)
    players = [make_bot(name) for name in bots]
    decisions = 0

    def count(state: Any, action: int) -> None:
        nonlocal decisions
        decisions += state.current_player() >= 0

    final, record = play_match(game, players, seed=seed, on_action=count)
    return MatchResult(
        seed, tuple(final.scores()), tuple(final.returns()), len(record.actions), decisions
    )


def run_batch(
    game_id: str,
    options: dict[str, Any],
    bots: Sequence[str],
    matches: int,
    seed: int = 0,
    workers: int = 1,
    chunk: int = 25,
    ray_address: str | None = None,
) -> Iterator[MatchResult]:
    """Yield the results of ``matches`` matches in order (in batches of ``chunk``), on
    ``workers`` local processes or the Ray cluster at ``ray_address``."""
    load_game(game_id, **options)  # fail fast on a bad game or option, before any worker
    jobs = ((game_id, options, tuple(bots), match_seed(seed, i)) for i in range(matches))
    return run_matches(play_one, jobs, workers, chunk, in_order=True, ray_address=ray_address)


@dataclass
class BatchSummary:
    """Per-seat score statistics, wins and game lengths over a batch."""

    players: int
    results: list[MatchResult] = field(default_factory=list)

    def add(self, result: MatchResult) -> None:
        self.results.append(result)

    def score_stats(self, seat: int) -> tuple[float, float, float, float]:
        """Mean, standard deviation, minimum and maximum score of ``seat``."""
        values = [r.scores[seat] for r in self.results]
        spread = statistics.pstdev(values) if len(values) > 1 else 0.0
        return statistics.fmean(values), spread, min(values), max(values)

    def wins(self, seat: int) -> float:
        """Wins of ``seat``, a shared win counting its share."""
        return sum(r.returns[seat] for r in self.results)

    def no_winner(self) -> int:
        """Matches that ended with nobody winning."""
        return sum(1 for r in self.results if not any(r.returns))

    def length_stats(self, key: Callable[[MatchResult], int]) -> tuple[float, int, int, int]:
        """Mean, median, minimum and maximum of a length measure."""
        values = [key(r) for r in self.results]
        return statistics.fmean(values), int(statistics.median(values)), min(values), max(values)
