"""What the table server's games cost it per action, without a socket: a steady figure.

``bench_table.py`` measures the whole server over real connections, and its CPU per
action moves by a fifth from run to run with the mix of games its tables happen to play
(a horus action is mostly a cheap roll, a luxor one a full turn's message). This script
measures the part of that work the games do, the same way every time: it plays seeded
matches of each game with the game's heuristic (untimed), then replays each through a
:class:`~necropolis.server.live.LiveTable` seated as the benchmark seats its tables (two
people watching, one bot), and times what the server does per committed action: the
narration for each watching seat (``LiveTable.apply``) and, after each decision with the
chance outcomes it led to (after a bot's whole turn, which the server asks for and tells
at once), each watching seat's ``state`` message as JSON text
(``filter.state_text``: the view, the choices and their descriptors, the score
breakdown, the steps missed, the log). It prints CPU microseconds per action and per
message for each game, the least of ``--repeat`` runs each in a fresh process; with
``--reference REV`` it times git revision ``REV``'s package on the same matches too, the
two taking turns, and prints the ratio.

    .venv/bin/python scripts/bench_filter.py --matches 20 --reference d21deb7
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from revisions import reference_source  # noqa: E402

#: The seats of a benchmark table (``bench_table.py``): two people and an easy bot.
SEATS = ("link", "link", "bot")


def _match(game: Any, seed: int) -> list[tuple[int | None, int]]:
    """A seeded match of ``game`` played by its heuristic (random moves where it has
    none): who took each action (None: chance) and the action."""
    from necropolis.engine.protocol import CHANCE, sample_chance
    from necropolis.engine.seat import SeatWindow

    rng = random.Random(seed)
    policy = game.heuristic_policy()
    state = game.new_initial_state()
    actions: list[tuple[int | None, int]] = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            actions.append((None, sample_chance(state, rng)))
        else:
            seat = next(iter(state.acting_seats()))
            legal = state.legal_actions(seat)
            chosen = policy(SeatWindow(state, seat), rng) if policy else rng.choice(legal)
            actions.append((seat, chosen))
        state.apply_action(actions[-1][1])
    return actions


def measure(game_id: str, matches: int, seed: int) -> dict[str, float]:
    """CPU seconds, actions and messages of the server's work over ``matches`` matches."""
    from necropolis.engine.protocol import CHANCE
    from necropolis.games import load_game
    from necropolis.server import bots as server_bots
    from necropolis.server import filter
    from necropolis.server.live import Connection, LiveTable
    from necropolis.server.service import new_row

    game = load_game(game_id, players=len(SEATS))
    seats: list[Any] = [
        {"seat": k, "type": t, "name": f"P{k}", "level": "easy" if t == "bot" else None}
        for k, t in enumerate(SEATS)
    ]
    try:
        # (seats are typed since the one door; a reference revision from before has dicts)
        from necropolis.server.seats import seats_of

        seats = seats_of(seats)
    except ImportError:
        pass
    bots = {k for k, t in enumerate(SEATS) if t == "bot"}
    # (told the same way for a reference revision from before bots' turns were told whole,
    # so that both build the same messages)
    most: int = getattr(server_bots, "TURN_MOST", 8)
    seconds = 0.0
    actions = messages = 0
    for i in range(matches):
        played = _match(game, seed * 1_000_003 + i)
        live = LiveTable(new_row(game.id, dict(game.options), seats, "c" * 64, "s" * 64, "t"), [])
        watching = [Connection(seat=k, version=0) for k, t in enumerate(SEATS) if t == "link"]
        live.connections.update(watching)
        start = time.process_time()
        for connection in watching:  # each person's first state
            connection.version, _ = filter.state_text(live, connection.seat, filter.FIRST)
        run = 0  # the bot's decisions so far in its turn
        for seat, action in played:
            live.apply(seat, action)
            if live.state.current_player() == CHANCE:
                continue  # a decision is committed with the chance outcomes it led to
            run = run + 1 if seat in bots else 0
            if run and run < most and live.state.acting_seats() == (seat,):
                continue  # the bot's turn goes on: it is told whole
            run = 0
            for connection in watching:
                connection.version, _ = filter.state_text(live, connection.seat, connection.version)
                messages += 1
        seconds += time.process_time() - start
        actions += len(played)
    return {"seconds": seconds, "actions": actions, "messages": messages}


def _run(game_id: str, matches: int, seed: int, source: Path | None) -> dict[str, float]:
    """:func:`measure` in a fresh process, on ``source``'s package if given."""
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = str(source)
    command = [sys.executable, __file__, "--child", game_id, str(matches), str(seed)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring {game_id} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--matches", type=int, default=20, help="matches per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the least kept")
    parser.add_argument("--reference", metavar="REV", help="also time git revision REV")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        game_id, matches, seed = arguments.child
        print(json.dumps(measure(game_id, int(matches), int(seed))))
        return
    from necropolis.games import game_ids

    games = [g for g in arguments.games.split(",") if g] or list(game_ids())
    unknown = sorted(set(games) - set(game_ids()))
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    print(f"bench_filter: {' '.join(sys.argv[1:])}; load average {os.getloadavg()[0]:.2f}")
    with ExitStack() as stack:
        variants: list[tuple[str, Path | None]] = [("current", None)]
        if arguments.reference:
            source = stack.enter_context(reference_source(arguments.reference, "filter-ref-"))
            variants.insert(0, (f"ref {arguments.reference}"[:11], source))
        for game_id in games:
            # Each variant is timed --repeat times, the variants taking turns, and the
            # least time kept: a run can only be slowed by what else the machine does.
            best: dict[str, dict[str, float]] = {}
            for _ in range(arguments.repeat):
                for label, path in variants:
                    r = _run(game_id, arguments.matches, arguments.seed, path)
                    if label not in best or r["seconds"] < best[label]["seconds"]:
                        best[label] = r
            per_action: dict[str, float] = {}
            for label, _path in variants:
                r = best[label]
                per_action[label] = 1e6 * r["seconds"] / r["actions"]
                print(
                    f"{label:11} {game_id:10} {int(r['actions']):6d} actions"
                    f" {int(r['messages']):6d} messages  {per_action[label]:7.1f} us an action"
                    f"  {1e6 * r['seconds'] / r['messages']:7.1f} us a message",
                    flush=True,
                )
            if len(variants) == 2:
                ratio = per_action["current"] / per_action[variants[0][0]]
                print(f"{'ratio':11} {game_id:10} current/reference: CPU an action {ratio:.2f}")


if __name__ == "__main__":
    main()
