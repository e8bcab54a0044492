"""Views of a Luxor (2001) state and the observation tensor computed from them.

:func:`build_view` is the only place where hidden information is filtered: a seat sees its
own hand and pharaoh card, the values of the sarcophagi it has looked at (its own, and one
it handed over under a curse), and everything public (the wall, pillars, scarabs,
researchers, eye counts, hand and pile sizes, the back of the second pile's top card in
the curse variant). Lists whose order could betray hidden history are sorted.
:func:`encode_view` turns a view into a fixed-length vector in [0, 1]; its layout is
documented in ``docs/rules/luxor2001.md``. :func:`resample` goes the other way: a whole
state a seat cannot tell from the true one, its hidden things redrawn.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from necropolis.engine.draws import shuffle
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CELLS,
    CURSE_ANIMALS,
    NUM_ANIMALS,
    NUM_CARDS,
    NUM_CURSES,
    NUM_SCARABS,
    RESEARCHERS,
    STACK_HEIGHT,
    VALUE_EYES,
    VALUE_POINTS,
    VALUES_OF_EYES,
)

if TYPE_CHECKING:
    from necropolis.games.luxor2001.state import LuxorState

MAX_SEATS = 4


def build_view(st: LuxorState, seat: int | None) -> dict[str, Any]:
    n = st.n
    ended = st.phase == rules.END
    acting = list(st.acting_seats())
    legal = st.legal_actions(seat) if seat is not None and seat in acting else []
    sarcophagi = []
    for s in range(n):
        entries = []
        for code in st.held[s]:
            v = code & 7
            seen = ended or (seat is not None and code >> 3 & (1 << seat))
            entries.append([VALUE_EYES[v], VALUE_POINTS[v] if seen else None])
        entries.sort(key=lambda e: (e[0], -1 if e[1] is None else e[1]))
        sarcophagi.append(entries)
    pillars = [
        {
            "animal": ANIMALS[a],
            "researcher": st.occupant[a] if st.occupant[a] >= 0 else None,
            "scarabs": st.scarabs[a],
            # eye counts from the top of the stack down: 1, 2, 3 eyes when it is full
            "sarcophagi": list(range(STACK_HEIGHT + 1 - st.stack[a], STACK_HEIGHT + 1)),
        }
        for a in range(NUM_ANIMALS)
    ]
    curse: dict[str, Any] | None = None
    if st.curse:
        back = {-1: None, 0: "hieroglyph", 1: "curse"}[st.back]
        curse = {
            "first_pile": st.pile1,
            "second_pile": rules.pile2_size(st),
            "curses_in_pile": len(st.curses_left),
            "next_back": back,
            "card": [ANIMALS[a] for a in CURSE_ANIMALS[st.curse_card]]
            if st.curse_card >= 0
            else None,
            "passed": [s for s in range(n) if st.passed >> s & 1],
            "victim": st.victim if st.victim >= 0 else None,
            "out": sorted(st.curses_out),
        }
    final: dict[str, Any] | None = None
    if st.phase == rules.FINAL:
        final = {
            "seat": st.final_seat,
            "gave": [a for a in range(NUM_ANIMALS) if st.src_mask >> a & 1],
            "received": [a for a in range(NUM_ANIMALS) if st.dst_mask >> a & 1],
        }
    own_hand = sorted(st.hands[seat]) if seat is not None else None
    own_pharaoh = st.pharaoh[seat] if seat is not None else -1
    return {
        "game": "luxor2001",
        "players": n,
        "seat": seat,
        "variants": {"curse": st.curse, "sphinx": st.sphinx},
        "phase": rules.PHASE_NAMES[st.phase],
        "current_player": st.current_player(),
        "acting_seats": acting,
        "legal_actions": legal,
        "turn": st.player,
        "wall": list(st.wall),
        "heights": list(st.heights),
        "last_insert": st.last_cells if st.last_cells >= 0 else None,
        "pillars": pillars,
        "pillar_order": [ANIMALS[a] for a in st.pillar_order],
        "scarab_supply": st.scarab_supply,
        "researchers_in_supply": list(st.res_supply),
        "hand": own_hand,
        "hand_sizes": [len(h) for h in st.hands],
        "pharaoh": ANIMALS[own_pharaoh] if own_pharaoh >= 0 else None,
        "pharaohs": [ANIMALS[a] if a >= 0 else None for a in st.pharaoh] if ended else None,
        "sarcophagi": sarcophagi,
        "draw_pile": len(st.pile) + len(st.curses_left),
        "curse": curse,
        "pairs_pending": sorted(st.tokens),
        "scarabs_placed_now": list(st.placed_now),
        "relocating_for": st.pending >> 1 if st.pending >= 0 else None,
        "opening": st.open_pillar if st.open_pillar >= 0 else None,
        "final": final,
        "scores": st.scores() if ended else None,
    }


# --- the observation tensor -------------------------------------------------------------------

_PHASES = len(rules.PHASE_NAMES)
_SIZES = (
    ("players", 3),  # one-hot 2, 3, 4 players
    ("viewer", MAX_SEATS + 1),  # one-hot seat, last: spectator
    ("variants", 2),  # curse, sphinx
    ("phase", _PHASES),
    ("current", MAX_SEATS + 1),  # one-hot seat to act, last: chance or terminal
    ("acting", MAX_SEATS),
    ("turn", MAX_SEATS),
    ("wall", CELLS * (NUM_ANIMALS + 1)),  # per cell: animal one-hot, then faces right
    ("heights", 8),  # cards per shaft / 5
    ("pillars", NUM_ANIMALS * (MAX_SEATS + 3)),  # occupant one-hot (+none), scarabs/3, stack/3
    ("scarab_supply", 1),
    ("researchers", MAX_SEATS),  # in supply / 5
    ("hand", NUM_CARDS),
    ("hand_sizes", MAX_SEATS),  # / 3
    ("pharaoh", NUM_ANIMALS),
    ("pharaohs", MAX_SEATS * NUM_ANIMALS),  # only at the end
    ("sarcophagi", MAX_SEATS * (3 + 7)),  # per seat: eye counts / 7, seen values / 7
    ("pile", 1),  # / 55
    ("curse", 5 + NUM_ANIMALS + MAX_SEATS + MAX_SEATS + NUM_CURSES),
    ("pairs", NUM_ANIMALS * 2),  # pending pair tokens / 8
    ("placed_now", NUM_ANIMALS),  # / 2
    ("relocating", NUM_ANIMALS),
    ("final", MAX_SEATS + 2 * NUM_ANIMALS),
    ("scores", MAX_SEATS),  # / 100, only at the end
)
OBSERVATION_SIZE = sum(size for _, size in _SIZES)
_ANIMAL_INDEX = {name: i for i, name in enumerate(ANIMALS)}
_VALUE_INDEX = {(e, p): i for i, (e, p) in enumerate(zip(VALUE_EYES, VALUE_POINTS, strict=True))}


def encode_view(v: dict[str, Any]) -> list[float]:
    out: list[float] = []
    add = out.extend
    n = v["players"]
    add(_one_hot(n - 2, 3))
    add(_one_hot(MAX_SEATS if v["seat"] is None else v["seat"], MAX_SEATS + 1))
    add([float(v["variants"]["curse"]), float(v["variants"]["sphinx"])])
    add(_one_hot(rules.PHASE_NAMES.index(v["phase"]), _PHASES))
    cp = v["current_player"]
    add(_one_hot(cp if cp >= 0 else MAX_SEATS, MAX_SEATS + 1))
    add(_bits(v["acting_seats"], MAX_SEATS))
    add(_one_hot(v["turn"], MAX_SEATS))
    wall = [0.0] * (CELLS * (NUM_ANIMALS + 1))
    for cell, code in enumerate(v["wall"]):
        if code >= 0:
            base = cell * (NUM_ANIMALS + 1)
            wall[base + (code >> 1)] = 1.0
            wall[base + NUM_ANIMALS] = float(code & 1)
    add(wall)
    add([h / 5 for h in v["heights"]])
    for p in v["pillars"]:
        r = p["researcher"]
        add(_one_hot(MAX_SEATS if r is None else r, MAX_SEATS + 1))
        add([p["scarabs"] / 3, len(p["sarcophagi"]) / STACK_HEIGHT])
    add([v["scarab_supply"] / NUM_SCARABS])
    add(_pad([r / RESEARCHERS for r in v["researchers_in_supply"]], MAX_SEATS))
    add(_bits(v["hand"] or [], NUM_CARDS))
    add(_pad([h / 3 for h in v["hand_sizes"]], MAX_SEATS))
    own = v["pharaoh"]
    add(_one_hot(_ANIMAL_INDEX[own], NUM_ANIMALS) if own else [0.0] * NUM_ANIMALS)
    pharaohs = v["pharaohs"] or []
    for s in range(MAX_SEATS):
        name = pharaohs[s] if s < len(pharaohs) else None
        add(_one_hot(_ANIMAL_INDEX[name], NUM_ANIMALS) if name else [0.0] * NUM_ANIMALS)
    for s in range(MAX_SEATS):
        eyes = [0.0] * 3
        seen = [0.0] * 7
        for e, points in v["sarcophagi"][s] if s < n else []:
            eyes[e - 1] += 1 / 7
            if points is not None:
                seen[_VALUE_INDEX[(e, points)]] += 1 / 7
        add(eyes + seen)
    add([v["draw_pile"] / (NUM_CARDS + NUM_CURSES)])
    c = v["curse"]
    if c is None:
        add([0.0] * (5 + NUM_ANIMALS + 2 * MAX_SEATS + NUM_CURSES))
    else:
        add(
            [
                1.0,
                c["first_pile"] / 20,
                c["second_pile"] / 35,
                float(c["next_back"] == "hieroglyph"),
                float(c["next_back"] == "curse"),
            ]
        )
        add(_bits([_ANIMAL_INDEX[a] for a in c["card"] or []], NUM_ANIMALS))
        add(_bits(c["passed"], MAX_SEATS))
        add(_bits([] if c["victim"] is None else [c["victim"]], MAX_SEATS))
        add(_bits(c["out"], NUM_CURSES))
    pairs = [0.0] * (NUM_ANIMALS * 2)
    for t in v["pairs_pending"]:
        pairs[t] = min(1.0, pairs[t] + 1 / 8)
    add(pairs)
    add([x / 2 for x in v["scarabs_placed_now"]])
    rel = v["relocating_for"]
    add(_one_hot(rel, NUM_ANIMALS) if rel is not None else [0.0] * NUM_ANIMALS)
    f = v["final"]
    if f is None:
        add([0.0] * (MAX_SEATS + 2 * NUM_ANIMALS))
    else:
        add(_one_hot(f["seat"], MAX_SEATS))
        add(_bits(f["gave"], NUM_ANIMALS))
        add(_bits(f["received"], NUM_ANIMALS))
    scores = v["scores"] or []
    add(_pad([min(1.0, s / 100) for s in scores], MAX_SEATS))
    return out


def _one_hot(i: int, size: int) -> list[float]:
    out = [0.0] * size
    out[i] = 1.0
    return out


def _bits(items: list[int], size: int) -> list[float]:
    out = [0.0] * size
    for i in items:
        out[i] = 1.0
    return out


def _pad(values: list[float], size: int) -> list[float]:
    return values + [0.0] * (size - len(values))


# --- determinization ---------------------------------------------------------------------


def resample(st: LuxorState, seat: int, rng: random.Random) -> LuxorState:
    """Redraw other hands, other pharaoh cards and unseen sarcophagus values.

    The shuffles are :func:`necropolis.engine.draws.shuffle`, the standard library's
    own done inline: one generator gives the worlds it always gave, only sooner.
    """
    new = st.clone()
    n = st.n
    # Cards: the pile and the other hands are one pool of cards this seat has not seen.
    others = [s for s in range(n) if s != seat]
    # Sorted first, so the result depends only on the view and the generator.
    pool = sorted(new.pile + [c for s in others for c in new.hands[s]])
    shuffle(rng, pool)
    k = 0
    for s in others:
        size = len(new.hands[s])
        new.hands[s] = tuple(sorted(pool[k : k + size]))
        k += size
    new.pile = sorted(pool[k:])
    if st.phase == rules.END:
        return new  # pharaoh cards and sarcophagus values are all shown at the end
    # Pharaoh cards: others' are drawn from the animals this seat's card is not.
    dealt = [s for s in others if new.pharaoh[s] >= 0]
    free = [a for a in range(NUM_ANIMALS) if a != new.pharaoh[seat]]
    shuffle(rng, free)
    pharaoh = list(new.pharaoh)
    for s, animal in zip(dealt, free, strict=False):
        pharaoh[s] = animal
    new.pharaoh = tuple(pharaoh)
    # Sarcophagus values this seat has not seen, redrawn within each eye count; the
    # slots of each count in seat order, then in the order each seat holds them.
    seen_bit = 8 << seat  # the seen-by mask starts at bit 3
    slots_of: dict[int, list[tuple[int, int]]] = {}
    for s in range(n):
        for i, code in enumerate(new.held[s]):
            if not code & seen_bit:
                slots_of.setdefault(VALUE_EYES[code & 7], []).append((s, i))
    if not slots_of:
        return new
    held = [list(h) for h in new.held]
    value_pool = list(new.value_pool)
    for eyes in (1, 2, 3):
        slots = slots_of.get(eyes)
        if not slots:
            continue
        kinds = VALUES_OF_EYES[eyes]
        values = [held[s][i] & 7 for s, i in slots]
        for v in kinds:
            values += [v] * value_pool[v]
        values.sort()
        shuffle(rng, values)
        for (s, i), v in zip(slots, values, strict=False):
            held[s][i] = (held[s][i] & ~7) | v
        rest = values[len(slots) :]
        for v in kinds:
            value_pool[v] = rest.count(v)
    new.held = tuple(tuple(h) for h in held)
    new.value_pool = tuple(value_pool)
    return new
