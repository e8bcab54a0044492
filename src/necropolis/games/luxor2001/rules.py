"""The rules of Luxor (Baars, 2001): legal actions, chance outcomes and their effects.

A turn is a chain of small steps, each either a decision or a chance event, tracked by
``state.phase``: the mover inserts a card; the pairs that insertion formed become
*tokens* (animal, facing kind) that are scored one at a time, the mover choosing the order
only when the order can change the outcome; a token may stop for a decision (which of
one's own researchers to move when none is left in supply) or a chance event (the value
of a sarcophagus that a third scarab opened); then the mover draws (in the curse variant
a curse card may interrupt with a race window). When the wall is full each seat in turn
may move scarabs between its own pillars, then the match ends. Every function here takes
the state and changes it in place; they are only ever called with legal actions.

While they apply an action for someone who asked (``state.sink`` set), they append what
happened to the sink as the events of :mod:`.events`: the log, the page's marks and the
end-of-game statistics read those, so every rule here is worked out here alone. In a
search the sink is None and each ``if sink is not None`` is all the events cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from necropolis.engine.frozen import added, removed, replaced
from necropolis.engine.protocol import CHANCE, TERMINAL
from necropolis.games.luxor2001 import events as ev
from necropolis.games.luxor2001.components import (
    CARD_BOTTOM_CODE,
    CARD_TOP_CODE,
    CH_BACK,
    CH_CARD,
    CH_CURSE,
    CH_PHARAOH,
    CH_VALUE,
    CLAIM_BASE,
    CURSE_MASKS,
    DIFFERENT,
    DONE,
    GIVE_BASE,
    HAND_SIZE,
    INSERT_BASE,
    LINES,
    LINES_OF_CELL,
    MAX_SCARABS_AT_PILLAR,
    MAX_SCARABS_PER_INSERTION,
    MOVE_BASE,
    NEIGHBOURS,
    NUM_ANIMALS,
    NUM_CARDS,
    NUM_CHANCE_OUTCOMES,
    NUM_CURSES,
    NUM_VALUES,
    ORDER_BASE,
    PASS_BASE,
    RELOCATE_BASE,
    SAME,
    SHAFTS,
    STACK_HEIGHT,
    STAY,
    TRIPLES,
    VALUE_EYES,
    VALUES_OF_EYES,
    WALL_CARDS,
)

if TYPE_CHECKING:
    from necropolis.engine.events import Event
    from necropolis.games.luxor2001.state import LuxorState

# Phases. Chance phases: PHARAOH, DEAL, OPEN, DRAW, BACK, CURSE.
PHARAOH = 0  # deal a pharaoh card to seat deal_k
DEAL = 1  # deal a hieroglyph card to seat deal_k % n
INSERT = 2  # the mover inserts a card
ORDER = 3  # the mover picks which pending pair to score next
RELOCATE = 4  # the mover picks which of their pillars to take a researcher from
OPEN = 5  # the value of the sarcophagus just opened
DRAW = 6  # the mover draws a hieroglyph card
BACK = 7  # the back of the new top card of the second pile (curse variant)
CURSE = 8  # which curse card is revealed
WINDOW = 9  # the race to find the curse's animals
GIVE = 10  # the cursed seat picks the sarcophagus it gives away
FINAL = 11  # the final scarab moves of seat final_seat
END = 12

PHASE_NAMES = (
    "pharaoh",
    "deal",
    "insert",
    "order",
    "relocate",
    "open",
    "draw",
    "back",
    "curse",
    "window",
    "give",
    "final",
    "end",
)
_CHANCE_PHASES = frozenset((PHARAOH, DEAL, OPEN, DRAW, BACK, CURSE))

# Where scoring resumes after a sarcophagus is opened.
RESUME_TOKENS = 0
RESUME_FINAL = 1


# --- whose move -----------------------------------------------------------------------------


def current_player(st: LuxorState) -> int:
    phase = st.phase
    if phase in _CHANCE_PHASES:
        return CHANCE
    if phase == END:
        return TERMINAL
    if phase == WINDOW:
        n = st.n
        for k in range(n):
            seat = (st.player + k) % n
            if not st.passed >> seat & 1:
                return seat
        return TERMINAL  # unreachable: the window closes when the last seat passes
    if phase == GIVE:
        return st.victim
    if phase == FINAL:
        return st.final_seat
    return st.player


def acting_seats(st: LuxorState) -> tuple[int, ...]:
    if st.phase == WINDOW:
        n = st.n
        return tuple(
            (st.player + k) % n for k in range(n) if not st.passed >> ((st.player + k) % n) & 1
        )
    seat = current_player(st)
    return (seat,) if seat >= 0 else ()


# --- legal actions --------------------------------------------------------------------------


def legal_actions(st: LuxorState, seat: int) -> list[int]:
    phase = st.phase
    if phase == INSERT:
        open_shafts = [s for s in range(SHAFTS) if st.heights[s] < 5]
        return [INSERT_BASE + c * SHAFTS + s for c in sorted(st.hands[seat]) for s in open_shafts]
    if phase == ORDER:
        return [ORDER_BASE + t for t in sorted(set(st.tokens))]
    if phase == RELOCATE:
        target = st.pending >> 1
        sources = [a for a in range(NUM_ANIMALS) if st.occupant[a] == seat and a != target]
        moves = [RELOCATE_BASE + a for a in sources]
        if st.pending & 1 == SAME and st.occupant[target] == -1 and scarab_fits(st, target):
            # A same-facing pair at a free pillar grants a scarab outright, and a scarab
            # stands only where a researcher does: staying would forfeit the grant, so
            # here moving one of one's own researchers is not optional. Where no scarab
            # can come (the slab empty, the pillar full, two placed there this turn),
            # there is no grant to forfeit, and the rulebook's "may move" stands.
            return moves
        return [*moves, STAY]
    if phase == WINDOW:
        return [CLAIM_BASE + seat * 4 + v for v in curse_victims(st)] + [PASS_BASE + seat]
    if phase == GIVE:
        return [GIVE_BASE + v for v in sorted({code & 7 for code in st.held[seat]})]
    if phase == FINAL:
        return [MOVE_BASE + x * NUM_ANIMALS + y for x, y in final_moves(st)] + [DONE]
    return []


def is_legal(st: LuxorState, action: int) -> bool:
    phase = st.phase
    if phase in _CHANCE_PHASES:
        return any(a == action for a, _ in chance_outcomes(st))
    if phase == END:
        return False
    if phase == INSERT:
        card, shaft = divmod(action - INSERT_BASE, SHAFTS)
        return (
            0 <= action - INSERT_BASE < NUM_CARDS * SHAFTS
            and card in st.hands[st.player]
            and st.heights[shaft] < 5
        )
    if phase == WINDOW:
        if CLAIM_BASE <= action < PASS_BASE:
            seat = (action - CLAIM_BASE) // 4
        elif PASS_BASE <= action < PASS_BASE + 4:
            seat = action - PASS_BASE
        else:
            return False
        return seat < st.n and not st.passed >> seat & 1 and action in legal_actions(st, seat)
    return action in legal_actions(st, current_player(st))


def curse_victims(st: LuxorState) -> list[int]:
    """Seats the curse may strike: holders of a sarcophagus other than the drawer."""
    return [v for v in range(st.n) if v != st.player and st.held[v]]


def curse_found(st: LuxorState) -> bool:
    """Whether the revealed curse card's three animals stand side by side in a line."""
    mask = CURSE_MASKS[st.curse_card]
    wall = st.wall
    for a, b, c in TRIPLES:
        x, y, z = wall[a], wall[b], wall[c]
        if (
            x >= 0
            and y >= 0
            and z >= 0
            and (1 << (x >> 1)) | (1 << (y >> 1)) | (1 << (z >> 1)) == mask
        ):
            return True
    return False


