"""Players' accounts: their storage, their passwords, their sessions and their seats.

An account is optional: a guest plays by link as before. An account has a name (unique
whatever its case, cleaned by the rules of a seat's name) and an Argon2id hash of its
password (``argon2-cffi``). Signing in gives a session: a random token in an HttpOnly
cookie, of which the database keeps only the SHA-256 hash. A signed-in person who creates
a table (their own seat) or opens a seat's link *claims* that seat: from then on the
seat's token works only together with that account's session, and the claim keeps the
seat's token so that the account finds its tables from any browser (the token alone no
longer grants the seat, so keeping it grants nothing either). The functions here are
synchronous; the server calls them from worker threads.
"""

from __future__ import annotations

import secrets
import threading
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Column,
    Engine,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from necropolis.server import tokens
from necropolis.server.db import aware, metadata, moment, now, table_key, tables
from necropolis.server.seats import Seat, seats_json
from necropolis.server.written import clean_name

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # The name folded (casefold), so that "Ana" and "ana" are one name.
    Column("name_key", String(160), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    moment("created"),
)

player_sessions = Table(
    "player_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    moment("created"),
    moment("expires"),
)

seat_claims = Table(
    "seat_claims",
    metadata,
    table_key(),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    # The seat's token: useless without the account's session once the seat is claimed.
    Column("token", String(200), nullable=False),
    moment("claimed"),
)

rate_attempts = Table(
    "rate_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # Which limit: "signin_name", "signin_address", "register_address".
    Column("bucket", String(32), nullable=False),
    # The SHA-256 of the name or address counted: no attempted name is kept as written.
    Column("key_hash", String(64), nullable=False),
    moment("at"),
    Index("ix_rate_attempts_key", "bucket", "key_hash", "at"),
)

#: How long a session lasts without signing in again.
SESSION_DAYS = 30
#: The shortest and longest password accepted.
MIN_PASSWORD = 8
MAX_PASSWORD = 200
#: The longest name, as for a seat's name.
MAX_NAME = 40

