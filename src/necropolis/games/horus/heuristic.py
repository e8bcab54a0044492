"""A hand-written strategy for The Pyramid of Horus: a raider who knows when to get out.

The policy reads the seat's view only (its own cards, the public board, the mummies'
squares and facings, the fallen blocks) plus the game's fixed tables, and decides by a
few plain rules:

* **Raid or leave.** At every action of a turn the seat weighs each target (a square in
  front of sarcophagi or an alcove) as "that target, then out" against heading for an
  exit now. Getting out takes the rounds that the walk needs at the wound and load level
  the target's cards will give; the risk of being shut in meanwhile is read off sampled
  orders of the blocks still in the box (how many more must fall before no path is left
  from a square: one pass per order over all squares, cached per board). An option is
  worth ``U(load) * (1 - risk) * 0.98 ** extra_rounds``, where ``U`` is the chance of
  winning with that load against the rivals' loads as the table sees them (exact for
  visible cards, the mean of each back for face-down ones, plus what a rival still
  inside may yet add: less, in the levels' tuning, the more figures are inside to share
  what is left). So the seat raids while ahead of nothing, leaves once more points
  no longer buy enough, and raids on (gambling) while behind a rival who is already out.
* **Wait on the exit space.** Once there with its load the seat does not leave while a
  rival is still inside and no block that may fall before its next chance to leave can
  shut it in (read off the same sampled orders): it answers what the rival brings out,
  or leaves alone if the rival is shut in. Blocks fall on the exit spaces too, so the
  wait risks a wound, and it ends as soon as one exit or the nest before it is down.
* **Targets.** Sarcophagi are the richest cards (an open one shows its value, a closed
  one is worth the mean of its god's cards, with the variety bonus a new god adds),
  two actions each from the square in front. The seat opens a sarcophagus only when it
  can also take the treasure that turn or no rival is near, tries a lock when the idol
  is worth its curse and the odds, and searches the sand and the pond only when the
  corridor is bare.
* **Mummies.** Walking onto a standing mummy costs a wound for sure; ending a turn where
  a mummy may walk in phase 4 costs one with a probability worked out from its section,
  facing and the odds of the five dice. Both count against a move.
* **Load.** Heal with an Antidote or a Medi-kit whenever one matches a wound, slip
  treasures into a Bag (two cards for one), and in phase 1 drop the least valuable card
  when that lowers the level and so gets the seat out safer (or the card is nearly
  worthless); a thirteenth card makes room by dropping the cheapest card.
* **Abilities and equipment.** Udjat and Clairvoyance check a block at once and keep it
  when it cannot cut the seat off, Shoot knocks down a mummy beside the raider, Dodge,
  Reflexes and Swimming are used at their first chance, Stamina when the level is high or
  the way out is long, a Crowbar or Lockpicking as soon as a lock lacks one face. At
  setup it takes the first free adventurer of a measured order (Shoot first).

The strategy is the same for the heuristic bot and for the levels people play against;
a :class:`Tuning` sets them apart. The levels' tuning counts on every rival still inside
getting out, where the heuristic reads the rival's chance of being shut in off the same
sampled block orders and is then content with less (it even walks out empty-handed while
a rival who holds something may be shut in): the levels' tuning won 53% of two-player
matches against the heuristic to its 27%. With more than two figures inside, the levels
also share what the rivals may still gain among them, where the heuristic expects each
rival to add as much as a lone rival would: 1 to 4 points more at three to six players.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from necropolis.engine.seat import SeatWindow
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import (
    A_BAG_PUT,
    A_CLAIRVOYANCE,
    A_CROWBAR,
    A_DISCARD,
    A_DONE,
    A_DONE_STAMINA,
    A_JUMP,
    A_JUMP_DODGE,
    A_KEEP_BLOCK,
    A_LEAVE,
    A_LOCKPICKING,
    A_MOVE,
    A_OPEN,
    A_PEEK,
    A_PICK,
    A_REROLL,
    A_RETURN_BLOCK,
    A_SEARCH,
    A_SETUP,
    A_SHOOT,
    A_TAKE,
    A_TAKE_WOUND,
    A_UDJAT,
    A_USE_REACTION,
    D_CHECK,
    D_JUMP,
    D_LOCK,
    D_REACT,
    D_ROOM,
    D_SETUP,
    D_TURN,
    D_WLL,
    ESCAPED,
    HEALS,
    INSIDE,
)

FAR = 10**6
NUM_SQUARES = cp.NUM_SQUARES
NEIGHBOURS = cp.NEIGHBOURS
#: Sampled block orders behind the sealing risk (deterministic per board, so cacheable).
SAMPLES = 48
#: Mean value of a face-down card of each back (rubble: necklaces; sand and water:
#: treasures and chests alike; sarcophagi: their god's treasures).
BACK_VALUE = {
    "rubble": 1.8,
    "sand": 3.5,
    "water": 3.5,
    "anubis": 8.0,
    "thoth": 8.0,
    "horus": 8.5,
    "mummy": 0.0,
    "block": 0.0,
    "idol": 0.0,
}
BACK_GOD = {"sand": 0, "water": 1, "thoth": 2, "anubis": 3, "horus": 4}
CHEST_VALUE = 3.5


@dataclass(frozen=True)
class Tuning:
    """The choices of judgement that set one horus strategy apart from another.

    The heuristic bot plays :data:`HEURISTIC`, the fixed reference every level is measured
    against; the levels (easy and medium with their random moves, hard's search unless
    it finds better) play :data:`LEVELS`, which won more often than the heuristic in
    matches against it (``research/tune_horus_heuristic.py`` plays them).
    """

    #: Whether a rival still inside counts as possibly shut in before it gets out (then
    #: the seat need not beat its load): read off the sampled block orders at the rival's
    #: square for its walk out and :attr:`rival_rounds` more. Counting it makes a seat
    #: content with a small load while a rival is inside; of 1,000 two-player matches
    #: against the heuristic (seats alternated), the same strategy without it won 53.3%
    #: to the heuristic's 26.7%, and the heuristic against itself 42.9% to 42.1% on the
    #: same seeds (the rest: nobody got out).
    rivals_shut_in: bool = True
    #: What a rival still inside may add to its load before it leaves, and how unsure
    #: that is (points).
    rival_gain: float = 8.0
    rival_spread: float = 6.0
    #: How many times its sampled chance of being shut in a seat fears, weighing a raid
    #: against heading out (1: as sampled).
    risk_weight: float = 1.0
    #: Rounds a rival inside is taken to stay beyond its walk out, for its risk of being
    #: shut in (read only when :attr:`rivals_shut_in`).
    rival_rounds: int = 4
    #: What one more round inside is worth beside the sampled sealing risk (unseen dangers).
    stay_cost: float = 0.98
    #: Whether the seat heads for an exit now, whatever it could still raid: the other side
    #: of the question "stop here?" that ``research/screen_horus_exit.py`` plays out.
    head_out: bool = False
    #: Points a wound costs (a card toward a slower level, for good if a mummy gave it).
    wound_cost: float = 1.5
    #: A search of the sand or the pond: a treasure or chest ten times in eighteen, less
    #: the scorpion or crocodile that comes the other times.
    search_worth: float = 1.8
    #: Waiting on an exit space: the largest share of sampled block orders that may shut
    #: the seat in before it can leave, and the chance of an idle round that counts one
    #: more block.
    wait_cut_risk: float = 0.0
    wait_idle_risk: float = 0.1
    #: The share of a round's expected actions that a walk out is counted to get (dice
    #: spent elsewhere, mummies and blocks in the way).
    walk_speed: float = 0.8
    #: Points an idol's curse costs (a die lost for the rest of the game), and Horus's
    #: idol more.
    idol_curse: float = 2.5
    #: How unsure a rival's load is once it is out (points; its hidden cards by their backs).
    escaped_spread: float = 3.0
    #: Steps within which a rival makes opening a sarcophagus with one action left unwise.
    rival_reach: int = 4
    #: The adventurer taken first at setup when free (its number in ``components``;
    #: -1: the measured order :data:`ADVENTURER_PREFERENCE` alone).
    first_adventurer: int = -1
    #: How the rivals inside share what is left to take: :attr:`rival_gain` is what a
    #: rival adds with only the seat and it inside, and with ``n`` figures inside each is
    #: taken to add ``(2 / n) ** rival_gain_sharing`` of it (0: each the whole, however
    #: many). Two players never share. With 2, the levels' strategy gained 1 to 4 points
    #: of score share at three to six players against heuristics, on two banks of
    #: duplicate deals (``docs/strength.md``, "A rival's gain shared among those inside").
    rival_gain_sharing: float = 0.0
    #: In games of three players or more: what each rival inside is taken to add for
    #: every round the seat would stay inside beyond heading out now (points, each rival
    #: alike however many are inside). A raid that costs rounds is so weighed against
    #: the loads the rivals will carry by the time the seat is out, not those they carry
    #: now. Not at two players, where :attr:`rival_gain` was tuned with the rival's time
    #: in it: counting 2 a round more there lost 24 points of score share against the
    #: heuristic (``docs/strength.md``, "Rivals who load up while the seat raids").
    rival_gain_per_round: float = 0.0


HEURISTIC = Tuning()
LEVELS = Tuning(rivals_shut_in=False, rival_gain_sharing=2.0, rival_gain_per_round=0.8)

#: Preference of adventurers at setup, by measurement (200 paired two-player games each
#: against the heuristic's previous version): Shoot, which clears a mummy out of the
#: corridor, helps most, then Dodge and Stamina; Lockpicking is little use to a raider
#: who rarely finds a lock worth its curse.
ADVENTURER_PREFERENCE = (
    cp.SHOOT,
    cp.DODGE,
    cp.STAMINA,
    cp.CLAIRVOYANCE,
    cp.LOCKPICKING,
    cp.REFLEXES,
    cp.SWIMMING,
    cp.LINGUISTICS,
)
#: Probability of each number of mummy steps (dice of 4 or more among five).
STEP_PROB = tuple(math.comb(5, k) / 32 for k in range(6))
_SQUARE_OF_BLOCK = cp.BLOCK_SQUARE
_SECTION_INDEX = tuple({sq: i for i, sq in enumerate(path)} for path in cp.SECTIONS)
_SARC_MEAN = {
    g: sum(cp.CARD_VALUE[t] for t in cp.TYPES_OF_ORIGIN[cp.POOL_OF_GOD[g]])
    / len(cp.TYPES_OF_ORIGIN[cp.POOL_OF_GOD[g]])
    for g in cp.POOL_OF_GOD
}


# --- the board ---------------------------------------------------------------------------


def blocked_squares(fallen: list[int]) -> list[bool]:
    """Square id -> covered by a fallen block (``fallen``: block numbers 1..36)."""
    out = [False] * NUM_SQUARES
    for b in fallen:
        out[_SQUARE_OF_BLOCK[b - 1]] = True
    return out


def distances(blocked: list[bool], targets: list[int] | tuple[int, ...]) -> list[int]:
    """Steps from every square to the nearest of ``targets`` around the fallen blocks."""
    dist = [FAR] * NUM_SQUARES
    frontier = [t for t in targets if not blocked[t]]
    for t in frontier:
        dist[t] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for sq in frontier:
            for nb in NEIGHBOURS[sq]:
                if nb >= 0 and dist[nb] == FAR and not blocked[nb]:
                    dist[nb] = d
                    nxt.append(nb)
        frontier = nxt
    return dist


@lru_cache(maxsize=4096)
def board_distances(fallen: tuple[int, ...], targets: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`distances` for a board given by its fallen blocks, remembered: searches ask
    again and again about the few boards their worlds reach."""
    return tuple(distances(blocked_squares(list(fallen)), targets))


