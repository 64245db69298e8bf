"""The exception tree.

Every error the library raises on a bad value is a [`ScopaError`][scopa.ScopaError], and
every concrete subclass is also a `ValueError`, so callers can catch either. An argument of
the wrong type (a number where text is expected, a string where a `Card` is) raises
`TypeError`, as Python itself does.
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
    """A position or deal that cannot exist (duplicate or missing cards, wrong counts).

    Also raised for a seed outside 0 to 2**64 - 1 and a dealer who is not a player.
    """


class RulesError(ScopaError, ValueError):
    """An inconsistent rules configuration, or an unknown variant name."""
