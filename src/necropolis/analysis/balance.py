"""Balance reports for designers: many seeded bot matches, summarised and plotted.

A report answers the questions a designer asks of a game: does an early seat win more,
is one seat feature (an adventurer, a secret card) stronger, does a variant change who
wins, how long does a match last and how often does it end early or with no winner, and
what if a component were different. It plays *cells* of matches, every seat of a cell
taken by the same bot level:

- the game as shipped, per bot level and per player count (seat order, lengths, the
  game's seat features from :meth:`~necropolis.engine.protocol.Game.balance_facts`);
- per bot level, each of the game's variants (``Game.balance_variants``) at one player
  count, beside the defaults at that count;
- with a changed component data file, the first kind of cell again on that file.

Match ``i`` of every cell is seeded alike (``match_seed(seed, i)``), so cells differ by
what they change, not by luck of the draw alone, and every match replays alone. The
matches are appended to ``matches.jsonl`` as they finish, so a stopped run (Ctrl-C) goes
on where it stopped when started again with the same plan; the figures are computed from
the matches sorted by cell and index, so they are the same however many workers (local
processes or Ray tasks) played them and in whatever order they finished. What the
report knows of a game comes only through the engine protocol.

This module plans and plays; :mod:`~necropolis.analysis.balance_stats` sums the matches
up, and :mod:`~necropolis.analysis.balance_report` writes the summary, the figures
(:mod:`~necropolis.analysis.balance_plots`) and the page.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.bots import make_bot
from necropolis.bots.levels import Level
from necropolis.engine.balance import components_digest, components_variable
from necropolis.engine.driver import play_match
from necropolis.engine.options import OptionValue
from necropolis.games import game_class, load_game

#: The bot levels whose matches are quick: their tasks carry several matches each.
QUICK_LEVELS = frozenset({"random", "heuristic", Level.EASY})
SHIPPED, CHANGED = "shipped", "changed"
DEFAULTS = "defaults"

Match = dict[str, Any]


@dataclass(frozen=True)
class Cell:
    """One group of matches: a bot level in every seat, a player count, a set of options
    (``variant`` names it, :data:`DEFAULTS` for the options given), and which component
    data file the game reads."""

    level: str
    players: int
    variant: str
    options: Mapping[str, OptionValue]
    components: str = SHIPPED
    matches: int = 0


@dataclass(frozen=True)
class Plan:
    """What a report plays; two runs with equal plans play the same matches."""

    game: str
    levels: tuple[str, ...]
    players: tuple[int, ...]
    matches: int
    seed: int = 0
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    variants: tuple[tuple[str, Mapping[str, OptionValue]], ...] = ()
    #: The changed data file's name and fingerprint (None: no "what if").
    components_name: str | None = None
    components_digest: str | None = None
    #: Matches per cell of the levels that have their own count (a search is slow).
    level_matches: Mapping[str, int] = field(default_factory=dict)

    def matches_of(self, level: str) -> int:
        """Matches per cell of ``level``."""
        return self.level_matches.get(level, self.matches)

    @property
    def variant_players(self) -> int:
        """The player count the variants are compared at: the game's default if the plan
        has it, else the plan's first."""
        default = game_class(self.game).default_players
        return default if default in self.players else self.players[0]

    def cells(self) -> list[Cell]:
        game = self.game
        cells: list[Cell] = []
        for level in self.levels:
            for players in self.players:
                options = _resolved(game, self.options, players)
                cells.append(
                    Cell(level, players, DEFAULTS, options, SHIPPED, self.matches_of(level))
                )
        for level in self.levels:
            for name, changes in self.variants:
                options = _resolved(game, {**self.options, **changes}, self.variant_players)
                cells.append(
                    Cell(
                        level, self.variant_players, name, options, SHIPPED, self.matches_of(level)
                    )
                )
        if self.components_digest is not None:
            for level in self.levels:
                for players in self.players:
                    options = _resolved(game, self.options, players)
                    cells.append(
                        Cell(level, players, DEFAULTS, options, CHANGED, self.matches_of(level))
                    )
            # The variants again on the changed file, after the cells above so that a
            # folder of the defaults' what-if keeps its cell numbers.
            for level in self.levels:
                for name, changes in self.variants:
                    options = _resolved(game, {**self.options, **changes}, self.variant_players)
                    cells.append(
                        Cell(
                            level,
                            self.variant_players,
                            name,
                            options,
                            CHANGED,
                            self.matches_of(level),
                        )
                    )
        return cells

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["variants"] = [[name, dict(options)] for name, options in self.variants]
        data["options"] = dict(self.options)
        data["levels"] = list(self.levels)
        data["players"] = list(self.players)
        data["level_matches"] = dict(self.level_matches)
        return data


def _resolved(
    game_id: str, options: Mapping[str, OptionValue], players: int
) -> dict[str, OptionValue]:
    return dict(load_game(game_id, **{**options, "players": players}).options)


