"""The effects of The Pyramid of Horus: what a falling block, a mummy's touch, a card
handed out, an opened lock or a seal check do, queued and carried out in turn.

Effects are queued rather than applied at once because several of them stop for a
decision (which card to discard to make room, where to jump) or a chance outcome (a card
to draw, a chest to roll), and the rules then resume where they were: :func:`handle_event`
carries out one and says whether it stopped. The decisions (:mod:`.actions`) and the round
(:mod:`.rules`) both set effects off; they need nothing of either, so both import them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from necropolis.engine.frozen import added, removed, replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus import events as ev
from necropolis.games.horus.codes import (
    C_BLOCK,
    C_CHECK,
    C_CHEST,
    C_DRAW,
    C_SARC,
    CRUSHED,
    D_CHECK,
    D_JUMP,
    D_REACT,
    D_ROOM,
    E_BLOCK,
    E_CHECK,
    E_CHECK_DECIDE,
    E_CHEST,
    E_DRAW,
    E_GIVE,
    E_HORUS_BLOCK,
    E_JUMP,
    E_REACT,
    E_ROOM,
    E_SARC,
    E_SEAL,
    E_TAKE,
    E_TOUCH,
    INSIDE,
    MUMMIFIED,
    SEALED,
    TOUCH_BACKWARD,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState


def reaction_possible(s: HorusState, seat: int, deck: int, t: int) -> bool:
    """Whether Reflexes or Swimming can throw off card ``t`` (-1: any card of ``deck``)."""
    if s.ability_used[seat]:
        return False
    adventurer = s.adventurer[seat]
    if adventurer == cp.REFLEXES:
        return t in (cp.SNAKE, cp.SCORPION) or (t < 0 and deck in (cp.RUBBLE, cp.SAND_DECK))
    if adventurer == cp.SWIMMING:
        return t == cp.CROCODILE or (t < 0 and deck == cp.WATER_DECK)
    return False


# --- the lock ----------------------------------------------------------------------------


def lock_missing(s: HorusState) -> int:
    """How many of the lock's faces the dice do not show."""
    dice = s.lock_dice
    return sum(1 for f in cp.IDOL_LOCK[s.lock_god] if f not in dice)


def lock_success(s: HorusState) -> None:
    """The alcove opens: the idol goes to the picker (no action), Horus drops a block."""
    g = s.lock_god
    seat = s.order[s.turn_i]
    if s.sink is not None:
        s.sink.append(ev.LockOpened(seat, g))
    s.lock_god = -1
    s.lock_to_roll = 0
    s.alcove_idol = replaced(s.alcove_idol, g, False)
    s.queue.append((E_GIVE, seat, cp.IDOL_CARD[g]))
    if g == cp.HORUS:
        s.queue.append((E_HORUS_BLOCK, seat, 0))


# --- blocks and sealing -------------------------------------------------------------------


def fall(s: HorusState, b: int) -> None:
    """Block ``b`` (number - 1) lands: whoever stands there must jump, then seal check."""
    s.fallen = replaced(s.fallen, b, True)
    if s.sink is not None:
        s.sink.append(ev.BlockFell(b))
    if b in s.box:
        s.box = removed(s.box, b)
    square = cp.BLOCK_SQUARE[b]
    events = [
        (E_JUMP, seat, square)
        for seat in s.order
        if s.status[seat] == INSIDE and s.square[seat] == square
    ]
    events.append((E_SEAL, 0, 0))
    s.queue[0:0] = events


def _grid_masks() -> tuple[tuple[int, ...], int, tuple[int, int, int, int]]:
    """Bit tables for flooding the board at once: a square's bit is its grid cell
    (row * width + column), so that a step in a direction is a fixed shift; per
    direction, the squares joined to their neighbour that way."""
    width = cp.WIDTH
    bits = tuple(1 << (r * width + c) for r, c in cp.SQUARE_POS)
    exits = sum(bits[e] for e in cp.ENTRANCES)
    joined = [0, 0, 0, 0]
    for sq, nbs in enumerate(cp.NEIGHBOURS):
        for d, nb in enumerate(nbs):
            if nb >= 0:
                joined[d] |= bits[sq]
    return bits, exits, (joined[0], joined[1], joined[2], joined[3])


SQUARE_BIT, _EXIT_BITS, _JOINED = _grid_masks()
_BLOCK_BIT = tuple(SQUARE_BIT[sq] for sq in cp.BLOCK_SQUARE)
_ALL_BITS = sum(SQUARE_BIT)
_WIDTH = cp.WIDTH


