"""Luxor's table language, its log: the English catalog of every kind and the entries each
action makes. (Prompts and action descriptors are in :mod:`.prompts`, the score breakdown
in :mod:`.breakdown`, the board's geometry in :mod:`.layout`.)

Everything is computed on demand from states, never inside the rules: ``narrate`` compares
the state before an action with the state after it and retraces the turn step with the
movement module's pure lookups (where each step lands, which Osiris tile pushes on, which
statue wakes its adventurer), so that every event gets an entry of its own. Parameters hold
the data file's ids (``"range_3"``, ``"vase"``, ``"cobra"``) and path indices; the English
text writes them as words through :func:`message`. What a seat may not know (another's
cards and scarab values) never reaches its entries. ``docs/table-language.md`` lists every
kind with its parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from necropolis.engine import language
from necropolis.engine.language import LogEntry
from necropolis.games.luxor import rules, scoring
from necropolis.games.luxor.components import (
    ANUBIS_AFTER,
    BACKS,
    BURIAL_CHAMBER,
    CARD_MODE,
    CARD_NAMES,
    CARD_REACH,
    FIELD_SYMBOL,
    HAND_SIZE,
    HORUS_TILE_BASE,
    MODE_ALL,
    MODE_DIE,
    MODE_DIE_RANGE,
    MODE_LAST,
    NUM_FIELDS,
    NUM_STATUES,
    NUM_VARIANTS,
    ONE_FEWER_KINDS,
    OSIRIS_BASE,
    OSIRIS_FIELDS,
    OSIRIS_VALUES,
    SARCOPHAGI,
    SCARAB_VALUES,
    STAIRS,
    TEMPLE_BASE,
    TEMPLE_NAMES,
    TREASURE_BASE,
    TREASURE_FIELDS,
    TREASURE_NEED,
    TREASURE_POINTS,
    TREASURE_TYPES,
    TUNNEL,
)
from necropolis.games.luxor.movement import (
    active_fields,
    backward_dest,
    field_options,
    forward_dest,
)

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState

NF = NUM_FIELDS
CHAMBER = BURIAL_CHAMBER
BACK = -1  # a "+/-1" card's step back, in the movement options below

# --- words --------------------------------------------------------------------------------

#: The English of every string parameter value (the data file's ids).
TERMS: Mapping[str, str] = {
    # cards
    "one": "1",
    "plus_minus_one": "+/-1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "die": "die",
    "range_3": "1-3",
    "range_4": "1-4",
    "range_6": "1-6",
    "die_range": "1-die",
    "all_forward_1": "all forward 1",
    "all_forward_2": "all forward 2",
    "all_forward_3": "all forward 3",
    "one_fewer_1": "one adventurer fewer, 1 tile",
    "one_fewer_2": "one adventurer fewer, 2 tiles",
    "one_fewer_3": "one adventurer fewer, 3 tiles",
    "last_to_second": "last to second-to-last",
    # ends of a hand
    "left": "left",
    "right": "right",
    # treasures
    "vase": "vase",
    "statue": "statue",
    "jewels": "jewels",
    # temple tile backs
    "cobra": "cobra",
    "falcon": "falcon",
    "lion": "lion",
    # what lies on a field (temple fronts share these ids)
    "empty": "an empty field",
    "horus_tile_1": "a Horus tile with 1 eye",
    "horus_tile_2": "a Horus tile with 2 eyes",
    "horus_tile_3": "a Horus tile with 3 eyes",
    "wild_treasure": "a wild treasure temple tile",
    "horus_1_or_2": "a favour of Horus temple tile (1 or 2 eyes)",
    "horus_2_or_3": "a favour of Horus temple tile (2 or 3 eyes)",
    "tunnel": "a tunnel",
    "scarab": "a scarab temple tile",
    "scarab_or_wild": "a scarab-or-wild temple tile",
    "burial_chamber": "a key is handed in",
}
#: Parameters that hold a string id written through ``TERMS``.
TERM_PARAMS = frozenset({"card", "end", "treasure", "tile", "back", "front"})
#: Parameters that hold a path index, written as a place ("field 12", "the stairs").
PLACE_PARAMS = frozenset({"field", "origin", "landing"})

MESSAGES: Mapping[str, str] = {
    # --- log: setup
    "dealt": '{seat} got "{card}" as a starting card',
    "dealt_hidden": "{seat} got a starting card",
    "osiris_laid": "An Osiris tile of {value} was laid on {field}",
    "treasure_laid": (
        "A {treasure} tile ({points|# point|# points}, needs {need|# adventurer|# adventurers})"
        " was laid on {field}"
    ),
    # --- log: a turn
    "card_played": '{seat} played "{card}" from the {end} end',
    "card_played_idle": (
        '{seat} played "{card}" from the {end} end without moving: no move was possible'
    ),
    "die_rolled": "{seat} rolled {roll}",
    "roll_wasted": "{seat} could not move {roll|# tile|# tiles} with any adventurer",
    "moved": "{seat} moved an adventurer {steps|# tile|# tiles} from {origin} to {field}",
    "moved_back": "{seat} moved an adventurer one tile back from {origin} to {field}",
    "moved_rearmost": "{seat} moved the rearmost adventurer from {origin} to {field}",
    "stayed": "{seat} could not move the adventurer on {origin} by {steps|# tile|# tiles}",
    "osiris_push": "The Osiris tile on {landing} carried the adventurer on to {field}",
    "tunnel": "{seat} went through the tunnel from {origin} to {field}",
    "tunnel_end": "The tunnel on {field} led nowhere: no tunnel lies further on",
    "woke": "{seat} woke the adventurer at Anubis statue {statue}; it stood up on the stairs",
    "entered_chamber": "{seat} entered the burial chamber and handed in a key",
    "sarcophagus": "{seat} won the sarcophagus worth {points|# point|# points}",
    "last_round": "Two adventurers are in the burial chamber: this round is the last",
    "tile_chosen": "{seat} chose the action of the tile on {field}",
    "treasure_taken": (
        "{seat} took the {treasure} tile on {field} and scored {points|# point|# points}"
    ),
    "treasure_too_few": (
        "The {treasure} tile on {field} needs {need|# adventurer|# adventurers}: {seat} had {have}"
    ),
    "temple_revealed": "A {back} temple tile was turned up on {field}: {front}",
    "key_taken": "{seat} took a key",
    "wild_taken": "{seat} took a wild treasure tile",
    "scarab_taken": "{seat} took a scarab worth {value}",
    "scarab_taken_hidden": "{seat} took a scarab",
    "horus_card_taken": (
        '{seat} took the Horus card "{card}" ({level|# eye|# eyes}) instead of drawing'
    ),
    "horus_card_taken_hidden": (
        "{seat} took a Horus card of {level|# eye|# eyes} instead of drawing"
    ),
    "nothing_left": "{seat} got nothing: the supply was empty",
    "card_drawn": '{seat} drew "{card}"',
    "card_drawn_hidden": "{seat} drew a card",
    "reshuffled": "The discard pile was shuffled into a new draw pile",
    "match_over": "The match ended after round {round}",
    "match_over_early": "Nobody could move for a whole round: the match ended early",
    "match_over_limit": "The match reached the limit of {round} rounds and ended",
    "final_score": (
        "{seat} scored {total|# point|# points} in all: {track} for treasures during play,"
        " {adventurers} for the adventurers' places, {sarcophagi} for sarcophagi,"
        " {keys} for keys, {sets} for sets and {scarabs} for scarabs"
    ),
    "winner": "{seat} won with {points|# point|# points}",
    "winner_tiebreak": (
        "{seat} won with {points|# point|# points}, the tie broken by the sarcophagus"
        " worth {sarcophagus}"
    ),
    "shared_win": "{seat} shared the win with {points|# point|# points}",
    # --- prompts
    "prompt_play": "Play the card at either end of your hand",
    "prompt_play_end": "Play the card at the {end} end of your hand: only it allows a move",
    "prompt_play_idle": "No card at either end allows a move: play one of them without moving",
    "prompt_adventurer": 'Choose the adventurer to move with "{card}"',
    "prompt_adventurer_steps": "Choose the adventurer to move {steps|# tile|# tiles}",
    "prompt_adventurer_upto": "Choose the adventurer to move 1 to {most} tiles",
    "prompt_distance": 'Choose how far the adventurer on {origin} goes with "{card}"',
    "prompt_tile_action": "Choose the one tile whose action you carry out",
    "prompt_horus_tile": "Take a key or the top Horus card of {level|# eye|# eyes}",
    "prompt_horus_deck": "Take a Horus card of {low} or {high} eyes",
    "prompt_scarab_or_wild": "Take a scarab or a wild treasure tile",
    # --- action descriptors
    "play_card": 'Play "{card}" from the {end} end',
    "play_card_idle": 'Play "{card}" from the {end} end without moving',
    "play_card_move": (
        'Play "{card}" from the {end} end: it can only move the adventurer on {origin} '
        "to {field} ({tile})"
    ),
    "move_from": "Move an adventurer from {origin}",
    "move": "Move {steps|# tile|# tiles} from {origin} to {field}: {tile}",
    "move_osiris": (
        "Move {steps|# tile|# tiles} from {origin} to the Osiris tile on {landing}, on "
        "to {field}: {tile}"
    ),
    "move_back": "Move one tile back from {origin} to {field}: {tile}",
    "move_back_osiris": (
        "Move one tile back from {origin} to the Osiris tile on {landing}, on to {field}: {tile}"
    ),
    "move_treasure": (
        "Move {steps|# tile|# tiles} from {origin} to the {treasure} tile on {field} "
        "({points|# point|# points}, needs {need}; you would have {have})"
    ),
    "move_osiris_treasure": (
        "Move {steps|# tile|# tiles} from {origin} to the Osiris tile on {landing}, on "
        "to the {treasure} tile on {field} ({points|# point|# points}, needs {need}; "
        "you would have {have})"
    ),
    "move_back_treasure": (
        "Move one tile back from {origin} to the {treasure} tile on {field} ({points|# "
        "point|# points}, needs {need}; you would have {have})"
    ),
    "move_back_osiris_treasure": (
        "Move one tile back from {origin} to the Osiris tile on {landing}, on to the "
        "{treasure} tile on {field} ({points|# point|# points}, needs {need}; you would "
        "have {have})"
    ),
    "use_tile": "Carry out the action on {field}: {tile}",
    "use_tile_treasure": (
        "Take the {treasure} tile on {field} if you can ({points|# point|# points}, needs {need};"
        " you have {have} there)"
    ),
    "take_key": "Take a key (for the chamber, or 1 point at the end)",
    "take_horus_card": "Take the top Horus card of {level|# eye|# eyes}, instead of drawing",
    "take_scarab": "Take a scarab (only you will see its value until the end)",
    "take_wild": "Take a wild treasure tile",
    # --- score parts and the tiebreak
    "score_track": "Treasures taken during play: {points|# point|# points}",
    "score_adventurers": "Adventurers' places on the path: {points|# point|# points}",
    "score_sarcophagi": "Sarcophagi: {points|# point|# points}",
    "score_keys": "{keys|# key|# keys} left: {points|# point|# points}",
    "score_sets": "{sets|# complete set|# complete sets} of treasures: {points|# point|# points}",
    "score_scarabs": "{scarabs|# scarab|# scarabs}: {points|# point|# points}",
    "score_scarabs_hidden": "{scarabs|# scarab|# scarabs}, face down until the end",
    "tiebreak_sarcophagus": "Most valuable sarcophagus: {value}",
    "tiebreak_no_sarcophagus": "No sarcophagus",
}


def place(field: int) -> str:
    """A path index in words: the stairs, the burial chamber, or "field N"."""
    if field == STAIRS:
        return "the stairs"
    if field == CHAMBER:
        return "the burial chamber"
    return f"field {field}"


def message(kind: str, params: Mapping[str, Any], viewer: int | None) -> str:
    """The English text of ``kind``: ids written as words, path indices as places."""
    words: dict[str, Any] = {}
    for name, value in params.items():
        if name in TERM_PARAMS and isinstance(value, str):
            words[name] = TERMS.get(value, value)
        elif name in PLACE_PARAMS and isinstance(value, int):
            words[name] = place(value)
        else:
            words[name] = value
    return language.message(MESSAGES, kind, words, viewer)


def card_id(kind: int) -> str:
    return CARD_NAMES[kind]


def treasure_id(kind: int) -> str:
    return TREASURE_TYPES[kind // NUM_VARIANTS]


def tile_id(code: int, field: int) -> str:
    """What lies on ``field`` (tile ``code``) as a term id; treasures by their type."""
    if field == CHAMBER:
        return "burial_chamber"
    if code == 0:
        return "empty"
    if code < OSIRIS_BASE:
        return treasure_id(code - TREASURE_BASE)
    if code < HORUS_TILE_BASE:
        return "osiris"
    if code < TEMPLE_BASE:
        return f"horus_tile_{code - HORUS_TILE_BASE + 1}"
    return TEMPLE_NAMES[code - TEMPLE_BASE]


# --- narration ----------------------------------------------------------------------------


#: Phases in which a temple tile's gift is still to come (a choice or a hidden draw).
_CHOICE_OR_DRAW = (
    rules.P_HORUS_LEVEL,
    rules.P_HORUS_DRAW,
    rules.P_SCARAB_OR_WILD,
    rules.P_SCARAB_DRAW,
)


class _Story:
    """The entries of one action, built while retracing the turn step from ``before``."""

    def __init__(self, before: LuxorState, after: LuxorState, viewer: int | None) -> None:
        self.b = before
        self.a = after
        self.viewer = viewer
        self.index = before.move_number()
        self.out: list[LogEntry] = []
        self.sleeping = list(before.sleeping)
        self.entries = before.entries
        self.tiles = before.tiles

    def add(self, kind: str, seat: int | None, **params: Any) -> None:
        self.out.append(self.a.entry(self.index, kind, seat, params, self.viewer))

    # Movement, step by step, as rules._step and rules._arrive carry it out.
    def step(self, seat: int, src: int, dst: int) -> None:
        if dst > src:
            for i, after in enumerate(ANUBIS_AFTER):
                if src <= after < dst and self.sleeping[seat * NUM_STATUES + i]:
                    self.sleeping[seat * NUM_STATUES + i] = 0
                    self.add("woke", seat, statue=i + 1)
        if dst == CHAMBER:
            self.entries += 1
            self.add("entered_chamber", seat)
            if self.entries <= len(SARCOPHAGI):
                self.add("sarcophagus", seat, points=SARCOPHAGI[self.entries - 1])
            if self.entries == len(SARCOPHAGI):
                self.add("last_round", None)

    def arrive(self, seat: int, field: int) -> int:
        tiles = self.tiles
        while OSIRIS_BASE <= tiles[field] < HORUS_TILE_BASE:
            dest = forward_dest(tiles, field, OSIRIS_VALUES[tiles[field] - OSIRIS_BASE])
            self.add("osiris_push", seat, landing=field, field=dest)
            self.step(seat, field, dest)
            field = dest
        return field

    def move(self, seat: int, src: int, option: int) -> int:
        """One adventurer's move by ``option`` tiles (or BACK); the field where it ends."""
        if option == BACK:
            dst = backward_dest(self.tiles, src)
            self.add("moved_back", seat, origin=src, field=dst)
        else:
            dst = forward_dest(self.tiles, src, option)
            self.add("moved", seat, origin=src, steps=option, field=dst)
        self.step(seat, src, dst)
        return self.arrive(seat, dst)

    # The tile action, read from what changed between before and after.
    def tile_action(self, seat: int, field: int, one_fewer: bool) -> None:
        b, a = self.b, self.a
        if field == CHAMBER:
            return
        code = self.tiles[field]
        if TREASURE_BASE <= code < OSIRIS_BASE:
            kind = code - TREASURE_BASE
            if a.treasures[seat][kind] > b.treasures[seat][kind]:
                self.add(
                    "treasure_taken",
                    seat,
                    field=field,
                    treasure=treasure_id(kind),
                    points=TREASURE_POINTS[kind],
                )
            else:
                need = TREASURE_NEED[kind] - (1 if one_fewer else 0)
                have = a.adventurers[seat * NF + field]
                self.add(
                    "treasure_too_few",
                    seat,
                    field=field,
                    treasure=treasure_id(kind),
                    need=need,
                    have=have,
                )
        elif HORUS_TILE_BASE <= code < TEMPLE_BASE:
            if self.keys_gained(seat):
                self.add("key_taken", seat)
            elif a.phase not in (rules.P_HORUS_TILE, rules.P_HORUS_DRAW):
                self.add("nothing_left", seat)
        elif code >= TEMPLE_BASE:
            front = code - TEMPLE_BASE
            if front == TUNNEL:
                dest = next((f for f in range(field + 1, CHAMBER) if self.tiles[f] == code), -1)
                if dest >= 0:
                    self.add("tunnel", seat, origin=field, field=dest)
                    self.step(seat, field, dest)
                else:
                    self.add("tunnel_end", seat, field=field)
            elif a.wilds[seat] > b.wilds[seat]:
                self.add("wild_taken", seat)
            elif a.phase not in _CHOICE_OR_DRAW:
                self.add("nothing_left", seat)

    def keys_gained(self, seat: int) -> bool:
        """Whether ``seat`` took a key in this action (keys handed in at the chamber aside)."""
        b, a = self.b, self.a
        return a.keys[seat] - b.keys[seat] + (a.keys_paid - b.keys_paid) > 0


