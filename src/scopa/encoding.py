"""Fixed integer encodings for learning agents: action ids, masks and observation vectors.

**Actions.** Two encodings number the moves ([`ActionEncoding`][scopa.encoding.ActionEncoding]);
every function below takes the encoding, the compact one by default.

*Compact* (`COMPACT`): the id of a move is `card.index * 64 + k`, where `k` is the move's
place among the legal moves of the same card in the order of
[`legal_moves`][scopa.GameState.legal_moves]: 2,560 ids for every preset, declarations and
claims included. An id means a different capture in different positions; a card with more
than 64 choices (never seen in play) keeps its first 64.

*Flat* (`FLAT`): every move of the presets without captures to fifteen, declarations or
claims has one id in `range(ACTION_COUNT)`, the same in every position. The ids come in 40
blocks, one per played card in index order (`1D` first, `10B` last). Within the block of a
card of rank `r`:

| offset | move |
|---|---|
| 0 | lay the card on the table (also an Ace that goes to its own pile) |
| 1 + s | take the card of rank `r` and suit `s` (0 D, 1 C, 2 S, 3 B) |
| 5 | take every card on the table (a sweeping Ace, with `ace_captures_all`) |
| 6 + k | take the `k`-th set of 2+ cards adding up to `r` (sets sorted by mask) |

A set's mask has bit `i` for the card of index `i`.

The number of sets adding up to `r` is 0, 6, 20, 47, 96, 186, 340, 597, 1020 and 1698 for
`r` = 1 to 10, so `ACTION_COUNT` is 16280.

**Observations.** [`observation`][scopa.encoding.observation] writes a view as a flat list
of floats, seats counted from the observer (`k = 0` is the observer, `k = 1` the next to
play, and so on), with `n` players:

| slice | feature |
|---|---|
| 0–39 | the observer's hand (1 per card) |
| 40–79 | the table |
| 80 + 40k … 119 + 40k | the cards captured by seat `k` |
| then `n` values | each seat's hand size divided by the rules' hand size |
| then `n` values | each seat's scope |
| then 1 value | the stock size divided by 40 |
| then `n` values | the seat to move (one-hot; all 0 at the end of the hand) |
| then `n` values | the dealer's seat (one-hot) |
| then `n + 1` values | the last capturer's seat (one-hot; the last value: nobody yet) |
| then `40 n` values | under rules with declarations: the cards each seat's declaration showed |
| then `n` values | under rules with declarations: each seat's declared points |

Its length is `82 + 45 n`, and `41 n` more under rules with declarations
([`observation_size`][scopa.encoding.observation_size]);
[`ObservationLayout`][scopa.encoding.ObservationLayout] gives the slice of each feature.

**Move facts.** [`move_facts`][scopa.encoding.move_facts] describes one legal move with
`MOVE_FACTS` numbers from 0 to about 1, from the mover's view: what a network needs to
learn quickly which moves are good. Cards left on the table are those after the move;
*unseen* cards are those the mover has not seen (the other hands and the stock).

| index | fact |
|---|---|
| 0 | 1: a move is here (0 marks an empty slot of `legal_move_facts`) |
| 1 | the move captures |
| 2 | the cards it wins, the played card included, / 4 |
| 3 | the denari among them / 2 |
| 4 | the sevens among them / 2 |
| 5 | it wins the settebello (7 of denari) |
| 6 | it empties the table (a scopa, except on the hand's last play) |
| 7 | the table left is not empty and its cards add up to 10 or less |
| 8 | then: the unseen cards of that sum's rank, which could sweep it, / 4 |
| 9 | the cards left on the table / 10 |
| 10 | the played card's value / 10 |
| 11 | the played card is a denaro |
| 12 | the played card is a seven |
| 13 | the played card is the settebello |
| 14 | the settebello is on the table left |
| 15 | the sevens on the table left / 4 |
| 16 | the sixes among the cards it wins / 2 |
| 17 | the Aces among them / 2 |

[`legal_move_facts`][scopa.encoding.legal_move_facts] lays out the facts of every legal
move by compact id: `MOVE_FACTS` values for each of the first `FACT_CHOICES` moves of each
card (slot `FACT_CHOICES * card.index + k` for the compact id `64 * card.index + k`),
zeros where no move is; its length is `40 * FACT_CHOICES * MOVE_FACTS` = 2,160.
"""

