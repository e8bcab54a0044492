"""The judgement: each game's features of a view, the learned model's file and its
evaluator, and that no judgement reads more than the seat's view.

Leaks are tested as the bots' are (``test_bots_on_games``): a state and a world drawn from
it for seat ``p`` differ only in what ``p`` cannot see, so every judgement made for ``p``
must come out the same in both.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import necropolis
from necropolis.bots import ISMCTSBot
from necropolis.bots.judgement import (
    EstimateEvaluator,
    JudgementBot,
    LearnedEvaluator,
    Network,
    evaluator,
    shipped_model,
)
from necropolis.engine import SeatWindow
from necropolis.engine.driver import play_match
from necropolis.games import game_class
from tests.bots.test_bots_on_games import SharedDrawWindow, decision_points


def every_count() -> list[Any]:
    params = []
    for game_id in necropolis.games():
        cls = game_class(game_id)
        for n in range(cls.min_players, cls.max_players + 1):
            params.append(pytest.param(game_id, n, id=f"{game_id}-{n}"))
    return params


def fresh_network(game: necropolis.Game, seed: int = 0, hidden: int = 16) -> Network:
    features = game.features()
    assert features is not None
    n = game.num_players
    sizes = [features.size(n), hidden, n + int(features.nobody) + 1]
    return Network.fresh(sizes, np.random.default_rng(seed))


def constant_network(game: necropolis.Game, viewer: float) -> Network:
    """A network that ignores its inputs: the viewer wins with chance ``viewer``, the one
    other seat with the rest (two players, no "nobody")."""
    network = fresh_network(game)
    network.layers[-1][0][:] = 0.0
    network.layers[-1][1][:] = [math.log(viewer), math.log(1.0 - viewer), 0.5]
    return network


@pytest.mark.parametrize(("game_id", "players"), every_count())
def test_features_have_the_declared_size_and_stay_small(game_id: str, players: int) -> None:
    game = necropolis.load_game(game_id, players=players)
    features = game.features()
    assert features is not None, f"{game_id} describes no features"
    for state in decision_points(game_id, players, 6):
        for seat in range(players):
            row = features.encode(state.view(seat))
            assert len(row) == features.size(players)
            assert all(math.isfinite(x) and -5.0 <= x <= 5.0 for x in row), row


@pytest.mark.parametrize(("game_id", "players"), every_count())
def test_judgements_read_only_the_seat_view(game_id: str, players: int) -> None:
    game = necropolis.load_game(game_id, players=players)
    learned = LearnedEvaluator(game, fresh_network(game))
    blended = LearnedEvaluator(game, fresh_network(game), blend=0.5)
    estimate = EstimateEvaluator(game, worlds=2)
    for state in decision_points(game_id, players, 4):
        for seat in range(players):
            world = state.resample(seat, random.Random(7))
            assert world.view(seat) == state.view(seat)
            for judge in (learned, blended, estimate):
                a = judge.judge([SharedDrawWindow(state, seat, state)])
                b = judge.judge([SharedDrawWindow(world, seat, state)])
                for x, y in zip(a, b, strict=True):
                    assert np.array_equal(x, y), f"{judge.description} saw past seat {seat}"


def test_a_learned_judgement_answers_in_seat_order() -> None:
    # A network that ignores its inputs and gives the viewer 0.7: each seat judging its
    # own view sees itself at 0.7 and its rival at 0.3, whichever seat it is.
    game = necropolis.load_game("luxor2001", players=2)
    judge = LearnedEvaluator(game, constant_network(game, 0.7))
    state = decision_points("luxor2001", 2, 1)[0]
    result = judge.judge([SeatWindow(state, 0), SeatWindow(state, 1)])
    assert np.allclose(result.chances, [[0.7, 0.3], [0.3, 0.7]])
    assert np.allclose(result.nobody, 0.0)
    features = game.features()
    assert features is not None
    assert np.allclose(result.margins, 0.5 * features.margin_scale)
    assert judge.win_chances(SeatWindow(state, 1)) == pytest.approx([0.3, 0.7])


def test_a_blended_judgement_weighs_the_model_and_the_estimate_by_its_share() -> None:
    game = necropolis.load_game("luxor", players=2)
    network = constant_network(game, 0.8)
    state = decision_points("luxor", 2, 3)[-1]
    windows = [SeatWindow(state, 0), SeatWindow(state, 1)]
    model = np.array([[0.8, 0.2], [0.2, 0.8]])
    estimate = EstimateEvaluator(game).judge(windows)
    for share in (0.0, 0.3, 1.0):
        judge = LearnedEvaluator(game, network, blend=share)
        result = judge.judge(windows)
        assert np.allclose(result.chances, share * model + (1 - share) * estimate.chances)
        # The margin is the model's: the estimate projects none.
        assert np.allclose(result.margins, LearnedEvaluator(game, network).judge(windows).margins)
        # At a search's leaf, the estimate of the drawn world itself, as with no model.
        leaf = judge.leaf_returns(state, 1)
        raw = state.estimate_returns()
        assert leaf == pytest.approx(
            [share * m + (1 - share) * r for m, r in zip(model[1], raw, strict=True)]
        )
    assert "blended" in LearnedEvaluator(game, network, blend=0.3).description
    assert "blended" not in LearnedEvaluator(game, network).description


def test_a_model_file_names_its_blend_and_a_share_outside_0_to_1_is_refused(
    tmp_path: Path,
) -> None:
    game = necropolis.load_game("luxor", players=2)
    network = constant_network(game, 0.6)
    assert LearnedEvaluator(game, network).blend == 1.0
    network.meta = {"game": "luxor", "players": 2, "blend": 0.25}
    network.save(tmp_path / "model.npz")
    loaded = Network.load(tmp_path / "model.npz")
    assert LearnedEvaluator(game, loaded).blend == 0.25
    # A blend given outright overrules the file's.
    assert LearnedEvaluator(game, loaded, blend=1.0).blend == 1.0
    for share in (-0.1, 1.5):
        with pytest.raises(ValueError, match="share"):
            LearnedEvaluator(game, network, blend=share)


def test_horus_judges_the_chance_that_nobody_wins() -> None:
    game = necropolis.load_game("horus", players=3)
    judge = LearnedEvaluator(game, fresh_network(game))
    state = decision_points("horus", 3, 1)[0]
    result = judge.judge([SeatWindow(state, s) for s in range(3)])
    assert np.allclose(result.chances.sum(axis=1) + result.nobody, 1.0)
    assert (result.nobody > 0).all()


def test_a_model_file_gives_back_the_same_network(tmp_path: Path) -> None:
    game = necropolis.load_game("horus", players=2)
    network = fresh_network(game, seed=3)
    network.meta = {"game": "horus", "players": 2, "command": "necropolis train horus"}
    path = tmp_path / "model.npz"
    network.save(path)
    again = Network.load(path)
    assert again.meta == network.meta
    state = decision_points("horus", 2, 1)[0]
    x = np.array([game.features().encode(state.view(0))])  # type: ignore[union-attr]
    for mine, theirs in zip(network.forward(x), again.forward(x), strict=True):
        assert np.array_equal(mine, theirs)


def test_a_model_for_another_shape_is_refused() -> None:
    luxor = necropolis.load_game("luxor", players=3)
    with pytest.raises(ValueError, match="inputs"):
        LearnedEvaluator(luxor, fresh_network(necropolis.load_game("luxor", players=2)))


@pytest.mark.parametrize(("game_id", "players"), every_count())
def test_every_game_has_an_evaluator(game_id: str, players: int) -> None:
    game = necropolis.load_game(game_id, players=players)
    judge = evaluator(game)
    model = shipped_model(game)
    assert isinstance(judge, LearnedEvaluator) == (model is not None)
    state = decision_points(game_id, players, 1)[0]
    chances = judge.win_chances(SeatWindow(state, state.current_player()))
    assert len(chances) == players
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert sum(chances) <= 1.0 + 1e-9


@pytest.mark.parametrize(("game_id", "players"), every_count())
def test_bots_on_a_learned_judgement_decide_from_the_seat_view_alone(
    game_id: str, players: int
) -> None:
    game = necropolis.load_game(game_id, players=players)
    judge = LearnedEvaluator(game, fresh_network(game, seed=5))
    bots = [
        JudgementBot(judge),
        ISMCTSBot(iterations=20, cutoff=3, judgement=judge),
        ISMCTSBot(iterations=20, cutoff=3, anchor="game", judgement=judge),
        ISMCTSBot(
            iterations=20,
            cutoff=3,
            anchor="game",
            judgement=LearnedEvaluator(game, judge.network, blend=0.5),
        ),
    ]
    for state in decision_points(game_id, players, 3):
        seat = state.current_player()
        world = state.resample(seat, random.Random(11))
        for bot in bots:
            choices = []
            for position in (state, world):
                window = SharedDrawWindow(position, seat, state)
                action = bot.choose(window, random.Random(2))
                assert action in state.legal_actions()
                visits = dict(bot.last.root_visits) if isinstance(bot, ISMCTSBot) else None
                choices.append((action, visits))
            assert choices[0] == choices[1], f"{bot.name} saw past seat {seat}'s view"


def test_a_search_on_a_learned_judgement_backs_up_its_values() -> None:
    # A judgement that ignores the position and gives the viewer 0.9: every cut-off leaf
    # is worth 0.9 to the searcher, so every root move's mean is about that.
    game = necropolis.load_game("luxor2001", players=2)
    network = constant_network(game, 0.9)
    bot = ISMCTSBot(iterations=200, cutoff=2, judgement=LearnedEvaluator(game, network))
    state = decision_points("luxor2001", 2, 1)[0]
    bot.choose(SeatWindow(state, state.current_player()), random.Random(1))
    assert bot.last.root_values
    assert all(v == pytest.approx(0.9) for v in bot.last.root_values.values())


def test_horus_crossings_count_the_block_squares_of_the_best_way_out() -> None:
    from necropolis.games.horus import components as cp
    from necropolis.games.horus.features import crossings

    open_board = crossings(())
    for exit_square in cp.ENTRANCES:
        assert open_board[exit_square] == 1  # the exit's own block may still fall
    # A fallen block only takes ways out away: no square's count goes down.
    rng = random.Random(3)
    order = list(range(1, cp.NUM_BLOCKS + 1))
    rng.shuffle(order)
    before = open_board
    for k in range(1, 12):
        now = crossings(tuple(sorted(order[:k])))
        assert all(a >= b for a, b in zip(now, before, strict=True))
        before = now
    # With both exits' blocks down there is no way out at all.
    shut = crossings(tuple(sorted(cp.SQUARE_NUMBER[e] for e in cp.ENTRANCES)))
    assert set(shut) == {99}


class WorldWindow(SeatWindow):
    """A window whose every drawn world is the state itself (a world already drawn)."""

    __slots__ = ()

    def resample(self, rng: random.Random) -> necropolis.State:
        return self._state.clone()


def test_a_look_at_the_rest_of_the_turn_judges_a_move_by_its_best_continuation() -> None:
    # In luxor2001 an insertion is followed by the mover's own choices (the order of its
    # pairs, a researcher to move): looking on, a move is worth the best way its turn can
    # end, not the position half played.
    game = necropolis.load_game("luxor2001", players=2)
    judge = LearnedEvaluator(game, fresh_network(game, seed=9))
    near, far = JudgementBot(judge, turn_leaves=0), JudgementBot(judge, turn_leaves=10**6)
    checked = 0
    for state in decision_points("luxor2001", 2, 12):
        seat = state.current_player()
        world = state.resample(seat, random.Random(1))
        actions = world.legal_actions()
        deep = far.values(WorldWindow(world, seat), actions, random.Random(0))
        shallow = near.values(WorldWindow(world, seat), actions, random.Random(0))
        for action, value, first in zip(actions, deep, shallow, strict=True):
            child = world.clone()
            child.apply_legal_action(action)
            if child.is_terminal() or child.acting_seats() != (seat,):
                assert value == pytest.approx(first)  # the turn is over: nothing to look at
                continue
            after = far.values(WorldWindow(child, seat), child.legal_actions(), random.Random(0))
            assert value == pytest.approx(max(after))
            checked += 1
    assert checked, "some insertion leaves the mover more to choose"


#: The kept models of the training runs (``necropolis train``), which a game ships in its
#: package only once it judges at least as well as its estimate (``docs/strength.md``).
KEPT = Path(__file__).resolve().parents[2] / "docs" / "strength" / "models"


def kept_models() -> list[Any]:
    """The kept models, each with the game and player count its meta names."""
    return [pytest.param(path, id=path.stem) for path in sorted(KEPT.glob("*.npz"))]


def test_the_kept_models_are_found() -> None:
    assert {p.values[0].stem for p in kept_models()} >= {"luxor2001-2p", "horus-2p"}


def test_a_model_a_game_ships_is_its_evaluator(monkeypatch: pytest.MonkeyPatch) -> None:
    import necropolis.bots.judgement as judgement

    game = necropolis.load_game("luxor2001", players=2)
    model = Network.load(KEPT / "luxor2001-2p.npz")
    judgement._evaluator.cache_clear()
    monkeypatch.setattr(judgement, "shipped_model", lambda g: model if g == game else None)
    try:
        found = evaluator(game)
        assert isinstance(found, LearnedEvaluator) and found.network is model
        three = necropolis.load_game("luxor2001", players=3)
        assert isinstance(evaluator(three), EstimateEvaluator)
    finally:
        judgement._evaluator.cache_clear()


@pytest.mark.parametrize("path", kept_models())
def test_a_kept_model_loads_and_decides_the_same_from_the_same_seed(path: Path) -> None:
    model = Network.load(path)
    game_id, players = model.meta["game"], model.meta["players"]
    assert path.stem == f"{game_id}-{players}p"
    assert model.meta["command"].startswith(f"necropolis train {game_id}")
    game = necropolis.load_game(game_id, players=players)
    judge = LearnedEvaluator(game, model)
    for state in decision_points(game_id, players, 4):
        window = SeatWindow(state, state.current_player())
        choices = {JudgementBot(judge).choose(window, random.Random(3)) for _ in range(2)}
        assert len(choices) == 1
    records = [
        play_match(game, [JudgementBot(judge) for _ in range(players)], seed=12)[1].actions
        for _ in range(2)
    ]
    assert records[0] == records[1]
