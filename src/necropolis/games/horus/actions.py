"""The adventurers' decisions: what each may do at each node, and what it does.

Setup (an adventurer and an entrance space), the free discards of phase 1 (and Stamina
after them), the turn's actions (move, search, leave, open a sarcophagus, take its
treasure, pick a lock) with the free uses of equipment and abilities, the lock attempt's
rerolls (a bitmask of dice), Crowbar and Lockpicking, the discard that makes room for a
thirteenth card, the jump away from a falling block (with Dodge), Reflexes and Swimming
against a drawn wound, and keeping or returning a block checked by Udjat or Clairvoyance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from necropolis.engine.frozen import added, removed, replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus import effects
from necropolis.games.horus import events as ev
from necropolis.games.horus.codes import (
    A_BAG_PUT,
    A_CLAIRVOYANCE,
    A_CROWBAR,
    A_DISCARD,
    A_DISCARD_BAG,
    A_DONE,
    A_DONE_STAMINA,
    A_JUMP,
    A_JUMP_DODGE,
    A_KEEP_BLOCK,
    A_LEAVE,
    A_LOCKPICKING,
    A_MOVE,
    A_OPEN,
    A_PEEK,
    A_PICK,
    A_REROLL,
    A_RETURN_BLOCK,
    A_SEARCH,
    A_SETUP,
    A_SHOOT,
    A_TAKE,
    A_TAKE_WOUND,
    A_UDJAT,
    A_USE_REACTION,
    D_CHECK,
    D_JUMP,
    D_LOCK,
    D_REACT,
    D_ROOM,
    D_SETUP,
    D_TURN,
    D_WLL,
    E_CHECK,
    E_CHEST,
    E_DRAW,
    E_GIVE,
    E_ROOM,
    E_SARC,
    E_TAKE,
    ESCAPED,
    HEALS,
    INSIDE,
    PEEK_FLAG,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

_REROLLS = list(range(A_REROLL, A_REROLL + 31))
_LAST_EQUIPMENT = max(t for t in range(cp.NUM_CARD_TYPES) if cp.CARD_KIND[t] == cp.EQUIPMENT)
assert all(cp.CARD_KIND[t] == cp.EQUIPMENT for t in range(_LAST_EQUIPMENT + 1))


def _discard_to_pile(s: HorusState, seat: int, t: int) -> None:
    """Remove ``t`` from the seat's cards into the discard pile (a Bag takes its load)."""
    s.hand[seat] = removed(s.hand[seat], t)
    pile = s.discard
    pile.append(t)
    if t == cp.BAG:
        # the last cards in the Bags, those the Bags left can no longer hold, go with it
        bag = s.bag[seat]
        room = 2 * s.hand[seat].count(cp.BAG)
        if len(bag) > room:
            pile += bag[room:]
            s.bag = replaced(s.bag, seat, bag[:room])
    pile.sort()


def heals(s: HorusState, seat: int) -> list[int]:
    hand = s.hand[seat]
    return [a for a, (kit, wound) in HEALS.items() if kit in hand and wound in hand]


def bag_puts(s: HorusState, seat: int) -> list[int]:
    if s.bag_room(seat) <= 0:
        return []
    return [A_BAG_PUT + t for t in sorted(set(s.hand[seat])) if cp.BAGGABLE[t]]


def free_actions(s: HorusState, seat: int) -> list[int]:
    """What costs no action in a seat's turn: equipment, the bag, abilities."""
    hand = s.hand[seat]
    box_open = bool(s.box) and not s.udjat_round
    # hands are kept sorted and equipment has the lowest type ids: most hands hold none,
    # and then only an ability can be free (this runs at every decision of a rollout)
    if hand and hand[0] <= _LAST_EQUIPMENT:
        out = heals(s, seat) + bag_puts(s, seat)
        if box_open and cp.UDJAT in hand:
            out.append(A_UDJAT)
    else:
        out = []
    if not s.ability_used[seat]:
        ability = s.adventurer[seat]
        sq = s.square[seat]
        if ability == cp.SHOOT:
            near = set(cp.NEIGHBOURS[sq])
            for m in range(len(s.mummy_pos)):
                if not s.mummy_down[m] and s.mummy_square(m) in near:
                    out.append(A_SHOOT + m)
        elif ability == cp.LINGUISTICS:
            for k in cp.SARCOPHAGI_AT[sq]:
                if s.sarc_state[k] == 0 and s.sarc_card[k] < 0:
                    out.append(A_PEEK + k)
        elif ability == cp.CLAIRVOYANCE and box_open:
            out.append(A_CLAIRVOYANCE)
    return out


