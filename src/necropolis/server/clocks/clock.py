"""A timed table's clocks, derived: :class:`Clock` folds the record (each action's seat
and commit time) and the clock events into each seat's time, its running turn and the
next deadline; :func:`replay` works it out from a whole record, as a table is loaded;
:func:`clock_data` is what a ``state`` message says of it. Also the events' kinds, the
settings' check and the rule's result of an abandoned match.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from necropolis.engine.protocol import State
from necropolis.games import game_class, load_game
from necropolis.server.db import FINISHED, TableRow
from necropolis.server.live import LiveTable
from necropolis.server.models import ClockSettings

STANDIN = "standin"
BACK = "back"
SKIP = "skip"
ABANDON = "abandon"
#: The events that say a seat's time ran out.
TIMEOUTS = (STANDIN, SKIP, ABANDON)

#: A seat taken back in a real-time table gets at least this many seconds (or its
#: increment, if larger), never more than the base time.
RESUME_SECONDS = 60.0


def epoch(at: datetime) -> float:
    """Seconds since 1970 of a stored moment (SQLite gives it back without its zone)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


@dataclass(frozen=True)
class Event:
    index: int
    version: int
    seat: int
    kind: str
    at: float


class ClockError(ValueError):
    """Settings a game cannot be timed with (``skip`` where its rules allow no skipping)."""


def check(game: str, settings: ClockSettings) -> None:
    if settings.rule == "skip" and not game_class(game).skips_turns:
        raise ClockError(
            "This game's rules make every turn be played: choose a bot or the end of the game."
        )


# --- the derivation ---------------------------------------------------------------------


class Clock:
    """One table's clocks, derived from its record and its clock events.

    Fed in order: :meth:`action` for every committed action (with the state after it and
    when it was committed), :meth:`event` for every clock event. ``left`` is each seat's
    time (real-time) at ``since``, the moment the set of running seats last changed;
    ``ends`` each running seat's turn deadline (turn mode).
    """

    def __init__(
        self, table_id: str, settings: ClockSettings, players: int, started: float
    ) -> None:
        self.table_id = table_id
        self.settings = settings
        self.realtime = settings.mode == "realtime"
        self.left = [float(settings.base)] * players
        self.ends: dict[int, float] = {}
        self.running: tuple[int, ...] = ()
        self.since = started
        self.standins: set[int] = set()
        self.bots: frozenset[int] = frozenset()
        self.timeouts = [0] * players
        self.abandoned: int | None = None
        #: The match waits for people to sit down: nobody's time runs until it begins.
        self.paused = False
        #: Actions and events folded in.
        self.version = 0
        self.events = 0
        #: Set when the table changed in a way this clock did not see (another process
        #: stood a bot in, say): the owner reads the clock from the database again.
        self.stale = False
        #: Called when the next deadline may have changed.
        self.on_change: Any = None

    # -- folding ------------------------------------------------------------------------

    def _eligible(self, seat: int) -> bool:
        return seat not in self.bots and seat not in self.standins

    def _to_run(self, state: State) -> tuple[int, ...]:
        if self.abandoned is not None or self.paused or state.is_terminal():
            return ()
        if state.is_chance_node():
            # Chance spends nobody's time and ends nobody's turn.
            return tuple(s for s in self.running if self._eligible(s))
        return tuple(s for s in state.acting_seats() if self._eligible(s))

    def _run(self, state: State, at: float, timed_out: int | None = None) -> None:
        new = self._to_run(state)
        elapsed = max(0.0, at - self.since)
        for seat in self.running:
            self.left[seat] = max(0.0, self.left[seat] - elapsed)
        for seat in self.running:
            if seat not in new:
                self.ends.pop(seat, None)
                if self.realtime and seat != timed_out:
                    self.left[seat] += self.settings.increment
        for seat in new:
            if seat not in self.running and not self.realtime:
                self.ends[seat] = at + self.settings.turn
        self.running = new
        self.since = at
        if self.on_change is not None:
            self.on_change(self)

    def action(self, state: State, at: float) -> None:
        """An action was committed at ``at``; ``state`` is the table's state after it."""
        self.version += 1
        self._run(state, at)

    def event(self, kind: str, seat: int, state: State, at: float) -> None:
        """A clock event happened at ``at``; ``state`` is the table's state then."""
        self.events += 1
        if kind == STANDIN:
            self.timeouts[seat] += 1
            self.standins.add(seat)
            self._run(state, at, timed_out=seat)
            if self.realtime:
                self.left[seat] = 0.0
        elif kind == BACK:
            self.standins.discard(seat)
            if self.realtime:
                resume = min(
                    float(self.settings.base), max(float(self.settings.increment), RESUME_SECONDS)
                )
                self.left[seat] = max(self.left[seat], resume)
            self._run(state, at)
        elif kind == SKIP:
            self.timeouts[seat] += 1
        elif kind == ABANDON:
            self.timeouts[seat] += 1
            self.abandoned = seat
            self._run(state, at, timed_out=seat)

    def start(self, state: State, bots: frozenset[int], waiting: bool = False) -> None:
        """Begin at the table's first position (``since`` is when the table was made, or
        when its match began after ``waiting`` for its people: then nothing runs yet)."""
        self.bots = bots
        self.paused = waiting
        self._run(state, self.since)

    def began(self, live: LiveTable) -> None:
        """The match begins now that every seat is taken: the table's ``created`` is the
        moment it began, from which its clocks run."""
        self.paused = False
        self.since = epoch(live.row.created)
        self.bots = bots_of(live.row)
        self._run(live.state, self.since)

    def seat_bots(self, bots: frozenset[int], state: State, at: float) -> None:
        """The seats bots play for good changed (the creator handed one to a bot)."""
        if bots != self.bots:
            self.bots = bots
            self._run(state, at)

    # -- reading ------------------------------------------------------------------------

    def deadline(self, seat: int) -> float | None:
        if seat not in self.running:
            return None
        if self.realtime:
            return self.since + self.left[seat]
        return self.ends.get(seat)

    def next_deadline(self) -> float | None:
        found = [d for d in (self.deadline(s) for s in self.running) if d is not None]
        return min(found) if found else None

    def out_of_time(self, at: float) -> int | None:
        """A running seat whose time ran out by ``at`` (the earliest), if any."""
        due = [(d, s) for s in self.running if (d := self.deadline(s)) is not None and d <= at]
        return min(due)[1] if due else None

    def left_at(self, seat: int, at: float) -> float | None:
        if seat in self.bots:
            return None
        if self.realtime:
            spent = at - self.since if seat in self.running else 0.0
            return max(0.0, self.left[seat] - spent)
        end = self.ends.get(seat) if seat in self.running else None
        return None if end is None else max(0.0, end - at)

    def data(self, at: float) -> dict[str, Any]:
        """The clocks as the ``state`` message's ``clock`` (:class:`ClockState`)."""
        s = self.settings
        seats = []
        for seat in range(len(self.left)):
            deadline = self.deadline(seat)
            seats.append(
                {
                    "seat": seat,
                    "left": self.left_at(seat, at),
                    "running": seat in self.running,
                    "deadline": None if deadline is None else moment(deadline),
                    "timeouts": self.timeouts[seat],
                }
            )
        return {
            "mode": s.mode,
            "base": s.base,
            "increment": s.increment,
            "turn": s.turn,
            "rule": s.rule,
            "level": s.level,
            "measured": at,
            "abandoned": self.abandoned,
            "seats": seats,
        }

    # -- the hook of LiveTable ------------------------------------------------------------

    def moved(self, live: LiveTable) -> None:
        """``live`` applied an action (committed just now, here or by another process)."""
        if self.version != live.version - 1:
            self.stale = True
            if self.on_change is not None:
                self.on_change(self)
            return
        self.action(live.state, time.time())

    def follow(self, live: LiveTable) -> None:
        """Bring the clock in line with what the table's row says now: seats a bot plays
        for good, and stand-ins or an abandonment another process decided (those are read
        again from the database: the row does not say when they happened)."""
        bots = bots_of(live.row)
        standins = {s.seat for s in live.row.seats if s.standin} - bots
        abandoned = live.row.status == FINISHED and not live.state.is_terminal()
        began = self.paused and not live.waiting  # (on another process)
        if standins != self.standins - bots or (abandoned and self.abandoned is None) or began:
            was = self.stale
            self.stale = True
            if not was and self.on_change is not None:
                self.on_change(self)
        self.seat_bots(bots, live.state, time.time())


