"""A match: hands until a side reaches the target, with stakes, abandonment and rematches.

The first dealer (the *capotavolo*) deals hand 1; the deal then passes to the right, which
in a 2-player game means to the other player. An annulled deal is dealt again by the same
dealer and is not a hand. The match ends at the end of a hand in which a side has reached
the target and is strictly ahead of every other side; on an exact tie at the top, further
hands are played.

Examples:
    >>> from scopa import find_variant
    >>> match = Match.new(find_variant("tretre"), seed=3)
    >>> while not match.is_over:
    ...     match = match.apply(match.state.legal_moves()[0])
    >>> match.winner, match.totals, len(match.hands)
    (0, (9, 4), 3)
    >>> sum(match.settlement)
    Fraction(50, 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from enum import Enum
from fractions import Fraction
from typing import Literal

import attrs

from scopa._checks import check_number, check_seconds, check_type, is_int, quote
from scopa._shuffle import accepted_order, check_seed
from scopa.cards import DECK, Card, Deck
from scopa.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError
from scopa.moves import Move
from scopa.rules import Rules, Tiebreak
from scopa.scoring import Carte, Denari, HandScore, Primiera, Scope, Settebello
from scopa.stakes import Abandonment, AbandonReason
from scopa.state import GameState

__all__ = [
    "Claim",
    "HandRecord",
    "Match",
    "Moment",
    "MomentKind",
    "Outcome",
    "SeriesRecord",
    "match_moments",
]


class Outcome(Enum):
    """How a match ended for one player."""

    WIN = "win"
    """The player won (also when the opponent abandoned)."""
    LOSS = "loss"
    """The player lost on points."""
    ABANDONED = "abandoned"
    """The player abandoned the match."""

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


@attrs.frozen
class HandRecord:
    """A completed hand of a match."""

    number: int
    """The hand's number, from 1."""
    dealer: int
    """The player who dealt it."""
    deck: Deck
    """The deck it was dealt from (after any annulled deals)."""
    score: HandScore
    """Its score, category by category."""
    history: tuple[tuple[int, Move], ...] = ()
    """Its plays, as `(player, move)` pairs in order."""
    leftover_cards: frozenset[Card] = frozenset()
    """The cards left on the table after its last play (see
    [`GameState.leftover_cards`][scopa.GameState.leftover_cards])."""
    leftovers_taken_by: int | None = None
    """The player who took them into their pile, or `None` when nobody did (see
    [`Rules.leftovers`][scopa.Rules.leftovers])."""

    @property
    def points(self) -> tuple[int, ...]:
        """The points each side made in the hand."""
        return self.score.points


@attrs.frozen
class Claim:
    """A player's claim that their side reached the target (rules with `claim_out`)."""

    player: int
    """The player who claimed."""
    correct: bool
    """Whether the claim was right: the side's total and the points it was sure of in the
    hand reached the target. A right claim wins the match, a wrong one loses it."""


