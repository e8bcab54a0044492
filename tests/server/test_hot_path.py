"""The server's fast paths say exactly what its plain paths say.

A ``state`` message is built once per table version and viewer and kept as JSON text
(``filter.state_text``), without validating the server's own parts again through the
protocol's model; and actions are committed in batches by one writer
(``Store.append_many``). These tests hold both to the plain paths: the same text as the
validated :class:`StateMessage`, never a stale line of seats, and the same refusal of a
second action at an index already taken.
"""

from __future__ import annotations

import json
import random

import pytest

from necropolis.bots.levels import Level
from necropolis.engine.protocol import CHANCE, sample_chance
from necropolis.games import game_ids, load_game
from necropolis.server import bots, db, filter
from necropolis.server.live import Connection, LiveTable
from necropolis.server.models import StateMessage
from necropolis.server.seats import Seat, changed
from necropolis.server.service import new_row


def _live(game_id: str, seat_types: list[str] | None = None) -> LiveTable:
    game = load_game(game_id)
    types = seat_types or ["link"] * (game.num_players - 1) + ["bot"]
    seats = [
        Seat(k, t, name=f"P{k}", level=Level.EASY if t == "bot" else None)
        for k, t in enumerate(types)
    ]
    return LiveTable(new_row(game.id, dict(game.options), seats, "c" * 64, "s" * 64, "t1"), [])


def _validated(live: LiveTable, seat: int | None, since: int) -> str:
    return StateMessage.model_validate(filter.state_data(live, seat, since)).model_dump_json()


@pytest.mark.parametrize("game_id", game_ids())
def test_state_text_is_the_validated_models_text_through_a_whole_match(game_id: str) -> None:
    rng = random.Random(7)
    live = _live(game_id)
    live.connections.add(Connection(seat=0, version=0))
    while True:
        for viewer in live.viewers:
            for since in {filter.FIRST, 0, max(0, live.version - 1), live.version}:
                version, text = filter.state_text(live, viewer, since)
                assert version == live.version
                assert text == _validated(live, viewer, since)
        if live.state.is_terminal():
            break
        state = live.state
        if state.current_player() == CHANCE:
            live.apply(None, sample_chance(state, rng))
        else:
            seat = next(iter(state.acting_seats()))
            live.apply(seat, rng.choice(state.legal_actions(seat)))
    assert json.loads(filter.state_text(live, 0, 0)[1])["status"] == "finished"


def test_state_text_is_built_once_per_version_and_seat_line() -> None:
    live = _live(game_ids()[0])
    _, first = filter.state_text(live, 0, 0)
    _, again = filter.state_text(live, 0, 0)
    assert again is first  # the second connection of the seat is sent the same text

    # Seat 0 connects: the seats line says so, though the version has not moved.
    live.connections.add(Connection(seat=0, version=0))
    _, connected = filter.state_text(live, 0, 0)
    assert connected != first
    assert json.loads(connected)["seats"][0]["connected"] is True
    assert connected == _validated(live, 0, 0)

    # The seat is handed to a bot: a new seats line, a seat that is no longer offered moves.
    live.row.seats = changed(live.row.seats, 0, type="bot", level=Level.EASY, token_hash=None)
    _, handed = filter.state_text(live, 0, 0)
    assert json.loads(handed)["seats"][0]["type"] == "bot"
    assert json.loads(handed)["actions"] == []
    assert handed == _validated(live, 0, 0)


def test_append_many_commits_a_batch_and_skips_an_index_already_taken(db_url: str) -> None:
    db.upgrade(db_url)
    engine = db.make_engine(db_url)
    try:
        store = db.Store(engine)
        for table_id in ("a", "b"):
            store.create(new_row("luxor", {}, [], "c" * 64, "s" * 64, table_id))
        store.append("a", 0, 0, 5, False)
        # "a" 0 is taken: it is refused, and the others of the batch are committed.
        done = store.append_many(
            [
                db.Append("b", 0, 1, 7, False),
                db.Append("a", 0, 1, 9, False),
                db.Append("a", 1, None, 3, True),
            ]
        )
        assert done == [True, False, True]
        assert store.actions("a") == [(0, 5), (None, 3)]
        assert store.actions("b") == [(1, 7)]
        assert store.versions(["a", "b"]) == {"a": 2, "b": 1}
        assert store.get("a").status == db.FINISHED  # type: ignore[union-attr]
        assert store.get("b").status == db.PLAYING  # type: ignore[union-attr]
        with pytest.raises(db.VersionConflictError):
            store.append("b", 0, 0, 1, False)
    finally:
        engine.dispose()