from __future__ import annotations

import bisect
import functools
import operator

# Compiled, the layouts' annotations are looked up among this module's names.
from builtins import slice
from collections.abc import Sequence
from enum import Enum
from typing import Final

import attrs

from scopa._checks import check_type, quote
from scopa.errors import IllegalMoveError, InvalidArgumentError
from scopa.masks import ALL_CARDS, RANK_MASKS
from scopa.moves import Declaration, Move, move_of_key
from scopa.rules import AceOnAce, Rules
from scopa.state import GameState, PlayerView

__all__ = [
    "ACTION_COUNT",
    "COMPACT",
    "COMPACT_OPTIONS",
    "FACT_CHOICES",
    "FLAT",
    "MOVE_FACTS",
    "OFFSETS",
    "ActionEncoding",
    "InformationStateLayout",
    "ObservationLayout",
    "action_count",
    "action_flags",
    "action_mask",
    "action_of",
    "information_state",
    "information_state_size",
    "legal_actions",
    "legal_move_facts",
    "move_facts",
    "move_of_action",
    "observation",
    "observation_counts",
    "observation_scale",
    "observation_size",
]

_TAKE_ALL = 5
_FIRST_SUM = 6


def _sum_sets(target: int) -> tuple[int, ...]:
    """The card masks of the sets of 2+ cards whose ranks add up to `target`, sorted."""
    found = [(0, 0, 0)]  # (sum, mask, size)
    for index in range(40):
        rank = index % 10 + 1
        if rank < target:
            found += [(s + rank, m | 1 << index, n + 1) for s, m, n in found if s + rank <= target]
    return tuple(sorted(m for s, m, n in found if s == target and n >= 2))


_SUM_SETS = tuple(_sum_sets(rank) for rank in range(11))
_SUM_ID = tuple({mask: k for k, mask in enumerate(sets)} for sets in _SUM_SETS)
_BLOCK_SIZES = tuple(_FIRST_SUM + len(_SUM_SETS[index % 10 + 1]) for index in range(40))
OFFSETS: tuple[int, ...] = tuple(sum(_BLOCK_SIZES[:index]) for index in range(40))
"""The first action id of each card's block."""
ACTION_COUNT: int = sum(_BLOCK_SIZES)
"""The number of action ids: 16280."""
_ACES = RANK_MASKS[1]


COMPACT_OPTIONS: Final = 64
"""The choices of one card in the compact encoding (its ids are `card.index * 64 + k`)."""
_COMPACT_COUNT: Final = 40 * COMPACT_OPTIONS


class ActionEncoding(Enum):
    """How moves are numbered for learning agents (see the module documentation)."""

    FLAT = "flat"
    """Every capture of every card has its own id, the same in every position: 16,280 ids.
    Not for rules with captures to fifteen, declarations or claims."""
    COMPACT = "compact"
    """The card, and which of its legal moves in the position (in the order of
    `legal_moves`): `card.index * 64 + k`, 2,560 ids for every preset."""

    def count(self, rules: Rules) -> int:
        """The number of action ids under these rules.

        Raises:
            InvalidArgumentError: the flat encoding has no ids for these rules' moves.
        """
        if self is ActionEncoding.COMPACT:
            return _COMPACT_COUNT
        if rules.capture_to_fifteen or rules.declarations or rules.claim_out:
            raise InvalidArgumentError(
                f"the flat encoding has no ids for the captures to fifteen, declarations or "
                f"claims of {rules.name}: use the compact encoding"
            )
        return ACTION_COUNT

    def __repr__(self) -> str:
        return f"ActionEncoding.{self.name}"


FLAT: Final = ActionEncoding.FLAT
"""The flat encoding."""
COMPACT: Final = ActionEncoding.COMPACT
"""The compact encoding, the default of the functions below and of the adapters."""