def _connected(blocked: list[bool], square: int) -> bool:
    """Whether ``square`` still reaches an exit (its own block ignored: one jumps off it)."""
    seen = [False] * NUM_SQUARES
    stack = [square]
    seen[square] = True
    while stack:
        sq = stack.pop()
        if cp.AREA[sq] == cp.ENTRANCE:
            return True
        for nb in NEIGHBOURS[sq]:
            if nb >= 0 and not seen[nb] and not blocked[nb]:
                seen[nb] = True
                stack.append(nb)
    return False


_IS_EXIT = tuple(cp.AREA[sq] == cp.ENTRANCE for sq in range(NUM_SQUARES))


#: Each square's neighbours, a missing one given as the extra column ``NUM_SQUARES`` (an
#: array that numpy gathers from, where the rules' table marks a wall with -1).
_NEIGHBOUR_COLUMNS = np.array(
    [[nb if nb >= 0 else NUM_SQUARES for nb in NEIGHBOURS[sq]] for sq in range(NUM_SQUARES)]
)
_EXIT_SQUARES = np.array(_IS_EXIT)
_BLOCK_SQUARES = np.array(_SQUARE_OF_BLOCK)


def _plain_cut_times(fallen: list[int], orders: list[list[int]]) -> npt.NDArray[np.int64]:
    """Per order of the blocks still in the box (a row each) and per square (a column),
    how many blocks of the order fall before the square is cut from every exit (0:
    already cut, or under a fallen block; a free exit space counts as reached while its
    own block is up). ``fallen`` are the blocks down already; every order has the same
    length.

    A square whose block is the k-th of an order (from 0) stays open while fewer than k+1
    have fallen, so it reaches an exit with k down exactly when some path to an exit has
    all its squares' places at k or later: the cut time is one more than the best such
    path's latest k (its narrowest square), a widest-path problem. It is solved for all
    orders at once by relaxing every square from its neighbours until nothing changes,
    which takes about as many sweeps as the longest way out and costs a quarter of the
    union-find over reopened squares that this replaced (the same figures, checked on
    random boards by the tests).
    """
    samples = len(orders)
    total = len(orders[0]) if orders else 0
    # Each square's place in each order; a square with no block is never covered (total),
    # one under a fallen block always (-1).
    place = np.full((samples, NUM_SQUARES), total, dtype=np.int64)
    for b in fallen:
        place[:, _SQUARE_OF_BLOCK[b - 1]] = -1
    if total:
        rows = np.arange(samples)[:, None]
        place[rows, _BLOCK_SQUARES[np.array(orders) - 1]] = np.arange(total)[None, :]
    reach = np.where(_EXIT_SQUARES[None, :], place, -1)
    padded = np.full((samples, NUM_SQUARES + 1), -1, dtype=np.int64)
    while True:
        padded[:, :NUM_SQUARES] = reach
        wider = np.maximum(reach, np.minimum(place, padded[:, _NEIGHBOUR_COLUMNS].max(axis=2)))
        if np.array_equal(wider, reach):
            times: npt.NDArray[np.int64] = np.minimum(reach + 1, total)
            return times
        reach = wider


