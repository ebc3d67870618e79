"""The federation's one schema, as SQLAlchemy Core tables: the same on PostgreSQL and SQLite.

Alembic's migrations (``migrations/versions``) create and change it; a test compares the
migrated database with these tables on both, so the two never drift apart. Times are ISO 8601
text in UTC, Damath scores their exact text (``damath_scores.store_text``), ratings floats
(a rating is a statistic, not a score).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING)

ID = String(7)
"""A federation ID (ids.py)."""
EVENT_ID = String(40)
STAMP = String(25)
SCORE = String(120)

player = Table(
    "player",
    metadata,
    Column("fed_id", ID, primary_key=True),
    Column("name", String(60), nullable=False),
    Column("school", String(60), nullable=False),
    Column("region", String(40), nullable=False),
    Column("birth_year", Integer, nullable=True),
    Column("added_at", STAMP, nullable=False),
    Column("changed_at", STAMP, nullable=False),
)
Index(None, player.c.region)
Index(None, player.c.school)

event = Table(
    "event",
    metadata,
    Column("id", EVENT_ID, primary_key=True),
    Column("name", String(120), nullable=False),
    Column("date", String(10), nullable=False),
    Column("region", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("sign_key", String(64), nullable=False),
    Column("state", String(10), nullable=False),
    Column("submission_id", Integer, nullable=True),
    Column("added_at", STAMP, nullable=False),
)

submission = Table(
    "submission",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", EVENT_ID, ForeignKey("event.id"), nullable=False),
    Column("received_at", STAMP, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("size", Integer, nullable=False),
    # an accepted submission's file; a refused one keeps its digest and reasons only
    Column("body", LargeBinary, nullable=True),
    # when the hub signed it (its clock): one not newer than the accepted is refused
    Column("signed_at", String(40), nullable=True),
    Column("results", Integer, nullable=True),
    Column("verdict", String(10), nullable=False),
    Column("reasons", Text, nullable=False),
    Column("notes", Text, nullable=False),
    Column("games", Integer, nullable=False),
    Column("records", Integer, nullable=False),
)
Index(None, submission.c.event_id)

game = Table(
    "game",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("submission_id", Integer, ForeignKey("submission.id"), nullable=False),
    Column("event_id", EVENT_ID, ForeignKey("event.id"), nullable=False),
    Column("board", String(32), nullable=False),
    Column("game", String(48), nullable=False),
    Column("division", String(60), nullable=True),
    Column("round", Integer, nullable=True),
    Column("table_no", Integer, nullable=True),
    Column("variant", String(20), nullable=False),
    Column("rules", String(20), nullable=False),
    Column("records", Integer, nullable=False),
    Column("moves", Integer, nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("blue_score", SCORE, nullable=True),
    Column("red_score", SCORE, nullable=True),
    Column("head", String(64), nullable=False),
    Column("pdn", Text, nullable=False),
    UniqueConstraint("submission_id", "board", "game"),
)
Index(None, game.c.event_id)

result = Table(
    "result",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("submission_id", Integer, ForeignKey("submission.id"), nullable=False),
    Column("event_id", EVENT_ID, ForeignKey("event.id"), nullable=False),
    Column("date", String(10), nullable=False),
    Column("division", String(60), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("blue", ID, ForeignKey("player.fed_id"), nullable=True),
    Column("red", ID, ForeignKey("player.fed_id"), nullable=True),
    Column("blue_name", String(60), nullable=False),
    Column("red_name", String(60), nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("blue_score", SCORE, nullable=True),
    Column("red_score", SCORE, nullable=True),
    Column("source", String(10), nullable=False),
    Column("reason", Text, nullable=False),
    Column("corrected", Boolean, nullable=False),
    Column("verified", Boolean, nullable=False),
    Column("variant", String(20), nullable=False),
    Column("family", String(20), nullable=False),
    Column("game_id", Integer, ForeignKey("game.id"), nullable=True),
)
Index(None, result.c.event_id)
Index(None, result.c.blue)
Index(None, result.c.red)
Index(None, result.c.date)

rating = Table(
    "rating",
    metadata,
    Column("pool", String(20), primary_key=True),
    Column("period", String(7), primary_key=True),
    Column("fed_id", ID, ForeignKey("player.fed_id"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
)
Index(None, rating.c.fed_id)

rating_run = Table(
    "rating_run",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", STAMP, nullable=False),
    Column("games", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("periods", Integer, nullable=False),
    Column("last_period", String(7), nullable=False),
    Column("seconds", Float, nullable=False),
)
