"""The exception tree.

Every error the library raises on a bad value is a [`ScopaError`][scopa.ScopaError], and
every concrete subclass for a bad value is also a `ValueError`, so callers can catch either.
An argument of the wrong type (a number where text is expected, a string where a `Card` is,
`True` or `1.0` where a player number is) raises `TypeError`, as Python itself does. A
failure that no value caused, a tournament's worker that died, is a
[`WorkerError`][scopa.WorkerError], also a `RuntimeError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scopa.tournament import TournamentResult

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidStateError",
    "NotationError",
    "RulesError",
    "ScopaError",
    "WorkerError",
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


class WorkerError(ScopaError, RuntimeError):
    """A worker of a tournament's executor died before its games were played.

    The system ends a worker that runs out of memory, for instance, and a process pool
    then fails every game it holds. No value given was wrong, so this is a `RuntimeError`
    rather than a `ValueError`; the executor's own error is its `__cause__`.
    """

    def __init__(self, message: str, result: TournamentResult) -> None:
        super().__init__(message)
        self.result = result
        """What the games that finished make: a tournament of those deals and matches alone."""

    def __reduce__(self) -> tuple[type[WorkerError], tuple[str, TournamentResult]]:
        return type(self), (str(self), self.result)
