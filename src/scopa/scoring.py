"""Hand scoring: the standard categories as pluggable components, and the hand's score.

A [`ScoringRules`][scopa.ScoringRules] is a tuple of components. Each component looks at
the cards every side captured (and the scope it made) and returns a
[`CategoryScore`][scopa.CategoryScore]: the points of each side in that category and the
figures behind them. Any object with a `name` and a `score` method of the right type (see
[`ScoringComponent`][scopa.ScoringComponent]) can be added, without touching the library.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import Enum
from typing import Any, ClassVar, Final, Protocol, runtime_checkable

import attrs

from scopa._checks import check_label, flag, instance_of, int_in, is_int, label, quote
from scopa.cards import Card, Rank, Suit
from scopa.errors import RulesError

__all__ = [
    "COMPONENTS",
    "AssoDueTre",
    "Captures",
    "CardPoints",
    "Carte",
    "CategoryScore",
    "Declarations",
    "Denari",
    "Grande",
    "HandScore",
    "MissingSuit",
    "Napola",
    "Ponino",
    "Primiera",
    "PrimieraRule",
    "PrimieraTable",
    "ReBello",
    "Scope",
    "ScoredOn",
    "ScoringComponent",
    "ScoringRules",
    "Settebello",
    "strict_max",
]


@attrs.frozen
class Captures:
    """What a component scores: each side's captured cards and scope, in side order."""

    piles: tuple[frozenset[Card], ...]
    """The cards each side captured."""
    scope: tuple[int, ...]
    """The number of scope (sweeps) each side made."""
    declared: tuple[int, ...] = attrs.field()
    """The points each side declared in the hand (Cirulla's *busso* and *tris*)."""
    suits: tuple[Suit, ...] = tuple(Suit)
    """The suits in play (see [`Rules.suits`][scopa.Rules.suits]): primiera needs them all."""

    @declared.default
    def _no_declarations(self) -> tuple[int, ...]:
        return (0,) * len(self.piles)


@attrs.frozen
class CategoryScore:
    """The result of one scoring category for every side.

    Examples:
        >>> CategoryScore("carte", points=(1, 0), figures=(22, 18)).points
        (1, 0)
    """

    name: str
    """The category's name, e.g. `"primiera"`."""
    points: tuple[int, ...]
    """The points each side scores in this category."""
    figures: tuple[int, ...] = ()
    """The figure each side was judged on (cards counted, primiera value…), if any."""
    wins_match: int | None = None
    """A side that wins the match outright with this hand (e.g. all ten denari)."""


class ScoredOn(Enum):
    """What a category of the library gives points for.

    The rules read it to tell whether any category can give a point under the other knobs.
    A component of your own may say it too, as a class attribute `scored_on`; one that
    does not is taken to be able to give points under any rules.
    """

    CARDS = "cards"
    """The cards captured (a capture, or an Ace laid on an empty table that goes to its
    player's pile, must be possible)."""
    SCOPE = "scope"
    """The scope made (a capture that empties the table must be possible)."""
    DECLARATIONS = "declarations"
    """The points declared (the rules must allow declarations)."""

    def __repr__(self) -> str:
        return f"ScoredOn.{self.name}"


@runtime_checkable
class ScoringComponent(Protocol):  # pragma: no mutate block
    """The protocol of a scoring category. Implement it to add a category of your own.

    Examples:
        >>> import attrs
        >>> @attrs.frozen
        ... class MostAces:
        ...     name: str = "assi"
        ...     def score(self, hand: Captures) -> CategoryScore:
        ...         aces = tuple(sum(c.rank == Rank.ASSO for c in p) for p in hand.piles)
        ...         return CategoryScore(self.name, strict_max(aces), aces)
        >>> rules = ScoringRules.standard().with_component(MostAces())
    """

    @property
    def name(self) -> str:
        """A name unique among the components of one [`ScoringRules`][scopa.ScoringRules]."""
        ...

    def score(self, hand: Captures) -> CategoryScore:
        """Score the hand for this category."""
        ...


def strict_max(figures: Sequence[Any], eligible: Sequence[bool] | None = None) -> tuple[int, ...]:
    """One point to the unique side with the highest figure among the eligible sides.

    The figures may be any values that compare, such as ints or tuples of ints.
    """
    candidates = [i for i in range(len(figures)) if eligible is None or eligible[i]]
    points = [0] * len(figures)
    if candidates:
        best = max(figures[i] for i in candidates)
        winners = [i for i in candidates if figures[i] == best]
        if len(winners) == 1:
            points[winners[0]] = 1
    return tuple(points)


