"""Moves, their text, and the enumeration of legal captures.

Move text: the played card, then `x` and the captured cards joined by `+` when it captures
(`9Dx1C+8S`), or the card alone when it is laid on the table (`7D`). Captured cards are
written in index order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, Final

from scopa._checks import quote
from scopa._memo import remembered
from scopa.cards import DECK, Card, card_set, parse_cards
from scopa.errors import IllegalMoveError, NotationError
from scopa.masks import ALL_CARDS, RANK_MASKS, CardMask, bits, cards_of
from scopa.rules import AceOnAce, CapturePriority, CompulsoryCapture, Rules

try:  # read by the compiler (a class of the compiled build stays open to subclasses)
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - without mypy_extensions, a decorator that does nothing

    def mypyc_attr(*_: object, **__: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


__all__ = [
    "CLAIM_FLAG",
    "Declaration",
    "Move",
    "MoveGenerator",
    "clear_caches",
    "generator_for",
    "move_of_key",
]


class Declaration(Enum):
    """A hand declared at the first play of a deal (Cirulla's *accusi*), and its points.

    A declared hand is shown to every player. The rules' `matta` (Cirulla: the 7 of coppe)
    counts as whatever makes the declaration.
    """

    BUSSO = "busso"
    """Three cards adding up to less than 10 (*bussare*, to knock): 3 points."""
    TRIS = "tris"
    """Three cards of one rank: 10 points."""

    @property
    def points(self) -> int:
        """The points the declaration scores."""
        return 3 if self is Declaration.BUSSO else 10

    def allows(self, hand: Iterable[Card], matta: Card | None = None) -> bool:
        """Whether a hand of three cards may be declared so."""
        cards = list(hand)
        if len(cards) != 3 or len(set(cards)) != 3:
            return False
        wild = [card for card in cards if card == matta]
        plain = [card for card in cards if card != matta]
        if self is Declaration.BUSSO:
            return sum(card.value for card in plain) + len(wild) < 10  # a matta counts 1
        return len({card.rank for card in plain}) == 1

    def __repr__(self) -> str:
        return f"Declaration.{self.name}"


_DECLARATION_CODES: Final = {None: 0, Declaration.BUSSO: 1, Declaration.TRIS: 2}
_DECLARATIONS: Final = (None, Declaration.BUSSO, Declaration.TRIS)
_FLAGS_SHIFT: Final = 46  # the bits of a key above the card and its captures
CLAIM_FLAG: Final = 1 << 48
"""The bit of a [`key`][scopa.Move.key] that marks a claim."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, Move may still be subclassed
class Move:
    """A play: the card played and the set of table cards it captures (empty: laid down).

    Some rules add to a play a [declaration][scopa.moves.Declaration] of the hand it is
    played from (Cirulla), or a claim that the player's side has reached the target
    (`claim_out`). Moves are immutable values; the legal moves of a position are shared
    objects.

    Examples:
        >>> move = Move.parse("9Dx1C+8S")
        >>> move.card, sorted(move.captured)
        (Card.parse('9D'), [Card.parse('1C'), Card.parse('8S')])
        >>> str(Move(Card.parse("7D"), frozenset()))
        '7D'
        >>> str(Move.parse("1D@busso!"))
        '1D@busso!'
    """

    __slots__ = (
        "_captured",
        "_captured_mask",
        "_card",
        "_card_mask",
        "_claim",
        "_declaration",
        "_key",
    )

    def __init__(
        self,
        card: Card,
        captured: Iterable[Card] = frozenset(),
        declaration: Declaration | None = None,
        claim: bool = False,
    ) -> None:
        """The move of `card` taking the `captured` cards (none: laid on the table).

        Raises:
            IllegalMoveError: the card would capture itself.
            TypeError: `card` or one of `captured` is not a `Card`, `declaration` not a
                `Declaration` or `None`, or `claim` not a bool.
        """
        if declaration is not None and not isinstance(declaration, Declaration):
            raise TypeError(f"a declaration must be a Declaration, not {quote(declaration)}")
        if not isinstance(claim, bool):
            raise TypeError(f"claim must be True or False, not {quote(claim)}")
        if not isinstance(card, Card):
            raise TypeError(f"a move's card must be a Card, not {quote(card)}")
        given = captured if isinstance(captured, frozenset) else frozenset(captured)
        take = 0
        for other in given:
            if not isinstance(other, Card):
                raise TypeError(f"a move captures Cards, not {quote(other)}")
            take |= 1 << other.index
        if take >> card.index & 1:
            raise IllegalMoveError(f"{card} cannot capture itself")
        self._card: Final = card
        # iterated in standard order, like the move's text
        self._captured: Final[frozenset[Card]] = card_set(given)
        self._card_mask: Final = CardMask(1 << card.index)
        self._captured_mask: Final = CardMask(take)
        self._declaration: Final = declaration
        self._claim: Final = claim
        flags = _DECLARATION_CODES[declaration] << _FLAGS_SHIFT | (CLAIM_FLAG if claim else 0)
        self._key: Final = flags | take << 6 | card.index

    @property
    def card(self) -> Card:
        """The card played."""
        return self._card

    @property
    def captured(self) -> frozenset[Card]:
        """The table cards it takes; empty when the card is laid on the table.

        The set iterates, and is written, in standard order, the order of the move's text.
        """
        return self._captured

    @property
    def declaration(self) -> Declaration | None:
        """The hand declared with this play, if any."""
        return self._declaration

    @property
    def claim(self) -> bool:
        """Whether the player claims, with this play, that their side has reached the target."""
        return self._claim

    @property
    def card_mask(self) -> CardMask:
        """The played card as a [mask][scopa.masks.CardMask]."""
        return self._card_mask

    @property
    def captured_mask(self) -> CardMask:
        """The captured cards as a mask (0 when the card is laid down)."""
        return self._captured_mask

    @property
    def key(self) -> int:
        """A stable int that tells moves apart.

        `captured_mask << 6 | card.index`, with the declaration's code (1 for *busso*, 2
        for *tris*) from bit 46 and a claim at bit 48 (`CLAIM_FLAG`).
        """
        return self._key

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in full form: `7D` (laid down) or `7Dx3C+4S` (captures).

        A declaration follows as `@busso` or `@tris`, and a claim as `!`: `1D@busso!`.
        For the short form that names only the card, use
        [`GameState.parse_move`][scopa.GameState.parse_move].

        Raises:
            NotationError: the text is not a move.
            TypeError: `text` is not a string.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move must be given as text, not {type(text).__name__}")
        move = _PARSED.get(text)  # pragma: no mutate - a cache miss reads the text again
        if move is not None and cls is Move:
            return move
        move = cls._read(text)
        if cls is Move and len(text) <= _PARSED_TEXT_LIMIT:  # pragma: no mutate - a cache
            if len(_PARSED) >= _CACHE_LIMIT:  # pragma: no mutate - only the cache's size
                _PARSED.clear()
            _PARSED[text] = move  # pragma: no mutate - a cache miss reads the text again
        return move

    @classmethod
    def _read(cls, text: str) -> Move:
        body = text.strip()
        claim = body.endswith("!")
        body = body.removesuffix("!")
        body, at, named = body.partition("@")
        declaration = None
        if at:
            try:
                declaration = Declaration(named.strip().lower())
            except ValueError:
                raise NotationError(
                    f"cannot read {quote(text)} as a move: unknown declaration {quote(named)}"
                ) from None
        played, sep, taken = body.replace("X", "x").partition("x")
        taken = taken.replace("+", "")
        if not played or (sep and taken in ("", "-")):
            raise _unreadable_move(text)
        cards = parse_cards(played, "move")
        captured = parse_cards(taken, "move") if sep else ()
        if len(cards) != 1:
            raise _unreadable_move(text)
        card = cards[0]
        if len(set(captured)) != len(captured) or card in captured:
            raise NotationError(f"cannot read {quote(text)} as a move: a card is repeated")
        return cls(card, frozenset(captured), declaration, claim)

    def announced(self, declaration: Declaration | None = None, claim: bool = False) -> Move:
        """The shared move of the same play with this declaration and claim."""
        flags = _DECLARATION_CODES[declaration] << _FLAGS_SHIFT | (CLAIM_FLAG if claim else 0)
        return move_of_key(flags | self._captured_mask << 6 | self._card.index)

    @property
    def is_capture(self) -> bool:
        """Whether the move takes cards from the table."""
        return self.captured_mask != 0

    def __str__(self) -> str:
        text = str(self._card)
        if self._captured_mask:
            text += f"x{'+'.join(map(str, cards_of(self._captured_mask)))}"
        if self._declaration is not None:
            text += f"@{self._declaration.value}"
        return text + "!" if self._claim else text

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"

    def __eq__(self, other: object) -> bool:
        if type(other) is Move:
            return self._key == other._key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (self._card, self._captured, self._declaration, self._claim))


