"""Text for The Pyramid of Horus: action names and what each seat learns of an action.

``action_text`` names an action in full (unique among the legal actions of the moment,
so the command line can read it back) or, for ``describe_action``, says only what a given
observer learns: a searched card is shown to everyone under the normal rules but only to
its finder under total secrecy; a Linguistics peek and a block checked with Udjat or
Clairvoyance are seen by their player alone; a discarded face-down card stays face down.
(The table's sentences are in ``narration.py`` and ``prompts.py``; the terminal board in
``screen.py``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