def narrate(
    after: LuxorState, before: LuxorState, action: int, viewer: int | None
) -> list[LogEntry]:
    """The entries ``action`` (applied to ``before``, giving ``after``) makes for ``viewer``."""
    story = _Story(before, after, viewer)
    b = before
    phase = b.phase
    seat = b.seat
    if phase == rules.P_DEAL:
        target = b.deal_index // HAND_SIZE
        if viewer == target:
            story.add("dealt", target, card=card_id(action))
        else:
            story.add("dealt_hidden", target)
    elif phase == rules.P_OSIRIS:
        story.add(
            "osiris_laid", None, field=OSIRIS_FIELDS[b.deal_index], value=OSIRIS_VALUES[action]
        )
    elif phase == rules.P_TREASURE:
        story.add(
            "treasure_laid",
            None,
            field=TREASURE_FIELDS[b.deal_index],
            treasure=treasure_id(action),
            need=TREASURE_NEED[action],
            points=TREASURE_POINTS[action],
        )
    elif phase == rules.P_PLAY:
        _narrate_play(story, seat, action)
    elif phase == rules.P_ROLL:
        story.add("die_rolled", seat, roll=action + 1)
        _ask_field(story, seat, b.card, action + 1)
    elif phase == rules.P_FIELD:
        _ask_distance(story, seat, action - rules.MOVE_FROM, b.card, b.roll)
    elif phase == rules.P_DIST:
        option = BACK if action == rules.BACKWARD else action - rules.FORWARD + 1
        final = story.move(seat, b.from_field, option)
        story.tile_action(seat, final, b.one_fewer)
    elif phase == rules.P_ACT_FIELD:
        field = action - rules.ACT_AT
        story.add("tile_chosen", seat, field=field)
        story.tile_action(seat, field, False)
    elif phase == rules.P_HORUS_TILE:
        if action == rules.TAKE_KEY:
            story.add("key_taken", seat)
    elif phase == rules.P_SCARAB_OR_WILD:
        if action == rules.TAKE_WILD:
            story.add("wild_taken", seat)
    elif phase == rules.P_HORUS_DRAW:
        if viewer == seat:
            story.add("horus_card_taken", seat, level=b.pending, card=card_id(action))
        else:
            story.add("horus_card_taken_hidden", seat, level=b.pending)
    elif phase == rules.P_SCARAB_DRAW:
        if viewer == seat:
            story.add("scarab_taken", seat, value=SCARAB_VALUES[action])
        else:
            story.add("scarab_taken_hidden", seat)
    elif phase == rules.P_TEMPLE_REVEAL:
        field = b.pending
        story.add(
            "temple_revealed",
            None,
            field=field,
            back=BACKS[FIELD_SYMBOL[field]],
            front=TEMPLE_NAMES[action],
        )
    elif phase == rules.P_DRAW:
        if viewer == seat:
            story.add("card_drawn", seat, card=card_id(action))
        else:
            story.add("card_drawn_hidden", seat)
    if after.epoch > b.epoch:
        story.add("reshuffled", None)
    if after.final is not None and b.final is None:
        _narrate_end(story)
    return story.out