def _unreadable_move(text: str) -> NotationError:
    return NotationError(f"cannot read {quote(text)} as a move (expected e.g. '7D' or '7Dx3C+4S')")


# The process-wide caches. Each holds at most `_CACHE_LIMIT` entries in two generations:
# the current one, which the move generators read directly, and the previous one. When the
# current one is full it becomes the previous one and a new one starts, so what is played
# often stays while memory stays bounded (about 40 MB for all of them together).
_CACHE_LIMIT: Final = 1 << 15
_PARSED: Final[dict[str, Move]] = {}  # move texts read (the exact text, up to 40 characters)
_PARSED_TEXT_LIMIT: Final = 40
_MOVES: Final[dict[int, Move]] = {}
_OLD_MOVES: Final[dict[int, Move]] = {}


def _remember(current: dict[int, Any], old: dict[int, Any], key: int, value: Any) -> None:
    """Store `value` in the current generation, starting a new one when it is full."""
    if len(current) >= _CACHE_LIMIT:
        old.clear()
        old.update(current)
        current.clear()
    current[key] = value


# The moves that lay a card down, by card index, and those that take one card of the same
# rank, at `40 * index + taken` (the other entries hold the laid card and are never read):
# read by index, faster than the cache.
_LAID: Final = tuple(Move(card) for card in DECK)
_PAIRS: Final = tuple(
    Move(card, {other}) if other.rank == card.rank and other != card else _LAID[card.index]
    for card in DECK
    for other in DECK
)