@lru_cache(maxsize=512)
def cut_table(fallen: tuple[int, ...], first: int) -> tuple[tuple[int, ...], ...]:
    """Per square, sorted over sampled orders of the blocks still to fall, how many more
    must fall before a figure there has no way out (jumping off its own falling block
    onto a neighbour counts as staying). ``first`` is a block known to fall next (set
    aside and seen), or 0. The orders come from a generator seeded by the board itself,
    so that equal boards give equal answers whoever asks."""
    rest = [b for b in range(1, cp.NUM_BLOCKS + 1) if b not in fallen and b != first]
    rng = random.Random(hash((fallen, first)) & 0xFFFFFFFF)
    orders = []
    for _ in range(SAMPLES):
        order = rest[:]
        rng.shuffle(order)
        if first:
            order.insert(0, first)
        orders.append(order)
    plain = _plain_cut_times(list(fallen), orders)
    padded = np.zeros((SAMPLES, NUM_SQUARES + 1), dtype=np.int64)
    padded[:, :NUM_SQUARES] = plain
    # A figure whose square is cut jumps to the neighbour that stays open longest.
    times = np.maximum(plain, padded[:, _NEIGHBOUR_COLUMNS].max(axis=2))
    times.sort(axis=0)
    return tuple(map(tuple, times.T.tolist()))


