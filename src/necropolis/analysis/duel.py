"""Strength on duplicate deals: bots compared so that the luck of the deal cancels.

A comparison plays a *lineup* (bot A against bot B, or one bot against several copies of
another) on a *bank* of deals. Deal ``d`` of bank ``b`` is played once per seating (the
lineup turned round the table: at two players A first, then B first), and every seating
of a deal gets the same chance: each chance node draws from a stream of its own kind
(:meth:`~necropolis.engine.protocol.State.chance_kind`: a die, a named deck, the blocks
in the box), seeded from the bank, the deal and the kind, and turns its k-th random
number into an outcome by the inverse of the node's distribution. The same die comes up
and the same card is drawn in both seatings as long as the two matches have not made the
deck or the board differ, so a lucky deal is lucky for each bot once. Every bot pair
played on one bank meets the same deals, which is what makes two runs comparable deal
by deal.

The figures, for the lineup's first bot (the *candidate*): its score share (its share of
the wins; a match nobody wins counts each seat its fair share, half at two players), with
a 95% interval computed over deals, since the deals are the independent units (the two
plays of one deal are not); the Elo difference that its share against each other seat
means, with the interval mapped from the share's; its mean score margin over the best
other seat; and, against an earlier run on the same bank (another candidate against the
same opponents: a change), the *paired* difference of their shares deal by deal, with
its interval. Matches run through :func:`~necropolis.analysis.batch.run_matches` (here,
on local processes, or on Ray), each decided by its deal and seating alone, so a run
gives the same figures whatever the number of workers as long as its bots count
iterations rather than watch a clock. A run is a JSON Lines file: a header, then one line
per match appended as it ends, so that a run stopped anywhere resumes from its file.

Bots are named as for ``necropolis tournament`` (:data:`necropolis.bots.BOTS`), by the
research contenders of :mod:`necropolis.analysis.headroom`, as ``module:function`` (a
factory of a player, importable in the workers), or given as a :class:`Contender`.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.analysis.tournament import Z95, rotations, wilson_interval
from necropolis.bots import BOTS, make_bot
from necropolis.engine.driver import Player, play_match
from necropolis.engine.protocol import State, sample_chance
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game

#: What the first line of a run's file says it is, and the layout's version.
FORMAT = "necropolis duplicate deals"
VERSION = 1
#: Elo points for a factor of ten in the odds of winning.
ELO_SCALE = 400.0


# --- the deals --------------------------------------------------------------------------


class DuplicateChance:
    """The chance of one deal: the k-th node of each kind gets the k-th number of that
    kind's stream, turned into an outcome by the inverse of the node's distribution.

    One instance serves one match (it counts the draws of each kind); a fresh one for the
    same bank and deal replays the same numbers. Streams are seeded from text, which
    Python hashes the same way on every machine and in every process.
    """

    __slots__ = ("_key", "_saved", "_streams")

    def __init__(self, bank: int, deal: int) -> None:
        self._key = f"{FORMAT}: bank {bank}, deal {deal}"
        self._streams: dict[str, random.Random] = {}
        #: Where a twin's streams stand, by kind, until the twin first draws from them.
        self._saved: dict[str, tuple[Any, ...]] = {}

    def __call__(self, state: State) -> int:
        kind = state.chance_kind()
        stream = self._streams.get(kind)
        if stream is None:
            stream = self._streams[kind] = random.Random(f"{self._key}, {kind}")
            saved = self._saved.get(kind)
            if saved is not None:
                stream.setstate(saved)
        # sample_chance is the inverse of the distribution: one number, outcomes in order.
        return sample_chance(state, stream)

    def copy(self) -> DuplicateChance:
        """A twin that goes on from where this one stands: given the same chance nodes,
        it draws the outcomes this one would draw next (what the clairvoyant is told).
        A twin of a twin that has not drawn costs next to nothing: the streams' states
        are shared and made into streams only when drawn from."""
        twin = DuplicateChance.__new__(DuplicateChance)
        twin._key = self._key
        twin._streams = {}
        twin._saved = self._saved
        if self._streams:
            twin._saved = dict(self._saved)
            for kind, stream in self._streams.items():
                twin._saved[kind] = stream.getstate()
        return twin


def deal_seed(bank: int, deal: int) -> int:
    """The seed of deal ``deal`` of bank ``bank``: the bots' generators come from it (the
    same for a seat in every seating), as a match's do in a tournament."""
    return match_seed(bank, deal)


