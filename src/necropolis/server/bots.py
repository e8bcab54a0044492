"""Bots thinking in worker processes, never on the event loop.

A second of search in the server's own process would stall every connection, so each
decision runs in a worker process started from a ``forkserver`` (which imports the
games and bots once): the worker gets the game, its options, the table's actions and the
seat, replays the record, and decides through the seat's
:class:`~necropolis.engine.seat.SeatWindow` with one of the levels of
:mod:`necropolis.bots`. It returns only action ids: the seat's decision, and the ones
after it while the seat alone goes on acting with nothing left to chance (a turn of
several decisions, asked for at once: :func:`decide_turn`); asked for a seat's hint, its
three best moves with its chances, from its window alone (:func:`hints`). Each worker
keeps the states of the tables it decided for lately, so that the next decision at a
table applies only the
actions committed since (the record only grows; a state whose actions are not a prefix
of the table's is replayed afresh), and a table's next decision goes to the worker that
made its last one when that worker is free.

:class:`BotPool` talks to each worker over a pipe of its own, watched by the event loop
itself: a request is one write, the answer wakes the loop when it is readable. A
``concurrent.futures`` process pool did the same through two threads of the server
(one to hand out work, one to feed its queue) and a pipe to wake the first, which cost
the server CPU and thread switches on every bot move. A worker that dies, or that takes
longer than :data:`DECISION_DEADLINE`, is replaced and its decision fails (the table's
driver then plays a random legal move); a worker whose server is gone (say, SIGKILLed)
sees its pipe close and ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import random
import signal
import time
from collections import OrderedDict, deque
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from necropolis.engine.protocol import State

log = logging.getLogger("necropolis.server")

#: Tables whose states one worker keeps (the least recently used is dropped): more than
#: a busy server has in play, or each table would push out the one needed next.
KEPT_STATES = 1024
#: Per worker: table -> (the actions its state has applied, the state).
_kept: OrderedDict[str, tuple[list[int], State]] = OrderedDict()
#: Seconds a decision may take before its worker is taken for hung and replaced. The
#: levels stop searching within a second; replaying a long record first takes less.
DECISION_DEADLINE = 30.0
#: Decisions one worker is asked at a time: it reads the next while the loop reads its
#: answer (a concurrent.futures pool keeps one call queued ahead for the same reason).
DEPTH = 2
#: A bot's decisions asked for at once (:func:`decide_turn`): a turn of several decisions
#: (a card, then the steps it allows) is then one round trip to a worker, one commit and
#: one message to each connection, whose ``steps`` show them one at a time. Kept within
#: what ``steps`` shows (``live.STEPS_KEPT``), with room for the chance outcomes after.
TURN_MOST = 8
#: No further decision of a turn is begun after this many seconds: a quick bot's turn
#: is told whole, a slow one's (hard thinks up to a second) each decision as it is made,
#: so that the people at the table do not wait on the whole turn to see its first move.
TURN_SECONDS = 0.25
#: Seconds a closing pool gives its workers to end before they are killed.
CLOSE_SECONDS = 2.0
#: A worker lost younger than this many seconds is replaced after a wait that doubles
#: each time (up to :data:`RESTART_CAP`): workers that cannot live must not be started
#: in a tight loop.
RESTART_YOUNG = 10.0
RESTART_CAP = 30.0


class BotPoolError(RuntimeError):
    """A decision that no worker gave: the bot failed, no worker could start, the pool
    closed, or (:class:`WorkerLostError`) the worker died or hung."""


class WorkerLostError(BotPoolError):
    """The worker making the decision died or hung: a new one may be asked again."""


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
    return decide_turn(game_id, options, actions, seat, level, table_id, most=1)[0]


def decide_turn(
    game_id: str,
    options: dict[str, Any],
    actions: list[int],
    seat: int,
    level: str,
    table_id: str | None = None,
    most: int = TURN_MOST,
    seconds: float = TURN_SECONDS,
) -> list[int]:
    """The bot of ``level``'s decisions for ``seat`` after ``actions`` (in a worker): the
    first, then each next one while the seat alone acts and nothing is left to chance, up
    to ``most`` of them, and no more once ``seconds`` have gone by. Each is decided from
    the seat's view of the position its earlier ones led to, as if asked one at a time.
    ``table_id`` names the table whose state the worker may keep for next time."""
    from necropolis.bots import make_bot
    from necropolis.engine.seat import SeatWindow
    from necropolis.games import load_game

    started = time.monotonic()
    key = f"{table_id}:{game_id}:{sorted(options.items())}" if table_id is not None else None
    kept = _kept.pop(key, None) if key is not None else None
    if kept is not None and len(kept[0]) <= len(actions) and actions[: len(kept[0])] == kept[0]:
        done, state = kept
    else:
        done, state = [], load_game(game_id, **options).new_initial_state()
    for action in actions[len(done) :]:
        state.apply_action(action)
    applied = list(actions)
    bot = make_bot(level)
    rng = random.Random()
    chosen: list[int] = []
    while True:
        chosen.append(bot.choose(SeatWindow(state, seat), rng))
        if len(chosen) >= most or time.monotonic() - started >= seconds:
            break
        # The next decision is the seat's own only if it alone acts after this one, with
        # no chance outcome between (those are drawn by the table, from its seed).
        state.apply_action(chosen[-1])
        applied.append(chosen[-1])
        if state.current_player() != seat or state.acting_seats() != (seat,):
            break
    if key is not None:
        # The state as far as this worker applied it: the table's next record starts with
        # these actions once it commits the turn (and is replayed afresh if it did not).
        _kept[key] = (applied, state)
        while len(_kept) > KEPT_STATES:
            _kept.popitem(last=False)
    return chosen


def hints(
    game_id: str, options: dict[str, Any], actions: list[int], seat: int
) -> list[tuple[int, float]]:
    """The three best moves of ``seat`` after ``actions``, with its chance to win after
    each, from its window alone (:func:`necropolis.analysis.explain.hints`; in a worker)."""
    from necropolis.analysis.explain import Depth, judge_for
    from necropolis.analysis.explain import hints as best_moves
    from necropolis.engine.seat import SeatWindow
    from necropolis.games import load_game

    state = load_game(game_id, **options).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return best_moves(SeatWindow(state, seat), Depth(), judge_for(state.game))


#: What a worker may be asked: a bot's decisions, or a seat's hints.
_ASKED: dict[str, Any] = {"turn": decide_turn, "hints": hints}


def _serve(conn: Connection) -> None:
    """A worker's life: answer each request on ``conn`` until the server closes it."""
    # Ctrl-C in a terminal and a SIGTERM to the process group (``timeout``, ``pkill -g``)
    # reach the workers too. They are the server's to end: it closes their pipes as it
    # shuts down, and a worker of a server killed outright sees its pipe close. Without
    # this, a worker ended by the group's signal was replaced by the still-running server
    # ("a bot worker is replaced"), mid-shutdown.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        try:
            request = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the server closed the pipe, or is gone
        try:
            kind, args = pickle.loads(request)
            answer: tuple[str, object] = ("answer", _ASKED[kind](*args))
        except Exception as exc:  # told to the server, which logs it and plays on
            answer = ("failed", f"{type(exc).__name__}: {exc}")
        try:
            conn.send_bytes(pickle.dumps(answer))
        except (BrokenPipeError, OSError):
            return


