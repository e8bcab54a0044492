"""What a balance report asks a game: facts of a finished match, variants, component data.

``necropolis balance`` (:mod:`necropolis.analysis.balance`) knows no game. Whatever it
needs to know per game comes through the small protocol here, which every game has by
default and overrides where it has more to say:

- :meth:`~necropolis.engine.protocol.Game.balance_facts` reads a finished match: the
  rounds played as the game counts them, whether it ended early (before its normal end),
  and per seat named features a designer compares (in The Pyramid of Horus the seat's
  adventurer and skill);
- :meth:`~necropolis.engine.protocol.Game.balance_variants` lists the option sets worth
  comparing with the defaults (by default each yes/no option switched on alone);
- :meth:`~necropolis.engine.protocol.Game.components_file` names the game's component
  data file, which :func:`read_components` reads: the packaged file, or a changed one a
  "what if" run names through the environment variable of :func:`components_variable`.

A game's component tables are built once, when its package is imported, so a changed
data file can only take effect in a fresh process started with that variable set: the
report runs its "what if" matches in such processes (local ones, or Ray workers).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources

from necropolis.engine.options import OptionValue


@dataclass(frozen=True)
class MatchFacts:
    """What a finished match says beyond scores and returns.

    ``rounds``: the rounds played as the game counts them (None: the game has none).
    ``ended_early``: whether the match ended before its normal end (None: it cannot).
    ``seats``: per seat, named features (``{"adventurer": "Ray"}``); may be empty.
    """

    rounds: int | None = None
    ended_early: bool | None = None
    seats: tuple[Mapping[str, str], ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Variant:
    """A named set of options compared with the game's defaults in a balance report."""

    name: str
    options: Mapping[str, OptionValue]


def components_variable(game_id: str) -> str:
    """The environment variable that holds a changed component data file's text."""
    return f"NECROPOLIS_COMPONENTS_{game_id.upper()}"


def read_components(game_id: str, package: str, filename: str) -> str:
    """The text of ``game_id``'s component data file.

    The packaged ``filename`` of ``package``, unless the process was started with
    :func:`components_variable` set, whose value is then the text used instead.
    """
    changed = os.environ.get(components_variable(game_id))
    if changed is not None:
        return changed
    return resources.files(package).joinpath(filename).read_text(encoding="utf-8")


def components_digest(text: str) -> str:
    """A short fingerprint of a data file's text, to check which one a process uses."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
