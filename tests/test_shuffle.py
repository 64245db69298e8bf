"""The internal shuffle: its two computations, the runs of radices they divide by, misdeals.

`Deck.shuffles` documents one division of the large number per radix, 40 down to 2; the
shuffle divides once per run of radices whose product fits in a signed 64-bit int, then by
each radix of the run. The runs are computed when the module is imported, so they are
checked here by computing them again.
"""

from __future__ import annotations

import math
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from scopa import Card, find_variant
from scopa._shuffle import (
    _RADIX_GROUPS,
    _SHUFFLE_LIMIT,
    _WORD_RADIX_RUNS,
    MASK_64,
    Words,
    _radix_runs,
    below_limit,
    misdealt,
    order_by_large_ints,
    order_by_words,
    order_of_words,
    splitmix64,
    splitmix64_in_words,
)


def digits_one_radix_at_a_time(number: int) -> list[int]:
    """The documented digits: `N mod r`, then `N div r`, for r = 40, 39, … 2."""
    digits = []
    for radix in range(40, 1, -1):
        number, digit = divmod(number, radix)
        digits.append(digit)
    return digits


def digits_by_runs(groups: tuple[tuple[int, tuple[int, ...]], ...], number: int) -> list[int]:
    digits = []
    for product, radices in groups:
        number, small = divmod(number, product)
        for radix in radices:
            small, digit = divmod(small, radix)
            digits.append(digit)
    return digits


def test_the_runs_are_the_radices_from_40_to_2_in_order() -> None:
    groups = _radix_runs(1 << 63)
    assert groups == _RADIX_GROUPS
    radices = [radix for _, run in groups for radix in run]
    assert radices == list(range(40, 1, -1))
    for product, run in groups:
        assert product == math.prod(run)


def test_each_run_fits_in_a_signed_64_bit_int_and_is_as_long_as_it_can_be() -> None:
    groups = _radix_runs(1 << 63)
    for (product, _), (_, following) in pairwise(groups):
        assert product < 2**63 <= product * following[0]
    last_product, _ = groups[-1]
    assert last_product < 2**63
    # 40·39·…·29 = 40!/28! is about 2.7e18 and 40·39·…·28 about 7.5e19, over 2**63 (9.2e18):
    # the first run stops at 29; 28·27·…·15 is about 3.5e18, and 28·…·14 about 4.9e19.
    assert [run[0] for _, run in groups] == [40, 28, 14]


@given(st.integers(0, math.factorial(40) - 1))
def test_the_runs_give_the_documented_digits(number: int) -> None:
    assert digits_by_runs(_radix_runs(1 << 63), number) == digits_one_radix_at_a_time(number)


def test_the_largest_number_gives_the_largest_digits() -> None:
    largest = math.factorial(40) - 1
    assert digits_by_runs(_RADIX_GROUPS, largest) == [radix - 1 for radix in range(40, 1, -1)]


def words(number: int) -> Words:
    """The six 32-bit words of a number below 2**192, the most significant first."""
    w = [number >> shift & 0xFFFFFFFF for shift in range(160, -1, -32)]
    return (w[0], w[1], w[2], w[3], w[4], w[5])


def documented_order(number: int) -> list[int]:
    """The Fisher–Yates order of `number`, one radix at a time (`Deck.shuffles`)."""
    order = list(range(40))
    for i, j in zip(range(39, 0, -1), digits_one_radix_at_a_time(number), strict=True):
        order[i], order[j] = order[j], order[i]
    return order


@given(st.integers(0, MASK_64))
def test_splitmix64_on_words_is_splitmix64(state: int) -> None:
    high, low, out_high, out_low = splitmix64_in_words(state >> 32, state & 0xFFFFFFFF)
    assert (high << 32 | low, out_high << 32 | out_low) == splitmix64(state)


@given(st.integers(0, MASK_64))
def test_both_computations_give_the_same_orders_and_streams(stream: int) -> None:
    assert order_by_words(stream) == order_by_large_ints(stream)


def test_both_computations_agree_at_the_bounds_of_the_seeds() -> None:
    for stream in (0, 1, 2**32 - 1, 2**32, 2**63, MASK_64 - 1, MASK_64):
        assert order_by_words(stream) == order_by_large_ints(stream)


@given(st.integers(0, _SHUFFLE_LIMIT - 1))
def test_the_order_of_a_number_in_words_is_the_documented_one(number: int) -> None:
    assert order_of_words(words(number)) == documented_order(number)


def test_the_largest_number_in_words_gives_the_last_swaps() -> None:
    # the limit is a multiple of 40!: the number below it has the largest digits
    largest = _SHUFFLE_LIMIT - 1
    assert order_of_words(words(largest)) == documented_order(math.factorial(40) - 1)


def test_the_limit_in_words() -> None:
    assert words(_SHUFFLE_LIMIT)[0] == 0xFFFFFFFF  # so most numbers are told by one word
    assert below_limit(words(0))
    assert below_limit(words(0xFFFFFFFE << 160 | (1 << 160) - 1))
    assert below_limit(words(0xFFFFFFFF << 160))
    assert below_limit(words(_SHUFFLE_LIMIT - 1))
    assert not below_limit(words(_SHUFFLE_LIMIT))
    assert not below_limit(words(2**192 - 1))


def test_the_runs_of_the_words_fit_in_31_bits() -> None:
    radices = []
    for product, first, last in _WORD_RADIX_RUNS:
        run = list(range(first, last - 1, -1))
        assert product == math.prod(run) < 2**31
        radices += run
    assert radices == list(range(40, 1, -1))


def order_dealing_table(rules_name: str, table: str) -> tuple[int, ...]:
    """A deck order whose first table (after the hands) holds the cards of `table`."""
    rules = find_variant(rules_name)
    table_cards = [Card.parse(text).index for text in table.split()]
    others = [index for index in range(40) if index not in table_cards]
    start = rules.players * rules.hand_size
    return (*others[:start], *table_cards, *others[start:])


def test_three_kings_on_the_first_table_are_a_misdeal() -> None:
    rules = find_variant("classic")
    assert rules.misdeal.name == "THREE_PLUS_KINGS"
    assert misdealt(rules, order_dealing_table("classic", "10D 10C 10S 4B"))
    assert not misdealt(rules, order_dealing_table("classic", "10D 10C 9S 4B"))
    # Kings dealt to the hands, not to the table, are no misdeal.
    kings_in_hands = (9, 19, 29, *(i for i in range(40) if i not in (9, 19, 29)))
    assert not misdealt(rules, kings_in_hands)


def test_one_ace_on_a_cirulla_first_table_is_no_misdeal() -> None:
    rules = find_variant("cirulla")
    assert rules.misdeal.name == "CIRULLA"
    assert misdealt(rules, order_dealing_table("cirulla", "1D 1C 5S 4B"))
    assert not misdealt(rules, order_dealing_table("cirulla", "1C 5S 4B 7D"))
    assert not misdealt(rules, order_dealing_table("cirulla", "1D 5S 4B 7D"))