def turn_actions(s: HorusState, seat: int) -> list[int]:
    """Actions that cost one of the seat's actions this round."""
    if s.actions[seat] <= 0:
        return []
    sq = s.square[seat]
    fallen = s.fallen
    number = cp.SQUARE_NUMBER
    out = [
        A_MOVE + d
        for d, nb in enumerate(cp.NEIGHBOURS[sq])
        if nb >= 0 and not (number[nb] and fallen[number[nb] - 1])  # not under a block
    ]
    area = cp.AREA[sq]
    roomy = len(s.hand[seat]) < cp.CARD_LIMIT or s.can_make_room(seat)
    deck = cp.DECK_OF_AREA[area]
    if deck >= 0 and roomy and any(s.supply[t] for t in cp.TYPES_OF_ORIGIN[deck]):
        out.append(A_SEARCH)
    if area == cp.ENTRANCE:
        out.append(A_LEAVE)
    for k in cp.SARCOPHAGI_AT[sq]:
        if s.sarc_state[k] == 0:
            out.append(A_OPEN + k)
        elif s.sarc_state[k] == 1 and roomy:
            out.append(A_TAKE + k)
    if roomy:
        for g in cp.ALCOVES_AT[sq]:
            if s.alcove_idol[g]:
                out.append(A_PICK + g)
    return out


def turn_has_options(s: HorusState, seat: int) -> bool:
    if s.actions[seat] > 0 or (s.secrecy and s.hand[seat]):
        # under total secrecy a seat with cards is always asked, so that being asked
        # does not tell the table it holds usable equipment
        return True
    return bool(free_actions(s, seat))


def lock_options(s: HorusState, seat: int) -> list[int]:
    out: list[int] = []
    if s.actions[seat] > 0:
        out += _REROLLS
    if effects.lock_missing(s) == 1:
        if cp.CROWBAR in s.hand[seat]:
            out.append(A_CROWBAR)
        if s.adventurer[seat] == cp.LOCKPICKING and not s.ability_used[seat]:
            out.append(A_LOCKPICKING)
    if out:
        out.append(A_DONE)
    return out


def legal_decisions(s: HorusState) -> list[int]:
    node = s.node
    seat = s.node_seat
    if node == D_TURN:
        out = turn_actions(s, seat) + free_actions(s, seat)
        out.append(A_DONE)
        return sorted(out)
    if node == D_LOCK:
        return sorted(lock_options(s, seat))
    if node == D_ROOM:
        return sorted(
            [A_DISCARD + t for t in set(s.hand[seat]) if cp.DISCARDABLE[t]] + bag_puts(s, seat)
        )
    if node == D_JUMP:
        sq = s.node_arg
        dirs = [d for d, nb in enumerate(cp.NEIGHBOURS[sq]) if nb >= 0 and not s.blocked(nb)]
        out = [A_JUMP + d for d in dirs]
        if s.adventurer[seat] == cp.DODGE and not s.ability_used[seat]:
            out += [A_JUMP_DODGE + d for d in dirs]
        return out
    if node == D_WLL:
        hand = s.hand[seat]
        out = [A_DISCARD + t for t in set(hand) if cp.DISCARDABLE[t]]
        out += [A_DISCARD_BAG + t for t in set(s.bag[seat])]
        out += bag_puts(s, seat) + heals(s, seat)
        out.append(A_DONE)
        if s.adventurer[seat] == cp.STAMINA and not s.ability_used[seat]:
            out.append(A_DONE_STAMINA)
        return sorted(out)
    if node == D_SETUP:
        taken = set(s.adventurer)
        return [
            A_SETUP + a * 2 + e
            for a in range(cp.NUM_ADVENTURERS)
            if a not in taken
            for e in range(len(cp.ENTRANCES))
        ]
    if node == D_REACT:
        t = s.node_arg
        usable = t in (cp.SNAKE, cp.SCORPION, cp.CROCODILE)
        return [A_USE_REACTION, A_TAKE_WOUND] if usable else [A_TAKE_WOUND]
    if node == D_CHECK:
        return [A_KEEP_BLOCK, A_RETURN_BLOCK]
    return []


