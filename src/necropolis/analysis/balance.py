"""Balance reports for designers: many seeded bot matches, summarised and plotted.

A report answers the questions a designer asks of a game: does an early seat win more,
is one seat feature (an adventurer, a secret card) stronger, does a variant change who
wins, how long does a match last and how often does it end early or with no winner, and
what if a component were different. It plays *cells* of matches, every seat of a cell
taken by the same bot level:

- the game as shipped, per bot level and per player count (seat order, lengths, the
  game's seat features from :meth:`~necropolis.engine.protocol.Game.balance_facts`);
- per bot level, each of the game's variants (``Game.balance_variants``) at one player
  count, beside the defaults at that count;
- with a changed component data file, the first kind of cell again on that file.

Match ``i`` of every cell is seeded alike (``match_seed(seed, i)``), so cells differ by
what they change, not by luck of the draw alone, and every match replays alone. The
matches are appended to ``matches.jsonl`` as they finish, so a stopped run (Ctrl-C) goes
on where it stopped when started again with the same plan; the figures are computed from
the matches sorted by cell and index, so they are the same however many workers (local
processes or Ray tasks) played them and in whatever order they finished. What the
report knows of a game comes only through the engine protocol.
"""

from __future__ import annotations

import html
import json
import math
import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.analysis.tournament import Z95, wilson_interval
from necropolis.bots import make_bot
from necropolis.engine.balance import components_digest, components_variable
from necropolis.engine.driver import play_match
from necropolis.engine.options import OptionValue
from necropolis.games import game_class, load_game

#: The bot levels whose matches are quick: their tasks carry several matches each.
QUICK_LEVELS = frozenset({"random", "heuristic", "easy"})
SHIPPED, CHANGED = "shipped", "changed"
DEFAULTS = "defaults"

Match = dict[str, Any]


@dataclass(frozen=True)
class Cell:
    """One group of matches: a bot level in every seat, a player count, a set of options
    (``variant`` names it, :data:`DEFAULTS` for the options given), and which component
    data file the game reads."""

    level: str
    players: int
    variant: str
    options: Mapping[str, OptionValue]
    components: str = SHIPPED
    matches: int = 0


@dataclass(frozen=True)
class Plan:
    """What a report plays; two runs with equal plans play the same matches."""

    game: str
    levels: tuple[str, ...]
    players: tuple[int, ...]
    matches: int
    seed: int = 0
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    variants: tuple[tuple[str, Mapping[str, OptionValue]], ...] = ()
    #: The changed data file's name and fingerprint (None: no "what if").
    components_name: str | None = None
    components_digest: str | None = None
    #: Matches per cell of the levels that have their own count (a search is slow).
    level_matches: Mapping[str, int] = field(default_factory=dict)

    def matches_of(self, level: str) -> int:
        """Matches per cell of ``level``."""
        return self.level_matches.get(level, self.matches)

    @property
    def variant_players(self) -> int:
        """The player count the variants are compared at: the game's default if the plan
        has it, else the plan's first."""
        default = game_class(self.game).default_players
        return default if default in self.players else self.players[0]

    def cells(self) -> list[Cell]:
        game = self.game
        cells: list[Cell] = []
        for level in self.levels:
            for players in self.players:
                options = _resolved(game, self.options, players)
                cells.append(
                    Cell(level, players, DEFAULTS, options, SHIPPED, self.matches_of(level))
                )
        for level in self.levels:
            for name, changes in self.variants:
                options = _resolved(game, {**self.options, **changes}, self.variant_players)
                cells.append(
                    Cell(
                        level, self.variant_players, name, options, SHIPPED, self.matches_of(level)
                    )
                )
        if self.components_digest is not None:
            for level in self.levels:
                for players in self.players:
                    options = _resolved(game, self.options, players)
                    cells.append(
                        Cell(level, players, DEFAULTS, options, CHANGED, self.matches_of(level))
                    )
            # The variants again on the changed file, after the cells above so that a
            # folder of the defaults' what-if keeps its cell numbers.
            for level in self.levels:
                for name, changes in self.variants:
                    options = _resolved(game, {**self.options, **changes}, self.variant_players)
                    cells.append(
                        Cell(
                            level,
                            self.variant_players,
                            name,
                            options,
                            CHANGED,
                            self.matches_of(level),
                        )
                    )
        return cells

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["variants"] = [[name, dict(options)] for name, options in self.variants]
        data["options"] = dict(self.options)
        data["levels"] = list(self.levels)
        data["players"] = list(self.players)
        data["level_matches"] = dict(self.level_matches)
        return data