def action_count(rules: Rules, encoding: ActionEncoding = COMPACT) -> int:
    """The number of action ids of these rules in an encoding (`encoding.count(rules)`).

    Raises:
        InvalidArgumentError: the flat encoding has no ids for these rules' moves.
        TypeError: `rules` is not `Rules`, or `encoding` not an `ActionEncoding`.
    """
    if not isinstance(rules, Rules):  # inline: this runs at every step of a learner
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    if encoding is COMPACT:  # the common case first: the same count for every rules
        return _COMPACT_COUNT
    if not isinstance(encoding, ActionEncoding):
        raise TypeError(f"encoding must be an ActionEncoding, not {quote(encoding)}")
    return encoding.count(rules)


def _rules_of(position: GameState | PlayerView) -> Rules:
    """The rules of a position, which must be a state or a view.

    Raises:
        TypeError: `position` is neither a `GameState` nor a `PlayerView`.
    """
    if not isinstance(position, (GameState, PlayerView)):
        raise TypeError(
            f"a position must be a GameState or a PlayerView, not {type(position).__name__}"
        )
    return position.rules


def _is_sweep(rules: Rules, move: Move, table: int) -> bool:
    """Whether a capture is an Ace taking the table by `ace_captures_all`."""
    if not rules.ace_captures_all or move.card.rank != 1 or move.captured_mask != table:
        return False
    return not (rules.ace_with_ace_on_table is not AceOnAce.TAKE_ALL and table & _ACES)


def _flat_id(rules: Rules, move: Move, table: int) -> int:
    index = move.card.index
    take = move.captured_mask
    block = OFFSETS[index]
    if not take:
        return block
    if _is_sweep(rules, move, table):
        return block + _TAKE_ALL
    if take.bit_count() == 1:
        return block + 1 + (take.bit_length() - 1) // 10
    k = _SUM_ID[index % 10 + 1].get(take)
    if k is None:
        raise IllegalMoveError(f"'{move}' is not a capture any rules allow")
    return block + _FIRST_SUM + k


class _CompactIds:
    """The compact ids of one tuple of legal moves: sorted, and the move of each."""

    __slots__ = ("actions", "move_of", "moves")

    def __init__(self, moves: tuple[Move, ...]) -> None:
        # Legal moves come card by card in index order, so the ids come out sorted.
        move_of: dict[int, Move] = {}
        card = -1
        choice = 0
        for move in moves:
            index = move.card.index
            if index != card:
                card, choice = index, 0
            if choice < COMPACT_OPTIONS:
                move_of[index * COMPACT_OPTIONS + choice] = move
            choice += 1
        self.moves: Final = moves
        self.move_of: Final = move_of
        self.actions: Final = tuple(move_of)


_LAST_COMPACT: Final = [_CompactIds(())]  # the last answer of `_compact_ids`


def _compact_ids(moves: tuple[Move, ...]) -> _CompactIds:
    """The compact ids of `moves` (those past a card's 64th choice have none).

    A state computes its legal moves once, so the mask, the legal ids and the move of an id
    in one step all ask about the same tuple: the last answer is kept for it.
    """
    last = _LAST_COMPACT[0]
    if last.moves is not moves:
        last = _LAST_COMPACT[0] = _CompactIds(moves)
    return last


def action_of(state: GameState | PlayerView, move: Move, encoding: ActionEncoding = COMPACT) -> int:
    """The action id of a move in a position.

    Raises:
        IllegalMoveError: the move has no id: in the flat encoding, it takes cards that
            cannot be a capture; in the compact one, it is not legal here.
        InvalidArgumentError: the flat encoding has no ids for these rules' moves.
    """
    action_count(_rules_of(state), encoding)
    if encoding is COMPACT:
        ids = _compact_ids(state.legal_moves()).move_of
        action = next((a for a, legal in ids.items() if legal == move), None)
        if action is None:
            raise IllegalMoveError(f"'{move}' is not a legal move here: it has no compact id")
        return action
    return _flat_id(state.rules, move, state.table_mask)


