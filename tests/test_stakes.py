"""Brilli settlements computed by hand from the tretre rules (docs/matches.md#the-tretre-brilli).

The brilli of whole matches without abandonment are in `tests/golden/matches.txt`.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa import (
    Abandonment,
    AbandonReason,
    BrilliEconomy,
    InvalidStateError,
    RulesError,
    Stakes,
)

ECONOMY = BrilliEconomy()


def test_the_economy_is_a_stakes_rule() -> None:
    assert isinstance(ECONOMY, Stakes)


@pytest.mark.parametrize(
    ("hands", "abandonment", "expected"),
    [
        # hand 1: the survivor takes the whole 10 of hand 1; the abandoner -30
        ([], Abandonment(1, 1), (F(10), F(-30))),
        # hand 2 after 3-1: 15/2 - 30 for the abandoner, 5/2 + 10 for the survivor
        ([(3, 1)], Abandonment(0, 2, AbandonReason.DISCONNECTED), (F(-45, 2), F(25, 2))),
        # hand 4: nothing more to share; 15 each from hands 1-3, then -30
        ([(2, 2), (2, 3), (3, 2)], Abandonment(1, 4, AbandonReason.TIMEOUT), (F(15), F(-15))),
        # hand 3 after a 0-9 hand and a 2-2 hand: 0 + 5 + 10 and 10 + 5 - 30
        ([(0, 9), (2, 2)], Abandonment(1, 3, AbandonReason.EXPELLED), (F(15), F(-15))),
    ],
)
def test_settlement_of_abandoned_matches(
    hands: list[tuple[int, int]], abandonment: Abandonment, expected: tuple[F, F]
) -> None:
    assert ECONOMY.settle(hands, abandonment=abandonment) == expected


LITERAL = BrilliEconomy(abandon_unplayed_to_survivor=True)


@pytest.mark.parametrize(
    ("hands", "abandonment", "expected"),
    [
        # hand 1: the 10 of hand 1 and the 20 of hands 2 and 3; the abandoner -30
        ([], Abandonment(1, 1), (F(30), F(-30))),
        # hand 2 after 3-1: 5/2 + 10 + 10 for the survivor, 15/2 - 30 for the abandoner
        ([(3, 1)], Abandonment(0, 2), (F(-45, 2), F(45, 2))),
        # hand 3: nothing unplayed is paid, as by default: 0 + 5 + 10 and 10 + 5 - 30
        ([(0, 9), (2, 2)], Abandonment(1, 3), (F(15), F(-15))),
        # hand 4: nothing more to share
        ([(2, 2), (2, 3), (3, 2)], Abandonment(1, 4), (F(15), F(-15))),
    ],
)
def test_the_literal_reading_pays_the_survivor_the_unplayed_hands(
    hands: list[tuple[int, int]], abandonment: Abandonment, expected: tuple[F, F]
) -> None:
    assert LITERAL.settle(hands, abandonment=abandonment) == expected


def test_three_survivors_share_the_unplayed_pots() -> None:
    # hand 1 of 4 sides: 10 + 20 shared by three survivors, 10 each
    left = Abandonment(2, 1)
    assert LITERAL.settle([], abandonment=left, sides=4) == (F(10), F(10), F(-30), F(10))


@pytest.mark.parametrize(
    ("rounding", "amount", "text"),
    [
        (2, F(20, 3), "6.67"),
        (2, F(10, 3), "3.33"),
        (0, F(20, 3), "7"),
        (1, F(-45, 2), "-22.5"),
        (3, F(1, 8), "0.125"),
        (2, F(30), "30"),
        (2, 7, "7"),
    ],
)
def test_brilli_are_rounded_for_display_only(rounding: int, amount: F | int, text: str) -> None:
    economy = BrilliEconomy(brilli_rounding=rounding)
    assert economy.format(amount) == text
    assert economy.settle([(2, 1)]) == (F(20, 3), F(10, 3))  # the values stay exact


def test_bad_rounding_and_amounts_are_refused() -> None:
    with pytest.raises(ValueError, match="brilli_rounding"):
        BrilliEconomy(brilli_rounding=7)
    with pytest.raises(RulesError, match="brilli_rounding must be an int"):
        BrilliEconomy(brilli_rounding=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^an amount of brilli is an int or a Fraction, not 2\.5$"):
        ECONOMY.format(2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="amount of brilli"):
        ECONOMY.format(True)


def test_running_shares_before_the_end() -> None:
    assert ECONOMY.settle([]) == (F(0), F(0))
    assert ECONOMY.settle([(2, 1)]) == (F(20, 3), F(10, 3))


def test_a_hand_where_nobody_scores_is_split_or_not_by_the_knob() -> None:
    assert ECONOMY.hand_shares((0, 0)) == (F(5), F(5))
    assert BrilliEconomy(split_zero_total=False).hand_shares((0, 0)) == (F(0), F(0))


def test_other_economies_are_configurations() -> None:
    small = BrilliEconomy(hand_pot=4, paid_hands=2, match_bonus=2, abandon_penalty=5)
    # a one-hand match 3-1: 3 and 1, the winner adds 2 and the 4 of hand 2
    assert small.settle([(3, 1)], winner=0) == (F(9), F(1))
    assert BrilliEconomy(unplayed_to_winner=False).settle([(9, 0)], winner=0) == (F(30), F(0))


@pytest.mark.parametrize(
    ("hands", "kwargs"),
    [
        ([(1, 2, 3)], {}),
        ([(1, -2)], {}),
        ([(1, 2)], {"winner": 2}),
        ([(1, 2)], {"abandonment": Abandonment(0, 1)}),
        ([(1, 2)], {"abandonment": Abandonment(2, 2)}),
    ],
)
def test_records_that_do_not_fit_are_refused(
    hands: list[tuple[int, ...]], kwargs: dict[str, object]
) -> None:
    with pytest.raises(InvalidStateError):
        ECONOMY.settle(hands, **kwargs)  # type: ignore[arg-type]


@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=8),
    st.integers(0, 1),
)
def test_a_match_without_abandonment_shares_exactly_fifty(
    hands: list[tuple[int, int]], winner: int
) -> None:
    brilli = ECONOMY.settle(hands, winner=winner)
    assert sum(brilli) == 50
    assert all(isinstance(b, F) for b in brilli)


def test_brilli_amounts_may_be_from_zero_to_a_billion() -> None:
    economy = BrilliEconomy(hand_pot=0, match_bonus=10**9, abandon_penalty=F(1, 2))
    assert economy.hand_pot == 0
    assert economy.match_bonus == 10**9
    assert economy.abandon_penalty == F(1, 2)
    for wrong in (-1, 10**9 + 1, F(-1, 3)):
        with pytest.raises(RulesError, match=r"^brilli must be from 0 to 1,000,000,000, not"):
            BrilliEconomy(hand_pot=wrong)
