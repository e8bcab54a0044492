"""``necropolis balance``'s report of each game, as a designer reads it: in Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser
from typer.testing import CliRunner

from necropolis.cli.main import app
from necropolis.games import game_class
from tests.analysis.balance_cases import CASES, GAMES, changed_file


@pytest.mark.parametrize("game", sorted(CASES))
def test_report_of_each_game_reads_in_chromium(
    game: str, tmp_path: Path, browser: Browser, shots: Path
) -> None:
    out = tmp_path / "report"
    components = changed_file(game, tmp_path)
    args = ["balance", game, *CASES[game][1], "--components", str(components)]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "-w", "2"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    plan = summary["plan"]
    cells = summary["cells"]
    # Every cell played its matches, and the what-if compares each level and count.
    assert all(c["matches"] == plan["matches"] for c in cells)
    assert len(summary["what_if"]) == len(plan["levels"]) * len(plan["players"])
    levels = {c["level"] for c in cells}
    assert levels == set(plan["levels"])
    cls = game_class(game)
    for c in cells:
        wins = sum(s["count"] for s in c["seats"])
        assert wins == pytest.approx(c["matches"] - c["no_winner"]["count"])
        assert 0 <= c["no_advantage"]["p"] <= 1
    if game == "horus":
        # Every adventurer paired with itself on the changed file, every variant too.
        assert {(f["level"], f["feature"]) for f in summary["what_if_features"]} == {
            (level, feature) for level in levels for feature in ("adventurer", "ability")
        }
        assert len(summary["what_if_variants"]) == len(levels) * len(cls.balance_variants())
        # The adventurers and their special abilities, as the data file names them.
        features = cells[0]["features"]
        assert set(features) == {"adventurer", "ability"}
        shipped = (GAMES / "horus" / "horus.toml").read_text()
        assert all(name in shipped for name in features["adventurer"])
        assert {c["variant"] for c in cells} == {"defaults"} | {
            v.name for v in cls.balance_variants()
        }
    if game == "luxor":
        assert plan["players"] == list(range(cls.min_players, cls.max_players + 1))

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto((out / "index.html").as_uri())
        page.wait_for_load_state("load")
        heading = page.locator("h1").inner_text()
        assert heading == f"Balance of {game}"
        sections = page.locator("h2").all_inner_texts()
        assert "Seat order" in sections and "Match length" in sections
        assert "What if: the changed components" in sections
        if game == "horus":
            assert "Seat features" in sections and "Variants and options" in sections
            # The what-if of each adventurer and of each optional rule, drawn and tabled.
            what_if = page.locator("h3").all_inner_texts()
            assert what_if == [
                "Seat features on the changed file",
                "Variants and options on the changed file",
            ]
            for name in ("what_if_features.png", "what_if_variants.png"):
                assert page.locator(f'img[src="{name}"]').count() == 1
        images = page.locator("img")
        assert images.count() >= 3
        for i in range(images.count()):
            loaded = images.nth(i).evaluate("img => img.complete && img.naturalWidth > 0")
            assert loaded, images.nth(i).get_attribute("src")
        text = page.locator("body").inner_text()
        # The command that makes the page is on it, in full.
        command = page.locator("pre.command").inner_text()
        assert command.startswith(f"necropolis balance {game} ") and "--components" in command
        assert re.search(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)", text)  # shares with intervals
        page.screenshot(path=str(shots / f"balance-{game}.png"), full_page=True)
    finally:
        page.close()
