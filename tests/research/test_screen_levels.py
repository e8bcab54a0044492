"""research/screen_levels.py: its blundering heuristics are the levels' own bots, so a
screened pairing is the very match a tournament of the levels plays, and its summary
counts what the matches say."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from necropolis.bots import make_bot
from necropolis.engine import SeatWindow, play_match
from necropolis.engine.protocol import sample_chance
from necropolis.games import load_game
from tests.scripts import RESEARCH, load_script


@pytest.fixture(scope="module")
def screen() -> ModuleType:
    return load_script("screen_levels", RESEARCH)


def test_a_screened_rate_plays_as_the_level_that_carries_it(screen: ModuleType) -> None:
    # luxor2001's medium is the heuristic, never blundering, and its easy blunders a
    # quarter of the time: h0 against h25 is medium against easy, decision for decision,
    # from the same seed.
    game = load_game("luxor2001", players=2)
    assert (game.medium_blunder_rate, game.easy_blunder_rate) == (0.0, 0.25)
    for seed in (3, 4):
        levels, levels_record = play_match(game, [make_bot("medium"), make_bot("easy")], seed)
        screened, screened_record = play_match(game, [screen.bot("h0"), screen.bot("h25")], seed)
        assert screened_record.actions == levels_record.actions
        assert screened.returns() == levels.returns()


def test_a_rate_given_as_a_fraction_is_that_fraction_exactly(screen: ModuleType) -> None:
    # luxor's easy blunders a third of the time (the default): h1/3 is easy, decision for
    # decision, from the same seed (h33 is a rate of 0.33, a hair under it).
    game = load_game("luxor", players=2)
    assert game.easy_blunder_rate == 1 / 3
    for seed in (3, 4):
        _, levels = play_match(game, [make_bot("easy"), make_bot("medium")], seed)
        _, screened = play_match(game, [screen.bot("h1/3"), screen.bot("h15")], seed)
        assert screened.actions == levels.actions
    for bad in ("h4/3", "h1/0", "h1/x", "h/3"):
        with pytest.raises(ValueError, match="a rate is N/D"):
            screen.bot(bad)


def test_the_summary_counts_each_pairing_from_its_matches(
    screen: ModuleType, tmp_path: Path
) -> None:
    out = tmp_path / "screen.jsonl"
    # The heuristic against a bot that plays nothing but random moves: a game it wins.
    assert screen.main([str(out), "luxor2001:h0:h100:4:1"]) == 0
    matches = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(m["i"] for m in matches) == [0, 1, 2, 3]
    wins = sum(m["a_ret"] for m in matches)
    assert wins >= 3  # the heuristic beats random play nearly always (docs/strength.md)
    (line,) = screen.summary([out])
    assert line.split()[:4] == ["luxor2001", "h0", "vs", "h100"]
    assert f"{wins:.1f}/   4" in line
    with pytest.raises(SystemExit):
        screen.main([str(out), "luxor2001:h0"])


def test_hard_with_a_count_is_hard_searching_that_many_iterations(screen: ModuleType) -> None:
    # luxor2001 gives hard 2000 iterations of its own; hard500 searches 500 there, with
    # hard's clock, cutoff, exploration and anchor.
    assert load_game("luxor2001", players=2).hard_iterations == 2000
    level, screened = make_bot("hard"), screen.bot("hard500")
    assert (screened.iterations, screened.game_iterations, screened.name) == (500, False, "hard500")
    for field in ("seconds", "cutoff", "exploration", "anchor"):
        assert getattr(screened, field) == getattr(level, field)
    state = load_game("luxor2001", players=2).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or len(state.legal_actions(state.current_player())) < 2:
        state.apply_action(
            sample_chance(state, rng)
            if state.is_chance_node()
            else state.legal_actions(state.current_player())[0]
        )
    screened.choose(SeatWindow(state, state.current_player()), rng)
    # (the clock may end a search on a loaded machine, never the count raised)
    assert 0 < screened.last.iterations <= 500


def test_hard_with_a_margin_is_hard_anchored_there(screen: ModuleType) -> None:
    level = make_bot("hard")
    anchored = screen.bot("hard@0.1")
    assert (anchored.anchor, anchored.name) == (0.1, "hard@0.1")
    assert (anchored.iterations, anchored.game_iterations) == (level.iterations, True)
    both = screen.bot("hard4000@0")
    assert (both.anchor, both.iterations, both.game_iterations) == (0.0, 4000, False)
    for bad in ("hard@", "hard@-1", "hard@x", "hardx", "hard12@0.1@2"):
        with pytest.raises(ValueError, match="hardNNNN@A"):
            screen.bot(bad)
