"""Luxor in words: action names, what each seat learns of an action, the terminal board.

Action names are unique among the legal actions of a moment and read back through the
kernel's ``string_to_action``. Chance outcomes are named in full by ``action_to_string``;
``describe_action`` tells a seat only its own draws (cards, Horus cards, scarabs) and reports
the others' as bare events. The board is drawn from a view, never from a state, as a list of
the 43 fields from the stairs to the burial chamber with the Anubis statues between them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from necropolis.engine.language import SEAT_COLOURS
from necropolis.games.luxor import movement, rules
from necropolis.games.luxor.components import (
    ANUBIS_AFTER,
    BACKS,
    BURIAL_CHAMBER,
    CARD_LABELS,
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
# The terminal board must fit 64 columns by 20 lines at every player count (the terminal
# puts the log beside it and the prompt below): the path is drawn as the web board's
# spiral (layout.spiral_cells), 9 cells of 7 columns by 2 lines, each cell its field
# number and a 4-letter tile code over one coloured digit per seat; an "A" between two
# cells is an Anubis statue. Two lines per seat follow, and two lines of supplies on top.

_SHORT_CARDS = (
    "1",
    "\u00b11",
    "2",
    "3",
    "4",
    "5",
    "die",
    "1-3",
    "1-4",
    "1-6",
    "1-die",
    "all+1",
    "all+2",
    "all+3",
    "-1a+1",
    "-1a+2",
    "-1a+3",
    "last",
)
_TREASURE_LETTERS = "VSJ"
_TEMPLE_CODES = ("Wild", "Fv12", "Fv23", "Tunl", "Scrb", "ScWi")
CELL = 7


def tile_code(code: int) -> str:
    """Four columns naming a tile: V2:3 is a vase needing 2 adventurers, worth 3 points."""
    if code == 0:
        return "  \u00b7 "
    if code < OSIRIS_BASE:
        kind = code - TREASURE_BASE
        letter = _TREASURE_LETTERS[kind // NUM_VARIANTS]
        return f"{letter}{TREASURE_NEED[kind]}:{TREASURE_POINTS[kind]}"
    if code < HORUS_TILE_BASE:
        return f"Os+{OSIRIS_VALUES[code - OSIRIS_BASE]}"
    if code < TEMPLE_BASE:
        return f"Hor{code - HORUS_TILE_BASE + 1}"
    return _TEMPLE_CODES[code - TEMPLE_BASE]


def _colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]


def _name(seat: int, me: int | None) -> str:
    return "you" if seat == me else f"Player {seat + 1}"


def _tag(seat: int, text: str) -> str:
    return f"[{_colour(seat)}]{text}[/]"


def _counts(view: View, field: int) -> str:
    """One digit per seat in its colour (a dot for none), padded to the cell."""
    n: int = view["players"]
    digits = []
    for s in range(n):
        count = view["adventurers"][s][field]
        digits.append(_tag(s, str(count)) if count else "\u00b7")
    return " " + "".join(digits) + " " * (CELL - 2 - n)


def _cells(view: View) -> dict[tuple[int, int], tuple[str, str]]:
    from necropolis.games.luxor.layout import spiral_cells

    cells = spiral_cells()
    out: dict[tuple[int, int], tuple[str, str]] = {}
    for f in range(BURIAL_CHAMBER + 1):
        if f == STAIRS:
            top = "Stairs"
        elif f == BURIAL_CHAMBER:
            top = "[bold]Tomb[/bold]13"
        else:
            top = f"{f:>2}{tile_code(view['tiles'][f])}"
        out[cells[f]] = (top, _counts(view, f))
    # The spiral's unused cells beside the chamber show its sarcophagi.
    n_cells = len(cells)
    for i, (value, holder) in enumerate(zip(SARCOPHAGI, view["sarcophagi"], strict=True)):
        if BURIAL_CHAMBER + 1 + i < n_cells:
            who = (
                "--"
                if holder < 0
                else _tag(holder, "you" if holder == view["seat"] else f"P{holder + 1}")
            )
            out[cells[BURIAL_CHAMBER + 1 + i]] = (f"Sarc{value}", f" {who}   ")
    return out


def _statue_gaps() -> dict[tuple[int, int], int]:
    """The gap after a cell (by its grid position, going right) holding a statue."""
    from necropolis.games.luxor.layout import spiral_cells

    cells = spiral_cells()
    gaps: dict[tuple[int, int], int] = {}
    for i, after in enumerate(ANUBIS_AFTER):
        (x0, y0), (x1, y1) = cells[after], cells[after + 1]
        if y0 == y1:  # side by side: the gap between them
            gaps[(min(x0, x1), y0)] = i
    return gaps


def _board_lines(view: View) -> list[str]:
    from necropolis.games.luxor.layout import GRID_H, GRID_W

    cells = _cells(view)
    gaps = _statue_gaps()
    lines = []
    for y in range(GRID_H):
        for row in (0, 1):
            parts = []
            for x in range(GRID_W):
                cell = cells.get((x, y), ("", ""))[row]
                parts.append(cell + " " * (CELL - 1 - _width(cell)))
                if x < GRID_W - 1:
                    parts.append("[bold]A[/bold]" if (x, y) in gaps else " ")
            lines.append("".join(parts).rstrip())
    return lines


def _width(markup: str) -> int:
    """Columns a piece of Rich markup takes (our markup is only [style]...[/])."""
    return len(re.sub(r"\[[^\]]*\]", "", markup))


def _hand(view: View, seat: int) -> str:
    hand = view["hands"][seat]
    if hand is not None:
        return " ".join(_SHORT_CARDS[k] for k in hand)
    return " ".join("?" if o >= 3 else f"H{o + 1}" for o in view["hand_origins"][seat])


def render_view(view: View) -> str:
    """The board of ``view`` in at most 64 columns and 20 lines (Rich markup)."""
    n: int = view["players"]
    me = view["seat"]
    turn = view["turn_seat"]
    if view["final"] is not None:
        head = "the match is over"
    elif view["phase"] in ("deal", "lay_osiris_tiles", "lay_treasure_tiles"):
        head = "setting up"
    else:
        head = f"round {view['round'] + 1}  {_tag(turn, _name(turn, me))} to play"
        if view["card_in_play"] >= 0:
            head += f" {_SHORT_CARDS[view['card_in_play']]}"
            if view["roll"]:
                head += f", rolled {view['roll']}"
        if view["ending"]:
            head += "  [bold]last round[/bold]"
    horus = " ".join(str(x) for x in view["horus_decks"])
    lines = [
        f"[bold]Luxor[/bold]  {head}",
        f"pile {view['draw_pile']}  discard {sum(view['discard'])}  Horus {horus}  "
        f"keys {view['key_supply']}  wild {view['wild_supply']}  "
        f"scarabs {view['scarab_supply']}",
        *_board_lines(view),
    ]
    for s in range(n):
        types = [
            sum(view["treasures"][s][t * NUM_VARIANTS : (t + 1) * NUM_VARIANTS])
            for t in range(len(TREASURE_TYPES))
        ]
        treasures = " ".join(f"{_TREASURE_LETTERS[t]}{c}" for t, c in enumerate(types))
        asleep = sum(1 for x in view["sleeping"][s] if x)
        score = view["scores"][s]
        name = _tag(s, f"\u25cf {_name(s, me):<8}")
        lines.append(
            f"{name} {score:>3g} pts  "
            f"key {view['keys'][s]}  {treasures} W{view['wilds'][s]}  asleep {asleep}"
        )
        scarabs = view["scarabs"][s]
        count = view["scarab_counts"][s]
        scarab_text = f"scarabs {count}"
        if scarabs is not None and count:
            scarab_text += f" (={sum(SCARAB_VALUES[v] * c for v, c in enumerate(scarabs))})"
        if view["final"] is not None:
            row = view["final"][s]
            second = f"  final {'+'.join(map(str, row[:-1]))} = {row[-1]}  {scarab_text}"
        else:
            second = f"  hand {_hand(view, s)}  {scarab_text}"
        lines.append(second)
    return "\n".join(lines)
