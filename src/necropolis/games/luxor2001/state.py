"""The state of a Luxor (Baars, 2001) match: plain slotted fields and the protocol methods.

Fields are ints, lists of ints, and tuples for what changes only now and then (which the
rules replace rather than change), so that a clone is a handful of list copies. Hidden
things are kept in the form that makes deferred chance honest: the draw piles are only
the set of hieroglyph cards nobody has seen (a draw is a chance event over it), unopened
sarcophagi are only a count per pillar plus a pool of values not yet revealed (an opening
is a chance event over the pool of that eye count), and each sarcophagus a seat holds
carries a bitmask of the seats that have seen its value. Rules live in ``rules.py`` (what
they emit as events in ``events.py``), views, tensors and determinizations in ``view.py``,
the position estimate in ``estimate.py``, the terminal's text in ``text.py``, the table
language in ``narration.py`` (the log), ``prompts.py``, ``breakdown.py``,
``statistics.py`` and ``layout.py``.
"""

from __future__ import annotations

import random
from array import array
from typing import TYPE_CHECKING

from necropolis.engine.language import ActionInfo, Prompt, SeatScore
from necropolis.engine.protocol import State, View, winners_share
from necropolis.games.luxor2001 import breakdown, prompts, rules, text, view
from necropolis.games.luxor2001.components import (
    CELLS,
    CURSE_FIRST_PILE,
    NUM_ANIMALS,
    NUM_CARDS,
    NUM_CURSES,
    NUM_SCARABS,
    PHARAOH_BONUS,
    RESEARCHERS,
    SARCOPHAGUS_COUNTS,
    SHAFTS,
    STACK_HEIGHT,
    VALUE_POINTS,
)

if TYPE_CHECKING:
    from necropolis.games.luxor2001 import Luxor2001Game