@attrs.frozen
class SeriesRecord:
    """Matches won, lost and abandoned by each player over a series of rematches."""

    wins: tuple[int, ...]
    """Matches each player won."""
    losses: tuple[int, ...]
    """Matches each player lost (on points, or as the partner of an abandoner)."""
    abandoned: tuple[int, ...]
    """Matches each player abandoned."""

    def __attrs_post_init__(self) -> None:
        counts = (self.wins, self.losses, self.abandoned)
        if not all(isinstance(c, tuple) for c in counts):
            raise TypeError("a series record holds three tuples of ints")
        if len({len(c) for c in counts}) != 1 or not all(
            is_int(n) and n >= 0 for c in counts for n in c
        ):
            raise InvalidStateError(
                "a series record needs as many wins, losses and abandonments, each a "
                f"non-negative int, not {quote(counts)}"
            )

    @classmethod
    def empty(cls, players: int) -> SeriesRecord:
        """The record of a series that has not started."""
        return cls((0,) * players, (0,) * players, (0,) * players)

    @property
    def matches(self) -> int:
        """How many matches the series has had."""
        return max(
            (
                w + lost + a
                for w, lost, a in zip(self.wins, self.losses, self.abandoned, strict=True)
            ),
            default=0,
        )

    def add(self, outcomes: Sequence[Outcome]) -> SeriesRecord:
        """The record with one more match, whose outcomes are given per player.

        Raises:
            InvalidStateError: the outcomes are not one per player.
        """
        if len(outcomes) != len(self.wins):
            raise InvalidStateError(
                f"a series of {len(self.wins)} players needs {len(self.wins)} outcomes, "
                f"got {len(outcomes)}"
            )

        def count(values: tuple[int, ...], outcome: Outcome) -> tuple[int, ...]:
            pairs = zip(values, outcomes, strict=True)  # pragma: no mutate - lengths checked above
            return tuple(v + (o is outcome) for v, o in pairs)

        return SeriesRecord(
            count(self.wins, Outcome.WIN),
            count(self.losses, Outcome.LOSS),
            count(self.abandoned, Outcome.ABANDONED),
        )


