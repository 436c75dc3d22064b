"""Tournaments: entrants, rounds, seatings and table cards (five new tables; no table of 0001 changes).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

A tournament keeps who plays, its rounds and who sits at which of a round's tables; each of those tables is an
ordinary row of ``tables``, its result read from its events. Nothing moves: the new tables start empty. A database that ``create_all`` made with these models before it was
stamped (0001 brings such a database up) has them already: each is created only when absent.
"""
from alembic import op
import sqlalchemy as sa

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    names = set(sa.inspect(op.get_bind()).get_table_names())
    if 'tournaments' not in names:
        op.create_table('tournaments',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('plan', sa.JSON(), nullable=False),
        sa.Column('vp_table', sa.JSON(), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('director_hash', sa.String(length=64), nullable=False),
        sa.Column('viewer_key', sa.String(length=64), nullable=False),
        sa.Column('log', sa.JSON(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
    if 'tournament_cards' not in names:
        op.create_table('tournament_cards',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('tournament_id', 'number')
        )
    if 'tournament_entrants' not in names:
        op.create_table('tournament_entrants',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('names', sa.JSON(), nullable=False),
        sa.Column('joined', sa.Integer(), nullable=False),
        sa.Column('withdrawn', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'number')
        )
        with op.batch_alter_table('tournament_entrants', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_tournament_entrants_tournament_id'), ['tournament_id'], unique=False)

    if 'tournament_rounds' not in names:
        op.create_table('tournament_rounds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('movement', sa.String(length=16), nullable=False),
        sa.Column('bye', sa.Integer(), nullable=True),
        sa.Column('closed', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'number')
        )
        with op.batch_alter_table('tournament_rounds', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_tournament_rounds_tournament_id'), ['tournament_id'], unique=False)

    if 'tournament_tables' not in names:
        op.create_table('tournament_tables',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('ns', sa.Integer(), nullable=False),
        sa.Column('ew', sa.Integer(), nullable=False),
        sa.Column('forced', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id'),
        sa.UniqueConstraint('tournament_id', 'round', 'number')
        )
        with op.batch_alter_table('tournament_tables', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_tournament_tables_tournament_id'), ['tournament_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('tournament_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_tables_tournament_id'))

    op.drop_table('tournament_tables')
    with op.batch_alter_table('tournament_rounds', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_rounds_tournament_id'))

    op.drop_table('tournament_rounds')
    with op.batch_alter_table('tournament_entrants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_entrants_tournament_id'))

    op.drop_table('tournament_entrants')
    op.drop_table('tournament_cards')
    op.drop_table('tournaments')