def cut_risk(times: tuple[int, ...], blocks: int) -> float:
    """The share of sampled orders that cut the square off within ``blocks`` more blocks."""
    if blocks <= 0:
        return 0.0
    return sum(1 for t in times if t <= blocks) / len(times)


def mummy_threat(view: dict[str, Any]) -> list[float]:
    """Per square, the chance that some mummy touches a figure standing there in phase 4."""
    safe = [1.0] * NUM_SQUARES
    for m in view["mummies"]:
        section = cp.SECTION_NAMES.index(m["section"])
        path = cp.SECTIONS[section]
        pos = _SECTION_INDEX[section][m["square"]]
        hit = [0.0] * NUM_SQUARES
        if m["down"]:
            hit[m["square"]] = 1.0  # it stands up where it lies and touches
        else:
            hit[m["square"]] += STEP_PROB[0]
            for k in range(1, 6):
                p, f = pos, m["facing"]
                entered = set()
                for _ in range(k):
                    nxt = p + f
                    if nxt < 0 or nxt >= len(path):
                        f = -f
                        nxt = p + f
                    p = nxt
                    entered.add(path[p])
                for sq in entered:
                    hit[sq] += STEP_PROB[k]
        for sq in range(NUM_SQUARES):
            if hit[sq]:
                safe[sq] *= 1.0 - min(hit[sq], 1.0)
    return [1.0 - s for s in safe]


# --- cards and scores --------------------------------------------------------------------


def card_value(t: int) -> float:
    if cp.CARD_KIND[t] == cp.CHEST:
        return CHEST_VALUE
    if cp.CARD_KIND[t] == cp.WOUND:
        return 0.0
    return float(cp.CARD_VALUE[t])


def gods_of(cards: list[int]) -> set[int]:
    return {cp.CARD_GOD[t] for t in cards if cp.CARD_KIND[t] in (cp.TREASURE, cp.IDOL)} - {-1}


def load_value(cards: list[int]) -> float:
    """What these cards would score on escape (a chest counted at a die's mean)."""
    return sum(card_value(t) for t in cards) + cp.VARIETY_BONUS[len(gods_of(cards))]


def gain_of(cards: list[int], value: float, god: int) -> float:
    """What one more card of ``value`` and ``god`` adds, variety bonus included."""
    gods = gods_of(cards)
    extra = 0.0
    if god >= 0 and god not in gods:
        extra = cp.VARIETY_BONUS[len(gods) + 1] - cp.VARIETY_BONUS[len(gods)]
    return value + extra


def estimate_load(player: dict[str, Any]) -> float:
    """A rival's load as the table sees it: visible cards exactly, hidden ones by back."""
    seen: list[int] = list(player["card_types"]) + list(player["bag_types"])
    total = sum(card_value(t) for t in seen)
    gods = gods_of(seen)
    for back, count in player["face_down"].items():
        total += BACK_VALUE.get(back, 0.0) * count
        if back in BACK_GOD:
            gods.add(BACK_GOD[back])
    total += CHEST_VALUE * int(player["bag_face_down"])
    return total + cp.VARIETY_BONUS[min(len(gods), 5)]


def actions_per_round(level: int, cursed: int) -> float:
    """Expected actions of a round at ``level`` with ``cursed`` dice left out."""
    if level > 6:
        return 0.0
    return (cp.NUM_DICE - cursed) * (7 - level) / 6


def _level(cards: int) -> int:
    return cp.WLL_TABLE[min(cards, cp.CARD_LIMIT)]


class _Bar(NamedTuple):
    """What the seat must beat of one rival out or inside: its load as seen, what it may
    yet add and how unsure that is, its chance of being shut in, and what it adds for
    each round the seat stays on."""

    load: float
    gain: float
    spread: float
    shut: float
    per_round: float


