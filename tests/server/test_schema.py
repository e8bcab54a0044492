"""The protocol's schema (the source of the page's types) holds every message and body.

``scripts/protocol_types --check`` (run by ``./test``) holds the committed
``web/src/lib/protocol.ts`` to this schema; these tests hold the schema to the server.
"""

from __future__ import annotations

import inspect
from typing import Any, get_args

import pytest

from necropolis.bots.levels import DEFAULT_LEVEL, Level
from necropolis.games import game_ids
from necropolis.server import chat, models, schema


def _message_types(union: Any) -> set[str]:
    return {get_args(m.model_fields["type"].annotation)[0] for m in get_args(get_args(union)[0])}


def test_every_message_each_way_is_a_named_type_of_the_schema() -> None:
    found = schema.protocol_schema()
    definitions = found["definitions"]
    sent = {
        cls
        for module in (models, chat)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, models.Sent) and cls is not models.Sent and "type" in cls.model_fields
    }
    # Every message model the server sends is one of the socket's server messages.
    assert {c.__name__ for c in sent} == {
        m.__name__ for m in get_args(get_args(schema.ServerMessage)[0])
    }
    for union in ("ClientMessage", "ServerMessage"):
        refs = {r["$ref"].removeprefix("#/definitions/") for r in definitions[union]["oneOf"]}
        assert refs <= set(definitions)
    assert _message_types(models.ClientMessage) == {
        "hello",
        "act",
        "undo",
        "commit",
        "ping",
        "log",
        "hint",
    }
    # A server message says every field, so the page may count on each.
    state = definitions["StateMessage"]
    assert set(state["required"]) == set(state["properties"])
    # The HTTP bodies come from the routes themselves.
    assert {"CreateTable", "CreatedTable", "GameInfo", "TableSummary", "Replay"} <= set(definitions)
    # The registries' names, as types and as values.
    assert definitions["Level"]["enum"] == [level.value for level in Level]
    assert definitions["GameId"]["enum"] == list(game_ids())
    assert found["constants"]["LEVELS"]["value"] == [level.value for level in Level]
    assert found["constants"]["DEFAULT_LEVEL"]["value"] == DEFAULT_LEVEL
    assert found["constants"]["PROTOCOL"]["value"] == models.PROTOCOL


def test_two_different_types_of_one_name_are_refused() -> None:
    definitions: dict[str, Any] = {}
    schema._add(
        definitions, "Seat", {"type": "object", "properties": {"seat": {"type": "integer"}}}
    )
    schema._add(
        definitions, "Seat", {"type": "object", "properties": {"seat": {"type": "integer"}}}
    )
    with pytest.raises(ValueError, match="two different types are called 'Seat'"):
        schema._add(definitions, "Seat", {"type": "object", "properties": {}})
