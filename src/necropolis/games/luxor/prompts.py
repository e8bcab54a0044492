"""Luxor's prompts and action descriptors: what a seat is asked and what each of its
legal actions does, in the table language's kinds and parameters (the English text from
:mod:`.narration`'s catalog). A card's descriptor carries the moves it allows (``then``),
worked out on a copy of the state, so that the page can pick card and move together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.errors import IllegalActionError
from necropolis.engine.language import ActionInfo, Prompt
from necropolis.games.luxor import rules
from necropolis.games.luxor.components import (
    CARD_MODE,
    CARD_REACH,
    MODE_ALL,
    MODE_DIE,
    MODE_DIE_RANGE,
    MODE_FIXED,
    MODE_LAST,
    MODE_RANGE,
    NUM_FIELDS,
    ONE_FEWER_KINDS,
    OSIRIS_BASE,
    TREASURE_BASE,
    TREASURE_NEED,
    TREASURE_POINTS,
)
from necropolis.games.luxor.events import BACK as EVENT_BACK
from necropolis.games.luxor.events import Moved
from necropolis.games.luxor.movement import backward_dest, forward_dest, osiris_push
from necropolis.games.luxor.narration import CHAMBER, card_id, tile_id, treasure_id

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState

NF = NUM_FIELDS
BACK = -1  # a "+/-1" card's step back, among the moves below


def probe(b: LuxorState, kind: int, roll: int) -> LuxorState:
    """A copy of ``b`` with card ``kind`` in play and die ``roll``: what the movement
    lookups read when a step is asked about before it is decided."""
    copy = b.clone()
    copy.card = kind
    copy.roll = roll
    return copy


def _prompt(st: LuxorState, kind: str, seat: int, **params: Any) -> Prompt:
    return {"kind": kind, "params": params, "text": st.game.message(kind, params, seat)}


def prompt(st: LuxorState, seat: int | None) -> Prompt | None:
    """What ``seat`` is asked now and why; None when it is not the one to act."""
    if seat is None or seat not in st.acting_seats():
        return None
    phase = st.phase
    if phase == rules.P_PLAY:
        left, right = rules.playable_ends(st)
        if left and right:
            return _prompt(st, "prompt_play", seat)
        if left or right:
            return _prompt(st, "prompt_play_end", seat, end="left" if left else "right")
        return _prompt(st, "prompt_play_idle", seat)
    if phase == rules.P_FIELD:
        mode = CARD_MODE[st.card]
        if mode == MODE_FIXED:
            return _prompt(st, "prompt_adventurer_steps", seat, steps=CARD_REACH[st.card])
        if mode == MODE_DIE:
            return _prompt(st, "prompt_adventurer_steps", seat, steps=st.roll)
        if mode == MODE_DIE_RANGE and st.roll > 1:
            return _prompt(st, "prompt_adventurer_upto", seat, most=st.roll)
        if mode == MODE_RANGE:
            return _prompt(st, "prompt_adventurer_upto", seat, most=CARD_REACH[st.card])
        return _prompt(st, "prompt_adventurer", seat, card=card_id(st.card))
    if phase == rules.P_DIST:
        return _prompt(st, "prompt_distance", seat, origin=st.from_field, card=card_id(st.card))
    if phase == rules.P_ACT_FIELD:
        return _prompt(st, "prompt_tile_action", seat)
    if phase == rules.P_HORUS_TILE:
        return _prompt(st, "prompt_horus_tile", seat, level=st.options[0])
    if phase == rules.P_HORUS_LEVEL:
        low, high = st.options[0], st.options[-1]
        return _prompt(st, "prompt_horus_deck", seat, low=low, high=high)
    if phase == rules.P_SCARAB_OR_WILD:
        return _prompt(st, "prompt_scarab_or_wild", seat)
    return None


# --- action descriptors -------------------------------------------------------------------


def _info(
    st: LuxorState, action: int, kind: str, params: dict[str, Any], targets: list[str]
) -> ActionInfo:
    text = st.game.message(kind, params, st.seat)
    return {"action": action, "kind": kind, "params": params, "targets": targets, "text": text}


def destination(st: LuxorState, seat: int, src: int, option: int) -> tuple[str, dict[str, Any]]:
    """The descriptor kind and parameters of moving the adventurer on ``src`` by ``option``
    tiles (or BACK): where the steps land, where Osiris tiles carry it, and what lies there."""
    tiles = st.tiles
    landing = backward_dest(tiles, src) if option == BACK else forward_dest(tiles, src, option)
    final = landing
    while (pushed_to := osiris_push(tiles, final)) >= 0:
        final = pushed_to
    pushed = final != landing
    base = "move_back" if option == BACK else "move"
    params: dict[str, Any] = {"origin": src, "landing": landing, "field": final}
    if option != BACK:
        params["steps"] = option
    code = tiles[final] if final != CHAMBER else 0
    if final != CHAMBER and TREASURE_BASE <= code < OSIRIS_BASE:
        kind = code - TREASURE_BASE
        params["treasure"] = treasure_id(kind)
        params["points"] = TREASURE_POINTS[kind]
        params["need"] = TREASURE_NEED[kind] - (1 if st.card in ONE_FEWER_KINDS else 0)
        params["have"] = st.adventurers[seat * NF + final] + 1
        return base + ("_osiris" if pushed else "") + "_treasure", params
    params["tile"] = tile_id(code, final)
    return base + ("_osiris" if pushed else ""), params


def _forced_move(st: LuxorState, action: int, kind: int) -> tuple[int, int] | None:
    """The one move (field, tiles or BACK) the card ``kind`` played by ``action`` makes by
    itself, if it leaves no choice (one adventurer able to move it, one distance): the
    first the rules made when they played it on a copy (its events say)."""
    if CARD_MODE[kind] in (MODE_DIE, MODE_DIE_RANGE, MODE_ALL, MODE_LAST):
        return None
    for event in st.clone().apply_events(action):
        if isinstance(event, Moved):
            return event.origin, BACK if event.steps == EVENT_BACK else event.steps
    return None


def _follow(last: ActionInfo, actions: list[int]) -> dict[str, Any]:
    """One way on after a card: the move's targets and words, and the decisions to send."""
    return {
        "targets": last["targets"],
        "actions": actions,
        "kind": last["kind"],
        "params": last["params"],
        "text": last["text"],
    }