class _Me:
    """What the policy works out once per decision from the seat's view."""

    def __init__(self, view: dict[str, Any], seat: int, tuning: Tuning = HEURISTIC) -> None:
        self.view = view
        self.seat = seat
        self.tuning = tuning
        me = view["players"][seat]
        self.me = me
        self.square: int = me["square"] if me["square"] is not None else -1
        self.hand: list[int] = list(me["card_types"])
        self.bag: list[int] = list(me["bag_types"])
        self.cards = self.hand + self.bag
        self.count = len(self.hand)
        self.value = load_value(self.cards)
        self.wounds = sum(1 for t in self.hand if cp.CARD_KIND[t] == cp.WOUND)
        self.cursed = sum(1 for t in self.hand if cp.CARD_KIND[t] == cp.IDOL)
        self.actions: int = me["actions"]
        self.fallen = tuple(view["fallen_blocks"])
        self.blocked = blocked_squares(view["fallen_blocks"])
        self.exit_dist = board_distances(self.fallen, tuple(cp.ENTRANCES))
        self.threat = mummy_threat(view)
        self.standing = {m["square"] for m in view["mummies"] if not m["down"]}
        first = view["block_set_aside_number"] or 0
        self.table = cut_table(tuple(view["fallen_blocks"]), first)
        self.times = self.table[self.square] if self.square >= 0 else (0,) * SAMPLES
        self.rate = max(actions_per_round(_level(self.count), self.cursed), 0.5)
        self.rivals = [p for p in view["players"] if p["seat"] != seat]
        # Each rival out or still inside: its load as seen, what it may add (and add a
        # round while the seat stays), how sure that is; worked out once, as win_chance
        # asks for every target of every plan.
        share = self.rival_share()
        per_round = tuning.rival_gain_per_round if len(view["players"]) > 2 else 0.0
        self.bars = [
            _Bar(estimate_load(r), 0.0, tuning.escaped_spread, 0.0, 0.0)
            if r["status_id"] == ESCAPED
            else _Bar(
                estimate_load(r),
                tuning.rival_gain * share,
                tuning.rival_spread,
                self.rival_shut_in(r) if tuning.rivals_shut_in else 0.0,
                per_round,
            )
            for r in self.rivals
            if r["status_id"] in (ESCAPED, INSIDE)
        ]

    def rival_share(self) -> float:
        """The part of a two-player rival's gain that a rival inside is taken to add with
        this many figures inside (:attr:`Tuning.rival_gain_sharing`)."""
        inside = sum(1 for p in self.view["players"] if p["status_id"] == INSIDE)
        if self.tuning.rival_gain_sharing and inside > 2:
            return float((2.0 / inside) ** self.tuning.rival_gain_sharing)
        return 1.0

    def rival_shut_in(self, rival: dict[str, Any]) -> float:
        """The chance that a rival inside is shut in: read off the sampled block orders at
        its square, for the rounds its walk out takes at its level plus the rounds it may
        yet spend raiding."""
        sq = rival["square"]
        if sq is None or sq < 0:
            return 0.0
        rate = max(actions_per_round(_level(int(rival["card_count"])), 0), 0.5)
        rate *= self.tuning.walk_speed
        rounds = math.ceil((self.exit_dist[sq] + 1) / rate) + self.tuning.rival_rounds
        return cut_risk(self.table[sq], rounds - 1)

    def feared(self, risk: float) -> float:
        """A sampled chance of being shut in, as the tuning fears it."""
        return min(1.0, risk * self.tuning.risk_weight)

    def blocks_before_out(self, extra_rounds: float = 0.0, square: int | None = None) -> int:
        """Blocks that fall before the seat is out if it heads for an exit (after
        ``extra_rounds`` spent elsewhere)."""
        sq = self.square if square is None else square
        steps = self.exit_dist[sq] + 1  # the walk and the leave action
        left = steps - (self.actions if extra_rounds == 0 else 0)
        rounds = 0 if left <= 0 else math.ceil(left / (self.tuning.walk_speed * self.rate))
        return rounds + math.ceil(extra_rounds)

    def win_chance(self, value: float, later: float = 0.0) -> float:
        """How likely escaping with ``value`` wins, against what the rivals may carry (one
        still inside may yet load up, or be shut in), when the seat gets out ``later``
        rounds after it would heading out now."""
        p = 1.0
        for load, gain, spread, shut, per_round in self.bars:
            gain += per_round * max(later, 0.0)
            p *= shut + (1.0 - shut) * _sigmoid((value - load - gain) / spread)
        return 0.97 * p + 0.03 * min(value / 40.0, 1.0)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(x, 30.0), -30.0)))


# --- targets -------------------------------------------------------------------------------


