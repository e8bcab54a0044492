"""The Pyramid of Horus described for a learned judgement, from one seat's view.

Per seat (the viewer first, then the seats after it): where it is (not yet in, inside,
out with its load, or lost: sealed, crushed or mummified), the load it would carry out as
the viewer sees it (:func:`~.heuristic.estimate_load`: visible cards exactly, face-down
ones at their back's mean), its cards, wounds and cursed idols, its walk to the nearest
exit around the fallen blocks and the chance of being shut in before it could be out
(read off the heuristic's sampled block orders, :func:`~.heuristic.cut_table`), the
mummies' threat to its square, its actions and level. Then what the table shares: the
share of blocks down, whether a block lies on or beside an exit, the round, the
sarcophagi and idols left, the decks, the phase and who acts. All of it is read from
the view (:func:`~.view.make_view`), so nothing a seat may not see reaches the judgement.
"""

from __future__ import annotations

import math

from necropolis.engine.protocol import View
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import ESCAPED, INSIDE, PHASE_NAMES, UNPLACED
from necropolis.games.horus.heuristic import (
    actions_per_round,
    board_distances,
    cut_risk,
    cut_table,
    estimate_load,
    mummy_threat,
)

_EXITS = tuple(cp.ENTRANCES)
#: Blocks on the exit spaces and beside them: one of these down, and one more may close
#: the way out.
_EXIT_BLOCKS = frozenset(
    b + 1
    for b, sq in enumerate(cp.BLOCK_SQUARE)
    if sq in cp.ENTRANCES or any(nb in cp.ENTRANCES for nb in cp.NEIGHBOURS[sq])
)
_WOUND = tuple(cp.CARD_KIND[t] == cp.WOUND for t in range(cp.NUM_CARD_TYPES))
_IDOL = tuple(cp.CARD_KIND[t] == cp.IDOL for t in range(cp.NUM_CARD_TYPES))
#: Sampled block orders behind the sealing risks: a third of the heuristic's, since a
#: table costs some milliseconds a board and self-play meets a new board every round.
RISK_SAMPLES = 16
_PER_SEAT = 16
_GLOBAL = 9 + len(PHASE_NAMES)


def _level(cards: int) -> int:
    return cp.WLL_TABLE[min(cards, cp.CARD_LIMIT)]


class HorusFeatures:
    """The judgement's numbers for a Pyramid of Horus view (see the module's docstring)."""

    #: A match ends with nobody out about one time in five between two good players.
    nobody: bool = True
    #: Loads carried out are some 10 to 40 points.
    margin_scale: float = 15.0

    def size(self, players: int) -> int:
        return _GLOBAL + players + _PER_SEAT * players

    def encode(self, view: View) -> list[float]:
        players = view["players"]
        n = len(players)
        me: int = view["seat"]
        fallen = tuple(view["fallen_blocks"])
        share = len(fallen) / cp.NUM_BLOCKS
        exits = board_distances(fallen, _EXITS)
        table = cut_table(fallen, view["block_set_aside_number"] or 0, RISK_SAMPLES)
        threat = mummy_threat(view)
        sarcophagi = view["sarcophagi"]
        out: list[float] = []
        add = out.extend
        add(
            [
                share,
                share * share,
                float(any(b in _EXIT_BLOCKS for b in fallen)),
                min(view["round"], 20) / 20,
                sum(1 for s in sarcophagi if s["state"] == "closed") / cp.NUM_SARCOPHAGI,
                sum(1 for s in sarcophagi if s["state"] == "open") / cp.NUM_SARCOPHAGI,
                len(view["idols_in_alcoves"]) / len(cp.GODS),
                view["decks"].get("sand", 0) / 20,
                view["decks"].get("water", 0) / 20,
            ]
        )
        phase = [0.0] * len(PHASE_NAMES)
        phase[view["phase_id"]] = 1.0
        add(phase)
        acting = [0.0] * n
        for s in view["acting_seats"]:
            acting[(s - me) % n] = 1.0
        add(acting)
        for r in range(n):
            p = players[(me + r) % n]
            status = p["status_id"]
            load = estimate_load(p)
            row = [
                float(status == UNPLACED),
                float(status == INSIDE),
                float(status == ESCAPED),
                float(status not in (UNPLACED, INSIDE, ESCAPED)),
                load / 40,
            ]
            if status != INSIDE:
                add([*row, *([0.0] * (_PER_SEAT - len(row)))])
                continue
            square = p["square"]
            cards = p["card_types"]
            count = p["card_count"]
            wounds = sum(1 for t in cards if _WOUND[t])
            idols = sum(1 for t in cards if _IDOL[t])
            steps = exits[square] if square is not None else 30
            steps = min(steps, 30)
            level = _level(count)
            rate = max(actions_per_round(level, idols), 0.5)
            rounds = math.ceil((steps + 1) / rate)
            times = table[square] if square is not None else (0,)
            add(
                [
                    *row,
                    count / cp.CARD_LIMIT,
                    wounds / 5,
                    idols / 3,
                    steps / 20,
                    steps * share * share / 20,
                    cut_risk(times, rounds),
                    cut_risk(times, 2),
                    cut_risk(times, 5),
                    threat[square] if square is not None else 0.0,
                    p["actions"] / 6,
                    level / 7,
                ]
            )
        return out


FEATURES = HorusFeatures()
