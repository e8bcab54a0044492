"""A seat's turn in hand: taken back before a reveal, committed whole, lost whole in a kill.

Over real WebSocket connections to a ``necropolis serve`` subprocess, on SQLite and on
PostgreSQL. A luxor table of two people: a turn is a card played from the hand (which
shows the seat nothing hidden, so it waits in the seat's turn in hand), maybe an
adventurer picked, then a move, after which a card is drawn (a reveal). The tests hold:

- an undone decision reaches no other seat, no spectator and not the record;
- the turn reaches the others and the record whole: every action of it in one version
  step, never one of its versions in between;
- nothing is taken back across a reveal;
- a SIGKILL in the middle of a turn loses that turn whole and nothing else.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

from necropolis.server.db import Append, Store, make_engine
from tests.clients import Server, SyncSeat, start_server

Message = dict[str, Any]


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    started = start_server(db_url, bot_workers=1)
    try:
        yield started
    finally:
        started.stop()


def _store(db_url: str) -> Store:
    return Store(make_engine(db_url))


def _table(server: Server) -> tuple[str, SyncSeat, SyncSeat, SyncSeat, list[Message]]:
    """A luxor table of two people who keep turns in hand, and a spectator, played on (the
    first choice each time) to a turn that starts with a card played from the hand alone
    (a luxor turn with one adventurer in play is a single decision); returns (table id,
    the mover, the other seat, the spectator, the seats as created)."""
    created = server.create_table("luxor", ["me", "link"])
    table_id = created["table_id"]
    seats = [SyncSeat.connect(server, table_id, s["token"], undo=True) for s in created["seats"]]
    spectator = SyncSeat.connect(server, table_id, created["spectator_token"], undo=True)
    mover = _reach(seats, _cards, _first_card)
    other = seats[1 - seats.index(mover)]
    # The others are told the version the mover plays from before anything is held: a
    # quiet spell of 0.3 s alone was not enough on a loaded machine (the spectator's state
    # of that version came after it, and read as a leak of the turn in hand).
    at = mover.state["version"]
    for watcher in (other, spectator):
        watcher.until(lambda s: s["version"] >= at)
        _drain(watcher)
    return table_id, mover, other, spectator, created["seats"]


def _drain(seat: SyncSeat) -> None:
    """Read what ``seat`` has been sent so far."""
    while True:
        try:
            seat.recv(0.3)
        except TimeoutError:
            return


def _reach(seats: list[SyncSeat], ready: Any, probe: Any = None, limit: int = 300) -> SyncSeat:
    """Play the first choice for whichever seat may act until the mover's state is
    ``ready`` at the start of a turn, and (with ``probe``, the action to try) the action
    ``probe`` picks is kept in hand there; returns the mover."""
    for _ in range(limit):
        for seat in seats:
            _drain(seat)
        newest = max(seat.state["version"] for seat in seats)
        movers = [s for s in seats if s.state["actions"] and s.state["version"] == newest]
        if not movers:
            continue
        mover = movers[0]
        if mover.state["pending"] == 0 and ready(mover.state):
            if probe is None:
                return mover
            # Is the card kept in hand here? (Not when the move it leads to is forced.)
            version = mover.state["version"]
            mover.act(probe(mover.state))
            if _answer(mover)["version"] == version:
                mover.undo()
                assert _answer(mover)["pending"] == 0
                return mover
            continue
        mover.act(mover.state["actions"][0]["action"])
        _answer(mover)
    raise AssertionError("the table never reached the wanted turn")


def _cards(state: Message) -> bool:
    """At least two cards may be played from the hand alone."""
    return len(_of_kind(state, "play_card")) >= 2


def _first_card(state: Message) -> int:
    return _of_kind(state, "play_card")[0]


def _of_kind(state: Message, kind: str) -> list[int]:
    return [d["action"] for d in state["actions"] if d["kind"] == kind]


def _quiet(seat: SyncSeat) -> None:
    """Nothing was queued for ``seat``: a ping's pong is the next thing it is sent."""
    seat.send({"type": "ping"})
    message = seat.recv()
    assert message["type"] == "pong", message


def _answer(seat: SyncSeat) -> Message:
    """The next state sent to ``seat`` (a refusal fails the test)."""
    while True:
        message = seat.recv()
        assert message["type"] != "refused", message
        if message["type"] == "state":
            return message


def _refusal(seat: SyncSeat) -> Message:
    while True:
        message = seat.recv()
        if message["type"] == "refused":
            follow = seat.recv()
            assert follow["type"] == "state"
            return message


