"""Cheap play for searches: a default policy for rollouts (the guess at who wins that
their searches back up is in :mod:`.estimate`).

It works on a whole (determinized) state, so it may read every field, and it must cost
little more than a random step. It plays a crude raider: walk in
toward the sarcophagi, open and empty what is in front, search the sand and the pond now
and then, and walk back out once loaded, wounded, late or once a block has fallen on or
beside an exit (one more may then close the way out), leaving only with something in
hand, when late or with the exits threatened (a random player walks straight out with
nothing, which makes rollouts say that every position is a shared zero).
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
)

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

#: Steps to an exit and to a sarcophagus's square, on the open board (blocks make the
#: true way longer; the rollout then falls back on a random step).
EXIT_DIST = heuristic.board_distances((), tuple(cp.ENTRANCES))
SARC_DIST = heuristic.board_distances((), tuple(sq for _, sq in cp.SARCOPHAGI))
_VALUE = tuple(
    3.5 if cp.CARD_KIND[t] == cp.CHEST else float(cp.CARD_VALUE[t]) if cp.DISCARDABLE[t] else 0.0
    for t in range(cp.NUM_CARD_TYPES)
)
#: Blocks on the exit spaces and on the squares beside them: once one is down, a single
#: further block may close the way out, and the rollout's raider heads for it.
EXIT_BLOCKS = tuple(
    b
    for b, sq in enumerate(cp.BLOCK_SQUARE)
    if sq in cp.ENTRANCES or any(nb in cp.ENTRANCES for nb in cp.NEIGHBOURS[sq])
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
        exit_threatened = any(s.fallen[b] for b in EXIT_BLOCKS)
        heading_out = (
            loot >= 14
            or fallen >= 14
            or (loot > 0 and fallen >= 10)
            or exit_threatened
            or sum(1 for t in s.hand[seat] if _IS_WOUND[t]) >= 4
        )
        if heading_out and (loot > 0 or fallen >= 16 or exit_threatened):
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
