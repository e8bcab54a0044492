"""scripts/bench_table.py: its search for the highest rate that holds p99, the merging of
its client processes' figures, and a short real run over loopback.

The figures themselves are never judged (the machine is shared): the search is driven by a
made-up server whose p99 is known, and the real run checks only that every process played
and that the report says what the README promises.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_table.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # the script's neighbours (revisions.py)
    try:
        spec = importlib.util.spec_from_file_location("bench_table", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_table"] = module  # its dataclasses look themselves up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPT.parent))


def made_up_server(limit: float) -> tuple[list[float], Any]:
    """A server that commits 100 actions a second per second of thinking removed, and
    whose p99 passes 50 ms when people think less than ``limit`` seconds."""
    asked: list[float] = []

    def measure(think: float) -> dict[str, Any]:
        asked.append(think)
        return {
            "think": think,
            "actions_per_second": 100 / think,
            "samples": 1000,
            "p99_ms": 10.0 if think >= limit else 500.0,
        }

    return asked, measure


def test_find_rate_brackets_the_goal_and_keeps_the_fastest_step_that_held(
    bench: ModuleType,
) -> None:
    asked, measure = made_up_server(limit=0.7)
    search = bench.find_rate(measure, start=8.0, bisections=2)
    # 8, 4, 2, 1 hold; 0.5 does not; then twice between 1 and 0.5.
    assert asked[:5] == [8.0, 4.0, 2.0, 1.0, 0.5]
    assert len(asked) == 7
    assert all(0.5 < think < 1.0 for think in asked[5:])
    assert search.best is not None
    assert search.best["think"] >= 0.7
    assert search.best["think"] == min(t for t in asked if t >= 0.7)
    assert search.best["actions_per_second"] == pytest.approx(100 / search.best["think"])


def test_find_rate_measures_a_failed_first_step_once_more(bench: ModuleType) -> None:
    stalls = iter([True])  # one stall of the machine, in the first step only
    asked: list[float] = []

    def measure(think: float) -> dict[str, Any]:
        asked.append(think)
        stalled = next(stalls, False) or think < 1.0
        return {
            "think": think,
            "actions_per_second": 100 / think,
            "samples": 500,
            "p99_ms": 300.0 if stalled else 10.0,
        }

    search = bench.find_rate(measure, start=4.0, bisections=0)
    assert asked == [4.0, 4.0, 2.0, 1.0, 0.5]
    assert search.best is not None and search.best["think"] == 1.0


def test_find_rate_stops_by_itself_when_nothing_holds(bench: ModuleType) -> None:
    asked, measure = made_up_server(limit=1000.0)
    search = bench.find_rate(measure, start=8.0)
    assert asked == [8.0, 8.0]
    assert search.best is None


def test_find_rate_stops_at_the_least_thinking_when_everything_holds(
    bench: ModuleType,
) -> None:
    asked, measure = made_up_server(limit=0.0)
    search = bench.find_rate(measure, start=1.0, least=0.1)
    assert asked == [1.0, 0.5, 0.25, 0.125]
    assert search.best is not None and search.best["think"] == 0.125


def test_percentiles_are_taken_over_every_process_sample_not_averaged(
    bench: ModuleType,
) -> None:
    def part(latencies: list[float], lag: list[float]) -> dict[str, Any]:
        return {
            "latencies": latencies,
            "lag": lag,
            "person_actions": len(latencies),
            "committed": 2 * len(latencies),
            "client_cpu": 0.1,
            "client_waiting": 0.5,
            "finished_tables": 0,
        }

    # One quiet process with 990 fast samples and one busy one with 10 slow samples:
    # over all samples the p99 is slow (1%), averaging per-process p99s would say 0.5 s.
    quiet = part([0.001] * 990, [0.002] * 100)
    busy = part([1.0] * 10, [0.3] * 100)
    figures = bench.merged([quiet, busy], 10.0, 1.0, 0.0, 0.0)
    assert figures["samples"] == 1000
    assert figures["p50_ms"] == pytest.approx(1.0)
    assert figures["p99_ms"] == pytest.approx(1000.0)
    assert figures["client_lag_p99_ms"] == pytest.approx(300.0)  # the worst process
    assert figures["actions_per_second"] == pytest.approx(200.0)
    assert figures["client_cpu_ms_per_action"] == pytest.approx(0.1)
    assert figures["client_waiting_share"] == pytest.approx(0.1)


def test_an_act_is_timed_until_the_seats_that_are_told_it_have_it(bench: ModuleType) -> None:
    """A decision held in the seat's turn in hand is told to that seat alone (the same
    version, one more decision in hand): it is timed until then. A committed one is timed
    at every seat of the table, until each has a state holding it."""
    run = bench.Run(think=1.0, base="http://nowhere", measuring=True)
    mover, other = object(), object()
    table = bench.Table("t", spectator="s", game="luxor", clients=[mover, other])

    def state(version: int, pending: int = 0) -> dict[str, Any]:
        return {"version": version, "pending": pending, "status": "playing"}

    table.pending[(5, 0)] = (time.monotonic(), id(mover))
    bench.on_state(run, table, other, state(5), 5)  # nothing new for the other seat
    assert (5, 0) in table.pending and run.latencies == []
    bench.on_state(run, table, mover, state(5, 1), 5)  # held: its own seat is told
    assert (5, 0) not in table.pending and len(run.latencies) == 1
    # The turn's next decision reveals: committed with the one held, as one version step.
    table.pending[(5, 1)] = (time.monotonic(), id(mover))
    bench.on_state(run, table, mover, state(7), 5)
    assert (5, 1) in table.pending and len(run.latencies) == 2
    bench.on_state(run, table, other, state(7), 5)
    assert table.pending == {} and table.seen == {} and len(run.latencies) == 3


def test_a_short_run_plays_in_every_client_process_and_finds_a_rate() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--connections",
            "12",
            "--db",
            "sqlite",
            "--seconds",
            "3",
            "--client-processes",
            "3",
            "--find-rate",
            "--goal-ms",
            "100000",
            "--think",
            "0.06",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    lines = completed.stdout.splitlines()
    step = next(line for line in lines if line.startswith("current   "))
    assert "12 conns" in step and "6 tables" in step and "in 3 processes" in step
    assert "client loop lag p99" in step
    assert " 0 samples" not in step and "(0 samples" not in step
    # 0.06 s holds the (lenient) goal; 0.03 s is below the least thinking tried.
    row = next(line for line in lines if line.startswith("| sqlite current | 12 | 1 |"))
    assert "none held" not in row and "0.06 s" in row
