"""Variants of hard's search for paired screens on the strength harness's deals.

Each function makes one variant of ``hard-unclocked`` (hard's own search without its
clock, :class:`necropolis.analysis.headroom.HardSearch`) with one setting changed, for
``necropolis strength play`` as ``hard_variants:NAME`` with ``research/`` on the path.
Played on the same bank and deals as the record of ``hard-unclocked``, a variant's run
pairs with the record deal by deal (``strength report RUN --against-previous RECORD``),
which sees a difference of two or three points in about 300 matches. One contender is
no search: ``strategy_alone``, the strategy hard is anchored to, never overruled, whose
run paired with the record says what the search adds to its anchor. For example::

    PYTHONPATH=research .venv/bin/necropolis strength play horus \\
        --lineup hard_variants:anchor_10,heuristic --deals 136 --bank 1 --nice 19 \\
        --out docs/strength/horus-hard-anchor-0.1-screening.jsonl
"""

from __future__ import annotations

from necropolis.analysis.headroom import HardSearch
from necropolis.bots.levels import BlunderingBot
from necropolis.engine.driver import Player


def anchor_10() -> Player:
    """Anchored at ten points of win share, wherever the game sets its own anchor."""
    return HardSearch(1, "hard-anchor-0.1", anchor=0.10)


def anchor_05() -> Player:
    """Anchored at five points of win share."""
    return HardSearch(1, "hard-anchor-0.05", anchor=0.05)


def iterations_3x() -> Player:
    """Three times the game's iterations for hard, the game's own anchor."""
    return HardSearch(3, "hard-3x")


def iterations_3x_anchor_10() -> Player:
    """Three times the iterations, anchored at ten points."""
    return HardSearch(3, "hard-3x-anchor-0.1", anchor=0.10)


def strategy_alone() -> Player:
    """Not a search at all: the strategy hard is anchored to (the game's
    ``level_policy``), never overruled, so that its run paired with hard's record shows
    what the search adds to its anchor."""
    return BlunderingBot("level-strategy", lambda game: 0.0)
