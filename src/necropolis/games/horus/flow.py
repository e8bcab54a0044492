"""The round of The Pyramid of Horus: its phases, its chance events and queued effects.

``advance`` runs the state forward after every action until it needs a decision or a
chance outcome: first the queue of pending effects (a wound to hand out, a jump away from a
falling block, a check for adventurers sealed in, a card to draw, a chest to roll), then
the phase in hand: setup, adjusting the wound and load level seat by seat from the Dice
Keeper, the five dice for actions, each seat's turn of actions, the five dice that move
the mummies, the falling stone block, and passing the Ankh and the dice. Effects are queued
rather than applied at once because several of them stop for a decision (which card to
discard to make room, where to jump), and the rules then resume where they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from necropolis.engine.frozen import replaced
from necropolis.games.horus import actions
from necropolis.games.horus import components as cp
from necropolis.games.horus import events as ev
from necropolis.games.horus.codes import (
    C_ACTION_DIE,
    C_BLOCK,
    C_CHECK,
    C_CHEST,
    C_DRAW,
    C_LOCK_DIE,
    C_MUMMY_DIE,
    C_SARC,
    CRUSHED,
    D_CHECK,
    D_JUMP,
    D_LOCK,
    D_REACT,
    D_ROOM,
    D_SETUP,
    D_TURN,
    D_WLL,
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
    N_TERMINAL,
    P_ACTIONS,
    P_BLOCK,
    P_MUMMIES,
    P_OVER,
    P_ROLL,
    P_SETUP,
    P_WLL,
    PEEK_FLAG,
    SEALED,
    TOUCH_BACKWARD,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

_DIE = [(f, 1.0 / 6.0) for f in range(6)]


# --- chance ----------------------------------------------------------------------------


def chance_outcomes(s: HorusState) -> list[tuple[int, float]]:
    node = s.node
    if node in (C_ACTION_DIE, C_MUMMY_DIE, C_LOCK_DIE, C_CHEST):
        return list(_DIE)
    if node in (C_DRAW, C_SARC):
        origin = s.node_arg if node == C_DRAW else cp.SARC_POOL[s.node_arg % PEEK_FLAG]
        supply = s.supply
        types = [t for t in cp.TYPES_OF_ORIGIN[origin] if supply[t]]
        total = sum(supply[t] for t in types)
        return [(t, supply[t] / total) for t in types]
    if node in (C_BLOCK, C_CHECK):
        p = 1.0 / len(s.box)
        return [(b, p) for b in s.box]
    return []


def chance_kind(s: HorusState) -> str:
    """The stream a chance node draws from in duplicate deals: the table's action and
    mummy dice, a seat's own lock and chest dice, the deck a card comes from (a search and
    a sarcophagus of one god draw from one deck), the stone blocks left in the box."""
    node = s.node
    if node == C_ACTION_DIE:
        return "action die"
    if node == C_MUMMY_DIE:
        return "mummy die"
    if node == C_LOCK_DIE:
        return f"lock die of seat {s.node_seat}"
    if node == C_CHEST:
        return f"chest die of seat {s.node_seat}"
    if node in (C_DRAW, C_SARC):
        origin = s.node_arg if node == C_DRAW else cp.SARC_POOL[s.node_arg % PEEK_FLAG]
        return f"{cp.ORIGIN_WORDS[origin]} card"
    return "stone block"  # C_BLOCK, C_CHECK: one taken from the box


def apply_chance(s: HorusState, a: int) -> None:
    node = s.node
    if s.sink is not None:
        _tell_chance(s, a)
    if node == C_ACTION_DIE:
        s.dice[s.turn_i] = a + 1
        s.turn_i += 1
    elif node == C_MUMMY_DIE:
        s.mummy_dice[s.turn_i] = a + 1
        s.turn_i += 1
    elif node == C_LOCK_DIE:
        i = s.node_arg
        s.lock_dice = replaced(s.lock_dice, i, a + 1)
        s.lock_to_roll &= ~(1 << i)
        if s.lock_to_roll == 0 and lock_missing(s) == 0:
            lock_success(s)
    elif node == C_DRAW:
        seat = s.node_seat
        s.supply[a] -= 1
        if reaction_possible(s, seat, s.node_arg, a) or (
            s.secrecy and reaction_possible(s, seat, s.node_arg, -1)
        ):
            # under total secrecy the finder is asked after every draw the ability could
            # answer, so that being asked does not tell the others what was drawn
            s.queue.insert(0, (E_REACT, seat, a))
        else:
            s.queue.insert(0, (E_GIVE, seat, a))
    elif node == C_SARC:
        k = s.node_arg % PEEK_FLAG
        s.supply[a] -= 1
        s.sarc_card = replaced(s.sarc_card, k, a)
        if s.node_arg >= PEEK_FLAG:
            s.peeked_by = replaced(s.peeked_by, k, s.node_seat)
        else:
            s.sarc_state = replaced(s.sarc_state, k, 1)
    elif node == C_BLOCK:
        fall(s, a)
    elif node == C_CHECK:
        s.check_block = a
        s.queue.insert(0, (E_CHECK_DECIDE, s.node_seat, 0))
    elif node == C_CHEST:
        seat = s.node_seat
        s.chest_rolls = replaced(s.chest_rolls, seat, (*s.chest_rolls[seat], a + 1))


def _tell_chance(s: HorusState, a: int) -> None:
    """The event of the chance outcome ``a``, told before it is carried out."""
    assert s.sink is not None
    tell = s.sink.append
    node = s.node
    if node == C_ACTION_DIE:
        tell(ev.DieRolled(ev.ACTION_DICE, s.node_arg, a + 1))
    elif node == C_MUMMY_DIE:
        tell(ev.DieRolled(ev.MUMMY_DICE, s.node_arg, a + 1))
    elif node == C_LOCK_DIE:
        tell(ev.DieRolled(ev.LOCK_DICE, s.node_arg, a + 1))
    elif node == C_DRAW:
        tell(ev.CardFound(s.node_seat, a, s.node_arg, s.secrecy))
    elif node == C_SARC:
        k = s.node_arg % PEEK_FLAG
        if s.node_arg >= PEEK_FLAG:
            tell(ev.SarcophagusRead(s.node_seat, k, a))
        else:
            tell(ev.SarcophagusRevealed(k, a))
    elif node == C_BLOCK:
        if s.phase == P_ACTIONS:
            tell(ev.HorusTrap())
    elif node == C_CHECK:
        tell(ev.BlockChecked(s.node_seat, a))
    elif node == C_CHEST:
        tell(ev.ChestRolled(s.node_seat, a + 1))


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
    s.fallen[b] = True
    if s.sink is not None:
        s.sink.append(ev.BlockFell(b))
    if b in s.box:
        s.box.remove(b)
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


def exit_reach_bits(fallen: list[bool]) -> int:
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
            s.status[seat] = SEALED
            if s.sink is not None:
                s.sink.append(ev.Sealed(seat))


# --- wounds ------------------------------------------------------------------------------


def add_card(s: HorusState, seat: int, t: int) -> None:
    hand = s.hand[seat]
    hand.append(t)
    hand.sort()
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
        s.supply[t] += 1


def mummify(s: HorusState, seat: int, m: int, facing: int) -> None:
    """The adventurer rises as a mummy where it stands, walking the section of the mummy
    ``m`` that touched it, facing the other way from that mummy's ``facing`` as it
    touched (a mummy that walked on since is elsewhere, perhaps turned at a wall)."""
    s.status[seat] = MUMMIFIED
    if s.sink is not None:
        s.sink.append(ev.BecameMummy(seat))
    section = s.mummy_section[m]
    s.mummy_section = (*s.mummy_section, section)
    s.mummy_pos.append(cp.SECTIONS[section].index(s.square[seat]))
    s.mummy_facing.append(-facing)
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
        s.mummy_pos[m], s.mummy_facing[m] = pos, facing
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
            s.supply[cp.MUMMY_WOUND] -= 1
            s.queue.insert(0, (E_GIVE, seat, cp.MUMMY_WOUND))
        return False
    if code == E_JUMP:
        if s.status[seat] != INSIDE or s.square[seat] != arg:
            return False
        nbs = cp.NEIGHBOURS[arg]
        if not any(nb >= 0 and not s.blocked(nb) for nb in nbs):
            s.status[seat] = CRUSHED
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


# --- the round ---------------------------------------------------------------------------


def start_round(s: HorusState) -> None:
    n = s.n
    s.round += 1
    s.phase = P_WLL
    s.order = [(s.dice_keeper + i) % n for i in range(n)]
    if s.sink is not None:
        s.sink.append(ev.RoundBegan(s.round, s.dice_keeper))
    s.turn_i = 0
    s.udjat_round = False
    s.stamina = (False,) * n
    s.actions = [0] * n
    # the level the cards give before this round's discards (shown while adjusting)
    s.wll = tuple(cp.WLL_TABLE[len(h)] for h in s.hand)
    s.dice = [0] * cp.NUM_DICE


def set_wll(s: HorusState, seat: int) -> None:
    level = cp.WLL_TABLE[len(s.hand[seat])]
    s.wll = replaced(s.wll, seat, level - 1 if s.stamina[seat] else level)


def cursed_dice(s: HorusState, seat: int) -> int:
    """Bitmask of the dice this seat ignores: one per idol held (the curse)."""
    mask = 0
    for t in s.hand[seat]:
        if cp.CARD_KIND[t] == cp.IDOL:
            mask |= 1 << cp.IDOL_CURSE_DIE[cp.CARD_GOD[t]]
    return mask


def count_actions(s: HorusState, seat: int) -> int:
    cursed = cursed_dice(s, seat)
    level = s.wll[seat]
    return sum(1 for i, d in enumerate(s.dice) if not cursed >> i & 1 and d >= level)


def wll_decision_needed(s: HorusState, seat: int) -> bool:
    if s.bag[seat] or any(cp.DISCARDABLE[t] for t in s.hand[seat]):
        return True
    if s.secrecy and s.hand[seat]:
        return True  # face-down cards: being passed over would show they are all wounds
    return s.adventurer[seat] == cp.STAMINA and not s.ability_used[seat]


def advance(s: HorusState) -> None:
    """Run automatic steps until a decision or a chance outcome is awaited."""
    queue = s.queue
    while True:
        if queue:
            if handle_event(s, queue.pop(0)):
                return
            continue
        phase = s.phase
        if phase == P_OVER:
            s.node = N_TERMINAL
            _tell_the_end(s)
            return
        if phase != P_SETUP and INSIDE not in s.status:
            s.phase = P_OVER
            s.node = N_TERMINAL
            _tell_the_end(s)
            return
        if phase == P_SETUP:
            if s.turn_i < s.n:
                _wait(s, D_SETUP, s.turn_i, 0)
                return
            start_round(s)
        elif phase == P_WLL:
            while s.turn_i < s.n:
                seat = s.order[s.turn_i]
                if s.status[seat] == INSIDE:
                    if wll_decision_needed(s, seat):
                        _wait(s, D_WLL, seat, 0)
                        return
                    set_wll(s, seat)
                s.turn_i += 1
            s.phase = P_ROLL
            s.turn_i = 0
        elif phase == P_ROLL:
            if s.turn_i < cp.NUM_DICE:
                _wait(s, C_ACTION_DIE, -1, s.turn_i)
                return
            for seat in range(s.n):
                if s.status[seat] == INSIDE:
                    s.actions[seat] = count_actions(s, seat)
            if s.sink is not None:
                _tell_actions(s)
            s.phase = P_ACTIONS
            s.turn_i = 0
        elif phase == P_ACTIONS:
            while s.turn_i < s.n:
                seat = s.order[s.turn_i]
                if s.status[seat] == INSIDE:
                    if s.lock_god >= 0:
                        if s.lock_to_roll:
                            i = (s.lock_to_roll & -s.lock_to_roll).bit_length() - 1
                            _wait(s, C_LOCK_DIE, seat, i)
                            return
                        if actions.lock_options(s, seat):
                            _wait(s, D_LOCK, seat, 0)
                            return
                        if s.sink is not None:
                            s.sink.append(ev.LockHeld(seat, s.lock_god))
                        s.lock_god = -1  # no action left to reroll: the attempt ends
                    if actions.turn_has_options(s, seat):
                        _wait(s, D_TURN, seat, 0)
                        return
                s.lock_god = -1
                s.turn_i += 1
            s.phase = P_MUMMIES
            s.turn_i = 0
            s.mummy_dice = [0] * cp.NUM_DICE
        elif phase == P_MUMMIES:
            if s.turn_i < cp.NUM_DICE:
                _wait(s, C_MUMMY_DIE, -1, s.turn_i)
                return
            move_mummies(s)
            s.phase = P_BLOCK
            s.turn_i = 0
        elif phase == P_BLOCK:
            if s.turn_i == 0:
                s.turn_i = 1
                if s.chosen_block >= 0:  # set aside by an Udjat or Clairvoyance
                    b = s.chosen_block
                    s.chosen_block = -1
                    s.chosen_known = -1
                    fall(s, b)
                elif s.box:
                    _wait(s, C_BLOCK, -1, 0)
                    return
            else:  # pass the Ankh and the dice to the left
                s.dice_keeper = (s.dice_keeper + 1) % s.n
                start_round(s)


def _tell_actions(s: HorusState) -> None:
    """The actions the dice gave each seat inside, in turn order, and the idols' curses."""
    assert s.sink is not None
    for seat in s.order:
        if s.status[seat] != INSIDE:
            continue
        cursed = cursed_dice(s, seat)
        gods = tuple(
            g
            for g in range(len(cp.GODS))
            if cp.IDOL_CARD[g] in s.hand[seat] and cursed >> cp.IDOL_CURSE_DIE[g] & 1
        )
        s.sink.append(ev.ActionsCounted(seat, s.actions[seat], s.wll[seat], gods))


def _tell_the_end(s: HorusState) -> None:
    """Every adventurer's fate and score, and who won."""
    if s.sink is None:
        return
    scores = s.scores()
    returns = s.returns()
    s.sink.append(
        ev.GameOver(
            tuple(s.status),
            tuple(int(x) for x in scores),
            tuple(seat for seat in range(s.n) if returns[seat] > 0),
        )
    )
