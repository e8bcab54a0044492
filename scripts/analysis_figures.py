"""The figures docs/analysis.md quotes: how long the analysis of a whole match takes, and
how much its own figures move when only its seed changes.

``time``: per game, at two players and at the most, plays matches of the ``medium``
level (seeded), analyses each at the given depth and prints the CPU seconds it took (one
process: one core). ``noise``: per game at two players, weighs every other decision of
such matches twice, with two seeds of the analysis's own, and prints how far the two
readings of a decision's loss and of the position's chance lie apart (percentiles), how
often noise alone would mark a move (one reading under a point, the other at a mark),
and the mean jump of a seat's chance as its turn comes (the judge's own inconsistency,
counted as luck). That jump is split by what passed the turn: another seat's decision,
or a draw. A draw is counted only when its outcome passes the turn, which selects the
outcomes (a card that ends the other seat's turn is often a bad one for it), so the
draws that may pass the turn are weighed again with every outcome: the seat's chance
after each, by its likelihood, less its chance before, which a judge that agrees with
itself puts at zero.

    scripts/analysis_figures.py time -n 3
    scripts/analysis_figures.py noise -n 4 --game luxor
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from necropolis.analysis.explain import (
    MARKS,
    Depth,
    EstimateJudge,
    Judge,
    analyse_states,
    judge_for,
    position_chance,
)
from necropolis.analysis.explain.match import actor
from necropolis.bots import make_bot
from necropolis.engine import SeatWindow, State
from necropolis.engine.driver import play_match
from necropolis.engine.protocol import CHANCE, Game
from necropolis.games import game_class, game_ids, load_game


def _match(game_id: str, players: int, seed: int) -> tuple[list[State], list[int]]:
    game = load_game(game_id, players=players)
    _, record = play_match(game, [make_bot("medium") for _ in range(players)], seed=seed)
    return list(record.states(load_game)), record.actions


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def _judge(game: Game, estimate: bool) -> Judge:
    """The game's own judge (its shipped model where it has one), or its estimate."""
    return EstimateJudge() if estimate else judge_for(game)


def timing(games: list[str], matches: int, depth: Depth, seed: int, estimate: bool) -> None:
    print(f"CPU seconds to analyse a whole match ({depth.worlds} worlds, rollout {depth.rollout})")
    print("game       players  actions(mean)  seconds mean  max")
    for game_id in games:
        cls = game_class(game_id)
        for players in sorted({cls.min_players, cls.max_players}):
            seconds, lengths = [], []
            for k in range(matches):
                states, actions = _match(game_id, players, seed + k)
                judge = _judge(states[0].game, estimate)
                began = time.process_time()
                analyse_states(states, actions, depth, judge)
                seconds.append(time.process_time() - began)
                lengths.append(len(actions))
            print(
                f"{game_id:10} {players:7}  {statistics.mean(lengths):13.0f}"
                f"  {statistics.mean(seconds):12.1f}  {max(seconds):.1f}",
                flush=True,
            )


