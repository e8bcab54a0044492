"""Luxor's table language: log entries, prompts, descriptors, score breakdowns, layout.

The strongest check is a rebuild: a spectator who reads only the log entries, one event at
a time, can lay out the whole public board (tiles, adventurers, sleeping adventurers,
keys, wild tiles, scarab counts, treasures and the score track) and it matches the true
state after every action of random matches. The leak tests compare what a seat is told in
the true state with what it would be told in worlds resampled from its view, and what it
is told of a hidden chance outcome whichever outcome it was.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from necropolis.engine.frozen import replaced
from necropolis.engine.protocol import CHANCE
from necropolis.games.luxor import GAME, rules
from necropolis.games.luxor.components import (
    ALL_2,
    ANUBIS_AFTER,
    BURIAL_CHAMBER,
    DIE,
    DIE_RANGE,
    FIELD_HORUS_LEVEL,
    FIELD_POINTS,
    FIELD_SYMBOL,
    FIVE,
    FOUR,
    HORUS_TILE_BASE,
    NUM_FIELDS,
    NUM_STATUES,
    NUM_VARIANTS,
    ONE,
    OSIRIS_BASE,
    OSIRIS_FIELDS,
    PLUS_MINUS_ONE,
    RANGE_3,
    SCARAB,
    TEMPLE_BASE,
    TEMPLE_NAMES,
    THREE,
    TREASURE_BASE,
    TREASURE_FIELDS,
    TREASURE_NEED,
    TREASURE_POINTS,
    TREASURE_TYPES,
    TWO,
)
from necropolis.games.luxor.state import LuxorState
from tests.luxor.luxor_support import (
    chamber_example,
    chance,
    deck_origin,
    put_adventurers,
    put_hand,
    put_temple_tile,
    random_playout,
    start,
)

NF = NUM_FIELDS


def _step(st: LuxorState, action: int, viewer: int | None = 0) -> list[dict[str, Any]]:
    before = st.clone()
    st.apply_action(action)
    return st.narrate(before, action, viewer)


def _pick(st: LuxorState, rng: random.Random) -> int:
    if st.current_player() == CHANCE:
        outcomes = st.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(st.legal_actions())


class Rebuild:
    """The public board as a spectator rebuilds it from log entries alone."""

    def __init__(self, players: int) -> None:
        self.n = players
        self.tiles = [0] * NF
        for eyes, fields in enumerate(
            [[f for f in range(NF) if FIELD_HORUS_LEVEL[f] == lv] for lv in (1, 2, 3)]
        ):
            for f in fields:
                self.tiles[f] = HORUS_TILE_BASE + eyes
        self.adventurers = [[2 if f == 0 else 0 for f in range(NF)] for _ in range(players)]
        self.sleeping = [[True] * NUM_STATUES for _ in range(players)]
        self.keys = [0] * players
        self.wilds = [0] * players
        self.scarabs = [0] * players
        self.treasures = [[0] * len(TREASURE_TYPES) for _ in range(players)]
        self.track = [0] * players
        self.sarcophagi = [-1, -1]
        self.laid = 0
        self.ended = False

    def read(self, e: dict[str, Any]) -> None:
        kind, p, seat = e["kind"], e["params"], e["seat"]
        if kind == "osiris_laid":
            self.tiles[p["field"]] = OSIRIS_BASE + p["value"] - 1
        elif kind == "treasure_laid":
            t = TREASURE_TYPES.index(p["treasure"])
            variant = next(
                v
                for v in range(NUM_VARIANTS)
                if TREASURE_NEED[v] == p["need"] and TREASURE_POINTS[v] == p["points"]
            )
            self.tiles[p["field"]] = TREASURE_BASE + t * NUM_VARIANTS + variant
        elif kind in ("moved", "moved_back", "moved_rearmost", "tunnel"):
            self.adventurers[seat][p["origin"]] -= 1
            self.adventurers[seat][p["field"]] += 1
        elif kind == "osiris_push":
            self.adventurers[seat][p["landing"]] -= 1
            self.adventurers[seat][p["field"]] += 1
        elif kind == "woke":
            self.sleeping[seat][p["statue"] - 1] = False
            self.adventurers[seat][0] += 1
        elif kind == "entered_chamber":
            self.keys[seat] -= 1
        elif kind == "sarcophagus":
            self.sarcophagi[0 if p["points"] == 5 else 1] = seat
        elif kind == "treasure_taken":
            self.tiles[p["field"]] = 0
            self.treasures[seat][TREASURE_TYPES.index(p["treasure"])] += 1
            self.track[seat] += p["points"]
        elif kind == "temple_revealed":
            self.tiles[p["field"]] = TEMPLE_BASE + TEMPLE_NAMES.index(p["front"])
        elif kind == "key_taken":
            self.keys[seat] += 1
        elif kind == "wild_taken":
            self.wilds[seat] += 1
        elif kind in ("scarab_taken", "scarab_taken_hidden"):
            self.scarabs[seat] += 1
        elif kind in ("match_over", "match_over_early", "match_over_limit"):
            self.ended = True

    def matches(self, st: LuxorState) -> None:
        assert self.tiles == list(st.tiles)
        for s in range(self.n):
            assert self.adventurers[s] == list(st.adventurers[s * NF : (s + 1) * NF])
            assert self.sleeping[s] == [bool(x) for x in st.sleeping[s * 3 : s * 3 + 3]]
        assert self.keys == list(st.keys)
        assert self.wilds == list(st.wilds)
        assert self.scarabs == [sum(x) for x in st.scarabs]
        assert self.treasures == [
            [sum(row[t * NUM_VARIANTS : (t + 1) * NUM_VARIANTS]) for t in range(3)]
            for row in st.treasures
        ]
        if st.final is None:
            assert self.track == list(st.score)
        assert self.sarcophagi == list(st.sarcophagi)
        assert self.ended == st.is_terminal()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_spectator_rebuilds_the_public_board_from_the_log_alone(players: int) -> None:
    kinds_seen: set[str] = set()
    for seed in range(12):
        st = GAME(players=players).new_initial_state()
        rng = random.Random(seed * 10 + players)
        rebuild = Rebuild(players)
        while not st.is_terminal():
            action = _pick(st, rng)
            entries = _step(st, action, None)
            for e in entries:
                kinds_seen.add(e["kind"])
                rebuild.read(e)
            rebuild.matches(st)
    # Random play reaches the common events; the rarer ones have tests of their own below.
    for kind in ("moved", "osiris_push", "woke", "treasure_taken", "temple_revealed", "tunnel"):
        assert kind in kinds_seen


def test_log_replays_the_narration_step_by_step() -> None:
    st = GAME(players=3).new_initial_state()
    rng = random.Random(2)
    expected: list[dict[str, Any]] = []
    for _ in range(250):
        expected.extend(_step(st, _pick(st, rng), 1))
    assert st.log(1) == expected
    # Seats are named "you" only for the viewer.
    texts = [e["text"] for e in expected]
    assert any(t.startswith("You ") for t in texts)
    assert not any("Player 2" in t for t in texts)


def test_the_first_turn_of_the_rulebook_example_in_entries() -> None:
    # Page 4/5: Ani plays the "3" on the far right and moves from the stairs 3 tiles; the
    # treasure on field 4 needs one adventurer, a cobra tile turns up, then she draws.
    st = start(hands=[(ONE, TWO, FIVE, FOUR, THREE), (ONE, TWO, THREE, FOUR, FIVE)])
    # Both adventurers stand on the stairs: each end card allows exactly one move.
    info = st.action_info(rules.PLAY_RIGHT)
    assert info["kind"] == "play_card_move" and info["targets"] == ["hand:4"]
    assert info["text"] == (
        'Play "3" from the right end: it can only move the adventurer on the stairs to'
        " field 4 (vase)"
    )
    assert info["params"]["landing"] == info["params"]["field"] == 4
    entries = _step(st, rules.PLAY_RIGHT)
    assert [(e["kind"], e["params"]) for e in entries] == [
        ("card_played", {"card": "three", "end": "right"}),
        ("moved", {"origin": 0, "steps": 3, "field": 4}),
        ("treasure_taken", {"field": 4, "treasure": "vase", "points": 2}),
    ]
    assert entries[0]["text"] == 'You played "3" from the right end'
    assert entries[1]["text"] == "You moved an adventurer 3 tiles from the stairs to field 4"
    assert all(e["seat"] == 0 and e["index"] == st.move_number() - 1 for e in entries)
    reveal = _step(st, SCARAB, 1)
    assert reveal[0]["text"] == "A cobra temple tile was turned up on field 4: a scarab temple tile"
    assert reveal[0]["seat"] is None
    mine, theirs = _step(st.clone(), ONE, 0), _step(st.clone(), ONE, 1)
    assert mine[0]["text"] == 'You drew "1"'
    assert theirs[0]["text"] == "Player 1 drew a card"
    assert theirs[0]["params"] == {}


def test_chamber_sarcophagus_last_round_and_the_end() -> None:
    # Page 7: a "2" into the chamber with a key; the 3-point sarcophagus; the round is
    # played out and the match ends with every score and the winner.
    st = chamber_example()
    _step(st, rules.PLAY_LEFT)
    entries = _step(st, rules.MOVE_FROM + 40)
    assert [e["kind"] for e in entries] == [
        "moved",
        "entered_chamber",
        "sarcophagus",
        "last_round",
    ]
    assert entries[0]["params"] == {"origin": 40, "steps": 2, "field": BURIAL_CHAMBER}
    assert entries[0]["text"].endswith("to the burial chamber")
    assert entries[2]["text"] == "You won the sarcophagus worth 3 points"
    chance(st, ONE)
    log: list[dict[str, Any]] = []
    while not st.is_terminal():
        action = st.legal_actions()[0] if st.current_player() >= 0 else st.chance_outcomes()[0][0]
        log.extend(_step(st, action))
    kinds = [e["kind"] for e in log]
    assert "match_over" in kinds
    finals = [e for e in log if e["kind"] == "final_score"]
    assert [e["seat"] for e in finals] == [0, 1]
    assert [e["params"]["total"] for e in finals] == st.scores()
    won = [e for e in log if e["kind"] in ("winner", "winner_tiebreak", "shared_win")]
    best = max(st.scores())
    assert all(e["params"]["points"] == best for e in won)
    assert [e["seat"] for e in won] == [s for s, r in enumerate(st.returns()) if r > 0]


def test_prompts_name_the_question_and_only_the_acting_seat_gets_one() -> None:
    st = start(hands=[(DIE, ONE, TWO, ONE, THREE), (ONE, TWO, THREE, FOUR, FIVE)])
    put_adventurers(st, 0, {0: 1, 7: 1})
    p = st.prompt(0)
    assert p is not None and p["kind"] == "prompt_play"
    assert p["text"] == "Play the card at either end of your hand"
    assert st.prompt(1) is None and st.prompt(None) is None
    st.apply_action(rules.PLAY_LEFT)  # the die
    assert st.prompt(0) is None  # a chance node: the die rolls
    chance(st, 2)  # a 3
    p = st.prompt(0)
    assert p is not None and p["text"] == "Choose the adventurer to move 3 tiles"


def test_descriptors_say_where_the_adventurer_lands_and_what_lies_there() -> None:
    st = start(osiris=(3, 2, 1, 4))
    put_temple_tile(st, 12, SCARAB)
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [TWO, ONE, ONE, ONE, PLUS_MINUS_ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)  # "2"
    infos = {a: st.action_info(a) for a in st.legal_actions()}
    via = infos[rules.MOVE_FROM + 7]
    assert via["kind"] == "move_osiris"
    assert via["params"] == {
        "origin": 7,
        "landing": 9,
        "field": 12,
        "steps": 2,
        "tile": "scarab",
    }
    assert via["targets"] == ["field:7", "field:9"]
    assert via["text"] == (
        "Move 2 tiles from field 7 to the Osiris tile on field 9, on to field 12:"
        " a scarab temple tile"
    )
    stairs = infos[rules.MOVE_FROM + 0]
    assert stairs["kind"] == "move_treasure" and stairs["params"]["field"] == 3
    assert stairs["params"]["have"] == 1 and stairs["targets"] == ["field:0", "field:3"]


def test_a_card_lists_the_moves_it_leaves_to_choose_with_the_decisions_that_make_them() -> None:
    # The "+/-1" on the left moves the adventurer on the stairs one tile, or the one on
    # field 5 one tile on or back (two decisions: which, then how far).
    st = start()
    put_adventurers(st, 0, {0: 1, 5: 1})
    put_hand(st, 0, [PLUS_MINUS_ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    info = st.action_info(rules.PLAY_LEFT)
    assert info["kind"] == "play_card" and info["targets"] == ["hand:0"]
    ways = [(w["targets"], w["actions"], w["kind"]) for w in info["then"]]
    assert ways == [
        (["field:0", "field:2"], [rules.MOVE_FROM + 0], "move_treasure"),
        (["field:5", "field:6"], [rules.MOVE_FROM + 5, rules.FORWARD], "move"),
        (["field:5", "field:4"], [rules.MOVE_FROM + 5, rules.BACKWARD], "move_back_treasure"),
    ]
    # each way's words are those of its last decision, as the states after the card give them
    after = st.clone()
    after.apply_action(rules.PLAY_LEFT)
    after.apply_action(rules.MOVE_FROM + 5)
    assert info["then"][2]["text"] == after.action_info(rules.BACKWARD)["text"]
    # a card whose move is forced still names its adventurer, with nothing more to send
    forced = start()
    put_adventurers(forced, 0, {0: 2})
    put_hand(forced, 0, [TWO, ONE, ONE, ONE, DIE], [deck_origin(forced)] * 5)
    two = forced.action_info(rules.PLAY_LEFT)
    assert two["kind"] == "play_card_move"
    assert [(w["targets"], w["actions"]) for w in two["then"]] == [(["field:0", "field:3"], [])]
    # a die card is rolled first: nothing to choose with it
    assert "then" not in forced.action_info(rules.PLAY_RIGHT)


@pytest.mark.parametrize("seed", range(4))
def test_every_way_on_after_a_card_is_made_by_its_decisions(seed: int) -> None:
    """Through random matches: the decisions of each way are legal in turn after the card,
    reveal nothing before the last, and move the adventurer named from the field named to
    the landing named; and every first decision the state after the card offers is some
    way's."""
    st = GAME(players=2 + seed % 3).new_initial_state()
    rng = random.Random(seed)
    checked = 0
    while not st.is_terminal():
        if st.current_player() != CHANCE and st.phase == rules.P_PLAY:
            seat = st.current_player()
            for action in st.legal_actions():
                info = st.action_info(action)
                if "then" not in info:
                    continue
                after = st.clone()
                after.apply_action(action)
                if info["kind"] == "play_card":
                    # (a forced move's card makes the move itself: its way only points)
                    assert not st.reveals(action, after)
                    firsts = {w["actions"][0] for w in info["then"]}
                    assert firsts == set(after.legal_actions())
                for way in info["then"]:
                    origin, landing = (int(t.split(":")[1]) for t in way["targets"])
                    went = after.clone()
                    if not way["actions"]:
                        went, base = after, seat * NF
                        assert went.adventurers[base + origin] < st.adventurers[base + origin]
                        checked += 1
                        continue
                    for k, a in enumerate(way["actions"]):
                        assert went.current_player() == seat and a in went.legal_actions()
                        if k < len(way["actions"]) - 1:
                            assert not went.reveals(a)
                        before = went.clone()
                        went.apply_action(a)
                    told = went.narrate(before, way["actions"][-1], seat)
                    assert any(
                        e["kind"].startswith("moved") and e["params"]["origin"] == origin
                        for e in told
                    ), told
                    assert way["params"]["origin"] == origin and way["params"]["landing"] == landing
                    checked += 1
        st.apply_action(_pick(st, rng))
    assert checked > 20


