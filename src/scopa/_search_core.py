"""The searches' core, compiled in the wheel: the evaluation, alpha-beta and the agents' loops.

[`scopa.search`][scopa.search] is its public face: its agents check their settings and
the view, then choose here; its `expected_points` and `solve` call the evaluation and the
alpha-beta search defined here.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from scopa._checks import is_int, quote
from scopa._memo import remembered
from scopa.errors import InvalidArgumentError
from scopa.masks import cards_of
from scopa.moves import Move
from scopa.odds import _add_category, _Odds, plays_for_the_match
from scopa.rules import Rules
from scopa.scoring import (
    Captures,
    Carte,
    Declarations,
    Denari,
    MissingSuit,
    Primiera,
    PrimieraRule,
    ReBello,
    Scope,
    ScoringComponent,
    Settebello,
    strict_max,
)
from scopa.state import GameState, PlayerView

_DENARI: Final = 1023  # the ten denari are the cards of index 0 to 9
_SETTEBELLO: Final = 1 << 6
_RE_BELLO: Final = 1 << 9
# How unevenly the cards still out are shared, fitted to play by `benchmarks/bots.py fit`.
_CARTE_SPREAD: Final = 2.5
_DENARI_SPREAD: Final = 6.0
_PRIMIERA_SPREAD: Final = 1.75

# --------------------------------------------------------------------------- scoring on masks


class _Category(Protocol):
    """One scoring category, on the side piles as masks."""

    def points(self, piles: Sequence[int], scope: Sequence[int]) -> Sequence[int]:
        """Each side's points for captures `piles` and `scope`, the hand being over."""
        ...

    def expected(self, piles: Sequence[int], scope: Sequence[int], out: int) -> Sequence[float]:
        """Each side's expected points once the cards `out` are captured too."""
        ...


class _Scope:
    """Scope: what they are worth so far (later ones are as likely for any side)."""

    def __init__(self, value: int) -> None:
        self.value: Final = value

    def points(self, piles: Sequence[int], scope: Sequence[int]) -> Sequence[int]:
        return [made * self.value for made in scope]

    def expected(self, piles: Sequence[int], scope: Sequence[int], out: int) -> Sequence[float]:
        return self.points(piles, scope)


class _Most:
    """Carte or denari: a point to the side with strictly the most of some cards."""

    def __init__(self, cards: int, threshold: int | None, spread: float) -> None:
        self.cards: Final = cards
        self.threshold: Final = threshold
        self.spread: Final = spread  # see _chances_of_most

    def points(self, piles: Sequence[int], scope: Sequence[int]) -> Sequence[int]:
        counts = [(pile & self.cards).bit_count() for pile in piles]
        if self.threshold is None:
            return strict_max(counts)
        return strict_max(counts, [count >= self.threshold for count in counts])

    def expected(self, piles: Sequence[int], scope: Sequence[int], out: int) -> Sequence[float]:
        counts = tuple((pile & self.cards).bit_count() for pile in piles)
        out_count = (out & self.cards).bit_count()
        return _chances_of_most(counts, out_count, self.threshold or 0, self.spread)


class _Holder:
    """Settebello or re bello: a point to the side that captured one card."""

    def __init__(self, card: int) -> None:
        self.card: Final = card

    def points(self, piles: Sequence[int], scope: Sequence[int]) -> Sequence[int]:
        return [int(pile & self.card != 0) for pile in piles]

    def expected(self, piles: Sequence[int], scope: Sequence[int], out: int) -> Sequence[float]:
        if out & self.card:
            return [1 / len(piles)] * len(piles)
        return self.points(piles, scope)


