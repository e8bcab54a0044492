"""The table language of luxor2001: log entries, prompts, descriptors, breakdowns, board.

The rules emit what happened as events and the narration tells them; these tests hold
the events to the rules (each pair formed on its cells, scored once, the pairs waiting
what the view counts), hold every text to what its seat may know (the same in every world the seat
cannot tell apart, the same whichever hidden chance outcome happened), and check the
descriptors' promises (where a card falls, who a pair's sarcophagus goes to) by playing
the action. The rulebook examples' entries are asserted in test_luxor2001_rulebook.py
and test_luxor2001_endgame.py.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.text import Text

from necropolis.engine import CHANCE, sample_chance
from necropolis.engine.events import event_data, seen_by
from necropolis.engine.frozen import replaced
from necropolis.games import load_game
from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001 import events as ev
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CARDS,
    DONE,
    INSERT_BASE,
    MOVE_BASE,
    NUM_ANIMALS,
    ORDER_BASE,
    SARCOPHAGUS_VALUES,
    SHAFTS,
)
from tests.luxor2001.luxor2001_support import events, insert, logged, new_state
from tests.luxor2001.test_luxor2001_endgame import LAST, end_game_example

VARIANTS = [{}, {"curse": True}, {"sphinx": True}, {"curse": True, "sphinx": True}]
PRIVATE_KINDS = {
    "pharaoh_dealt",
    "card_dealt",
    "card_drawn",
    "sarcophagus_opened",
    "sarcophagus_given",
}


def steps(players: int, seed: int, **options: bool) -> Iterator[tuple[LuxorState, int]]:
    """Every (state before, action) of a random match; the state is the live one."""
    state = new_state(players, **options)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = rng.choice([a for s in state.acting_seats() for a in state.legal_actions(s)])
        yield state, action
        state.apply_action(action)


def matches() -> Iterator[tuple[int, int, dict[str, bool]]]:
    for k, options in enumerate(VARIANTS):
        for players in (2, 3, 4):
            yield players, 10 * k + players, options


# --- the rules' events --------------------------------------------------------------------------


@pytest.mark.parametrize("options", VARIANTS)
def test_every_pair_formed_is_told_on_its_cells_and_scored_once(options: dict[str, bool]) -> None:
    """An insertion's events name each pair the rule formed with its two cells (one of
    them on the new card, both showing the pair's animal, alike in facing as the pair
    says); the pairs scored afterwards are exactly those, each once, before the draw; and
    whenever pairs wait, the events list the ones the view still counts."""
    insertions = waits = 0
    for players in (2, 3, 4):
        formed: list[tuple[int, bool, tuple[int, int]]] = []
        for state, action in steps(players, players, **options):
            after = state.clone()
            happened = after.apply_events(action)
            if state.phase == rules.INSERT:
                insertions += 1
                assert not formed
                (inserted,) = [e for e in happened if isinstance(e, ev.CardInserted)]
                bottom = inserted.bottom
                assert bottom == after.last_cells
                formed = [
                    (e.animal, e.same, e.cells) for e in happened if isinstance(e, ev.PairFormed)
                ]
                assert inserted.pairs == len(formed)
                assert sorted(2 * a + s for a, s, _ in formed) == sorted(
                    rules.pairs(after.wall, bottom, after.sphinx)
                )
                for animal, same, (x, y) in formed:
                    wall = after.wall
                    assert wall[x] >> 1 == wall[y] >> 1 == animal
                    assert {x, y} & {bottom, bottom + SHAFTS}
                    if not after.sphinx:
                        assert x != y and abs(x % SHAFTS - y % SHAFTS) <= 1
                        assert abs(x // SHAFTS - y // SHAFTS) <= 1
                    assert (wall[x] == wall[y]) == same
            for e in happened:
                if isinstance(e, ev.PairScored):
                    formed.remove((e.animal, e.same, e.cells))
                    assert e.seat == state.player
            waiting = [e for e in happened if isinstance(e, ev.PairsWaiting)]
            if after.tokens:
                (wait,) = waiting
                waits += 1
                assert (
                    sorted(2 * a + s for a, s, _, _ in wait.pairs) == after.view(0)["pairs_pending"]
                )
                assert sorted((a, s, (x, y)) for a, s, x, y in wait.pairs) == sorted(formed)
            else:
                assert not waiting
            if after.phase in (rules.DRAW, rules.INSERT, rules.FINAL, rules.END):
                assert not formed  # all scored before the draw
    assert insertions > 100 and waits > 10


def test_every_pair_of_an_insertion_has_one_entry() -> None:
    for players, seed, options in matches():
        pending: list[str] = []
        for state, action in steps(players, seed, **options):
            after = state.clone()
            after.apply_action(action)
            entries = after.narrate(state, action, None)
            for e in entries:
                if e["kind"] == "card_inserted":
                    assert not pending
                    pending = ["pair"] * e["params"]["pairs"]
                elif e["kind"] in ("pair_same", "pair_different"):
                    pending.pop()
            if after.phase in (rules.DRAW, rules.INSERT, rules.FINAL, rules.END):
                assert not pending  # all scored before the draw


# --- nothing leaks ------------------------------------------------------------------------------


def _own_language(state: LuxorState, seat: int) -> tuple[Any, ...]:
    infos = [state.action_info(a) for a in state.legal_actions(seat)]
    return state.prompt(seat), infos, state.score_breakdown()


@pytest.mark.parametrize("options", VARIANTS)
def test_a_seat_reads_the_same_in_every_world_it_cannot_tell_apart(
    options: dict[str, bool],
) -> None:
    compared = 0
    for players in (2, 3, 4):
        rng = random.Random(players)
        for state, action in steps(players, 100 + players, **options):
            seat = rng.randrange(players)
            world = state.resample(seat, rng)
            assert _own_language(world, seat) == _own_language(state, seat)
            after = state.clone()
            after.apply_action(action)
            told = after.narrate(state, action, seat)
            if not world.is_legal(action):
                # Another seat's card or a value this world dealt elsewhere: what the seat
                # reads of any hidden outcome is tested below, whichever it was.
                continue
            world_after = world.clone()
            world_after.apply_action(action)
            if world_after.view(seat) != after.view(seat):
                # The action showed the seat something it had not seen (the end, a gift it
                # received): there the worlds differ, as they must.
                continue
            assert world_after.narrate(world, action, seat) == told
            compared += 1
    assert compared > 200


def _hidden_chance_nodes(options: dict[str, bool]) -> Iterator[LuxorState]:
    for players in (2, 3, 4):
        for state, _ in steps(players, 200 + players, **options):
            if state.phase in (rules.PHARAOH, rules.DEAL, rules.DRAW, rules.OPEN):
                yield state


@pytest.mark.parametrize("options", VARIANTS[:2])
def test_a_hidden_outcome_reads_the_same_whichever_it_was(options: dict[str, bool]) -> None:
    checked = 0
    for state in _hidden_chance_nodes(options):
        if state.phase == rules.OPEN:
            knower = state.open_for
        elif state.phase == rules.PHARAOH:
            knower = state.deal_k
        elif state.phase == rules.DEAL:
            knower = state.deal_k % state.n
        else:
            knower = state.player
        outcomes = [a for a, _ in state.chance_outcomes()]
        for viewer in [*range(state.n), None]:
            texts = set()
            told = set()
            for outcome in outcomes:
                after = state.clone()
                happened = after.apply_events(outcome)
                texts.add(json.dumps(after.narrate(state, outcome, viewer), sort_keys=True))
                told.add(json.dumps([event_data(e) for e in seen_by(happened, viewer)]))
            assert len(told) == len(texts)  # the events say what the log says, no more
            if viewer == knower and len(outcomes) > 1:
                assert len(texts) > 1  # the seat that sees it does learn it: the test can fail
            elif viewer != knower:
                assert len(texts) == 1
                checked += 1
    assert checked > 100


def test_the_curse_gift_is_told_in_full_to_the_seats_that_know_it() -> None:
    """Giver and receiver, and a seat that looked at that sarcophagus before (it held it
    once): each is told its points, as its view shows them; the others its eyes."""
    seen = 0
    for players in (3, 4):
        for seed in range(3):
            for state, action in steps(players, 300 + seed, curse=True):
                if state.phase not in (rules.WINDOW, rules.GIVE):
                    continue
                after = state.clone()
                happened = after.apply_events(action)
                for viewer in [*range(players), None]:
                    entries = after.narrate(state, action, viewer)
                    gifts = [e for e in entries if e["kind"].startswith("sarcophagus_given")]
                    if not gifts:
                        continue
                    (gift,) = gifts
                    (given,) = [
                        e for e in seen_by(happened, viewer) if isinstance(e, ev.SarcophagusGiven)
                    ]
                    # The sarcophagus as the viewer's view shows it where it went: with its
                    # points (known) or without.
                    drawer = state.player
                    was = list(state.view(viewer)["sarcophagi"][drawer])
                    added = list(after.view(viewer)["sarcophagi"][drawer])
                    for entry in was:
                        added.remove(entry)
                    (shown,) = added
                    knows = shown[1] is not None
                    if viewer in (gift["seat"], drawer):
                        assert knows
                    assert gift["params"]["drawer_seat"] == state.player
                    assert gift["kind"] == (
                        "sarcophagus_given" if knows else "sarcophagus_given_hidden"
                    )
                    assert ("points" in gift["params"]) == knows
                    assert (given.value is not None) == knows
                    seen += 1
    assert seen > 0


def test_a_spectator_log_names_no_hidden_thing() -> None:
    for players, seed, options in matches():
        state = new_state(players, **options)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        spectator = state.log(None)
        assert not {e["kind"] for e in spectator} & PRIVATE_KINDS
        own = state.log(0)
        assert [e["index"] for e in own] == sorted(e["index"] for e in own)
        assert {"pharaoh_dealt", "card_dealt"} <= {e["kind"] for e in own}
        assert own[-1]["kind"] in ("match_won", "match_shared")


# --- prompts and descriptors --------------------------------------------------------------------


def test_prompts_go_only_to_seats_that_act() -> None:
    kinds = {
        rules.INSERT: "prompt_insert",
        rules.ORDER: "prompt_order",
        rules.RELOCATE: "prompt_relocate",
        rules.WINDOW: "prompt_claim",
        rules.GIVE: "prompt_give",
        rules.FINAL: "prompt_final",
    }
    seen = set()
    for players, seed, options in matches():
        for state, _ in steps(players, seed, **options):
            acting = state.acting_seats()
            for seat in [*range(players), None]:
                prompt = state.prompt(seat)
                if seat is None or seat not in acting:
                    assert prompt is None
                else:
                    assert prompt is not None and prompt["kind"] == kinds[state.phase]
                    seen.add(prompt["kind"])
                    assert "_" not in prompt["text"] and "{" not in prompt["text"]
    assert seen >= set(kinds.values()) - {"prompt_relocate"}


def test_an_insertion_says_where_the_card_falls_and_how_many_pairs_it_makes() -> None:
    for players, seed, options in matches():
        for state, _ in steps(players, seed, **options):
            if state.phase != rules.INSERT:
                continue
            seat = state.current_player()
            hand = state.view(seat)["hand"]
            for action in state.legal_actions(seat):
                info = state.action_info(action)
                card, shaft = divmod(action - INSERT_BASE, SHAFTS)
                assert info["targets"] == [f"hand:{hand.index(card)}", f"shaft:{shaft}"]
                after = state.clone()
                after.apply_action(action)
                bottom = after.last_cells
                assert info["params"]["row"] == bottom // SHAFTS + 1
                assert info["params"]["row_top"] == bottom // SHAFTS + 2
                assert info["params"]["shaft"] == shaft + 1
                inserted = after.narrate(state, action, seat)[0]
                assert inserted["params"]["pairs"] == info["params"]["pairs"]
            break  # one insertion per match is plenty


def test_an_order_choice_says_whether_its_pair_opens_a_sarcophagus() -> None:
    choices = 0
    for players, seed, options in matches():
        for state, _ in steps(players, seed, **options):
            if state.phase != rules.ORDER:
                continue
            for action in state.legal_actions():
                choices += 1
                info = state.action_info(action)
                animal = ANIMALS[(action - ORDER_BASE) >> 1]
                assert info["targets"] == [f"pillar:{state.pillar_order.index(animal_id(animal))}"]
                after = state.clone()
                after.apply_action(action)
                # The chosen pair's own entries: up to the next pair's.
                entries = after.narrate(state, action, None)
                own = [entries[0]]
                for e in entries[1:]:
                    if e["kind"].startswith("pair_"):
                        break
                    own.append(e)
                third = any(
                    e["kind"] == "scarab_placed" and e["params"]["scarabs"] == 3 for e in own
                )
                if info["kind"].endswith("_opens"):
                    assert third and after.phase == rules.OPEN
                    assert after.open_for == info["params"]["owner_seat"]
                    assert ANIMALS[after.open_pillar] == animal
                elif third:
                    assert after.stack[after.open_pillar] == 0 or after.phase != rules.OPEN
    assert choices > 20


def animal_id(name: str) -> int:
    return ANIMALS.index(name)


def test_descriptors_of_every_decision_are_well_formed() -> None:
    layout = load_game("luxor2001", players=4).board_layout()
    for players, seed, options in matches():
        for state, _ in steps(players, seed, **options):
            for seat in state.acting_seats():
                for action in state.legal_actions(seat):
                    info = state.action_info(action)
                    assert info["action"] == action
                    assert not re.search(r"[{}_]|seat \d", info["text"])
                    for target in info["targets"]:
                        kind, index = target.split(":")
                        i = int(index)
                        if kind == "pillar":
                            assert 0 <= i < len(layout["pillars"])
                        elif kind == "sarcophagus":
                            value = state.view(seat)["sarcophagi"][seat][i]
                            assert value == [info["params"]["eyes"], info["params"]["points"]]
                        else:
                            assert kind in ("hand", "shaft")


def test_a_descriptor_of_an_action_not_legal_now_is_refused_clearly() -> None:
    state = new_state(2)
    with pytest.raises(ValueError, match="not a decision legal now"):
        state.action_info(0)  # the setup deals first: a chance node
    for state, action in steps(2, 1):
        if state.phase == rules.INSERT:
            card = next(c for c in range(len(CARDS)) if c not in state.hands[state.player])
            with pytest.raises(ValueError, match="not a decision legal now"):
                state.action_info(INSERT_BASE + card * SHAFTS)
            assert state.action_info(action)["kind"] == "insert"
            break


def test_the_pillar_order_option_renumbers_pillar_targets() -> None:
    order = "cat,ibis,camel,mule,snake,hippopotamus,crocodile"
    game = load_game("luxor2001", players=2, pillar_order=order)
    assert [p["animal"] for p in game.board_layout()["pillars"]] == order.split(",")
    state = end_game_example()
    moved = LuxorState(game)
    for field in LuxorState.__slots__:
        if field != "pillar_order":
            setattr(moved, field, getattr(state, field))
    moved._history = state.history()
    insert(moved, LAST, 8)
    camel, snake = ANIMALS.index("camel"), ANIMALS.index("snake")
    info = moved.action_info(MOVE_BASE + camel * NUM_ANIMALS + snake)
    view = moved.view(0)
    assert info["targets"] == [
        f"pillar:{view['pillar_order'].index('camel')}",
        f"pillar:{view['pillar_order'].index('snake')}",
    ]
    assert info["targets"] == ["pillar:2", "pillar:4"]


# --- the end, the breakdown ---------------------------------------------------------------------


def test_a_shared_win_is_told_to_each_winner() -> None:
    state = end_game_example()
    # Prepared holdings: 17 points and three sarcophagi each (seat 0 with its camel bonus).
    v = {pair: i for i, pair in enumerate(SARCOPHAGUS_VALUES)}
    state.held = ((v[(1, 3)], v[(1, 3)], v[(1, 4)]), (v[(2, 5)], v[(2, 5)], v[(3, 7)]))
    insert(state, LAST, 8)
    entries = logged(state, DONE)
    assert state.returns() == [0.5, 0.5]
    assert events(entries)[-4:] == [
        ("final_score", 0, {"points": 17, "sarcophagi": 3}),
        ("final_score", 1, {"points": 17, "sarcophagi": 3}),
        ("match_shared", 0, {}),
        ("match_shared", 1, {}),
    ]


def test_breakdowns_add_up_and_stay_public_during_play() -> None:
    for players, seed, options in matches():
        rng = random.Random(seed)
        for state, _ in steps(players, seed, **options):
            breakdown = state.score_breakdown()
            for seat_score in breakdown:
                assert sum(p["points"] for p in seat_score["parts"]) == seat_score["total"]
                assert seat_score["total"] == 0  # nothing is public before the end
            world = state.resample(rng.randrange(players), rng)
            assert world.score_breakdown() == breakdown
        final = state.clone()  # the generator left the terminal state here
        final_breakdown = final.score_breakdown()
        assert [b["total"] for b in final_breakdown] == final.scores()
        assert [b["tiebreak"][0]["value"] for b in final_breakdown] == [len(h) for h in final.held]


# --- the board, the rules summary -----------------------------------------------------------------


def test_board_layout_comes_from_the_data_file() -> None:
    layout = load_game("luxor2001", players=3, curse=True).board_layout()
    json.dumps(layout)
    assert (layout["shafts"], layout["rows"], layout["cells"]) == (8, 10, 80)
    assert [a["id"] for a in layout["animals"]] == list(ANIMALS)
    assert [p["animal"] for p in layout["pillars"]] == list(ANIMALS)
    assert len(layout["cards"]) == len(CARDS) == 49
    for i, card in enumerate(layout["cards"]):
        t, tf, b, bf = CARDS[i]
        assert (card["top"], card["bottom"]) == (ANIMALS[t], ANIMALS[b])
        assert (card["top_facing"], card["bottom_facing"]) == (
            layout["facings"][tf],
            layout["facings"][bf],
        )
    assert sum(s["count"] for s in layout["sarcophagi"]) == 21
    assert layout["variants"] == {"curse": True, "sphinx": False}


def test_rules_summary_and_description() -> None:
    game = load_game("luxor2001")
    assert game.description and "sarcophag" in game.description
    summary = game.rules_summary("en")
    assert summary.startswith("# Luxor")
    for topic in ("scarab", "researcher", "sarcophag", "pharaoh", "curse", "Sphinx"):
        assert topic in summary
    assert game.rules_summary("it").startswith("# Luxor")


# --- the terminal board -------------------------------------------------------------------------


def _fits(text: str) -> None:
    lines = text.split("\n")
    assert len(lines) <= 20, f"{len(lines)} lines"
    for line in lines:
        width = Text.from_markup(line).cell_len
        assert width <= 64, f"{width} columns: {line!r}"


def test_the_terminal_board_fits_64_by_20_for_every_view() -> None:
    for players, seed, options in matches():
        game = new_state(players, **options).game
        for k, (state, _) in enumerate(steps(players, seed, **options)):
            if k % 7:  # every seventh position keeps the test quick
                continue
            for seat in [*range(players), None]:
                _fits(game.render_view(state.view(seat)))
        for seat in [*range(players), None]:
            _fits(game.render_view(state.view(seat)))


def test_the_terminal_board_fits_a_crowded_position() -> None:
    # Prepared: a seat holding every sarcophagus, a long curse phase, pending pairs.
    state = new_state(4, curse=True)
    rng = random.Random(5)
    while state.inserted < 20:
        state.apply_action(
            sample_chance(state, rng)
            if state.current_player() == CHANCE
            else rng.choice([a for s in state.acting_seats() for a in state.legal_actions(s)])
        )
    state.held = replaced(state.held, 0, tuple(v | 1 << 3 for v in range(7) for _ in range(3)))
    state.tokens = (0, 3, 5, 7, 9, 11, 13)
    for seat in [*range(4), None]:
        _fits(state.game.render_view(state.view(seat)))
    text = Text.from_markup(state.game.render_view(state.view(0))).plain
    assert "you" in text and "Player 2" in text
