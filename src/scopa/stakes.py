"""What a match is played for: abandonments and the pluggable stakes, such as tretre's brilli.

A [`Stakes`][scopa.Stakes] turns the points of each hand (and how the match ended) into
what each player wins or loses. It is a pure function of those records, so a site can
settle a match from its own data without replaying it.

Examples:
    >>> economy = BrilliEconomy()
    >>> economy.settle([(3, 1), (2, 4), (5, 1)], winner=0)
    (Fraction(235, 6), Fraction(65, 6))
    >>> sum(_)
    Fraction(50, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from fractions import Fraction
from typing import Protocol, runtime_checkable

import attrs

from scopa._checks import flag, int_in, quote
from scopa.errors import InvalidStateError, RulesError

__all__ = ["AbandonReason", "Abandonment", "BrilliEconomy", "Stakes"]


class AbandonReason(Enum):
    """Why a player left a match before its end."""

    VOLUNTARY = "voluntary"
    """The player chose to leave."""
    EXPELLED = "expelled"
    """The player was expelled."""
    DISCONNECTED = "disconnected"
    """The player dropped off (*caduta*)."""
    TIMEOUT = "timeout"
    """The player ran out of time for a move."""

    def __repr__(self) -> str:
        return f"AbandonReason.{self.name}"


@attrs.frozen
class Abandonment:
    """A player left during hand number `hand` (counted from 1)."""

    player: int
    """The player who left."""
    hand: int
    """The hand in progress (an abandonment between hands counts in the next hand)."""
    reason: AbandonReason = AbandonReason.VOLUNTARY
    """Why the player left."""


@runtime_checkable
class Stakes(Protocol):  # pragma: no mutate block
    """The protocol of a stakes rule: settle a match from its per-hand points."""

    def settle(
        self,
        hand_points: Sequence[Sequence[int]],
        *,
        winner: int | None = None,
        abandonment: Abandonment | None = None,
        sides: int = 2,
    ) -> tuple[Fraction, ...]:
        """What each side has won so far (or in all, once there is a winner).

        Args:
            hand_points: the points each side made in each completed hand, in order.
            winner: the side that won the match, if it is over.
            abandonment: how the match was abandoned, if it was; its `player` is read as
                the abandoning side (the same number when each player is a side).
            sides: the number of sides.
        """
        ...


_MAX_BRILLI = 10**9


def _fraction(value: int | Fraction) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise RulesError(f"brilli must be an int or a Fraction, not {quote(value)}")
    if not 0 <= value <= _MAX_BRILLI:
        raise RulesError(f"brilli must be from 0 to {_MAX_BRILLI:,}, not {quote(value)}")
    return Fraction(value)


@attrs.frozen
class BrilliEconomy:
    """The tretre brilli: 50 in all, 10 for each of the first three hands and 20 for the match.

    The 10 brilli of a paid hand are shared in proportion to the points made. A match
    decided in fewer than `paid_hands` hands gives the brilli of the unplayed hands to the
    winner. An abandoner keeps the brilli of the earlier hands and loses `abandon_penalty`;
    the other side keeps its own and takes the whole pot of the hand in progress (if it is a
    paid hand), but not the match bonus, and, unless `abandon_unplayed_to_survivor`, not
    the pots of the paid hands never played.

    The settled values are exact fractions (a 2-1 hand gives 20/3 and 10/3);
    [`format`][scopa.BrilliEconomy.format] rounds them for display only.

    Examples:
        >>> left_in_hand_1 = Abandonment(player=1, hand=1)
        >>> BrilliEconomy().settle([], abandonment=left_in_hand_1)
        (Fraction(10, 1), Fraction(-30, 1))
        >>> literal = BrilliEconomy(abandon_unplayed_to_survivor=True)
        >>> literal.settle([], abandonment=left_in_hand_1)
        (Fraction(30, 1), Fraction(-30, 1))
        >>> BrilliEconomy().format(Fraction(20, 3)), BrilliEconomy(brilli_rounding=0).format(7)
        ('6.67', '7')
    """

    hand_pot: Fraction = attrs.field(default=Fraction(10), converter=_fraction)
    """The brilli shared out in each paid hand."""
    paid_hands: int = attrs.field(default=3, validator=int_in(0, 100))
    """How many hands, from the first, share out brilli."""
    match_bonus: Fraction = attrs.field(default=Fraction(20), converter=_fraction)
    """The brilli of the winner of the match."""
    abandon_penalty: Fraction = attrs.field(default=Fraction(30), converter=_fraction)
    """The brilli an abandoner loses."""
    unplayed_to_winner: bool = attrs.field(default=True, validator=flag)
    """Whether the winner of a short match takes the pots of the unplayed paid hands."""
    split_zero_total: bool = attrs.field(default=True, validator=flag)
    """How a paid hand where nobody scores is shared: evenly if true, otherwise not at all."""
    abandon_unplayed_to_survivor: bool = attrs.field(default=False, validator=flag)
    """Whether the survivors of an abandonment also share the pots of the paid hands not
    yet played. Off by default: the tretre abandonment clause lists what the survivor wins,
    and unplayed hands are not among them. On, it reads the clause on matches that end in
    one or two hands literally: an abandonment in hand 1 settles at 30 and -30."""
    brilli_rounding: int = attrs.field(default=2, validator=int_in(0, 6))
    """The decimal places brilli are shown with by [`format`][scopa.BrilliEconomy.format]
    (the settled values stay exact)."""

    def format(self, amount: int | Fraction) -> str:
        """An amount of brilli for display: whole, or rounded to `brilli_rounding` places.

        Raises:
            TypeError: `amount` is not an int or a Fraction.
        """
        if isinstance(amount, bool) or not isinstance(amount, (int, Fraction)):
            raise TypeError(f"an amount of brilli is an int or a Fraction, not {quote(amount)}")
        value = Fraction(amount)
        if value.denominator == 1:
            return str(value.numerator)
        return f"{float(round(value, self.brilli_rounding)):.{self.brilli_rounding}f}"

    def hand_shares(self, points: Sequence[int]) -> tuple[Fraction, ...]:
        """The pot of one paid hand, shared in proportion to the points."""
        total = sum(points)
        if total == 0:
            share = self.hand_pot / len(points) if self.split_zero_total else Fraction(0)
            return (share,) * len(points)
        return tuple(self.hand_pot * p / total for p in points)

    def settle(
        self,
        hand_points: Sequence[Sequence[int]],
        *,
        winner: int | None = None,
        abandonment: Abandonment | None = None,
        sides: int = 2,
    ) -> tuple[Fraction, ...]:
        """What each side has won so far, or in all once there is a winner.

        Raises:
            InvalidStateError: the records do not fit together (a hand with the wrong
                number of sides, negative points, an abandonment in a hand already played).
        """
        for points in hand_points:
            if len(points) != sides or any(p < 0 for p in points):
                raise InvalidStateError(f"hand points {tuple(points)} do not fit {sides} sides")
        brilli = [Fraction(0)] * sides
        for points in hand_points[: self.paid_hands]:
            for side, share in enumerate(self.hand_shares(points)):
                brilli[side] += share
        if abandonment is not None:
            if abandonment.hand != len(hand_points) + 1 or not 0 <= abandonment.player < sides:
                raise InvalidStateError(
                    f"an abandonment in hand {abandonment.hand} by player {abandonment.player} "
                    f"does not follow {len(hand_points)} completed hands of {sides} sides"
                )
            if abandonment.hand <= self.paid_hands:
                pots = 1
                if self.abandon_unplayed_to_survivor:
                    pots += self.paid_hands - abandonment.hand
                survivors = [s for s in range(sides) if s != abandonment.player]
                for side in survivors:
                    brilli[side] += self.hand_pot * pots / len(survivors)
            brilli[abandonment.player] -= self.abandon_penalty
        elif winner is not None:
            if not 0 <= winner < sides:
                raise InvalidStateError(f"winner {winner} is not one of {sides} sides")
            brilli[winner] += self.match_bonus
            if self.unplayed_to_winner:
                unplayed = max(0, self.paid_hands - len(hand_points))
                brilli[winner] += self.hand_pot * unplayed
        return tuple(brilli)
