"""The chance of winning a match from its totals (scopa.odds)."""

from __future__ import annotations

import math

import pytest

from scopa import InvalidArgumentError, Rules, find_variant
from scopa.odds import match_chances, plays_for_the_match
from scopa.scoring import Carte, Napola, Scope, ScoringRules, Settebello

# Each hand gives the settebello's point to one side or the other, evenly.
COIN = Rules(target=2, scoring=ScoringRules(components=(Settebello(),)))


def test_chances_of_a_coin_by_hand() -> None:
    # At 1-1 the next point wins: even. At 1-0 the first side wins at once half the
    # time, else it is 1-1: 1/2 + 1/2 * 1/2. At 0-0 the sides are alike.
    assert match_chances(COIN, (1, 1)) == (0.5, 0.5)
    assert match_chances(COIN, (1, 0)) == pytest.approx((0.75, 0.25))
    assert match_chances(COIN, (0, 1)) == pytest.approx((0.25, 0.75))
    assert match_chances(COIN, (0, 0)) == pytest.approx((0.5, 0.5))


def test_fractional_totals_are_read_between_whole_ones() -> None:
    # Halfway between 0-0 (1/2) and 1-0 (3/4).
    assert match_chances(COIN, (0.5, 0)) == pytest.approx((0.625, 0.375))
    assert match_chances(COIN, (0.5, 0.5)) == pytest.approx((0.5, 0.5))


def test_a_hand_that_may_score_nothing_only_waits() -> None:
    # Carte alone: nobody scores in 8.5% of the hands; the other hands are a coin.
    rules = Rules(target=2, scoring=ScoringRules(components=(Carte(),)))
    assert match_chances(rules, (1, 0)) == pytest.approx((0.75, 0.25))


def test_a_side_that_has_won_has_won() -> None:
    classic = find_variant("classic")
    assert match_chances(classic, (11, 5)) == (1.0, 0.0)
    assert match_chances(classic, (12, 14)) == (0.0, 1.0)
    assert match_chances(classic, (11, 11)) == (0.5, 0.5)  # tied at the top: played on


def test_classic_chances_are_alike_for_both_sides_and_grow_with_points() -> None:
    classic = find_variant("classic")
    for first in range(11):
        for second in range(11):
            mine, theirs = match_chances(classic, (first, second))
            assert mine + theirs == pytest.approx(1.0)
            assert (theirs, mine) == pytest.approx(match_chances(classic, (second, first)))
            if first < 10:
                assert match_chances(classic, (first + 1, second))[0] > mine


def test_which_rules_are_covered() -> None:
    assert plays_for_the_match(find_variant("classic"))
    assert plays_for_the_match(find_variant("scopone"))  # two sides of two players
    assert not plays_for_the_match(find_variant("scopa-3"))  # three sides
    assert not plays_for_the_match(find_variant("scopa-a-perdere"))  # the lowest wins
    assert not plays_for_the_match(Rules(target=101))  # too long a table
    napola = Rules(scoring=ScoringRules(components=(Scope(value=0), Napola())))
    assert not plays_for_the_match(napola)  # no category the chances count
    with pytest.raises(InvalidArgumentError, match="two sides"):
        match_chances(find_variant("scopa-3"), (0, 0))


@pytest.mark.parametrize("totals", [(1,), (0, 0, 0), (-1, 0), (math.inf, 0), (math.nan, 1)])
def test_bad_totals_are_refused(totals: tuple[float, ...]) -> None:
    with pytest.raises(InvalidArgumentError, match="totals"):
        match_chances(COIN, totals)


@pytest.mark.parametrize("totals", [("1", 0), (True, 0), 3, "10", (None, 1)])
def test_totals_of_the_wrong_type_are_refused(totals: object) -> None:
    with pytest.raises(TypeError, match="totals"):
        match_chances(COIN, totals)  # type: ignore[arg-type]
