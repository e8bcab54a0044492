"""The end-of-game figures of Luxor (Dorn, 2018), counted from its rules' events.

Per seat, in the rulebook's words: the adventurers' moves and how far along the path they
went (steps, Osiris pushes and tunnels together, a step back counting against), the
treasure tiles, keys, Horus cards and scarabs taken, the adventurers woken at the Anubis
statues and the entries into the burial chamber. Each is a table-language kind (its
English in :data:`MESSAGES`, documented in ``docs/table-language.md``) whose values are one
number per seat.
"""

from __future__ import annotations

from necropolis.engine.events import Event
from necropolis.engine.protocol import Figure
from necropolis.games.luxor import events as ev

MESSAGES: dict[str, str] = {
    "stat_moves": "Adventurers moved",
    "stat_advanced": "Fields advanced along the path",
    "stat_treasures": "Treasure tiles taken",
    "stat_keys": "Keys taken",
    "stat_horus_cards": "Horus cards taken",
    "stat_scarabs": "Scarabs taken",
    "stat_woken": "Adventurers woken",
    "stat_chamber": "Entries into the burial chamber",
}


def statistics(events: list[Event], players: int) -> list[Figure]:
    """The figures of a finished match from every one of its events, in order."""
    counts = {kind: [0] * players for kind in MESSAGES}
    for e in events:
        match e:
            case ev.Moved(seat, origin, _, field):
                counts["stat_moves"][seat] += 1
                counts["stat_advanced"][seat] += field - origin
            case ev.OsirisPush(seat, landing, field):
                counts["stat_advanced"][seat] += field - landing
            case ev.Tunnel(seat, origin, field) if field >= 0:
                counts["stat_advanced"][seat] += field - origin
            case ev.TreasureTaken(seat):
                counts["stat_treasures"][seat] += 1
            case ev.KeyTaken(seat):
                counts["stat_keys"][seat] += 1
            case ev.HorusCardTaken(seat):
                counts["stat_horus_cards"][seat] += 1
            case ev.ScarabTaken(seat):
                counts["stat_scarabs"][seat] += 1
            case ev.Woke(seat):
                counts["stat_woken"][seat] += 1
            case ev.ChamberEntered(seat):
                counts["stat_chamber"][seat] += 1
    return [(kind, {}, list(values)) for kind, values in counts.items()]