def _sarc_targets(me: _Me) -> dict[int, tuple[float, int, int]]:
    """Square -> (points, actions, cards) of what the sarcophagi in front of it hold."""
    out: dict[int, tuple[float, int, int]] = {}
    cheapest = _cheapest(me) if me.count >= cp.CARD_LIMIT else 0.0
    for x in me.view["sarcophagi"]:
        god = cp.GOD_INDEX[x["god"]]
        t = x["card_type"]  # open, or read with Linguistics; else -1
        if x["state"] == "open":
            worth = gain_of(me.cards, card_value(t), cp.CARD_GOD[t])
            work = 1
        elif x["state"] == "closed":
            value = card_value(t) if t >= 0 else _SARC_MEAN[god]
            worth = gain_of(me.cards, value, god)
            work = 2
        else:
            continue
        worth -= cheapest  # a thirteenth card: the cheapest goes
        if worth <= 0:
            continue
        old = out.get(x["square"], (0.0, 0, 0))
        out[x["square"]] = (old[0] + worth, old[1] + work, old[2] + 1)
    return out


def _idol_worth(me: _Me, g: int) -> float:
    """An idol's points and variety, less its curse (a die lost for the rest of the game)."""
    worth = gain_of(me.cards, float(cp.IDOL_VALUE[g]), g)
    return worth - me.tuning.idol_curse - (2.0 if g == cp.HORUS else 0.0)


def _lock_odds(me: _Me, g: int, tries: int) -> float:
    """Rough chance to open lock ``g`` with the first roll and ``tries`` rerolls."""
    faces = len(cp.IDOL_LOCK[g])
    per = {3: 0.16, 4: 0.06, 5: 0.015}[faces]
    # each reroll keeps what matches: the chance climbs quickly for short combinations
    p = 1 - (1 - per) * (1 - min(0.9, per * 3.0)) ** tries
    helper = cp.CROWBAR in me.hand or (
        me.me["adventurer_id"] == cp.LOCKPICKING and not me.me["ability_used"]
    )
    if helper:
        p = min(1.0, p * 2.5)
    return p


def _alcove_targets(me: _Me) -> dict[int, tuple[float, int, int]]:
    out: dict[int, tuple[float, int, int]] = {}
    if me.count >= cp.CARD_LIMIT:
        return out
    for name in me.view["idols_in_alcoves"]:
        g = cp.GOD_INDEX[name]
        worth = _idol_worth(me, g) * _lock_odds(me, g, 2)
        if worth <= 0.5:
            continue
        for sq in cp.ALCOVE_FRONT[g]:
            out[sq] = (worth, 3, 1)
    return out


def _keep_value(me: _Me, t: int) -> float:
    """How much a card in front is worth keeping (for discards)."""
    kind = cp.CARD_KIND[t]
    if kind == cp.WOUND:
        return 99.0
    if kind == cp.EQUIPMENT:
        if t == cp.BAG:
            return 6.0 if me.bag else 1.5
        if t == cp.CROWBAR:
            return 1.0 if me.view["idols_in_alcoves"] else 0.0
        if t == cp.UDJAT:
            return 1.0
        return 1.2  # a kit for a wound to come
    rest = list(me.cards)
    rest.remove(t)
    return load_value(me.cards) - load_value(rest)


# --- decisions -----------------------------------------------------------------------------


def policy(window: SeatWindow, rng: random.Random) -> int:
    """The heuristic's action for the seat behind ``window`` (from its view only)."""
    return decide(window, rng, HEURISTIC)


def levels_policy(window: SeatWindow, rng: random.Random) -> int:
    """The action of the strategy the levels play (:data:`LEVELS`)."""
    return decide(window, rng, LEVELS)


def decide(window: SeatWindow, rng: random.Random, tuning: Tuning) -> int:
    """The action of the strategy ``tuning`` sets for the seat behind ``window``."""
    legal = window.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = window.view()
    seat = window.seat
    node = view["awaiting_id"]
    if node == D_SETUP:
        return _setup(legal, tuning)
    me = _Me(view, seat, tuning)
    if node == D_TURN:
        return _turn(me, legal, rng)
    if node == D_WLL:
        return _wll(me, legal)
    if node == D_LOCK:
        return _lock(me, legal)
    if node == D_ROOM:
        return _room(me, legal)
    if node == D_JUMP:
        return _jump(me, legal)
    if node == D_REACT:
        return A_USE_REACTION if A_USE_REACTION in legal else A_TAKE_WOUND
    if node == D_CHECK:
        return _check(me, legal)
    return A_DONE if A_DONE in legal else legal[0]


def _setup(legal: list[int], tuning: Tuning) -> int:
    order: tuple[int, ...] = ADVENTURER_PREFERENCE
    if tuning.first_adventurer >= 0:
        order = (tuning.first_adventurer, *order)
    for adventurer in order:
        a = A_SETUP + 2 * adventurer
        if a in legal:
            return a
    return legal[0]


def _rounds(me: _Me, steps: int, cards: int | None = None) -> int:
    """Rounds, this one included, that ``steps`` actions take from now, at the level
    that ``cards`` in front give (default: the cards there now)."""
    count = me.count if cards is None else cards
    rate = max(actions_per_round(_level(count), me.cursed), 0.5) * me.tuning.walk_speed
    if me.view["awaiting_id"] == D_WLL:  # this round's dice are still to come
        return max(1, math.ceil(steps / rate))
    left = steps - me.actions
    return 1 if left <= 0 else 1 + math.ceil(left / rate)


