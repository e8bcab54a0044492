"""The table language of The Pyramid of Horus: what each seat is told, asked and shown.

Abilities and equipment tell their events; a seat's narration, prompt, descriptors and
the score breakdown are the same in the true state and in every world resampled for that
seat (so they carry nothing the seat may not see), and a hidden chance outcome (a card
found under total secrecy, a sarcophagus read, a block checked) reads the same to the
others whichever it was; descriptors point at board elements that ``board_layout()``
has; the terminal board keeps to 64 columns and 20 lines at every player count.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from rich.text import Text

import necropolis
from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.engine.frozen import replaced
from necropolis.engine.seat import SeatWindow
from necropolis.games.horus import components as cp
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    ABDEL,
    CHANTAL,
    DAVID,
    DELROY,
    EDGAR,
    JOSE,
    MAKI,
    RASPUTIN,
    act,
    card,
    chance,
    end_turns,
    keep_all,
    roll,
    said,
    square,
    start,
    told,
)

#: What no text shown to a player may contain: Python values, internal names, raw seats.
_PYTHON = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]{}]|\bseat \d|_")


# --- abilities and equipment tell their events -------------------------------------------


def test_shoot_and_the_mummy_rising() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(2, 0)  # next to Initkaes, who starts on (1, 0)
    state.square[1] = square(0, 0)
    keep_all(state)
    roll(state, [6, 6, 6, 6, 6])
    shoot = state.string_to_action("seat 0 shoots Initkaes")
    info = state.action_info(shoot)
    assert info["targets"] == ["mummy:0"]
    assert info["text"] == "Shoot Initkaes: it lies down until the mummies next move"
    mark = state.clone()
    act(state, "seat 0 shoots Initkaes")
    end_turns(state)
    roll(state, [6, 6, 6, 6, 6])
    log = told(mark, state, 1)
    assert said(log, "shot") == [
        "Player 1 shot Initkaes, who lies on the floor until the mummies next move"
    ]
    assert said(log, "mummy_rose") == ["Initkaes got up again"]


def test_dodge_jumps_unhurt_and_the_jump_descriptors_say_the_wound() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = state.square[1] = square(1, 1)  # block 1's square
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    chance(state, 0)  # block 1 falls
    infos = {state.action_info(a)["text"]: state.action_info(a) for a in state.legal_actions()}
    assert infos["Jump east: the block hits you, a wound"]["targets"] == [f"square:{square(1, 2)}"]
    act(state, "seat 0 jumps east")
    infos = [state.action_info(a)["text"] for a in state.legal_actions()]
    assert "Jump south with Dodge, unhurt" in infos
    mark = state.clone()
    act(state, "seat 1 jumps south and uses Dodge")
    assert said(told(mark, state, 0))[0] == "Player 2 used Dodge and jumped south, unhurt"
    assert not said(told(mark, state, 0), "hit_by_block")


def test_stamina_and_the_level_prompt() -> None:
    hand = ["Hededet treasure (2)", "Hededet treasure (3)", "Sobek treasure (2)"] * 2
    state = start([DELROY, DAVID], {0: hand})
    prompt = state.prompt(0)
    assert prompt is not None and prompt["text"] == (
        "Discard what you no longer want, then keep the rest: 6 cards give wound and load level 3"
    )
    discard = state.string_to_action("seat 0 discards Sobek treasure (2)")
    assert state.action_info(discard)["text"] == (
        "Discard Sobek treasure (2): 5 cards left, wound and load level 2"
    )
    # one card gives, in the singular
    one = state.game.message("ask_level", {"cards": 1, "level": 2}, 0)
    assert one.endswith(": 1 card gives wound and load level 2")
    stamina = state.string_to_action("seat 0 keeps the rest and uses Stamina")
    assert state.action_info(stamina)["text"] == (
        "Keep the rest and use Stamina: wound and load level 2"
    )
    mark = state.clone()
    act(state, "seat 0 keeps the rest and uses Stamina")
    assert said(told(mark, state, 1)) == ["Player 1 used Stamina: wound and load level 2"]


def test_linguistics_is_read_by_its_reader_alone() -> None:
    state = start([ABDEL, DAVID])
    state.square[0] = square(1, 0)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    k = cp.SARCOPHAGI_AT[square(1, 0)][0]
    mark = state.clone()
    act(state, f"seat 0 uses Linguistics on sarcophagus {k}")
    other = state.clone()
    chance(state, card("Anubis treasure (10)"))
    chance(other, card("Anubis treasure (6)"))
    assert said(told(mark, state, 0)) == [
        "You used Linguistics to read one of the Anubis sarcophagi in secret",
        "You read that the Anubis sarcophagus holds Anubis treasure (10)",
    ]
    for viewer in (1, None):
        assert told(mark, state, viewer) == told(mark, other, viewer)
        assert "10" not in " ".join(said(told(mark, state, viewer)))
    opening = state.string_to_action(f"seat 0 opens sarcophagus {k}")
    assert state.action_info(opening)["text"] == (
        "Open the Anubis sarcophagus (you read Anubis treasure (10) inside)"
    )
    mark = state.clone()
    act(state, f"seat 0 opens sarcophagus {k}")  # no draw: the card was already there
    assert said(told(mark, state, 1))[1] == "The Anubis sarcophagus held Anubis treasure (10)"


def test_clairvoyance_and_udjat_checks_are_seen_by_the_checker_alone() -> None:
    state = start([RASPUTIN, DAVID])
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 0 uses Clairvoyance")
    other = state.clone()
    chance(state, 19)  # block 20
    chance(other, 4)  # block 5
    prompt = state.prompt(0)
    assert prompt is not None and prompt["params"] == {"number": 20}
    keep = state.string_to_action("seat 0 sets the checked block aside")
    assert state.action_info(keep)["targets"] == [f"square:{cp.BLOCK_SQUARE[19]}"]
    assert said(told(mark, state, 0))[1] == "You looked at stone block 20"
    for viewer in (1, None):
        assert told(mark, state, viewer) == told(mark, other, viewer)
    assert said(told(mark, state, 1)) == [
        "Player 1 used Clairvoyance to look at a stone block",
        "Player 1 looked at a stone block in secret",
    ]
    mark = state.clone()
    act(state, "seat 0 sets the checked block aside")
    act(state, "seat 0 ends the turn")
    act(state, "seat 1 ends the turn")
    roll(state, [1, 1, 1, 1, 1])
    log = said(told(mark, state, 1))
    assert log[0] == "Player 1 set the stone block aside: it falls at the end of this round"
    assert "Stone block 20 fell" in log
    assert "Round 2 began with you as the Dice Keeper" in log


def test_reflexes_and_swimming_throw_the_card_away() -> None:
    state = start([MAKI, EDGAR])
    state.square[0] = square(5, 4)
    state.square[1] = square(3, 4)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 0 searches")
    chance(state, card("Scorpion"))
    prompt = state.prompt(0)
    assert prompt is not None
    assert prompt["text"] == "You drew Scorpion: throw it away with Reflexes, or keep it"
    assert state.prompt(1) is None and state.prompt(None) is None
    act(state, "seat 0 uses Reflexes")
    act(state, "seat 0 ends the turn")
    act(state, "seat 1 searches")
    chance(state, card("Crocodile"))
    act(state, "seat 1 uses Swimming")
    log = said(told(mark, state, 1))
    assert "Player 1 used Reflexes and threw away the Scorpion" in log
    assert "You used Swimming and threw away the Crocodile" in log
    assert not said(told(mark, state, 1), "stung_by_scorpion")


def test_lockpicking_and_the_crowbar_open_a_lock() -> None:
    state = start([JOSE, DAVID], {1: ["Crowbar"]})
    state.square[0] = square(6, 9)
    state.square[1] = square(4, 0)
    state.mummy_pos = replaced(state.mummy_pos, 0, 6)
    state.mummy_pos = replaced(state.mummy_pos, 2, 1)
    keep_all(state)
    roll(state, [2, 1, 1, 1, 1])  # one action each
    mark = state.clone()
    act(state, "seat 0 picks the lock of the Sobek alcove")
    roll(state, [2, 4, 1, 1, 1])  # a 6 is missing and no action is left
    prompt = state.prompt(0)
    assert prompt is not None
    assert prompt["text"] == "The Sobek lock still needs one face: use your tool or stop"
    act(state, "seat 0 uses Lockpicking")  # no action left: the turn passes
    act(state, "seat 1 picks the lock of the Anubis alcove")
    roll(state, [3, 4, 5, 1, 1])  # a 6 is missing
    crowbar = state.string_to_action("seat 1 uses a Crowbar")
    assert state.action_info(crowbar)["targets"] == [f"card:{cp.CROWBAR}"]
    act(state, "seat 1 uses a Crowbar")
    log = said(told(mark, state, 0))
    assert "You used Lockpicking on the lock" in log
    assert "You took the Sobek Idol" in log
    assert "Player 2 forced the lock with a Crowbar" in log
    assert "Player 2 took the Anubis Idol" in log


def test_a_lock_that_holds_for_want_of_actions_is_told() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(6, 9)
    state.mummy_pos = replaced(state.mummy_pos, 2, 1)
    keep_all(state)
    roll(state, [2, 1, 1, 1, 1])  # one action: the attempt itself
    mark = state.clone()
    act(state, "seat 0 picks the lock of the Sobek alcove")
    roll(state, [1, 1, 1, 1, 1])
    assert said(told(mark, state, 1))[-1] == (
        "The lock of the Sobek alcove held: no action left for Player 1 to roll again"
    )


def test_equipment_the_bag_and_discards_keep_face_down_cards_face_down() -> None:
    hand = ["Antidote Vial", "Snake", "Bag", "Sobek treasure (5)", "Crowbar", "Udjat"]
    state = start([DAVID, CHANTAL], {0: hand})
    heal = state.string_to_action("seat 0 uses an Antidote Vial on a Snake")
    assert state.action_info(heal)["targets"] == [f"card:{cp.ANTIDOTE}", f"card:{cp.SNAKE}"]
    mark = state.clone()
    act(state, "seat 0 uses an Antidote Vial on a Snake")
    act(state, "seat 0 puts Sobek treasure (5) in the bag")
    act(state, "seat 0 discards Crowbar")
    act(state, "seat 0 discards Sobek treasure (5) from the bag")
    assert said(told(mark, state, 1)) == [
        "Player 1 used the Antidote Vial and discarded the Snake",
        "Player 1 put a face-down water card in a Bag",
        "Player 1 discarded Crowbar",
        "Player 1 discarded a face-down water card from a Bag",
    ]
    assert said(told(mark, state, 0))[1] == "You put Sobek treasure (5) in a Bag"
    act(state, "seat 0 keeps the rest")
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 0 uses an Udjat")
    assert said(told(mark, state, 1)) == ["Player 1 used an Udjat to look at a stone block"]


# --- prompts and descriptors -----------------------------------------------------------------


def test_setup_prompt_and_descriptors_point_at_adventurer_and_entrance() -> None:
    state = necropolis.load_game("horus", players=2).new_initial_state()
    assert isinstance(state, HorusState)
    prompt = state.prompt(0)
    assert prompt is not None and prompt["kind"] == "ask_adventurer"
    assert state.prompt(1) is None
    info = state.action_info(ABDEL * 2 + 1)
    assert info["text"] == "Play Abdel Wahab (Linguistics) from the east entrance"
    assert info["targets"] == [f"adventurer:{ABDEL}", f"square:{cp.ENTRANCES[1]}"]
    before = state.clone()
    state.apply_action(ABDEL * 2 + 1)
    assert said(state.narrate(before, ABDEL * 2 + 1, 1)) == [
        "Player 1 chose Abdel Wahab (Linguistics) and entered at the east entrance"
    ]


def test_moves_name_their_square_and_warn_of_a_mummy() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(3, 1)  # the sand, beside the opening to the Anubis section
    state.mummy_pos = replaced(state.mummy_pos, 0, 3)  # Initkaes on (3, 0)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    by_text = {state.action_info(a)["text"]: state.action_info(a) for a in state.legal_actions()}
    west = by_text["Move west into the Mummies' Corridor, onto a mummy (a wound each)"]
    assert west["targets"] == [f"square:{square(3, 0)}"]
    assert by_text["Move east into the Crocodile Pond"]["targets"] == [f"square:{square(3, 2)}"]
    assert by_text["Search the Scorpion Pit: draw from the sand deck"]["targets"] == []
    assert by_text["End your turn, giving up 2 actions"]["targets"] == []


@pytest.mark.parametrize("secrecy", [False, True])
def test_every_target_is_an_element_of_the_board_or_the_view(secrecy: bool) -> None:
    layout = necropolis.load_game("horus").board_layout()
    squares = {s["id"] for s in layout["squares"]}
    alcoves = {a["god"] for a in layout["alcoves"]}
    sarcophagi = {s["index"] for s in layout["sarcophagi"]}
    rng = random.Random(11)
    for players in (2, 6):
        state = necropolis.load_game("horus", players=players, total_secrecy=secrecy)
        st = state.new_initial_state()
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply_action(sample_chance(st, rng))
                continue
            seat = st.current_player()
            view = st.view(seat)
            me = view["players"][seat]
            for a in st.legal_actions():
                for target in st.action_info(a)["targets"]:
                    kind, _, ident = target.partition(":")
                    if kind == "square":
                        assert int(ident) in squares
                    elif kind == "card":
                        assert int(ident) in me["card_types"]
                    elif kind == "bag":
                        assert int(ident) in me["bag_types"]
                    elif kind == "die":
                        assert 0 <= int(ident) < len(view["lock"]["dice"])
                    elif kind == "sarcophagus":
                        assert int(ident) in sarcophagi
                    elif kind == "alcove":
                        assert ident in alcoves
                    elif kind == "mummy":
                        assert 0 <= int(ident) < len(view["mummies"])
                    else:
                        assert kind == "adventurer" and 0 <= int(ident) < cp.NUM_ADVENTURERS
            st.apply_action(rng.choice(st.legal_actions()))


# --- nothing leaks ----------------------------------------------------------------------------


def _told_per_seat(state: HorusState, seat: int) -> tuple[object, ...]:
    """What ``seat`` is told of the position now: prompt, descriptors and breakdown."""
    infos = [state.action_info(a) for a in state.legal_actions(seat)]
    return state.prompt(seat), infos, state.score_breakdown()


@pytest.mark.parametrize("secrecy", [False, True])
def test_a_seat_is_told_the_same_in_every_world_it_cannot_tell_apart(secrecy: bool) -> None:
    rng = random.Random(21)
    compared = 0
    # random play, then the heuristic bot's (which opens, takes, picks locks and escapes)
    for players, bots in ((3, False), (5, True), (4, True)):
        game = necropolis.load_game("horus", players=players, total_secrecy=secrecy)
        policy = game.heuristic_policy()
        state = game.new_initial_state()
        assert isinstance(state, HorusState)
        step = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            elif bots and rng.random() < 0.9:
                action = policy(SeatWindow(state, state.current_player()), rng)
            else:
                action = rng.choice(state.legal_actions())
            seat = step % players
            world = state.resample(seat, random.Random(step))
            assert _told_per_seat(world, seat) == _told_per_seat(state, seat)
            before, world_before = state.clone(), world.clone()
            state.apply_action(action)
            if world.is_legal(action):
                world.apply_action(action)
                # a step whose public outcome hangs on something hidden until then (a
                # block set aside falls, the cards are shown at the end) shows it by the
                # rules, and then the two views differ too; every other step must read
                # the same in both worlds
                if world.view(seat) == state.view(seat):
                    for viewer in (seat, None):  # a spectator knows no more than the seat
                        mine = state.narrate(before, action, viewer)
                        assert world.narrate(world_before, action, viewer) == mine
                    compared += 1
            step += 1
    assert compared > 800


def test_under_total_secrecy_a_card_found_reads_the_same_whichever_it_was() -> None:
    state = start([DAVID, CHANTAL, DELROY], total_secrecy=True)
    state.square[0] = square(5, 4)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 searches")
    worlds = []
    for name in ("Scorpion", "Hededet treasure (6)", "Sand chest"):
        world = state.clone()
        chance(world, card(name))
        worlds.append(world)
    for viewer in (1, 2, None):
        told_each = [w.narrate(state, w.history()[-1], viewer) for w in worlds]
        assert told_each[0] == told_each[1] == told_each[2]
        assert said(told_each[0]) == [
            "Player 1 drew a card from the sand deck and laid it face down"
        ]
    assert said(worlds[0].narrate(state, card("Scorpion"), 0)) == [
        "You drew Scorpion from the sand deck",
        "A scorpion stung you: a wound",
    ]
    # under the normal rules the card is shown to everyone
    normal = start([DAVID, CHANTAL])
    normal.square[0] = square(5, 4)
    keep_all(normal)
    roll(normal, [2, 2, 1, 1, 1])
    act(normal, "seat 0 searches")
    drawn = normal.clone()
    chance(drawn, card("Hededet treasure (6)"))
    assert said(drawn.narrate(normal, card("Hededet treasure (6)"), 1)) == [
        "Player 1 drew Hededet treasure (6) from the sand deck"
    ]


def test_under_total_secrecy_a_wound_kept_after_a_reflexes_question_stays_unnamed() -> None:
    state = start([MAKI, DAVID], total_secrecy=True)
    state.square[0] = square(5, 4)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 searches")
    kept = []
    for name in ("Scorpion", "Hededet treasure (3)"):
        world = state.clone()
        chance(world, card(name))
        mark = world.clone()
        act(world, "seat 0 keeps the card drawn")
        kept.append(told(mark, world, 1))
    assert kept[0] == kept[1] and said(kept[0]) == ["Player 1 kept the card drawn"]


# --- the board, the screen and the texts --------------------------------------------------------


def test_board_layout_matches_the_data_file() -> None:
    layout = necropolis.load_game("horus").board_layout()
    json.dumps(layout)
    assert (layout["width"], layout["height"]) == (cp.WIDTH, cp.HEIGHT)
    assert len(layout["squares"]) == cp.NUM_SQUARES == 76
    by_id = {s["id"]: s for s in layout["squares"]}
    for s in layout["squares"]:
        assert cp.SQUARE_AT[(s["y"], s["x"])] == s["id"]
        for d, name in enumerate(cp.DIRECTION_NAMES):
            nb = s["neighbours"][name]
            assert nb == (cp.NEIGHBOURS[s["id"]][d] if cp.NEIGHBOURS[s["id"]][d] >= 0 else None)
    # every pair of squares side by side shares exactly one edge, open iff joined
    pairs = [e for e in layout["edges"] if len(e["squares"]) == 2]
    for e in pairs:
        a, b = e["squares"]
        assert (e["kind"] == "open") == (b in cp.NEIGHBOURS[a])
        (ax, ay), (bx, by) = (by_id[a]["x"], by_id[a]["y"]), (by_id[b]["x"], by_id[b]["y"])
        assert abs(ax - bx) + abs(ay - by) == 1
    assert len({tuple(sorted(e["squares"])) for e in pairs}) == len(pairs)
    # the corridor meets the sand through a wall except at the four openings
    openings = [
        e
        for e in pairs
        if e["kind"] == "open"
        and {by_id[x]["area"] for x in e["squares"]} == {"mummies_corridor", "scorpion_pit"}
    ]
    assert len(openings) == 4
    assert sorted(b["number"] for b in layout["blocks"]) == list(range(1, 37))
    assert all(by_id[b["square"]]["block"] == b["number"] for b in layout["blocks"])
    assert [len(a["squares"]) for a in layout["alcoves"]] == [1, 1, 1, 1, 2]
    assert {s["god"] for s in layout["sarcophagi"]} == {"anubis", "thoth", "horus"}
    assert {a["side"] for a in layout["alcoves"] if a["god"] == "horus"} == {"north"}
    assert [e["square"] for e in layout["entrances"]] == list(cp.ENTRANCES)
    assert [m["mummy"] for m in layout["mummy_starts"]] == list(cp.MUMMY_NAMES)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_terminal_board_fits_64_by_20_for_every_view(players: int) -> None:
    rng = random.Random(players)
    for secrecy in (False, True):
        game = necropolis.load_game("horus", players=players, total_secrecy=secrecy)
        state = game.new_initial_state()
        step = 0
        while True:
            if step % 17 == 0 or state.is_terminal():
                for viewer in [*range(players), None]:
                    screen = game.render_view(state.view(viewer))
                    lines = screen.split("\n")
                    assert len(lines) <= 20
                    for line in lines:
                        plain = Text.from_markup(line)
                        assert plain.cell_len <= 64, plain.plain
                        assert not re.search(r"\bNone\b|\bTrue\b|\bFalse\b|seat \d", plain.plain)
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        final = "\n".join(Text.from_markup(x).plain for x in screen.split("\n"))
        assert "The game is over" in final and "pts" in final


def test_texts_carry_no_python_values_and_plurals_agree() -> None:
    rng = random.Random(4)
    seen: set[str] = set()
    for players, secrecy in ((2, False), (4, True), (6, False)):
        game = necropolis.load_game("horus", players=players, total_secrecy=secrecy)
        state = game.new_initial_state()
        while not state.is_terminal():
            for seat in range(players):
                prompt = state.prompt(seat)
                if prompt:
                    seen.add(prompt["text"])
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                seen.update(state.action_info(a)["text"] for a in state.legal_actions())
                action = rng.choice(state.legal_actions())
            before = state.clone()
            state.apply_action(action)
            for viewer in (0, None):
                seen.update(e["text"] for e in state.narrate(before, action, viewer))
        for b in state.score_breakdown():
            seen.update(p["text"] for p in b["parts"])
            seen.update(t["text"] for t in b["tiebreak"])
    for text in seen:
        assert not _PYTHON.search(text.replace("Medi-kit", "")), text
        assert not re.search(r"\b1 (actions|squares|steps|cards|points|dice|faces)\b", text), text
        assert not re.search(r"\byou (was|is|has|gets)\b", text, re.IGNORECASE), text
        assert text[0].isupper(), text


def test_the_rules_summary_and_description_are_written() -> None:
    game = necropolis.load_game("horus")
    summary = game.rules_summary("en")
    assert summary.startswith("# The Adventurers: The Pyramid of Horus")
    for heading in ("A round", "The end and the score", "Optional rules", "abilities"):
        assert heading in summary
    assert "Total secrecy" in summary and "variety bonus" in summary
    assert len(game.description) > 200 and "\n" not in game.description


def test_the_end_of_game_lines_belong_to_the_seat_they_are_about() -> None:
    """Each seat's final score, fate and win is that seat's line (its colour on the page),
    not the line of whoever happened to act last; the game's end belongs to nobody."""
    rng = random.Random(17)
    game = necropolis.load_game("horus", players=4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    about = {"final_score", "final_fate", "won", "shared_win"}
    for viewer in (None, 0, 3):
        end = [e for e in state.log(viewer) if e["kind"] in about | {"game_over", "no_winner"}]
        assert {e["kind"] for e in end} >= {"game_over"}
        for e in end:
            if e["kind"] in about:
                assert e["seat"] == e["params"]["seat"], e
            else:
                assert e["seat"] is None, e
        assert sorted(e["seat"] for e in end if e["kind"] in ("final_score", "final_fate")) == [
            0,
            1,
            2,
            3,
        ]
