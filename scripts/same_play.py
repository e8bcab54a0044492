"""Check that an engine change plays exactly as git revision REV did, from the same seeds.

For work on the engines' speed (clones, determinizations, the rules' inner loops) that
must change nothing a player, a bot or a record can see. Every game, at every player count
and with each yes/no variant at three players, plays seeded matches (``--random`` of
uniformly random play, ``--heuristic`` of mostly heuristic play, which reaches more of the
rules), and at every step digests what can be read from the state: every seat's view and
a spectator's, the legal actions, the chance outcomes, the returns and estimate, every
field (lists and tuples alike), the log entries, score breakdowns and prompts of every
viewer, the action descriptors, a clone played one step beside the state, and (at every
third step that is a decision) a world resampled for each seat, its fields before and
after five rollout steps, with the state of its generator. Each configuration ends with
IS-MCTS searches and heuristic decisions from fixed seeds. The same is run on ``src/``
of revision ``REV`` (taken with ``git archive``, run by the same interpreter), and any
configuration whose digests differ is printed with its first differing step; the exit
status is 1 if any does.

    .venv/bin/python scripts/same_play.py --reference main
    .venv/bin/python scripts/same_play.py --reference 07c3be4 --random 4 --heuristic 2
    .venv/bin/python scripts/same_play.py --reference main --game luxor2001

It takes minutes (the heuristic matches most of them); nothing is timed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from revisions import reference_source

ROOT = Path(__file__).resolve().parent.parent


def _plain(value: Any) -> Any:
    """Lists and tuples alike, so that a field changed from one to the other compares."""
    if isinstance(value, (list, tuple)):
        return [_plain(x) for x in value]
    return value


def _fields(state: Any) -> dict[str, Any]:
    names = {n for c in type(state).__mro__ for n in getattr(c, "__slots__", ())}
    # the game is shared; luxor's ends_cache is a cache, set or not by who asked before;
    # the events sink is None between actions (and absent before the rules emitted events)
    names -= {"game", "ends_cache", "sink"}
    return {n: _plain(getattr(state, n)) for n in sorted(names) if hasattr(state, n)}


def _configurations(games: list[str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    from necropolis.games import game_class, game_ids

    found = []
    for game_id in game_ids():
        if games and game_id not in games:
            continue
        cls = game_class(game_id)
        for players in range(cls.min_players, cls.max_players + 1):
            found.append((game_id, {"players": players}))
        for option in cls.extra_options:
            if option.kind is bool:
                found.append((game_id, {"players": 3, option.name: not option.default}))
    return found


def _step_record(state: Any, seats: range, step: int) -> list[Any]:
    record: list[Any] = [
        repr([state.view(s) for s in (None, *seats)]),
        state.legal_actions(),
        state.chance_outcomes(),
        state.returns(),
        state.estimate_returns(),
        _fields(state),
    ]
    if state.current_player() >= 0 and step % 3 == 0:
        for seat in seats:
            rng = random.Random(step * 31 + seat)
            world = state.resample(seat, rng)
            record.append((_fields(world), repr(world.view(None)), rng.random()))
            for _ in range(5):
                if world.is_terminal():
                    break
                world.apply_action(world.rollout_action(rng))
            record.append((_fields(world), rng.random()))
    return record


def digest(
    random_matches: int, heuristic_matches: int, games: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Per configuration: the digest of everything and one line per step."""
    from necropolis.bots.ismcts import ISMCTSBot
    from necropolis.engine import CHANCE, SeatWindow
    from necropolis.games import load_game

    out: dict[str, dict[str, Any]] = {}
    for game_id, options in _configurations(games):
        game = load_game(game_id, **options)
        policy = game.heuristic_policy()
        seats = range(game.num_players)
        whole = hashlib.sha256()
        lines: list[str] = []
        picks: list[Any] = []
        for match in range(random_matches + heuristic_matches):
            rng = random.Random(match)
            state = game.new_initial_state()
            step = 0
            while not state.is_terminal():
                record = _step_record(state, seats, step)
                clone = state.clone()
                before = state.clone()
                if state.current_player() == CHANCE:
                    outcomes = state.chance_outcomes()
                    action = outcomes[rng.randrange(len(outcomes))][0]
                elif match >= random_matches and policy is not None and rng.random() < 0.85:
                    action = policy(SeatWindow(state, state.current_player()), rng)
                else:
                    actions = state.legal_actions()
                    action = actions[rng.randrange(len(actions))]
                    if len(actions) > 1 and len(picks) < 3 and rng.random() < 0.02:
                        picks.append(state.clone())
                state.apply_action(action)
                clone.apply_action(action)
                record.append(_fields(clone) == _fields(state))
                for viewer in (None, *seats):
                    record.append(repr(state.narrate(before, action, viewer)))
                    record.append(repr(state.score_breakdown(viewer)))
                    record.append(repr(state.prompt(viewer)))
                if state.current_player() >= 0:
                    record.append(repr([state.action_info(a) for a in state.legal_actions()]))
                line = hashlib.sha256(repr(record).encode()).hexdigest()
                lines.append(line)
                whole.update(line.encode())
                step += 1
        for state in picks:
            bot = ISMCTSBot(iterations=60, seconds=None, cutoff=10)
            root = bot.search(SeatWindow(state, state.current_player()), random.Random(7))
            stats = sorted((str(k), c.visits, round(c.total, 9)) for k, c in root.children.items())
            whole.update(repr(stats).encode())
            if policy is not None:
                choice = policy(SeatWindow(state, state.current_player()), random.Random(8))
                whole.update(repr(choice).encode())
        key = f"{game_id} {json.dumps(options, sort_keys=True)}"
        out[key] = {"digest": whole.hexdigest(), "lines": lines}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", help="git revision to compare with (e.g. main)")
    parser.add_argument("--random", type=int, default=3, help="random matches per config")
    parser.add_argument("--heuristic", type=int, default=1, help="heuristic matches per config")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--digest", help=argparse.SUPPRESS)  # internal: write digests here
    args = parser.parse_args()
    if args.digest:
        Path(args.digest).write_text(json.dumps(digest(args.random, args.heuristic, args.game)))
        return 0
    if not args.reference:
        parser.error("--reference REV is needed")
    sides: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="same-play-out-") as out,
        reference_source(args.reference, prefix="same-play-") as source,
    ):
        for name, path in (("reference", source), ("here", ROOT / "src")):
            target = Path(out) / f"{name}.json"
            env = {**os.environ, "PYTHONPATH": str(path)}
            command = [sys.executable, __file__, "--digest", str(target)]
            command += ["--random", str(args.random), "--heuristic", str(args.heuristic)]
            for game in args.game or ():
                command += ["--game", game]
            print(f"playing ({name})…", flush=True)
            subprocess.run(command, check=True, env=env)
            sides[name] = json.loads(target.read_text())
    differing = 0
    steps = 0
    for key, theirs in sides["reference"].items():
        ours = sides["here"].get(key)
        steps += len(theirs["lines"])
        if ours is None or ours["digest"] != theirs["digest"]:
            differing += 1
            pairs = zip(theirs["lines"], ours["lines"] if ours else [], strict=False)
            first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
            print(f"differs: {key} (first differing step: {first})")
    print(f"{len(sides['reference'])} configurations, {steps} steps, {differing} differing")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