class _Primiera:
    """Primiera by the sum of each suit's best card (the `SUM` rule), over the cards in play."""

    def __init__(
        self, values: tuple[int, ...], missing_suit: MissingSuit, spread: float, rules: Rules
    ) -> None:
        self.values: Final = values
        self.shifts: Final = tuple(10 * suit for suit in rules.suits)
        self.ranks: Final = sum(1 << (rank - 1) for rank in rules.ranks)  # a 10-bit set
        self.spread: Final = spread  # how much wider the gap spreads than by even draws
        self.best: Final = _best_values(values)
        self.zero_for_missing: Final = missing_suit is MissingSuit.ZERO
        self.outlooks: Final[dict[int, _SuitOutlook]] = {}  # at most 3**10, one per split

    def points(self, piles: Sequence[int], scope: Sequence[int]) -> Sequence[int]:
        totals = []
        complete = []
        for pile in piles:
            suits = [self.best[pile >> shift & 1023] for shift in self.shifts]
            totals.append(sum(value for value in suits if value > 0))
            complete.append(min(suits) >= 0)
        return strict_max(totals, None if self.zero_for_missing else complete)

    def expected(self, piles: Sequence[int], scope: Sequence[int], out: int) -> Sequence[float]:
        """The chances of two sides by a normal approximation of their difference.

        With more than two sides the primiera of the captures so far stands in.
        """
        if len(piles) != 2:
            return self.points(piles, scope)
        first, second = piles
        has_first = has_second = has_both = 1.0
        mean = variance = 0.0
        for shift in self.shifts:
            split = (first >> shift & 1023) << 10 | second >> shift & 1023
            outlook = self.outlooks.get(split)
            if outlook is None:
                outlook = self.outlooks[split] = self._outlook(split >> 10, split & 1023)
            has_first *= outlook.has_first
            has_second *= outlook.has_second
            has_both *= outlook.has_both
            mean += outlook.mean
            variance += outlook.variance
        variance *= self.spread
        ahead = _chance_positive(mean, variance)
        behind = _chance_positive(-mean, variance)
        if self.zero_for_missing:
            return [ahead, behind]
        return [has_first - has_both + has_both * ahead, has_second - has_both + has_both * behind]

    def _outlook(self, first: int, second: int) -> _SuitOutlook:
        """How one suit ends when each of its cards still out goes to either side at random."""
        values = self.values
        best_first, best_second = self.best[first], self.best[second]
        left = self.ranks & ~(first | second)
        out = sorted((values[r] for r in range(10) if left >> r & 1), reverse=True)
        ends: list[tuple[float, int, int]] = []  # (chance, best of first side, of second)
        if not out:
            ends.append((1.0, best_first, best_second))
        for k in range(1, len(out)):  # the k-th card out is the first to the other side
            chance = 0.5 ** (k + 1)
            top, other = out[0], out[k]
            ends.append((chance, max(best_first, top), max(best_second, other)))
            ends.append((chance, max(best_first, other), max(best_second, top)))
        if out:  # every card out to one side
            chance = 0.5 ** len(out)
            ends.append((chance, max(best_first, out[0]), best_second))
            ends.append((chance, best_first, max(best_second, out[0])))
        return _SuitOutlook.of(ends, self.zero_for_missing)


class _SuitOutlook:
    """One suit at the end of the hand: whether each side holds it, and the primiera gap."""

    def __init__(
        self, has_first: float, has_second: float, has_both: float, mean: float, variance: float
    ) -> None:
        self.has_first: Final = has_first
        self.has_second: Final = has_second
        self.has_both: Final = has_both
        self.mean: Final = mean  # the gap between the sides' best values (when both hold it)
        self.variance: Final = variance

    @classmethod
    def of(cls, ends: list[tuple[float, int, int]], zero_for_missing: bool) -> _SuitOutlook:
        """The outlook of the ends `(chance, best of first side, of second)`; -1 is none."""
        has_first = sum(chance for chance, a, _ in ends if a >= 0)
        has_second = sum(chance for chance, _, b in ends if b >= 0)
        if zero_for_missing:  # a missing suit counts 0, whoever holds what
            gaps = [(chance, max(a, 0) - max(b, 0)) for chance, a, b in ends]
            weight = 1.0
        else:
            gaps = [(chance, a - b) for chance, a, b in ends if a >= 0 and b >= 0]
            weight = sum(chance for chance, _ in gaps)
        if not weight:
            return cls(has_first, has_second, 0.0, 0.0, 0.0)
        mean = sum(chance * gap for chance, gap in gaps) / weight
        variance = sum(chance * gap * gap for chance, gap in gaps) / weight - mean * mean
        return cls(has_first, has_second, weight, mean, max(variance, 0.0))


