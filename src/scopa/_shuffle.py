"""The specified shuffle: SplitMix64 and Fisher–Yates, and dealing from a stream (internal).

[`Deck.shuffles`][scopa.Deck.shuffles] documents the algorithm. A *stream* is the state of
the generator: a seed is the first one, and each shuffled order gives the next. The shuffle
is computed in two ways that give the same orders: with Python's large ints (in pure
Python) and on 32-bit words (in the compiled build, where native ints are much faster).
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


def _radix_runs(limit: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The Fisher–Yates radices 40, 39, … 2, in runs whose product is below `limit`."""
    groups: list[tuple[int, tuple[int, ...]]] = []
    run: list[int] = []
    product = 1
    for radix in range(40, 1, -1):
        if product * radix >= limit:  # pragma: no mutate - no run's product is the limit
            groups.append((product, tuple(run)))
            run, product = [], 1
        run.append(radix)
        product *= radix
    groups.append((product, tuple(run)))
    return tuple(groups)


# The digits of the shuffle taken a run of radices at a time: one division of the large
# number per run, then small divisions, with the same digits as one division per radix.
_RADIX_GROUPS: Final = _radix_runs(1 << 63)


def next_order(stream: int) -> tuple[tuple[int, ...], int]:
    """The next shuffled order (card indices) of a stream, and the stream after it."""
    if _NATIVE:
        return order_by_words(stream)
    return order_by_large_ints(stream)


# Compiled, native 64-bit ints are fast and large ones slow: the compiled build computes on
# 32-bit words (no intermediate value reaches 2**63). In pure Python, large ints are faster.
_NATIVE: Final = not __file__.endswith(".py")


def order_by_large_ints(stream: int) -> tuple[tuple[int, ...], int]:
    """`next_order`, computed with Python's large ints."""
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


_WORD: Final = 0xFFFFFFFF
Words = tuple[i64, i64, i64, i64, i64, i64]
"""A number below 2**192 as six 32-bit words, the most significant first."""


def order_by_words(stream: int) -> tuple[tuple[int, ...], int]:
    """`next_order`, computed on 32-bit words."""
    high: i64 = stream >> 32
    low: i64 = stream & _WORD
    while True:
        high, low, a1, a0 = splitmix64_in_words(high, low)
        high, low, b1, b0 = splitmix64_in_words(high, low)
        high, low, c1, c0 = splitmix64_in_words(high, low)
        number = (a1, a0, b1, b0, c1, c0)
        if below_limit(number):
            return tuple(order_of_words(number)), int(high) << 32 | int(low)


def splitmix64_in_words(high: i64, low: i64) -> tuple[i64, i64, i64, i64]:
    """`splitmix64` on a state in two 32-bit words: the next state and the output, in words."""
    low += 0x7F4A7C15
    high = (high + 0x9E3779B9 + (low >> 32)) & _WORD
    low &= _WORD
    z1 = high ^ high >> 30
    z0 = low ^ (low >> 30 | high << 2) & _WORD
    z1, z0 = _times(z1, z0, 0xBF58, 0x476D, 0x1CE4, 0xE5B9)  # 0xBF58476D1CE4E5B9
    z0 ^= (z0 >> 27 | z1 << 5) & _WORD
    z1 ^= z1 >> 27
    z1, z0 = _times(z1, z0, 0x94D0, 0x49BB, 0x1331, 0x11EB)  # 0x94D049BB133111EB
    z0 ^= (z0 >> 31 | z1 << 1) & _WORD
    z1 ^= z1 >> 31
    return high, low, z1, z0


def _times(high: i64, low: i64, f3: i64, f2: i64, f1: i64, f0: i64) -> tuple[i64, i64]:
    """`(high, low) * f` modulo 2**64, for 32-bit words and `f` in 16-bit parts (`f3` first).

    No product of a word by a part reaches 2**48.
    """
    p1 = low * f1
    sum_low = low * f0 + ((p1 & 0xFFFF) << 16)
    carry = (sum_low >> 32) + (p1 >> 16)
    cross = high * f0 + ((high * f1 & 0xFFFF) << 16) + low * f2 + ((low * f3 & 0xFFFF) << 16)
    return (carry + cross) & _WORD, sum_low & _WORD


# The limit's first word is 0xFFFFFFFF: any number with a smaller one is below it.
_LIMIT_FIRST_WORD: Final = _SHUFFLE_LIMIT >> 160


def below_limit(number: Words) -> bool:
    """Whether a number in words is below the largest multiple of 40! under 2**192."""
    if number[0] < _LIMIT_FIRST_WORD:
        return True
    value = 0
    for word in number:
        value = value << 32 | int(word)
    return value < _SHUFFLE_LIMIT


# Runs whose product fits in 31 bits (a remainder and the next word then fit in 63), as
# their product and their first and last radices.
_WORD_RADIX_RUNS: Final = tuple((p, run[0], run[-1]) for p, run in _radix_runs(1 << 31))


def order_of_words(number: Words) -> list[int]:
    """The Fisher–Yates order of a number below the limit, in words (as `next_order`)."""
    n0, n1, n2, n3, n4, n5 = number
    order = list(range(40))
    for product_, first, last in _WORD_RADIX_RUNS:
        product: i64 = product_
        # long division of the words by the product, one word at a time
        rest: i64 = n0
        n0 = rest // product
        rest = (rest - n0 * product) << 32 | n1
        n1 = rest // product
        rest = (rest - n1 * product) << 32 | n2
        n2 = rest // product
        rest = (rest - n2 * product) << 32 | n3
        n3 = rest // product
        rest = (rest - n3 * product) << 32 | n4
        n4 = rest // product
        rest = (rest - n4 * product) << 32 | n5
        n5 = rest // product
        rest -= n5 * product
        radix: i64 = first
        while radix >= last:  # the digits of the run, as in `order_by_large_ints`
            quotient = rest // radix
            j = rest - quotient * radix
            rest = quotient
            radix -= 1
            order[radix], order[j] = order[j], order[radix]
    return order


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