@attrs.frozen
class Scope:
    """One point (or `value`) per scopa."""

    scored_on: ClassVar[ScoredOn] = ScoredOn.SCOPE
    """What the category gives points for."""

    value: int = attrs.field(default=1, validator=int_in(0, 100))
    """The points of one scopa."""
    name: str = attrs.field(default="scope", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """Each side's scope times the value."""
        return CategoryScore(self.name, tuple(n * self.value for n in hand.scope), hand.scope)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The scope made so far: they stay."""
        return self.score(hand).points


def _sure_most(counts: tuple[int, ...], left: int, threshold: int | None) -> tuple[int, ...]:
    """The point each side is sure of in a "most cards" category.

    A side is sure of it with strictly more than any other side could reach with every card
    still out, and the threshold reached.
    """
    points = []
    for side, count in enumerate(counts):
        others = [c + left for s, c in enumerate(counts) if s != side]
        sure = count > max(others) and (threshold is None or count >= threshold)
        points.append(int(sure))
    return tuple(points)


def _current(component: ScoringComponent, hand: Captures) -> tuple[int, ...]:
    """The points so far of a category that cannot lose them as more cards are taken."""
    return component.score(hand).points


def _most(name: str, counts: tuple[int, ...], threshold: int | None) -> CategoryScore:
    """One point to the unique side with the most, among those reaching the threshold."""
    eligible = None if threshold is None else [count >= threshold for count in counts]
    return CategoryScore(name, strict_max(counts, eligible), counts)


@attrs.frozen
class Carte:
    """One point to the side that captured strictly the most cards (20–20 scores nothing).

    With a `threshold` (21 in some games of three or more sides), a side must also have at
    least that many cards.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    threshold: int | None = attrs.field(
        default=None, validator=attrs.validators.optional(int_in(0, 40))
    )
    """The cards a side needs to score, if any."""
    name: str = attrs.field(default="carte", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """The unique maximum of the pile sizes."""
        return _most(self.name, tuple(len(pile) for pile in hand.piles), self.threshold)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The point of a side that has more cards than any other could still reach."""
        return _sure_most(tuple(len(pile) for pile in hand.piles), len(remaining), self.threshold)


@attrs.frozen
class Denari:
    """One point to the side that captured strictly the most denari (5–5 scores nothing).

    With a `threshold` (6), a side must also have at least that many denari.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    threshold: int | None = attrs.field(
        default=None, validator=attrs.validators.optional(int_in(0, 10))
    )
    """The denari a side needs to score, if any."""
    name: str = attrs.field(default="denari", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """The unique maximum of the denari counts."""
        return _most(self.name, _denari(hand.piles), self.threshold)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The point of a side with more denari than any other could still reach."""
        left = sum(1 for card in remaining if card.suit is Suit.DENARI)
        return _sure_most(_denari(hand.piles), left, self.threshold)


def _denari(piles: tuple[frozenset[Card], ...]) -> tuple[int, ...]:
    return tuple(sum(1 for c in pile if c.suit is Suit.DENARI) for pile in piles)


def _holder(name: str, card: Card, hand: Captures) -> CategoryScore:
    held = tuple(int(card in pile) for pile in hand.piles)
    return CategoryScore(name, held, held)


@attrs.frozen
class Settebello:
    """One point to the side that captured the seven of denari."""

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    name: str = attrs.field(default="settebello", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """One point to the holder of `7D`."""
        return _holder(self.name, Card(Rank.SETTE, Suit.DENARI), hand)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


@attrs.frozen
class ReBello:
    """One point to the side that captured the king of denari (*re bello*), a bonus."""

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    name: str = attrs.field(default="re bello", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """One point to the holder of `10D`."""
        return _holder(self.name, Card(Rank.RE, Suit.DENARI), hand)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


@attrs.frozen
class Napola:
    """The *napola*, a bonus: the run of denari from the Ace, if it reaches the three.

    Ace-2-3 of denari scores 3, and each further denaro in sequence (4, 5, 6, 7, Fante,
    Cavallo, Re) one more: the points are the length of the run. All ten denari (the
    *napoleone*) win the match outright when `napoleone_wins_match` is on.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    napoleone_wins_match: bool = attrs.field(default=False, validator=flag)
    """Whether a side holding all ten denari wins the match at once (the *cappotto*)."""
    name: str = attrs.field(default="napola", validator=label)
    """The category's name (Cirulla calls it *piccola*)."""
    most: int = attrs.field(default=10, validator=int_in(3, 10))
    """The most points a run scores (a longer run scores this)."""

    def score(self, hand: Captures) -> CategoryScore:
        """Each side's run of denari from the Ace, counted from three cards on."""
        runs = []
        for pile in hand.piles:
            run = 0
            while run < 10 and Card(Rank(run + 1), Suit.DENARI) in pile:
                run += 1
            runs.append(run)
        points = tuple(min(run, self.most) if run >= 3 else 0 for run in runs)
        winner = None
        if self.napoleone_wins_match and 10 in runs:
            winner = runs.index(10)
        return CategoryScore(self.name, points, tuple(runs), winner)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


@attrs.frozen
class Grande:
    """Cirulla's *grande*, a bonus: the Fante, Cavallo and Re of denari together score 5.

    With `extends`, the run goes on down: the 7 of denari as well scores 6, and the 6 too
    scores 7.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    extends: bool = attrs.field(default=True, validator=flag)
    """Whether the 7 and the 6 of denari extend the run."""
    name: str = attrs.field(default="grande", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """Five points for the three denari figures, and one more for each of the 7 and 6."""
        points = []
        for pile in hand.piles:
            run = 0
            while run < 5 and Card(Rank(10 - run), Suit.DENARI) in pile:
                run += 1
            if run < 3:
                points.append(0)
            else:
                points.append(run + 2 if self.extends else 5)
        return CategoryScore(self.name, tuple(points), tuple(points))

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


@attrs.frozen
class AssoDueTre:
    """The Ace, two and three of denari score 1, 2 and 3 to their capturer.

    This is the scopone of Trento as the online rooms play it; a side holding all three wins
    the match at once when `trio_wins_match` is on.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    trio_wins_match: bool = attrs.field(default=True, validator=flag)
    """Whether one side holding all three wins the match outright."""
    name: str = attrs.field(default="asso-due-tre", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """Each side's points from the three lowest denari."""
        low = [Card(Rank(rank), Suit.DENARI) for rank in (1, 2, 3)]
        points = tuple(sum(c.rank for c in low if c in pile) for pile in hand.piles)
        winner = None
        if self.trio_wins_match and 6 in points:
            winner = points.index(6)
        return CategoryScore(self.name, points, points, winner)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


@attrs.frozen
class Ponino:
    """The *ponino*, a bonus: all four Cavalli double a side's scope of the hand.

    The side that captures them scores its scope of the hand once more.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.SCOPE
    """What the category gives points for."""

    name: str = attrs.field(default="ponino", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """A side's scope again, when it holds the four Cavalli."""
        knights = [sum(1 for card in pile if card.rank == Rank.CAVALLO) == 4 for pile in hand.piles]
        with_four = zip(hand.scope, knights, strict=True)  # pragma: no mutate - one per side
        points = tuple(s if all4 else 0 for s, all4 in with_four)
        return CategoryScore(self.name, points, tuple(map(int, knights)))

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


def _rank_tuple(ranks: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(set(ranks)))


def _ranks(_: object, attribute: attrs.Attribute[tuple[int, ...]], value: object) -> None:
    if (
        not isinstance(value, tuple)
        or not value
        or not all(is_int(r) and 1 <= r <= 10 for r in value)
    ):
        raise RulesError(f"{attribute.name} must be ranks from 1 to 10, not {quote(value)}")


@attrs.frozen
class CardPoints:
    """Points for the cards of some ranks, each to its capturer.

    Scopa Frac scores the Aces and the three figures, one point each.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    ranks: tuple[int, ...] = attrs.field(
        default=(1, 8, 9, 10), converter=_rank_tuple, validator=_ranks
    )
    """The ranks whose cards score."""
    value: int = attrs.field(default=1, validator=int_in(1, 100))
    """The points of each such card."""
    name: str = attrs.field(default="carte di punto", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """The value of each scoring card each side captured."""
        counts = tuple(sum(1 for card in pile if card.rank in self.ranks) for pile in hand.piles)
        return CategoryScore(self.name, tuple(n * self.value for n in counts), counts)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


@attrs.frozen
class Declarations:
    """The points each side declared during the hand (Cirulla's *busso* and *tris*)."""

    scored_on: ClassVar[ScoredOn] = ScoredOn.DECLARATIONS
    """What the category gives points for."""

    name: str = attrs.field(default="accusi", validator=label)
    """The category's name."""

    def score(self, hand: Captures) -> CategoryScore:
        """The declared points, as they were declared."""
        return CategoryScore(self.name, hand.declared, hand.declared)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points so far: taking more cards cannot lose them."""
        return _current(self, hand)


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


@attrs.frozen
class PrimieraTable:
    """The primiera value of each rank.

    Examples:
        >>> PrimieraTable.CLASSIC.value(Rank.ASSO), PrimieraTable.TRETRE.value(Rank.ASSO)
        (16, 15)
    """

    name: str = attrs.field(validator=label)
    """A label for the table."""
    values: tuple[int, ...] = attrs.field(converter=_int_tuple)
    """The values of the ranks Ace to King, in rank order (ten numbers)."""

    CLASSIC: ClassVar[PrimieraTable]
    """7 = 21, 6 = 18, Ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, figures 10."""
    TRETRE: ClassVar[PrimieraTable]
    """As `CLASSIC` but Ace = 15."""
    FACE_VALUE_FIGURES: ClassVar[PrimieraTable]
    """As `CLASSIC` but Fante 8, Cavallo 9, Re 10."""
    ZERO_FIGURES: ClassVar[PrimieraTable]
    """As `CLASSIC` but the figures are worth 0."""

    def __attrs_post_init__(self) -> None:
        values = self.values
        if len(values) != 10 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100 for v in values
        ):
            raise RulesError(f"a primiera table needs ten ints from 0 to 100, got {quote(values)}")

    def value(self, rank: Rank) -> int:
        """The primiera value of a rank."""
        return self.values[rank - 1]


PrimieraTable.CLASSIC = PrimieraTable("classic", (16, 12, 13, 14, 15, 18, 21, 10, 10, 10))
PrimieraTable.TRETRE = PrimieraTable("tretre", (15, 12, 13, 14, 15, 18, 21, 10, 10, 10))
PrimieraTable.FACE_VALUE_FIGURES = PrimieraTable(
    "face-value-figures", (16, 12, 13, 14, 15, 18, 21, 8, 9, 10)
)
PrimieraTable.ZERO_FIGURES = PrimieraTable("zero-figures", (16, 12, 13, 14, 15, 18, 21, 0, 0, 0))


class PrimieraRule(Enum):
    """How primiera is decided."""

    SUM = "sum"
    """The side with the highest sum of its best card in each suit wins."""
    MOST_SEVENS_CASCADE = "most-sevens-cascade"
    """The side with the most sevens wins; on a tie the most sixes, then Aces, fives,
    fours, threes and twos. The figures are each side's count of sevens."""
    SETTANTA_3_SEVENS = "settanta-3-sevens"
    """A side with three or four sevens wins (*settanta*); otherwise nobody scores."""
    MOST_SEVENS = "most-sevens"
    """The side with strictly the most sevens wins; a tie scores nothing, however the sixes
    fall. The figures are each side's count of sevens."""
    BEST_CARDS = "best-cards"
    """The best card of each suit is taken, and the sides' four best cards, each sorted from
    the highest, are compared card by card (the Escoba *setenta* as pagat gives it): 7, 7,
    6, 5 beats 7, 7, A, A. The missing-suit policy applies; the figures are the sums."""

    def __repr__(self) -> str:
        return f"PrimieraRule.{self.name}"


class MissingSuit(Enum):
    """What a side that lacks a suit gets in primiera."""

    OPPONENT_WINS = "opponent-wins"
    """The side cannot win primiera; the best side holding all four suits (every suit in
    play) wins it.

    Some sources call this an incomplete primiera that is void (*nulla*): it comes to the
    same, for any number of sides."""
    ZERO = "zero"
    """The missing suit counts 0 and the sums are compared."""

    def __repr__(self) -> str:
        return f"MissingSuit.{self.name}"


@attrs.frozen
class Primiera:
    """One point for the best primiera: the sum of each suit's best captured card.

    The figures are the primiera values: the sum over the suits the side holds.
    """

    scored_on: ClassVar[ScoredOn] = ScoredOn.CARDS
    """What the category gives points for."""

    table: PrimieraTable = attrs.field(
        default=PrimieraTable.CLASSIC, validator=instance_of(PrimieraTable, "a PrimieraTable")
    )
    """The value of each rank."""
    missing_suit: MissingSuit = attrs.field(
        default=MissingSuit.OPPONENT_WINS, validator=instance_of(MissingSuit, "a MissingSuit")
    )
    """The policy for a side that lacks a suit (for the `SUM` rule)."""
    rule: PrimieraRule = attrs.field(
        default=PrimieraRule.SUM, validator=instance_of(PrimieraRule, "a PrimieraRule")
    )
    """How primiera is decided."""
    name: str = attrs.field(default="primiera", validator=label)
    """The category's name."""
    all_sevens: int = attrs.field(default=0, validator=int_in(0, 100))
    """Points more to a side that captured all four sevens, whoever wins the comparison
    (0: none)."""

    def score(self, hand: Captures) -> CategoryScore:
        """The unique best primiera among the eligible sides, and the bonus for all sevens."""
        category = self._compared(hand)
        if not self.all_sevens:
            return category
        bonus = self._all_sevens(hand)
        points = tuple(p + b for p, b in zip(category.points, bonus, strict=True))
        return attrs.evolve(category, points=points)

    def _all_sevens(self, hand: Captures) -> tuple[int, ...]:
        return tuple(self.all_sevens if n == 4 else 0 for n in _sevens(hand.piles))

    def _compared(self, hand: Captures) -> CategoryScore:
        if self.rule in _BY_SEVENS:
            return self._by_sevens(hand)
        values = self.table.values
        bests = []
        for pile in hand.piles:
            best: dict[Suit, int] = {}
            for card in pile:
                value = values[card.rank - 1]
                best[card.suit] = max(value, best.get(card.suit, value))
            bests.append(best)
        totals = tuple(sum(best.values()) for best in bests)
        eligible = None
        if self.missing_suit is not MissingSuit.ZERO:
            eligible = [len(best) == len(hand.suits) for best in bests]
        if self.rule is PrimieraRule.BEST_CARDS:
            ranked = [tuple(sorted(best.values(), reverse=True)) for best in bests]
            return CategoryScore(self.name, strict_max(ranked, eligible), totals)
        return CategoryScore(self.name, strict_max(totals, eligible), totals)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The point of a side that keeps the best primiera whoever takes the cards left.

        The worst case for a side is another side taking all of them. The cascade and the
        settanta are never sure before the end; the bonus for all four sevens is sure once a
        side holds them.
        """
        sides = len(hand.piles)
        bonus = self._all_sevens(hand)
        if self.rule is PrimieraRule.MOST_SEVENS:
            left = sum(1 for card in remaining if card.rank == Rank.SETTE)
            sure = _sure_most(_sevens(hand.piles), left, None)
            return tuple(s + b for s, b in zip(sure, bonus, strict=True))
        if self.rule in _BY_SEVENS:
            return bonus
        worst = [
            self._compared(
                attrs.evolve(
                    hand,
                    piles=tuple(
                        p | remaining if s == other else p for s, p in enumerate(hand.piles)
                    ),
                )
            ).points
            for other in range(sides)
        ]
        return tuple(
            int(all(worst[other][side] for other in range(sides) if other != side)) + bonus[side]
            for side in range(sides)
        )

    def _by_sevens(self, hand: Captures) -> CategoryScore:
        counts = [
            [sum(1 for c in pile if c.rank == rank) for pile in hand.piles] for rank in _CASCADE
        ]
        sevens = tuple(counts[0])
        if self.rule is PrimieraRule.SETTANTA_3_SEVENS:
            return CategoryScore(self.name, tuple(int(n >= 3) for n in sevens), sevens)
        if self.rule is PrimieraRule.MOST_SEVENS:
            return CategoryScore(self.name, strict_max(sevens), sevens)
        candidates = list(range(len(hand.piles)))
        for by_rank in counts:
            best = max(by_rank[side] for side in candidates)
            candidates = [side for side in candidates if by_rank[side] == best]
            if len(candidates) == 1:
                break
        points = tuple(
            int(len(candidates) == 1 and side == candidates[0]) for side in range(len(sevens))
        )
        return CategoryScore(self.name, points, sevens)


_CASCADE = (Rank.SETTE, Rank.SEI, Rank.ASSO, Rank.CINQUE, Rank.QUATTRO, Rank.TRE, Rank.DUE)
_BY_SEVENS = (
    PrimieraRule.MOST_SEVENS_CASCADE,
    PrimieraRule.SETTANTA_3_SEVENS,
    PrimieraRule.MOST_SEVENS,
)


def _sevens(piles: tuple[frozenset[Card], ...]) -> tuple[int, ...]:
    return tuple(sum(1 for card in pile if card.rank == Rank.SETTE) for pile in piles)


@attrs.frozen
class HandScore:
    """The score of a hand: every category's points for every side, and their totals.

    Index it by category name: `score["primiera"].figures`.
    """

    categories: tuple[CategoryScore, ...]
    """The categories in the order of the scoring rules."""

    @property
    def points(self) -> tuple[int, ...]:
        """The total points of each side."""
        return tuple(map(sum, zip(*(c.points for c in self.categories), strict=True)))

    def __getitem__(self, name: str) -> CategoryScore:
        for category in self.categories:
            if category.name == name:
                return category
        known = ", ".join(c.name for c in self.categories)
        raise KeyError(f"no scoring category {name!r}; the categories are {known}")

    def __iter__(self) -> Iterator[CategoryScore]:
        return iter(self.categories)


def _component_tuple(components: Iterable[ScoringComponent]) -> tuple[ScoringComponent, ...]:
    return tuple(components)


def _check_components(_: object, __: object, components: tuple[ScoringComponent, ...]) -> None:
    for component in components:
        if not isinstance(component, ScoringComponent):
            raise RulesError(f"{quote(component)} has no name and score() method")
    names = [check_label(c.name, "a scoring component's name") for c in components]
    if len(set(names)) != len(names):
        raise RulesError(f"scoring component names must be unique, got {names}")


@attrs.frozen
class ScoringRules:
    """The scoring categories of a hand, in order.

    Examples:
        >>> [c.name for c in ScoringRules.standard().components]
        ['scope', 'carte', 'denari', 'settebello', 'primiera']
    """

    components: tuple[ScoringComponent, ...] = attrs.field(
        converter=_component_tuple, validator=_check_components
    )
    """The scoring components, in the order their categories are listed."""

    @classmethod
    def standard(
        cls,
        primiera_table: PrimieraTable = PrimieraTable.CLASSIC,
        missing_suit: MissingSuit = MissingSuit.OPPONENT_WINS,
    ) -> ScoringRules:
        """Scope, carte, denari, settebello and primiera."""
        return cls(
            (Scope(), Carte(), Denari(), Settebello(), Primiera(primiera_table, missing_suit))
        )

    def with_component(self, component: ScoringComponent) -> ScoringRules:
        """A copy with one more component, scored last."""
        return ScoringRules((*self.components, component))

    def without(self, name: str) -> ScoringRules:
        """A copy without the component called `name`."""
        kept = tuple(c for c in self.components if c.name != name)
        if len(kept) == len(self.components):
            raise RulesError(f"no scoring component {name!r}")
        return ScoringRules(kept)

    def guaranteed(self, hand: Captures, remaining: frozenset[Card]) -> tuple[int, ...]:
        """The points each side is sure of, whoever takes the cards still out (`remaining`).

        Components of the library say what they are sure of; a component of your own
        counts nothing here unless it has a `guaranteed(hand, remaining)` method.
        """
        totals = [0] * len(hand.piles)
        for component in self.components:
            sure = getattr(component, "guaranteed", None)
            if sure is not None:
                for side, points in enumerate(sure(hand, remaining)):
                    totals[side] += points
        return tuple(totals)

    def score(self, hand: Captures) -> HandScore:
        """Score a hand with every component."""
        sides = len(hand.piles)
        categories = []
        for component in self.components:
            category = component.score(hand)
            if len(category.points) != sides:
                raise RulesError(
                    f"scoring component {component.name!r} gave {len(category.points)} "
                    f"scores for {sides} sides"
                )
            categories.append(category)
        return HandScore(tuple(categories))


COMPONENTS: Final = (
    Scope,
    Carte,
    Denari,
    Settebello,
    Primiera,
    ReBello,
    Napola,
    Grande,
    AssoDueTre,
    Ponino,
    CardPoints,
    Declarations,
)
"""The library's own scoring components: the one list of them.

A game record writes one under its class name with its fields
([`scopa.records`][scopa.records]); the batch engine and the searches score each of them;
`import scopa` exports them. A component of your own works everywhere else, but cannot go
in a record or in the batch engine.
"""
