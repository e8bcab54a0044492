"""The rules of The Pyramid of Horus: the legal actions, the chance events and what any
action does, with the round that runs on after it.

:func:`apply` carries out a decision (:mod:`.actions`) or a chance outcome, then
:func:`advance` runs the state forward until it needs a decision or a chance outcome:
first the queue of pending effects (:mod:`.effects`: a wound to hand out, a jump away from
a falling block, a check for adventurers sealed in, a card to draw, a chest to roll), then
the phase in hand: setup, adjusting the wound and load level seat by seat from the Dice
Keeper, the five dice for actions, each seat's turn of actions, the five dice that move
the mummies, the falling stone block, and passing the Ankh and the dice.

While they apply an action for someone who asked (``state.sink`` set), the rules append
what happened to the sink as the events of :mod:`.events`: the log, the page's marks and
the end-of-game statistics read those. In a search the sink is None and each ``if sink is
not None`` is all the events cost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from necropolis.engine.frozen import added, replaced
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
    D_LOCK,
    D_SETUP,
    D_TURN,
    D_WLL,
    E_CHECK_DECIDE,
    E_GIVE,
    E_REACT,
    FIRST_CHANCE,
    INSIDE,
    N_TERMINAL,
    P_ACTIONS,
    P_BLOCK,
    P_MUMMIES,
    P_OVER,
    P_ROLL,
    P_SETUP,
    P_WLL,
    PEEK_FLAG,
)
from necropolis.games.horus.effects import (
    _wait,
    fall,
    handle_event,
    lock_missing,
    lock_success,
    move_mummies,
    reaction_possible,
    set_wll,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

_DIE = [(f, 1.0 / 6.0) for f in range(6)]


# --- any action -----------------------------------------------------------------------------


def legal_actions(s: HorusState) -> list[int]:
    """The sorted decisions of the seat the state waits for (see :mod:`.actions`)."""
    return actions.legal_decisions(s)


def apply(s: HorusState, action: int) -> None:
    """Carry out a legal decision or chance outcome, then run on to the next one."""
    if s.node >= FIRST_CHANCE:
        apply_chance(s, action)
    else:
        actions.apply_decision(s, action)
    advance(s)


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
        s.supply = added(s.supply, a, -1)
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
        s.supply = added(s.supply, a, -1)
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


# --- the round ---------------------------------------------------------------------------


def start_round(s: HorusState) -> None:
    n = s.n
    s.round += 1
    s.phase = P_WLL
    s.order = tuple((s.dice_keeper + i) % n for i in range(n))
    if s.sink is not None:
        s.sink.append(ev.RoundBegan(s.round, s.dice_keeper))
    s.turn_i = 0
    s.udjat_round = False
    s.stamina = (False,) * n
    s.actions = [0] * n
    # the level the cards give before this round's discards (shown while adjusting)
    s.wll = tuple(cp.WLL_TABLE[len(h)] for h in s.hand)
    s.dice = [0] * cp.NUM_DICE


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