class _Other:
    """A category the search knows nothing of: its score of the captures so far."""

    def __init__(self, component: ScoringComponent, rules: Rules) -> None:
        self.component: Final = component
        self.suits: Final = rules.suits

    def points(self, piles: Sequence[int], scope: Sequence[int]) -> Sequence[int]:
        piles_cards = tuple(frozenset(cards_of(pile)) for pile in piles)
        captures = Captures(piles_cards, tuple(scope), (0,) * len(piles), self.suits)
        return self.component.score(captures).points

    def expected(self, piles: Sequence[int], scope: Sequence[int], out: int) -> Sequence[float]:
        return self.points(piles, scope)


def _category_of(component: ScoringComponent, rules: Rules) -> _Category:
    """The mask form of a scoring component (the exact classes only: a subclass may differ)."""
    kind = type(component)
    if kind is Scope:
        assert isinstance(component, Scope)
        return _Scope(component.value)
    if kind is Carte or kind is Denari:
        assert isinstance(component, (Carte, Denari))
        if kind is Carte:
            return _Most(rules.in_play_mask, component.threshold, _CARTE_SPREAD)
        return _Most(_DENARI, component.threshold, _DENARI_SPREAD)
    if kind is Settebello or kind is ReBello:
        return _Holder(_SETTEBELLO if kind is Settebello else _RE_BELLO)
    if kind is Primiera:
        assert isinstance(component, Primiera)
        if component.rule is PrimieraRule.SUM:
            values = component.table.values
            return _Primiera(values, component.missing_suit, _PRIMIERA_SPREAD, rules)
    return _Other(component, rules)


@functools.lru_cache(maxsize=64)
def _best_values(values: tuple[int, ...]) -> tuple[int, ...]:
    """For each 10-bit set of ranks of one suit, the best primiera value in it (-1: none)."""
    return tuple(
        max((values[r] for r in range(10) if ranks >> r & 1), default=-1) for ranks in range(1024)
    )


@functools.lru_cache(maxsize=1 << 14)
def _chances_of_most(
    counts: tuple[int, ...], out: int, threshold: int, spread: float
) -> tuple[float, ...]:
    """Each side's chance of ending with strictly the most cards, and at least `threshold`.

    The sides hold `counts` cards and `out` more are to be shared among them by a
    Dirichlet-multinomial draw: each side's share is drawn from a symmetric Dirichlet
    distribution of parameter `spread`, then each card goes to a side by those shares.
    Cards are taken in groups, not one by one, and a small `spread` says so: the split is
    more uneven than an even draw, which it nears as `spread` grows. The draws that give
    side `j` exactly `y_j` cards weigh `out! / rising(sides * spread, out)` times the
    product of the `weights[y_j] = rising(spread, y_j) / y_j!`, so a side's chance is a
    sum over what it gets of coefficients of products of polynomials in those weights.
    """
    weights = [1.0]
    for y in range(1, out + 1):
        weights.append(weights[-1] * (y - 1 + spread) / y)
    scale = 1.0
    for i in range(out):
        scale *= (i + 1) / (len(counts) * spread + i)
    chances = []
    for side, count in enumerate(counts):
        others = counts[:side] + counts[side + 1 :]
        chance = 0.0
        for extra in range(max(0, threshold - count), out + 1):
            below = _weight_all_below(others, count + extra, out - extra, weights)
            chance += weights[extra] * below
        chances.append(chance * scale)
    return tuple(chances)


