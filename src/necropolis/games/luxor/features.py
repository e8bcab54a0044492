"""Luxor (2018) described for a learned judgement, from one seat's view.

Per seat (the viewer first, then the seats after it): the points it may expect at the end
as the heuristic projects them from what the viewer sees (:func:`~.heuristic.projection`,
which counts another seat's scarabs at the supply's mean), its score track, the wall
points its adventurers stand on, how far its two leading adventurers are from the burial
chamber, its adventurers in the chamber, awake and asleep, its treasures by type, sets,
wild tiles, keys, scarabs, sarcophagi and Horus cards in hand. Then what the whole table
shares (the time left by the two leaders' distance, the round, whether the last round is
announced, the supplies), the phase, whose turn it is, the two end cards of the
viewer's own hand, the only ones it can play, and the turn in progress (the card played,
the die, what is left to choose: a one-ply look at a move sees the turn half done).
Everything is read from the view (:func:`~.view.make_view`), so nothing a seat may not
see can reach the judgement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from necropolis.engine.protocol import View
from necropolis.games.luxor import rules
from necropolis.games.luxor.components import (
    BURIAL_CHAMBER,
    FIELD_POINTS,
    KEYS,
    NUM_CARD_KINDS,
    NUM_FIELDS,
    NUM_STATUES,
    NUM_VARIANTS,
    OSIRIS_BASE,
    SARCOPHAGI,
    SCARAB_COUNTS,
    TREASURE_BASE,
    WILD_TREASURES,
    count_sets,
)
from necropolis.games.luxor.heuristic import LEVELS, projection, time_left

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState

_PHASES = len(rules.PHASE_NAMES)
_PHASE = {name: i for i, name in enumerate(rules.PHASE_NAMES)}
_PER_SEAT = 18
_GLOBAL = 7
#: The turn in progress beyond the card played: the die, one fewer step, no draw, and
#: how many choices are left.
_TURN = 4
_SCARABS = sum(SCARAB_COUNTS)


@dataclass(slots=True)
class _Seen:
    """The fields of a position that the heuristic's projection and time left read, filled
    from one seat's view: other seats' scarabs are only their counts (the projection
    counts them at the supply's mean), and no hand but the viewer's is here at all."""

    num_players: int
    final: list[list[int]] | None
    ending: bool
    score: list[int]
    treasures: list[list[int]]
    wilds: list[int]
    scarabs: list[list[int]]
    keys: list[int]
    sarcophagi: list[int]
    adventurers: list[int]
    tiles: list[int]
    sleeping: list[int]
    key_supply: int
    origins: list[list[int]]


def _seen(view: View) -> _Seen:
    n: int = view["players"]
    scarabs = [
        own if own is not None else [count]
        for own, count in zip(view["scarabs"], view["scarab_counts"], strict=True)
    ]
    return _Seen(
        num_players=n,
        final=view["final"],
        ending=view["ending"],
        score=[int(x) for x in view["scores"]],
        treasures=view["treasures"],
        wilds=view["wilds"],
        scarabs=scarabs,
        keys=view["keys"],
        sarcophagi=view["sarcophagi"],
        adventurers=[c for row in view["adventurers"] for c in row],
        tiles=view["tiles"],
        sleeping=[int(x) for row in view["sleeping"] for x in row],
        key_supply=view["key_supply"],
        origins=view["hand_origins"],
    )


class LuxorFeatures:
    """The judgement's numbers for a Luxor view (see the module's docstring)."""

    nobody: bool = False
    #: Two-player matches are won with about 95 points; the margins spread by about 13.
    margin_scale: float = 15.0

    def size(self, players: int) -> int:
        return _GLOBAL + _PHASES + 2 * players + _PER_SEAT * players + 3 * NUM_CARD_KINDS + _TURN

    def encode(self, view: View) -> list[float]:
        n: int = view["players"]
        me: int = view["seat"]
        seen = _seen(view)
        st = cast("LuxorState", seen)  # the projection reads only the fields _Seen has
        left = time_left(st)
        out: list[float] = []
        add = out.extend
        add(
            [
                left,
                min(view["round"], 40) / 40,
                float(view["ending"]),
                view["key_supply"] / KEYS,
                view["wild_supply"] / WILD_TREASURES,
                view["scarab_supply"] / _SCARABS,
                min(view["draw_pile"], 55) / 55,
            ]
        )
        phase = [0.0] * _PHASES
        phase[_PHASE[view["phase"]]] = 1.0
        add(phase)
        acting = [0.0] * n
        if view["current_player"] >= 0:
            acting[(view["current_player"] - me) % n] = 1.0
        add(acting)
        turn = [0.0] * n
        turn[(view["turn_seat"] - me) % n] = 1.0
        add(turn)
        tiles = seen.tiles
        for r in range(n):
            s = (me + r) % n
            row = view["adventurers"][s]
            wall = 0.0
            fields: list[int] = []
            partial = 0
            for f in range(NUM_FIELDS):
                c = row[f]
                if c:
                    wall += c * FIELD_POINTS[f]
                    fields.extend([f] * c)
                    if f != BURIAL_CHAMBER and TREASURE_BASE <= tiles[f] < OSIRIS_BASE:
                        partial += c
            fields.sort(reverse=True)
            lead = fields[0] if fields else 0
            second = fields[1] if len(fields) > 1 else 0
            treasures = view["treasures"][s]
            types = tuple(
                sum(treasures[t * NUM_VARIANTS : (t + 1) * NUM_VARIANTS]) for t in range(3)
            )
            horus = sum(1 for o in view["hand_origins"][s] if o < 3)
            sarcophagi = sum(
                v for v, holder in zip(SARCOPHAGI, seen.sarcophagi, strict=True) if holder == s
            )
            add(
                [
                    projection(st, s, me, left, LEVELS) / 100,
                    view["scores"][s] / 100,
                    wall / 100,
                    (BURIAL_CHAMBER - lead) / BURIAL_CHAMBER,
                    (BURIAL_CHAMBER - second) / BURIAL_CHAMBER,
                    row[BURIAL_CHAMBER] / 2,
                    (len(fields) - row[BURIAL_CHAMBER]) / 5,
                    sum(view["sleeping"][s]) / NUM_STATUES,
                    partial / 5,
                    types[0] / 5,
                    types[1] / 5,
                    types[2] / 5,
                    count_sets(types, view["wilds"][s]) / 4,
                    view["wilds"][s] / 2,
                    view["keys"][s] / 3,
                    view["scarab_counts"][s] / 6,
                    sarcophagi / 20,
                    horus / 3,
                ]
            )
        ends = [0.0] * (3 * NUM_CARD_KINDS)
        hand = view["hands"][me] or []
        if hand:
            ends[hand[0]] = 1.0
            ends[NUM_CARD_KINDS + hand[-1]] = 1.0
        # The turn in progress: the card played, the die, what is left to choose.
        if view["card_in_play"] is not None and view["card_in_play"] >= 0:
            ends[2 * NUM_CARD_KINDS + view["card_in_play"]] = 1.0
        add(ends)
        add(
            [
                view["roll"] / 6,
                float(bool(view["one_fewer"])),
                float(bool(view["no_draw"])),
                min(len(view["options"]), 10) / 10,
            ]
        )
        return out


FEATURES = LuxorFeatures()
