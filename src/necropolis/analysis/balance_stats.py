"""The balance report's statistics: from the matches of a plan, each cell's figures (win
share by seat with intervals and a chi-square test of seat order, seat features, scores,
lengths) and the "what if" differences, paired by seed, with their intervals.

Everything here is a pure function of the plan and its matches, sorted by cell and index
(:func:`~necropolis.analysis.balance.run_balance`), so the summary repeats from a seed.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from necropolis.analysis.balance import CHANGED, DEFAULTS, SHIPPED, Cell, Match, Plan
from necropolis.analysis.tournament import Z95, wilson_interval


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