def move_of_key(key: int) -> Move:
    """The shared `Move` of a [`key`][scopa.Move.key]: `captured_mask << 6 | card.index`.

    The move generators return these shared moves, so that a move seen often is built once.
    """
    if key < 40:
        return _LAID[key]
    take = key >> 6
    if take <= ALL_CARDS and not take & (take - 1):  # one card taken, no flag
        index = key & 63
        taken = take.bit_length() - 1
        if _RANK[index] == _RANK[taken] and index != taken:
            return _PAIRS[index * 40 + taken]
    move = _MOVES.get(key)
    if move is None:
        move = _OLD_MOVES.get(key) or _move_of_new_key(key)
        _remember(_MOVES, _OLD_MOVES, key, move)
    return move


def _move_of_new_key(key: int) -> Move:
    captured = frozenset(cards_of(key >> 6 & ALL_CARDS))
    declaration = _DECLARATIONS[key >> _FLAGS_SHIFT & 3]
    return Move(DECK[key & 63], captured, declaration, bool(key & CLAIM_FLAG))


def clear_caches() -> None:
    """Empty the caches of this module: moves, move texts and move generators.

    [`scopa.clear_caches`][scopa.clear_caches] empties these and the others.
    """
    for cache in (_PARSED, _MOVES, _OLD_MOVES, _GENERATORS):
        cache.clear()


