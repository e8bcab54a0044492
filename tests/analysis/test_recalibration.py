"""The recalibration of a game's estimate: the map's rules, its fit, where it applies
(the evaluator and the analysis's judge, never hard's search), and the reliability
table's intervals over whole matches."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import necropolis
from necropolis.analysis.explain.judge import EstimateJudge
from necropolis.analysis.headroom import HardSearch
from necropolis.analysis.recalibration import Judged, collect, fit
from necropolis.analysis.training import band_intervals, calibration, reliability
from necropolis.bots import judgement
from necropolis.bots.judgement import EstimateEvaluator, Recalibration, recalibration, to_move
from necropolis.cli.main import app
from necropolis.engine import SeatWindow
from necropolis.engine.protocol import State
from necropolis.games import load_game
from tests.bots.test_bots_on_games import decision_points


def _sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-x))


def test_a_map_must_rise_and_keep_its_knots_in_order() -> None:
    with pytest.raises(ValueError, match="two or more"):
        Recalibration((0.0,), (0.0,))
    with pytest.raises(ValueError, match="rise"):
        Recalibration((0.0, 0.0), (0.0, 1.0))
    with pytest.raises(ValueError, match="lower"):
        Recalibration((0.0, 1.0), (1.0, 0.0))


def test_the_map_is_monotone_and_the_identity_changes_nothing() -> None:
    same = Recalibration((-6.0, 6.0), (-6.0, 6.0))
    chances = np.linspace(0.01, 0.99, 99)
    assert np.allclose(same.map(chances), chances)
    shy = Recalibration((-4.0, 0.0, 4.0), (-2.0, 0.0, 2.0))
    mapped = shy.map(chances)
    assert np.all(np.diff(mapped) > 0)
    assert shy.map(np.array([0.5]))[0] == pytest.approx(0.5)
    assert shy.map(np.array([0.8]))[0] == pytest.approx(_sigmoid(0.5 * math.log(4.0)))
    # Past the last knot (logit 4) the map keeps the estimate's own steps: logit 6 -> 4.
    assert shy.map(np.array([_sigmoid(6.0)]))[0] == pytest.approx(_sigmoid(4.0))
    assert shy.map(np.array([_sigmoid(-6.0)]))[0] == pytest.approx(_sigmoid(-4.0))


def test_applied_to_a_position_each_seat_is_mapped_and_none_adds_past_one() -> None:
    bold = Recalibration((-4.0, 4.0), (-8.0, 8.0))
    # Seat by seat, as fitted: 0.7 and 0.3 become 0.845 and 0.155 (their logit doubled).
    assert bold.apply([0.7, 0.3]) == pytest.approx([0.7**2 / 0.58, 0.3**2 / 0.58])
    shy = Recalibration((-4.0, 4.0), (-2.0, 2.0))
    left = shy.apply([0.1, 0.1])  # a chance that nobody wins is left as it comes out
    assert left == pytest.approx([1 / 4, 1 / 4])
    over = shy.apply([0.9, 0.9])  # never more than one in all
    assert sum(over) == pytest.approx(1.0) and over[0] == pytest.approx(over[1])


def test_the_fit_recovers_how_sure_an_estimate_should_have_been() -> None:
    # An estimate too sure of itself: what comes true is its logit times 0.6.
    rng = np.random.default_rng(3)
    views = 60_000
    logits = rng.normal(0.0, 1.5, views)
    truth = _sigmoid(0.6 * logits)
    raw = np.repeat(_sigmoid(logits)[:, None], 2, axis=1)
    won = (rng.random(views) < truth).astype(float)
    mapping = fit(Judged(raw, won, views))
    for p in (0.2, 0.35, 0.65, 0.8):
        expected = _sigmoid(0.6 * math.log(p / (1 - p)))
        assert mapping.map(np.array([p]))[0] == pytest.approx(expected, abs=0.025)
    # Fitted on what comes true, the map's bands do.
    for row in calibration(mapping.map(raw.mean(axis=1)), won):
        if row["positions"] >= 2000:
            assert abs(row["observed"] - row["predicted"]) < 0.02


def test_the_logistic_fit_recovers_a_slope_and_a_shift() -> None:
    # An estimate too shy in both tails and a little low: what comes true is 1.3 times
    # its logit, plus 0.2.
    rng = np.random.default_rng(5)
    views = 40_000
    logits = rng.normal(0.0, 1.2, views)
    won = (rng.random(views) < _sigmoid(1.3 * logits + 0.2)).astype(float)
    raw = _sigmoid(logits)[:, None]
    mapping = fit(Judged(raw, won, views), method="logistic")
    assert len(mapping.knots) == 2
    slope = (mapping.values[1] - mapping.values[0]) / (mapping.knots[1] - mapping.knots[0])
    shift = mapping.values[0] - slope * mapping.knots[0]
    assert slope == pytest.approx(1.3, abs=0.05) and shift == pytest.approx(0.2, abs=0.05)
    # The knots span every chance seen, so the slope holds wherever the fit had views.
    assert mapping.knots[0] <= logits.min() + 1e-6 and mapping.knots[1] >= logits.max() - 1e-6
    with pytest.raises(ValueError, match="no recalibration method"):
        fit(Judged(raw, won, views), method="isotonic-ish")


def test_the_fit_reads_the_mean_of_a_views_worlds() -> None:
    # Two worlds a view, one of them noise: the map is of the mean, not of each world.
    raw = np.array([[0.9, 0.1], [0.1, 0.9], [0.8, 0.8], [0.2, 0.2]] * 50)
    won = np.array([1.0, 0.0, 1.0, 0.0] * 50)
    mapping = fit(Judged(raw, won, 200), bins=4)
    low, middle, high = mapping.map(np.array([0.2, 0.5, 0.8]))
    assert low < 0.05 and high > 0.95 and 0.0 < middle < 1.0


def test_shipped_maps_say_how_they_were_made() -> None:
    shipped = 0
    for game_id in necropolis.games():
        for players in (2, 3, 4):
            game = load_game(game_id, players=players)
            found = recalibration(game)
            if found is None:
                continue
            shipped += 1
            meta = found.meta
            assert (meta["game"], meta["players"]) == (game_id, players)
            assert meta["command"].startswith(f"necropolis strength recalibrate {game_id}")
            # Fitted on seeds apart from those the calibration tables measure (5).
            assert meta["seed"] != 5 and meta["matches"] >= 1000
    assert shipped, "a game ships a recalibration"


def _extreme(game: Any) -> Recalibration:
    return Recalibration((-1.0, 1.0), (-9.0, 9.0))


@pytest.fixture
def extreme(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game recalibrated by a map far too sure of itself."""
    monkeypatch.setattr(judgement, "recalibration", _extreme)
    monkeypatch.setattr("necropolis.analysis.explain.judge.recalibration", _extreme)


