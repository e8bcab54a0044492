"""The Pyramid of Horus on a terminal: one view drawn in 64 columns and 20 lines.

The terminal puts the log beside this board and the prompt and choices below it, so the
drawing keeps to a fixed box at every player count: a header line, the 10 × 10 grid (three
characters a square, a solid line shown as ``│`` between squares side by side and as an
underline under a square whose south side is solid) with a panel of dice, lock, piles and
idols beside it, one line per seat, and the viewer's own cards. Rich markup colours the
areas, the dice and the seats (``SEAT_COLOURS``, the same on every screen); seats are
"you" and "Player N"; every figure is drawn from the view alone.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from necropolis.engine.language import SEAT_COLOURS, seat_label
from necropolis.games.horus import components as cp

WIDTH = 64
HEIGHT = 20

_AREA_MARK = {
    cp.MUMMIES_CORRIDOR: " ",
    cp.SCORPION_PIT: ".",
    cp.CROCODILE_POND: "~",
    cp.COBRA_NEST: ",",
    cp.ENTRANCE: "E",
}
_AREA_STYLE = {
    cp.MUMMIES_CORRIDOR: "",
    cp.SCORPION_PIT: "yellow",
    cp.CROCODILE_POND: "cyan",
    cp.COBRA_NEST: "magenta",
    cp.ENTRANCE: "bold",
}
_SARC_MARK = {"closed": "s", "open": "o", "empty": "_"}
_IDOL_MARK = {"hededet": "He", "sobek": "So", "thoth": "Th", "anubis": "An", "horus": "Ho"}
_DIE_STYLE = ("green", "red", "blue", "yellow", "white")
_STATUS_SHORT = {
    0: "waiting",
    1: "inside",
    2: "escaped",
    3: "crushed",
    4: "sealed",
    5: "mummy",
}


def _seat(seat: int, viewer: int | None, text: str | None = None) -> str:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]
    return f"[bold {colour}]{escape(text if text is not None else seat_label(seat, viewer))}[/]"


def _styled(text: str, style: str) -> str:
    text = escape(text)
    return f"[{style}]{text}[/]" if style else text


def _cell(view: dict[str, Any], sq: int, fallen: set[int], tokens: dict[int, list[str]]) -> str:
    """Three characters of markup for one square."""
    area = cp.AREA[sq]
    here = tokens.get(sq)
    if here:
        shown = here if len(here) <= 3 else [*here[:2], "+"]
        return "".join(shown) + " " * (3 - len(shown))
    if sq in fallen:
        return "[dim]###[/]"
    if area == cp.MUMMIES_CORRIDOR:
        sarcs = "".join(_SARC_MARK[view["sarcophagi"][k]["state"]] for k in cp.SARCOPHAGI_AT[sq])
        idols = "".join(
            _IDOL_MARK[cp.GODS[g]] if cp.GODS[g] in view["idols_in_alcoves"] else "--"
            for g in cp.ALCOVES_AT[sq]
        )
        return escape(f"{sarcs + idols:^3}"[:3])
    number = cp.SQUARE_NUMBER[sq]
    mark = _AREA_MARK[area]
    text = f"{number:>2}{mark}" if number else f" {mark} "
    return _styled(text, _AREA_STYLE[area])


def _board(view: dict[str, Any]) -> list[str]:
    """Ten lines of 41 columns: the grid, walls between squares side by side."""
    viewer = view["seat"]
    fallen = {cp.BLOCK_SQUARE[b - 1] for b in view["fallen_blocks"]}
    tokens: dict[int, list[str]] = {}
    for m in view["mummies"]:
        tokens.setdefault(m["square"], []).append("[dim]m[/]" if m["down"] else "[bold]M[/]")
    for p in view["players"]:
        if p["square"] is not None and p["status_id"] == 1:
            tokens.setdefault(p["square"], []).append(_seat(p["seat"], viewer, str(p["seat"] + 1)))
    lines = []
    for r in range(cp.HEIGHT):
        line = ""
        for c in range(cp.WIDTH):
            sq = cp.SQUARE_AT.get((r, c), -1)
            left = cp.SQUARE_AT.get((r, c - 1), -1)
            if sq >= 0 and left >= 0:
                line += " " if cp.NEIGHBOURS[sq][3] >= 0 else "│"
            else:
                line += "│" if sq >= 0 or left >= 0 else " "
            if sq < 0:
                line += "   "
                continue
            cell = _cell(view, sq, fallen, tokens)
            below = cp.SQUARE_AT.get((r + 1, c), -1)
            if below < 0 or cp.NEIGHBOURS[sq][2] < 0:
                cell = f"[underline]{cell}[/underline]"
            line += cell
        last = cp.SQUARE_AT.get((r, cp.WIDTH - 1), -1)
        line += "│" if last >= 0 else " "
        lines.append(line)
    return lines


def _dice(values: list[int]) -> str:
    return " ".join(
        _styled(str(v) if v else "·", _DIE_STYLE[i] if v else "dim") for i, v in enumerate(values)
    )


def _panel(view: dict[str, Any]) -> list[str]:
    """Ten lines of at most 22 columns beside the grid."""
    lines = [f"Action {_dice(view['dice'])}", f"Mummy  {_dice(view['mummy_dice'])}"]
    lock = view["lock"]
    if lock:
        lines.append(f"Lock {_IDOL_MARK[lock['idol']]} {_dice(lock['dice'])}")
    else:
        lines.append("[dim]No lock being picked[/]")
    box = f"Box {view['blocks_in_box']} blocks (###)"
    if view["block_set_aside_number"] is not None:
        box = f"Box {view['blocks_in_box']}, next {view['block_set_aside_number']}"
    elif view["block_set_aside"]:
        box = f"Box {view['blocks_in_box']}, 1 set aside"
    lines.append(box)
    idols = " ".join(_IDOL_MARK[g] for g in view["idols_in_alcoves"]) or "none"
    lines.append(f"Idols {idols}")
    decks = view["decks"]
    lines.append(f"Decks R{decks['rubble']} S{decks['sand']} W{decks['water']}")
    lines.append(f"Wounds M{decks['mummy']} B{decks['block']}")
    opened = [
        f"{x['god'][:2].capitalize()}{cp.CARD_VALUE[x['card_type']]}"
        for x in view["sarcophagi"]
        if x["state"] == "open" and x["card_type"] >= 0
    ]
    if opened:
        lines.append(escape(f"Open {' '.join(opened)}"[:22]))
    else:
        lines.append("[dim]No open sarcophagus[/]")
    lines.append("[yellow].[/]sand [cyan]~[/]pond [magenta],[/]nest")
    lines.append("[bold]M[/] mummy [bold]*[/] Dice Keeper")
    return lines


def _cards_summary(p: dict[str, Any], own: bool) -> str:
    """A short account of a seat's cards as the view shows them."""
    types = p["card_types"]
    wounds = sum(1 for t in types if cp.CARD_KIND[t] == cp.WOUND)
    idols = [cp.GODS[cp.CARD_GOD[t]] for t in types if cp.CARD_KIND[t] == cp.IDOL]
    count = p["card_count"]
    parts = [f"{count} card" if count == 1 else f"{count} cards"]
    if wounds:
        parts.append(f"{wounds}w")
    parts += [_IDOL_MARK[g] for g in idols]
    if not own:
        hidden = sum(p["face_down"].values())
        if hidden:
            parts.append(f"{hidden} down")
    bag = len(p["bag_types"]) + p["bag_face_down"]
    if bag:
        parts.append(f"bag {bag}")
    return " ".join(parts)


