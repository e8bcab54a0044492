"""Train sb3-contrib's MaskablePPO on one seat of a necropolis game against a bot.

The learner sees its seat's observation tensor and picks among its legal actions (the
mask of :class:`necropolis.interop.gym.SeatEnv`); the other seats are necropolis bots and
chance is drawn inside the environment. Every ``--eval-every`` steps (and before the
first) the policy plays ``--eval-matches`` matches against ``random`` and against
``easy``, half in each seat order, and its win share (its mean return: winners share 1)
is printed with a 95% interval, one row of a Markdown table; ``--out FILE`` writes the
curve as JSON as it goes. Needs the ``rl`` extra (``pip install -e ".[rl]"``).

    .venv/bin/python examples/train_maskable_ppo.py --steps 200000 --out curve.json
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO

from necropolis.interop.gym import SeatEnv


def win_share(
    model: MaskablePPO, game: str, opponent: str, matches: int, players: int, seed: int
) -> tuple[float, float]:
    """The policy's mean return over ``matches`` (seats taken in turn) and the half-width
    of its 95% interval."""
    results = []
    for match in range(matches):
        env = SeatEnv(game, [opponent], seat=match % players, players=players)
        observation, _ = env.reset(seed=seed + match)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(
                observation, action_masks=env.action_masks(), deterministic=True
            )
            observation, reward, done, _, _ = env.step(action)
        results.append(float(reward))
    mean = sum(results) / len(results)
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / max(1, len(results) - 1))
    return mean, 1.96 * spread / math.sqrt(len(results))


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="luxor2001")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="random", help="the bot trained against")
    parser.add_argument("--steps", type=int, default=200_000, help="learner decisions")
    parser.add_argument("--eval-every", type=int, default=25_000)
    parser.add_argument("--eval-matches", type=int, default=200)
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO's rollout length")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write the curve here (JSON)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: threads cost more than they give

    env = SeatEnv(args.game, [args.opponent], seat=None, players=args.players)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(64, args.n_steps),
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    curve: list[dict[str, Any]] = []
    started = time.monotonic()
    print("| steps | vs random | vs easy | minutes |")
    print("| ---: | ---: | ---: | ---: |")
    trained = 0
    while True:
        row: dict[str, Any] = {"steps": trained}
        for opponent in ("random", "easy"):
            # The same deals at every point of the curve, other than the training seeds.
            share, half = win_share(
                model, args.game, opponent, args.eval_matches, args.players, 10**6
            )
            row[opponent] = {"share": share, "half_width": half}
        row["minutes"] = (time.monotonic() - started) / 60
        curve.append(row)
        print(
            f"| {trained:,} | {row['random']['share']:.3f} ± {row['random']['half_width']:.3f}"
            f" | {row['easy']['share']:.3f} ± {row['easy']['half_width']:.3f}"
            f" | {row['minutes']:.1f} |",
            flush=True,
        )
        if args.out is not None:
            settings = vars(args) | {"out": str(args.out)}
            args.out.write_text(json.dumps({"settings": settings, "curve": curve}, indent=1))
        if trained >= args.steps:
            return curve
        chunk = min(args.eval_every, args.steps - trained)
        model.learn(chunk, reset_num_timesteps=False)
        trained = model.num_timesteps  # whole rollouts: may pass the chunk asked for


if __name__ == "__main__":
    main()
