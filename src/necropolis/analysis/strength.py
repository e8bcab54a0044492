"""The bots' measured strength in one file: ``docs/strength/summary.json``.

Every figure of the summary is computed from the tournaments' own result files (each
match with its seed, lineup and returns), never typed: ``docs/strength/runs.json`` names,
for each game, which file is the measurement of record for each question (hard against
the heuristic at two players, hard against heuristics at more, the levels against each
other, our search against OpenSpiel's) and, for a file written before tournaments
recorded their command, the command that played it. The levels are read from one
tournament of them all, or pair by pair (hard against medium, medium against easy), each
pair pooled from the files that played it at the levels as they are now: a level changed
since leaves the pairs it is not in standing. ``python -m
necropolis.analysis.strength`` writes the summary again; a test checks that the
committed summary is what the files say.

The targets each row is held to are those of the project's bot issue: hard wins at least
70% of two-player matches against the heuristic, with the 95% interval's low end at 62% or
more, over 200 matches or more; at more players, at least 1.5 times its fair share; each
level beats the one below in 65-80% of two-player matches; against OpenSpiel's IS-MCTS,
given the same time a decision, hard wins at least 60% (a run at the same number of
simulations instead is shown, but held to no target).

Runs on duplicate deals (:mod:`necropolis.analysis.duel`, a ``.jsonl`` file in the
manifest) give rows of their own kind, held to the judgement issue's target instead: a
score share of 70% or more (a match nobody won counting half) over 1,000 matches or
more. The game's ``headroom`` section holds the research contenders' runs on the same
bank (:mod:`necropolis.analysis.headroom`: hard told the hidden state, told the coming
draws as well, hard with ten times its iterations), each also paired deal by deal with
the first hard row's run where they share a bank; so does its ``screens`` section,
hard's variants with one setting changed (``research/hard_variants.py``) played on the
record's deals to see what a setting would gain before any is made the level's. Two
sections are filled by the learned evaluator's tools and only checked and copied here:
``calibration`` (per model, bands of predicted chance with the mean predicted, the share
observed and the positions in each; a band with 1,000 positions or more must observe
within 3 points of its prediction) and ``training`` (the generations, the matches
played, each gate's result).

Each row of a bot against others also says by how many points it finished ahead of the
best other seat, on average and with the spread of that margin from match to match
(``score_margin``): the spread is the luck of a match in the game's own points, and a
win rate is what the mean margin makes of it. Where some matches end with nobody winning
(horus, when every adventurer is shut in), a row also says the same of the matches
somebody won (``decided``): how many, the bot's wins and margin among them.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from necropolis.analysis.duel import DuelRun, paired
from necropolis.analysis.tournament import TournamentResult, wilson_interval

#: The folder of the tournaments' files, the manifest and the summary.
STRENGTH = Path(__file__).resolve().parents[3] / "docs" / "strength"

#: Two players, hard against the heuristic: the win rate, the interval's low end and the
#: matches a measurement needs to meet the target.
TARGET_WIN_RATE = 0.70
TARGET_LOW = 0.62
TARGET_MATCHES = 200
#: More players: hard's win share against heuristics, as a multiple of its fair share.
TARGET_SHARE = 1.5
#: The levels: each beats the one below in this share of two-player matches.
TARGET_LADDER = (0.65, 0.80)
#: Against OpenSpiel's IS-MCTS at the same time a decision: hard's win rate.
TARGET_OPENSPIEL = 0.60
#: On duplicate deals (the judgement issue): hard's score share against the heuristic at
#: two players, over at least this many matches.
TARGET_SHARE_2P = 0.70
TARGET_DUPLICATE_MATCHES = 1000
#: Calibration: a band with this many positions observes within this much of its
#: prediction.
CALIBRATION_POSITIONS = 1000
CALIBRATION_WITHIN = 0.03


def score_margin(
    result: TournamentResult, bot: str, decided_only: bool = False
) -> dict[str, float]:
    """The mean and the spread (population standard deviation) of ``bot``'s score minus
    the best other seat's, over the matches it played (``decided_only``: those somebody
    won): how far apart in points the win rate's bots are, and how wide the luck of a
    match is in the same points."""
    margins = []
    for match in result.matches:
        if decided_only and not any(match.returns):
            continue
        for seat, name in enumerate(match.lineup):
            if name == bot:
                others = (s for k, s in enumerate(match.scores) if k != seat)
                margins.append(match.scores[seat] - max(others))
    if not margins:
        return {"mean": 0.0, "sd": 0.0}
    return {"mean": round(statistics.fmean(margins), 2), "sd": round(statistics.pstdev(margins), 2)}


def _bot_row(result: TournamentResult, bot: str, command: str | None) -> dict[str, Any]:
    summary = result.bot_summary()[bot]
    low, high = summary["win_rate_ci95"]
    times = summary["decision_seconds"]
    row: dict[str, Any] = {
        "game": result.game,
        "players": result.players,
        "bot": bot,
        "win_rate": round(summary["win_rate"], 4),
        "ci95": [round(low, 4), round(high, 4)],
        "wins": summary["wins"],
        "matches": len(result.matches),
        "seed": result.seed,
        "command": result.command or command,
        "decision_seconds": {"p50": times["p50"], "max": times["max"]},
        "score_margin": score_margin(result, bot),
    }
    decided = [m for m in result.matches if any(m.returns)]
    if len(decided) < len(result.matches):
        wins = sum(m.returns[seat] for m in decided for seat, n in enumerate(m.lineup) if n == bot)
        row["decided"] = {
            "matches": len(decided),
            "wins": wins,
            "win_rate": round(wins / len(decided), 4) if decided else 0.0,
            "score_margin": score_margin(result, bot, decided_only=True),
        }
    return row


def hard_vs_heuristic(result: TournamentResult, command: str | None) -> dict[str, Any]:
    row = _bot_row(result, "hard", command)
    row["target_met"] = (
        row["win_rate"] >= TARGET_WIN_RATE
        and row["ci95"][0] >= TARGET_LOW
        and row["matches"] >= TARGET_MATCHES
    )
    return row


def hard_vs_heuristics(result: TournamentResult, command: str | None) -> dict[str, Any]:
    row = _bot_row(result, "hard", command)
    fair = 1 / result.players
    row["fair_share"] = round(fair, 4)
    row["share_of_fair"] = round(row["win_rate"] / fair, 3)
    row["target_met"] = row["share_of_fair"] >= TARGET_SHARE
    return row


def ladder(result: TournamentResult, command: str | None) -> dict[str, Any]:
    """Each level against the next one down, head to head (the file plays every pair)."""
    pairs = []
    order = result.bots  # strongest first, as the tournament named them
    outcomes = result.to_json()["pairwise"]
    for upper, lower in itertools.pairwise(order):
        outcome = outcomes[upper][lower]
        pairs.append(_pair(upper, lower, outcome["wins"], int(outcome["games"])))
    return {
        "game": result.game,
        "players": result.players,
        "levels": order,
        "pairs": pairs,
        "target_met": _spaced(pairs),
        "matches": len(result.matches),
        "seed": result.seed,
        "command": result.command or command,
    }


def ladder_of_pairs(folder: Path, game: str, pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """The levels from their adjacent pairs, each pair from its own tournaments.

    A pair is ``{"upper": ..., "lower": ..., "files": [...]}``: the head-to-head matches
    of those two bots in every file named are pooled (a file may be a two-bot tournament
    of the pair, or a tournament of more bots whose matches include the pair's). A level
    changed since a file was played must not be read from it: the manifest names, per
    pair, only files played at the levels as they are.
    """
    rows = []
    order: list[str] = []
    for pair in pairs:
        upper, lower = pair["upper"], pair["lower"]
        if order and order[-1] != upper:
            raise ValueError(f"{game}: the pair {upper}-{lower} does not follow {order[-1]}")
        order += [upper, lower] if not order else [lower]
        wins = 0.0
        games = 0
        runs = []
        for name in pair["files"]:
            result = _tournament(folder / name, game)
            if result.players != 2:
                raise ValueError(f"{name} is not a two-player tournament")
            outcome = result.to_json()["pairwise"][upper][lower]
            wins += outcome["wins"]
            games += int(outcome["games"])
            runs.append(
                {
                    "file": name,
                    "matches": int(outcome["games"]),
                    "seed": result.seed,
                    "command": result.command,
                }
            )
        rows.append(_pair(upper, lower, wins, games) | {"runs": runs})
    return {
        "game": game,
        "players": 2,
        "levels": order,
        "pairs": rows,
        "target_met": _spaced(rows),
        "matches": sum(p["matches"] for p in rows),
    }


def _tournament(path: Path, game: str) -> TournamentResult:
    """The tournament in ``path``, which must be one of ``game``."""
    result = TournamentResult.read_json(path)
    if result.game != game:
        raise ValueError(f"{path.name} is a tournament of {result.game}, not {game}")
    return result


def _pair(upper: str, lower: str, wins: float, games: int) -> dict[str, Any]:
    """A level against the next one down: ``upper``'s wins of ``games``, with the interval."""
    low, high = wilson_interval(wins, games)
    return {
        "upper": upper,
        "lower": lower,
        "wins": wins,
        "matches": games,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
    }


def _spaced(pairs: list[dict[str, Any]]) -> bool:
    """Each level beats the next one down in the target's share of matches."""
    low_share, high_share = TARGET_LADDER
    return all(low_share <= p["win_rate"] <= high_share for p in pairs)


def openspiel(data: dict[str, Any], command: str | None) -> dict[str, Any]:
    summary = data["summary"]
    low, high = summary["our_win_rate_ci95"]
    # Our seconds a decision, where our side searched by the clock (else the same count).
    seconds = data["ours"].get("seconds")
    return {
        "game": data["game"],
        "players": data["players"],
        "simulations": data["simulations"],
        "reference": data["reference"],
        "win_rate": round(summary["our_win_rate"], 4),
        "ci95": [round(low, 4), round(high, 4)],
        "matches": summary["games"],
        "seed": data["seed"],
        "command": command,
        "seconds_per_decision": {
            "ours": round(summary["our_seconds_per_decision"], 4),
            "reference": round(summary["reference_seconds_per_decision"], 4),
        },
        "our_seconds_budget": seconds,
        "target_met": (
            None if seconds is None else bool(summary["our_win_rate"] >= TARGET_OPENSPIEL)
        ),
    }


def duplicate_row(run: DuelRun, bot: str | None = None) -> dict[str, Any]:
    """A run on duplicate deals: ``bot``'s figures (the run's first seat's by default),
    how many matches the run set out to play, and the judgement issue's target: at two
    players a score share over 1,000 matches, at more a multiple of the fair share (as
    the tournaments' rows against heuristics are held to)."""
    row = run.figures(bot)
    row["seed"] = run.bank  # the bank's seed: every deal's chance and bots' generators
    row["planned_matches"] = run.deals * run.seating_count()
    if run.players == 2:
        row["target_met"] = (
            row["score_share"] >= TARGET_SHARE_2P and row["matches"] >= TARGET_DUPLICATE_MATCHES
        )
    else:
        row["target_met"] = row["share_of_fair"] >= TARGET_SHARE
    return row


def calibration(data: dict[str, Any]) -> dict[str, Any]:
    """A model's reliability table, checked: every band with enough positions observes
    within the target of what it predicted."""
    bands, predicted, observed, positions = (
        data[k] for k in ("bands", "predicted", "observed", "positions")
    )
    if not len(bands) == len(predicted) == len(observed) == len(positions):
        raise ValueError("a calibration's bands, predicted, observed and positions differ")
    counted = [
        abs(o - p) <= CALIBRATION_WITHIN
        for p, o, n in zip(predicted, observed, positions, strict=True)
        if n >= CALIBRATION_POSITIONS
    ]
    return data | {"target_met": bool(counted) and all(counted)}


def training(data: dict[str, Any]) -> dict[str, Any]:
    """A training record: its generations, with the matches played in all."""
    generations = data["generations"]
    return data | {
        "generation_count": len(generations),
        "matches": sum(int(g.get("matches", 0)) for g in generations),
    }


_TOURNAMENT_ROWS = {
    "hard_vs_heuristic_2p": hard_vs_heuristic,
    "hard_vs_heuristics": hard_vs_heuristics,
    "ladder_2p": ladder,
}


def _duplicate_run(path: Path, game: str) -> DuelRun:
    run = DuelRun.read(path)
    if run.game != game:
        raise ValueError(f"{path.name} is a run of {run.game}, not {game}")
    return run


def _row(folder: Path, game: str, question: str, run: dict[str, Any]) -> dict[str, Any]:
    """The row of one manifest entry."""
    if question == "ladder_2p" and "pairs" in run:
        row = ladder_of_pairs(folder, game, run["pairs"])
    else:
        path = folder / run["file"]
        command = run.get("command")
        if path.suffix == ".jsonl":
            row = duplicate_row(_duplicate_run(path, game), run.get("bot"))
        elif question == "openspiel":
            row = openspiel(json.loads(path.read_text()), command)
        elif question == "calibration":
            row = calibration(json.loads(path.read_text()))
        elif question == "training":
            row = training(json.loads(path.read_text()))
        else:
            row = _TOURNAMENT_ROWS[question](_tournament(path, game), command)
        row["file"] = run["file"]
    if "note" in run:
        row["note"] = run["note"]
    return row


def _with_pairs(folder: Path, game: str, record: dict[str, Any] | None, rows: list[Any]) -> None:
    """Each headroom row paired, deal by deal, with the record's hard run (same bank)."""
    if record is None or not str(record.get("file", "")).endswith(".jsonl"):
        return
    hard = _duplicate_run(folder / record["file"], game)
    for row in rows:
        if not row["file"].endswith(".jsonl"):
            continue
        other = _duplicate_run(folder / row["file"], game)
        if other.bank == hard.bank and other.lineup[1:] == hard.lineup[1:]:
            row["paired_with_hard"] = paired(other, hard, row["bot"], record["bot"])


def summarize(folder: Path = STRENGTH) -> dict[str, Any]:
    """The summary of the runs ``folder/runs.json`` names, per game and question (the
    ``headroom`` section's questions one level further in)."""
    manifest: dict[str, dict[str, Any]] = json.loads((folder / "runs.json").read_text())
    games: dict[str, Any] = {}
    for game, questions in manifest.items():
        rows: dict[str, Any] = {}
        for question, runs in questions.items():
            if question == "headroom":
                rows[question] = {
                    inner: [_row(folder, game, inner, run) for run in inner_runs]
                    for inner, inner_runs in runs.items()
                }
                continue
            rows[question] = [_row(folder, game, question, run) for run in runs]
        record = (rows.get("hard_vs_heuristic_2p") or [None])[0]
        for headroom_rows in rows.get("headroom", {}).values():
            _with_pairs(folder, game, record, headroom_rows)
        _with_pairs(folder, game, record, rows.get("screens", []))
        games[game] = rows
    return {
        "targets": {
            "hard_vs_heuristic_2p": {
                "win_rate": TARGET_WIN_RATE,
                "ci95_low": TARGET_LOW,
                "matches": TARGET_MATCHES,
            },
            "hard_vs_heuristics": {"share_of_fair": TARGET_SHARE},
            "ladder_2p": {"each_over_the_next": list(TARGET_LADDER)},
            "openspiel": {"win_rate_at_the_same_time": TARGET_OPENSPIEL},
            "duplicate_deals_2p": {
                "score_share": TARGET_SHARE_2P,
                "matches": TARGET_DUPLICATE_MATCHES,
            },
            "calibration": {
                "within": CALIBRATION_WITHIN,
                "positions_per_band": CALIBRATION_POSITIONS,
            },
        },
        "games": games,
    }


def main(argv: list[str]) -> int:
    """Write the summary (``argv[0]``: its folder, ``docs/strength`` by default)."""
    folder = Path(argv[0]) if argv else STRENGTH
    summary = summarize(folder)
    path = folder / "summary.json"
    path.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