def make_plan(
    game_id: str,
    levels: Sequence[str],
    players: Sequence[int] | None,
    matches: int,
    seed: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    components: str | None = None,
    components_name: str | None = None,
    level_matches: Mapping[str, int] | None = None,
) -> Plan:
    """The plan of a report; options given fix those options (their variants are left out).

    ``players`` None: every player count the game allows. ``components``: the text of a
    changed component data file for the "what if" cells. ``level_matches``: matches per
    cell for the levels that do not play ``matches`` (a slow search, a few).
    """
    cls = game_class(game_id)
    given = dict(options or {})
    given.pop("players", None)
    fixed = dict(load_game(game_id, **given).options)
    fixed = {k: v for k, v in fixed.items() if k in given}
    counts = tuple(players) if players else tuple(range(cls.min_players, cls.max_players + 1))
    # A variant of display-only options would spend its matches on a game the same as the
    # default (Option.display_only).
    display = {o.name for o in cls.declared_options() if o.display_only}
    variants = tuple(
        (v.name, dict(v.options))
        for v in cls.balance_variants()
        if not set(v.options) & set(fixed) and not set(v.options) <= display
    )
    if components is not None and cls.components_file() is None:
        raise ValueError(f"{game_id} has no component data file to change")
    return Plan(
        game_id,
        tuple(levels),
        counts,
        matches,
        seed,
        fixed,
        variants,
        components_name if components is not None else None,
        components_digest(components) if components is not None else None,
        {k: v for k, v in (level_matches or {}).items() if k in levels},
    )


# --- playing ---------------------------------------------------------------------------


def play_balance_match(
    cell: int,
    index: int,
    game_id: str,
    options: Mapping[str, OptionValue],
    level: str,
    seed: int,
    digest: str | None,
) -> Match:
    """Play match ``index`` of cell ``cell``; a JSON-ready record of how it went.

    ``digest`` is the fingerprint of the changed data file this process must have been
    started with (None: the shipped one), checked so that no match runs on the wrong one.
    """
    changed = os.environ.get(components_variable(game_id))
    have = components_digest(changed) if changed is not None else None
    if have != digest:
        raise RuntimeError(
            f"this worker reads {game_id}'s component file {have or 'as shipped'}, "
            f"the match needs {digest or 'the shipped one'}"
        )
    game = load_game(game_id, **options)
    bots = [make_bot(level) for _ in range(game.num_players)]
    decisions = 0

    def count(state: Any, action: int) -> None:
        nonlocal decisions
        decisions += state.current_player() >= 0

    final, record = play_match(game, bots, seed=seed, on_action=count)
    facts = game.balance_facts(final)
    return {
        "cell": cell,
        "index": index,
        "seed": seed,
        "scores": list(final.scores()),
        "returns": list(final.returns()),
        "decisions": decisions,
        "actions": len(record.actions),
        "rounds": facts.rounds,
        "early": facts.ended_early,
        "seats": [dict(features) for features in facts.seats],
    }


class PlanMismatchError(ValueError):
    """The output folder holds matches of another plan."""


def run_balance(
    plan: Plan,
    out: Path,
    workers: int = 1,
    ray_address: str | None = None,
    components: str | None = None,
    on_match: Callable[[Match], None] | None = None,
) -> list[Match]:
    """Play every match of ``plan`` not already in ``out/matches.jsonl``; all of them,
    sorted by cell and index. ``components``: the changed data file's text."""
    out.mkdir(parents=True, exist_ok=True)
    plan_file = out / "plan.json"
    wanted = json.loads(json.dumps(plan.to_json()))
    if plan_file.exists():
        earlier = json.loads(plan_file.read_text())
        if earlier != wanted:
            differ = sorted(k for k in wanted if earlier.get(k) != wanted[k])
            raise PlanMismatchError(
                f"{out} holds the matches of another report (its {', '.join(differ)} "
                "differ); choose another --out, or --fresh to start it again"
            )
    else:
        plan_file.write_text(json.dumps(wanted, indent=1) + "\n")
    if components is not None and components_digest(components) != plan.components_digest:
        raise ValueError("the component file's text is not the one the plan was made for")
    matches = read_matches(out / "matches.jsonl")
    done = {(m["cell"], m["index"]) for m in matches}
    cells = plan.cells()
    with (out / "matches.jsonl").open("a", encoding="utf-8") as log:
        # Quick matches share a task (fewer round trips) and go first; slow ones go one
        # by one, so that no worker sits on a queue of them while the others are idle.
        for kind, quick in ((SHIPPED, True), (SHIPPED, False), (CHANGED, True), (CHANGED, False)):
            jobs = [
                (
                    c,
                    i,
                    plan.game,
                    dict(cell.options),
                    cell.level,
                    match_seed(plan.seed, i),
                    plan.components_digest if kind == CHANGED else None,
                )
                for c, cell in enumerate(cells)
                if cell.components == kind and (cell.level in QUICK_LEVELS) == quick
                for i in range(cell.matches)
                if (c, i) not in done
            ]
            if not jobs:
                continue
            env = None
            if kind == CHANGED:
                assert components is not None, "a what-if plan needs the changed file's text"
                env = {components_variable(plan.game): components}
            for match in run_matches(
                play_balance_match,
                jobs,
                workers,
                8 if quick else 1,
                ray_address=ray_address,
                env=env,
            ):
                log.write(json.dumps(match, separators=(",", ":")) + "\n")
                log.flush()
                matches.append(match)
                if on_match is not None:
                    on_match(match)
    matches.sort(key=lambda m: (m["cell"], m["index"]))
    return matches


def read_matches(path: Path) -> list[Match]:
    """The matches already in a report's log; a last line cut short by a stop is dropped
    (and cut from the file, so that the next match starts on a line of its own)."""
    if not path.exists():
        return []
    matches: list[Match] = []
    good = 0
    with path.open("rb") as log:
        for line in log:
            try:
                matches.append(json.loads(line))
            except ValueError:
                break
            if not line.endswith(b"\n"):
                matches.pop()  # whole JSON, but its newline never got written
                break
            good += len(line)
    with path.open("r+b") as log:
        log.truncate(good)
    return matches