def _hold_a_card(mover: SyncSeat, card: int) -> Message:
    version = mover.state["version"]
    mover.act(card)
    held = _answer(mover)
    assert held["version"] == version and held["pending"] == 1
    assert held["pending_log"] and held["pending_log"][0]["seat"] == held["seat"]
    return held


def _finish_turn(mover: SyncSeat) -> tuple[int, list[int]]:
    """Play the turn in hand on to its reveal (the first choice each time); returns the
    version it started at and the actions sent."""
    start = mover.state["version"]
    sent: list[int] = []
    while mover.state["version"] == start:
        state = mover.state
        assert state["actions"], state
        action = state["actions"][0]["action"]
        # A decision that commits the turn in hand is one the page asks to confirm; those
        # that give something up for good are said apart (and are in ``confirm`` too).
        assert set(state["forfeits"]) <= set(state["confirm"])
        held = state["pending"]
        mover.act(action)
        sent.append(action)
        answer = _answer(mover)
        if answer["version"] == start:
            assert answer["pending"] == held + 1
        else:
            assert held == 0 or action in state["confirm"]
    return start, sent


def test_an_undone_decision_never_reaches_another_seat_a_spectator_or_the_record(
    server: Server, db_url: str
) -> None:
    table_id, mover, other, spectator, _ = _table(server)
    store = _store(db_url)
    version = mover.state["version"]
    before = mover.state["view"]
    cards = _of_kind(mover.state, "play_card")
    assert len(cards) >= 2, mover.state["actions"]
    held = _hold_a_card(mover, cards[0])
    assert held["view"] != before  # the card left the hand, for the mover's eyes only
    _quiet(other)
    _quiet(spectator)
    assert store.count_actions(table_id) == version
    # Taken back: the position is the one before, and the turn in hand is empty.
    mover.undo()
    back = _answer(mover)
    assert back["pending"] == 0 and back["pending_log"] == [] and back["view"] == before
    _quiet(other)
    _quiet(spectator)
    # Another card this time, then on to the reveal: the turn is committed whole.
    mover.act(cards[1])
    if _answer(mover)["version"] == version:
        start, sent = _finish_turn(mover)
    else:  # that card's move was forced: it revealed at once
        start, sent = version, []
    end = start + 1 + len(sent)
    for watcher in (other, spectator):
        told = watcher.until(lambda s: s["version"] >= end)
        versions = [m["version"] for m in watcher.received if m["type"] == "state"]
        # The turn arrived whole: no version inside it was ever told.
        assert not any(start < v < end for v in versions), versions
        assert told["pending"] == 0 and told["pending_log"] == []
        indices = {e["index"] for e in watcher.log}
        assert set(range(start, end)) <= indices
    actions = store.actions(table_id)
    assert [a for _, a in actions[start:end]] == [cards[1], *sent]
    assert cards[0] not in [a for _, a in actions[start:end]] or cards[0] == cards[1]
    # The record the server keeps says the same; the undone card was never in it.
    for watcher in (other, spectator):
        entries = [e for e in watcher.log if e["index"] == start]
        assert entries and all(e["seat"] == mover.state["seat"] for e in entries)
    for seat in (mover, other, spectator):
        seat.close()


def test_nothing_is_taken_back_across_a_reveal(server: Server) -> None:
    _table_id, mover, other, spectator, _ = _table(server)
    mover.undo()  # nothing in hand at the turn's start
    refused = _refusal(mover)
    assert refused["code"] == "nothing_to_undo"
    card = _of_kind(mover.state, "play_card")[0]
    _hold_a_card(mover, card)
    _finish_turn(mover)
    # The card drawn after the move was a reveal: the turn is gone from hand for good.
    mover.undo()
    assert _refusal(mover)["code"] in ("nothing_to_undo", "stale_version")
    # The next turn begins after the draw: nothing of it to take back either.
    nxt = _reach([mover, other], lambda s: True)
    nxt.undo()
    assert _refusal(nxt)["code"] == "nothing_to_undo"
    # A spectator takes nothing back, and a client without undo never holds a turn.
    spectator.undo()
    assert _refusal(spectator)["code"] == "not_your_turn"
    for seat in (mover, other, spectator):
        seat.close()


