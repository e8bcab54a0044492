"""Every game's table language, under random play: log entries, prompts, descriptors and
score breakdowns are well formed, keyed by declared kinds, and add up to the scores; a
seat's breakdown shows it its own hidden values and nothing of another seat's.

Rule-specific assertions (which events a rulebook example produces) live in each game's
own tests; this file holds what every game owes the server and the web table.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from necropolis.engine import CHANCE, sample_chance
from necropolis.engine.language import KERNEL_MESSAGES, template_fields
from necropolis.engine.protocol import State
from necropolis.games import game_ids, load_game

GAMES = [g for g in game_ids()]
DOC = Path(__file__).resolve().parents[2] / "docs" / "table-language.md"


def _kinds(game_id: str) -> dict[str, str]:
    return {**KERNEL_MESSAGES, **load_game(game_id).messages}


def _random_match(game_id: str, players: int, seed: int, steps: int = 100_000) -> State:
    state = load_game(game_id, players=players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _check_keyed(item: dict[str, Any], kinds: dict[str, str]) -> None:
    assert item["kind"] in kinds, f"undeclared kind {item['kind']!r}"
    assert isinstance(item["params"], dict)
    assert isinstance(item["text"], str) and item["text"]
    json.dumps(item)  # JSON-ready
    missing = template_fields(kinds[item["kind"]]) - set(item["params"]) - {"seat"}
    assert not missing, f"{item['kind']}: parameters {missing} missing"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_is_documented(game_id: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    for kind in load_game(game_id).messages:
        assert f"`{kind}`" in text, f"{game_id}: kind {kind!r} is not in docs/table-language.md"


@pytest.mark.parametrize("game_id", GAMES)
def test_language_is_well_formed_through_random_matches(game_id: str) -> None:
    kinds = _kinds(game_id)
    cls = load_game(game_id)
    for seed in range(3):
        players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
        state = load_game(game_id, players=players).new_initial_state()
        rng = random.Random(seed)
        seen = 0
        while not state.is_terminal():
            for seat in [*range(players), None]:
                prompt = state.prompt(seat)
                if prompt is not None:
                    _check_keyed(prompt, kinds)
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                actions = [a for s in state.acting_seats() for a in state.legal_actions(s)]
                for a in actions[:40]:
                    info = state.action_info(a)
                    _check_keyed(info, kinds)
                    assert info["action"] == a
                    assert all(isinstance(t, str) and ":" in t for t in info["targets"])
                action = rng.choice(actions)
            before = state.clone()
            state.apply_action(action)
            for seat in [*range(players), None]:
                for entry in state.narrate(before, action, seat):
                    _check_keyed(entry, kinds)
                    assert entry["index"] == before.move_number()
            seen += 1
        assert seen > 0
        log = state.log(0)
        assert [e["index"] for e in log] == sorted(e["index"] for e in log)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_breakdowns_add_up_to_the_scores(game_id: str) -> None:
    cls = load_game(game_id)
    for seed in range(1000):
        players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
        state = _random_match(game_id, players, seed)
        # At the end every viewer, spectators too, sees the whole score.
        for viewer in [None, *range(players)]:
            breakdown = state.score_breakdown(viewer)
            assert [b["seat"] for b in breakdown] == list(range(players))
            for seat, score in enumerate(state.scores()):
                parts = breakdown[seat]["parts"]
                assert sum(p["points"] for p in parts) == pytest.approx(breakdown[seat]["total"])
                assert breakdown[seat]["total"] == pytest.approx(score)
                # Nothing is out of sight once the match is over.
                assert not any(p.get("hidden") for p in parts)
            assert breakdown == state.score_breakdown(None)


def _positions(game_id: str, players: int, seed: int, every: int) -> list[State]:
    """Positions of a random match, one every ``every`` steps, the end left out."""
    state = load_game(game_id, players=players).new_initial_state()
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if state.move_number() % every == 0:
            out.append(state.clone())
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            actions = [a for s in state.acting_seats() for a in state.legal_actions(s)]
            state.apply_action(rng.choice(actions))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_breakdown_shows_a_seat_its_own_hidden_values_and_nothing_of_others(
    game_id: str,
) -> None:
    cls = load_game(game_id)
    rng = random.Random(5)
    own_differs = 0
    hidden_seen = 0
    for seed in range(6):
        players = cls.min_players + seed % (cls.max_players - cls.min_players + 1)
        for state in _positions(game_id, players, seed, every=7):
            public = state.score_breakdown(None)
            for seat in range(players):
                mine = state.score_breakdown(seat)
                # Other seats' rows are what a spectator sees of them.
                assert [b for b in mine if b["seat"] != seat] == [
                    b for b in public if b["seat"] != seat
                ]
                own_differs += mine[seat] != public[seat]
                # What a seat cannot see of another's score is a hidden part worth 0, so
                # that the total reads as what is known, not as the score.
                for row in mine:
                    for part in row["parts"]:
                        assert part.get("hidden", False) in (False, True)
                        if part.get("hidden"):
                            assert part["points"] == 0
                            hidden_seen += row["seat"] != seat
                # Worlds this seat cannot tell apart (every other seat's hidden values
                # redrawn) give it the same breakdown, and a spectator too.
                for _ in range(2):
                    world = state.resample(seat, rng)
                    assert world.score_breakdown(seat) == mine
                    assert world.score_breakdown(None) == public
    # A seat's own row does show it what it alone knows, at some point of these matches,
    # and every game hides some of another seat's score from it during play.
    assert own_differs > 0
    assert hidden_seen > 0
