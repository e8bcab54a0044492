"""Clocks: a timed table's settings and next deadline, and its clock events.

Two new tables beside the existing ones, which are left as they are: a table made before
clocks existed has no row in ``table_clocks``, so it stays untimed and plays as before.

Revision ID: 0007_clocks
Revises: 0006_notices
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_clocks"
down_revision = "0006_notices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_clocks",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("base", sa.Integer, nullable=False),
        sa.Column("increment", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("rule", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index("ix_table_clocks_deadline", "table_clocks", ["deadline"])
    op.create_table(
        "clock_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("index", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("clock_events")
    op.drop_index("ix_table_clocks_deadline", "table_clocks")
    op.drop_table("table_clocks")