def final_moves(st: LuxorState) -> list[tuple[int, int]]:
    """The (source, target) scarab moves open to the final seat.

    Sources and targets stay disjoint within a seat's final moves (a pillar that gave a
    scarab never receives one and the reverse), which keeps the phase finite and loses
    nothing: passing a scarab through a pillar is never better than moving it directly.
    """
    seat = st.final_seat
    occ, scarabs, stack = st.occupant, st.scarabs, st.stack
    mine = [a for a in range(NUM_ANIMALS) if occ[a] == seat]
    sources = [a for a in mine if scarabs[a] > 0 and not st.dst_mask >> a & 1]
    targets = [
        a
        for a in mine
        if stack[a] > 0 and scarabs[a] < MAX_SCARABS_AT_PILLAR and not st.src_mask >> a & 1
    ]
    return [(x, y) for x in sources for y in targets if x != y]


# --- chance ---------------------------------------------------------------------------------


def pile2_size(st: LuxorState) -> int:
    return len(st.pile) - st.pile1 + len(st.curses_left)


def chance_outcomes(st: LuxorState) -> list[tuple[int, float]]:
    phase = st.phase
    if phase in (DRAW, DEAL):
        p = 1.0 / len(st.pile)
        return [(CH_CARD + c, p) for c in st.pile]
    if phase == OPEN:
        eyes = STACK_HEIGHT + 1 - st.stack[st.open_pillar]
        values = VALUES_OF_EYES[eyes]
        total = sum(st.value_pool[v] for v in values)
        return [(CH_VALUE + v, st.value_pool[v] / total) for v in values if st.value_pool[v]]
    if phase == PHARAOH:
        free = [a for a in range(NUM_ANIMALS) if a not in st.pharaoh]
        p = 1.0 / len(free)
        return [(CH_PHARAOH + a, p) for a in free]
    if phase == BACK:
        curses = len(st.curses_left)
        total = pile2_size(st)
        out = []
        if total - curses:
            out.append((CH_BACK, (total - curses) / total))
        if curses:
            out.append((CH_BACK + 1, curses / total))
        return out
    if phase == CURSE:
        p = 1.0 / len(st.curses_left)
        return [(CH_CURSE + k, p) for k in st.curses_left]
    return []