def _narrate_play(story: _Story, seat: int, action: int) -> None:
    b = story.b
    hand = b.hands[seat]
    left = action == rules.PLAY_LEFT
    kind = hand[0] if left else hand[-1]
    end = "left" if left else "right"
    probe = b.clone()
    probe.ends_cache = None
    if not any(rules.playable_ends(probe)):
        story.add("card_played_idle", seat, card=card_id(kind), end=end)
        return
    story.add("card_played", seat, card=card_id(kind), end=end)
    mode = CARD_MODE[kind]
    if mode in (MODE_DIE, MODE_DIE_RANGE):
        return  # the roll comes next
    if mode == MODE_ALL:
        _all_forward(story, seat, CARD_REACH[kind])
    elif mode == MODE_LAST:
        fields = active_fields(b, seat)
        src, dst = fields[0], fields[1]
        story.add("moved_rearmost", seat, origin=src, field=dst)
        story.step(seat, src, dst)
        story.tile_action(seat, dst, False)
    else:
        _ask_field(story, seat, kind, 0)


def probe(b: LuxorState, kind: int, roll: int) -> LuxorState:
    """A copy of ``b`` with card ``kind`` in play and die ``roll``: what the movement
    lookups read when a step is asked about before it is decided (also by prompts.py)."""
    copy = b.clone()
    copy.card = kind
    copy.roll = roll
    return copy


