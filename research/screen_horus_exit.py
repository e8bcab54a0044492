"""Screen when horus's tuned strategy should stop raiding, by playing the match out.

Most of the levels' strategy's losses are its seat shut in while it raids on
(``docs/strength.md``, "horus"), so the one choice it might make too late is to stop.
This script plays that choice by playouts: once a round, when the tuned strategy would
raid on with a load in hand (its move differs from heading out now), the seat draws
worlds from its own window (:meth:`SeatWindow.resample`, never the true state) and in
each plays the match to its end twice, its seat heading out now or playing the tuned
strategy on, every other seat as the heuristic, the same dice seed for both. If heading
out won more often by more than the label's margin (a share of a win; each playout adds
a thousandth of a point of score margin, to tell equal outcomes apart), it heads out for
the rest of the match.

Each label (``levels``, the tuned strategy alone, or a margin such as ``0.05``) plays
``N`` two-player matches against the heuristic bot, seats alternated, match ``i`` from the
seed ``SEED * 1_000_003 + i`` for every label (the same deals), and prints its share of
the wins beside the heuristic's, with how many matches it headed out early in. The
playouts are a number of worlds, not a clock, so a screen replays exactly.

    .venv/bin/python research/screen_horus_exit.py -n 200 --seed 77 --worlds 16 levels 0.05 0

The same player plays on the strength harness's duplicate deals as
``screen_horus_exit:exit_by_playouts`` (``research/`` on the path), its margin and worlds
read from ``NECROPOLIS_EXIT_MARGIN`` (0.05 unless set) and ``NECROPOLIS_EXIT_WORLDS``
(16), so that its run pairs deal by deal with the strategy alone's record on the same
bank; ``exit_asked_each_time`` is the same question asked by a player that keeps nothing
between decisions, as a level would have to; ``exit_told_the_state`` and
``exit_clairvoyant`` are research oracles that cheat, the question played out from the
match's true state, with the future drawn afresh or with the match's own coming draws::

    PYTHONPATH=research .venv/bin/necropolis strength play horus \\
        --lineup screen_horus_exit:exit_by_playouts,heuristic --deals 500 --bank 1 \\
        --out docs/strength/horus-screen-exit-by-playouts.jsonl

The screen of 2026-12-01 and the harness's run of 2026-12-07 are in ``docs/strength.md``
("horus").
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from necropolis.engine.driver import play_match
from necropolis.engine.protocol import CHANCE, State, sample_chance
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game
from necropolis.games.horus import heuristic
from necropolis.games.horus.codes import D_TURN
from necropolis.games.horus.heuristic import Tuning

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scripts' shared parts
from screening import parse_screen, screen_arguments, share_line
from tune_horus_heuristic import TunedBot as Strategy

if TYPE_CHECKING:
    from necropolis.analysis.duel import DuplicateChance

#: The tuned strategy, heading out now whatever it could still raid.
HEAD_OUT = dataclasses.replace(heuristic.LEVELS, head_out=True)


def parse_label(text: str) -> float | None:
    """``levels`` (None: the tuned strategy alone) or a margin (a share of a win)."""
    if text == "levels":
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is neither 'levels' nor a margin (a number)") from None


def playout(
    world: State,
    seat: int,
    tuning: Tuning,
    rng: random.Random,
    chance: Callable[[State], int] | None = None,
) -> float:
    """``world`` played to its end, ``seat`` by ``tuning`` and every other seat by the
    heuristic: the seat's share of the win, plus a thousandth of its score margin. Chance
    is drawn from ``rng``, or told by ``chance`` (the clairvoyant's twin of the match's)."""
    while not world.is_terminal():
        now = world.current_player()
        if now == CHANCE:
            action = sample_chance(world, rng) if chance is None else chance(world)
        else:
            strategy = tuning if now == seat else heuristic.HEURISTIC
            action = heuristic.decide(SeatWindow(world, now), rng, strategy)
        world.apply_action(action)
    scores = world.scores()
    best_other = max(s for k, s in enumerate(scores) if k != seat)
    return world.returns()[seat] + 0.001 * (scores[seat] - best_other)


def raid_or_out(window: SeatWindow, rng: random.Random) -> tuple[int, int]:
    """The tuned strategy's move and the move heading out now would make: the same move
    twice where there is nothing to ask (not an action of the seat's turn, or nothing in
    hand worth taking out)."""
    on = heuristic.decide(window, rng, heuristic.LEVELS)
    view = window.view()
    if view["awaiting_id"] != D_TURN:
        return on, on
    me = view["players"][window.seat]
    if heuristic.load_value(list(me["card_types"]) + list(me["bag_types"])) <= 0:
        return on, on
    # the strategy decides from the view alone (no draw of rng), so asking it both ways
    # tells whether it would raid on rather than head out
    return on, heuristic.decide(window, rng, HEAD_OUT)


class ExitByPlayouts:
    """The tuned strategy that, once a round while it would raid on with a load, plays
    heading out now against raiding on in ``worlds`` worlds, and heads out for good when
    that is better by more than ``margin``. It keeps its choice between decisions (a
    match's player; the server's bots keep nothing, so this is no level)."""

    def __init__(self, name: str, margin: float, worlds: int) -> None:
        self.name = name
        self.margin = margin
        self.worlds = worlds
        self.heading_out = False
        self.asked_in_round = -1
        #: How many rounds it played out.
        self.questions = 0

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if self.heading_out:
            return heuristic.decide(window, rng, HEAD_OUT)
        on, out = raid_or_out(window, rng)
        if out == on:
            return on
        round_now = window.view()["round"]
        if round_now == self.asked_in_round:
            return on
        self.asked_in_round = round_now
        self.questions += 1
        self.heading_out = self.out_is_better(window, rng)
        return out if self.heading_out else on

    def world(self, window: SeatWindow, rng: random.Random) -> State:
        """A world to play the question out in: one drawn from the seat's window."""
        return window.resample(rng)

    def out_is_better(self, window: SeatWindow, rng: random.Random) -> bool:
        gain = 0.0
        for _ in range(self.worlds):
            world = self.world(window, rng)
            seed = rng.getrandbits(64)
            out = playout(world.clone(), window.seat, HEAD_OUT, random.Random(seed))
            on = playout(world, window.seat, heuristic.LEVELS, random.Random(seed))
            gain += out - on
        return gain / self.worlds > self.margin