def chance_kind(st: LuxorState) -> str:
    """The stream a chance node draws from in duplicate deals: the hieroglyph cards
    (the deal too), the sarcophagus values, the pharaoh cards, the backs of the second
    pile's top cards and the curse cards (the curse variant)."""
    phase = st.phase
    if phase == OPEN:
        return "sarcophagus value"
    if phase == PHARAOH:
        return "pharaoh card"
    if phase == BACK:
        return "back of the second pile's top card"
    if phase == CURSE:
        return "curse card"
    return "hieroglyph card"  # DRAW, DEAL


# --- applying -------------------------------------------------------------------------------


def apply(st: LuxorState, action: int) -> None:
    phase = st.phase
    if phase == INSERT:
        _insert(st, *divmod(action - INSERT_BASE, SHAFTS))
    elif phase == DRAW:
        _draw(st, action - CH_CARD)
    elif phase == ORDER:
        if _score_next(st, action - ORDER_BASE):
            resume_tokens(st)
    elif phase == OPEN:
        _open(st, action - CH_VALUE)
    elif phase == RELOCATE:
        token, st.pending = st.pending, -1
        animal = token >> 1
        if action == STAY:
            # The researcher part of the pair lapses. A same-facing pair still gives its
            # scarab where someone else's researcher stands (a swap declined); at a free
            # pillar it gives none, since in every rule a scarab goes only where a
            # researcher stands, and the third one opens a sarcophagus for that researcher.
            if st.sink is not None:
                st.sink.append(ev.ResearchersKept(st.player, animal))
            if token & 1 == SAME and st.occupant[animal] >= 0:
                done = _place_scarab(st, animal)
            else:
                if st.sink is not None:
                    st.sink.append(ev.PairLapsed(animal))
                done = True
        else:
            source = action - RELOCATE_BASE
            st.occupant = replaced(st.occupant, source, -1)
            st.res_supply = added(st.res_supply, st.player, 1)
            done = _score(st, token, source)
        if done:
            resume_tokens(st)
    elif phase == DEAL:
        _deal(st, action - CH_CARD)
    elif phase == PHARAOH:
        if st.sink is not None:
            st.sink.append(ev.PharaohDealt(st.deal_k, action - CH_PHARAOH))
        st.pharaoh = replaced(st.pharaoh, st.deal_k, action - CH_PHARAOH)
        st.deal_k += 1
        if st.deal_k == st.n:
            st.deal_k = 0
            st.phase = DEAL
    elif phase == BACK:
        st.back = action - CH_BACK
        if st.sink is not None:
            st.sink.append(ev.BackShown(st.back))
        if st.need_card:
            _start_draw(st)
        elif st.inserted == 0:
            st.phase = INSERT  # the setup's reveal: the first player begins
        else:
            _next_turn(st)
    elif phase == CURSE:
        _reveal_curse(st, action - CH_CURSE)
    elif phase == WINDOW:
        if action >= PASS_BASE:
            st.passed |= 1 << (action - PASS_BASE)
            if st.sink is not None:
                st.sink.append(ev.CursePassed(action - PASS_BASE))
            if st.passed == (1 << st.n) - 1:
                if st.sink is not None:
                    st.sink.append(ev.CurseLapsed())
                _end_curse(st)
        else:
            claimant, st.victim = divmod(action - CLAIM_BASE, 4)
            if st.sink is not None:
                st.sink.append(ev.CurseClaimed(claimant, st.victim))
            held = st.held[st.victim]
            # Asked whenever it holds more than one: skipping the question when all its
            # values are equal would tell the table something only the victim knows.
            if len(held) == 1:
                give_sarcophagus(st, held[0] & 7)
            else:
                st.phase = GIVE
    elif phase == GIVE:
        give_sarcophagus(st, action - GIVE_BASE)
    elif phase == FINAL:
        if action == DONE:
            if st.sink is not None:
                st.sink.append(ev.StoppedMoving(st.final_seat))
            _next_final_seat(st)
        else:
            x, y = divmod(action - MOVE_BASE, NUM_ANIMALS)
            if st.sink is not None:
                st.sink.append(ev.ScarabMoved(st.final_seat, x, y))
            st.scarabs[x] -= 1
            st.scarabs[y] += 1
            st.src_mask |= 1 << x
            st.dst_mask |= 1 << y
            if st.scarabs[y] == MAX_SCARABS_AT_PILLAR and st.stack[y] > 0:
                _start_open(st, y, RESUME_FINAL)
            else:
                _final_continue(st, False)
    if st.sink is not None and st.tokens:
        st.sink.append(ev.PairsWaiting(st.player, _waiting_pairs(st)))


