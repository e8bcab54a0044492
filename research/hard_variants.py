"""Variants of hard's search for paired screens on the strength harness's deals.

Each function makes one variant of ``hard-unclocked`` (hard's own search without its
clock, :class:`necropolis.analysis.headroom.HardSearch`) with one setting changed, for
``necropolis strength play`` as ``hard_variants:NAME`` with ``research/`` on the path.
Played on the same bank and deals as the record of ``hard-unclocked``, a variant's run
pairs with the record deal by deal (``strength report RUN --against-previous RECORD``),
which sees a difference of two or three points in about 300 matches. One contender is
no search: ``strategy_alone``, the strategy hard is anchored to, never overruled, whose
run paired with the record says what the search adds to its anchor. Another keeps the
search and changes its judgement: ``learned_leaves``, the cut-off leaves judged by a
learned model whose file ``NECROPOLIS_LEAF_MODEL`` names (a ``necropolis train`` run's
generation, not the game's shipped one), so that a model is tried in hard before it
ships; ``blended_leaves`` judges them by that model and the game's estimate together
(their chances averaged, the model's share ``NECROPOLIS_LEAF_WEIGHT``, a half unless
set), since two judges of about equal calibration that err in different places should
err less together than either alone. ``model_search`` is expert iteration's player
itself, a short search (``NECROPOLIS_SEARCH_ITERATIONS``, 50 unless set) on that model,
anchored as hard is: what a training run's gates play, measured on the record's deals;
``estimate_search`` is its control, the same short search on the game's estimate.
For example::

    PYTHONPATH=research .venv/bin/necropolis strength play horus \\
        --lineup hard_variants:anchor_10,heuristic --deals 136 --bank 1 --nice 19 \\
        --out docs/strength/horus-hard-anchor-0.1-screening.jsonl
"""

from __future__ import annotations

import os

from necropolis.analysis.headroom import HardSearch
from necropolis.analysis.training import search_bot
from necropolis.bots import ISMCTSBot
from necropolis.bots.judgement import LearnedEvaluator, Network
from necropolis.bots.levels import HARD_CUTOFF, HARD_EXPLORATION, BlunderingBot
from necropolis.engine.driver import Player
from necropolis.engine.protocol import Game
from necropolis.games import load_game


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


def learned_leaves() -> Player:
    """Hard's search, anchored as hard is, its cut-off leaves judged by the model in the
    file ``NECROPOLIS_LEAF_MODEL`` names, as the searching seat sees each world."""
    game, network = _leaf_model()
    bot = HardSearch(1, "hard-learned-leaves")
    bot.judgement = LearnedEvaluator(game, network)
    return bot


def blended_leaves() -> Player:
    """Hard's search, anchored as hard is, its cut-off leaves judged by the model in the
    file ``NECROPOLIS_LEAF_MODEL`` names and by the game's estimate, averaged (the
    model's share ``NECROPOLIS_LEAF_WEIGHT``, 0.5 unless set)."""
    game, network = _leaf_model()
    weight = float(os.environ.get("NECROPOLIS_LEAF_WEIGHT", "0.5"))
    bot = HardSearch(1, f"hard-blended-leaves-{weight:g}")
    bot.judgement = LearnedEvaluator(game, network, blend=weight)
    return bot


def model_search() -> Player:
    """Expert iteration's player (:func:`necropolis.analysis.training.search_bot`): hard's
    search with ``NECROPOLIS_SEARCH_ITERATIONS`` iterations (50 unless set) on the model
    ``NECROPOLIS_LEAF_MODEL`` names, anchored as hard is."""
    return search_bot(_leaf_model_path(), _search_iterations())


def estimate_search() -> Player:
    """:func:`model_search`'s control: the same search (``NECROPOLIS_SEARCH_ITERATIONS``
    iterations, 50 unless set, hard's cutoff and exploration, anchored as hard is) with
    its cut-off leaves judged by the game's estimate, as hard's are; so the two runs,
    paired, say what the model's leaves are worth to a short search."""
    iterations = _search_iterations()
    return ISMCTSBot(
        iterations=iterations,
        exploration=HARD_EXPLORATION,
        cutoff=HARD_CUTOFF,
        anchor="game",
        name=f"search-{iterations}",
    )


def _search_iterations() -> int:
    return int(os.environ.get("NECROPOLIS_SEARCH_ITERATIONS", "50"))


def _leaf_model() -> tuple[Game, Network]:
    """The model ``NECROPOLIS_LEAF_MODEL`` names, and the game it was trained for."""
    network = Network.load(_leaf_model_path())
    game = load_game(str(network.meta["game"]), players=int(network.meta["players"]))
    return game, network


def _leaf_model_path() -> str:
    path = os.environ.get("NECROPOLIS_LEAF_MODEL")
    if not path:
        raise ValueError("name the model's file in NECROPOLIS_LEAF_MODEL")
    return path
