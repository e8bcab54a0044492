"""Luxor's table language, its log: the English catalog of every kind and the entries each
event makes. (Prompts and action descriptors are in :mod:`.prompts`, the score breakdown
in :mod:`.breakdown`, the board's geometry in :mod:`.layout`.)

The rules emit what happened as events (:mod:`.events`: each step an adventurer took,
each Osiris push, tunnel trip and statue woken, each tile's action); the kernel redacts
each for the viewer (``Event.seen_by``) and :func:`narrate_event` says it in the table
language, so nothing here retraces a rule and what a seat may not know (another's cards
and scarab values) never reaches its entries. Parameters hold the data file's ids
(``"range_3"``, ``"vase"``, ``"cobra"``) and path indices; the English text writes them
as words through :func:`message`. ``docs/table-language.md`` lists every kind with its
parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from necropolis.engine import language
from necropolis.engine.events import Event
from necropolis.engine.protocol import Told
from necropolis.games.luxor import events as ev
from necropolis.games.luxor.components import (
    BACKS,
    BURIAL_CHAMBER,
    CARD_NAMES,
    FIELD_SYMBOL,
    HORUS_TILE_BASE,
    NUM_VARIANTS,
    OSIRIS_BASE,
    SCARAB_VALUES,
    STAIRS,
    TEMPLE_BASE,
    TEMPLE_NAMES,
    TREASURE_BASE,
    TREASURE_NEED,
    TREASURE_POINTS,
    TREASURE_TYPES,
)

CHAMBER = BURIAL_CHAMBER

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


def message(
    kind: str, params: Mapping[str, Any], viewer: int | None, messages: Mapping[str, str] = MESSAGES
) -> str:
    """The English text of ``kind`` (a template of ``messages``): ids written as words,
    path indices as places."""
    words: dict[str, Any] = {}
    for name, value in params.items():
        if name in TERM_PARAMS and isinstance(value, str):
            words[name] = TERMS.get(value, value)
        elif name in PLACE_PARAMS and isinstance(value, int):
            words[name] = place(value)
        else:
            words[name] = value
    return language.message(messages, kind, words, viewer)


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

_ENDS = ("left", "right")
_ENDINGS = ("match_over", "match_over_early", "match_over_limit")
_WINS = ("winner", "winner_tiebreak", "shared_win")


def narrate_event(event: Event) -> list[Told]:
    """The log entries ``event`` (as the viewer may know it) makes: ``(kind, seat, params)``."""
    match event:
        case ev.CardDealt(seat, card):
            if card is None:
                return [("dealt_hidden", seat, {})]
            return [("dealt", seat, {"card": card_id(card)})]
        case ev.OsirisLaid(field, value):
            return [("osiris_laid", None, {"field": field, "value": value})]
        case ev.TreasureLaid(field, kind):
            params = {
                "field": field,
                "treasure": treasure_id(kind),
                "need": TREASURE_NEED[kind],
                "points": TREASURE_POINTS[kind],
            }
            return [("treasure_laid", None, params)]
        case ev.CardPlayed(seat, card, end, idle):
            played = "card_played_idle" if idle else "card_played"
            return [(played, seat, {"card": card_id(card), "end": _ENDS[end]})]
        case ev.DieRolled(seat, roll):
            return [("die_rolled", seat, {"roll": roll})]
        case ev.RollWasted(seat, roll):
            return [("roll_wasted", seat, {"roll": roll})]
        case ev.Moved(seat, origin, steps, field):
            if steps == ev.BACK:
                return [("moved_back", seat, {"origin": origin, "field": field})]
            if steps == ev.REARMOST:
                return [("moved_rearmost", seat, {"origin": origin, "field": field})]
            return [("moved", seat, {"origin": origin, "steps": steps, "field": field})]
        case ev.Stayed(seat, origin, steps):
            return [("stayed", seat, {"origin": origin, "steps": steps})]
        case ev.OsirisPush(seat, landing, field):
            return [("osiris_push", seat, {"landing": landing, "field": field})]
        case ev.Tunnel(seat, origin, field):
            if field < 0:
                return [("tunnel_end", seat, {"field": origin})]
            return [("tunnel", seat, {"origin": origin, "field": field})]
        case ev.Woke(seat, statue):
            return [("woke", seat, {"statue": statue + 1})]
        case ev.ChamberEntered(seat, _, sarcophagus, last_round):
            out: list[Told] = [("entered_chamber", seat, {})]
            if sarcophagus is not None:
                out.append(("sarcophagus", seat, {"points": sarcophagus}))
            if last_round:
                out.append(("last_round", None, {}))
            return out
        case ev.TileChosen(seat, field):
            return [("tile_chosen", seat, {"field": field})]
        case ev.TreasureTaken(seat, field, kind):
            params = {
                "field": field,
                "treasure": treasure_id(kind),
                "points": TREASURE_POINTS[kind],
            }
            return [("treasure_taken", seat, params)]
        case ev.TreasureTooFew(seat, field, kind, need, have):
            params = {"field": field, "treasure": treasure_id(kind), "need": need, "have": have}
            return [("treasure_too_few", seat, params)]
        case ev.TempleRevealed(field, front):
            params = {
                "field": field,
                "back": BACKS[FIELD_SYMBOL[field]],
                "front": TEMPLE_NAMES[front],
            }
            return [("temple_revealed", None, params)]
        case ev.KeyTaken(seat):
            return [("key_taken", seat, {})]
        case ev.WildTaken(seat):
            return [("wild_taken", seat, {})]
        case ev.NothingLeft(seat):
            return [("nothing_left", seat, {})]
        case ev.ScarabTaken(seat, value):
            if value is None:
                return [("scarab_taken_hidden", seat, {})]
            return [("scarab_taken", seat, {"value": SCARAB_VALUES[value]})]
        case ev.HorusCardTaken(seat, level, card):
            if card is None:
                return [("horus_card_taken_hidden", seat, {"level": level})]
            return [("horus_card_taken", seat, {"level": level, "card": card_id(card)})]
        case ev.CardDrawn(seat, card):
            if card is None:
                return [("card_drawn_hidden", seat, {})]
            return [("card_drawn", seat, {"card": card_id(card)})]
        case ev.Reshuffled():
            return [("reshuffled", None, {})]
        case ev.MatchOver(how, round):
            return [(_ENDINGS[how], None, {} if how == ev.ENDED_EARLY else {"round": round})]
        case ev.FinalScore(seat, track, adventurers, sarcophagi, keys, sets, scarabs, total):
            params = {
                "total": total,
                "track": track,
                "adventurers": adventurers,
                "sarcophagi": sarcophagi,
                "keys": keys,
                "sets": sets,
                "scarabs": scarabs,
            }
            return [("final_score", seat, params)]
        case ev.Won(seat, points, how, sarcophagus):
            if how == ev.BY_TIEBREAK:
                return [(_WINS[how], seat, {"points": points, "sarcophagus": sarcophagus})]
            return [(_WINS[how], seat, {"points": points})]
    return []