def _go_utility(me: _Me, value: float, cards: int) -> tuple[float, int]:
    """The worth of heading out now with a load of ``value`` on ``cards`` cards, and the
    rounds it takes."""
    rounds = _rounds(me, me.exit_dist[me.square] + 1, cards)
    return me.win_chance(value) * (1.0 - me.feared(cut_risk(me.times, rounds - 1))), rounds


def _plan(me: _Me) -> int:
    """Where to raid next, or -1 to head for the exit now.

    Each target is weighed as "that target, then out": its points raise the chance to
    win, the rounds it costs (at the level its cards will give) raise the chance of being
    shut in on the way (read at the target's square) and, at three players or more, let
    the rivals inside load up meanwhile, and every extra round inside costs a little for
    what the samples cannot see. Heading out now is weighed the same way.
    """
    if me.tuning.head_out:
        return -1
    here = me.square
    u_go, go_rounds = _go_utility(me, me.value, me.count)
    targets = _sarc_targets(me)
    for sq, tw in _alcove_targets(me).items():
        if tw[0] > targets.get(sq, (0.0, 0, 0))[0]:
            targets[sq] = tw
    if not targets and _search_worth(me):
        for sq in _search_squares(me):
            targets[sq] = (me.tuning.search_worth, 1, 1)
    from_me = board_distances(me.fallen, (here,))
    best, best_u = -1, u_go
    for sq, (worth, work, cards) in targets.items():
        reach = from_me[sq]
        if reach >= FAR:
            continue
        rounds = _rounds(me, reach + work + me.exit_dist[sq] + 1, me.count + cards)
        risk = me.feared(cut_risk(me.table[sq], rounds - 1))
        # a mummy standing there touches on arrival, one may walk in at the round's end
        stuck = reach + work >= me.actions  # no action left to step away this round
        worth -= me.tuning.wound_cost * ((reach > 0 and sq in me.standing) + stuck * me.threat[sq])
        stay = me.tuning.stay_cost ** (rounds - go_rounds)
        u = me.win_chance(me.value + worth, rounds - go_rounds) * (1.0 - risk) * stay
        u -= 1e-6 * reach  # the nearer of equal targets
        if u > best_u + 1e-9:
            best, best_u = sq, u
    return best


def _search_worth(me: _Me) -> bool:
    """Searching pays only once the corridor is bare, with room and few wounds."""
    return me.count < 8 and me.wounds < 4


def _move_toward(me: _Me, legal: list[int], target: list[int], last: bool) -> int:
    """The legal move that gets closest to ``target``, mummies counted against it."""
    dist = board_distances(me.fallen, tuple(target))
    here = dist[me.square]
    best, best_cost = -1, float("inf")
    for a in legal:
        if not A_MOVE <= a < A_MOVE + 4:
            continue
        nb = NEIGHBOURS[me.square][a - A_MOVE]
        if dist[nb] >= here:
            continue
        cost = float(dist[nb])
        if nb in me.standing:
            cost += 2.5
        if last:
            cost += 2.0 * me.threat[nb]
        if cost < best_cost:
            best, best_cost = a, cost
    return best


def _turn(me: _Me, legal: list[int], rng: random.Random) -> int:
    for a in legal:  # a matching kit removes a wound and a card: always worth it
        if a in HEALS:
            return a
    puts = [a for a in legal if A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES]
    if puts:  # two cards for one in the Bag: the most valuable first
        return max(puts, key=lambda a: card_value(a - A_BAG_PUT))
    if A_UDJAT in legal:
        return A_UDJAT
    if A_CLAIRVOYANCE in legal and me.view["round"] >= 3:
        return A_CLAIRVOYANCE
    shoots = [a for a in legal if A_SHOOT <= a < A_UDJAT]
    if shoots and cp.AREA[me.square] == cp.MUMMIES_CORRIDOR and me.actions > 0:
        return shoots[0]
    if me.actions <= 0:
        return A_DONE
    last = me.actions == 1
    target = _plan(me)
    if target < 0:
        if A_LEAVE in legal:
            if _worth_waiting(me):
                return A_DONE
            return A_LEAVE
        move = _move_toward(me, legal, list(cp.ENTRANCES), last)
        return move if move >= 0 else A_DONE
    if target != me.square:
        move = _move_toward(me, legal, [target], last)
        return move if move >= 0 else A_DONE
    # at the target: take what is open, open what is closed, try the lock, search
    takes = [a for a in legal if A_TAKE <= a < A_PEEK]
    if takes:
        return max(takes, key=lambda a: card_value(_sarc_card(me, a - A_TAKE)))
    opens = [a for a in legal if A_OPEN <= a < A_TAKE]
    if opens:
        if me.actions >= 2 or not _rival_near(me, me.tuning.rival_reach):
            return opens[0]
        return A_DONE  # opened now, a rival would take it before our next turn
    picks = [a for a in legal if A_PICK <= a < A_REROLL]
    if picks:
        return picks[0]
    if A_SEARCH in legal:
        return A_SEARCH
    return A_DONE


