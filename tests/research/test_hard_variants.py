"""research/hard_variants.py: each variant is ``hard-unclocked`` with the one setting its
name says changed, so that its run pairs with hard's record as a screen of that setting
alone; and the harness seats it by ``module:function``."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from necropolis.analysis.duel import contender
from necropolis.analysis.headroom import HardSearch, hard_unclocked
from necropolis.analysis.training import search_bot
from necropolis.bots import ISMCTSBot
from necropolis.bots.judgement import LearnedEvaluator
from necropolis.engine import SeatWindow
from necropolis.engine.protocol import sample_chance
from necropolis.games import load_game
from tests.bots.test_bots_on_games import decision_points
from tests.scripts import RESEARCH, load_script


@pytest.fixture(scope="module")
def variants() -> ModuleType:
    return load_script("hard_variants", RESEARCH)


def _first_choice(game_id: str, seed: int) -> SeatWindow:
    state = load_game(game_id, players=2).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or len(state.legal_actions(state.current_player())) < 2:
        state.apply_action(
            sample_chance(state, rng)
            if state.is_chance_node()
            else state.legal_actions(state.current_player())[0]
        )
    return SeatWindow(state, state.current_player())


@pytest.mark.parametrize(
    ("name", "anchor", "scale"),
    [
        ("anchor_10", 0.10, 1),
        ("anchor_05", 0.05, 1),
        ("iterations_3x", "game", 3),
        ("iterations_3x_anchor_10", 0.10, 3),
    ],
)
def test_a_variant_changes_only_its_setting(
    variants: ModuleType, name: str, anchor: float | str, scale: int
) -> None:
    record, variant = hard_unclocked(), getattr(variants, name)()
    assert (variant.anchor, variant.scale) == (anchor, scale)
    for field in ("seconds", "cutoff", "exploration", "iterations"):
        assert getattr(variant, field) == getattr(record, field)
    # Searching, it scales the game's own count (horus: the default 1000).
    variant.choose(_first_choice("horus", 3), random.Random(5))
    assert variant.last.iterations == scale * 1000


def test_at_the_games_own_anchor_a_variant_decides_as_the_record() -> None:
    # Anchored at horus's own margin, the variant is hard-unclocked itself: the same move
    # from the same seed, search for search.
    game_anchor = load_game("horus", players=2).search_anchor
    for seed in range(3):
        window = _first_choice("horus", seed)
        record, variant = hard_unclocked(), HardSearch(1, "same", anchor=game_anchor)
        assert record.choose(window, random.Random(seed)) == variant.choose(
            window, random.Random(seed)
        )
        assert record.last.root_visits == variant.last.root_visits


def test_the_harness_seats_a_variant_by_module_and_function(variants: ModuleType) -> None:
    seated = contender("hard_variants:anchor_10")
    assert seated.name == "hard_variants:anchor_10"
    assert seated.factory().anchor == 0.10


@pytest.mark.parametrize("game_id", ["horus", "luxor"])
def test_the_strategy_alone_plays_the_move_hard_is_anchored_to(
    variants: ModuleType, game_id: str
) -> None:
    bot = variants.strategy_alone()
    apart = 0  # positions where the levels' strategy and the heuristic disagree
    for state in decision_points(game_id, 2, 80):
        window = SeatWindow(state, state.current_player())
        policy, heuristic = window.game.level_policy(), window.game.heuristic_policy()
        assert policy is not None and heuristic is not None
        move = bot.choose(window, random.Random(8))
        assert move == policy(window, random.Random(8))
        apart += move != heuristic(window, random.Random(8))
    assert apart, "some of the positions tell the strategy from the heuristic"


#: A kept model, beside the strength figures it was measured in.
MODEL = Path(__file__).resolve().parents[2] / "docs/strength/models/horus-2p.npz"


def test_the_model_variants_read_the_model_their_variable_names(
    variants: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = str(MODEL)
    monkeypatch.delenv("NECROPOLIS_LEAF_MODEL", raising=False)
    for name in ("learned_leaves", "blended_leaves", "model_search"):
        with pytest.raises(ValueError, match="NECROPOLIS_LEAF_MODEL"):
            getattr(variants, name)()
    monkeypatch.setenv("NECROPOLIS_LEAF_MODEL", model)
    leaves = variants.learned_leaves()
    assert isinstance(leaves.judgement, LearnedEvaluator)
    assert leaves.judgement.network.meta["game"] == "horus"
    # expert iteration's player: 50 iterations unless the variable says otherwise, and
    # the training's own search on that model, move for move
    assert variants.model_search().iterations == 50
    monkeypatch.setenv("NECROPOLIS_SEARCH_ITERATIONS", "7")
    bot = variants.model_search()
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 7
    window = _first_choice("horus", 2)
    assert bot.choose(window, random.Random(3)) == search_bot(model, 7).choose(
        window, random.Random(3)
    )
    # its control: the same search, on the estimate
    control = variants.estimate_search()
    assert (control.iterations, control.judgement) == (7, False)
    for field in ("anchor", "cutoff", "exploration", "seconds"):
        assert getattr(control, field) == getattr(bot, field)