# --- the bots ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contender:
    """A bot in a comparison: its name in the results, and how to make it.

    ``factory`` is called once per match, in whichever process plays it, so it must be
    picklable for more than one worker (a module-level function, or a
    :func:`functools.partial` of one, e.g. a model's loader with the model's file).
    """

    name: str
    factory: Callable[[], Player] = field(compare=False)


BotSpec = str | Contender


def contender(spec: BotSpec) -> Contender:
    """The contender ``spec`` names: a bot of the registry, a research contender of
    :mod:`necropolis.analysis.headroom`, or ``module:function`` (a factory)."""
    if isinstance(spec, Contender):
        return spec
    from necropolis.analysis.headroom import RESEARCH

    if spec in BOTS:
        return Contender(spec, partial(make_bot, spec))
    if spec in RESEARCH:
        return Contender(spec, RESEARCH[spec])
    module, colon, name = spec.partition(":")
    if colon and module and name:
        try:
            factory = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"cannot find the bot factory {spec!r}: {error}") from None
        if not callable(factory):
            raise ValueError(f"{spec!r} is not a function that makes a bot")
        return Contender(spec, factory)
    known = ", ".join([*BOTS, *RESEARCH])
    raise ValueError(f"no bot called {spec!r}; the bots are {known}, or module:function")


# --- one match --------------------------------------------------------------------------