def _weight_all_below(
    counts: tuple[int, ...], limit: int, cards: int, weights: list[float]
) -> float:
    """The weight of the draws of `cards` cards that leave every side below `limit` cards.

    The coefficient of `z**cards` in the product over the sides of `weights[y] * z**y`
    summed over the `y` that keep side `j` below the limit (`y < limit - counts[j]`).
    """
    product = [1.0]
    for count in counts:
        room = min(limit - count, cards + 1)
        if room <= 0:
            return 0.0
        product = [
            sum(
                product[i] * weights[d - i]
                for i in range(max(0, d - room + 1), min(d + 1, len(product)))
            )
            for d in range(min(len(product) + room - 1, cards + 1))
        ]
    return product[cards] if len(product) > cards else 0.0


def _chance_positive(mean: float, variance: float) -> float:
    """The chance that an integer of this mean and variance is above 0 (normal approximation)."""
    if variance < 1e-9:
        return float(mean > 0.5)
    return 0.5 * (1 + math.erf((mean - 0.5) / math.sqrt(2 * variance)))


class _Scoring:
    """The scoring of some rules on card masks: exact points, and expected points.

    Declared points (Cirulla) are known as soon as they are declared: they add to both.
    """

    def __init__(self, rules: Rules) -> None:
        self.players: Final = rules.players
        self.sides: Final = rules.number_of_sides
        self.in_play: Final = rules.in_play_mask
        components = rules.scoring.components
        self.categories: Final = [
            _category_of(c, rules) for c in components if type(c) is not Declarations
        ]
        self.declarations: Final = sum(type(c) is Declarations for c in components)
        self.known: Final[dict[tuple[int, ...], list[float]]] = {}  # expected points met
        self.known_ends: Final[dict[tuple[int, ...], list[tuple[int, int, float]]]] = {}

    def points(self, game: GameState | PlayerView) -> list[int]:
        """Each side's points once the hand is over."""
        side_piles, side_scope = self._piles_and_scope(game)
        total = self._declared(game)
        for category in self.categories:
            for side, points in enumerate(category.points(side_piles, side_scope)):
                total[side] += points
        return total

    def expected(self, game: GameState | PlayerView) -> list[float]:
        """Each side's expected points at the end of the hand (see `expected_points`)."""
        side_piles, side_scope = self._piles_and_scope(game)
        key = (*side_piles, *side_scope)
        total = self.known.get(key)
        if total is None:
            out = self._out(side_piles)
            total = [0.0] * self.sides
            for category in self.categories:
                for side, points in enumerate(category.expected(side_piles, side_scope, out)):
                    total[side] += points
            if len(self.known) >= _KNOWN_LIMIT:
                self.known.clear()
            self.known[key] = total
        if not self.declarations:
            return total
        return [t + d for t, d in zip(total, self._declared(game), strict=True)]

    def ends(self, game: GameState | PlayerView) -> list[tuple[int, int, float]]:
        """The ends of the hand for two sides: each side's points, and the chance of it.

        Each category of a point goes to a side with the chance `expected` gives it, or to
        nobody, independently of the others; scope and the other categories count what
        they are worth so far.
        """
        side_piles, side_scope = self._piles_and_scope(game)
        key = (*side_piles, *side_scope)
        found = self.known_ends.get(key)
        if found is None:
            out = self._out(side_piles)
            spread = {(0, 0): 1.0}
            for category in self.categories:
                first, second = category.expected(side_piles, side_scope, out)
                if isinstance(category, (_Scope, _Other)):
                    steps = [(int(first), int(second), 1.0)]
                else:  # a point to one side, the other, or nobody
                    steps = [(1, 0, first), (0, 1, second), (0, 0, 1.0 - first - second)]
                spread = _add_category(spread, steps)
            found = [(a, b, chance) for (a, b), chance in spread.items()]
            if len(self.known_ends) >= _KNOWN_LIMIT:
                self.known_ends.clear()
            self.known_ends[key] = found
        if not self.declarations:
            return found
        declared = self._declared(game)  # ints: `first` and `second` above are floats
        return [(a + declared[0], b + declared[1], chance) for a, b, chance in found]

    def _out(self, side_piles: Sequence[int]) -> int:
        """The cards in play that no side has captured."""
        captured = 0
        for pile in side_piles:
            captured |= pile
        return self.in_play & ~captured

    def _piles_and_scope(self, game: GameState | PlayerView) -> tuple[Sequence[int], Sequence[int]]:
        """The piles (masks) and scope of each side."""
        piles, scope = game.pile_masks, game.scope
        if self.sides == self.players:
            return piles, scope
        side_piles = [0] * self.sides
        side_scope = [0] * self.sides
        for player in range(self.players):
            side_piles[player % self.sides] |= piles[player]
            side_scope[player % self.sides] += scope[player]
        return side_piles, side_scope

    def _declared(self, game: GameState | PlayerView) -> list[int]:
        """Each side's declared points, times the declaration components that score them."""
        total = [0] * self.sides
        if self.declarations:
            for player, points in enumerate(game.declared):
                total[player % self.sides] += points * self.declarations
        return total


