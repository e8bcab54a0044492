"""Your-turn notices: whose turn it is at each table, and players' mail addresses.

``turn_marks`` and ``turn_waits`` are derived from the tables' records (see
``necropolis.server.turns``): they start empty, and each table is marked when it next
moves or when someone counts its turns.

Revision ID: 0006_notices
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_notices"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_marks",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "turn_waits",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mailed", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_turn_waits_since", "turn_waits", ["since"])
    op.create_table(
        "player_mail",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_mail")
    op.drop_index("ix_turn_waits_since", "turn_waits")
    op.drop_table("turn_waits")
    op.drop_table("turn_marks")
