"""Tables that want players: open tables listed in the lobby, and rematches.

``open_tables`` lists each table in play that has a seat anyone may take from the lobby
(its row goes when the last such seat is taken), with the language its creator plays in;
``seats_taken`` holds one row per waiting seat a person took (from the lobby, or a
rematch), its key keeping two people on two processes from taking the same seat;
``rematches`` ties a finished table to the table of its rematch, with the seats whose
people accepted to play again. The seats themselves say which are open or still waiting
for their person (``open`` and ``waiting`` in the seats' JSON, server/seats.py), so
tables from before have none of either and are untouched.

Revision ID: 0011_lobby
Revises: 0010_analyses
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_lobby"
down_revision = "0010_analyses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("listed", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "seats_taken",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("next_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("accepted", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("seats_taken")
    op.drop_table("open_tables")
