"""The schema as it stood when migrations began: tables, events, rematches.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

On a new database it creates the three tables. A database made before migrations (by ``create_all``: its tables
are there, ``alembic_version`` is not) keeps its data and gains what the code added since it was made, as
``create_all`` never did: the ``rematches`` table, ``tables.coscorer_hash``, ``events.withdrawn_by`` and, on
PostgreSQL, times with their time zone (SQLModel 0.0.45 and later; the stored times were UTC).
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TIMES = {"tables": ["created_at"], "events": ["at", "withdrawn_at"], "rematches": ["created_at"]}
LATER_COLUMNS = {"tables": [sa.Column("coscorer_hash", sa.String(length=64), nullable=True)],
                 "events": [sa.Column("withdrawn_by", sa.String(length=128), nullable=True)]}


def upgrade() -> None:
    present = sa.inspect(op.get_bind())
    names = set(present.get_table_names())
    if "tables" not in names:
        op.create_table(
            "tables",
            sa.Column("id", sa.String(length=32), nullable=False),
            sa.Column("game", sa.String(length=32), nullable=False),
            sa.Column("players", sa.JSON(), nullable=False),
            sa.Column("options", sa.JSON(), nullable=False),
            sa.Column("dealer", sa.Integer(), nullable=False),
            sa.Column("scorer_hash", sa.String(length=64), nullable=False),
            sa.Column("viewer_key", sa.String(length=64), nullable=False),
            sa.Column("coscorer_hash", sa.String(length=64), nullable=True),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("revision", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
    if "events" not in names:
        op.create_table(
            "events",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("table_id", sa.String(length=32), nullable=False),
            sa.Column("seq", sa.Integer(), nullable=False),
            sa.Column("type", sa.String(length=32), nullable=False),
            sa.Column("body", sa.JSON(), nullable=False),
            sa.Column("client_event_id", sa.String(length=128), nullable=True),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("withdrawn", sa.Boolean(), nullable=False),
            sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
            sa.Column("withdrawn_by", sa.String(length=128), nullable=True),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("table_id", "client_event_id"),
            sa.UniqueConstraint("table_id", "seq"),
        )
        op.create_index("ix_events_table_id", "events", ["table_id"], unique=False)
    if "rematches" not in names:
        op.create_table(
            "rematches",
            sa.Column("old_id", sa.String(length=32), nullable=False),
            sa.Column("new_id", sa.String(length=32), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(["new_id"], ["tables.id"]),
            sa.ForeignKeyConstraint(["old_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("old_id"),
            sa.UniqueConstraint("new_id"),
        )
    for table, columns in LATER_COLUMNS.items():  # a database made before they existed
        if table in names:
            have = {column["name"] for column in present.get_columns(table)}
            for column in columns:
                if column.name not in have:
                    op.add_column(table, column)
    if op.get_bind().dialect.name == "postgresql":
        for table, columns in TIMES.items():
            if table not in names:
                continue
            kinds = {column["name"]: column["type"] for column in present.get_columns(table)}
            for name in columns:
                if not getattr(kinds.get(name), "timezone", True):
                    op.alter_column(table, name, type_=sa.DateTime(timezone=True),
                                    postgresql_using=f'"{name}" AT TIME ZONE \'UTC\'')


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_index("ix_events_table_id", table_name="events")
    op.drop_table("events")
    op.drop_table("tables")
