"""Luxor's rules: the legal actions, the chance events and their effects, step by step.

A turn is a short chain of phases. The player picks the leftmost or rightmost card; a die
card is followed by a chance roll; then, where the card leaves a choice, which adventurer
(named by the field it stands on) and how far; the adventurer's landing is resolved
(Anubis statues passed wake sleeping adventurers, Osiris tiles push on at once, the tile's
action follows, with a choice where the tile offers one and a chance event where it reveals
something); finally a card is drawn into the middle of the hand, unless a Horus card was
taken. Every hidden draw is a chance node over the kinds still left in its pile. Phases in
which nothing is chosen are never stopped at: a choice of one is taken at once.

While they apply an action for someone who asked (``state.sink`` set), they append what
happened to the sink as the events of :mod:`.events`: the log, the page's marks and the
end-of-game statistics read those, so every rule here is worked out here alone. In a
search the sink is None and each ``if sink is not None`` is all the events cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from necropolis.engine.frozen import added, added_in, replaced
from necropolis.games.luxor import events as ev
from necropolis.games.luxor.components import (
    ANUBIS_AFTER,
    BACKS,
    BURIAL_CHAMBER,
    CARD_MODE,
    CARD_REACH,
    DIE_FACES,
    FIELD_SYMBOL,
    HAND_SIZE,
    HORUS_1_OR_2,
    HORUS_2_OR_3,
    HORUS_TILE_BASE,
    MODE_ALL,
    MODE_DIE,
    MODE_DIE_RANGE,
    MODE_LAST,
    MODE_PLUS_MINUS,
    NUM_CARD_KINDS,
    NUM_FIELDS,
    NUM_STATUES,
    ONE_FEWER_KINDS,
    OSIRIS_BASE,
    OSIRIS_FIELDS,
    OSIRIS_USED,
    OSIRIS_VALUES,
    SARCOPHAGI,
    SCARAB,
    SCARAB_OR_WILD,
    STAIRS,
    TEMPLE_BASE,
    TREASURE_BASE,
    TREASURE_FIELDS,
    TREASURE_NEED,
    TREASURE_POINTS,
    TUNNEL,
    WILD_TREASURE,
)
from necropolis.games.luxor.movement import (
    active_fields,
    backward_dest,
    can_go,
    card_can_move,
    distances,
    field_options,
    forward_dest,
    osiris_push,
)
from necropolis.games.luxor.scoring import score_breakdown, tiebreak

if TYPE_CHECKING:
    from necropolis.engine.events import Event
    from necropolis.games.luxor.state import LuxorState

# --- phases --------------------------------------------------------------------------------
(
    P_DEAL,  # chance: the next starting card dealt (seat ``deal_index // 5``)
    P_OSIRIS,  # chance: the Osiris tile laid on the next Osiris field
    P_TREASURE,  # chance: the treasure tile laid on the next treasure field
    P_PLAY,  # decision: play the leftmost or the rightmost card
    P_ROLL,  # chance: the die
    P_FIELD,  # decision: which adventurer (by its field) moves
    P_DIST,  # decision: how far (or back one tile)
    P_ACT_FIELD,  # decision: after "all forward", whose tile's action is carried out
    P_HORUS_TILE,  # decision: a key or a Horus card from a Horus tile
    P_HORUS_LEVEL,  # decision: which of two Horus decks (favour of Horus temple tile)
    P_SCARAB_OR_WILD,  # decision: a scarab or a wild treasure
    P_HORUS_DRAW,  # chance: the Horus card taken (level ``pending``)
    P_SCARAB_DRAW,  # chance: the scarab taken
    P_TEMPLE_REVEAL,  # chance: the temple tile turned up on field ``pending``
    P_DRAW,  # chance: the card drawn at the end of the turn
    P_END,
) = range(16)
PHASE_NAMES: tuple[str, ...] = (
    "deal",
    "lay_osiris_tiles",
    "lay_treasure_tiles",
    "play_card",
    "roll_die",
    "choose_adventurer",
    "choose_distance",
    "choose_tile_action",
    "key_or_horus_card",
    "choose_horus_deck",
    "scarab_or_wild",
    "take_horus_card",
    "take_scarab",
    "reveal_temple_tile",
    "draw_card",
    "game_over",
)
CHANCE_PHASES = frozenset(
    {P_DEAL, P_OSIRIS, P_TREASURE, P_ROLL, P_HORUS_DRAW, P_SCARAB_DRAW, P_TEMPLE_REVEAL, P_DRAW}
)

# --- decision ids --------------------------------------------------------------------------
PLAY_LEFT = 0
PLAY_RIGHT = 1
MOVE_FROM = 2  # + field 0..41: move an adventurer standing there
FORWARD = 44  # + distance - 1, distances 1..6
BACKWARD = 50  # back one tile ("+/-1")
TAKE_KEY = 51
HORUS_LEVEL = 52  # + level - 1: a Horus card of that level
TAKE_SCARAB = 55
TAKE_WILD = 56
ACT_AT = 57  # + field 0..41: carry out the action of the tile there
NUM_ACTIONS = ACT_AT + BURIAL_CHAMBER  # 99
MAX_CHANCE = NUM_CARD_KINDS  # the most kinds any chance node chooses among (card kinds)

#: Safety cap: the +/-1 card can shuffle an adventurer back and forth for ever, so a match
#: that reaches this many rounds ends (and is scored) at the end of that round.
MAX_ROUNDS = 200
#: The most actions one turn can take (play, roll, adventurer, distance, tile choice, one
#: more choice, one chance reveal, draw).
MAX_ACTIONS_PER_TURN = 8

NF = NUM_FIELDS
CHAMBER = BURIAL_CHAMBER
NO_HOLDER = -1


def distance_options(st: LuxorState, seat: int, field: int) -> list[int]:
    """Decision ids for how far the adventurer on ``field`` may go with the card in play."""
    kind = st.card
    out = [
        FORWARD + d - 1 for d in distances(st, seat, kind, st.roll) if can_go(st, seat, field, d)
    ]
    if CARD_MODE[kind] == MODE_PLUS_MINUS and backward_dest(st.tiles, field) >= 0:
        out.append(BACKWARD)
    return out


# --- legal actions and chance ------------------------------------------------------------


def playable_ends(st: LuxorState) -> tuple[bool, bool]:
    """Whether the leftmost and the rightmost card of the player to move allow a move."""
    cached = st.ends_cache
    if cached is not None:
        return cached
    hand = st.hands[st.seat]
    left = card_can_move(st, st.seat, hand[0])
    right = left if hand[-1] == hand[0] else card_can_move(st, st.seat, hand[-1])
    st.ends_cache = (left, right)
    return left, right


def legal_actions(st: LuxorState) -> list[int]:
    """The sorted decision ids of the player to move."""
    phase = st.phase
    if phase == P_PLAY:
        left, right = playable_ends(st)
        if not (left or right):
            return [PLAY_LEFT, PLAY_RIGHT]  # no move possible: either card, played idle
        return [a for a, ok in ((PLAY_LEFT, left), (PLAY_RIGHT, right)) if ok]
    if phase == P_FIELD:
        return [MOVE_FROM + f for f in st.options]
    if phase == P_DIST:
        return st.options[:]
    if phase == P_ACT_FIELD:
        return [ACT_AT + f for f in st.options]
    if phase == P_HORUS_TILE:
        return [TAKE_KEY, HORUS_LEVEL + st.options[0] - 1]
    if phase == P_HORUS_LEVEL:
        return [HORUS_LEVEL + lv - 1 for lv in st.options]
    if phase == P_SCARAB_OR_WILD:
        return [TAKE_SCARAB, TAKE_WILD]
    return []


def _weighted(counts: Sequence[int]) -> list[tuple[int, float]]:
    total = sum(counts)
    return [(k, c / total) for k, c in enumerate(counts) if c]


def chance_outcomes(st: LuxorState) -> list[tuple[int, float]]:
    """Outcomes of the chance node ``st`` (a chance phase), by kind, with probabilities."""
    phase = st.phase
    if phase in (P_DEAL, P_DRAW):
        return _weighted(st.draw_counts)
    if phase == P_ROLL:
        return [(r, 1.0 / DIE_FACES) for r in range(DIE_FACES)]
    if phase == P_HORUS_DRAW:
        return _weighted(st.horus_counts[st.pending - 1])
    if phase == P_SCARAB_DRAW:
        return _weighted(st.scarab_supply)
    if phase == P_TEMPLE_REVEAL:
        return _weighted(st.temple_counts[FIELD_SYMBOL[st.pending]])
    if phase == P_OSIRIS:
        return _weighted(st.osiris_left)
    if phase == P_TREASURE:
        return _weighted(st.treasure_left)
    return []


def chance_kind(st: LuxorState) -> str:
    """The stream a chance node draws from in duplicate deals: the draw pile (the deal
    too), each seat's own die, each level's Horus cards, the scarabs, each symbol's
    temple tiles, and the Osiris and treasure tiles laid out at the start."""
    phase = st.phase
    if phase == P_ROLL:
        return f"die of seat {st.seat}"
    if phase == P_HORUS_DRAW:
        return f"Horus card of level {st.pending}"
    if phase == P_SCARAB_DRAW:
        return "scarab"
    if phase == P_TEMPLE_REVEAL:
        return f"{BACKS[FIELD_SYMBOL[st.pending]]} temple tile"
    if phase == P_OSIRIS:
        return "Osiris tile"
    if phase == P_TREASURE:
        return "treasure tile"
    return "card"  # P_DEAL, P_DRAW: the draw pile


# --- applying ------------------------------------------------------------------------------


def apply(st: LuxorState, action: int) -> None:
    """Carry out a legal ``action`` (a decision id, or a chance outcome at a chance node)."""
    phase = st.phase
    seat = st.seat
    if phase == P_PLAY:
        _play(st, seat, action)
        st.ends_cache = None  # the hand and the board change from here on
    elif phase == P_DRAW:
        if st.sink is not None:
            st.sink.append(ev.CardDrawn(seat, action))
        st.draw_counts[action] -= 1
        st.draw_size -= 1
        _insert_middle(st, seat, action, 3 + st.epoch)
        _end_turn(st)
    elif phase == P_FIELD:
        st.from_field = action - MOVE_FROM
        _ask_distance(st, seat)
    elif phase == P_DIST:
        _move_card(st, seat, st.from_field, action)
    elif phase == P_ROLL:
        st.roll = action + 1
        if st.sink is not None:
            st.sink.append(ev.DieRolled(seat, st.roll))
        _ask_field(st, seat)
    elif phase == P_ACT_FIELD:
        st.options = []
        if st.sink is not None:
            st.sink.append(ev.TileChosen(seat, action - ACT_AT))
        _tile_action(st, seat, action - ACT_AT)
    elif phase == P_HORUS_TILE:
        if action == TAKE_KEY:
            st.options = []
            _take_key(st, seat)
            _finish_action(st)
        else:
            _start_horus_draw(st, action - HORUS_LEVEL + 1)
    elif phase == P_HORUS_LEVEL:
        _start_horus_draw(st, action - HORUS_LEVEL + 1)
    elif phase == P_SCARAB_OR_WILD:
        if action == TAKE_SCARAB:
            st.phase = P_SCARAB_DRAW
        else:
            _take_wild(st, seat)
            _finish_action(st)
    elif phase == P_HORUS_DRAW:
        if st.sink is not None:
            st.sink.append(ev.HorusCardTaken(seat, st.pending, action))
        st.horus_counts = added_in(st.horus_counts, st.pending - 1, action, -1)
        _insert_middle(st, seat, action, st.pending - 1)
        st.pending = -1
        st.no_draw = True  # a Horus card replaces this turn's draw
        _finish_action(st)
    elif phase == P_SCARAB_DRAW:
        if st.sink is not None:
            st.sink.append(ev.ScarabTaken(seat, action))
        st.scarab_supply = added(st.scarab_supply, action, -1)
        st.scarabs = added_in(st.scarabs, seat, action, 1)
        _finish_action(st)
    elif phase == P_TEMPLE_REVEAL:
        field = st.pending
        if st.sink is not None:
            st.sink.append(ev.TempleRevealed(field, action))
        st.temple_counts = added_in(st.temple_counts, FIELD_SYMBOL[field], action, -1)
        st.tiles = replaced(st.tiles, field, TEMPLE_BASE + action)
        st.pending = -1
        _finish_action(st)  # the adventurers stand on the new tile without using it
    elif phase == P_DEAL:
        st.draw_counts[action] -= 1
        st.draw_size -= 1
        target = st.deal_index // HAND_SIZE
        if st.sink is not None:
            st.sink.append(ev.CardDealt(target, action))
        st.hands[target] += (action,)
        st.origins[target] += (3,)
        st.deal_index += 1
        if st.deal_index == HAND_SIZE * st.num_players:
            st.deal_index = 0
            st.phase = P_OSIRIS
        st.seat = st.deal_index // HAND_SIZE if st.phase == P_DEAL else 0
    elif phase == P_OSIRIS:
        st.osiris_left = added(st.osiris_left, action, -1)
        st.tiles = replaced(st.tiles, OSIRIS_FIELDS[st.deal_index], OSIRIS_BASE + action)
        if st.sink is not None:
            st.sink.append(ev.OsirisLaid(OSIRIS_FIELDS[st.deal_index], OSIRIS_VALUES[action]))
        st.deal_index += 1
        if st.deal_index == OSIRIS_USED:
            st.deal_index = 0
            st.phase = P_TREASURE
    elif phase == P_TREASURE:
        st.treasure_left = added(st.treasure_left, action, -1)
        st.tiles = replaced(st.tiles, TREASURE_FIELDS[st.deal_index], TREASURE_BASE + action)
        if st.sink is not None:
            st.sink.append(ev.TreasureLaid(TREASURE_FIELDS[st.deal_index], action))
        st.deal_index += 1
        if st.deal_index == len(TREASURE_FIELDS):
            st.deal_index = 0
            st.phase = P_PLAY
            st.seat = 0


def _insert_middle(st: LuxorState, seat: int, kind: int, origin: int) -> None:
    hand = st.hands[seat]
    mid = len(hand) // 2
    st.hands[seat] = (*hand[:mid], kind, *hand[mid:])
    origins = st.origins[seat]
    st.origins[seat] = (*origins[:mid], origin, *origins[mid:])


def _play(st: LuxorState, seat: int, action: int) -> None:
    hand = st.hands[seat]
    left, right = playable_ends(st)
    if action == PLAY_LEFT:
        kind = hand[0]
        st.hands[seat] = hand[1:]
        st.origins[seat] = st.origins[seat][1:]
    else:
        kind = hand[-1]
        st.hands[seat] = hand[:-1]
        st.origins[seat] = st.origins[seat][:-1]
    st.discard[kind] += 1
    st.card = kind
    if st.sink is not None:
        st.sink.append(ev.CardPlayed(seat, kind, action - PLAY_LEFT, not (left or right)))
    if not (left or right):
        st.no_move_turns += 1
        _finish_action(st)
        return
    st.no_move_turns = 0
    mode = CARD_MODE[kind]
    if mode in (MODE_DIE, MODE_DIE_RANGE):
        st.phase = P_ROLL
    elif mode == MODE_ALL:
        _all_forward(st, seat, CARD_REACH[kind])
    elif mode == MODE_LAST:
        _last_to_second(st, seat)
    else:
        st.one_fewer = kind in ONE_FEWER_KINDS
        _ask_field(st, seat)


def _ask_field(st: LuxorState, seat: int) -> None:
    options = field_options(st, seat, st.card, st.roll)
    if not options:  # only after a roll that no adventurer can use: the card is spent
        if st.sink is not None:
            st.sink.append(ev.RollWasted(seat, st.roll))
        _finish_action(st)
        return
    if len(options) == 1:
        st.from_field = options[0]
        _ask_distance(st, seat)
        return
    st.options = options
    st.phase = P_FIELD


def _ask_distance(st: LuxorState, seat: int) -> None:
    options = distance_options(st, seat, st.from_field)
    if len(options) == 1:
        st.options = []
        _move_card(st, seat, st.from_field, options[0])
        return
    st.options = options
    st.phase = P_DIST


def _step(st: LuxorState, seat: int, src: int, dst: int) -> None:
    """Move one adventurer from ``src`` to ``dst``: statues passed going forward wake theirs."""
    adv = st.adventurers
    base = seat * NF
    adv[base + src] -= 1
    adv[base + dst] += 1
    if dst > src:
        for i in range(NUM_STATUES):
            if src <= ANUBIS_AFTER[i] < dst and st.sleeping[seat * NUM_STATUES + i]:
                st.sleeping = replaced(st.sleeping, seat * NUM_STATUES + i, 0)
                adv[base + STAIRS] += 1  # the woken adventurer stands up on the stairs
                if st.sink is not None:
                    st.sink.append(ev.Woke(seat, i))
    if dst == CHAMBER:
        st.keys = added(st.keys, seat, -1)
        st.keys_paid += 1
        st.entries += 1
        won = st.entries <= len(SARCOPHAGI)
        if won:
            st.sarcophagi = replaced(st.sarcophagi, st.entries - 1, seat)
        if st.entries >= 2:
            st.ending = True
        if st.sink is not None:
            last = st.entries == len(SARCOPHAGI)
            worth = SARCOPHAGI[st.entries - 1] if won else None
            st.sink.append(ev.ChamberEntered(seat, st.entries, worth, last))


def _arrive(st: LuxorState, seat: int, field: int) -> int:
    """Let Osiris tiles push the adventurer that just reached ``field`` on; its final field."""
    tiles = st.tiles
    while (dest := osiris_push(tiles, field)) >= 0:
        if st.sink is not None:
            st.sink.append(ev.OsirisPush(seat, field, dest))
        _step(st, seat, field, dest)
        field = dest
    return field


def _move_card(st: LuxorState, seat: int, src: int, action: int) -> None:
    st.options = []
    if action == BACKWARD:
        dst = backward_dest(st.tiles, src)
        steps = ev.BACK
    else:
        steps = action - FORWARD + 1
        dst = forward_dest(st.tiles, src, steps)
    if st.sink is not None:
        st.sink.append(ev.Moved(seat, src, steps, dst))
    _step(st, seat, src, dst)
    _tile_action(st, seat, _arrive(st, seat, dst))


def _all_forward(st: LuxorState, seat: int, steps: int) -> None:
    """Every active adventurer goes ``steps`` tiles, the one nearest the chamber first."""
    base = seat * NF
    before = st.adventurers[base : base + CHAMBER]  # woken ones join after this card
    finals: list[int] = []
    for f in range(CHAMBER - 1, -1, -1):
        for _ in range(before[f]):
            if not can_go(st, seat, f, steps):
                if st.sink is not None:
                    st.sink.append(ev.Stayed(seat, f, steps))
                continue  # this one cannot make the move and stays
            dst = forward_dest(st.tiles, f, steps)
            if st.sink is not None:
                st.sink.append(ev.Moved(seat, f, steps, dst))
            _step(st, seat, f, dst)
            final = _arrive(st, seat, dst)
            if final != CHAMBER and final not in finals:
                finals.append(final)
    # One action only, from the tile of one moved adventurer; adventurers on empty fields
    # all offer the same nothing, so one of them stands for the rest.
    options: list[int] = []
    empty_seen = False
    for f in sorted(finals):
        if st.tiles[f] == 0:
            if empty_seen:
                continue
            empty_seen = True
        options.append(f)
    if len(options) > 1:
        st.options = options
        st.phase = P_ACT_FIELD
    elif options:
        _tile_action(st, seat, options[0])
    else:
        _finish_action(st)


def _last_to_second(st: LuxorState, seat: int) -> None:
    fields = active_fields(st, seat)
    src, dst = fields[0], fields[1]
    if st.sink is not None:
        st.sink.append(ev.Moved(seat, src, ev.REARMOST, dst))
    _step(st, seat, src, dst)
    _tile_action(st, seat, dst)  # an empty field there simply offers no action


def _next_tunnel(tiles: Sequence[int], field: int) -> int:
    code = TEMPLE_BASE + TUNNEL
    for f in range(field + 1, CHAMBER):
        if tiles[f] == code:
            return f
    return -1


def _horus_available(st: LuxorState, level: int) -> bool:
    return any(st.horus_counts[level - 1])


def _take_key(st: LuxorState, seat: int) -> None:
    st.key_supply -= 1
    st.keys = added(st.keys, seat, 1)
    if st.sink is not None:
        st.sink.append(ev.KeyTaken(seat))


def _take_wild(st: LuxorState, seat: int) -> None:
    st.wild_supply -= 1
    st.wilds = added(st.wilds, seat, 1)
    if st.sink is not None:
        st.sink.append(ev.WildTaken(seat))


def _nothing_left(st: LuxorState, seat: int) -> None:
    """The tile offered only what the supply has none of left."""
    if st.sink is not None:
        st.sink.append(ev.NothingLeft(seat))


def _start_horus_draw(st: LuxorState, level: int) -> None:
    st.options = []
    st.pending = level
    st.phase = P_HORUS_DRAW


def _tile_action(st: LuxorState, seat: int, field: int) -> None:
    """Carry out the action of the tile on ``field`` for the adventurer that ended there."""
    code = st.tiles[field] if field != CHAMBER else 0
    if TREASURE_BASE <= code < OSIRIS_BASE:
        kind = code - TREASURE_BASE
        need = TREASURE_NEED[kind] - (1 if st.one_fewer else 0)
        have = st.adventurers[seat * NF + field]
        if have >= need:
            st.tiles = replaced(st.tiles, field, 0)
            st.treasures = added_in(st.treasures, seat, kind, 1)
            st.score = added(st.score, seat, TREASURE_POINTS[kind])
            if st.sink is not None:
                st.sink.append(ev.TreasureTaken(seat, field, kind))
            if FIELD_SYMBOL[field] >= 0:
                st.pending = field
                st.phase = P_TEMPLE_REVEAL
                return
        elif st.sink is not None:
            st.sink.append(ev.TreasureTooFew(seat, field, kind, need, have))
    elif HORUS_TILE_BASE <= code < TEMPLE_BASE:
        level = code - HORUS_TILE_BASE + 1
        key_ok = st.key_supply > 0
        card_ok = _horus_available(st, level)
        if key_ok and card_ok:
            st.options = [level]
            st.phase = P_HORUS_TILE
            return
        if card_ok:
            _start_horus_draw(st, level)
            return
        if key_ok:
            _take_key(st, seat)
        else:
            _nothing_left(st, seat)
    elif code >= TEMPLE_BASE:
        front = code - TEMPLE_BASE
        if front == WILD_TREASURE:
            if st.wild_supply > 0:
                _take_wild(st, seat)
            else:
                _nothing_left(st, seat)
        elif front in (HORUS_1_OR_2, HORUS_2_OR_3):
            pair = (1, 2) if front == HORUS_1_OR_2 else (2, 3)
            levels = [lv for lv in pair if _horus_available(st, lv)]
            if len(levels) == 2:
                st.options = levels
                st.phase = P_HORUS_LEVEL
                return
            if levels:
                _start_horus_draw(st, levels[0])
                return
            _nothing_left(st, seat)
        elif front == TUNNEL:
            dest = _next_tunnel(st.tiles, field)
            if st.sink is not None:
                st.sink.append(ev.Tunnel(seat, field, dest))
            if dest >= 0:
                _step(st, seat, field, dest)
        elif front == SCARAB:
            if any(st.scarab_supply):
                st.phase = P_SCARAB_DRAW
                return
            _nothing_left(st, seat)
        elif front == SCARAB_OR_WILD:
            scarab_ok = any(st.scarab_supply)
            wild_ok = st.wild_supply > 0
            if scarab_ok and wild_ok:
                st.phase = P_SCARAB_OR_WILD
                return
            if scarab_ok:
                st.phase = P_SCARAB_DRAW
                return
            if wild_ok:
                _take_wild(st, seat)
            else:
                _nothing_left(st, seat)
        else:
            _nothing_left(st, seat)
    _finish_action(st)


def _finish_action(st: LuxorState) -> None:
    """The action step is over: draw a card, unless a Horus card came instead."""
    if st.no_draw:
        _end_turn(st)
        return
    if st.draw_size == 0:  # the discard pile, this turn's card included, becomes the pile
        st.draw_counts = st.discard
        st.discard = bytearray(len(st.draw_counts))
        st.draw_size = sum(st.draw_counts)
        st.epoch += 1
        if st.sink is not None:
            st.sink.append(ev.Reshuffled())
    st.phase = P_DRAW


def _end_turn(st: LuxorState) -> None:
    n = st.num_players
    st.turns += 1
    st.card = -1
    st.roll = 0
    st.from_field = -1
    st.one_fewer = False
    st.no_draw = False
    st.options = []
    st.pending = -1
    st.ends_cache = None
    last_of_round = st.seat == n - 1
    if last_of_round:
        st.round += 1
    # The early end needs a whole round in which nobody could move: idle turns are counted
    # since the last move, so at a round's last turn n of them are exactly that round's.
    # A run of idle turns that crosses into a new round does not end it: the seats still
    # to play this round may hold a card that moves.
    idle_round = st.no_move_turns >= n
    if last_of_round and (idle_round or st.ending or st.round >= MAX_ROUNDS):
        _final_scoring(st)
        return
    st.seat = (st.seat + 1) % n
    st.phase = P_PLAY


# --- the end -------------------------------------------------------------------------------


def _final_scoring(st: LuxorState) -> None:
    st.final = [score_breakdown(st, s) for s in range(st.num_players)]
    st.score = tuple(row[-1] for row in st.final)
    st.phase = P_END
    if st.sink is not None:
        _the_end(st, st.sink)


def _the_end(st: LuxorState, sink: list[Event]) -> None:
    """How the match ended, every seat's score part by part, and who won."""
    n = st.num_players
    if st.no_move_turns >= n:
        sink.append(ev.MatchOver(ev.ENDED_EARLY, st.round))
    elif not st.ending and st.round >= MAX_ROUNDS:
        sink.append(ev.MatchOver(ev.ENDED_AT_LIMIT, st.round))
    else:
        sink.append(ev.MatchOver(ev.ENDED, st.round))
    assert st.final is not None
    for seat, row in enumerate(st.final):
        sink.append(ev.FinalScore(seat, *row))
    totals = [row[-1] for row in st.final]
    best = max(totals)
    tied = [s for s in range(n) if totals[s] == best]
    best_sarcophagus = tiebreak(st)
    top = max(best_sarcophagus[s] for s in tied)
    winners = [s for s in tied if best_sarcophagus[s] == top]
    if len(tied) == 1:
        how = ev.ALONE
    elif len(winners) == 1:
        how = ev.BY_TIEBREAK
    else:
        how = ev.SHARED
    for seat in winners:
        sink.append(ev.Won(seat, best, how, top))
