"""The table language: how a game tells each seat what happened, what it is asked, what
each of its legal decisions would do, and how the score came about.

Everything here is JSON-ready and keyed, so that a translator can render it: every
*log entry*, *prompt*, *action descriptor* and *score part* has a ``kind`` (a message key
of its game, listed with its parameters in ``docs/table-language.md``) and ``params``;
``text`` is the English sentence built from the game's template for that kind. A game
declares its English templates in ``Game.messages`` (kind → template); the web table's
Dutch and Italian catalogs use the same keys.

Templates use ``{name}`` for a parameter and ``{name|one form|other form}`` for a
plural, where ``#`` in the chosen form stands for the number. A parameter whose name is
``seat`` or ends in ``_seat`` holds a seat number and is written "you" for the seat the
text is for and "Player N" (counting from 1) for any other; a sentence starting with one
is capitalised. String parameters that name components use the ids of the game's data
file (``"crocodile"``, ``"north"``), which catalogs translate as terms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: A log entry: ``{"index", "kind", "seat", "params", "text"}``; ``index`` is the position
#: in the history of the action that caused it, ``seat`` the acting seat or None.
LogEntry = dict[str, Any]
#: What a seat is asked now: ``{"kind", "params", "text"}``.
Prompt = dict[str, Any]
#: A legal decision's descriptor: ``{"action", "kind", "params", "targets", "text"}``;
#: ``targets`` lists the board elements it touches as ``"type:id"`` strings in the view's
#: own ids, in the order a player picks them (``["hand:2", "shaft:5"]``).
ActionInfo = dict[str, Any]
#: One seat's score: ``{"seat", "parts": [{"kind", "params", "points", "text"}],
#: "total", "tiebreak"}``; the parts' points add up exactly to ``total``, which equals
#: ``scores()[seat]`` once the match is over; ``tiebreak`` is a list of named numbers
#: (``[{"kind", "value", "text"}]``), empty when the game has none. A part whose points
#: the viewer may not know yet (face-down values, a secret card) says ``"hidden": True``
#: and counts 0 in ``total``, so that a page can show the total as a lower bound.
SeatScore = dict[str, Any]
#: A figure of a finished match, one value per seat: ``{"kind", "params", "text",
#: "values"}`` (pairs made, wounds taken), from the rules' events (``State.statistics``).
Statistic = dict[str, Any]

#: Templates every game may use without declaring them: the kernel's fallbacks.
KERNEL_MESSAGES: Mapping[str, str] = {
    "action": "{seat}: {description}",
    "chance": "{description}",
    "choose_action": "Choose your action",
    "wait_for": "Waiting for {acting_seat}",
    "do": "{description}",
    "score": "Score: {points}",
    "hint_used": "{seat} asked for a hint",
}

#: A colour per seat, the same for a seat in every game and on every screen (terminal and
#: web): the Okabe–Ito palette, chosen so that colour-blind players can tell seats apart.
SEAT_COLOURS: tuple[tuple[str, str], ...] = (
    ("orange", "#E69F00"),
    ("sky blue", "#56B4E9"),
    ("green", "#009E73"),
    ("vermilion", "#D55E00"),
    ("blue", "#0072B2"),
    ("purple", "#CC79A7"),
)

_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)(?:\|([^|{}]*)\|([^|{}]*))?\}")


def seat_label(seat: int | None, viewer: int | None) -> str:
    """How a text for ``viewer`` names ``seat``: "you", or "Player N" counting from 1."""
    if seat is None:
        return "nobody"
    if seat == viewer:
        return "you"
    return f"Player {seat + 1}"


def _is_seat_param(name: str) -> bool:
    return name == "seat" or name.endswith("_seat")


#: A template cut into pieces once: ``(literal, name, one, other)``, the text before a
#: field and the field (``name`` None after the last field; ``one``/``other`` the plural
#: forms, None for a plain field). Rendering walks them instead of matching again.
_Piece = tuple[str, str | None, str | None, str | None]
_compiled: dict[str, tuple[_Piece, ...]] = {}


def _pieces(template: str) -> tuple[_Piece, ...]:
    found = _compiled.get(template)
    if found is None:
        pieces: list[_Piece] = []
        at = 0
        for match in _FIELD.finditer(template):
            name, one, other = match.group(1, 2, 3)
            pieces.append((template[at : match.start()], name, one, other))
            at = match.end()
        pieces.append((template[at:], None, None, None))
        found = _compiled[template] = tuple(pieces)
    return found


#: Sentences already rendered, by template, viewer and parameters (each value with its
#: type: ``True`` and ``1`` are written differently). A table's server renders the same
#: sentences again and again (every seat's score parts, at every version); a search
#: never renders. Emptied when full.
_rendered: dict[tuple[Any, ...], str] = {}
_RENDERED_MAX = 20_000


def render(template: str, params: Mapping[str, Any], viewer: int | None) -> str:
    """The English sentence of ``template`` with ``params``, as written for ``viewer``."""
    key: tuple[Any, ...] | None = (template, viewer)
    for name, value in params.items():
        kind = type(value)
        if kind is list:
            value = tuple(value)
        elif kind is dict:
            key = None
            break
        key += (name, kind, value)  # type: ignore[operator]
    if key is not None:
        try:
            return _rendered[key]
        except KeyError:
            pass
        except TypeError:  # a value that cannot be a key (a list inside a list)
            key = None
    text = _render(template, params, viewer)
    if key is not None:
        if len(_rendered) >= _RENDERED_MAX:
            _rendered.clear()
        _rendered[key] = text
    return text


def _render(template: str, params: Mapping[str, Any], viewer: int | None) -> str:
    out: list[str] = []
    for literal, name, one, other in _pieces(template):
        out.append(literal)
        if name is None:
            continue
        value = params.get(name)
        if one is not None:
            form = one if value == 1 else other
            out.append(form.replace("#", _format_value(value)))  # type: ignore[union-attr]
        elif (value is None or isinstance(value, int)) and _is_seat_param(name):
            out.append(seat_label(value, viewer))
        else:
            out.append(_format_value(value))
    text = "".join(out)
    return text[:1].upper() + text[1:] if text else text


def _format_value(value: Any) -> str:
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | tuple):
        return ", ".join(_format_value(v) for v in value)
    return str(value)


def template_fields(template: str) -> set[str]:
    """The parameter names a template uses (for checking catalogs and documents)."""
    return {m.group(1) for m in _FIELD.finditer(template)}


def message(
    messages: Mapping[str, str], kind: str, params: Mapping[str, Any], viewer: int | None
) -> str:
    """Render ``kind`` from a game's templates, falling back to the kernel's."""
    template = messages.get(kind) or KERNEL_MESSAGES.get(kind)
    if template is None:
        raise KeyError(f"no template for the message kind {kind!r}")
    return render(template, params, viewer)
