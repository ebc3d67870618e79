"""The rules engine's error for text it cannot read, at the bottom of the package so that every
module (the variant registry, the notations, the field readers) can raise it without importing
the game."""

from __future__ import annotations


class NotationError(ValueError):
    """A position that cannot be read; the message says where and why."""
