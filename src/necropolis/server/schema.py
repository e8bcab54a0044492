"""The protocol's JSON schema, from which the page's types are generated.

One schema holds, as named definitions, every HTTP body and answer the routes publish
(FastAPI's OpenAPI document, read from the app itself, so a new route's models come
along), every WebSocket message each way (:data:`ClientMessage`, :data:`ServerMessage`),
and the registries' names, which the page types its code with (``Level``, ``GameId``)
and reads as values (``LEVELS``, ``GAME_IDS``). ``scripts/protocol_types`` turns it into
``web/src/lib/protocol.ts``, and ``./test`` checks that the committed file is current: a
message is added or changed by editing its pydantic model in :mod:`necropolis.server.models`
(or a route's), then running that script. ``python -m necropolis.server.schema`` prints the schema.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

from pydantic import Field, TypeAdapter
from pydantic.json_schema import JsonSchemaMode

from necropolis.bots.levels import DEFAULT_LEVEL, Level
from necropolis.games import game_ids
from necropolis.server.app import Settings, create_app
from necropolis.server.chat import ChatLine
from necropolis.server.models import (
    PROTOCOL,
    ClientMessage,
    ErrorMessage,
    Hint,
    LogPage,
    Pong,
    Presence,
    Refused,
    StateMessage,
)

#: Every message the server sends on a table's WebSocket.
ServerMessage = Annotated[
    StateMessage | LogPage | Refused | ErrorMessage | Pong | Presence | ChatLine | Hint,
    Field(discriminator="type"),
]

_OPENAPI_REFS = "#/components/schemas/"
_REFS = "#/definitions/"


def protocol_schema() -> dict[str, Any]:
    """The schema: a title, ``constants`` (the protocol's version and the registries'
    names, which the page's code reads as values), and ``definitions``, each a named type
    of the protocol."""
    definitions: dict[str, Any] = {}
    # The app is only built, never started: nothing is opened or connected.
    openapi = create_app(Settings(db_url="sqlite://")).openapi()
    for name, schema in openapi["components"]["schemas"].items():
        _add(definitions, name, _moved_refs(schema))
    # The client's messages as the server reads them (their defaults may be left out);
    # the server's as it writes them (every field there).
    sides: tuple[tuple[str, TypeAdapter[Any], JsonSchemaMode], ...] = (
        ("ClientMessage", TypeAdapter(ClientMessage), "validation"),
        ("ServerMessage", TypeAdapter(ServerMessage), "serialization"),
    )
    for name, adapter, mode in sides:
        schema = adapter.json_schema(mode=mode, ref_template=_REFS + "{model}")
        for inner, part in schema.pop("$defs", {}).items():
            _add(definitions, inner, part)
        _add(definitions, name, {"title": name, **schema})
    _add(
        definitions,
        "GameId",
        {
            "title": "GameId",
            "description": "A game's id, as the games' registry (necropolis.games) has them.",
            "type": "string",
            "enum": list(game_ids()),
        },
    )
    constants = {
        "PROTOCOL": (PROTOCOL, "The protocol's version (a state's `protocol` above it: reload)."),
        "LEVELS": ([level.value for level in Level], "The levels, weakest first."),
        "DEFAULT_LEVEL": (DEFAULT_LEVEL.value, "A bot seat's level when none is said."),
        "GAME_IDS": (list(game_ids()), "Every game's id."),
    }
    return {
        "title": "Protocol",
        "constants": {
            name: {"value": value, "description": words}
            for name, (value, words) in constants.items()
        },
        "definitions": dict(sorted(definitions.items())),
    }


def _add(definitions: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    """Add a named type, refusing two different types of one name (an HTTP body and a
    WebSocket message would say different things under one name on the page)."""
    known = definitions.setdefault(name, schema)
    if known != schema:
        raise ValueError(
            f"two different types are called {name!r}: rename one of the models\n"
            f"{json.dumps(known, sort_keys=True)}\n{json.dumps(schema, sort_keys=True)}"
        )


def _moved_refs(node: Any) -> Any:
    """``node`` with OpenAPI's references pointed at the schema's own definitions."""
    if isinstance(node, dict):
        return {
            key: (
                _REFS + value.removeprefix(_OPENAPI_REFS)
                if key == "$ref" and isinstance(value, str)
                else _moved_refs(value)
            )
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_moved_refs(value) for value in node]
    return node


if __name__ == "__main__":
    json.dump(protocol_schema(), sys.stdout, indent=1)
    sys.stdout.write("\n")
