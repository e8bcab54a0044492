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
of revision ``REV`` (taken with ``git archive``, run by the same interpreter), the two
sides at once in two processes. Each step's parts are digested apart (each seat's view,
log entries, breakdown and prompt, the fields, the worlds…), so a configuration whose
digests differ is printed with its first differing step and, per part, how many steps
it differs at; the first differing step of the first ``--explain`` configurations is then
played again on both sides and its differing parts shown as a diff of their texts. The
exit status is 1 if any configuration differs.

    .venv/bin/python scripts/same_play.py --reference main
    .venv/bin/python scripts/same_play.py --reference 07c3be4 --random 4 --heuristic 2
    .venv/bin/python scripts/same_play.py --reference main --game luxor2001
    .venv/bin/python scripts/same_play.py --reference db78727 --random 48 --heuristic 16

It takes minutes (the heuristic matches most of them); nothing is timed.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Any

from revisions import reference_source

ROOT = Path(__file__).resolve().parent.parent


def _plain(value: Any) -> Any:
    """Lists, tuples, bytes and arrays alike, so that a field changed from one to another
    compares."""
    if isinstance(value, (list, tuple, bytearray, array)):
        return [_plain(x) for x in value]
    return value


def _fields(state: Any) -> dict[str, Any]:
    names = {n for c in type(state).__mro__ for n in getattr(c, "__slots__", ())}
    # the game is shared; luxor's ends_cache is a cache, set or not by who asked before;
    # the events sink is None between actions (and absent before the rules emitted events)
    names -= {"game", "ends_cache", "sink"}
    fields = {n: _plain(getattr(state, n)) for n in sorted(names) if hasattr(state, n)}
    # The actions a state carries, however it splits them between a past its clones share
    # and its latest.
    fields["_history"] = fields.pop("_past", []) + fields["_history"]
    return fields


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


def _step_record(state: Any, seats: range, step: int) -> list[tuple[str, Any]]:
    """What can be read from the state before a step, each part named."""
    record: list[tuple[str, Any]] = [
        *((f"view {s}", repr(state.view(s))) for s in (None, *seats)),
        ("legal actions", state.legal_actions()),
        ("chance outcomes", state.chance_outcomes()),
        ("returns", state.returns()),
        ("estimate", state.estimate_returns()),
        ("fields", _fields(state)),
    ]
    if state.current_player() >= 0 and step % 3 == 0:
        for seat in seats:
            rng = random.Random(step * 31 + seat)
            world = state.resample(seat, rng)
            record.append((f"world {seat}", (_fields(world), repr(world.view(None)), rng.random())))
            for _ in range(5):
                if world.is_terminal():
                    break
                world.apply_action(world.rollout_action(rng))
            record.append((f"world {seat} played", (_fields(world), rng.random())))
    return record


def _short(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:_WIDTH]


#: Hex digits kept of each part's digest: a step's line is its parts' digests side by side,
#: in the order of the configuration's ``names``, dashes for a part the step lacks.
_WIDTH = 6


def digest(
    random_matches: int,
    heuristic_matches: int,
    games: list[str] | None = None,
    only: str | None = None,
    show: int | None = None,
) -> dict[str, dict[str, Any]]:
    """Per configuration: the digest of everything, and per step each part's digest.

    With ``only`` (a configuration's key) just that configuration is played, and with
    ``show`` (a step's number in it) the parts of that step are kept whole, as text."""
    from necropolis.bots.ismcts import ISMCTSBot
    from necropolis.engine import CHANCE, SeatWindow
    from necropolis.games import load_game

    out: dict[str, dict[str, Any]] = {}
    for game_id, options in _configurations(games):
        key = f"{game_id} {json.dumps(options, sort_keys=True)}"
        if only is not None and key != only:
            continue
        game = load_game(game_id, **options)
        policy = game.heuristic_policy()
        seats = range(game.num_players)
        whole = hashlib.sha256()
        lines: list[str] = []
        names: dict[str, int] = {}
        shown: dict[str, str] = {}
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
                record.append(("action", action))
                record.append(("clone alike", _fields(clone) == _fields(state)))
                for viewer in (None, *seats):
                    record.append((f"log {viewer}", repr(state.narrate(before, action, viewer))))
                    record.append((f"breakdown {viewer}", repr(state.score_breakdown(viewer))))
                    record.append((f"prompt {viewer}", repr(state.prompt(viewer))))
                if state.current_player() >= 0:
                    infos = [state.action_info(a) for a in state.legal_actions()]
                    record.append(("descriptors", repr(infos)))
                if show is not None and len(lines) == show:
                    shown = {name: repr(value) for name, value in record}
                    out[key] = {"digest": "", "names": [], "lines": [], "shown": shown}
                    return out
                parts = {name: _short(value) for name, value in record}
                for name in parts:
                    names.setdefault(name, len(names))
                line = "".join(parts.get(name, "-" * _WIDTH) for name in names)
                lines.append(line)
                whole.update(repr(sorted(parts.items())).encode())
                step += 1
        for state in picks:
            bot = ISMCTSBot(iterations=60, seconds=None, cutoff=10)
            root = bot.search(SeatWindow(state, state.current_player()), random.Random(7))
            stats = sorted((str(k), c.visits, round(c.total, 9)) for k, c in root.children.items())
            whole.update(repr(stats).encode())
            if policy is not None:
                choice = policy(SeatWindow(state, state.current_player()), random.Random(8))
                whole.update(repr(choice).encode())
        out[key] = {"digest": whole.hexdigest(), "names": list(names), "lines": lines}
    return out


