"""Luxor in words: action names, what each seat learns of an action, the terminal board.

Action names are unique among the legal actions of a moment and read back through the
kernel's ``string_to_action``. Chance outcomes are named in full by ``action_to_string``;
``describe_action`` tells a seat only its own draws (cards, Horus cards, scarabs) and reports
the others' as bare events. The board is drawn from a view, never from a state, as a list of
the 43 fields from the stairs to the burial chamber with the Anubis statues between them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.games.luxor import movement, rules
from necropolis.games.luxor.components import (
    ANUBIS_AFTER,
    BACKS,
    BLANK_FIELDS,
    BURIAL_CHAMBER,
    CARD_LABELS,
    FIELD_POINTS,
    FIELD_SYMBOL,
    HAND_SIZE,
    HORUS_TILE_BASE,
    NUM_VARIANTS,
    OSIRIS_BASE,
    OSIRIS_FIELDS,
    OSIRIS_VALUES,
    SARCOPHAGI,
    SCARAB_VALUES,
    STAIRS,
    TEMPLE_BASE,
    TEMPLE_LABELS,
    TREASURE_BASE,
    TREASURE_FIELDS,
    TREASURE_NEED,
    TREASURE_POINTS,
    TREASURE_TYPES,
)

if TYPE_CHECKING:
    from necropolis.engine.protocol import View
    from necropolis.games.luxor.state import LuxorState


def field_name(field: int) -> str:
    if field == STAIRS:
        return "the stairs"
    if field == BURIAL_CHAMBER:
        return "the burial chamber"
    return f"field {field}"


def treasure_label(kind: int) -> str:
    return (
        f"{TREASURE_TYPES[kind // NUM_VARIANTS]} treasure "
        f"(needs {TREASURE_NEED[kind]}, {TREASURE_POINTS[kind]} pts)"
    )


def tile_label(code: int) -> str:
    """A tile code in words."""
    if code == 0:
        return "empty"
    if code < OSIRIS_BASE:
        return treasure_label(code - TREASURE_BASE)
    if code < HORUS_TILE_BASE:
        return f"Osiris tile +{OSIRIS_VALUES[code - OSIRIS_BASE]}"
    if code < TEMPLE_BASE:
        return f"Horus tile ({_plural(code - HORUS_TILE_BASE + 1, 'eye')})"
    return f"temple tile: {TEMPLE_LABELS[code - TEMPLE_BASE]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def action_to_string(st: LuxorState, action: int) -> str:
    """The full text of ``action`` now; chance outcomes are named in full."""
    phase = st.phase
    seat = st.seat
    if phase == rules.P_DEAL:
        return f"deal a {CARD_LABELS[action]} card to seat {st.deal_index // HAND_SIZE}"
    if phase == rules.P_DRAW:
        return f"seat {seat} draws a {CARD_LABELS[action]} card"
    if phase == rules.P_ROLL:
        return f"the die shows {action + 1}"
    if phase == rules.P_HORUS_DRAW:
        return f"seat {seat} takes the Horus card {CARD_LABELS[action]} (level {st.pending})"
    if phase == rules.P_SCARAB_DRAW:
        return f"seat {seat} takes a scarab worth {SCARAB_VALUES[action]}"
    if phase == rules.P_TEMPLE_REVEAL:
        back = BACKS[FIELD_SYMBOL[st.pending]]
        return f"the {back} temple tile on field {st.pending} is {TEMPLE_LABELS[action]}"
    if phase == rules.P_OSIRIS:
        return f"Osiris tile +{OSIRIS_VALUES[action]} on field {OSIRIS_FIELDS[st.deal_index]}"
    if phase == rules.P_TREASURE:
        return f"{treasure_label(action)} on field {TREASURE_FIELDS[st.deal_index]}"
    return _decision_text(st, action)


def _decision_text(st: LuxorState, action: int) -> str:
    if action in (rules.PLAY_LEFT, rules.PLAY_RIGHT):
        hand = st.hands[st.seat]
        end = "leftmost" if action == rules.PLAY_LEFT else "rightmost"
        kind = hand[0] if action == rules.PLAY_LEFT else hand[-1]
        text = f"play the {end} card ({CARD_LABELS[kind]})"
        if st.phase == rules.P_PLAY and not any(rules.playable_ends(st)):
            text += " without moving"
        return text
    if rules.MOVE_FROM <= action < rules.FORWARD:
        return f"move an adventurer from {field_name(action - rules.MOVE_FROM)}"
    if rules.FORWARD <= action < rules.BACKWARD:
        steps = action - rules.FORWARD + 1
        text = f"go {_plural(steps, 'tile')} forward"
        if st.from_field >= 0:
            dest = movement.forward_dest(st.tiles, st.from_field, steps)
            if dest >= 0:
                text += f" to {field_name(dest)}"
        return text
    if action == rules.BACKWARD:
        text = "go 1 tile back"
        if st.from_field >= 0:
            dest = movement.backward_dest(st.tiles, st.from_field)
            if dest >= 0:
                text += f" to {field_name(dest)}"
        return text
    if action == rules.TAKE_KEY:
        return "take a key"
    if rules.HORUS_LEVEL <= action < rules.TAKE_SCARAB:
        return f"take a Horus card of level {action - rules.HORUS_LEVEL + 1}"
    if action == rules.TAKE_SCARAB:
        return "take a scarab"
    if action == rules.TAKE_WILD:
        return "take a wild treasure tile"
    if rules.ACT_AT <= action < rules.NUM_ACTIONS:
        field = action - rules.ACT_AT
        return f"use the tile on {field_name(field)} ({tile_label(st.tiles[field])})"
    return f"unknown action {action}"


def describe_action(st: LuxorState, action: int, observer: int | None) -> str:
    """What ``observer`` learns of ``action``: others' draws and scarabs stay unnamed."""
    phase = st.phase
    seat = st.seat
    if phase == rules.P_DEAL:
        target = st.deal_index // HAND_SIZE
        if observer == target:
            return f"you are dealt a {CARD_LABELS[action]} card"
        return f"seat {target} is dealt a card"
    if phase == rules.P_DRAW:
        return action_to_string(st, action) if observer == seat else f"seat {seat} draws a card"
    if phase == rules.P_HORUS_DRAW:
        if observer == seat:
            return action_to_string(st, action)
        return f"seat {seat} takes a Horus card of level {st.pending}"
    if phase == rules.P_SCARAB_DRAW:
        return action_to_string(st, action) if observer == seat else f"seat {seat} takes a scarab"
    return action_to_string(st, action)