def _worth_waiting(me: _Me) -> bool:
    """Whether to stay on the exit space rather than leave: while a rival is still
    inside, the last player out knows what it has to beat (and a rival shut in leaves it
    the win), but only while no block that may fall before the seat's next chance to
    leave can shut it in: this round's, and one more when the seat's level may well give
    it no action next round. (Both exit spaces carry blocks, so waiting is never free: a
    block on the seat's square wounds it, and with one exit down the next may seal it.)"""
    if not any(r["status_id"] == INSIDE for r in me.rivals):
        return False
    blocks = 1 + (_no_action_chance(me) > me.tuning.wait_idle_risk)
    return cut_risk(me.times, blocks) <= me.tuning.wait_cut_risk


def _no_action_chance(me: _Me) -> float:
    """The chance that next round's dice give the seat no action at its present level."""
    level = _level(me.count)
    dice = cp.NUM_DICE - me.cursed
    return 1.0 if level > 6 else ((level - 1) / 6) ** dice


def _search_squares(me: _Me) -> list[int]:
    return [
        sq
        for sq in range(NUM_SQUARES)
        if cp.AREA[sq] in (cp.SCORPION_PIT, cp.CROCODILE_POND) and not me.blocked[sq]
    ]


def _sarc_card(me: _Me, k: int) -> int:
    return int(me.view["sarcophagi"][k]["card_type"])


def _cheapest(me: _Me) -> float:
    return min((_keep_value(me, t) for t in me.hand if cp.DISCARDABLE[t]), default=99.0)


def _rival_near(me: _Me, steps: int) -> bool:
    dist = board_distances(me.fallen, (me.square,))
    return any(
        r["status_id"] == INSIDE and r["square"] is not None and dist[r["square"]] <= steps
        for r in me.rivals
    )


def _wll(me: _Me, legal: list[int]) -> int:
    for a in legal:
        if a in HEALS:
            return a
    puts = [a for a in legal if A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES]
    if puts:
        return max(puts, key=lambda a: card_value(a - A_BAG_PUT))
    # drop the cheapest card when the level it lowers gets the seat out safer: worth it
    # when heading out (or when the card is nearly worthless anyway)
    count = me.count
    if count >= 6 and _level(count - 1) < _level(count):
        drops = [a for a in legal if A_DISCARD <= a < A_DISCARD + cp.NUM_CARD_TYPES]
        if drops:
            a = min(drops, key=lambda x: _keep_value(me, x - A_DISCARD))
            keep = _keep_value(me, a - A_DISCARD)
            u_keep, _ = _go_utility(me, me.value, count)
            u_drop, _ = _go_utility(me, me.value - keep, count - 1)
            if keep <= 1.0 or (u_drop > u_keep + 0.005 and _plan(me) < 0):
                return a
    if A_DONE_STAMINA in legal:
        level = _level(count)
        far = me.exit_dist[me.square] if me.square >= 0 else 0
        if level >= 4 or (level >= 3 and far >= 6 and me.view["round"] >= 8):
            return A_DONE_STAMINA
    return A_DONE


def _lock(me: _Me, legal: list[int]) -> int:
    if A_CROWBAR in legal:
        return A_CROWBAR
    if A_LOCKPICKING in legal:
        return A_LOCKPICKING
    lock = me.view["lock"]
    if lock is None:
        return A_DONE
    needed = set(cp.IDOL_LOCK[cp.GOD_INDEX[lock["idol"]]])
    mask = 0
    seen: set[int] = set()
    for i, face in enumerate(lock["dice"]):
        if face in needed and face not in seen:
            seen.add(face)
        else:
            mask |= 1 << i
    missing = len(needed - seen)
    a = A_REROLL + mask - 1
    # keep an action or two in hand for the walk when time presses
    reserve = 1 if cut_risk(me.times, me.blocks_before_out() + 2) > 0.15 else 0
    if mask and a in legal and me.actions > reserve and missing <= me.actions + 1:
        return a
    return A_DONE


def _room(me: _Me, legal: list[int]) -> int:
    puts = [a for a in legal if A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES]
    if puts:
        return max(puts, key=lambda a: card_value(a - A_BAG_PUT))
    return min(legal, key=lambda a: _keep_value(me, a - A_DISCARD))


def _jump(me: _Me, legal: list[int]) -> int:
    dodges = [a for a in legal if a >= A_JUMP_DODGE]
    options = dodges or legal

    # the square being jumped from is this seat's own square
    def cost(a: int) -> float:
        nb = NEIGHBOURS[me.square][(a - A_JUMP) % 4]
        return me.exit_dist[nb] + (5.0 if nb in me.standing else 0.0) + 2.0 * me.threat[nb]

    return min(options, key=cost)


def _check(me: _Me, legal: list[int]) -> int:
    number = me.view["checking_block"]
    if number is None or me.square < 0:
        return A_RETURN_BLOCK
    square = _SQUARE_OF_BLOCK[number - 1]
    blocked = me.blocked[:]
    blocked[square] = True
    if square != me.square and _connected(blocked, me.square):
        return A_KEEP_BLOCK  # a known harmless block beats a random one
    return A_RETURN_BLOCK
