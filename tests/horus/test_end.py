"""Every way the game ends, and how it is scored: escapes, chests, the variety bonus, the
tie-breaks, adventurers sealed in or crushed, the block that closes the last way out, and
the mummies' victory.
"""

from __future__ import annotations

from necropolis.engine import CHANCE
from necropolis.engine.frozen import replaced
from necropolis.games.horus.codes import CRUSHED, ESCAPED, INSIDE, MUMMIFIED, SEALED
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    act,
    card,
    chance,
    drop_blocks,
    end_turns,
    keep_all,
    roll,
    said,
    square,
    start,
    told,
)


def _parts(state: HorusState, seat: int) -> dict[str, int]:
    """The seat's score parts by kind, after checking that they add up to its total."""
    seat_score = state.score_breakdown()[seat]
    parts = {p["kind"]: p["points"] for p in seat_score["parts"]}
    assert sum(parts.values()) == seat_score["total"]
    return parts


def _both_leave(state: HorusState) -> None:
    keep_all(state)
    roll(state, [6, 6, 1, 1, 1])
    act(state, "seat 0 leaves the pyramid")
    while state.current_player() == CHANCE:  # chests are rolled as their owner escapes
        chance(state, 2)  # each chest worth 3
    act(state, "seat 1 leaves the pyramid")
    while state.current_player() == CHANCE:
        chance(state, 2)


def test_everyone_out_ends_the_game_and_the_best_load_wins() -> None:
    hands = {
        0: ["Hededet treasure (5)", "Sobek treasure (2)", "Sand chest"],
        1: ["Hededet treasure (6)", "Necklace (3)"],
    }
    state = start([DAVID, CHANTAL], hands)
    mark = state.clone()
    keep_all(state)
    roll(state, [6, 6, 1, 1, 1])
    act(state, "seat 0 leaves the pyramid")
    chance(state, 2)  # the chest is worth 3
    # during play only the public part: the chest's roll; the treasures lie face down,
    # a hidden part that counts them, worth 0 until the end
    assert _parts(state, 0) == {"score_chests": 3, "score_cards_hidden": 0}
    assert _parts(state, 1) == {"score_cards_hidden": 0}
    unseen = [
        (p["params"]["cards"], p.get("hidden"))
        for b in state.score_breakdown()
        for p in b["parts"]
        if p["kind"] == "score_cards_hidden"
    ]
    assert unseen == [(3, True), (2, True)]
    act(state, "seat 1 leaves the pyramid")
    assert state.is_terminal()
    assert state.status == (ESCAPED, ESCAPED)
    assert _parts(state, 0) == {"score_treasures": 7, "score_chests": 3, "score_variety": 3}
    assert _parts(state, 1) == {"score_treasures": 6, "score_necklaces": 3, "score_variety": 1}
    assert [b["total"] for b in state.score_breakdown()] == state.scores()
    variety = state.score_breakdown()[0]["parts"][-1]
    assert variety["text"] == "Variety bonus for 2 gods: 3 points"
    assert said(told(mark, state, 1))[-7:] == [
        "Player 1 left the pyramid with 3 cards",
        "Player 1 rolled 3 for a chest",
        "You left the pyramid with 2 cards",
        "The game is over",
        "Player 1 got out with 13 points",
        "You got out with 10 points",
        "Player 1 won",
    ]
    assert state.chest_rolls == ((3,), ())
    # 5 + 2 + 3 (chest) + 3 (two gods) = 13; 6 + 3 + 1 (one god; necklaces have none) = 10
    assert state.scores() == [13.0, 10.0]
    assert state.returns() == [1.0, 0.0]
    assert state.view(1)["players"][0]["cards"]  # at the end the cards are shown


def test_variety_bonus_counts_gods_of_treasures_and_idols() -> None:
    hands = {
        0: ["Hededet treasure (1)", "Sobek treasure (1)", "Thoth Idol", "Anubis Idol"],
        1: ["Horus Idol"],
    }
    state = start([DAVID, CHANTAL], hands)
    _both_leave(state)
    # 1 + 1 + 3 + 4 = 9, four gods +10; the Horus idol: 5 and +1
    assert state.scores() == [19.0, 6.0]
    assert _parts(state, 0) == {"score_treasures": 2, "score_idols": 7, "score_variety": 10}
    assert _parts(state, 1) == {"score_idols": 5, "score_variety": 1}


def test_a_tie_goes_to_the_holder_of_the_horus_idol() -> None:
    hands = {0: ["Hededet treasure (6)"], 1: ["Horus Idol"]}
    state = start([DAVID, CHANTAL], hands)
    # the idols lie face up: public during play, tie-breaks included
    assert _parts(state, 1) == {"score_idols": 5}
    _both_leave(state)
    assert state.scores() == [7.0, 6.0]
    state.hand[0] = (card("Hededet treasure (5)"),)  # prepared: make it a tie at 6
    assert state.scores() == [6.0, 6.0]
    assert state.returns() == [0.0, 1.0]
    ties = [[t["value"] for t in b["tiebreak"]] for b in state.score_breakdown()]
    assert ties == [[0, 0], [1, 5]]
    assert state.score_breakdown()[1]["tiebreak"][0]["text"] == "Holds the Horus Idol: yes"


