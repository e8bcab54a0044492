"""A finished match explained, and hints: each seat's chance to win along a match as it
could see it, its decisions weighed against the best the analysis finds, and its luck.

:mod:`.judge` is where a chance to win comes from (a game's learned judgement, or its
estimate), :mod:`.appraise` weighs one seat's position and decisions from its window
alone, :mod:`.match` goes through a whole finished match. ``docs/analysis.md`` gives the
method, the marks' thresholds and how the analysis's own noise was measured.
"""

from necropolis.analysis.explain.appraise import Appraisal, Depth, hints, position_chance
from necropolis.analysis.explain.judge import EstimateJudge, Judge, judge_for
from necropolis.analysis.explain.match import (
    MARKS,
    Decision,
    MatchAnalysis,
    Moment,
    SeatAnalysis,
    analyse_record,
    analyse_states,
)

__all__ = [
    "MARKS",
    "Appraisal",
    "Decision",
    "Depth",
    "EstimateJudge",
    "Judge",
    "MatchAnalysis",
    "Moment",
    "SeatAnalysis",
    "analyse_record",
    "analyse_states",
    "hints",
    "judge_for",
    "position_chance",
]
