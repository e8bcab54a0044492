"""Text for Luxor (2001): action names, what each seat learns of an action, the board.

Action names are full sentences, unique among the legal actions of the moment so the
command line can read them back. :func:`describe_action` tells each observer only what it
may know: another seat's draw is "a card", the value of a sarcophagus only to the seats
that look at it, another seat's pharaoh card not at all. :func:`render_view` draws a
board of at most 64 columns by 20 lines in Rich markup: the wall (top row first, animal
abbreviations and facing arrows) with the pillars beside it, a line per seat, the
viewer's hand and what is going on.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from necropolis.engine.language import SEAT_COLOURS
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ABBREV,
    ANIMALS,
    ARROWS,
    CARDS,
    CH_BACK,
    CH_CARD,
    CH_CURSE,
    CH_PHARAOH,
    CH_VALUE,
    CLAIM_BASE,
    CURSE_ANIMALS,
    DONE,
    GIVE_BASE,
    INSERT_BASE,
    MOVE_BASE,
    NUM_ANIMALS,
    ORDER_BASE,
    PASS_BASE,
    RELOCATE_BASE,
    ROWS,
    SHAFTS,
    STACK_HEIGHT,
    STAY,
    VALUE_EYES,
    VALUE_POINTS,
    card_text,
)

if TYPE_CHECKING:
    from necropolis.games.luxor2001.state import LuxorState

_KIND = ("facing different ways", "facing the same way")


def _curse_text(curse: int) -> str:
    return "/".join(ANIMALS[a] for a in CURSE_ANIMALS[curse])


def _value_text(value: int) -> str:
    return f"{VALUE_EYES[value]}-eye sarcophagus worth {VALUE_POINTS[value]}"


def action_to_string(st: LuxorState, action: int) -> str:
    phase = st.phase
    if phase in (rules.DEAL, rules.DRAW):
        seat = st.deal_k % st.n if phase == rules.DEAL else st.player
        return f"seat {seat} draws {card_text(action - CH_CARD)}"
    if phase == rules.PHARAOH:
        return f"seat {st.deal_k} gets pharaoh card {ANIMALS[action - CH_PHARAOH]}"
    if phase == rules.OPEN:
        pillar = ANIMALS[st.open_pillar]
        return f"seat {st.open_for} opens the {pillar} pillar's {_value_text(action - CH_VALUE)}"
    if phase == rules.BACK:
        return "the next card of the second pile shows " + (
            "a curse back" if action - CH_BACK else "a hieroglyph back"
        )
    if phase == rules.CURSE:
        return f"curse card revealed: {_curse_text(action - CH_CURSE)}"
    if phase == rules.INSERT:
        card, shaft = divmod(action - INSERT_BASE, SHAFTS)
        return f"insert {card_text(card)} into shaft {shaft + 1}"
    if phase == rules.ORDER:
        token = action - ORDER_BASE
        return f"score the {ANIMALS[token >> 1]} pair {_KIND[token & 1]} next"
    if phase == rules.RELOCATE:
        if action == STAY:
            return "leave own researchers where they are"
        return f"move own researcher from the {ANIMALS[action - RELOCATE_BASE]} pillar"
    if phase == rules.WINDOW:
        if action >= PASS_BASE:
            return f"seat {action - PASS_BASE} passes"
        claimant, victim = divmod(action - CLAIM_BASE, 4)
        return f"seat {claimant} finds the curse animals and curses seat {victim}"
    if phase == rules.GIVE:
        return f"give away a {_value_text(action - GIVE_BASE)}"
    if phase == rules.FINAL:
        if action == DONE:
            return "stop moving scarabs"
        x, y = divmod(action - MOVE_BASE, NUM_ANIMALS)
        return f"move a scarab from the {ANIMALS[x]} pillar to the {ANIMALS[y]} pillar"
    return f"action {action}"


def describe_action(st: LuxorState, action: int, observer: int | None) -> str:
    phase = st.phase
    if phase in (rules.DEAL, rules.DRAW):
        seat = st.deal_k % st.n if phase == rules.DEAL else st.player
        if observer == seat:
            return action_to_string(st, action)
        return f"seat {seat} draws a card"
    if phase == rules.PHARAOH:
        if observer == st.deal_k:
            return action_to_string(st, action)
        return f"seat {st.deal_k} gets a pharaoh card"
    if phase == rules.OPEN:
        if observer == st.open_for:
            return action_to_string(st, action)
        eyes = STACK_HEIGHT + 1 - st.stack[st.open_pillar]
        pillar = ANIMALS[st.open_pillar]
        return f"seat {st.open_for} opens the {pillar} pillar's {eyes}-eye sarcophagus"
    if phase == rules.GIVE:
        if observer in (st.victim, st.player):
            return f"seat {st.victim} gives seat {st.player} a {_value_text(action - GIVE_BASE)}"
        eyes = VALUE_EYES[action - GIVE_BASE]
        return f"seat {st.victim} gives seat {st.player} a {eyes}-eye sarcophagus"
    return action_to_string(st, action)


# --- the board ------------------------------------------------------------------------------
# A terminal board of at most 64 columns and 20 lines (the terminal puts the log beside it
# and the prompt below): the wall with the pillars beside it, a line per seat, the viewer's
# hand, and up to three lines on what is going on.

WIDTH = 64
HEIGHT = 20

_DOING = {
    "pharaoh": "dealing pharaoh cards",
    "deal": "dealing hands",
    "insert": "insert a card",
    "order": "order the pairs",
    "relocate": "move a researcher or not",
    "open": "a sarcophagus opens",
    "draw": "drawing a card",
    "back": "the next card's back",
    "curse": "a curse card turns up",
    "window": "claim the curse or pass",
    "give": "give a sarcophagus",
    "final": "move scarabs",
    "end": "the match is over",
}


def _name(seat: int | None, viewer: int | None) -> str:
    """A seat as the board names it, in its colour: "you", "Player N"."""
    if seat is None:
        return "nobody"
    label = "you" if seat == viewer else f"Player {seat + 1}"
    return f"[{SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]}]{label}[/]"


def _short(seat: int | None, viewer: int | None) -> str:
    """A seat in three columns, for the pillar list: "you", "P2 ", " · "."""
    if seat is None:
        return " · "
    label = "you" if seat == viewer else f"P{seat + 1} "
    return f"[{SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]}]{label}[/]"


def _cut(text: str, width: int = WIDTH) -> str:
    """Plain text cut to ``width`` columns (only for lines built without markup)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _card(card: int) -> str:
    t, tf, b, bf = CARDS[card]
    return f"{ABBREV[t]}{ARROWS[tf]}/{ABBREV[b]}{ARROWS[bf]}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _sarcophagi(entries: list[list[int | None]]) -> str:
    if not entries:
        return "no sarcophagus"
    if len(entries) <= 7:
        # eyes:points, "?" where the viewer has not seen the value
        return "sarc " + " ".join(f"{e}:{'?' if p is None else p}" for e, p in entries)
    counts = [sum(1 for e, _ in entries if e == eyes) for eyes in (1, 2, 3)]
    known = sum(p for _, p in entries if p is not None)
    return (
        f"sarc {len(entries)}: "
        + " ".join(f"{c}×{eyes}e" for eyes, c in zip((1, 2, 3), counts, strict=True))
        + (f", known {known}" if known else "")
    )


