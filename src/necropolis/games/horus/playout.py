"""Cheap play for searches: a default policy for rollouts and a guess at who wins.

Both work on a whole (determinized) state, so they may read every field, and both must
cost little more than a random step. The rollout policy plays a crude raider: walk in
toward the sarcophagi, open and empty what is in front, search the sand and the pond now
and then, and walk back out once loaded, wounded or late, leaving only with something in
hand or when late (a random player walks straight out with nothing, which makes rollouts
say that every position is a shared zero). ``estimate_returns`` turns each adventurer's
load, what it may still find, its way out and the blocks left into a chance of winning.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from necropolis.games.horus import components as cp
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
#: Per block fallen so far, squared: the chance that the next block cuts a way out.
HAZARD = 0.00035


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
#: The god a card counts toward the variety bonus (treasures and idols), or -1.
_SCORING_GOD = tuple(
    cp.CARD_GOD[t] if cp.CARD_KIND[t] in (cp.TREASURE, cp.IDOL) else -1
    for t in range(cp.NUM_CARD_TYPES)
)
_FIRST_IDOL = min(cp.IDOL_CARD)
assert all(cp.CARD_KIND[t] == cp.IDOL for t in range(_FIRST_IDOL, cp.NUM_CARD_TYPES))
_IS_WOUND = tuple(cp.CARD_KIND[t] == cp.WOUND for t in range(cp.NUM_CARD_TYPES))
_SEARCH_AREAS = (cp.SCORPION_PIT, cp.CROCODILE_POND)
#: The blocks of the Cobra Nest's top row (12 to 15), the only way from the sand to the
#: exits, and the squares beyond them (the nest's lower rows and the exits).
_GATES = tuple(
    b
    for b in range(cp.NUM_BLOCKS)
    if cp.AREA[cp.BLOCK_SQUARE[b]] == cp.COBRA_NEST
    and cp.SQUARE_POS[cp.BLOCK_SQUARE[b]][0]
    == min(cp.SQUARE_POS[sq][0] for sq in range(cp.NUM_SQUARES) if cp.AREA[sq] == cp.COBRA_NEST)
)
_BEYOND_GATES = tuple(
    cp.AREA[sq] == cp.ENTRANCE
    or (
        cp.AREA[sq] == cp.COBRA_NEST
        and cp.SQUARE_POS[sq][0] > cp.SQUARE_POS[cp.BLOCK_SQUARE[_GATES[0]]][0]
    )
    for sq in range(cp.NUM_SQUARES)
)


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


def _shut_in_risk(fallen: int, blocks: int, left: int) -> float:
    """The chance that ``blocks`` more blocks cut a square beyond the Cobra Nest off from
    the exits, with ``fallen`` down and ``left`` in the box.

    Fitted to the heuristic's sampled block orders over random boards: each block that
    falls cuts the way out with a chance of about 0.00035 times the square of the blocks
    already down (1 % with 5 down, 5 % with 12, 20 % with 24). The nest's top row is the
    bottleneck, but the sand ring and the pond's rim cut routes as well.
    """
    if blocks >= left:
        return 1.0  # the box runs out: the pyramid closes
    safe = 1.0
    for j in range(blocks):
        safe *= 1.0 - min(0.9, HAZARD * (fallen + j) ** 2)
    return 1.0 - safe


def estimate_returns(s: HorusState) -> list[float]:
    """Each seat's chance of winning from here, from loads, ways out and blocks left.

    An adventurer still inside is worth its load plus what it may still find (the
    sarcophagi left, shared among those inside, less as the blocks pile up and the
    farther it is from them), if it gets out: it needs the rounds its walk to an exit
    takes at its level, and it may be shut in meanwhile, the more likely the more blocks
    are down (once past the Cobra Nest's top row it is safe), or the box runs out.
    Sealed, crushed and mummified adventurers have no chance. A seat wins if it gets out
    and no other seat gets out with more.
    """
    n = s.n
    left = len(s.box)
    fallen = cp.NUM_BLOCKS - left
    inside = s.status.count(INSIDE)
    sarcs = sum(1 for k in s.sarc_state if k < 2)
    time_left = max(0.0, 1.0 - fallen / 22.0)
    share = min(sarcs * 8.5 / max(inside, 1), 25.0) * time_left * 0.6
    out_p = [0.0] * n
    value = [0.0] * n
    spread = [3.0] * n
    card_value = _VALUE
    god_of = _SCORING_GOD
    for seat in range(n):
        status = s.status[seat]
        if status != ESCAPED and status != INSIDE:
            continue
        cards = s.hand[seat] + s.bag[seat]
        gods = {god_of[t] for t in cards}
        gods.discard(-1)
        # chests at a die's mean until rolled (_VALUE counts them so), then as rolled
        rolls = s.chest_rolls[seat]
        load = (
            sum(card_value[t] for t in cards)
            + cp.VARIETY_BONUS[len(gods)]
            + sum(rolls)
            - 3.5 * len(rolls)
        )
        if status == ESCAPED:
            out_p[seat] = 1.0
            value[seat] = load
            continue
        hand = s.hand[seat]
        sq = s.square[seat]
        level = cp.WLL_TABLE[len(hand)]
        # hands are sorted and the idols are the last card types: a curse per idol
        cursed = sum(1 for t in hand if t >= _FIRST_IDOL) if hand and hand[-1] >= _FIRST_IDOL else 0
        rate = max(0.5, (cp.NUM_DICE - cursed) * (7 - level) / 6)
        blocks = math.ceil((EXIT_DIST[sq] + 1) / rate) - 1
        risk = 0.0 if _BEYOND_GATES[sq] else _shut_in_risk(fallen, blocks, left)
        out_p[seat] = max(0.01, (1.0 - risk) * 0.995**blocks)
        more = share / (1.0 + SARC_DIST[sq] / 10.0) if len(hand) < 10 else 0.0
        value[seat] = load + more
        spread[seat] = 5.0
    win = [0.0] * n
    for i in range(n):
        if out_p[i] == 0.0:
            continue
        w = out_p[i]
        for j in range(n):
            if j != i and out_p[j] > 0.0:
                x = (value[i] - value[j]) / max(spread[i], spread[j])
                beaten = 1.0 / (1.0 + math.exp(max(-30.0, min(30.0, x))))
                w *= 1.0 - out_p[j] * beaten
        win[i] = w
    total = sum(win)
    if total > 1.0:
        win = [w / total for w in win]
    return win
