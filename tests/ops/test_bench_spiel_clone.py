"""scripts/bench_spiel_clone.py: a short real run prints a row per game and version with
every figure.

The figures are never judged (the machine is shared); the run compares the current
engine and adapter with themselves at HEAD, which any checkout has.
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
    assert header.split("|")[1:-1] == [
        " game ",
        " version ",
        " engine ",
        " × bg ",
        " pyspiel ",
        " × bg ",
        " backgammon ",
    ]
    seen = [tuple(cell.strip() for cell in row.strip("|").split("|")[:2]) for row in games]
    assert sorted(seen) == [
        (game, version) for game in ("horus", "luxor", "luxor2001") for version in ("before", "now")
    ]
    for row in games:
        cells = [cell.strip() for cell in row.strip("|").split("|")][2:]
        assert len(cells) == 5
        for rate in cells[0], cells[2], cells[4]:  # "412k [398–420]"
            assert float(rate.split("k ")[0].replace(",", "")) > 0
        assert float(cells[1]) > 0 and float(cells[3]) > 0
