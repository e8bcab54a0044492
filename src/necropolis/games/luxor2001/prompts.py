"""The prompts and action descriptors of Luxor (Baars, 2001): what the acting seat is
asked and what each of its legal actions does, from what it may see, in the table
language's kinds and parameters (the English text from :mod:`.narration`'s catalog).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.events import Event
from necropolis.engine.language import ActionInfo, Prompt
from necropolis.engine.protocol import CHANCE
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CARD_BOTTOM_CODE,
    CARD_TOP_CODE,
    CLAIM_BASE,
    CURSE_ANIMALS,
    DONE,
    GIVE_BASE,
    INSERT_BASE,
    MAX_SCARABS_AT_PILLAR,
    MOVE_BASE,
    NUM_ANIMALS,
    ORDER_BASE,
    PASS_BASE,
    RELOCATE_BASE,
    SAME,
    SHAFTS,
    STACK_HEIGHT,
    STAY,
    VALUE_EYES,
    VALUE_POINTS,
)
from necropolis.games.luxor2001.events import PairScored, SarcophagusUnsealed
from necropolis.games.luxor2001.narration import FACING, card_params

if TYPE_CHECKING:
    from necropolis.games.luxor2001.state import LuxorState


def prompt(st: LuxorState, seat: int | None) -> Prompt | None:
    """What ``seat`` is asked now, and why; None when it is not asked anything."""
    if seat is None or seat not in st.acting_seats():
        return None
    phase = st.phase
    params: dict[str, Any] = {}
    if phase == rules.INSERT:
        kind = "prompt_insert"
    elif phase == rules.ORDER:
        kind = "prompt_order"
        params = {"pairs": len(st.tokens)}
    elif phase == rules.RELOCATE:
        kind = "prompt_relocate"
        params = {"animal": ANIMALS[st.pending >> 1]}
    elif phase == rules.WINDOW:
        kind = "prompt_claim"
        a1, a2, a3 = (ANIMALS[a] for a in CURSE_ANIMALS[st.curse_card])
        params = {"animal_1": a1, "animal_2": a2, "animal_3": a3}
    elif phase == rules.GIVE:
        kind = "prompt_give"
        params = {"drawer_seat": st.player}
    elif phase == rules.FINAL:
        kind = "prompt_final"
    else:  # pragma: no cover - every decision phase is listed above
        return None
    return {"kind": kind, "params": params, "text": st.game.message(kind, params, seat)}


# --- action descriptors ---------------------------------------------------------------------------


def _pillar(st: LuxorState, animal: int) -> str:
    return f"pillar:{st.pillar_order.index(animal)}"


def _opening(happened: list[Event]) -> SarcophagusUnsealed | None:
    """The sarcophagus the first pair scored in ``happened`` unseals, if it does (later
    pairs, scored on their own once the order no longer matters, are not its doing)."""
    scored = 0
    for event in happened:
        if isinstance(event, PairScored):
            scored += 1
            if scored > 1:
                break
        elif isinstance(event, SarcophagusUnsealed):
            return event
    return None


def action_info(st: LuxorState, action: int) -> ActionInfo:
    """The descriptor of ``action``, legal now, for the seat that may take it."""
    if st.current_player() == CHANCE or not st.is_legal(action):
        raise ValueError(f"luxor2001: action {action} is not a decision legal now")
    phase = st.phase
    targets: list[str] = []
    params: dict[str, Any]
    seat = st.current_player()
    if phase == rules.INSERT:
        card, shaft = divmod(action - INSERT_BASE, SHAFTS)
        level = st.heights[shaft]
        bottom = 2 * level * SHAFTS + shaft
        wall = st.wall[:]
        wall[bottom] = CARD_BOTTOM_CODE[card]
        wall[bottom + SHAFTS] = CARD_TOP_CODE[card]
        kind = "insert"
        params = {
            **card_params(card),
            "shaft": shaft + 1,
            "row": 2 * level + 1,
            "row_top": 2 * level + 2,
            "pairs": len(rules.pairs(wall, bottom, st.sphinx)),
        }
        targets = [f"hand:{sorted(st.hands[seat]).index(card)}", f"shaft:{shaft}"]
    elif phase == rules.ORDER:
        token = action - ORDER_BASE
        animal = token >> 1
        params = {"animal": ANIMALS[animal], "facing": FACING[token & 1]}
        kind = "score_same" if token & 1 == SAME else "score_different"
        opening = _opening(st.clone().apply_events(action))
        if opening is not None:  # the scarab it places is the pillar's third
            kind += "_opens"
            params["owner_seat"] = opening.seat
        targets = [_pillar(st, animal)]
    elif phase == rules.RELOCATE:
        animal = st.pending >> 1
        if action == STAY:
            kind = "keep_researchers"
            params = {"animal": ANIMALS[animal]}
        else:
            source = action - RELOCATE_BASE
            kind = "move_researcher"
            params = {"from_animal": ANIMALS[source], "animal": ANIMALS[animal]}
            targets = [_pillar(st, source), _pillar(st, animal)]
    elif phase == rules.WINDOW:
        if action >= PASS_BASE:
            kind = "pass_curse"
            params = {}
            seat = action - PASS_BASE
        else:
            seat, victim = divmod(action - CLAIM_BASE, 4)
            kind = "claim_curse"
            params = {"victim_seat": victim, "drawer_seat": st.player}
    elif phase == rules.GIVE:
        value = action - GIVE_BASE
        eyes, points = VALUE_EYES[value], VALUE_POINTS[value]
        kind = "give_sarcophagus"
        params = {"drawer_seat": st.player, "eyes": eyes, "points": points}
        # The index in view["sarcophagi"][seat], which lists them by (eyes, points).
        own = sorted((VALUE_EYES[c & 7], VALUE_POINTS[c & 7]) for c in st.held[seat])
        targets = [f"sarcophagus:{own.index((eyes, points))}"]
    elif phase == rules.FINAL:
        if action == DONE:
            kind = "stop_moving"
            params = {}
        else:
            x, y = divmod(action - MOVE_BASE, NUM_ANIMALS)
            params = {"from_animal": ANIMALS[x], "animal": ANIMALS[y]}
            kind = "move_scarab"
            if st.scarabs[y] + 1 == MAX_SCARABS_AT_PILLAR and st.stack[y] > 0:
                kind = "move_scarab_opens"
                params["eyes"] = STACK_HEIGHT + 1 - st.stack[y]
            targets = [_pillar(st, x), _pillar(st, y)]
    else:  # pragma: no cover - every decision phase is listed above
        raise ValueError(f"luxor2001: no decision is taken now (action {action})")
    text = st.game.message(kind, params, seat)
    return {"action": action, "kind": kind, "params": params, "targets": targets, "text": text}


# --- the score breakdown -----------------------------------------------------------------
