"""The accounts' HTTP routes, and the checks that tie a claimed seat to its account.

``/api/account/...``: register, sign in and out, change the password, the signed-in
person and their tables; ``/api/players/{name}``: a player's profile. The session travels
in an HttpOnly cookie; every POST that the cookie authenticates must come from the page
itself (the ``X-Necropolis`` header, which a cross-site form cannot send without CORS,
and an ``Origin``, where the browser sends one, of this very host). The table routes and
the WebSocket call :func:`admit` to refuse a claimed seat's link to anyone but its
account, and :func:`claim_created` to give a signed-in creator their seat.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from starlette.datastructures import State
from starlette.requests import HTTPConnection

from necropolis.server import db
from necropolis.server.accounts import (
    MAX_NAME,
    MAX_PASSWORD,
    MIN_PASSWORD,
    SESSION_DAYS,
    Accounts,
    Claim,
    NameTakenError,
    Player,
    SharedRateLimiter,
    check_password,
    name_key,
)
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.models import CreatedTable, SeatInfo, Statistic, TableSummary
from necropolis.server.notices import Notices
from necropolis.server.routes.common import app_store, table_summary, tables_of, with_deadlines
from necropolis.server.service import stored
from necropolis.server.written import clean_name

#: The session cookie's name.
COOKIE = "necropolis_session"
#: The header the page sends with every request, which a cross-site form cannot.
CSRF_HEADER = "x-necropolis"
#: Failed sign-ins allowed per name, and per address, in :data:`WINDOW` seconds; new
#: accounts per address (each tells whether its name was taken) likewise.
PER_NAME = 5
PER_ADDRESS = 20
WINDOW = 15 * 60.0

router = APIRouter()


class Credentials(BaseModel):
    name: Annotated[str, Field(max_length=200)]
    password: Annotated[str, Field(max_length=MAX_PASSWORD)]


class NewPassword(BaseModel):
    old: Annotated[str, Field(max_length=MAX_PASSWORD)]
    new: Annotated[str, Field(max_length=MAX_PASSWORD)]


class Me(BaseModel):
    #: None for a guest.
    name: str | None


class MyTable(BaseModel):
    table: TableSummary
    seat: int
    #: The seat's token, for this account only (it is refused to anyone else).
    token: str


class GameRecord(BaseModel):
    game: str
    played: int
    wins: int


class PastMatch(BaseModel):
    """A finished match of the player's: where they sat, everyone's seat and final score,
    the player's place (1: first, a tie sharing it) and whether they won."""

    table_id: str
    game: str
    finished: datetime
    seat: int
    seats: list[SeatInfo]
    scores: list[float]
    place: int
    won: bool
    #: The match's figures per seat (``State.statistics``; none for a match abandoned
    #: before its end, or of a game whose rules tell none).
    statistics: list[Statistic] = Field(default_factory=list)


class Profile(BaseModel):
    name: str
    since: datetime
    games: list[GameRecord]
    #: The player's finished matches, the newest first (at most :data:`PAST_MATCHES`).
    matches: list[PastMatch] = Field(default_factory=list)


# --- the pieces every route uses --------------------------------------------------------


def accounts_of(conn: HTTPConnection) -> Accounts:
    """The accounts' store (its sign-in and registration limits made with it)."""
    return app_store(conn, "accounts", _make_accounts)


def _make_accounts(state: State) -> Accounts:
    # Counted in the database: every server process counts the same attempts.
    engine = state.tables.store.engine
    state.signin_by_name = SharedRateLimiter(engine, "signin_name", PER_NAME, WINDOW)
    state.signin_by_address = SharedRateLimiter(engine, "signin_address", PER_ADDRESS, WINDOW)
    state.register_by_address = SharedRateLimiter(engine, "register_address", PER_ADDRESS, WINDOW)
    return Accounts(engine)


def _host_origin(conn: HTTPConnection) -> bool:
    """Whether the request's Origin, if the browser sent one, is this host."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a cookie-authenticated request came from the page itself."""
    if conn.scope["type"] == "websocket":
        # A browser always sends Origin on a WebSocket; another site's page would show its own.
        return _host_origin(conn)
    return CSRF_HEADER in conn.headers and _host_origin(conn)


def _require_same_origin(request: Request) -> None:
    if not same_origin(request):
        raise ApiError(403, "cross_site", "This request must come from the page itself.")