class LuxorState(State):
    """One position of a Luxor (2001) match."""

    __slots__ = (
        "back",  # curse variant: back of pile 2's top card, -1 unknown/none, 0 card, 1 curse
        "curse",  # bool: the Pharaoh's curse variant is on
        "curse_card",  # the curse card being resolved, or -1
        "curses_left",  # curse card ids still in pile 2
        "curses_out",  # curse card ids revealed (out of the game), in order
        "deal_k",  # setup counter: pharaoh cards dealt, then hieroglyph cards dealt
        "dst_mask",  # final phase: bitmask of pillars that received a scarab this seat
        "final_k",  # final phase: how many seats have finished moving scarabs
        "final_seat",  # final phase: the seat moving scarabs, or -1
        "hands",  # per seat: a tuple of card ids
        "heights",  # per shaft: cards in it (0..5)
        "held",  # per seat: sarcophagi as value index | (seen-by bitmask << 3)
        "inserted",  # cards in the wall (0..40)
        "last_cells",  # bottom cell of the last inserted card, or -1
        "n",  # number of seats
        "need_card",  # the mover still has to draw after inserting
        "occupant",  # per pillar (animal): the seat of the researcher there, or -1
        "open_for",  # seat receiving the sarcophagus being opened, or -1
        "open_pillar",  # pillar whose top sarcophagus is being opened, or -1
        "passed",  # curse window: bitmask of seats that passed
        "pending",  # the pair token waiting for a relocation decision, or -1
        "pharaoh",  # per seat: pharaoh card animal, -1 before it is dealt
        "phase",  # rules.PHARAOH .. rules.END
        "pile",  # sorted ids of hieroglyph cards in the draw pile(s), unseen by all
        "pile1",  # curse variant: hieroglyph cards left in the first pile
        "pillar_order",  # the animals' pillar slots left to right (display only)
        "placed_now",  # per pillar: scarabs placed there during the current insertion
        "player",  # the seat whose turn it is (the mover, the drawer)
        "res_supply",  # per seat: researchers not on a pillar
        "resume",  # after an opening: rules.RESUME_TOKENS or rules.RESUME_FINAL
        "scarab_supply",  # scarabs on the stone slab
        "scarabs",  # per pillar: scarabs in front of it (0..3)
        "sphinx",  # bool: the eyes-of-the-Sphinx variant is on
        "src_mask",  # final phase: bitmask of pillars that gave a scarab this seat
        "stack",  # per pillar: sarcophagi left (the top one has 4 - stack eyes)
        "tokens",  # pairs formed by the last insertion not yet scored: animal * 2 + kind
        "value_pool",  # per value index: unopened sarcophagi of that value
        "victim",  # curse: the seat that gives a sarcophagus, or -1
        "wall",  # per cell (row * 8 + shaft, row 0 at the bottom): animal * 2 + facing, or -1
    )

    def __init__(self, game: Luxor2001Game) -> None:
        super().__init__(game)
        n = game.num_players
        self.n = n
        self.curse = bool(game.options["curse"])
        self.sphinx = bool(game.options["sphinx"])
        self.pillar_order: tuple[int, ...] = game.pillar_order
        # Signed bytes, not a list: a clone copies them in one block (a third of the time
        # 80 list items take), and a code fits a byte.
        self.wall = array("b", [-1] * CELLS)
        self.heights = [0] * SHAFTS
        self.inserted = 0
        self.last_cells = -1
        # Tuples, which the rules replace (a card a turn): a clone copies the outer list.
        self.hands: list[tuple[int, ...]] = [()] * n
        self.pharaoh: tuple[int, ...] = (-1,) * n
        self.occupant: tuple[int, ...] = (-1,) * NUM_ANIMALS
        self.res_supply: tuple[int, ...] = (RESEARCHERS,) * n
        self.scarabs = [0] * NUM_ANIMALS
        self.scarab_supply = NUM_SCARABS
        self.stack: tuple[int, ...] = (STACK_HEIGHT,) * NUM_ANIMALS
        self.held: tuple[tuple[int, ...], ...] = ((),) * n
        self.value_pool: tuple[int, ...] = SARCOPHAGUS_COUNTS
        self.pile = list(range(NUM_CARDS))
        self.pile1 = CURSE_FIRST_PILE if self.curse else 0
        self.curses_left: tuple[int, ...] = tuple(range(NUM_CURSES)) if self.curse else ()
        self.curses_out: tuple[int, ...] = ()
        self.back = -1
        self.phase = rules.PHARAOH
        self.player = 0  # the youngest player starts: seat 0
        self.deal_k = 0
        self.need_card = False
        self.tokens: tuple[int, ...] = ()
        self.placed_now = [0] * NUM_ANIMALS
        self.pending = -1
        self.open_pillar = -1
        self.open_for = -1
        self.resume = rules.RESUME_TOKENS
        self.curse_card = -1
        self.passed = 0
        self.victim = -1
        self.final_k = 0
        self.final_seat = -1
        self.src_mask = 0
        self.dst_mask = 0

    def clone(self) -> LuxorState:
        """A bare instance given a copy of every field: the lists copied (the
        method is quicker than a slice), the ints, bools and tuples shared. The fields
        that change only now and then (pharaoh cards, sarcophagi, the curse cards, the
        pillars' researchers and those in supply, the pairs waiting to score) are tuples,
        which the rules replace rather than change, so sharing them is safe. The wall is
        an array of bytes, copied in one block."""
        new = self._clone_base()
        new.n = self.n
        new.curse = self.curse
        new.sphinx = self.sphinx
        new.pillar_order = self.pillar_order
        new.wall = self.wall.__copy__()  # quicker than a slice
        new.heights = self.heights.copy()
        new.inserted = self.inserted
        new.last_cells = self.last_cells
        new.hands = self.hands.copy()
        new.pharaoh = self.pharaoh
        new.occupant = self.occupant
        new.res_supply = self.res_supply
        new.scarabs = self.scarabs.copy()
        new.scarab_supply = self.scarab_supply
        new.stack = self.stack
        new.held = self.held
        new.value_pool = self.value_pool
        new.pile = self.pile.copy()
        new.pile1 = self.pile1
        new.curses_left = self.curses_left
        new.curses_out = self.curses_out
        new.back = self.back
        new.phase = self.phase
        new.player = self.player
        new.deal_k = self.deal_k
        new.need_card = self.need_card
        new.tokens = self.tokens
        new.placed_now = self.placed_now.copy()
        new.pending = self.pending
        new.open_pillar = self.open_pillar
        new.open_for = self.open_for
        new.resume = self.resume
        new.curse_card = self.curse_card
        new.passed = self.passed
        new.victim = self.victim
        new.final_k = self.final_k
        new.final_seat = self.final_seat
        new.src_mask = self.src_mask
        new.dst_mask = self.dst_mask
        return new

    # --- protocol ---------------------------------------------------------------------------

    def current_player(self) -> int:
        return rules.current_player(self)

    def acting_seats(self) -> tuple[int, ...]:
        return rules.acting_seats(self)

    def _legal_actions(self, seat: int) -> list[int]:
        return rules.legal_actions(self, seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return rules.chance_outcomes(self)

    def chance_kind(self) -> str:
        return rules.chance_kind(self)

    def is_legal(self, action: int) -> bool:
        return rules.is_legal(self, action)

    def _apply(self, action: int) -> None:
        rules.apply(self, action)

    def action_to_string(self, action: int) -> str:
        return text.action_to_string(self, action)

    def describe_action(self, action: int, observer: int | None) -> str:
        return text.describe_action(self, action, observer)

    # --- the table language (on demand: prompts.py, breakdown.py; the log: narration.py) --

    def prompt(self, seat: int | None) -> Prompt | None:
        return prompts.prompt(self, seat)

    def action_info(self, action: int) -> ActionInfo:
        return prompts.action_info(self, action)

    def score_breakdown(self, viewer: int | None = None) -> list[SeatScore]:
        return breakdown.score_breakdown(self, viewer)

    def scores(self) -> list[float]:
        """Points so far: sarcophagus values, plus the pharaoh bonus where it applies."""
        out: list[float] = []
        for seat in range(self.n):
            points = sum(VALUE_POINTS[code & 7] for code in self.held[seat])
            animal = self.pharaoh[seat]
            if animal >= 0 and self.occupant[animal] == seat:
                points += PHARAOH_BONUS
            out.append(float(points))
        return out

    def estimate_returns(self) -> list[float]:
        """Each seat's chance of winning by the fitted estimate (:mod:`.estimate`).

        Searches back it up when they cut a rollout short.
        """
        if self.is_terminal():
            return self.returns()
        from necropolis.games.luxor2001.estimate import win_chances

        return win_chances(self)

    def returns(self) -> list[float]:
        if self.phase != rules.END:
            return [0.0] * self.n
        return winners_share(self.scores(), [len(h) for h in self.held])

    def view(self, seat: int | None) -> View:
        return view.build_view(self, seat)

    def _shows_hidden(self, action: int) -> bool:
        # Every hidden thing a seat comes to know (a card drawn, a sarcophagus opened, a
        # curse turned up, a sarcophagus handed over) comes through a chance event or
        # another seat's decision; no decision of a seat's own shows it anything before
        # either, so a decision after which it acts alone again shows it nothing.
        return False

    def _resample(self, seat: int, rng: random.Random) -> LuxorState:
        return view.resample(self, seat, rng)
