"""The table's clients as the tests and the scripts (``scripts/bench_table.py``,
``wire.py``, ``shots.py``) use them: everything they know of a server, they learn over
HTTP and WebSocket, as a person's page does.

- :mod:`~tests.clients.server`: a real ``necropolis serve`` in a subprocess (``Server``,
  ``start_server``, ``running_server``), ``ws_url``, and ``descendants`` (the processes a
  server started, read from ``/proc``).
- :mod:`~tests.clients.seats`: one seat's connection for a test, asyncio (``Seat``) or
  blocking (``SyncSeat``), keeping every message and the log as the page does.
- :mod:`~tests.clients.seat_client`: ``SeatClient``, an asyncio connection with a callback
  on each state, for crowds (the benchmarks), and ``create_table`` over ``httpx``.
- :mod:`~tests.clients.log`: ``PageLog``, a seat's log as its page keeps it, which every
  client above keeps.
"""

from tests.clients.log import PageLog
from tests.clients.seat_client import SeatClient, create_table
from tests.clients.seats import Seat, SyncSeat, hello_message
from tests.clients.server import (
    MESSAGE_TIMEOUT,
    START_TIMEOUT,
    Message,
    Server,
    descendants,
    running_server,
    start_server,
    ws_url,
)

__all__ = [
    "MESSAGE_TIMEOUT",
    "START_TIMEOUT",
    "Message",
    "PageLog",
    "Seat",
    "SeatClient",
    "Server",
    "SyncSeat",
    "create_table",
    "descendants",
    "hello_message",
    "running_server",
    "start_server",
    "ws_url",
]
