"""Suits, ranks, the 40 cards, their text, and decks with reproducible shuffles.

A card's *index* is `10 * suit + rank - 1`, so `1D` is 0, `10D` (the *re bello*) is 9 and
`10B` is 39. Sets of cards are kept inside the library as 40-bit masks (bit `index`, see
[`scopa.masks`][scopa.masks]), but everything public speaks in [`Card`][scopa.Card]s too.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Any, TypeVar, overload

import attrs

from scopa._checks import is_int, quote
from scopa._i18n import translation
from scopa._shuffle import orders
from scopa.errors import InvalidArgumentError, InvalidStateError, NotationError

__all__ = [
    "DECK",
    "Card",
    "Deck",
    "Rank",
    "Suit",
    "card_set",
    "format_cards",
    "parse_cards",
    "show_cards",
]


class Suit(IntEnum):
    """The four Italian suits, in index order.

    A suit is an int (its number, 0 to 3) that prints as its Italian name in lower case, as
    the rules page's glossary writes it; `repr` gives the member and `int` the number.

    Examples:
        >>> suit = Card.parse("7D").suit
        >>> print(suit)
        denari
        >>> suit, int(suit)
        (Suit.DENARI, 0)
    """

    DENARI = 0
    """Coins (*ori*; diamonds ♦ in French-suited decks)."""
    COPPE = 1
    """Cups (hearts ♥)."""
    SPADE = 2
    """Swords (spades ♠)."""
    BASTONI = 3
    """Batons (clubs ♣)."""

    @property
    def letter(self) -> str:
        """The canonical one-letter code: `D`, `C`, `S` or `B`."""
        return "DCSB"[self]

    @property
    def symbol(self) -> str:
        """The French suit symbol used to draw the suit: ♦, ♥, ♠ or ♣."""
        return "♦♥♠♣"[self]

    def __str__(self) -> str:
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Rank(IntEnum):
    """The ten ranks; the value of a rank is its capture value (1 to 10).

    A rank prints as the rules page's table of ranks names it: the Ace and the figures by
    their Italian names (`asso`, `fante`, `cavallo`, `re`, which the glossary explains),
    the others by their number, as in a card's text (`7` of `7D`). `repr` gives the member
    and `int` the value.

    Examples:
        >>> print(Rank.SETTE, Rank.FANTE, Rank.ASSO)
        7 fante asso
        >>> Rank.SETTE, int(Rank.FANTE)
        (Rank.SETTE, 8)
    """

    ASSO = 1
    """The Ace (1)."""
    DUE = 2
    """The two."""
    TRE = 3
    """The three."""
    QUATTRO = 4
    """The four."""
    CINQUE = 5
    """The five."""
    SEI = 6
    """The six."""
    SETTE = 7
    """The seven; the seven of denari is the *settebello*."""
    FANTE = 8
    """The Jack (8); sometimes called *Donna*."""
    CAVALLO = 9
    """The Knight (9); a Queen in some regional decks."""
    RE = 10
    """The King (10)."""

    def __str__(self) -> str:
        return _RANK_WORDS.get(self, str(int(self)))

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_WORDS = {Rank.ASSO: "asso", Rank.FANTE: "fante", Rank.CAVALLO: "cavallo", Rank.RE: "re"}


_SUIT_LETTERS = {
    "D": Suit.DENARI,
    "C": Suit.COPPE,
    "S": Suit.SPADE,
    "B": Suit.BASTONI,
    "H": Suit.COPPE,
    "♦": Suit.DENARI,
    "♥": Suit.COPPE,
    "♠": Suit.SPADE,
    "♣": Suit.BASTONI,
}
_RANK_LETTERS = {"A": 1, "F": 8, "C": 9, "R": 10, "J": 8, "Q": 9, "K": 10}
_UNICODE_OFFSET = (0, 1, 2, 3, 4, 5, 6, 7, 0xB, 0xC, 0xE)
_UNICODE_BASE = (0x1F0C0, 0x1F0B0, 0x1F0A0, 0x1F0D0)


_E = TypeVar("_E", Rank, Suit)


def _to_rank(value: int) -> Rank:
    """A card's rank from a `Rank` or an int from 1 to 10."""
    return _member(Rank, value, "rank")


def _to_suit(value: int) -> Suit:
    """A card's suit from a `Suit` or an int from 0 to 3."""
    return _member(Suit, value, "suit")


def _member(kind: type[_E], value: int, what: str) -> _E:
    """The member of `kind` that `value` is or numbers, checked."""
    if type(value) is kind:
        return value
    if not is_int(value):
        raise TypeError(
            f"a card's {what} must be a {kind.__name__} or an int, not {type(value).__name__}"
        )
    low, high = min(kind), max(kind)
    if not low <= value <= high:
        raise InvalidArgumentError(
            f"a card's {what} must be from {int(low)} to {int(high)}, not {quote(value)}"
        )
    return kind(value)


