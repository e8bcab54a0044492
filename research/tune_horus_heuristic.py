"""Screen tunings of the horus strategy against the heuristic bot, match for match.

The horus strategy's judgement is set by a :class:`~necropolis.games.horus.heuristic.
Tuning`; the heuristic bot plays ``HEURISTIC``, and the levels (easy, medium, hard's
search) ``LEVELS``. This script plays each tuning given (``field=value,...``;
``heuristic`` and ``levels`` name the two shipped ones) in one seat against the
heuristic in every other, ``N`` matches each, the tuning's seat turned round the table
from match to match, match ``i`` from the seed ``SEED * 1_000_003 + i`` for every tuning
(so that each meets the same deals), and prints each tuning's share of the wins beside
the heuristic seats' mean share, with 95% intervals. A match nobody wins (everyone shut
in or crushed) counts for no seat, so the two shares need not add up to one. With
``--fates`` it also counts how the tuning's matches ended: whether its seat got out,
whether any heuristic seat did, who won, and whether the seat ever stood on an exit
space with cards in hand and did not leave.

    .venv/bin/python research/tune_horus_heuristic.py -n 1000 --seed 13 heuristic levels
    .venv/bin/python research/tune_horus_heuristic.py -n 900 --players 3 --seed 14 \\
        heuristic rivals_shut_in=false
    .venv/bin/python research/tune_horus_heuristic.py -n 400 --seed 77 --fates levels

The runs that chose ``LEVELS`` (2026-11-29) are in ``docs/strength.md`` ("horus").
"""

from __future__ import annotations

import multiprocessing
import random
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from necropolis.engine.driver import play_match
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game
from necropolis.games.horus import heuristic
from necropolis.games.horus.codes import A_LEAVE, ESCAPED
from necropolis.games.horus.heuristic import Tuning

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scripts' shared parts
from screening import parse_fields, parse_screen, screen_arguments, share_line

#: How a match ended for the tuning's seat (``--fates``): its status, whether a heuristic
#: seat got out, who won, and whether it declined to leave from an exit with cards.
Fate = tuple[str, bool, str, bool]


def parse_tuning(text: str) -> Tuning:
    """``heuristic``, ``levels``, or ``field=value,...`` over the heuristic's tuning."""
    named = {"heuristic": heuristic.HEURISTIC, "levels": heuristic.LEVELS}
    return parse_fields(text, heuristic.HEURISTIC, named)


class TunedBot:
    """The horus strategy under one tuning, as a player of the match driver."""

    def __init__(self, name: str, tuning: Tuning) -> None:
        self.name = name
        self.tuning = tuning
        #: Whether it ever stood where it could leave, holding cards, and stayed.
        self.stayed_at_exit = False

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        action = heuristic.decide(window, rng, self.tuning)
        if action != A_LEAVE and A_LEAVE in window.legal_actions():
            self.stayed_at_exit |= window.view()["players"][window.seat]["card_count"] > 0
        return action


def play(job: tuple[str, Tuning, int, int, int]) -> tuple[str, float, float, Fate]:
    """One match: the tuning's share of the win, the heuristic seats' mean share, and
    how the match ended for the tuning's seat."""
    label, tuning, players, seed, i = job
    game = load_game("horus", players=players)
    seats: list[TunedBot] = [TunedBot("heuristic", heuristic.HEURISTIC)] * players
    mine = i % players
    tuned = seats[mine] = TunedBot(label, tuning)
    state, _ = play_match(game, seats, seed=seed * 1_000_003 + i)
    returns = state.returns()
    seen = state.view(None)["players"]  # the match is over: everything is shown
    out = any(p["status_id"] == ESCAPED for p in seen if p["seat"] != mine)
    best = max(returns)
    winners = [p for p in range(players) if best > 0 and returns[p] == best]
    won = (
        "nobody"
        if not winners
        else "a heuristic"
        if mine not in winners
        else "the tuning"
        if len(winners) == 1
        else "the tuning and a heuristic"
        if len(winners) == 2
        else f"the tuning and {len(winners) - 1} heuristics"
    )
    fate = (seen[mine]["status"], out, won, tuned.stayed_at_exit)
    return label, returns[mine], (sum(returns) - returns[mine]) / (players - 1), fate


def screen(
    labels: Iterable[str],
    matches: int,
    players: int,
    seed: int,
    workers: int,
    fates: bool = False,
) -> None:
    """Play ``matches`` matches of each tuning on ``workers`` processes; print each
    tuning's line as its last match ends (and, with ``fates``, how they ended)."""
    tunings = {label: parse_tuning(label) for label in labels}
    jobs = [(label, t, players, seed, i) for label, t in tunings.items() for i in range(matches)]
    totals = {label: [0.0, 0.0, 0] for label in tunings}
    ends: dict[str, Counter[Fate]] = {label: Counter() for label in tunings}
    with multiprocessing.Pool(workers) as pool:
        for label, mine, theirs, fate in pool.imap_unordered(play, jobs, chunksize=4):
            ends[label][fate] += 1
            total = totals[label]
            total[0] += mine
            total[1] += theirs
            total[2] += 1
            if total[2] == matches:
                print(share_line(label, total[0], total[1], matches, players, seed), flush=True)
                if fates:
                    for (status, other_out, won, stayed), count in ends[label].most_common():
                        print(
                            f"  {count:5d}  the tuning's seat {status};"
                            f" {'a' if other_out else 'no'} heuristic seat out; {won} won;"
                            f" {'stayed' if stayed else 'never stayed'} on an exit with cards",
                            flush=True,
                        )


def main() -> None:
    description = __doc__.split("\n\n")[0]
    labels_help = "heuristic, levels or field=value,..."
    parser = screen_arguments(description, "tunings", labels_help, 1000, game="horus")
    parser.add_argument("--fates", action="store_true", help="count how the matches ended")
    args = parse_screen(parser, "tunings", parse_tuning)
    screen(args.tunings, args.matches, args.players, args.seed, args.workers, args.fates)


if __name__ == "__main__":
    main()
