"""The one runner of many seeded matches: in this process, a pool of workers, or on Ray.

``necropolis simulate``, ``tournament`` and ``balance`` all play their batches this way.
Match ``i`` of a batch seeded ``s`` uses seed ``s * 1_000_003 + i``, so that any single
match can be replayed alone and spreading the batch over processes or machines changes
nothing. A job is the arguments of one match (names and numbers only, so it crosses
process boundaries); the runner calls a module-level function on each, in order in this
process with one worker, otherwise in a pool fed through a bounded queue, so that results
stream back while later jobs wait and one slow match does not hold up the others.

With a Ray address the same jobs go to the tasks of a Ray cluster instead (``ray start
--head`` on one machine, ``ray start --address`` on the others, each with necropolis
installed); Ray is imported only then. ``env`` gives environment variables the workers
must start with (a changed component data file, see :mod:`necropolis.engine.balance`):
such jobs always run in fresh processes, never in this one.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar

Result = TypeVar("Result")
Job = tuple[Any, ...]


def match_seed(batch_seed: int, index: int) -> int:
    """The seed of match ``index`` of a batch seeded ``batch_seed``."""
    return batch_seed * 1_000_003 + index


def _play_chunk(play: Callable[..., Result], jobs: list[Job]) -> list[Result]:
    return [play(*job) for job in jobs]


def _start_worker(env: Mapping[str, str]) -> None:
    # Ctrl-C reaches every process of the terminal's group: only the parent handles it
    # (it stops the pool), so the workers do not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.update(env)


def run_matches(
    play: Callable[..., Result],
    jobs: Iterable[Job],
    workers: int = 1,
    chunk: int = 1,
    in_order: bool = False,
    ray_address: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[Result]:
    """Yield ``play(*job)`` for every job.

    With one worker (and no ``env``) the jobs run here, in order. With more, each task
    sent to the pool is ``chunk`` consecutive jobs (many quick matches share one round
    trip), at most two tasks per worker are waiting at a time, and results come back as
    their tasks finish, or in the jobs' order when ``in_order`` is set. With
    ``ray_address`` (an address, or ``auto``) the tasks go to that Ray cluster, two per
    CPU it has waiting at a time, and ``workers`` is not used; the caller connects first
    (:func:`ray_session`). ``play`` must be a module-level function, so that the workers
    can find it.
    """
    queue = iter(jobs)

    def next_chunk() -> list[Job]:
        return list(itertools.islice(queue, chunk))

    if ray_address is not None:
        yield from _ray_matches(play, next_chunk, in_order, env or {})
        return
    if workers <= 1 and not env:
        for job in queue:
            yield play(*job)
        return
    # A changed data file needs processes that import the games afresh: spawned ones.
    context = multiprocessing.get_context("spawn") if env else None
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(env or {},)
    )
    finished_cleanly = False
    try:
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
        finished_cleanly = True
    finally:
        if finished_cleanly:
            pool.shutdown()
        else:
            # Stopped (Ctrl-C, an error, a consumer that stopped reading): do not wait for
            # matches still being played; their results would be thrown away anyway.
            # (The pool forgets its processes on shutdown: take them first.)
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()


def _ray_matches(
    play: Callable[..., Result],
    next_chunk: Callable[[], list[Job]],
    in_order: bool,
    env: Mapping[str, str],
) -> Iterator[Result]:
    import ray

    task: Any = ray.remote(num_cpus=1)(_play_chunk)
    if env:
        # Ray keeps workers with another environment apart from the plain ones.
        task = task.options(runtime_env={"env_vars": dict(env)})
    capacity = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    pending: deque[Any] = deque()

    def submit() -> None:
        jobs_now = next_chunk()
        if jobs_now:
            pending.append(task.remote(play, jobs_now))

    try:
        for _ in range(2 * capacity):
            submit()
        while pending:
            if in_order:
                finished = [pending.popleft()]
            else:
                done, _ = ray.wait(list(pending), num_returns=1)
                finished = [ref for ref in pending if ref in done]
                for ref in finished:
                    pending.remove(ref)
            for ref in finished:
                yield from ray.get(ref)
                submit()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


@contextmanager
def ray_session(address: str | None) -> Iterator[None]:
    """Connected to the Ray cluster at ``address`` (``auto``: the one this machine is in)
    for the block; nothing at all when ``address`` is None."""
    if address is None:
        yield
        return
    try:
        import ray
    except ImportError:
        raise RayMissingError(
            "--ray needs Ray, which is not installed: pip install 'necropolis[ray]'"
        ) from None
    ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield
    finally:
        ray.shutdown()


class RayMissingError(RuntimeError):
    """Ray was asked for but is not installed."""
