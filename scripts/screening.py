"""What the scripts that screen a strategy against the heuristic bot print of a screen.

``tune_horus_heuristic.py`` and ``tune_luxor_heuristic.py`` each play one strategy in one
seat against the heuristic in every other, and report it the same way: the strategy's
share of the wins beside the heuristic seats' mean share, each with its 95% interval. They
also read the strategies to screen the same way (:func:`parse_fields`): a shipped one by
name, or changes to the heuristic's fields as ``field=value,...``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from necropolis.analysis.tournament import wilson_interval

#: A strategy's settings: a frozen dataclass of numbers and switches.
Fields = TypeVar("Fields")


def parse_fields(text: str, base: Fields, named: Mapping[str, Fields]) -> Fields:
    """The settings ``text`` names: one of ``named`` by its name, or ``base`` with the
    changes ``field=value,...``, each value read as its field's type in ``base`` (a
    number, a whole number, or true or false). A ValueError says what is wrong."""
    if text in named:
        return named[text]
    kind = type(base).__name__
    fields = [f.name for f in dataclasses.fields(base)]  # type: ignore[arg-type]
    changes: dict[str, Any] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or name not in fields:
            known = ", ".join(fields)
            raise ValueError(f"{part!r} is not field=value with a field of {kind} ({known})")
        default = getattr(base, name)
        if isinstance(default, bool):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{name} is true or false, not {value!r}")
            changes[name] = value.lower() == "true"
            continue
        try:
            changes[name] = type(default)(value)
        except ValueError:
            what = "a whole number" if isinstance(default, int) else "a number"
            raise ValueError(f"{name} is {what}, not {value!r}") from None
    return dataclasses.replace(base, **changes)  # type: ignore[type-var]


def share_line(
    label: str, mine: float, theirs: float, matches: int, players: int, seed: int
) -> str:
    """The line of ``label``'s screen: ``mine``, its wins (shared ones in part), and
    ``theirs``, the heuristic seats' mean wins, over ``matches`` matches."""
    low, high = wilson_interval(mine, matches)
    base_low, base_high = wilson_interval(theirs, matches)
    return (
        f"{label}: {mine / matches:.1%} ({low:.1%}-{high:.1%}) of {matches}"
        f" matches at {players} players, seed {seed};"
        f" the heuristic seats {theirs / matches:.1%} ({base_low:.1%}-{base_high:.1%}) each"
    )
