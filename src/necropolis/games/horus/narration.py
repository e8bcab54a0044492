"""The table language of The Pyramid of Horus, its log: the English catalog of every kind
and the entries each action makes. (Prompts and action descriptors are in
:mod:`.prompts`, the score breakdown in :mod:`.breakdown`, the board's geometry in
:mod:`.layout`.)

Everything here is computed on demand from states, never inside the rules' hot path:
``narrate`` compares the state before an action with the state after it (and the action)
and tells each event the action set off (dice, moves, cards found, sarcophagi, locks,
idols and their curses, wounds and their causes, the mummies' walks, falling blocks,
jumps, crushing, sealing, escapes and chests, the end), each only as far as the viewer may
know it: a card found is named to everyone under the normal rules (the finder shows it
briefly) but only to its finder under total secrecy; a face-down card put away or
discarded stays a back; a sarcophagus read with Linguistics and a block checked with
Udjat or Clairvoyance are named to their player alone.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from necropolis.engine.language import LogEntry
from necropolis.games.horus import components as cp
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
    A_SEARCH,
    A_SETUP,
    A_SHOOT,
    A_TAKE,
    A_UDJAT,
    A_USE_REACTION,
    C_ACTION_DIE,
    C_BLOCK,
    C_CHECK,
    C_CHEST,
    C_DRAW,
    C_LOCK_DIE,
    C_MUMMY_DIE,
    CRUSHED,
    D_CHECK,
    D_JUMP,
    D_LOCK,
    D_REACT,
    D_SETUP,
    D_WLL,
    ESCAPED,
    FIRST_CHANCE,
    HEALS,
    INSIDE,
    MUMMIFIED,
    N_TERMINAL,
    P_ACTIONS,
    SEALED,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

#: The English template of every message kind horus uses (docs/table-language.md, horus).
MESSAGES: dict[str, str] = {
    # --- log: setup, rounds, dice ---------------------------------------------------------
    "chose_adventurer": "{seat} chose {adventurer} ({ability}) and entered at the {entrance}"
    " entrance",
    "round_began": "Round {round} began with {keeper_seat} as the Dice Keeper",
    "level_set": "{seat} settled on wound and load level {level}",
    "stamina_used": "{seat} used Stamina: wound and load level {level}",
    "action_die": "The {colour} action die showed {value}",
    "die_cursed": "{seat} ignored the {colour} die (curse of the {god} Idol)",
    "actions_counted": "{seat} got {actions|# action|# actions} (wound and load level {level})",
    # --- log: the turn ---------------------------------------------------------------------
    "moved": "{seat} moved {direction} in the {area}",
    "moved_into": "{seat} moved {direction} into the {area}",
    "searched": "{seat} searched the {area}",
    "found": "{finder_seat} drew {card} from the {deck} deck",
    "found_hidden": "{finder_seat} drew a card from the {deck} deck and laid it face down",
    "opened": "{seat} opened one of the {god} sarcophagi",
    "sarcophagus_revealed": "The {god} sarcophagus held {card}",
    "took_treasure": "{seat} took {card} from the {god} sarcophagus",
    "linguistics": "{seat} used Linguistics to read one of the {god} sarcophagi in secret",
    "read": "{seat} read that the {god} sarcophagus holds {card}",
    "began_lock": "{seat} began to pick the lock of the {god} alcove",
    "lock_die": "The {colour} lock die showed {value}",
    "rerolled": "{seat} rerolled {count|# lock die|# lock dice}: {dice}",
    "stopped_lock": "{seat} stopped picking the lock",
    "crowbar": "{seat} forced the lock with a Crowbar",
    "lockpicking": "{seat} used Lockpicking on the lock",
    "lock_opened": "{seat} opened the lock of the {god} alcove",
    "lock_held": "The lock of the {god} alcove held: no action left for {seat} to roll again",
    "took_idol": "{seat} took the {god} Idol",
    "cursed": "From now on the {colour} die gives {seat} no action (curse of the {god} Idol)",
    "shot": "{seat} shot {mummy}, who lies on the floor until the mummies next move",
    "shot_seat_mummy": "{seat} shot the mummy of {mummy_seat}, who lies on the floor until"
    " the mummies next move",
    "udjat": "{seat} used an Udjat to look at a stone block",
    "clairvoyance": "{seat} used Clairvoyance to look at a stone block",
    "checked_block": "{checker_seat} looked at stone block {number}",
    "checked_block_hidden": "{checker_seat} looked at a stone block in secret",
    "kept_block": "{seat} set the stone block aside: it falls at the end of this round",
    "returned_block": "{seat} put the stone block back; another was set aside unseen",
    "healed": "{seat} used the {kit} and discarded the {wound}",
    "bagged": "{seat} put {card} in a Bag",
    "bagged_hidden": "{seat} put a face-down {deck} card in a Bag",
    "discarded": "{seat} discarded {card}",
    "discarded_hidden": "{seat} discarded a face-down {deck} card",
    "discarded_from_bag": "{seat} discarded {card} from a Bag",
    "discarded_from_bag_hidden": "{seat} discarded a face-down {deck} card from a Bag",
    "threw_off": "{seat} used {ability} and threw away the {card}",
    "kept_card": "{seat} kept the card drawn",
    "left": "{seat} left the pyramid with {cards|# card|# cards}",
    "chest_roll": "{owner_seat} rolled {value} for a chest",
    "ended_turn": "{seat} ended the turn",
    "ended_turn_early": "{seat} ended the turn with {actions|# action|# actions} unused",
    # --- log: wounds ----------------------------------------------------------------------
    "bitten_by_snake": "A snake bit {seat}: a wound",
    "stung_by_scorpion": "A scorpion stung {seat}: a wound",
    "bitten_by_crocodile": "A crocodile bit {seat}: a wound",
    "touched_by_mummy": "{mummy} touched {seat}: a wound",
    "touched_by_seat_mummy": "The mummy of {mummy_seat} touched {seat}: a wound",
    "hit_by_block": "The falling stone block hit {seat}: a wound",
    "became_mummy": "{seat} had twelve wounds and rose as a mummy",
    # --- log: the mummies and the blocks ---------------------------------------------------
    "mummy_die": "The {colour} mummy die showed {value}",
    "mummies_walk": "The mummy dice gave each mummy {steps|# step|# steps}",
    "mummy_walked": "{mummy} walked {steps|# square|# squares} along the {section} section",
    "seat_mummy_walked": "The mummy of {mummy_seat} walked {steps|# square|# squares} along"
    " the {section} section",
    "mummy_rose": "{mummy} got up again",
    "seat_mummy_rose": "The mummy of {mummy_seat} got up again",
    "block_fell": "Stone block {number} fell",
    "horus_trap": "Taking the Horus Idol set off a trap in the ceiling",
    "jumped": "{seat} jumped {direction}, away from the falling block",
    "dodged": "{seat} used Dodge and jumped {direction}, unhurt",
    "crushed": "The stone block crushed {seat}: there was nowhere to jump",
    "sealed": "The fallen blocks sealed {seat} in the pyramid",
    # --- log: the end ----------------------------------------------------------------------
    "game_over": "The game is over",
    "final_score": "{seat} got out with {points|# point|# points}",
    "final_fate": "{seat} scored nothing: {status}",
    "won": "{seat} won",
    "shared_win": "{seat} shared the victory",
    "no_winner": "Nobody got out alive: the pyramid won",
    # --- prompts ---------------------------------------------------------------------------
    "ask_adventurer": "Choose your adventurer and the entrance where you start",
    "ask_level": "Discard what you no longer want, then keep the rest:"
    " {cards|# card gives|# cards give} wound and load level {level}",
    "ask_action": "Choose your next action: {actions|# action|# actions} left",
    "ask_free": "No actions left: use equipment or an ability, or end your turn",
    "ask_lock": "Roll the lock dice again or stop: the {god} lock still needs"
    " {missing|# face|# faces}, {actions|# action|# actions} left",
    "ask_lock_tools": "The {god} lock still needs one face: use your tool or stop",
    "ask_room": "You hold twelve cards: discard one or put one in a Bag to make room for {card}",
    "ask_room_action": "You hold twelve cards: discard one or put one in a Bag to make room"
    " for the card your action brings",
    "ask_jump": "Stone block {number} is falling on your square: jump to a free square",
    "ask_react": "You drew {card}: throw it away with {ability}, or keep it",
    "ask_react_keep": "You drew {card}: keep it",
    "ask_block": "You looked at stone block {number}: set it aside to fall this round, or"
    " put it back and set another aside unseen",
    # --- action descriptors ------------------------------------------------------------------
    "do_choose_adventurer": "Play {adventurer} ({ability}) from the {entrance} entrance",
    "do_move": "Move {direction} into the {area}",
    "do_move_to_mummy": "Move {direction} into the {area}, onto {mummies|a mummy|# mummies}"
    " (a wound each)",
    "do_search": "Search the {area}: draw from the {deck} deck",
    "do_search_make_room": "Search the {area}: you hold twelve cards, so first discard one,"
    " then draw from the {deck} deck",
    "do_leave": "Leave the pyramid with your {cards|# card|# cards}: you play no more",
    "do_end_turn": "End your turn",
    "do_end_turn_early": "End your turn, giving up {actions|# action|# actions}",
    "do_keep_rest": "Keep the rest: wound and load level {level}",
    "do_keep_rest_stamina": "Keep the rest and use Stamina: wound and load level {level}",
    "do_stop_lock": "Stop picking the lock",
    "do_open": "Open the {god} sarcophagus",
    "do_open_read": "Open the {god} sarcophagus (you read {card} inside)",
    "do_take": "Take {card} from the {god} sarcophagus",
    "do_take_make_room": "Take {card} from the {god} sarcophagus: you hold twelve cards, so"
    " first discard one",
    "do_read": "Use Linguistics to read the {god} sarcophagus in secret",
    "do_pick": "Pick the lock of the {god} alcove: roll the five dice, it needs {faces}; the"
    " idol's curse takes the {colour} die",
    "do_reroll": "Reroll {count|# die|# dice}: {dice}",
    "do_crowbar": "Use a Crowbar: the lock opens",
    "do_lockpicking": "Use Lockpicking: the lock opens",
    "do_shoot": "Shoot {mummy}: it lies down until the mummies next move",
    "do_shoot_seat_mummy": "Shoot the mummy of {mummy_seat}: it lies down until the mummies"
    " next move",
    "do_udjat": "Use an Udjat: look at the next stone block",
    "do_clairvoyance": "Use Clairvoyance: look at the next stone block",
    "do_keep_block": "Set stone block {number} aside: it falls this round",
    "do_return_block": "Put the block back: another is set aside unseen",
    "do_heal": "Use the {kit} to discard the {wound}",
    "do_use_reaction": "Use {ability}: throw away the {card}",
    "do_keep_card": "Keep the {card}",
    "do_jump": "Jump {direction}",
    "do_jump_hurt": "Jump {direction}: the block hits you, a wound",
    "do_jump_to_mummy": "Jump {direction}, onto {mummies|a mummy|# mummies}: wounds",
    "do_jump_dodge": "Jump {direction} with Dodge, unhurt",
    "do_discard": "Discard {card}",
    "do_discard_for_level": "Discard {card}: {cards|# card|# cards} left, wound and load"
    " level {level}",
    "do_discard_from_bag": "Discard {card} from a Bag",
    "do_put_in_bag": "Put {card} in a Bag",
    # --- score parts and tie-breaks -----------------------------------------------------------
    "score_treasures": "Treasures: {points|# point|# points}",
    "score_idols": "Idols: {points|# point|# points}",
    "score_necklaces": "Necklaces: {points|# point|# points}",
    "score_chests": "Chests ({rolls}): {points|# point|# points}",
    "score_cards_hidden": "{cards|# card|# cards} out of sight, counted at the end",
    "score_variety": "Variety bonus for {gods|# god|# gods}: {points|# point|# points}",
    "score_not_out": "Did not get out ({status}): no points",
    "tiebreak_horus_idol": "Holds the Horus Idol: {value|yes|no}",
    "score_nothing": "Got out with nothing of value",
    "tiebreak_idol_value": "Value of idols held: {value}",
}

ENTRANCE_NAMES = ("west", "east")
STATUS_TERMS = (
    "not placed",
    "in the pyramid",
    "escaped",
    "crushed",
    "sealed in",
    "turned into a mummy",
)
AREA_TERMS = cp.AREA_NAMES
ORIGIN_TERMS = cp.ORIGIN_WORDS
GOD_TERMS = tuple(g.capitalize() for g in cp.GODS)
_SECTION_TERMS = tuple(s.capitalize() for s in cp.SECTION_NAMES)
_WOUND_KIND = {
    cp.SNAKE: "bitten_by_snake",
    cp.SCORPION: "stung_by_scorpion",
    cp.CROCODILE: "bitten_by_crocodile",
}


def card_term(t: int) -> str:
    return cp.CARD_NAME[t]


def _face_down_to(s: HorusState, t: int, viewer: int | None, owner: int) -> bool:
    """Whether ``viewer`` sees only the back of ``t`` as it leaves ``owner``'s cards face
    down (into a Bag, onto the discard pile): treasures, chests and necklaces."""
    return viewer != owner and bool(cp.FACE_DOWN[t]) and s.node != N_TERMINAL


# --- narration ------------------------------------------------------------------------------


class _Log:
    """Collects one action's entries for one viewer."""

    def __init__(self, after: HorusState, index: int, actor: int | None, viewer: int | None):
        self.after = after
        self.index = index
        self.actor = actor
        self.viewer = viewer
        self.entries: list[LogEntry] = []

    def add(self, kind: str, **params: Any) -> None:
        """An entry of the acting seat (``seat`` in params names another subject)."""
        self.entries.append(self.after.entry(self.index, kind, self.actor, params, self.viewer))

    def about(self, seat: int | None, kind: str, **params: Any) -> None:
        """An entry that belongs to ``seat`` (None: to nobody), whoever acted: the page
        shows it in that seat's colour."""
        if seat is not None:
            params["seat"] = seat
        self.entries.append(self.after.entry(self.index, kind, seat, params, self.viewer))


