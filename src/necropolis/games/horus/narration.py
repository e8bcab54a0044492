"""The table language of The Pyramid of Horus, its log: the English catalog of every kind
and the entries each action makes. (Prompts and action descriptors are in
:mod:`.prompts`, the score breakdown in :mod:`.breakdown`, the board's geometry in
:mod:`.layout`.)

The rules emit what happened as events (:mod:`.events`: dice, moves, cards found,
sarcophagi, locks, idols and their curses, wounds and who dealt them, the mummies' walks,
falling blocks, jumps, crushing, sealing, escapes and chests, the end); the kernel redacts
each for the viewer (``Event.seen_by``) and :func:`narrate_events` says one action's
events, grouped as the log has always grouped them (what was done, then what followed,
concern by concern), each only as far as the viewer may know it: a card found is named to
everyone under the normal rules (the finder shows it briefly) but only to its finder under
total secrecy; a face-down card put away or discarded stays a back; a sarcophagus read
with Linguistics and a block checked with Udjat or Clairvoyance are named to their player
alone.
"""

from __future__ import annotations

from typing import Any

from necropolis.engine.events import Event
from necropolis.engine.protocol import Told
from necropolis.games.horus import components as cp
from necropolis.games.horus import events as ev
from necropolis.games.horus.codes import ESCAPED

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


# --- narration ------------------------------------------------------------------------------

_DICE_KINDS = ("action_die", "mummy_die", "lock_die")
_LOCK_TOOLS = ("stopped_lock", "crowbar", "lockpicking")

# Where an entry goes among one action's entries (then by the numbers after it, then in
# the order the rules told): what the action itself did, the mummies' walk, the
# sarcophagi, the lock, the cards that reached each seat, who became a mummy, the Horus
# trap, the blocks that fell, who was crushed or sealed in, the actions the dice gave,
# a new round, the end.
(
    _DONE,
    _WALK,
    _SARCOPHAGI,
    _LOCK,
    _CARDS,
    _MUMMIFIED,
    _TRAP,
    _FELL,
    _CRUSHED,
    _SEALED,
    _ACTIONS,
    _ROUND,
    _END,
) = range(13)


