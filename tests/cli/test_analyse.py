"""``necropolis analyse`` driven as a person types it: a finished match explained, its
JSON form for programs, and clear refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from necropolis.bots import make_bot
from necropolis.cli.main import app
from necropolis.engine.driver import play_match
from necropolis.games import load_game

runner = CliRunner()


def _saved(tmp_path: Path, finished: bool = True) -> Path:
    game = load_game("luxor2001", players=2)
    _, record = play_match(game, [make_bot("easy"), make_bot("random")], seed=21)
    if not finished:
        record.actions = record.actions[:30]
    return record.save(tmp_path / "match.json")


def test_a_finished_match_is_explained_seat_by_seat(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    result = runner.invoke(app, ["analyse", str(path), "--worlds", "4"])
    assert result.exit_code == 0, result.output
    out = result.output
    for heading in ("start", "result", "decisions", "luck", "accuracy"):
        assert heading in out
    assert "Player 1 (easy)" in out and "Player 2 (random)" in out
    assert out.count("key moment") == 6


def test_json_holds_every_moment_and_decision(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    result = runner.invoke(app, ["analyse", str(path), "--json", "--worlds", "4", "--seat", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "necropolis-analysis" and data["depth"]["worlds"] == 4
    record = json.loads(path.read_text())
    assert len(data["chances"]) == len(record["actions"]) + 1
    assert [s["seat"] for s in data["seats"]] == [1]
    assert data["decisions"] and {d["seat"] for d in data["decisions"]} == {1}
    assert set(data["marks"]) == {"inaccuracy", "mistake", "blunder"}


def test_an_unfinished_match_or_a_wrong_seat_is_refused(tmp_path: Path) -> None:
    path = _saved(tmp_path, finished=False)
    result = runner.invoke(app, ["analyse", str(path)])
    assert result.exit_code == 2
    assert "only a finished match is analysed" in result.output
    done = _saved(tmp_path)
    result = runner.invoke(app, ["analyse", str(done), "--seat", "3"])
    assert result.exit_code == 2 and "--seat must be 1 to 2" in result.output
    (tmp_path / "junk.json").write_text("{")
    result = runner.invoke(app, ["analyse", str(tmp_path / "junk.json")])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_the_figures_script_times_a_match(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "analysis_figures.py"
    done = subprocess.run(
        [sys.executable, str(script), "time", "-n", "1", "--worlds", "2", "--game", "luxor2001"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("luxor2001")]
    assert [row[1] for row in rows] == ["2", "4"]
    bad = subprocess.run(
        [sys.executable, str(script), "noise", "--worlds", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "at least one world" in bad.stderr