_KNOWN_LIMIT: Final = 1 << 16  # expected points remembered per rules
_SCORINGS: Final[dict[Rules, _Scoring]] = {}
_SCORING_LIMIT: Final = 64


def scoring_of(rules: Rules) -> _Scoring:
    """The mask scoring of some rules (a bounded cache: rules are values, often the same)."""
    return remembered(_SCORINGS, rules, lambda: _Scoring(rules), _SCORING_LIMIT)


# --------------------------------------------------------------------------- what points are worth

_MATCH_SCALE: Final = 5.0  # match chances as points: one point is worth about 0.1 of a
# chance in the middle of a classic match, so the exploration constant keeps its scale


class MatchWorth:
    """What a hand's points are worth to two sides playing for the match.

    Each side's chance of winning the match after the hand, less the other side's (see
    [`match_chances`][scopa.odds.match_chances]), times `_MATCH_SCALE`; a search without
    one values points by each side's margin over the best other side.
    """

    def __init__(self, rules: Rules, totals: tuple[int, int]) -> None:
        self.odds: Final = _Odds.of(rules)
        self.totals: Final = totals

    def values(self, points: Sequence[int]) -> list[float]:
        """Each side's worth of the hand ending with `points`."""
        first, second = points
        return self.expected([(first, second, 1.0)])

    def expected(self, ends: list[tuple[int, int, float]]) -> list[float]:
        """Each side's worth of a partial hand, from its `ends` (see `_Scoring.ends`)."""
        first_total, second_total = self.totals
        after_hand = self.odds.after_hand
        first = sum(p * after_hand(first_total + a, second_total + b) for a, b, p in ends)
        value = _MATCH_SCALE * (2.0 * first - 1.0)
        return [value, -value]


def _margins(points: Sequence[float]) -> list[float]:
    """Each side's points minus the best other side's."""
    if len(points) == 2:
        first, second = points
        return [first - second, second - first]
    return [p - max(q for o, q in enumerate(points) if o != s) for s, p in enumerate(points)]


def worth_of(rules: Rules, totals: object, aware: bool) -> MatchWorth | None:
    """What points are worth to an agent given the match's `totals` (None: their margins).

    Raises:
        InvalidArgumentError: `totals` is not one count of points per side.
        TypeError: `totals` is not a tuple of ints.
    """
    if not isinstance(totals, tuple) or not all(is_int(t) for t in totals):
        raise TypeError(f"totals must be a tuple of ints, not {quote(totals)}")
    if len(totals) != rules.number_of_sides or min(totals, default=-1) < 0:
        raise InvalidArgumentError(
            f"totals must be {rules.number_of_sides} counts of points, not {quote(totals)}"
        )
    if not aware or not plays_for_the_match(rules):
        return None
    first, second = totals
    return MatchWorth(rules, (first, second))


