"""The position of one hand, and what one player sees of it.

A [`GameState`][scopa.GameState] knows every card: it deals, lists the legal moves, plays
them and scores the hand. A [`PlayerView`][scopa.PlayerView] ([`view`][scopa.view]) holds
what one player knows: their own hand and everything public (the table, each player's
captured cards and scope, the number of cards in every hand and in the stock, the dealer,
whose turn it is and the plays of the hand so far), and nothing else, so it cannot leak
another player's cards. The two share their structure and are built from each other (a
view from a state, a state consistent with a view by
[`PlayerView.resample`][scopa.PlayerView.resample]), which is why they live together.

Players are numbered from 0. Play goes counter-clockwise, which here means upwards:
after player `p` comes player `(p + 1) % players`. The player after the dealer (on the
dealer's right) leads every round, and the dealer plays last.

**Dealing order.** Cards are dealt from the front of the deck. At the first deal the leader
gets the first `hand_size` cards, the next player the following `hand_size`, and so on up to
the dealer; then `table_size` cards go face up to the table. Every later deal (when all hands
are empty) gives the next cards of the stock the same way, leader first. Under rules with
fewer cards in play ([`Rules.ranks`][scopa.Rules.ranks], [`Rules.suits`][scopa.Rules.suits]),
the deck's cards out of play are set aside first.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any, Final, cast

from scopa._checks import check_number, check_type, is_int, quote
from scopa._memo import remembered
from scopa._shuffle import accepted_order, in_play_order, misdealt
from scopa.cards import DECK, Card, Deck, format_cards, parse_cards, show_cards
from scopa.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    ScopaError,
)
from scopa.masks import RANK_MASKS, CardMask, cards_of, mask_of
from scopa.moves import Declaration, Move, generator_for
from scopa.moves import clear_caches as clear_move_caches
from scopa.rules import AceOnAce, CompulsoryCapture, FirstTable, Leftovers, Rules
from scopa.scoring import Captures, HandScore

__all__ = ["GameState", "PlayerView", "clear_caches", "view"]

_ACES: Final = RANK_MASKS[1]
_SHOWN_CHOICES: Final = 12  # the choices an ambiguous move's message lists


class _Play:
    """What the play of a hand needs to know of its rules, read once per rules value."""

    __slots__ = (
        "ace_sweep_no_scopa",
        "ace_takes_ace",
        "ace_to_pile",
        "claims",
        "declarations",
        "first_lead_rule",
        "generator",
        "hand_size",
        "leftovers",
        "matta",
        "players",
        "rules",
        "scopa_on_last_play",
        "zeros",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules: Final = rules
        self.players: Final = rules.players
        self.hand_size: Final = rules.hand_size
        self.generator: Final = generator_for(rules)
        self.first_lead_rule: Final = rules.ace_first_lead_forbidden
        self.scopa_on_last_play: Final = rules.scopa_on_last_play
        self.leftovers: Final = rules.leftovers
        self.ace_sweep_no_scopa: Final = rules.ace_captures_all and not rules.ace_sweep_is_scopa
        self.ace_takes_ace: Final = rules.ace_with_ace_on_table is not AceOnAce.TAKE_ALL
        self.ace_to_pile: Final = rules.ace_on_empty_table_captures_itself
        self.declarations: Final = rules.declarations
        self.claims: Final = rules.claim_out
        self.matta: Final = rules.matta
        self.zeros: Final = (0,) * rules.players


_NOBODY: Final = object()
"""`last_capturer` as a position's text gives it with "-": nobody."""
_PLAYS: Final[dict[Rules, _Play]] = {}
_PLAY_LIMIT: Final = 256


def _play_of(rules: Rules) -> _Play:
    """The play record of some rules (a bounded cache: rules are values, often the same)."""
    return remembered(_PLAYS, rules, lambda: _Play(rules), _PLAY_LIMIT)


def clear_caches() -> None:
    """Empty the library's caches: moves, move generators and rules read for play.

    They are bounded (a few tens of MB at most, whatever is played), so this is never
    needed for memory; it is there for measurements that start cold.
    """
    clear_move_caches()
    _PLAYS.clear()


class _Deal:
    """What every state of one deal shares.

    The rules (as read for play), the dealer, the stock order, and the plays before the
    deal's first state (which only a resampled state has).
    """

    __slots__ = ("dealer", "history", "play", "stock")

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        stock: tuple[int, ...],
        history: tuple[tuple[int, Move], ...] = (),
    ) -> None:
        self.play: Final = _play_of(rules)
        self.dealer: Final = dealer
        self.stock: Final = stock
        self.history = history


class _Visible:
    """What a position and a player's view both show (not public API)."""

    __slots__ = ()

    _table: int
    _piles: tuple[int, ...]
    _scope: tuple[int, ...]
    _to_move: int
    _last_capturer: int
    _revealed: tuple[int, ...]
    _declared: tuple[int, ...]

    @property
    def table(self) -> frozenset[Card]:
        """The cards face up on the table."""
        return frozenset(cards_of(self._table))

    @property
    def table_mask(self) -> CardMask:
        """The cards face up on the table, as a [mask][scopa.masks.CardMask]."""
        return CardMask(self._table)

    @property
    def pile_masks(self) -> tuple[CardMask, ...]:
        """The cards each player has captured, as masks."""
        return cast("tuple[CardMask, ...]", self._piles)

    @property
    def piles(self) -> tuple[frozenset[Card], ...]:
        """The cards each player has captured."""
        return tuple(frozenset(cards_of(p)) for p in self._piles)

    @property
    def scope(self) -> tuple[int, ...]:
        """The scope (sweeps) each player has made."""
        return self._scope

    @property
    def current_player(self) -> int | None:
        """The player to move, or `None` once the hand is over."""
        return None if self._to_move < 0 else self._to_move

    @property
    def last_capturer(self) -> int | None:
        """The last player who captured, or `None` if nobody has."""
        return None if self._last_capturer < 0 else self._last_capturer

    @property
    def revealed(self) -> tuple[frozenset[Card], ...]:
        """The cards of each player's hand that a declaration has shown (Cirulla).

        They stay in the hand, seen by everyone, until they are played.
        """
        return tuple(frozenset(cards_of(m)) for m in self._revealed)

    @property
    def revealed_masks(self) -> tuple[CardMask, ...]:
        """The cards a declaration showed, as masks."""
        return cast("tuple[CardMask, ...]", self._revealed)

    @property
    def declared(self) -> tuple[int, ...]:
        """The points each player has declared in the hand (Cirulla)."""
        return self._declared


