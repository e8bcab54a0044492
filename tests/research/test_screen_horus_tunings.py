"""research/screen_horus_tunings.py: the levels' tuning, played by the screen, replays the
recorded strategy alone match for match (so a tuning's paired difference is its own), a
changed tuning plays other matches on the same deals, a field the strategy lacks is
refused before anything is played, and with more players the tuning sits among heuristic
bots in every seating."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from types import ModuleType

import pytest

from necropolis.analysis.duel import Contender, DuelRun, paired, play_lineup
from necropolis.bots.levels import BlunderingBot
from tests.scripts import RESEARCH, load_script


@pytest.fixture(scope="module")
def screen() -> ModuleType:
    return load_script("screen_horus_tunings", RESEARCH)


def _strategy_alone() -> BlunderingBot:
    return BlunderingBot("level-strategy", lambda game: 0.0)


def _runs(screen: ModuleType, text: str) -> tuple[DuelRun, DuelRun]:
    """The screen's run of the tuning ``text`` and the strategy alone's, on the first four
    deals of bank 1."""
    label = "tuned:" + text
    tuned = Contender(label, partial(screen.tuned, label, screen.parse_tuning(text)))
    mine = play_lineup([tuned, "heuristic"], "horus", 4, bank=1)
    alone = Contender("level-strategy", _strategy_alone)
    return mine, play_lineup([alone, "heuristic"], "horus", 4, bank=1)


def test_the_levels_tuning_replays_the_strategy_alone(screen: ModuleType) -> None:
    mine, record = _runs(screen, "levels")
    assert [(m.returns, m.scores, m.actions) for m in mine.matches] == [
        (m.returns, m.scores, m.actions) for m in record.matches
    ]
    assert paired(mine, record)["difference"] == 0.0


def test_a_changed_tuning_plays_the_same_deals_otherwise(screen: ModuleType) -> None:
    bold = screen.parse_tuning("risk_weight=0.2,stay_cost=0.999")
    assert bold.risk_weight == 0.2 and not bold.rivals_shut_in  # over the levels' tuning
    mine, record = _runs(screen, "risk_weight=0.2,stay_cost=0.999")
    assert [m.actions for m in mine.matches] != [m.actions for m in record.matches]


def test_an_unknown_field_is_refused_before_play(
    screen: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        screen.main(["--folder", str(tmp_path), "courage=3"])
    assert "courage=3" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_more_players_seat_the_tuning_among_heuristics_and_pair_only_alike_runs(
    screen: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Three players: the tuning and two heuristic bots, each deal in its three seatings,
    # in a file of its own; the two-player reference is not paired with it.
    args = ["--deals", "1", "--players", "3", "--workers", "1", "--nice", "0"]
    assert screen.main([*args, "--folder", str(tmp_path), "levels"]) == 0
    (path,) = tmp_path.iterdir()
    assert path.name == "horus-bank1-3p-levels.jsonl"
    run = DuelRun.read(path)
    assert run.lineup == ["tuned:levels", "heuristic", "heuristic"]
    assert sorted(m.seating for m in run.matches) == [0, 1, 2]
    assert "--players 3 levels" in str(run.command)
    assert "paired" not in capsys.readouterr().out
    # the shared gain makes the three-player levels play otherwise than the unshared
    assert screen.main([*args, "--folder", str(tmp_path), "rival_gain_sharing=0"]) == 0
    unshared = DuelRun.read(tmp_path / "horus-bank1-3p-rival_gain_sharing=0.jsonl")
    assert [m.actions for m in unshared.matches] != [m.actions for m in run.matches]