def _resolved(
    game_id: str, options: Mapping[str, OptionValue], players: int
) -> dict[str, OptionValue]:
    return dict(load_game(game_id, **{**options, "players": players}).options)


def make_plan(
    game_id: str,
    levels: Sequence[str],
    players: Sequence[int] | None,
    matches: int,
    seed: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    components: str | None = None,
    components_name: str | None = None,
    level_matches: Mapping[str, int] | None = None,
) -> Plan:
    """The plan of a report; options given fix those options (their variants are left out).

    ``players`` None: every player count the game allows. ``components``: the text of a
    changed component data file for the "what if" cells. ``level_matches``: matches per
    cell for the levels that do not play ``matches`` (a slow search, a few).
    """
    cls = game_class(game_id)
    given = dict(options or {})
    given.pop("players", None)
    fixed = dict(load_game(game_id, **given).options)
    fixed = {k: v for k, v in fixed.items() if k in given}
    counts = tuple(players) if players else tuple(range(cls.min_players, cls.max_players + 1))
    # A variant of display-only options would spend its matches on a game the same as the
    # default (Option.display_only).
    display = {o.name for o in cls.declared_options() if o.display_only}
    variants = tuple(
        (v.name, dict(v.options))
        for v in cls.balance_variants()
        if not set(v.options) & set(fixed) and not set(v.options) <= display
    )
    if components is not None and cls.components_file() is None:
        raise ValueError(f"{game_id} has no component data file to change")
    return Plan(
        game_id,
        tuple(levels),
        counts,
        matches,
        seed,
        fixed,
        variants,
        components_name if components is not None else None,
        components_digest(components) if components is not None else None,
        {k: v for k, v in (level_matches or {}).items() if k in levels},
    )


# --- playing ---------------------------------------------------------------------------


def play_balance_match(
    cell: int,
    index: int,
    game_id: str,
    options: Mapping[str, OptionValue],
    level: str,
    seed: int,
    digest: str | None,
) -> Match:
    """Play match ``index`` of cell ``cell``; a JSON-ready record of how it went.

    ``digest`` is the fingerprint of the changed data file this process must have been
    started with (None: the shipped one), checked so that no match runs on the wrong one.
    """
    changed = os.environ.get(components_variable(game_id))
    have = components_digest(changed) if changed is not None else None
    if have != digest:
        raise RuntimeError(
            f"this worker reads {game_id}'s component file {have or 'as shipped'}, "
            f"the match needs {digest or 'the shipped one'}"
        )
    game = load_game(game_id, **options)
    bots = [make_bot(level) for _ in range(game.num_players)]
    decisions = 0

    def count(state: Any, action: int) -> None:
        nonlocal decisions
        decisions += state.current_player() >= 0

    final, record = play_match(game, bots, seed=seed, on_action=count)
    facts = game.balance_facts(final)
    return {
        "cell": cell,
        "index": index,
        "seed": seed,
        "scores": list(final.scores()),
        "returns": list(final.returns()),
        "decisions": decisions,
        "actions": len(record.actions),
        "rounds": facts.rounds,
        "early": facts.ended_early,
        "seats": [dict(features) for features in facts.seats],
    }


class PlanMismatchError(ValueError):
    """The output folder holds matches of another plan."""