@dataclass(frozen=True)
class DuelMatch:
    """One play of a deal: its seating (the lineup turned ``seating`` places), the
    outcome, and what each seat's thinking cost."""

    deal: int
    seating: int
    lineup: tuple[str, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    actions: int
    #: Per seat: decisions with a real choice, their CPU seconds in all, the longest one.
    #: Left out of comparisons: the same match played again takes other times.
    thinking: tuple[tuple[int, float, float], ...] = field(default=(), compare=False)

    @property
    def key(self) -> tuple[int, int]:
        return (self.deal, self.seating)

    def share(self, seat: int) -> float:
        """The seat's part of the win; a match nobody won gives each seat its fair share."""
        if any(self.returns):
            return self.returns[seat]
        return 1 / len(self.returns)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DuelMatch:
        return cls(
            int(data["deal"]),
            int(data["seating"]),
            tuple(data["lineup"]),
            tuple(float(r) for r in data["returns"]),
            tuple(float(s) for s in data["scores"]),
            int(data["actions"]),
            tuple((int(n), float(t), float(m)) for n, t, m in data.get("thinking", ())),
        )


class _Clocked:
    """A bot whose real choices (more than one legal action) are timed in CPU seconds:
    the process plays one match alone, so its CPU time is the bot's, however loaded the
    machine (wall-clock time on a shared machine would be the queue's)."""

    def __init__(self, bot: Player) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.total = 0.0
        self.longest = 0.0

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if len(window.legal_actions()) < 2:
            return self.bot.choose(window, rng)
        start = time.process_time()
        action = self.bot.choose(window, rng)
        spent = time.process_time() - start
        self.decisions += 1
        self.total += spent
        self.longest = max(self.longest, spent)
        return action

    def thinking(self) -> tuple[int, float, float]:
        return (self.decisions, round(self.total, 4), round(self.longest, 4))


def seatings(lineup: Sequence[Contender]) -> list[tuple[Contender, ...]]:
    """Every seating a deal is played in: the lineup turned round the table."""
    return rotations(lineup)


def play_deal(
    game_id: str,
    options: dict[str, Any],
    lineup: tuple[Contender, ...],
    bank: int,
    deal: int,
    seating: int,
) -> DuelMatch:
    """Play deal ``deal`` of bank ``bank`` in seating ``seating`` of ``lineup``."""
    game = load_game(game_id, **options)
    seated = seatings(lineup)[seating]
    chance = DuplicateChance(bank, deal)
    bots = [c.factory() for c in seated]
    for bot in bots:
        # The one way a player learns the deal's coming draws: the research oracle that
        # is told them (headroom's ClairvoyantBot) asks for the match's chance. No level
        # and no other contender has a ``foresee``.
        foresee = getattr(bot, "foresee", None)
        if callable(foresee):
            foresee(chance)
    players = [_Clocked(bot) for bot in bots]
    final, record = play_match(game, players, seed=deal_seed(bank, deal), chance=chance)
    return DuelMatch(
        deal,
        seating,
        tuple(c.name for c in seated),
        tuple(final.returns()),
        tuple(final.scores()),
        len(record.actions),
        tuple(p.thinking() for p in players),
    )


# --- a run ------------------------------------------------------------------------------


@dataclass
class DuelRun:
    """A comparison on duplicate deals: what was asked, and the matches played so far."""

    game: str
    options: dict[str, Any]
    lineup: list[str]
    bank: int
    deals: int
    matches: list[DuelMatch] = field(default_factory=list)
    #: The command that plays it again, when it was played from the command line.
    command: str | None = None

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def candidate(self) -> str:
        return self.lineup[0]

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "lineup": self.lineup,
            "bank": self.bank,
            "deals": self.deals,
            "command": self.command,
        }

    def seating_count(self) -> int:
        return len(rotations(self.lineup))

    def complete_deals(self) -> dict[int, list[DuelMatch]]:
        """The deals played in every seating (the only ones a figure counts), in order."""
        by_deal: dict[int, list[DuelMatch]] = {}
        for match in self.matches:
            by_deal.setdefault(match.deal, []).append(match)
        need = self.seating_count()
        return {
            deal: sorted(ms, key=lambda m: m.seating)
            for deal, ms in sorted(by_deal.items())
            if len(ms) == need
        }

    def figures(self, bot: str | None = None) -> dict[str, Any]:
        """The figures of ``bot`` (the candidate by default) against the other seats."""
        return figures(self, bot or self.candidate)

    # --- the file ----------------------------------------------------------------------

    def write(self, path: Path) -> None:
        """The whole run to ``path`` (header and matches in order), replacing it at once."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".writing")
        lines = [json.dumps(self.header(), separators=(",", ":"))]
        ordered = sorted(self.matches, key=lambda m: m.key)
        lines += [json.dumps(asdict(m), separators=(",", ":")) for m in ordered]
        temporary.write_text("\n".join(lines) + "\n")
        os.replace(temporary, path)

    @classmethod
    def read(cls, path: Path) -> DuelRun:
        """A run from its file; a last line cut off by a stop is left out."""
        lines = path.read_text().splitlines()
        if not lines:
            raise ValueError(f"{path} is empty")
        try:
            head = json.loads(lines[0])
        except json.JSONDecodeError:
            head = None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise ValueError(f"{path} is not a run of duplicate deals")
        if head.get("version") != VERSION:
            raise ValueError(f"{path} has layout {head.get('version')}, not {VERSION}")
        run = cls(
            head["game"],
            head["options"],
            list(head["lineup"]),
            int(head["bank"]),
            int(head["deals"]),
            command=head.get("command"),
        )
        seen: set[tuple[int, int]] = set()
        for number, line in enumerate(lines[1:], start=2):
            try:
                match = DuelMatch.from_json(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                if number == len(lines):
                    break  # the line being written when the run was stopped
                raise ValueError(f"{path}, line {number}: not a match") from None
            if match.key not in seen:
                seen.add(match.key)
                run.matches.append(match)
        return run


class ResumeMismatchError(ValueError):
    """The file to resume from holds a run of another comparison."""


def _check_resumable(earlier: DuelRun, fresh: DuelRun) -> None:
    for name in ("game", "options", "lineup", "bank"):
        mine, theirs = getattr(fresh, name), getattr(earlier, name)
        if mine != theirs:
            raise ResumeMismatchError(f"the earlier run had {name} {theirs!r}, not {mine!r}")
    cycle = rotations(fresh.lineup)
    played = max((m.deal for m in earlier.matches), default=-1) + 1
    if played > fresh.deals:
        # Resuming with fewer deals would drop matches already played from the file.
        raise ResumeMismatchError(f"the earlier run played {played} deals, more than {fresh.deals}")
    for match in earlier.matches:
        if match.seating >= len(cycle) or match.lineup != cycle[match.seating]:
            raise ResumeMismatchError(f"the earlier run seated deal {match.deal} otherwise")


def play_lineup(
    lineup: Sequence[BotSpec],
    game_id: str,
    deals: int,
    bank: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    out: Path | None = None,
    resume: bool = False,
    ray_address: str | None = None,
    on_match: Callable[[DuelMatch], None] | None = None,
    command: str | None = None,
) -> DuelRun:
    """Play ``deals`` deals of bank ``bank`` with ``lineup`` (one bot per seat, the
    candidate first), every deal in every seating; returns the run.

    With ``out``, every match is appended to that file as it ends; with ``resume`` the
    matches already there are kept (the run must be this very comparison: else
    :class:`ResumeMismatchError`) and only the others are played, so a stopped run is
    taken up again, or extended to more deals. Without ``resume`` an existing file is
    refused (:class:`FileExistsError`) rather than overwritten.
    """
    contenders = tuple(contender(spec) for spec in lineup)
    names = [c.name for c in contenders]
    opts = dict(options or {})
    opts.setdefault("players", len(contenders))
    game = load_game(game_id, **opts)
    if game.num_players != len(contenders):
        raise ValueError(f"the lineup names {len(contenders)} bots for {game.num_players} seats")
    if deals < 1:
        raise ValueError("a comparison needs at least one deal")
    if len(set(names)) < 2:
        raise ValueError("a comparison needs two different bots in its lineup")
    run = DuelRun(game.id, dict(game.options), names, bank, deals, command=command)
    if out is not None and out.exists():
        if not resume:
            raise FileExistsError(f"{out} exists: resume it, or choose another file")
        earlier = DuelRun.read(out)
        _check_resumable(earlier, run)
        run.matches.extend(earlier.matches)
    if out is not None:
        run.write(out)  # the header as asked now, and no half-written line
    done = {m.key for m in run.matches}
    count = len(seatings(contenders))
    jobs = (
        (game.id, dict(game.options), contenders, bank, deal, seating)
        for deal in range(deals)
        for seating in range(count)
        if (deal, seating) not in done
    )
    sink = out.open("a") if out is not None else None
    try:
        for match in run_matches(play_deal, jobs, workers, ray_address=ray_address):
            run.matches.append(match)
            if sink is not None:
                sink.write(json.dumps(asdict(match), separators=(",", ":")) + "\n")
                sink.flush()
            if on_match is not None:
                on_match(match)
    finally:
        if sink is not None:
            sink.close()
    run.matches.sort(key=lambda m: m.key)
    return run


def compare(
    a: BotSpec,
    b: BotSpec,
    game_id: str,
    deals: int,
    bank: int = 0,
    workers: int = 1,
    players: int = 2,
    **kwargs: Any,
) -> DuelRun:
    """Bot ``a`` against bot ``b`` (``players - 1`` copies of it) on ``deals`` duplicate
    deals of bank ``bank``: :func:`play_lineup` with the lineup ``a, b, b…``. Its
    :meth:`DuelRun.figures` are ``a``'s; :func:`paired` compares two such runs."""
    lineup = [a, *[b] * (players - 1)]
    return play_lineup(lineup, game_id, deals, bank, workers, **kwargs)