def _deal(st: LuxorState, card: int) -> None:
    st.pile.remove(card)
    st.hands[st.deal_k % st.n] += (card,)
    if st.sink is not None:
        st.sink.append(ev.CardDealt(st.deal_k % st.n, card))
    if st.curse:
        st.pile1 -= 1
    st.deal_k += 1
    if st.deal_k == HAND_SIZE * st.n:
        st.deal_k = 0
        # The second pile lies beside the first from the start: its top back is public.
        st.phase = BACK if st.curse else INSERT


def _insert(st: LuxorState, card: int, shaft: int) -> None:
    st.hands[st.player] = removed(st.hands[st.player], card)
    level = st.heights[shaft]
    st.heights[shaft] = level + 1
    st.inserted += 1
    bottom = 2 * level * SHAFTS + shaft
    top = bottom + SHAFTS
    bcode, tcode = CARD_BOTTOM_CODE[card], CARD_TOP_CODE[card]
    wall = st.wall
    wall[bottom] = bcode
    wall[top] = tcode
    st.last_cells = bottom
    st.placed_now = [0] * NUM_ANIMALS
    sink = st.sink
    if sink is None:
        st.tokens = tuple(pairs(wall, bottom, st.sphinx))
    else:
        cells: list[tuple[int, int]] = []
        st.tokens = tuple(pairs(wall, bottom, st.sphinx, cells))
        sink.append(ev.CardInserted(st.player, card, shaft, level, bottom, len(st.tokens)))
        for token, two in zip(st.tokens, cells, strict=True):
            sink.append(ev.PairFormed(token >> 1, token & 1 == SAME, two))
    st.need_card = st.inserted < WALL_CARDS
    resume_tokens(st)