@pytest.mark.parametrize("game_id", ["horus", "luxor2001"])
def test_the_evaluator_recalibrates_the_mean_of_its_worlds(game_id: str, extreme: None) -> None:
    for state in decision_points(game_id, 2, 6):
        seat = state.current_player()
        window = SeatWindow(state, seat)
        evaluator = EstimateEvaluator(state.game, worlds=4, seed=2)
        got = evaluator.judge([window]).chances[0]
        rng = random.Random(2)
        mean = np.mean([window.resample(rng).estimate_returns() for _ in range(4)], axis=0)
        assert list(got) == pytest.approx(_extreme(None).apply(list(mean)))
        raw = EstimateEvaluator(state.game, worlds=4, seed=2, recalibrated=False)
        assert list(raw.judge([window]).chances[0]) == pytest.approx(list(mean))


def test_the_analysis_recalibrates_the_mean_and_keeps_finished_worlds_true(
    extreme: None,
) -> None:
    states = decision_points("luxor2001", 2, 3)
    judge = EstimateJudge()
    seat = states[0].current_player()
    going = [s.clone() for s in states]
    mean = float(np.mean([w.estimate_returns()[seat] for w in going]))
    assert judge.mean(going, seat) == pytest.approx(_extreme(None).map(np.array([mean]))[0])
    finished = _finish(states[0].clone())
    both = [finished, *going]
    expected = (finished.returns()[seat] + 3 * _extreme(None).map(np.array([mean]))[0]) / 4
    assert judge.mean(both, seat) == pytest.approx(expected)


