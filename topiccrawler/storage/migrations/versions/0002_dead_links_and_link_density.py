"""dead links and link density

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 08:32:21.062077
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dead_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url_hash", sa.String(length=40), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(length=255), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("dead", sa.Boolean(), nullable=False),
        sa.Column("first_failed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_failed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dead_links")),
        sa.UniqueConstraint("url_hash", name=op.f("uq_dead_links_url_hash")),
    )
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("link_density", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_column("link_density")

    op.drop_table("dead_links")