def pairs(
    wall: Sequence[int], bottom: int, sphinx: bool, cells: list[tuple[int, int]] | None = None
) -> list[int]:
    """Tokens (animal * 2 + kind) of the pairs the card whose lower half is at ``bottom``
    formed on ``wall``, in the variant's way; with ``cells``, the two cells of each pair
    are appended to it in the same order."""
    top = bottom + SHAFTS
    if sphinx:
        return sphinx_pairs(wall, bottom, top, cells)
    return adjacent_pairs(wall, bottom, top, cells)


def adjacent_pairs(
    wall: Sequence[int], bottom: int, top: int, cells: list[tuple[int, int]] | None = None
) -> list[int]:
    """Tokens (animal * 2 + kind) of the new adjacent pairs: each touches a new cell."""
    tokens = []
    for cell, other in ((bottom, top), (top, bottom)):
        code = wall[cell]
        animal = code >> 1
        for nb in NEIGHBOURS[cell]:
            if nb != other:
                v = wall[nb]
                if v >= 0 and v >> 1 == animal:
                    tokens.append(2 * animal + (SAME if v == code else DIFFERENT))
                    if cells is not None:
                        cells.append((cell, nb))
    b, t = wall[bottom], wall[top]
    if b >> 1 == t >> 1:  # a card showing the same animal twice pairs with itself
        tokens.append(b - (b & 1) + (SAME if b == t else DIFFERENT))
        if cells is not None:
            cells.append((bottom, top))
    return tokens


def sphinx_pairs(
    wall: Sequence[int], bottom: int, top: int, cells: list[tuple[int, int]] | None = None
) -> list[int]:
    """Tokens of the Sphinx variant: an animal's second appearance in a line pairs.

    For each line through a new cell and each animal the new card brought into it: if the
    line now holds exactly two of that animal and held fewer before, the two form a pair;
    a third or later one forms nothing (and never undoes the earlier pair).
    """
    tokens = []
    for line_id in sorted(set(LINES_OF_CELL[bottom]) | set(LINES_OF_CELL[top])):
        line = LINES[line_id]
        added = [c for c in (bottom, top) if c in line]
        for animal in {wall[c] >> 1 for c in added}:
            found = [c for c in line if wall[c] >= 0 and wall[c] >> 1 == animal]
            new = sum(1 for c in added if wall[c] >> 1 == animal)
            if len(found) == 2 and len(found) - new < 2:
                first, second = found
                tokens.append(2 * animal + (SAME if wall[first] == wall[second] else DIFFERENT))
                if cells is not None:
                    cells.append((first, second))
    return tokens


def _pairs_with_cells(st: LuxorState) -> list[tuple[int, tuple[int, int]]]:
    """Every pair the last insertion formed, ``(token, cells)`` (for events only)."""
    cells: list[tuple[int, int]] = []
    tokens = pairs(st.wall, st.last_cells, st.sphinx, cells)
    return list(zip(tokens, cells, strict=True))


def _scored_cells(st: LuxorState, token: int) -> tuple[int, int]:
    """The cells of the pair ``token`` that scores now (just taken from ``st.tokens``):
    pairs of one token are alike, so the k-th of them to score takes the k-th one's cells."""
    alike = [two for t, two in _pairs_with_cells(st) if t == token]
    return alike[len(alike) - st.tokens.count(token) - 1]


def _waiting_pairs(st: LuxorState) -> tuple[tuple[int, bool, int, int], ...]:
    """The pairs still to score, ``(animal, same, cell, cell)``, as :func:`_scored_cells`
    assigns cells (the last ones of each token are the ones left)."""
    formed = _pairs_with_cells(st)
    out = []
    for token in sorted(set(st.tokens)):
        alike = [two for t, two in formed if t == token]
        for a, b in alike[len(alike) - st.tokens.count(token) :]:
            out.append((token >> 1, token & 1 == SAME, a, b))
    return tuple(out)