def _moves_after(st: LuxorState, action: int) -> list[dict[str, Any]]:
    """Every move the card played by ``action`` leaves to choose, when playing it reveals
    nothing: which adventurer (``field:origin``), then where it lands (``field:landing``),
    with the decisions that make it, as the states after the card will offer them. A client
    lets its person choose the card and the move together and sends them in turn (the
    descriptor's ``then``, docs/table-language.md); a die card, whose roll comes first, and
    the cards that move by themselves have none."""
    seat = st.seat
    after = st.clone()
    after.apply_action(action)
    if after.current_player() != seat or st.reveals(action, after):
        return []
    out: list[dict[str, Any]] = []
    if after.phase == rules.P_FIELD:
        for choose in rules.legal_actions(after):
            which = action_info(after, choose)
            if len(which["targets"]) == 2:  # one distance: choosing the adventurer moves it
                out.append(_follow(which, [choose]))
                continue
            far = after.clone()
            far.apply_action(choose)
            if after.reveals(choose, far):
                continue
            for go in rules.legal_actions(far):
                move = action_info(far, go)
                out.append(
                    _follow({**move, "targets": which["targets"] + move["targets"]}, [choose, go])
                )
    elif after.phase == rules.P_DIST:
        # One adventurer can move: the engine asks only how far; a person points at it first.
        for go in rules.legal_actions(after):
            move = action_info(after, go)
            targets = [f"field:{after.from_field}", *move["targets"]]
            out.append(_follow({**move, "targets": targets}, [go]))
    return out


