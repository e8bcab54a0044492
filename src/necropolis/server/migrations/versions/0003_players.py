"""Players' accounts, their sessions and the seats they claim.

Three new tables beside the existing ones, which are left as they are: a table made
before accounts existed has no claimed seat, so its links work as they did.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_sessions_player_id", "player_sessions", ["player_id"])
    op.create_table(
        "seat_claims",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token", sa.String(200), nullable=False),
        sa.Column("claimed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seat_claims_player_id", "seat_claims", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seat_claims_player_id", "seat_claims")
    op.drop_table("seat_claims")
    op.drop_index("ix_player_sessions_player_id", "player_sessions")
    op.drop_table("player_sessions")
    op.drop_table("players")
