"""A throwaway local Ray cluster for the tests: one head on loopback with two CPUs.

``ray start --head --block`` runs in a session of its own, so that stopping it stops
every process Ray started for it (the GCS, the raylet, the workers, which all stay in
that session) and nothing else on the machine (``ray stop`` would stop any Ray cluster of
this user). Its object
store is kept small, its dashboard off, and its files under a short temporary directory
(Ray's unix sockets need short paths).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def ray_head(cpus: int = 2, timeout: float = 90.0) -> Iterator[str]:
    """A Ray head on 127.0.0.1 for the block; its address (``127.0.0.1:PORT``)."""
    if not RAY.is_file():
        raise RuntimeError(f"{RAY} is missing: run scripts/setup dev (it installs ray)")
    folder = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    port = _free_port()
    log = (folder / "head.log").open("w")
    head = subprocess.Popen(
        [
            str(RAY),
            "start",
            "--head",
            "--block",
            "--node-ip-address",
            "127.0.0.1",
            "--port",
            str(port),
            "--num-cpus",
            str(cpus),
            "--object-store-memory",
            str(100 * 1024 * 1024),
            "--include-dashboard",
            "false",
            "--disable-usage-stats",
            "--temp-dir",
            str(folder / "t"),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, stopped as a whole below
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
    )
    try:
        deadline = time.monotonic() + timeout
        while "Ray runtime started" not in (folder / "head.log").read_text():
            if head.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "the Ray head did not start:\n" + (folder / "head.log").read_text()[-3000:]
                )
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        _stop_group(head)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def _stop_group(head: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the head's process group, then SIGKILL to whatever is left of its
    session (Ray's workers have process groups of their own, inside the session)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGTERM)
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and _session(head.pid):
        head.poll()
        time.sleep(0.3)
    for pid in _session(head.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    head.wait(timeout=10)


def _session(sid: int) -> list[int]:
    """The live processes (zombies left out) of session ``sid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # After the command's closing parenthesis: state, ppid, pgrp, session, ...
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry.name))
    return found
