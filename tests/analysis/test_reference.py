"""The outside reference: our IS-MCTS against OpenSpiel's Python IS-MCTS, at tiny budgets."""

from __future__ import annotations

import json
from pathlib import Path

from necropolis.analysis.reference import play_reference_match, run_reference


def test_a_short_run_alternates_seats_and_counts_every_win(tmp_path: Path) -> None:
    seen: list[int] = []
    result = run_reference(
        "luxor2001", 2, 4, seed=3, on_match=lambda r: seen.append(len(r.matches))
    )
    assert seen == [1, 2]
    assert [m.our_seat for m in result.matches] == [0, 1]
    for match in result.matches:
        assert len(match.returns) == 2 and sum(match.returns) <= 1.0
        assert match.decisions > 0 and match.our_seconds > 0 and match.reference_seconds > 0
    summary = result.summary()
    total = summary["our_wins"] + summary["reference_wins"]
    assert total == sum(sum(m.returns) for m in result.matches)
    low, high = summary["our_win_rate_ci95"]
    assert low <= summary["our_win_rate"] <= high
    path = tmp_path / "ref.json"
    path.write_text(json.dumps(result.to_json()))
    assert json.loads(path.read_text())["summary"]["games"] == 2


def test_our_side_may_be_given_a_time_a_decision_instead() -> None:
    result = run_reference("luxor2001", 1, 2, seed=5, seconds=0.05)
    (match,) = result.matches
    assert 0 < match.our_decisions < match.decisions
    summary = result.summary()
    # Each side's seconds are over its own decisions.
    assert summary["our_seconds_per_decision"] == match.our_seconds / match.our_decisions
    theirs = match.decisions - match.our_decisions
    assert summary["reference_seconds_per_decision"] == match.reference_seconds / theirs
    assert result.to_json()["ours"]["seconds"] == 0.05


def test_a_match_replays_from_its_seed() -> None:
    first = play_reference_match("luxor2001", 3, index=1, seed=11)
    again = play_reference_match("luxor2001", 3, index=1, seed=11)
    assert (first.returns, first.decisions) == (again.returns, again.decisions)