# --------------------------------------------------------------------------- capture tables

_RANK: Final = tuple(i % 10 + 1 for i in range(40))
_ACES: Final = RANK_MASKS[1]


def _rank_set_mask(ranks: int) -> int:
    """All four cards of every rank in a 10-bit set of ranks (bit r - 1 for rank r)."""
    return ranks | ranks << 10 | ranks << 20 | ranks << 30


def _sum_sets(ranks: int) -> tuple[tuple[int, ...], ...]:
    """For each target rank, the card masks of the sets of 2+ distinct ranks adding up to it."""
    found: list[list[int]] = [[] for _ in range(11)]
    subset = ranks
    while subset:
        total = sum(bit + 1 for bit in range(subset.bit_length()) if subset >> bit & 1)
        if subset.bit_count() >= 2 and total <= 10:
            found[total].append(_rank_set_mask(subset))
        subset = (subset - 1) & ranks
    return tuple(tuple(sorted(masks)) for masks in found)


def _fifteen_sets(ranks: int) -> tuple[tuple[int, ...], ...]:
    """For each played rank r, the card masks of the sets of distinct ranks adding up to 15 - r."""
    found: list[list[int]] = [[] for _ in range(11)]
    subset = ranks
    while subset:
        total = sum(bit + 1 for bit in range(subset.bit_length()) if subset >> bit & 1)
        if 5 <= total <= 14:
            found[15 - total].append(_rank_set_mask(subset))
        subset = (subset - 1) & ranks
    return tuple(tuple(sorted(masks)) for masks in found)


def _fewest(masks: list[int]) -> list[int]:
    """The masks with the fewest cards."""
    if len(masks) < 2:
        return masks
    fewest = min(m.bit_count() for m in masks)
    return [m for m in masks if m.bit_count() == fewest]


# _SUMS[ranks][target]: the sum captures of a table whose ranks are all distinct, where
# `ranks` has bit r - 1 set for each rank r on the table; `table & mask` is the capture.
# _FEWEST_SUMS keeps only those with the fewest cards.
_SUMS: Final = tuple(_sum_sets(ranks) for ranks in range(1024))
_FEWEST_SUMS: Final = tuple(tuple(tuple(_fewest(list(masks))) for masks in sums) for sums in _SUMS)
_NO_SUMS: Final[tuple[tuple[int, ...], ...]] = ((),) * 11
# _FIFTEENS[ranks][r]: the captures to fifteen of a card of rank r on such a table.
_FIFTEENS: Final = tuple(_fifteen_sets(ranks) for ranks in range(1024))


def _sums_any_table(target: int, table: int, *, singles: bool = False) -> list[int]:
    """The masks of 2+ table cards (1+ with `singles`) adding up to `target`.

    Any table: ranks may repeat.
    """
    # Each subset of the cards seen so far, up to the target, as one int: its sum above bit
    # 40, its cards below; adding a card's `rank << 40 | bit` adds to both at once.
    subsets = [0]
    past = (target + 1) << 40
    rest = table
    while rest:
        bit = rest & -rest
        rest ^= bit
        rank = _RANK[bit.bit_length() - 1]
        if rank < target or (singles and rank == target):
            step = rank << 40 | bit
            # Sums past the target are dropped early; the filter below would drop them too.
            # pragma: no mutate start
            subsets += [subset + step for subset in subsets if subset + step < past]
            # pragma: no mutate end
    exact = target << 40
    # sorted by their keys (as ints: no key function to call), then the keys' cards kept
    keys = sorted([_by_rank_set(s ^ exact) for s in subsets if s >> 40 == target])
    return [key & ALL_CARDS for key in keys]


def _ranks_of(mask: int) -> int:
    """The set of ranks of some cards (bit r - 1 for rank r)."""
    return (mask | mask >> 10 | mask >> 20 | mask >> 30) & 1023


