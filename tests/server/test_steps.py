"""A ``state`` message shows a connection each version it missed, as its seat saw it.

When several actions land between two messages of a connection (a bot's streak, a chance
outcome right after a move, a short drop), the message carries ``steps``: who acted at
each missed version and the seat's view after it, so the page can play them one at a
time. These tests hold the steps to the views a fresh replay of the same actions gives,
and check that they stay within the seat's view and within the kept window.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from necropolis.bots.levels import Level
from necropolis.engine.events import events_data
from necropolis.engine.protocol import CHANCE, sample_chance
from necropolis.games import game_ids, load_game
from necropolis.server import filter
from necropolis.server.db import Store, make_engine
from necropolis.server.live import STEPS_KEPT, Connection, LiveTable, Turn
from necropolis.server.models import StateMessage
from necropolis.server.seats import Seat
from necropolis.server.service import new_row
from tests.clients import SyncSeat, running_server
from tests.server.test_tables import answer, play_one, settle


def _live(game_id: str) -> LiveTable:
    game = load_game(game_id)
    types = ["link"] + ["bot"] * (game.num_players - 1)
    seats = [Seat(k, t, level=Level.EASY if t == "bot" else None) for k, t in enumerate(types)]
    return LiveTable(new_row(game.id, dict(game.options), seats, "c" * 64, "s" * 64, "t1"), [])


def _play(live: LiveTable, rng: random.Random, count: int) -> None:
    for _ in range(count):
        state = live.state
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            live.apply(None, sample_chance(state, rng))
        else:
            seat = next(iter(state.acting_seats()))
            live.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("game_id", game_ids())
def test_steps_are_the_seats_views_of_the_missed_versions(game_id: str) -> None:
    rng = random.Random(3)
    live = _live(game_id)
    live.connections.add(Connection(seat=0, version=0))
    _play(live, rng, 40)
    since = live.version - 5
    for viewer in (0, None):
        message = json.loads(filter.state_text(live, viewer, since)[1])
        assert [s["version"] for s in message["steps"]] == list(range(since + 1, live.version + 1))
        # A fresh replay of the same actions gives the same views, the same actors.
        state = live.game.new_initial_state()
        for v, (by, action) in enumerate(live.actions, start=1):
            state.apply_action(action)
            if since < v < live.version:
                step = message["steps"][v - since - 1]
                assert step["by"] == by
                assert step["view"] == json.loads(json.dumps(state.view(viewer)))
        assert message["steps"][-1]["view"] is None  # the message's own view
        assert message["steps"][-1]["by"] == live.actions[-1][0]
        text = StateMessage.model_validate(filter.state_data(live, viewer, since))
        assert text.model_dump_json() == filter.state_text(live, viewer, since)[1]


def test_no_steps_for_a_first_message_or_beyond_the_kept_states() -> None:
    live = _live(game_ids()[0])
    live.connections.add(Connection(seat=0, version=0))
    _play(live, random.Random(5), STEPS_KEPT + 4)
    assert json.loads(filter.state_text(live, 0, 0)[1])["steps"] == []
    assert json.loads(filter.state_text(live, 0, live.version)[1])["steps"] == []
    behind = live.version - STEPS_KEPT - 1
    assert json.loads(filter.state_text(live, 0, behind)[1])["steps"] == []
    near = json.loads(filter.state_text(live, 0, live.version - STEPS_KEPT)[1])["steps"]
    assert len(near) == STEPS_KEPT
    assert all(s["view"] is not None for s in near[:-1])


def test_a_table_nobody_watches_keeps_no_states() -> None:
    live = _live(game_ids()[0])
    _play(live, random.Random(9), 6)
    assert not live.recent
    # Someone comes back after missing them: the log is still theirs, the views are not
    # kept, so each step says who acted and leaves the view out.
    live.connections.add(Connection(seat=0, version=2))
    steps = json.loads(filter.state_text(live, 0, 2)[1])["steps"]
    assert [s["view"] for s in steps] == [None] * len(steps)
    assert [s["by"] for s in steps] == [by for by, _ in live.actions[2:]]


def test_a_seat_back_after_a_short_drop_is_sent_each_version_it_missed(tmp_path: Path) -> None:
    """Over a real WebSocket: the views in ``steps`` are the very views the seat's other
    connection was sent at those versions, and ``by`` says who moved."""
    with running_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as server:
        created = server.create_table("luxor2001", ["me", "link"])
        table_id = created["table_id"]
        tokens = [s["token"] for s in created["seats"]]
        seats = [SyncSeat.connect(server, table_id, t) for t in tokens]
        rng = random.Random(8)
        play_one(seats, rng)
        since = settle(*seats)
        for _ in range(3):
            play_one(seats, rng)
        now = settle(*seats)
        assert 1 < now - since <= STEPS_KEPT
        views = {m["version"]: m["view"] for m in seats[0].received if m["type"] == "state"}
        back = SyncSeat.connect(server, table_id, tokens[0], since)
        steps = back.state["steps"]
        assert [s["version"] for s in steps] == list(range(since + 1, now + 1))
        assert steps[-1]["view"] is None and back.state["view"] == views[now]
        compared = [s for s in steps[:-1] if s["version"] in views]
        assert compared, "the other connection saw some of the versions"
        for s in compared:
            assert s["view"] == views[s["version"]]
        # A person's move is said to be theirs; chance's (the draws) nobody's.
        movers = {s["by"] for s in steps}
        assert movers <= {0, 1, None} and movers & {0, 1}
        back.close()
        for seat in seats:
            seat.close()


def test_a_move_and_the_chance_outcomes_it_leads_to_come_as_one(sqlite_url: str) -> None:
    """A decision that leads to chance (in luxor2001 a card is drawn after each card
    played) is committed with the outcomes that follow it and told in one message, whose
    steps show the move and each outcome; every outcome is still the one the table's seed
    gives at its own version, as when they were committed one by one."""
    with running_server(sqlite_url) as server:
        created = server.create_table("luxor2001", ["me", "link"])
        table_id = created["table_id"]
        seats = [SyncSeat.connect(server, table_id, s["token"]) for s in created["seats"]]
        rng = random.Random(11)
        followed = 0
        for _ in range(6):
            version = settle(*seats)
            mover = next(s for s in seats if s.state["actions"])
            other = next(s for s in seats if s is not mover)
            mover.act(rng.choice(mover.state["actions"])["action"], version)
            told = answer(mover, version)
            assert told["type"] == "state"
            chance = told["version"] - version - 1
            assert [s["by"] for s in told["steps"]] == [mover.state["seat"]] + [None] * chance
            # The other seat is not sent the versions in between one by one.
            seen = other.until(lambda st, v=version: st["version"] > v)
            assert seen["version"] == told["version"]
            followed += chance > 0
        assert followed, "some move was followed by a draw"
        store = Store(make_engine(sqlite_url))
        row = store.get(table_id)
        assert row is not None
        state = load_game(row.game, **row.options).new_initial_state()
        for v, (by, action) in enumerate(store.actions(table_id)):
            if state.current_player() == CHANCE:
                assert by is None
                assert action == sample_chance(state, random.Random(f"{row.seed}:{v}"))
            else:
                assert by is not None
            state.apply_action(action)
        for seat in seats:
            seat.close()


def test_a_bots_turn_of_several_decisions_comes_as_one(sqlite_url: str) -> None:
    """A bot's turn of several decisions (in luxor a card, then the steps it allows) is
    decided, committed and told at once: the person at the table is sent one message
    whose steps show each of the bot's decisions in turn, never the versions between."""
    with running_server(sqlite_url) as server:
        created = server.create_table("luxor", ["me", "bot"])
        table_id = created["table_id"]
        person = SyncSeat.connect(server, table_id, created["seats"][0]["token"])
        rng = random.Random(12)

        def runs() -> list[list[dict[str, Any]]]:
            """The bot's decisions told together: consecutive steps of seat 1."""
            found = []
            for message in person.received:
                steps = message["steps"] if message["type"] == "state" else []
                for a, b in itertools.pairwise(steps):
                    if a["by"] == b["by"] == 1:
                        found.append([a, b])
            return found

        while not runs() and person.state["status"] == "playing":
            state = person.until(lambda st: bool(st["actions"]) or st["status"] == "finished")
            if state["actions"]:
                person.act(rng.choice(state["actions"])["action"], state["version"])
                answer(person, state["version"])
        assert runs(), "a turn of the bot's several decisions came in one message"
        seen = {m["version"] for m in person.received if m["type"] == "state"}
        record = Store(make_engine(sqlite_url)).actions(table_id)
        for a, _b in runs():
            # The version between the two decisions was never a message of its own.
            assert a["version"] not in seen and record[a["version"] - 1][0] == 1
        person.close()


