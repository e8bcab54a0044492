"""Measure The Pyramid of Horus under random play and under a simple sensible policy.

Run ``python -m tests.horus.measure [games]``. Random play is a poor player (it walks out
of the entrance at once or wanders until sealed in), so two simple policies check that
the reconstructed board gives a real game: the explorer walks in, searches the sand and
the pond, opens sarcophagi it passes, and heads back for the exit once loaded or once the
blocks start to pile up; the raider goes straight for the corridor's sarcophagi and
alcoves and leaves with three treasures or idols. Prints steps per second, rounds, escapes and how
often nobody escapes, per player count.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

import necropolis
from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import (
    A_CROWBAR,
    A_DONE,
    A_LEAVE,
    A_LOCKPICKING,
    A_MOVE,
    A_OPEN,
    A_PICK,
    A_REROLL,
    A_SEARCH,
    A_TAKE,
    A_USE_REACTION,
    D_LOCK,
    D_REACT,
    D_TURN,
    ESCAPED,
)
from necropolis.games.horus.heuristic import board_distances
from necropolis.games.horus.state import HorusState


def _step_toward(state: HorusState, seat: int, legal: list[int], targets: list[int]) -> int:
    fallen = tuple(b + 1 for b in range(cp.NUM_BLOCKS) if state.fallen[b])
    dist = board_distances(fallen, tuple(targets))
    here = state.square[seat]
    best = min(
        (a for a in legal if A_MOVE <= a < A_MOVE + 4),
        key=lambda a: dist[cp.NEIGHBOURS[here][a - A_MOVE]],
        default=A_DONE,
    )
    if best != A_DONE and dist[cp.NEIGHBOURS[here][best - A_MOVE]] < dist[here]:
        return best
    return A_DONE


def explorer(state: HorusState, rng: random.Random) -> int:
    seat = state.current_player()
    legal = state.legal_actions()
    if state.node == D_REACT:
        return A_USE_REACTION
    if state.node == D_LOCK:
        return A_REROLL + 30 if A_REROLL + 30 in legal else legal[-1]
    if state.node != D_TURN:
        return A_DONE if A_DONE in legal else legal[0]
    loot = sum(1 for t in state.hand[seat] if cp.CARD_KIND[t] in (cp.TREASURE, cp.IDOL))
    danger = sum(state.fallen) >= 12 or state.wounds(seat) >= 4
    if loot >= 4 or danger or len(state.hand[seat]) >= 8:
        if A_LEAVE in legal:
            return A_LEAVE
        return _step_toward(state, seat, legal, list(cp.ENTRANCES))
    for a in legal:
        if A_TAKE <= a < A_TAKE + cp.NUM_SARCOPHAGI or A_OPEN <= a < A_OPEN + cp.NUM_SARCOPHAGI:
            return a
    area = cp.AREA[state.square[seat]]
    if A_SEARCH in legal and area in (cp.SCORPION_PIT, cp.CROCODILE_POND) and rng.random() < 0.6:
        return A_SEARCH
    targets = [sq for _, sq in cp.SARCOPHAGI]
    move = _step_toward(state, seat, legal, targets)
    if move != A_DONE:
        return move
    return legal[rng.randrange(len(legal))]


def raider(state: HorusState, rng: random.Random) -> int:
    """Straight for the corridor: open and empty sarcophagi, try the locks, then out."""
    seat = state.current_player()
    legal = state.legal_actions()
    if state.node == D_REACT:
        return A_USE_REACTION
    if state.node == D_LOCK:
        needed = set(cp.IDOL_LOCK[state.lock_god])
        mask = 0
        seen: set[int] = set()
        for i, face in enumerate(state.lock_dice):
            if face in needed and face not in seen:
                seen.add(face)
            else:
                mask |= 1 << i
        for a in legal:  # a Crowbar or Lockpicking finishes the lock
            if a in (A_CROWBAR, A_LOCKPICKING):
                return a
        if mask and A_REROLL + mask - 1 in legal:
            return A_REROLL + mask - 1
        return A_DONE
    if state.node != D_TURN:
        return A_DONE if A_DONE in legal else legal[0]
    loot = sum(1 for t in state.hand[seat] if cp.CARD_KIND[t] in (cp.TREASURE, cp.IDOL))
    if loot >= 3 or sum(state.fallen) >= 15 or state.wounds(seat) >= 4:
        if A_LEAVE in legal:
            return A_LEAVE
        return _step_toward(state, seat, legal, list(cp.ENTRANCES))
    for a in legal:
        if A_TAKE <= a < A_TAKE + cp.NUM_SARCOPHAGI or A_OPEN <= a < A_OPEN + cp.NUM_SARCOPHAGI:
            return a
    for a in legal:
        if A_PICK <= a < A_PICK + len(cp.GODS) and rng.random() < 0.5:
            return a
    targets = [sq for k, (_, sq) in enumerate(cp.SARCOPHAGI) if state.sarc_state[k] < 2]
    targets += [
        sq for g, front in enumerate(cp.ALCOVE_FRONT) if state.alcove_idol[g] for sq in front
    ]
    move = _step_toward(state, seat, legal, targets)
    return move if move != A_DONE else legal[rng.randrange(len(legal))]


def run(players: int, games: int, policy: str) -> None:
    game = necropolis.load_game("horus", players=players)
    rng = random.Random(players)
    rounds: Counter[int] = Counter()
    steps = 0
    nobody = 0
    escapes = 0
    score = 0.0
    corridor = 0
    opened = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, HorusState)
        visited: set[int] = set()
        while not state.is_terminal():
            for seat in range(players):
                sq = state.square[seat]
                if sq >= 0 and cp.AREA[sq] == cp.MUMMIES_CORRIDOR:
                    visited.add(seat)
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            elif policy == "random":
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            elif policy == "explorer":
                action = explorer(state, rng)
            else:
                action = raider(state, rng)
            state.apply_action(action)
            steps += 1
        rounds[state.round] += 1
        corridor += len(visited)
        opened += sum(1 for k in state.sarc_state if k)
        out = [s for s in range(players) if state.status[s] == ESCAPED]
        escapes += len(out)
        nobody += not out
        score += sum(state.scores()[s] for s in out)
    elapsed = time.perf_counter() - start
    spread = sorted(rounds.elements())
    quart = [spread[int(q * (len(spread) - 1))] for q in (0.0, 0.25, 0.5, 0.75, 1.0)]
    print(
        f"{policy:8} players={players} games={games} steps/s={steps / elapsed:,.0f}"
        f" steps/game={steps / games:.0f} rounds min/q1/median/q3/max={quart}"
        f" escaped/adventurer={escapes / (games * players):.2f}"
        f" nobody escaped={nobody / games:.1%}"
        f" mean escaped score={score / max(escapes, 1):.1f}"
        f" reached the corridor={corridor / (games * players):.0%}"
        f" sarcophagi opened/game={opened / games:.1f}"
    )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for policy in ("random", "explorer", "raider"):
        for n in range(2, 7):
            run(n, count, policy)
