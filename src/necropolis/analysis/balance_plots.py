"""The figures of a balance report, drawn with matplotlib from its summary alone.

Each figure is one PNG beside ``index.html``, with a column per bot level so that random
play, the heuristic and a search stand side by side. They are drawn from the summary's
numbers (never from the matches directly), so the same summary gives the same files:
the PNGs carry no date or version, and two runs of one plan can be compared byte for
byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from necropolis.analysis.balance import CHANGED, DEFAULTS, SHIPPED
from necropolis.analysis.balance_stats import plan_variant_players, pooled_features, variant_rows

Summary = Mapping[str, Any]


def draw_all(summary: Summary, out: Path) -> dict[str, str]:
    """Draw every figure the summary has data for; figure name -> file name."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display, no GUI toolkit needed
    cells = summary["cells"]
    base = [c for c in cells if c["components"] == SHIPPED and c["variant"] == DEFAULTS]
    levels = list(dict.fromkeys(c["level"] for c in base))
    drawn: dict[str, str] = {}
    _save(drawn, out, "seats", _seats(base, levels))
    if any(c["features"] for c in base):
        _save(drawn, out, "features", _features(base, levels))
        _save(drawn, out, "feature_scores", _feature_scores(cells, levels))
    if any(c["variant"] != DEFAULTS for c in cells):
        _save(drawn, out, "variants", _variants(cells, levels))
    _save(drawn, out, "lengths", _lengths(base, levels))
    if summary["what_if"]:
        _save(drawn, out, "what_if", _what_if(summary["what_if"], levels))
    if summary.get("what_if_features"):
        _save(drawn, out, "what_if_features", _what_if_features(summary["what_if_features"]))
    if summary.get("what_if_variants"):
        _save(
            drawn,
            out,
            "what_if_variants",
            _what_if_variants(summary["what_if"], summary["what_if_variants"], levels),
        )
    return drawn


def _save(drawn: dict[str, str], out: Path, name: str, fig: Any) -> None:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    # No "Software" entry: the same figures give the same bytes whatever the version.
    fig.savefig(out / f"{name}.png", dpi=90, metadata={"Software": None})
    plt.close(fig)
    drawn[name] = f"{name}.png"


def _grid(rows: int, cols: int, width: float = 4.2, height: float = 3.0) -> tuple[Any, Any]:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    return fig, axes


def _bars(rates: Sequence[float], cis: Sequence[Sequence[float]]) -> list[list[float]]:
    """Error bars below and above, never negative (rounding can put a bound past its
    estimate, which matplotlib refuses)."""
    return [
        [max(0.0, r - ci[0]) for r, ci in zip(rates, cis, strict=True)],
        [max(0.0, ci[1] - r) for r, ci in zip(rates, cis, strict=True)],
    ]


