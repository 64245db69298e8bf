"""Search: an exact endgame solver, an evaluation of a partial hand, and two search agents.

- [`solve`][scopa.search.solve] plays the rest of a hand out exactly, every card open:
  alpha-beta over the final score. In a two-player game, once the stock is empty every
  card a player has not seen is in the other hand, so the rest of the hand is a game of
  open cards, and the agents solve it where their budget allows.
- [`expected_points`][scopa.search.expected_points] is what a side can expect to score by
  the end of the hand, from the captures so far and the cards still out.
- [`AlphaBetaAgent`][scopa.search.AlphaBetaAgent] deals the cards it cannot see in many
  ways and searches each deal a few plays deep with that evaluation;
  [`ISMCTSAgent`][scopa.search.ISMCTSAgent] grows one search tree over all the deals
  (information-set Monte Carlo tree search).

Examples:
    >>> import random
    >>> from scopa import GameState, find_variant, view
    >>> state = GameState.new(find_variant("classic"), seed=3)
    >>> move = AlphaBetaAgent(iterations=4).choose(view(state), random.Random(0))
    >>> move in state.legal_moves()
    True
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable

import attrs

from scopa._checks import (
    at_least_one,
    check_number,
    flag,
    optional_function,
    optional_seconds,
    quote,
)
from scopa._search_core import (
    EVERY_PLY,
    AlphaBeta,
    Budget,
    MatchWorth,
    choose_by_alpha_beta,
    choose_by_ismcts,
    scoring_of,
    worth_of,
)
from scopa.errors import InvalidArgumentError
from scopa.moves import Move
from scopa.state import GameState, PlayerView

__all__ = ["AlphaBetaAgent", "ISMCTSAgent", "Solution", "expected_points", "solve"]


def expected_points(game: GameState | PlayerView) -> tuple[float, ...]:
    """What each side can expect to score in the hand, from the captures so far.

    Each category is worth its points times each side's chance to win it when the cards
    still out (on the table, in the hands and in the stock) are shared among the sides at
    random. Carte and denari: exactly, for a share drawn by a Dirichlet-multinomial law
    (cards are taken in groups, so a split is more uneven than card by card would make
    it; how much more was fitted to play). Settebello and re bello: an even chance for
    each side while out. Primiera (two sides, by the sum of the best cards): from each
    side's chance to hold each suit, every card out going to either side alike, and a
    normal approximation of the gap between the sums, widened by a fitted factor. Scope
    count what they are worth so far, as later ones are as likely for any side. Any other
    category, and primiera with more than two sides, counts its score of the captures so
    far. Once the hand is over these are the points of the hand.

    Everything it uses is public, so a view gives the same as its state.

    Examples:
        >>> from scopa import GameState, find_variant
        >>> start = expected_points(GameState.new(find_variant("classic"), seed=1))
        >>> start[0] == start[1], round(start[0], 2)
        (True, 1.87)

    Raises:
        TypeError: `game` is neither a `GameState` nor a `PlayerView`.
    """
    if not isinstance(game, (GameState, PlayerView)):
        raise TypeError(f"expected a GameState or a PlayerView, not {type(game).__name__}")
    scoring = scoring_of(game.rules)
    if game.current_player is None:
        return tuple(map(float, scoring.points(game)))
    return tuple(scoring.expected(game))


@attrs.frozen
class Solution:
    """The exact outcome of the rest of a hand, every card open."""

    value: int
    """The side's points minus the best other side's at the end, with best play."""
    moves: tuple[Move, ...]
    """The legal moves that reach that value (none once the hand is over)."""


def solve(state: GameState, side: int | None = None) -> Solution:
    """Play the rest of the hand out exactly, every card open, for one side.

    The side's players play to raise its margin (its points minus the best other side's
    at the end of the hand), every other player to lower it: with two sides, the value of
    the game. It searches every line with alpha-beta, remembering positions already met,
    so its time grows fast with the cards left: use it for the end of a hand (in a
    two-player game, the last six cards take a few milliseconds).

    Args:
        state: the position, every hand known.
        side: the side whose margin counts; by default the side of the player to move.

    Examples:
        Player 0 leads `7D` or `2C` onto `5S`; player 1 holds `7C` and `8B` and has
        captured every other card. If `2C` is laid, `7C` sweeps the table; if `7D` is laid,
        `7C` takes it. Either way player 1 takes everything, with a scopa after `2C`:

        >>> from scopa import DECK, Card, find_variant
        >>> mine, theirs, table = ["7D", "2C"], ["7C", "8B"], ["5S"]
        >>> rest = [card for card in DECK if str(card) not in mine + theirs + table]
        >>> state = GameState.from_position(
        ...     find_variant("classic"),
        ...     hands=[[Card.parse(c) for c in mine], [Card.parse(c) for c in theirs]],
        ...     table=[Card.parse("5S")],
        ...     stock=[],
        ...     dealer=1,
        ...     piles=[[], rest],
        ... )
        >>> solve(state)
        Solution(value=-4, moves=(Move.parse('7D'),))

    Raises:
        InvalidArgumentError: `side` is not a side of the rules.
        TypeError: `state` is not a `GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"solve needs a GameState, not {type(state).__name__}")
    rules = state.rules
    player = state.current_player
    if side is None:
        side = rules.side_of(0 if player is None else player)
    else:
        check_number(side, rules.number_of_sides, "side", InvalidArgumentError)
    search = AlphaBeta(rules, side)
    if player is None:
        return Solution(int(search.margin(search.scoring.points(state))), ())
    values = search.move_values(state, EVERY_PLY)
    best = max(values) if player % rules.number_of_sides == side else min(values)
    moves = tuple(m for m, v in zip(state.legal_moves(), values, strict=True) if v == best)
    return Solution(int(best), moves)


# --------------------------------------------------------------------------- agents


def _legal_moves(seen: PlayerView) -> tuple[Move, ...]:
    """The legal moves of the view's player, who must be the player to move.

    Raises:
        InvalidArgumentError: it is not the view's player's turn, or the hand is over.
        TypeError: `seen` is not a view (agents never see the whole state).
    """
    if not isinstance(seen, PlayerView):
        raise TypeError(
            f"an agent chooses from a PlayerView, not a {type(seen).__name__}: "
            "give it scopa.view(state)"
        )
    moves = seen.legal_moves()
    if not moves:
        raise InvalidArgumentError(
            f"player {seen.player} has no move to choose: it is not their turn"
        )
    return moves


# --------------------------------------------------------------------------- checks of settings


def _exploration(_: object, attribute: attrs.Attribute[float], value: object) -> None:
    """A finite, non-negative number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{attribute.name} must be a number, not {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise InvalidArgumentError(
            f"{attribute.name} must be a finite, non-negative number, not {quote(value)}"
        )


@attrs.frozen
class AlphaBetaAgent:
    """Determinized alpha-beta search (perfect-information Monte Carlo).

    Each iteration deals the cards the player cannot see in one way that agrees with
    everything seen ([`PlayerView.resample`][scopa.PlayerView.resample]), and searches
    every legal move in that deal with alpha-beta, `depth` plays deep, each position
    where it stops valued by [`expected_points`][scopa.search.expected_points] (and the
    end of the hand by its score). The move with the best mean value over the deals, its
    side's margin, is played. The search of one deal visits at most 131,072 positions:
    where `depth` plays take more, the agent searches that deal one play deeper at a
    time from one play, keeps the deepest search that ends within as many positions, and
    searches no deeper for the rest of the move.

    When every card is known (the stock is empty and at most one other player holds
    cards), there is one deal: the agent searches it `depth` plays deep, then one play
    deeper at a time to the end of the hand, where the rest of the hand is
    [solved][scopa.search.solve] exactly, and plays the best move of the deepest search
    that ended. The searches past `depth` may bring the positions visited to `iterations`
    times those of the first ones, and always to 4,096 (in the presets for two players,
    enough to solve the last three cards of each player).

    The budget is `iterations` deals per move, or `seconds` measured with the `clock`
    you pass (the library reads no clock of its own), whichever ends first; the clock is
    read once at the start, once after each deal and every 1,024 positions searched. A
    deal whose search the deadline cuts short does not count (if it is the first, the
    move is chosen by its search one play deep).

    Raises:
        InvalidArgumentError: `iterations` or `depth` is below 1, or `seconds` is
            negative, infinite or not a number.
        TypeError: a setting is of the wrong type.
    """

    iterations: int = attrs.field(default=100, validator=at_least_one)
    """The most deals searched per move."""
    depth: int = attrs.field(default=4, validator=at_least_one)
    """The plays searched in each deal, the move chosen included."""
    seconds: float | None = attrs.field(default=None, validator=optional_seconds)
    """A time budget per move, used only with a `clock`."""
    clock: Callable[[], float] | None = attrs.field(
        default=None, eq=False, validator=optional_function
    )
    """A function giving the time in seconds, such as `time.process_time`."""
    match_aware: bool = attrs.field(default=False, validator=flag)
    """In a match (`choose_in_match`), value a hand by the chance of winning the match."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The move of best mean value over the deals searched."""
        return self._choose(seen, rng, None)

    def choose_in_match(
        self, seen: PlayerView, totals: tuple[int, ...], rng: random.Random
    ) -> Move:
        """The move of best mean value, by the match's chances with `match_aware`.

        Raises:
            InvalidArgumentError: `totals` is not one count of points per side.
            TypeError: `totals` is not a tuple of ints.
        """
        return self._choose(seen, rng, worth_of(seen.rules, totals, self.match_aware))

    def _choose(self, seen: PlayerView, rng: random.Random, worth: MatchWorth | None) -> Move:
        """The move of best mean value, points being worth `worth` (None: margins)."""
        moves = _legal_moves(seen)
        if len(moves) == 1:
            return moves[0]
        budget = Budget(self.iterations, self.seconds, self.clock)
        return choose_by_alpha_beta(seen, moves, rng, worth, self.depth, self.iterations, budget)


@attrs.frozen
class ISMCTSAgent:
    """Information-set Monte Carlo tree search (single observer).

    One tree of the plays from the position, shared by every deal of the unseen cards.
    Each iteration deals them in one way that agrees with everything seen, walks down the
    tree through the moves legal in that deal, choosing by UCB among moves tried (each
    weighed by the times it was legal) until a move not yet tried, adds it, values the
    position reached with [`expected_points`][scopa.search.expected_points] (or the score
    if the hand is over) and counts that value, the margin of each move's side, along the
    way. The most visited move is played.

    When every card is known (the stock is empty and at most one other player holds
    cards), there is one deal: the agent searches it with alpha-beta instead, one play
    deeper at a time to the end of the hand, where the rest of the hand is
    [solved][scopa.search.solve] exactly, and plays the best move of the deepest search
    that ended. Those searches may visit 8 positions per iteration (as long as an
    iteration takes), and always 4,096 (in the presets for two players, enough to solve
    the last three cards of each player).

    The budget is `iterations` per move, or `seconds` measured with the `clock` you pass,
    whichever ends first; the clock is read once at the start and once after each
    iteration (every 1,024 positions of an alpha-beta search).

    Raises:
        InvalidArgumentError: `iterations` is below 1, or `exploration` or `seconds` is
            negative, infinite or not a number.
        TypeError: a setting is of the wrong type.
    """

    iterations: int = attrs.field(default=1000, validator=at_least_one)
    """The most iterations per move."""
    exploration: float = attrs.field(default=2.0, validator=_exploration)
    """The UCB exploration constant, in points."""
    seconds: float | None = attrs.field(default=None, validator=optional_seconds)
    """A time budget per move, used only with a `clock`."""
    clock: Callable[[], float] | None = attrs.field(
        default=None, eq=False, validator=optional_function
    )
    """A function giving the time in seconds, such as `time.process_time`."""
    match_aware: bool = attrs.field(default=False, validator=flag)
    """In a match (`choose_in_match`), value a hand by the chance of winning the match."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The most visited move of the tree."""
        return self._choose(seen, rng, None)

    def choose_in_match(
        self, seen: PlayerView, totals: tuple[int, ...], rng: random.Random
    ) -> Move:
        """The most visited move, by the match's chances with `match_aware`.

        Raises:
            InvalidArgumentError: `totals` is not one count of points per side.
            TypeError: `totals` is not a tuple of ints.
        """
        return self._choose(seen, rng, worth_of(seen.rules, totals, self.match_aware))

    def _choose(self, seen: PlayerView, rng: random.Random, worth: MatchWorth | None) -> Move:
        """The most visited move, points being worth `worth` (None: margins)."""
        moves = _legal_moves(seen)
        if len(moves) == 1:
            return moves[0]
        budget = Budget(self.iterations, self.seconds, self.clock)
        return choose_by_ismcts(seen, moves, rng, worth, self.exploration, self.iterations, budget)
