"""A hand-written strategy for Luxor (2018): plan the whole turn, judge where it leaves us.

How a good player thinks, and how the policy copies it:

- **Treasures are the big points.** A tile scores 1 to 6 at once and counts toward the
  sets (3, 7, 12, ... points), so one treasure is worth more than a dozen fields of walking.
  The policy therefore plans its whole turn (which end card, which adventurer, how far, the
  tile's choice, averaging over the die where a die is rolled) and keeps the plan whose end
  position it values most, so a move that takes a treasure wins over a pointless step.
- **Bodies on the big treasures.** A treasure needing two or three adventurers is credited
  in part to a seat that already has some of them standing on it, so the policy gathers
  adventurers there; the opponent's half-built claim counts for them, so snatching it
  counts double.
- **Sets.** A tile that brings the next complete set nearer is worth that set's step on the
  table, in part; wild tiles are counted as the scoring counts them (at most two a set).
- **Walls.** Every adventurer scores the wall beside it at the end. Early in the match a
  smooth measure of progress stands in for the banded wall points (the adventurer will go on
  anyway); as the end nears, the printed bands take over, and with the last round announced
  only they count.
- **Anubis statues.** A sleeping adventurer scores nothing; waking it (passing its statue)
  brings a body for the treasures and for "all forward", worth more the earlier it comes.
- **Keys before the chamber.** Nobody enters the burial chamber without a key: the first
  key is worth more than its end-of-match point to a seat whose adventurers near the
  chamber, and the chamber itself is worth its 13 wall points plus the sarcophagus.
- **Hand order.** Only the two end cards can be played, and the card drawn goes into the
  middle, so after this turn the next turn's ends are known: the policy adds what the better
  of those two cards could gain next turn (a second, shallow look), so that it keeps a
  useful card at an end rather than burying it.

Everything the policy reads is public or the seat's own: it draws one world consistent
with the seat's window (:meth:`SeatWindow.resample`) only to have a state to apply moves
to, and its judgement of a position (:func:`projection`) uses no other seat's hidden cards
or scarab values. The same judgement, turned into shares of the win, is the state's
:meth:`estimate_returns`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from necropolis.games.luxor import rules
from necropolis.games.luxor.components import (
    BURIAL_CHAMBER,
    FIELD_POINTS,
    NUM_FIELDS,
    NUM_STATUES,
    NUM_VARIANTS,
    OSIRIS_BASE,
    POINTS_PER_KEY,
    SARCOPHAGI,
    SCARAB_COUNTS,
    SCARAB_VALUES,
    TREASURE_BASE,
    TREASURE_NEED,
    TREASURE_POINTS,
    count_sets,
    set_points,
)

if TYPE_CHECKING:
    from necropolis.engine.protocol import State
    from necropolis.engine.seat import SeatWindow
    from necropolis.games.luxor.state import LuxorState

NF = NUM_FIELDS
CHAMBER = BURIAL_CHAMBER

#: The mean value of a scarab nobody has seen (the whole supply's average).
SCARAB_MEAN = sum(v * c for v, c in zip(SCARAB_VALUES, SCARAB_COUNTS, strict=True)) / sum(
    SCARAB_COUNTS
)

#: A smooth measure of progress: the wall points a straight line from the first scoring
#: field to the chamber would print. The bands of the real wall make a greedy planner
#: hop to band edges; the line does not, and it is what an adventurer's field is worth
#: while it still has many turns to walk on.
_SMOOTH: tuple[float, ...] = tuple(FIELD_POINTS[CHAMBER] * f / CHAMBER for f in range(NUM_FIELDS))


@dataclass(frozen=True, slots=True)
class Weights:
    """The judgement's weights, in points: what sets one luxor strategy apart from another.

    The heuristic bot plays :data:`HEURISTIC`, set by hand, the fixed reference every
    level is measured against; the levels (easy, medium, and hard's anchor) play
    :data:`LEVELS`, screened against it with ``research/tune_luxor_heuristic.py``
    (docs/strength.md, "luxor").
    """

    body: float = 1.2  # an active adventurer (not in the chamber) beyond its wall points
    sleeper: float = 0.6  # a sleeping adventurer, early (it shrinks as the end nears)
    partial: float = 0.35  # share of a treasure's points per adventurer standing on it
    set_near: float = 0.55  # share of the next set's step when one tile short of it
    set_far: float = 0.25  # ... when two tiles short
    first_key: float = 2.0  # the first key's worth beyond its point, near the chamber
    horus_card: float = 1.5  # a Horus card in hand (they move farther or cheaper)
    next_turn: float = 0.5  # share of what the next turn's better end card could gain


#: The heuristic's weights. In 200-match self-play trials, moving any one of them by a
#: half (next turn, partial claims, sleepers, bodies) changed nothing measurable.
HEURISTIC = Weights()
#: The levels' weights: a Horus card in hand worth a point, not a point and a half.
#: Against the heuristic, two players, seats alternated, each seed's deals met by every
#: weighting, it won 56.8% of 400 and 51.7% of 400 matches where the heuristic's own
#: weights won 46.8% and 45.8% (seeds 42 and 43; docs/strength.md, "luxor").
LEVELS = Weights(horus_card=1.0)


def time_left(st: LuxorState) -> float:
    """Roughly how much of the match is left, 1 at the start down to 0 at the last round.

    The match ends once two adventurers are in the chamber; the two adventurers nearest to
    it, among all seats, say how close that is.
    """
    if st.ending or st.final is not None:
        return 0.0
    n = st.num_players
    adv = st.adventurers
    lead: list[int] = []
    for f in range(CHAMBER, -1, -1):
        count = 0
        for p in range(n):
            count += adv[p * NF + f]
        while count and len(lead) < 2:
            lead.append(f)
            count -= 1
        if len(lead) >= 2:
            break
    while len(lead) < 2:
        lead.append(0)
    remaining = (CHAMBER - lead[0]) + (CHAMBER - lead[1])
    return min(1.0, remaining / (2.0 * CHAMBER))


def projection(st: LuxorState, p: int, me: int, left: float, w: Weights = HEURISTIC) -> float:
    """The points seat ``p`` may expect at the end, from what seat ``me`` may see, as the
    weights ``w`` judge it.

    ``left`` is :func:`time_left` of the position. Another seat's scarabs count at the
    supply's mean value; its hand is not read (only the public origins of its cards).
    """
    if st.final is not None:
        return float(st.final[p][-1])
    total = float(st.score[p])
    # Sets, with credit toward the next one.
    row = st.treasures[p]
    types = tuple(sum(row[t * NUM_VARIANTS : (t + 1) * NUM_VARIANTS]) for t in range(3))
    wild = st.wilds[p]
    k = count_sets(types, wild)
    total += set_points(k)
    step = set_points(k + 1) - set_points(k)
    if count_sets(types, wild + 1) > k:
        total += w.set_near * step
    elif count_sets(types, wild + 2) > k:
        total += w.set_far * step
    # Scarabs, keys, sarcophagi.
    if p == me or st.final is not None:
        total += sum(c * v for c, v in zip(st.scarabs[p], SCARAB_VALUES, strict=True))
    else:
        total += SCARAB_MEAN * sum(st.scarabs[p])
    keys = st.keys[p]
    total += POINTS_PER_KEY * keys
    for value, holder in zip(SARCOPHAGI, st.sarcophagi, strict=True):
        if holder == p:
            total += value
    # Adventurers: wall points, blended with smooth progress while time is left.
    adv = st.adventurers
    base = p * NF
    tiles = st.tiles
    near_chamber = False
    blend = 0.6 * left
    for f in range(NF):
        c = adv[base + f]
        if not c:
            continue
        if f == CHAMBER:
            total += c * FIELD_POINTS[CHAMBER]
            continue
        total += c * ((1.0 - blend) * FIELD_POINTS[f] + blend * _SMOOTH[f] + w.body * left)
        if f >= 30:
            near_chamber = True
        code = tiles[f]
        if TREASURE_BASE <= code < OSIRIS_BASE:
            kind = code - TREASURE_BASE
            need = TREASURE_NEED[kind]
            if c < need:
                total += w.partial * TREASURE_POINTS[kind] * c / need
    sleepers = sum(st.sleeping[p * NUM_STATUES : (p + 1) * NUM_STATUES])
    total += sleepers * w.sleeper * left
    if keys == 0 and near_chamber and st.key_supply > 0:
        total -= w.first_key * (1.0 - left)
    elif keys == 0 and near_chamber:
        total -= w.first_key
    # Horus cards in hand: their origin is public.
    horus = sum(1 for o in st.origins[p] if o < 3)
    total += w.horus_card * horus
    return total


def _pending_bonus(st: LuxorState, me: int, w: Weights) -> float:
    """What a reveal still waiting at the end of a planned turn brings the mover."""
    phase = st.phase
    if st.seat != me:
        return 0.0
    if phase == rules.P_SCARAB_DRAW:
        return SCARAB_MEAN
    if phase == rules.P_HORUS_DRAW:
        return w.horus_card
    return 0.0


def evaluate(st: LuxorState, me: int, w: Weights = HEURISTIC) -> float:
    """Seat ``me``'s expected points minus the strongest other seat's."""
    left = time_left(st)
    mine = projection(st, me, me, left, w) + _pending_bonus(st, me, w)
    best_other = max(projection(st, p, me, left, w) for p in range(st.num_players) if p != me)
    value = mine - best_other
    if st.final is not None:
        value += 100.0 * st.returns()[me]  # a won match outweighs any margin
    return value


_LEAF_PHASES = frozenset(
    {rules.P_DRAW, rules.P_HORUS_DRAW, rules.P_SCARAB_DRAW, rules.P_TEMPLE_REVEAL, rules.P_END}
)


def plan_value(st: LuxorState, me: int, look_ahead: bool, w: Weights = HEURISTIC) -> float:
    """The best value seat ``me`` can reach by the end of its turn in progress.

    Its own decisions are maximised over, a die roll averaged; the turn is judged when it
    is over or waits on a hidden reveal. With ``look_ahead``, what the next turn could add
    with the two end cards then left in hand is counted in part.
    """
    phase = st.phase
    if phase in _LEAF_PHASES or st.seat != me:
        return _leaf(st, me, look_ahead, w)
    if phase == rules.P_ROLL:
        total = 0.0
        for roll, prob in rules.chance_outcomes(st):
            child = st.clone()
            child.apply_legal_action(roll)
            total += prob * plan_value(child, me, look_ahead, w)
        return total
    best = -math.inf
    for action in rules.legal_actions(st):
        child = st.clone()
        child.apply_legal_action(action)
        value = plan_value(child, me, look_ahead, w)
        if value > best:
            best = value
    return best


def _leaf(st: LuxorState, me: int, look_ahead: bool, w: Weights) -> float:
    value = evaluate(st, me, w)
    if not look_ahead or st.final is not None or st.ending:
        return value
    return value + w.next_turn * _next_turn_gain(st, me, w)


def _next_turn_gain(st: LuxorState, me: int, w: Weights) -> float:
    """How much the better of the next turn's two end cards could add, as things stand."""
    hand = st.hands[me]
    if not hand:
        return 0.0
    trial = st.clone()
    # Pretend it is our turn again straight away, with the hand as it will be (the card
    # drawn goes into the middle, so the ends are already known).
    trial.phase = rules.P_PLAY
    trial.seat = me
    trial.card = -1
    trial.roll = 0
    trial.from_field = -1
    trial.one_fewer = False
    trial.no_draw = False  # the imagined turn stops at its draw, a leaf
    trial.options = []
    trial.pending = -1
    trial.ends_cache = None
    if len(hand) < 2:
        return 0.0
    # Measured from the imagined turn's own start, so that a reveal still pending in the
    # real position (a scarab, a Horus card) is not counted as lost.
    now = evaluate(trial, me, w)
    best = 0.0
    for action in rules.legal_actions(trial):
        child = trial.clone()
        child.apply_legal_action(action)
        gain = plan_value(child, me, False, w) - now
        if gain > best:
            best = gain
    return best


def policy(window: SeatWindow, rng: random.Random) -> int:
    """The heuristic's decision for the seat behind ``window``."""
    return decide(window, rng, HEURISTIC)


def levels_policy(window: SeatWindow, rng: random.Random) -> int:
    """The decision of the strategy the levels play (:data:`LEVELS`)."""
    return decide(window, rng, LEVELS)


def decide(window: SeatWindow, rng: random.Random, w: Weights) -> int:
    """The decision of the strategy the weights ``w`` set, for the seat behind ``window``."""
    actions = window.legal_actions()
    if len(actions) == 1:
        return actions[0]
    from necropolis.games.luxor.state import LuxorState

    world = window.resample(rng)
    assert isinstance(world, LuxorState)
    return _best_move(world, actions, window.seat, True, rng, w)


def _best_move(
    world: LuxorState,
    actions: list[int],
    me: int,
    look_ahead: bool,
    rng: random.Random,
    w: Weights = HEURISTIC,
) -> int:
    """The action whose best plan for the rest of the turn is worth the most to ``me``;
    equal ones are drawn between."""
    best: list[int] = []
    best_value = -math.inf
    for action in actions:
        child = world.clone()
        child.apply_legal_action(action)
        value = plan_value(child, me, look_ahead, w)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


class Planner:
    """The policy's turn planning for the searches that play worlds a round on
    (:class:`~necropolis.bots.rollout.RolloutBot`, :class:`~necropolis.bots.plans.PlanBot`).

    A move is the first step of the best plan for the rest of the turn, without the
    glance at the next turn (the rollout plays that turn instead, which costs a tenth
    as much as the glance); a position is worth the best plan the seat can make from it,
    which at the start of its turn counts what the hand it holds can do; where a plan
    for the turn ends is rated as the policy rates it, with the glance.
    """

    def act(self, state: State, rng: random.Random) -> int:
        world = cast("LuxorState", state)  # the planner is only given luxor's states
        actions = rules.legal_actions(world)
        if len(actions) == 1:
            return actions[0]
        return _best_move(world, actions, world.seat, False, rng)

    def value(self, state: State, seat: int) -> float:
        return plan_value(cast("LuxorState", state), seat, False)

    def worth(self, state: State, seat: int) -> float:
        # The policy's own measure, its glance at the next turn included.
        return plan_value(cast("LuxorState", state), seat, True)


__all__ = [
    "HEURISTIC",
    "LEVELS",
    "Planner",
    "Weights",
    "decide",
    "evaluate",
    "levels_policy",
    "plan_value",
    "policy",
    "projection",
    "time_left",
]