class GameState(_Visible):
    """An immutable position of one hand. [`apply`][scopa.GameState.apply] returns a new state.

    Build one with [`GameState.new`][scopa.GameState.new] (a fresh deal) or
    [`GameState.from_position`][scopa.GameState.from_position] /
    [`GameState.from_text`][scopa.GameState.from_text] (any reachable position).

    Examples:
        >>> from scopa import find_variant
        >>> state = GameState.new(find_variant("classic"), seed=7)
        >>> while not state.is_terminal:
        ...     state = state.apply(state.legal_moves()[0])
        >>> sum(state.hand_score().points) >= 1
        True
    """

    __slots__ = (
        "_deal",
        "_declared",
        "_drawn",
        "_hands",
        "_last_capturer",
        "_leftovers",
        "_move",
        "_moves",
        "_parent",
        "_piles",
        "_plays",
        "_revealed",
        "_scope",
        "_table",
        "_to_move",
    )

    _deal: _Deal
    _drawn: int
    _hands: tuple[int, ...]
    _table: int
    _piles: tuple[int, ...]
    _scope: tuple[int, ...]
    _to_move: int
    _last_capturer: int
    _leftovers: int
    _moves: tuple[Move, ...] | None
    _parent: GameState | None
    _move: Move | None
    _plays: tuple[tuple[int, Move], ...] | None

    def __init__(
        self,
        deal: _Deal,
        drawn: int,
        hands: tuple[int, ...],
        table: int,
        piles: tuple[int, ...],
        scope: tuple[int, ...],
        to_move: int,
        last_capturer: int,
        declared: tuple[int, ...],
        revealed: tuple[int, ...],
        parent: GameState | None = None,
        move: Move | None = None,
        leftovers: int = 0,
    ) -> None:
        """A state from its parts: use the named constructors instead.

        The parts are the deal's shared record, how many stock cards have been dealt, the
        masks of the hands, the table and the piles, the scope, the player to move and the
        last capturer (-1 for none), the points declared and the masks of the cards shown
        by declarations, the state and move it comes from, and the mask of the cards left
        on the table after the last play of a finished hand.
        """
        self._deal = deal
        self._drawn = drawn
        self._hands = hands
        self._table = table
        self._piles = piles
        self._scope = scope
        self._to_move = to_move
        self._last_capturer = last_capturer
        self._declared = declared
        self._revealed = revealed
        self._moves = None
        self._parent = parent
        self._move = move
        self._plays = None
        self._leftovers = leftovers

    # ------------------------------------------------------------------ constructors

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        seed: int | None = None,
        deck: Deck | None = None,
        dealer: object = 0,
    ) -> GameState:
        """Deal a new hand, from a seed or an explicit deck order.

        With a seed, the deck is the first of [`Deck.shuffles(seed)`][scopa.Deck.shuffles]
        whose first table the misdeal rule accepts (an annulled deal is shuffled again by
        the same dealer). With neither seed nor deck, a seed is drawn from the operating
        system. Under rules with fewer cards in play (`ranks`, `suits`), the deck's cards
        out of play are set aside and the others dealt in the deck's order.

        Raises:
            InvalidStateError: the explicit deck's first table is annulled by the misdeal
                rule; both a seed and a deck are given; the dealer is not a player; the
                seed is not between 0 and 2**64 - 1.
            TypeError: `rules`, `deck` or `seed` has the wrong type.
        """
        check_type(rules, Rules, "rules")
        if seed is not None and deck is not None:
            raise InvalidArgumentError("give a seed or a deck, not both")
        dealt_by = _check_player(rules, dealer, "dealer")
        if deck is None:
            order, _ = accepted_order(rules, secrets.randbits(64) if seed is None else seed)
            return cls._dealt(rules, dealt_by, order)
        if not isinstance(deck, Deck):
            raise TypeError(f"deck must be a Deck, not {type(deck).__name__}")
        order = tuple(card.index for card in deck)
        if misdealt(rules, order):
            raise InvalidStateError(
                f"the deal {deck!s} is annulled by the misdeal rule {rules.misdeal.name}"
            )
        return cls._dealt(rules, dealt_by, order)

    @classmethod
    def _dealt(cls, rules: Rules, dealer: int, order: tuple[int, ...]) -> GameState:
        """The first state of a hand dealt from `order` (card indices)."""
        n = rules.players
        size = rules.hand_size
        table_end = n * size + rules.table_size
        order = in_play_order(rules, order)
        leader = (dealer + 1) % n
        blocks = [_mask(order[start : start + size]) for start in range(0, n * size, size)]
        deal = _Deal(rules, dealer, order[table_end:])
        zeros = deal.play.zeros
        table = _mask(order[n * size : table_end])
        piles = scope = zeros
        last = -1
        sweeps = _first_table_sweeps(rules, table)
        if sweeps:  # the first table adds up to 15 or 30: swept at once
            last = leader if rules.first_table_to_eldest else dealer
            piles = _with(zeros, last, table)
            scope = _with(zeros, last, sweeps)
            table = 0
        hands = tuple(blocks[(player - leader) % n] for player in range(n))
        return cls(deal, 0, hands, table, piles, scope, leader, last, zeros, zeros)

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        *,
        hands: Sequence[Iterable[Card]],
        table: Iterable[Card],
        stock: Iterable[Card],
        dealer: object,
        current_player: object = None,
        piles: Sequence[Iterable[Card]] | None = None,
        scope: Sequence[int] | None = None,
        last_capturer: object = None,
        declared: Sequence[int] | None = None,
        revealed: Sequence[Iterable[Card]] | None = None,
    ) -> GameState:
        """Build any position that play can reach.

        Args:
            rules: the rules.
            hands: each player's cards.
            table: the cards face up on the table.
            stock: the cards still to be dealt, in dealing order: the next deal gives the
                first `hand_size` cards to the player after the dealer, the next ones to the
                player after that, and so on up to the dealer.
            dealer: the player who dealt this hand.
            current_player: whose turn it is; by default the one the hand sizes imply
                (`None` for a finished hand).
            piles: the cards each player has captured; by default none.
            scope: the scope each player has made; by default none.
            last_capturer: the last player who captured; by default the only player with
                a non-empty pile, or `None` when nobody has captured.
            declared: the points each player has declared in the hand; by default none.
            revealed: the cards of each player's hand that a declaration showed; by default
                none.

        Raises:
            InvalidStateError: the position cannot be reached (duplicate or missing cards,
                wrong counts, a turn that does not match the hand sizes…).
        """
        n = rules.players
        dealt_by = _check_player(rules, dealer, "dealer", InvalidStateError)
        hand_masks = _masks(hands, n, "hands")
        pile_masks = _masks(piles, n, "piles") if piles is not None else (0,) * n
        table_mask = _masks([table], 1, "table")[0]
        stock_cards = tuple(stock)
        if not all(isinstance(c, Card) for c in stock_cards):
            raise InvalidStateError("stock must hold Cards")
        stock_mask = mask_of(stock_cards)
        scope_counts = _counts(scope, n, "scope")
        groups = [*hand_masks, table_mask, stock_mask, *pile_masks]
        seen = 0
        for group in groups:
            if seen & group:
                raise InvalidStateError(f"cards given twice: {show_cards(cards_of(seen & group))}")
            seen |= group
        if len(stock_cards) != stock_mask.bit_count():
            raise InvalidStateError("cards given twice in the stock")
        in_play = rules.in_play_mask
        if seen & ~in_play:
            out = show_cards(cards_of(seen & ~in_play))
            raise InvalidStateError(f"cards not in play under these rules: {out}")
        if seen != in_play:
            raise InvalidStateError(f"cards missing: {show_cards(cards_of(in_play ^ seen))}")
        per_deal = n * rules.hand_size
        most = rules.plays_per_hand - per_deal  # pragma: no mutate - one more reads the same
        if len(stock_cards) % per_deal or len(stock_cards) > most:
            raise InvalidStateError(
                f"a stock of {len(stock_cards)} cards is impossible with deals of {per_deal}"
            )
        turn = last = None
        if current_player is not None:
            turn = _check_player(rules, current_player, "current_player", InvalidStateError)
        if last_capturer is not None and last_capturer is not _NOBODY:
            last = _check_player(rules, last_capturer, "last_capturer", InvalidStateError)
        expected = _turn_from_sizes(rules, dealt_by, hand_masks, len(stock_cards))
        if turn is not None and turn != expected:
            raise InvalidStateError(
                f"with these hand sizes it is player {expected}'s turn, not {turn}"
            )
        pile_scope = zip(pile_masks, scope_counts, strict=True)  # pragma: no mutate - checked
        for player, (pile, made) in enumerate(pile_scope):
            if 2 * made > pile.bit_count():
                raise InvalidStateError(
                    f"player {player} cannot have {made} scope with {pile.bit_count()} cards"
                )
        capturers = [p for p in range(n) if pile_masks[p]]
        # "-" in a position's text: nobody captured, although the dealer's pile may hold the
        # leftovers of a finished hand (Leftovers.DEALER); otherwise read as not given
        nobody = (
            last_capturer is _NOBODY
            and capturers == [dealt_by]
            and expected is None
            and rules.leftovers is Leftovers.DEALER
        )
        if nobody:
            pass
        elif last is None:
            if len(capturers) > 1:
                raise InvalidStateError("several players have captured: give last_capturer")
            last = capturers[0] if capturers else None
        elif last not in capturers:
            raise InvalidStateError(f"last_capturer {last} has captured nothing")
        taken = rules.leftovers is Leftovers.DEALER or (
            rules.leftovers is Leftovers.LAST_CAPTURER and capturers
        )
        if expected is None and table_mask and taken:
            raise InvalidStateError("a finished hand has no cards left on the table")
        declared_points = _counts(declared, n, "declared")
        revealed_masks = _masks(revealed, n, "revealed") if revealed is not None else (0,) * n
        if (any(declared_points) or any(revealed_masks)) and not rules.declarations:
            raise InvalidStateError("these rules have no declarations")
        shown_and_held = zip(revealed_masks, hand_masks, strict=True)  # pragma: no mutate - n each
        for player, (shown, held) in enumerate(shown_and_held):
            if shown & ~held:
                raise InvalidStateError(f"player {player} shows cards they do not hold")
        return cls(
            _Deal(rules, dealt_by, tuple(card.index for card in stock_cards)),
            0,
            hand_masks,
            table_mask,
            pile_masks,
            scope_counts,
            -1 if expected is None else expected,
            -1 if last is None else last,
            declared_points,
            revealed_masks,
            leftovers=table_mask if expected is None else 0,
        )

    @classmethod
    def from_text(cls, rules: Rules, text: str) -> GameState:
        """Read a position written by [`to_text`][scopa.GameState.to_text].

        Raises:
            NotationError: the text cannot be read.
            InvalidStateError: the position it describes cannot be reached.
            TypeError: `text` is not a string.
        """
        if not isinstance(text, str):
            raise TypeError(f"a position must be text, not {type(text).__name__}")
        fields = text.split()
        count = 10 if rules.declarations else 8
        if len(fields) != count:
            raise NotationError(f"a position has {count} fields, {len(fields)} in {quote(text)}")
        hands, table, stock, piles, scope, dealer, current, last = fields[:8]
        declared = revealed = None
        if rules.declarations:
            declared, revealed = fields[8:]
        n = rules.players

        def per_player(field: str, what: str) -> list[str]:
            parts = field.split("/")
            if len(parts) != n:
                raise NotationError(f"{what} needs {n} parts separated by '/', got {quote(field)}")
            return parts

        def number(field: str, what: str) -> int | None:
            if field == "-":
                return None
            if not _is_number(field):
                raise NotationError(f"{what} must be a player number or '-', got {quote(field)}")
            return int(field)

        dealer_number = number(dealer, "dealer")
        if dealer_number is None:
            raise NotationError("the dealer cannot be '-'")
        to_move = number(current, "current player")
        state = cls.from_position(
            rules,
            hands=[parse_cards(h, "hand") for h in per_player(hands, "hands")],
            table=parse_cards(table, "table"),
            stock=parse_cards(stock, "stock"),
            piles=[parse_cards(p, "pile") for p in per_player(piles, "piles")],
            scope=[_count(s) for s in per_player(scope, "scope")],
            dealer=dealer_number,
            current_player=to_move,
            last_capturer=_NOBODY if last == "-" else number(last, "last capturer"),
            declared=None
            if declared is None
            else [_count(s) for s in per_player(declared, "declared")],
            revealed=None
            if revealed is None
            else [parse_cards(r, "revealed") for r in per_player(revealed, "revealed")],
        )
        if to_move is None and state._to_move >= 0:
            raise InvalidStateError(
                f"the current player is '-' (the hand is over), but it is player "
                f"{state._to_move}'s turn"
            )
        return state

    # ------------------------------------------------------------------ reading the position

    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
        return self._deal.play.rules

    @property
    def dealer(self) -> int:
        """The player who dealt this hand."""
        return self._deal.dealer

    @property
    def hands(self) -> tuple[frozenset[Card], ...]:
        """Each player's cards."""
        return tuple(frozenset(cards_of(h)) for h in self._hands)

    @property
    def hand_masks(self) -> tuple[CardMask, ...]:
        """Each player's cards, as masks."""
        return cast("tuple[CardMask, ...]", self._hands)

    def _stock_left(self) -> int:
        """How many cards are left in the stock."""
        return len(self._deal.stock) - self._drawn

    def _playable(self, hand: int) -> int:
        """The cards of `hand` that the first-lead rule lets its holder play now."""
        in_hands = sum(h.bit_count() for h in self._hands)
        return _playable_cards(self.rules, hand, in_hands, self._stock_left())

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still to be dealt, in dealing order."""
        return tuple(DECK[i] for i in self._deal.stock[self._drawn :])

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over (every card has been played)."""
        return self._to_move < 0

    @property
    def history(self) -> tuple[tuple[int, Move], ...]:
        """The plays of this hand so far, as `(player, move)` pairs, oldest first.

        A state built by `from_position` or `from_text` starts a history of its own (its
        earlier plays are unknown); copies and pickles keep the history.
        """
        plays = self._plays
        if plays is None:  # worked out once, from the parent's (itself worked out once)
            parent = self._parent
            if parent is None or self._move is None:
                plays = self._deal.history
            else:
                plays = (*parent.history, (parent._to_move, self._move))
            self._plays = plays
        return plays

    @property
    def key(self) -> tuple[int, ...]:
        """A stable, hashable key of the position (the same in every process and version).

        Two states of the same rules are equal exactly when their keys are equal.
        """
        key = (
            self._deal.dealer,
            self._to_move,
            self._last_capturer,
            self._table,
            *self._hands,
            *self._piles,
            *self._scope,
            *self._deal.stock[self._drawn :],
        )
        if self._deal.play.declarations:
            key += (*self._declared, *self._revealed)
        return key

    # ------------------------------------------------------------------ playing

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, one per distinct capture choice, in a fixed order.

        The order: card by card in index order (`DECK` order); for each card, laying it
        down first (when legal), then the captures of one card in index order, then the
        captures of several cards in increasing order of their ranks (read as a set of
        ranks, bit r - 1 for rank r) and then of their cards, then the captures to fifteen
        in the same way. Under rules with declarations, the same moves follow with each
        declaration the hand allows, at a player's first play of a deal; with `claim_out`,
        every move then follows again as a claim. The result is computed once per state.
        Empty when the hand is over.
        """
        moves = self._moves
        if moves is None:
            if self._to_move < 0:
                moves = ()
            else:
                play = self._deal.play
                hand = self._hands[self._to_move]
                if play.first_lead_rule:
                    hand = self._playable(hand)
                generator = play.generator
                if generator._only_captures:  # pragma: no mutate - the same moves either way
                    found = generator._captures(hand, self._table)
                else:
                    found = generator.moves(hand, self._table)
                if play.declarations or play.claims:
                    found = _announced(play, found, self._hands[self._to_move])
                moves = tuple(found)
            self._moves = moves
        return moves

    def apply(self, move: object) -> GameState:
        """The state after `move`; this state is unchanged.

        The move is compared with the legal moves by its card and captures, and the legal
        move is played.

        Args:
            move: a [`Move`][scopa.Move]; read text with
                [`parse_move`][scopa.GameState.parse_move] first.

        Raises:
            IllegalMoveError: the move is not legal here (the message says why).
            TypeError: `move` is not a `Move` (for text, the message suggests `parse_move`).
        """
        moves = self._moves  # pragma: no mutate - legal_moves() computes them when unknown
        if moves is None:
            moves = self.legal_moves()
        for played in moves:
            if played is move:
                break
        else:
            played = self._legal_move_equal_to(move)
        deal = self._deal
        play = deal.play
        player = self._to_move
        bit = played._card_mask  # moves and states are one unit: their slots are read directly
        take = played._captured_mask
        hands = list(self._hands)
        hands[player] ^= bit
        declared = self._declared
        revealed = self._revealed
        if play.declarations:
            declaration = played.declaration
            if declaration is not None:  # the rest of the hand is shown
                declared = _with(declared, player, declared[player] + declaration.points)
                revealed = _with(revealed, player, hands[player])
            elif revealed[player] & bit:
                revealed = _with(revealed, player, revealed[player] ^ bit)
        table = self._table
        piles = self._piles
        scope = self._scope
        last = self._last_capturer
        drawn = self._drawn
        final = False  # pragma: no mutate - None reads the same
        if player == deal.dealer and not hands[player]:
            if drawn < len(deal.stock):
                drawn = _deal_round(deal, hands, drawn)
            else:
                final = True
        if take:
            table ^= take
            piles = _with(piles, player, piles[player] | take | bit)
            if (
                not table
                and (not final or play.scopa_on_last_play)
                and not (
                    play.ace_sweep_no_scopa
                    and bit & _ACES
                    and not (play.ace_takes_ace and take & _ACES)
                )
            ):
                scope = _with(scope, player, scope[player] + 1)
            last = player
        elif play.ace_to_pile and not table and bit & _ACES:
            piles = _with(piles, player, piles[player] | bit)
            last = player
        else:
            table |= bit
        left = 0
        if final:
            left = table
            taker = -1
            if play.leftovers is Leftovers.LAST_CAPTURER:
                taker = last
            elif play.leftovers is Leftovers.DEALER:
                taker = deal.dealer
            if table and taker >= 0:
                piles = _with(piles, taker, piles[taker] | table)
                table = 0
            player = -1
        else:
            player = (player + 1) % play.players
        return GameState(
            deal,
            drawn,
            tuple(hands),
            table,
            piles,
            scope,
            player,
            last,
            declared,
            revealed,
            self,
            played,
            left,
        )

    def _legal_move_equal_to(self, move: object) -> Move:
        """The legal move equal to `move`: the same card, captures, declaration and claim."""
        if isinstance(move, str):
            raise TypeError(
                f"a move must be a Move, not text: read it with state.parse_move({quote(move, 20)})"
            )
        if not isinstance(move, Move):
            raise TypeError(f"a move must be a Move, not {type(move).__name__}")
        key = move.key
        for legal in self.legal_moves():
            if legal.key == key:
                return legal
        raise IllegalMoveError(self._why_illegal(move))

    def parse_move(self, text: str) -> Move:
        """Read a move in this position, allowing the short form that names only the card.

        The full form (`7Dx3C+4S`, or `7D` for laying the card down) is read as written. When
        the card alone is written and laying it down is not legal, it means the card's only
        capture.

        Raises:
            NotationError: the text is not a move.
            IllegalMoveError: the move is not legal here.
            AmbiguousMoveError: the card alone matches several captures.
        """
        move = Move.parse(text)
        moves = self.legal_moves()
        for legal in moves:
            if legal.key == move.key:
                return legal
        options = [m for m in moves if m.card == move.card]
        if move.captured or not options:
            raise IllegalMoveError(self._why_illegal(move))
        if len(options) == 1:
            return options[0]
        choices = ", ".join(map(str, options[:_SHOWN_CHOICES]))
        if len(options) > _SHOWN_CHOICES:
            choices += f" and {len(options) - _SHOWN_CHOICES} more"
        table = show_cards(cards_of(self._table))
        raise AmbiguousMoveError(
            f"{quote(text)} is ambiguous with table {table}: it may be {choices}"
        )

    def hand_score(self) -> HandScore:
        """The score of the cards captured so far by each side; final once the hand is over.

        A side's captures and scope are those of its players together.
        """
        return _score_captures(self._deal.play.rules, self._piles, self._scope, self._declared)

    @property
    def leftover_cards(self) -> frozenset[Card]:
        """The cards left on the table after the last play of the hand, once it is over.

        The rules' [`leftovers`][scopa.Rules.leftovers] say who takes them
        ([`leftovers_taken_by`][scopa.GameState.leftovers_taken_by]); none before the end of
        the hand. Of a finished hand built by `from_position` or `from_text`, only those
        still on the table are known.
        """
        return frozenset(cards_of(self._leftovers))

    @property
    def leftovers_taken_by(self) -> int | None:
        """The player who took the leftover cards into their pile at the end of the hand.

        The cards are [`leftover_cards`][scopa.GameState.leftover_cards]; `None` when nobody
        took them: no card was left, they stay on the table (by the rules, or because nobody
        captured), or the hand is not over.
        """
        if not self._leftovers or self._table:
            return None
        if self._deal.play.leftovers is Leftovers.DEALER:
            return self._deal.dealer
        return self._last_capturer

    def guaranteed_points(self) -> tuple[int, ...]:
        """The points each side is sure of in this hand, whoever takes the cards left.

        Scope made, the settebello taken, more cards or denari than any other side could
        still reach, a primiera no other side could beat, declarations and bonus runs made;
        once the hand is over, its points. It decides a claim under `claim_out`.
        """
        rules = self._deal.play.rules
        if self._to_move < 0:
            return self.hand_score().points
        captures = _captures(rules, self._piles, self._scope, self._declared)
        taken = 0
        for pile in self._piles:
            taken |= pile
        return rules.scoring.guaranteed(captures, frozenset(cards_of(rules.in_play_mask & ~taken)))

    # ------------------------------------------------------------------ text and values

    def to_text(self) -> str:
        """The position as one line of text, read back by [`from_text`][scopa.GameState.from_text].

        Eight fields separated by spaces: hands, table, stock (in dealing order), piles,
        scope, dealer, current player, last capturer; under rules with declarations, two more:
        the points declared and the cards declarations showed. Per-player fields are joined by
        `/`; cards are written one after the other (`7D3C10B`); `-` stands for none.
        """
        fields = [
            "/".join(format_cards(cards_of(h)) for h in self._hands),
            format_cards(cards_of(self._table)),
            format_cards(self.stock),
            "/".join(format_cards(cards_of(p)) for p in self._piles),
            "/".join(map(str, self._scope)),
            str(self._deal.dealer),
            "-" if self._to_move < 0 else str(self._to_move),
            "-" if self._last_capturer < 0 else str(self._last_capturer),
        ]
        if self._deal.play.declarations:
            fields.append("/".join(map(str, self._declared)))
            fields.append("/".join(format_cards(cards_of(m)) for m in self._revealed))
        return " ".join(fields)

    def __str__(self) -> str:
        """The position as a text picture for terminals (see `scopa.board.state_text`)."""
        from scopa.board import state_text

        return state_text(self)

    def _repr_svg_(self) -> str:
        """The position as a picture, for Jupyter (see `scopa.svg.state_svg`)."""
        from scopa.svg import state_svg

        return state_svg(self)

    def __repr__(self) -> str:
        return f"GameState.from_text({self.rules!r}, {self.to_text()!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GameState):
            return self.key == other.key and self.rules == other.rules
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.rules, self.to_text(), self.history, self._leftovers))

    def _why_illegal(self, move: Move) -> str:
        # only public information: an error message may be shown to any player
        where = f"with table {show_cards(cards_of(self._table))}"
        player = self._to_move
        if player < 0:
            return f"illegal move '{move}' {where}: the hand is over"
        if not self._hands[player] >> move.card.index & 1:
            return f"illegal move '{move}' {where}: {move.card} is not in player {player}'s hand"
        if move.captured_mask & ~self._table:
            missing = show_cards(cards_of(move.captured_mask & ~self._table))
            return f"illegal move '{move}' {where}: {missing} not on the table"
        options = [str(m) for m in self.legal_moves() if m.card == move.card]
        if options:
            return (
                f"illegal move '{move}' {where}: {move.card} may only play as {', '.join(options)}"
            )
        first_lead = self.rules.ace_first_lead_forbidden and move.card.rank == 1
        if first_lead and not self._playable(self._hands[player]) >> move.card.index & 1:
            return f"illegal move '{move}' {where}: the first play of a hand may not be an Ace"
        return (
            f"illegal move '{move}' {where}: {move.card} cannot capture, "
            f"and a card that can capture must be played"
        )


def _restore(
    rules: Rules, text: str, history: tuple[tuple[int, Move], ...], leftovers: int = 0
) -> GameState:
    """Unpickle a state: its position, the plays of its hand so far, and its leftovers."""
    state = GameState.from_text(rules, text)
    state._deal.history = history
    state._leftovers = leftovers
    return state


def _announced(play: _Play, moves: list[Move], hand: int) -> list[Move]:
    """The moves with the declarations the hand allows and the claims the rules allow.

    Each move is followed by its announced forms, so that the moves stay in card order.
    """
    declarations: list[Declaration | None] = [None]
    if play.declarations and hand.bit_count() == play.hand_size:
        cards = cards_of(hand)
        declarations += [d for d in Declaration if d.allows(cards, play.matta)]
    claims = (False, True) if play.claims else (False,)
    if len(declarations) == 1 and len(claims) == 1:
        return moves
    return [
        # a plain move stays as it is (announcing nothing gives an equal move)
        move.announced(declaration, claim=claim)  # pragma: no mutate
        if declaration or claim
        else move
        for move in moves
        for declaration in declarations
        for claim in claims
    ]


def _score_captures(
    rules: Rules, piles: tuple[int, ...], scope: tuple[int, ...], declared: tuple[int, ...]
) -> HandScore:
    """Score the players' captures (masks), scope and declarations, pooled by side."""
    return rules.scoring.score(_captures(rules, piles, scope, declared))


