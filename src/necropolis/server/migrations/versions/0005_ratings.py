"""Rated tables: the mark a table gets when its creator makes it rated.

The ratings themselves are not stored: they are derived from the finished records.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("marked", sa.DateTime(timezone=True), nullable=False),
        sa.Column("persons", sa.JSON, nullable=False),
    )
    op.create_index("ix_rated_tables_game", "rated_tables", ["game"])


def downgrade() -> None:
    op.drop_index("ix_rated_tables_game", "rated_tables")
    op.drop_table("rated_tables")
