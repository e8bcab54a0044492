"""The end-of-game figures of Luxor (Baars, 2001), counted from its rules' events.

Per seat, in the rulebook's words: the pairs it scored, the researchers it placed (moved
ones included), the scarabs its pairs placed, the sarcophagi that opened for it and the
worth of those it held at the end, and (with the curse) the curses it claimed. Each is a
table-language kind (its English in :data:`MESSAGES`, documented in
``docs/table-language.md``) whose values are one number per seat.
"""

from __future__ import annotations

from necropolis.engine.events import Event
from necropolis.engine.protocol import Figure
from necropolis.games.luxor2001 import events as ev
from necropolis.games.luxor2001.components import VALUE_POINTS

MESSAGES: dict[str, str] = {
    "stat_pairs": "Pairs scored",
    "stat_researchers": "Researchers placed",
    "stat_scarabs": "Scarabs placed",
    "stat_sarcophagi": "Sarcophagi opened",
    "stat_worth": "Worth of the sarcophagi held",
    "stat_curses": "Curses claimed",
}


def statistics(events: list[Event], players: int) -> list[Figure]:
    """The figures of a finished match from every one of its events, in order."""
    pairs = [0] * players
    researchers = [0] * players
    scarabs = [0] * players
    opened = [0] * players
    worth = [0] * players
    curses = [0] * players
    cursed = False
    for e in events:
        match e:
            case ev.PairScored(seat):
                pairs[seat] += 1
            case ev.ResearcherPlaced(seat):
                researchers[seat] += 1
            case ev.ScarabPlaced(seat):
                scarabs[seat] += 1
            case ev.SarcophagusOpened(seat):
                opened[seat] += 1
            case ev.SarcophagiShown(seat, values):
                worth[seat] = sum(VALUE_POINTS[v] for v in values)
            case ev.CurseRevealed():
                cursed = True
            case ev.CurseClaimed(seat):
                curses[seat] += 1
    figures: list[Figure] = [
        ("stat_pairs", {}, list(pairs)),
        ("stat_researchers", {}, list(researchers)),
        ("stat_scarabs", {}, list(scarabs)),
        ("stat_sarcophagi", {}, list(opened)),
        ("stat_worth", {}, list(worth)),
    ]
    if cursed:
        figures.append(("stat_curses", {}, list(curses)))
    return figures
