"""Every target drawn on a board takes a finger on a phone, in every position of the fixtures.

A real table on a phone (tests/web/test_layout.py) reaches only the targets a short random
game reaches; horus's sarcophagi, alcoves and mummies come late. The boards' fixtures
(``web/src/boards/fixtures/*.json``, real positions dumped from the engines) hold a position
for each kind of target, so this builds the boards' preview page, draws every fixture at a
390×844 phone's width with touch, and measures each target drawn in the board's picture
that the seat may pick: at least 44 CSS px each way, the size WCAG 2.5.5 and the phone
makers' guides ask for. (The boards' HTML buttons get their finger size from the table's
own narrow-screen style, measured at a real table by test_layout.py.)
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.test_layout import FINGER, PHONE

WEB = Path(__file__).resolve().parents[2] / "web"
NAMES = sorted(p.stem for p in (WEB / "src" / "boards" / "fixtures").glob("*.json"))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The preview page built into a fresh folder and served on loopback: its address."""
    out = tmp_path_factory.mktemp("preview")
    subprocess.run(
        [*("npx", "vite", "build", "--config", "scripts/preview.config.ts"), "--outDir", str(out)],
        cwd=WEB,
        check=True,
    )
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/scripts/preview.html"
    finally:
        server.shutdown()


def test_the_fixtures_hold_every_kind_of_horus_target() -> None:
    text = "".join((WEB / "src" / "boards" / "fixtures" / f"{n}.json").read_text() for n in NAMES)
    for kind in ("sarcophagus", "alcove", "mummy", "square", "die", "card"):
        assert f'"{kind}:' in text, kind


@pytest.mark.parametrize("name", NAMES)
def test_every_target_takes_a_finger_on_a_phone(browser: Browser, preview: str, name: str) -> None:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        page.goto(f"{preview}?f={name}")
        page.wait_for_selector(".frame svg")
        targets = page.locator('svg g.pick[role="button"][data-target]')
        small = []
        for i in range(targets.count()):
            b = targets.nth(i).bounding_box()
            assert b is not None
            if b["width"] < FINGER - 0.5 or b["height"] < FINGER - 0.5:
                small.append(
                    (
                        targets.nth(i).get_attribute("data-target"),
                        round(b["width"]),
                        round(b["height"]),
                    )
                )
        assert small == [], f"{name}: targets under {FINGER} px on a phone: {small}"
    finally:
        ctx.close()
