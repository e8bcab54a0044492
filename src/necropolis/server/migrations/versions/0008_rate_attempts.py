"""Rate limits shared by every server process: the attempts counted against them.

``rate_attempts`` holds one row per counted attempt (a failed sign-in, a new account),
by limit (``bucket``) and the SHA-256 of what it is counted under (a name, an address):
every process of the server counts the same attempts, so that ``--workers N`` does not
allow N times as many. Rows older than a limit's window are deleted as new ones come.

Revision ID: 0008_rate_attempts
Revises: 0007_clocks
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_rate_attempts"
down_revision = "0007_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("bucket", sa.String(32), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rate_attempts_key", "rate_attempts", ["bucket", "key_hash", "at"])


def downgrade() -> None:
    op.drop_index("ix_rate_attempts_key", "rate_attempts")
    op.drop_table("rate_attempts")
