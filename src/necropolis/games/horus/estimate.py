"""The position estimate of The Pyramid of Horus: each seat's chance of winning from an
unfinished position, which searches back up once their rollouts are cut short.

:func:`win_chances` turns each seat's load, cards, wounds and way out into chances of
winning with weights fitted to the heuristic's own matches. It works on a whole
(determinized) state and may read every field.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from necropolis.games.horus import components as cp
from necropolis.games.horus import heuristic
from necropolis.games.horus.codes import ESCAPED, INSIDE, UNPLACED
from necropolis.games.horus.playout import EXIT_BLOCKS

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

#: What the position estimate reads of each seat in the game: the points it would carry
#: out (chests not yet rolled at a die's mean), whether it is still inside, its steps to
#: the nearest exit, those steps times the squared share of blocks down, its cards in
#: front, its wounds, the share of blocks down and its square, and whether a block is
#: down on an exit space or beside one (one more may then close the way out; these seven
#: are 0 for a seat already out); then its load times the share of blocks down and its
#: square, for every seat in the game: a lead in points means little while the pyramid
#: stands and nearly everything once it is falling.
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
    "load × fallen",
    "load × fallen²",
)
#: Their weights, fitted (see :func:`win_chances`), and the weight of "nobody wins".
WEIGHTS = (
    0.021572,
    2.4008,
    0.019831,
    -0.038625,
    -0.17673,
    -0.0086656,
    -0.28848,
    -0.51903,
    -0.77769,
    0.27918,
    0.19862,
)
W_NOBODY = 1.5291
_EXITS = tuple(cp.ENTRANCES)
#: The features after the load that a seat already out does not have.
_OUT = (0.0,) * (len(FEATURES) - 3)


def seat_features(s: HorusState) -> list[tuple[float, ...] | None]:
    """Per seat, the :data:`FEATURES` the estimate weighs (None: sealed, crushed or
    mummified). A seat whose adventurer is not placed yet counts as one just in, at an
    exit with nothing: leaving it out gave it no chance at all, so that the analysis of
    every match began with the seats still choosing at 0% and booked their placing as
    luck."""
    f = (cp.NUM_BLOCKS - len(s.box)) / cp.NUM_BLOCKS
    down = tuple(b + 1 for b in range(cp.NUM_BLOCKS) if s.fallen[b])
    exits = heuristic.board_distances(down, _EXITS)
    threatened = float(any(s.fallen[b] for b in EXIT_BLOCKS))
    rows: list[tuple[float, ...] | None] = []
    for seat in range(s.n):
        status = s.status[seat]
        if status == UNPLACED:
            rows.append((0.0, 1.0, 0.0, 0.0, 0.0, 0.0, f, f * f, threatened, 0.0, 0.0))
            continue
        if status != INSIDE and status != ESCAPED:
            rows.append(None)
            continue
        cards = [*s.hand[seat], *s.bag[seat]]
        chests = sum(1 for t in cards if cp.CARD_KIND[t] == cp.CHEST)
        load = s.points(seat) + 3.5 * (chests - len(s.chest_rolls[seat]))
        if status == ESCAPED:
            rows.append((load, *_OUT, load * f, load * f * f))
            continue
        steps = min(exits[s.square[seat]], 30) if s.square[seat] >= 0 else 30
        hand = s.hand[seat]
        wounds = sum(1 for t in hand if cp.CARD_KIND[t] == cp.WOUND)
        rows.append(
            (
                load,
                1.0,
                steps,
                steps * f * f,
                len(hand),
                wounds,
                f,
                f * f,
                threatened,
                load * f,
                load * f * f,
            )
        )
    return rows


def win_chances(s: HorusState) -> list[float]:
    """Each seat's chance of winning from here: a multinomial logit over the seats still
    in the game and "nobody wins" (until a seat is out, after which somebody must win),
    fitted by maximum likelihood to the winners of the heuristic's own matches.

    A seat's weight grows with what it would carry out (points, chests not yet rolled at
    a die's mean, the variety bonus), the more so as the blocks fall (a lead in points
    counts some 0.02 a point while the pyramid stands, 0.5 once it is down: early leads
    are overtaken, late ones are not), and shrinks while a block lies on or beside an exit.
    Sealed, crushed and mummified seats have none; a seat not yet placed is weighed as one
    that has just come in. The weights came from every fifth decision of 2,000
    two-player and 700 three-player heuristic-only matches (44,537 and 25,100
    positions), 80% to fit and 20% to check (``research/fit_horus_estimate.py``, its
    defaults): on the held-out positions the log-likelihood of the winners is -0.7798 a
    position at two players and -1.1442 at three, where the weights before the load's
    interaction with the falling blocks (fitted on 150 and 50 matches) gave -0.8197 and
    -1.2098; seats given 0.0-0.2 won 7% of the time, 0.4-0.6 47%, 0.8-1.0 91% (two
    players). Earlier estimates, a hand count of loads, a share of the sarcophagi and a
    fitted sealing risk, then the heuristic's own plan values, were badly calibrated, and
    searches walked into their errors (docs/strength.md).
    """
    # Once a seat is out, somebody wins: "nobody" is no longer a way the match can end.
    total = 0.0 if ESCAPED in s.status else math.exp(W_NOBODY)
    weights = []
    for x in seat_features(s):
        w = 0.0 if x is None else math.exp(sum(a * b for a, b in zip(WEIGHTS, x, strict=True)))
        weights.append(w)
        total += w
    return [w / total for w in weights]