def _seats(base: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> Any:
    counts = sorted({c["players"] for c in base})
    fig, axes = _grid(len(levels), len(counts), 3.4, 2.8)
    for r, level in enumerate(levels):
        for k, players in enumerate(counts):
            ax = axes[r][k]
            cell = next(c for c in base if c["level"] == level and c["players"] == players)
            rates = [s["rate"] for s in cell["seats"]]
            names = [f"seat {s + 1}" for s in range(players)]
            ax.bar(
                names,
                rates,
                yerr=_bars(rates, [s["ci95"] for s in cell["seats"]]),
                capsize=3,
                color="#c08a3e",
            )
            ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
            top = max([s["ci95"][1] for s in cell["seats"]] + [1.5 / players])
            ax.set_ylim(0, min(1.0, top * 1.1))
            ax.set_title(
                f"{level}, {players} players\n{cell['matches']} matches, "
                f"p = {cell['no_advantage']['p']:.2g}",
                fontsize=9,
            )
            ax.tick_params(labelsize=8)
    fig.suptitle("win share by seat (95% Wilson); dashed: fair share", fontsize=10)
    return fig


def _features(base: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> Any:
    pooled = pooled_features(base)
    features = sorted({key[1] for key in pooled})
    fig, axes = _grid(len(features), len(levels), 5.2, 3.2)
    for r, feature in enumerate(features):
        for k, level in enumerate(levels):
            ax = axes[r][k]
            rows = [(key[2], row) for key, row in pooled.items() if key[:2] == (level, feature)]
            names = [name for name, _ in rows]
            rates = [row["rate"] for _, row in rows]
            ax.bar(
                names,
                rates,
                yerr=_bars(rates, [row["ci95"] for _, row in rows]),
                capsize=3,
                color="#5b7fa6",
            )
            ax.plot(
                names, [row["fair"] for _, row in rows], "k_", markersize=14, label="fair share"
            )
            ax.set_ylim(0, 1)
            ax.set_title(f"{level}: win rate by {feature}", fontsize=9)
            ax.tick_params(axis="x", labelrotation=40, labelsize=7)
            ax.legend(fontsize=7)
    return fig


def _box(ax: Any, quantiles: Sequence[Mapping[str, float]], labels: Sequence[str]) -> None:
    """Box plots from stored quartiles: the box q1–q3, the line the median, whiskers at the
    minimum and maximum."""
    stats = [
        {
            "med": q["median"],
            "q1": q["q1"],
            "q3": q["q3"],
            "whislo": q["min"],
            "whishi": q["max"],
            "fliers": [],
            "label": label,
        }
        for q, label in zip(quantiles, labels, strict=True)
        if q
    ]
    if stats:
        ax.bxp(stats, showfliers=False)
    ax.tick_params(axis="x", labelrotation=30, labelsize=7)


def _feature_scores(cells: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> Any:
    players = plan_players(cells)
    base = [
        c
        for c in cells
        if c["components"] == SHIPPED and c["variant"] == DEFAULTS and c["players"] == players
    ]
    features = sorted({f for c in base for f in c["features"]})
    fig, axes = _grid(len(features), len(levels), 5.2, 3.2)
    for r, feature in enumerate(features):
        for k, level in enumerate(levels):
            ax = axes[r][k]
            cell = next(c for c in base if c["level"] == level)
            values = cell["features"].get(feature, {})
            _box(ax, [v["score"] for v in values.values()], list(values))
            ax.set_title(f"{level}, {players} players: score by {feature}", fontsize=9)
    fig.suptitle("scores (box: quartiles, whiskers: min and max)", fontsize=10)
    return fig


def plan_players(cells: Sequence[Mapping[str, Any]]) -> int:
    """The player count the per-count figures use: the variants' one, else the first."""
    if any(c["variant"] != DEFAULTS for c in cells):
        return plan_variant_players(cells)
    return int(cells[0]["players"])


def _variants(cells: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> Any:
    rows = variant_rows(cells)
    fig, axes = _grid(3, len(levels), 5.4, 3.0)
    for k, level in enumerate(levels):
        mine = [c for c in rows if c["level"] == level]
        names = [c["variant"] for c in mine]
        ax = axes[0][k]
        players = mine[0]["players"]
        width = 0.8 / players
        for s in range(players):
            xs = [i + (s - (players - 1) / 2) * width for i in range(len(mine))]
            rates = [c["seats"][s]["rate"] for c in mine]
            ax.bar(
                xs,
                rates,
                width,
                label=f"seat {s + 1}",
                yerr=_bars(rates, [c["seats"][s]["ci95"] for c in mine]),
                capsize=2,
            )
        ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(range(len(mine)), names, rotation=20, fontsize=7)
        ax.set_title(f"{level}, {players} players: win share by seat", fontsize=9)
        ax.legend(fontsize=6, ncol=players)
        _box(axes[1][k], [c["scores"] for c in mine], names)
        axes[1][k].set_title(f"{level}: scores", fontsize=9)
        _box(axes[2][k], [c["rounds"] for c in mine], names)
        axes[2][k].set_title(f"{level}: rounds", fontsize=9)
    return fig


def _lengths(base: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> Any:
    fig, axes = _grid(3, len(levels), 4.6, 2.9)
    for k, level in enumerate(levels):
        mine = sorted((c for c in base if c["level"] == level), key=lambda c: c["players"])
        labels = [f"{c['players']}p" for c in mine]
        _box(axes[0][k], [c["rounds"] for c in mine], labels)
        axes[0][k].set_title(f"{level}: rounds", fontsize=9)
        _box(axes[1][k], [c["decisions"] for c in mine], labels)
        axes[1][k].set_title(f"{level}: decisions", fontsize=9)
        ax = axes[2][k]
        xs = list(range(len(mine)))
        for offset, name, label in (
            (-0.2, "early_end", "ended early"),
            (0.2, "no_winner", "no winner"),
        ):
            entries = [c[name] for c in mine]
            rates = [e["rate"] if e else 0.0 for e in entries]
            cis = [e["ci95"] if e else [0.0, 0.0] for e in entries]
            ax.bar(
                [x + offset for x in xs], rates, 0.4, label=label, yerr=_bars(rates, cis), capsize=2
            )
        ax.set_xticks(xs, labels)
        ax.set_ylim(0, 1)
        ax.set_title(f"{level}: early ends and no winner (95%)", fontsize=9)
        ax.legend(fontsize=7)
    return fig


def _what_if(comparisons: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> Any:
    fig, axes = _grid(3, len(levels), 5.6, 3.1)
    for k, level in enumerate(levels):
        mine = [w for w in comparisons if w["level"] == level]
        labels = [f"{w['players']}p s{s + 1}" for w in mine for s in range(len(w["seats"]))]
        seats = [seat for w in mine for seat in w["seats"]]
        ax = axes[0][k]
        xs = list(range(len(labels)))
        for offset, name, colour in ((-0.2, "shipped", "#c08a3e"), (0.2, CHANGED, "#5b7fa6")):
            ax.bar(
                [x + offset for x in xs],
                [s[name] or 0.0 for s in seats],
                0.4,
                label=name,
                color=colour,
            )
        ax.set_xticks(xs, labels, rotation=40, fontsize=7)
        ax.set_title(f"{level}: win share by seat, shipped and changed", fontsize=9)
        ax.legend(fontsize=7)
        _points(
            axes[1][k],
            labels,
            [100 * (s["difference"] or 0.0) for s in seats],
            [_interval(s, 100.0) for s in seats],
        )
        axes[1][k].set_title(f"{level}: seat win share, changed − shipped (pts)", fontsize=9)
        ax = axes[2][k]
        labels, values, cis = [], [], []
        for w in mine:
            for name, m in w["measures"].items():
                if name in ("rounds", "early_end", "no_winner"):
                    scale = 100.0 if name != "rounds" else 1.0
                    unit = " pts" if name != "rounds" else ""
                    labels.append(f"{w['players']}p {name.replace('_', ' ')}{unit}")
                    values.append(scale * (m["difference"] or 0.0))
                    cis.append(_interval(m, scale))
        _points(ax, labels, values, cis)
        ax.set_title(f"{level}: rounds, early ends, no winner: changed − shipped", fontsize=9)
    fig.suptitle(
        "what if: the changed component file beside the shipped one (95% intervals)", fontsize=10
    )
    return fig


def _what_if_features(features: Sequence[Mapping[str, Any]]) -> Any:
    """Per seat feature (a row) and level (a column): each value's win rate and mean
    score, changed minus shipped, with their 95% intervals."""
    levels = list(dict.fromkeys(f["level"] for f in features))
    names = sorted({f["feature"] for f in features})
    fig, axes = _grid(2 * len(names), len(levels), 5.6, 2.9)
    for r, feature in enumerate(names):
        for k, level in enumerate(levels):
            mine = [f for f in features if (f["level"], f["feature"]) == (level, feature)]
            labels = [f["value"] for f in mine]
            for row, key, scale, unit in (
                (2 * r, "win", 100.0, " (pts)"),
                (2 * r + 1, "score", 1.0, ""),
            ):
                _points(
                    axes[row][k],
                    labels,
                    [scale * (f[key]["difference"] or 0.0) for f in mine],
                    [_interval(f[key], scale) for f in mine],
                )
                what = "win rate" if key == "win" else "mean score"
                axes[row][k].set_title(
                    f"{level}: {what} by {feature}, changed − shipped{unit}", fontsize=9
                )
    fig.suptitle(
        "what if: the seat features on the changed file (95% intervals, paired by seed)",
        fontsize=10,
    )
    return fig


def _what_if_variants(
    defaults: Sequence[Mapping[str, Any]],
    variants: Sequence[Mapping[str, Any]],
    levels: Sequence[str],
) -> Any:
    """Per level (a column), each variant on the changed file minus the same variant on
    the shipped one: the seats' win shares, then the scores, rounds and no winner."""
    fig, axes = _grid(2, len(levels), 7.0, 3.8)
    for k, level in enumerate(levels):
        mine = [v for v in variants if v["level"] == level]
        players = mine[0]["players"] if mine else 0
        mine = [
            *(w for w in defaults if w["level"] == level and w["players"] == players),
            *mine,
        ]
        labels = [f"{v['variant']} s{s + 1}" for v in mine for s in range(len(v["seats"]))]
        seats = [seat for v in mine for seat in v["seats"]]
        _points(
            axes[0][k],
            labels,
            [100 * (s["difference"] or 0.0) for s in seats],
            [_interval(s, 100.0) for s in seats],
        )
        axes[0][k].set_title(
            f"{level}, {players} players: seat win share, changed − shipped (pts)", fontsize=9
        )
        labels, values, cis = [], [], []
        for v in mine:
            for name, unit, scale in (
                ("scores", "", 1.0),
                ("rounds", "", 1.0),
                ("no_winner", " pts", 100.0),
            ):
                m = v["measures"][name]
                labels.append(f"{v['variant']} {name.replace('_', ' ')}{unit}")
                values.append(scale * (m["difference"] or 0.0))
                cis.append(_interval(m, scale))
        _points(axes[1][k], labels, values, cis)
        axes[1][k].set_title(
            f"{level}: mean score, rounds, no winner: changed − shipped", fontsize=9
        )
    fig.suptitle(
        "what if: each variant on the changed file beside the shipped one (95% intervals)",
        fontsize=10,
    )
    return fig


def _interval(entry: Mapping[str, Any], scale: float) -> list[float]:
    """A what-if difference's interval, scaled; none (a bare point) from one match, and
    a point at 0 where no match paired."""
    if entry["difference"] is None:
        return [0.0, 0.0]
    if entry["ci95"] is None:
        return [scale * entry["difference"]] * 2
    return [scale * entry["ci95"][0], scale * entry["ci95"][1]]


def _points(
    ax: Any, labels: Sequence[str], values: Sequence[float], cis: Sequence[Sequence[float]]
) -> None:
    xs = list(range(len(labels)))
    ax.errorbar(xs, values, yerr=_bars(values, cis), fmt="o", capsize=3, color="#8a3b3b")
    ax.axhline(0, color="grey", linewidth=1)
    # Long labels (a variant's options) hang from their tick, not centred across others.
    ax.set_xticks(xs, labels, rotation=40, fontsize=7, ha="right", rotation_mode="anchor")
