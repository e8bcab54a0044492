"""The collapse is the game's clock: blocks reach the exits, and the blocks alone end it.

Rulebook, "Place a Stone Block": each round one random block falls on its numbered
square; an adventurer there jumps to a free square beside it and takes a Block card, or
is crushed with nowhere to go. "Sealing the Pyramid": whoever the blocks leave no way
out is "trapped inside forever", and "how much time do the Adventurers have to explore
the pyramid? No one knows!". "Victory": the game ends when every adventurer has left or
been sealed inside by the blocks. The rulebook's own sealing example (block 15) is in
``test_rulebook_examples.py``; the mummies' meetings on the corners are tested here too
("Move the Mummies": "a Mummy can be on the same corner square as one of the other two
Mummies"; "The Mummy's Touch": one wound per mummy on the square).
"""

from __future__ import annotations

from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import ESCAPED, INSIDE, SEALED
from necropolis.games.horus.effects import SQUARE_BIT, exit_reach_bits
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    DELROY,
    act,
    chance,
    end_turns,
    keep_all,
    roll,
    said,
    square,
    start,
    told,
)

WEST_EXIT, EAST_EXIT = cp.ENTRANCES


def _to_block_phase(state: HorusState) -> None:
    """Phases 1 to 4 with no action for anyone (every die 1) and no mummy step."""
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])


def _fallen_after(numbers: list[int]) -> list[bool]:
    fallen = [False] * cp.NUM_BLOCKS
    for b in numbers:
        fallen[b - 1] = True
    return fallen


def test_a_block_can_fall_on_an_exit_space_and_the_adventurer_there_jumps() -> None:
    # "If an Adventurer is in a space where a Stone Block falls, that Adventurer must
    # immediately jump to an adjacent square ... The player then takes one Block card":
    # the exit spaces are numbered squares, so waiting there is never safe
    state = start([DAVID, CHANTAL])
    assert state.square[0] == WEST_EXIT
    _to_block_phase(state)
    mark = state.clone()
    chance(state, cp.SQUARE_NUMBER[WEST_EXIT] - 1)
    jumps = sorted(state.action_to_string(a) for a in state.legal_actions())
    assert jumps == ["seat 0 jumps east", "seat 0 jumps north"]  # the other exit, the nest
    act(state, "seat 0 jumps east")
    assert state.square[0] == EAST_EXIT and state.hand[0] == (cp.BLOCK_WOUND,)
    assert said(told(mark, state, 1))[0] == f"Stone block {cp.SQUARE_NUMBER[WEST_EXIT]} fell"
    assert state.status == (INSIDE, INSIDE)


def test_two_blocks_before_the_exits_can_shut_in_everyone_beyond_them() -> None:
    # "if Stone Blocks make it impossible for an Adventurer to leave the pyramid, he is
    # trapped inside forever": the two nest squares before the exits are numbered, so the
    # way out of the pyramid's depths can close as early as the second round
    state = start([DAVID, CHANTAL, DELROY])
    state.square[1] = square(3, 4)  # prepared: Chantal in the Crocodile Pond
    state.square[2] = square(7, 4)  # prepared: Delroy in the Cobra Nest
    before = [sq for sq in cp.ENTRANCES for sq in cp.NEIGHBOURS[sq] if sq >= 0]
    nest_before_exits = sorted({sq for sq in before if cp.AREA[sq] == cp.COBRA_NEST})
    first, second = sorted(cp.SQUARE_NUMBER[sq] for sq in nest_before_exits)
    assert (first, second) == (33, 34)
    _to_block_phase(state)
    chance(state, first - 1)
    assert state.status == (INSIDE, INSIDE, INSIDE)  # the other exit is still reached
    _to_block_phase(state)
    chance(state, second - 1)
    assert state.status == (INSIDE, SEALED, SEALED)  # David, on an exit, can still leave
    keep_all(state)
    roll(state, [6, 1, 1, 1, 1])
    act(state, "seat 0 leaves the pyramid")
    assert state.status == (ESCAPED, SEALED, SEALED) and state.is_terminal()