def _by_rank_set(mask: int) -> int:
    """Orders captures by their set of ranks, then by their cards."""
    return _ranks_of(mask) << 40 | mask


_GENERATORS: Final[dict[tuple[object, ...], MoveGenerator]] = {}
_GENERATOR_LIMIT: Final = 256


def _capture_knobs(rules: Rules) -> tuple[object, ...]:
    """The knobs of the rules that the legal moves depend on."""
    return (
        rules.capture_by_rank,
        rules.capture_by_sum,
        rules.capture_priority,
        rules.compulsory_capture,
        rules.ace_captures_all,
        rules.ace_with_ace_on_table,
        rules.capture_to_fifteen,
    )


def generator_for(rules: Rules) -> MoveGenerator:
    """The legal-move generator of some rules, working on card masks.

    Rules with the same capture knobs share one generator. It knows what a card may take
    and which cards must be played; the first-lead rule (`ace_first_lead_forbidden`) is the
    state's to apply, since it depends on the moment of the hand.

    Examples:
        >>> from scopa import find_variant
        >>> from scopa.masks import mask_of
        >>> from scopa.cards import parse_cards
        >>> generator = generator_for(find_variant("classic"))
        >>> hand, table = mask_of(parse_cards("7D9B")), mask_of(parse_cards("3C4S7B"))
        >>> [str(m) for m in generator.moves(hand, table)]
        ['7Dx7B', '9B']
    """
    return remembered(
        _GENERATORS, _capture_knobs(rules), lambda: MoveGenerator(rules), _GENERATOR_LIMIT
    )


