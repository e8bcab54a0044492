"""The balance report's files: ``summary.json``, the figures and the page, ``index.html``.

The numbers come from :mod:`necropolis.analysis.balance_stats` and the figures from
:mod:`necropolis.analysis.balance_plots`; the page is the template
``templates/balance.html`` (Jinja2, autoescaped), filled here with each table's rows
written as text (shares as percentages with their intervals, quantiles, differences).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, Template
from markupsafe import Markup

from necropolis.analysis.balance import DEFAULTS, SHIPPED, Match, Plan
from necropolis.analysis.balance_stats import (
    plan_variant_players,
    pooled_features,
    summarise,
    variant_rows,
)


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


def render_html(summary: Mapping[str, Any], figures: Mapping[str, str], command: str) -> str:
    """The report page: the plan, then each section's figure and its table."""
    plan = summary["plan"]
    cells = summary["cells"]
    base = [c for c in cells if c["components"] == SHIPPED and c["variant"] == DEFAULTS]
    counts = ", ".join(
        f"{level} {plan['level_matches'].get(level, plan['matches'])}" for level in plan["levels"]
    )
    plan_line = (
        f"matches per cell: {counts}; "
        f"players {', '.join(map(str, plan['players']))}; seed {plan['seed']}; options "
        f"{plan['options'] or 'as default'}"
        + (f"; what if: {plan['components_name']}" if plan["components_name"] else "")
    )
    has_variants = any(c["components"] == SHIPPED and c["variant"] != DEFAULTS for c in cells)
    return _template().render(
        title=f"Balance of {plan['game']}",
        plan_line=plan_line,
        command=command,
        figures=figures,
        seat_rows=_seat_rows(base),
        feature_rows=_feature_rows(base) if any(c["features"] for c in base) else None,
        variant_players=plan_variant_players(cells) if has_variants else None,
        variant_rows=_variant_rows(cells) if has_variants else None,
        length_rows=_length_rows(base),
        components_name=str(plan["components_name"]),
        what_if_rows=_what_if_rows(summary) if summary["what_if"] else None,
        what_if_feature_rows=(
            _what_if_feature_rows(summary) if summary.get("what_if_features") else None
        ),
        what_if_variant_rows=(
            _what_if_variant_rows(summary) if summary.get("what_if_variants") else None
        ),
    )


@cache
def _template() -> Template:
    # Values are escaped as html.escape does (quotes too), as the page always was.
    environment = Environment(
        loader=PackageLoader("necropolis.analysis"),
        autoescape=True,
        finalize=_escaped,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return environment.get_template("balance.html")


def _escaped(value: Any) -> Markup:
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value)))


def _seat_rows(base: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    return [
        [
            c["level"],
            str(c["players"]),
            str(c["matches"]),
            " · ".join(f"{_pct(s['rate'])} ({_ci(s['ci95'])})" for s in c["seats"]),
            f"{c['no_advantage']['p']:.3g}",
        ]
        for c in base
    ]


def _feature_rows(base: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    return [
        [
            level,
            feature,
            value,
            str(int(row["n"])),
            f"{_pct(row['rate'])} ({_ci(row['ci95'])})",
            _pct(row["fair"]),
            f"{row['mean_score']:.1f}",
        ]
        for (level, feature, value), row in pooled_features(base).items()
    ]


def _variant_rows(cells: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    return [
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
        for c in variant_rows(cells)
    ]


def _length_rows(base: Sequence[Mapping[str, Any]]) -> list[list[str]]:
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
    return rows


def _what_if_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    return [
        [w["level"], str(w["players"]), *row]
        for w in summary["what_if"]
        for row in _comparison_rows(w)
    ]


def _what_if_feature_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    return [
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


def _what_if_variant_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    """Per level, the defaults' what-if at the variants' player count, then each variant's."""
    plan = summary["plan"]
    players = plan_variant_players(summary["cells"])
    entries = [
        w
        for level in plan["levels"]
        for w in [
            *(x for x in summary["what_if"] if x["level"] == level and x["players"] == players),
            *(x for x in summary["what_if_variants"] if x["level"] == level),
        ]
    ]
    return [[w["level"], w["variant"], *row] for w in entries for row in _comparison_rows(w)]


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


def _shown(value: float | None, percent: bool) -> str:
    if value is None:
        return "–"
    return _pct(value) if percent else f"{value:.2f}"


def _q(q: Mapping[str, float]) -> str:
    if not q:
        return "–"
    return f"{q['median']:g} ({q['q1']:g}–{q['q3']:g}; {q['max']:g})"
