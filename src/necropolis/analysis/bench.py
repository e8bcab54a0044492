"""Speed figures for every game: random play, clones, worlds, IS-MCTS, against a C++ reference.

Absolute speeds vary between machines, so each run also measures OpenSpiel's C++
backgammon (a dice game of similar length) driven by the very same Python loop, and
reports each game's figures as a ratio to it (the reference is measured again beside every
game, and each ratio uses the measurement beside it, so that a change of load on a shared
machine during the run skews both sides alike). The loop uses only the method names that
necropolis states share with pyspiel states (``is_terminal``, ``is_chance_node``,
``chance_outcomes``, ``legal_actions``, ``apply_action``, ``clone``), so both sides pay
the same Python overhead and the ratio compares the engines. Clones are measured twice:
the engine's own (``clones_per_s``), and through the OpenSpiel adapter as a researcher's
``state.clone()`` on a pyspiel state gets it (``spiel_clones_per_s``), each beside
backgammon's. Each figure is a rate over a
fixed slice of time; nothing here passes or fails. The time is wall-clock time, or with
``clock="cpu"`` the CPU time of this process (``time.process_time``), which on cores
shared with other work counts only what the benchmark itself was given: the searches
keep their wall-clock budget, and their rate is over the CPU time they used.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from necropolis.bots.ismcts import ISMCTSBot
from necropolis.bots.levels import HARD_CUTOFF
from necropolis.engine.protocol import sample_chance
from necropolis.engine.seat import SeatWindow
from necropolis.games import game_class, game_ids, load_game

#: The OpenSpiel game every run is compared with.
REFERENCE_GAME = "backgammon"

#: The clocks a run may be timed by.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def _random_action(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        return int(sample_chance(state, rng))
    actions = state.legal_actions()
    return int(actions[rng.randrange(len(actions))])


def random_play_rate(
    new_state: Callable[[], Any],
    seconds: float,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Actions (chance included) per second of uniformly random play, whole matches."""
    rng = random.Random(seed)
    steps = 0
    start = clock()
    deadline = start + seconds
    while True:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(_random_action(state, rng))
            steps += 1
            if not steps & 255 and clock() >= deadline:
                break
        if clock() >= deadline:
            break
    return steps / (clock() - start)


def random_trajectory(new_state: Callable[[], Any], seed: int = 0) -> list[Any]:
    """Every state of one random match, start to end (clones: the match is kept)."""
    rng = random.Random(seed)
    state = new_state()
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(_random_action(state, rng))
        states.append(state.clone())
    return states


def clone_rate(state: Any, seconds: float, clock: Callable[[], float] = time.perf_counter) -> float:
    """Clones per second of one state."""
    count = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for _ in range(100):
            state.clone()
        count += 100
    return count / (clock() - start)


