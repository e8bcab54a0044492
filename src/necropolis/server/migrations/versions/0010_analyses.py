"""Analyses and hints: a finished table's analysis, the tables that allow hints, and the
hints asked.

Three new tables beside the existing ones, which are left as they are: a table made
before has no row in any of them, so it allows no hints and has no analysis until one
is asked for (see ``necropolis/server/analyses.py``).

Revision ID: 0010_analyses
Revises: 0009_seat_accounts
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_analyses"
down_revision = "0009_seat_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "hinted_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("marked", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "hint_uses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hint_uses")
    op.drop_table("hinted_tables")
    op.drop_table("table_analyses")