@attrs.frozen(order=True, cache_hash=True, repr=False)
class Card:
    """One of the 40 cards. Cards compare and sort by [`index`][scopa.Card.index].

    Prefer the cards of [`DECK`][scopa.DECK] or [`Card.parse`][scopa.Card.parse]; a
    `Card(rank, suit)` built by hand is equal to the deck's card. The rank is a `Rank` or an
    int from 1 to 10, the suit a `Suit` or an int from 0 to 3: another int raises
    [`InvalidArgumentError`][scopa.InvalidArgumentError], another type `TypeError`.

    Examples:
        >>> Card.parse("7d")
        Card.parse('7D')
        >>> str(Card(Rank.RE, Suit.BASTONI))
        '10B'
    """

    rank: Rank = attrs.field(converter=_to_rank, eq=False, order=False)
    """The rank, whose value is the card's capture value."""
    suit: Suit = attrs.field(converter=_to_suit, eq=False, order=False)
    """The suit."""
    index: int = attrs.field(init=False)
    """The card's place in the standard deck order, 0 to 39."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "index", 10 * self.suit + self.rank - 1)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: a rank then a suit letter, in either case.

        The rank is `1`–`10` or a letter: `A` (Asso), `F` (Fante), `C` (Cavallo), `R` (Re),
        or the English `J`, `Q`, `K`. The suit is `D`, `C`, `S`, `B` (Italian initials),
        `H` (hearts, for Coppe) or a French suit symbol `♦ ♥ ♠ ♣`.

        Raises:
            NotationError: the text is not a card.
            TypeError: `text` is not a string.
        """
        if not isinstance(text, str):
            raise TypeError(f"a card must be given as text, not {type(text).__name__}")
        match = _CARDS_RE.fullmatch(text.strip())
        card = _CARD_TEXT.get((match[1] + match[2]).upper()) if match else None
        if card is None:
            raise NotationError(
                f"cannot read {quote(text)} as a card (expected e.g. '7D', '10b', 'Rc')"
            )
        return card

    @property
    def value(self) -> int:
        """The capture value: Ace 1 … King 10."""
        return int(self.rank)

    @property
    def unicode(self) -> str:
        """The card as a Unicode playing-card character (French suits: ♦ for denari)."""
        return chr(_UNICODE_BASE[self.suit] + _UNICODE_OFFSET[self.rank])

    @property
    def nickname(self) -> str | None:
        """The card's own name, the same in every language, or `None`.

        `settebello` for the 7 of denari, `re bello` for the King of denari.
        """
        return _NICKNAMES.get(self.index)

    def name(self, lang: str = "en") -> str:
        """The card in words, in English or Italian (`lang`: `"en"` or `"it"`).

        English keeps the Italian names of the suits and of the Ace's and figures' ranks as
        the rules page writes them (`7 of denari`, `Cavallo of bastoni`); Italian writes the
        card as players say it (`sette di denari`, `cavallo di bastoni`).

        Examples:
            >>> card = Card.parse("7D")
            >>> card.name(), card.name("it"), Card.parse("1C").name("it")
            ('7 of denari', 'sette di denari', 'asso di coppe')

        Raises:
            InvalidArgumentError: the library does not write in that language.
            TypeError: `lang` is not text.
        """
        tr = translation(lang)
        rank = _rank_words(tr)[self.rank - 1]
        return tr.gettext("{rank} of {suit}").format(rank=rank, suit=self.suit)

    def __str__(self) -> str:
        return f"{int(self.rank)}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


_NICKNAMES = {6: "settebello", 9: "re bello"}


def _rank_words(tr: gettext.NullTranslations) -> tuple[str, ...]:
    """The names of the ranks, Ace to Re, in a translation's language."""
    return (
        tr.pgettext("rank", "Ace"),
        tr.pgettext("rank", "2"),
        tr.pgettext("rank", "3"),
        tr.pgettext("rank", "4"),
        tr.pgettext("rank", "5"),
        tr.pgettext("rank", "6"),
        tr.pgettext("rank", "7"),
        tr.pgettext("rank", "Fante"),
        tr.pgettext("rank", "Cavallo"),
        tr.pgettext("rank", "Re"),
    )