# --- the figures ------------------------------------------------------------------------


def elo(share: float) -> float:
    """The Elo difference that a share of the points against an opponent means."""
    share = min(max(share, 1e-4), 1 - 1e-4)
    return ELO_SCALE * math.log10(share / (1 - share))


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of independent ``values`` and its 95% normal interval."""
    if not values:
        return (0.0, (0.0, 0.0))
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, (mean, mean))
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, (mean - half, mean + half))


def _clip(interval: tuple[float, float]) -> tuple[float, float]:
    return (max(0.0, interval[0]), min(1.0, interval[1]))


def _deal_means(
    deals: dict[int, list[DuelMatch]], measure: Callable[[DuelMatch, int], float], bot: str
) -> list[float]:
    """Per deal, the mean of ``measure(match, seat)`` over ``bot``'s seats in its plays."""
    means = []
    for matches in deals.values():
        values = [measure(m, s) for m in matches for s, n in enumerate(m.lineup) if n == bot]
        means.append(statistics.fmean(values))
    return means


def _pairwise(match: DuelMatch, seat: int) -> float:
    """The seat's share of its head-to-heads with the other bots' seats: a point for a
    higher return, half for the same (both lost, or nobody won)."""
    mine = match.returns[seat]
    bot = match.lineup[seat]
    others = [r for s, r in enumerate(match.returns) if match.lineup[s] != bot]
    return statistics.fmean(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in others)


