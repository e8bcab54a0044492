"""A finished match explained: each seat's chance along the match, its decisions
weighed, and its luck.

For each seat and every moment of the match (before the first action, after each
action), the seat's chance to win as it could see it then
(:func:`~necropolis.analysis.explain.appraise.position_chance`, from its window alone).
Each decision of the seat is weighed against the best the analysis finds there: the
*loss* is the chance the best decision had less the chance of the one played, and a
decision whose loss reaches a threshold of :data:`MARKS` is marked. A seat's *decisions*
figure is minus the sum of its losses; its *luck* is everything else its chance did from
the start to its result (chance events, the other seats' moves, and what the seat was
shown), so that decisions + luck = result − starting chance, exactly, by construction.

Within a turn the seat plays alone with nothing revealed, the next moment's chance is
read from the same worlds as the decision before it (the plans already weighed), so a
turn's decisions are judged together and nothing of them leaks into luck; from one turn
to the next fresh worlds are drawn, whose sampling noise (``docs/analysis.md`` measures
it) is counted as luck.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from necropolis.analysis.explain.appraise import Appraisal, Depth, position_chance
from necropolis.analysis.explain.judge import Judge, judge_for
from necropolis.engine.errors import MatchRecordError
from necropolis.engine.language import ActionInfo, LogEntry
from necropolis.engine.protocol import CHANCE, State
from necropolis.engine.record import GameLoader, MatchRecord
from necropolis.engine.seat import SeatWindow

FORMAT = "necropolis-analysis"
VERSION = 1

#: A decision's mark by the chance to win it lost (the largest threshold reached wins),
#: chosen above the analysis's own noise as ``docs/analysis.md`` measures it.
MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
#: The mean loss at which the accuracy figure is 100/e (about 37): a seat that loses a
#: twentieth of its chance a decision plays far below its best.
ACCURACY_SCALE = 0.05
#: The key moments told for each seat.
KEY_MOMENTS = 3

#: Called as the analysis goes: (moments weighed, moments in all).
Progress = Callable[[int, int], None]


def mark(loss: float) -> str | None:
    """The mark of a decision that lost ``loss`` of its seat's chance (None: none)."""
    for name, threshold in MARKS:
        if loss >= threshold:
            return name
    return None


def accuracy(mean_loss: float) -> float:
    """The 0-100 figure of a mean loss a decision: 100 for none, falling off as
    ``exp(-mean_loss / ACCURACY_SCALE)``."""
    return 100.0 * math.exp(-max(0.0, mean_loss) / ACCURACY_SCALE)


@dataclass
class Decision:
    """One decision of a seat, weighed."""

    index: int  # the action's place in the record
    seat: int
    action: int
    chance: float  # the seat's chance with the decision played
    best: float  # its chance with the best decision the analysis found
    best_action: int
    loss: float  # best - chance
    choices: int  # the legal decisions there were (1: forced)
    mark: str | None
    played: ActionInfo
    preferred: ActionInfo | None  # the best decision's descriptor, when it was not played


@dataclass
class Moment:
    """A large swing of one seat's chance: what caused it, and what the seat might have
    played instead (its own decisions only)."""

    index: int
    before: float
    after: float
    swing: float
    cause: str  # "decision" (the seat's own), "move" (another seat's), "chance"
    actor: int | None
    entries: list[LogEntry]
    preferred: ActionInfo | None


@dataclass
class SeatAnalysis:
    """One seat's figures over the match."""

    seat: int
    start: float
    result: float
    decisions: float  # minus the sum of its losses
    luck: float  # result - start - decisions
    mean_loss: float  # over its decisions that were not forced (0 with none)
    accuracy: float
    marks: dict[str, int]
    moments: list[Moment] = field(default_factory=list)


@dataclass
class MatchAnalysis:
    """A finished match explained; :meth:`to_json` is its stored and printed form."""

    game: str
    options: dict[str, Any]
    players: list[str]
    depth: Depth
    judge: str
    chances: list[list[float]]  # [moment][seat]; moment 0 is before the first action
    decisions: list[Decision]
    seats: list[SeatAnalysis]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "depth": asdict(self.depth),
            "judge": self.judge,
            "marks": {name: threshold for name, threshold in MARKS},
            "chances": [[round(c, 4) for c in row] for row in self.chances],
            "decisions": [_rounded(asdict(d)) for d in self.decisions],
            "seats": [_rounded(asdict(s)) for s in self.seats],
        }


def _rounded(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, float):
            out[key] = round(value, 4)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out[key] = [_rounded(v) for v in value]
        else:
            out[key] = value
    return out


def actor(state: State, action: int) -> int:
    """Who played ``action`` at ``state``: a seat, or CHANCE."""
    if state.current_player() == CHANCE:
        return CHANCE
    for seat in state.acting_seats():
        if action in state.legal_actions(seat):
            return seat
    raise MatchRecordError(f"no seat could play action {action} at move {state.move_number()}")


