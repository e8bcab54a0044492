"""The necropolis command, driven as a person would type it (on the toy game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from necropolis import load_match
from necropolis.cli.main import app
from necropolis.engine import MatchRecord
from necropolis.games import load_game

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("toy_registry")


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


def test_games_lists_options() -> None:
    code, out = run("games")
    assert code == 0
    assert "highcard" in out and "redraws=True" in out


def test_play_human_against_bot_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    # garbage, a number out of range, an ambiguous-free text, then keep by number
    code, out = run(
        "play",
        "highcard",
        "--seats",
        "human,random",
        "--seed",
        "3",
        "--save",
        str(path),
        input="what\n9\nhelp\n1\n",
    )
    assert code == 0, out
    assert "No choice matches 'what'" in out
    assert "There is no choice 9: choose 1 to 2." in out
    assert "Type the number of a choice" in out
    assert "Scores" in out and "how the points were made" in out
    record = load_match(path)
    assert record.final_state(load_game).is_terminal()
    assert record.seats == ["human", "random"] and record.seed == 3


def test_action_by_text_and_save_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    code, out = run(
        "play",
        "highcard",
        "--seats",
        "random,human",
        "--seed",
        "4",
        "--save",
        str(path),
        input="save\nquit\n",
    )
    assert code == 0, out
    assert f"Resume with: necropolis play --resume {path}" in out
    saved = MatchRecord.load(path)
    assert not saved.final_state(load_game).is_terminal()
    code, out = run("play", "--resume", str(path), input="RE\n")  # a unique part of "redraw"
    assert code == 0, out
    finished = MatchRecord.load(path)
    assert finished.final_state(load_game).is_terminal()
    assert finished.actions[: len(saved.actions)] == saved.actions


def test_end_of_input_saves_instead_of_crashing(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    code, out = run("play", "highcard", "--seats", "human,human", "--save", str(path), input="")
    assert code == 0
    assert "Traceback" not in out
    assert path.exists()


def test_hot_seat_asks_to_pass_the_screen(tmp_path: Path) -> None:
    code, out = run(
        "play",
        "highcard",
        "--seats",
        "human,human",
        "--seed",
        "1",
        "--save",
        str(tmp_path / "m.json"),
        input="\n1\n\n1\n",
    )
    assert code == 0, out
    assert out.count("Pass the screen") == 2


@pytest.mark.parametrize(
    ("args", "seats"),
    [
        (("--seats", "human"), ["human", "easy"]),  # too few: the game's default count
        (("--seats", "random,human"), ["random", "human"]),  # enough: as given
        (("-o", "players=3"), ["human", "easy", "easy"]),
        (("--seats", "human,random", "-o", "players=4"), ["human", "random", "easy", "easy"]),
    ],
)
def test_seats_left_out_are_filled_with_the_default_bot(
    tmp_path: Path, args: tuple[str, ...], seats: list[str]
) -> None:
    path = tmp_path / "m.json"
    code, out = run("play", "highcard", *args, "--save", str(path), input="quit\n")
    assert code == 0, out
    assert MatchRecord.load(path).seats == seats


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("play", "chess"), "no game called 'chess'"),
        (("play", "highcard", "--seats", "human,wizard"), "unknown seat 'wizard'"),
        (("play", "highcard", "--seats", "human,random,random", "-o", "players=2"), "names 3"),
        (("play", "highcard", "-o", "players=many"), "whole number"),
        (("play", "highcard", "-o", "colour=red"), "no option 'colour'"),
        (("play", "highcard", "-o", "redraws"), "name=value"),
        (("play", "highcard", "--seats", "human", "-o", "players=1"), "players"),
        (("replay", "/nonexistent.json"), "cannot read"),
        (("simulate", "highcard", "--bots", "random,random,random"), "3 bots for 2 players"),
    ],
)
def test_bad_input_gets_a_clear_error(args: tuple[str, ...], message: str) -> None:
    code, out = run(*args)
    assert code == 2
    assert message in out
    assert "Traceback" not in out


def test_replay_all_and_reveal(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    run("play", "highcard", "--seats", "random,random", "--seed", "8", "--save", str(path))
    code, out = run("replay", str(path), "--all")
    assert code == 0, out
    assert "A hidden chance event" in out and "Scores" in out
    code, out = run("replay", str(path), "--all", "--reveal")
    assert code == 0 and "Card 4" in out


def test_simulate_summarises(tmp_path: Path) -> None:
    code, out = run("simulate", "highcard", "-n", "30", "--players", "3", "--seed", "1", "--json")
    assert code == 0, out
    summary = json.loads(out)
    assert summary["matches"] == 30
    assert sum(seat["wins"] for seat in summary["seats"]) == pytest.approx(30)
    assert summary["actions"]["min"] >= 6
    code, out = run("simulate", "highcard", "-n", "10")
    assert code == 0 and "10 matches" in out and "win %" in out


@pytest.mark.parametrize("command", ["play", "replay"])
def test_a_record_naming_an_unknown_bot_is_a_bad_record(tmp_path: Path, command: str) -> None:
    path = tmp_path / "m.json"
    run("play", "highcard", "--seats", "random,random", "--seed", "8", "--save", str(path))
    data = json.loads(path.read_text())
    data["seats"][1] = "grandmaster"
    path.write_text(json.dumps(data))
    args = ("play", "--resume", str(path)) if command == "play" else ("replay", str(path), "--all")
    code, out = run(*args)
    assert code == 2, out
    assert "Traceback" not in out and "ValueError" not in out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and "grandmaster" in lines[0], out
