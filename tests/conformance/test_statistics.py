"""Every game's end-of-game statistics: a figure per seat, in its table language, counted
from the rules' events of the finished match, and agreeing with what the log told.

Each game's figures are held to the log entries of the same things (a pair scored, a key
taken, a wound), read from a spectator's log of the whole match (under the normal rules
everything counted here is public), and to the final score where a figure is part of it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from necropolis.engine import CHANCE, SeatWindow, sample_chance
from necropolis.engine.language import template_fields
from necropolis.engine.protocol import State
from necropolis.games import load_game

GAMES = ("luxor2001", "luxor", "horus")


def _finished(game_id: str, players: int, seed: int) -> State:
    game = load_game(game_id, players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    policy = game.heuristic_policy()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif policy is not None and rng.random() < 0.7:
            state.apply_action(policy(SeatWindow(state, state.current_player()), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _figures(state: State) -> dict[str, list[int | float]]:
    return {f["kind"]: f["values"] for f in state.statistics()}


def _told(state: State, *kinds: str) -> list[int]:
    """Per seat, the log entries of ``kinds`` about it (a spectator's log)."""
    counts: Counter[int] = Counter()
    for entry in state.log(None):
        if entry["kind"] in kinds:
            counts[int(entry["params"].get("seat", entry["seat"]))] += 1
    return [counts[s] for s in range(state.game.num_players)]


@pytest.mark.parametrize("game_id", GAMES)
def test_statistics_are_figures_per_seat_only_once_the_match_is_over(game_id: str) -> None:
    state = load_game(game_id, players=3).new_initial_state()
    assert state.statistics() == []
    state = _finished(game_id, 3, 1)
    figures = state.statistics()
    assert figures
    messages = state.game.messages
    for figure in figures:
        assert figure["kind"] in messages and figure["kind"].startswith("stat_")
        assert template_fields(messages[figure["kind"]]) <= set(figure["params"])
        assert figure["text"] and "{" not in figure["text"]
        assert len(figure["values"]) == 3
        assert all(
            (isinstance(v, int) and v >= 0) or figure["kind"] == "stat_advanced"
            for v in figure["values"]
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_luxor2001_figures_agree_with_the_log_and_the_score(players: int) -> None:
    for seed in range(2):
        state = _finished("luxor2001", players, seed)
        figures = _figures(state)
        assert figures["stat_pairs"] == _told(state, "pair_same", "pair_different")
        assert figures["stat_scarabs"] == _told(state, "scarab_placed")
        assert figures["stat_sarcophagi"] == _told(
            state, "sarcophagus_opened", "sarcophagus_opened_hidden"
        )
        bonus = _told(state, "pharaoh_bonus")
        for seat, score in enumerate(state.scores()):
            assert figures["stat_worth"][seat] + 7 * bonus[seat] == score


@pytest.mark.parametrize("players", [2, 4])
def test_luxor_figures_agree_with_the_log(players: int) -> None:
    for seed in range(2):
        state = _finished("luxor", players, seed)
        figures = _figures(state)
        assert figures["stat_treasures"] == _told(state, "treasure_taken")
        assert figures["stat_keys"] == _told(state, "key_taken")
        assert figures["stat_horus_cards"] == _told(
            state, "horus_card_taken", "horus_card_taken_hidden"
        )
        assert figures["stat_woken"] == _told(state, "woke")
        assert figures["stat_chamber"] == _told(state, "entered_chamber")
        assert figures["stat_moves"] == _told(state, "moved", "moved_back", "moved_rearmost")


@pytest.mark.parametrize("players", [2, 5])
def test_horus_figures_agree_with_the_log(players: int) -> None:
    for seed in range(2):
        state = _finished("horus", players, seed)
        figures = _figures(state)
        wounds = (
            "bitten_by_snake",
            "stung_by_scorpion",
            "bitten_by_crocodile",
            "touched_by_mummy",
            "touched_by_seat_mummy",
            "hit_by_block",
        )
        assert figures["stat_wounds"] == _told(state, *wounds)
        assert figures["stat_idols"] == _told(state, "took_idol")
        assert figures["stat_jumps"] == _told(state, "jumped", "dodged")
        assert figures["stat_sarcophagi"] == _told(state, "opened")
        found: Counter[int] = Counter(
            e["params"]["finder_seat"] for e in state.log(None) if e["kind"] == "found"
        )
        assert figures["stat_found"] == [found[s] for s in range(players)]
        rounds = max(e["params"]["round"] for e in state.log(None) if e["kind"] == "round_began")
        assert all(0 < r <= rounds for r in figures["stat_rounds"])