def narrate_events(events: list[Event], actor: int | None) -> list[Told]:
    """The log entries of one action's ``events`` (as the viewer may know them), ``actor``
    the seat that decided it (None: chance): each entry's ``seat`` is the actor's, and
    ``params["seat"]`` names the subject where it is another (a wound dealt by a mummy,
    a seat sealed in); the end's entries are each their seat's."""
    told: list[tuple[tuple[int, ...], Told]] = []
    walked = any(isinstance(e, ev.MummiesWalk) for e in events)
    touches: dict[int, list[tuple[int, int]]] = {}
    for e in events:
        if isinstance(e, ev.MummyTouch):
            touches.setdefault(e.seat, []).append((e.mummy, e.owner))
    wounds: dict[int, int] = {}

    def add(key: tuple[int, ...], kind: str, **params: Any) -> None:
        told.append((key, (kind, actor, params)))

    for e in events:
        match e:
            case ev.AdventurerChosen(_, adventurer, entrance):
                add(
                    (_DONE,),
                    "chose_adventurer",
                    adventurer=cp.ADVENTURERS[adventurer],
                    ability=cp.ABILITIES[adventurer],
                    entrance=ENTRANCE_NAMES[entrance],
                )
            case ev.Healed(_, kit, wound):
                add((_DONE,), "healed", kit=card_term(kit), wound=card_term(wound))
            case ev.PutInBag(_, card, origin):
                if card is None:
                    add((_DONE,), "bagged_hidden", deck=ORIGIN_TERMS[origin])
                else:
                    add((_DONE,), "bagged", card=card_term(card))
            case ev.Discarded(_, card, origin, from_bag):
                kind = "discarded_from_bag" if from_bag else "discarded"
                if card is None:
                    add((_DONE,), kind + "_hidden", deck=ORIGIN_TERMS[origin])
                else:
                    add((_DONE,), kind, card=card_term(card))
            case ev.LevelSet(_, level, stamina):
                add((_DONE,), "stamina_used" if stamina else "level_set", level=level)
            case ev.Jumped(_, _, direction, to, dodge):
                kind = "dodged" if dodge else "jumped"
                add((_DONE,), kind, direction=cp.DIRECTION_NAMES[direction], square=to)
            case ev.Reacted(_, adventurer, card, used):
                if used:
                    ability = cp.ABILITIES[adventurer]
                    add((_DONE,), "threw_off", ability=ability, card=card_term(card))
                else:
                    add((_DONE,), "kept_card")
            case ev.BlockDecided(_, kept):
                add((_DONE,), "kept_block" if kept else "returned_block")
            case ev.LockTool(_, how):
                add((_DONE,), _LOCK_TOOLS[how])
            case ev.Rerolled(_, dice):
                colours = mask_dice(dice)
                add((_DONE,), "rerolled", count=len(colours), dice=colours)
            case ev.TurnEnded(_, left):
                if left:
                    add((_DONE,), "ended_turn_early", actions=left)
                else:
                    add((_DONE,), "ended_turn")
            case ev.Moved(_, square, direction, to):
                into = cp.AREA[to] != cp.AREA[square]
                add(
                    (_DONE,),
                    "moved_into" if into else "moved",
                    direction=cp.DIRECTION_NAMES[direction],
                    area=AREA_TERMS[cp.AREA[to]],
                    square=to,
                )
            case ev.Searched(_, square):
                add((_DONE,), "searched", area=AREA_TERMS[cp.AREA[square]])
            case ev.Left(_, cards):
                add((_DONE,), "left", cards=cards)
            case ev.Opened(_, k):
                add((_DONE,), "opened", god=sarc_god(k), sarcophagus=k)
            case ev.LinguisticsUsed(_, k):
                add((_DONE,), "linguistics", god=sarc_god(k), sarcophagus=k)
            case ev.LockBegun(_, god):
                add((_DONE,), "began_lock", god=GOD_TERMS[god])
            case ev.Shot(_, mummy, owner):
                if owner >= 0:
                    add((_DONE,), "shot_seat_mummy", mummy_seat=owner)
                else:
                    add((_DONE,), "shot", mummy=cp.MUMMY_NAMES[mummy])
            case ev.BlockLookedAt(_, udjat):
                add((_DONE,), "udjat" if udjat else "clairvoyance")
            case ev.DieRolled(dice, die, value):
                add((_DONE,), _DICE_KINDS[dice], colour=cp.DIE_COLOURS[die], value=value)
            case ev.CardFound(seat, card, origin):
                if card is None:
                    add((_DONE,), "found_hidden", finder_seat=seat, deck=ORIGIN_TERMS[origin])
                else:
                    card_name, deck = card_term(card), ORIGIN_TERMS[origin]
                    add((_DONE,), "found", finder_seat=seat, card=card_name, deck=deck)
            case ev.BlockChecked(seat, block):
                if block is None:
                    add((_DONE,), "checked_block_hidden", checker_seat=seat)
                else:
                    add((_DONE,), "checked_block", checker_seat=seat, number=block + 1)
            case ev.ChestRolled(seat, value):
                add((_DONE,), "chest_roll", owner_seat=seat, value=value)
            case ev.MummiesWalk(steps):
                add((_WALK,), "mummies_walk", steps=steps)
            case ev.MummyWalked(mummy, owner, section, squares, rose):
                if rose and owner >= 0:
                    add((_WALK,), "seat_mummy_rose", mummy_seat=owner)
                elif rose:
                    add((_WALK,), "mummy_rose", mummy=cp.MUMMY_NAMES[mummy])
                else:
                    where = {
                        "steps": len(squares),
                        "section": _SECTION_TERMS[section],
                        "squares": list(squares),
                    }
                    if owner >= 0:
                        add((_WALK,), "seat_mummy_walked", mummy_seat=owner, **where)
                    else:
                        add((_WALK,), "mummy_walked", mummy=cp.MUMMY_NAMES[mummy], **where)
            case ev.SarcophagusRevealed(k, card):
                params = {"god": sarc_god(k), "sarcophagus": k, "card": card_term(card)}
                add((_SARCOPHAGI, k, 0), "sarcophagus_revealed", **params)
            case ev.SarcophagusRead(seat, k, card):
                params = {"god": sarc_god(k), "sarcophagus": k, "card": card_term(card)}
                add((_SARCOPHAGI, k, 1), "read", seat=seat, **params)
            case ev.TreasureTaken(seat, k, card):
                params = {"god": sarc_god(k), "sarcophagus": k, "card": card_term(card)}
                add((_SARCOPHAGI, k, 2), "took_treasure", seat=seat, **params)
            case ev.LockOpened(seat, god):
                add((_LOCK,), "lock_opened", seat=seat, god=GOD_TERMS[god])
            case ev.LockHeld(seat, god):
                add((_LOCK,), "lock_held", seat=seat, god=GOD_TERMS[god])
            case ev.CardGained(seat, card, _, here):
                key = (_CARDS, seat, card)
                if cp.CARD_KIND[card] == cp.IDOL:
                    god = cp.CARD_GOD[card]
                    add(key, "took_idol", seat=seat, god=GOD_TERMS[god])
                    colour = cp.DIE_COLOURS[cp.IDOL_CURSE_DIE[god]]
                    add(key, "cursed", seat=seat, god=GOD_TERMS[god], colour=colour)
                elif card == cp.MUMMY_WOUND:
                    # which mummy: those that touched the seat in this action in turn (in
                    # the mummies' walk, even none), else those standing where it is
                    mummies = touches.get(seat, []) if walked or seat in touches else list(here)
                    i = wounds.get(seat, 0)
                    wounds[seat] = i + 1
                    m, owner = mummies[i % len(mummies)] if mummies else (0, -1)
                    if owner >= 0:
                        add(key, "touched_by_seat_mummy", seat=seat, mummy_seat=owner)
                    else:
                        add(key, "touched_by_mummy", seat=seat, mummy=cp.MUMMY_NAMES[m])
                elif card == cp.BLOCK_WOUND:
                    add(key, "hit_by_block", seat=seat)
                elif card in _WOUND_KIND:
                    add(key, _WOUND_KIND[card], seat=seat)
            case ev.BecameMummy(seat):
                add((_MUMMIFIED, seat), "became_mummy", seat=seat)
            case ev.HorusTrap():
                add((_TRAP,), "horus_trap")
            case ev.BlockFell(block):
                add((_FELL, block), "block_fell", number=block + 1, square=cp.BLOCK_SQUARE[block])
            case ev.Crushed(seat):
                add((_CRUSHED, seat), "crushed", seat=seat)
            case ev.Sealed(seat):
                add((_SEALED, seat), "sealed", seat=seat)
            case ev.ActionsCounted(seat, actions, level, cursed):
                for god in cursed:
                    colour = cp.DIE_COLOURS[cp.IDOL_CURSE_DIE[god]]
                    add((_ACTIONS,), "die_cursed", seat=seat, colour=colour, god=GOD_TERMS[god])
                add((_ACTIONS,), "actions_counted", seat=seat, actions=actions, level=level)
            case ev.RoundBegan(round, keeper):
                add((_ROUND,), "round_began", round=round, keeper_seat=keeper)
            case ev.GameOver(status, points, winners):
                # each line is its seat's, not the last actor's; the end itself is nobody's
                end: list[Told] = [("game_over", None, {})]
                for seat, fate in enumerate(status):
                    if fate == ESCAPED:
                        end.append(("final_score", seat, {"points": points[seat], "seat": seat}))
                    else:
                        fate_term = STATUS_TERMS[fate]
                        end.append(("final_fate", seat, {"status": fate_term, "seat": seat}))
                if not winners:
                    end.append(("no_winner", None, {}))
                for seat in winners:
                    won = "won" if len(winners) == 1 else "shared_win"
                    end.append((won, seat, {"seat": seat}))
                told.extend(((_END,), entry) for entry in end)
    told.sort(key=lambda item: item[0])  # stable: each group keeps the rules' order
    return [entry for _, entry in told]


def mask_dice(mask: int) -> list[str]:
    return [cp.DIE_COLOURS[i] for i in range(cp.NUM_DICE) if mask >> i & 1]


def sarc_god(k: int) -> str:
    return GOD_TERMS[cp.SARCOPHAGI[k][0]]


# --- prompts ----------------------------------------------------------------------------------