class ExitAskedEachTime(ExitByPlayouts):
    """The same question with nothing kept between decisions, as a level must decide (the
    server makes its bots afresh for each decision): asked at every action of a turn at
    which the tuned strategy, with a load in hand, would raid on rather than head out;
    heading out wins that action only, and the next one asks again. It asks about three
    times as often as the player that remembers (14 actions a match against 5 rounds, in
    the strategy's own matches against the heuristic)."""

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        on, out = raid_or_out(window, rng)
        if out == on:
            return on
        self.questions += 1
        return out if self.out_is_better(window, rng) else on


class ExitToldTheState(ExitByPlayouts):
    """**A research oracle, which cheats**: the remembering player whose worlds are all the
    true state (the other seat's face-down cards, the sarcophagi's, the checked blocks),
    the future still drawn afresh in each playout. Beside :class:`ExitClairvoyant`, which
    also knows the coming draws, it tells whether what the question lacks is what is
    hidden now or what is still to come."""

    def world(self, window: SeatWindow, rng: random.Random) -> State:
        # The one place this script reads past the seat's view, on purpose: the window's
        # state is the match's true state.
        return window._state.clone()


class ExitClairvoyant(ExitToldTheState):
    """**A research oracle, which cheats**: the remembering player whose question is
    answered by the match itself. It plays heading out and raiding on from the true state,
    each once, to the end, every chance node drawn from a twin of the harness's streams
    where the match stands (:meth:`DuplicateChance.copy`), so each playout meets the
    dice, cards and blocks the match would deal along its line; the other seats play the
    heuristic, as the harness's rival does. So against the harness's heuristic it knows
    which of the two ways ends better, and heads out whenever heading out does. What it
    wins bounds what any judgement of when to stop could win, as the harness's
    ``clairvoyant`` bounds a search's. It needs the harness (``foresee``)."""

    def __init__(self, name: str = "exit-clairvoyant") -> None:
        super().__init__(name, margin=0.0, worlds=1)
        self._chance: DuplicateChance | None = None
        #: Each question's two foretold ends: heading out's, raiding on's.
        self.foretold: list[tuple[float, float]] = []

    def foresee(self, chance: DuplicateChance) -> None:
        """Be told the match's chance: the harness calls this before the match starts."""
        self._chance = chance

    def out_is_better(self, window: SeatWindow, rng: random.Random) -> bool:
        if self._chance is None:
            raise RuntimeError("the exit clairvoyant plays on the strength harness alone")
        out = playout(self.world(window, rng), window.seat, HEAD_OUT, rng, self._chance.copy())
        on = playout(
            self.world(window, rng), window.seat, heuristic.LEVELS, rng, self._chance.copy()
        )
        self.foretold.append((out, on))
        return out > on