def narrate(
    after: HorusState, before: HorusState, action: int, viewer: int | None
) -> list[LogEntry]:
    """The entries ``action`` (applied to ``before``, giving ``after``) makes for ``viewer``."""
    actor = before.node_seat if before.node < FIRST_CHANCE else None
    log = _Log(after, before.move_number(), actor, viewer)
    if before.node >= FIRST_CHANCE:
        _chance(log, before, after, action)
    else:
        _decision(log, before, after, action)
    touches = _mummy_phase(log, before, after)
    _consequences(log, before, after, action, touches)
    return log.entries


def _chance(log: _Log, b: HorusState, a: HorusState, action: int) -> None:
    node = b.node
    viewer = log.viewer
    if node == C_ACTION_DIE:
        log.add("action_die", colour=cp.DIE_COLOURS[b.node_arg], value=action + 1)
    elif node == C_MUMMY_DIE:
        log.add("mummy_die", colour=cp.DIE_COLOURS[b.node_arg], value=action + 1)
    elif node == C_LOCK_DIE:
        log.add("lock_die", colour=cp.DIE_COLOURS[b.node_arg], value=action + 1)
    elif node == C_DRAW:
        finder = b.node_seat
        deck = ORIGIN_TERMS[b.node_arg]
        if not b.secrecy or viewer == finder:
            log.add("found", finder_seat=finder, card=card_term(action), deck=deck)
        else:
            log.add("found_hidden", finder_seat=finder, deck=deck)
    elif node == C_CHECK:
        checker = b.node_seat
        if viewer == checker:
            log.add("checked_block", checker_seat=checker, number=action + 1)
        else:
            log.add("checked_block_hidden", checker_seat=checker)
    elif node == C_CHEST:
        log.add("chest_roll", owner_seat=b.node_seat, value=action + 1)
    # C_SARC and C_BLOCK: told from what changed (a sarcophagus, a fallen block)


