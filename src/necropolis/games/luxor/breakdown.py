"""Luxor's score breakdown: each seat's six parts of the final scoring and the
sarcophagus tiebreak, as the viewer may know them (another seat's scarabs stay face down
until the end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.engine.language import SeatScore
from necropolis.games.luxor import scoring
from necropolis.games.luxor.components import (
    count_sets,
)

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState


_PARTS = ("score_track", "score_adventurers", "score_sarcophagi", "score_keys", "score_sets")


def score_breakdown(st: LuxorState, viewer: int | None = None) -> list[SeatScore]:
    """Per seat the six parts of the final scoring; during play the scarabs' values stay
    hidden (their part counts them at 0), so the total is what the seat would score now
    without them, except in ``viewer``'s own row, whose scarabs it has seen; at the end
    it is the score."""
    over = st.final is not None
    out: list[SeatScore] = []
    tiebreak = scoring.tiebreak(st)
    for seat in range(st.num_players):
        row = st.final[seat] if st.final is not None else scoring.score_breakdown(st, seat)
        parts = []
        for i, kind in enumerate(_PARTS):
            params: dict[str, Any] = {"points": row[i]}
            if kind == "score_keys":
                params["keys"] = st.keys[seat]
            elif kind == "score_sets":
                types = scoring.treasure_types(st, seat)
                params["sets"] = count_sets(types, st.wilds[seat])
            parts.append(_part(st, kind, params, row[i], seat))
        count = sum(st.scarabs[seat])
        if over or seat == viewer:
            parts.append(
                _part(st, "score_scarabs", {"points": row[5], "scarabs": count}, row[5], seat)
            )
        else:
            parts.append(_part(st, "score_scarabs_hidden", {"scarabs": count}, 0, seat))
            if count:
                parts[-1]["hidden"] = True
        total = sum(p["points"] for p in parts)
        value = tiebreak[seat]
        out.append(
            {
                "seat": seat,
                "parts": parts,
                "total": total,
                # (a seat without a sarcophagus ties at 0, said in words)
                "tiebreak": [
                    {
                        "kind": (
                            tie := "tiebreak_sarcophagus" if value else "tiebreak_no_sarcophagus"
                        ),
                        "value": value,
                        "text": st.game.message(tie, {"value": value}, seat),
                    }
                ],
            }
        )
    return out


#: The parts' sentences already written, by kind, seat and parameters (all small ints): the
#: server writes every seat's parts for every message it builds, and they seldom change.
#: Emptied when full.
_texts: dict[tuple[Any, ...], str] = {}
_TEXTS_MAX = 4096


def _part(
    st: LuxorState, kind: str, params: dict[str, Any], points: int, seat: int
) -> dict[str, Any]:
    key = (kind, seat, *params.values())
    text = _texts.get(key)
    if text is None:
        if len(_texts) >= _TEXTS_MAX:
            _texts.clear()
        text = _texts[key] = st.game.message(kind, params, seat)
    return {"kind": kind, "params": params, "points": points, "text": text}


# --- the board's geometry -----------------------------------------------------------------

#: The path is drawn as a rectangular spiral on a grid of GRID_W x GRID_H cells, running
#: clockwise from the bottom-left corner inwards so that the burial chamber lies at the
#: centre of the board, as on the printed board (see docs/rules/luxor.md).