def run_balance(
    plan: Plan,
    out: Path,
    workers: int = 1,
    ray_address: str | None = None,
    components: str | None = None,
    on_match: Callable[[Match], None] | None = None,
) -> list[Match]:
    """Play every match of ``plan`` not already in ``out/matches.jsonl``; all of them,
    sorted by cell and index. ``components``: the changed data file's text."""
    out.mkdir(parents=True, exist_ok=True)
    plan_file = out / "plan.json"
    wanted = json.loads(json.dumps(plan.to_json()))
    if plan_file.exists():
        earlier = json.loads(plan_file.read_text())
        if earlier != wanted:
            differ = sorted(k for k in wanted if earlier.get(k) != wanted[k])
            raise PlanMismatchError(
                f"{out} holds the matches of another report (its {', '.join(differ)} "
                "differ); choose another --out, or --fresh to start it again"
            )
    else:
        plan_file.write_text(json.dumps(wanted, indent=1) + "\n")
    if components is not None and components_digest(components) != plan.components_digest:
        raise ValueError("the component file's text is not the one the plan was made for")
    matches = read_matches(out / "matches.jsonl")
    done = {(m["cell"], m["index"]) for m in matches}
    cells = plan.cells()
    with (out / "matches.jsonl").open("a", encoding="utf-8") as log:
        # Quick matches share a task (fewer round trips) and go first; slow ones go one
        # by one, so that no worker sits on a queue of them while the others are idle.
        for kind, quick in ((SHIPPED, True), (SHIPPED, False), (CHANGED, True), (CHANGED, False)):
            jobs = [
                (
                    c,
                    i,
                    plan.game,
                    dict(cell.options),
                    cell.level,
                    match_seed(plan.seed, i),
                    plan.components_digest if kind == CHANGED else None,
                )
                for c, cell in enumerate(cells)
                if cell.components == kind and (cell.level in QUICK_LEVELS) == quick
                for i in range(cell.matches)
                if (c, i) not in done
            ]
            if not jobs:
                continue
            env = None
            if kind == CHANGED:
                assert components is not None, "a what-if plan needs the changed file's text"
                env = {components_variable(plan.game): components}
            for match in run_matches(
                play_balance_match,
                jobs,
                workers,
                8 if quick else 1,
                ray_address=ray_address,
                env=env,
            ):
                log.write(json.dumps(match, separators=(",", ":")) + "\n")
                log.flush()
                matches.append(match)
                if on_match is not None:
                    on_match(match)
    matches.sort(key=lambda m: (m["cell"], m["index"]))
    return matches


def read_matches(path: Path) -> list[Match]:
    """The matches already in a report's log; a last line cut short by a stop is dropped
    (and cut from the file, so that the next match starts on a line of its own)."""
    if not path.exists():
        return []
    matches: list[Match] = []
    good = 0
    with path.open("rb") as log:
        for line in log:
            try:
                matches.append(json.loads(line))
            except ValueError:
                break
            if not line.endswith(b"\n"):
                matches.pop()  # whole JSON, but its newline never got written
                break
            good += len(line)
    with path.open("r+b") as log:
        log.truncate(good)
    return matches


# --- statistics ------------------------------------------------------------------------


