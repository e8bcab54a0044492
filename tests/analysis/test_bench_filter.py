"""scripts/bench_filter.py: it times the server's own work on a whole match, as the
server does it (a message to each watching person after each commit: a decision, or a
bot's whole turn, with the chance outcomes after it), and on another revision's package
when asked."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import pytest

from necropolis.engine.protocol import CHANCE
from necropolis.games import load_game
from necropolis.server.bots import TURN_MOST
from tests.scripts import SCRIPTS, load_script


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("bench_filter")


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_a_match_is_replayed_action_by_action_with_a_message_per_person_and_commit(
    bench: ModuleType, game_id: str
) -> None:
    game = load_game(game_id, players=len(bench.SEATS))
    played = bench._match(game, 3 * 1_000_003)
    state = game.new_initial_state()
    bot = bench.SEATS.index("bot")
    commits = run = 0
    for seat, action in played:
        assert (seat is None) == (state.current_player() == CHANCE)
        state.apply_action(action)
        if state.current_player() == CHANCE:
            continue
        # The bot's decisions while it alone goes on acting are one commit, 8 at most.
        run = run + 1 if seat == bot else 0
        if 0 < run < TURN_MOST and state.acting_seats() == (bot,):
            continue
        run = 0
        commits += 1
    assert state.is_terminal()
    measured = bench.measure(game_id, 1, 3)
    people = bench.SEATS.count("link")
    assert measured["actions"] == len(played)
    assert measured["messages"] == people * commits
    assert measured["seconds"] > 0


def test_it_refuses_an_unknown_game_by_name() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_filter.py"), "--games", "chess", "--matches", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "no such game: chess" in done.stderr


def test_a_revision_is_timed_on_its_own_package_in_a_process_of_its_own(
    bench: ModuleType,
) -> None:
    # HEAD's src/ from git, on the path of a fresh process: the same match, the same count.
    with bench.reference_source("HEAD", "filter-test-") as source:
        there = bench._run("luxor2001", 1, 3, source)
    here = bench.measure("luxor2001", 1, 3)
    assert (there["actions"], there["messages"]) == (here["actions"], here["messages"])
