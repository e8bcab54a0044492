"""Tournaments: seat rotation, Wilson intervals, the Elo fit, and the files written."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from necropolis.analysis.tournament import (
    TournamentMatch,
    TournamentResult,
    bradley_terry_elo,
    lineups,
    pairwise_outcomes,
    percentile,
    run_tournament,
    wilson_interval,
)
from necropolis.games import register, unregister
from tests.engine.toy import HighCard


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[None]:
    register(HighCard)
    yield
    unregister(HighCard.id)


@pytest.mark.parametrize(("bots", "players"), [(3, 3), (2, 2), (4, 4), (4, 2), (2, 4), (3, 2)])
def test_every_block_of_matches_rotates_each_bot_through_each_seat(bots: int, players: int) -> None:
    names = [f"bot{i}" for i in range(bots)]
    cycle = lineups(names, players)
    assert all(len(lineup) == players for lineup in cycle)
    if bots >= players:
        assert len(set(cycle)) == len(cycle) == math.perm(players) * math.comb(bots, players)
    assert len(cycle) % players == 0
    for start in range(0, len(cycle), players):
        block = cycle[start : start + players]
        members = Counter(block[0])
        for seat in range(players):
            # the block is one seating turned round: each member sits here once per copy
            assert Counter(lineup[seat] for lineup in block) == members
    seat_counts = {(lineup[s], s) for lineup in cycle for s in range(players)}
    assert seat_counts == {(n, s) for n in names for s in range(players)}


def test_three_bots_three_seats_cycle_through_all_six_seatings() -> None:
    cycle = lineups(["a", "b", "c"], 3)
    assert cycle == [
        ("a", "b", "c"),
        ("b", "c", "a"),
        ("c", "a", "b"),
        ("a", "c", "b"),
        ("c", "b", "a"),
        ("b", "a", "c"),
    ]


def test_wilson_interval_matches_the_formula() -> None:
    # 8 wins in 10: the textbook interval is about (0.490, 0.943).
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(0, 20)[1] > 0.1
    assert wilson_interval(20, 20)[1] == 1.0 and wilson_interval(20, 20)[0] < 0.9
    low, high = wilson_interval(500, 1000)
    assert (low + high) / 2 == pytest.approx(0.5) and high - low == pytest.approx(0.062, abs=1e-3)


def synthetic(p_first_wins: dict[tuple[str, str], float], per_pair: int) -> list[TournamentMatch]:
    """Two-player matches with exact win shares between each pair."""
    matches = []
    for (a, b), p in p_first_wins.items():
        wins = round(p * per_pair)
        for k in range(per_pair):
            ret = (1.0, 0.0) if k < wins else (0.0, 1.0)
            matches.append(TournamentMatch(len(matches), 0, (a, b), ret, ret, 1))
    return matches


def test_bradley_terry_recovers_known_elo_gaps() -> None:
    # Strengths 9 : 3 : 1 (A beats B 75%, B beats C 75%, A beats C 90%): gaps of
    # 400·log10(3) ≈ 190.8 and 400·log10(9) ≈ 381.7 Elo points.
    matches = synthetic({("A", "B"): 0.75, ("B", "C"): 0.75, ("A", "C"): 0.9}, per_pair=4000)
    elo = bradley_terry_elo(pairwise_outcomes(matches, ["A", "B", "C"]))
    assert elo["A"] - elo["B"] == pytest.approx(400 * math.log10(3), abs=2)
    assert elo["B"] - elo["C"] == pytest.approx(400 * math.log10(3), abs=2)
    assert sum(elo.values()) / 3 == pytest.approx(1500)


def test_elo_stays_finite_for_an_unbeaten_bot_and_ties_count_half() -> None:
    matches = synthetic({("A", "B"): 1.0}, per_pair=10)
    elo = bradley_terry_elo(pairwise_outcomes(matches, ["A", "B"]))
    assert math.isfinite(elo["A"]) and elo["A"] > elo["B"]
    tie = TournamentMatch(0, 0, ("A", "B"), (0.5, 0.5), (1.0, 1.0), 1)
    table = pairwise_outcomes([tie, tie], ["A", "B"])
    assert table["A"]["B"] == [1.0, 2.0] and table["B"]["A"] == [1.0, 2.0]
    even = bradley_terry_elo(table)
    assert even["A"] == pytest.approx(even["B"])


def test_two_losers_are_ranked_by_their_scores() -> None:
    match = TournamentMatch(0, 0, ("A", "B", "C"), (1.0, 0.0, 0.0), (9.0, 3.0, 5.0), 1)
    table = pairwise_outcomes([match], ["A", "B", "C"])
    assert table["A"]["B"] == [1.0, 1.0] and table["A"]["C"] == [1.0, 1.0]
    assert table["C"]["B"] == [1.0, 1.0] and table["B"]["C"] == [0.0, 1.0]


def test_a_tournament_on_the_toy_game_writes_json_and_png(tmp_path: Path) -> None:
    result = run_tournament(HighCard.id, {"players": 2}, ["heuristic", "random"], 12, seed=4)
    assert [m.index for m in result.matches] == list(range(12))
    assert Counter(m.lineup for m in result.matches) == {
        ("heuristic", "random"): 6,
        ("random", "heuristic"): 6,
    }
    summary = result.bot_summary()
    assert summary["heuristic"]["seats_played"] == summary["random"]["seats_played"] == 12
    total = sum(row["wins"] for row in summary.values())
    assert total == pytest.approx(sum(sum(m.returns) for m in result.matches))
    path = tmp_path / "out" / "t.json"
    result.write_json(path)
    result.write_plot(path.with_suffix(".png"))
    data = json.loads(path.read_text())
    assert data["games"] == 12 and set(data["results"]) == {"heuristic", "random"}
    assert {"win_rate", "win_rate_ci95", "elo", "elo_ci95"} <= set(data["results"]["random"])
    assert len(data["seats"]) == 2 and len(data["matches"]) == 12
    assert path.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_file_is_compact_and_reads_back_whole(tmp_path: Path) -> None:
    result = run_tournament(HighCard.id, {"players": 2}, ["heuristic", "random"], 6, seed=2)
    result.matches[0] = TournamentMatch(
        0, 7, ("heuristic", "random"), (1.0, 0.0), (9, 4), 5, ((0.01234, 0.5), ())
    )
    path = tmp_path / "t.json"
    result.write_json(path)
    text = path.read_text()
    assert text.count("\n") == 1 and text.endswith("}\n")
    assert ": " not in text and ", " not in text
    assert json.loads(text) == json.loads(json.dumps(result.to_json()))
    again = TournamentResult.read_json(path)
    assert again.matches == result.matches
    assert [m.decision_seconds for m in again.matches] == [
        m.decision_seconds for m in result.matches
    ]
    assert again.bot_summary() == result.bot_summary()


def test_parallel_workers_give_the_same_matches() -> None:
    args = (HighCard.id, {"players": 3}, ["random", "heuristic", "easy"], 9)
    alone = run_tournament(*args, seed=1, workers=1)
    spread = run_tournament(*args, seed=1, workers=2)
    assert alone.matches == spread.matches


def test_seat_summary_counts_every_match() -> None:
    result = TournamentResult(HighCard.id, {"players": 2}, ["a", "b"], 0)
    result.matches = synthetic({("a", "b"): 0.75}, per_pair=8)
    seats = result.seat_summary()
    assert [s["wins"] for s in seats] == [6.0, 2.0]
    assert seats[0]["win_rate_ci95"] == list(wilson_interval(6, 8))


def test_every_real_choice_is_timed_and_summarised() -> None:
    # High card: each seat chooses once (keep or redraw), always between two actions.
    result = run_tournament(HighCard.id, {"players": 2}, ["ismcts", "random"], 4, seed=2)
    for match in result.matches:
        assert [len(times) for times in match.decision_seconds] == [1, 1]
        assert all(t >= 0 for times in match.decision_seconds for t in times)
    timing = result.bot_summary()["ismcts"]["decision_seconds"]
    assert timing["decisions"] == 4
    assert 0 <= timing["p50"] <= timing["p95"] <= timing["max"]
    spent = [
        t
        for m in result.matches
        for s, ts in zip(m.lineup, m.decision_seconds, strict=True)
        for t in ts
        if s == "ismcts"
    ]
    assert timing["max"] == max(spent)


def test_percentile_takes_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert percentile(values, 0.5) == 10.0
    assert percentile(values, 0.95) == 19.0
    assert percentile(values, 1.0) == 20.0
    assert percentile([], 0.5) == 0.0


def test_a_fixed_lineup_turns_round_the_table() -> None:
    lineup = ["ismcts", "random", "random"]
    result = run_tournament(HighCard.id, {"players": 3}, [], 6, seed=1, lineup=lineup)
    assert result.bots == ["ismcts", "random"]
    # Each block of three matches seats the searcher once in every seat.
    seats = [m.lineup.index("ismcts") for m in result.matches]
    assert seats == [0, 2, 1, 0, 2, 1]
    assert all(sorted(m.lineup) == sorted(lineup) for m in result.matches)
    summary = result.bot_summary()
    assert summary["ismcts"]["seats_played"] == 6 and summary["random"]["seats_played"] == 12
    with pytest.raises(ValueError, match="seats"):
        run_tournament(HighCard.id, {"players": 2}, [], 2, lineup=lineup)