def chi_square_uniform(counts: Sequence[float]) -> tuple[float, float]:
    """Pearson's statistic and p-value of "every seat wins equally often"."""
    from scipy.stats import chisquare  # type: ignore[import-untyped]

    total = sum(counts)
    if total <= 0 or len(counts) < 2:
        return (0.0, 1.0)
    result = chisquare(list(counts))
    return (float(result.statistic), float(result.pvalue))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean with its normal 95% interval."""
    if not values:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (mean, mean - half, mean + half)


def quantiles(values: Sequence[float]) -> dict[str, float]:
    """Minimum, quartiles, maximum and mean."""
    if not values:
        return {}
    ordered = sorted(values)
    q = (
        statistics.quantiles(ordered, n=4, method="inclusive")
        if len(ordered) > 1
        else [ordered[0]] * 3
    )
    return {
        "min": ordered[0],
        "q1": q[0],
        "median": q[1],
        "q3": q[2],
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


def share(count: float, n: int) -> dict[str, Any]:
    """A proportion with its 95% Wilson interval."""
    return {
        "count": count,
        "n": n,
        "rate": count / n if n else 0.0,
        "ci95": list(wilson_interval(count, n)),
    }


def cell_summary(cell: Cell, matches: Sequence[Match]) -> dict[str, Any]:
    """Everything the report shows of one cell."""
    n = len(matches)
    seats = cell.players
    wins = [sum(m["returns"][s] for m in matches) for s in range(seats)]
    statistic, p_value = chi_square_uniform(wins)
    rounds = [m["rounds"] for m in matches if m["rounds"] is not None]
    early = [m["early"] for m in matches if m["early"] is not None]
    features: dict[str, dict[str, dict[str, Any]]] = {}
    for m in matches:
        for seat, named in enumerate(m["seats"]):
            for feature, value in named.items():
                row = features.setdefault(feature, {}).setdefault(
                    value, {"seats": 0, "wins": 0.0, "scores": []}
                )
                row["seats"] += 1
                row["wins"] += m["returns"][seat]
                row["scores"].append(m["scores"][seat])
    feature_rows = {
        feature: {
            value: {
                **share(row["wins"], row["seats"]),
                "fair": 1 / seats,
                "score": quantiles(row["scores"]),
            }
            for value, row in sorted(values.items())
        }
        for feature, values in sorted(features.items())
    }
    return {
        "level": cell.level,
        "players": seats,
        "variant": cell.variant,
        "options": dict(cell.options),
        "components": cell.components,
        "matches": n,
        "seats": [
            {**share(wins[s], n), "score": quantiles([m["scores"][s] for m in matches])}
            for s in range(seats)
        ],
        "no_advantage": {"chi2": statistic, "df": seats - 1, "p": p_value},
        "scores": quantiles([x for m in matches for x in m["scores"]]),
        "winning_score": quantiles([max(m["scores"]) for m in matches if any(m["returns"])]),
        "rounds": quantiles(rounds),
        "decisions": quantiles([m["decisions"] for m in matches]),
        "early_end": share(sum(early), len(early)) if early else None,
        "no_winner": share(sum(1 for m in matches if not any(m["returns"])), n),
        "features": feature_rows,
    }


Pair = tuple[Match, Match]


def paired(
    pairs: Sequence[Pair], measure: Callable[[Match], float | None], share: bool = False
) -> dict[str, Any]:
    """Changed minus shipped of one measure over matches paired by seed: the mean of the
    per-match differences with its normal 95% interval.

    A match whose measure is None on either side (no winner's score, no seat with that
    adventurer) is left out of the pairs. When no pair changed, the interval is the
    single point 0, which is what those matches say; from one pair there is none
    (``ci95`` None), and from none there is no figure at all (``difference`` None).
    """
    kept = [(measure(a), measure(b)) for a, b in pairs]
    both = [(x, y) for x, y in kept if x is not None and y is not None]
    if not both:
        return {"shipped": None, "changed": None, "difference": None, "ci95": None, "pairs": 0}
    d, low, high = mean_interval([y - x for x, y in both])
    if share:  # a difference of two shares lies between -1 and 1, whatever few pairs say
        low, high = max(-1.0, low), min(1.0, high)
    # One pair has no spread to make an interval from: none rather than a false point.
    interval = [low, high] if len(both) > 1 else None
    return {
        "shipped": statistics.fmean(x for x, _ in both),
        "changed": statistics.fmean(y for _, y in both),
        "difference": d,
        "ci95": interval,
        "pairs": len(both),
    }


def pair_up(shipped: Sequence[Match], changed: Sequence[Match]) -> list[Pair]:
    """Match ``i`` of the shipped cell beside match ``i`` of the changed one."""
    before = {m["index"]: m for m in shipped}
    return [(before[m["index"]], m) for m in changed if m["index"] in before]


def what_if(shipped: Sequence[Match], changed: Sequence[Match], players: int) -> dict[str, Any]:
    """The changed file's figures minus the shipped one's, each with a 95% interval.

    Match ``i`` of both cells has the same seed, so the comparison is paired (see
    :func:`paired`): per seat its win share, and the scores, the winner's score, the
    lengths, no winner and (where the game has it) the early end.
    """
    pairs = pair_up(shipped, changed)

    def seat_return(seat: int) -> Callable[[Match], float]:
        return lambda m: float(m["returns"][seat])

    def early(m: Match) -> float | None:
        return None if m["early"] is None else float(m["early"])

    measures = {
        "scores": paired(pairs, lambda m: statistics.fmean(m["scores"])),
        "winning_score": paired(pairs, lambda m: max(m["scores"]) if any(m["returns"]) else None),
        "rounds": paired(pairs, lambda m: m["rounds"]),
        "decisions": paired(pairs, lambda m: float(m["decisions"])),
        "no_winner": paired(pairs, lambda m: float(not any(m["returns"])), share=True),
    }
    if any(m["early"] is not None for m in changed):
        measures["early_end"] = paired(pairs, early, share=True)
    return {
        "seats": [paired(pairs, seat_return(s), share=True) for s in range(players)],
        "measures": measures,
    }


def feature_what_if(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    """Per seat feature and value (an adventurer, a pharaoh card), the win rate and the
    mean score of the seats that had it, changed minus shipped, paired by seed.

    In a match, a value's measure is the mean over the seats that had it (one seat, where
    a value goes to one seat only); a match in which no seat had it on either side is left
    out of that value's pairs.
    """
    found: dict[str, set[str]] = {}
    for pair in pairs:
        for m in pair:
            for named in m["seats"]:
                for feature, value in named.items():
                    found.setdefault(feature, set()).add(value)

    def among(feature: str, value: str, key: str) -> Callable[[Match], float | None]:
        def measure(m: Match) -> float | None:
            seats = [s for s, named in enumerate(m["seats"]) if named.get(feature) == value]
            if not seats:
                return None
            return statistics.fmean(float(m[key][s]) for s in seats)

        return measure

    return [
        {
            "feature": feature,
            "value": value,
            "win": paired(pairs, among(feature, value, "returns"), share=True),
            "score": paired(pairs, among(feature, value, "scores")),
        }
        for feature in sorted(found)
        for value in sorted(found[feature])
    ]


def summarise(plan: Plan, matches: Sequence[Match]) -> dict[str, Any]:
    """The report's figures, JSON-ready: one entry per cell, and the what-if comparisons."""
    cells = plan.cells()
    by_cell: dict[int, list[Match]] = {c: [] for c in range(len(cells))}
    for m in matches:
        by_cell[m["cell"]].append(m)
    summaries = [cell_summary(cell, by_cell[c]) for c, cell in enumerate(cells)]
    comparisons: list[dict[str, Any]] = []
    variant_comparisons: list[dict[str, Any]] = []
    feature_pairs: dict[str, list[Pair]] = {}
    for c, cell in enumerate(cells):
        if cell.components != CHANGED:
            continue
        base = next(
            b
            for b, other in enumerate(cells)
            if other.components == SHIPPED
            and (other.level, other.players, other.variant)
            == (cell.level, cell.players, cell.variant)
        )
        entry = {
            "level": cell.level,
            "players": cell.players,
            "variant": cell.variant,
            **what_if(by_cell[base], by_cell[c], cell.players),
        }
        if cell.variant == DEFAULTS:
            comparisons.append(entry)
            # The seat features pooled over the player counts, as the report shows them.
            feature_pairs.setdefault(cell.level, []).extend(pair_up(by_cell[base], by_cell[c]))
        else:
            variant_comparisons.append(entry)
    features = [
        {"level": level, **row}
        for level, pairs in feature_pairs.items()
        for row in feature_what_if(pairs)
    ]
    return {
        "plan": plan.to_json(),
        "cells": summaries,
        "what_if": comparisons,
        "what_if_variants": variant_comparisons,
        "what_if_features": features,
    }


