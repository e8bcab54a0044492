"""Tournaments between bots: rotated seats, parallel matches, win rates and Elo ratings.

A tournament plays ``games`` matches of one game among a list of bots. Seats are
assigned from a fixed cycle of lineups: every group of ``players`` bots (all of them
when there are exactly as many bots as seats, each bot repeated in turn when there are
fewer), in every seating order, listed so that each run of ``players`` consecutive
matches is one full rotation. Any number of matches that is a multiple of the seat count
therefore gives each bot each seat equally often, and a whole cycle also balances who
sits after whom. Match ``i`` is seeded as in ``necropolis simulate``, so any match can be
replayed alone, and it does not matter how the matches were spread over processes.

Results are a bot's share of wins (a shared win counts its share) with a 95% Wilson score
interval, the same per seat (how much sitting first is worth, whoever sits there), and a
Bradley–Terry fit of the pairwise outcomes inside each match: bot A beats bot B in a
match when A's return is higher, or when their returns are equal and A's score is higher
(so two losers are still ranked); a pair equal in both counts half a win each. Ratings
are on the Elo scale (400 points for a factor of ten in odds, the mean at 1500), with a
bootstrap interval over matches. The fit adds one drawn virtual game between every pair
of bots, so a bot that won everything still gets a finite rating.

Every decision with a real choice (more than one legal action) is timed, so that a
tournament also says how long each bot thinks: the median, 95th percentile and maximum
seconds per decision. These are wall-clock figures of the machine the run was on, with
whatever else it was doing at the time.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.bots import make_bot
from necropolis.engine.driver import Player, play_match
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Elo points for a factor of ten in the odds of winning.
ELO_SCALE = 400.0
#: Where the mean rating sits.
ELO_MEAN = 1500.0

T = TypeVar("T")


@dataclass(frozen=True)
class TournamentMatch:
    """One match of the tournament: who sat where, and how it ended."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    actions: int
    #: Per seat, the seconds of each decision that had more than one legal action. Left
    #: out of comparisons: the same match replayed takes a different time.
    decision_seconds: tuple[tuple[float, ...], ...] = field(default=(), compare=False)


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The cycle of seat assignments; match ``i`` uses entry ``i % len(cycle)``.

    Each block of ``players`` consecutive entries is the rotations of one seating.
    """
    if players < 1 or not bots:
        raise ValueError("a tournament needs at least one bot and one seat")
    if len(bots) >= players:
        groups: list[tuple[str, ...]] = list(itertools.combinations(bots, players))
    else:
        groups = [tuple(bots[i % len(bots)] for i in range(players))]
    # With distinct bots these are all the seatings, each once. With repeated bots some
    # repeat, which keeps every block a whole rotation (and the counts balanced).
    cycle: list[tuple[str, ...]] = []
    for group in groups:
        first, rest = group[0], group[1:]
        for order in itertools.permutations(rest):
            base = (first, *order)
            cycle.extend(base[shift:] + base[:shift] for shift in range(players))
    return cycle


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by the nearest-rank method (0 if empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def rotations(lineup: Sequence[T]) -> list[tuple[T, ...]]:
    """A fixed lineup turned round the table: each entry seats it one place further on.

    For one bot against several copies of another (``hard`` among three ``heuristic``),
    which :func:`lineups` cannot express since it takes each bot once.
    """
    if not lineup:
        raise ValueError("a lineup needs at least one bot")
    seats = tuple(lineup)
    return [seats[shift:] + seats[:shift] for shift in range(len(seats))]


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


Pairwise = dict[str, dict[str, list[float]]]


def pairwise_outcomes(matches: Sequence[TournamentMatch], bots: Sequence[str]) -> Pairwise:
    """``result[a][b] = [wins of a over b, games between them]`` from within-match pairs.

    A pair is ordered by return, then by score; a pair equal in both is half a win each.
    """
    table: Pairwise = {a: {b: [0.0, 0.0] for b in bots if b != a} for a in bots}
    for match in matches:
        seats = range(len(match.lineup))
        for i, j in itertools.combinations(seats, 2):
            a, b = match.lineup[i], match.lineup[j]
            if a == b:
                continue  # a bot against itself says nothing about its strength
            # Returns first; between two seats that both lost (or tied), the game's own
            # score says who came closer, which would otherwise be thrown away as a draw.
            ra = (match.returns[i], match.scores[i])
            rb = (match.returns[j], match.scores[j])
            share = 1.0 if ra > rb else 0.0 if ra < rb else 0.5
            table[a][b][0] += share
            table[a][b][1] += 1
            table[b][a][0] += 1 - share
            table[b][a][1] += 1
    return table


def bradley_terry_elo(
    pairwise: Pairwise, prior_games: float = 1.0, iterations: int = 10_000
) -> dict[str, float]:
    """Elo-scale ratings from a Bradley–Terry fit (minorization–maximization updates).

    ``prior_games`` drawn games are added between every pair of bots, which keeps the
    fit finite when a bot never lost (or never won).
    """
    bots = list(pairwise)
    strength = dict.fromkeys(bots, 1.0)
    wins = {a: sum(w + prior_games / 2 for w, _ in pairwise[a].values()) for a in bots}
    games = {a: {b: n + prior_games for b, (_, n) in pairwise[a].items()} for a in bots}
    for _ in range(iterations):
        updated = {}
        for a in bots:
            denominator = sum(n / (strength[a] + strength[b]) for b, n in games[a].items())
            updated[a] = wins[a] / denominator if denominator else strength[a]
        # Strengths are defined up to a factor: pin their geometric mean at one.
        centre = math.exp(sum(math.log(s) for s in updated.values()) / len(bots))
        updated = {a: s / centre for a, s in updated.items()}
        change = max(abs(math.log(updated[a] / strength[a])) for a in bots)
        strength = updated
        if change < 1e-12:
            break
    return {a: ELO_MEAN + ELO_SCALE * math.log10(strength[a]) for a in bots}


@dataclass
class TournamentResult:
    """Everything a tournament produced, and its summaries."""

    game: str
    options: dict[str, Any]
    bots: list[str]
    seed: int
    matches: list[TournamentMatch] = field(default_factory=list)
    #: The command that played it, as typed (``necropolis tournament …``), when known:
    #: what a reader runs to measure it again.
    command: str | None = None
    # The bot summary (with its bootstrap) for a given number of matches, computed once.
    _summary: tuple[int, dict[str, dict[str, Any]]] | None = field(default=None, repr=False)

    @property
    def players(self) -> int:
        return int(self.options["players"])

    def bot_summary(self) -> dict[str, dict[str, Any]]:
        """Per bot: seats played, wins, win rate with its 95% interval, and Elo."""
        if self._summary is not None and self._summary[0] == len(self.matches):
            return self._summary[1]
        seats = dict.fromkeys(self.bots, 0)
        wins = dict.fromkeys(self.bots, 0.0)
        for match in self.matches:
            for name, share in zip(match.lineup, match.returns, strict=True):
                seats[name] += 1
                wins[name] += share
        timings: dict[str, list[float]] = {name: [] for name in self.bots}
        for match in self.matches:
            for name, spent in zip(match.lineup, match.decision_seconds, strict=False):
                timings[name].extend(spent)
        elo = self.elo()
        low_high = self.elo_interval()
        summary = {}
        for name in self.bots:
            n = seats[name]
            times = timings[name]
            summary[name] = {
                "seats_played": n,
                "wins": wins[name],
                "win_rate": wins[name] / n if n else 0.0,
                "win_rate_ci95": list(wilson_interval(wins[name], n)),
                "elo": elo[name],
                "elo_ci95": list(low_high[name]),
                "decision_seconds": {
                    "decisions": len(times),
                    "p50": percentile(times, 0.5),
                    "p95": percentile(times, 0.95),
                    "max": max(times, default=0.0),
                },
            }
        self._summary = (len(self.matches), summary)
        return summary

    def seat_summary(self) -> list[dict[str, Any]]:
        """Per seat, whoever sat there: win rate with its 95% interval."""
        n = len(self.matches)
        result = []
        for seat in range(self.players):
            wins = sum(m.returns[seat] for m in self.matches)
            result.append(
                {
                    "seat": seat,
                    "wins": wins,
                    "win_rate": wins / n if n else 0.0,
                    "win_rate_ci95": list(wilson_interval(wins, n)),
                }
            )
        return result

    def elo(self) -> dict[str, float]:
        return bradley_terry_elo(pairwise_outcomes(self.matches, self.bots))

    def elo_interval(self, resamples: int = 200) -> dict[str, tuple[float, float]]:
        """A 95% percentile bootstrap interval of each rating, resampling matches."""
        if len(self.bots) < 2 or not self.matches:
            return {name: (ELO_MEAN, ELO_MEAN) for name in self.bots}
        rng = random.Random(self.seed)
        draws: dict[str, list[float]] = {name: [] for name in self.bots}
        for _ in range(resamples):
            sample = rng.choices(self.matches, k=len(self.matches))
            fitted = bradley_terry_elo(pairwise_outcomes(sample, self.bots), iterations=500)
            for name, rating in fitted.items():
                draws[name].append(rating)
        result = {}
        for name, values in draws.items():
            values.sort()
            low = values[int(0.025 * (len(values) - 1))]
            high = values[math.ceil(0.975 * (len(values) - 1))]
            result[name] = (low, high)
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "command": self.command,
            "games": len(self.matches),
            "no_winner": sum(1 for m in self.matches if not any(m.returns)),
            "results": self.bot_summary(),
            "seats": self.seat_summary(),
            "pairwise": {
                a: {b: {"wins": w, "games": n} for b, (w, n) in row.items()}
                for a, row in pairwise_outcomes(self.matches, self.bots).items()
            },
            "matches": [asdict(m) for m in self.matches],
        }

    @classmethod
    def read_json(cls, path: Path) -> TournamentResult:
        """A result back from :meth:`write_json`'s file (to plot or summarise it again)."""
        data = json.loads(path.read_text())
        result = cls(data["game"], data["options"], data["bots"], data["seed"])
        result.command = data.get("command")
        for m in data["matches"]:
            result.matches.append(
                TournamentMatch(
                    m["index"],
                    m["seed"],
                    tuple(m["lineup"]),
                    tuple(m["returns"]),
                    tuple(m["scores"]),
                    m["actions"],
                    tuple(tuple(t) for t in m.get("decision_seconds", ())),
                )
            )
        return result

    def write_json(self, path: Path) -> None:
        write_compact_json(path, self.to_json())

    def write_plot(self, path: Path) -> None:
        """A PNG: win rates (with the fair share marked), Elo ratings, seat win rates."""
        import matplotlib

        matplotlib.use("Agg")  # files only: no display, no GUI toolkit needed
        import matplotlib.pyplot as plt

        bots = self.bot_summary()
        seats = self.seat_summary()
        names = list(bots)
        fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
        ax = axes[0]
        rates = [bots[n]["win_rate"] for n in names]
        ax.bar(names, rates, yerr=_bars(rates, [bots[n]["win_rate_ci95"] for n in names]))
        ax.axhline(1 / self.players, color="grey", linestyle="--", label="fair share")
        ax.set_ylim(0, 1)
        ax.set_title("win rate (95% Wilson)")
        ax.legend()
        ax = axes[1]
        ratings = [bots[n]["elo"] for n in names]
        # Points, not bars: a rating has no zero for a bar to grow from.
        elo_bars = _bars(ratings, [bots[n]["elo_ci95"] for n in names])
        ax.errorbar(names, ratings, yerr=elo_bars, fmt="o", capsize=5)
        ax.margins(x=0.2)
        ax.axhline(ELO_MEAN, color="grey", linestyle="--")
        ax.set_title("Elo (Bradley–Terry, 95% bootstrap)")
        ax = axes[2]
        seat_rates = [s["win_rate"] for s in seats]
        seat_names = [f"seat {s['seat']}" for s in seats]
        ax.bar(seat_names, seat_rates, yerr=_bars(seat_rates, [s["win_rate_ci95"] for s in seats]))
        ax.axhline(1 / self.players, color="grey", linestyle="--")
        ax.set_ylim(0, 1)
        ax.set_title("win rate by seat")
        fig.suptitle(f"{self.game}, {self.players} players, {len(self.matches)} matches")
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
        plt.close(fig)