def order_matters(st: LuxorState) -> bool:
    """Whether the order of scoring the pending pairs could change anything.

    Pairs of different animals touch different pillars, so their order matters only
    through shared supplies: the mover's researchers (a relocation may empty a pillar that
    another pair then fills) and the scarabs. Pairs of one animal of both kinds interact
    unless the mover already holds that pillar. The test is conservative: it may ask when
    the order happens not to matter, never the reverse.
    """
    tokens = st.tokens
    if len(tokens) < 2:
        return False
    kinds = [0] * NUM_ANIMALS
    for t in tokens:
        kinds[t >> 1] |= 1 << (t & 1)
    if sum(1 for k in kinds if k) + sum(1 for k in kinds if k == 3) < 2:
        return False  # one animal, one kind: all tokens are alike
    p = st.player
    need = 0
    for a in range(NUM_ANIMALS):
        k = kinds[a]
        if not k:
            continue
        occ = st.occupant[a]
        if k == 3 and occ != p:
            return True
        if (k & 1 and occ == -1) or (k & 2 and occ != p):
            need += 1
    return need > st.res_supply[p] or st.scarab_supply < len(tokens)


def resume_tokens(st: LuxorState) -> None:
    """Score pending pairs until a decision or chance event is due, then end the turn."""
    while st.tokens:
        if order_matters(st):
            st.phase = ORDER
            return
        if not _score_next(st, min(st.tokens)):
            return
    _end_of_insertion(st)


def _score_next(st: LuxorState, token: int) -> bool:
    """Take the pending pair ``token`` and score it; False if it stopped for a decision
    or chance event."""
    st.tokens = removed(st.tokens, token)
    if st.sink is not None:
        st.sink.append(
            ev.PairScored(st.player, token >> 1, token & 1 == SAME, _scored_cells(st, token))
        )
    return _score(st, token)


def _score(st: LuxorState, token: int, source: int = -1) -> bool:
    """Score one pair; False if it stopped for a decision or chance event. ``source``:
    the pillar the mover's researcher has just been taken from for it (-1: none)."""
    animal, kind = token >> 1, token & 1
    p = st.player
    occ = st.occupant[animal]
    if kind == DIFFERENT:
        if occ != -1:
            return _place_scarab(st, animal)
        return _place_researcher(st, animal, token, source)
    if occ != p and not _place_researcher(st, animal, token, source):
        return False
    return _place_scarab(st, animal)


def _place_researcher(st: LuxorState, animal: int, token: int, source: int) -> bool:
    p = st.player
    if st.res_supply[p] == 0:
        # With none in supply the player may bring one of their own from another pillar
        # (the rulebook's "può spostare": a permission, so staying put is offered too).
        st.pending = token
        st.phase = RELOCATE
        return False
    occ = st.occupant[animal]
    if occ >= 0:
        st.res_supply = added(st.res_supply, occ, 1)  # the displaced researcher goes home
    st.occupant = replaced(st.occupant, animal, p)
    st.res_supply = added(st.res_supply, p, -1)
    if st.sink is not None:
        st.sink.append(ev.ResearcherPlaced(p, animal, source, occ))
    return True


def scarab_fits(st: LuxorState, animal: int) -> bool:
    """Whether a pair may place a scarab at ``animal``'s pillar now: one is left on the
    slab, the pillar holds fewer than three, and this insertion placed fewer than two
    there."""
    return (
        st.placed_now[animal] < MAX_SCARABS_PER_INSERTION
        and st.scarabs[animal] < MAX_SCARABS_AT_PILLAR
        and st.scarab_supply > 0
    )


