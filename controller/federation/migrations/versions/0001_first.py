"""The first schema: the registry, events and their submissions, verified games, results,
ratings and the rating runs.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

STAMP = sa.String(25)
SCORE = sa.String(120)


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("fed_id", sa.String(7), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("school", sa.String(60), nullable=False),
        sa.Column("region", sa.String(40), nullable=False),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("added_at", STAMP, nullable=False),
        sa.Column("changed_at", STAMP, nullable=False),
        sa.PrimaryKeyConstraint("fed_id", name="pk_player"),
    )
    op.create_index("ix_player_region", "player", ["region"])
    op.create_index("ix_player_school", "player", ["school"])
    op.create_table(
        "event",
        sa.Column("id", sa.String(40), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("region", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("sign_key", sa.String(64), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.Column("added_at", STAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_event"),
        sa.UniqueConstraint("token_hash", name="uq_event_token_hash"),
    )
    op.create_table(
        "submission",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("received_at", STAMP, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("verdict", sa.String(10), nullable=False),
        sa.Column("reasons", sa.Text(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("records", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name="fk_submission_event_id_event"),
        sa.PrimaryKeyConstraint("id", name="pk_submission"),
    )
    op.create_index("ix_submission_event_id", "submission", ["event_id"])
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("board", sa.String(32), nullable=False),
        sa.Column("game", sa.String(48), nullable=False),
        sa.Column("division", sa.String(60), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("variant", sa.String(20), nullable=False),
        sa.Column("rules", sa.String(20), nullable=False),
        sa.Column("records", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("blue_score", SCORE, nullable=True),
        sa.Column("red_score", SCORE, nullable=True),
        sa.Column("head", sa.String(64), nullable=False),
        sa.Column("pdn", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name="fk_game_event_id_event"),
        sa.ForeignKeyConstraint(
            ["submission_id"], ["submission.id"], name="fk_game_submission_id_submission"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_game"),
        sa.UniqueConstraint(
            "submission_id", "board", "game", name="uq_game_submission_id_board_game"
        ),
    )
    op.create_index("ix_game_event_id", "game", ["event_id"])
    op.create_table(
        "result",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("division", sa.String(60), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("blue", sa.String(7), nullable=True),
        sa.Column("red", sa.String(7), nullable=True),
        sa.Column("blue_name", sa.String(60), nullable=False),
        sa.Column("red_name", sa.String(60), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("blue_score", SCORE, nullable=True),
        sa.Column("red_score", SCORE, nullable=True),
        sa.Column("source", sa.String(10), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("corrected", sa.Boolean(), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("variant", sa.String(20), nullable=False),
        sa.Column("family", sa.String(20), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["blue"], ["player.fed_id"], name="fk_result_blue_player"),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name="fk_result_event_id_event"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_result_game_id_game"),
        sa.ForeignKeyConstraint(["red"], ["player.fed_id"], name="fk_result_red_player"),
        sa.ForeignKeyConstraint(
            ["submission_id"], ["submission.id"], name="fk_result_submission_id_submission"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_result"),
    )
    op.create_index("ix_result_event_id", "result", ["event_id"])
    op.create_index("ix_result_blue", "result", ["blue"])
    op.create_index("ix_result_red", "result", ["red"])
    op.create_index("ix_result_date", "result", ["date"])
    op.create_table(
        "rating",
        sa.Column("pool", sa.String(20), nullable=False),
        sa.Column("period", sa.String(7), nullable=False),
        sa.Column("fed_id", sa.String(7), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["fed_id"], ["player.fed_id"], name="fk_rating_fed_id_player"),
        sa.PrimaryKeyConstraint("pool", "period", "fed_id", name="pk_rating"),
    )
    op.create_index("ix_rating_fed_id", "rating", ["fed_id"])
    op.create_table(
        "rating_run",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", STAMP, nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("periods", sa.Integer(), nullable=False),
        sa.Column("last_period", sa.String(7), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rating_run"),
    )


def downgrade() -> None:
    for table in ("rating_run", "rating", "result", "game", "submission", "event", "player"):
        op.drop_table(table)
