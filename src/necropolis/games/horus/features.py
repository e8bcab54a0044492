"""The Pyramid of Horus described for a learned judgement, from one seat's view.

Per seat (the viewer first, then the seats after it): where it is (not yet in, inside,
out with its load, or lost: sealed, crushed or mummified), the load it would carry out as
the viewer sees it (:func:`~.heuristic.estimate_load`: visible cards exactly, face-down
ones at their back's mean), its cards, wounds and cursed idols, its walk to the nearest
exit around the fallen blocks, the fewest squares still open to a block that any way out
from there crosses (none: no block can shut it in), the mummies' threat to its square,
its actions and level. Then what the table shares: the
share of blocks down, whether a block lies on or beside an exit, the round, the
sarcophagi and idols left, the decks, the phase and who acts. All of it is read from
the view (:func:`~.view.make_view`), so nothing a seat may not see reaches the judgement.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from necropolis.engine.protocol import View
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import ESCAPED, INSIDE, PHASE_NAMES, UNPLACED
from necropolis.games.horus.heuristic import (
    blocked_squares,
    board_distances,
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
_EXIT_SQUARE_BLOCKS = frozenset(cp.SQUARE_NUMBER[sq] for sq in cp.ENTRANCES)
_NUMBERED = tuple(cp.SQUARE_NUMBER[sq] > 0 for sq in range(cp.NUM_SQUARES))
_PER_SEAT = 14
_GLOBAL = 10 + len(PHASE_NAMES)


def _level(cards: int) -> int:
    return cp.WLL_TABLE[min(cards, cp.CARD_LIMIT)]


@lru_cache(maxsize=4096)
def crossings(fallen: tuple[int, ...]) -> tuple[int, ...]:
    """Per square, the fewest squares still open to a falling block (numbered, its block
    not down) that a way from there to an exit crosses, the square itself and the exit
    included; 99 where no way is left. A square whose way out crosses none can never be
    shut in (a 0-1 breadth-first search from the exits, remembered per board)."""
    blocked = blocked_squares(list(fallen))
    far = 99
    best = [far] * cp.NUM_SQUARES
    queue: deque[int] = deque()
    for e in _EXITS:
        if not blocked[e]:
            best[e] = int(_NUMBERED[e])
            queue.append(e)
    while queue:
        sq = queue.popleft()
        for nb in cp.NEIGHBOURS[sq]:
            if nb < 0 or blocked[nb]:
                continue
            cost = best[sq] + int(_NUMBERED[nb])
            if cost < best[nb]:
                best[nb] = cost
                if _NUMBERED[nb]:
                    queue.append(nb)
                else:
                    queue.appendleft(nb)
    return tuple(best)


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
        crossing = crossings(fallen)
        threat = mummy_threat(view)
        sarcophagi = view["sarcophagi"]
        out: list[float] = []
        add = out.extend
        add(
            [
                share,
                share * share,
                float(any(b in _EXIT_BLOCKS for b in fallen)),
                sum(1 for b in fallen if b in _EXIT_SQUARE_BLOCKS) / len(_EXITS),
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
            steps = min(exits[square], 30) if square is not None else 30
            crossed = min(crossing[square], 10) if square is not None else 10
            add(
                [
                    *row,
                    count / cp.CARD_LIMIT,
                    wounds / 5,
                    idols / 3,
                    steps / 20,
                    steps * share * share / 20,
                    crossed / 10,
                    threat[square] if square is not None else 0.0,
                    p["actions"] / 6,
                    _level(count) / 7,
                ]
            )
        return out


FEATURES = HorusFeatures()
