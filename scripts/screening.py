"""What the scripts that screen a strategy against the heuristic bot print of a screen.

``tune_horus_heuristic.py`` and ``tune_luxor_heuristic.py`` each play one strategy in one
seat against the heuristic in every other, and report it the same way: the strategy's
share of the wins beside the heuristic seats' mean share, each with its 95% interval.
"""

from __future__ import annotations

from necropolis.analysis.tournament import wilson_interval


def share_line(
    label: str, mine: float, theirs: float, matches: int, players: int, seed: int
) -> str:
    """The line of ``label``'s screen: ``mine``, its wins (shared ones in part), and
    ``theirs``, the heuristic seats' mean wins, over ``matches`` matches."""
    low, high = wilson_interval(mine, matches)
    base_low, base_high = wilson_interval(theirs, matches)
    return (
        f"{label}: {mine / matches:.1%} ({low:.1%}-{high:.1%}) of {matches}"
        f" matches at {players} players, seed {seed};"
        f" the heuristic seats {theirs / matches:.1%} ({base_low:.1%}-{base_high:.1%}) each"
    )