def _ask_field(story: _Story, seat: int, kind: int, roll: int) -> None:
    """As rules._ask_field: with one adventurer able to move, it moves at once."""
    options = field_options(story.b, seat, kind, roll)
    if not options:
        story.add("roll_wasted", seat, roll=roll)
    elif len(options) == 1:
        _ask_distance(story, seat, options[0], kind, roll)


def _ask_distance(story: _Story, seat: int, src: int, kind: int, roll: int) -> None:
    """As rules._ask_distance: a single possible distance is gone at once."""
    options = rules.distance_options(probe(story.b, kind, roll), seat, src)
    if len(options) == 1:
        option = BACK if options[0] == rules.BACKWARD else options[0] - rules.FORWARD + 1
        final = story.move(seat, src, option)
        story.tile_action(seat, final, kind in ONE_FEWER_KINDS)


def _all_forward(story: _Story, seat: int, steps: int) -> None:
    """As rules._all_forward: the adventurer nearest the chamber first, keys spent in turn."""
    b = story.b
    tiles = story.tiles
    keys = b.keys[seat]
    finals: list[int] = []
    for f in range(CHAMBER - 1, -1, -1):
        for _ in range(b.adventurers[seat * NF + f]):
            dst = forward_dest(tiles, f, steps)
            if dst < 0 or (dst == CHAMBER and keys <= 0):
                story.add("stayed", seat, origin=f, steps=steps)
                continue
            if dst == CHAMBER:
                keys -= 1
            final = story.move(seat, f, steps)
            if final != CHAMBER and final not in finals:
                finals.append(final)
    options: list[int] = []
    empty_seen = False
    for f in sorted(finals):
        if tiles[f] == 0:
            if empty_seen:
                continue
            empty_seen = True
        options.append(f)
    if len(options) == 1:
        story.tile_action(seat, options[0], False)


def _narrate_end(story: _Story) -> None:
    a = story.a
    n = a.num_players
    if a.no_move_turns >= n:
        story.add("match_over_early", None)
    elif not a.ending and a.round >= rules.MAX_ROUNDS:
        story.add("match_over_limit", None, round=a.round)
    else:
        story.add("match_over", None, round=a.round)
    assert a.final is not None
    totals = [row[-1] for row in a.final]
    for s in range(n):
        row = a.final[s]
        story.add(
            "final_score",
            s,
            total=row[6],
            track=row[0],
            adventurers=row[1],
            sarcophagi=row[2],
            keys=row[3],
            sets=row[4],
            scarabs=row[5],
        )
    best = max(totals)
    tied = [s for s in range(n) if totals[s] == best]
    tiebreak = scoring.tiebreak(a)
    if len(tied) == 1:
        story.add("winner", tied[0], points=best)
        return
    top = max(tiebreak[s] for s in tied)
    winners = [s for s in tied if tiebreak[s] == top]
    if len(winners) == 1:
        story.add("winner_tiebreak", winners[0], points=best, sarcophagus=top)
    else:
        for s in winners:
            story.add("shared_win", s, points=best)


# --- prompts ------------------------------------------------------------------------------
