"""Clones per second through pyspiel: the OpenSpiel adapter of a git revision against the
current one, beside the engine's own clone and OpenSpiel's C++ backgammon, in one run.

Each game's middle position of one random match (the same match for every adapter) is
cloned from Python as a researcher's loop does (``state.clone()``), in rounds that take
turns between the contenders so that a change of load on a shared machine reaches them
alike; the figure is the median over rounds, and each is also given as a ratio to
backgammon's clone measured in the same rounds.

    .venv/bin/python scripts/bench_spiel_clone.py --before 8297e7b --players 3
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel

from necropolis.analysis.bench import middle_state, random_trajectory
from necropolis.games import game_ids
from necropolis.interop import openspiel

ROOT = Path(__file__).resolve().parents[1]


def adapter_at(revision: str) -> types.ModuleType:
    """The OpenSpiel adapter as it was at ``revision``, registering its games under
    ``necropolis_before_<id>`` beside the current ones."""
    source = subprocess.run(
        ["git", "show", f"{revision}:src/necropolis/interop/openspiel.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    source = source.replace('PREFIX = "necropolis_"', 'PREFIX = "necropolis_before_"')
    module = types.ModuleType("necropolis_spiel_before")
    sys.modules[module.__name__] = module
    exec(compile(source, f"{revision}:openspiel.py", "exec"), module.__dict__)
    return module


def rate(clone: Callable[[], Any], seconds: float) -> float:
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(200):
            clone()
        count += 200
    return count / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the git revision to compare with")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU time per figure")
    args = parser.parse_args()
    adapter_at(args.before)
    backgammon = middle_state(random_trajectory(pyspiel.load_game("backgammon").new_initial_state))
    print(f"clones per second (median of {args.rounds} rounds, {args.seconds} s of CPU each)")
    print("| game | engine | pyspiel before | pyspiel now | backgammon | before × bg | now × bg |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game_id in game_ids():
        params = {"players": args.players}
        now = pyspiel.load_game(openspiel.PREFIX + game_id, params)
        before = pyspiel.load_game(f"necropolis_before_{game_id}", params)
        history = middle_state(random_trajectory(now.new_initial_state)).history()
        states = {"now": now.new_initial_state(), "before": before.new_initial_state()}
        for state in states.values():
            for action in history:
                state.apply_action(action)
        assert str(states["now"].inner) == str(states["before"].inner)
        contenders = {
            "engine": states["now"].inner.clone,
            "before": states["before"].clone,
            "now": states["now"].clone,
            "backgammon": backgammon.clone,
        }
        figures: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.rounds):
            for name, clone in contenders.items():
                figures[name].append(rate(clone, args.seconds))
        median = {name: statistics.median(values) for name, values in figures.items()}
        bg = median["backgammon"]
        print(
            f"| {game_id} | {median['engine']:,.0f} | {median['before']:,.0f} | "
            f"{median['now']:,.0f} | {bg:,.0f} | {median['before'] / bg:.2f} | "
            f"{median['now'] / bg:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
