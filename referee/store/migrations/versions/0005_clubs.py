"""Clubs and their members (issue 29, R-CLUB-1): two new tables and four columns, empty everywhere.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04

- ``clubs``: a club's name, the hash of its key, its viewer key, the day its season starts, its revision.
- ``club_members``: a club's members; a removed member's row stays, its name erased.
- ``tables``: ``club_id`` (a club's table) and ``members`` (per seat, the member sitting there or None).
- ``tournaments``: ``club_id``; ``tournament_entrants``: ``members`` (per name, a member or None).

Nothing moves: every table and tournament made before belongs to no club. A database that ``create_all`` made with
these models before it was stamped has them already: each is made only when absent.
"""
from alembic import op
import sqlalchemy as sa

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def columns() -> dict:
    return {
        'tables': [sa.Column('club_id', sa.String(length=32), nullable=True),
                   sa.Column('members', sa.JSON(), nullable=True)],
        'tournaments': [sa.Column('club_id', sa.String(length=32), nullable=True)],
        'tournament_entrants': [sa.Column('members', sa.JSON(), nullable=True)],
    }


INDEXES = {'tables': 'ix_tables_club_id', 'tournaments': 'ix_tournaments_club_id'}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    names = set(inspector.get_table_names())
    if 'clubs' not in names:
        op.create_table('clubs',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('key_hash', sa.String(length=64), nullable=False),
        sa.Column('viewer_key', sa.String(length=64), nullable=False),
        sa.Column('season_start', sa.String(length=10), nullable=True),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
    if 'club_members' not in names:
        op.create_table('club_members',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('club_id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=True),
        sa.Column('removed', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], ),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('club_members', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_club_members_club_id'), ['club_id'], unique=False)
    for table, wanted in columns().items():
        present = {column['name'] for column in inspector.get_columns(table)}
        missing = [column for column in wanted if column.name not in present]
        indexed = {index['name'] for index in inspector.get_indexes(table)}
        if missing or (table in INDEXES and INDEXES[table] not in indexed):
            with op.batch_alter_table(table, schema=None) as batch_op:
                for column in missing:
                    batch_op.add_column(column)
                if table in INDEXES and INDEXES[table] not in indexed:
                    batch_op.create_index(INDEXES[table], ['club_id'], unique=False)


def downgrade() -> None:
    for table, wanted in columns().items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            if table in INDEXES:
                batch_op.drop_index(INDEXES[table])
            for column in reversed(wanted):
                batch_op.drop_column(column.name)
    with op.batch_alter_table('club_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_members_club_id'))
    op.drop_table('club_members')
    op.drop_table('clubs')