_hasher = PasswordHasher()  # Argon2id, with the library's RFC 9106 parameters
#: A hash verified when the name is unknown, so that an unknown name takes as long as a
#: wrong password (no telling which names exist by timing).
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` matches ``stored``; with no stored hash, a dummy one is
    verified all the same and the answer is False."""
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    created: datetime


@dataclass(frozen=True)
class Claim:
    table_id: str
    seat: int
    player_id: int
    token: str


class NameTakenError(Exception):
    """Another account has this name (in any case)."""


class RateLimiter:
    """Attempts per key in a sliding window, in this process (each process counts its
    own: several processes together allow as many times more). For short bursts (the
    chat); the sign-in limits use :class:`SharedRateLimiter`."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _fresh(self, key: str, at: float) -> deque[float]:
        seen = self._seen.setdefault(key, deque())
        while seen and seen[0] <= at - self.window:
            seen.popleft()
        return seen

    def blocked(self, key: str) -> bool:
        with self._lock:
            return len(self._fresh(key, time.monotonic())) >= self.limit

    def note(self, key: str) -> None:
        with self._lock:
            at = time.monotonic()
            self._fresh(key, at).append(at)
            if len(self._seen) > 100_000:  # forget idle keys rather than grow without end
                for k in [k for k, v in self._seen.items() if not v]:
                    del self._seen[k]

    def clear(self, key: str) -> None:
        with self._lock:
            self._seen.pop(key, None)


class SharedRateLimiter:
    """Attempts per key in a sliding window, counted in the database, so that every
    server process counts the same attempts (``--workers N`` allows no more). The same
    methods as :class:`RateLimiter`, synchronous: call them from worker threads."""

    def __init__(self, engine: Engine, bucket: str, limit: int, window: float) -> None:
        self.engine = engine
        self.bucket = bucket
        self.limit = limit
        self.window = timedelta(seconds=window)

    def _of(self, key: str) -> Any:
        return (rate_attempts.c.bucket == self.bucket) & (
            rate_attempts.c.key_hash == tokens.token_hash(key)
        )

    def blocked(self, key: str) -> bool:
        with self.engine.connect() as c:
            seen = c.execute(
                select(func.count())
                .select_from(rate_attempts)
                .where(self._of(key), rate_attempts.c.at > now() - self.window)
            ).scalar_one()
        return int(seen) >= self.limit

    def note(self, key: str) -> None:
        at = now()
        with self.engine.begin() as c:
            c.execute(
                insert(rate_attempts).values(
                    bucket=self.bucket, key_hash=tokens.token_hash(key), at=at
                )
            )
            # What left the window counts no more: it goes as new attempts come.
            c.execute(
                delete(rate_attempts).where(
                    rate_attempts.c.bucket == self.bucket, rate_attempts.c.at <= at - self.window
                )
            )

    def clear(self, key: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(rate_attempts).where(self._of(key)))


class Accounts:
    """Every read and write of accounts, sessions and claims, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- accounts ---------------------------------------------------------------------

    def create(self, name: str, password: str) -> Player:
        at = now()
        hashed = hash_password(password)
        try:
            with self.engine.begin() as c:
                new_id = c.execute(
                    insert(players)
                    .values(name=name, name_key=name_key(name), password_hash=hashed, created=at)
                    .returning(players.c.id)
                ).scalar_one()
        except IntegrityError:
            raise NameTakenError(name) from None
        return Player(int(new_id), name, at)

    def by_name(self, name: str) -> tuple[Player, str] | None:
        """The account and its password hash, by name in any case."""
        with self.engine.connect() as c:
            r = c.execute(select(players).where(players.c.name_key == name_key(name))).first()
        return None if r is None else (Player(r.id, r.name, r.created), r.password_hash)

    def by_id(self, player_id: int) -> Player | None:
        with self.engine.connect() as c:
            r = c.execute(select(players).where(players.c.id == player_id)).first()
        return None if r is None else Player(r.id, r.name, r.created)

    def set_password(self, player_id: int, password: str, keep: str | None = None) -> None:
        """A new password; every session of the account ends but ``keep`` (a token hash)."""
        with self.engine.begin() as c:
            c.execute(
                update(players)
                .where(players.c.id == player_id)
                .values(password_hash=hash_password(password))
            )
            gone = delete(player_sessions).where(player_sessions.c.player_id == player_id)
            if keep is not None:
                gone = gone.where(player_sessions.c.token_hash != keep)
            c.execute(gone)

    # --- sessions ---------------------------------------------------------------------

    def open_session(self, player_id: int) -> str:
        token = tokens.new_token()
        at = now()
        with self.engine.begin() as c:
            c.execute(
                insert(player_sessions).values(
                    token_hash=tokens.token_hash(token),
                    player_id=player_id,
                    created=at,
                    expires=at + timedelta(days=SESSION_DAYS),
                )
            )
            # Expired sessions go as new ones come.
            c.execute(delete(player_sessions).where(player_sessions.c.expires < at))
        return token

    def session(self, token: str) -> Player | None:
        if not token or len(token) > tokens.MAX_TOKEN_LENGTH:
            return None
        with self.engine.connect() as c:
            r = c.execute(
                select(players, player_sessions.c.expires)
                .join(player_sessions, player_sessions.c.player_id == players.c.id)
                .where(player_sessions.c.token_hash == tokens.token_hash(token))
            ).first()
        if r is None or aware(r.expires) < now():
            return None
        return Player(r.id, r.name, r.created)

    def close_session(self, token: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                delete(player_sessions).where(
                    player_sessions.c.token_hash == tokens.token_hash(token)
                )
            )

    # --- seats ------------------------------------------------------------------------

    def claim(
        self,
        table_id: str,
        seat: int,
        player_id: int,
        token: str,
        seats: list[Seat] | None = None,
    ) -> Claim:
        """Claim the seat for the account, or the claim that was there first. ``seats``:
        the table's seats as they are once claimed (the seat showing the account's name),
        written in the same transaction as the claim."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(seat_claims).values(
                        table_id=table_id,
                        seat=seat,
                        player_id=player_id,
                        token=token,
                        claimed=now(),
                    )
                )
                if seats is not None:
                    c.execute(
                        update(tables)
                        .where(tables.c.id == table_id)
                        .values(seats=seats_json(seats))
                    )
        except IntegrityError:
            found = self.claim_of(table_id, seat)
            if found is None:
                raise
            return found
        return Claim(table_id, seat, player_id, token)

    def relink(self, table_id: str, seat: int, token: str) -> None:
        """The seat got a new link: its claim, if any, keeps the new token (the old one
        opens nothing any more, and "my tables" hands out the claim's)."""
        with self.engine.begin() as c:
            c.execute(
                update(seat_claims)
                .where(seat_claims.c.table_id == table_id, seat_claims.c.seat == seat)
                .values(token=token)
            )

    def claim_of(self, table_id: str, seat: int) -> Claim | None:
        with self.engine.connect() as c:
            r = c.execute(
                select(seat_claims).where(
                    seat_claims.c.table_id == table_id, seat_claims.c.seat == seat
                )
            ).first()
        return None if r is None else Claim(r.table_id, r.seat, r.player_id, r.token)

    def claims_of_table(self, table_id: str) -> dict[int, str]:
        """The claimed seats of a table and the names of the accounts that hold them."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(seat_claims.c.seat, players.c.name)
                .join(players, players.c.id == seat_claims.c.player_id)
                .where(seat_claims.c.table_id == table_id)
            ).all()
        return {int(r[0]): str(r[1]) for r in rows}

    def tables_of(self, player_id: int) -> list[tuple[Claim, str, str, Any]]:
        """The account's seats, newest table first: the claim, the game, the status and
        the table's row (for its summary)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(seat_claims, tables)
                .join(tables, tables.c.id == seat_claims.c.table_id)
                .where(seat_claims.c.player_id == player_id)
                .order_by(tables.c.updated.desc(), tables.c.id)
            ).all()
        return [
            (Claim(r.table_id, r.seat, r.player_id, r.token), r.game, r.status, r) for r in rows
        ]

    def count(self) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(players)).scalar_one())