def _decision(log: _Log, b: HorusState, a: HorusState, act: int) -> None:
    node = b.node
    seat = b.node_seat
    viewer = log.viewer
    if node == D_SETUP:
        adv, e = divmod(act - A_SETUP, 2)
        log.add(
            "chose_adventurer",
            adventurer=cp.ADVENTURERS[adv],
            ability=cp.ABILITIES[adv],
            entrance=ENTRANCE_NAMES[e],
        )
        return
    if act in HEALS:
        kit, wound = HEALS[act]
        log.add("healed", kit=card_term(kit), wound=card_term(wound))
        return
    if A_BAG_PUT <= act < A_BAG_PUT + cp.NUM_CARD_TYPES:
        t = act - A_BAG_PUT
        if viewer == seat:
            log.add("bagged", card=card_term(t))
        else:
            log.add("bagged_hidden", deck=ORIGIN_TERMS[cp.CARD_ORIGIN[t]])
        return
    if A_DISCARD <= act < A_DISCARD + cp.NUM_CARD_TYPES:
        t = act - A_DISCARD
        if _face_down_to(a, t, viewer, seat):
            log.add("discarded_hidden", deck=ORIGIN_TERMS[cp.CARD_ORIGIN[t]])
        else:
            log.add("discarded", card=card_term(t))
        return
    if A_DISCARD_BAG <= act < A_DISCARD_BAG + cp.NUM_CARD_TYPES:
        t = act - A_DISCARD_BAG
        if _face_down_to(a, t, viewer, seat):
            log.add("discarded_from_bag_hidden", deck=ORIGIN_TERMS[cp.CARD_ORIGIN[t]])
        else:
            log.add("discarded_from_bag", card=card_term(t))
        return
    if node == D_WLL:
        kind = "stamina_used" if act == A_DONE_STAMINA else "level_set"
        log.add(kind, level=a.wll[seat])
        return
    if node == D_JUMP:
        d = (act - A_JUMP) % 4
        kind = "dodged" if act >= A_JUMP_DODGE else "jumped"
        log.add(kind, direction=cp.DIRECTION_NAMES[d], square=cp.NEIGHBOURS[b.node_arg][d])
        return
    if node == D_REACT:
        if act == A_USE_REACTION:
            log.add(
                "threw_off",
                ability=cp.ABILITIES[b.adventurer[seat]],
                card=card_term(b.node_arg),
            )
        else:
            log.add("kept_card")
        return
    if node == D_CHECK:
        log.add("kept_block" if act == A_KEEP_BLOCK else "returned_block")
        return
    if node == D_LOCK:
        if act == A_DONE:
            log.add("stopped_lock")
        elif act == A_CROWBAR:
            log.add("crowbar")
        elif act == A_LOCKPICKING:
            log.add("lockpicking")
        else:
            dice = mask_dice(act - A_REROLL + 1)
            log.add("rerolled", count=len(dice), dice=dice)
        return
    # D_TURN
    if act == A_DONE:
        left = b.actions[seat]
        if left:
            log.add("ended_turn_early", actions=left)
        else:
            log.add("ended_turn")
    elif A_MOVE <= act < A_MOVE + 4:
        d = act - A_MOVE
        dest = cp.NEIGHBOURS[b.square[seat]][d]
        into = cp.AREA[dest] != cp.AREA[b.square[seat]]
        log.add(
            "moved_into" if into else "moved",
            direction=cp.DIRECTION_NAMES[d],
            area=AREA_TERMS[cp.AREA[dest]],
            square=dest,
        )
    elif act == A_SEARCH:
        log.add("searched", area=AREA_TERMS[cp.AREA[b.square[seat]]])
    elif act == A_LEAVE:
        log.add("left", cards=len(b.hand[seat]) + len(b.bag[seat]))
    elif A_OPEN <= act < A_TAKE:
        log.add("opened", god=sarc_god(act - A_OPEN), sarcophagus=act - A_OPEN)
    elif A_TAKE <= act < A_PEEK:
        pass  # told when the treasure reaches the hand (perhaps after making room)
    elif A_PEEK <= act < A_PICK:
        log.add("linguistics", god=sarc_god(act - A_PEEK), sarcophagus=act - A_PEEK)
    elif A_PICK <= act < A_REROLL:
        log.add("began_lock", god=GOD_TERMS[act - A_PICK])
    elif A_SHOOT <= act < A_UDJAT:
        m = act - A_SHOOT
        if b.mummy_seat[m] >= 0:
            log.add("shot_seat_mummy", mummy_seat=b.mummy_seat[m])
        else:
            log.add("shot", mummy=cp.MUMMY_NAMES[m])
    elif act == A_UDJAT:
        log.add("udjat")
    elif act == A_CLAIRVOYANCE:
        log.add("clairvoyance")