def bots_of(row: TableRow) -> frozenset[int]:
    """The seats bots play for good (a bot's from the start, or handed to one)."""
    return frozenset(s.seat for s in row.seats if not s.person)


def replay(
    row: TableRow,
    settings: ClockSettings,
    actions: Sequence[tuple[int | None, int]],
    times: Sequence[float],
    events: Sequence[Event],
) -> Clock:
    """The clock of a table from its record (``times``: when each action was committed;
    an action with no time yet counts as committed now) and its events."""
    game = load_game(row.game, **row.options)
    clock = Clock(row.id, settings, game.num_players, epoch(row.created))
    state = game.new_initial_state()
    clock.start(state, bots_of(row), any(s.waiting for s in row.seats))
    pending = sorted(events, key=lambda e: e.index)
    at_now = time.time()
    k = 0
    for version, (_seat, action) in enumerate(actions):
        while k < len(pending) and pending[k].version <= version:
            e = pending[k]
            clock.event(e.kind, e.seat, state, e.at)
            k += 1
        state.apply_action(action)
        clock.action(state, times[version] if version < len(times) else at_now)
    for e in pending[k:]:
        clock.event(e.kind, e.seat, state, e.at)
    return clock


def abandoned_result(players: int, lost: int) -> tuple[list[float], list[float]]:
    """Returns and scores of a match abandoned because ``lost``'s time ran out (the
    project's rule, as the rulebooks say nothing of it): that seat ranks last, every
    other seat shares first place."""
    share = 1.0 / (players - 1) if players > 1 else 0.0
    returns = [0.0 if seat == lost else share for seat in range(players)]
    return returns, [0.0] * players


def clock_data(live: LiveTable, at: float | None = None) -> dict[str, Any] | None:
    """The ``clock`` of a ``state`` message for ``live``, measured now (None: untimed)."""
    clock = live.clock
    if not isinstance(clock, Clock):
        return None
    clock.follow(live)
    return clock.data(time.time() if at is None else at)
