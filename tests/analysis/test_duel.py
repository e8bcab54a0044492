"""The strength harness: duplicate deals repeat their chance in every seating, runs resume
and replay whatever the workers, and the figures are what the matches say."""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import necropolis
from necropolis.analysis.duel import (
    Contender,
    DuelMatch,
    DuelRun,
    DuplicateChance,
    ResumeMismatchError,
    UnpairedRunsError,
    compare,
    contender,
    deal_seed,
    paired,
    play_lineup,
    seatings,
)
from necropolis.bots import RandomBot
from necropolis.cli.main import app
from necropolis.engine import SeatWindow, State
from necropolis.engine.driver import play_match, sample_chance
from necropolis.games import game_class, load_game, register, unregister
from tests.engine.toy import HighCard


@pytest.fixture
def toy_game() -> Iterator[None]:
    register(HighCard)
    yield
    unregister(HighCard.id)


class _Recorder:
    """The chance of a deal, noting each draw: its kind, its distribution, its outcome,
    and whether any seat had decided anything yet."""

    def __init__(self, bank: int, deal: int) -> None:
        self.chance = DuplicateChance(bank, deal)
        self.draws: dict[str, list[tuple[tuple[tuple[int, float], ...], int]]] = defaultdict(list)
        self.before_any_decision: list[tuple[str, int]] = []
        self.decided = False

    def __call__(self, state: State) -> int:
        outcome = self.chance(state)
        kind = state.chance_kind()
        self.draws[kind].append((tuple(state.chance_outcomes()), outcome))
        if not self.decided:
            self.before_any_decision.append((kind, outcome))
        return outcome


class _Noting:
    """A bot that tells the recorder when the first decision is made."""

    def __init__(self, bot: Any, recorder: _Recorder) -> None:
        self.bot, self.recorder, self.name = bot, recorder, bot.name

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        self.recorder.decided = True
        return int(self.bot.choose(window, rng))


def _play_seatings(game_id: str, players: int, deal: int) -> list[tuple[_Recorder, list[int]]]:
    game = load_game(game_id, players=players)
    lineup = [contender("heuristic"), *[contender("random")] * (players - 1)]
    played = []
    for seated in seatings(lineup)[:2]:
        recorder = _Recorder(5, deal)
        bots = [_Noting(c.factory(), recorder) for c in seated]
        _, record = play_match(game, bots, seed=deal_seed(5, deal), chance=recorder)
        played.append((recorder, record.actions))
    return played


def _configurations() -> list[Any]:
    return [
        pytest.param(game_id, players, id=f"{game_id}-{players}")
        for game_id in necropolis.games()
        for players in sorted({2, game_class(game_id).max_players})
    ]


@pytest.mark.parametrize(("game_id", "players"), _configurations())
def test_both_seatings_of_a_deal_draw_the_same_chance(game_id: str, players: int) -> None:
    (first, first_actions), (second, second_actions) = _play_seatings(game_id, players, 3)
    assert first_actions != second_actions, "the bots swapped seats: the matches must differ"
    # The initial deal (everything chance settles before anyone decides) is the same.
    assert first.before_any_decision == second.before_any_decision
    assert first.draws.keys() & second.draws.keys(), "the seatings share kinds of chance"
    repeated = compared = 0
    for kind in first.draws.keys() & second.draws.keys():
        mine, theirs = first.draws[kind], second.draws[kind]
        for (distribution, outcome), (other_distribution, other) in zip(mine, theirs, strict=False):
            compared += 1
            repeated += outcome == other
            if distribution == other_distribution:
                # The same node of the same kind, as far as the game lets them be the same.
                assert outcome == other, f"{kind}: the same draw came out differently"
    # Most draws repeat: decks and dice are not merely alike at the start.
    assert repeated >= 0.6 * compared, f"{repeated} of {compared} draws repeated"


@pytest.mark.parametrize("game_id", necropolis.games())
def test_another_deal_draws_other_chance(game_id: str) -> None:
    (one, _), _ = _play_seatings(game_id, 2, 3)
    (other, _), _ = _play_seatings(game_id, 2, 4)
    assert one.draws != other.draws


def test_a_stream_is_fixed_by_its_bank_deal_and_kind(toy_game: None) -> None:
    game = load_game("highcard", players=3)
    state = game.new_initial_state()
    first = DuplicateChance(1, 2)
    dealt = [first(state) for _ in range(20)]
    again = DuplicateChance(1, 2)
    assert [again(state) for _ in range(20)] == dealt  # a fresh deal replays
    other_bank = DuplicateChance(2, 2)
    assert [other_bank(state) for _ in range(20)] != dealt
    # The inverse of the distribution: an outcome is drawn as often as it is likely.
    chance = DuplicateChance(7, 7)
    counts: dict[int, int] = defaultdict(int)
    for _ in range(8000):
        counts[chance(state)] += 1
    assert counts.keys() == {1, 2, 3, 4}
    assert all(abs(c / 8000 - 0.25) < 0.02 for c in counts.values())