@attrs.frozen(repr=False)
class Match:
    """An immutable match: every action returns a new `Match`.

    Start one with [`Match.new`][scopa.Match.new]; play with
    [`apply`][scopa.Match.apply]; leave with [`abandon`][scopa.Match.abandon] or
    [`timeout`][scopa.Match.timeout]; start the next one with
    [`rematch`][scopa.Match.rematch]. Every figure of the match is kept as it goes, so a
    move costs the same at hand 1,000 as at hand 1.
    """

    rules: Rules
    """The rules of the match."""
    first_dealer: int
    """The player who dealt the first hand (the *capotavolo*)."""
    hands: tuple[HandRecord, ...]
    """The completed hands, in order."""
    state: GameState
    """The hand in progress; once the match is over, the last hand's final state (or the
    position where a player abandoned)."""
    deck: Deck
    """The deck of the hand in progress (or of the last hand)."""
    abandonment: Abandonment | None
    """How the match was abandoned, if it was."""
    series_before: SeriesRecord
    """The series record before this match."""
    totals: tuple[int, ...]
    """The points of each side, summed over the completed hands."""
    winner: int | None
    """The side that won, once the match is over.

    On points: the side at or over the target and strictly ahead of every other side, or a
    side that a category declares the winner outright (such as the napoleone). After an
    abandonment: the other side, or with more than two sides the other side with the most
    points (the first after the abandoner's in play order on a tie)."""
    _stream: int | None
    _decks: tuple[Deck, ...]
    claim: Claim | None = None
    """The claim that ended the match, under `claim_out`."""

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        seed: int | None = None,
        decks: Iterable[Deck] = (),
        first_dealer: int = 0,
        series: SeriesRecord | None = None,
    ) -> Match:
        """Start a match and deal its first hand.

        With a seed, the hands are dealt from the stream of
        [`Deck.shuffles(seed)`][scopa.Deck.shuffles], skipping annulled deals, so hand 1
        is `GameState.new(rules, seed=seed, dealer=first_dealer)`. With explicit `decks`, hand `n`
        is dealt from the `n`-th deck; once they run out the match waits for
        [`deal`][scopa.Match.deal]. With neither, a seed is drawn from the operating
        system.

        Raises:
            InvalidStateError: both a seed and decks are given, the first dealer is not a
                player, a deck's first table is annulled by the misdeal rule, or the series
                record is not one of as many players as the rules have.
            TypeError: `rules` is not a `Rules`, a deck is not a `Deck`, the first dealer is
                not an int, or `series` is not a `SeriesRecord`.
        """
        deck_list = tuple(decks)
        if seed is not None and deck_list:
            raise InvalidArgumentError("give a seed or decks, not both")
        if not all(isinstance(d, Deck) for d in deck_list):
            raise TypeError("decks must be Deck objects")
        check_type(rules, Rules, "rules")
        players = rules.players
        check_number(first_dealer, players, "first_dealer", InvalidArgumentError)
        if series is None:
            series = SeriesRecord.empty(players)
        elif not isinstance(series, SeriesRecord):
            raise TypeError(f"series must be a SeriesRecord, not {type(series).__name__}")
        elif len(series.wins) != players:
            raise InvalidArgumentError(
                f"the series record is of {len(series.wins)} players, not {players}"
            )
        stream = None if deck_list else (secrets.randbits(64) if seed is None else seed)
        dealt = _deal(rules, first_dealer, stream, deck_list)
        assert dealt is not None  # there is a seed or a first deck
        state, deck, stream, rest = dealt
        zeros = (0,) * rules.number_of_sides
        return cls(rules, first_dealer, (), state, deck, None, series, zeros, None, stream, rest)

    # ------------------------------------------------------------------ reading

    @property
    def hand_number(self) -> int:
        """The number of the hand in progress (from 1), or of the last hand.

        It is the last hand's once the match is over on points, and while it waits for a
        deck (an abandonment then counts in the next hand).
        """
        return len(self.hands) + (0 if self.awaiting_deal or self._ended_on_points else 1)

    @property
    def dealer(self) -> int:
        """The dealer of the hand in progress (or of the last hand)."""
        return self.state.dealer

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (on points or by an abandonment)."""
        return self.winner is not None

    @property
    def awaiting_deal(self) -> bool:
        """Whether the match goes on but has no deck for its next hand (see `deal`)."""
        return self.state.is_terminal and not self.is_over

    @property
    def outcomes(self) -> tuple[Outcome, ...] | None:
        """Each player's recorded outcome, once the match is over."""
        winner = self.winner
        if winner is None:
            return None
        quitter = None if self.abandonment is None else self.abandonment.player
        return tuple(
            Outcome.ABANDONED
            if player == quitter
            else Outcome.WIN
            if self.rules.side_of(player) == winner
            else Outcome.LOSS
            for player in range(self.rules.players)
        )

    @property
    def settlement(self) -> tuple[Fraction, ...] | None:
        """What each side has won under the rules' stakes, such as the tretre brilli.

        `None` without stakes. Before the end: the shares of the completed hands; once
        over: the settlement.
        """
        stakes = self.rules.stakes
        if stakes is None:
            return None
        abandonment = self.abandonment
        if abandonment is not None:
            abandonment = attrs.evolve(abandonment, player=self.rules.side_of(abandonment.player))
        return stakes.settle(
            [hand.points for hand in self.hands],
            winner=None if abandonment else self.winner,
            abandonment=abandonment,
            sides=self.rules.number_of_sides,
        )

    @property
    def series(self) -> SeriesRecord:
        """The series record, including this match once it is over."""
        outcomes = self.outcomes
        return self.series_before if outcomes is None else self.series_before.add(outcomes)

    # ------------------------------------------------------------------ acting

    def apply(self, move: Move, *, elapsed: float | None = None) -> Match:
        """Play a move in the hand in progress, dealing the next hand when this one ends.

        Args:
            move: a legal move of the current player.
            elapsed: the seconds the move took (a finite number, not negative; an int too
                large for a float, such as `10**400`, is simply over any limit). Over the
                rules' `move_time_limit`, the move is not played: the player abandons for
                `TIMEOUT`.

        Raises:
            IllegalMoveError: the move is not legal, the match is over, or it waits for a
                deck.
            InvalidArgumentError: `elapsed` is negative, infinite or not a number.
            TypeError: `move` is not a `Move`, or `elapsed` is not a real number.
        """
        self._check_playing()
        if elapsed is not None:
            seconds = check_seconds(elapsed, "elapsed time", InvalidArgumentError)
            limit = self.rules.move_time_limit
            if limit is not None and seconds > limit:
                return self.timeout()
        player = self.state.current_player
        state = self.state.apply(move)
        if move.claim:
            assert player is not None
            return self._claimed(player, state)
        if not state.is_terminal:  # the common case, made without `attrs.evolve`'s lookups
            return Match(
                self.rules,
                self.first_dealer,
                self.hands,
                state,
                self.deck,
                self.abandonment,  # pragma: no mutate - None while the match goes on
                self.series_before,
                self.totals,
                self.winner,  # pragma: no mutate - None while the match goes on
                self._stream,
                self._decks,
            )
        score = state.hand_score()
        record = HandRecord(
            len(self.hands) + 1,
            state.dealer,
            self.deck,
            score,
            state.history,
            state.leftover_cards,
            state.leftovers_taken_by,
        )
        pairs = zip(self.totals, score.points, strict=True)  # pragma: no mutate - one per side
        totals = tuple(map(sum, pairs))
        outright = next((c.wins_match for c in score if c.wins_match is not None), None)
        winner = self._winner_after(score, totals) if outright is None else outright
        ended = attrs.evolve(
            self, state=state, hands=(*self.hands, record), totals=totals, winner=winner
        )
        return ended if winner is not None else ended._next_hand()

    def _winner_after(self, score: HandScore, totals: tuple[int, ...]) -> int | None:
        """The side that wins with these totals after a hand scored so, if any."""
        rules = self.rules
        leader = _leader(totals, rules.target)
        if rules.lowest_total_wins:
            return None if leader is None else _lowest(totals)
        if rules.tiebreak is Tiebreak.LAST_HAND_COUNTDOWN:
            return _countdown(rules, score, self.totals)
        return leader

    def _claimed(self, player: int, state: GameState) -> Match:
        """The match after `player` claims, with the play that led to `state`."""
        side = self.rules.side_of(player)
        sure = state.guaranteed_points()
        correct = self.totals[side] + sure[side] >= self.rules.target
        winner = side if correct else _best_other(self.totals, side)
        return attrs.evolve(self, state=state, winner=winner, claim=Claim(player, correct))

    def deal(self, deck: Deck) -> Match:
        """Deal the next hand from `deck` (for a match of explicit decks that ran out).

        Raises:
            IllegalMoveError: the match is not waiting for a deck.
            InvalidStateError: the deck's first table is annulled by the misdeal rule.
        """
        if not self.awaiting_deal:
            raise IllegalMoveError("the match is not waiting for a deck")
        if not isinstance(deck, Deck):
            raise TypeError(f"deck must be a Deck, not {type(deck).__name__}")
        return attrs.evolve(self, decks=(deck,))._next_hand()

    def abandon(self, player: int, reason: AbandonReason = AbandonReason.VOLUNTARY) -> Match:
        """The match after `player` leaves it: the other side wins (see `winner`).

        Between hands (while waiting for a deck) the abandonment counts in the next hand.

        Raises:
            IllegalMoveError: the match is already over.
            InvalidStateError: `player` is not a player number.
            TypeError: `player` is not an int, or `reason` not an `AbandonReason`.
        """
        if self.is_over:
            raise IllegalMoveError("the match is already over")
        check_number(player, self.rules.players, "player", InvalidArgumentError)
        if not isinstance(reason, AbandonReason):
            raise TypeError(f"reason must be an AbandonReason, not {quote(reason)}")
        winner = _best_other(self.totals, self.rules.side_of(player))
        abandonment = Abandonment(player, len(self.hands) + 1, reason)
        return attrs.evolve(self, abandonment=abandonment, winner=winner)

    def timeout(self) -> Match:
        """The current player ran out of time: they abandon for `TIMEOUT`.

        Raises:
            IllegalMoveError: the match is over or waits for a deck.
        """
        self._check_playing()
        player = self.state.current_player
        assert player is not None
        return self.abandon(player, AbandonReason.TIMEOUT)

    def rematch(self, *, seed: int | None = None, decks: Iterable[Deck] = ()) -> Match:
        """The next match of the series, once this one is over on points.

        Its first dealer is the player to the right of the last hand's dealer (in 2-player
        games, the other player), and it carries the series record on. When a player
        leaves the table the series ends, as the tretre rules say: a match ended by an
        abandonment has no rematch.

        Raises:
            IllegalMoveError: this match is not over, or it ended by an abandonment.
        """
        if not self.is_over:
            raise IllegalMoveError("a rematch starts once the match is over")
        if self.abandonment is not None:
            raise IllegalMoveError(
                f"player {self.abandonment.player} left the table: the series is over"
            )
        played = len(self.hands) + (self.claim is not None)  # a claim ends a hand unfinished
        first = (self.first_dealer + played) % self.rules.players
        return Match.new(self.rules, seed=seed, decks=decks, first_dealer=first, series=self.series)

    @property
    def stream(self) -> int | None:
        """The state of the shuffling generator the next hands are dealt from.

        `None` for a match of explicit decks. Records keep it, so that a match read back
        deals on exactly as the original would have.
        """
        return self._stream

    def with_stream(self, stream: int) -> Match:
        """The same match, dealing its next hands from the generator state `stream`.

        Raises:
            InvalidStateError: `stream` is not between 0 and 2**64 - 1.
        """
        return attrs.evolve(self, stream=check_seed(stream), decks=())

    # ------------------------------------------------------------------ internals

    @property
    def _ended_on_points(self) -> bool:
        return self.abandonment is None and self.claim is None and self.is_over

    def _check_playing(self) -> None:
        if self.is_over:
            raise IllegalMoveError("the match is over")
        if self.state.is_terminal:
            raise IllegalMoveError("the match waits for the next deck: call deal(deck)")

    def _next_hand(self) -> Match:
        """Deal the next hand; without a deck for it, the match waits for `deal`."""
        dealer = (self.first_dealer + len(self.hands)) % self.rules.players
        dealt = _deal(self.rules, dealer, self._stream, self._decks)
        if dealt is None:
            return self
        state, deck, stream, decks = dealt
        return attrs.evolve(self, state=state, deck=deck, stream=stream, decks=decks)

    def __str__(self) -> str:
        """The match as a text picture for terminals (see `scopa.board.match_text`)."""
        from scopa.board import match_text

        return match_text(self)

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.name} hand {self.hand_number} totals {self.totals}"
            f"{' over' if self.is_over else ''}>"
        )


