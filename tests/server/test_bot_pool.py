"""The bot pool: worker processes that decide bots' moves for the server's event loop.

A decision comes back as a legal action; a bot that fails, a worker that dies or hangs
fails that one decision (the table's driver then plays a random legal move) and the pool
goes on with a new worker; closing the pool, or killing its server, ends the workers.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from necropolis.engine.protocol import CHANCE, sample_chance
from necropolis.games import game_ids, load_game
from necropolis.server import bots


def _positions(game_id: str, count: int, seed: int) -> list[tuple[list[int], int, list[int]]]:
    """``count`` moments of a random match of ``game_id``: (its actions, the seat to
    move, that seat's legal actions)."""
    rng = random.Random(seed)
    state = load_game(game_id).new_initial_state()
    actions: list[int] = []
    found: list[tuple[list[int], int, list[int]]] = []
    while not state.is_terminal() and len(found) < count:
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            seat = next(iter(state.acting_seats()))
            legal = state.legal_actions(seat)
            found.append((list(actions), seat, legal))
            action = rng.choice(legal)
        state.apply_action(action)
        actions.append(action)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _gone(pids: list[int], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("game_id", game_ids())
def test_decisions_of_many_tables_at_once_are_each_a_legal_move(game_id: str) -> None:
    positions = _positions(game_id, 6, seed=1)

    async def main() -> list[int]:
        pool = bots.BotPool(2)
        try:
            # More decisions than workers: they queue, and each gets its answer.
            return await asyncio.gather(
                *(
                    pool.decide(game_id, {}, actions, seat, "easy", f"t{k}")
                    for k, (actions, seat, _legal) in enumerate(positions)
                )
            )
        finally:
            await pool.close()

    chosen = asyncio.run(main())
    assert len(chosen) == len(positions) == 6
    for action, (_actions, _seat, legal) in zip(chosen, positions, strict=True):
        assert action in legal


def _the_seats_own_run(game_id: str, actions: list[int], seat: int, turn: list[int]) -> None:
    """``turn`` is a run of ``seat``'s decisions after ``actions``: each legal where it is
    played, and each but the first played where the seat alone acts after its own last
    decision (no chance outcome, no other seat, between them)."""
    state = load_game(game_id).new_initial_state()
    for action in actions:
        state.apply_action(action)
    for action in turn:
        assert state.acting_seats() == (seat,) and state.current_player() == seat
        assert action in state.legal_actions(seat)
        state.apply_action(action)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_bots_turn_of_several_decisions_comes_back_at_once(game_id: str) -> None:
    """Asked for its turn, a worker answers the seat's decisions while the seat alone
    goes on acting, a run that the table commits as one; asked for one, it answers one."""
    positions = _positions(game_id, 40, seed=4)

    async def main() -> tuple[list[list[int]], list[int]]:
        pool = bots.BotPool(1)
        try:
            turns = [
                await pool.decide_turn(game_id, {}, actions, seat, "easy", "t1")
                for actions, seat, _legal in positions
            ]
            ones = [
                await pool.decide(game_id, {}, actions, seat, "easy", "t1")
                for actions, seat, _legal in positions[:5]
            ]
            return turns, ones
        finally:
            await pool.close()

    turns, ones = asyncio.run(main())
    for (actions, seat, legal), turn in zip(positions, turns, strict=True):
        assert 1 <= len(turn) <= bots.TURN_MOST and turn[0] in legal
        _the_seats_own_run(game_id, actions, seat, turn)
    for (_actions, _seat, legal), one in zip(positions, ones, strict=False):
        assert one in legal
    if game_id in ("horus", "luxor"):
        # Their turns are several decisions (a card, then the steps it allows; an
        # adventurer's actions one by one): some come back as runs.
        assert max(len(t) for t in turns) > 1


def test_a_failing_bot_fails_its_decision_alone() -> None:
    game_id = game_ids()[0]
    (actions, seat, legal), *_ = _positions(game_id, 1, seed=2)

    async def main() -> None:
        pool = bots.BotPool(1)
        try:
            with pytest.raises(bots.BotPoolError, match="no bot called 'nobody'") as failed:
                await pool.decide(game_id, {}, actions, seat, "nobody", "t1")
            # Not a lost worker: asking again would fail the same way.
            assert not isinstance(failed.value, bots.WorkerLostError)
            before = pool.pids()
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t1") in legal
            assert pool.pids() == before  # the same worker answered
        finally:
            await pool.close()

    asyncio.run(main())


def test_a_worker_that_dies_or_hangs_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = game_ids()[0]
    (actions, seat, legal), *_ = _positions(game_id, 1, seed=3)
    # Long enough for a new worker's first decision on a loaded machine (it may import
    # the game's modules), short enough for a test.
    monkeypatch.setattr(bots, "DECISION_DEADLINE", 5.0)

    async def replaced(pool: bots.BotPool, old: list[int]) -> list[int]:
        for _ in range(200):
            now = pool.pids()
            if now and not set(now) & set(old):
                return now
            await asyncio.sleep(0.05)
        raise AssertionError(f"the workers {old} were not replaced: {pool.pids()}")

    async def main() -> None:
        pool = bots.BotPool(1)
        try:
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t1") in legal
            (first,) = pool.pids()
            os.kill(first, signal.SIGKILL)
            second = await replaced(pool, [first])
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t1") in legal
            # A worker killed in the middle of a decision: the request is written (the
            # task runs up to its wait for the answer), and the worker killed before a
            # decision could be made.
            thinking = asyncio.create_task(pool.decide(game_id, {}, actions, seat, "hard"))
            for _ in range(3):
                await asyncio.sleep(0)
            os.kill(second[0], signal.SIGKILL)
            with pytest.raises(bots.WorkerLostError, match="ended"):
                await thinking
            second = await replaced(pool, second)
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t1") in legal
            # A worker that stops answering is given up on at the deadline.
            os.kill(second[0], signal.SIGSTOP)
            began = time.monotonic()
            with pytest.raises(bots.WorkerLostError, match="hung"):
                await pool.decide(game_id, {}, actions, seat, "easy", "t1")
            assert 4.9 < time.monotonic() - began < 20.0
            await replaced(pool, second)
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t1") in legal
            assert _gone(second)
        finally:
            await pool.close()

    asyncio.run(main())


def test_closing_the_pool_ends_its_workers() -> None:
    game_id = game_ids()[0]
    (actions, seat, _legal), *_ = _positions(game_id, 1, seed=4)

    async def main() -> list[int]:
        pool = bots.BotPool(2)
        await asyncio.gather(
            *(pool.decide(game_id, {}, actions, seat, "easy", f"t{k}") for k in range(2))
        )
        pids = pool.pids()
        await pool.close()
        with pytest.raises(bots.BotPoolError, match="closed"):
            await pool.decide(game_id, {}, actions, seat, "easy", "t1")
        return pids

    pids = asyncio.run(main())
    assert len(pids) == 2
    assert _gone(pids)


def test_a_signal_to_the_process_group_leaves_the_workers_to_their_server() -> None:
    # Ctrl-C in a terminal, or a SIGTERM to the group, reaches the workers as well as the
    # server: the workers stay (the server ends them as it shuts down), none is replaced.
    game_id = game_ids()[0]
    (actions, seat, legal), *_ = _positions(game_id, 1, seed=6)

    async def main() -> list[int]:
        pool = bots.BotPool(2)
        try:
            await asyncio.gather(
                *(pool.decide(game_id, {}, actions, seat, "easy", f"t{k}") for k in range(2))
            )
            pids = pool.pids()
            for pid in pids:
                os.kill(pid, signal.SIGINT)
                os.kill(pid, signal.SIGTERM)
            await asyncio.sleep(0.5)
            assert pool.pids() == pids and all(_alive(p) for p in pids)
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t0") in legal
            return pids
        finally:
            await pool.close()

    pids = asyncio.run(main())
    assert _gone(pids)


def test_the_workers_end_when_their_server_is_killed() -> None:
    game_id = game_ids()[0]
    (actions, seat, _legal), *_ = _positions(game_id, 1, seed=5)
    script = textwrap.dedent(
        f"""
        import asyncio
        from necropolis.server import bots

        async def main():
            pool = bots.BotPool(2)
            asks = [pool.decide({game_id!r}, {{}}, {actions!r}, {seat}, "easy") for _ in "ab"]
            await asyncio.gather(*asks)
            print(*pool.pids(), flush=True)
            await asyncio.sleep(600)

        asyncio.run(main())
        """
    )
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pids = [int(p) for p in server.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
    finally:
        server.kill()  # SIGKILL: nothing of the server's own runs to end them
        server.wait()
    assert _gone(pids)


def test_workers_that_die_young_are_restarted_ever_more_slowly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id = game_ids()[0]
    (actions, seat, legal), *_ = _positions(game_id, 1, seed=6)
    waits: list[float] = []

    async def main() -> None:
        pool = bots.BotPool(1)
        started = pool._start

        def start(delay: float = 0.0) -> None:
            waits.append(delay)
            started(delay)

        monkeypatch.setattr(pool, "_start", start)
        try:
            for _ in range(3):
                assert await pool.decide(game_id, {}, actions, seat, "easy", "t1") in legal
                (pid,) = pool.pids()
                os.kill(pid, signal.SIGKILL)
                while pool.pids() in ([], [pid]):
                    await asyncio.sleep(0.05)
        finally:
            await pool.close()

    asyncio.run(main())
    # The first start, then three replacements of workers that lived under a second.
    assert waits == [0.0, 0.5, 1.0, 2.0]


def test_a_decision_cancelled_as_it_is_woken_passes_the_room_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two decisions wait for a busy worker; the first is cancelled (its table closed) just
    as the worker's answer wakes it. The second must still be decided."""
    game_id = game_ids()[0]
    (actions, seat, legal), *_ = _positions(game_id, 1, seed=7)
    monkeypatch.setattr(bots, "DEPTH", 1)

    async def main() -> None:
        pool = bots.BotPool(1)
        try:
            assert await pool.decide(game_id, {}, actions, seat, "easy", "t0") in legal
            busy = asyncio.create_task(pool.decide(game_id, {}, actions, seat, "hard", "t1"))
            await asyncio.sleep(0)
            first = asyncio.create_task(pool.decide(game_id, {}, actions, seat, "easy", "t2"))
            second = asyncio.create_task(pool.decide(game_id, {}, actions, seat, "easy", "t3"))
            await asyncio.sleep(0.05)
            assert not first.done() and not second.done()
            woken = pool._wake

            def wake_and_cancel() -> None:
                woken()
                if not first.cancelled():
                    first.cancel()  # before it runs: the room it was given is not taken

            monkeypatch.setattr(pool, "_wake", wake_and_cancel)
            assert await busy in legal
            assert await asyncio.wait_for(second, 10) in legal
            assert first.cancelled()
        finally:
            await pool.close()

    asyncio.run(main())
