"""Seats without a given name store null instead of an English default.

The first server stored "Player N" for a person seat and "Bot (level)" for a bot seat
when the creator left the name empty; the protocol now sends null for these, so that each
client writes the default in its own language. This turns those stored defaults into
null (and back again on a downgrade). A person who typed exactly their seat's default
is treated the same: the name they would see is the same text.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_tables = sa.table("tables", sa.column("id", sa.String(32)), sa.column("seats", sa.JSON))


def _default(seat: dict[str, Any]) -> str:
    """The English default the first server stored for ``seat``."""
    if seat.get("type") == "bot":
        return f"Bot ({seat.get('level') or 'medium'})"
    return f"Player {int(seat['seat']) + 1}"


def _rewrite(change: Any) -> None:
    connection = op.get_bind()
    for table_id, seats in connection.execute(sa.select(_tables.c.id, _tables.c.seats)).all():
        new = [change(dict(s)) for s in seats]
        if new != seats:
            connection.execute(sa.update(_tables).where(_tables.c.id == table_id).values(seats=new))


def _to_null(seat: dict[str, Any]) -> dict[str, Any]:
    # A seat handed to a bot kept its person default ("Player 2"): that is a default too.
    if seat.get("name") in (_default(seat), f"Player {int(seat['seat']) + 1}"):
        seat["name"] = None
    return seat


def _to_default(seat: dict[str, Any]) -> dict[str, Any]:
    if seat.get("name") is None:
        seat["name"] = _default(seat)
    return seat


def upgrade() -> None:
    _rewrite(_to_null)


def downgrade() -> None:
    _rewrite(_to_default)