@pytest.mark.parametrize("game_id", [g for g in game_ids() if load_game(g).tells_events()])
def test_a_message_carries_each_shown_actions_events_as_its_seat_may_know_them(
    game_id: str,
) -> None:
    """The events of the action that made the message's view, and of each step's, are
    those the rules emit for it, redacted for the message's seat; a table loaded from its
    record has its latest action's events too."""
    rng = random.Random(4)
    live = _live(game_id)
    live.connections.add(Connection(seat=0, version=0))
    _play(live, rng, 60)
    since = live.version - 4
    states = [live.game.new_initial_state()]
    happened = []
    for _, action in live.actions:
        after = states[-1].clone()
        happened.append(after.apply_events(action))
        states.append(after)
    for viewer in (0, 1, None):
        message = json.loads(filter.state_text(live, viewer, since)[1])
        assert message["events"] == events_data(happened[-1], viewer)
        for step in message["steps"]:
            assert step["events"] == events_data(happened[step["version"] - 1], viewer)
        loaded = LiveTable(live.row, live.actions)
        first = json.loads(filter.state_text(loaded, viewer, filter.FIRST)[1])
        assert first["events"] == message["events"]
    # Somewhere in these 60 actions a seat was told less than the whole truth.
    assert any(
        events_data(h, 0) != events_data(h, 1) or events_data(h, None) != events_data(h, 0)
        for h in happened
    )


