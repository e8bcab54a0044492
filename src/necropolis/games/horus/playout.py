"""Cheap play for searches: a default policy for rollouts and a guess at who wins.

Both work on a whole (determinized) state, so they may read every field, and both must
cost little more than a random step. The rollout policy plays a crude raider: walk in
toward the sarcophagi, open and empty what is in front, search the sand and the pond now
and then, and walk back out once loaded, wounded or late, leaving only with something in
hand or when late (a random player walks straight out with nothing, which makes rollouts
say that every position is a shared zero). ``estimate_returns`` is the heuristic's own
judgement of each seat's chances, read from each seat's view of the world, and costs far
more than a step: it is what a search backs up once its rollouts are cut short.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from necropolis.games.horus import components as cp
from necropolis.games.horus import heuristic
from necropolis.games.horus.codes import (
    A_DONE,
    A_LEAVE,
    A_MOVE,
    A_OPEN,
    A_PEEK,
    A_REROLL,
    A_SEARCH,
    A_USE_REACTION,
    D_LOCK,
    D_REACT,
    D_TURN,
    D_WLL,
    ESCAPED,
    INSIDE,
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

_FAR = 10**6


def _static_distances(targets: list[int]) -> tuple[int, ...]:
    """Steps to the nearest target on the board with no block down."""
    dist = [_FAR] * cp.NUM_SQUARES
    frontier = list(targets)
    for t in frontier:
        dist[t] = 0
    while frontier:
        nxt = []
        for sq in frontier:
            for nb in cp.NEIGHBOURS[sq]:
                if nb >= 0 and dist[nb] == _FAR:
                    dist[nb] = dist[sq] + 1
                    nxt.append(nb)
        frontier = nxt
    return tuple(dist)


#: Steps to an exit and to a sarcophagus's square, on the open board (blocks make the
#: true way longer; the rollout then falls back on a random step).
EXIT_DIST = _static_distances(list(cp.ENTRANCES))
SARC_DIST = _static_distances([sq for _, sq in cp.SARCOPHAGI])
_VALUE = tuple(
    3.5 if cp.CARD_KIND[t] == cp.CHEST else float(cp.CARD_VALUE[t]) if cp.DISCARDABLE[t] else 0.0
    for t in range(cp.NUM_CARD_TYPES)
)
_IS_WOUND = tuple(cp.CARD_KIND[t] == cp.WOUND for t in range(cp.NUM_CARD_TYPES))
_SEARCH_AREAS = (cp.SCORPION_PIT, cp.CROCODILE_POND)


def _loot(s: HorusState, seat: int) -> float:
    v = _VALUE
    return sum(v[t] for t in s.hand[seat]) + sum(v[t] for t in s.bag[seat])


def _step(s: HorusState, seat: int, legal: list[int], dist: tuple[int, ...]) -> int:
    """A move that brings the seat nearer by ``dist``, or -1."""
    here = dist[s.square[seat]]
    nbs = cp.NEIGHBOURS[s.square[seat]]
    for a in legal:
        if A_MOVE <= a < A_MOVE + 4 and dist[nbs[a - A_MOVE]] < here:
            return a
    return -1


def rollout_action(s: HorusState, rng: random.Random) -> int:
    """The crude raider's decision at a decision node (chance is the caller's)."""
    legal = s._legal_actions(s.node_seat)
    if len(legal) == 1:
        return legal[0]
    node = s.node
    if rng.random() < 0.1:  # some noise keeps the rollouts apart
        return legal[rng.randrange(len(legal))]
    if node == D_TURN:
        seat = s.node_seat
        if s.actions[seat] <= 0:
            return A_DONE
        loot = _loot(s, seat)
        fallen = cp.NUM_BLOCKS - len(s.box)
        heading_out = (
            loot >= 14
            or fallen >= 18
            or (loot > 0 and fallen >= 12)
            or sum(1 for t in s.hand[seat] if _IS_WOUND[t]) >= 4
        )
        if heading_out and (loot > 0 or fallen >= 22):
            if A_LEAVE in legal:
                return A_LEAVE
            move = _step(s, seat, legal, EXIT_DIST)
            if move >= 0:
                return move
        else:
            for a in legal:
                if A_OPEN <= a < A_PEEK:  # open or take, whatever is in front
                    return a
            if (
                A_SEARCH in legal
                and cp.AREA[s.square[seat]] in _SEARCH_AREAS
                and rng.random() < 0.25
            ):
                return A_SEARCH
            move = _step(s, seat, legal, SARC_DIST)
            if move >= 0:
                return move
        moves = [a for a in legal if A_MOVE <= a < A_MOVE + 4]
        if moves:
            return moves[rng.randrange(len(moves))]
        return A_DONE
    if node == D_WLL:
        return A_DONE
    if node == D_LOCK:
        return A_REROLL + 30 if A_REROLL + 30 in legal else A_DONE
    if node == D_REACT:
        return A_USE_REACTION if A_USE_REACTION in legal else legal[0]
    return legal[rng.randrange(len(legal))]


def estimate_returns(s: HorusState) -> list[float]:
    """Each seat's chance of winning from here, as the heuristic judges it.

    A seat still inside gets the worth of its best plan (a target and out, or out now),
    read from its own view of this (determinized) world: its chance to get out with more
    than everyone. A seat already out has a final load, so it wins exactly when no seat
    still inside beats it and no seat out has more: the one out with the most gets what
    the seats inside leave over, the others out nothing (ties share). Sealed, crushed and
    mummified seats get nothing. If the plans promise more than one whole win between
    them, the shares are scaled down to add up to one.

    This is far dearer than a step, but it prices being shut in as the heuristic's plans
    do (from sampled orders of the blocks still to fall), and it knows that a rival still
    inside raids on until it beats a load that is already out; a search backing up a
    cruder count took one more treasure whatever the blocks and was sealed in, and one
    that gave a load out a fixed chance left too early (docs/strength.md).
    """
    n = s.n
    win = [0.0] * n
    out: list[int] = []
    for seat in range(n):
        status = s.status[seat]
        if status == INSIDE:
            win[seat] = heuristic.win_estimate(s.view(seat), seat)
        elif status == ESCAPED:
            out.append(seat)
    if out:
        points = {seat: (s.points(seat), s.tiebreak(seat)) for seat in out}
        best = max(points.values())
        leaders = [seat for seat in out if points[seat] == best]
        left = max(0.0, 1.0 - sum(win))
        for seat in leaders:
            win[seat] = left / len(leaders)
    total = sum(win)
    return [w / total for w in win] if total > 1.0 else win