def decision_points(states: Sequence[Any]) -> list[Any]:
    """Three states of a random match, a quarter, half and three quarters of the way
    through its real decisions (those with a choice), where the searches are measured."""
    decisions = [s for s in states if not s.is_terminal() and s.current_player() >= 0]
    decisions = [s for s in decisions if len(s.legal_actions()) > 1]
    if not decisions:
        return []
    return [decisions[len(decisions) * k // 4] for k in (1, 2, 3)]


def resample_rate(
    states: Sequence[Any], seconds: float, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Determinizations per second, each for the seat to move, at the decision points
    (every IS-MCTS iteration draws one, so it is a clone and more)."""
    picks = decision_points(states)
    if not picks:
        return 0.0
    rng = random.Random(0)
    count = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for _ in range(30):
            for state in picks:
                state.resample(state.current_player(), rng)
        count += 30 * len(picks)
    return count / (clock() - start)


def mcts_rate(
    states: Sequence[Any],
    seconds: float,
    cutoff: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """IS-MCTS iterations per second over a few decision points of a random match.

    ``cutoff`` as in :class:`ISMCTSBot` (None: every rollout to the end of the match).
    """
    picks = decision_points(states)
    if not picks:
        return 0.0
    bot = ISMCTSBot(iterations=None, seconds=seconds / len(picks), cutoff=cutoff)
    iterations = 0
    spent = 0.0
    rng = random.Random(0)
    for state in picks:
        start = clock()
        bot.search(SeatWindow(state, state.current_player()), rng)
        iterations += bot.last.iterations
        spent += clock() - start
    return iterations / spent if spent else 0.0


def middle_state(states: Sequence[Any]) -> Any:
    return states[len(states) // 2]


class Reference:
    """OpenSpiel's C++ backgammon, measured through the same loop as the games."""

    def __init__(self) -> None:
        import pyspiel

        self.game = pyspiel.load_game(REFERENCE_GAME)
        self.middle = middle_state(random_trajectory(self.game.new_initial_state))
        self.samples: list[dict[str, float]] = []

    def measure(
        self, seconds: float, clock: Callable[[], float] = time.perf_counter
    ) -> dict[str, float]:
        figures = {
            "steps_per_s": random_play_rate(self.game.new_initial_state, seconds, clock=clock),
            "clones_per_s": clone_rate(self.middle, seconds, clock),
        }
        self.samples.append(figures)
        return figures

    def summary(self) -> dict[str, Any]:
        """The median of every measurement of the run."""
        return {
            "game": f"OpenSpiel {REFERENCE_GAME} (C++)",
            "measurements": len(self.samples),
            **{
                key: statistics.median(s[key] for s in self.samples)
                for key in ("steps_per_s", "clones_per_s")
            },
        }


def spiel_clone_rate(
    game_id: str, players: int, seconds: float, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Clones per second of the middle state of a random match through the OpenSpiel
    adapter (``state.clone()`` on the pyspiel state)."""
    import pyspiel

    from necropolis.interop import openspiel

    name = openspiel.register(game_class(game_id))
    game = pyspiel.load_game(name, {"players": players})
    return clone_rate(middle_state(random_trajectory(game.new_initial_state)), seconds, clock)


def bench_game(
    game_id: str, players: int, seconds: float, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """The figures of one game at one player count.

    Determinizations have no counterpart in the reference (backgammon hides nothing), so
    their rate is given alone. IS-MCTS is measured twice: with rollouts to the end, and as
    the ``medium`` and ``hard`` levels search (rollouts cut off after :data:`HARD_CUTOFF`
    actions).
    """
    game = load_game(game_id, players=players)
    states = random_trajectory(game.new_initial_state)
    return {
        "steps_per_s": random_play_rate(game.new_initial_state, seconds, clock=clock),
        "clones_per_s": clone_rate(middle_state(states), seconds, clock),
        "spiel_clones_per_s": spiel_clone_rate(game_id, players, seconds, clock),
        "resamples_per_s": resample_rate(states, seconds, clock),
        "mcts_iterations_per_s": mcts_rate(states, seconds, clock=clock),
        "mcts_cutoff_iterations_per_s": mcts_rate(states, seconds, HARD_CUTOFF, clock),
    }


def run_bench(
    games: Sequence[str] | None = None,
    seconds: float = 1.0,
    on_progress: Callable[[str], None] | None = None,
    clock: str = "wall",
) -> dict[str, Any]:
    """Every figure: ``{"reference": {...}, "games": {id: {"players": {"n": {...}}}}}``,
    timed by ``clock`` (a key of :data:`CLOCKS`)."""
    say = on_progress or (lambda _: None)
    timer = CLOCKS[clock]
    ref = Reference()
    result: dict[str, Any] = {
        "reference": {},
        "seconds_per_figure": seconds,
        "clock": clock,
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "games": {},
    }
    for game_id in games if games is not None else game_ids():
        cls = game_class(game_id)
        counts: dict[str, Any] = {}
        for players in range(cls.min_players, cls.max_players + 1):
            say(f"{game_id} ×{players}")
            # The reference is measured right beside each game, so that a machine whose
            # load changes during the run (shared cores) skews both sides alike.
            beside = ref.measure(seconds, timer)
            figures: dict[str, float] = bench_game(game_id, players, seconds, timer)
            figures["steps_ratio"] = figures["steps_per_s"] / beside["steps_per_s"]
            figures["clones_ratio"] = figures["clones_per_s"] / beside["clones_per_s"]
            figures["spiel_clones_ratio"] = figures["spiel_clones_per_s"] / beside["clones_per_s"]
            counts[str(players)] = figures
        result["games"][game_id] = {"players": counts}
    if not ref.samples:
        ref.measure(seconds, timer)
    result["reference"] = ref.summary()
    return result
