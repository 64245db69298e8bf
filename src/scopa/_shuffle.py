"""The specified shuffle: SplitMix64 and Fisher–Yates, and dealing from a stream (internal).

[`Deck.shuffles`][scopa.Deck.shuffles] documents the algorithm. A *stream* is the state of
the generator: a seed is the first one, and each shuffled order gives the next.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from scopa._checks import check_int, quote
from scopa.errors import InvalidArgumentError

try:  # a native 64-bit int where the module is compiled (it never overflows here)
    from mypy_extensions import i64
except ImportError:  # pragma: no cover - without mypy_extensions, a plain int
    i64 = int  # type: ignore[misc]

if TYPE_CHECKING:
    from scopa.rules import Rules

MASK_64 = (1 << 64) - 1
"""The largest 64-bit number, as a mask."""

_FACTORIAL_40: Final = math.factorial(40)
# The largest multiple of 40! below 2**192: numbers under it are uniform modulo 40!.
_SHUFFLE_LIMIT: Final = (1 << 192) // _FACTORIAL_40 * _FACTORIAL_40


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64 (Steele, Lea and Flood, 2014): the next state and its output."""
    state = (state + 0x9E3779B97F4A7C15) & MASK_64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK_64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK_64
    return state, z ^ (z >> 31)


def check_seed(seed: object) -> int:
    """The seed (or stream), checked: an int from 0 to 2**64 - 1.

    Raises:
        InvalidArgumentError: it is out of range.
        TypeError: it is not an int.
    """
    check_int(seed, "a seed")
    assert isinstance(seed, int)
    if not 0 <= seed <= MASK_64:
        raise InvalidArgumentError(f"a seed must be between 0 and 2**64 - 1, not {quote(seed)}")
    return seed


def _radix_groups() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The Fisher–Yates radices 40, 39, … 2, in runs whose product fits in 63 bits."""
    groups: list[tuple[int, tuple[int, ...]]] = []
    run: list[int] = []
    product = 1
    for radix in range(40, 1, -1):
        if product * radix >= 1 << 63:  # pragma: no mutate - no run's product is near 2**63
            groups.append((product, tuple(run)))
            run, product = [], 1
        run.append(radix)
        product *= radix
    groups.append((product, tuple(run)))
    return tuple(groups)


# The digits of the shuffle taken a run of radices at a time: one division of the large
# number per run, then small divisions, with the same digits as one division per radix.
_RADIX_GROUPS: Final = _radix_groups()


def next_order(stream: int) -> tuple[tuple[int, ...], int]:
    """The next shuffled order (card indices) of a stream, and the stream after it."""
    number = _SHUFFLE_LIMIT
    while number >= _SHUFFLE_LIMIT:
        stream, x0 = splitmix64(stream)
        stream, x1 = splitmix64(stream)
        stream, x2 = splitmix64(stream)
        number = x0 << 128 | x1 << 64 | x2
    order = list(range(40))
    for product, radices in _RADIX_GROUPS:
        number, digits = divmod(number, product)
        small: i64 = digits
        for radix in radices:
            j: i64 = small % radix
            small //= radix
            i = radix - 1
            order[i], order[j] = order[j], order[i]
    return tuple(order), stream


def orders(seed: object) -> Iterator[tuple[int, ...]]:
    """The endless shuffled orders of a seed."""
    stream = check_seed(seed)
    while True:
        order, stream = next_order(stream)
        yield order


def in_play_order(rules: Rules, order: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of a deck order (card indices) that are in play, in that order."""
    if rules.deck_size == 40:
        return order
    in_play = rules.in_play_mask
    return tuple(index for index in order if in_play >> index & 1)


def misdealt(rules: Rules, order: tuple[int, ...]) -> bool:
    """Whether the misdeal rule annuls the first table that `order` deals.

    The cards out of play are set aside first.
    """
    order = in_play_order(rules, order)
    start = rules.players * rules.hand_size
    table = 0
    for index in order[start : start + rules.table_size]:
        table |= 1 << index
    return rules.misdeal.annuls_mask(table)


def accepted_order(rules: Rules, stream: object) -> tuple[tuple[int, ...], int]:
    """The first order of a stream whose first table the misdeal rule accepts.

    Returns the order and the stream after it.
    """
    order, stream = next_order(check_seed(stream))
    while misdealt(rules, order):
        order, stream = next_order(stream)
    return order, stream
