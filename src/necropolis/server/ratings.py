"""Ratings: which tables are rated, and every rating derived from their finished records.

A rated table is marked so when it is made (by its creator, before its first move). Its
result counts once it is finished and every seat has a rated player: a seat claimed by an
account is that account (also when it was handed to a bot on the way: whoever leaves a
rated table keeps its result), a seat that was a bot's from the start is the bot of its
level (one rating per level), and a person's seat nobody claimed leaves the table
unrated (also when it was handed to a bot: the bot only stood in). Ratings
are OpenSkill's Plackett-Luce model (``openskill``), per game, computed from scratch from
the finished records in the order they finished, so they can always be recomputed; the
order of a match is its returns (the winners, sharing a tie), then its scores; a match
abandoned when a seat's time ran out ranks that seat last and the others first together
(:func:`~necropolis.server.clocks.abandoned_result`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import JSON, Column, Engine, String, Table, insert, select
from sqlalchemy.exc import IntegrityError

from necropolis.bots.levels import DEFAULT_LEVEL
from necropolis.engine.protocol import State
from necropolis.games import load_game
from necropolis.server import db
from necropolis.server.accounts import players, seat_claims
from necropolis.server.clocks import ClockStore, abandoned_result
from necropolis.server.db import aware, metadata, moment, now, table_key, tables

rated_tables = Table(
    "rated_tables",
    metadata,
    table_key(),
    Column("game", String(64), nullable=False, index=True),
    moment("marked"),
    # The seats that were people's when the table was made rated: one of them handed to
    # a bot later is still the person's (or nobody's), never the bot's.
    Column("persons", JSON, nullable=False),
)

MODEL = PlackettLuce()


def bot_id(level: str) -> str:
    return f"bot:{level}"


def player_id(name: str) -> str:
    return f"player:{name}"


@dataclass
class Standing:
    """One rated player's rating in a game, and how it went."""

    who: str
    mu: float
    sigma: float
    games: int = 0
    #: ``(table_id, finished, ordinal after)``, oldest first.
    history: list[tuple[str, datetime, float]] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass
class Change:
    seat: int
    who: str
    before: float
    after: float


@dataclass
class GameRatings:
    standings: dict[str, Standing]
    #: Per rated table that counted: each seat's ordinal before and after it.
    changes: dict[str, list[Change]]


def order_of(returns: list[float], scores: list[float]) -> list[int]:
    """Ranks (1 best, equal for a tie) from returns, then scores."""
    keys = [(returns[k], scores[k]) for k in range(len(returns))]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


class Ratings:
    """Marks rated tables and derives every rating from the finished ones."""

    def __init__(self, engine: Engine, store: db.Store) -> None:
        self.engine = engine
        self.store = store
        #: Results of finished tables: ``table_id -> (returns, scores)``; they never change.
        self._results: dict[str, tuple[list[float], list[float]]] = {}

    def mark(self, table_id: str, game: str, persons: list[int]) -> None:
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(rated_tables).values(
                        table_id=table_id, game=game, marked=now(), persons=persons
                    )
                )
        except IntegrityError:
            pass  # marked already

    def is_rated(self, table_id: str) -> bool:
        with self.engine.connect() as c:
            found = c.execute(
                select(rated_tables.c.table_id).where(rated_tables.c.table_id == table_id)
            ).first()
        return found is not None

    def _result(self, row: db.TableRow) -> tuple[list[float], list[float]]:
        found = self._results.get(row.id)
        if found is None:
            found = self._results[row.id] = final_result(self.engine, self.store, row)
        return found

    def compute(self, game: str) -> GameRatings:
        """Every rating of ``game``, from scratch."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(tables, rated_tables.c.persons)
                .join(rated_tables, rated_tables.c.table_id == tables.c.id)
                .where(rated_tables.c.game == game, tables.c.status == db.FINISHED)
                .order_by(tables.c.updated, tables.c.id)
            ).all()
            claims: dict[str, dict[int, str]] = {}
            if rows:
                for table_id, seat, name in c.execute(
                    select(seat_claims.c.table_id, seat_claims.c.seat, players.c.name)
                    .join(players, players.c.id == seat_claims.c.player_id)
                    .where(seat_claims.c.table_id.in_([r.id for r in rows]))
                ).all():
                    claims.setdefault(str(table_id), {})[int(seat)] = str(name)
        standings: dict[str, Standing] = {}
        changes: dict[str, list[Change]] = {}
        for r in rows:
            row = db._row(r)
            who = _seated(row, claims.get(row.id, {}), [int(k) for k in r.persons])
            if who is None:
                continue
            returns, scores = self._result(row)
            for w in who:
                if w not in standings:
                    fresh = MODEL.rating()
                    standings[w] = Standing(w, fresh.mu, fresh.sigma)
            before = [standings[w] for w in who]
            teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
            rated = MODEL.rate(teams, ranks=[float(x) for x in order_of(returns, scores)])
            changes[row.id] = []
            for seat, (w, team) in enumerate(zip(who, rated, strict=True)):
                s = standings[w]
                old = s.ordinal
                s.mu, s.sigma = team[0].mu, team[0].sigma
                s.games += 1
                s.history.append((row.id, aware(row.updated), s.ordinal))
                changes[row.id].append(Change(seat, w, old, s.ordinal))
        return GameRatings(standings, changes)


def final_result(
    engine: Engine, store: db.Store, row: db.TableRow
) -> tuple[list[float], list[float]]:
    """A finished table's returns and scores: its record's, or for a match abandoned when
    a seat's time ran out, the clocks' rule (that seat last, the others first)."""
    returns, scores, _state = final_position(engine, store, row)
    return returns, scores


def final_position(
    engine: Engine, store: db.Store, row: db.TableRow
) -> tuple[list[float], list[float], State]:
    """:func:`final_result`, with the finished table's last state (its figures, say)."""
    state = load_game(row.game, **row.options).new_initial_state()
    for _seat, action in store.actions(row.id):
        state.apply_action(action)
    if not state.is_terminal():
        lost = ClockStore(engine).abandoned_seat(row.id)
        if lost is not None:
            returns, scores = abandoned_result(state.game.num_players, lost)
            return returns, scores, state
    return list(state.returns()), list(state.scores()), state


def _seated(row: db.TableRow, claimed: dict[int, str], persons: list[int]) -> list[str] | None:
    """Who is rated at each seat, or None when a seat has no rated player."""
    who: list[str] = []
    for seat in row.seats:
        k = seat.seat
        if k in claimed:
            who.append(player_id(claimed[k]))
        elif not seat.person and k not in persons:
            who.append(bot_id(str(seat.level or DEFAULT_LEVEL)))
        else:
            return None
    return who


def describe(who: str) -> dict[str, Any]:
    """A rated player as the API names it: ``{"player": name}`` or ``{"bot": level}``."""
    kind, _, name = who.partition(":")
    return {"player": name, "bot": None} if kind == "player" else {"player": None, "bot": name}
