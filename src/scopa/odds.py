"""The chance of winning a match from its totals, for play that looks beyond the hand.

[`match_chances`][scopa.odds.match_chances] gives each side's chance of winning a
two-sided match from the sides' totals, before the next hand is dealt. Each hand is taken
to score as an even hand of classic play does, category by category and independently:
carte, denari and primiera go to either side alike or to nobody on a tie (in 8.5%, 22%
and 5% of the hands), the settebello and the re bello to either side alike, and each
side's scope follow a Poisson law of mean 0.45 (the frequencies of 1,500 hands of
`AlphaBetaAgent(iterations=8, depth=3)` against itself). Other categories are not counted.
The match is won at the end of a hand by the side at or over the target and strictly
ahead; on a tie at the top further hands are played (the chance of either side is then
even; the last-hand countdown of `Tiebreak` is read so too).

Examples:
    >>> from scopa import find_variant
    >>> classic = find_variant("classic")
    >>> [round(chance, 9) for chance in match_chances(classic, (0, 0))]
    [0.5, 0.5]
    >>> first, second = match_chances(classic, (10, 6))
    >>> round(first, 3) > 0.8, round(first + second, 9)
    (True, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from scopa._checks import quote
from scopa._memo import remembered
from scopa.errors import InvalidArgumentError
from scopa.rules import Rules
from scopa.scoring import Carte, Denari, Primiera, ReBello, Scope, Settebello

__all__ = ["MAX_ODDS_TARGET", "match_chances", "plays_for_the_match"]

MAX_ODDS_TARGET: Final = 100
"""The highest target whose chances are worked out (their table grows with its square)."""

_TIES: Final = {Carte: 0.085, Denari: 0.22, Primiera: 0.05}  # the hands nobody wins them
_SCOPE_MEAN: Final = 0.45  # one side's scope in a hand
_MOST_SCOPE: Final = 6  # scope counted per side and hand (more: about 1 hand in 10**7)
_ODDS_LIMIT: Final = 16  # tables of chances remembered


def plays_for_the_match(rules: Rules) -> bool:
    """Whether [`match_chances`][scopa.odds.match_chances] covers these rules.

    Two sides, the highest total winning, a target up to `MAX_ODDS_TARGET`, and a hand
    that always scores a point.
    """
    return (
        rules.number_of_sides == 2
        and not rules.lowest_total_wins
        and rules.target <= MAX_ODDS_TARGET
        and _Odds.of(rules).still < 1
    )


def match_chances(rules: Rules, totals: Sequence[float]) -> tuple[float, float]:
    """Each side's chance of winning the match from `totals`, before the next hand.

    Totals may be fractions (expected points, as a search values a partial hand): the
    chances are then read between the nearest whole totals. A side at or over the target
    and strictly ahead has won.

    Raises:
        InvalidArgumentError: the rules are not covered (see
            [`plays_for_the_match`][scopa.odds.plays_for_the_match]), or `totals` is not
            two finite numbers, not negative.
        TypeError: `totals` is not a tuple (or list) of numbers.
    """
    if not plays_for_the_match(rules):
        raise InvalidArgumentError(
            "match chances need two sides, the highest total winning, a target up to "
            f"{MAX_ODDS_TARGET} and hands that always score"
        )
    if not isinstance(totals, (tuple, list)) or not all(
        isinstance(t, (int, float)) and not isinstance(t, bool) for t in totals
    ):
        raise TypeError(f"totals must be a tuple of numbers, not {quote(totals)}")
    if len(totals) != 2 or not all(math.isfinite(t) and t >= 0 for t in totals):
        raise InvalidArgumentError(
            f"totals must be two finite numbers, not negative, not {quote(totals)}"
        )
    first = _Odds.of(rules).chance(float(totals[0]), float(totals[1]))
    return first, 1.0 - first


class _Odds:
    """The first side's chance of winning from each pair of whole totals, for some rules."""

    def __init__(self, rules: Rules) -> None:
        self.target: Final = rules.target
        hands = _hand_points(rules)
        self.still: Final = hands.get((0, 0), 0.0)  # the chance a hand scores nothing
        self.hands: Final = [(a, b, p) for (a, b), p in hands.items() if (a, b) != (0, 0)]
        self.table: dict[tuple[int, int], float] = {}

    @classmethod
    def of(cls, rules: Rules) -> _Odds:
        """The odds of some rules (a bounded cache)."""
        key = (rules.target, rules.scoring)
        return remembered(_TABLES, key, lambda: cls(rules), _ODDS_LIMIT)

    def chance(self, first: float, second: float) -> float:
        """The chance at fractional totals, read bilinearly between whole ones."""
        low_first, low_second = math.floor(first), math.floor(second)
        over_first, over_second = first - low_first, second - low_second
        total = 0.0
        for a, weight_a in ((low_first, 1 - over_first), (low_first + 1, over_first)):
            for b, weight_b in ((low_second, 1 - over_second), (low_second + 1, over_second)):
                if weight_a * weight_b:
                    total += weight_a * weight_b * self.after_hand(a, b)
        return total

    def after_hand(self, first: int, second: int) -> float:
        """The chance at the end of a hand with these totals: won, lost, or played on."""
        if max(first, second) >= self.target and first != second:
            return 1.0 if first > second else 0.0
        return self.before_hand(first, second)

    def before_hand(self, first: int, second: int) -> float:
        """The chance before a hand is dealt at these totals (worked out once)."""
        if first >= self.target:  # tied at the top: even chances, whatever the points
            return 0.5
        known = self.table.get((first, second))
        if known is None:
            # The hands that score nothing leave the totals as they are: they only wait.
            known = sum(p * self.after_hand(first + a, second + b) for a, b, p in self.hands)
            known /= 1.0 - self.still
            self.table[first, second] = known
        return known


_TABLES: Final[dict[tuple[object, ...], _Odds]] = {}


def _hand_points(rules: Rules) -> dict[tuple[int, int], float]:
    """The chance of each pair of points a hand gives the two sides."""
    points = {(0, 0): 1.0}
    for component in rules.scoring.components:
        kind = type(component)
        outcomes: list[tuple[int, int, float]] = []
        if kind in _TIES:
            tie = _TIES[kind]
            outcomes = [(1, 0, (1 - tie) / 2), (0, 1, (1 - tie) / 2), (0, 0, tie)]
        elif kind is Settebello or kind is ReBello:
            outcomes = [(1, 0, 0.5), (0, 1, 0.5)]
        elif kind is Scope:
            assert isinstance(component, Scope)
            mean = _SCOPE_MEAN
            one = [math.exp(-mean) * mean**k / math.factorial(k) for k in range(_MOST_SCOPE + 1)]
            one[-1] += 1.0 - sum(one)  # the rare hands of more scope count as the most
            value = component.value
            outcomes = [
                (value * a, value * b, one[a] * one[b])
                for a in range(_MOST_SCOPE + 1)
                for b in range(_MOST_SCOPE + 1)
            ]
        if outcomes:
            points = _add_category(points, outcomes)
    return points


def _add_category(
    points: dict[tuple[int, int], float], outcomes: list[tuple[int, int, float]]
) -> dict[tuple[int, int], float]:
    """The chances of the two sides' points once a category's `outcomes` are added.

    `points` maps each pair of points to its chance; each outcome is the pair of points the
    category adds and its chance, independent of the others. Outcomes of no chance are left
    out.
    """
    merged: dict[tuple[int, int], float] = {}
    for (a, b), chance in points.items():
        for da, db, step in outcomes:
            if step > 0:
                merged[a + da, b + db] = merged.get((a + da, b + db), 0.0) + chance * step
    return merged
