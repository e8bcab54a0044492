"""The Luxor state: plain slotted fields of ints, lists, bytes and tuples, cloned by hand.

A position is the tiles on the 43 fields, each player's adventurers counted per field, the
sleeping adventurers at the Anubis statues, the hands (card kinds in their fixed order, with
the public origin of each card), the piles and supplies held as counts of kinds, and the
little state of the turn in progress. Hidden draws are never decided early: the draw pile,
the Horus decks, the temple stacks and the scarab supply are multisets of what is left, and
a chance node picks from them when the thing is revealed. The rules live in ``rules.py``,
views and determinizations in ``view.py``, text in ``text.py``; this class only wires them
to the kernel's protocol.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from necropolis.engine.protocol import CHANCE, TERMINAL, State, View, winners_share
from necropolis.games.luxor import (
    breakdown,
    estimate,
    prompts,
    rules,
    scoring,
    text,
    view,
)
from necropolis.games.luxor.components import (
    ACTIVE_AT_START,
    ADVENTURERS,
    FIELD_HORUS_LEVEL,
    HORUS_DECKS,
    HORUS_TILE_BASE,
    KEYS,
    NUM_FIELDS,
    NUM_STATUES,
    NUM_TREASURE_KINDS,
    OSIRIS_COUNTS,
    SCARAB_COUNTS,
    STAIRS,
    STARTING_CARDS,
    TEMPLE_STACKS,
    TREASURE_COUNTS,
    WILD_TREASURES,
)

#: The decisions that give their seat something hidden (see ``_shows_hidden``).
SHOWS_HIDDEN = frozenset(
    (*range(rules.HORUS_LEVEL, rules.HORUS_LEVEL + 3), rules.TAKE_SCARAB, rules.TAKE_WILD)
)

if TYPE_CHECKING:
    from necropolis.engine.language import ActionInfo, Prompt, SeatScore
    from necropolis.engine.protocol import Game


class LuxorState(State):
    """One position of a Luxor match; see the module docstring for the fields' meaning."""

    __slots__ = (
        "adventurers",
        "card",
        "deal_index",
        "discard",
        "draw_counts",
        "draw_size",
        "ending",
        "ends_cache",
        "entries",
        "epoch",
        "final",
        "from_field",
        "hands",
        "horus_counts",
        "key_supply",
        "keys",
        "keys_paid",
        "no_draw",
        "no_move_turns",
        "num_players",
        "one_fewer",
        "options",
        "origins",
        "osiris_left",
        "pending",
        "phase",
        "roll",
        "round",
        "sarcophagi",
        "scarab_supply",
        "scarabs",
        "score",
        "seat",
        "sleeping",
        "temple_counts",
        "tiles",
        "treasure_left",
        "treasures",
        "turns",
        "wild_supply",
        "wilds",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = game.num_players
        self.num_players: int = n
        #: rules.P_* : which step of setup or of a turn the match is at.
        self.phase: int = rules.P_DEAL
        #: The seat whose turn it is (during setup: the seat being dealt to).
        self.seat: int = 0
        #: Tile code on each field (components: 0 none, treasures, Osiris, Horus, temple).
        #: A tuple, which the rules replace (a tile is laid or taken about one action in
        #: seven): clones share it.
        self.tiles: tuple[int, ...] = tuple(
            HORUS_TILE_BASE + FIELD_HORUS_LEVEL[f] - 1 if FIELD_HORUS_LEVEL[f] else 0
            for f in range(NUM_FIELDS)
        )
        #: Active adventurers: entry ``seat * 43 + field`` counts that seat's on that field.
        #: Bytes, not a list: a clone copies them whole (a tenth of the time a list of
        #: ints takes), and no field ever holds more than a seat's adventurers.
        self.adventurers = bytearray(n * NUM_FIELDS)
        for s in range(n):
            self.adventurers[s * NUM_FIELDS + STAIRS] = ACTIVE_AT_START
        #: Entry ``seat * 3 + statue`` is 1 while that seat's adventurer lies at that statue.
        self.sleeping: tuple[int, ...] = (1,) * (n * NUM_STATUES)
        assert ACTIVE_AT_START + NUM_STATUES == ADVENTURERS
        #: Each hand's card kinds, left to right; the order never changes. Tuples, which
        #: the rules replace (a card or two a turn): a clone copies the outer list only.
        self.hands: list[tuple[int, ...]] = [()] * n
        #: Where each hand card came from (public): 0..2 a Horus deck level 1..3, 3 + e the
        #: draw pile of epoch e (epoch 0 is the first shuffle, +1 at every reshuffle).
        self.origins: list[tuple[int, ...]] = [()] * n
        #: Kinds left in the current draw pile (epoch ``epoch``), and their total.
        #: Counts as bytes, like the adventurers: a clone copies each in one block.
        self.draw_counts = bytearray(STARTING_CARDS)
        self.draw_size: int = sum(STARTING_CARDS)
        self.epoch: int = 0
        #: Kinds on the face-up discard pile.
        self.discard = bytearray(len(STARTING_CARDS))
        #: Kinds left in each Horus deck (level 1..3).
        self.horus_counts: tuple[tuple[int, ...], ...] = tuple(map(tuple, HORUS_DECKS))
        #: Fronts left in each temple stack (cobra, falcon, lion).
        self.temple_counts: tuple[tuple[int, ...], ...] = tuple(map(tuple, TEMPLE_STACKS))
        #: Setup only: Osiris tiles and treasure tiles not yet laid, counted by kind.
        self.osiris_left: tuple[int, ...] = tuple(OSIRIS_COUNTS)
        self.treasure_left: tuple[int, ...] = tuple(TREASURE_COUNTS)
        #: Setup only: how many cards or tiles have been dealt or laid so far.
        self.deal_index: int = 0
        #: Scarabs in the supply by value 1..4; each seat's scarabs by value.
        self.scarab_supply: tuple[int, ...] = tuple(SCARAB_COUNTS)
        self.scarabs: tuple[tuple[int, ...], ...] = ((0,) * len(SCARAB_COUNTS),) * n
        self.key_supply: int = KEYS
        self.keys: tuple[int, ...] = (0,) * n
        #: Keys laid on the key field by adventurers entering the burial chamber.
        self.keys_paid: int = 0
        self.wild_supply: int = WILD_TREASURES
        self.wilds: tuple[int, ...] = (0,) * n
        #: Treasure tiles each seat has taken, counted by kind.
        self.treasures: tuple[tuple[int, ...], ...] = ((0,) * NUM_TREASURE_KINDS,) * n
        #: The score track (treasure points during play; the final total at the end).
        self.score: tuple[int, ...] = (0,) * n
        #: Seat holding the 5-point and the 3-point sarcophagus, -1 while in the chamber.
        self.sarcophagi: tuple[int, ...] = (-1, -1)
        #: Adventurers that have entered the burial chamber, all seats together.
        self.entries: int = 0
        #: Set once the second adventurer has entered: the round is then the last one.
        self.ending: bool = False
        #: Turn in progress: the card played (-1 none), the die roll (0 none), the field the
        #: moving adventurer left (-1), the "one adventurer fewer" discount, whether a Horus
        #: card replaces this turn's draw, the choices offered (fields or levels) and the field
        #: or level waiting on a chance event (-1).
        self.card: int = -1
        self.roll: int = 0
        self.from_field: int = -1
        self.one_fewer: bool = False
        self.no_draw: bool = False
        self.options: list[int] = []
        self.pending: int = -1
        #: Whether the mover's leftmost and rightmost cards allow a move (None: not yet
        #: worked out since the last action); a cache, derived from the fields above.
        self.ends_cache: tuple[bool, bool] | None = None
        #: Consecutive turns in which the player could not move at all.
        self.no_move_turns: int = 0
        #: Completed rounds and completed turns.
        self.round: int = 0
        self.turns: int = 0
        #: Final scoring, per seat: [track, adventurers, sarcophagi, keys, sets, scarabs, total].
        self.final: list[list[int]] | None = None

    # --- protocol -----------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == rules.P_END:
            return TERMINAL
        if phase in rules.CHANCE_PHASES:
            return CHANCE
        return self.seat

    def _legal_actions(self, seat: int) -> list[int]:
        return rules.legal_actions(self)

    def is_legal(self, action: int) -> bool:
        if self.phase == rules.P_END:
            return False
        if self.phase in rules.CHANCE_PHASES:
            return any(a == action for a, _ in rules.chance_outcomes(self))
        return action in rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase not in rules.CHANCE_PHASES:
            return []
        return rules.chance_outcomes(self)

    def chance_kind(self) -> str:
        return rules.chance_kind(self)

    def _apply(self, action: int) -> None:
        rules.apply(self, action)

    def action_to_string(self, action: int) -> str:
        return text.action_to_string(self, action)

    def describe_action(self, action: int, observer: int | None) -> str:
        return text.describe_action(self, action, observer)

    # The table language lives in prompts.py and breakdown.py (the log: the rules'
    # events, told by narration.py); computed on demand, never while playing.
    def prompt(self, seat: int | None) -> Prompt | None:
        return prompts.prompt(self, seat)

    def action_info(self, action: int) -> ActionInfo:
        return prompts.action_info(self, action)

    def score_breakdown(self, viewer: int | None = None) -> list[SeatScore]:
        return breakdown.score_breakdown(self, viewer)

    def returns(self) -> list[float]:
        if self.final is None:
            return [0.0] * self.num_players
        return winners_share([row[-1] for row in self.final], scoring.tiebreak(self))

    def estimate_returns(self) -> list[float]:
        """Shares of the win guessed from projected points (see ``estimate.py``)."""
        if self.final is not None:
            return self.returns()
        return estimate.win_chances(self)

    def scores(self) -> list[float]:
        if self.final is not None:
            return [float(row[-1]) for row in self.final]
        return [float(s) for s in self.score]

    def clone(self) -> LuxorState:
        """A bare instance given a copy of every field: the lists copied (the
        method is quicker than a slice), the ints, bools and tuples shared. The fields
        that change only now and then (decks and stacks, what each seat has taken, the
        score track, the sleeping adventurers) are tuples, which the rules replace rather
        than change, so sharing them is safe."""
        new = self._clone_base()
        new.num_players = self.num_players
        new.phase = self.phase
        new.seat = self.seat
        new.tiles = self.tiles
        new.adventurers = self.adventurers.copy()
        new.sleeping = self.sleeping
        new.hands = self.hands.copy()
        new.origins = self.origins.copy()
        new.draw_counts = self.draw_counts.copy()
        new.draw_size = self.draw_size
        new.epoch = self.epoch
        new.discard = self.discard.copy()
        new.horus_counts = self.horus_counts
        new.temple_counts = self.temple_counts
        new.osiris_left = self.osiris_left
        new.treasure_left = self.treasure_left
        new.deal_index = self.deal_index
        new.scarab_supply = self.scarab_supply
        new.scarabs = self.scarabs
        new.key_supply = self.key_supply
        new.keys = self.keys
        new.keys_paid = self.keys_paid
        new.wild_supply = self.wild_supply
        new.wilds = self.wilds
        new.treasures = self.treasures
        new.score = self.score
        new.sarcophagi = self.sarcophagi
        new.entries = self.entries
        new.ending = self.ending
        new.card = self.card
        new.roll = self.roll
        new.from_field = self.from_field
        new.one_fewer = self.one_fewer
        new.no_draw = self.no_draw
        new.options = self.options.copy()
        new.pending = self.pending
        new.ends_cache = self.ends_cache
        new.no_move_turns = self.no_move_turns
        new.round = self.round
        new.turns = self.turns
        new.final = None if self.final is None else [row.copy() for row in self.final]
        return new

    def view(self, seat: int | None) -> View:
        return view.make_view(self, seat)

    def _resample(self, seat: int, rng: random.Random) -> LuxorState:
        return view.resample(self, seat, rng)

    def _shows_hidden(self, action: int) -> bool:
        # Taking a Horus card, a scarab or a wild card puts something hidden in the seat's
        # hand or in front of it; playing a card of its own hand, moving and a tile's
        # other actions show it nothing it did not know.
        return action in SHOWS_HIDDEN
