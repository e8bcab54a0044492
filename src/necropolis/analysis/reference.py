"""Our IS-MCTS against an outside reference: OpenSpiel's Python IS-MCTS on the adapter.

OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search a game written in Python (pyspiel's
bridge does not forward ``ResampleFromInfostate``, and the search dies), so the reference
is its Python twin, ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, playing through
:mod:`necropolis.interop.openspiel` with a random-rollout evaluator (one rollout to the
end of the match per simulation), UCT selection and the most visited action. Our side is
the ``hard`` level's search (its exploration constant, its rollout cutoff and the game's
anchor to its heuristic, if the game sets one) with the same number of iterations and no
clock, so that the two spend the same number of simulations whatever the machine; or,
given ``seconds``, with that much time a decision and no count, so that the two can be
compared at the same time a decision (set it to what the reference spends at its
simulations: its seconds per decision are reported beside ours).

Two-player matches alternate seats: match ``i`` puts our bot in seat ``i % 2`` and is
seeded from the run's seed and ``i``, so any match can be replayed alone. Chance events
are drawn from the match's own generator, never from either bot's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from necropolis.analysis.batch import match_seed
from necropolis.analysis.tournament import wilson_interval, write_compact_json
from necropolis.bots.ismcts import ISMCTSBot
from necropolis.bots.levels import HARD_CUTOFF, HARD_EXPLORATION
from necropolis.engine.driver import player_rngs, sample_chance
from necropolis.engine.seat import SeatWindow


@dataclass(frozen=True)
class ReferenceMatch:
    """One match: where our bot sat, the returns, and each side's thinking time."""

    index: int
    seed: int
    our_seat: int
    returns: tuple[float, ...]
    our_seconds: float
    reference_seconds: float
    decisions: int
    #: Of ``decisions``, how many were ours (the rest were the reference's).
    our_decisions: int


@dataclass
class ReferenceResult:
    """A run of matches between our search and OpenSpiel's, with its summary."""

    game: str
    players: int
    simulations: int
    exploration: float
    cutoff: int | None
    seed: int
    matches: list[ReferenceMatch] = field(default_factory=list)
    #: Our seconds a decision (None: ``simulations`` iterations, no clock).
    seconds: float | None = None

    def summary(self) -> dict[str, Any]:
        """Our win share with its 95% Wilson interval, and seconds per decision."""
        n = len(self.matches)
        wins = sum(m.returns[m.our_seat] for m in self.matches)
        theirs = sum(sum(m.returns) - m.returns[m.our_seat] for m in self.matches)
        ours = sum(m.our_decisions for m in self.matches)
        theirs_decisions = sum(m.decisions for m in self.matches) - ours
        return {
            "games": n,
            "our_wins": wins,
            "reference_wins": theirs,
            "our_win_rate": wins / n if n else 0.0,
            "our_win_rate_ci95": list(wilson_interval(wins, n)),
            # Each side's time over its own decisions.
            "our_seconds_per_decision": sum(m.our_seconds for m in self.matches) / (ours or 1),
            "reference_seconds_per_decision": (
                sum(m.reference_seconds for m in self.matches) / (theirs_decisions or 1)
            ),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "simulations": self.simulations,
            "ours": {
                "exploration": self.exploration,
                "cutoff": self.cutoff,
                "seconds": self.seconds,
            },
            "reference": "open_spiel.python.algorithms.ismcts.ISMCTSBot, random rollouts",
            "seed": self.seed,
            "summary": self.summary(),
            "matches": [asdict(m) for m in self.matches],
        }


def play_reference_match(
    game_id: str,
    simulations: int,
    index: int,
    seed: int,
    exploration: float = HARD_EXPLORATION,
    cutoff: int | None = HARD_CUTOFF,
    players: int = 2,
    seconds: float | None = None,
) -> ReferenceMatch:
    """Match ``index``: our IS-MCTS in seat ``index % players``, OpenSpiel's elsewhere.

    ``seconds``: our search's time a decision instead of ``simulations`` iterations.
    """
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from necropolis.games import game_class
    from necropolis.interop import openspiel

    game = pyspiel.load_game(openspiel.register(game_class(game_id)), {"players": players})
    our_seat = index % players
    chance_rng, our_rng, *_ = player_rngs(seed, players + 1)
    reference_rng = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(1, reference_rng)
    reference = ismcts.ISMCTSBot(
        game, evaluator, exploration, simulations, random_state=reference_rng
    )
    # Its worlds come from its own seeded generator (by default each resample would use a
    # fresh, randomly seeded sampler), so that a match replays exactly from its seed.
    reference.set_resampler(
        lambda world, player: world.resample_from_infostate(player, reference_rng.uniform)
    )
    ours = ISMCTSBot(
        iterations=simulations if seconds is None else None,
        seconds=seconds,
        exploration=exploration,
        cutoff=cutoff,
        anchor="game",
    )
    state = game.new_initial_state()
    spent = [0.0, 0.0]  # ours, the reference's
    decisions = mine = 0
    while not state.is_terminal():
        inner = state.inner
        if inner.is_chance_node():
            state.apply_action(sample_chance(inner, chance_rng))
            continue
        seat = inner.current_player()
        start = time.perf_counter()
        if seat == our_seat:
            action = ours.choose(SeatWindow(inner, seat), our_rng)
        else:
            action = int(reference.step(state))
        spent[seat != our_seat] += time.perf_counter() - start
        decisions += 1
        mine += seat == our_seat
        state.apply_action(action)
    returns = tuple(float(r) for r in state.returns())
    return ReferenceMatch(index, seed, our_seat, returns, spent[0], spent[1], decisions, mine)


def run_reference(
    game_id: str,
    games: int,
    simulations: int,
    seed: int = 0,
    exploration: float = HARD_EXPLORATION,
    cutoff: int | None = HARD_CUTOFF,
    on_match: Callable[[ReferenceResult], None] | None = None,
    seconds: float | None = None,
) -> ReferenceResult:
    """``games`` two-player matches, seats alternated, at ``simulations`` per decision
    (ours: ``seconds`` a decision instead, if given).

    ``on_match`` is called with the result so far after each match.
    """
    result = ReferenceResult(game_id, 2, simulations, exploration, cutoff, seed, seconds=seconds)
    for index in range(games):
        match = play_reference_match(
            game_id,
            simulations,
            index,
            match_seed(seed, index),
            exploration,
            cutoff,
            seconds=seconds,
        )
        result.matches.append(match)
        if on_match is not None:
            on_match(result)
    return result


def _main() -> None:
    """``python -m necropolis.analysis.reference GAME GAMES SIMULATIONS OUT.json [SEED]
    [OUR_SECONDS]``."""
    import sys
    from pathlib import Path

    game_id, games, simulations, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    seconds = float(sys.argv[6]) if len(sys.argv) > 6 else None
    path = Path(out)

    def save(result: ReferenceResult) -> None:
        # Written after every match, so that a run stopped early still leaves its evidence.
        write_compact_json(path, result.to_json())
        summary = result.summary()
        print(
            f"{summary['games']} games: ours {summary['our_wins']:g}, "
            f"reference {summary['reference_wins']:g}",
            flush=True,
        )

    run_reference(game_id, games, simulations, seed, on_match=save, seconds=seconds)


if __name__ == "__main__":
    _main()
