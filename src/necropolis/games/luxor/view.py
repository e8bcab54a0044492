"""What each seat may see of a Luxor position, its tensor encoding, and determinizations.

Public: the board (tiles, adventurers, sleeping adventurers), every pile's size, the face-up
discard pile, each seat's keys, wild and treasure tiles, scarab count, score track and
sarcophagi, the turn in progress, and where each hand card came from (the starting deck of
some shuffle, or a Horus deck of some level), since everybody watches cards enter a hand.
Private: a hand's card kinds (to its owner), scarab values (to their owner until the end).
Hidden from all: the order and contents of the draw pile, the Horus decks and the temple
stacks, which exist only as counts and are drawn from by chance nodes. A determinization
redeals, pile by pile, the cards a seat cannot place among the other hands and the pile,
and the scarab values it cannot see among the other seats and the supply.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from necropolis.engine.draws import shuffle_tail
from necropolis.games.luxor import rules
from necropolis.games.luxor.components import (
    BURIAL_CHAMBER,
    HAND_SIZE,
    KEYS,
    NUM_CARD_KINDS,
    NUM_FIELDS,
    NUM_STATUES,
    NUM_TILE_CODES,
    NUM_TREASURE_KINDS,
    SCARAB_COUNTS,
    TEMPLE_STACKS,
    WILD_TREASURES,
)

if TYPE_CHECKING:
    from necropolis.engine.protocol import View
    from necropolis.games.luxor.state import LuxorState

MAX_PLAYERS = 4
NUM_ORIGIN_CODES = 4  # in the tensor: starting deck (any shuffle), Horus level 1, 2, 3


def make_view(st: LuxorState, seat: int | None) -> View:
    """Everything ``seat`` (``None``: a spectator) may see, as a JSON-ready dict."""
    n = st.num_players
    over = st.final is not None
    player = st.current_player()
    acting = [player] if player >= 0 else []
    legal = rules.legal_actions(st) if seat is not None and player == seat else []
    hands: list[list[int] | None] = [list(st.hands[s]) if s == seat else None for s in range(n)]
    scarabs: list[list[int] | None] = [
        list(st.scarabs[s]) if (s == seat or over) else None for s in range(n)
    ]
    result: dict[str, Any] = {
        "game": "luxor",
        "players": n,
        "seat": seat,
        "current_player": player,
        "acting_seats": acting,
        "legal_actions": legal,
        "phase": rules.PHASE_NAMES[st.phase],
        "turn_seat": st.seat,
        "round": st.round,
        "turns": st.turns,
        "tiles": list(st.tiles),
        "adventurers": [
            list(st.adventurers[s * NUM_FIELDS : (s + 1) * NUM_FIELDS]) for s in range(n)
        ],
        "sleeping": [
            [bool(x) for x in st.sleeping[s * NUM_STATUES : (s + 1) * NUM_STATUES]]
            for s in range(n)
        ],
        "hands": hands,
        "hand_origins": [list(o) for o in st.origins],
        "discard": list(st.discard),
        "draw_pile": st.draw_size,
        "epoch": st.epoch,
        "horus_decks": [sum(c) for c in st.horus_counts],
        "temple_stacks": [sum(c) for c in st.temple_counts],
        "osiris_left": list(st.osiris_left),
        "treasures_to_lay": list(st.treasure_left),
        "setup_index": st.deal_index,
        "scarab_supply": sum(st.scarab_supply),
        "scarabs": scarabs,
        "scarab_counts": [sum(x) for x in st.scarabs],
        "key_supply": st.key_supply,
        "keys": list(st.keys),
        "keys_paid": st.keys_paid,
        "wild_supply": st.wild_supply,
        "wilds": list(st.wilds),
        "treasures": [list(t) for t in st.treasures],
        "sarcophagi": list(st.sarcophagi),
        "entries": st.entries,
        "ending": st.ending,
        "card_in_play": st.card,
        "roll": st.roll,
        "from_field": st.from_field,
        "one_fewer": st.one_fewer,
        "no_draw": st.no_draw,
        "options": st.options[:],
        "pending": st.pending,
        "no_move_turns": st.no_move_turns,
        "scores": [float(x) for x in st.score],
        "final": None if st.final is None else [row[:] for row in st.final],
    }
    return result


# --- the observation tensor --------------------------------------------------------------
# Seats are listed relative to the viewer (the viewer first, then in turn order; a spectator
# reads from seat 0), padded to four. See docs/rules/luxor.md for the layout.

_PER_PLAYER = 12
_SIZES = (
    ("adventurers", MAX_PLAYERS * NUM_FIELDS),
    ("tiles", NUM_FIELDS * NUM_TILE_CODES),
    ("sleeping", MAX_PLAYERS * NUM_STATUES),
    ("own_hand", HAND_SIZE * NUM_CARD_KINDS),
    ("hand_origins", MAX_PLAYERS * HAND_SIZE * NUM_ORIGIN_CODES),
    ("discard", NUM_CARD_KINDS),
    ("piles", 10),
    ("players", MAX_PLAYERS * _PER_PLAYER),
    ("own_scarabs", len(SCARAB_COUNTS)),
    ("phase", len(rules.PHASE_NAMES)),
    ("turn_seat", MAX_PLAYERS),
    ("card_in_play", NUM_CARD_KINDS),
    ("roll", 6),
    ("turn_flags", 6),
    ("options", NUM_FIELDS),
)
OBSERVATION_SIZE = sum(size for _, size in _SIZES)


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def encode_view(view: View) -> list[float]:
    """The fixed-length observation tensor of ``view``, every entry in [0, 1]."""
    n: int = view["players"]
    seat = view["seat"]
    me = 0 if seat is None else seat
    order = [(me + i) % n for i in range(n)]
    out: list[float] = []
    ext = out.extend
    for slot in range(MAX_PLAYERS):
        if slot < n:
            ext(c / 5.0 for c in view["adventurers"][order[slot]])
        else:
            ext([0.0] * NUM_FIELDS)
    for code in view["tiles"]:
        row = [0.0] * NUM_TILE_CODES
        row[code] = 1.0
        ext(row)
    for slot in range(MAX_PLAYERS):
        if slot < n:
            ext(1.0 if x else 0.0 for x in view["sleeping"][order[slot]])
        else:
            ext([0.0] * NUM_STATUES)
    own = view["hands"][me] if seat is not None else None
    for i in range(HAND_SIZE):
        row = [0.0] * NUM_CARD_KINDS
        if own is not None and i < len(own):
            row[own[i]] = 1.0
        ext(row)
    for slot in range(MAX_PLAYERS):
        origins = view["hand_origins"][order[slot]] if slot < n else []
        for i in range(HAND_SIZE):
            row = [0.0] * NUM_ORIGIN_CODES
            if i < len(origins):
                # 0: the starting deck (of any shuffle); 1..3: a Horus deck of that level
                row[0 if origins[i] >= 3 else origins[i] + 1] = 1.0
            ext(row)
    ext(_clip(c / 8.0) for c in view["discard"])
    ext(
        [
            _clip(view["draw_pile"] / 55.0),
            *(d / 8.0 for d in view["horus_decks"]),
            *(
                s / max(1, sum(stack))
                for s, stack in zip(view["temple_stacks"], TEMPLE_STACKS, strict=True)
            ),
            view["scarab_supply"] / sum(SCARAB_COUNTS),
            view["key_supply"] / KEYS,
            view["wild_supply"] / WILD_TREASURES,
        ]
    )
    for slot in range(MAX_PLAYERS):
        if slot >= n:
            ext([0.0] * _PER_PLAYER)
            continue
        s = order[slot]
        treasures = view["treasures"][s]
        per_type = [sum(treasures[t * 5 : (t + 1) * 5]) / 10.0 for t in range(3)]
        ext(
            [
                1.0,
                view["keys"][s] / KEYS,
                view["wilds"][s] / WILD_TREASURES,
                view["scarab_counts"][s] / sum(SCARAB_COUNTS),
                *per_type,
                _clip(view["scores"][s] / 200.0),
                1.0 if view["sarcophagi"][0] == s else 0.0,
                1.0 if view["sarcophagi"][1] == s else 0.0,
                view["adventurers"][s][BURIAL_CHAMBER] / 5.0,
                sum(treasures) / NUM_TREASURE_KINDS / 2.0,
            ]
        )
    mine = view["scarabs"][me] if seat is not None else None
    ext(_clip(c / 8.0) for c in (mine if mine is not None else [0] * len(SCARAB_COUNTS)))
    row = [0.0] * len(rules.PHASE_NAMES)
    row[rules.PHASE_NAMES.index(view["phase"])] = 1.0
    ext(row)
    row = [0.0] * MAX_PLAYERS
    row[(view["turn_seat"] - me) % n] = 1.0
    ext(row)
    row = [0.0] * NUM_CARD_KINDS
    if view["card_in_play"] >= 0:
        row[view["card_in_play"]] = 1.0
    ext(row)
    row = [0.0] * 6
    if view["roll"] > 0:
        row[view["roll"] - 1] = 1.0
    ext(row)
    ext(
        [
            1.0 if view["one_fewer"] else 0.0,
            1.0 if view["no_draw"] else 0.0,
            1.0 if view["ending"] else 0.0,
            _clip(view["from_field"] / BURIAL_CHAMBER),
            _clip(view["round"] / rules.MAX_ROUNDS),
            _clip(view["no_move_turns"] / MAX_PLAYERS),
        ]
    )
    row = [0.0] * NUM_FIELDS
    if view["phase"] in ("choose_adventurer", "choose_tile_action"):
        for f in view["options"]:
            row[f] = 1.0
    ext(row)
    return out


# --- determinization ---------------------------------------------------------------------


def resample(st: LuxorState, seat: int, rng: random.Random) -> LuxorState:
    """A state ``seat`` cannot tell from ``st``, its unseen cards and scarabs redrawn.

    Each pool is laid out sorted and shuffled as ``rng.shuffle`` would, the other seats'
    hidden things dealt from its end; only those last places are settled
    (:func:`~necropolis.engine.draws.shuffle_tail`), and the generator spends what the
    whole shuffle would, so one seed gives the world it always gave.
    """
    new = st.clone()
    new.ends_cache = None  # the mover's hand may be redrawn
    others = [s for s in range(st.num_players) if s != seat]
    # Cards: each origin (Horus level, starting-deck shuffle) is a pool of its own. What the
    # seat cannot place is that pool's undrawn rest plus the others' cards from it, counted
    # by kind; the places those cards fill, in seat order and then hand order.
    counts: dict[int, list[int]] = {}
    places: dict[int, list[tuple[list[int], int]]] = {}
    hands = [list(h) for h in st.hands]  # filled in below, then put back as tuples
    for s in others:
        hand = hands[s]
        for i, (kind, origin) in enumerate(zip(hand, st.origins[s], strict=True)):
            pool = counts.get(origin)
            if pool is None:
                pool = counts[origin] = [0] * NUM_CARD_KINDS
                places[origin] = []
            pool[kind] += 1
            places[origin].append((hand, i))
    for level in range(3):
        _add(counts, level, st.horus_counts[level])
    current = 3 + st.epoch
    _add(counts, current, st.draw_counts)
    horus = list(st.horus_counts)
    for origin in sorted(counts):
        # In kind order before the shuffle: the pool was gathered from the other hands, so
        # any other order would depend on their hidden cards, and one view with one seed
        # would give different worlds.
        rest = counts[origin]
        cards = _spread(rest)
        slots = places.get(origin, ())
        shuffle_tail(rng, cards, len(slots))
        for hand, i in slots:
            kind = hand[i] = cards.pop()
            rest[kind] -= 1
        if origin < 3:
            horus[origin] = tuple(rest)
        elif origin == current:
            new.draw_counts = bytearray(rest)
        else:
            assert not cards  # an old shuffle's pile is drawn out
    new.horus_counts = tuple(horus)
    new.hands = [tuple(h) for h in hands]
    if st.final is None:  # scarab values are shown at the end
        values = list(st.scarab_supply)
        hidden = 0
        for s in others:
            for v, c in enumerate(st.scarabs[s]):
                values[v] += c
                hidden += c
        pile = _spread(values)  # likewise: made view-only before the shuffle
        shuffle_tail(rng, pile, hidden)
        scarabs = list(st.scarabs)
        for s in others:
            mine = [0] * len(SCARAB_COUNTS)
            for _ in range(sum(st.scarabs[s])):
                v = pile.pop()
                mine[v] += 1
                values[v] -= 1
            scarabs[s] = tuple(mine)
        new.scarabs = tuple(scarabs)
        new.scarab_supply = tuple(values)
    return new


def _add(counts: dict[int, list[int]], origin: int, more: Sequence[int]) -> None:
    pool = counts.get(origin)
    if pool is None:
        counts[origin] = list(more)
    else:
        for kind, count in enumerate(more):
            pool[kind] += count


def _spread(counts: list[int]) -> list[int]:
    """Each kind as often as it is counted, in kind order."""
    items: list[int] = []
    for kind, count in enumerate(counts):
        if count:
            items += [kind] * count
    return items
