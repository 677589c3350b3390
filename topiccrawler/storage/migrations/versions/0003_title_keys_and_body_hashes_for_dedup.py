"""title keys and body hashes for dedup

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 09:00:52.850466
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("title_key", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("body_hash", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_column("body_hash")
        batch_op.drop_column("title_key")