def _place_scarab(st: LuxorState, animal: int) -> bool:
    if not scarab_fits(st, animal):
        if st.sink is not None:
            if st.placed_now[animal] >= MAX_SCARABS_PER_INSERTION:
                reason = ev.SCARAB_LIMIT
            elif st.scarabs[animal] >= MAX_SCARABS_AT_PILLAR:
                reason = ev.SCARABS_FULL
            else:
                reason = ev.SLAB_EMPTY
            st.sink.append(ev.ScarabWithheld(animal, reason))
        return True
    st.scarabs[animal] += 1
    st.scarab_supply -= 1
    st.placed_now[animal] += 1
    if st.sink is not None:
        st.sink.append(ev.ScarabPlaced(st.player, animal, st.scarabs[animal]))
    if st.scarabs[animal] == MAX_SCARABS_AT_PILLAR and st.stack[animal] > 0:
        _start_open(st, animal, RESUME_TOKENS)
        return False
    return True


def _start_open(st: LuxorState, animal: int, resume: int) -> None:
    st.open_pillar = animal
    st.open_for = st.occupant[animal]
    st.resume = resume
    st.phase = OPEN
    if st.sink is not None:
        eyes = STACK_HEIGHT + 1 - st.stack[animal]
        st.sink.append(ev.SarcophagusUnsealed(st.open_for, animal, eyes))


def _open(st: LuxorState, value: int) -> None:
    a = st.open_pillar
    if st.sink is not None:
        st.sink.append(ev.SarcophagusOpened(st.open_for, a, VALUE_EYES[value], value))
    st.value_pool = added(st.value_pool, value, -1)
    st.stack = added(st.stack, a, -1)
    seat = st.open_for
    st.held = replaced(st.held, seat, (*st.held[seat], value | (1 << seat) << 3))
    st.scarab_supply += st.scarabs[a]
    st.scarabs[a] = 0
    st.open_pillar = -1
    st.open_for = -1
    if st.resume == RESUME_TOKENS:
        resume_tokens(st)
    else:
        _final_continue(st, False)


def _end_of_insertion(st: LuxorState) -> None:
    if st.inserted == WALL_CARDS:
        st.final_k = 0
        st.final_seat = (st.player + 1) % st.n
        st.src_mask = st.dst_mask = 0
        st.phase = FINAL
        if st.sink is not None:
            st.sink.append(ev.FinalMovesBegin(st.final_seat))
        _final_continue(st, True)
    else:
        _start_draw(st)


def _start_draw(st: LuxorState) -> None:
    """The mover needs a card: draw it, reveal a curse, or go without if none is left."""
    if not st.curse:
        if st.pile:
            st.phase = DRAW
        else:
            _next_turn_undrawn(st)
    elif st.pile1 > 0 or st.back == 0:
        st.phase = DRAW
    elif st.back == 1:
        st.phase = CURSE
    elif pile2_size(st) > 0:
        st.phase = BACK
    else:
        _next_turn_undrawn(st)


def _next_turn_undrawn(st: LuxorState) -> None:
    """Nothing is left to draw: the turn passes without a card."""
    mover = st.player
    _next_turn(st)
    if st.sink is not None and st.player != mover:
        st.sink.append(ev.NoCardDrawn(mover))


def _draw(st: LuxorState, card: int) -> None:
    st.pile.remove(card)
    st.hands[st.player] += (card,)
    if st.sink is not None:
        st.sink.append(ev.CardDrawn(st.player, card))
    st.need_card = False
    if st.curse:
        if st.pile1 > 0:
            st.pile1 -= 1
        else:
            st.back = -1
        _reveal_top_or_go_on(st)
    else:
        _next_turn(st)


def _reveal_top_or_go_on(st: LuxorState) -> None:
    """Show the back of the second pile's new top card, then carry on."""
    if st.pile1 == 0 and st.back == -1 and pile2_size(st) > 0:
        st.phase = BACK
    elif st.need_card:
        _start_draw(st)
    else:
        _next_turn(st)


