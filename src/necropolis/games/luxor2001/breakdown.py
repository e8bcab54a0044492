"""The score breakdown of Luxor (Baars, 2001): each seat's sarcophagi, scarabs and
pharaoh card as the viewer may know them (another seat's pharaoh card shows only at the
end), with the tiebreak.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.language import SeatScore
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ANIMALS,
    PHARAOH_BONUS,
    VALUE_EYES,
    VALUE_POINTS,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from necropolis.engine.protocol import Game
    from necropolis.games.luxor2001.state import LuxorState


def _part_adder(game: Game, parts: list[dict[str, Any]], seat: int) -> Callable[..., None]:
    def part(kind: str, points: int, params: dict[str, Any], hidden: bool = False) -> None:
        text = game.message(kind, params, seat)
        parts.append({"kind": kind, "params": params, "points": points, "text": text})
        if hidden:
            parts[-1]["hidden"] = True

    return part


def score_breakdown(st: LuxorState, viewer: int | None = None) -> list[SeatScore]:
    """Per seat, parts that add up to its score, as ``viewer`` may know them.

    During play every sarcophagus value and pharaoh card is hidden from some seat, so a
    row lists only the closed sarcophagi and the secret pharaoh card (hidden parts, worth
    0 until they are turned up), except ``viewer``'s own: one part per sarcophagus it has
    looked at, the rest closed, and its pharaoh card's part as things stand. A value
    ``viewer`` saw in another seat's hands (a sarcophagus it gave up to a curse) stays out
    of that seat's row. At the end one part per sarcophagus and the pharaoh card's part,
    for every viewer.
    """
    game = st.game
    ended = st.phase == rules.END
    out: list[SeatScore] = []
    for seat in range(st.n):
        parts: list[dict[str, Any]] = []
        part = _part_adder(game, parts, seat)

        held = sorted(st.held[seat], key=lambda c: (VALUE_EYES[c & 7], VALUE_POINTS[c & 7]))
        if seat == viewer and not ended:
            closed = []
            for code in held:
                if code >> 3 & (1 << seat):
                    value = code & 7
                    eyes, points = VALUE_EYES[value], VALUE_POINTS[value]
                    part("part_sarcophagus", points, {"eyes": eyes, "points": points})
                else:
                    closed.append(VALUE_EYES[code & 7])
            if closed:
                closed_params = {"count": len(closed), "eyes": closed}
                part("part_sarcophagi_closed", 0, closed_params, hidden=True)
            animal = st.pharaoh[seat]
            if animal >= 0 and st.occupant[animal] == seat:
                part("part_pharaoh_bonus", PHARAOH_BONUS, {"animal": ANIMALS[animal]})
            elif animal >= 0:
                part("part_pharaoh_none", 0, {"animal": ANIMALS[animal]})
        elif ended:
            for code in held:
                value = code & 7
                eyes, points = VALUE_EYES[value], VALUE_POINTS[value]
                part("part_sarcophagus", points, {"eyes": eyes, "points": points})
            animal = st.pharaoh[seat]
            if st.occupant[animal] == seat:
                part("part_pharaoh_bonus", PHARAOH_BONUS, {"animal": ANIMALS[animal]})
            else:
                part("part_pharaoh_none", 0, {"animal": ANIMALS[animal]})
        else:
            if held:
                eyes_list = [VALUE_EYES[c & 7] for c in held]
                closed_params = {"count": len(held), "eyes": eyes_list}
                part("part_sarcophagi_closed", 0, closed_params, hidden=True)
            if st.pharaoh[seat] >= 0:
                # Another seat's pharaoh card is secret: its bonus may be 0 or the full one.
                part("part_pharaoh_hidden", 0, {"bonus": PHARAOH_BONUS}, hidden=True)
        count = len(st.held[seat])
        tiebreak = {
            "kind": "tiebreak_sarcophagi",
            "value": count,
            "text": game.message("tiebreak_sarcophagi", {"value": count}, seat),
        }
        total = sum(p["points"] for p in parts)
        out.append({"seat": seat, "parts": parts, "total": total, "tiebreak": [tiebreak]})
    return out


# --- the board's geometry ----------------------------------------------------------------