def _deal(
    rules: Rules, dealer: int, stream: int | None, decks: tuple[Deck, ...]
) -> tuple[GameState, Deck, int | None, tuple[Deck, ...]] | None:
    """A new hand from the next explicit deck or the seeded stream, with what is left of them."""
    if decks:
        deck, decks = decks[0], decks[1:]
    elif stream is not None:
        order, stream = accepted_order(rules, stream)
        deck = Deck(DECK[i] for i in order)
    else:
        return None
    return GameState.new(rules, deck=deck, dealer=dealer), deck, stream, decks


def _lowest(totals: tuple[int, ...]) -> int | None:
    """The side with the unique lowest total, if there is one."""
    low = min(totals)
    lowest = [side for side, total in enumerate(totals) if total == low]
    return lowest[0] if len(lowest) == 1 else None


def _best_other(totals: tuple[int, ...], side: int) -> int:
    """The other side with the most points (the first after `side` in play order on a tie)."""
    others = [(side + k) % len(totals) for k in range(1, len(totals))]
    return max(others, key=lambda other: totals[other])


def _countdown(rules: Rules, score: HandScore, before: tuple[int, ...]) -> int | None:
    """The winner of Parlett's countdown of the last hand, if it finds one (see `Tiebreak`).

    The categories are counted as carte, denari, settebello, primiera, the others in their
    order, and scope last; the first side whose running total reaches the target wins, the
    higher running total when several reach it in the same category.
    """
    first = (Carte, Denari, Settebello, Primiera)
    pairs = list(zip(rules.scoring.components, score, strict=True))  # pragma: no mutate - one each
    ordered = [c for kind in first for component, c in pairs if type(component) is kind]
    ordered += [c for component, c in pairs if type(component) not in (*first, Scope)]
    ordered += [c for component, c in pairs if type(component) is Scope]
    running = list(before)
    for category in ordered:
        gained = zip(running, category.points, strict=True)  # pragma: no mutate - one per side
        running = [total + points for total, points in gained]
        reached = [side for side, total in enumerate(running) if total >= rules.target]
        if reached:
            best = max(running[side] for side in reached)
            top = [side for side in reached if running[side] == best]
            if len(top) == 1:
                return top[0]
    return None