def _command(args: argparse.Namespace, out: Path, extra: list[str]) -> list[str]:
    """This script, asked to write the digests of the engine on its PYTHONPATH to ``out``."""
    command = [sys.executable, __file__, "--digest", str(out)]
    command += ["--random", str(args.random), "--heuristic", str(args.heuristic)]
    for game in args.game or ():
        command += ["--game", game]
    return command + extra


def _play(
    where: dict[str, Path], out: Path, args: argparse.Namespace, extra: list[str]
) -> dict[str, Any]:
    """Each side's digests (``where``: a side's name and its engine's ``src``), both sides
    played at once, each by this script in a process of its own."""
    running = {}
    for name, source in where.items():
        env = {**os.environ, "PYTHONPATH": str(source)}
        command = _command(args, out / f"{name}.json", extra)
        running[name] = subprocess.Popen(command, env=env)
    for name, process in running.items():
        if process.wait() != 0:
            raise SystemExit(f"playing ({name}) failed")
    return {name: json.loads((out / f"{name}.json").read_text()) for name in where}


def _parts(names: list[str], line: str) -> dict[str, str]:
    """A step's line taken apart: each part's digest by name (absent parts left out)."""
    cut = (line[i * _WIDTH : (i + 1) * _WIDTH] for i in range(len(names)))
    return {n: d for n, d in zip(names, cut, strict=True) if d and d != "-" * _WIDTH}


def _show(key: str, step: int, texts: dict[str, dict[str, str]], parts: list[str]) -> None:
    """The differing parts of a step, as a diff of their texts."""
    print(f"  {key}, step {step}:")
    for part in parts:
        a = texts["reference"].get(part, "(none)")
        b = texts["here"].get(part, "(none)")
        diff = difflib.unified_diff(_lines(a), _lines(b), "reference", "here", lineterm="", n=1)
        print(f"  -- {part}")
        for i, line in enumerate(diff):
            if i >= 40:
                print("     (more)")
                break
            print("     " + line[:200])


def _lines(text: str) -> list[str]:
    """A repr cut where its items begin, so that a diff points at the item that differs."""
    return re.sub(r"(, |\[|\()(?=[A-Z\[{(]|'[a-z])", r"\1\n", text).split("\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", help="git revision to compare with (e.g. main)")
    parser.add_argument("--random", type=int, default=3, help="random matches per config")
    parser.add_argument("--heuristic", type=int, default=1, help="heuristic matches per config")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--explain",
        type=int,
        default=3,
        help="show the differing texts of the first differing step of this many configurations",
    )
    parser.add_argument("--keep", metavar="DIR", help="keep both sides' digests in DIR")
    parser.add_argument(
        "--kept", metavar="DIR", help="compare the digests kept in DIR instead of playing"
    )
    parser.add_argument("--digest", help=argparse.SUPPRESS)  # internal: write digests here
    parser.add_argument("--only", help=argparse.SUPPRESS)  # internal: one configuration
    parser.add_argument("--show", type=int, help=argparse.SUPPRESS)  # internal: keep a step
    args = parser.parse_args()
    if args.digest:
        found = digest(args.random, args.heuristic, args.game, args.only, args.show)
        Path(args.digest).write_text(json.dumps(found))
        return 0
    if not args.reference:
        parser.error("--reference REV is needed")
    with (
        tempfile.TemporaryDirectory(prefix="same-play-out-") as out,
        reference_source(args.reference, prefix="same-play-") as source,
    ):
        where = {"reference": source, "here": ROOT / "src"}
        if args.kept:
            sides = {n: json.loads((Path(args.kept) / f"{n}.json").read_text()) for n in where}
        else:
            print(f"playing ({args.reference} and this checkout, at once)…", flush=True)
            sides = _play(where, Path(out), args, [])
            if args.keep:
                for name, found in sides.items():
                    (Path(args.keep) / f"{name}.json").write_text(json.dumps(found))
        differing, firsts = compare(sides["reference"], sides["here"])
        for key, step, parts in firsts[: args.explain]:
            extra = ["--only", key, "--show", str(step)]
            texts = {n: s[key]["shown"] for n, s in _play(where, Path(out), args, extra).items()}
            _show(key, step, texts, parts)
    return 1 if differing else 0


def compare(
    theirs_all: dict[str, Any], ours_all: dict[str, Any]
) -> tuple[int, list[tuple[str, int, list[str]]]]:
    """Print each configuration whose digests differ, with how many steps each part
    differs at; returns how many differ, and the first differing step of each with its
    differing parts."""
    differing = 0
    steps = 0
    firsts: list[tuple[str, int, list[str]]] = []
    for key, theirs in theirs_all.items():
        ours = ours_all.get(key, {"digest": None, "names": [], "lines": []})
        steps += len(theirs["lines"])
        if ours["digest"] == theirs["digest"]:
            continue
        differing += 1
        counts: dict[str, int] = {}
        first: int | None = None
        for i, (x, y) in enumerate(zip(theirs["lines"], ours["lines"], strict=False)):
            a, b = _parts(theirs["names"], x), _parts(ours["names"], y)
            parts = sorted(n for n in a.keys() | b.keys() if a.get(n) != b.get(n))
            for n in parts:
                counts[n] = counts.get(n, 0) + 1
            if parts and first is None:
                first = i
                firsts.append((key, i, parts))
        lengths = f"{len(theirs['lines'])} steps there, {len(ours['lines'])} here"
        print(f"differs: {key} (first differing step: {first}; {lengths})")
        for n, count in sorted(counts.items(), key=lambda x: -x[1]):
            print(f"  {n}: {count} steps")
        if first is None and len(theirs["lines"]) == len(ours["lines"]):
            print("  every step alike: the searches' statistics or the heuristic's picks differ")
    print(f"{len(theirs_all)} configurations, {steps} steps, {differing} differing")
    return differing, firsts


if __name__ == "__main__":
    sys.exit(main())
