"""Text for Luxor (2001): action names, what each seat learns of an action, the board.

Action names are full sentences, unique among the legal actions of the moment so the
command line can read them back. :func:`describe_action` tells each observer only what it
may know: another seat's draw is "a card", the value of a sarcophagus only to the seats
that look at it, another seat's pharaoh card not at all. :func:`render_view` draws the
wall as a grid (top row first) with animal abbreviations and facing arrows, then the
pillars, supplies, sarcophagi and the viewer's hand, using Rich markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ABBREV,
    ANIMALS,
    ARROWS,
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

_SEAT_COLOURS = ("red", "blue", "green", "yellow")


def _seat(seat: int | None) -> str:
    if seat is None:
        return "·"
    return f"[{_SEAT_COLOURS[seat]}]P{seat}[/]"


def render_view(v: dict[str, Any]) -> str:
    lines: list[str] = []
    head = f"Luxor (2001), {v['players']} players"
    flags = [k for k, on in v["variants"].items() if on]
    if flags:
        head += " — variants: " + ", ".join(flags)
    lines.append(f"[bold]{head}[/]   phase: {v['phase']}   turn: seat {v['turn']}")
    wall = v["wall"]
    last = v["last_insert"]
    lines.append("      " + " ".join(f" {s + 1}  " for s in range(SHAFTS)))
    for row in range(ROWS - 1, -1, -1):
        cells = []
        for shaft in range(SHAFTS):
            cell = row * SHAFTS + shaft
            code = wall[cell]
            if code < 0:
                cells.append(" ·  ")
            else:
                txt = f"{ABBREV[code >> 1]}{ARROWS[code & 1]}"
                if last is not None and cell in (last, last + SHAFTS):
                    txt = f"[reverse]{txt}[/]"
                cells.append(txt)
        lines.append(f"  {row + 1:>2}  " + " ".join(cells))
    lines.append("")
    lines.append("[bold]Pillars[/]")
    by_name = {p["animal"]: p for p in v["pillars"]}
    for p in (by_name[name] for name in v["pillar_order"]):
        stack = "".join(str(e) for e in p["sarcophagi"]) or "-"
        lines.append(
            f"  {p['animal']:<13} researcher {_seat(p['researcher'])}  "
            f"scarabs {'●' * p['scarabs']}{'○' * (3 - p['scarabs'])}  "
            f"sarcophagi (eyes, top first) {stack}"
        )
    lines.append(
        f"Scarabs on the slab: {v['scarab_supply']}   draw pile: {v['draw_pile']} cards   "
        "researchers in supply: "
        + ", ".join(f"{_seat(s)} {r}" for s, r in enumerate(v["researchers_in_supply"]))
    )
    c = v["curse"]
    if c is not None:
        back = c["next_back"] or "-"
        lines.append(
            f"Curse: first pile {c['first_pile']}, second pile {c['second_pile']} "
            f"({c['curses_in_pile']} curses), top back: {back}"
        )
        if c["card"]:
            lines.append("  [bold red]curse card: " + "/".join(c["card"]) + "[/]")
    for s, entries in enumerate(v["sarcophagi"]):
        shown = ", ".join(f"{e}👁{'' if p is None else '=' + str(p)}" for e, p in entries)
        lines.append(f"{_seat(s)} hand {v['hand_sizes'][s]} cards, sarcophagi: {shown or 'none'}")
    if v["pairs_pending"]:
        lines.append(
            "Pairs to score: "
            + ", ".join(
                f"{ANIMALS[t >> 1]} ({'same' if t & 1 else 'different'})"
                for t in v["pairs_pending"]
            )
        )
    if v["hand"] is not None:
        lines.append(f"Your pharaoh card: {v['pharaoh'] or '-'}")
        lines.append("Your hand: " + ("; ".join(card_text(c) for c in v["hand"]) or "empty"))
    if v["scores"] is not None:
        lines.append(
            "[bold]Scores:[/] "
            + ", ".join(f"{_seat(s)} {int(x)}" for s, x in enumerate(v["scores"]))
        )
        lines.append("Pharaoh cards: " + ", ".join(str(p) for p in v["pharaohs"]))
    return "\n".join(lines)
