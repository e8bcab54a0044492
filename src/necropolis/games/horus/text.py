"""The Pyramid of Horus on a terminal: action names, what each seat learns of an action,
and the board drawn in 64 columns and 20 lines.

``action_text`` names an action in full (unique among the legal actions of the moment,
so the command line can read it back) or, for ``describe_action``, says only what a given
observer learns: a searched card is shown to everyone under the normal rules but only to
its finder under total secrecy; a Linguistics peek and a block checked with Udjat or
Clairvoyance are seen by their player alone; a discarded face-down card stays face down.
(The table's sentences are in ``narration.py`` and ``prompts.py``.)

:func:`render` draws one view: the terminal puts the log beside this board and the prompt
and choices below it, so the drawing keeps to a fixed box at every player count: a header
line, the 10 × 10 grid (three characters a square, a solid line shown as ``│`` between
squares side by side and as an underline under a square whose south side is solid) with a
panel of dice, lock, piles and idols beside it, one line per seat, and the viewer's own
cards. Rich markup colours the areas, the dice and the seats (``SEAT_COLOURS``, the same
on every screen); seats are "you" and "Player N"; every figure is drawn from the view
alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from necropolis.engine.language import SEAT_COLOURS, seat_label
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
    A_RETURN_BLOCK,
    A_SEARCH,
    A_SETUP,
    A_SHOOT,
    A_TAKE,
    A_TAKE_WOUND,
    A_UDJAT,
    A_USE_REACTION,
    C_ACTION_DIE,
    C_BLOCK,
    C_CHECK,
    C_CHEST,
    C_DRAW,
    C_LOCK_DIE,
    C_MUMMY_DIE,
    C_SARC,
    D_LOCK,
    D_REACT,
    D_ROOM,
    D_WLL,
    FIRST_CHANCE,
    HEALS,
    N_TERMINAL,
    PEEK_FLAG,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState


def card_hidden_to(s: HorusState, t: int, observer: int | None, owner: int) -> bool:
    """Whether ``observer`` sees only the back of card ``t`` lying in front of ``owner``."""
    if observer == owner or cp.CARD_KIND[t] == cp.IDOL or s.node == N_TERMINAL:
        return False  # at the end every player shows his cards to count them
    return s.secrecy or cp.FACE_DOWN[t]


def _back(t: int) -> str:
    return f"a face-down {cp.ORIGIN_WORDS[cp.CARD_ORIGIN[t]]} card"


def chance_text(s: HorusState, a: int, observer: int | None, full: bool) -> str:
    node = s.node
    seat = s.node_seat
    if node in (C_ACTION_DIE, C_MUMMY_DIE, C_LOCK_DIE):
        what = {C_ACTION_DIE: "actions", C_MUMMY_DIE: "mummies", C_LOCK_DIE: "lock"}[node]
        return f"the {cp.DIE_COLOURS[s.node_arg]} die ({what}) shows {a + 1}"
    if node == C_CHEST:
        return f"seat {seat} rolls {a + 1} for a chest"
    if node == C_DRAW:
        deck = cp.ORIGINS[s.node_arg]
        if full or observer == seat or not s.secrecy:
            return f"seat {seat} draws {cp.CARD_NAME[a]} from the {deck} deck"
        return f"seat {seat} draws a card from the {deck} deck"
    if node == C_SARC:
        k = s.node_arg % PEEK_FLAG
        if s.node_arg >= PEEK_FLAG:
            if full or observer == seat:
                return f"seat {seat} reads sarcophagus {k}: {cp.CARD_NAME[a]}"
            return f"seat {seat} reads the hieroglyphs of sarcophagus {k}"
        return f"sarcophagus {k} opens: {cp.CARD_NAME[a]}"
    if node == C_BLOCK:
        return f"stone block {a + 1} falls"
    if node == C_CHECK:
        if full or observer == seat:
            return f"seat {seat} checks stone block {a + 1}"
        return f"seat {seat} checks a stone block in secret"
    return f"outcome {a}"


def action_text(s: HorusState, a: int, observer: int | None, full: bool) -> str:
    if s.node >= FIRST_CHANCE:
        return chance_text(s, a, observer, full)
    seat = s.node_seat
    who = f"seat {seat}"
    if a < A_MOVE:
        adv, e = divmod(a - A_SETUP, 2)
        return f"{who} plays {cp.ADVENTURERS[adv]} from entrance {e}"
    if a < A_SEARCH:
        return f"{who} moves {cp.DIRECTION_NAMES[a - A_MOVE]}"
    if a == A_SEARCH:
        return f"{who} searches"
    if a == A_LEAVE:
        return f"{who} leaves the pyramid"
    if a == A_DONE:
        if s.node == D_WLL:
            return f"{who} keeps the rest"
        if s.node == D_LOCK:
            return f"{who} gives up the lock"
        return f"{who} ends the turn"
    if a == A_DONE_STAMINA:
        return f"{who} keeps the rest and uses Stamina"
    if a < A_TAKE:
        return f"{who} opens sarcophagus {a - A_OPEN}"
    if a < A_PEEK:
        return f"{who} takes the treasure of sarcophagus {a - A_TAKE}"
    if a < A_PICK:
        return f"{who} uses Linguistics on sarcophagus {a - A_PEEK}"
    if a < A_REROLL:
        return f"{who} picks the lock of the {cp.GODS[a - A_PICK].capitalize()} alcove"
    if a < A_CROWBAR:
        mask = a - A_REROLL + 1
        dice = ", ".join(cp.DIE_COLOURS[i] for i in range(cp.NUM_DICE) if mask >> i & 1)
        return f"{who} rerolls {dice}"
    if a == A_CROWBAR:
        return f"{who} uses a Crowbar"
    if a == A_LOCKPICKING:
        return f"{who} uses Lockpicking"
    if a < A_UDJAT:
        m = a - A_SHOOT
        name = cp.MUMMY_NAMES[m] if m < len(cp.MUMMY_NAMES) else f"mummy {m}"
        return f"{who} shoots {name}"
    if a == A_UDJAT:
        return f"{who} uses an Udjat"
    if a == A_CLAIRVOYANCE:
        return f"{who} uses Clairvoyance"
    if a == A_KEEP_BLOCK:
        return f"{who} sets the checked block aside"
    if a == A_RETURN_BLOCK:
        return f"{who} puts the block back and sets another aside unseen"
    if a in HEALS:
        kit, wound = HEALS[a]
        article = "an" if cp.CARD_NAME[kit][0] in "AEIOU" else "a"
        return f"{who} uses {article} {cp.CARD_NAME[kit]} on a {cp.CARD_NAME[wound]}"
    if a == A_USE_REACTION:
        ability = "Reflexes" if s.node_arg in (cp.SNAKE, cp.SCORPION) else "Swimming"
        return f"{who} uses {ability}"
    if a == A_TAKE_WOUND:
        return f"{who} keeps the card drawn" if s.node == D_REACT else f"{who} declines"
    if a < A_JUMP_DODGE:
        return f"{who} jumps {cp.DIRECTION_NAMES[a - A_JUMP]}"
    if a < A_DISCARD:
        return f"{who} jumps {cp.DIRECTION_NAMES[a - A_JUMP_DODGE]} and uses Dodge"
    if a < A_DISCARD_BAG:
        t = a - A_DISCARD
        name = cp.CARD_NAME[t]
        if not full and observer != seat and cp.FACE_DOWN[t]:
            name = _back(t)  # treasures go face down onto the discard pile
        room = " to make room" if s.node == D_ROOM else ""
        return f"{who} discards {name}{room}"
    if a < A_BAG_PUT:
        t = a - A_DISCARD_BAG
        name = cp.CARD_NAME[t] if full or observer == seat else _back(t)
        return f"{who} discards {name} from the bag"
    t = a - A_BAG_PUT
    name = cp.CARD_NAME[t] if full or observer == seat else _back(t)
    return f"{who} puts {name} in the bag"


# --- the terminal board ---------------------------------------------------------------

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
