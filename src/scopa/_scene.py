"""What a picture of a position shows from a seat (internal).

The text pictures of [`scopa.board`][scopa.board] and the SVG pictures of
[`scopa.svg`][scopa.svg] draw the same [`Scene`][scopa._scene.Scene]: which hands are face
up, how many cards the others hold, the cards declarations have shown and the points
declared, the table, the piles, the score once the hand is over and the last play. Both
refuse the same seats with the same errors.
"""

from __future__ import annotations

import gettext

import attrs

from scopa import (
    AbandonReason,
    Card,
    GameState,
    HandScore,
    InvalidArgumentError,
    Move,
    PlayerView,
    Rules,
    view,
)
from scopa._checks import check_number

__all__ = [
    "Scene",
    "abandon_reason",
    "check_seat",
    "player_words",
    "scene",
    "side_letter",
    "side_words",
]


@attrs.frozen
class Scene:
    """Everything a picture of a position shows, as seen from one seat or from above."""

    rules: Rules
    """The rules of the hand."""
    hands: tuple[tuple[Card, ...] | int, ...]
    """Each player's hand: its cards face up, in the standard order, or how many lie face down."""
    table: tuple[Card, ...]
    """The table's cards, in the standard order."""
    piles: tuple[int, ...]
    """How many cards each player has captured."""
    scope: tuple[int, ...]
    """How many scope each player has made."""
    stock: int
    """How many cards are still to be dealt."""
    dealer: int
    """The dealer of the hand."""
    current: int | None
    """The player to move; `None` once the hand is over."""
    last: tuple[int, Move] | None
    """The last play, as `(player, move)`, if there has been one."""
    score: HandScore | None
    """The hand's score once it is over."""
    seat: int | None
    """The seat the picture is seen from; `None` when every hand is face up."""
    shown: tuple[tuple[Card, ...], ...]
    """The cards of each hand that a declaration has shown to everyone, in the standard order."""
    declared: tuple[int, ...]
    """The points each player has declared in the hand."""

    @property
    def deal(self) -> int:
        """The number of the deal in progress (or the last one), from 1."""
        rules = self.rules
        return rules.deals_per_hand - self.stock // (rules.players * rules.hand_size)


def player_words(tr: gettext.NullTranslations, player: int, seat: int | None = None) -> str:
    """How pictures and explanations name a player, in the language of a translation.

    `you` for the `seat` a picture is seen from, else `player N`.
    """
    if player == seat:
        return tr.gettext("you")
    return tr.gettext("player {number}").format(number=player)


def side_words(
    tr: gettext.NullTranslations, rules: Rules, side: int, seat: int | None = None
) -> str:
    """How pictures and explanations name a side, in the language of a translation.

    As its player when each plays for self, else `side A`, `side B`... and `your side` for
    the seat's own.
    """
    if rules.number_of_sides == rules.players:
        return player_words(tr, side, seat)
    if seat is not None and rules.side_of(seat) == side:
        return tr.gettext("your side")
    return tr.gettext("side {letter}").format(letter=side_letter(side))


def side_letter(side: int) -> str:
    """The letter pictures name a side by: `A`, `B`, ..."""
    return chr(ord("A") + side) if side < 26 else str(side)


def abandon_reason(tr: gettext.NullTranslations, reason: AbandonReason) -> str:
    """Why a player abandoned, in the language of a translation: `timeout`, `scadenza del tempo`."""
    if reason is AbandonReason.VOLUNTARY:
        return tr.pgettext("abandoned", "voluntary")
    if reason is AbandonReason.EXPELLED:
        return tr.pgettext("abandoned", "expelled")
    if reason is AbandonReason.DISCONNECTED:
        return tr.pgettext("abandoned", "disconnected")
    return tr.pgettext("abandoned", "timeout")


def check_seat(rules: Rules, seat: int | None) -> int | None:
    """A seat to see a picture from: a player number, or `None` for every hand face up.

    Raises:
        TypeError: `seat` is not an int (a bool or a float is not a player number).
        InvalidArgumentError: `seat` is not a player of `rules`.
    """
    if seat is None:
        return None
    return check_number(seat, rules.players, "player", InvalidArgumentError)


def scene(state: GameState | PlayerView, seat: int | None = None) -> Scene:
    """What a picture of `state` shows from `seat`.

    A state seen from a seat shows what that player's view shows; a view is always seen
    from its own player's seat.

    Raises:
        TypeError: `state` is not a state or a view, or `seat` is not an int.
        InvalidArgumentError: `seat` is not a player, or not the view's player.
    """
    if not isinstance(state, GameState | PlayerView):
        raise TypeError(f"a picture needs a GameState or a PlayerView, not {type(state).__name__}")
    seat = check_seat(state.rules, seat)
    if isinstance(state, PlayerView):
        if seat is not None and seat != state.player:
            raise InvalidArgumentError(
                f"a view of player {state.player} cannot show player {seat}'s hand"
            )
        return _seen(state)
    if seat is not None:
        return _seen(view(state, seat))
    return _position(
        state,
        view(state, 0),  # what a declaration shows is public: any seat sees it
        tuple(_sorted(hand) for hand in state.hands),
        len(state.stock),
        seat=None,
    )


def _seen(seen: PlayerView) -> Scene:
    """The scene of a view: its player's hand face up, the other hands face down."""
    own = seen.player
    hands = tuple(
        _sorted(seen.hand) if player == own else size for player, size in enumerate(seen.hand_sizes)
    )
    return _position(seen, seen, hands, seen.stock_size, seat=own)


def _position(
    state: GameState | PlayerView,
    public: PlayerView,
    hands: tuple[tuple[Card, ...] | int, ...],
    stock: int,
    *,
    seat: int | None,
) -> Scene:
    """A scene of the public facts of `state`, with the hands and stock size given.

    `public` is any player's view of it, for the cards declarations showed.
    """
    history = state.history
    over = state.current_player is None
    return Scene(
        rules=state.rules,
        hands=hands,
        table=_sorted(state.table),
        piles=tuple(map(len, state.piles)),
        scope=state.scope,
        stock=stock,
        dealer=state.dealer,
        current=state.current_player,
        last=history[-1] if history else None,
        score=state.hand_score() if over else None,
        seat=seat,
        shown=tuple(_sorted(cards) for cards in public.revealed),
        declared=public.declared,
    )


def _sorted(cards: frozenset[Card]) -> tuple[Card, ...]:
    """Cards in the standard order, the order of everything people read."""
    return tuple(sorted(cards))
