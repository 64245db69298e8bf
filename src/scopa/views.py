"""What one player knows: views, information-set keys and determinization.

A view holds the player's own hand and everything public: the table, each player's
captured cards and scope, the number of cards in every hand and in the stock, the dealer,
whose turn it is and the plays of the hand so far. It holds nothing else, so it cannot leak
another player's cards.

Examples:
    >>> import random
    >>> from scopa import GameState, find_variant
    >>> state = GameState.new(find_variant("classic"), seed=1)
    >>> mine = view(state, 0)
    >>> len(mine.hand), mine.hand_sizes, mine.stock_size
    (3, (3, 3), 30)
    >>> world = mine.resample(random.Random(7))
    >>> view(world, 0) == mine
    True
"""

from __future__ import annotations

import random

from scopa._checks import check_number
from scopa.cards import ALL_CARDS, Card, cards_of
from scopa.errors import InvalidArgumentError
from scopa.moves import Move, generator_for
from scopa.rules import Rules
from scopa.scoring import HandScore
from scopa.state import (
    GameState,
    Hand,
    _Visible,
    make_state,
    playable_cards,
    score_captures,
)

__all__ = ["PlayerView", "view"]


class PlayerView(_Visible):
    """An immutable view of a hand from one player's seat. Build it with [`view`][scopa.view]."""

    __slots__ = (
        "_dealer",
        "_hand",
        "_history",
        "_last",
        "_piles",
        "_player",
        "_rules",
        "_scope",
        "_seat",
        "_sizes",
        "_stock",
        "_table",
    )

    _rules: Rules
    _seat: int
    _dealer: int
    _player: int
    _last: int
    _hand: int
    _table: int
    _piles: tuple[int, ...]
    _scope: tuple[int, ...]
    _sizes: tuple[int, ...]
    _stock: int
    _history: tuple[tuple[int, Move], ...]

    def __init__(self) -> None:
        raise TypeError("build views with scopa.view(state, player)")

    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
        return self._rules

    @property
    def player(self) -> int:
        """The player whose view this is."""
        return self._seat

    @property
    def dealer(self) -> int:
        """The dealer of the hand."""
        return self._dealer

    @property
    def hand(self) -> frozenset[Card]:
        """The player's own cards."""
        return frozenset(cards_of(self._hand))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each player holds."""
        return self._sizes

    @property
    def stock_size(self) -> int:
        """How many cards are still to be dealt."""
        return self._stock

    @property
    def history(self) -> tuple[tuple[int, Move], ...]:
        """The plays of the hand seen so far, as `(player, move)` pairs."""
        return self._history

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards this player has not seen: the other hands and the stock."""
        return frozenset(cards_of(ALL_CARDS & ~self._seen()))

    @property
    def key(self) -> tuple[int, ...]:
        """A stable, hashable information-set key (the same in every process and version).

        Two states give the same key for a player exactly when that player cannot tell them
        apart, including the order of the plays seen.
        """
        return (
            self._seat,
            self._dealer,
            self._player,
            self._last,
            self._hand,
            self._table,
            self._stock,
            *self._piles,
            *self._scope,
            *self._sizes,
            *(player << 46 | move._key for player, move in self._history),
        )

    def hand_score(self) -> HandScore:
        """The score of the cards captured so far (everything it uses is public).

        The same as the state's [`hand_score`][scopa.GameState.hand_score].
        """
        return score_captures(self._rules, self._piles, self._scope)

    def legal_moves(self) -> tuple[Move, ...]:
        """The player's legal moves when it is their turn (otherwise none)."""
        if self._player != self._seat:
            return ()
        rules = self._rules
        hand = self._hand
        if rules.ace_first_lead_forbidden:
            hand = playable_cards(rules, hand, sum(self._sizes), self._stock)
        return tuple(generator_for(rules)(hand, self._table))

    def resample(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, drawn uniformly with `rng`.

        The player's hand, the table, the piles, the scope, the turn and the history stay as
        they are; the cards the player cannot see are shuffled and dealt to the other hands
        (at their current sizes) and to the stock. Rules under which a play reveals
        something about the rest of a hand (`must_play_capturing_card_if_any`,
        `ace_first_lead_forbidden`) are not taken into account.
        """
        unseen = [card.index for card in cards_of(ALL_CARDS & ~self._seen())]
        rng.shuffle(unseen)
        hands = []
        position = 0
        for player, size in enumerate(self._sizes):
            if player == self._seat:
                hands.append(self._hand)
                continue
            mask = 0
            for index in unseen[position : position + size]:
                mask |= 1 << index
            hands.append(mask)
            position += size
        context = Hand(self._rules, self._dealer, tuple(unseen[position:]), self._history)
        return make_state(
            context,
            0,
            tuple(hands),
            self._table,
            self._piles,
            self._scope,
            self._player,
            self._last,
        )

    def _seen(self) -> int:
        seen = self._hand | self._table
        for pile in self._piles:
            seen |= pile
        return seen

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PlayerView):
            return self.key == other.key and self._rules == other._rules
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return (
            f"<PlayerView of player {self._seat}: hand {''.join(map(str, cards_of(self._hand)))}"
            f" table {''.join(map(str, cards_of(self._table))) or '-'}>"
        )


def view(state: GameState, player: int | None = None) -> PlayerView:
    """The view of `state` from `player`'s seat (by default the player to move).

    Raises:
        InvalidStateError: `player` is not a player of the hand.
        TypeError: `player` is not an int.
    """
    rules = state.rules
    if player is None:
        player = state.current_player if state.current_player is not None else 0
    check_number(player, rules.players, "player", InvalidArgumentError)
    hands = state._hands
    seen = PlayerView.__new__(PlayerView)
    seen._rules = rules
    seen._seat = player
    seen._dealer = state._hand.dealer
    seen._player = state._player
    seen._last = state._last
    seen._hand = hands[player]
    seen._table = state._table
    seen._piles = state._piles
    seen._scope = state._scope
    seen._sizes = tuple(h.bit_count() for h in hands)
    seen._stock = len(state._hand.stock) - state._next
    seen._history = state.history
    return seen