def _finish(state: State) -> State:
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_legal_action(state.rollout_action(rng))
    return state


def test_hards_search_backs_up_the_estimate_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    # The map serves what people see; hard's moves must not move with it.
    def visits() -> list[dict[int, int]]:
        found = []
        for state in decision_points("luxor2001", 2, 4):
            bot = HardSearch(0.1)
            bot.choose(SeatWindow(state, state.current_player()), random.Random(4))
            found.append(dict(bot.last.root_visits))
        return found

    plain = visits()
    monkeypatch.setattr(judgement, "recalibration", _extreme)
    assert visits() == plain


def test_collecting_judges_every_nth_decision_and_repeats_from_its_seed() -> None:
    every = collect("luxor2001", 3, seed=8, worlds=2)
    some = collect("luxor2001", 3, seed=8, worlds=2, every=3)
    again = collect("luxor2001", 3, seed=8, worlds=2, every=3)
    assert np.array_equal(some.raw, again.raw) and np.array_equal(some.won, again.won)
    assert len(every.won) / 4 < len(some.won) < len(every.won) / 2
    with pytest.raises(ValueError, match="every"):
        collect("luxor2001", 1, seed=8, every=0)


def test_a_bands_interval_counts_matches_not_positions() -> None:
    # 40 matches of 50 positions each, all predicted 0.5: a match's positions share its
    # outcome, so the band's share is as unsure as 40 coin flips, not 2,000.
    rng = np.random.default_rng(1)
    outcomes = rng.random(40) < 0.5
    match = np.repeat(np.arange(40), 50)
    won = outcomes[match].astype(float)
    predicted = np.full(len(won), 0.55)
    (lo, hi), *_ = [band for band in band_intervals(predicted, won, match, 40)[5:6]]
    share = won.mean()
    assert lo < share < hi
    positions_only = 1.96 * math.sqrt(share * (1 - share) / len(won))
    assert hi - lo > 4 * positions_only


