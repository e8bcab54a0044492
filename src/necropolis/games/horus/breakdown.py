"""The Pyramid of Horus's score breakdown: each seat's treasures, wounds and escape as
the viewer may know them, with the rulebook's tiebreaks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.language import SeatScore
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import (
    CRUSHED,
    ESCAPED,
    MUMMIFIED,
    N_TERMINAL,
    SEALED,
)
from necropolis.games.horus.narration import STATUS_TERMS
from necropolis.games.horus.text import card_hidden_to

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState


def score_breakdown(s: HorusState, viewer: int | None = None) -> list[SeatScore]:
    """Per seat, what its score is made of: during play what the whole table sees (idols
    lie face up, chest rolls are public) and, as a hidden part, how many of the seat's
    other cards ``viewer`` does not see; in ``viewer``'s own row everything it carries,
    since it sees its own cards and Bag (what escaping now would score); everything once
    the match is over."""
    over = s.node == N_TERMINAL
    return [_seat_score(s, seat, over, seat == viewer, viewer) for seat in range(s.n)]


def _seat_score(
    s: HorusState, seat: int, over: bool, own: bool = False, viewer: int | None = None
) -> SeatScore:
    parts: list[dict[str, Any]] = []

    def part(kind: str, points: int, **params: Any) -> None:
        parts.append(_score_part(s, seat, kind, points, params))

    cards = [*s.hand[seat], *s.bag[seat]]
    idols = [t for t in cards if cp.CARD_KIND[t] == cp.IDOL]
    idol_points = sum(cp.CARD_VALUE[t] for t in idols)
    rolls = s.chest_rolls[seat]
    # A seat sees all it carries; an adventurer crushed, sealed in or mummified is out.
    out = s.status[seat] in (CRUSHED, SEALED, MUMMIFIED)
    if (over and s.status[seat] != ESCAPED) or (own and out):
        part("score_not_out", 0, status=STATUS_TERMS[s.status[seat]])
    elif over or own:
        treasures = sum(cp.CARD_VALUE[t] for t in cards if cp.CARD_KIND[t] == cp.TREASURE)
        necklaces = sum(cp.CARD_VALUE[t] for t in cards if cp.CARD_KIND[t] == cp.NECKLACE)
        gods = {cp.CARD_GOD[t] for t in cards if cp.CARD_KIND[t] in (cp.TREASURE, cp.IDOL)}
        gods.discard(-1)
        for kind, points in (
            ("score_treasures", treasures),
            ("score_idols", idol_points),
            ("score_necklaces", necklaces),
        ):
            if points:
                part(kind, points)
        if rolls:
            part("score_chests", sum(rolls), rolls=[str(r) for r in rolls])
        if gods:
            part("score_variety", cp.VARIETY_BONUS[len(gods)], gods=len(gods))
        if not parts and over:
            part("score_nothing", 0)
    else:
        if idols:
            part("score_idols", idol_points)
        if rolls:
            part("score_chests", sum(rolls), rolls=[str(r) for r in rolls])
        # Face-down cards may be treasures: what they are worth shows at the end. (All of
        # them count, chests too: which face-down cards are chests is not public, even
        # once their rolls are.)
        unseen = len(s.bag[seat]) + sum(card_hidden_to(s, t, viewer, seat) for t in s.hand[seat])
        if unseen and s.status[seat] not in (CRUSHED, SEALED, MUMMIFIED):
            part("score_cards_hidden", 0, cards=unseen)
            parts[-1]["hidden"] = True
    horus = int(cp.IDOL_CARD[cp.HORUS] in idols)
    tiebreak = [
        {
            "kind": "tiebreak_horus_idol",
            "value": horus,
            "text": s.game.message("tiebreak_horus_idol", {"value": horus}, seat),
        },
        {
            "kind": "tiebreak_idol_value",
            "value": idol_points,
            "text": s.game.message("tiebreak_idol_value", {"value": idol_points}, seat),
        },
    ]
    total = sum(p["points"] for p in parts)
    return {"seat": seat, "parts": parts, "total": total, "tiebreak": tiebreak}


def _score_part(
    s: HorusState, seat: int, kind: str, points: int, params: dict[str, Any]
) -> dict[str, Any]:
    full = {**params, "points": points}
    text = s.game.message(kind, full, seat)
    return {"kind": kind, "params": full, "points": points, "text": text}


# --- the board's geometry ------------------------------------------------------------------------
