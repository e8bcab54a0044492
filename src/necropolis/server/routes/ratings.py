"""The ratings' HTTP routes: making a table rated, its rating changes once it is over, a
game's leaderboard and a player's rating history.

Nothing here stores a rating: each answer is derived from the finished rated tables
(:mod:`necropolis.server.ratings`).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel

from necropolis.engine.errors import UnknownGameError
from necropolis.games import game_class
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.models import ClockSettings, CreateTable
from necropolis.server.ratings import Ratings, describe, player_id
from necropolis.server.routes import clocks as clock_routes
from necropolis.server.routes.accounts import accounts_of
from necropolis.server.routes.common import app_store, authorised
from necropolis.server.service import stored

router = APIRouter()


class RatedMark(BaseModel):
    rated: bool


class SeatChange(BaseModel):
    seat: int
    player: str | None
    bot: str | None
    before: float
    after: float


class TableRatings(BaseModel):
    rated: bool
    #: Each seat's rating before and after the match; null until it counts (finished,
    #: every seat with a rated player).
    changes: list[SeatChange] | None


class Standing(BaseModel):
    player: str | None
    bot: str | None
    #: The rating shown: OpenSkill's ordinal, mu - 3 sigma.
    rating: float
    mu: float
    sigma: float
    games: int


class Point(BaseModel):
    table_id: str
    at: datetime
    rating: float


class History(BaseModel):
    game: str
    points: list[Point]


def ratings_of(request: Request) -> Ratings:
    """The ratings, derived from the finished rated tables of the service's store."""
    return app_store(
        request, "ratings", lambda state: Ratings(state.tables.store.engine, state.tables.store)
    )


def _game(game: str) -> str:
    try:
        return game_class(game).id
    except UnknownGameError:
        raise ApiError(404, "no_such_game", f"There is no game called {game!r}.") from None


def check_timed(clock: ClockSettings | None) -> None:
    """Refuse a rated table without a clock: a player who walks away from an untimed
    table leaves it in play for ever, never scored (so rated tables always have a clock,
    whose rule ends or goes on with the match)."""
    if clock is None or clock.mode == "untimed":
        raise ApiError(
            400, "rated_needs_clock", "A rated table needs a clock: real-time or turn-based."
        )


async def mark(request: Request, table_id: str, body: CreateTable) -> None:
    """Mark a table just made (by ``body``) rated."""
    persons = [k for k, s in enumerate(body.seats) if s.type != "bot"]
    game = game_class(body.game).id
    await stored(ratings_of(request).mark, table_id, game, persons)


@router.post("/api/tables/{table_id}/rated", response_model=RatedMark, responses=ERRORS)
async def make_rated(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> RatedMark:
    live, _token = await authorised(request, table_id, authorization, True)
    # Only before anyone decided anything: a match is rated or not from its start.
    if any(seat is not None for seat, _action in live.actions):
        raise ApiError(409, "already_started", "A table is rated from its start or not at all.")
    settings = await clock_routes.settings_of(request, live)
    check_timed(None if settings is None else ClockSettings.model_validate(settings))
    if live.hints:
        raise ApiError(409, "hinted_table", "A table that gives hints cannot be rated.")
    persons = [s.seat for s in live.row.seats if s.person]
    await stored(ratings_of(request).mark, live.id, live.row.game, persons)
    return RatedMark(rated=True)


@router.get("/api/tables/{table_id}/ratings", response_model=TableRatings, responses=ERRORS)
async def table_ratings(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> TableRatings:
    live, _token = await authorised(request, table_id, authorization)
    ratings = ratings_of(request)
    if not await stored(ratings.is_rated, live.id):
        return TableRatings(rated=False, changes=None)
    if not live.over:
        return TableRatings(rated=True, changes=None)
    computed = await asyncio.to_thread(ratings.compute, live.row.game)
    found = computed.changes.get(live.id)
    if found is None:
        return TableRatings(rated=True, changes=None)
    return TableRatings(
        rated=True,
        changes=[
            SeatChange(seat=c.seat, before=c.before, after=c.after, **describe(c.who))
            for c in found
        ],
    )


@router.get("/api/ratings/{game}", response_model=list[Standing], responses=ERRORS)
async def leaderboard(request: Request, game: str) -> list[Standing]:
    computed = await asyncio.to_thread(ratings_of(request).compute, _game(game))
    ranked = sorted(computed.standings.values(), key=lambda s: (-s.ordinal, s.who))
    return [
        Standing(rating=s.ordinal, mu=s.mu, sigma=s.sigma, games=s.games, **describe(s.who))
        for s in ranked
    ]


@router.get("/api/players/{name}/ratings", response_model=list[History], responses=ERRORS)
async def rating_history(request: Request, name: str) -> list[History]:
    found = await stored(accounts_of(request).by_name, name[:200])
    if found is None:
        raise ApiError(404, "no_such_player", "There is no such player.")
    who = player_id(found[0].name)
    ratings = ratings_of(request)
    histories: list[History] = []
    from necropolis.games import game_ids

    for game in game_ids():
        computed = await asyncio.to_thread(ratings.compute, game)
        standing = computed.standings.get(who)
        if standing is not None:
            points = [Point(table_id=t, at=at, rating=r) for t, at, r in standing.history]
            histories.append(History(game=game, points=points))
    return histories
