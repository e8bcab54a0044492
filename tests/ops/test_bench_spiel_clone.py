"""scripts/bench_spiel_clone.py: a short real run prints a row per game with every figure.

The figures are never judged (the machine is shared); the run compares the current
adapter with itself at HEAD, which any checkout has.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHORT = ["--rounds", "1", "--seconds", "0.01", "--players", "2"]


def test_a_short_run_prints_every_games_figures() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/bench_spiel_clone.py", "--before", "HEAD", *SHORT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [
        line for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line
    ]
    header, *games = rows
    assert "pyspiel before" in header and "now × bg" in header
    assert sorted(row.split(" | ")[0].strip("| ") for row in games) == [
        "horus",
        "luxor",
        "luxor2001",
    ]
    for row in games:
        cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
        assert len(cells) == 6 and all(float(cell.replace(",", "")) > 0 for cell in cells)