def test_a_bot_worker_keeps_a_tables_state_and_replays_only_what_is_new() -> None:
    game_id = game_ids()[0]
    live = _live(game_id)
    rng = random.Random(3)
    bots._kept.clear()
    # (the record, the seat to decide) at three moments a seat is asked to decide
    marks: list[tuple[list[int], int]] = []
    while not live.state.is_terminal() and len(marks) < 3:
        state = live.state
        if state.current_player() == CHANCE:
            live.apply(None, sample_chance(state, rng))
            continue
        seat = next(iter(state.acting_seats()))
        if live.version > 0:
            marks.append(([a for _, a in live.actions], seat))
        live.apply(seat, rng.choice(state.legal_actions(seat)))
    for actions, seat in marks:
        bots.decide(game_id, {}, actions, seat, "easy", "t1")
        (kept_actions, kept), *_ = bots._kept.values()
        fresh = load_game(game_id).new_initial_state()
        for action in actions:
            fresh.apply_action(action)
        assert kept_actions == actions
        assert [kept.view(v) for v in live.viewers] == [fresh.view(v) for v in live.viewers]
        assert str(kept) == str(fresh)
    # Another record under the same table id (not a continuation) is replayed afresh.
    bots.decide(game_id, {}, *marks[0], "easy", "t1")
    (kept_actions, kept), *_ = bots._kept.values()
    assert kept_actions == marks[0][0]
    assert len(bots._kept) == 1


def test_a_bot_worker_keeps_the_state_its_turn_led_to() -> None:
    """After a turn of several decisions, the worker keeps the state after those it played
    on from (all but the last, or all when another seat or chance acts next), so the
    table's next request, whose record begins with them, replays only what is new."""
    game_id = "luxor"
    live = _live(game_id)
    rng = random.Random(5)
    bots._kept.clear()
    longest: list[int] = []
    start: tuple[list[int], int] = ([], 0)
    while len(longest) < 2 and not live.state.is_terminal():
        state = live.state
        if state.current_player() == CHANCE:
            live.apply(None, sample_chance(state, rng))
            continue
        seat = next(iter(state.acting_seats()))
        actions = [a for _, a in live.actions]
        turn = bots.decide_turn(game_id, {}, actions, seat, "easy", "t1")
        (kept_actions, kept), *_ = bots._kept.values()
        assert kept_actions[: len(actions)] == actions
        assert kept_actions[len(actions) :] == turn[: len(kept_actions) - len(actions)]
        fresh = load_game(game_id).new_initial_state()
        for action in kept_actions:
            fresh.apply_action(action)
        assert str(kept) == str(fresh)
        for action in turn:
            live.apply(seat, action)
        if len(turn) > len(longest):
            longest, start = turn, (actions, seat)
    assert len(longest) >= 2, "a luxor turn of several decisions was asked at once"
    # Where that turn began: one decision at most, or none begun after the time, is one.
    assert len(bots.decide_turn(game_id, {}, *start, "easy", None, most=1)) == 1
    assert len(bots.decide_turn(game_id, {}, *start, "easy", None, seconds=0)) == 1


def test_a_seat_handed_to_a_bot_is_narrated_while_its_person_still_watches() -> None:
    players = load_game(game_ids()[0]).num_players
    live = _live(game_ids()[0], ["link", "link"] + ["bot"] * (players - 2))
    live.connections.add(Connection(seat=0, version=0))
    for seat in (0, 1):
        live.row.seats = changed(
            live.row.seats, seat, type="bot", level=Level.EASY, token_hash=None
        )
    state = live.state
    if state.current_player() == CHANCE:
        live.apply(None, sample_chance(state, random.Random(1)))
    else:
        seat = next(iter(state.acting_seats()))
        live.apply(seat, state.legal_actions(seat)[0])
    # Seat 1 and the bots': nobody watches as them; nor does a spectator.
    assert set(live.narrations[-1]) == {0}
    assert live.log_since(0, 0) == live.state.log(0)
    assert live.log_since(1, 0) == live.state.log(1)


def test_a_spectator_is_narrated_while_one_watches_and_filled_in_when_one_comes() -> None:
    game_id = game_ids()[0]
    live = _live(game_id)
    rng = random.Random(4)

    def step() -> None:
        state = live.state
        if state.current_player() == CHANCE:
            live.apply(None, sample_chance(state, rng))
        else:
            seat = next(iter(state.acting_seats()))
            live.apply(seat, rng.choice(state.legal_actions(seat)))

    for _ in range(20):
        step()
    # Every person seat is narrated at once (its person comes back with a version); no
    # spectator watches, so none is narrated for one.
    people = set(live.viewers) - {None}
    assert people and all(set(n) == people for n in live.narrations)
    live.connections.add(Connection(seat=None, version=0))
    # The spectator's first state fills in what it lacked, from a replay, once.
    first = json.loads(filter.state_text(live, None, filter.FIRST)[1])
    assert first["log"] == [e for e in live.state.log(None) if e["index"] >= first["log_from"]]
    assert all(n[None] is not None for n in live.narrations)
    assert live.log_since(None, 0) == live.state.log(None)
    for _ in range(5):
        step()
    assert all(None in n for n in live.narrations[-5:])
    assert live.log_since(None, 0) == live.state.log(None)
