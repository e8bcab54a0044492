"""A claimed seat shows its account's name: the account's name kept with the seat.

Each stored seat that an account holds (a row of ``seat_claims``) gets ``account``, the
name of that account, beside the ``name`` given at set-up, so that every message that
lists the seats (a ``state``, a table's summary, the chat, the record) shows the account's
name without asking the accounts each time. Accounts are never renamed, so the name kept
stays true. Claims made from now on write it in the same transaction as the claim. A
downgrade takes it out again.

Revision ID: 0009_seat_accounts
Revises: 0008_rate_attempts
Create Date: 2026-11-28
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009_seat_accounts"
down_revision = "0008_rate_attempts"
branch_labels = None
depends_on = None

_tables = sa.table("tables", sa.column("id", sa.String(32)), sa.column("seats", sa.JSON))
_claims = sa.table(
    "seat_claims",
    sa.column("table_id", sa.String(32)),
    sa.column("seat", sa.Integer),
    sa.column("player_id", sa.Integer),
)
_players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String(40)))


def _rewrite(change: Any) -> None:
    """``change(seats, held)`` for each table with a claimed seat (``held``: the claimed
    seats' account names by seat), stored where it changed something."""
    connection = op.get_bind()
    held: dict[str, dict[int, str]] = {}
    claims = sa.select(_claims.c.table_id, _claims.c.seat, _players.c.name).join(
        _players, _players.c.id == _claims.c.player_id
    )
    for table_id, seat, name in connection.execute(claims).all():
        held.setdefault(str(table_id), {})[int(seat)] = str(name)
    for table_id, names in held.items():
        seats = connection.execute(
            sa.select(_tables.c.seats).where(_tables.c.id == table_id)
        ).scalar_one_or_none()
        if seats is None:
            continue
        new = change([dict(s) for s in seats], names)
        if new != seats:
            connection.execute(sa.update(_tables).where(_tables.c.id == table_id).values(seats=new))


def _with_accounts(seats: list[dict[str, Any]], held: dict[int, str]) -> list[dict[str, Any]]:
    for seat in seats:
        name = held.get(int(seat["seat"]))
        if name is not None:
            seat["account"] = name
    return seats


def _without_accounts(seats: list[dict[str, Any]], _held: dict[int, str]) -> list[dict[str, Any]]:
    for seat in seats:
        seat.pop("account", None)
    return seats


def upgrade() -> None:
    _rewrite(_with_accounts)


def downgrade() -> None:
    _rewrite(_without_accounts)