def write_compact_json(path: Path, data: Any) -> None:
    """``data`` as JSON on one line: no indentation, no spaces after separators.

    A tournament's file is mostly numbers (every match, every decision's seconds), which
    indentation would more than double; ``python -m json.tool`` shows it laid out.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")


def _bars(values: Sequence[float], intervals: Sequence[Sequence[float]]) -> list[list[float]]:
    """Error bars below and above each value, never negative.

    Rounding can put a Wilson bound a hair past its estimate, and a percentile bootstrap
    need not contain the point estimate at all; matplotlib refuses negative bars.
    """
    below = [max(0.0, v - ci[0]) for v, ci in zip(values, intervals, strict=True)]
    above = [max(0.0, ci[1] - v) for v, ci in zip(values, intervals, strict=True)]
    return [below, above]


class _Timed:
    """A bot that notes how long each real choice took (forced moves are not counted)."""

    def __init__(self, bot: Player) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds: list[float] = []

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if len(window.legal_actions()) < 2:
            return self.bot.choose(window, rng)
        start = time.perf_counter()
        action = self.bot.choose(window, rng)
        self.seconds.append(round(time.perf_counter() - start, 5))
        return action


def _play(
    game_id: str, options: dict[str, Any], lineup: tuple[str, ...], index: int, seed: int
) -> TournamentMatch:
    # The same seeding as ``necropolis simulate``'s matches, so any match replays alone.
    game = load_game(game_id, **options)
    players = [_Timed(make_bot(name)) for name in lineup]
    final, record = play_match(game, players, seed=seed)
    return TournamentMatch(
        index,
        seed,
        lineup,
        tuple(final.returns()),
        tuple(final.scores()),
        len(record.actions),
        tuple(tuple(p.seconds) for p in players),
    )


def play_matches(
    game_id: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    cycle: Sequence[tuple[str, ...]] | None = None,
    skip: Collection[int] = (),
    ray_address: str | None = None,
) -> Iterator[TournamentMatch]:
    """Yield the tournament's matches as they finish (any order with several workers).

    ``cycle`` replaces the seat assignments of :func:`lineups` (e.g. :func:`rotations`);
    the matches whose indices are in ``skip`` (already played) are left out.
    """
    if cycle is None:
        players = int(load_game(game_id, **options).options["players"])
        cycle = lineups(bots, players)
    jobs = [
        (game_id, options, cycle[i % len(cycle)], i, match_seed(seed, i))
        for i in range(games)
        if i not in skip
    ]
    # One match per task: a tournament's matches are slow (IS-MCTS in a long game), and
    # each is yielded as soon as it ends, whatever is still being played.
    return run_matches(_play, jobs, workers, ray_address=ray_address)


def run_tournament(
    game_id: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    on_match: Callable[[TournamentMatch], None] | None = None,
    lineup: Sequence[str] | None = None,
    resume: TournamentResult | None = None,
    ray_address: str | None = None,
) -> TournamentResult:
    """Play the whole tournament; ``on_match`` is called as each match finishes.

    With a ``lineup`` (one name per seat, repeats allowed) every match seats those bots,
    turned round the table from match to match, instead of every group of ``bots``.
    ``resume``, the result of a run of this very tournament stopped early (its
    checkpoint), keeps that run's matches and plays only the others (on ``workers`` local
    processes, or the Ray cluster at ``ray_address``); a result of another
    tournament is refused with :class:`ResumeMismatchError`.
    """
    game = load_game(game_id, **options)
    if lineup is not None:
        if len(lineup) != game.num_players:
            raise ValueError(f"the lineup names {len(lineup)} bots for {game.num_players} seats")
        bots = list(lineup)
    cycle = rotations(lineup) if lineup is not None else lineups(bots, game.num_players)
    result = TournamentResult(game.id, dict(game.options), list(dict.fromkeys(bots)), seed)
    if resume is not None:
        _check_resumable(resume, result, cycle, games)
        result.matches.extend(resume.matches)
    done = {m.index for m in result.matches}
    matches = play_matches(
        game.id, dict(game.options), result.bots, games, seed, workers, cycle, done, ray_address
    )
    for match in matches:
        result.matches.append(match)
        if on_match is not None:
            on_match(match)
    result.matches.sort(key=lambda m: m.index)
    return result


class ResumeMismatchError(ValueError):
    """The results given to resume from are of another tournament."""


def _check_resumable(
    earlier: TournamentResult, fresh: TournamentResult, cycle: Sequence[tuple[str, ...]], games: int
) -> None:
    """Refuse to resume from the results of a different tournament.

    Game, options, bots and seed must be the same, and every match must have been seated
    as this tournament would seat it (which tells ``--lineup`` runs from ``--bots`` ones).
    """
    ours = (fresh.game, fresh.options, fresh.bots, fresh.seed)
    theirs = (earlier.game, earlier.options, earlier.bots, earlier.seed)
    for name, mine, other in zip(("game", "options", "bots", "seed"), ours, theirs, strict=True):
        if mine != other:
            raise ResumeMismatchError(f"the earlier run had {name} {other!r}, not {mine!r}")
    for match in earlier.matches:
        if match.index >= games:
            raise ResumeMismatchError(f"the earlier run has match {match.index}, past {games}")
        if match.lineup != cycle[match.index % len(cycle)]:
            raise ResumeMismatchError(
                f"the earlier run seated match {match.index} as "
                f"{','.join(match.lineup)}, this one would not"
            )
