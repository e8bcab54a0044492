"""The screening scripts refuse a bad command line before they play a match: a label that
does not read, or a count out of range, exits with status 2 and says what is wrong."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.scripts import RESEARCH


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RESEARCH / f"{script}.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("script", "args", "said"),
    [
        ("tune_horus_heuristic", ["rival_gain=lots"], "rival_gain is a number, not 'lots'"),
        ("tune_horus_heuristic", ["-n", "0", "levels"], "-n/--matches is at least 1"),
        ("tune_horus_heuristic", ["-p", "7", "levels"], "-p/--players is 2 to 6"),
        ("tune_luxor_heuristic", ["nosuch=1"], "'nosuch=1' is not field=value"),
        ("tune_luxor_heuristic", ["-p", "5", "levels"], "-p/--players is 2 to 4 in luxor"),
        ("tune_luxor_heuristic", ["--workers", "0", "levels"], "--workers is at least 1"),
        ("screen_horus_exit", ["soon"], "'soon' is neither 'levels' nor a margin"),
        ("screen_horus_exit", ["--worlds", "0", "levels"], "--worlds is at least 1"),
    ],
)
def test_a_bad_command_line_is_refused_before_any_match(
    script: str, args: list[str], said: str
) -> None:
    done = _run(script, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert said in done.stderr
    assert done.stdout == "", "no match was played"


def test_screen_horus_exit_takes_no_player_count() -> None:
    done = _run("screen_horus_exit", "-p", "3", "levels")
    assert done.returncode == 2
    assert "unrecognized arguments: -p" in done.stderr
