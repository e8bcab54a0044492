"""The end-of-game figures of The Pyramid of Horus, counted from its rules' events.

Per seat, in the rulebook's words: the rounds its adventurer spent inside the pyramid, the
cards it found, the sarcophagi it opened, the treasures (necklaces and chests too) and
idols that reached it, the wounds it took and its jumps away from falling stone blocks.
Each is a table-language kind (its English in :data:`MESSAGES`, documented in
``docs/table-language.md``) whose values are one number per seat.
"""

from __future__ import annotations

from necropolis.engine.events import Event
from necropolis.engine.protocol import Figure
from necropolis.games.horus import components as cp
from necropolis.games.horus import events as ev

MESSAGES: dict[str, str] = {
    "stat_rounds": "Rounds inside the pyramid",
    "stat_found": "Cards found",
    "stat_sarcophagi": "Sarcophagi opened",
    "stat_treasures": "Treasures, necklaces and chests gained",
    "stat_idols": "Idols taken",
    "stat_wounds": "Wounds taken",
    "stat_jumps": "Jumps from falling blocks",
}


def statistics(events: list[Event], players: int) -> list[Figure]:
    """The figures of a finished match from every one of its events, in order."""
    counts = {kind: [0] * players for kind in MESSAGES}
    inside: set[int] = set()
    for e in events:
        match e:
            case ev.AdventurerChosen(seat):
                inside.add(seat)
            case ev.Left(seat) | ev.Crushed(seat) | ev.Sealed(seat) | ev.BecameMummy(seat):
                inside.discard(seat)
            case ev.RoundBegan():
                for seat in inside:
                    counts["stat_rounds"][seat] += 1
            case ev.CardFound(seat):
                counts["stat_found"][seat] += 1
            case ev.Opened(seat):
                counts["stat_sarcophagi"][seat] += 1
            case ev.CardGained(seat, card):
                kind = cp.CARD_KIND[card]
                if kind in (cp.TREASURE, cp.NECKLACE, cp.CHEST):
                    counts["stat_treasures"][seat] += 1
                elif kind == cp.IDOL:
                    counts["stat_idols"][seat] += 1
                elif kind == cp.WOUND:
                    counts["stat_wounds"][seat] += 1
            case ev.Jumped(seat):
                counts["stat_jumps"][seat] += 1
    return [(kind, {}, list(values)) for kind, values in counts.items()]