def _captures(
    rules: Rules, piles: tuple[int, ...], scope: tuple[int, ...], declared: tuple[int, ...]
) -> Captures:
    """The players' captures (masks), scope and declarations, pooled by side."""
    sides = rules.number_of_sides
    side_piles = [0] * sides
    side_scope = [0] * sides
    side_declared = [0] * sides
    for player in range(rules.players):
        side_piles[player % sides] |= piles[player]
        side_scope[player % sides] += scope[player]
        side_declared[player % sides] += declared[player]
    return Captures(
        tuple(frozenset(cards_of(p)) for p in side_piles),
        tuple(side_scope),
        tuple(side_declared),
        rules.suits,
    )


def _playable_cards(rules: Rules, hand: int, in_hands: int, stock: int) -> int:
    """The cards of `hand` that may be played under `ace_first_lead_forbidden`.

    At the first play of a hand (every hand full, nothing played) the Aces are set aside
    unless the player holds nothing else; the other capture rules then apply to the rest.
    """
    first = in_hands == rules.players * rules.hand_size and in_hands + stock == rules.plays_per_hand
    return hand & ~_ACES if first and hand & ~_ACES else hand


def _deal_round(deal: _Deal, hands: list[int], drawn: int) -> int:
    """Deal the next round from the stock into `hands`, leader first; the new stock position."""
    n = deal.play.players
    size = deal.play.hand_size
    stock = deal.stock
    for offset in range(1, n + 1):
        mask = 0
        for position in range(drawn, drawn + size):
            mask |= 1 << stock[position]
        hands[(deal.dealer + offset) % n] = mask
        drawn += size
    return drawn