def exit_reach_bits(fallen: Sequence[bool]) -> int:
    """The grid bits of every square from which an exit can still be reached.

    The whole board floods at once: each pass spreads the reached set one step in all
    four directions (only across dotted lines, only onto squares with no block).
    """
    free = _ALL_BITS
    for b, down in enumerate(fallen):
        if down:
            free &= ~_BLOCK_BIT[b]
    north, east, south, west = _JOINED
    w = _WIDTH
    reach = _EXIT_BITS & free
    while True:
        grown = (
            reach
            | (reach & north) >> w
            | (reach & south) << w
            | (reach & east) << 1
            | (reach & west) >> 1
        ) & free
        if grown == reach:
            return reach
        reach = grown


def exit_reach(s: HorusState) -> list[bool]:
    """Squares from which an exit can still be reached around the fallen blocks."""
    reach = exit_reach_bits(s.fallen)
    return [bool(reach & bit) for bit in SQUARE_BIT]


def seal_check(s: HorusState) -> None:
    reach = exit_reach_bits(s.fallen)
    for seat in range(s.n):
        if s.status[seat] == INSIDE and not reach & SQUARE_BIT[s.square[seat]]:
            s.status = replaced(s.status, seat, SEALED)
            if s.sink is not None:
                s.sink.append(ev.Sealed(seat))


# --- wounds ------------------------------------------------------------------------------


def add_card(s: HorusState, seat: int, t: int) -> None:
    hand = s.hand[seat]
    at = bisect_right(hand, t)
    s.hand[seat] = (*hand[:at], t, *hand[at:])  # kept sorted
    if s.sink is not None:
        public = cp.CARD_KIND[t] == cp.IDOL or t in (cp.MUMMY_WOUND, cp.BLOCK_WOUND)
        here: tuple[tuple[int, int], ...] = ()
        if t == cp.MUMMY_WOUND:
            here = tuple((m, s.mummy_seat[m]) for m in s.mummies_at(s.square[seat]))
        s.sink.append(ev.CardGained(seat, t, s.secrecy and not public, here))


def return_card(s: HorusState, t: int) -> None:
    """A card that could not be taken goes back where it came from."""
    if cp.CARD_KIND[t] == cp.IDOL:
        s.alcove_idol = replaced(s.alcove_idol, cp.CARD_GOD[t], True)
    else:
        s.supply = added(s.supply, t, 1)


def mummify(s: HorusState, seat: int, m: int, facing: int) -> None:
    """The adventurer rises as a mummy where it stands, walking the section of the mummy
    ``m`` that touched it, facing the other way from that mummy's ``facing`` as it
    touched (a mummy that walked on since is elsewhere, perhaps turned at a wall)."""
    s.status = replaced(s.status, seat, MUMMIFIED)
    if s.sink is not None:
        s.sink.append(ev.BecameMummy(seat))
    section = s.mummy_section[m]
    s.mummy_section = (*s.mummy_section, section)
    s.mummy_pos = (*s.mummy_pos, cp.SECTIONS[section].index(s.square[seat]))
    s.mummy_facing = (*s.mummy_facing, -facing)
    s.mummy_down = (*s.mummy_down, False)
    s.mummy_seat = (*s.mummy_seat, seat)


def touch(seat: int, m: int, facing: int) -> tuple[int, int, int]:
    """The event of mummy ``m`` touching ``seat`` while facing ``facing`` (1 or -1)."""
    return (E_TOUCH, seat, m + TOUCH_BACKWARD if facing < 0 else m)


def touches(s: HorusState, square: int, m: int, facing: int) -> list[tuple[int, int, int]]:
    return [
        touch(seat, m, facing)
        for seat in s.order
        if s.status[seat] == INSIDE and s.square[seat] == square
    ]


