"""Bots thinking in worker processes, never on the event loop.

A second of search in the server's own process would stall every connection, so each
decision runs in a ``forkserver`` process pool: the worker gets the game, its options,
the table's actions and the seat, replays the record, and decides through the seat's
:class:`~necropolis.engine.seat.SeatWindow` with one of the levels of
:mod:`necropolis.bots`. It returns only an action id. Each worker keeps the states of the
tables it decided for lately, so that the next decision at a table applies only the
actions committed since (the record only grows; a state whose actions are not a prefix
of the table's is replayed afresh).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from necropolis.engine.protocol import State

#: Tables whose states one worker keeps (the least recently used is dropped): more than
#: a busy server has in play, or each table would push out the one needed next.
KEPT_STATES = 1024
#: Per worker: table -> (the actions its state has applied, the state).
_kept: OrderedDict[str, tuple[list[int], State]] = OrderedDict()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, killed but not reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the system whether the pid exists
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _watch_server(server: int) -> None:
    """End this worker once the server process is gone (say, SIGKILLed).

    A worker's parent is the fork server, which lives as long as any worker does, and
    a worker waits on its task queue forever: without this, a killed server would leave
    its workers and fork server behind.
    """

    def watch() -> None:
        while _alive(server):
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="server-watch").start()


def make_pool(workers: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("forkserver")
    # The workers import the games and bots once, in the fork server, not per decision.
    context.set_forkserver_preload(["necropolis.bots", "necropolis.games"])
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_watch_server,
        initargs=(os.getpid(),),
    )


def decide(
    game_id: str,
    options: dict[str, Any],
    actions: list[int],
    seat: int,
    level: str,
    table_id: str | None = None,
) -> int:
    """The action the bot of ``level`` plays for ``seat`` after ``actions`` (in a worker);
    ``table_id`` names the table whose state the worker may keep for next time."""
    from necropolis.bots import make_bot
    from necropolis.engine.seat import SeatWindow
    from necropolis.games import load_game

    key = f"{table_id}:{game_id}:{sorted(options.items())}" if table_id is not None else None
    kept = _kept.pop(key, None) if key is not None else None
    if kept is not None and len(kept[0]) <= len(actions) and actions[: len(kept[0])] == kept[0]:
        done, state = kept
    else:
        done, state = [], load_game(game_id, **options).new_initial_state()
    for action in actions[len(done) :]:
        state.apply_action(action)
    if key is not None:
        _kept[key] = (list(actions), state)
        while len(_kept) > KEPT_STATES:
            _kept.popitem(last=False)
    bot = make_bot(level)
    return bot.choose(SeatWindow(state, seat), random.Random())
