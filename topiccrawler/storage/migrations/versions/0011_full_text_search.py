"""full-text search: one entry per page, comment and post, in the store's own index

`search_documents` holds what search filters and ranks by; the words go to an FTS5 table
(SQLite) or a tsvector column with a GIN index (PostgreSQL): storage/search_index.py. Every
page already stored is indexed here, in batches. Pages get an index on their crawl run (the
web view counts a run's pages).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 23:50:00
"""

import sqlalchemy as sa
from alembic import op

from topiccrawler.storage.search_index import create_index, drop_index, rebuild

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "search_documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("site", sa.String(length=255), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("kept", sa.Boolean(), nullable=False),
        sa.Column("relevance", sa.Float(), nullable=True),
        sa.Column("text_hash", sa.BigInteger(), nullable=False),
        sa.Column("words_hash", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["page_id"], ["pages.id"],
            name=op.f("fk_search_documents_page_id_pages"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_documents")),
        sa.UniqueConstraint(
            "page_id", "kind", "record_id", name=op.f("uq_search_documents_page_id_kind_record_id")
        ),
        sqlite_autoincrement=True,
    )  # fmt: skip
    # The web view counts each crawl run's pages.
    op.create_index(op.f("ix_pages_crawl_run_id"), "pages", ["crawl_run_id"])
    connection = op.get_bind()
    create_index(connection)
    rebuild(connection)


def downgrade() -> None:
    drop_index(op.get_bind())
    op.drop_table("search_documents")
    op.drop_index(op.f("ix_pages_crawl_run_id"), table_name="pages")