def mask_dice(mask: int) -> list[str]:
    return [cp.DIE_COLOURS[i] for i in range(cp.NUM_DICE) if mask >> i & 1]


def sarc_god(k: int) -> str:
    return GOD_TERMS[cp.SARCOPHAGI[k][0]]


def mummy_walks(s: HorusState) -> list[tuple[int, list[int], bool]]:
    """Per mummy of ``s`` (whose five mummy dice are rolled): the squares it walks through
    this phase and whether it was lying down (it gets up instead of walking)."""
    steps = sum(1 for d in s.mummy_dice if d >= cp.MUMMY_STEP_MINIMUM)
    out: list[tuple[int, list[int], bool]] = []
    for m in range(len(s.mummy_pos)):
        path = cp.SECTIONS[s.mummy_section[m]]
        if s.mummy_down[m]:
            out.append((m, [], True))
            continue
        pos, facing = s.mummy_pos[m], s.mummy_facing[m]
        walked: list[int] = []
        for _ in range(steps):
            nxt = pos + facing
            if nxt < 0 or nxt >= len(path):
                facing = -facing
                nxt = pos + facing
            pos = nxt
            walked.append(path[pos])
        out.append((m, walked, False))
    return out


def _mummy_phase(log: _Log, b: HorusState, a: HorusState) -> dict[int, list[int]] | None:
    """The mummies' walk when this action rolled the last mummy die; which mummies touched
    which seat, in order (None when the mummies did not move)."""
    if b.node != C_MUMMY_DIE or b.node_arg != cp.NUM_DICE - 1:
        return None
    rolled = b.clone()
    rolled.mummy_dice = list(a.mummy_dice)  # the last die as it fell
    steps = sum(1 for d in rolled.mummy_dice if d >= cp.MUMMY_STEP_MINIMUM)
    log.add("mummies_walk", steps=steps)
    touches: dict[int, list[int]] = {}
    for m, walked, down in mummy_walks(rolled):
        section = _SECTION_TERMS[b.mummy_section[m]]
        owner = b.mummy_seat[m]
        if down:
            if owner >= 0:
                log.add("seat_mummy_rose", mummy_seat=owner)
            else:
                log.add("mummy_rose", mummy=cp.MUMMY_NAMES[m])
        elif walked:
            if owner >= 0:
                log.add(
                    "seat_mummy_walked",
                    mummy_seat=owner,
                    steps=len(walked),
                    section=section,
                    squares=walked,
                )
            else:
                log.add(
                    "mummy_walked",
                    mummy=cp.MUMMY_NAMES[m],
                    steps=len(walked),
                    section=section,
                    squares=walked,
                )
        squares = walked or [b.mummy_square(m)]
        for sq in squares:
            for seat in b.order:
                if b.status[seat] == INSIDE and b.square[seat] == sq:
                    touches.setdefault(seat, []).append(m)
    return touches