DECK: tuple[Card, ...] = tuple(Card(Rank(i % 10 + 1), Suit(i // 10)) for i in range(40))
"""The 40 cards in standard order: Ace to King of denari, then coppe, spade, bastoni."""

_CARD_TEXT: dict[str, Card] = {}
for _card in DECK:
    for _suit_text, _suit in _SUIT_LETTERS.items():
        if _suit is _card.suit:
            _CARD_TEXT[f"{int(_card.rank)}{_suit_text}"] = _card
            for _letter, _value in _RANK_LETTERS.items():
                if _value == _card.rank:
                    _CARD_TEXT[f"{_letter}{_suit_text}"] = _card
del _card, _suit_text, _suit, _letter, _value

_CARDS_RE = re.compile(r"\s*(10|[1-9AFCRJQK])([DCSBH♦♥♠♣])\s*", re.IGNORECASE | re.ASCII)


def parse_cards(text: str, what: str = "list of cards") -> tuple[Card, ...]:
    """Read cards written one after the other (`7D3C10B`), or `-` for none.

    `what` names the text in error messages ("hand", "table", "move").

    Examples:
        >>> parse_cards("7D3c10B")
        (Card.parse('7D'), Card.parse('3C'), Card.parse('10B'))

    Raises:
        NotationError: the text is not a list of cards.
    """
    text = text.strip()
    if text == "-":
        return ()
    cards: list[Card] = []
    pos = 0
    while pos < len(text):
        match = _CARDS_RE.match(text, pos)
        if match is None:
            raise NotationError(
                f"cannot read {quote(text)} as a {what}: bad card at {quote(text[pos:], 12)}"
            )
        cards.append(_CARD_TEXT[(match[1] + match[2]).upper()])
        pos = match.end()
    if not cards:
        raise NotationError(f"cannot read {quote(text)} as a {what} (write '-' for none)")
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards one after the other, in the order given, or `-` for none.

    This is the form positions and records write and [`parse_cards`][scopa.cards.parse_cards]
    reads; messages for people use [`show_cards`][scopa.cards.show_cards].

    Examples:
        >>> format_cards([DECK[6], DECK[39]]), format_cards([])
        ('7D10B', '-')
    """
    return "".join(map(str, cards)) or "-"


def show_cards(cards: Iterable[Card]) -> str:
    """Cards for people to read: in standard order, separated by spaces, or `-` for none.

    Every message and description of the library lists cards so.

    Examples:
        >>> show_cards([DECK[39], DECK[6]]), show_cards([])
        ('7D 10B', '-')
    """
    return " ".join(map(str, sorted(cards, key=_index))) or "-"


def _index(card: Card) -> int:
    return card.index


class _CardSet(frozenset[Card]):
    """A frozenset of cards that iterates, and is written, in standard order."""

    __slots__ = ("_ordered",)
    _ordered: tuple[Card, ...]

    def __new__(cls, cards: Iterable[Card] = ()) -> _CardSet:
        """The set of `cards`."""
        self = super().__new__(cls, cards)
        self._ordered = tuple(sorted(frozenset.__iter__(self), key=_index))
        return self

    def __iter__(self) -> Iterator[Card]:
        return iter(self._ordered)

    def __repr__(self) -> str:
        if not self._ordered:
            return "frozenset()"
        return f"frozenset({{{', '.join(map(repr, self._ordered))}}})"


def card_set(cards: Iterable[Card]) -> frozenset[Card]:
    """A frozenset of `cards` that iterates, and is written, in standard order.

    It is equal to, and hashes as, the plain frozenset of the same cards; what is made from
    it (a union, a difference) is a plain frozenset. Given such a set, returns it.

    Examples:
        >>> taken = card_set([DECK[34], DECK[27]])
        >>> taken, taken == {DECK[27], DECK[34]}
        (frozenset({Card.parse('8S'), Card.parse('5B')}), True)
    """
    return cards if type(cards) is _CardSet else _CardSet(cards)


# Crockford's base 32: digits and letters without I, L, O, U.
_CODE_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CODE_VALUES = {c: i for i, c in enumerate(_CODE_DIGITS)} | {"I": 1, "L": 1, "O": 0}
_CODE_VALUES |= {c.lower(): i for c, i in _CODE_VALUES.items()}
_CODE_LENGTH = 32


def _card_tuple(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(cards)


@attrs.frozen(repr=False)
class Deck(Sequence[Card]):
    """An immutable order of the 40 cards; dealing takes them from the front.

    Build one with [`Deck.standard`][scopa.Deck.standard], [`Deck.shuffled`][scopa.Deck.shuffled]
    (reproducible everywhere), [`Deck.parse`][scopa.Deck.parse] (a deal code), or
    `Deck(cards)` with an explicit sequence of the 40 distinct cards. `str(deck)` is its
    deal code, a short text that gives the same deal everywhere.

    Examples:
        >>> deck = Deck.shuffled(2026)
        >>> Deck.parse(str(deck)) == deck
        True
    """

    cards: tuple[Card, ...] = attrs.field(converter=_card_tuple)
    """The 40 cards, the first one dealt first."""

    def __attrs_post_init__(self) -> None:
        cards: tuple[Any, ...] = self.cards
        if len(cards) != 40 or not all(isinstance(c, Card) for c in cards):
            raise InvalidStateError(f"a deck needs exactly 40 cards, got {len(cards)} items")
        missing = set(DECK).difference(cards)
        if missing:
            shown = show_cards(missing)
            raise InvalidStateError(f"a deck needs each of the 40 cards once; missing {shown}")

    @classmethod
    def standard(cls) -> Deck:
        """The standard order, the same as [`DECK`][scopa.DECK]."""
        return cls(DECK)

    @classmethod
    def shuffled(cls, seed: int) -> Deck:
        """The first deck of [`Deck.shuffles(seed)`][scopa.Deck.shuffles].

        Raises:
            InvalidArgumentError: the seed is not between 0 and 2**64 - 1.
            TypeError: the seed is not an int.
        """
        return next(cls.shuffles(seed))

    @classmethod
    def shuffles(cls, seed: int) -> Iterator[Deck]:
        """An endless stream of shuffled decks from one seed, identical on every platform.

        The generator is SplitMix64 with its state set to `seed` (0 to 2**64 - 1). For each
        deck, three outputs `a, b, c` make the 192-bit number `N = a·2**128 + b·2**64 + c`;
        while `N` is not below the largest multiple of 40! that fits in 192 bits, three more
        outputs are drawn (this keeps `N mod 40!` exactly uniform). Then the Fisher–Yates
        shuffle runs on the standard order with `N` as its source of choices: for `i` from
        39 down to 1, `j = N mod (i + 1)`, `N = N div (i + 1)`, and positions `i` and `j`
        are swapped. The next deck continues the same stream; a misdealt hand is redealt
        from it.

        Raises:
            InvalidArgumentError: the seed is not between 0 and 2**64 - 1.
            TypeError: the seed is not an int.
        """
        return (cls(DECK[i] for i in order) for order in orders(seed))

    @classmethod
    def parse(cls, code: str) -> Deck:
        """Read a deal code, as `str(deck)` writes it.

        The code is the order's rank among the 40! orders of the deck (its Lehmer code),
        written as 32 digits of Crockford's base 32 (`0-9`, then `A-Z` without `I L O U`);
        the standard order is `00000000000000000000000000000000`. Reading ignores case and
        hyphens, and reads `I`/`L` as 1 and `O` as 0.

        Raises:
            NotationError: the text is not a deal code.
            TypeError: `code` is not a string.
        """
        if not isinstance(code, str):
            raise TypeError(f"a deal code must be text, not {type(code).__name__}")
        digits = code.strip().replace("-", "")
        if len(digits) != _CODE_LENGTH or any(c not in _CODE_VALUES for c in digits):
            raise NotationError(
                f"cannot read {quote(code)} as a deal code: "
                f"it must be {_CODE_LENGTH} base-32 digits"
            )
        number = 0
        for c in digits:
            number = number * 32 + _CODE_VALUES[c]
        if number >= math.factorial(40):
            raise NotationError(
                f"cannot read {quote(code)} as a deal code: the number is too large"
            )
        positions = []
        for radix in range(1, 41):  # the last card's position first
            number, position = divmod(number, radix)
            positions.append(position)
        remaining = list(DECK)
        return cls(remaining.pop(position) for position in reversed(positions))

    def __str__(self) -> str:
        """The deal code (see [`Deck.parse`][scopa.Deck.parse])."""
        remaining = (1 << 40) - 1  # pragma: no mutate - only the bits of the 40 cards are read
        number = 0
        radices = range(40, 0, -1)
        for radix, card in zip(radices, self.cards, strict=True):  # pragma: no mutate - 40 cards
            below = remaining & ((1 << card.index) - 1)
            number = number * radix + below.bit_count()  # the card's place among those left
            remaining ^= 1 << card.index
        digits = []
        for _ in range(_CODE_LENGTH):
            number, digit = divmod(number, 32)
            digits.append(_CODE_DIGITS[digit])
        return "".join(reversed(digits))

    def __len__(self) -> int:
        return 40

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    @overload
    def __getitem__(self, position: int) -> Card: ...

    @overload
    def __getitem__(self, position: slice) -> tuple[Card, ...]: ...

    def __getitem__(self, position: int | slice) -> Card | tuple[Card, ...]:
        return self.cards[position]

    def __repr__(self) -> str:
        return f"Deck.parse('{self}')"