# --------------------------------------------------------------------------- alpha-beta

_EXACT: Final = 0
_LOWER: Final = 1  # the value is at least the one stored
_UPPER: Final = 2  # the value is at most the one stored
EVERY_PLY: Final = 40  # a depth that reaches the end of any hand
_TABLE_LIMIT: Final = 1 << 17  # positions a search remembers
_CLOCK_EVERY: Final = 1024  # positions searched between readings of a budget's clock


class _OutOfBudget(Exception):
    """A search stopped part way by its limits; `late` if by the deadline."""

    def __init__(self, late: bool) -> None:
        super().__init__()
        self.late = late


class AlphaBeta:
    """Alpha-beta search of open-card states for one side, with a transposition table.

    The value of a position is the side's margin (its points minus the best other side's)
    at the end of the hand, or as expected where the search stops short of it. The side's
    players maximize it and every other player minimizes it: the value of the game with
    two sides, a cautious one with more.
    """

    def __init__(self, rules: Rules, side: int, worth: MatchWorth | None = None) -> None:
        self.scoring: Final = scoring_of(rules)
        self.side: Final = side
        self.sides: Final = rules.number_of_sides
        self.worth: Final = worth
        self.table: Final[dict[tuple[int, ...], tuple[int, float, int, int]]] = {}
        self.positions = 0  # positions searched so far
        self.stop_at = math.inf  # the count of positions at which a search stops
        self.budget: Budget | None = None  # the budget whose deadline stops a search
        self.check_at = math.inf  # the count of positions at which to check the limits

    def limit(self, positions: float, budget: Budget | None = None) -> None:
        """Stop searches with `_OutOfBudget` past `positions` more positions searched.

        Or at the deadline of `budget`, whose clock is read every `_CLOCK_EVERY` positions.
        """
        self.stop_at = self.positions + positions
        self.budget = budget if budget is not None and budget.clock is not None else None
        self.check_at = self.stop_at
        if self.budget is not None:
            self.check_at = min(self.stop_at, self.positions + _CLOCK_EVERY)

    def _check(self) -> None:
        """Raise `_OutOfBudget` if a limit is reached, else set when to check again."""
        if self.positions >= self.stop_at:
            raise _OutOfBudget(late=False)
        if self.budget is not None:
            if not self.budget.in_time():
                raise _OutOfBudget(late=True)
            self.check_at = min(self.stop_at, self.positions + _CLOCK_EVERY)

    def margin(self, points: Sequence[float]) -> float:
        """The side's points minus the best other side's."""
        side = self.side
        return points[side] - max(p for s, p in enumerate(points) if s != side)

    def value(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        """The value of `state` searched `depth` plays deep, within the window (alpha, beta).

        A value outside the window is a bound: at most alpha, or at least beta.

        Raises:
            _OutOfBudget: the search reached its limits (see `limit`).
        """
        self.positions += 1
        if self.positions >= self.check_at:
            self._check()
        player = state.current_player
        if player is None:
            points = self.scoring.points(state)
            if self.worth is not None:
                return self.worth.values(points)[self.side]
            return self.margin(points)
        if depth == 0:
            if self.worth is not None:
                return self.worth.expected(self.scoring.ends(state))[self.side]
            return self.margin(self.scoring.expected(state))
        key = state.key
        entry = self.table.get(key)
        best_key = -1
        if entry is not None:
            stored_depth, stored, bound, best_key = entry
            if stored_depth >= depth and (
                bound == _EXACT
                or (bound == _LOWER and stored >= beta)
                or (bound == _UPPER and stored <= alpha)
            ):
                return stored
        moves: Sequence[Move] = state.legal_moves()
        if best_key >= 0:
            moves = sorted(moves, key=lambda move: move.key != best_key)
        maximizing = player % self.sides == self.side
        start_alpha, start_beta = alpha, beta
        best = -math.inf if maximizing else math.inf
        for move in moves:
            value = self.value(state.apply(move), depth - 1, alpha, beta)
            if maximizing:
                if value > best:
                    best, best_key = value, move.key
                    alpha = max(alpha, value)
            elif value < best:
                best, best_key = value, move.key
                beta = min(beta, value)
            if alpha >= beta:
                break
        bound = _LOWER if best >= start_beta else _UPPER if best <= start_alpha else _EXACT
        if len(self.table) >= _TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, best, bound, best_key)
        return best

    def move_values(self, state: GameState, depth: int) -> list[float]:
        """The exact value of each legal move of `state`, searched `depth` plays deep."""
        return [
            self.value(state.apply(move), depth - 1, -math.inf, math.inf)
            for move in state.legal_moves()
        ]