def analyse_record(
    record: MatchRecord,
    loader: GameLoader,
    depth: Depth | None = None,
    judge: Judge | None = None,
    progress: Progress | None = None,
    seats: Sequence[int] | None = None,
) -> MatchAnalysis:
    """Explain the finished match of ``record`` for every seat, or only ``seats``
    (:class:`MatchRecordError` for one that does not replay or has not ended)."""
    states = list(record.states(loader))
    if not states[-1].is_terminal():
        raise MatchRecordError("the match has not ended: only a finished match is analysed")
    game = states[0].game
    return analyse_states(
        states,
        record.actions,
        depth or Depth(),
        judge or judge_for(game),
        progress,
        players=record.seats,
        seats=seats,
    )


def analyse_states(
    states: Sequence[State],
    actions: Sequence[int],
    depth: Depth,
    judge: Judge,
    progress: Progress | None = None,
    players: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
) -> MatchAnalysis:
    """Explain the match whose states are ``states`` (the first before any action, each
    next after ``actions``' next): every seat, or only ``seats``."""
    game = states[0].game
    n = game.num_players
    chosen = list(range(n)) if seats is None else list(seats)
    total = len(chosen) * len(states)
    done = 0
    chances = [[0.0] * n for _ in states]
    decisions: list[Decision] = []
    summaries: list[SeatAnalysis] = []
    actors = [actor(states[t], a) for t, a in enumerate(actions)]
    for seat in chosen:

        def tick(moments: int, before: int = done) -> None:
            if progress is not None:
                progress(before + moments, total)

        series, own = _seat_series(states, actions, actors, seat, depth, judge, tick)
        for t, value in enumerate(series):
            chances[t][seat] = value
        done += len(series)
        decisions.extend(own)
        summaries.append(_summary(states, actions, actors, seat, series, own))
    decisions.sort(key=lambda d: (d.index, d.seat))
    return MatchAnalysis(
        game=game.id,
        options=dict(game.options),
        players=list(players) if players is not None else [f"seat {s + 1}" for s in range(n)],
        depth=depth,
        judge=judge.name,
        chances=chances,
        decisions=decisions,
        seats=summaries,
    )


def _seat_series(
    states: Sequence[State],
    actions: Sequence[int],
    actors: Sequence[int],
    seat: int,
    depth: Depth,
    judge: Judge,
    tick: Callable[[int], None],
) -> tuple[list[float], list[Decision]]:
    """The seat's chance at every moment, and its decisions weighed; ``tick(k)`` is told
    after every moment with the moments weighed so far."""
    series: list[float] = []
    own: list[Decision] = []
    carried: Appraisal | None = None
    for t, state in enumerate(states):
        if t:
            tick(t)
        if state.is_terminal():
            series.append(state.returns()[seat])
            continue
        appraisal: Appraisal | None
        if carried is not None:
            # The seat goes on with its turn, nothing revealed: the same worlds' plans.
            chance, appraisal = carried.chance, carried
        else:
            window = SeatWindow(state, seat)
            chance, appraisal = position_chance(window, depth, judge, f"{seat}/{t}")
        series.append(chance)
        carried = None
        if t < len(actions) and actors[t] == seat:
            assert appraisal is not None
            action = actions[t]
            value = appraisal.values[action]
            best_action = appraisal.best
            loss = max(0.0, appraisal.chance - value)
            choices = len(appraisal.values)
            own.append(
                Decision(
                    index=t,
                    seat=seat,
                    action=action,
                    chance=value,
                    best=appraisal.chance,
                    best_action=best_action,
                    loss=loss,
                    choices=choices,
                    mark=mark(loss) if choices > 1 else None,
                    played=state.action_info(action),
                    preferred=state.action_info(best_action) if best_action != action else None,
                )
            )
            carried = appraisal.after.get(action)
    tick(len(states))
    return series, own


def _summary(
    states: Sequence[State],
    actions: Sequence[int],
    actors: Sequence[int],
    seat: int,
    series: list[float],
    own: list[Decision],
) -> SeatAnalysis:
    start, result = series[0], series[-1]
    decided = -sum(d.loss for d in own)
    weighed = [d.loss for d in own if d.choices > 1]
    mean_loss = sum(weighed) / len(weighed) if weighed else 0.0
    marks = {name: sum(1 for d in own if d.mark == name) for name, _ in MARKS}
    by_index = {d.index: d for d in own}
    swings = sorted(range(len(actions)), key=lambda t: (-abs(series[t + 1] - series[t]), t))[
        :KEY_MOMENTS
    ]
    moments = []
    for t in sorted(swings):
        who = actors[t]
        decision = by_index.get(t)
        cause = "decision" if who == seat else "chance" if who == CHANCE else "move"
        moments.append(
            Moment(
                index=t,
                before=series[t],
                after=series[t + 1],
                swing=series[t + 1] - series[t],
                cause=cause,
                actor=None if who == CHANCE else who,
                entries=states[t + 1].narrate(states[t], actions[t], seat),
                preferred=decision.preferred if decision is not None else None,
            )
        )
    return SeatAnalysis(
        seat=seat,
        start=start,
        result=result,
        decisions=decided,
        luck=(result - start) - decided,
        mean_loss=mean_loss,
        accuracy=accuracy(mean_loss),
        marks=marks,
        moments=moments,
    )