def test_a_finished_tables_messages_carry_its_statistics_and_a_playing_ones_none() -> None:
    """The figures of the match (``State.statistics``) come with every viewer's state
    message once the match is over, the same for each; before, none."""
    live = _live("luxor2001")
    live.connections.add(Connection(seat=0, version=0))
    _play(live, random.Random(9), 30)
    assert json.loads(filter.state_text(live, 0, filter.FIRST)[1])["statistics"] == []
    _play(live, random.Random(9), 100_000)
    assert live.state.is_terminal()
    figures = json.loads(json.dumps(live.state.statistics()))
    assert figures
    for viewer in (0, 1, None):
        message = json.loads(filter.state_text(live, viewer, filter.FIRST)[1])
        assert message["statistics"] == figures
    actors = [by for by, _ in live.actions]
    actions = [a for _, a in live.actions]
    last = filter.replay(live.game, actions, len(actions), 1, actors)
    assert json.loads(last.model_dump_json())["statistics"] == figures
    assert filter.replay(live.game, actions, 10, 1, actors).statistics == []


def test_a_turn_in_hand_is_shown_with_its_last_decisions_events() -> None:
    """A seat holding decisions in hand sees the position after them, and the events of
    the last of them (as the seat may know them); the others still the table's."""
    live = _live("luxor2001")
    live.connections.add(Connection(seat=0, version=0))
    rng = random.Random(2)
    while live.state.current_player() != 0:
        _play(live, rng, 1)
    before = live.state
    action = before.legal_actions(0)[0]
    after = before.clone()
    after.apply_action(action)
    live.turns[0] = Turn(live.version, [action], [after], [after.narrate(before, action, 0)])
    mine = json.loads(filter.state_text(live, 0, live.version)[1])
    assert mine["events"] == events_data(after.happened(before, action), 0)
    assert mine["events"] and mine["events"][0]["type"] == "card_inserted"
    theirs = json.loads(filter.state_text(live, 1, live.version)[1])
    assert theirs["events"] == events_data(live.happened_at(live.version) or [], 1)
