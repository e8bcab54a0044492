"""The table server: people play the games together through a browser.

A table is a match record kept in a database (one row per table, one row per action);
one door changes it (:mod:`necropolis.server.door`), one filter builds every message that
leaves it (:mod:`necropolis.server.filter`), and a broker tells every server process when
a table has moved on. Bots think in worker processes, chance is drawn here from each
table's secret seed. Nothing in this package knows any game by name: it speaks only the
engine protocol and the table language. ``necropolis serve`` starts it; the wire
protocol is described in ``docs/protocol.md``.
"""