def test_the_command_writes_a_map_with_its_making(tmp_path: Path) -> None:
    out = tmp_path / "map.json"
    result = CliRunner().invoke(
        app,
        [
            "strength", "recalibrate", "luxor2001", "--matches", "4", "--seed", "9",
            "--worlds", "2", "--every", "2", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    made = Recalibration.from_json(data)
    assert made.meta["matches"] == 4 and made.meta["seed"] == 9
    assert made.meta["command"] == (
        "necropolis strength recalibrate luxor2001 --players 2 --matches 4 --seed 9 "
        f"--worlds 2 --every 2 --out {out}"
    )
    assert made.meta["method"] == "monotone"
    refused = CliRunner().invoke(
        app, ["strength", "recalibrate", "luxor2001", "--matches", "4", "--method", "spline"]
    )
    assert refused.exit_code != 0 and "no recalibration method 'spline'" in refused.output


def _decider_after(state: State, rng: random.Random) -> int | None:
    """The seat that decides first once ``state``'s chance is resolved by ``rng``."""
    world = state.clone()
    while world.is_chance_node():
        world.apply_legal_action(world.rollout_action(rng))
    return None if world.is_terminal() else world.current_player()


@pytest.mark.parametrize("game_id", ["luxor", "luxor2001"])
@pytest.mark.parametrize("players", [2, 3])
def test_the_seat_to_move_at_a_chance_node_is_the_one_whose_turn_follows(
    game_id: str, players: int
) -> None:
    # Between two turns a card is dealt: the turn it belongs to is the next seat's, which
    # any draw leads to alike in these games.
    chance_nodes = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = load_game(game_id, players=players).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance_nodes += 1
                assert to_move(state) == _decider_after(state, random.Random(seed))
            else:
                assert to_move(state) == state.current_player()
            state.apply_legal_action(state.rollout_action(rng))
        assert to_move(state) is None
    assert chance_nodes > 20


def test_where_a_draw_decides_who_moves_the_likeliest_draw_says() -> None:
    # horus's dice may end a turn or let it go on: the likeliest outcome's seat is taken.
    rng = random.Random(2)
    state = load_game("horus", players=2).new_initial_state()
    seen = 0
    while not state.is_terminal() and seen < 30:
        if state.is_chance_node():
            seen += 1
            likeliest = max(state.chance_outcomes(), key=lambda outcome: outcome[1])[0]
            after = state.clone()
            after.apply_action(likeliest)
            assert to_move(state) == to_move(after)
        state.apply_legal_action(state.rollout_action(rng))
    assert seen == 30


def test_the_seat_to_move_gets_its_term_and_the_others_none() -> None:
    shifted = Recalibration((-4.0, 4.0), (-4.0, 4.0), mover=0.5)
    assert shifted.map(np.array([0.5]))[0] == pytest.approx(0.5)
    assert shifted.map(np.array([0.5]), True)[0] == pytest.approx(_sigmoid(0.5))
    both = shifted.map(np.array([0.5, 0.5]), np.array([True, False]))
    assert list(both) == pytest.approx([_sigmoid(0.5), 0.5])
    # In a position, only the seat named as the mover: 0.4 and 0.6 with seat 0 to move.
    chances = shifted.apply([0.4, 0.6], mover=0)
    lifted = _sigmoid(math.log(0.4 / 0.6) + 0.5)
    assert chances == pytest.approx(list(np.array([lifted, 0.6]) / (lifted + 0.6)))
    assert shifted.apply([0.4, 0.6]) == pytest.approx([0.4, 0.6])
    # The term travels with the map's file; a file without one has none.
    assert Recalibration.from_json(shifted.to_json()).mover == 0.5
    plain = Recalibration((-4.0, 4.0), (-4.0, 4.0)).to_json()
    assert "mover" not in plain and Recalibration.from_json(plain).mover == 0.0


def test_the_logistic_fit_learns_what_the_seat_to_move_is_owed() -> None:
    # What comes true: 1.1 times the estimate's logit, less 0.3, and 0.6 more for the
    # seat that decides next (every other view).
    rng = np.random.default_rng(8)
    views = 60_000
    logits = rng.normal(0.0, 1.2, views)
    moving = (np.arange(views) % 2).astype(float)
    won = (rng.random(views) < _sigmoid(1.1 * logits - 0.3 + 0.6 * moving)).astype(float)
    judged = Judged(_sigmoid(logits)[:, None], won, views, moving)
    mapping = fit(judged, method="logistic", mover=True)
    assert mapping.mover == pytest.approx(0.6, abs=0.05)
    slope = (mapping.values[1] - mapping.values[0]) / (mapping.knots[1] - mapping.knots[0])
    assert slope == pytest.approx(1.1, abs=0.05)
    assert mapping.map(np.array([0.5]))[0] == pytest.approx(_sigmoid(-0.3), abs=0.02)
    # Without the term the fit has none; a monotone map takes none; nor do views that
    # never say who moves.
    assert fit(judged, method="logistic").mover == 0.0
    with pytest.raises(ValueError, match="logistic map only"):
        fit(judged, mover=True)
    with pytest.raises(ValueError, match="which seat moves next"):
        fit(Judged(judged.raw, won, views), method="logistic", mover=True)


def test_collecting_marks_the_seat_to_move_and_shares_the_matches_alike() -> None:
    alone = collect("luxor2001", 4, seed=3, worlds=2, every=2)
    assert alone.moving is not None and alone.match is not None
    # Each judged decision gives both seats' views; exactly one of them decides.
    assert np.array_equal(alone.moving.reshape(-1, 2).sum(axis=1), np.ones(len(alone.won) // 2))
    assert sorted(set(alone.match)) == [0.0, 1.0, 2.0, 3.0]
    shared = collect("luxor2001", 4, seed=3, worlds=2, every=2, workers=2)
    for field in ("raw", "won", "moving", "match"):
        assert np.array_equal(getattr(alone, field), getattr(shared, field)), field
    with pytest.raises(ValueError, match="workers"):
        collect("luxor2001", 1, seed=3, workers=0)


def test_the_analysis_gives_the_term_to_worlds_where_the_seat_decides_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shifted = Recalibration((-9.0, 9.0), (-9.0, 9.0), mover=1.0)
    monkeypatch.setattr("necropolis.analysis.explain.judge.recalibration", lambda _: shifted)
    states = decision_points("luxor2001", 2, 4)
    judge = EstimateJudge()
    state = states[0]
    seat = state.current_player()
    other = 1 - seat
    mine = state.estimate_returns()[seat]
    assert judge.mean([state], seat) == pytest.approx(shifted.map(np.array([mine]), True)[0])
    theirs = state.estimate_returns()[other]
    assert judge.mean([state], other) == pytest.approx(theirs)
    # Worlds of one window a few actions on: those where the seat still decides next and
    # those where it has passed the turn are each averaged and mapped apart.
    passed = next(s for s in states if s.current_player() == other)
    expected = (
        shifted.map(np.array([mine]), True)[0]
        + shifted.map(np.array([passed.estimate_returns()[seat]]), False)[0]
    ) / 2
    assert judge.mean([state, passed], seat) == pytest.approx(expected)


def test_the_evaluator_gives_the_term_to_the_seat_to_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shifted = Recalibration((-9.0, 9.0), (-9.0, 9.0), mover=1.0)
    monkeypatch.setattr(judgement, "recalibration", lambda _: shifted)
    for state in decision_points("luxor", 2, 3):
        seat = state.current_player()
        window = SeatWindow(state, 1 - seat)  # the seat that waits judges it alike
        got = EstimateEvaluator(state.game).judge([window]).chances[0]
        world = window.resample(random.Random(0))
        assert list(got) == pytest.approx(shifted.apply(world.estimate_returns(), seat))


def test_views_are_kept_and_read_back_only_for_the_same_matches(tmp_path: Path) -> None:
    views = tmp_path / "views.npz"
    out = tmp_path / "map.json"
    words = ["strength", "recalibrate", "luxor2001", "--matches", "4", "--seed", "9"]
    words += ["--worlds", "2", "--every", "2", "--method", "logistic", "--mover"]
    first = CliRunner().invoke(app, [*words, "--views", str(views), "--out", str(out)])
    assert first.exit_code == 0, first.output
    made = Recalibration.from_json(json.loads(out.read_text()))
    assert made.meta["method"] == "logistic with a term for the seat to move"
    assert made.meta["command"].endswith(f"--method logistic --mover --out {out}")
    kept, how = Judged.load(views)
    assert how == {"game": "luxor2001", "players": 2, "matches": 4, "seed": 9, "worlds": 2,
                   "every": 2}  # fmt: skip
    again = CliRunner().invoke(app, [*words, "--views", str(views), "--out", str(out)])
    assert again.exit_code == 0 and f"read {len(kept.won)} views" in again.output
    assert Recalibration.from_json(json.loads(out.read_text())) == made
    other = [w if w != "9" else "10" for w in words]
    refused = CliRunner().invoke(app, [*other, "--views", str(views), "--out", str(out)])
    assert refused.exit_code != 0 and "views of other matches" in refused.output
    monotone = CliRunner().invoke(app, [*words[:-3], "--mover", "--out", str(out)])
    assert monotone.exit_code != 0 and "--method logistic only" in monotone.output


def test_the_reliability_table_is_the_same_however_many_workers_share_it() -> None:
    alone = reliability("luxor2001", None, 4, seed=6, worlds=2, every=3)
    shared = reliability("luxor2001", None, 4, seed=6, worlds=2, every=3, workers=2)
    assert alone == shared