def _margin_and_worlds() -> tuple[float, int]:
    margin = float(os.environ.get("NECROPOLIS_EXIT_MARGIN", "0.05"))
    worlds = int(os.environ.get("NECROPOLIS_EXIT_WORLDS", "16"))
    if worlds < 1:
        raise ValueError(f"NECROPOLIS_EXIT_WORLDS is at least 1, not {worlds}")
    return margin, worlds


def exit_by_playouts() -> ExitByPlayouts:
    """The player for the strength harness (a factory it calls once a match): its margin
    and worlds from ``NECROPOLIS_EXIT_MARGIN`` and ``NECROPOLIS_EXIT_WORLDS``."""
    margin, worlds = _margin_and_worlds()
    return ExitByPlayouts(f"exit-by-playouts-{margin:g}-{worlds}", margin, worlds)


def exit_asked_each_time() -> ExitAskedEachTime:
    """The harness's player that keeps nothing between decisions, its margin and worlds
    read as :func:`exit_by_playouts` reads them."""
    margin, worlds = _margin_and_worlds()
    return ExitAskedEachTime(f"exit-asked-each-time-{margin:g}-{worlds}", margin, worlds)


def exit_told_the_state() -> ExitToldTheState:
    """The harness's research oracle told the hidden state, its margin and worlds read as
    :func:`exit_by_playouts` reads them."""
    margin, worlds = _margin_and_worlds()
    return ExitToldTheState(f"exit-told-the-state-{margin:g}-{worlds}", margin, worlds)


def exit_clairvoyant() -> ExitClairvoyant:
    """The harness's research oracle of when to head out (see :class:`ExitClairvoyant`)."""
    return ExitClairvoyant()


def play(job: tuple[str, int, int, int]) -> tuple[str, float, float, bool, float]:
    """One match: the label's share of the win, the heuristic's, whether the label's seat
    headed out early, and the seconds of CPU the match took."""
    label, seed, i, worlds = job
    margin = parse_label(label)
    mine: Strategy | ExitByPlayouts = (
        Strategy(label, heuristic.LEVELS)
        if margin is None
        else ExitByPlayouts(label, margin, worlds)
    )
    seats: list[Strategy | ExitByPlayouts] = [Strategy("heuristic", heuristic.HEURISTIC)] * 2
    k = i % 2
    seats[k] = mine
    began = time.process_time()
    state, _ = play_match(load_game("horus", players=2), seats, seed=seed * 1_000_003 + i)
    returns = state.returns()
    early = isinstance(mine, ExitByPlayouts) and mine.heading_out
    return label, returns[k], returns[1 - k], early, time.process_time() - began


def main() -> None:
    description = __doc__.split("\n\n")[0]
    labels_help = "levels, or a margin such as 0.05"
    parser = screen_arguments(description, "labels", labels_help, 200)
    parser.add_argument("--worlds", type=int, default=16, help="worlds a question plays")
    args = parse_screen(parser, "labels", parse_label)
    if args.worlds < 1:
        parser.error("--worlds is at least 1")
    jobs = [
        (label, args.seed, i, args.worlds) for i in range(args.matches) for label in args.labels
    ]
    totals = {label: [0.0, 0.0, 0, 0, 0.0] for label in args.labels}
    with multiprocessing.Pool(args.workers) as pool:
        for label, mine, theirs, early, seconds in pool.imap_unordered(play, jobs):
            total = totals[label]
            total[0] += mine
            total[1] += theirs
            total[2] += 1
            total[3] += early
            total[4] += seconds
            if total[2] == args.matches:
                line = share_line(label, total[0], total[1], args.matches, 2, args.seed)
                print(
                    f"{line}; headed out early in {total[3]},"
                    f" {total[4] / args.matches:.1f} s of CPU a match",
                    flush=True,
                )


if __name__ == "__main__":
    main()
