"""Checks of the values callers give the library, shared by its modules (internal).

A value of the wrong type raises `TypeError`, as Python itself does (`True` and `1.0` are
not numbers of players); a value of the right type but out of range raises the
[`ScopaError`][scopa.ScopaError] the caller names. Error messages quote what they were
given with [`quote`][scopa._checks.quote], which keeps them short and printable.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Callable
from typing import Any

import attrs

from scopa.errors import InvalidArgumentError, RulesError, ScopaError

_QUOTE_LIMIT = 40
# Writes any value in a few dozen characters, however large or deeply nested it is.
_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxtuple = _SHORT.maxlist = _SHORT.maxset = _SHORT.maxfrozenset = 10
_SHORT.maxdict = 6
_SHORT.maxstring = _SHORT.maxother = _QUOTE_LIMIT + 10
_LABEL_LIMIT = 64
_LABEL_FORBIDDEN = frozenset("<>[]{}\\`")


def quote(text: object, limit: int = _QUOTE_LIMIT) -> str:
    """A short, printable quotation of a value for an error message.

    Text is quoted as Python writes it (control characters escaped); past `limit`
    characters it is cut, with an ellipsis and its length.
    """
    if isinstance(text, int) and text.bit_length() > 100:
        return f"an int of about {math.ceil(text.bit_length() * math.log10(2)):,} digits"
    if not isinstance(text, str):
        text = _SHORT.repr(text)
        if len(text) <= limit:
            return text
        return f"{text[:limit]}… ({len(text):,} characters)"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def is_int(value: object) -> bool:
    """Whether `value` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(value: object, what: str) -> int:
    """`value`, which must be an int (not a bool).

    Raises:
        TypeError: it is not.
    """
    if not is_int(value):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    assert isinstance(value, int)
    return value


def check_type(value: object, kind: type, what: str) -> None:
    """Raise a `TypeError` naming `what` and the type of `value` unless it is a `kind`."""
    if not isinstance(value, kind):
        raise TypeError(f"{what} must be a {kind.__name__}, not {type(value).__name__}")


def check_number(
    value: object, players: int, what: str, error: type[ScopaError], kind: str = "player"
) -> int:
    """A player (or side) number from 0 to `players - 1`.

    Raises:
        TypeError: the value is not an int (a bool or a float is not a player number).
        error: it is out of range.
    """
    number = check_int(value, what)
    if not 0 <= number < players:
        raise error(f"{what} must be a {kind} number from 0 to {players - 1}, not {number}")
    return number


def check_seconds(value: object, what: str, error: type[ScopaError]) -> float:
    """A finite, non-negative number of seconds.

    A finite number too large for a float (`10**400`) is `math.inf`: longer than any limit.

    Raises:
        TypeError: the value is not a real number (a bool is not).
        error: it is negative, infinite or not a number.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number of seconds, not {type(value).__name__}")
    try:
        seconds = float(value)
    except OverflowError:  # an exact number beyond floats (10**400): longer than any limit
        seconds = -math.inf if value < 0 else math.inf
        if seconds > 0:
            return seconds
    if not math.isfinite(seconds) or seconds < 0:
        raise error(f"{what} must be a finite, non-negative number of seconds, not {quote(value)}")
    return seconds


def check_label(value: object, what: str) -> str:
    """A name for display: 1 to 64 printable characters, without markup characters.

    Names travel in records and reach screens and web pages; angle, square and curly
    brackets, the backslash and the backquote are refused so that no name is read as markup.

    Raises:
        RulesError: the name is not such text.
    """
    if not isinstance(value, str):
        raise RulesError(f"{what} must be text, not {type(value).__name__}")
    if not 1 <= len(value) <= _LABEL_LIMIT:
        raise RulesError(f"{what} must have 1 to {_LABEL_LIMIT} characters, not {len(value):,}")
    if not value.isprintable() or _LABEL_FORBIDDEN.intersection(value):
        raise RulesError(
            f"{what} must be printable text without markup characters, not {quote(value)}"
        )
    return value


# Validators of rule parts, for attrs fields: a bad value is a `RulesError` naming the field,
# since rules are often read from data.


def label(_: object, attribute: attrs.Attribute[str], value: object) -> None:
    """A display name (see `check_label`)."""
    check_label(value, attribute.name)


def flag(_: object, attribute: attrs.Attribute[bool], value: object) -> None:
    """`True` or `False`."""
    if not isinstance(value, bool):
        raise RulesError(f"{attribute.name} must be True or False, not {quote(value)}")


def int_in(low: int, high: int) -> Any:
    """A validator of an int from `low` to `high` (not a bool)."""

    def validate(_: object, attribute: attrs.Attribute[int], value: object) -> None:
        if not is_int(value) or not low <= value <= high:  # type: ignore[operator]
            raise RulesError(
                f"{attribute.name} must be an int from {low} to {high:,}, not {quote(value)}"
            )

    return validate


def instance_of(kind: type | tuple[type, ...], name: str) -> Any:
    """A validator of an instance of `kind`, described as `name` in its message."""

    def validate(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, kind):
            raise RulesError(f"{attribute.name} must be {name}, not {quote(value)}")

    return validate


def at_least_one(_: object, attribute: attrs.Attribute[int], value: object) -> None:
    """An attrs validator: an int of at least 1 (a count of iterations, a depth).

    Raises:
        TypeError: the value is not an int.
        InvalidArgumentError: it is below 1.
    """
    number = check_int(value, attribute.name)
    if number < 1:
        raise InvalidArgumentError(f"{attribute.name} must be at least 1, not {quote(number)}")


def optional_seconds(_: object, attribute: attrs.Attribute[float | None], value: object) -> None:
    """An attrs validator: None, or a finite, non-negative number of seconds."""
    if value is not None:
        check_seconds(value, attribute.name, InvalidArgumentError)


def optional_function(
    _: object, attribute: attrs.Attribute[Callable[[], float] | None], value: object
) -> None:
    """An attrs validator: None, or something callable (a clock)."""
    if value is not None and not callable(value):
        raise TypeError(f"{attribute.name} must be a function or None, not {type(value).__name__}")
