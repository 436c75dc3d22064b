"""The director's acts made once (issue 38, R-TOURN-5): one new table, empty everywhere.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07

- ``tournament_acts``: per tournament, the key of each director's act a form id or an ``Idempotency-Key`` named
  (a penalty, an arbitral result, a round seated or closed, an entrant added or withdrawn), its kind and what it
  answered. Its primary key (tournament, key) lets one such act in, whatever arrives at the same instant.

Nothing moves: acts made before were not keyed. A database that ``create_all`` made with these models before it was
stamped has it already: it is made only when absent.
"""
from alembic import op
import sqlalchemy as sa

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if 'tournament_acts' not in set(sa.inspect(op.get_bind()).get_table_names()):
        op.create_table('tournament_acts',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('status', sa.Integer(), nullable=False),
        sa.Column('answer', sa.JSON(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('tournament_id', 'key')
        )


def downgrade() -> None:
    op.drop_table('tournament_acts')