# --- the board -----------------------------------------------------------------------------

_COLOURS = ("red", "green", "blue", "yellow")


def _seat_tag(seat: int) -> str:
    colour = _COLOURS[seat % len(_COLOURS)]
    return f"[{colour}]P{seat}[/{colour}]"


def render_view(view: View) -> str:
    """A readable terminal board of ``view`` (Rich markup)."""
    n: int = view["players"]
    lines: list[str] = []
    me = view["seat"]
    who = "spectator" if me is None else f"seat {me}"
    lines.append(
        f"[bold]Luxor[/bold] — round {view['round'] + 1}, turn of {_seat_tag(view['turn_seat'])},"
        f" phase {view['phase']} (viewing as {who})"
    )
    if view["card_in_play"] >= 0:
        extra = f", rolled {view['roll']}" if view["roll"] else ""
        lines.append(f"card in play: {CARD_LABELS[view['card_in_play']]}{extra}")
    lines.append("")
    lines.append("[bold]The path[/bold] (field, points on the wall, tile, adventurers)")
    advs: list[list[int]] = view["adventurers"]
    for f, code in enumerate(view["tiles"]):
        here = " ".join(f"{_seat_tag(s)}×{advs[s][f]}" for s in range(n) if advs[s][f])
        symbol = f" ({BACKS[FIELD_SYMBOL[f]]} symbol)" if FIELD_SYMBOL[f] >= 0 and code == 0 else ""
        if f == STAIRS:
            label = "stairs (start)"
        elif f == BURIAL_CHAMBER:
            label = "burial chamber"
        elif f in BLANK_FIELDS:
            label = "landing (never holds a tile)"
        else:
            label = tile_label(code) + symbol
        padded = f"{label:<48}"
        if f == BURIAL_CHAMBER:  # markup after padding, so the columns stay aligned
            padded = padded.replace(label, f"[bold]{label}[/bold]")
        lines.append(f"{f:>3} [{FIELD_POINTS[f]:>2}] {padded} {here}".rstrip())
        for i, after in enumerate(ANUBIS_AFTER):
            if after == f:
                asleep = [s for s in range(n) if view["sleeping"][s][i]]
                names = " ".join(_seat_tag(s) for s in asleep) or "nobody"
                lines.append(f"      ~ Anubis statue {i + 1}: asleep here: {names}")
    lines.append("")
    lines.append("[bold]Hands[/bold] (left to right)")
    for s in range(n):
        hand = view["hands"][s]
        if hand is not None:
            cards = " | ".join(CARD_LABELS[k] for k in hand)
        else:
            cards = " | ".join(
                "?" if o >= 3 else f"? (Horus {o + 1})" for o in view["hand_origins"][s]
            )
        lines.append(f"  {_seat_tag(s)}: {cards}")
    lines.append("")
    lines.append("[bold]Players[/bold]")
    for s in range(n):
        treasures = view["treasures"][s]
        per_type = ", ".join(
            f"{sum(treasures[t * NUM_VARIANTS : (t + 1) * NUM_VARIANTS])} {name}"
            for t, name in enumerate(TREASURE_TYPES)
        )
        scarabs: Any = view["scarabs"][s]
        if scarabs is None:
            scarab_text = f"{view['scarab_counts'][s]} face down"
        else:
            values = [SCARAB_VALUES[v] for v, c in enumerate(scarabs) for _ in range(c)]
            scarab_text = f"{len(values)} {values}"
        sarcophagi = [v for v, h in zip(SARCOPHAGI, view["sarcophagi"], strict=True) if h == s]
        lines.append(
            f"  {_seat_tag(s)}: score {view['scores'][s]:g}, keys {view['keys'][s]}, "
            f"treasures {per_type}, wild {view['wilds'][s]}, scarabs {scarab_text}"
            + (f", sarcophagi {sarcophagi}" if sarcophagi else "")
        )
    lines.append("")
    horus = "/".join(str(x) for x in view["horus_decks"])
    lines.append(
        f"draw pile {view['draw_pile']}, discard {sum(view['discard'])}, Horus decks {horus}, "
        f"keys left {view['key_supply']}, wild tiles left {view['wild_supply']}, "
        f"scarabs left {view['scarab_supply']}, in the chamber {view['entries']}"
    )
    if view["final"] is not None:
        lines.append("")
        lines.append(
            "[bold]Final scoring[/bold] (track, adventurers, sarcophagi, keys, sets,"
            " scarabs = total)"
        )
        for s, row in enumerate(view["final"]):
            lines.append(f"  {_seat_tag(s)}: {' + '.join(map(str, row[:-1]))} = {row[-1]}")
    return "\n".join(lines)
