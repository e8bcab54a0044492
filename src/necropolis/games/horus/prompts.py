"""The Pyramid of Horus's prompts and action descriptors: what the acting seat is asked
and what each of its legal actions does, from what it may see, in the table language's
kinds and parameters (the English text from :mod:`.narration`'s catalog).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.language import ActionInfo, Prompt
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
    D_CHECK,
    D_JUMP,
    D_LOCK,
    D_REACT,
    D_ROOM,
    D_SETUP,
    D_TURN,
    D_WLL,
    FIRST_CHANCE,
    HEALS,
)
from necropolis.games.horus.narration import (
    AREA_TERMS,
    ENTRANCE_NAMES,
    GOD_TERMS,
    ORIGIN_TERMS,
    card_term,
    mask_dice,
    sarc_god,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState


def prompt(s: HorusState, seat: int | None) -> Prompt | None:
    """What ``seat`` is asked now, and why (None for a seat not acting)."""
    if seat is None or s.node >= FIRST_CHANCE or s.node_seat != seat:
        return None
    node = s.node
    params: dict[str, Any]
    if node == D_SETUP:
        kind, params = "ask_adventurer", {}
    elif node == D_WLL:
        cards = len(s.hand[seat])
        kind, params = "ask_level", {"cards": cards, "level": cp.WLL_TABLE[cards]}
    elif node == D_TURN:
        left = s.actions[seat]
        kind, params = ("ask_action", {"actions": left}) if left else ("ask_free", {})
    elif node == D_LOCK:
        from necropolis.games.horus.effects import lock_missing

        god = GOD_TERMS[s.lock_god]
        if s.actions[seat] > 0:
            kind = "ask_lock"
            params = {"god": god, "missing": lock_missing(s), "actions": s.actions[seat]}
        else:
            kind, params = "ask_lock_tools", {"god": god}
    elif node == D_ROOM:
        if s.node_arg >= 0:
            kind, params = "ask_room", {"card": card_term(s.node_arg)}
        else:
            kind, params = "ask_room_action", {}
    elif node == D_JUMP:
        kind, params = "ask_jump", {"number": cp.SQUARE_NUMBER[s.node_arg]}
    elif node == D_REACT:
        t = s.node_arg
        if t in (cp.SNAKE, cp.SCORPION, cp.CROCODILE):
            ability = cp.ABILITIES[s.adventurer[seat]]
            kind, params = "ask_react", {"card": card_term(t), "ability": ability}
        else:
            kind, params = "ask_react_keep", {"card": card_term(t)}
    elif node == D_CHECK:
        kind, params = "ask_block", {"number": s.check_block + 1}
    else:  # pragma: no cover - every decision node is listed above
        return None
    return {"kind": kind, "params": params, "text": s.game.message(kind, params, seat)}


# --- action descriptors ---------------------------------------------------------------------


def action_info(s: HorusState, act: int) -> ActionInfo:
    """A legal decision's descriptor, for the seat that may take it."""
    seat = s.node_seat
    kind, params, targets = _describe(s, seat, act)
    return {
        "action": act,
        "kind": kind,
        "params": params,
        "targets": targets,
        "text": s.game.message(kind, params, seat),
    }