def _margin(match: DuelMatch, seat: int) -> float:
    """The seat's score minus the best score of the other bots' seats."""
    bot = match.lineup[seat]
    return match.scores[seat] - max(s for k, s in enumerate(match.scores) if match.lineup[k] != bot)


def _r(value: float) -> float:
    return round(value, 4)


def figures(run: DuelRun, bot: str) -> dict[str, Any]:
    """``bot``'s figures in ``run``, over the deals played in every seating."""
    if bot not in run.lineup:
        raise ValueError(f"{bot!r} did not play in this run ({', '.join(run.lineup)})")
    deals = run.complete_deals()
    matches = [m for ms in deals.values() for m in ms]
    seats = [(m, s) for m in matches for s, n in enumerate(m.lineup) if n == bot]
    share, share_ci = mean_interval(_deal_means(deals, DuelMatch.share, bot))
    wins = sum(m.share(s) for m, s in seats)
    head, head_ci = mean_interval(_deal_means(deals, _pairwise, bot))
    margin, margin_ci = mean_interval(_deal_means(deals, _margin, bot))
    margins = [_margin(m, s) for m, s in seats]
    fair = 1 / run.players
    by_seating = []
    for seating in range(run.seating_count()):
        played = [(m, s) for m, s in seats if m.seating == seating]
        if played:
            by_seating.append(
                {
                    "seating": seating,
                    "seat": played[0][1],
                    "score_share": _r(statistics.fmean(m.share(s) for m, s in played)),
                }
            )
    thinking: dict[str, dict[str, float]] = {}
    for name in dict.fromkeys(run.lineup):
        spent = [
            m.thinking[s]
            for m in matches
            if m.thinking  # (a match recorded without its times)
            for s, n in enumerate(m.lineup)
            if n == name and m.thinking[s][0]
        ]
        decisions = sum(n for n, _, _ in spent)
        thinking[name] = {
            "decisions": decisions,
            "cpu_seconds_per_decision": _r(sum(t for _, t, _ in spent) / decisions)
            if decisions
            else 0.0,
            "cpu_seconds_max": max((m for _, _, m in spent), default=0.0),
        }
    cpu = [sum(t for _, t, _ in m.thinking) for m in matches if m.thinking]
    return {
        "game": run.game,
        "players": run.players,
        "bot": bot,
        "against": [n for n in dict.fromkeys(run.lineup) if n != bot],
        "lineup": run.lineup,
        "bank": run.bank,
        "deals": len(deals),
        "matches": len(matches),
        "score_share": _r(share),
        "ci95": [_r(x) for x in _clip(share_ci)],
        # What the interval would be if the matches were independent, for the deals' gain.
        "ci95_independent": [_r(x) for x in wilson_interval(wins, len(seats))],
        "wins": wins,
        "nobody_out": sum(1 for m in matches if not any(m.returns)),
        "fair_share": _r(fair),
        "share_of_fair": _r(share / fair),
        "head_to_head": _r(head),
        "elo": round(elo(head), 1),
        "elo_ci95": [round(elo(x), 1) for x in _clip(head_ci)],
        "score_margin": {
            "mean": round(margin, 2),
            "ci95": [round(margin_ci[0], 2), round(margin_ci[1], 2)],
            "sd": round(statistics.pstdev(margins), 2) if margins else 0.0,
        },
        "by_seating": by_seating,
        "thinking": thinking,
        "cpu_seconds_per_match": _r(statistics.fmean(cpu)) if cpu else 0.0,
        "command": run.command,
    }


