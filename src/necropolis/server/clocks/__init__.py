"""Clocks and deadlines: real-time clocks per seat, turn deadlines, and what happens when
a seat's time runs out.

A timed table has a row in ``table_clocks`` (its settings, see
:class:`~necropolis.server.models.ClockSettings`) and an append-only list of *clock
events* (``clock_events``): a seat's time ran out and a bot stood in for it (``standin``),
its person took it back (``back``), its turn was skipped (``skip``), or the match was
abandoned (``abandon``). The clocks themselves are never stored as running figures: they
are derived, like everything else, from the record (each action's seat and the moment it
was committed) and the events, so any process can work them out after a restart.
:class:`Clock` is that derivation, kept up to date in memory as actions are applied.

Whose time runs: the seats the state waits for (``acting_seats``) that a person plays;
chance and bots spend nobody's time (while chance is drawn the clocks stay as they were,
so that a turn that draws a card in its middle stays one turn), a seat a bot stands in
for has no clock running. A *turn* is a seat's stretch of being to act: in ``realtime``
the seat gains the increment when it ends; in ``turn`` mode the deadline is set when it
begins.

Enforcement happens exactly once, whichever processes share the database: the process
that finds a seat out of time commits its consequence in one transaction that appends
the event at the next index of the table's events (a second writer at that index fails
at the database) and, checking the table's version and status in the same statement,
changes the seats (a bot stands in) or finishes the table (abandoned); under ``skip`` the
consequence is the seat's skip action, committed through the table's one door at the
expected index like any action. A process that loses the race reads what the winner did.
Each table's next deadline is stored too (``table_clocks.deadline``), so that a process
finds the tables whose time ran out while nobody had them loaded.

The parts: :mod:`.clock` (the derivation), :mod:`.store` (the tables and the one
transaction), :mod:`.watch` (the watcher of each process).
"""

from __future__ import annotations

from necropolis.server.clocks.clock import (
    ABANDON,
    BACK,
    RESUME_SECONDS,
    SKIP,
    STANDIN,
    TIMEOUTS,
    Clock,
    ClockError,
    Event,
    abandoned_result,
    bots_of,
    check,
    clock_data,
    replay,
)
from necropolis.server.clocks.store import ClockStore, Stored, clock_events, table_clocks
from necropolis.server.clocks.watch import RETRY_SECONDS, SCAN_SECONDS, Clocks

__all__ = [
    "ABANDON",
    "BACK",
    "RESUME_SECONDS",
    "RETRY_SECONDS",
    "SCAN_SECONDS",
    "SKIP",
    "STANDIN",
    "TIMEOUTS",
    "Clock",
    "ClockError",
    "ClockStore",
    "Clocks",
    "Event",
    "Stored",
    "abandoned_result",
    "bots_of",
    "check",
    "clock_data",
    "clock_events",
    "replay",
    "table_clocks",
]
