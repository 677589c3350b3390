"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 08:04:48.635682
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "crawl_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("spider", sa.String(length=100), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finish_reason", sa.String(length=100), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("pid", sa.Integer(), nullable=True),
        sa.Column("stats", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_crawl_runs")),
    )
    with op.batch_alter_table("crawl_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_crawl_runs_topic"), ["topic"], unique=False)

    op.create_table(
        "topic_terms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("term", sa.String(length=255), nullable=False),
        sa.Column("term_class", sa.String(length=50), nullable=False),
        sa.Column("concept", sa.String(length=255), nullable=False),
        sa.Column("provenance", sa.String(length=255), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_topic_terms")),
        sa.UniqueConstraint("topic", "term", name=op.f("uq_topic_terms_topic_term")),
    )
    with op.batch_alter_table("topic_terms", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_topic_terms_topic"), ["topic"], unique=False)

    op.create_table(
        "pages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("url_hash", sa.String(length=40), nullable=False),
        sa.Column("canonical_url", sa.Text(), nullable=False),
        sa.Column("site", sa.String(length=255), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("content_type", sa.String(length=255), nullable=True),
        sa.Column("encoding", sa.String(length=50), nullable=True),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("published_text", sa.String(length=255), nullable=True),
        sa.Column("author", sa.String(length=255), nullable=True),
        sa.Column("source", sa.String(length=255), nullable=True),
        sa.Column("entrance", sa.String(length=20), nullable=True),
        sa.Column("depth", sa.Integer(), nullable=True),
        sa.Column("referrer", sa.Text(), nullable=True),
        sa.Column("relevance", sa.Float(), nullable=True),
        sa.Column("relevance_detail", sa.JSON(), nullable=True),
        sa.Column("is_relevant", sa.Boolean(), nullable=True),
        sa.Column("duplicate_of_id", sa.Integer(), nullable=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("crawl_run_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["crawl_run_id"],
            ["crawl_runs.id"],
            name=op.f("fk_pages_crawl_run_id_crawl_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["duplicate_of_id"],
            ["pages.id"],
            name=op.f("fk_pages_duplicate_of_id_pages"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pages")),
        sa.UniqueConstraint("topic", "url_hash", name=op.f("uq_pages_topic_url_hash")),
    )
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pages_site"), ["site"], unique=False)
        batch_op.create_index(batch_op.f("ix_pages_topic"), ["topic"], unique=False)
        batch_op.create_index(batch_op.f("ix_pages_url_hash"), ["url_hash"], unique=False)

    op.create_table(
        "search_queries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("engine", sa.String(length=100), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("page", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=50), nullable=False),
        sa.Column("result_count", sa.Integer(), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("crawl_run_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["crawl_run_id"],
            ["crawl_runs.id"],
            name=op.f("fk_search_queries_crawl_run_id_crawl_runs"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_queries")),
    )
    with op.batch_alter_table("search_queries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_search_queries_submitted_at"), ["submitted_at"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_search_queries_topic"), ["topic"], unique=False)

    op.create_table(
        "comments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("author", sa.String(length=255), nullable=True),
        sa.Column("published_text", sa.String(length=255), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reply_to", sa.String(length=255), nullable=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["page_id"], ["pages.id"], name=op.f("fk_comments_page_id_pages"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_comments")),
        sa.UniqueConstraint(
            "page_id", "content_hash", name=op.f("uq_comments_page_id_content_hash")
        ),
    )
    with op.batch_alter_table("comments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_comments_page_id"), ["page_id"], unique=False)

    op.create_table(
        "forum_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("author", sa.String(length=255), nullable=True),
        sa.Column("published_text", sa.String(length=255), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["page_id"], ["pages.id"], name=op.f("fk_forum_posts_page_id_pages"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forum_posts")),
        sa.UniqueConstraint(
            "page_id", "content_hash", name=op.f("uq_forum_posts_page_id_content_hash")
        ),
    )
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_forum_posts_page_id"), ["page_id"], unique=False)

    op.create_table(
        "forum_threads",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("list_page_id", sa.Integer(), nullable=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("url_hash", sa.String(length=40), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("author", sa.String(length=255), nullable=True),
        sa.Column("published_text", sa.String(length=255), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("replies", sa.Integer(), nullable=True),
        sa.Column("views", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["list_page_id"],
            ["pages.id"],
            name=op.f("fk_forum_threads_list_page_id_pages"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forum_threads")),
        sa.UniqueConstraint("topic", "url_hash", name=op.f("uq_forum_threads_topic_url_hash")),
    )
    with op.batch_alter_table("forum_threads", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_forum_threads_list_page_id"), ["list_page_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_forum_threads_topic"), ["topic"], unique=False)

    op.create_table(
        "search_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("url_hash", sa.String(length=40), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("snippet", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["search_queries.id"],
            name=op.f("fk_search_results_query_id_search_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_results")),
        sa.UniqueConstraint("query_id", "rank", name=op.f("uq_search_results_query_id_rank")),
    )
    with op.batch_alter_table("search_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_search_results_query_id"), ["query_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_search_results_url_hash"), ["url_hash"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("search_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_search_results_url_hash"))
        batch_op.drop_index(batch_op.f("ix_search_results_query_id"))

    op.drop_table("search_results")
    with op.batch_alter_table("forum_threads", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_forum_threads_topic"))
        batch_op.drop_index(batch_op.f("ix_forum_threads_list_page_id"))

    op.drop_table("forum_threads")
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_forum_posts_page_id"))

    op.drop_table("forum_posts")
    with op.batch_alter_table("comments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_comments_page_id"))

    op.drop_table("comments")
    with op.batch_alter_table("search_queries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_search_queries_topic"))
        batch_op.drop_index(batch_op.f("ix_search_queries_submitted_at"))

    op.drop_table("search_queries")
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pages_url_hash"))
        batch_op.drop_index(batch_op.f("ix_pages_topic"))
        batch_op.drop_index(batch_op.f("ix_pages_site"))

    op.drop_table("pages")
    with op.batch_alter_table("topic_terms", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_topic_terms_topic"))

    op.drop_table("topic_terms")
    with op.batch_alter_table("crawl_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_crawl_runs_topic"))

    op.drop_table("crawl_runs")