def render_view(v: dict[str, Any]) -> str:
    viewer = v["seat"]
    n = v["players"]
    phase = v["phase"]
    lines: list[str] = []
    # Line 1: the game and what is going on.
    if phase == "window":
        who = "everyone"
    elif phase == "give":
        who = _name(v["curse"]["victim"], viewer)
    elif phase == "final":
        who = _name(v["final"]["seat"], viewer)
    elif phase in ("end", "pharaoh", "deal", "open", "draw", "back", "curse"):
        who = ""  # the game itself, not a seat, is doing something
    else:
        who = _name(v["turn"], viewer)
    status = f"{who}: {_DOING[phase]}" if who else _DOING[phase]
    # The curse variant shows in the pile lines; the Sphinx's only here.
    head = f"[bold]Luxor[/], {n} players" + (", Sphinx" if v["variants"]["sphinx"] else "")
    lines.append(f"{head}  ·  {status}")
    # Lines 2-12: the wall, the pillars beside it.
    panel = ["[dim]pillar who  ●  eyes[/]"]
    by_name = {p["animal"]: p for p in v["pillars"]}
    for name in v["pillar_order"]:
        p = by_name[name]
        eyes = "".join(str(e) for e in p["sarcophagi"]) or "-"
        mark = "●" * p["scarabs"] + "○" * (3 - p["scarabs"])
        panel.append(
            f"{ABBREV[ANIMALS.index(name)]}    {_short(p['researcher'], viewer)} {mark} {eyes}"
        )
    panel.append(f"slab: {_count(v['scarab_supply'], 'scarab')}")
    panel.append(f"pile: {_count(v['draw_pile'], 'card')}")
    c = v["curse"]
    panel.append(f"curses: {c['curses_in_pile']} in pile" if c is not None else "")
    wall, last = v["wall"], v["last_insert"]
    rows = ["   " + "".join(f" {s + 1}   " for s in range(SHAFTS)).rstrip()]
    for row in range(ROWS - 1, -1, -1):
        cells = []
        for shaft in range(SHAFTS):
            cell = row * SHAFTS + shaft
            code = wall[cell]
            if code < 0:
                cells.append(" ·  ")
                continue
            txt = f"{ABBREV[code >> 1]}{ARROWS[code & 1]}"
            if last is not None and cell in (last, last + SHAFTS):
                txt = f"[reverse]{txt}[/]"
            cells.append(txt)
        rows.append(f"{row + 1:>2} " + " ".join(cells))
    for left, right in zip(rows, panel, strict=True):
        pad = 3 + SHAFTS * 5 - 1 - _plain_len(left)
        lines.append(left + " " * pad + "  " + right if right else left)
    # A line per seat.
    ended = v["scores"] is not None
    for s in range(n):
        mark = ">" if s in v["acting_seats"] else " "
        name = "you" if s == viewer else f"Player {s + 1}"
        coloured = f"[{SEAT_COLOURS[s % len(SEAT_COLOURS)][1]}]{name:<8}[/]"
        if ended:
            pharaoh = v["pharaohs"][s]
            card = ABBREV[ANIMALS.index(pharaoh)]
            head = f"{mark}{coloured} {int(v['scores'][s]):>3} pts  pharaoh {card}  "
        else:
            head = (
                f"{mark}{coloured} hand {v['hand_sizes'][s]}  res {v['researchers_in_supply'][s]}  "
            )
        room = WIDTH - _plain_len(head)
        lines.append(head + _cut(_sarcophagi(v["sarcophagi"][s]), room))
    # The viewer's hand and pharaoh card.
    if v["hand"] is not None:
        hand = "  ".join(_card(c) for c in v["hand"]) or "empty"
        pharaoh = v["pharaoh"]
        lines.append(
            f"Your hand: {hand}   pharaoh: {ABBREV[ANIMALS.index(pharaoh)] if pharaoh else '-'}"
        )
    # Up to three lines on what is going on.
    info: list[str] = []
    if c is not None and c["card"]:
        passed = ", ".join(f"Player {s + 1}" for s in c["passed"])
        info.append(
            _cut("Curse card: " + ", ".join(c["card"]) + (f" (passed: {passed})" if passed else ""))
        )
    elif c is not None and phase != "end":
        back = c["next_back"] or "unseen"
        info.append(
            _cut(f"Piles: first {c['first_pile']}, second {c['second_pile']}, next back: {back}")
        )
    if v["pairs_pending"]:
        pairs = ", ".join(
            f"{ANIMALS[t >> 1]} ({'same' if t & 1 else 'different'})" for t in v["pairs_pending"]
        )
        info.append(_cut(f"Pairs to score: {pairs}"))
    if v["relocating_for"] is not None:
        info.append(f"A researcher is wanted at the {ANIMALS[v['relocating_for']]} pillar")
    if v["opening"] is not None:
        info.append(f"The top sarcophagus of the {ANIMALS[v['opening']]} pillar opens")
    f = v["final"]
    if f is not None and (f["gave"] or f["received"]):
        gave = ", ".join(ANIMALS[a] for a in f["gave"]) or "-"
        got = ", ".join(ANIMALS[a] for a in f["received"]) or "-"
        info.append(_cut(f"Scarabs moved from: {gave}; to: {got}"))
    lines.extend(info[: HEIGHT - len(lines)])
    return "\n".join(lines)


def _plain_len(markup: str) -> int:
    """Columns a line of Rich markup takes on screen."""
    return len(_MARKUP.sub("", markup))


_MARKUP = re.compile(r"\[/?[A-Za-z#0-9 ]*\]")