def test_a_kind_of_chance_names_its_stream_in_the_games_words() -> None:
    for game_id in necropolis.games():
        game = load_game(game_id, players=2)
        state = game.new_initial_state()
        rng = random.Random(0)
        kinds = set()
        while not state.is_terminal() and len(kinds) < 3:
            if state.is_chance_node():
                kinds.add(state.chance_kind())
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert kinds and "chance" not in kinds, f"{game_id} names its kinds of chance"


_TIMES = ("thinking", "cpu_seconds_per_match")


def test_runs_give_the_same_matches_whatever_the_workers(toy_game: None) -> None:
    alone = compare("heuristic", "random", "highcard", deals=12, bank=3)
    pooled = compare("heuristic", "random", "highcard", deals=12, bank=3, workers=2)
    assert alone.matches == pooled.matches and len(alone.matches) == 24

    def measured(run: DuelRun) -> dict[str, Any]:  # the CPU each took differs, nothing else
        return {k: v for k, v in run.figures().items() if k not in _TIMES}

    assert measured(alone) == measured(pooled)
    assert [m.key for m in alone.matches] == [(d, s) for d in range(12) for s in range(2)]
    assert {m.lineup for m in alone.matches} == {("heuristic", "random"), ("random", "heuristic")}


def test_a_stopped_run_resumes_from_its_file_and_extends(toy_game: None, tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    whole = compare("heuristic", "random", "highcard", deals=8, bank=4)
    compare("heuristic", "random", "highcard", deals=3, bank=4, out=out)
    # A stop in the middle of writing a line leaves half a line: it is played again.
    with out.open("a") as sink:
        sink.write('{"deal":3,"seat')
    with pytest.raises(FileExistsError):
        compare("heuristic", "random", "highcard", deals=8, bank=4, out=out)
    played: list[DuelMatch] = []
    resumed = compare(
        "heuristic", "random", "highcard", deals=8, bank=4, out=out, resume=True,
        on_match=played.append,
    )  # fmt: skip
    assert len(played) == 10 and resumed.matches == whole.matches
    assert DuelRun.read(out).matches == whole.matches and DuelRun.read(out).deals == 8
    with pytest.raises(ResumeMismatchError, match="lineup"):
        compare("heuristic", "easy", "highcard", deals=8, bank=4, out=out, resume=True)
    with pytest.raises(ResumeMismatchError, match="bank"):
        compare("heuristic", "random", "highcard", deals=8, bank=5, out=out, resume=True)
    with pytest.raises(ResumeMismatchError, match="played 8 deals"):
        compare("heuristic", "random", "highcard", deals=5, bank=4, out=out, resume=True)
    assert DuelRun.read(out).matches == whole.matches, "a refused resume loses nothing"


def test_more_players_seat_the_candidate_everywhere(toy_game: None) -> None:
    run = compare("heuristic", "random", "highcard", deals=2, bank=1, players=3)
    assert run.lineup == ["heuristic", "random", "random"]
    assert sorted(m.lineup.index("heuristic") for m in run.matches) == [0, 0, 1, 1, 2, 2]
    figure = run.figures()
    assert figure["players"] == 3 and figure["fair_share"] == pytest.approx(1 / 3, abs=1e-4)


def _run(lineup: list[str], outcomes: list[tuple[int, int, tuple[float, ...]]]) -> DuelRun:
    """A run from (deal, seating, returns); scores are the returns times ten."""
    run = DuelRun("luxor", {"players": len(lineup)}, lineup, 9, 1 + max(d for d, _, _ in outcomes))
    turned = seatings(lineup)
    for deal, seating, returns in outcomes:
        scores = tuple(10.0 * r for r in returns)
        thinking = tuple((2, 0.5, 0.3) for _ in returns)
        run.matches.append(DuelMatch(deal, seating, turned[seating], returns, scores, 80, thinking))
    return run


def test_the_figures_count_nobody_out_half_and_take_deals_as_the_units() -> None:
    # Four deals: A wins both plays of deal 0, splits deals 1 and 2, and in deal 3 wins
    # once and once nobody gets out. Deal 4 was played in one seating only: not counted.
    outcomes = [
        (0, 0, (1.0, 0.0)),
        (0, 1, (0.0, 1.0)),  # seating 1 seats B first: A won again
        (1, 0, (1.0, 0.0)),
        (1, 1, (1.0, 0.0)),
        (2, 0, (0.0, 1.0)),
        (2, 1, (0.0, 1.0)),
        (3, 0, (1.0, 0.0)),
        (3, 1, (0.0, 0.0)),
        (4, 0, (1.0, 0.0)),
    ]
    figure = _run(["A", "B"], outcomes).figures()
    assert (figure["deals"], figure["matches"], figure["nobody_out"]) == (4, 8, 1)
    deal_means = [1.0, 0.5, 0.5, 0.75]
    assert figure["wins"] == 5.5 and figure["score_share"] == pytest.approx(0.6875)
    half = 1.959963984540054 * 0.2393567 / 2  # the deals' standard deviation over root 4
    assert figure["ci95"] == pytest.approx([0.6875 - half, 0.6875 + half], abs=1e-4)
    assert sum(deal_means) / 4 == 0.6875
    assert figure["head_to_head"] == figure["score_share"]  # two players: the same thing
    assert figure["elo"] == pytest.approx(400 * math.log10(0.6875 / 0.3125), abs=0.1)
    low, high = figure["elo_ci95"]
    assert low < figure["elo"] < high
    assert figure["score_margin"]["mean"] == pytest.approx(10 * (5 - 2) / 8, abs=0.01)
    assert figure["by_seating"] == [
        {"seating": 0, "seat": 0, "score_share": 0.75},
        {"seating": 1, "seat": 1, "score_share": 0.625},
    ]
    assert figure["thinking"]["A"]["cpu_seconds_per_decision"] == 0.25
    b = _run(["A", "B"], outcomes).figures("B")
    assert b["score_share"] == pytest.approx(1 - 0.6875)


def test_the_paired_difference_is_taken_deal_by_deal() -> None:
    before = _run(
        ["old", "B"],
        [(d, s, (1.0, 0.0) if (d + s) % 3 == 0 else (0.0, 1.0)) for d in range(6) for s in (0, 1)],
    )
    # The new bot wins, on every deal, exactly the plays the old one won, and one more on
    # deals 0 and 3: a gain of a quarter on a third of the deals, with no noise elsewhere.
    after_outcomes = []
    for deal in range(6):
        for seating in (0, 1):
            old_won = (deal + seating) % 3 == 0
            won = old_won or (deal % 3 == 0)
            seat = seating  # where the candidate sits: seating 1 turns it to seat 1
            returns = tuple(1.0 if (k == seat) == won else 0.0 for k in (0, 1))
            after_outcomes.append((deal, seating, returns))
    after = _run(["new", "B"], after_outcomes)
    pair = paired(after, before)
    assert (pair["bot"], pair["previous_bot"], pair["deals"]) == ("new", "old", 6)
    assert pair["difference"] == pytest.approx(
        after.figures()["score_share"] - before.figures()["score_share"]
    )
    assert pair["ci95"][0] < pair["difference"] < pair["ci95"][1]
    with pytest.raises(UnpairedRunsError, match="bank"):
        other = _run(["new", "B"], after_outcomes)
        other.bank = 10
        paired(other, before)
    with pytest.raises(UnpairedRunsError, match="opponents"):
        paired(_run(["new", "C"], after_outcomes), before)


def test_contenders_are_the_registrys_the_research_ones_or_a_factory() -> None:
    assert contender("hard").name == "hard"
    assert contender("oracle").factory().name == "oracle"
    made = contender("necropolis.bots:RandomBot")
    assert isinstance(made.factory(), RandomBot)
    given = Contender("mine", RandomBot)
    assert contender(given) is given
    for bad in ("nobody", "necropolis.bots:Nobody", "no.such.module:bot"):
        with pytest.raises(ValueError, match="bot"):
            contender(bad)


def test_a_lineup_is_checked_before_anything_is_played(toy_game: None) -> None:
    with pytest.raises(ValueError, match="seats"):
        play_lineup(["heuristic", "random", "random"], "highcard", 2, options={"players": 2})
    with pytest.raises(ValueError, match="two different bots"):
        play_lineup(["random", "random"], "highcard", 2)


def test_the_command_plays_reports_resumes_and_pairs(toy_game: None, tmp_path: Path) -> None:
    runner = CliRunner()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ["strength", "play", "highcard", "heuristic", "random", "--deals", "6", "--bank", "2"]
    result = runner.invoke(app, [*args, "--out", str(first)])
    assert result.exit_code == 0, result.output
    assert "score share" in result.output and "Elo difference" in result.output
    header = json.loads(first.read_text().splitlines()[0])
    assert header["command"] == (
        "necropolis strength play highcard --lineup heuristic,random --deals 6 --bank 2 "
        f"--out {first}"
    )
    again = runner.invoke(app, [*args, "--out", str(first)])
    assert again.exit_code == 2 and "exists" in again.output
    other = ["strength", "play", "highcard", "easy", "random", "--deals", "6", "--bank", "2"]
    result = runner.invoke(
        app, [*other, "--out", str(second), "--against-previous", str(first), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["figures"]["matches"] == 12 and data["paired"]["deals"] == 6
    assert data["paired"]["previous_bot"] == "heuristic"
    report = runner.invoke(app, ["strength", "report", str(second), "--bot", "random"])
    assert report.exit_code == 0 and "random against easy" in report.output
    started = tmp_path / "started.jsonl"
    lines = first.read_text().splitlines()
    started.write_text("\n".join(lines[:2]) + "\n")  # the header and one match
    early = runner.invoke(app, ["strength", "report", str(started)])
    assert early.exit_code == 0 and "No deal played in every seating yet" in early.output
    unknown = runner.invoke(app, ["strength", "play", "highcard", "heuristic", "nobody"])
    assert unknown.exit_code == 2 and "no bot called" in unknown.output