# --------------------------------------------------------------------------- the agents' searches


def _is_open(seen: PlayerView) -> bool:
    """Whether the view shows every card: the unseen ones can only be in one hand."""
    holders = sum(1 for p, size in enumerate(seen.hand_sizes) if size and p != seen.player)
    return seen.stock_size == 0 and holders <= 1


_CHEAP_POSITIONS: Final = 1 << 12  # positions an open deal may always take (solving the
# last three cards of each player takes at most a few hundred in the presets for two)
_DEAL_POSITIONS: Final = 1 << 17  # positions the search of one deal may take
_ITERATION_POSITIONS: Final = 8  # positions searched at about the cost of one ISMCTS iteration


def _deepen(
    search: AlphaBeta, state: GameState, values: list[float], depths: range
) -> tuple[list[float], int]:
    """The move values of the deepest search of `state` that ends within the limits, and its depth.

    The searches go one play deeper at a time through `depths`; `values`, of depth
    `depths.start - 1`, stand if none ends.
    """
    reached = depths.start - 1
    for depth in depths:
        try:
            values = search.move_values(state, depth)
        except _OutOfBudget:
            break
        reached = depth
    return values, reached


def _first_values(search: AlphaBeta, state: GameState) -> list[float]:
    """The move values of `state` searched one play deep, whatever the limits (it is cheap)."""
    search.limit(math.inf)
    return search.move_values(state, 1)


def _pick(moves: Sequence[Move], values: Sequence[float], rng: random.Random) -> Move:
    """The move of highest value, ties broken at random."""
    best = max(values)
    return rng.choice([m for m, v in zip(moves, values, strict=True) if v == best])


class Budget:
    """An anytime search's budget: iterations, and a deadline if it has a clock."""

    def __init__(
        self, iterations: int, seconds: float | None, clock: Callable[[], float] | None
    ) -> None:
        self.left = iterations
        self.clock: Final = clock if seconds is not None else None
        self.deadline: Final = (
            self.clock() + seconds if self.clock is not None and seconds is not None else 0.0
        )

    def in_time(self) -> bool:
        """Whether the deadline is still ahead, reading the clock if any."""
        return self.clock is None or self.clock() < self.deadline

    def spend(self) -> bool:
        """Count one iteration done, reading the clock if any; whether another may start."""
        self.left -= 1
        return self.in_time() and self.left > 0