def move_mummies(s: HorusState) -> None:
    """Every standing mummy walks one square per die of 4 or more, turning at walls."""
    steps = sum(1 for d in s.mummy_dice if d >= cp.MUMMY_STEP_MINIMUM)
    events: list[tuple[int, int, int]] = []
    sink = s.sink
    if sink is not None:
        sink.append(ev.MummiesWalk(steps))
    for m in range(len(s.mummy_pos)):
        path = cp.SECTIONS[s.mummy_section[m]]
        if s.mummy_down[m]:  # a shot mummy gets up instead of moving, and touches
            s.mummy_down = replaced(s.mummy_down, m, False)
            events += touches(s, path[s.mummy_pos[m]], m, s.mummy_facing[m])
            if sink is not None:
                sink.append(ev.MummyWalked(m, s.mummy_seat[m], s.mummy_section[m], (), True))
            continue
        if steps == 0:  # still together from one round to the next
            events += touches(s, path[s.mummy_pos[m]], m, s.mummy_facing[m])
            continue
        pos, facing = s.mummy_pos[m], s.mummy_facing[m]
        walked = []
        for _ in range(steps):
            nxt = pos + facing
            if nxt < 0 or nxt >= len(path):  # the wall: turning costs no step
                facing = -facing
                nxt = pos + facing
            pos = nxt
            walked.append(path[pos])
            events += touches(s, path[pos], m, facing)
        s.mummy_pos = replaced(s.mummy_pos, m, pos)
        s.mummy_facing = replaced(s.mummy_facing, m, facing)
        if sink is not None:
            section = s.mummy_section[m]
            sink.append(ev.MummyWalked(m, s.mummy_seat[m], section, tuple(walked), False))
    if sink is not None:
        for _, seat, arg in events:
            m = arg - TOUCH_BACKWARD if arg >= TOUCH_BACKWARD else arg
            sink.append(ev.MummyTouch(seat, m, s.mummy_seat[m]))
    s.queue.extend(events)


# --- events ------------------------------------------------------------------------------


def handle_event(s: HorusState, effect: tuple[int, int, int]) -> bool:
    """Carry out one queued effect; True when it stops for a decision or chance event."""
    code, seat, arg = effect
    if code == E_GIVE:
        if s.status[seat] != INSIDE:
            return_card(s, arg)
            return False
        if len(s.hand[seat]) < cp.CARD_LIMIT:
            add_card(s, seat, arg)
            return False
        if s.can_make_room(seat):
            s.room_then = effect
            return _wait(s, D_ROOM, seat, arg)
        return_card(s, arg)  # twelve wounds and nothing to discard: no card to take
        return False
    if code == E_TOUCH:
        m, facing = (arg - TOUCH_BACKWARD, -1) if arg >= TOUCH_BACKWARD else (arg, 1)
        if s.status[seat] != INSIDE or s.mummy_down[m]:
            return False
        if s.wounds(seat) >= cp.CARD_LIMIT:
            mummify(s, seat, m, facing)
        elif s.supply[cp.MUMMY_WOUND] > 0:
            s.supply = added(s.supply, cp.MUMMY_WOUND, -1)
            s.queue.insert(0, (E_GIVE, seat, cp.MUMMY_WOUND))
        return False
    if code == E_JUMP:
        if s.status[seat] != INSIDE or s.square[seat] != arg:
            return False
        nbs = cp.NEIGHBOURS[arg]
        if not any(nb >= 0 and not s.blocked(nb) for nb in nbs):
            s.status = replaced(s.status, seat, CRUSHED)
            if s.sink is not None:
                s.sink.append(ev.Crushed(seat))
            return False
        return _wait(s, D_JUMP, seat, arg)
    if code == E_SEAL:
        seal_check(s)
        return False
    if code == E_DRAW:
        return _wait(s, C_DRAW, seat, arg)
    if code == E_TAKE:
        t = s.sarc_card[arg]
        if s.sink is not None:
            s.sink.append(ev.TreasureTaken(seat, arg, t))
        s.sarc_state = replaced(s.sarc_state, arg, 2)
        s.sarc_card = replaced(s.sarc_card, arg, -1)
        s.queue.insert(0, (E_GIVE, seat, t))
        return False
    if code == E_CHEST:
        return _wait(s, C_CHEST, seat, 0)
    if code in (E_HORUS_BLOCK, E_BLOCK):
        return bool(s.box) and _wait(s, C_BLOCK, seat, 0)
    if code == E_ROOM:
        return _wait(s, D_ROOM, seat, -1)
    if code == E_REACT:
        return _wait(s, D_REACT, seat, arg)
    if code == E_CHECK:
        return bool(s.box) and _wait(s, C_CHECK, seat, 0)
    if code == E_CHECK_DECIDE:
        return _wait(s, D_CHECK, seat, 0)
    if code == E_SARC:
        return _wait(s, C_SARC, seat, arg)
    raise AssertionError(f"unknown event {effect}")


def _wait(s: HorusState, node: int, seat: int, arg: int) -> bool:
    s.node = node
    s.node_seat = seat
    s.node_arg = arg
    return True


def set_wll(s: HorusState, seat: int) -> None:
    level = cp.WLL_TABLE[len(s.hand[seat])]
    s.wll = replaced(s.wll, seat, level - 1 if s.stamina[seat] else level)