def _consequences(
    log: _Log, b: HorusState, a: HorusState, action: int, touches: dict[int, list[int]] | None
) -> None:
    viewer = log.viewer
    # sarcophagi: opened (their card shows), read in secret, emptied
    taken: dict[int, int] = {}
    for k in range(cp.NUM_SARCOPHAGI):
        if b.sarc_state[k] == 0 and a.sarc_state[k] == 1:
            log.add(
                "sarcophagus_revealed",
                god=sarc_god(k),
                sarcophagus=k,
                card=card_term(a.sarc_card[k]),
            )
        if b.peeked_by[k] != a.peeked_by[k] and a.peeked_by[k] == viewer:
            log.add(
                "read", seat=viewer, god=sarc_god(k), sarcophagus=k, card=card_term(a.sarc_card[k])
            )
        if b.sarc_state[k] == 1 and a.sarc_state[k] == 2:
            t = b.sarc_card[k]
            taker = b.node_seat
            taken[taker] = t
            log.add("took_treasure", seat=taker, god=sarc_god(k), sarcophagus=k, card=card_term(t))
    # a lock opened (the idol may wait for room to be made), or held for want of actions
    if b.lock_god >= 0 and b.alcove_idol[b.lock_god] and not a.alcove_idol[b.lock_god]:
        log.add("lock_opened", seat=b.order[b.turn_i], god=GOD_TERMS[b.lock_god])
    elif b.lock_god >= 0 and a.lock_god < 0 and b.node == C_LOCK_DIE:
        log.add("lock_held", seat=b.order[b.turn_i], god=GOD_TERMS[b.lock_god])
    # cards reaching each seat: idols and wounds (other cards were told as found or taken)
    for seat in range(b.n):
        if a.hand[seat] == b.hand[seat] and a.bag[seat] == b.bag[seat]:
            continue  # nothing reached it (most actions, most seats): no counting
        gained = Counter(a.hand[seat]) + Counter(a.bag[seat])
        gained.subtract(Counter(b.hand[seat]) + Counter(b.bag[seat]))
        if seat in taken:
            gained[taken[seat]] -= 1
        mummies = touches.get(seat, []) if touches is not None else a.mummies_at(a.square[seat])
        touch_i = 0
        for t in sorted(gained):
            for _ in range(gained[t]):
                kind = cp.CARD_KIND[t]
                if kind == cp.IDOL:
                    god = cp.CARD_GOD[t]
                    log.add("took_idol", seat=seat, god=GOD_TERMS[god])
                    log.add(
                        "cursed",
                        seat=seat,
                        god=GOD_TERMS[god],
                        colour=cp.DIE_COLOURS[cp.IDOL_CURSE_DIE[god]],
                    )
                elif t == cp.MUMMY_WOUND:
                    m = mummies[touch_i % len(mummies)] if mummies else 0
                    touch_i += 1
                    if m < len(a.mummy_seat) and a.mummy_seat[m] >= 0:
                        log.add("touched_by_seat_mummy", seat=seat, mummy_seat=a.mummy_seat[m])
                    else:
                        log.add("touched_by_mummy", seat=seat, mummy=cp.MUMMY_NAMES[m])
                elif t == cp.BLOCK_WOUND:
                    log.add("hit_by_block", seat=seat)
                elif t in _WOUND_KIND and (not a.secrecy or viewer == seat):
                    log.add(_WOUND_KIND[t], seat=seat)
    for seat in range(b.n):
        if b.status[seat] == INSIDE and a.status[seat] == MUMMIFIED:
            log.add("became_mummy", seat=seat)
    # falling blocks, then who was crushed or sealed in
    if b.node == C_BLOCK and b.phase == P_ACTIONS:
        log.add("horus_trap")
    for blk in range(cp.NUM_BLOCKS):
        if a.fallen[blk] and not b.fallen[blk]:
            log.add("block_fell", number=blk + 1, square=cp.BLOCK_SQUARE[blk])
    for seat in range(b.n):
        if b.status[seat] == INSIDE and a.status[seat] == CRUSHED:
            log.add("crushed", seat=seat)
    for seat in range(b.n):
        if b.status[seat] == INSIDE and a.status[seat] == SEALED:
            log.add("sealed", seat=seat)
    # the action dice counted
    if b.node == C_ACTION_DIE and b.node_arg == cp.NUM_DICE - 1:
        from necropolis.games.horus.flow import cursed_dice

        for seat in a.order:
            if a.status[seat] != INSIDE:
                continue
            cursed = cursed_dice(a, seat)
            for g in range(len(cp.GODS)):
                die = cp.IDOL_CURSE_DIE[g]
                if cp.IDOL_CARD[g] in a.hand[seat] and cursed >> die & 1:
                    log.add("die_cursed", seat=seat, colour=cp.DIE_COLOURS[die], god=GOD_TERMS[g])
            log.add("actions_counted", seat=seat, actions=a.actions[seat], level=a.wll[seat])
    if a.round != b.round:
        log.add("round_began", round=a.round, keeper_seat=a.dice_keeper)
    if a.node == N_TERMINAL and b.node != N_TERMINAL:
        _the_end(log, a)


def _the_end(log: _Log, a: HorusState) -> None:
    # Each line is its seat's, not the last actor's; the end itself is nobody's.
    log.about(None, "game_over")
    scores = a.scores()
    for seat in range(a.n):
        if a.status[seat] == ESCAPED:
            log.about(seat, "final_score", points=int(scores[seat]))
        else:
            log.about(seat, "final_fate", status=STATUS_TERMS[a.status[seat]])
    returns = a.returns()
    winners = [s for s in range(a.n) if returns[s] > 0]
    if not winners:
        log.about(None, "no_winner")
    for seat in winners:
        log.about(seat, "won" if len(winners) == 1 else "shared_win")


# --- prompts ----------------------------------------------------------------------------------
