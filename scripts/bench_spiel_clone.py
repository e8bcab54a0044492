"""Clones per second, engine and through pyspiel, of a git revision against the current
tree, beside OpenSpiel's C++ backgammon, in one process and one run.

The revision's ``src/necropolis`` is copied out of git under another package name (every
``necropolis.`` import renamed, its OpenSpiel games registered as ``<name>_<game>``), so
that its engine, games and adapter run beside the current ones. Each game's middle
position of one random match (the same actions for both) is cloned from Python as a
researcher's loop does (``state.clone()``, and ``state.inner.clone()`` for the engine),
in rounds that take turns between the contenders so that a change of load on a shared
machine reaches them alike. Figures are medians over rounds with their range; the ratio
to backgammon is the median of each round's own ratio, the steadier figure on a busy
machine. ``--play`` adds random play (actions per second) for the same two.

    .venv/bin/python scripts/bench_spiel_clone.py --before 26f27d1 --players 3
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel

ROOT = Path(__file__).resolve().parents[1]
COPY = "necropolis_before"


def package_at(revision: str, into: Path) -> str:
    """``src/necropolis`` at ``revision`` as the package ``necropolis_before`` under
    ``into``; returns its name."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "src/necropolis"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    package = into / COPY
    (into / "src" / "necropolis").rename(package)
    for path in package.rglob("*.py"):
        text = path.read_text()
        text = re.sub(r"\bnecropolis(?=\.)", COPY, text)
        text = text.replace('PREFIX = "necropolis_"', f'PREFIX = "{COPY}_"')
        path.write_text(text)
    return COPY


def rate(clone: Callable[[], Any], seconds: float) -> float:
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(200):
            clone()
        count += 200
    return count / (time.process_time() - start)


def spread(values: list[float]) -> str:
    return (
        f"{statistics.median(values) / 1000:,.0f}k "
        f"[{min(values) / 1000:,.0f}–{max(values) / 1000:,.0f}]"
    )


def to_bg(figures: dict[Any, list[float]], name: Any) -> float:
    """The median of each round's ratio of ``name``'s figure to backgammon's."""
    return statistics.median(a / b for a, b in zip(figures[name], figures["bg"], strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the git revision to compare with")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=0.1, help="CPU time per figure")
    parser.add_argument("--play", action="store_true", help="random play too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        names = {"before": package_at(args.before, Path(tmp)), "now": "necropolis"}
        adapters = {k: importlib.import_module(f"{n}.interop.openspiel") for k, n in names.items()}
        benches = {k: importlib.import_module(f"{n}.analysis.bench") for k, n in names.items()}
        games = {k: importlib.import_module(f"{n}.games") for k, n in names.items()}
        compare(args, adapters, benches, games)


def compare(
    args: argparse.Namespace,
    adapters: dict[str, Any],
    benches: dict[str, Any],
    games: dict[str, Any],
) -> None:
    bench = benches["now"]
    backgammon = bench.middle_state(
        bench.random_trajectory(pyspiel.load_game("backgammon").new_initial_state)
    )
    print(
        f"clones per second, median [range] of {args.rounds} rounds of {args.seconds} s of "
        f"CPU, {args.players} players; × bg: median of each round's ratio to backgammon"
    )
    print("| game | version | engine | × bg | pyspiel | × bg | backgammon |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for game_id in games["now"].game_ids():
        params = {"players": args.players}
        states = {}
        history = None
        for key, adapter in adapters.items():
            game = pyspiel.load_game(adapter.PREFIX + game_id, params)
            if history is None:
                middle = bench.middle_state(bench.random_trajectory(game.new_initial_state))
                history = middle.history()
            state = game.new_initial_state()
            for action in history:
                state.apply_action(action)
            states[key] = state
        assert str(states["now"].inner) == str(states["before"].inner)
        contenders: dict[Any, Callable[[], Any]] = {"bg": backgammon.clone}
        for key, state in states.items():
            contenders[key, "engine"] = state.inner.clone
            contenders[key, "spiel"] = state.clone
        figures: dict[Any, list[float]] = {name: [] for name in contenders}
        for _ in range(args.rounds):
            for name, clone in contenders.items():
                figures[name].append(rate(clone, args.seconds))

        for key in states:
            print(
                f"| {game_id} | {key} | {spread(figures[key, 'engine'])} | "
                f"{to_bg(figures, (key, 'engine')):.2f} | {spread(figures[key, 'spiel'])} | "
                f"{to_bg(figures, (key, 'spiel')):.2f} | {spread(figures['bg'])} |",
                flush=True,
            )
    if args.play:
        play(args, benches, games)


def play(args: argparse.Namespace, benches: dict[str, Any], games: dict[str, Any]) -> None:
    print(f"\nrandom play, actions per second, median [range] of {args.rounds} rounds")
    print("| game | version | actions/s | × before |")
    print("| --- | --- | ---: | ---: |")
    for game_id in games["now"].game_ids():
        figures: dict[str, list[float]] = {key: [] for key in games}
        for round_ in range(args.rounds):
            for key, module in games.items():
                game = module.load_game(game_id, players=args.players)
                figures[key].append(
                    benches[key].random_play_rate(
                        game.new_initial_state,
                        args.seconds * 3,
                        seed=round_,
                        clock=time.process_time,
                    )
                )
        for key in games:
            ratio = statistics.median(
                a / b for a, b in zip(figures[key], figures["before"], strict=True)
            )
            print(f"| {game_id} | {key} | {spread(figures[key])} | {ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
