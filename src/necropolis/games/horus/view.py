"""What each seat may see of a game of The Pyramid of Horus, as a view and as a tensor.

``make_view`` is the only way hidden things leave a state. Hidden are: the undrawn decks,
piles and sarcophagus cards; cards lying face down in front of another player (under the
normal rules treasures, chests and necklaces; under total secrecy every card but the
idols), and whatever lies in another player's Bag; face-down cards in the discard pile;
a sarcophagus read with Linguistics (seen by its reader alone); a stone block checked with
Udjat or Clairvoyance (seen by its checker alone). The back of every hidden card (which
pile it came from) stays visible, as it does at the table. ``encode_view`` turns a view
into a fixed-length vector in [0, 1] (layout in docs/rules/horus.md); ``resample`` redraws
every hidden card and block consistently with one seat's view.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from necropolis.engine.draws import randbelow
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import (
    D_CHECK,
    D_REACT,
    D_ROOM,
    FIRST_CHANCE,
    N_TERMINAL,
    NODE_NAMES,
    PHASE_NAMES,
    STATUS_NAMES,
)
from necropolis.games.horus.text import card_hidden_to

if TYPE_CHECKING:
    from necropolis.games.horus.state import HorusState

_SARC_STATES = ("closed", "open", "empty")
#: Per pile, the card types that lie face down under the normal rules.
_FACE_DOWN_TYPES: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in types if cp.FACE_DOWN[t]) for types in cp.TYPES_OF_ORIGIN
)


#: Each card type's pile name, and each pile's card types as one slice of the supply
#: (every pile's types are numbered in a run: tests/horus/test_leaks.py holds the view's
#: counts to the pile's own types).
_ORIGIN_OF: tuple[str, ...] = tuple(cp.ORIGINS[cp.CARD_ORIGIN[t]] for t in range(cp.NUM_CARD_TYPES))
_DECK_SLICES: tuple[tuple[str, int, int], ...] = tuple(
    (cp.ORIGINS[o], cp.TYPES_OF_ORIGIN[o][0], cp.TYPES_OF_ORIGIN[o][-1] + 1)
    for o in (cp.RUBBLE, cp.SAND_DECK, cp.WATER_DECK, cp.MUMMY_PILE, cp.BLOCK_PILE)
)


def _count_by_origin(cards: list[int]) -> dict[str, int]:
    if not cards:
        return {}
    out: dict[str, int] = {}
    for t in cards:
        o = _ORIGIN_OF[t]
        out[o] = out.get(o, 0) + 1
    return dict(sorted(out.items())) if len(out) > 1 else out


def make_view(s: HorusState, seat: int | None) -> dict[str, Any]:
    player = s.current_player()
    acting = list(s.acting_seats())
    terminal = s.node == N_TERMINAL
    # (The table server builds every watching seat's view at every version: each card's
    # face is decided once, and a seat's own cards or a finished match's need no asking.)
    players = []
    card_name = cp.CARD_NAME
    for p in range(s.n):
        hand = s.hand[p]
        seen: list[int]
        unseen: list[int]
        if seat == p or terminal:
            seen, unseen = list(hand), []
        else:
            seen, unseen = [], []
            for t in hand:
                (unseen if card_hidden_to(s, t, seat, p) else seen).append(t)
        bag = s.bag[p]
        bag_seen = bag if seat == p or terminal else []
        adv = s.adventurer[p]
        square = s.square[p]
        players.append(
            {
                "seat": p,
                "adventurer": cp.ADVENTURERS[adv] if adv >= 0 else None,
                "adventurer_id": adv,
                "ability": cp.ABILITIES[adv] if adv >= 0 else None,
                "ability_used": s.ability_used[p],
                "square": square if square >= 0 else None,
                "status": STATUS_NAMES[s.status[p]],
                "status_id": s.status[p],
                "wll": s.wll[p],
                "stamina": s.stamina[p],
                "actions": s.actions[p],
                "card_count": len(hand),
                "cards": [card_name[t] for t in seen],
                "card_types": seen,
                "face_down": _count_by_origin(unseen),
                "bag": [card_name[t] for t in bag_seen],
                "bag_types": list(bag_seen),
                "bag_face_down": len(bag) - len(bag_seen),
                "chest_rolls": list(s.chest_rolls[p]),
            }
        )
    sarcophagi = []
    for k, (god, sq) in enumerate(cp.SARCOPHAGI):
        known = s.sarc_state[k] == 1 or (
            s.sarc_state[k] == 0 and s.sarc_card[k] >= 0 and s.peeked_by[k] == seat
        )
        sarcophagi.append(
            {
                "god": cp.GODS[god],
                "square": sq,
                "state": _SARC_STATES[s.sarc_state[k]],
                "card": cp.CARD_NAME[s.sarc_card[k]] if known else None,
                "card_type": s.sarc_card[k] if known else -1,
                "read_by": s.peeked_by[k] if s.peeked_by[k] >= 0 else None,
            }
        )
    mummies = [
        {
            "name": cp.MUMMY_NAMES[m]
            if m < len(cp.MUMMY_NAMES)
            else f"mummy of seat {s.mummy_seat[m]}",
            "section": cp.SECTION_NAMES[s.mummy_section[m]],
            "square": s.mummy_square(m),
            "facing": s.mummy_facing[m],
            "down": s.mummy_down[m],
            "seat": s.mummy_seat[m] if s.mummy_seat[m] >= 0 else None,
        }
        for m in range(len(s.mummy_pos))
    ]
    chosen_known = s.chosen_block >= 0 and s.chosen_known == seat and seat is not None
    checking = s.node == D_CHECK and s.node_seat == seat and seat is not None
    discard_seen = [t for t in s.discard if not cp.FACE_DOWN[t]]
    discard_unseen = [t for t in s.discard if cp.FACE_DOWN[t]]
    view: dict[str, Any] = {
        "game": "horus",
        "seat": seat,
        "options": {
            "total_secrecy": s.secrecy,
            "alternate_mummy_starts": bool(s.game.options["alternate_mummy_starts"]),
        },
        "round": s.round,
        "phase": PHASE_NAMES[s.phase],
        "phase_id": s.phase,
        "awaiting": NODE_NAMES[s.node],
        "awaiting_id": s.node,
        "awaiting_seat": s.node_seat if s.node < FIRST_CHANCE else None,
        "pending_card": pending_card(s, seat),
        "current_player": player,
        "acting_seats": acting,
        "legal_actions": s.legal_actions(seat) if seat is not None and seat in acting else [],
        "dice_keeper": s.dice_keeper,
        "turn_order": list(s.order),
        "dice": list(s.dice),
        "mummy_dice": list(s.mummy_dice),
        "lock": (
            {"idol": cp.GODS[s.lock_god], "dice": list(s.lock_dice), "to_roll": s.lock_to_roll}
            if s.lock_god >= 0
            else None
        ),
        "fallen_blocks": [b + 1 for b in range(cp.NUM_BLOCKS) if s.fallen[b]],
        "blocks_in_box": len(s.box),
        "block_set_aside": s.chosen_block >= 0,
        "block_set_aside_number": s.chosen_block + 1 if chosen_known else None,
        "checking_block": s.check_block + 1 if checking else None,
        "udjat_used_this_round": s.udjat_round,
        "mummies": mummies,
        "sarcophagi": sarcophagi,
        "idols_in_alcoves": [cp.GODS[g] for g in range(len(cp.GODS)) if s.alcove_idol[g]],
        "decks": {name: sum(s.supply[start:end]) for name, start, end in _DECK_SLICES},
        "discard": [cp.CARD_NAME[t] for t in discard_seen],
        "discard_types": discard_seen,
        "discard_face_down": _count_by_origin(discard_unseen),
        "players": players,
    }
    if s.is_terminal():
        view["scores"] = s.scores()
        view["returns"] = s.returns()
    return view


# --- the tensor ---------------------------------------------------------------------------

NT = cp.NUM_CARD_TYPES
NO = len(cp.ORIGINS)
_SEAT_FEATURES = 6 + cp.NUM_ADVENTURERS + 8 + NT + NO
_SIZES = {
    "squares": 5 * cp.NUM_SQUARES,
    "seats": 6 * _SEAT_FEATURES,
    "sarcophagi": 4 * cp.NUM_SARCOPHAGI,
    "alcoves": len(cp.GODS),
    "piles": 6,
    "discard": NT + NO,
    "dice": 3 * cp.NUM_DICE * 7 + len(cp.GODS) + 1,
    "state": 7 + len(NODE_NAMES) + 2 + 2 * cp.NUM_BLOCKS + 1 + 2,
}
OBSERVATION_SIZE = sum(_SIZES.values())


def encode(view: dict[str, Any]) -> list[float]:
    """The observation tensor of a view (every entry in [0, 1]); layout in the rules doc."""
    out: list[float] = []
    me = view["seat"]
    n = len(view["players"])
    rel = [(me + i) % n for i in range(n)] if me is not None else list(range(n))
    # squares
    blocked = set(cp.BLOCK_SQUARE[b - 1] for b in view["fallen_blocks"])
    standing = [0] * cp.NUM_SQUARES
    down = [0] * cp.NUM_SQUARES
    for m in view["mummies"]:
        if m["down"]:
            down[m["square"]] = 1
        else:
            standing[m["square"]] += 1
    mine = [0] * cp.NUM_SQUARES
    others = [0] * cp.NUM_SQUARES
    for p in view["players"]:
        if p["status_id"] == 1 and p["square"] is not None:
            if p["seat"] == me:
                mine[p["square"]] = 1
            else:
                others[p["square"]] += 1
    for sq in range(cp.NUM_SQUARES):
        out += [
            float(sq in blocked),
            min(standing[sq], 3) / 3,
            float(down[sq]),
            float(mine[sq]),
            min(others[sq], 6) / 6,
        ]
    # seats, the viewer first
    for slot in range(6):
        if slot >= n:
            out += [0.0] * _SEAT_FEATURES
            continue
        p = view["players"][rel[slot]]
        status = [0.0] * 6
        status[p["status_id"]] = 1.0
        adv = [0.0] * cp.NUM_ADVENTURERS
        if p["adventurer_id"] >= 0:
            adv[p["adventurer_id"]] = 1.0
        counts = [0.0] * NT
        for t in p["card_types"] + p["bag_types"]:
            counts[t] += 1.0 / cp.CARD_COUNT[t]
        hidden = [0.0] * NO
        for o, k in p["face_down"].items():
            hidden[cp.ORIGINS.index(o)] = min(k, 12) / 12
        out += status + adv
        out += [
            float(p["ability_used"]),
            min(p["wll"], 6) / 6,
            min(p["actions"], 5) / 5,
            float(p["stamina"]),
            float(view["dice_keeper"] == p["seat"]),
            float(view["current_player"] == p["seat"]),
            p["card_count"] / 12,
            min(p["bag_face_down"], 4) / 4,
        ]
        out += counts + hidden
    # sarcophagi
    for x in view["sarcophagi"]:
        value = cp.CARD_VALUE[x["card_type"]] / 10 if x["card_type"] >= 0 else 0.0
        out += [
            float(x["state"] == "closed"),
            float(x["state"] == "open"),
            float(x["state"] == "empty"),
            value,
        ]
    out += [float(g in view["idols_in_alcoves"]) for g in cp.GODS]
    decks = view["decks"]
    out += [
        decks["rubble"] / 18,
        decks["sand"] / 18,
        decks["water"] / 18,
        decks["mummy"] / 18,
        decks["block"] / 8,
        view["blocks_in_box"] / cp.NUM_BLOCKS,
    ]
    discard = [0.0] * NT
    for t in view["discard_types"]:
        discard[t] += 1.0 / cp.CARD_COUNT[t]
    hidden = [0.0] * NO
    for o, k in view["discard_face_down"].items():
        hidden[cp.ORIGINS.index(o)] = min(k, 18) / 18
    out += discard + hidden
    lock = view["lock"]
    for dice in (view["dice"], view["mummy_dice"], lock["dice"] if lock else [0] * cp.NUM_DICE):
        for d in dice:
            one = [0.0] * 7
            one[d] = 1.0
            out += one
    lock_god = [0.0] * (len(cp.GODS) + 1)
    lock_god[cp.GODS.index(lock["idol"]) if lock else len(cp.GODS)] = 1.0
    out += lock_god
    phase = [0.0] * 7
    phase[view["phase_id"]] = 1.0
    node = [0.0] * len(NODE_NAMES)
    node[view["awaiting_id"]] = 1.0
    out += phase + node
    out += [float(view["udjat_used_this_round"]), float(view["block_set_aside"])]
    known = [0.0] * (2 * cp.NUM_BLOCKS)
    if view["block_set_aside_number"] is not None:
        known[view["block_set_aside_number"] - 1] = 1.0
    if view["checking_block"] is not None:
        known[cp.NUM_BLOCKS + view["checking_block"] - 1] = 1.0
    out += known
    out.append(min(view["round"], cp.NUM_BLOCKS) / cp.NUM_BLOCKS)
    out += [
        float(view["options"]["total_secrecy"]),
        float(view["options"]["alternate_mummy_starts"]),
    ]
    return out


# --- resampling ----------------------------------------------------------------------------


def resample(s: HorusState, seat: int, rng: random.Random) -> HorusState:
    """Redraw everything ``seat`` cannot see, keeping every back and every count.

    Pile by pile (a card's back names its pile), every card the seat cannot see (in the
    undrawn supply or in a hidden slot) is pooled, and each hidden slot draws one card
    at random from the pool: a slot that must hold a face-down kind (a treasure, chest or
    necklace lying face down under the normal rules) draws first, among those kinds
    only. What is left of the pool is the new supply. Draws pick from counts per card
    type rather than shuffling whole decks, which makes this cheap enough to run at
    every iteration of a search. Every pool is put in an order of the seat's view (card
    type, pile, block number) before a draw from it, so that one view and one generator
    give one world whatever the hidden truth was. Each draw is
    :func:`~necropolis.engine.draws.randbelow`, ``rng.randrange`` done inline.
    """
    new = s.clone()
    # hidden slots per pile: (list holding the card, index, needs a face-down kind)
    by_origin: dict[int, list[tuple[list[int], int, bool]]] = {}
    origin_of = cp.CARD_ORIGIN
    secrecy = new.secrecy
    # the Bags and the sarcophagi as lists for the draws to fill, made tuples again after
    bags = [list(b) for b in new.bag]
    hands = [list(h) for h in new.hand]
    sarc_card = list(new.sarc_card)
    if new.node != N_TERMINAL:  # at the end every player shows his cards
        kind = cp.CARD_KIND
        face_down = cp.FACE_DOWN
        for p in range(new.n):
            if p == seat:
                continue
            hand = hands[p]
            for i, t in enumerate(hand):
                if kind[t] != cp.IDOL and (secrecy or face_down[t]):
                    by_origin.setdefault(origin_of[t], []).append((hand, i, not secrecy))
            bag = bags[p]
            for i, t in enumerate(bag):
                by_origin.setdefault(origin_of[t], []).append((bag, i, True))
    discard = new.discard
    for i, t in enumerate(discard):
        if cp.FACE_DOWN[t]:
            by_origin.setdefault(origin_of[t], []).append((discard, i, True))
    for k in range(cp.NUM_SARCOPHAGI):
        if new.sarc_state[k] == 0 and sarc_card[k] >= 0 and new.peeked_by[k] != seat:
            t = sarc_card[k]
            by_origin.setdefault(origin_of[t], []).append((sarc_card, k, False))
    supply = list(new.supply)
    for origin in sorted(by_origin):  # met in an order that hidden types decide
        group = by_origin[origin]
        # the pool: the undrawn cards of this pile and the hidden slots' own cards
        for holder, i, _ in group:
            supply[holder[i]] += 1
        types = cp.TYPES_OF_ORIGIN[origin]
        total = sum(map(supply.__getitem__, types))
        down_types = _FACE_DOWN_TYPES[origin]
        down_total = sum(map(supply.__getitem__, down_types))
        # constrained slots first, so that a face-down slot always finds a face-down card
        for holder, i, needs_face_down in sorted(group, key=lambda g: not g[2]):
            if needs_face_down:
                r = randbelow(rng, down_total)
                pick = down_types
            else:
                r = randbelow(rng, total)
                pick = types
            for t in pick:
                r -= supply[t]
                if r < 0:
                    break
            holder[i] = t
            supply[t] -= 1
            total -= 1
            if cp.FACE_DOWN[t]:
                down_total -= 1
    if new.node == D_REACT and new.secrecy and new.node_seat != seat:
        # the card just drawn, still unseen by the others: any card of its deck, drawn
        # from the deck's counts with the card put back among them first
        deck = cp.CARD_ORIGIN[new.node_arg]
        supply[new.node_arg] += 1
        deck_types = cp.TYPES_OF_ORIGIN[deck]
        r = randbelow(rng, sum(map(supply.__getitem__, deck_types)))
        for t in deck_types:
            r -= supply[t]
            if r < 0:
                break
        new.node_arg = t
        supply[t] -= 1
    for hand in (*hands, *bags, new.discard):
        hand.sort()
    new.hand = [tuple(h) for h in hands]
    new.bag = tuple(map(tuple, bags))
    new.sarc_card = tuple(sarc_card)
    new.supply = tuple(supply)
    if new.chosen_block >= 0 and new.chosen_known != seat:
        # the block set aside goes back among the others before one is drawn
        box = sorted((*new.box, new.chosen_block))
        new.chosen_block = box.pop(randbelow(rng, len(box)))
        new.box = tuple(box)
    if new.check_block >= 0 and new.node_seat != seat:
        new.check_block = new.box[randbelow(rng, len(new.box))]
    return new


def mummy_name(s: HorusState, m: int) -> str:
    if m < len(cp.MUMMY_NAMES):
        return cp.MUMMY_NAMES[m]
    return f"the mummy of seat {s.mummy_seat[m]}"


def pending_card(s: HorusState, seat: int | None) -> str | None:
    """The card a decision is about: a wound arriving at twelve cards, or a drawn card
    that Reflexes or Swimming might throw off (private to its finder under secrecy)."""
    if s.node == D_ROOM and s.node_arg >= 0:
        return cp.CARD_NAME[s.node_arg]
    if s.node == D_REACT and (not s.secrecy or seat == s.node_seat):
        return cp.CARD_NAME[s.node_arg]
    return None