#: The last answers read from the database, per process, for when it cannot be read
#: (an outage): a session's account by its token, a seat's claim by table and seat. A claim
#: never changes once made; an unclaimed seat may since have been claimed elsewhere. While
#: the storage is known to fail, they answer at once instead of after a bounded wait.
_SESSIONS: dict[str, Player | None] = {}
_CLAIMS: dict[tuple[str, int], Claim | None] = {}
_REMEMBERED = 100_000


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _REMEMBERED:
        cache.clear()
    cache[key] = value


async def signed_in(conn: HTTPConnection, for_writing: bool = False) -> Player | None:
    """The account whose session the cookie carries, if any. ``for_writing``: only if the
    request came from the page itself (a POST, a WebSocket)."""
    token = conn.cookies.get(COOKIE)
    if not token:
        return None
    if for_writing and not same_origin(conn):
        return None
    if tables_of(conn).trouble is not None and token in _SESSIONS:
        return _SESSIONS[token]  # not worth a wait for a database known to be failing
    try:
        found = await stored(accounts_of(conn).session, token)
    except Exception as exc:
        if db.storage_failed(exc) and token in _SESSIONS:
            return _SESSIONS[token]
        raise
    _remember(_SESSIONS, token, found)
    return found


async def _claim_of(conn: HTTPConnection, table_id: str, seat: int) -> Claim | None:
    if tables_of(conn).trouble is not None and (table_id, seat) in _CLAIMS:
        return _CLAIMS[(table_id, seat)]  # as above
    try:
        found = await stored(accounts_of(conn).claim_of, table_id, seat)
    except Exception as exc:
        if db.storage_failed(exc) and (table_id, seat) in _CLAIMS:
            return _CLAIMS[(table_id, seat)]
        raise
    _remember(_CLAIMS, (table_id, seat), found)
    return found


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


# --- the hooks of the table routes ------------------------------------------------------


async def admit(conn: HTTPConnection, table_id: str, seat: int | None, token: str) -> str | None:
    """None when the holder of ``token`` (a seat's) may be that seat, or a sentence why
    not. A signed-in person who opens a friend's link (a ``link`` seat) unclaimed claims
    it, unless they hold another seat of the table already."""
    if seat is None:
        return None
    accounts = accounts_of(conn)
    claim = await _claim_of(conn, table_id, seat)
    player = await signed_in(conn, for_writing=True)
    if claim is None:
        claim = await _claim_seat(conn, accounts, table_id, seat, player, token)
        if claim is None:
            return None
    if player is not None and player.id == claim.player_id:
        live = await tables_of(conn).get(table_id)
        if live is not None and live.row.seats[seat].waiting:
            # Invited (by name, or to a rematch), the player sits down by opening it.
            await tables_of(conn).door.sit(live, seat)
        return None
    return "This seat belongs to a player's account: sign in as that player to take it."


async def _claim_seat(
    conn: HTTPConnection,
    accounts: Accounts,
    table_id: str,
    seat: int,
    player: Player | None,
    token: str,
) -> Claim | None:
    """Claim an unclaimed friend's seat for a signed-in player; while the database cannot
    be written, the seat stays a guest's for now."""
    if player is None:
        return None
    try:
        live = await tables_of(conn).get(table_id)
        held = await stored(accounts.claims_of_table, table_id)
        # One seat per account at a table: a creator who opens a friend's link to try it
        # does not take the friend's seat.
        if live is None or live.row.seats[seat].type != "link" or player.name in held.values():
            return None
        claim = await tables_of(conn).door.claim(live, seat, player, token)
    except Exception as exc:
        if db.storage_failed(exc):
            return None
        raise
    _remember(_CLAIMS, (table_id, seat), claim)
    claimed(conn, table_id)
    return claim


def claimed(conn: HTTPConnection, table_id: str) -> None:
    """Tell the turn notices that an account now holds a seat at the table, and have them
    mark whose turn it is there: a seat kept for an account (invited, or at a rematch)
    is theirs to take before the table moves at all."""
    notices: Notices = conn.app.state.notices
    notices.claimed(table_id)
    notices.moved(table_id)


async def claim_created(request: Request, created: CreatedTable, player: Player | None) -> None:
    """Give a signed-in creator (``player``, on the page itself) their own seat (``me``),
    whose row shows their name already."""
    if player is None:
        return
    for seat in created.seats:
        if seat.type == "me" and seat.token:
            await stored(
                accounts_of(request).claim, created.table_id, seat.seat, player.id, seat.token
            )
            claimed(request, created.table_id)
            return


