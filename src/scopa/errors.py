"""The exception tree.

Every error the library raises on bad input is a [`ScopaError`][scopa.ScopaError], and
every concrete subclass is also a `ValueError`, so callers can catch either.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidStateError",
    "NotationError",
    "RulesError",
    "ScopaError",
]


class ScopaError(Exception):
    """Base class of every error raised by `scopa`."""


class NotationError(ScopaError, ValueError):
    """Text that cannot be read: a card, move, position or deal code."""


class IllegalMoveError(ScopaError, ValueError):
    """A well-formed move that is not legal in the position (or the hand is over)."""


class AmbiguousMoveError(ScopaError, ValueError):
    """A short move text that matches more than one legal move."""


class InvalidStateError(ScopaError, ValueError):
    """A position or deal that cannot exist: duplicate or missing cards, wrong counts."""


class RulesError(ScopaError, ValueError):
    """An inconsistent rules configuration, or an unknown variant name."""
