"""Whole games of every game at a real server, and every message checked against what
its seat may see.

Two people (test clients choosing random legal actions), a bot and a spectator sit at a
table; every message each of them receives is recorded. When the match is over, its
record is downloaded and replayed, and each ``state`` message is compared with the true
state at its version: the view is that seat's view, the log entries are what ``narrate``
tells that seat of the actions since its previous message, the action descriptors are
that seat's own legal actions (only while it may act), and the table's secret seed
appears nowhere. Run on SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from necropolis.engine.protocol import State
from necropolis.engine.record import MatchRecord
from necropolis.games import load_game
from tests.clients import Message, Seat, running_server

#: Per game: options and seats that finish quickly, and a window race where it has one.
GAMES: dict[str, dict[str, Any]] = {
    "luxor2001": {"players": 3, "curse": True},
    "luxor": {"players": 3},
    "horus": {"players": 3},
}


def read_seed(db_url: str, table_id: str) -> str:
    """The table's secret seed, read from the database as only the server may."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            seed = connection.execute(
                text("SELECT seed FROM tables WHERE id = :id"), {"id": table_id}
            ).scalar_one()
    finally:
        engine.dispose()
    return str(seed)


def true_states(record: MatchRecord) -> tuple[list[State], list[int]]:
    """Every state of the match (index = version) and the actions between them."""
    return list(record.states(load_game)), list(record.actions)


def check_messages(
    seat: int | None, received: list[Message], states: list[State], actions: list[int]
) -> int:
    """Check every message one connection received; returns how many states it checked."""
    since = 0
    checked = 0
    for message in received:
        if message["type"] == "presence":
            # Who is at the table, and nothing else: each seat's connected flag and, for
            # a seat's own connection, how many of its seat's connections are open.
            assert set(message) == {"type", "seats", "here"}, message
            assert all(set(s) == {"seat", "connected"} for s in message["seats"]), message
            assert (message["here"] is None) == (seat is None), message
            continue
        if message["type"] == "log":
            # A page of older entries: exactly those of its indices, as this seat knew them.
            expected_page: list[dict[str, Any]] = []
            for index in range(message["log_from"], message["before"]):
                expected_page.extend(states[index + 1].narrate(states[index], actions[index], seat))
            assert message["log"] == expected_page, (seat, message["before"])
            continue
        if message["type"] != "state":
            assert message["type"] in ("refused", "pong"), message
            continue
        version = message["version"]
        state = states[version]
        assert message["seat"] == seat
        assert message["view"] == state.view(seat)
        assert message["current_player"] == state.current_player()
        assert message["acting_seats"] == list(state.acting_seats())
        # The entries from the connection's last version (a first state's: the newest).
        start = message["log_from"]
        assert start >= since or start == version, (seat, since, start)
        if start > since:
            assert len(json.dumps(message, ensure_ascii=False).encode()) <= 16_384
        expected_log: list[dict[str, Any]] = []
        for index in range(start, version):
            expected_log.extend(states[index + 1].narrate(states[index], actions[index], seat))
        assert message["log"] == expected_log, (seat, since, version)
        may_act = seat is not None and seat in state.acting_seats()
        if message["actions"]:
            assert may_act
            assert [d["action"] for d in message["actions"]] == state.legal_actions(seat)
            assert message["actions"] == [state.action_info(a) for a in state.legal_actions(seat)]
            assert message["prompt"] == state.prompt(seat)
        else:
            assert message["prompt"] is None
        assert message["breakdown"] == state.score_breakdown(seat)
        since = version
        checked += 1
    return checked


@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_game_every_message_is_the_seats_own(db_url: str, game: str) -> None:
    asyncio.run(whole_game(db_url, game))


async def whole_game(db_url: str, game: str) -> None:
    options = GAMES[game]
    with running_server(db_url) as server:
        created = server.create_table(game, ["me", "link", "bot:easy"], options)
        table_id = created["table_id"]
        tokens = [s["token"] for s in created["seats"]]
        people = [await Seat.connect(server, table_id, tokens[k]) for k in (0, 1)]
        spectator = await Seat.connect(server, table_id, created["spectator_token"])
        rngs = [random.Random(k) for k in range(2)]

        def chooser(k: int) -> Any:
            return lambda state: rngs[k].choice(state["actions"])["action"]

        finals = await asyncio.gather(*(p.play(chooser(k)) for k, p in enumerate(people)))
        last = await spectator.until(lambda s: s["status"] == "finished")
        assert all(f["version"] == last["version"] for f in finals)
        # A first state holds the newest entries (the deal may be more than a page): each
        # asks for the earlier ones, as a page does when its person scrolls up.
        for client in (*people, spectator):
            await client.earlier()
        # Pages opened anew at the end: the newest entries, then every older page.
        anew = [
            await Seat.connect(server, table_id, token)
            for token in (*tokens[:2], created["spectator_token"])
        ]
        for fresh in anew:
            await fresh.earlier()
            await fresh.close()

        response = server.get(f"/api/tables/{table_id}/record", created["seats"][1]["token"])
        assert response.status_code == 200
        assert "attachment" in response.headers["content-disposition"]
        record = MatchRecord.from_json(response.json())
        assert record.seed is None
        assert record.game == game and len(record.actions) == last["version"]
        final = record.final_state(load_game)
        assert final.is_terminal()
        assert final.view(None) == last["view"]
        # The winners are the result's: the best share of the win, when anyone won.
        shares = final.returns()
        assert last["winners"] == [s for s, r in enumerate(shares) if r > 0 and r == max(shares)]
        assert all(f["winners"] == last["winners"] for f in finals)

        states, actions = true_states(record)
        seed = read_seed(db_url, table_id)
        watchers = ((0, people[0]), (1, people[1]), (None, spectator))
        for (seat, client), fresh in zip(watchers, anew, strict=True):
            for seen in (client, fresh):
                assert check_messages(seat, seen.received, states, actions) > 0
                assert seen.state["version"] == len(actions)
                assert seed not in json.dumps(seen.received)
                # The log a client assembled is the whole match as its seat knew it.
                assert seen.log == final.log(seat)
        for client in (*people, spectator):
            await client.close()


def test_whole_game_of_bots_alone(sqlite_url: str) -> None:
    """A table of bots plays itself to the end; a spectator sees it finish."""

    async def watch() -> Message:
        with running_server(sqlite_url, bot_workers=2) as server:
            created = server.create_table("luxor2001", ["bot:easy", "bot:easy"], {})
            spectator = await Seat.connect(server, created["table_id"], created["spectator_token"])
            final = await spectator.until(lambda s: s["status"] == "finished", 600)
            await spectator.close()
            return final

    final = asyncio.run(watch())
    game = load_game("luxor2001", players=2)
    assert final["version"] > 0
    assert set(final["view"]) == set(game.new_initial_state().view(None))