def move_of_action(
    state: GameState | PlayerView, action: object, encoding: ActionEncoding = COMPACT
) -> Move:
    """The move of an action id in a position (in the flat encoding it need not be legal).

    The id is an `int` (a `bool` is not), checked when called in both builds.

    Raises:
        IllegalMoveError: the id is not an int, is out of range, names a capture of cards
            that are not on the table (flat), or a choice the card does not have here
            (compact).
        InvalidArgumentError: the flat encoding has no ids for these rules' moves.
    """
    count = action_count(_rules_of(state), encoding)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < count:
        raise IllegalMoveError(f"action {quote(action)} is not an id from 0 to {count - 1}")
    if encoding is COMPACT:
        move = _compact_ids(state.legal_moves()).move_of.get(action)
        if move is None:
            raise IllegalMoveError(f"action {action} is not a legal move here")
        return move
    index = _card_of_action(action)
    offset = action - OFFSETS[index]
    table = state.table_mask
    if offset == 0:
        take = 0
    elif offset < _TAKE_ALL:
        take = 1 << (10 * (offset - 1) + index % 10)
    elif offset == _TAKE_ALL:
        take = table
    else:
        take = _SUM_SETS[index % 10 + 1][offset - _FIRST_SUM]
    if take & ~table or (offset == _TAKE_ALL and not table):
        raise IllegalMoveError(f"action {action} takes cards that are not on the table")
    return move_of_key(take << 6 | index)


def legal_actions(state: GameState | PlayerView, encoding: ActionEncoding = COMPACT) -> list[int]:
    """The ids of the legal moves, sorted.

    Raises:
        InvalidArgumentError: the flat encoding has no ids for these rules' moves.
    """
    action_count(_rules_of(state), encoding)
    return list(_legal_ids(state, encoding))