def action_info(st: LuxorState, action: int) -> ActionInfo:
    """The descriptor of a legal decision of the seat to move, with its board targets."""
    if st.current_player() < 0 or not st.is_legal(action):
        raise IllegalActionError(action, f"luxor: action {action} is not a decision legal now")
    seat = st.seat
    phase = st.phase
    if phase == rules.P_PLAY:
        hand = st.hands[seat]
        left = action == rules.PLAY_LEFT
        index = 0 if left else len(hand) - 1
        params: dict[str, Any] = {
            "card": card_id(hand[index]),
            "end": "left" if left else "right",
        }
        if not any(rules.playable_ends(st)):
            return _info(st, action, "play_card_idle", params, [f"hand:{index}"])
        forced = _forced_move(st, action, hand[index])
        if forced is None:
            info = _info(st, action, "play_card", params, [f"hand:{index}"])
            then = _moves_after(st, action)
            if then:
                info["then"] = then
            return info
        src, option = forced
        _, where = destination(st, seat, src, option)
        code = st.tiles[where["field"]] if where["field"] != CHAMBER else 0
        params.update(
            origin=src,
            steps=where.get("steps", 1),
            landing=where["landing"],
            field=where["field"],
            tile=tile_id(code, where["field"]),
        )
        # The card alone makes the move; the board may preview the landing from the params,
        # and a client may let its person point at the adventurer that goes before playing.
        info = _info(st, action, "play_card_move", params, [f"hand:{index}"])
        # (its words as the card in play will have them: "one fewer" changes what a tile needs)
        move_kind, moved = destination(probe(st, hand[index], 0), seat, src, option)
        move = _info(st, action, move_kind, moved, [f"field:{src}", f"field:{moved['landing']}"])
        info["then"] = [_follow(move, [])]
        return info
    if phase == rules.P_FIELD:
        src = action - rules.MOVE_FROM
        options = rules.distance_options(st, seat, src)
        if len(options) == 1:
            option = BACK if options[0] == rules.BACKWARD else options[0] - rules.FORWARD + 1
            kind, params = destination(st, seat, src, option)
            return _info(st, action, kind, params, [f"field:{src}", f"field:{params['landing']}"])
        return _info(st, action, "move_from", {"origin": src}, [f"field:{src}"])
    if phase == rules.P_DIST:
        option = BACK if action == rules.BACKWARD else action - rules.FORWARD + 1
        kind, params = destination(st, seat, st.from_field, option)
        return _info(st, action, kind, params, [f"field:{params['landing']}"])
    if phase == rules.P_ACT_FIELD:
        field = action - rules.ACT_AT
        code = st.tiles[field]
        if TREASURE_BASE <= code < OSIRIS_BASE:
            kind_t = code - TREASURE_BASE
            params = {
                "field": field,
                "treasure": treasure_id(kind_t),
                "points": TREASURE_POINTS[kind_t],
                "need": TREASURE_NEED[kind_t],
                "have": st.adventurers[seat * NF + field],
            }
            return _info(st, action, "use_tile_treasure", params, [f"field:{field}"])
        params = {"field": field, "tile": tile_id(code, field)}
        return _info(st, action, "use_tile", params, [f"field:{field}"])
    if action == rules.TAKE_KEY:
        return _info(st, action, "take_key", {}, [])
    if rules.HORUS_LEVEL <= action < rules.TAKE_SCARAB:
        level = action - rules.HORUS_LEVEL + 1
        return _info(st, action, "take_horus_card", {"level": level}, [f"horus_deck:{level}"])
    if action == rules.TAKE_SCARAB:
        return _info(st, action, "take_scarab", {}, [])
    return _info(st, action, "take_wild", {}, [])


# --- score breakdown ----------------------------------------------------------------------