def _describe(s: HorusState, seat: int, act: int) -> tuple[str, dict[str, Any], list[str]]:
    node = s.node
    if node == D_SETUP:
        adv, e = divmod(act - A_SETUP, 2)
        params = {
            "adventurer": cp.ADVENTURERS[adv],
            "ability": cp.ABILITIES[adv],
            "entrance": ENTRANCE_NAMES[e],
        }
        return "do_choose_adventurer", params, [f"adventurer:{adv}", f"square:{cp.ENTRANCES[e]}"]
    if act in HEALS:
        kit, wound = HEALS[act]
        params = {"kit": card_term(kit), "wound": card_term(wound)}
        return "do_heal", params, [f"card:{kit}", f"card:{wound}"]
    if A_BAG_PUT <= act < A_BAG_PUT + cp.NUM_CARD_TYPES:
        t = act - A_BAG_PUT
        return "do_put_in_bag", {"card": card_term(t)}, [f"card:{t}"]
    if A_DISCARD <= act < A_DISCARD + cp.NUM_CARD_TYPES:
        t = act - A_DISCARD
        if node == D_WLL:
            left = len(s.hand[seat]) - 1
            after: dict[str, Any] = {
                "card": card_term(t),
                "cards": left,
                "level": cp.WLL_TABLE[left],
            }
            return "do_discard_for_level", after, [f"card:{t}"]
        return "do_discard", {"card": card_term(t)}, [f"card:{t}"]
    if A_DISCARD_BAG <= act < A_DISCARD_BAG + cp.NUM_CARD_TYPES:
        t = act - A_DISCARD_BAG
        return "do_discard_from_bag", {"card": card_term(t)}, [f"bag:{t}"]
    if node == D_WLL:
        level = cp.WLL_TABLE[len(s.hand[seat])]
        if act == A_DONE_STAMINA:
            return "do_keep_rest_stamina", {"level": level - 1}, []
        return "do_keep_rest", {"level": level}, []
    if node == D_JUMP:
        d = (act - A_JUMP) % 4
        dest = cp.NEIGHBOURS[s.node_arg][d]
        direction = cp.DIRECTION_NAMES[d]
        if act >= A_JUMP_DODGE:
            return "do_jump_dodge", {"direction": direction}, [f"square:{dest}"]
        mummies = len(s.mummies_at(dest))
        if mummies:
            jump: dict[str, Any] = {"direction": direction, "mummies": mummies}
            return "do_jump_to_mummy", jump, [f"square:{dest}"]
        kind = "do_jump_hurt" if s.supply[cp.BLOCK_WOUND] > 0 else "do_jump"
        return kind, {"direction": direction}, [f"square:{dest}"]
    if node == D_REACT:
        t = s.node_arg
        if act == A_USE_REACTION:
            ability = cp.ABILITIES[s.adventurer[seat]]
            return "do_use_reaction", {"ability": ability, "card": card_term(t)}, []
        return "do_keep_card", {"card": card_term(t)}, []
    if node == D_CHECK:
        if act == A_KEEP_BLOCK:
            number = s.check_block + 1
            return "do_keep_block", {"number": number}, [f"square:{cp.BLOCK_SQUARE[number - 1]}"]
        return "do_return_block", {}, []
    if node == D_LOCK:
        if act == A_DONE:
            return "do_stop_lock", {}, []
        if act == A_CROWBAR:
            return "do_crowbar", {}, [f"card:{cp.CROWBAR}"]
        if act == A_LOCKPICKING:
            return "do_lockpicking", {}, []
        mask = act - A_REROLL + 1
        dice = mask_dice(mask)
        targets = [f"die:{i}" for i in range(cp.NUM_DICE) if mask >> i & 1]
        return "do_reroll", {"count": len(dice), "dice": dice}, targets
    # D_TURN
    if act == A_DONE:
        left = s.actions[seat]
        return ("do_end_turn_early", {"actions": left}, []) if left else ("do_end_turn", {}, [])
    if A_MOVE <= act < A_MOVE + 4:
        d = act - A_MOVE
        dest = cp.NEIGHBOURS[s.square[seat]][d]
        params = {"direction": cp.DIRECTION_NAMES[d], "area": AREA_TERMS[cp.AREA[dest]]}
        mummies = len(s.mummies_at(dest))
        if mummies:
            return "do_move_to_mummy", {**params, "mummies": mummies}, [f"square:{dest}"]
        return "do_move", params, [f"square:{dest}"]
    if act == A_SEARCH:
        area = cp.AREA[s.square[seat]]
        deck = ORIGIN_TERMS[cp.DECK_OF_AREA[area]]
        kind = "do_search_make_room" if len(s.hand[seat]) >= cp.CARD_LIMIT else "do_search"
        return kind, {"area": AREA_TERMS[area], "deck": deck}, []
    if act == A_LEAVE:
        return "do_leave", {"cards": len(s.hand[seat]) + len(s.bag[seat])}, []
    if A_OPEN <= act < A_TAKE:
        k = act - A_OPEN
        if s.sarc_card[k] >= 0 and s.peeked_by[k] == seat:
            params = {"god": sarc_god(k), "card": card_term(s.sarc_card[k])}
            return "do_open_read", params, [f"sarcophagus:{k}"]
        return "do_open", {"god": sarc_god(k)}, [f"sarcophagus:{k}"]
    if A_TAKE <= act < A_PEEK:
        k = act - A_TAKE
        params = {"god": sarc_god(k), "card": card_term(s.sarc_card[k])}
        kind = "do_take_make_room" if len(s.hand[seat]) >= cp.CARD_LIMIT else "do_take"
        return kind, params, [f"sarcophagus:{k}"]
    if A_PEEK <= act < A_PICK:
        k = act - A_PEEK
        return "do_read", {"god": sarc_god(k)}, [f"sarcophagus:{k}"]
    if A_PICK <= act < A_REROLL:
        g = act - A_PICK
        faces = [str(f) for f in cp.IDOL_LOCK[g]]
        colour = cp.DIE_COLOURS[cp.IDOL_CURSE_DIE[g]]
        pick: dict[str, Any] = {"god": GOD_TERMS[g], "faces": faces, "colour": colour}
        return "do_pick", pick, [f"alcove:{cp.GODS[g]}"]
    if A_SHOOT <= act < A_UDJAT:
        m = act - A_SHOOT
        if s.mummy_seat[m] >= 0:
            return "do_shoot_seat_mummy", {"mummy_seat": s.mummy_seat[m]}, [f"mummy:{m}"]
        return "do_shoot", {"mummy": cp.MUMMY_NAMES[m]}, [f"mummy:{m}"]
    if act == A_UDJAT:
        return "do_udjat", {}, [f"card:{cp.UDJAT}"]
    if act == A_CLAIRVOYANCE:
        return "do_clairvoyance", {}, []
    raise ValueError(f"action {act} is not a decision of this position")


# --- the score ---------------------------------------------------------------------------------
