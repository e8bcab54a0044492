"""OpenSpiel's own MCTS and IS-MCTS bots against necropolis's bots, through pyspiel.

Each match is played by OpenSpiel's ``evaluate_bots`` on ``necropolis_<game>`` (the
adapter registers it): OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.
ismcts``) and its MCTS, here *determinized*: each decision searches one world drawn from
the seat's information (``resample_from_infostate``), since MCTS on the true state would
read the other seats' hidden cards. Both get random-rollout evaluators and
``--simulations`` a decision. The opponents are necropolis bots wrapped for OpenSpiel
(:class:`necropolis.interop.openspiel.NecropolisBot`). Seats alternate between matches;
the figure is the OpenSpiel bot's win share (winners share 1) with a 95% interval.

    .venv/bin/python examples/openspiel_bots.py --game luxor2001 --matches 100 \\
        --simulations 200 --opponent easy
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from necropolis.interop.openspiel import NecropolisBot


class RestartableISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS, which builds its tree anew at every step, with the two calls
    ``evaluate_bots`` makes of every bot (pyspiel's defaults raise "not implemented")."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


class DeterminizedMCTS(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's MCTS on one world drawn from the seat's information at each step."""

    def __init__(self, search: mcts.MCTSBot, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.search = search
        self.rng = np.random.RandomState(seed)

    def step(self, state: Any) -> int:
        world = state.resample_from_infostate(state.current_player(), self.rng.random_sample)
        return int(self.search.step(world))

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


def openspiel_bot(kind: str, game: Any, simulations: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    if kind == "ismcts":
        return RestartableISMCTS(
            game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed)
        )
    search = mcts.MCTSBot(
        game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed)
    )
    return DeterminizedMCTS(search, seed)


def match_up(
    game_id: str, kind: str, opponent: str, matches: int, simulations: int, seed: int
) -> tuple[float, float]:
    """The OpenSpiel bot's mean return against ``opponent`` at two players, and the
    half-width of its 95% interval."""
    game = pyspiel.load_game(f"necropolis_{game_id}", {"players": 2})
    results = []
    for match in range(matches):
        ours = openspiel_bot(kind, game, simulations, seed + match)
        theirs = NecropolisBot(opponent, seed=seed + match)
        seat = match % 2
        bots = [ours, theirs] if seat == 0 else [theirs, ours]
        rng = np.random.RandomState(seed + match)
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        results.append(float(returns[seat]))
    mean = sum(results) / len(results)
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / max(1, len(results) - 1))
    return mean, 1.96 * spread / math.sqrt(len(results))


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="luxor2001")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--opponent", default="easy", help="the necropolis bot played")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    figures = {}
    for kind in ("ismcts", "mcts"):
        share, half = match_up(
            args.game, kind, args.opponent, args.matches, args.simulations, args.seed
        )
        figures[kind] = (share, half)
        name = "IS-MCTS" if kind == "ismcts" else "MCTS (determinized)"
        print(
            f"OpenSpiel {name}, {args.simulations} simulations, against {args.opponent} "
            f"in {args.game}: {share:.3f} ± {half:.3f} of {args.matches} matches",
            flush=True,
        )
    return figures


if __name__ == "__main__":
    main()
