"""Alembic's migrations of the federation's schema (docs/federation.md, "The store")."""