def _mask(indices: Iterable[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _check_player(
    rules: Rules, player: object, what: str, error: type[ScopaError] = InvalidArgumentError
) -> int:
    return check_number(player, rules.players, what, error)


def _masks(groups: Sequence[Iterable[Card]] | Any, n: int, what: str) -> tuple[int, ...]:
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Sequence) or len(groups) != n:
        raise InvalidStateError(f"{what} must be a sequence of {n} groups of cards")
    masks = []
    for group in groups:
        cards = tuple(group)
        if not all(isinstance(c, Card) for c in cards):
            raise InvalidStateError(f"{what} must hold Cards, got {quote(cards)}")
        mask = mask_of(cards)
        if mask.bit_count() != len(cards):
            raise InvalidStateError(f"a card is given twice in {what}")
        masks.append(mask)
    return tuple(masks)


def _counts(values: Sequence[int] | None, n: int, what: str) -> tuple[int, ...]:
    """`n` non-negative counts, one per player (none given: zeros)."""
    counts = tuple(values) if values is not None else (0,) * n
    if len(counts) != n or not all(is_int(v) and v >= 0 for v in counts):
        raise InvalidStateError(f"{what} must be {n} non-negative ints, not {quote(values)}")
    return counts


def _with(values: tuple[int, ...], player: int, value: int) -> tuple[int, ...]:
    """`values` with the player's entry replaced."""
    if len(values) == 2:  # two players, the most common: built directly
        return (value, values[1]) if player == 0 else (values[0], value)
    changed = list(values)
    changed[player] = value
    return tuple(changed)


def _first_table_sweeps(rules: Rules, table: int) -> int:
    """How many scope a first table is worth at once under `first_table` (0, 1 or 2)."""
    if rules.first_table is FirstTable.NOTHING or not table:
        return 0
    cards = cards_of(table)
    matta = rules.matta if rules.matta in cards else None
    plain = [card.value for card in cards if card != matta]
    # the matta may stand for any value from 1 to 10
    readings = [[*plain, value] for value in range(1, 11)] if matta is not None else [plain]
    for wanted in (30, 15):
        for values in readings:
            if sum(values) != wanted:
                continue
            if wanted == 15:
                return 1
            if rules.first_table is FirstTable.TOTAL or _splits_into_fifteens(values):
                return 2
    return 0


def _splits_into_fifteens(values: list[int]) -> bool:
    """Whether values adding up to 30 split into two groups of 15."""
    return any(
        sum(values[i] for i in range(len(values)) if chosen >> i & 1) == 15  # pragma: no mutate
        for chosen in range(1, 1 << len(values))  # pragma: no mutate - a group or its complement
    )


def _turn_from_sizes(rules: Rules, dealer: int, hands: tuple[int, ...], stock: int) -> int | None:
    """Whose turn the hand sizes imply, or `None` for a finished hand."""
    n = rules.players
    order = [(dealer + offset) % n for offset in range(1, n + 1)]
    sizes = [hands[p].bit_count() for p in order]
    if not any(sizes):
        if stock:
            raise InvalidStateError("every hand is empty but the stock is not: deal the next cards")
        return None
    top = sizes[-1]  # the last player of the round has played least
    played = sum(1 for s in sizes if s == top - 1)
    if top > rules.hand_size or sizes != [top - 1] * played + [top] * (n - played):
        raise InvalidStateError(
            f"hand sizes {[hands[p].bit_count() for p in range(n)]} do not fit a round "
            f"of {rules.hand_size}-card hands led by player {order[0]}"
        )
    return order[played]


def _is_number(text: str) -> bool:
    """Whether `text` is a small number in ASCII digits (no other digits, no huge numbers)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _count(text: str) -> int:
    if not _is_number(text):
        raise NotationError(f"a scope count must be a number, got {quote(text)}")
    return int(text)


# --------------------------------------------------------------------------- views


class PlayerView(_Visible):
    """An immutable view of a hand from one player's seat. Build it with [`view`][scopa.view]."""

    __slots__ = (
        "_dealer",
        "_declared",
        "_hand",
        "_hand_sizes",
        "_history",
        "_last_capturer",
        "_piles",
        "_revealed",
        "_rules",
        "_scope",
        "_stock_size",
        "_table",
        "_to_move",
        "_viewer",
    )

    def __init__(
        self,
        rules: Rules,
        viewer: int,
        dealer: int,
        to_move: int,
        last_capturer: int,
        hand: int,
        table: int,
        piles: tuple[int, ...],
        scope: tuple[int, ...],
        hand_sizes: tuple[int, ...],
        stock_size: int,
        history: tuple[tuple[int, Move], ...],
        declared: tuple[int, ...],
        revealed: tuple[int, ...],
    ) -> None:
        """A view from its parts: use [`view`][scopa.view] instead."""
        self._rules = rules
        self._viewer = viewer
        self._dealer = dealer
        self._to_move = to_move
        self._last_capturer = last_capturer
        self._hand = hand
        self._table = table
        self._piles = piles
        self._scope = scope
        self._hand_sizes = hand_sizes
        self._stock_size = stock_size
        self._history = history
        self._declared = declared
        self._revealed = revealed

    def __reduce__(self) -> tuple[Any, ...]:
        return PlayerView, tuple(getattr(self, name) for name in _VIEW_PARTS)

    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
        return self._rules

    @property
    def player(self) -> int:
        """The player whose view this is."""
        return self._viewer

    @property
    def dealer(self) -> int:
        """The dealer of the hand."""
        return self._dealer

    @property
    def hand(self) -> frozenset[Card]:
        """The player's own cards."""
        return frozenset(cards_of(self._hand))

    @property
    def hand_mask(self) -> CardMask:
        """The player's own cards, as a [mask][scopa.masks.CardMask]."""
        return CardMask(self._hand)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each player holds."""
        return self._hand_sizes

    @property
    def stock_size(self) -> int:
        """How many cards are still to be dealt."""
        return self._stock_size

    @property
    def history(self) -> tuple[tuple[int, Move], ...]:
        """The plays of the hand seen so far, as `(player, move)` pairs."""
        return self._history

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards this player has not seen: the other hands and the stock.

        Cards a declaration showed are seen; cards out of play are never among them.
        """
        return frozenset(cards_of(self._rules.in_play_mask & ~self._seen()))

    @property
    def key(self) -> tuple[int, ...]:
        """A stable, hashable information-set key (the same in every process and version).

        Two states give the same key for a player exactly when that player cannot tell them
        apart, including the order of the plays seen.
        """
        key = (
            self._viewer,
            self._dealer,
            self._to_move,
            self._last_capturer,
            self._hand,
            self._table,
            self._stock_size,
            *self._piles,
            *self._scope,
            *self._hand_sizes,
        )
        if self._rules.declarations:
            key += (*self._declared, *self._revealed)
        return (*key, *(player << 50 | move.key for player, move in self._history))

    def hand_score(self) -> HandScore:
        """The score of the cards captured so far (everything it uses is public).

        The same as the state's [`hand_score`][scopa.GameState.hand_score].
        """
        return _score_captures(self._rules, self._piles, self._scope, self._declared)

    def legal_moves(self) -> tuple[Move, ...]:
        """The player's legal moves when it is their turn (otherwise none)."""
        if self._to_move != self._viewer:
            return ()
        rules = self._rules
        play = _play_of(rules)
        hand = self._hand
        if rules.ace_first_lead_forbidden:
            hand = _playable_cards(rules, hand, sum(self._hand_sizes), self._stock_size)
        found = play.generator.moves(hand, self._table)
        if play.declarations or play.claims:
            found = _announced(play, found, self._hand)
        return tuple(found)

    def resample(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, drawn uniformly with `rng`.

        The player's hand, the table, the piles, the scope, the turn and the history stay as
        they are, and so do the cards a declaration showed; the cards the player cannot see
        are dealt to the other hands (at their current sizes) and to the stock, uniformly
        among the deals that agree with every play seen. Two rules make a play tell
        something of the rest of a hand: under `CompulsoryCapture.CAPTURING_CARD` a player
        who lays a card down holds no card that captures, and under
        `ace_first_lead_forbidden` an Ace played first shows a hand of Aces. Under other
        rules every unseen card is equally likely to be anywhere.

        When plays tell something, the hand of the player they limit most is drawn from the
        cards that player may hold, and the other hands from the rest, until every hand
        agrees with the plays: an exact draw, at the first try when one player's plays tell
        something. Only when several players' do (three players or more) may a draw fail;
        after 1000 that fail, the limited hands are dealt by matching each player with cards
        they may hold, taken in a random order: a deal that agrees with every play, though
        not drawn exactly uniformly.
        """
        unseen = [card.index for card in cards_of(self._rules.in_play_mask & ~self._seen())]
        hands, stock = self._deal_hidden(unseen, self._hidden_hand_limits(unseen), rng)
        deal = _Deal(self._rules, self._dealer, tuple(stock), self._history)
        return GameState(
            deal,
            0,
            hands,
            self._table,
            self._piles,
            self._scope,
            self._to_move,
            self._last_capturer,
            self._declared,
            self._revealed,
        )

    def _hidden_hand_limits(self, unseen: list[int]) -> dict[int, int]:
        """The unseen cards each other player may hold, by what their plays of this deal show.

        Only the players whose plays show something are listed. The cards of a hand are all
        played by the end of its deal, so only the plays of the current deal matter; the
        table each was played on is found by undoing the plays from the last one back.
        """
        rules = self._rules
        capturing_first = rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
        if not (capturing_first or rules.ace_first_lead_forbidden) or self._to_move < 0:
            return {}
        in_hands = sum(self._hand_sizes)
        played = rules.plays_per_hand - in_hands - self._stock_size  # in the whole hand
        history = self._history
        this_deal = min(rules.players * rules.hand_size - in_hands, len(history))
        generator = _play_of(rules).generator
        hidden = _mask(unseen)
        limits: dict[int, int] = {}
        table = self._table
        for position in range(len(history) - 1, len(history) - 1 - this_deal, -1):
            player, move = history[position]
            table = (table | move.captured_mask) & ~move.card_mask  # the table before it
            if player == self._viewer:
                continue
            limit = candidates = hidden
            if rules.ace_first_lead_forbidden and played - len(history) + position == 0:
                if move.card_mask & _ACES:
                    limit = hidden & _ACES  # an Ace may lead only from a hand of Aces
                else:
                    candidates = hidden & ~_ACES  # the Aces were set aside
            if capturing_first and not move.captured_mask:
                for option in generator.moves(candidates, table):
                    if option.captured_mask:  # that card could have captured
                        limit &= ~option.card_mask
            if limit != hidden:
                limits[player] = limits.get(player, hidden) & limit
        return limits

    def _deal_hidden(
        self, unseen: list[int], limits: dict[int, int], rng: random.Random
    ) -> tuple[tuple[int, ...], list[int]]:
        """The hands of the players and the stock, dealt from `unseen` within the `limits`."""
        sizes = self._hidden_sizes()
        # Drawing the most limited hand first only makes a deal within the limits likelier:
        # every deal is checked.
        # pragma: no mutate start
        most_limited = min(limits, key=lambda p: limits[p].bit_count() - sizes[p], default=None)
        # pragma: no mutate end
        for _ in range(_RESAMPLE_TRIES):
            drawn = {}
            if most_limited is not None:
                # pragma: no mutate start
                allowed = [card for card in unseen if limits[most_limited] >> card & 1]
                # pragma: no mutate end
                drawn[most_limited] = rng.sample(allowed, sizes[most_limited])
            hands, stock = self._deal_around(drawn, unseen, rng)
            if all(not hands[player] & ~limit for player, limit in limits.items()):
                return hands, stock
        return self._deal_around(_matched_hands(unseen, limits, sizes, rng), unseen, rng)

    def _hidden_sizes(self) -> tuple[int, ...]:
        """How many cards of each hand are hidden: those no declaration showed."""
        pairs = zip(self._hand_sizes, self._revealed, strict=True)  # pragma: no mutate - n each
        return tuple(size - shown.bit_count() for size, shown in pairs)

    def _deal_around(
        self, drawn: dict[int, list[int]], unseen: list[int], rng: random.Random
    ) -> tuple[tuple[int, ...], list[int]]:
        """The hands of the players and the stock around some hands already `drawn`.

        The other unseen cards are shuffled and dealt to the other hands in player order,
        beside the cards their declarations showed; the rest, in that order, is the stock.
        """
        taken = _mask(card for hand in drawn.values() for card in hand)
        rest = [card for card in unseen if not taken >> card & 1]
        draw = rng.random
        for i in range(len(rest) - 1, 0, -1):  # Fisher–Yates (rng.shuffle is slower)
            j = int(draw() * (i + 1))
            rest[i], rest[j] = rest[j], rest[i]
        hands = []
        position = 0
        for player, size in enumerate(self._hidden_sizes()):
            shown = self._revealed[player]
            if player == self._viewer:
                hands.append(self._hand)
            elif player in drawn:
                hands.append(shown | _mask(drawn[player]))
            else:
                hands.append(shown | _mask(rest[position : position + size]))
                position += size
        return tuple(hands), rest[position:]

    def _seen(self) -> int:
        seen = self._hand | self._table
        for pile in self._piles:
            seen |= pile
        for shown in self._revealed:
            seen |= shown
        return seen

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PlayerView):
            return self.key == other.key and self._rules == other._rules
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return (
            f"<PlayerView of player {self._viewer}: hand {show_cards(cards_of(self._hand))}"
            f" table {show_cards(cards_of(self._table))}>"
        )


# The parts of a view, in the order PlayerView() takes them.
_VIEW_PARTS: Final = (
    "_rules",
    "_viewer",
    "_dealer",
    "_to_move",
    "_last_capturer",
    "_hand",
    "_table",
    "_piles",
    "_scope",
    "_hand_sizes",
    "_stock_size",
    "_history",
    "_declared",
    "_revealed",
)
_RESAMPLE_TRIES: Final = 1000  # draws before PlayerView.resample deals by matching


def _matched_hands(
    unseen: list[int], limits: dict[int, int], sizes: tuple[int, ...], rng: random.Random
) -> dict[int, list[int]]:
    """Hands for the limited players, each within its limit, by augmenting paths.

    The cards are tried in a random order. A deal exists (the real one), so every hand is
    filled: a card already given is passed on when its holder can take another instead.
    """
    order = list(unseen)
    rng.shuffle(order)
    holder: dict[int, int] = {}

    def give(player: int, tried: set[int]) -> bool:
        for card in order:
            if limits[player] >> card & 1 and card not in tried:
                tried.add(card)
                if card not in holder or give(holder[card], tried):
                    holder[card] = player
                    return True
        return False

    for player in limits:
        for _ in range(sizes[player]):
            give(player, set())
    hands: dict[int, list[int]] = {player: [] for player in limits}
    for card, player in holder.items():
        hands[player].append(card)
    return hands


def view(state: GameState, player: int | None = None) -> PlayerView:
    """The view of `state` from `player`'s seat (by default the player to move).

    Examples:
        >>> import random
        >>> from scopa import find_variant
        >>> state = GameState.new(find_variant("classic"), seed=1)
        >>> mine = view(state, 0)
        >>> len(mine.hand), mine.hand_sizes, mine.stock_size
        (3, (3, 3), 30)
        >>> world = mine.resample(random.Random(7))
        >>> view(world, 0) == mine
        True

    Raises:
        InvalidArgumentError: `player` is not a player of the hand.
        TypeError: `state` is not a `GameState`, or `player` is not an int.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"a view is of a GameState, not {type(state).__name__}")
    rules = state.rules
    if player is None:
        player = max(state._to_move, 0)  # the player to move; 0 once the hand is over
    viewer = check_number(player, rules.players, "player", InvalidArgumentError)
    hands = state._hands
    return PlayerView(
        rules,
        viewer,
        state.dealer,
        state._to_move,
        state._last_capturer,
        hands[viewer],
        state._table,
        state._piles,
        state._scope,
        tuple([hand.bit_count() for hand in hands]),
        state._stock_left(),
        state.history,
        state._declared,
        state._revealed,
    )