def test_a_confirmed_turn_in_hand_is_committed_as_one(server: Server, db_url: str) -> None:
    table_id, mover, other, spectator, _ = _table(server)
    version = mover.state["version"]
    card = _of_kind(mover.state, "play_card")[0]
    _hold_a_card(mover, card)
    mover.commit()
    committed = _answer(mover)
    assert committed["version"] == version + 1 and committed["pending"] == 0
    assert _store(db_url).actions(table_id)[version][1] == card
    other.until(lambda s: s["version"] == version + 1)
    for seat in (mover, other, spectator):
        seat.close()


def test_a_turn_is_written_whole_or_not_at_all(server: Server, db_url: str) -> None:
    """The store writes a turn in one transaction: a turn one of whose indices is taken
    leaves nothing of itself, alone or in a batch with another table's turn."""
    first = server.create_table("luxor", ["me", "link"])["table_id"]
    second = server.create_table("luxor", ["me", "link"])["table_id"]
    store = _store(db_url)
    server.stop()  # the store alone writes from now on (made-up actions: never served)
    base = [store.count_actions(first), store.count_actions(second)]
    # Prepared: index base+1 of the first table is taken already.
    assert store.append_turns([[Append(first, base[0], None, 0, False)]]) == [True]
    store.append_turns([[Append(first, base[0] + 1, None, 1, False)]])
    taken = store.actions(first)
    split = [Append(first, base[0] + 1, 0, 7, False), Append(first, base[0] + 2, 0, 8, False)]
    # Alone: the turn's first index is taken.
    assert store.append_turns([split]) == [False]
    # A turn whose first index is free but whose second is taken, beside another table's.
    late = [Append(first, base[0] + 2, 0, 7, False), Append(first, base[0] + 1, 0, 8, False)]
    fresh = [Append(second, base[1], 0, 3, False), Append(second, base[1] + 1, 0, 4, False)]
    assert store.append_turns([late, fresh]) == [False, True]
    assert store.actions(first) == taken
    assert [a for _, a in store.actions(second)[base[1] :]] == [3, 4]


def test_a_kill_in_the_middle_of_a_turn_loses_that_turn_and_nothing_else(
    server: Server, db_url: str
) -> None:
    table_id, mover, other, spectator, created = _table(server)
    store = _store(db_url)
    # One whole turn first, so there is something committed to keep.
    _hold_a_card(mover, _of_kind(mover.state, "play_card")[0])
    _finish_turn(mover)
    second = _reach([mover, other], _cards, _first_card)
    first = other if second is mover else mover
    kept = store.actions(table_id)
    version = second.state["version"]
    assert len(kept) == version
    _hold_a_card(second, _of_kind(second.state, "play_card")[0])
    # Held further where the turn allows it: two decisions in hand.
    state = second.state
    follow = state["actions"][0]["action"]
    if follow not in state["confirm"]:
        second.act(follow)
        assert _answer(second)["pending"] == 2
    server.restart()  # SIGKILL, then a fresh process on the same database
    assert store.actions(table_id) == kept
    seat_of = {s["seat"]: s["token"] for s in created}
    back = SyncSeat.connect(server, table_id, seat_of[second.state["seat"]], version, undo=True)
    assert back.state["version"] == version and back.state["pending"] == 0
    assert back.state["pending_log"] == []
    assert _of_kind(back.state, "play_card")  # the turn starts again from its beginning
    watcher = SyncSeat.connect(server, table_id, seat_of[first.state["seat"]], undo=True)
    assert watcher.state["version"] == version
    watcher.earlier()  # its first state holds the newest entries: the rest, page by page
    assert {e["index"] for e in watcher.log} == set(range(version))
    for seat in (back, watcher):
        seat.close()
    for seat in (mover, other, spectator):
        with contextlib.suppress(Exception):  # its server was killed under it
            seat.close()


def test_a_client_without_undo_commits_every_decision_at_once(server: Server) -> None:
    created = server.create_table("luxor", ["me", "link"])
    seats = [SyncSeat.connect(server, created["table_id"], s["token"]) for s in created["seats"]]
    for _ in range(3):
        mover = _reach(seats, _cards)
        version = mover.state["version"]
        mover.act(_first_card(mover.state))
        answer = _answer(mover)
        # Committed at once, with the chance outcomes it led to (if any), in one message.
        chance = answer["version"] - version - 1
        assert [s["by"] for s in answer["steps"]] == [mover.state["seat"]] + [None] * chance
        assert answer["pending"] == 0
        assert json.dumps(answer["pending_log"]) == "[]"
    for seat in seats:
        seat.close()