class _Worker:
    """One worker process, its end of the pipe, and the decisions asked of it."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.born = time.monotonic()
        #: The answers owed, in the order asked (a worker answers in that order).
        self.answers: deque[asyncio.Future[Any]] = deque()
        #: When it is taken for hung, if the next answer has not come.
        self.deadline: asyncio.TimerHandle | None = None
        #: The table it decided for last (it keeps that table's state).
        self.table: str | None = None


class BotPool:
    """``workers`` processes deciding bots' moves for this server's event loop.

    Each worker is asked up to :data:`DEPTH` decisions at a time, so that it starts the
    next as soon as it has answered one, without waiting for a busy loop to read the
    answer and ask again. The processes start on the first decision (starting the fork
    server imports the games and bots, which takes a moment that the server's start
    should not wait for)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._context = multiprocessing.get_context("forkserver")
        # The workers import the games and bots once, in the fork server, not per decision.
        self._context.set_forkserver_preload(["necropolis.bots", "necropolis.games"])
        self._all: list[_Worker] = []
        #: Decisions waiting for a worker with room: each is woken to look again.
        self._waiting: deque[asyncio.Future[None]] = deque()
        #: Workers being started (the tasks starting them are kept here while they run).
        self._starts: set[asyncio.Task[None]] = set()
        #: Seconds the next replacement of a worker lost young waits.
        self._restart_wait = 0.0
        self._closed = False

    def pids(self) -> list[int]:
        """The process ids of the workers started (none before the first decision)."""
        return sorted(w.process.pid for w in self._all if w.process.pid is not None)

    async def decide(
        self,
        game_id: str,
        options: dict[str, Any],
        actions: list[int],
        seat: int,
        level: str,
        table_id: str | None = None,
    ) -> int:
        """What :func:`decide` answers, from a worker; :class:`BotPoolError` when no
        worker could answer."""
        return (await self.decide_turn(game_id, options, actions, seat, level, table_id, 1))[0]

    async def decide_turn(
        self,
        game_id: str,
        options: dict[str, Any],
        actions: list[int],
        seat: int,
        level: str,
        table_id: str | None = None,
        most: int = TURN_MOST,
    ) -> list[int]:
        """What :func:`decide_turn` answers (at least one decision), from a worker;
        :class:`BotPoolError` when no worker could answer."""
        found = await self._ask(
            "turn", (game_id, options, actions, seat, level, table_id, most), table_id
        )
        if not isinstance(found, list) or not found:
            raise BotPoolError(f"the bot answered no decision: {found!r}")
        return [int(a) for a in found]

    async def hints(
        self, game_id: str, options: dict[str, Any], actions: list[int], seat: int
    ) -> list[tuple[int, float]]:
        """What :func:`hints` answers, from a worker; :class:`BotPoolError` when no worker
        could answer."""
        found = await self._ask("hints", (game_id, options, actions, seat), None)
        return [(int(a), float(c)) for a, c in found]

    async def _ask(self, kind: str, args: tuple[Any, ...], table_id: str | None) -> Any:
        """A worker's answer to the request ``kind`` with ``args``."""
        request = pickle.dumps((kind, args))
        worker = await self._take(table_id)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        worker.answers.append(answer)
        if kind == "turn":
            worker.table = table_id
        try:
            worker.conn.send_bytes(request)
        except OSError:
            # This decision's failure is raised here, not left on a future nobody awaits.
            worker.answers.remove(answer)
            self._lost(worker, "its pipe is closed")
            raise WorkerLostError("the bot's worker could not be reached") from None
        if worker.deadline is None:
            worker.deadline = loop.call_later(DECISION_DEADLINE, self._lost, worker, "it hung")
        # A cancelled wait leaves the worker at its decision; the answer, when it comes,
        # is dropped.
        return await answer

    async def _take(self, table_id: str | None) -> _Worker:
        """A worker with room for another decision: the one that decided for this table
        last (it keeps the table's state) if it is idle, else the least busy."""
        while True:
            if self._closed:
                raise BotPoolError("the bot pool is closed")
            if not self._all and not self._starts:
                for _ in range(self.workers):
                    self._start()
            roomy = [w for w in self._all if len(w.answers) < DEPTH]
            if roomy:
                same = [w for w in roomy if w.table == table_id and not w.answers]
                return same[0] if same else min(roomy, key=lambda w: len(w.answers))
            wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append(wake)
            try:
                await wake
            except asyncio.CancelledError:
                if wake.done() and not wake.cancelled():
                    # Woken, then cancelled before it could take the room: the next
                    # waiting decision is woken instead, or it might wait for good.
                    self._wake()
                raise

    def _wake(self) -> None:
        """A worker has room, or the pool changed: the longest waiting decision looks
        again (each that finds no room waits anew)."""
        while self._waiting:
            wake = self._waiting.popleft()
            if not wake.done():
                wake.set_result(None)
                return

    def _start(self, delay: float = 0.0) -> None:
        """Start one more worker, off the loop, after ``delay`` seconds."""
        task = asyncio.get_running_loop().create_task(self._started(delay))
        self._starts.add(task)
        task.add_done_callback(self._starts.discard)

    async def _started(self, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            # Starting a process talks to the fork server (and the first start starts it):
            # a thread keeps that off the loop.
            worker = await asyncio.to_thread(self._spawn)
        except Exception:
            log.exception("a bot worker could not be started")
            if not self._all and len(self._starts) <= 1:
                # None is left to answer: the decisions waiting fail (and are played at
                # random); the next decision tries to start the workers again.
                self._fail_waiting("no bot worker could be started")
            return
        if self._closed:
            self._stop([worker], kill=False)
            return
        self._all.append(worker)
        asyncio.get_running_loop().add_reader(worker.conn.fileno(), self._readable, worker)
        for _ in range(DEPTH):
            self._wake()

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve, args=(theirs,), name="necropolis-bot", daemon=True
        )
        process.start()
        theirs.close()
        return _Worker(process, ours)

    def _fail_waiting(self, why: str) -> None:
        while self._waiting:
            wake = self._waiting.popleft()
            if not wake.done():
                wake.set_exception(BotPoolError(why))

    def _readable(self, worker: _Worker) -> None:
        try:
            kind, value = pickle.loads(worker.conn.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            self._lost(worker, "it ended")
            return
        if worker.deadline is not None:
            worker.deadline.cancel()
            worker.deadline = None
        answer = worker.answers.popleft() if worker.answers else None
        if worker.answers:
            loop = asyncio.get_running_loop()
            worker.deadline = loop.call_later(DECISION_DEADLINE, self._lost, worker, "it hung")
        if answer is not None and not answer.done():
            if kind == "answer":
                answer.set_result(value)
            else:
                answer.set_exception(BotPoolError(f"the bot failed: {value}"))
        self._wake()

    def _lost(self, worker: _Worker, why: str) -> None:
        """The worker is of no more use: it is ended, the decisions asked of it fail, and
        another takes its place."""
        if worker not in self._all:
            return
        log.warning("a bot worker is replaced: %s", why)
        self._all.remove(worker)
        self._fail(worker, WorkerLostError(f"the bot's worker was lost: {why}"))
        self._stop([worker], kill=True)
        if time.monotonic() - worker.born < RESTART_YOUNG:
            self._restart_wait = min(max(0.5, 2 * self._restart_wait), RESTART_CAP)
        else:
            self._restart_wait = 0.0
        if not self._closed:
            self._start(self._restart_wait)

    @staticmethod
    def _fail(worker: _Worker, error: BotPoolError) -> None:
        while worker.answers:
            answer = worker.answers.popleft()
            if not answer.done():
                answer.set_exception(error)

    def _stop(self, workers: list[_Worker], kill: bool) -> None:
        """Close the workers' pipes (a worker reads their end and ends), and kill them
        with ``kill`` (one that hung, or whose pipe broke)."""
        loop = asyncio.get_running_loop()
        for worker in workers:
            if worker.deadline is not None:
                worker.deadline.cancel()
            with contextlib.suppress(Exception):
                loop.remove_reader(worker.conn.fileno())
            worker.conn.close()
            if kill:
                with contextlib.suppress(Exception):
                    worker.process.kill()

    async def close(self) -> None:
        """End every worker: each finishes the decision it is making (a second at most),
        and one still running after :data:`CLOSE_SECONDS` is killed."""
        self._closed = True
        for task in list(self._starts):
            # (A process being started as this is cancelled ends by itself: its pipe is
            # closed once nothing holds its worker.)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._fail_waiting("the bot pool is closed")
        workers, self._all = self._all, []
        for worker in workers:
            self._fail(worker, BotPoolError("the bot pool is closed"))
        self._stop(workers, kill=False)
        await asyncio.to_thread(_reap, [w.process for w in workers])


def _reap(processes: list[BaseProcess]) -> None:
    for process in processes:
        process.join(CLOSE_SECONDS)
        if process.is_alive():
            process.kill()
            process.join(CLOSE_SECONDS)
