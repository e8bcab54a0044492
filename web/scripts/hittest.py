"""Click every board target where a person would, in headless Chromium, and check it picks.

jsdom (the vitest tests) does no hit testing, so a piece or a label drawn over a target
could swallow its clicks unnoticed. This script builds the preview page, opens every
fixture at a phone's width and a laptop's, checks that nothing scrolls sideways, and for
each target the board offers clicks the middle of it with the mouse; the board must report
exactly that target. Run from web/:
``../.venv/bin/python scripts/hittest.py`` (needs the dev extra's playwright and Debian's
chromium); it prints one line per fixture and exits non-zero on a miss.
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parent.parent
OUT = Path("/tmp/necropolis-boards-preview")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _first_steps(name: str) -> list[str]:
    """ "" and, when the position has a two-step decision, its first target (to test the second)."""
    fixture = json.loads((WEB / "src" / "boards" / "fixtures" / f"{name}.json").read_text())
    multi = [a["targets"][0] for a in fixture["actions"] if len(a["targets"]) > 1]
    return ["", multi[0]] if multi else [""]


def main() -> int:
    subprocess.run(
        ["npx", "vite", "build", "--config", "scripts/preview.config.ts", "--logLevel", "error"],
        cwd=WEB,
        check=True,
    )
    handler = functools.partial(_Quiet, directory=str(OUT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/scripts/preview.html"
    names = sorted(p.stem for p in (WEB / "src" / "boards" / "fixtures").glob("*.json"))
    misses = 0
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for width in (390, 800):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.on("pageerror", lambda e: print("page error:", e))
                for name in names:
                    for first in _first_steps(name):
                        url = f"{base}?f={name}&pick={first}"
                        page.goto(url)
                        # the board fits the width: no sideways scrolling, even on a phone
                        wide = page.evaluate("document.documentElement.scrollWidth")
                        if wide > width:
                            print(f"{width:4} {name}: the page is {wide} px wide")
                            misses += 1
                        sel = '[role="button"][data-target], button[data-target]'
                        targets = page.eval_on_selector_all(
                            sel, "els => els.map(e => e.getAttribute('data-target'))"
                        )
                        wrong = []
                        for target in targets:
                            page.goto(url)
                            el = page.locator(
                                f'[role="button"][data-target="{target}"], '
                                f'button[data-target="{target}"]'
                            ).first
                            el.scroll_into_view_if_needed()
                            box = el.bounding_box()
                            assert box is not None
                            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                            page.mouse.click(x, y)
                            got = page.evaluate("window.__picks")
                            if got != [target]:
                                wrong.append((target, got))
                        misses += len(wrong)
                        after = f" after {first}" if first else ""
                        missed = f"{len(wrong)} missed {wrong[:4]}"
                        print(f"{width:4} {name}{after}: {len(targets)} targets, {missed}")
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