class UnpairedRunsError(ValueError):
    """Two runs that cannot be compared deal by deal."""


def paired(
    run: DuelRun, previous: DuelRun, bot: str | None = None, previous_bot: str | None = None
) -> dict[str, Any]:
    """``bot`` in ``run`` against ``previous_bot`` in ``previous`` (each run's candidate
    by default), deal by deal: the difference of their score shares on the deals both
    runs played in full, with its 95% interval. Both runs must be of the same game,
    options and bank, with the same bots in the other seats."""
    bot = bot or run.candidate
    previous_bot = previous_bot or previous.candidate
    for name in ("game", "options", "bank"):
        mine, theirs = getattr(run, name), getattr(previous, name)
        if mine != theirs:
            raise UnpairedRunsError(f"the runs differ in {name}: {mine!r} and {theirs!r}")
    rest = [n if n != bot else None for n in run.lineup]
    rest_before = [n if n != previous_bot else None for n in previous.lineup]
    if rest != rest_before:
        raise UnpairedRunsError(
            f"the runs seat other opponents: {', '.join(run.lineup)} and "
            f"{', '.join(previous.lineup)}"
        )
    now, before = run.complete_deals(), previous.complete_deals()
    common = sorted(now.keys() & before.keys())
    ours = _deal_means({d: now[d] for d in common}, DuelMatch.share, bot)
    theirs = _deal_means({d: before[d] for d in common}, DuelMatch.share, previous_bot)
    difference, interval = mean_interval([a - b for a, b in zip(ours, theirs, strict=True)])
    correlation = (
        statistics.correlation(ours, theirs)
        if len(common) > 2 and len(set(ours)) > 1 and len(set(theirs)) > 1
        else 0.0
    )
    return {
        "game": run.game,
        "bank": run.bank,
        "bot": bot,
        "previous_bot": previous_bot,
        "deals": len(common),
        "matches": len(common) * run.seating_count(),
        "score_share": _r(statistics.fmean(ours)) if ours else 0.0,
        "previous_score_share": _r(statistics.fmean(theirs)) if theirs else 0.0,
        "difference": _r(difference),
        "ci95": [_r(interval[0]), _r(interval[1])],
        "deal_correlation": _r(correlation),
    }


def iter_table(figure: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """A run's figures as (label, value) lines for a person to read."""
    low, high = figure["ci95"]
    yield ("deals, matches", f"{figure['deals']}, {figure['matches']}")
    yield (
        "score share",
        f"{100 * figure['score_share']:.1f}% ({100 * low:.1f}–{100 * high:.1f}; as if "
        f"independent {100 * figure['ci95_independent'][0]:.1f}–"
        f"{100 * figure['ci95_independent'][1]:.1f})",
    )
    if figure["players"] > 2:
        yield ("of its fair share", f"{figure['share_of_fair']:.2f} times")
    if figure["nobody_out"]:
        yield ("nobody out", f"{figure['nobody_out']} matches (each seat its fair share)")
    elo_low, elo_high = figure["elo_ci95"]
    yield ("Elo difference", f"{figure['elo']:+.0f} ({elo_low:+.0f} to {elo_high:+.0f})")
    margin = figure["score_margin"]
    yield (
        "score margin",
        f"{margin['mean']:+.2f} ({margin['ci95'][0]:+.2f} to {margin['ci95'][1]:+.2f}), "
        f"sd {margin['sd']:.2f}",
    )
    for seating in figure["by_seating"]:
        yield (f"in seat {seating['seat']}", f"{100 * seating['score_share']:.1f}%")
    for name, spent in figure["thinking"].items():
        mean, longest = spent["cpu_seconds_per_decision"], spent["cpu_seconds_max"]
        yield (f"{name}'s CPU a decision", f"{_seconds(mean)} (longest {_seconds(longest)})")
    yield ("CPU a match", f"{figure['cpu_seconds_per_match']:.1f} s")


def _seconds(value: float) -> str:
    return f"{value:.2f} s" if value >= 0.1 else f"{1000 * value:.1f} ms"
