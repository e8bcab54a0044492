"""What a learned judgement costs hard's search: iterations a CPU second with the cut-off
leaves judged by the game's estimate, then by a learned model, at the same positions.

Plays random two-player matches of the game to gather positions where a seat has more
than one choice, then runs hard's search (cutoff and exploration as hard, no anchor, a
fixed number of iterations) at each of them twice: on the estimate and on the model.

    .venv/bin/python scripts/bench_judgement.py luxor2001 training/luxor2001-2p/kept.npz
    .venv/bin/python scripts/bench_judgement.py horus MODEL.npz --positions 12 --iterations 500
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from necropolis.bots.ismcts import ISMCTSBot
from necropolis.bots.judgement import LearnedEvaluator, Network
from necropolis.bots.levels import HARD_CUTOFF, HARD_EXPLORATION
from necropolis.engine.protocol import CHANCE, State, sample_chance
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game


def positions(game_id: str, count: int, seed: int) -> list[State]:
    """``count`` positions of random two-player matches where a seat has a choice."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = load_game(game_id, players=2).new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            actions = state.legal_actions()
            if len(actions) > 1 and rng.random() < 0.05:
                found.append(state.clone())
            state.apply_action(rng.choice(actions))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("model", type=Path, help="a model file (necropolis train --export)")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game, players=2)
    judge = LearnedEvaluator(game, Network.load(args.model))
    states = positions(args.game, args.positions, args.seed)
    for label, judgement in (("estimate", False), ("learned", judge)):
        bot = ISMCTSBot(
            iterations=args.iterations,
            exploration=HARD_EXPLORATION,
            cutoff=HARD_CUTOFF,
            judgement=judgement,
        )
        started = time.process_time()
        done = 0
        for state in states:
            bot.choose(SeatWindow(state, state.current_player()), random.Random(args.seed))
            done += bot.last.iterations
        spent = time.process_time() - started
        print(f"{args.game} {label}: {done / spent:,.0f} iterations a CPU second")


if __name__ == "__main__":
    main()