def _reveal_curse(st: LuxorState, curse: int) -> None:
    st.curses_left = removed(st.curses_left, curse)
    st.curses_out = (*st.curses_out, curse)
    st.curse_card = curse
    st.back = -1
    sink = st.sink
    if sink is not None:
        sink.append(ev.CurseRevealed(st.player, curse))
    victims = curse_victims(st)
    if victims and curse_found(st):
        st.passed = 0
        st.phase = WINDOW
        if sink is not None:
            sink.append(ev.CurseJudged(st.player, ev.CURSE_WINDOW))
    else:
        if sink is not None:
            outcome = ev.CURSE_HARMLESS if victims else ev.CURSE_NO_VICTIM
            sink.append(ev.CurseJudged(st.player, outcome))
        _end_curse(st)


def give_sarcophagus(st: LuxorState, value: int) -> None:
    """The cursed seat hands a sarcophagus of ``value`` to the seat that drew the curse."""
    held = st.held[st.victim]
    code = next(c for c in held if c & 7 == value)
    if st.sink is not None:
        gift = ev.SarcophagusGiven(st.victim, st.player, VALUE_EYES[value], value, code >> 3)
        st.sink.append(gift)
    st.held = replaced(st.held, st.victim, removed(held, code))
    mine = (*st.held[st.player], code | (1 << st.player) << 3)  # the new holder looks at it
    st.held = replaced(st.held, st.player, mine)
    _end_curse(st)


def _end_curse(st: LuxorState) -> None:
    st.curse_card = -1
    st.victim = -1
    st.passed = 0
    _reveal_top_or_go_on(st)


def _next_turn(st: LuxorState) -> None:
    n = st.n
    st.need_card = False
    for _ in range(n):
        st.player = (st.player + 1) % n
        if st.hands[st.player]:
            st.phase = INSERT
            return
    raise AssertionError("no seat holds a card while the wall has room")  # 49 cards > 40


def _final_continue(st: LuxorState, starting: bool) -> None:
    """The final seat goes on moving scarabs, or is done when it has no move left
    (``starting``: it has just come to move, so it had none at all)."""
    if not final_moves(st):
        if st.sink is not None:
            st.sink.append(ev.NoScarabMoves(st.final_seat, not starting))
        _next_final_seat(st)
    else:
        st.phase = FINAL


def _next_final_seat(st: LuxorState) -> None:
    st.src_mask = st.dst_mask = 0
    st.final_k += 1
    if st.final_k >= st.n:
        st.phase = END
        st.final_seat = -1
        if st.sink is not None:
            _the_end(st, st.sink)
        return
    st.final_seat = (st.final_seat + 1) % st.n
    _final_continue(st, True)


def _the_end(st: LuxorState, sink: list[Event]) -> None:
    """Everything turned up at the end: sarcophagi, pharaoh cards, scores and winners."""
    sink.append(ev.MatchOver())
    for seat in range(st.n):
        sink.append(ev.SarcophagiShown(seat, tuple(code & 7 for code in st.held[seat])))
        animal = st.pharaoh[seat]
        sink.append(ev.PharaohShown(seat, animal, st.occupant[animal] == seat))
    scores = st.scores()
    for seat in range(st.n):
        sink.append(ev.FinalScore(seat, int(scores[seat]), len(st.held[seat])))
    winners = [s for s, share in enumerate(st.returns()) if share > 0]
    for seat in winners:
        sink.append(ev.MatchWon(seat, len(winners) > 1))


def max_game_length(n: int, curse: bool) -> int:
    """A generous true bound on actions in a match (decisions and chance)."""
    setup = n + HAND_SIZE * n
    # Per insertion: the insert, at most 16 pairs, each needing an order choice, a
    # relocation and an opening, plus a draw and a back reveal.
    turns = WALL_CARDS * (1 + 16 * 3 + 2)
    # Curse cards: reveal, a window of n passes or a claim, a gift, a back reveal.
    curses = NUM_CURSES * (n + 4) if curse else 0
    # Final moves: at most 16 moves, 21 openings and a stop per seat.
    final = n * (16 + 21 + 1)
    return setup + turns + curses + final


assert NUM_CHANCE_OUTCOMES > CH_BACK + 1 and NUM_VALUES == 7 and CH_CURSE == NUM_CARDS
assert GIVE_BASE > CLAIM_BASE
