"""The one runner of many seeded matches, in this process or in a pool of workers.

``necropolis simulate`` and ``necropolis tournament`` both play a batch this way. Match
``i`` of a batch seeded ``s`` uses seed ``s * 1_000_003 + i``, so that any single match
can be replayed alone and spreading the batch over processes changes nothing. A job is
the arguments of one match (names and numbers only, so it crosses process boundaries);
the runner calls a module-level function on each, in order in this process with one
worker, otherwise in a pool fed through a bounded queue, so that results stream back
while later jobs wait and one slow match does not hold up the others.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

Result = TypeVar("Result")
Job = tuple[Any, ...]


def match_seed(batch_seed: int, index: int) -> int:
    """The seed of match ``index`` of a batch seeded ``batch_seed``."""
    return batch_seed * 1_000_003 + index


def _play_chunk(play: Callable[..., Result], jobs: list[Job]) -> list[Result]:
    return [play(*job) for job in jobs]


def run_matches(
    play: Callable[..., Result],
    jobs: Iterable[Job],
    workers: int = 1,
    chunk: int = 1,
    in_order: bool = False,
) -> Iterator[Result]:
    """Yield ``play(*job)`` for every job.

    With one worker the jobs run here, in order. With more, each task sent to the pool
    is ``chunk`` consecutive jobs (many quick matches share one round trip), at most
    two tasks per worker are waiting at a time, and results come back as their tasks
    finish, or in the jobs' order when ``in_order`` is set. ``play`` must be a
    module-level function, so that the workers can find it.
    """
    if workers <= 1:
        for job in jobs:
            yield play(*job)
        return
    queue = iter(jobs)

    def next_chunk() -> list[Job]:
        return list(itertools.islice(queue, chunk))

    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[Result]]] = deque()

        def submit() -> None:
            jobs_now = next_chunk()
            if jobs_now:
                pending.append(pool.submit(_play_chunk, play, jobs_now))

        for _ in range(2 * workers):
            submit()
        while pending:
            if in_order:
                finished = [pending.popleft()]
            else:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                finished = [f for f in pending if f in done]  # in submission order
                for future in finished:
                    pending.remove(future)
            for future in finished:
                yield from future.result()
                submit()
