"""Declared game options and their validation.

A game lists the options it accepts (the number of players is common to all) as
:class:`Option` values; :func:`resolve_options` turns the keywords a caller passed into a
complete, checked mapping, or raises :class:`~necropolis.engine.errors.OptionError` that
names the bad option and what would have been accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from necropolis.engine.errors import OptionError

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class Option:
    """One option a game accepts.

    ``kind`` is ``bool``, ``int`` or ``str``; ``choices`` restricts the values when given.
    ``display_only`` marks an option that changes only how the game is shown, never its
    play: a balance report does not spend matches comparing it.
    """

    name: str
    kind: type
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] | None = None
    display_only: bool = False

    def coerce(self, value: Any) -> OptionValue:
        """Return ``value`` as this option's type, accepting the text forms a CLI passes."""
        if self.kind is bool:
            if isinstance(value, bool):
                result: OptionValue = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                result = value.strip().lower() in _TRUE
            elif isinstance(value, int) and value in (0, 1):
                result = bool(value)
            else:
                raise OptionError(f"option {self.name!r} takes true or false, not {value!r}")
        elif self.kind is int:
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
            try:
                result = int(value)
            except (TypeError, ValueError):
                raise OptionError(
                    f"option {self.name!r} takes a whole number, not {value!r}"
                ) from None
            if isinstance(value, float) and value != result:
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
        else:
            if not isinstance(value, str):
                raise OptionError(f"option {self.name!r} takes text, not {value!r}")
            result = value
        if self.choices is not None and result not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} must be one of {allowed}; got {value!r}")
        return result


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def players_option(min_players: int, max_players: int, default: int) -> Option:
    """The ``players`` option every game has."""
    return Option(
        "players",
        int,
        default,
        f"number of players, {min_players} to {max_players}",
        tuple(range(min_players, max_players + 1)),
    )


def resolve_options(
    game_id: str, declared: Sequence[Option], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Check ``given`` against ``declared`` and fill in defaults."""
    by_name = {o.name: o for o in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name))
        raise OptionError(f"{game_id} has no option {unknown[0]!r}; its options are: {known}")
    return {o.name: o.coerce(given[o.name]) if o.name in given else o.default for o in declared}