def test_a_tie_without_horus_goes_to_the_higher_idols_then_is_shared() -> None:
    hands = {0: ["Anubis Idol", "Sobek treasure (1)"], 1: ["Thoth Idol", "Hededet treasure (2)"]}
    state = start([DAVID, CHANTAL], hands)
    _both_leave(state)
    assert state.scores() == [8.0, 8.0]
    assert state.returns() == [1.0, 0.0]  # Anubis idol 4 beats Thoth idol 3
    assert [b["tiebreak"][1]["value"] for b in state.score_breakdown()] == [4, 3]
    state.hand[1] = (card("Anubis Idol"), card("Sobek treasure (1)"))
    assert state.returns() == [0.5, 0.5]


def test_an_adventurer_who_does_not_escape_scores_nothing() -> None:
    state = start([DAVID, CHANTAL], {1: ["Hededet treasure (6)"] * 1})
    state.square[1] = square(3, 4)
    drop_blocks(state, range(12, 16))  # blocks 12-15: the Cobra Nest is cut off
    keep_all(state)
    roll(state, [6, 6, 1, 1, 1])
    act(state, "seat 0 leaves the pyramid")
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    mark = state.clone()
    chance(state, 0)  # any block falls: the seal check finds Chantal cut off
    assert state.status == (ESCAPED, SEALED)
    assert state.is_terminal()
    assert _parts(state, 0) == {"score_nothing": 0}
    assert _parts(state, 1) == {"score_not_out": 0}
    assert (
        state.score_breakdown()[1]["parts"][0]["text"] == "Did not get out (sealed in): no points"
    )
    assert said(told(mark, state, 0)) == [
        "Stone block 1 fell",
        "The fallen blocks sealed Player 2 in the pyramid",
        "The game is over",
        "You got out with 0 points",
        "Player 2 scored nothing: sealed in",
        "You won",
    ]
    assert state.scores() == [0.0, 0.0]
    assert state.returns() == [1.0, 0.0]  # escaping with nothing still beats the tomb


def test_nobody_escapes_and_the_mummies_win() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(3, 4)
    state.square[1] = square(2, 4)
    drop_blocks(state, range(12, 15))
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    mark = state.clone()
    chance(state, 14)  # block 15 completes the seal
    assert state.status == (SEALED, SEALED)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert said(told(mark, state, None))[-1] == "Nobody got out alive: the pyramid won"


def test_the_block_that_closes_the_last_way_out_ends_the_game() -> None:
    # "The game ends when all of the Adventurers have left the pyramid or have been sealed
    # inside by the Stone Blocks", however many blocks are still in the box
    state = start([DAVID, CHANTAL])
    state.square[0], state.square[1] = square(7, 4), square(7, 5)  # prepared: in the nest
    drop_blocks(state, (35,))  # prepared: the west exit space is covered
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    assert state.status == (INSIDE, INSIDE)  # the east exit is reached through (8, 5)
    chance(state, 34 - 1)  # block 34 covers (8, 5): no way out is left
    assert state.status == (SEALED, SEALED) and state.is_terminal()
    assert len(state.box) == 34


def test_the_last_adventurer_crushed_ends_the_game() -> None:
    state = start([DAVID, CHANTAL])
    drop_blocks(state, (11, 17, 31))  # around block 16's square (5, 2)
    state.square[1] = square(5, 2)
    keep_all(state)
    roll(state, [6, 6, 1, 1, 1])
    act(state, "seat 0 leaves the pyramid")
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    mark = state.clone()
    chance(state, 15)  # block 16 lands on Chantal with nowhere to jump
    assert state.status == (ESCAPED, CRUSHED) and state.is_terminal()
    assert "Player 2 scored nothing: crushed" in said(told(mark, state, 0))
    assert state.returns() == [1.0, 0.0]


def test_the_last_adventurer_turned_mummy_ends_the_game_and_the_mummies_win() -> None:
    state = start([DAVID, CHANTAL], {1: ["Scorpion"] * 6 + ["Crocodile"] * 6})
    state.status = replaced(state.status, 0, SEALED)  # prepared: David already lost in the pyramid
    state.square[1] = square(2, 0)
    keep_all(state)
    roll(state, [6, 6, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 1 moves north")  # onto Initkaes with twelve wounds
    assert state.status == (SEALED, MUMMIFIED) and state.is_terminal()
    assert said(told(mark, state, 1))[-3:] == [
        "Player 1 scored nothing: sealed in",
        "You scored nothing: turned into a mummy",
        "Nobody got out alive: the pyramid won",
    ]
    assert state.returns() == [0.0, 0.0] and state.scores() == [0.0, 0.0]
