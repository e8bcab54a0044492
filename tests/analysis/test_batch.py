"""The batch runner under simulate and tournament: seeds, order, and workers."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.analysis.simulate import play_one, run_batch
from necropolis.games import register, unregister
from tests.engine.toy import HighCard


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    register(HighCard)
    yield
    unregister(HighCard.id)


def square(index: int, folder: str, wait_for: int | None) -> tuple[int, int, int]:
    """A job: leaves a mark that it ran, after job ``wait_for`` has left its own (if any).

    Returns its index, its square and the worker's pid.
    """
    if wait_for is not None:
        mark = Path(folder) / str(wait_for)
        deadline = time.monotonic() + 120
        while not mark.exists():
            assert time.monotonic() < deadline, f"job {wait_for} never ran"
            time.sleep(0.01)
    (Path(folder) / str(index)).touch()
    return index, index * index, os.getpid()


def test_match_i_of_a_batch_replays_alone_from_its_documented_seed() -> None:
    # docs/strength.md: match i of a run seeded s replays alone from seed s * 1_000_003 + i.
    assert match_seed(3, 5) == 3 * 1_000_003 + 5
    bots = ("random", "heuristic", "random")
    batch = list(run_batch(HighCard.id, {"players": 3}, bots, 7, seed=3, chunk=2))
    alone = [play_one(HighCard.id, {"players": 3}, bots, 3 * 1_000_003 + i) for i in range(7)]
    assert batch == alone
    assert len({r.seed for r in batch}) == 7


@pytest.mark.parametrize("chunk", [1, 3, 25])
def test_a_batch_is_the_same_in_one_process_or_two(chunk: int) -> None:
    args = (HighCard.id, {"players": 2}, ["random", "heuristic"], 11)
    alone = list(run_batch(*args, seed=9, workers=1, chunk=chunk))
    spread = list(run_batch(*args, seed=9, workers=2, chunk=chunk))
    assert spread == alone  # the same results, in the same order


def test_in_order_holds_back_what_ended_early(tmp_path: Path) -> None:
    # Job 0 ends only after job 3 has run (the first four jobs are sent at once).
    jobs = [(0, str(tmp_path), 3), *((i, str(tmp_path), None) for i in range(1, 6))]
    ordered = list(run_matches(square, jobs, workers=2, in_order=True))
    assert [r[:2] for r in ordered] == [(i, i * i) for i in range(6)]
    assert os.getpid() not in {pid for *_, pid in ordered}  # the workers played them


def test_otherwise_results_come_as_they_end(tmp_path: Path) -> None:
    # Job 0 ends only after job 5 has run, which is sent only when earlier jobs are back.
    jobs = [(0, str(tmp_path), 5), *((i, str(tmp_path), None) for i in range(1, 6))]
    streamed = list(run_matches(square, jobs, workers=2, chunk=1))
    assert sorted(r[:2] for r in streamed) == [(i, i * i) for i in range(6)]
    assert 0 not in [r[0] for r in streamed[:2]]


def test_one_worker_runs_the_jobs_here_in_order(tmp_path: Path) -> None:
    jobs = [(i, str(tmp_path), None) for i in range(4)]
    results = list(run_matches(square, jobs, workers=1, chunk=3))
    assert [r[:2] for r in results] == [(0, 0), (1, 1), (2, 4), (3, 9)]
    assert {pid for *_, pid in results} == {os.getpid()}