class MoveGenerator:
    """The legal moves of a set of capture rules, on card masks.

    Build one with [`generator_for`][scopa.moves.generator_for]. Moves come card by card in
    index order; for each card, laying it down (when legal) comes first, then the captures
    of one card in index order, then the captures of several cards in increasing order of
    their rank sets (bit r - 1 for rank r), and of their cards when two take the same ranks,
    then the captures to fifteen in the same order.
    """

    __slots__ = (
        "_ace_takes_ace",
        "_aces_normal_on_ace",
        "_aces_sweep",
        "_capturing_first",
        "_config",
        "_fewest_cards",
        "_may_lay",
        "_only_captures",
        "_sums",
        "moves",
    )

    moves: Callable[[int, int], list[Move]]
    """`moves(hand, table)`: every legal move of a player holding the cards `hand` (a mask),
    with `table` on the table. Under rules with no Ace that sweeps and no compulsion to
    capture, it is the capture loop itself, without a call around it."""

    def __init__(self, rules: Rules) -> None:
        """The generator of the capture knobs of `rules`."""
        priority = rules.capture_priority
        self._aces_sweep: Final = rules.ace_captures_all
        self._ace_takes_ace: Final = rules.ace_with_ace_on_table is AceOnAce.TAKE_ACE_ONLY
        self._aces_normal_on_ace: Final = rules.ace_with_ace_on_table is AceOnAce.CAPTURE_NORMALLY
        self._capturing_first: Final = rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
        self._fewest_cards: Final = priority is CapturePriority.MIN_CARDS
        self._may_lay: Final = rules.compulsory_capture is CompulsoryCapture.NONE
        sums = _FEWEST_SUMS if self._fewest_cards else _SUMS
        no_sums = (_NO_SUMS,) * 1024  # pragma: no mutate - any length from 1024 does
        self._sums: Final = sums if rules.capture_by_sum else no_sums
        no_equal = (0,) * 11  # pragma: no mutate - any length from 11 does
        equal_masks: tuple[int, ...] = RANK_MASKS if rules.capture_by_rank else no_equal
        # read by the capture loop in one go: its knobs, as locals
        self._config: Final = (
            self._sums,
            equal_masks,
            self._may_lay,
            priority is CapturePriority.FREE,
            rules.capture_to_fifteen,
        )
        # Rules with neither knob take the fast path; the general one gives the same moves.
        general = self._moves_with_aces_and_compulsion
        fast = not (self._aces_sweep or self._capturing_first)  # pragma: no mutate - fast path
        self.moves = self._captures if fast else general  # pragma: no mutate - fast path
        # whether `moves` is `_captures`, which the states then call directly (a native call
        # where the modules are compiled)
        self._only_captures: Final = fast

    def _moves_with_aces_and_compulsion(self, hand: int, table: int) -> list[Move]:
        """The moves, with the Aces that sweep and the compulsion to capture applied."""
        if self._aces_sweep and not (self._aces_normal_on_ace and table & _ACES):
            found = self._captures(hand & ~_ACES, table)
            if hand & _ACES:  # pragma: no mutate - without aces, the loop is empty and found sorted
                for index in bits(hand & _ACES):
                    found += self._ace_moves(index, table)
                found.sort(key=_card_index)
        else:
            found = self._captures(hand, table)
        if self._capturing_first:
            return [move for move in found if move.captured_mask] or found
        return found

    def _captures(self, hand: int, table: int) -> list[Move]:
        """The moves of cards that capture by rank, by sum and to fifteen."""
        all_sums, equal_masks, may_lay, free, to_fifteen = self._config
        found: list[Move] = []
        # The ranks on the table, suit by suit and together (as in _ranks_of). No rank is
        # there twice when the suits share no bit, that is when their sum is their union.
        d = table & 1023
        c = table >> 10 & 1023
        s = table >> 20 & 1023
        b = table >> 30
        present = d | c | s | b
        distinct = d + c + s + b == present
        sums = all_sums[present] if distinct else None
        laid = _LAID
        pairs = _PAIRS
        shared = _MOVES  # the move of a key, when it has been built before
        rest = hand
        while rest:  # the cards of the hand in index order, from its bits
            bit = rest & -rest
            rest ^= bit
            index = bit.bit_length() - 1
            rank = _RANK[index]
            equal = table & equal_masks[rank]
            if equal and not free:  # one card of equal rank, and no sum
                masks: tuple[int, ...] = ()
            else:
                masks = sums[rank] if sums is not None else self._slow_sums(rank, table)
            if to_fifteen:
                masks += _FIFTEENS[present][rank] if distinct else _slow_fifteens(rank, table)
            if may_lay or not (equal or masks):
                found.append(laid[index])
            while equal:  # cards of the same rank, when the rules capture by rank
                low = equal & -equal
                equal ^= low
                found.append(pairs[index * 40 + low.bit_length() - 1])
            for mask in masks:
                key = (table & mask) << 6 | index
                found.append(shared.get(key) or move_of_key(key))  # pragma: no mutate - a cache
        return found

    def _slow_sums(self, rank: int, table: int) -> tuple[int, ...]:
        """The sum captures of a table on which a rank appears twice."""
        if self._sums[1] is _NO_SUMS:  # pragma: no mutate - no capture by sum: every entry is
            return ()
        found = _sums_any_table(rank, table)
        return tuple(_fewest(found) if self._fewest_cards else found)

    def _ace_moves(self, index: int, table: int) -> list[Move]:
        """The moves of an Ace that takes the whole table (or an Ace on it)."""
        if not table:
            return [move_of_key(index)]
        found = [move_of_key(index)] if self._may_lay else []
        equal = table & _ACES if self._ace_takes_ace else 0
        takes = [table] if not equal else []
        while equal:
            low = equal & -equal
            equal ^= low
            takes.append(low)
        for take in takes:
            found.append(move_of_key(take << 6 | index))
        return found


def _slow_fifteens(rank: int, table: int) -> tuple[int, ...]:
    """The captures to fifteen of a table on which a rank appears twice."""
    return tuple(_sums_any_table(15 - rank, table, singles=True))


def _card_index(move: Move) -> int:
    return move.card.index