# --- the report ------------------------------------------------------------------------


def write_report(
    plan: Plan, matches: Sequence[Match], out: Path, command: str = ""
) -> dict[str, Any]:
    """Write ``summary.json``, the figures and ``index.html`` into ``out``; the summary."""
    from necropolis.analysis import balance_plots as plots

    summary = summarise(plan, matches)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    figures = plots.draw_all(summary, out)
    (out / "index.html").write_text(render_html(summary, figures, command), encoding="utf-8")
    return summary


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _ci(ci: Sequence[float], scale: float = 100.0, unit: str = "%") -> str:
    return f"{scale * ci[0]:.1f}–{scale * ci[1]:.1f}{unit}"


def _signed_ci(entry: Mapping[str, Any], scale: float, unit: str) -> str:
    d = entry["difference"]
    if d is None:
        return "– (no pairs)"
    if entry["ci95"] is None:
        return f"{scale * d:+.1f}{unit} (from {entry['pairs']} match: no interval)"
    low, high = entry["ci95"]
    return f"{scale * d:+.1f}{unit} [{scale * low:+.1f}, {scale * high:+.1f}]"


def _comparison_rows(w: Mapping[str, Any]) -> list[list[str]]:
    """One what-if comparison's rows: per seat its win share, then each measure, each as
    name, shipped, changed and the difference with its interval."""
    rows = [
        [
            f"seat {s + 1} win share",
            _shown(seat["shipped"], True),
            _shown(seat["changed"], True),
            _signed_ci(seat, 100, " pts"),
        ]
        for s, seat in enumerate(w["seats"])
    ]
    for name, m in w["measures"].items():
        percent = name in ("early_end", "no_winner")
        scale, unit = (100, " pts") if percent else (1, "")
        rows.append(
            [
                name.replace("_", " "),
                _shown(m["shipped"], percent),
                _shown(m["changed"], percent),
                _signed_ci(m, scale, unit),
            ]
        )
    return rows


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_html(summary: Mapping[str, Any], figures: Mapping[str, str], command: str) -> str:
    """The report page: the plan, then each section's figure and its table."""
    plan = summary["plan"]
    cells = summary["cells"]
    base = [c for c in cells if c["components"] == SHIPPED and c["variant"] == DEFAULTS]
    title = f"Balance of {plan['game']}"
    counts = ", ".join(
        f"{level} {plan['level_matches'].get(level, plan['matches'])}" for level in plan["levels"]
    )
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        "<p class=plan>"
        + html.escape(
            f"matches per cell: {counts}; "
            f"players {', '.join(map(str, plan['players']))}; seed {plan['seed']}; options "
            f"{plan['options'] or 'as default'}"
            + (f"; what if: {plan['components_name']}" if plan["components_name"] else "")
        )
        + "</p>",
    ]
    if command:
        parts.append(f"<pre class=command>{html.escape(command)}</pre>")

    parts.append("<h2 id=seats>Seat order</h2>")
    parts.append(
        "<p>Each seat's share of the wins (a shared win counts its share), with its 95% "
        "Wilson interval; the dashed line is the fair share. The p-value tests “no seat "
        "has an advantage” (Pearson's chi-square on the wins per seat): below 0.05, the "
        "seats differ by more than chance explains.</p>"
    )
    parts.append(_img(figures, "seats"))
    rows = []
    for c in base:
        rows.append(
            [
                c["level"],
                str(c["players"]),
                str(c["matches"]),
                *(" · ".join(f"{_pct(s['rate'])} ({_ci(s['ci95'])})" for s in c["seats"]),),
                f"{c['no_advantage']['p']:.3g}",
            ]
        )
    parts.append(_table(["level", "players", "matches", "win share by seat (95%)", "p"], rows))

    if any(c["features"] for c in base):
        parts.append("<h2 id=features>Seat features</h2>")
        parts.append(
            "<p>What a seat had (as the game names it), pooled over the player counts: its "
            "win rate with 95% interval against the fair share it would have at those "
            "counts (the marker), and the scores of the seats that had it.</p>"
        )
        parts.append(_img(figures, "features"))
        parts.append(_img(figures, "feature_scores"))
        pooled = pooled_features(base)
        rows = []
        for (level, feature, value), row in pooled.items():
            rows.append(
                [
                    level,
                    feature,
                    value,
                    str(int(row["n"])),
                    f"{_pct(row['rate'])} ({_ci(row['ci95'])})",
                    _pct(row["fair"]),
                    f"{row['mean_score']:.1f}",
                ]
            )
        parts.append(
            _table(
                ["level", "feature", "value", "seats", "win rate (95%)", "fair", "mean score"], rows
            )
        )

    variants = [c for c in cells if c["components"] == SHIPPED and c["variant"] != DEFAULTS]
    if variants:
        parts.append("<h2 id=variants>Variants and options</h2>")
        parts.append(
            f"<p>At {plan_variant_players(cells)} players, the defaults beside each variant: "
            "win share by seat, the scores, and the rounds played.</p>"
        )
        parts.append(_img(figures, "variants"))
        rows = []
        for c in variant_rows(cells):
            rows.append(
                [
                    c["level"],
                    c["variant"],
                    " · ".join(_pct(s["rate"]) for s in c["seats"]),
                    f"{c['no_advantage']['p']:.3g}",
                    _q(c["scores"]),
                    _q(c["winning_score"]),
                    _q(c["rounds"]),
                    _pct(c["no_winner"]["rate"]),
                ]
            )
        parts.append(
            _table(
                [
                    "level",
                    "variant",
                    "win share by seat",
                    "p",
                    "scores median (q1–q3)",
                    "winner's score",
                    "rounds",
                    "no winner",
                ],
                rows,
            )
        )

    parts.append("<h2 id=lengths>Match length</h2>")
    parts.append(
        "<p>Rounds (as the game counts them) and decisions (choices made by the seats, "
        "forced ones included) per match; how often a match ended early (as the game "
        "defines it) or with nobody winning.</p>"
    )
    parts.append(_img(figures, "lengths"))
    rows = []
    for c in base:
        early = c["early_end"]
        rows.append(
            [
                c["level"],
                str(c["players"]),
                _q(c["rounds"]),
                _q(c["decisions"]),
                f"{_pct(early['rate'])} ({_ci(early['ci95'])})" if early else "never",
                f"{_pct(c['no_winner']['rate'])} ({_ci(c['no_winner']['ci95'])})",
            ]
        )
    parts.append(
        _table(
            [
                "level",
                "players",
                "rounds median (q1–q3; max)",
                "decisions",
                "ended early",
                "no winner",
            ],
            rows,
        )
    )

    if summary["what_if"]:
        parts.append("<h2 id=what-if>What if: the changed components</h2>")
        parts.append(
            f"<p>The same seeds on {html.escape(str(plan['components_name']))} beside the "
            "shipped file; each difference is changed minus shipped, with its 95% interval "
            "(paired by seed: match i of both runs was dealt and rolled from the same seed, "
            "so the difference is averaged match by match). An interval that contains 0 is "
            "no evidence of a change.</p>"
        )
        parts.append(_img(figures, "what_if"))
        rows = [
            [w["level"], str(w["players"]), *row]
            for w in summary["what_if"]
            for row in _comparison_rows(w)
        ]
        parts.append(
            _table(["level", "players", "measure", "shipped", "changed", "difference [95%]"], rows)
        )
        if summary.get("what_if_features"):
            parts.append("<h3 id=what-if-features>Seat features on the changed file</h3>")
            parts.append(
                "<p>Per seat feature, pooled over the player counts as above: the win rate "
                "and the mean score of the seats that had it, shipped and changed, and the "
                "difference with its 95% interval (paired by seed, over the matches in "
                "which a seat had it on both files).</p>"
            )
            parts.append(_img(figures, "what_if_features"))
            rows = [
                [
                    f["level"],
                    f["feature"],
                    f["value"],
                    str(f["win"]["pairs"]),
                    _shown(f["win"]["shipped"], True),
                    _shown(f["win"]["changed"], True),
                    _signed_ci(f["win"], 100, " pts"),
                    _shown(f["score"]["shipped"], False),
                    _shown(f["score"]["changed"], False),
                    _signed_ci(f["score"], 1, ""),
                ]
                for f in summary["what_if_features"]
            ]
            parts.append(
                _table(
                    [
                        "level",
                        "feature",
                        "value",
                        "pairs",
                        "win rate shipped",
                        "changed",
                        "difference [95%]",
                        "mean score shipped",
                        "changed",
                        "difference [95%]",
                    ],
                    rows,
                )
            )
        if summary.get("what_if_variants"):
            players = plan_variant_players(cells)
            parts.append("<h3 id=what-if-variants>Variants and options on the changed file</h3>")
            parts.append(
                f"<p>At {players} players, each variant played on the changed file beside "
                "the same variant on the shipped one (the defaults first, from the table "
                "above): win share by seat, scores, lengths and no winner, changed minus "
                "shipped with its 95% interval.</p>"
            )
            parts.append(_img(figures, "what_if_variants"))
            entries = [
                w
                for level in plan["levels"]
                for w in [
                    *(
                        x
                        for x in summary["what_if"]
                        if x["level"] == level and x["players"] == players
                    ),
                    *(x for x in summary["what_if_variants"] if x["level"] == level),
                ]
            ]
            rows = [
                [w["level"], w["variant"], *row] for w in entries for row in _comparison_rows(w)
            ]
            parts.append(
                _table(
                    ["level", "variant", "measure", "shipped", "changed", "difference [95%]"], rows
                )
            )
    parts.append(
        "<p class=note>Figures from <code>summary.json</code> beside this page; every match "
        "is in <code>matches.jsonl</code> (seed, scores, returns, length), so any one can "
        "be replayed.</p>"
    )
    return _PAGE.format(title=html.escape(title), body="\n".join(parts))