def apply_decision(s: HorusState, a: int) -> None:
    node = s.node
    seat = s.node_seat
    sink = s.sink
    if sink is not None:
        sink.append(ev.Decided(seat))
        _tell_decision(s, seat, a)
    if node == D_SETUP:
        s.adventurer = replaced(s.adventurer, seat, (a - A_SETUP) // 2)
        s.square[seat] = cp.ENTRANCES[(a - A_SETUP) % 2]
        s.status = replaced(s.status, seat, INSIDE)
        s.turn_i += 1
        return
    if a in HEALS:
        kit, wound = HEALS[a]
        _discard_to_pile(s, seat, kit)
        _discard_to_pile(s, seat, wound)
        return
    if A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES:
        t = a - A_BAG_PUT
        s.hand[seat] = removed(s.hand[seat], t)
        s.bag = replaced(s.bag, seat, tuple(sorted((*s.bag[seat], t))))
        if node == D_ROOM:
            _room_made(s)
        return
    if A_DISCARD <= a < A_DISCARD + cp.NUM_CARD_TYPES:
        _discard_to_pile(s, seat, a - A_DISCARD)
        if node == D_ROOM:
            _room_made(s)
        return
    if A_DISCARD_BAG <= a < A_DISCARD_BAG + cp.NUM_CARD_TYPES:
        s.bag = replaced(s.bag, seat, removed(s.bag[seat], a - A_DISCARD_BAG))
        s.discard.append(a - A_DISCARD_BAG)
        s.discard.sort()
        return
    if node == D_WLL:
        if a == A_DONE_STAMINA:
            s.ability_used = replaced(s.ability_used, seat, True)
            s.stamina = replaced(s.stamina, seat, True)
        effects.set_wll(s, seat)
        if sink is not None:
            sink.append(ev.LevelSet(seat, s.wll[seat], a == A_DONE_STAMINA))
        s.turn_i += 1
        return
    if node == D_JUMP:
        d = (a - A_JUMP) % 4
        nb = cp.NEIGHBOURS[s.node_arg][d]
        s.square[seat] = nb
        events: list[tuple[int, int, int]] = []
        if a >= A_JUMP_DODGE:
            s.ability_used = replaced(s.ability_used, seat, True)
        elif s.supply[cp.BLOCK_WOUND] > 0:
            s.supply = added(s.supply, cp.BLOCK_WOUND, -1)
            events.append((E_GIVE, seat, cp.BLOCK_WOUND))
        events += [effects.touch(seat, m, s.mummy_facing[m]) for m in s.mummies_at(nb)]
        s.queue[0:0] = events
        if sink is not None:
            _tell_touches(s, seat, nb)
        return
    if node == D_REACT:
        if a == A_USE_REACTION:
            s.ability_used = replaced(s.ability_used, seat, True)
            s.discard.append(s.node_arg)
            s.discard.sort()
        else:
            s.queue.insert(0, (E_GIVE, seat, s.node_arg))
        return
    if node == D_CHECK:
        b = s.check_block
        s.check_block = -1
        if a == A_KEEP_BLOCK:
            s.chosen_block = b
            s.chosen_known = seat
            s.box = removed(s.box, b)
        # put back: another block is set aside unseen, which is the same as drawing it
        # from the box in phase 5 (so the draw is deferred to then)
        return
    if node == D_LOCK:
        if a == A_DONE:
            s.lock_god = -1
        elif a == A_CROWBAR:
            _discard_to_pile(s, seat, cp.CROWBAR)
            effects.lock_success(s)
        elif a == A_LOCKPICKING:
            s.ability_used = replaced(s.ability_used, seat, True)
            effects.lock_success(s)
        else:
            mask = a - A_REROLL + 1
            s.actions[seat] -= 1
            s.lock_to_roll = mask
            s.lock_dice = tuple(0 if mask >> i & 1 else d for i, d in enumerate(s.lock_dice))
        return
    # --- D_TURN ------------------------------------------------------------------------
    if a == A_DONE:
        s.actions[seat] = 0
        s.turn_i += 1
        return
    if A_MOVE <= a < A_MOVE + 4:
        s.actions[seat] -= 1
        nb = cp.NEIGHBOURS[s.square[seat]][a - A_MOVE]
        s.square[seat] = nb
        s.queue += [effects.touch(seat, m, s.mummy_facing[m]) for m in s.mummies_at(nb)]
        if sink is not None:
            _tell_touches(s, seat, nb)
        return
    if a == A_SEARCH:
        s.actions[seat] -= 1
        draw = (E_DRAW, seat, cp.DECK_OF_AREA[cp.AREA[s.square[seat]]])
        _then_with_room(s, seat, draw)
        return
    if a == A_LEAVE:
        s.actions[seat] -= 1
        s.status = replaced(s.status, seat, ESCAPED)
        chests = sum(1 for t in (*s.hand[seat], *s.bag[seat]) if cp.CARD_KIND[t] == cp.CHEST)
        s.queue += [(E_CHEST, seat, 0)] * chests
        return
    if A_OPEN <= a < A_TAKE:
        k = a - A_OPEN
        s.actions[seat] -= 1
        if s.sarc_card[k] >= 0:  # already drawn for a Linguistics peek
            s.sarc_state = replaced(s.sarc_state, k, 1)
            if sink is not None:
                sink.append(ev.SarcophagusRevealed(k, s.sarc_card[k]))
        else:
            s.queue.append((E_SARC, seat, k))
        return
    if A_TAKE <= a < A_PEEK:
        s.actions[seat] -= 1
        _then_with_room(s, seat, (E_TAKE, seat, a - A_TAKE))
        return
    if A_PEEK <= a < A_PICK:
        s.ability_used = replaced(s.ability_used, seat, True)
        s.queue.append((E_SARC, seat, a - A_PEEK + PEEK_FLAG))
        return
    if A_PICK <= a < A_REROLL:
        s.actions[seat] -= 1
        s.lock_god = a - A_PICK
        s.lock_dice = (0,) * cp.NUM_DICE
        s.lock_to_roll = (1 << cp.NUM_DICE) - 1
        return
    if A_SHOOT <= a < A_UDJAT:
        s.ability_used = replaced(s.ability_used, seat, True)
        s.mummy_down = replaced(s.mummy_down, a - A_SHOOT, True)
        return
    if a in (A_UDJAT, A_CLAIRVOYANCE):
        if a == A_UDJAT:
            _discard_to_pile(s, seat, cp.UDJAT)
        else:
            s.ability_used = replaced(s.ability_used, seat, True)
        s.udjat_round = True
        s.queue.append((E_CHECK, seat, 0))
        return
    raise AssertionError(f"unhandled action {a}")


def _tell_decision(s: HorusState, seat: int, a: int) -> None:
    """The event of the decision ``a`` of ``seat``, told before it is carried out (what
    it sets off follows as the rules carry it out)."""
    assert s.sink is not None
    tell = s.sink.append
    node = s.node
    if node == D_SETUP:
        adventurer, entrance = divmod(a - A_SETUP, 2)
        tell(ev.AdventurerChosen(seat, adventurer, entrance))
    elif a in HEALS:
        kit, wound = HEALS[a]
        tell(ev.Healed(seat, kit, wound))
    elif A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES:
        t = a - A_BAG_PUT
        tell(ev.PutInBag(seat, t, cp.CARD_ORIGIN[t]))
    elif A_DISCARD <= a < A_DISCARD + cp.NUM_CARD_TYPES:
        t = a - A_DISCARD
        tell(ev.Discarded(seat, t, cp.CARD_ORIGIN[t], False, cp.FACE_DOWN[t]))
    elif A_DISCARD_BAG <= a < A_DISCARD_BAG + cp.NUM_CARD_TYPES:
        t = a - A_DISCARD_BAG
        tell(ev.Discarded(seat, t, cp.CARD_ORIGIN[t], True, cp.FACE_DOWN[t]))
    elif node == D_WLL:
        pass  # the level is told once it is set
    elif node == D_JUMP:
        d = (a - A_JUMP) % 4
        square = s.node_arg
        tell(ev.Jumped(seat, square, d, cp.NEIGHBOURS[square][d], a >= A_JUMP_DODGE))
    elif node == D_REACT:
        tell(ev.Reacted(seat, s.adventurer[seat], s.node_arg, a == A_USE_REACTION))
    elif node == D_CHECK:
        tell(ev.BlockDecided(seat, a == A_KEEP_BLOCK))
    elif node == D_LOCK:
        if a == A_DONE:
            tell(ev.LockTool(seat, ev.LOCK_STOPPED))
        elif a == A_CROWBAR:
            tell(ev.LockTool(seat, ev.LOCK_CROWBAR))
        elif a == A_LOCKPICKING:
            tell(ev.LockTool(seat, ev.LOCK_LOCKPICKING))
        else:
            tell(ev.Rerolled(seat, a - A_REROLL + 1))
    elif a == A_DONE:
        tell(ev.TurnEnded(seat, s.actions[seat]))
    elif A_MOVE <= a < A_MOVE + 4:
        square = s.square[seat]
        tell(ev.Moved(seat, square, a - A_MOVE, cp.NEIGHBOURS[square][a - A_MOVE]))
    elif a == A_SEARCH:
        tell(ev.Searched(seat, s.square[seat]))
    elif a == A_LEAVE:
        tell(ev.Left(seat, len(s.hand[seat]) + len(s.bag[seat])))
    elif A_OPEN <= a < A_TAKE:
        tell(ev.Opened(seat, a - A_OPEN))
    elif A_TAKE <= a < A_PEEK:
        tell(ev.TakeChosen(seat, a - A_TAKE))
    elif A_PEEK <= a < A_PICK:
        tell(ev.LinguisticsUsed(seat, a - A_PEEK))
    elif A_PICK <= a < A_REROLL:
        tell(ev.LockBegun(seat, a - A_PICK))
    elif A_SHOOT <= a < A_UDJAT:
        tell(ev.Shot(seat, a - A_SHOOT, s.mummy_seat[a - A_SHOOT]))
    elif a in (A_UDJAT, A_CLAIRVOYANCE):
        tell(ev.BlockLookedAt(seat, a == A_UDJAT))


def _tell_touches(s: HorusState, seat: int, square: int) -> None:
    """The mummies standing on ``square``, which ``seat`` just reached: each touches it."""
    assert s.sink is not None
    for m in s.mummies_at(square):
        s.sink.append(ev.MummyTouch(seat, m, s.mummy_seat[m]))


def _then_with_room(s: HorusState, seat: int, event: tuple[int, int, int]) -> None:
    """A voluntary action that brings a card: at twelve cards, discard one first."""
    if len(s.hand[seat]) >= cp.CARD_LIMIT:
        s.room_then = event
        s.queue.append((E_ROOM, seat, 0))
    else:
        s.queue.append(event)


def _room_made(s: HorusState) -> None:
    then = s.room_then
    s.room_then = None
    if then is not None:
        s.queue.insert(0, then)