def _player_line(view: dict[str, Any], p: dict[str, Any]) -> str:
    viewer = view["seat"]
    seat = p["seat"]
    label = f"you ({seat + 1})" if seat == viewer else seat_label(seat, viewer)
    name = _seat(seat, viewer, label)
    pad = " " * (10 - len(label))
    ability = p["ability"] or "—"
    ability_text = _styled(f"{ability:<12}", "dim strike" if p["ability_used"] else "")
    keeper = "*" if view["dice_keeper"] == seat else " "
    status = _STATUS_SHORT[p["status_id"]]
    if view.get("scores") is not None:
        middle = f"{status:<7} {int(view['scores'][seat]):>3} pts"
    elif p["status_id"] == 1:
        middle = f"{status:<7} L{p['wll']} A{p['actions']}"
    else:
        middle = f"{status:<7}"
    summary = _cards_summary(p, seat == viewer)
    rest = f"{keeper}{middle:<15} {summary}"
    room = WIDTH - 10 - 1 - 12 - 1
    if len(rest) > room:
        rest = rest[: room - 1] + "…"
    return f"{name}{pad} {ability_text} {escape(rest)}"


def _own_cards(view: dict[str, Any]) -> list[str]:
    """The viewer's cards in full, on at most two lines."""
    seat = view["seat"]
    if seat is None:
        return []
    p = view["players"][seat]
    counts: dict[str, int] = {}
    for name in p["cards"]:
        counts[name] = counts.get(name, 0) + 1
    items = [f"{n}×{name}" if n > 1 else name for name, n in counts.items()]
    if p["bag"]:
        items.append("bag: " + ", ".join(p["bag"]))
    text = "Your cards: " + (", ".join(items) or "none")
    lines: list[str] = []
    while text and len(lines) < 2:
        if len(text) <= WIDTH:
            lines.append(text)
            break
        cut = text.rfind(", ", 0, WIDTH)
        if cut <= 0 or len(lines) == 1:
            lines.append(text[: WIDTH - 1] + "…")
            break
        lines.append(text[: cut + 1])
        text = "  " + text[cut + 2 :]
    return [escape(line) for line in lines]


def _header(view: dict[str, Any]) -> str:
    viewer = view["seat"]
    if view.get("scores") is not None:
        state = "The game is over"
    elif view["round"] == 0:
        state = "Choosing adventurers"
    else:
        state = f"Round {view['round']}"
    acting = view["acting_seats"]
    if acting and view.get("scores") is None:
        who = ", ".join(seat_label(s, viewer) for s in acting)
        state += f" · {who} to act"
    elif view.get("scores") is None and view["round"]:
        state += " · dice and events"
    return escape(state[:WIDTH])


def render(view: dict[str, Any]) -> str:
    """The view as at most 20 lines of at most 64 columns (Rich markup)."""
    board = _board(view)
    panel = _panel(view)
    lines = [_header(view)]
    for i, row in enumerate(board):
        side = panel[i] if i < len(panel) else ""
        lines.append(f"{row} {side}")
    lines += [_player_line(view, p) for p in view["players"]]
    room = HEIGHT - len(lines)
    lines += _own_cards(view)[:room]
    return "\n".join(lines)