def test_the_36_blocks_together_close_every_way_out() -> None:
    # "The game ends when all of the Adventurers have left the pyramid or have been sealed
    # inside by the Stone Blocks": with every block down nobody anywhere reaches an exit,
    # so the blocks themselves end every game (no rule is needed for an empty box)
    assert all(cp.SQUARE_NUMBER[sq] for sq in cp.ENTRANCES)
    assert exit_reach_bits([True] * cp.NUM_BLOCKS) == 0
    assert exit_reach_bits([False] * cp.NUM_BLOCKS) != 0


def test_no_one_knows_when_the_last_way_out_closes() -> None:
    # "How much time do the Adventurers have to explore the pyramid? No one knows!": the
    # last way out closes when the second exit space is covered, at any round from the
    # second to the thirty-sixth, as the blocks happen to be drawn
    exits = [cp.SQUARE_NUMBER[sq] for sq in cp.ENTRANCES]
    others = [b for b in range(1, cp.NUM_BLOCKS + 1) if b not in exits]
    closing_rounds = set()
    for k in (2, 9, 20, 36):
        order = [exits[0], *others[: k - 2], exits[1], *others[k - 2 :]]
        shut = [not exit_reach_bits(_fallen_after(order[:r])) for r in range(37)]
        closing_rounds.add(shut.index(True))
    assert closing_rounds == {2, 9, 20, 36}


def test_standing_beside_the_exit_risks_a_block_too() -> None:
    # every square from which one step reaches an exit space carries a block number
    for ex in cp.ENTRANCES:
        for nb in cp.NEIGHBOURS[ex]:
            if nb >= 0:
                assert cp.SQUARE_NUMBER[nb], nb
    reach = exit_reach_bits(_fallen_after([36]))
    assert reach & SQUARE_BIT[WEST_EXIT] and not reach & SQUARE_BIT[EAST_EXIT]


# --- the mummies meet on the corners -----------------------------------------------------


def _round_of_mummy_steps(state: HorusState, steps: int, block: int) -> None:
    """A round in which nobody acts, the mummy dice give ``steps`` steps, and ``block``
    falls (on a square nobody stands on)."""
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [4] * steps + [1] * (5 - steps))
    chance(state, block - 1)


def _walk(state: HorusState, steps: list[int]) -> None:
    for i, k in enumerate(steps):
        _round_of_mummy_steps(state, k, block=1 + i)


def _mummy(name: str) -> int:
    return cp.MUMMY_NAMES.index(name)


def _meet(alternate: bool, rounds: list[int], corner: tuple[int, int], names: list[str]) -> None:
    state = start([DAVID, CHANTAL], alternate_mummy_starts=alternate)
    _walk(state, rounds[:-1])
    state.square[1] = square(*corner)  # prepared: Chantal waits on the corner
    _round_of_mummy_steps(state, rounds[-1], block=1 + len(rounds))
    where = {state.mummy_square(_mummy(n)) for n in names}
    assert where == {square(*corner)}
    # "if two or more Mummies occupy the same space as an Adventurer, that Adventurer
    # suffers a wound for each Mummy in the space"
    assert state.hand[1].count(cp.MUMMY_WOUND) == 2


def test_initkaes_and_sanakht_meet_on_their_corner() -> None:
    _meet(False, [5, 5, 5, 5, 3], (0, 0), ["Initkaes", "Sanakht"])  # after 23 steps


def test_sanakht_and_imhotep_meet_on_their_corner() -> None:
    _meet(False, [5, 5, 5, 5, 5, 5, 2], (0, 9), ["Sanakht", "Imhotep"])  # after 32 steps


def test_the_alternate_starts_let_the_mummies_meet_too() -> None:
    _meet(True, [5, 5, 4], (0, 0), ["Initkaes", "Sanakht"])  # after 14 steps
    _meet(True, [5, 5, 5, 5, 3], (0, 9), ["Sanakht", "Imhotep"])  # after 23 steps
