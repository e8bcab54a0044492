"""Cheap play for searches: a default policy for rollouts and a guess at who wins.

Both work on a whole (determinized) state, so they may read every field, and both must
cost little more than a random step. The rollout policy plays a crude raider: walk in
toward the sarcophagi, open and empty what is in front, search the sand and the pond now
and then, and walk back out once loaded, wounded, late or once a block has fallen on or
beside an exit (one more may then close the way out), leaving only with something in
hand, when late or with the exits threatened (a random player walks straight out with
nothing, which makes rollouts say that every position is a shared zero).
``estimate_returns`` turns each seat's load, cards, wounds and way out into chances of
winning with weights fitted to the heuristic's own matches: it is what a search backs up
once its rollouts are cut short.
"""

from __future__ import annotations

import math
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
_EXIT_BLOCKS = tuple(
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
        exit_threatened = any(s.fallen[b] for b in _EXIT_BLOCKS)
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


#: What the position estimate reads of each seat in the game: the points it would carry
#: out (chests not yet rolled at a die's mean), whether it is still inside, its steps to
#: the nearest exit, those steps times the squared share of blocks down, its cards in
#: front, its wounds, the share of blocks down and its square, and whether a block is
#: down on an exit space or beside one (one more may then close the way out; the last
#: seven are 0 for a seat already out).
FEATURES = (
    "load",
    "inside",
    "steps",
    "late steps",
    "cards",
    "wounds",
    "fallen",
    "fallen²",
    "exit threatened",
)
#: Their weights, fitted (see ``estimate_returns``), and the weight of "nobody wins".
WEIGHTS = (
    0.070491,
    1.1719,
    -0.00028736,
    0.019204,
    0.027071,
    -0.098026,
    0.59055,
    0.3383,
    -0.29847,
)
W_NOBODY = 0.39266
_EXITS = tuple(cp.ENTRANCES)
_OUT = (0.0,) * (len(FEATURES) - 1)


def seat_features(s: HorusState) -> list[tuple[float, ...] | None]:
    """Per seat, the :data:`FEATURES` the estimate weighs (None: sealed, crushed or
    mummified, or not yet in the pyramid)."""
    f = (cp.NUM_BLOCKS - len(s.box)) / cp.NUM_BLOCKS
    down = tuple(b + 1 for b in range(cp.NUM_BLOCKS) if s.fallen[b])
    exits = heuristic.board_distances(down, _EXITS)
    threatened = float(any(s.fallen[b] for b in _EXIT_BLOCKS))
    rows: list[tuple[float, ...] | None] = []
    for seat in range(s.n):
        status = s.status[seat]
        if status != INSIDE and status != ESCAPED:
            rows.append(None)
            continue
        cards = [*s.hand[seat], *s.bag[seat]]
        chests = sum(1 for t in cards if cp.CARD_KIND[t] == cp.CHEST)
        load = s.points(seat) + 3.5 * (chests - len(s.chest_rolls[seat]))
        if status == ESCAPED:
            rows.append((load, *_OUT))
            continue
        steps = min(exits[s.square[seat]], 30) if s.square[seat] >= 0 else 30
        hand = s.hand[seat]
        wounds = sum(1 for t in hand if cp.CARD_KIND[t] == cp.WOUND)
        rows.append((load, 1.0, steps, steps * f * f, len(hand), wounds, f, f * f, threatened))
    return rows


def estimate_returns(s: HorusState) -> list[float]:
    """Each seat's chance of winning from here: a multinomial logit over the seats still
    in the game and "nobody wins", fitted by maximum likelihood to the winners of the
    heuristic's own matches.

    A seat's weight grows with what it would carry out (points, chests not yet rolled at
    a die's mean, the variety bonus) and, while it is inside, with what it may still
    find; it shrinks with its wounds and while a block lies on or beside an exit (on the
    present board the fit gives its cards and its walk to the nearest exit almost no
    weight). Sealed, crushed and mummified seats have none. The weights came from
    5,144 positions (every fifth decision) of 150 two-player and 50 three-player
    heuristic-only matches on the present board, 80% to fit and 20% to check: on the
    held-out positions, seats given 0.1-0.2 won 11% of the time, 0.4-0.5, 41%, 0.8-0.9,
    80% (``research/fit_horus_estimate.py 150 50`` repeats the fit). Earlier
    estimates, a hand count of loads, a share of the sarcophagi and a fitted sealing
    risk, then the heuristic's own plan values, were badly calibrated, and searches
    walked into their errors (docs/strength.md).
    """
    total = math.exp(W_NOBODY)
    weights = []
    for x in seat_features(s):
        w = 0.0 if x is None else math.exp(sum(a * b for a, b in zip(WEIGHTS, x, strict=True)))
        weights.append(w)
        total += w
    return [w / total for w in weights]
