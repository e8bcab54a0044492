"""Luxor (2001) described for a learned judgement, from one seat's view.

What a player weighs when asking who is ahead: the sarcophagi each seat holds (values it
has seen, the eyes' mean for the rest), the pillars each seat's researchers hold with the
scarabs gathered toward their next sarcophagus, whether the viewer's own pharaoh pillar
is held, the researchers still in supply, the seat's own hand by animal, how far the
wall has filled, and what the last insertion has still to score (its pairs, scarabs, a
researcher to move, a pillar being opened: a one-ply look at an insertion sees its
position before it is scored). Everything comes from the view
(:func:`~.view.build_view`), so nothing a seat may not see can reach the judgement;
seats are listed from the viewer on, as :class:`~necropolis.engine.protocol.Features`
asks.
"""

from __future__ import annotations

from necropolis.engine.protocol import View
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CARDS,
    HAND_SIZE,
    NUM_ANIMALS,
    NUM_CARDS,
    NUM_CURSES,
    NUM_SCARABS,
    PHARAOH_BONUS,
    RESEARCHERS,
    STACK_HEIGHT,
    VALUE_EYES,
    VALUE_POINTS,
    WALL_CARDS,
)
from necropolis.games.luxor2001.heuristic import EYE_MEAN

_ANIMAL = {name: i for i, name in enumerate(ANIMALS)}
_PHASES = len(rules.PHASE_NAMES)
_PHASE = {name: i for i, name in enumerate(rules.PHASE_NAMES)}
_POINTS = {(e, p) for e, p in zip(VALUE_EYES, VALUE_POINTS, strict=True)}
#: Per seat: points held, sarcophagi held, points not yet seen (eyes' mean), researchers in
#: supply, hand size, pillars held with sarcophagi left, their scarabs' promise, scarabs on
#: emptied pillars, the pharaoh bonus standing (the viewer's own only; others' unknown).
_PER_SEAT = 9
#: Per pillar: the occupant (one column per seat), scarabs, sarcophagi left, the next
#: one's mean points, whether it is the viewer's pharaoh animal.
_PER_PILLAR_BASE = 4
#: Global: wall filled, cards to draw, scarabs in supply, the two variants, the phase.
_GLOBAL = 5 + _PHASES
#: An insertion's pairs not yet scored (per animal and kind), scarabs it placed, the
#: researcher to move and the pillar being opened, each per animal.
_PENDING = 5 * NUM_ANIMALS


class Luxor2001Features:
    """The judgement's numbers for a Luxor (2001) view (see the module's docstring)."""

    nobody: bool = False
    #: Sarcophagi are worth 1 to 8 points and the pharaoh 5: matches are won by a few
    #: points to a dozen or so.
    margin_scale: float = 10.0

    def size(self, players: int) -> int:
        # the seat to act and the seat whose turn it is, one column per seat each; then the
        # pillars, the seats, the own hand (each card's two animals) and what an insertion
        # has still to score.
        pillars = NUM_ANIMALS * (_PER_PILLAR_BASE + players)
        return _GLOBAL + 2 * players + pillars + _PER_SEAT * players + 2 * NUM_ANIMALS + _PENDING

    def encode(self, view: View) -> list[float]:
        n: int = view["players"]
        me: int = view["seat"]
        rel = [(s - me) % n for s in range(n)]  # absolute seat -> position from the viewer
        out: list[float] = []
        add = out.extend
        wall = sum(view["heights"])
        add(
            [
                wall / WALL_CARDS,
                view["draw_pile"] / (NUM_CARDS + NUM_CURSES),
                view["scarab_supply"] / NUM_SCARABS,
                float(view["variants"]["curse"]),
                float(view["variants"]["sphinx"]),
            ]
        )
        phase = [0.0] * _PHASES
        phase[_PHASE[view["phase"]]] = 1.0
        add(phase)
        acting = [0.0] * n
        current = view["current_player"]
        if current >= 0:
            acting[rel[current]] = 1.0
        add(acting)
        turn = [0.0] * n
        turn[rel[view["turn"]]] = 1.0
        add(turn)
        own_pharaoh = _ANIMAL[view["pharaoh"]] if view["pharaoh"] else -1
        held = [0.0] * n
        promise = [0.0] * n
        empty = [0.0] * n
        standing = [0.0] * n
        for a, pillar in enumerate(view["pillars"]):
            occupant = pillar["researcher"]
            who = [0.0] * n
            scarabs = pillar["scarabs"]
            stack = pillar["sarcophagi"]  # eye counts, top first
            next_mean = EYE_MEAN[stack[0]] if stack else 0.0
            if occupant is not None:
                r = rel[occupant]
                who[r] = 1.0
                if stack:
                    held[r] += 1.0
                    promise[r] += next_mean * scarabs / 3
                else:
                    empty[r] += scarabs
                if r == 0 and a == own_pharaoh:
                    standing[0] = 1.0
            add(who)
            add(
                [
                    scarabs / 3,
                    len(stack) / STACK_HEIGHT,
                    next_mean / 8,
                    float(a == own_pharaoh),
                ]
            )
        supply = view["researchers_in_supply"]
        sizes = view["hand_sizes"]
        sarcophagi = view["sarcophagi"]
        for r in range(n):
            s = (me + r) % n
            seen = unseen = 0.0
            for eyes, points in sarcophagi[s]:
                if points is not None and (eyes, points) in _POINTS:
                    seen += points
                else:
                    unseen += EYE_MEAN[eyes]
            add(
                [
                    seen / 20,
                    len(sarcophagi[s]) / 7,
                    unseen / 20,
                    supply[s] / RESEARCHERS,
                    sizes[s] / HAND_SIZE,
                    held[r] / 4,
                    promise[r] / 8,
                    empty[r] / 6,
                    standing[r] * PHARAOH_BONUS / 5,
                ]
            )
        animals = [0.0] * (2 * NUM_ANIMALS)
        for card in view["hand"] or []:
            top, _, bottom, _ = CARDS[card]
            animals[top] += 1 / HAND_SIZE
            animals[NUM_ANIMALS + bottom] += 1 / HAND_SIZE
        add(animals)
        # What the last insertion has still to score, by animal: its pairs (two kinds) not
        # yet placed, the scarabs it placed, a researcher to move, a pillar being opened.
        pending = [0.0] * _PENDING
        for token in view["pairs_pending"]:
            pending[token] += 0.5
        for a, placed in enumerate(view["scarabs_placed_now"]):
            pending[2 * NUM_ANIMALS + a] = placed / 2
        if view["relocating_for"] is not None:
            pending[3 * NUM_ANIMALS + view["relocating_for"]] = 1.0
        if view["opening"] is not None:
            pending[4 * NUM_ANIMALS + view["opening"]] = 1.0
        add(pending)
        return out


FEATURES = Luxor2001Features()
