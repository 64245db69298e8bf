"""Statistical tests of the dealer, against exact probabilities counted by hand.

Of the C(40, 4) = 91,390 first tables, C(4, 3) * 36 + 1 = 145 hold three or four Kings
(29/18278) and 10 are four of a kind (1/9139), the tables the misdeal rules annul
(docs/rules.md#misdeals).

The seeds are fixed, so these tests are deterministic; the thresholds are those of a test
at the 0.1% level, so a correct dealer passes them with a wide margin.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import islice

from scopa import GameState, MisdealRule, Rank
from scopa._shuffle import orders as shuffled_orders
from tests.helpers import CLASSIC, chi_square, chi_square_critical


def test_every_card_is_uniform_over_the_positions() -> None:
    deals = 12_000
    counts = [[0] * 40 for _ in range(40)]
    for order in islice(shuffled_orders(2026), deals):
        for position, card in enumerate(order):
            counts[card][position] += 1
    statistic = sum(chi_square(row, [1 / 40] * 40) for row in counts)
    # 40 rows with 39 degrees of freedom each (the rows are not independent, which only
    # makes the test more lenient on variance, not on bias).
    assert statistic < chi_square_critical(40 * 39)
    # and no single card is far off
    for row in counts:
        assert chi_square(row, [1 / 40] * 40) < chi_square_critical(39, z=4.0)


def test_consecutive_decks_are_independent_first_cards() -> None:
    pairs = [0] * 1600
    stream = shuffled_orders(7)
    for _ in range(16_000):
        a, b = next(stream)[0], next(stream)[0]
        pairs[40 * a + b] += 1
    assert chi_square(pairs, [1 / 1600] * 1600) < chi_square_critical(1599)


def _kings(order: tuple[int, ...]) -> int:
    return sum(1 for i in order[6:10] if i % 10 + 1 == Rank.RE)


def _four_of_a_kind(order: tuple[int, ...]) -> bool:
    return len({i % 10 for i in order[6:10]}) == 1


def test_misdeal_rates_match_the_exact_probabilities() -> None:
    deals = 200_000
    three_kings = four_kind = 0
    for order in islice(shuffled_orders(1), deals):
        kings = _kings(order)
        three_kings += kings >= 3
        four_kind += _four_of_a_kind(order)
    for observed, p in ((three_kings, Fraction(29, 18278)), (four_kind, Fraction(1, 9139))):
        expected = deals * float(p)
        sd = math.sqrt(deals * float(p) * (1 - float(p)))
        assert abs(observed - expected) < 4 * sd, (observed, expected)


def test_misdeal_rules_match_the_rate_each_annuls() -> None:
    # TRETRE annuls 3+ kings or any four of a kind: (144 + 1 + 9) / 91390 = 77/45695.
    deals = 200_000
    annulled = sum(
        MisdealRule.TRETRE.annuls_mask(sum(1 << i for i in order[6:10]))
        for order in islice(shuffled_orders(3), deals)
    )
    p = 77 / 45695
    assert abs(annulled - deals * p) < 4 * math.sqrt(deals * p * (1 - p))


def test_accepted_tables_have_the_conditional_king_distribution() -> None:
    deals = 30_000
    counts = [0, 0, 0]
    redeals = 0
    for seed in range(deals):
        state = GameState.new(CLASSIC, seed=seed)
        kings = sum(1 for card in state.table if card.rank == Rank.RE)
        counts[kings] += 1  # 3 or 4 kings would raise IndexError: never accepted
        stream = shuffled_orders(seed)
        while _kings(next(stream)) >= 3:
            redeals += 1
    # The 91,245 tables with fewer than three Kings: C(36, 4), 4 * C(36, 3) and 6 * C(36, 2)
    # with none, one and two.
    assert chi_square(counts, [51 / 79, 272 / 869, 36 / 869]) < chi_square_critical(2)
    p = 29 / 18278
    expected_redeals = deals * p / (1 - p)
    assert abs(redeals - expected_redeals) < 4 * math.sqrt(expected_redeals)
