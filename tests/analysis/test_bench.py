"""The benchmark runs with tiny budgets and reports every figure it promises.

Figures are printed, never judged: these tests check the shape of the report (and that
every rate is a positive number), not how fast anything is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

import necropolis
from necropolis.analysis.bench import run_bench
from necropolis.cli.main import app
from necropolis.games import game_class, register, unregister
from tests.engine.toy import HighCard

FIGURES = {
    "steps_per_s",
    "clones_per_s",
    "resamples_per_s",
    "mcts_iterations_per_s",
    "mcts_cutoff_iterations_per_s",
    "steps_ratio",
    "clones_ratio",
    "spiel_clones_per_s",
    "spiel_clones_ratio",
}


@pytest.fixture
def toy_game() -> Iterator[None]:
    register(HighCard)
    yield
    unregister(HighCard.id)


@pytest.mark.usefixtures("toy_game")
def test_bench_json_has_the_reference_and_every_figure() -> None:
    result = CliRunner().invoke(app, ["bench", "--game", "highcard", "--seconds", "0.01", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["reference"]["steps_per_s"] > 0 and data["reference"]["clones_per_s"] > 0
    counts = data["games"]["highcard"]["players"]
    assert set(counts) == {"2", "3", "4"}
    for figures in counts.values():
        assert set(figures) == FIGURES and all(v > 0 for v in figures.values())


def test_bench_covers_every_installed_game_and_player_count() -> None:
    data = run_bench(seconds=0.002)
    assert set(data["games"]) == set(necropolis.games())
    for game_id, entry in data["games"].items():
        cls = game_class(game_id)
        expected = {str(n) for n in range(cls.min_players, cls.max_players + 1)}
        assert set(entry["players"]) == expected
        for figures in entry["players"].values():
            assert set(figures) == FIGURES


@pytest.mark.usefixtures("toy_game")
def test_bench_table_and_unknown_game() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "--game", "highcard", "--seconds", "0.01"])
    assert result.exit_code == 0 and "highcard" in result.output and "backgammon" in result.output
    result = runner.invoke(app, ["bench", "--game", "chess"])
    assert result.exit_code == 2


@pytest.mark.usefixtures("toy_game")
def test_bench_by_cpu_time_reports_the_same_figures_and_says_so() -> None:
    runner = CliRunner()
    args = ["bench", "--game", "highcard", "--seconds", "0.01", "--clock", "cpu"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["clock"] == "cpu"
    for figures in data["games"]["highcard"]["players"].values():
        assert set(figures) == FIGURES and all(v > 0 for v in figures.values())
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "CPU time" in result.output
    result = runner.invoke(app, ["bench", "--game", "highcard", "--clock", "sundial"])
    assert result.exit_code == 2 and "sundial" in result.output