async def check_creators_change(conn: HTTPConnection, table_id: str, seat: int) -> None:
    """Refuse the creator's change to a seat (a bot for it, a new link) that another
    account holds: the creator's token does not outrank that player's claim (else the
    creator of a rated table could hand an opponent's seat to a bot, its result still
    counted against the opponent). The account that holds the seat may change it."""
    claim = await _claim_of(conn, table_id, seat)
    if claim is None:
        return
    player = await signed_in(conn, for_writing=True)
    if player is None or player.id != claim.player_id:
        raise ApiError(
            403, "claimed_seat", "A player's account holds this seat: only they can change it."
        )


async def relinked(conn: HTTPConnection, table_id: str, seat: int, token: str) -> None:
    """The seat got a new link: its claim keeps the new token."""
    accounts = accounts_of(conn)
    await stored(accounts.relink, table_id, seat, token)
    _CLAIMS.pop((table_id, seat), None)


# --- the routes -------------------------------------------------------------------------


def _valid_name(raw: str) -> str:
    name = clean_name(raw)
    if not name or len(name) > MAX_NAME:
        raise ApiError(400, "bad_name", f"A name has 1 to {MAX_NAME} characters.")
    return name


def _valid_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise ApiError(400, "weak_password", f"A password has at least {MIN_PASSWORD} characters.")


@router.get("/api/account", response_model=Me)
async def me(request: Request) -> Me:
    player = await signed_in(request)
    return Me(name=player.name if player else None)


@router.post("/api/account/register", response_model=Me, responses=ERRORS)
async def register(request: Request, response: Response, body: Credentials) -> Me:
    _require_same_origin(request)
    name = _valid_name(body.name)
    _valid_password(body.password)
    accounts = accounts_of(request)
    address = _address(request)
    # Registering tells whether a name is taken, as any unique name must: limited too.
    limit: SharedRateLimiter = request.app.state.register_by_address
    if await stored(limit.blocked, address):
        raise ApiError(429, "rate_limited", "Too many attempts: wait a few minutes.")
    await stored(limit.note, address)
    try:
        # Not bounded as a storage call: it hashes the password first (argon2: CPU time
        # and memory that a loaded machine may stretch past a database's answer).
        player = await asyncio.to_thread(accounts.create, name, body.password)
    except NameTakenError:
        raise ApiError(409, "name_taken", "That name is taken.") from None
    _set_cookie(request, response, await stored(accounts.open_session, player.id))
    return Me(name=player.name)


@router.post("/api/account/signin", response_model=Me, responses=ERRORS)
async def signin(request: Request, response: Response, body: Credentials) -> Me:
    _require_same_origin(request)
    accounts = accounts_of(request)
    by_name, by_address = request.app.state.signin_by_name, request.app.state.signin_by_address
    # Counted under the very key the account is looked up by: a spelling that finds the
    # same account (full-width letters, another case) shares its budget.
    key, address = name_key(body.name), _address(request)
    if await stored(by_name.blocked, key) or await stored(by_address.blocked, address):
        raise ApiError(429, "rate_limited", "Too many attempts: wait a few minutes.")
    found = await stored(accounts.by_name, body.name)
    # An unknown name checks a dummy hash: the same answer, in the same time.
    good = await asyncio.to_thread(check_password, body.password, found[1] if found else None)
    if found is None or not good:
        await stored(by_name.note, key)
        await stored(by_address.note, address)
        raise ApiError(401, "bad_credentials", "That name and password do not match.")
    await stored(by_name.clear, key)
    player = found[0]
    _set_cookie(request, response, await stored(accounts.open_session, player.id))
    return Me(name=player.name)


@router.post("/api/account/signout", response_model=Me, responses=ERRORS)
async def signout(request: Request, response: Response) -> Me:
    _require_same_origin(request)
    token = request.cookies.get(COOKIE)
    if token:
        await stored(accounts_of(request).close_session, token)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return Me(name=None)