def noise(games: list[str], matches: int, depth: Depth, seed: int, estimate: bool) -> None:
    smallest = min(threshold for _, threshold in MARKS)
    print(
        f"two readings of one decision, seeds {depth.seed} and {depth.seed + 1} "
        f"({depth.worlds} worlds, rollout {depth.rollout}); points of chance to win"
    )
    for game_id in games:
        played: list[float] = []
        every: list[float] = []
        chance: list[float] = []
        false_marks = weighed = 0
        bumps: list[float] = []
        after_moves: list[float] = []
        after_draws: list[float] = []
        weighed_draws: list[float] = []
        for k in range(matches):
            states, actions = _match(game_id, 2, seed + k)
            judge = _judge(states[0].game, estimate)
            for t, action in enumerate(actions):
                state = states[t]
                if state.current_player() < 0 or t % 2:
                    continue
                seat = actor(state, action)
                window = SeatWindow(state, seat)
                readings = []
                for s in (depth.seed, depth.seed + 1):
                    again = Depth(depth.worlds, depth.rollout, depth.plans, s)
                    readings.append(position_chance(window, again, judge, f"noise/{t}"))
                (c0, a0), (c1, a1) = readings
                assert a0 is not None and a1 is not None
                chance.append(abs(c0 - c1))
                loss0, loss1 = a0.chance - a0.values[action], a1.chance - a1.values[action]
                played.append(abs(loss0 - loss1))
                for move in a0.values:
                    l0, l1 = a0.chance - a0.values[move], a1.chance - a1.values[move]
                    every.append(abs(l0 - l1))
                    weighed += 1
                    if min(l0, l1) < 0.01 <= smallest <= max(l0, l1):
                        false_marks += 1
            analysis = analyse_states(states, actions, depth, judge)
            for t in range(1, len(actions)):
                for seat in range(2):
                    if (
                        seat in states[t].acting_seats()
                        and seat not in states[t - 1].acting_seats()
                    ):
                        bump = analysis.chances[t][seat] - analysis.chances[t - 1][seat]
                        bumps.append(bump)
                        drawn = states[t - 1].current_player() == CHANCE
                        (after_draws if drawn else after_moves).append(bump)
            for t in range(len(actions)):
                if states[t].current_player() != CHANCE:
                    continue
                for seat in range(2):
                    mean = _draw_mean(states[t], seat, depth, judge, f"draw/{t}")
                    if mean is not None:
                        weighed_draws.append(mean - analysis.chances[t][seat])
        print(
            f"{game_id}: {len(played)} decisions, {weighed} moves weighed twice\n"
            f"  chance of the position: p50 {100 * _percentile(chance, 0.5):.1f}"
            f"  p95 {100 * _percentile(chance, 0.95):.1f}  max {100 * max(chance):.1f}\n"
            f"  loss of the move played: p95 {100 * _percentile(played, 0.95):.1f}"
            f"  p99 {100 * _percentile(played, 0.99):.1f}  max {100 * max(played):.1f}\n"
            f"  loss of every legal move: p95 {100 * _percentile(every, 0.95):.1f}"
            f"  p99 {100 * _percentile(every, 0.99):.1f}  max {100 * max(every):.1f}\n"
            f"  marked by noise alone: {false_marks} of {weighed}\n"
            f"  a seat's chance as its turn comes: mean {100 * statistics.mean(bumps):+.1f}"
            f"  sd {100 * statistics.pstdev(bumps):.1f} ({len(bumps)} turns)\n"
            f"    after another seat's decision: {_mean(after_moves)}\n"
            f"    after a draw, as it fell: {_mean(after_draws)}\n"
            f"  across the draws that may pass a seat the turn, every outcome weighed:"
            f" {_mean(weighed_draws)}",
            flush=True,
        )


def _mean(values: list[float]) -> str:
    if not values:
        return "none"
    spread = statistics.pstdev(values)
    half = 1.96 * spread / len(values) ** 0.5
    return (
        f"mean {100 * statistics.mean(values):+.1f} (±{100 * half:.1f})"
        f"  sd {100 * spread:.1f} ({len(values)})"
    )


def _draw_mean(state: State, seat: int, depth: Depth, judge: Judge, tag: str) -> float | None:
    """The seat's chance after the draw at ``state``, every outcome weighed by its
    likelihood, where the seat was not deciding and some outcome passes it the turn; else
    None (the draw does not bring the seat its turn)."""
    if seat in state.acting_seats():
        return None
    children = []
    for outcome, likelihood in state.chance_outcomes():
        child = state.clone()
        child.apply_action(outcome)
        children.append((child, likelihood))
    if not any(seat in child.acting_seats() for child, _ in children):
        return None
    total = 0.0
    for k, (child, likelihood) in enumerate(children):
        if child.is_terminal():
            value = child.returns()[seat]
        else:
            value, _ = position_chance(SeatWindow(child, seat), depth, judge, f"{tag}/{k}")
        total += likelihood * value
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["time", "noise"])
    parser.add_argument("-n", "--matches", type=int, default=2, help="matches per game")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--worlds", type=int, default=Depth.worlds)
    parser.add_argument("--rollout", type=int, default=Depth.rollout)
    parser.add_argument("--seed", type=int, default=1000, help="the first match's seed")
    parser.add_argument(
        "--estimate",
        action="store_true",
        help="judge by the game's estimate even where it ships a learned model",
    )
    args = parser.parse_args(argv)
    games: list[str] = list(args.game or game_ids())
    for name in games:
        if name not in game_ids():
            parser.error(f"no game called {name!r}")
    if args.matches < 1:
        parser.error("-n/--matches is at least 1")
    try:
        depth = Depth(worlds=args.worlds, rollout=args.rollout)
    except ValueError as exc:
        parser.error(str(exc))
    if args.what == "time":
        timing(games, args.matches, depth, args.seed, args.estimate)
    else:
        noise(games, args.matches, depth, args.seed, args.estimate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