def test_plus_minus_one_distances_target_their_landing_fields() -> None:
    st = start()
    put_adventurers(st, 0, {0: 1, 5: 1})
    put_hand(st, 0, [PLUS_MINUS_ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 5)
    assert st.prompt(0) is not None and st.prompt(0)["kind"] == "prompt_distance"  # type: ignore[index]
    infos = [st.action_info(a) for a in st.legal_actions()]
    assert [i["targets"] for i in infos] == [["field:6"], ["field:4"]]
    assert [i["kind"] for i in infos] == ["move", "move_back_treasure"]
    assert infos[0]["params"]["tile"] == "horus_tile_1"
    entries = _step(st, rules.BACKWARD)
    assert entries[0]["kind"] == "moved_back"
    assert entries[0]["text"] == "You moved an adventurer one tile back from field 5 to field 4"


def test_all_forward_entries_then_the_chosen_tile() -> None:
    # Page 8: four adventurers go 2 tiles; three reach the Osiris tile and go on 3; one
    # tile's action only, the player picks the treasure.
    st = start(osiris=(3, 2, 1, 4), treasures={12: 4})
    put_temple_tile(st, 23, 3)  # tunnel
    put_temple_tile(st, 29, 3)
    put_adventurers(st, 0, {7: 3, 21: 1}, awake=2)
    put_hand(st, 0, [ALL_2, ONE, ONE, ONE, ONE], [1, *[deck_origin(st)] * 4])
    entries = _step(st, rules.PLAY_LEFT)
    kinds = [e["kind"] for e in entries]
    assert kinds == ["card_played", "moved"] + ["moved", "osiris_push"] * 3
    assert entries[1]["params"] == {"origin": 21, "steps": 2, "field": 23}
    assert entries[3]["params"] == {"landing": 9, "field": 12}
    p = st.prompt(0)
    assert p is not None and p["kind"] == "prompt_tile_action"
    infos = [st.action_info(a) for a in st.legal_actions()]
    assert [i["kind"] for i in infos] == ["use_tile_treasure", "use_tile"]
    assert infos[0]["params"]["have"] == 3 and infos[1]["params"]["tile"] == "tunnel"
    entries = _step(st, rules.ACT_AT + 12)
    assert [e["kind"] for e in entries] == ["tile_chosen", "treasure_taken"]
    assert entries[1]["params"]["points"] == 6


def test_a_statue_passed_wakes_its_adventurer_in_the_log() -> None:
    # Page 5: a roll of 5 passes the first statue.
    st = start()
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [DIE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    _step(st, rules.PLAY_LEFT)
    assert _step(st, 4)[0]["text"] == "You rolled 5"
    entries = _step(st, rules.MOVE_FROM + 7)
    assert [e["kind"] for e in entries[:2]] == ["moved", "woke"]
    assert entries[1]["params"] == {"statue": 1}
    assert ANUBIS_AFTER[0] < 12


def test_tunnel_trip_in_the_log() -> None:
    # Page 7: a "1" onto a tunnel and straight on to the next tunnel.
    st = start()
    for f in (12, 15, 19):
        put_temple_tile(st, f, 3)
    put_adventurers(st, 0, {0: 1, 11: 1})
    put_hand(st, 0, [ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    _step(st, rules.PLAY_LEFT)
    entries = _step(st, rules.MOVE_FROM + 11)
    assert [(e["kind"], e["params"]) for e in entries] == [
        ("moved", {"origin": 11, "steps": 1, "field": 12}),
        ("tunnel", {"origin": 12, "field": 15}),
    ]


# --- hidden information ---------------------------------------------------------------------


def _public_chance(st: LuxorState) -> bool:
    return st.phase in (rules.P_OSIRIS, rules.P_TREASURE, rules.P_ROLL, rules.P_TEMPLE_REVEAL)


def _told(st: LuxorState, seat: int) -> str:
    """Everything ``seat`` is told about the present moment, as one comparable string."""
    infos = [st.action_info(a) for a in st.legal_actions(seat)]
    return json.dumps([st.prompt(seat), infos, st.score_breakdown()], sort_keys=True)


@pytest.mark.parametrize(
    "players", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)]
)
def test_resampled_worlds_tell_a_seat_the_same(players: int) -> None:
    rng = random.Random(players)
    compared = 0
    for seed in range(4):
        st = GAME(players=players).new_initial_state()
        play = random.Random(seed)
        while not st.is_terminal():
            action = _pick(st, play)
            actor = st.current_player()
            for seat in range(players):
                world = st.resample(seat, rng)
                assert _told(world, seat) == _told(st, seat)
                # The same step narrated in the world: the seat's own decisions and public
                # chance; another's play reveals a card the world redealt, and another's
                # draw is checked against every outcome below.
                told_alike = (
                    actor == seat or (actor >= 0 and st.phase != rules.P_PLAY) or _public_chance(st)
                )
                if told_alike:
                    assert world.is_legal(action)
                    before_w, before_t = world.clone(), st.clone()
                    world.apply_action(action)
                    after_t = st.clone()
                    after_t.apply_action(action)
                    assert world.narrate(before_w, action, seat) == after_t.narrate(
                        before_t, action, seat
                    )
                    compared += 1
            st.apply_action(action)
    assert compared > 1000


def test_a_hidden_outcome_is_told_alike_whichever_it_was() -> None:
    checked = 0
    for players in (2, 4):
        st = GAME(players=players).new_initial_state()
        rng = random.Random(players)
        while not st.is_terminal():
            if st.current_player() == CHANCE and not _public_chance(st):
                owner = st.seat if st.phase != rules.P_DEAL else st.deal_index // 5
                outcomes = [a for a, _ in st.chance_outcomes()]
                for viewer in [*range(players), None]:
                    if viewer == owner:
                        continue
                    told = set()
                    for outcome in outcomes:
                        after = st.clone()
                        after.apply_action(outcome)
                        told.add(json.dumps(after.narrate(st, outcome, viewer), sort_keys=True))
                    assert len(told) == 1
                    checked += 1
            random_playout(st, rng, limit=1)
    assert checked > 100


def test_scarab_values_stay_out_of_the_breakdown_until_the_end() -> None:
    st = start()
    put_temple_tile(st, 4, SCARAB)
    put_adventurers(st, 0, {0: 1, 3: 1})
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 3)
    a, b = st.clone(), st.clone()
    ea, eb = _step(a, 0, 1), _step(b, 3, 1)
    assert ea == eb and ea[0]["text"] == "Player 1 took a scarab"
    assert _step(st.clone(), 3, 0)[0]["text"] == "You took a scarab worth 4"
    assert a.score_breakdown() == b.score_breakdown()
    part = a.score_breakdown()[0]["parts"][-1]
    assert part["kind"] == "score_scarabs_hidden" and part["points"] == 0
    assert part["text"] == "1 scarab, face down until the end"
    rules._final_scoring(a)
    rules._final_scoring(b)
    assert a.score_breakdown()[0]["parts"][-1]["points"] == 1
    assert b.score_breakdown()[0]["parts"][-1]["points"] == 4


# --- breakdown, layout, texts ------------------------------------------------------------


def test_breakdown_has_the_six_parts_and_the_sarcophagus_tiebreak() -> None:
    told = {False: 0, True: 0}
    for players in (2, 3, 4):
        for seed in range(30):
            st = GAME(players=players).new_initial_state()
            random_playout(st, random.Random(seed))
            rows = st.score_breakdown()
            assert st.final is not None
            for seat, row in enumerate(rows):
                assert [p["kind"] for p in row["parts"]] == [
                    "score_track",
                    "score_adventurers",
                    "score_sarcophagi",
                    "score_keys",
                    "score_sets",
                    "score_scarabs",
                ]
                assert [p["points"] for p in row["parts"]] == st.final[seat][:6]
                assert row["total"] == st.scores()[seat]
                best = max(
                    [v for v, h in zip((5, 3), st.sarcophagi, strict=True) if h == seat] or [0]
                )
                assert row["tiebreak"][0]["value"] == best
                # A seat without a sarcophagus is told so, not "most valuable: 0".
                if best:
                    assert row["tiebreak"][0]["text"] == f"Most valuable sarcophagus: {best}"
                else:
                    assert row["tiebreak"][0]["kind"] == "tiebreak_no_sarcophagus"
                    assert row["tiebreak"][0]["text"] == "No sarcophagus"
                told[bool(best)] += 1
    assert told[False] and told[True], told


def test_board_layout_is_the_data_files_path() -> None:
    layout = GAME().board_layout()
    json.dumps(layout)
    fields = layout["fields"]
    assert len(fields) == NF
    assert [f["index"] for f in fields] == list(range(NF))
    assert [f["points"] for f in fields] == list(FIELD_POINTS)
    assert [f["x"] for f in fields if f["kind"] == "osiris"] == [
        fields[f]["x"] for f in OSIRIS_FIELDS
    ]
    assert {f["index"] for f in fields if f["kind"] == "treasure"} == set(TREASURE_FIELDS)
    assert sum(1 for f in fields if f["symbol"] is not None) == 14
    assert all((f["symbol"] is None) == (FIELD_SYMBOL[f["index"]] < 0) for f in fields)
    # Every field has a cell of its own, consecutive fields are neighbours, and the
    # chamber is the centre of the grid.
    cells = [(f["x"], f["y"]) for f in fields]
    assert len(set(cells)) == NF
    for (x0, y0), (x1, y1) in itertools.pairwise(cells):
        assert abs(x0 - x1) + abs(y0 - y1) == 1
    grid = layout["grid"]
    assert cells[BURIAL_CHAMBER] == ((grid["width"] - 1) // 2, (grid["height"] - 1) // 2)
    assert [s["after"] for s in layout["statues"]] == list(ANUBIS_AFTER)


@pytest.mark.parametrize("seed", [9, 10, 11])
def test_texts_hold_no_internal_names(seed: int) -> None:
    st = GAME(players=2).new_initial_state()
    rng = random.Random(seed)
    texts: list[str] = []
    while not st.is_terminal():
        for seat in (0, 1):
            p = st.prompt(seat)
            # Exactly the seat to decide is asked something.
            assert (p is not None) == (st.current_player() == seat)
            if p is not None:
                texts.append(p["text"])
                texts.extend(st.action_info(a)["text"] for a in st.legal_actions(seat))
        texts.extend(e["text"] for e in _step(st, _pick(st, rng), 0))
    texts.extend(p["text"] for row in st.score_breakdown() for p in row["parts"])
    for text in texts:
        assert "_" not in text and "None" not in text and "True" not in text, text
        assert "{" not in text and "seat " not in text.lower(), text


# --- the terminal board -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_terminal_board_fits_64_columns_and_20_lines(players: int) -> None:
    from rich.text import Text

    game = GAME(players=players)
    for seed in range(3):
        st = game.new_initial_state()
        rng = random.Random(seed)
        while True:
            for seat in [*range(players), None]:
                board = game.render_view(st.view(seat))
                lines = board.split("\n")
                assert len(lines) <= 20
                for line in lines:
                    assert Text.from_markup(line).cell_len <= 64, line
            if st.is_terminal():
                break
            random_playout(st, rng, limit=5)


def test_the_terminal_board_draws_the_spiral_and_names_seats() -> None:
    from rich.text import Text

    st = start(players=3, osiris=(3, 2, 1, 4))
    put_adventurers(st, 1, {0: 1, 7: 1})
    plain = Text.from_markup(GAME(players=3).render_view(st.view(1))).plain
    lines = plain.split("\n")
    # Two lines of supplies, then five rows of cells, two lines each. The bottom row
    # starts with the stairs, where seat 1 (the second digit) has one adventurer left; the
    # middle row runs 40, 41 into the chamber at the centre, the sarcophagi beside it.
    assert lines[10].startswith("Stairs") and lines[11].startswith(" 212 ")
    middle = lines[6]
    assert middle[14:16] == "40" and middle[21:23] == "41"
    assert middle[28:34] == "Tomb13" and middle[35:40] == "Sarc5"
    assert " 9Os+3" in plain and "Tomb13" in plain and "Sarc5" in plain
    assert "\u25cf you" in plain and "\u25cf Player 1" in plain and "\u25cf Player 3" in plain


def test_description_and_rules_summaries() -> None:
    game = GAME()
    assert "burial chamber" in game.description
    english = game.rules_summary("en")
    assert english.startswith("# Luxor") and "## Final scoring" in english
    dutch = game.rules_summary("nl")
    assert dutch.startswith("# Luxor") and "## Eindtelling" in dutch
    italian = game.rules_summary("it")
    assert italian.startswith("# Luxor") and "## Il punteggio finale" in italian
    assert game.rules_summary("de") == english  # no German page: the English one


def test_no_move_possible_is_prompted_described_and_told() -> None:
    # Page 4 (the rare case): neither end card allows a move; one is played anyway.
    st = start()
    put_adventurers(st, 0, {40: 2})
    st.key_supply -= 1
    st.keys = replaced(st.keys, 0, 1)
    put_hand(st, 0, [THREE, ONE, ONE, ONE, FIVE], [deck_origin(st)] * 5)
    p = st.prompt(0)
    assert p is not None and p["kind"] == "prompt_play_idle"
    info = st.action_info(rules.PLAY_RIGHT)
    assert info["kind"] == "play_card_idle" and info["text"] == (
        'Play "5" from the right end without moving'
    )
    assert [e["kind"] for e in _step(st, rules.PLAY_RIGHT)] == ["card_played_idle"]


def test_a_roll_that_no_adventurer_can_use() -> None:
    st = start()
    put_adventurers(st, 0, {40: 1, 41: 1})  # no key: the chamber is closed to them
    put_hand(st, 0, [DIE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    _step(st, rules.PLAY_LEFT)  # a 1 would move the one on field 40
    entries = _step(st, 1)  # a 2 overshoots or needs a key
    assert [e["kind"] for e in entries] == ["die_rolled", "roll_wasted"]
    assert entries[1]["text"] == "You could not move 2 tiles with any adventurer"


def _ending_draw(keys0: int, sarcophagus1: bool) -> list[dict[str, Any]]:
    """Seat 1's draw ends the last round of a prepared position; its entries for seat 0."""
    st = start()
    put_adventurers(st, 0, {0: 2})
    put_adventurers(st, 1, {0: 2})
    st.key_supply -= keys0
    st.keys = replaced(st.keys, 0, keys0)
    if sarcophagus1:
        st.sarcophagi = (1, -1)
    st.ending = True
    st.seat = 1
    st.phase = rules.P_DRAW
    return _step(st, ONE)


def test_a_tie_goes_to_the_more_valuable_sarcophagus() -> None:
    # Page 7: five keys (5 points) against the 5-point sarcophagus: the sarcophagus wins.
    entries = _ending_draw(5, True)
    assert [e["kind"] for e in entries] == [
        "card_drawn_hidden",
        "match_over",
        "final_score",
        "final_score",
        "winner_tiebreak",
    ]
    assert entries[-1]["seat"] == 1
    assert entries[-1]["text"] == (
        "Player 2 won with 5 points, the tie broken by the sarcophagus worth 5"
    )
    assert entries[2]["text"] == (
        "You scored 5 points in all: 0 for treasures during play, 0 for the adventurers'"
        " places, 0 for sarcophagi, 5 for keys, 0 for sets and 0 for scarabs"
    )


def test_tied_seats_without_a_sarcophagus_share_the_win() -> None:
    entries = _ending_draw(0, False)
    shared = [e for e in entries if e["kind"] == "shared_win"]
    assert [e["seat"] for e in shared] == [0, 1]
    assert shared[0]["text"] == "You shared the win with 0 points"


def test_range_cards_prompt_for_up_to_their_reach() -> None:
    # Page 8: Jan's "1-3" and his "1-die" after a roll of 2.
    st = start()
    put_adventurers(st, 0, {0: 1, 14: 1})
    put_hand(st, 0, [RANGE_3, ONE, ONE, ONE, DIE_RANGE], [0, *[deck_origin(st)] * 3, 1])
    st.apply_action(rules.PLAY_LEFT)
    p = st.prompt(0)
    assert p is not None and p["text"] == "Choose the adventurer to move 1 to 3 tiles"
    st.apply_action(rules.MOVE_FROM + 14)
    p = st.prompt(0)
    assert (
        p is not None and p["text"] == 'Choose how far the adventurer on field 14 goes with "1-3"'
    )


def test_a_descriptor_of_an_action_not_legal_now_is_refused_clearly() -> None:
    from necropolis.engine.errors import IllegalActionError

    st = GAME().new_initial_state()
    with pytest.raises(IllegalActionError, match="not a decision legal now"):
        st.action_info(0)  # the deal is a chance event
    st = start()
    with pytest.raises(IllegalActionError, match="not a decision legal now"):
        st.action_info(rules.TAKE_KEY)
    assert st.action_info(rules.PLAY_LEFT)["kind"] == "play_card_move"
