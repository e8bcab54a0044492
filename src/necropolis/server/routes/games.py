"""The games' HTTP routes, and the server's health: what any page asks before a table.

``/api/health`` (503 while the database fails); ``/api/games``: every game and its
options; ``/api/games/{game}/layout``, ``/messages`` and ``/rules``: what a page needs to
draw, narrate and explain a game. None of them needs a token.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from necropolis.bots.levels import Level
from necropolis.engine.errors import UnknownGameError
from necropolis.engine.protocol import Game
from necropolis.games import game_class, game_ids, load_game
from necropolis.server.errors import ERRORS, ApiError, error_response
from necropolis.server.models import PROTOCOL, ErrorBody, GameInfo, Health, OptionInfo, Rules
from necropolis.server.routes.common import tables_of

router = APIRouter()


@router.get("/api/health", response_model=Health, responses={503: {"model": ErrorBody}})
async def health(request: Request) -> Health | JSONResponse:
    trouble = await tables_of(request).health.check()
    if trouble is not None:
        return error_response(503, "unavailable", trouble)
    return Health(ok=True, protocol=PROTOCOL)


@router.get("/api/games", response_model=list[GameInfo])
async def games() -> list[GameInfo]:
    return [_game_info(game_id) for game_id in game_ids()]


@router.get("/api/games/{game}/layout", responses=ERRORS)
async def layout(game: str) -> dict[str, Any]:
    return _default_game(game).board_layout()


@router.get("/api/games/{game}/messages", responses=ERRORS)
async def messages(game: str) -> dict[str, str]:
    from necropolis.engine.language import KERNEL_MESSAGES

    return {**KERNEL_MESSAGES, **_default_game(game).messages}


@router.get("/api/games/{game}/rules", response_model=Rules, responses=ERRORS)
async def rules(game: str, lang: Annotated[str, Query(max_length=8)] = "en") -> Rules:
    loaded = _default_game(game)
    english = loaded.rules_summary("en")
    text = loaded.rules_summary(lang)
    language = lang if lang != "en" and text != english else "en"
    return Rules(language=language, markdown=text)


def _game_info(game_id: str) -> GameInfo:
    cls = game_class(game_id)
    options = []
    for option in cls.declared_options():
        choices = list(option.choices) if option.choices is not None else None
        minimum = maximum = None
        if option.kind is bool:
            kind = "bool"
        elif option.kind is int:
            kind = "int"
            if choices and all(isinstance(c, int) for c in choices):
                minimum, maximum = int(min(choices)), int(max(choices))
        else:
            kind = "choice" if choices else "text"
        options.append(
            OptionInfo(
                name=option.name,
                kind=kind,  # type: ignore[arg-type]
                default=option.default,
                choices=choices,
                minimum=minimum,
                maximum=maximum,
                help=option.help,
            )
        )
    return GameInfo(
        id=cls.id,
        title=cls.title,
        description=cls.description,
        min_players=cls.min_players,
        max_players=cls.max_players,
        default_players=cls.default_players,
        options=options,
        levels=list(Level),
        skips_turns=cls.skips_turns,
    )


def _default_game(game_id: str) -> Game:
    try:
        return load_game(game_id)
    except UnknownGameError:
        raise ApiError(404, "no_such_game", f"There is no game called {game_id!r}.") from None
