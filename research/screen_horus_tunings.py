"""Screen tunings of horus's level strategy on the strength harness's duplicate deals.

``tune_horus_heuristic.py`` seats a tuning against the heuristic on fresh seeds, and a
difference of two points is lost in its noise at 1,000 matches. This script plays each
tuning given (``field=value,...`` over the levels' tuning, or ``levels`` or
``heuristic``) against the heuristic on the deals of a bank of the strength harness
(``necropolis strength``), every deal in both seatings, and pairs the run deal by deal
with a reference run on the same bank (by default the levels' strategy alone,
``horus-screen-strategy-alone.jsonl``, bank 1). Played alike, a tuning's matches end as
the reference's wherever its moves are the same, so the paired difference sees about a
point in 1,000 matches. Each run is kept in its own file under ``--folder`` and resumed
from there, so a stopped screen goes on where it stopped::

    PYTHONPATH=research .venv/bin/python research/screen_horus_tunings.py \\
        --deals 500 --bank 1 --workers 2 walk_speed=0.7 wound_cost=2.5

With ``--players N`` (3 to 6) the tuning sits among N-1 heuristic bots, each deal in its
N seatings, in a file of its own; pair it with the same screen of another tuning
(``--reference``, e.g. ``rival_gain_sharing=0``'s), as the two-player record is not.

A tuning screened on a bank must be confirmed on another (``--bank 2`` with the levels'
tuning itself as the reference there), since choosing the best of many screens on one
bank flatters it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from functools import partial
from pathlib import Path

from necropolis.analysis.duel import Contender, DuelRun, paired, play_lineup
from necropolis.engine.seat import SeatWindow
from necropolis.games.horus import heuristic
from necropolis.games.horus.heuristic import Tuning

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scripts' shared parts
from screening import parse_fields

STRENGTH = Path(__file__).resolve().parent.parent / "docs" / "strength"


class TunedStrategy:
    """The horus strategy under one tuning, drawing from the generator as the levels do
    (one draw for the blunder that never comes, then the strategy's own), so that the
    levels' tuning replays the recorded strategy alone move for move."""

    def __init__(self, name: str, tuning: Tuning) -> None:
        self.name = name
        self.tuning = tuning

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        rng.random()  # the level's blunder draw (rate 0), kept for the pairing
        return heuristic.decide(window, rng, self.tuning)


def tuned(name: str, tuning: Tuning) -> TunedStrategy:
    return TunedStrategy(name, tuning)


def parse_tuning(text: str) -> Tuning:
    named = {"heuristic": heuristic.HEURISTIC, "levels": heuristic.LEVELS}
    return parse_fields(text, heuristic.LEVELS, named)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tunings", nargs="+", help="field=value,... over the levels' tuning")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--bank", type=int, default=1)
    parser.add_argument(
        "--players", type=int, default=2, help="seats: the tuning and the rest heuristics"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--nice", type=int, default=19)
    parser.add_argument("--folder", type=Path, default=Path("strength-screens"))
    parser.add_argument(
        "--reference",
        type=Path,
        default=STRENGTH / "horus-screen-strategy-alone.jsonl",
        help="the run on the same bank to pair with",
    )
    args = parser.parse_args(argv)
    try:
        tunings = [(text, parse_tuning(text)) for text in args.tunings]
    except ValueError as error:
        parser.error(str(error))
    reference = DuelRun.read(args.reference) if args.reference.exists() else None
    if args.nice:
        os.nice(args.nice)
    args.folder.mkdir(parents=True, exist_ok=True)
    for text, tuning in tunings:
        label = "tuned:" + text
        seats = "" if args.players == 2 else f"-{args.players}p"
        path = args.folder / f"horus-bank{args.bank}{seats}-{text.replace(',', '+')}.jsonl"
        run = play_lineup(
            [Contender(label, partial(tuned, label, tuning))] + ["heuristic"] * (args.players - 1),
            "horus",
            args.deals,
            args.bank,
            args.workers,
            out=path,
            resume=path.exists(),
            command=(
                f"research/screen_horus_tunings.py --deals {args.deals} --bank {args.bank}"
                + ("" if args.players == 2 else f" --players {args.players}")
                + f" {text}"
            ),
        )
        figure = run.figures()
        low, high = figure["ci95"]
        line = f"{text}: {figure['score_share']:.1%} ({low:.1%}-{high:.1%}) of {figure['matches']}"
        if (
            reference is not None
            and reference.bank == args.bank
            and len(reference.lineup) == args.players
        ):
            pair = paired(run, reference)
            d_low, d_high = pair["ci95"]
            line += (
                f"; paired {pair['difference'] * 100:+.1f} points"
                f" ({d_low * 100:+.1f} to {d_high * 100:+.1f}) over {pair['deals']} deals,"
                f" correlation {pair['deal_correlation']:.2f}"
            )
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
