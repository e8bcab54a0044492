"""``necropolis tournament`` end to end on the toy game: table, JSON and plot files."""

from __future__ import annotations

import json
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
