"""Fixtures of the browser tests: the built page, a real server, a real headless Chromium.

The page must be built into the package (``scripts/setup`` does it; so does this file
when Node is there and the build is missing). The server is ``necropolis serve`` in a
subprocess (the server tests' harness) on a fresh SQLite file; the browser is Debian's
Chromium driven by Playwright through ``executable_path``, never a downloaded one.
Screenshots go to ``reports/screenshots/``.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.clients import Server, start_server

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "necropolis" / "server" / "static"
WEB = ROOT / "web"
SHOTS = ROOT / "reports" / "screenshots"
NODE_BIN = ROOT / ".venv" / "node" / "bin"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def _newest_source() -> float:
    files = [*(WEB / "src").rglob("*"), WEB / "index.html", WEB / "package-lock.json"]
    return max(f.stat().st_mtime for f in files if f.is_file())


def _ensure_built() -> None:
    """Build the page when it is missing, or older than its sources and npm is here.

    Test workers run in parallel: a lock file lets one of them build while the others
    wait, then find the build fresh."""
    # The Node.js scripts/setup installed into .venv when the system's is too old, first.
    env = dict(os.environ)
    if NODE_BIN.is_dir():
        env["PATH"] = f"{NODE_BIN}{os.pathsep}{env.get('PATH', '')}"
    npm = shutil.which("npm", path=env.get("PATH"))
    with (WEB / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        index = STATIC / "index.html"
        if index.is_file() and (npm is None or index.stat().st_mtime >= _newest_source()):
            return
        if npm is None:
            pytest.fail("the web page is not built and npm is missing: run scripts/setup")
        if not (WEB / "node_modules").is_dir():
            subprocess.run([npm, "ci"], cwd=WEB, check=True, env=env)
        subprocess.run([npm, "run", "build"], cwd=WEB, check=True, env=env)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session's browser tests, on its own database."""
    _ensure_built()
    db = tmp_path_factory.mktemp("web") / "tables.sqlite3"
    srv = start_server(f"sqlite:///{db}", bot_workers=1)
    try:
        yield srv
    finally:
        srv.stop()


# Playwright's synchronous API runs an event loop in the test's thread while it is open:
# kept for a whole session, it would break every later test on the same worker that calls
# asyncio.run (the server's tests). Each test opens and closes its own.
@pytest.fixture
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: scripts/setup installs Debian's chromium")
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@dataclass
class Fresh:
    """A server of the test's own, on a database the test writes its records into."""

    db_url: str
    server: Server | None = None

    def start(self) -> Server:
        self.server = start_server(self.db_url, bot_workers=1)
        return self.server


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Fresh]:
    _ensure_built()
    made = Fresh(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    yield made
    if made.server is not None:
        made.server.stop()