def _legal_ids(state: GameState | PlayerView, encoding: ActionEncoding) -> Sequence[int]:
    """The ids of the legal moves, sorted, in an encoding that has ids for the rules."""
    moves = state.legal_moves()
    if encoding is COMPACT:
        return _compact_ids(moves).actions
    rules = state.rules
    table = state.table_mask
    actions = []
    for move in moves:
        take = move.captured_mask
        index = move.card.index
        if not take:
            actions.append(OFFSETS[index])
        elif take.bit_count() == 1 and not _is_sweep(rules, move, table):
            actions.append(OFFSETS[index] + 1 + (take.bit_length() - 1) // 10)
        else:
            actions.append(_flat_id(rules, move, table))
    actions.sort()
    return actions


def action_mask(state: GameState | PlayerView, encoding: ActionEncoding = COMPACT) -> bytearray:
    """One byte per action id, 1 where the move is legal: ready for `numpy.int8`.

    `numpy.frombuffer(action_mask(state), dtype=numpy.int8)` makes the array without a copy.
    """
    mask = bytearray(action_count(_rules_of(state), encoding))
    for action in _legal_ids(state, encoding):
        mask[action] = 1
    return mask


def action_flags(state: GameState | PlayerView, encoding: ActionEncoding = COMPACT) -> list[bool]:
    """One `bool` per action id, `True` where the move is legal."""
    flags = [False] * action_count(_rules_of(state), encoding)
    for action in _legal_ids(state, encoding):
        flags[action] = True
    return flags


def _card_of_action(action: int) -> int:
    return bisect.bisect_right(OFFSETS, action) - 1


@attrs.frozen
class ObservationLayout:
    """Where each feature of an [`observation`][scopa.encoding.observation] lies.

    Every field is a slice of the vector, with seats counted from the observer.

    Examples:
        >>> layout = ObservationLayout.of(2)
        >>> layout.table, layout.piles[1], layout.scope, layout.size
        (slice(40, 80, None), slice(120, 160, None), slice(162, 164, None), 172)
    """

    players: int
    """The number of players the layout is for."""
    hand: slice
    """The observer's hand, one entry per card."""
    table: slice
    """The table, one entry per card."""
    piles: tuple[slice, ...]
    """The cards captured by each seat."""
    hand_sizes: slice
    """Each seat's hand size, divided by the rules' hand size."""
    scope: slice
    """Each seat's scope (not scaled: from 0 to the plays of a hand)."""
    stock: slice
    """The stock size divided by 40 (one entry)."""
    to_move: slice
    """The seat to move, one-hot (all 0 at the end of the hand)."""
    dealer: slice
    """The dealer's seat, one-hot."""
    last_capturer: slice
    """The last capturer's seat, one-hot, with a last entry for nobody yet."""
    revealed: tuple[slice, ...]
    """Under rules with declarations: the cards of each seat's hand a declaration showed."""
    declared: slice
    """Under rules with declarations: each seat's declared points (not scaled)."""
    size: int
    """The length of the vector: `82 + 45 * players`, and `41 * players` more under rules
    with declarations."""

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(players: int, declarations: bool = False) -> ObservationLayout:
        """The layout for a number of players, with or without declarations."""
        n = players
        shown = 40 if declarations else 0
        spans = _spans([40, 40, *[40] * n, n, n, 1, n, n, n + 1, *[shown] * n, n if shown else 0])
        return ObservationLayout(
            players=n,
            hand=spans[0],
            table=spans[1],
            piles=tuple(spans[2 : 2 + n]),
            hand_sizes=spans[2 + n],
            scope=spans[3 + n],
            stock=spans[4 + n],
            to_move=spans[5 + n],
            dealer=spans[6 + n],
            last_capturer=spans[7 + n],
            revealed=tuple(spans[8 + n : 8 + 2 * n]),
            declared=spans[8 + 2 * n],
            size=spans[-1].stop,
        )


def _spans(lengths: Sequence[int]) -> list[slice]:
    """Slices of these lengths, one after the other from 0."""
    spans = []
    start = 0
    for length in lengths:
        spans.append(slice(start, start + length))
        start += length
    return spans


def observation_size(rules: Rules) -> int:
    """The length of an observation vector for these rules (see `ObservationLayout.size`)."""
    check_type(rules, Rules, "rules")
    return ObservationLayout.of(rules.players, rules.declarations).size


def observation(seen: PlayerView) -> list[float]:
    """The view as a flat list of floats, laid out as the module documentation says."""
    masks, counts, shown, declared = _features(seen)
    values = _card_floats(masks)
    values += [count / by for count, by in zip(counts, _count_scale(seen.rules), strict=True)]
    if shown:
        values += _card_floats(shown)
        values += map(float, declared)
    return values


def observation_counts(seen: PlayerView) -> bytes:
    """The observation before scaling, one byte per entry: ready for `numpy.uint8`.

    Every entry of an [`observation`][scopa.encoding.observation] is a whole count divided
    by its entry of [`observation_scale`][scopa.encoding.observation_scale]: this is the
    counts. It is the fast way to an array, since `numpy.frombuffer(counts, numpy.uint8) /
    numpy.array(observation_scale(rules), numpy.float32)` is the observation as `float32`.

    Examples:
        >>> from scopa import GameState, find_variant, view
        >>> seen = view(GameState.new(find_variant("classic"), seed=3), 0)
        >>> counts, scale = observation_counts(seen), observation_scale(seen.rules)
        >>> [count / by for count, by in zip(counts, scale)] == observation(seen)
        True
    """
    masks, counts, shown, declared = _features(seen)
    if not shown:  # no declarations: two parts, not four
        return _card_bytes(masks) + bytes(counts)
    return b"".join((_card_bytes(masks), bytes(counts), _card_bytes(shown), bytes(declared)))


def observation_scale(rules: Rules) -> tuple[float, ...]:
    """The divisor of each entry of [`observation_counts`][scopa.encoding.observation_counts].

    The rules' hand size for the hand sizes, 40 for the stock, 1 for everything else.
    """
    check_type(rules, Rules, "rules")
    layout = ObservationLayout.of(rules.players, rules.declarations)
    scale = [1.0] * layout.size
    scale[layout.hand_sizes] = [float(rules.hand_size)] * rules.players
    scale[layout.stock] = [40.0]
    return tuple(scale)


@functools.lru_cache(maxsize=64)
def _count_scale(rules: Rules) -> tuple[float, ...]:
    """The divisors of the counts between the piles and the declarations."""
    layout = ObservationLayout.of(rules.players, rules.declarations)
    return observation_scale(rules)[layout.hand_sizes.start : layout.last_capturer.stop]


def _features(seen: PlayerView) -> tuple[list[int], list[int], list[int], list[int]]:
    """What an observation holds, seats counted from the observer, as whole numbers.

    The card masks it opens with (hand, table, piles), the counts that follow them (hand
    sizes, scope, stock, then the seat to move, the dealer and the last capturer one-hot),
    and, under rules with declarations, the masks of the cards shown and the points
    declared (both empty otherwise).
    """
    if not isinstance(seen, PlayerView):
        raise TypeError(
            f"an observation is of a PlayerView, not a {type(seen).__name__}: "
            "give it scopa.view(state, player)"
        )
    rules = seen.rules
    me = seen.player
    seats = _seats(rules.players)
    pick = seats.pick[me]
    to_move = seen.current_player
    last = seen.last_capturer
    n = len(seats.pick)
    masks = [seen.hand_mask, seen.table_mask, *pick(seen.pile_masks)]
    counts = [
        *pick(seen.hand_sizes),
        *pick(seen.scope),
        seen.stock_size,
        *seats.one_hot[n if to_move is None else (to_move - me) % n],
        *seats.one_hot[(seen.dealer - me) % n],
        *seats.one_hot_last[n if last is None else (last - me) % n],
    ]
    if not rules.declarations:
        return masks, counts, [], []
    return masks, counts, [*pick(seen.revealed_masks)], [*pick(seen.declared)]


class _Seats:
    """Seats counted from each observer, for a number of players."""

    __slots__ = ("one_hot", "one_hot_last", "pick")

    def __init__(self, players: int) -> None:
        n = players
        self.pick: Final = tuple(
            operator.itemgetter(*[(me + k) % n for k in range(n)]) for me in range(n)
        )
        """By observer: what takes from a tuple by player the entries in seat order."""
        self.one_hot: Final = tuple(tuple(int(i == k) for i in range(n)) for k in range(n + 1))
        """A seat's one-hot (`n` whole numbers), and all 0 at index `n`."""
        self.one_hot_last: Final = tuple(
            tuple(int(i == k) for i in range(n + 1)) for k in range(n + 1)
        )
        """The one-hots of `n + 1` whole numbers."""


@functools.lru_cache(maxsize=64)
def _seats(players: int) -> _Seats:
    return _Seats(players)


@attrs.frozen
class InformationStateLayout:
    """Where each feature of an [`information_state`][scopa.encoding.information_state] lies.

    The vector is the observation, then one slot per play of the hand, in order, each
    laid out by the slot fields below (offsets from the slot's start). Seats are counted
    from the observer.

    Examples:
        >>> layout = InformationStateLayout.of(2, 36)
        >>> layout.plays[0], layout.card, layout.captured, layout.play_size, layout.size
        (slice(172, 254, None), slice(2, 42, None), slice(42, 82, None), 82, 3124)
    """

    observation: ObservationLayout
    """The layout of the observation the vector starts with."""
    plays: tuple[slice, ...]
    """The slot of each play of the hand, in order; slots of plays not made yet are 0."""
    seat: slice
    """In a slot: the seat that played, one-hot."""
    card: slice
    """In a slot: the card played, one-hot."""
    captured: slice
    """In a slot: the cards captured, one entry per card."""
    declaration: slice
    """In a slot, under rules with declarations: the declaration made, one-hot in the
    order of `Declaration` (all 0 for none)."""
    claim: slice
    """In a slot, under rules with claims: 1 when the play claims the target."""
    play_size: int
    """The length of a slot."""
    size: int
    """The length of the vector."""

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(
        players: int, plays: int, declarations: bool = False, claims: bool = False
    ) -> InformationStateLayout:
        """The layout for a number of players and of plays per hand.

        Args:
            players: the number of players.
            plays: the plays of a hand (one slot each).
            declarations: whether the rules have declarations.
            claims: whether the rules have claims.
        """
        seen = ObservationLayout.of(players, declarations)
        seat, card, captured, declaration, claim = _spans(
            [players, 40, 40, len(Declaration) if declarations else 0, 1 if claims else 0]
        )
        size = claim.stop
        starts = range(seen.size, seen.size + plays * size, size)
        return InformationStateLayout(
            observation=seen,
            plays=tuple(slice(start, start + size) for start in starts),
            seat=seat,
            card=card,
            captured=captured,
            declaration=declaration,
            claim=claim,
            play_size=size,
            size=seen.size + plays * size,
        )

    @staticmethod
    def for_rules(rules: Rules) -> InformationStateLayout:
        """The layout for these rules: a slot for each of their plays per hand."""
        check_type(rules, Rules, "rules")
        return InformationStateLayout.of(
            rules.players, rules.plays_per_hand, rules.declarations, rules.claim_out
        )


def information_state_size(rules: Rules) -> int:
    """The length of an information-state vector for these rules."""
    return InformationStateLayout.for_rules(rules).size


_DECLARATION_PLACES = {declaration: place for place, declaration in enumerate(Declaration)}


def information_state(seen: PlayerView) -> list[float]:
    """The view and every play of the hand so far, as a flat list of floats.

    The [`observation`][scopa.encoding.observation], then one slot per play in the order
    they were made (see [`InformationStateLayout`][scopa.encoding.InformationStateLayout]),
    then zeros for the plays still to come. Two states give the same vector for a player
    when the player cannot tell them apart, and different vectors when the plays seen came
    in a different order.
    """
    values = observation(seen)  # first, since it checks that `seen` is a view
    rules = seen.rules
    layout = InformationStateLayout.for_rules(rules)
    n = rules.players
    me = seen.player
    for player, move in seen.history[: len(layout.plays)]:
        values += _one_hot(n, (player - me) % n)
        values += _card_floats([move.card_mask, move.captured_mask])
        if rules.declarations:
            declaration = move.declaration
            values += _one_hot(
                len(Declaration), None if declaration is None else _DECLARATION_PLACES[declaration]
            )
        if rules.claim_out:
            values.append(1.0 if move.claim else 0.0)
    values += [0.0] * (layout.size - len(values))
    return values


@functools.lru_cache(maxsize=4096)
def _one_hot(length: int, hot: int | None) -> tuple[float, ...]:
    """`length` floats, 1.0 at `hot` (none if `hot` is None) and 0.0 elsewhere."""
    return tuple(1.0 if place == hot else 0.0 for place in range(length))


_TEN_CARDS = tuple(tuple(float(bits >> i & 1) for i in range(10)) for bits in range(1024))
"""The 10 floats of each 10-bit piece of a card mask, lowest bit first."""
_TEN_BYTES = tuple(bytes(bits >> i & 1 for i in range(10)) for bits in range(1024))
"""The same as 10 bytes each."""


def _card_floats(masks: Sequence[int]) -> list[float]:
    """40 floats per card mask, 1.0 at each card's index."""
    ten = _TEN_CARDS
    values: list[float] = []
    for mask in masks:
        values += ten[mask & 1023]
        values += ten[mask >> 10 & 1023]
        values += ten[mask >> 20 & 1023]
        values += ten[mask >> 30]
    return values


def _card_bytes(masks: list[int]) -> bytes:
    """40 bytes per card mask, 1 at each card's index."""
    ten = _TEN_BYTES
    parts: list[bytes] = []
    for mask in masks:
        parts.append(ten[mask & 1023])
        parts.append(ten[mask >> 10 & 1023])
        parts.append(ten[mask >> 20 & 1023])
        parts.append(ten[mask >> 30 & 1023])
    return b"".join(parts)


# --------------------------------------------------------------------------- move facts

MOVE_FACTS: Final = 18
"""The facts about one move (see the module documentation)."""
FACT_CHOICES: Final = 3
"""The moves of each card that [`legal_move_facts`][scopa.encoding.legal_move_facts]
describes (a card has more about once in 1,000 positions of classic Scopa)."""
_DENARI: Final = (1 << 10) - 1
_SEVENS: Final = RANK_MASKS[7]
_SIXES: Final = RANK_MASKS[6]
_SETTEBELLO: Final = 6
_TEN_SUMS: Final = tuple(sum(i + 1 for i in range(10) if bits >> i & 1) for bits in range(1024))
"""The sum of the ranks of each 10-bit piece of a card mask."""


def _rank_sum(mask: int) -> int:
    """The sum of the ranks of the cards of a mask."""
    sums = _TEN_SUMS
    return sums[mask & 1023] + sums[mask >> 10 & 1023] + sums[mask >> 20 & 1023] + sums[mask >> 30]


def _facts(table: int, unseen: int, card: int, taken: int) -> list[float]:
    """The facts of playing the card of index `card`, taking the cards of mask `taken`."""
    won = taken | 1 << card if taken else 0
    left = table & ~taken if taken else table | 1 << card
    total = _rank_sum(left)
    sweepable = 0 < total <= 10
    return [
        1.0,
        1.0 if taken else 0.0,
        won.bit_count() / 4,
        (won & _DENARI).bit_count() / 2,
        (won & _SEVENS).bit_count() / 2,
        float(won >> _SETTEBELLO & 1),
        1.0 if taken and not left else 0.0,
        1.0 if sweepable else 0.0,
        (unseen & RANK_MASKS[total]).bit_count() / 4 if sweepable else 0.0,
        left.bit_count() / 10,
        (card % 10 + 1) / 10,
        1.0 if card < 10 else 0.0,
        1.0 if card % 10 == 6 else 0.0,
        1.0 if card == _SETTEBELLO else 0.0,
        float(left >> _SETTEBELLO & 1),
        (left & _SEVENS).bit_count() / 4,
        (won & _SIXES).bit_count() / 2,
        (won & _ACES).bit_count() / 2,
    ]


def _unseen(seen: PlayerView) -> int:
    """The mask of the cards `seen`'s player has not seen."""
    return ALL_CARDS & ~_seen_mask(seen)


def _seen_mask(seen: PlayerView) -> int:
    """The mask of the cards `seen`'s player has seen: its hand, the table, piles, shown."""
    known = seen.hand_mask | seen.table_mask
    for pile in seen.pile_masks:
        known |= pile
    for shown in seen.revealed_masks:
        known |= shown
    return known


def move_facts(seen: PlayerView, move: Move) -> list[float]:
    """The `MOVE_FACTS` facts of a legal move, from its player's view (see the module).

    Declarations and claims add nothing: the facts are those of the card played.

    Examples:
        >>> from scopa import GameState, find_variant, view
        >>> seen = view(GameState.new(find_variant("classic"), seed=3))
        >>> facts = move_facts(seen, seen.legal_moves()[0])
        >>> len(facts) == MOVE_FACTS, facts[0]
        (True, 1.0)
    """
    if not isinstance(seen, PlayerView):
        raise TypeError(f"move facts are read from a PlayerView, not a {type(seen).__name__}")
    if not isinstance(move, Move):
        raise TypeError(f"move facts are of a Move, not a {type(move).__name__}")
    return _facts(seen.table_mask, _unseen(seen), move.card.index, move.captured_mask)


def legal_move_facts(seen: PlayerView) -> list[float]:
    """The facts of every legal move, laid out by compact id (see the module).

    `MOVE_FACTS` values for the `k`-th legal move of each card, `k` below `FACT_CHOICES`,
    at `MOVE_FACTS * (FACT_CHOICES * card.index + k)`; zeros where no move is.
    """
    if not isinstance(seen, PlayerView):
        raise TypeError(f"move facts are read from a PlayerView, not a {type(seen).__name__}")
    values = [0.0] * (40 * FACT_CHOICES * MOVE_FACTS)
    table = seen.table_mask
    unseen = _unseen(seen)
    made = [0] * 40
    for move in seen.legal_moves():
        card = move.card.index
        k = made[card]
        made[card] = k + 1
        if k < FACT_CHOICES:
            start = MOVE_FACTS * (FACT_CHOICES * card + k)
            values[start : start + MOVE_FACTS] = _facts(table, unseen, card, move.captured_mask)
    return values