class _Node:
    """A node of the information-set tree: the plays from the root that lead to it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0  # the margins of the side that played into this node
        self.available = 1  # the times its move was legal when its parent was visited


def choose_by_alpha_beta(
    seen: PlayerView,
    moves: tuple[Move, ...],
    rng: random.Random,
    worth: MatchWorth | None,
    depth: int,
    iterations: int,
    budget: Budget,
) -> Move:
    """`AlphaBetaAgent`'s choice among `moves`, two or more (see its documentation)."""
    search = AlphaBeta(seen.rules, seen.rules.side_of(seen.player), worth)
    if _is_open(seen):
        state = seen.resample(rng)
        plays = sum(len(hand) for hand in state.hands)
        values = _first_values(search, state)
        search.limit(_DEAL_POSITIONS, budget)
        first = min(depth, plays)
        values, reached = _deepen(search, state, values, range(2, first + 1))
        if reached < first:
            return _pick(moves, values, rng)
        spent = search.positions
        search.limit(max(_CHEAP_POSITIONS, iterations * spent) - spent, budget)
        return _pick(moves, _deepen(search, state, values, range(first + 1, plays + 1))[0], rng)
    totals = [0.0] * len(moves)
    searched = False
    while True:
        world = seen.resample(rng)
        search.limit(_DEAL_POSITIONS, budget)
        try:
            values = search.move_values(world, depth)
        except _OutOfBudget as stop:
            if stop.late:
                if not searched:
                    totals = _first_values(search, world)
                return _pick(moves, totals, rng)
            values = _first_values(search, world)
            search.limit(_DEAL_POSITIONS, budget)
            values, depth = _deepen(search, world, values, range(2, depth))
        totals = [total + value for total, value in zip(totals, values, strict=True)]
        searched = True
        if not budget.spend():
            return _pick(moves, totals, rng)


def choose_by_ismcts(
    seen: PlayerView,
    moves: tuple[Move, ...],
    rng: random.Random,
    worth: MatchWorth | None,
    exploration: float,
    iterations: int,
    budget: Budget,
) -> Move:
    """`ISMCTSAgent`'s choice among `moves`, two or more (see its documentation)."""
    rules = seen.rules
    if _is_open(seen):
        search = AlphaBeta(rules, rules.side_of(seen.player), worth)
        state = seen.resample(rng)
        plays = sum(len(hand) for hand in state.hands)
        values = _first_values(search, state)
        search.limit(max(_CHEAP_POSITIONS, iterations * _ITERATION_POSITIONS), budget)
        return _pick(moves, _deepen(search, state, values, range(2, plays + 1))[0], rng)
    scoring = scoring_of(rules)
    sides = rules.number_of_sides
    root = _Node()
    while True:
        state = seen.resample(rng)
        node = root
        path: list[tuple[_Node, int]] = []
        while (player := state.current_player) is not None:
            move, node = _step(node, state.legal_moves(), exploration, rng)
            path.append((node, player % sides))
            state = state.apply(move)
            if node.visits == 0:
                break
        if state.current_player is None:
            points = scoring.points(state)
            leaf = _margins(points) if worth is None else worth.values(points)
        elif worth is None:
            leaf = _margins(scoring.expected(state))
        else:
            leaf = worth.expected(scoring.ends(state))
        for visited, side in path:
            visited.visits += 1
            visited.total += leaf[side]
        if not budget.spend():
            break
    visits = [root.children[m.key].visits if m.key in root.children else 0 for m in moves]
    return _pick(moves, visits, rng)


def _step(
    node: _Node, moves: Sequence[Move], exploration: float, rng: random.Random
) -> tuple[Move, _Node]:
    """The move to follow from `node` and its child: a move not tried yet, or by UCB."""
    children = node.children
    untried = [move for move in moves if move.key not in children]
    for move in moves:
        if move.key in children:
            children[move.key].available += 1
    if untried:
        move = untried[int(rng.random() * len(untried))]
        child = children[move.key] = _Node()
        return move, child
    best_score = -math.inf
    best = moves[0]
    for move in moves:
        child = children[move.key]
        score = child.total / child.visits + exploration * math.sqrt(
            math.log(child.available) / child.visits
        )
        if score > best_score:
            best_score, best = score, move
    return best, children[best.key]
