"""The exception tree.

Every error the library raises on a bad value is a [`ScopaError`][scopa.ScopaError], and
every concrete subclass is also a `ValueError`, so callers can catch either. An argument of
the wrong type (a number where text is expected, a string where a `Card` is, `True` or
`1.0` where a player number is) raises `TypeError`, as Python itself does.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidArgumentError",
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
    """A position, deal or match record that cannot exist.

    Duplicate or missing cards, wrong counts, a turn that does not fit the hand sizes, a
    deal the misdeal rule annuls.
    """


class InvalidArgumentError(ScopaError, ValueError):
    """An argument of the right type but out of range.

    A seed outside 0 to 2**64 - 1, a player number that is not a player's, a negative or
    infinite time, a negative count, a seed given together with a deck, a card's rank or
    suit out of range.
    """


class RulesError(ScopaError, ValueError):
    """An inconsistent rules configuration, or an unknown variant name."""
