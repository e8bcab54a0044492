"""Redis news is a hint: a hung Redis never slows a table, and a deployment's news stays
on its own channel.

The test starts a Redis of its own (it freezes it with SIGSTOP, so it cannot be a shared
one) and a server that publishes to it on a channel named by ``NECROPOLIS_REDIS_CHANNEL``.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis

from tests import realservers
from tests.clients import SyncSeat, running_server

CHANNEL = "deployment-a:tables"
#: Person decisions played while Redis is frozen.
TURNS = 6
#: Seconds a bot's answer may take here at most; a publish awaited on a hung Redis
#: (redis-py's own timeouts) held every action for 5 s or more.
ANSWER_LIMIT = 4.0


@pytest.fixture
def own_redis() -> Iterator[tuple[str, int]]:
    """A Redis of this test's own: its URL and its pid."""
    with realservers.throwaway_redis() as url:
        identity = (Path(urlsplit(url).path).parent / "redis.process").read_text()
        pid = int(identity.split()[0])
        try:
            yield url, pid
        finally:
            os.kill(pid, signal.SIGCONT)


def test_a_hung_redis_never_slows_a_table(sqlite_url: str, own_redis: tuple[str, int]) -> None:
    url, pid = own_redis
    listener = redis.Redis.from_url(url)
    news = listener.pubsub(ignore_subscribe_messages=True)
    news.subscribe(CHANNEL, "necropolis:tables")
    env = {"NECROPOLIS_REDIS_CHANNEL": CHANNEL}
    with running_server(sqlite_url, redis_url=url, env=env) as server:
        created = server.create_table("luxor2001", ["me", "bot:easy"])
        seat = SyncSeat.connect(server, created["table_id"], created["seats"][0]["token"])
        state = seat.until(lambda s: bool(s["actions"]))
        # The news of the table goes out on this deployment's channel, and only there.
        deadline = time.monotonic() + 30
        heard = None
        while heard is None and time.monotonic() < deadline:
            message = news.get_message(timeout=1)  # None also for the subscriptions' answers
            if message is not None and json.loads(message["data"])["k"] == "news":
                heard = message
        assert heard is not None and heard["channel"] == CHANNEL.encode()
        assert json.loads(heard["data"])["d"]["table"] == created["table_id"]
        os.kill(pid, signal.SIGSTOP)
        answers: list[float] = []
        for _ in range(TURNS):
            version = state["version"]
            seat.act(state["actions"][0]["action"], version)
            acted = time.monotonic()
            # The table's answer: a state after this act in which the person may act again,
            # after the bot's move or at once when the act asks a further decision of the
            # same person (a card that makes pairs: which to take), or the end of the match.
            state = seat.until(
                lambda s, v=version: (
                    s["version"] > v and (bool(s["actions"]) or s["status"] == "finished")
                )
            )
            answers.append(time.monotonic() - acted)
            if state["status"] == "finished":
                break
        os.kill(pid, signal.SIGCONT)
        assert max(answers) < ANSWER_LIMIT, answers
        # Nothing was published on the default channel, before or after the freeze.
        time.sleep(0.5)
        while (message := news.get_message(timeout=0.5)) is not None:
            assert message["channel"] == CHANNEL.encode(), message
    news.close()
    listener.close()