@router.post("/api/account/password", response_model=Me, responses=ERRORS)
async def change_password(request: Request, body: NewPassword) -> Me:
    _require_same_origin(request)
    player = await signed_in(request, for_writing=True)
    if player is None:
        raise ApiError(401, "not_signed_in", "Sign in first.")
    accounts = accounts_of(request)
    key, by_name = name_key(player.name), request.app.state.signin_by_name
    if await stored(by_name.blocked, key):
        raise ApiError(429, "rate_limited", "Too many attempts: wait a few minutes.")
    found = await stored(accounts.by_name, player.name)
    if found is None or not await asyncio.to_thread(check_password, body.old, found[1]):
        await stored(by_name.note, key)
        raise ApiError(401, "bad_credentials", "The current password is not right.")
    _valid_password(body.new)
    from necropolis.server.tokens import token_hash

    keep = token_hash(request.cookies.get(COOKIE, ""))
    # Not bounded as a storage call, as registering: it hashes the new password first.
    await asyncio.to_thread(accounts.set_password, player.id, body.new, keep)
    return Me(name=player.name)


@router.get("/api/account/tables", response_model=list[MyTable], responses=ERRORS)
async def my_tables(request: Request) -> list[MyTable]:
    player = await signed_in(request)
    if player is None:
        raise ApiError(401, "not_signed_in", "Sign in first.")
    rows = await stored(accounts_of(request).tables_of, player.id)
    found = [
        MyTable(table=table_summary(db._row(r)), seat=claim.seat, token=claim.token)
        for claim, _game, _status, r in rows
    ]
    await with_deadlines(tables_of(request), [t.table for t in found])
    return found


#: The most past matches a profile lists.
PAST_MATCHES = 50

#: Finished tables' returns, scores and figures, by table id (a finished table never
#: changes).
_RESULTS: dict[str, tuple[list[float], list[float], list[Statistic]]] = {}


def _result(store: db.Store, row: db.TableRow) -> tuple[list[float], list[float], list[Statistic]]:
    found = _RESULTS.get(row.id)
    if found is None:
        from necropolis.server.ratings import final_position

        returns, scores, state = final_position(store.engine, store, row)
        figures = [Statistic.model_validate(s) for s in state.statistics()]
        found = _RESULTS[row.id] = (returns, scores, figures)
    return found


def _won(returns: list[float], seat: int) -> bool:
    """Whether ``seat`` won (a tie for first counts as a win; nobody wins a match whose
    returns are all nothing)."""
    return returns[seat] > 0 and returns[seat] == max(returns)


def _place(returns: list[float], scores: list[float], seat: int) -> int:
    """``seat``'s place: its returns first (the winners, a tie sharing first place), then
    its score, as ratings order a match."""
    mine = (returns[seat], scores[seat] if seat < len(scores) else 0.0)
    others = zip(returns, scores or [0.0] * len(returns), strict=False)
    return 1 + sum(1 for other in others if other > mine)


def _records(
    store: db.Store, rows: list[tuple[Claim, str, str, Any]]
) -> tuple[list[GameRecord], list[PastMatch]]:
    """The player's finished games and wins per game, and their latest finished matches,
    from their claims' ``rows`` (the newest first)."""
    records: dict[str, GameRecord] = {}
    matches: list[PastMatch] = []
    for claim, game, status, r in rows:
        if status != db.FINISHED:
            continue
        row = db._row(r)
        returns, scores, figures = _result(store, row)
        record = records.setdefault(game, GameRecord(game=game, played=0, wins=0))
        record.played += 1
        won = _won(returns, claim.seat)
        if won:
            record.wins += 1
        if len(matches) < PAST_MATCHES:
            matches.append(
                PastMatch(
                    table_id=row.id,
                    game=game,
                    finished=row.updated,
                    seat=claim.seat,
                    seats=table_summary(row).seats,
                    scores=scores,
                    place=_place(returns, scores, claim.seat),
                    won=won,
                    statistics=figures,
                )
            )
    return sorted(records.values(), key=_by_game), matches


def _by_game(record: GameRecord) -> Any:
    return record.game


@router.get("/api/players/{name}", response_model=Profile, responses=ERRORS)
async def profile(request: Request, name: str) -> Profile:
    if len(name) > 200:
        raise ApiError(404, "no_such_player", "There is no such player.")
    accounts = accounts_of(request)
    found = await stored(accounts.by_name, name)
    if found is None:
        raise ApiError(404, "no_such_player", "There is no such player.")
    player = found[0]
    rows = await stored(accounts.tables_of, player.id)
    # Not bounded as a storage call: replaying the finished games not yet remembered may
    # take longer than a database answer should (each is replayed once per process).
    games, matches = await asyncio.to_thread(_records, tables_of(request).store, rows)
    return Profile(name=player.name, since=player.created, games=games, matches=matches)
