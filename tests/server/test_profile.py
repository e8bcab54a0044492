"""A player's profile lists their past games, over real HTTP, on SQLite and PostgreSQL.

Two accounts play a match that is abandoned when the first to act lets their time run
out (the project's rule: that seat ranks last, the other first). Each profile then lists
the match: its game, the seats by name, the player's seat, place and whether they won,
and everyone's score, beside the count of games and wins per game, which agrees. A match
played to its end also carries its figures, the rules' statistics of its record.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from necropolis.engine.record import MatchRecord
from necropolis.games import load_game
from tests.clients import Server, running_server

PAGE = {"X-Necropolis": "1"}


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def test_a_profile_lists_the_players_past_games(server: Server) -> None:
    with (
        httpx.Client(base_url=server.url, headers=PAGE, timeout=60) as ana,
        httpx.Client(base_url=server.url, headers=PAGE, timeout=60) as bob,
    ):
        for c, name in ((ana, "Ana"), (bob, "Bob")):
            r = c.post("/api/account/register", json={"name": name, "password": "correct horse"})
            assert r.status_code == 200, r.text
        assert ana.get("/api/players/ana").json()["matches"] == []
        created = ana.post(
            "/api/tables",
            json={
                "game": "luxor2001",
                "seats": [{"type": "me"}, {"type": "invite", "name": "Bob"}],
                "clock": {"mode": "turn", "turn": 2, "rule": "abandon"},
            },
        ).json()
        table_id = created["table_id"]
        # Bob sits down (the match begins); then the first to act lets their time pass.
        cookie = bob.cookies["necropolis_session"]
        from tests.server.test_lobby import hello

        assert hello(server, table_id, created["seats"][1]["token"], cookie)["seat"] == 1
        auth = {"Authorization": f"Bearer {created['creator_token']}"}
        deadline = time.monotonic() + 180
        while ana.get(f"/api/tables/{table_id}", headers=auth).json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.5)
        clock = ana.get(f"/api/tables/{table_id}/clock", headers=auth).json()["clock"]
        lost = clock["abandoned"]
        assert lost in (0, 1)
        for c, name, seat in ((ana, "Ana", 0), (bob, "Bob", 1)):
            profile = c.get(f"/api/players/{name}").json()
            (match,) = profile["matches"]
            assert match["table_id"] == table_id and match["game"] == "luxor2001"
            assert match["seat"] == seat
            assert [(s["name"], s["account"]) for s in match["seats"]] == [
                ("Ana", True),
                ("Bob", True),
            ]
            assert match["scores"] == [0.0, 0.0]
            assert (match["won"], match["place"]) == ((False, 2) if seat == lost else (True, 1))
            assert profile["games"] == [
                {"game": "luxor2001", "played": 1, "wins": 0 if seat == lost else 1}
            ]


def test_a_past_game_carries_the_matchs_figures(server: Server) -> None:
    """A match played to its end (the player's seat handed to a bot, so that it plays
    itself out) is listed with its figures: the rules' statistics of its record."""
    with httpx.Client(base_url=server.url, headers=PAGE, timeout=60) as cleo:
        r = cleo.post("/api/account/register", json={"name": "Cleo", "password": "correct horse"})
        assert r.status_code == 200, r.text
        created = cleo.post(
            "/api/tables",
            json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "bot", "level": "easy"}]},
        ).json()
        table_id = created["table_id"]
        auth = {"Authorization": f"Bearer {created['creator_token']}"}
        handed = cleo.post(
            f"/api/tables/{table_id}/seats/0/bot", json={"level": "easy"}, headers=auth
        )
        assert handed.status_code == 200, handed.text
        deadline = time.monotonic() + 240
        while cleo.get(f"/api/tables/{table_id}", headers=auth).json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.5)
        record = MatchRecord.from_json(
            cleo.get(f"/api/tables/{table_id}/record", headers=auth).json()
        )
        final = record.final_state(load_game)
        (match,) = cleo.get("/api/players/cleo").json()["matches"]
        assert match["statistics"] == final.statistics()
        assert match["statistics"] and all(len(s["values"]) == 2 for s in match["statistics"])
        assert match["scores"] == list(final.scores())