def _leader(totals: tuple[int, ...], target: int) -> int | None:
    """The side at or above the target and strictly ahead of every other side."""
    top = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == top]
    return leaders[0] if top >= target and len(leaders) == 1 else None


# --------------------------------------------------------------------------- key moments

MomentKind = Literal["deal", "scopa", "end", "abandon"]
"""What a key moment of a match is."""


@attrs.frozen
class Moment:
    """A key moment of a match: a deal, a scopa, the end of a hand, or an abandonment."""

    kind: MomentKind
    """`"deal"`, `"scopa"`, `"end"` or `"abandon"`."""
    hand: int
    """The number of the hand, from 1."""
    state: GameState
    """The position: just dealt, just after the scopa, at the end, or when abandoned."""
    caption: str
    """A line that says what happens."""


def match_moments(match: Match) -> list[Moment]:
    """The key moments of a match, replayed from its records, in order.

    For each hand: the deal, every scopa, and the end with the hand's score (a hand whose
    record has no moves shows only its deal). The hand in progress is replayed from its
    deck and the current state's history; an abandonment ends the list.
    [`scopa.svg.match_svg`][scopa.svg.match_svg] draws them.

    Raises:
        TypeError: `match` is not a `Match`.
    """
    if not isinstance(match, Match):
        raise TypeError(f"the moments of a match need a Match, not {type(match).__name__}")
    rules = match.rules
    moments: list[Moment] = []
    totals = (0,) * rules.number_of_sides
    for record in match.hands:
        first = GameState.new(rules, deck=record.deck, dealer=record.dealer)
        replayed, last = _replay(record.number, first, record.history, totals)
        moments += replayed
        pairs = zip(totals, record.points, strict=True)  # pragma: no mutate - one per side
        totals = tuple(map(sum, pairs))
        if last.is_terminal:
            caption = (
                f"Hand {record.number} over: points {_dashed(record.points)}"
                f" · match {_dashed(totals)}"
            )
            moments.append(Moment("end", record.number, last, caption))
    state = match.state
    if not state.is_terminal:
        first = GameState.new(rules, deck=match.deck, dealer=state.dealer)
        moments += _replay(len(match.hands) + 1, first, state.history, totals)[0]
    gone = match.abandonment
    if gone is not None:
        caption = f"Hand {gone.hand}: player {gone.player} abandons ({gone.reason.value})"
        moments.append(Moment("abandon", gone.hand, state, caption))
    return moments


def _replay(
    number: int,
    state: GameState,
    history: Iterable[tuple[int, Move]],
    totals: Sequence[int],
) -> tuple[list[Moment], GameState]:
    """The deal and the scope of a hand replayed from its first state, and its last state."""
    caption = f"Hand {number}: player {state.dealer} deals · match {_dashed(totals)}"
    moments = [Moment("deal", number, state, caption)]
    for player, move in history:
        before = state.scope[player]
        state = state.apply(move)
        if state.scope[player] > before:
            caption = f"Hand {number}: scopa by player {player}{_side_note(state.rules, player)}"
            moments.append(Moment("scopa", number, state, caption))
    return moments, state


def _side_note(rules: Rules, player: int) -> str:
    """The side of a player, as `" (side A)"`, when players play in sides."""
    if rules.number_of_sides == rules.players:
        return ""
    return f" (side {chr(ord('A') + rules.side_of(player))})"


def _dashed(values: Sequence[int]) -> str:
    """Points of the sides, as `5–2`."""
    return "–".join(map(str, values))
