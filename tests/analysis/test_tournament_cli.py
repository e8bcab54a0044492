"""``necropolis tournament`` end to end on the toy game: table, JSON and plot files."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from necropolis.cli.main import app
from necropolis.games import register, unregister
from tests.engine.toy import HighCard


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    register(HighCard)
    yield
    unregister(HighCard.id)


def test_tournament_command_writes_results_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", "highcard", "--bots", "heuristic,random,easy", "--games", "6"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output and "seat" in result.output
    data = json.loads(out.read_text())
    assert data["players"] == 3 and data["games"] == 6
    assert out.with_suffix(".png").exists()


def test_tournament_command_checks_bots_and_players(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "highcard", "--bots", "heuristic,oracle"])
    assert result.exit_code == 2
    out = tmp_path / "t.json"
    args = ["tournament", "highcard", "--bots", "random,heuristic", "--players", "4"]
    result = runner.invoke(app, [*args, "--games", "4", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"] == 4
    assert all(len(m["lineup"]) == 4 for m in data["matches"])


def test_checkpoints_are_rewritten_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from necropolis.analysis import tournament as module

    out = tmp_path / "t.json"
    sizes: list[int] = []
    write = module.TournamentResult.write_json

    def spy(self: module.TournamentResult, path: Path) -> None:
        sizes.append(len(self.matches))
        write(self, path)

    monkeypatch.setattr(module.TournamentResult, "write_json", spy)
    args = ["tournament", "highcard", "--bots", "random,heuristic", "-n", "8", "--checkpoint", "4"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sizes == [4, 8, 8]  # two checkpoints, then the final write
    again = module.TournamentResult.read_json(out)
    assert len(again.matches) == 8
    assert (
        again.to_json()["results"]["random"]["wins"]
        == json.loads(out.read_text())["results"]["random"]["wins"]
    )


def test_lineup_seats_one_bot_among_copies_of_another(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", "highcard", "--lineup", "heuristic,random,random", "-n", "3"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["players"] == 3 and data["bots"] == ["heuristic", "random"]
    assert [m["lineup"].count("random") for m in data["matches"]] == [2, 2, 2]


def _matches(path: Path) -> list[tuple[int, int, list[str], list[float]]]:
    data = json.loads(path.read_text())
    return [(m["index"], m["seed"], m["lineup"], m["returns"]) for m in data["matches"]]


def test_a_stopped_run_resumes_from_its_checkpoint_to_the_same_matches(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["tournament", "highcard", "--bots", "random,heuristic", "--seed", "7"]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    assert runner.invoke(app, [*args, "-n", "8", "--out", str(whole)]).exit_code == 0
    # A run stopped after a checkpoint of 3 matches (written by a shorter run)...
    assert runner.invoke(app, [*args, "-n", "3", "--out", str(part)]).exit_code == 0
    first = _matches(part)
    # ...taken up again: it keeps those 3 and plays the other 5, as an unbroken run would.
    result = runner.invoke(app, [*args, "-n", "8", "--out", str(part), "--resume"])
    assert result.exit_code == 0, result.output
    assert _matches(part)[:3] == first
    assert _matches(part) == _matches(whole)


def test_resuming_refuses_another_tournament_and_a_missing_file(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t.json"
    args = ["tournament", "highcard", "--bots", "random,heuristic"]
    result = runner.invoke(app, [*args, "-n", "4", "--out", str(out), "--resume"])
    assert result.exit_code == 2 and "nothing to resume" in result.output
    assert runner.invoke(app, [*args, "-n", "4", "--out", str(out)]).exit_code == 0
    before = out.read_text()
    for other in (["--seed", "1"], ["--bots", "random,easy"], ["-n", "2"]):
        argv = [*args, "-n", "4", *other, "--out", str(out), "--resume"]
        if other[0] == "--bots":
            argv = ["tournament", "highcard", "-n", "4", *other, "--out", str(out), "--resume"]
        result = runner.invoke(app, argv)
        assert result.exit_code == 2 and "cannot resume" in result.output, (other, result.output)
    # (the lineup random,heuristic would be the very same tournament: seatings agree)
    lineup = ["tournament", "highcard", "--lineup", "heuristic,random", "-n", "4"]
    result = runner.invoke(app, [*lineup, "--out", str(out), "--resume"])
    assert result.exit_code == 2 and "cannot resume" in result.output
    assert out.read_text() == before  # a refused resume writes nothing
    out.write_text("{}")
    result = runner.invoke(app, [*args, "-n", "4", "--out", str(out), "--resume"])
    said = " ".join(result.output.split())  # the error is wrapped to the terminal's width
    assert result.exit_code == 2 and "not a tournament's results" in said


def test_the_results_say_the_command_that_plays_them_again(tmp_path: Path) -> None:
    runner = CliRunner()
    first = tmp_path / "first.json"
    args = ["tournament", "highcard", "--lineup", "heuristic,random,random", "-n", "5"]
    result = runner.invoke(app, [*args, "--seed", "7", "--out", str(first)])
    assert result.exit_code == 0, result.output
    data = json.loads(first.read_text())
    assert data["command"] == (
        "necropolis tournament highcard --lineup heuristic,random,random -n 5"
        f" --workers 1 --seed 7 --out {first}"
    )
    # Run as it says (to another file), it plays the very same matches.
    again = tmp_path / "again.json"
    words = shlex.split(data["command"].replace(str(first), str(again)))
    assert words[:2] == ["necropolis", "tournament"]
    assert runner.invoke(app, words[1:]).exit_code == 0

    def played(path: Path) -> list[dict[str, object]]:  # (the seconds taken vary)
        matches = json.loads(path.read_text())["matches"]
        return [{k: v for k, v in m.items() if k != "decision_seconds"} for m in matches]

    assert played(again) == played(first)