def plan_variant_players(cells: Sequence[Mapping[str, Any]]) -> int:
    return next(int(c["players"]) for c in cells if c["variant"] != DEFAULTS)


def variant_rows(cells: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Per level, the defaults at the variants' player count, then each variant."""
    players = plan_variant_players(cells)
    shipped = [c for c in cells if c["components"] == SHIPPED]
    rows: list[Mapping[str, Any]] = []
    for level in dict.fromkeys(c["level"] for c in shipped):
        mine = [c for c in shipped if c["level"] == level]
        rows.extend(c for c in mine if c["variant"] == DEFAULTS and c["players"] == players)
        rows.extend(c for c in mine if c["variant"] != DEFAULTS)
    return rows


def pooled_features(
    base: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Per level, feature and value, pooled over the player counts: seats, win rate with
    its 95% interval, the fair share those seats would have, and the mean score."""
    pooled: dict[tuple[str, str, str], dict[str, float]] = {}
    for c in base:
        for feature, values in c["features"].items():
            for value, row in values.items():
                key = (c["level"], feature, value)
                acc = pooled.setdefault(key, {"n": 0, "wins": 0.0, "fair": 0.0, "score": 0.0})
                acc["n"] += row["n"]
                acc["wins"] += row["count"]
                acc["fair"] += row["fair"] * row["n"]
                acc["score"] += row["score"]["mean"] * row["n"]
    result: dict[tuple[str, str, str], dict[str, Any]] = {}
    for key, acc in sorted(pooled.items()):
        n = int(acc["n"])
        low, high = wilson_interval(acc["wins"], n)
        result[key] = {
            "n": n,
            "rate": acc["wins"] / n,
            "ci95": [low, high],
            "fair": acc["fair"] / n,
            "mean_score": acc["score"] / n,
        }
    return result


def _shown(value: float | None, percent: bool) -> str:
    if value is None:
        return "–"
    return _pct(value) if percent else f"{value:.2f}"


def _q(q: Mapping[str, float]) -> str:
    if not q:
        return "–"
    return f"{q['median']:g} ({q['q1']:g}–{q['q3']:g}; {q['max']:g})"


def _img(figures: Mapping[str, str], name: str) -> str:
    if name not in figures:
        return ""
    return f'<img src="{html.escape(figures[name])}" alt="{html.escape(name)}">'


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222; }}
img {{ max-width: 100%; display: block; margin: 0.6em 0; }}
table {{ border-collapse: collapse; margin: 0.6em 0 1.4em; font-size: 0.9em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }}
th {{ background: #f2efe6; }}
pre.command {{ background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; }}
.note, .plan {{ color: #555; }}
</style></head>
<body>
{body}
</body></html>
"""
