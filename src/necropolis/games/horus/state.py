"""The state of a game of The Pyramid of Horus: slotted fields of ints, lists and tuples.

A position is the adventurers (square, status, cards in front, bag contents, ability
used, wound and load level, actions left), the mummies (section, place on the section's
path, facing, shot down), the fallen stone blocks and the blocks left in the box, the
sarcophagi and alcoves, the undrawn supply of every card type, the discard pile, the
round's dice, and the rule engine's own bookkeeping: the phase, whose turn it is, the node
awaited (a decision or a chance event) and a queue of pending events (a wound to hand
out, a jump away from a falling block, a seal check). The rules themselves live in
``rules.py`` (any action, the chance events and the round), ``actions.py`` (the
adventurers' decisions) and ``effects.py`` (what follows: wounds, blocks, locks), what
they emit as events in ``events.py``; views, tensors and resampling in ``view.py``; the
position estimate in ``estimate.py``, the rollouts' play in ``playout.py``; the terminal
in ``text.py``; the table language in ``narration.py``, ``prompts.py``, ``breakdown.py``,
``statistics.py`` and ``layout.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from necropolis.engine.protocol import (
    CHANCE,
    TERMINAL,
    State,
    View,
    sample_chance,
    winners_share,
)
from necropolis.games.horus import breakdown, estimate, playout, prompts, rules, text, view
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import (
    A_CLAIRVOYANCE,
    A_CROWBAR,
    A_DONE,
    A_LEAVE,
    A_LOCKPICKING,
    A_OPEN,
    A_PICK,
    A_REROLL,
    A_SEARCH,
    A_UDJAT,
    D_SETUP,
    D_TURN,
    ESCAPED,
    FIRST_CHANCE,
    N_TERMINAL,
    P_SETUP,
    UNPLACED,
)

if TYPE_CHECKING:
    from necropolis.games.horus import HorusGame

#: The decisions that draw or show their seat something hidden (see ``_shows_hidden``).
SHOWS_HIDDEN = frozenset(
    (
        A_SEARCH,
        *range(A_OPEN, A_PICK),
        *range(A_REROLL, A_REROLL + 31),
        A_CROWBAR,
        A_LOCKPICKING,
        A_UDJAT,
        A_CLAIRVOYANCE,
    )
)


class HorusState(State):
    """One position of The Pyramid of Horus."""

    __slots__ = (
        "ability_used",
        "actions",
        "adventurer",
        "alcove_idol",
        "bag",
        "box",
        "check_block",
        "chest_rolls",
        "chosen_block",
        "chosen_known",
        "dice",
        "dice_keeper",
        "discard",
        "fallen",
        "hand",
        "lock_dice",
        "lock_god",
        "lock_to_roll",
        "mummy_dice",
        "mummy_down",
        "mummy_facing",
        "mummy_pos",
        "mummy_seat",
        "mummy_section",
        "n",
        "node",
        "node_arg",
        "node_seat",
        "order",
        "peeked_by",
        "phase",
        "queue",
        "room_then",
        "round",
        "sarc_card",
        "sarc_state",
        "secrecy",
        "square",
        "stamina",
        "status",
        "supply",
        "turn_i",
        "udjat_round",
        "wll",
    )

    def __init__(self, game: HorusGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.n = n
        #: total secrecy optional rule (every wound and searched card face down)
        self.secrecy: bool = bool(game.options["total_secrecy"])
        self.adventurer: tuple[int, ...] = (-1,) * n  # adventurer index chosen by each seat
        self.square = [-1] * n  # square id of the adventurer's figure
        self.status: tuple[int, ...] = (UNPLACED,) * n
        self.hand: list[tuple[int, ...]] = [()] * n  # card types in front, sorted
        self.bag: tuple[tuple[int, ...], ...] = ((),) * n  # card types inside the Bags, sorted
        self.ability_used: tuple[bool, ...] = (False,) * n
        self.wll: tuple[int, ...] = (0,) * n  # wound and load level for this round
        # Stamina used this round (level lowered by one)
        self.stamina: tuple[bool, ...] = (False,) * n
        self.actions = [0] * n  # actions left this round
        self.chest_rolls: tuple[tuple[int, ...], ...] = ((),) * n  # dice rolled for chests
        starts = (
            cp.MUMMY_ALTERNATE_STARTS
            if game.options["alternate_mummy_starts"]
            else (cp.MUMMY_STARTS)
        )
        self.mummy_section = tuple(s for s, _, _ in starts)
        self.mummy_pos = tuple(p for _, p, _ in starts)  # index along the section's path
        self.mummy_facing = tuple(f for _, _, f in starts)  # +1 or -1 along the path
        self.mummy_down = (False,) * len(starts)  # shot down (Shoot) until phase 4
        self.mummy_seat = (-1,) * len(starts)  # the seat whose adventurer became this mummy
        self.fallen: tuple[bool, ...] = (False,) * cp.NUM_BLOCKS  # block number - 1 -> fallen
        # block numbers - 1 still in the box, sorted
        self.box: tuple[int, ...] = tuple(range(cp.NUM_BLOCKS))
        self.chosen_block = -1  # block set aside by Udjat/Clairvoyance for phase 5
        self.chosen_known = -1  # the seat that checked the chosen block, or -1
        self.check_block = -1  # block being checked (awaiting keep / put back)
        self.udjat_round = False  # an Udjat or Clairvoyance was used this round
        supply = list(cp.CARD_COUNT)  # undrawn cards of each type (decks, piles, pools)
        for t in cp.IDOL_CARD:
            supply[t] = 0
        self.supply: tuple[int, ...] = tuple(supply)
        self.alcove_idol = (True,) * len(cp.GODS)
        # 0 closed, 1 open with treasure, 2 emptied
        self.sarc_state = (0,) * cp.NUM_SARCOPHAGI
        self.sarc_card = (-1,) * cp.NUM_SARCOPHAGI  # content once drawn (peeked or opened)
        self.peeked_by = (-1,) * cp.NUM_SARCOPHAGI  # seat that looked inside (Linguistics)
        self.discard: list[int] = []  # sorted card types in the common discard pile
        self.dice = [0] * cp.NUM_DICE  # the action roll (0 = not rolled)
        self.mummy_dice = [0] * cp.NUM_DICE
        self.lock_god = -1  # idol whose lock is being picked, or -1
        self.lock_dice = (0,) * cp.NUM_DICE
        self.lock_to_roll = 0  # bitmask of lock dice still to roll
        self.dice_keeper = 0
        self.round = 0
        self.phase = P_SETUP
        self.order = tuple(range(n))  # turn order of this round, Dice Keeper first
        self.turn_i = 0
        self.queue: list[tuple[int, int, int]] = []
        self.room_then: tuple[int, int, int] | None = None
        self.node = D_SETUP
        self.node_seat = 0
        self.node_arg = 0

    # --- protocol ------------------------------------------------------------------------

    def current_player(self) -> int:
        node = self.node
        if node < FIRST_CHANCE:
            return self.node_seat
        if node == N_TERMINAL:
            return TERMINAL
        return CHANCE

    def _legal_actions(self, seat: int) -> list[int]:
        return rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return rules.chance_outcomes(self)

    def chance_kind(self) -> str:
        return rules.chance_kind(self)

    def is_legal(self, action: int) -> bool:
        if self.node == N_TERMINAL:
            return False
        if self.node >= FIRST_CHANCE:
            return any(a == action for a, _ in self.chance_outcomes())
        return action in self._legal_actions(self.node_seat)

    def _apply(self, action: int) -> None:
        rules.apply(self, action)

    def action_to_string(self, action: int) -> str:
        return text.action_text(self, action, None, full=True)

    def describe_action(self, action: int, observer: int | None) -> str:
        return text.action_text(self, action, observer, full=False)

    # --- the table language (prompts.py, breakdown.py; the log: narration.py) --------------

    def prompt(self, seat: int | None) -> dict[str, Any] | None:
        return prompts.prompt(self, seat)

    def action_info(self, action: int) -> dict[str, Any]:
        return prompts.action_info(self, action)

    def score_breakdown(self, viewer: int | None = None) -> list[dict[str, Any]]:
        return breakdown.score_breakdown(self, viewer)

    # --- outcome --------------------------------------------------------------------------

    def points(self, seat: int) -> int:
        """The archaeological value an escaped adventurer carries out, bonus included."""
        cards = [*self.hand[seat], *self.bag[seat]]
        total = sum(cp.CARD_VALUE[t] for t in cards if cp.CARD_KIND[t] != cp.WOUND)
        total += sum(self.chest_rolls[seat])
        gods = {cp.CARD_GOD[t] for t in cards if cp.CARD_KIND[t] in (cp.TREASURE, cp.IDOL)}
        gods.discard(-1)
        return total + cp.VARIETY_BONUS[len(gods)]

    def scores(self) -> list[float]:
        return [float(self.points(s)) if self.status[s] == ESCAPED else 0.0 for s in range(self.n)]

    def tiebreak(self, seat: int) -> tuple[int, int]:
        """Ties go to the Horus Idol's holder, then to the highest total of idol values."""
        idols = [t for t in self.hand[seat] if cp.CARD_KIND[t] == cp.IDOL]
        return (int(cp.IDOL_CARD[cp.HORUS] in idols), sum(cp.CARD_VALUE[t] for t in idols))

    def returns(self) -> list[float]:
        if self.node != N_TERMINAL or ESCAPED not in self.status:
            return [0.0] * self.n  # before the end, or the mummies won
        ranking = [
            float(self.points(s)) if self.status[s] == ESCAPED else -1.0 for s in range(self.n)
        ]
        return winners_share(ranking, [self.tiebreak(s) for s in range(self.n)])

    def estimate_returns(self) -> list[float]:
        """Each seat's chance of winning from here (see ``estimate.win_chances``)."""
        if self.node == N_TERMINAL:
            return self.returns()
        return estimate.win_chances(self)

    def rollout_action(self, rng: random.Random) -> int:
        """Chance by its odds; decisions by the crude raider of ``playout``."""
        if self.node >= FIRST_CHANCE:
            return sample_chance(self, rng)
        return playout.rollout_action(self, rng)

    # --- helpers used by the rules -------------------------------------------------------

    def wound_and_load_level(self, seat: int) -> int:
        """The seat's level for this round (after phase 1; Stamina included)."""
        return self.wll[seat]

    def wounds(self, seat: int) -> int:
        return sum(1 for t in self.hand[seat] if cp.CARD_KIND[t] == cp.WOUND)

    def bag_room(self, seat: int) -> int:
        return 2 * self.hand[seat].count(cp.BAG) - len(self.bag[seat])

    def can_make_room(self, seat: int) -> bool:
        hand = self.hand[seat]
        return bool(any(cp.DISCARDABLE[t] for t in hand))

    def has_room_or_can_make_it(self, seat: int) -> bool:
        return len(self.hand[seat]) < cp.CARD_LIMIT or self.can_make_room(seat)

    def mummies_at(self, square: int) -> list[int]:
        """Standing mummies on ``square`` (a shot mummy lies on the floor and wounds no one)."""
        return [
            m
            for m in range(len(self.mummy_pos))
            if not self.mummy_down[m]
            and cp.SECTIONS[self.mummy_section[m]][self.mummy_pos[m]] == square
        ]

    def mummy_square(self, m: int) -> int:
        return cp.SECTIONS[self.mummy_section[m]][self.mummy_pos[m]]

    def blocked(self, square: int) -> bool:
        number = cp.SQUARE_NUMBER[square]
        return number > 0 and self.fallen[number - 1]

    # --- copies, views --------------------------------------------------------------------

    def clone(self) -> HorusState:
        """A bare instance given a copy of every field: the lists copied (the
        method is quicker than a slice), the ints, bools and tuples shared. The fields
        that change only now and then (the adventurers' states, the cards in front,
        abilities, levels, the Bags, the undrawn cards, the fallen blocks and those in
        the box, the sarcophagi and alcoves, the mummies' sections, places, facings and
        states, the turn order, the lock's dice) are tuples, which
        the rules replace rather than change, so sharing them is safe."""
        new = self._clone_base()
        new.n = self.n
        new.secrecy = self.secrecy
        new.adventurer = self.adventurer
        new.square = self.square.copy()
        new.status = self.status
        new.hand = self.hand.copy()
        new.bag = self.bag
        new.ability_used = self.ability_used
        new.wll = self.wll
        new.stamina = self.stamina
        new.actions = self.actions.copy()
        new.chest_rolls = self.chest_rolls
        new.mummy_section = self.mummy_section
        new.mummy_pos = self.mummy_pos
        new.mummy_facing = self.mummy_facing
        new.mummy_down = self.mummy_down
        new.mummy_seat = self.mummy_seat
        new.fallen = self.fallen
        new.box = self.box
        new.chosen_block = self.chosen_block
        new.chosen_known = self.chosen_known
        new.check_block = self.check_block
        new.udjat_round = self.udjat_round
        new.supply = self.supply
        new.alcove_idol = self.alcove_idol
        new.sarc_state = self.sarc_state
        new.sarc_card = self.sarc_card
        new.peeked_by = self.peeked_by
        new.discard = self.discard.copy()
        new.dice = self.dice.copy()
        new.mummy_dice = self.mummy_dice.copy()
        new.lock_god = self.lock_god
        new.lock_dice = self.lock_dice
        new.lock_to_roll = self.lock_to_roll
        new.dice_keeper = self.dice_keeper
        new.round = self.round
        new.phase = self.phase
        new.order = self.order
        new.turn_i = self.turn_i
        new.queue = self.queue.copy()
        new.room_then = self.room_then
        new.node = self.node
        new.node_seat = self.node_seat
        new.node_arg = self.node_arg
        return new

    def view(self, seat: int | None) -> View:
        return view.make_view(self, seat)

    def _resample(self, seat: int, rng: random.Random) -> HorusState:
        return view.resample(self, seat, rng)

    # --- what a seat may take back (engine.protocol.State.reveals) ----------------------

    def _shows_hidden(self, action: int) -> bool:
        # Searching, opening, taking or peeking into a sarcophagus, checking a block
        # (Udjat, Clairvoyance), rerolling and the lock's tools all draw or show something
        # hidden (most through a chance event, which reveals anyway); moves, jumps, the
        # wound and load level, discards and the bag show nothing new.
        return action in SHOWS_HIDDEN

    def skip_action(self, seat: int) -> int | None:
        # "Done" keeps the rest of one's cards in phase 1, ends a turn with actions left
        # in phase 3 (the rulebook: nobody has to use all their actions) and gives up a
        # lock; where it is not offered (a jump, making room, the set-up) the seat decides.
        if seat != self.current_player():
            return None
        return A_DONE if A_DONE in self._legal_actions(seat) else None

    def forfeits(self, action: int) -> bool:
        # Leaving the pyramid ends the seat's game; ending a turn with actions left gives
        # them up.
        if action == A_LEAVE:
            return True
        return self.node == D_TURN and action == A_DONE and self.actions[self.node_seat] > 0
