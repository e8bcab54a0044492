"""Self-play training of a judgement: deterministic from its seed, resumable from its
checkpoint, TD(λ)'s targets as the method defines them, gates that keep what passes, and
models that load and decide the same from the same seed."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import necropolis
from necropolis.analysis import duel, training
from necropolis.analysis.duel import DuelRun
from necropolis.analysis.training import (
    MatchData,
    Settings,
    Trainer,
    gradients,
    load_checkpoint,
    td_targets,
)
from necropolis.bots import ISMCTSBot
from necropolis.bots.judgement import JudgementBot, LearnedEvaluator, Network, model_bot
from necropolis.engine import SeatWindow
from necropolis.engine.driver import Player, play_match
from tests.bots.test_bots_on_games import decision_points

#: A tiny run: a few two-player luxor2001 matches a round, no gates.
TINY = Settings(
    hidden=(8,),
    round_matches=2,
    replay_matches=3,
    generation_matches=10**6,
    gate_deals=1,
    reference_deals=0,
)

#: A run whose every round is a generation, gated, and gated against the reference too.
REFERENCE_GATED = Settings(
    hidden=(8,),
    round_matches=2,
    replay_matches=3,
    generation_matches=2,
    gate_deals=1,
    reference_deals=2,
    reference="random",
    reference_gate=True,
)


def weights(trainer: Trainer) -> list[np.ndarray]:
    return [p for layer in trainer.run.network.layers for p in layer]


def quiet(_: str) -> None:
    pass


def test_a_short_run_changes_the_model_the_same_way_from_the_same_seed(tmp_path: Path) -> None:
    first = Trainer("luxor2001", tmp_path / "a", seed=3, settings=TINY, say=quiet)
    start = [p.copy() for p in weights(first)]
    first.train(rounds=2)
    second = Trainer("luxor2001", tmp_path / "b", seed=3, settings=TINY, say=quiet)
    second.train(rounds=2)
    other = Trainer("luxor2001", tmp_path / "c", seed=4, settings=TINY, say=quiet)
    other.train(rounds=2)
    assert first.run.matches == 4 and first.run.positions > 0
    assert any(not np.array_equal(a, b) for a, b in zip(start, weights(first), strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(weights(first), weights(second), strict=True))
    assert any(
        not np.array_equal(a, b) for a, b in zip(weights(first), weights(other), strict=True)
    )


def test_a_run_resumed_from_its_checkpoint_goes_on_as_an_unbroken_one(tmp_path: Path) -> None:
    unbroken = Trainer("luxor2001", tmp_path / "whole", seed=5, settings=TINY, say=quiet)
    unbroken.train(rounds=3)
    broken = Trainer("luxor2001", tmp_path / "parts", seed=5, settings=TINY, say=quiet)
    broken.train(rounds=1)
    lines: list[str] = []
    # Settings given again are the run's own: a resumed run keeps those it began with.
    resumed = Trainer(
        "luxor2001", tmp_path / "parts", seed=99, settings=Settings(), say=lines.append
    )
    assert resumed.run.settings == TINY and resumed.run.seed == 5
    assert "resuming" in lines[0]
    resumed.train(rounds=2)
    assert resumed.run.matches == unbroken.run.matches
    assert all(
        np.array_equal(a, b) for a, b in zip(weights(unbroken), weights(resumed), strict=True)
    )
    again = load_checkpoint(tmp_path / "parts" / "checkpoint.npz")
    assert again.positions == unbroken.run.positions
    assert len(again.replay) == len(unbroken.run.replay)


def test_a_checkpoint_of_another_game_is_refused(tmp_path: Path) -> None:
    Trainer("luxor2001", tmp_path, seed=1, settings=TINY, say=quiet).train(rounds=1)
    with pytest.raises(ValueError, match="luxor2001"):
        Trainer("horus", tmp_path, say=quiet)


def test_td_lambda_targets() -> None:
    # One seat's three positions in a two-player match the seat won: with λ = 1 every
    # target is the outcome; with λ = 0 each is the model's judgement of the next
    # position, the last the outcome.
    game = necropolis.load_game("luxor2001", players=2)
    features = game.features()
    assert features is not None
    network = Network.fresh([features.size(2), 4, 3], np.random.default_rng(0))
    states = decision_points("luxor2001", 2, 3)
    x = np.array([features.encode(s.view(0)) for s in states], dtype=np.float32)
    match = MatchData(x, np.zeros(3, dtype=np.int64), np.array([1.0, 0.0]), np.array([0.5, -0.5]))
    _, target, margin, probs = td_targets(network, match, lam=1.0)
    assert np.allclose(target, [[1.0, 0.0]] * 3) and np.allclose(margin, 0.5)
    _, target, margin, probs = td_targets(network, match, lam=0.0)
    assert np.allclose(target[0], probs[1]) and np.allclose(target[1], probs[2])
    assert np.allclose(target[2], [1.0, 0.0])
    _, predicted_margins = network.forward(x.astype(np.float64))
    assert np.isclose(margin[0], predicted_margins[1]) and np.isclose(margin[2], 0.5)


def test_td_lambda_targets_follow_the_recursion() -> None:
    # Any λ: each target is (1 - λ) times the next position's prediction plus λ times the
    # next target, the last the outcome, seat by seat (the seats' rows interleaved).
    game = necropolis.load_game("luxor2001", players=2)
    features = game.features()
    assert features is not None
    network = Network.fresh([features.size(2), 6, 3], np.random.default_rng(4))
    states = decision_points("luxor2001", 2, 5)
    x = np.array([features.encode(s.view(q)) for s in states for q in (0, 1)], dtype=np.float32)
    seats = np.array([0, 1] * len(states), dtype=np.int64)
    match = MatchData(x, seats, np.array([0.0, 1.0]), np.array([-0.4, 0.4]))
    lam = 0.7
    _, target, margin, probs = td_targets(network, match, lam)
    _, predicted_margins = network.forward(x.astype(np.float64))
    for q in (0, 1):
        rows = list(np.flatnonzero(seats == q))
        outcome = np.roll(match.outcome, -q)
        g, gm = outcome, match.margins[q]
        for r in reversed(rows):
            assert np.allclose(target[r], g) and np.isclose(margin[r], gm)
            g = (1 - lam) * probs[r] + lam * g
            gm = (1 - lam) * predicted_margins[r] + lam * gm


def test_the_gradients_are_the_loss_derivatives() -> None:
    # Checked against finite differences on a small network with two hidden layers.
    rng = np.random.default_rng(1)
    network = Network.fresh([5, 4, 3, 3], rng)
    x = rng.normal(size=(6, 5))
    target = rng.dirichlet(np.ones(2), size=6)
    target_margin = rng.normal(size=6)

    def loss() -> float:
        _, cross, mse = gradients(network, x, target, target_margin, 0.25)
        return cross + 0.25 * mse / 2

    grads, _, _ = gradients(network, x, target, target_margin, 0.25)
    params = [p for layer in network.layers for p in layer]
    for p, g in zip(params, grads, strict=True):
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for i in range(0, flat.size, max(1, flat.size // 4)):
            keep = flat[i]
            flat[i] = keep + 1e-6
            up = loss()
            flat[i] = keep - 1e-6
            down = loss()
            flat[i] = keep
            assert (up - down) / 2e-6 == pytest.approx(gflat[i], rel=1e-4, abs=1e-7)


def test_a_generation_is_gated_and_its_model_decides_the_same_from_the_same_seed(
    tmp_path: Path,
) -> None:
    settings = Settings(
        hidden=(8,),
        round_matches=2,
        replay_matches=3,
        generation_matches=2,
        gate_deals=1,
        reference_deals=1,
        reference="random",
    )
    trainer = Trainer("luxor2001", tmp_path, seed=2, settings=settings, command="cmd", say=quiet)
    trainer.train(rounds=2)
    first, second = trainer.run.record
    assert first["kept"] and first["gate"] is None and first["reference"]["matches"] == 2
    assert second["gate"]["matches"] == 2 and second["against"] == "generation-0"
    assert (tmp_path / "kept.npz").exists()
    kept = Network.load(tmp_path / "kept.npz")
    assert kept.meta["command"] == "cmd" and kept.meta["seed"] == 2
    assert kept.meta["game"] == "luxor2001" and kept.meta["players"] == 2
    # The kept model, loaded twice, plays the same match from the same seed.
    game = necropolis.load_game("luxor2001", players=2)
    path = str(tmp_path / "kept.npz")
    records = [
        play_match(game, [model_bot(path), JudgementBot(LearnedEvaluator(game, kept))], seed=8)[
            1
        ].actions
        for _ in range(2)
    ]
    assert records[0] == records[1]
    state = decision_points("luxor2001", 2, 1)[0]
    window = SeatWindow(state, state.current_player())
    choices = {model_bot(path).choose(window, random.Random(4)) for _ in range(3)}
    assert len(choices) == 1


def test_matches_against_the_reference_replace_self_play_by_their_share(tmp_path: Path) -> None:
    def trained(name: str, share: float) -> Trainer:
        settings = Settings(
            hidden=(8,),
            round_matches=3,
            replay_matches=3,
            generation_matches=10**6,
            reference="random",
            reference_share=share,
        )
        trainer = Trainer("luxor2001", tmp_path / name, seed=7, settings=settings, say=quiet)
        trainer.train(rounds=1)
        return trainer

    alone, mixed, again = trained("alone", 0.0), trained("mixed", 1.0), trained("again", 1.0)
    assert any(
        not np.array_equal(a, b) for a, b in zip(weights(alone), weights(mixed), strict=True)
    )
    assert all(np.array_equal(a, b) for a, b in zip(weights(mixed), weights(again), strict=True))


def test_self_play_on_several_processes_gives_the_same_run(tmp_path: Path) -> None:
    one = Trainer("luxor2001", tmp_path / "one", seed=8, settings=TINY, say=quiet)
    one.train(rounds=2)
    two = Trainer("luxor2001", tmp_path / "two", seed=8, settings=TINY, say=quiet)
    two.train(rounds=2, workers=2)
    assert all(np.array_equal(a, b) for a, b in zip(weights(one), weights(two), strict=True))


def test_expert_iteration_plays_the_search_on_the_model(tmp_path: Path) -> None:
    settings = Settings(
        hidden=(8,),
        round_matches=1,
        replay_matches=2,
        generation_matches=10**6,
        search_iterations=5,
        epsilon=0.0,
    )
    first = Trainer("luxor2001", tmp_path / "a", seed=9, settings=settings, say=quiet)
    first.train(rounds=1)
    again = Trainer("luxor2001", tmp_path / "b", seed=9, settings=settings, say=quiet)
    again.train(rounds=1)
    plain = replace(settings, search_iterations=0)
    one_ply = Trainer("luxor2001", tmp_path / "c", seed=9, settings=plain, say=quiet)
    one_ply.train(rounds=1)
    assert first.run.positions > 0
    assert all(np.array_equal(a, b) for a, b in zip(weights(first), weights(again), strict=True))
    # the same seed played by the one-ply bot instead: other play, another model
    assert any(
        not np.array_equal(a, b) for a, b in zip(weights(first), weights(one_ply), strict=True)
    )


def test_a_new_run_may_start_from_a_kept_model(tmp_path: Path) -> None:
    first = Trainer("luxor2001", tmp_path / "a", seed=1, settings=TINY, say=quiet)
    first.train(rounds=1)
    model = first.run.network.copy()
    model.save(tmp_path / "kept.npz")
    later = Trainer(
        "luxor2001", tmp_path / "b", seed=2, settings=TINY, say=quiet, start=tmp_path / "kept.npz"
    )
    assert all(np.array_equal(a, b) for a, b in zip(weights(later), weights(first), strict=True))
    wider = replace(TINY, hidden=(9,))
    with pytest.raises(ValueError, match="not a model"):
        Trainer("luxor2001", tmp_path / "c", settings=wider, say=quiet, start=tmp_path / "kept.npz")


def test_a_run_begun_from_a_model_gates_its_first_generation_against_that_model(
    tmp_path: Path,
) -> None:
    settings = REFERENCE_GATED
    first = Trainer("luxor2001", tmp_path / "a", seed=1, settings=TINY, say=quiet)
    first.train(rounds=1)
    first.run.network.save(tmp_path / "kept.npz")
    later = Trainer(
        "luxor2001", tmp_path / "b", seed=2, settings=settings, say=quiet,
        start=tmp_path / "kept.npz",
    )  # fmt: skip
    later.train(rounds=2)
    one, two = later.run.record
    # the first generation met the start model in a gate, and on the reference's deals,
    # which the start model played once, on the same bank
    assert one["against"] == "start" and one["gate"]["matches"] == 2
    start_run = DuelRun.read(tmp_path / "b" / "reference-start.jsonl")
    first_run = DuelRun.read(tmp_path / "b" / "reference-000.jsonl")
    assert (start_run.bank, start_run.deals) == (first_run.bank, 2)
    assert start_run.candidate == "start" and one["reference_against_kept"]["deals"] == 2
    passed = one["gate"]["score_share"] > 0.5
    assert one["kept"] == (passed and one["reference_against_kept"]["difference"] >= 0)
    # the second is gated against the first if that was kept, else the start model still
    assert two["against"] == ("generation-0" if one["kept"] else "start")
    assert later.run.kept_generation == (1 if two["kept"] else 0 if one["kept"] else None)
    # resumed, the run still knows what it began from
    again = Trainer("luxor2001", tmp_path / "b", say=quiet)
    assert (again.folder / training.START_MODEL).exists()


def test_expert_iteration_gates_the_search_on_each_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A model trained to serve the search is gated by the search on it, not by the
    # one-ply bot: the gate's players are the search, and its matches are the search's.
    settings = Settings(
        hidden=(8,),
        round_matches=1,
        replay_matches=2,
        generation_matches=1,
        gate_deals=1,
        reference_deals=1,
        reference="random",
        search_iterations=3,
    )
    made: list[Player] = []
    original = training.search_bot

    def counted(path: str, iterations: int) -> Player:
        bot = original(path, iterations)
        made.append(bot)
        return bot

    monkeypatch.setattr(training, "search_bot", counted)
    trainer = Trainer("luxor2001", tmp_path, seed=3, settings=settings, say=quiet)
    trainer.train(rounds=2)
    first, second = trainer.run.record
    assert first["reference"]["matches"] == 2 and second["gate"]["matches"] == 2
    # 2 reference matches for each generation, and 2 gate matches of two searches
    assert len(made) == 2 + 2 + 2 * 2
    assert all(isinstance(bot, ISMCTSBot) and bot.iterations == 3 for bot in made)
    assert {bot.name for bot in made} == {"generation-000", "generation-001", "kept"}


def test_a_reference_gate_keeps_no_generation_that_does_worse_against_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = REFERENCE_GATED
    trainer = Trainer("luxor2001", tmp_path / "a", seed=2, settings=settings, say=quiet)
    trainer.train(rounds=3)
    first, *later = trainer.run.record
    assert first["kept"] and first["reference_against_kept"] is None
    for entry in later:
        versus = entry["reference_against_kept"]
        assert versus["deals"] == 2
        assert entry["kept"] == (entry["gate"]["score_share"] > 0.5 and versus["difference"] >= 0)
    # every generation met the reference on the same deals, each run kept
    runs = [DuelRun.read(tmp_path / "a" / f"reference-{g:03d}.jsonl") for g in range(3)]
    assert {(r.bank, r.deals) for r in runs} == {(runs[0].bank, 2)}
    assert len({r.candidate for r in runs}) == 3

    # Worse against the reference every time: nothing after the first generation is kept,
    # whatever its gate; without the reference gate, the gate alone decides.
    def worse(run: DuelRun, previous: DuelRun) -> dict[str, object]:
        return {"deals": 2, "difference": -0.25, "ci95": [-0.5, 0.0]}

    monkeypatch.setattr(duel, "paired", worse)
    strict = Trainer("luxor2001", tmp_path / "b", seed=2, settings=settings, say=quiet)
    strict.train(rounds=3)
    assert [e["kept"] for e in strict.run.record] == [True, False, False]
    assert strict.run.kept_generation == 0
    lenient = replace(settings, reference_gate=False)
    plain = Trainer("luxor2001", tmp_path / "c", seed=2, settings=lenient, say=quiet)
    plain.train(rounds=3)
    for entry in plain.run.record[1:]:
        assert entry["kept"] == (entry["gate"]["score_share"] > 0.5)
        assert entry["reference_against_kept"]["difference"] == -0.25
    # generation 1 passed its gate (from this seed): the reference gate alone refused it
    assert plain.run.record[1]["kept"] and strict.run.record[1]["gate"]["score_share"] > 0.5
