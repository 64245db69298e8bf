"""The batch engine: one hand as a function of fixed-shape arrays (see `scopa.batch`)."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from typing import Any, Final, Literal, get_args

import attrs
import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from scopa._batch_knobs import unknown_knobs
from scopa._checks import check_type, quote
from scopa.batch import _captures, _sample, _score
from scopa.cards import DECK, Card
from scopa.encoding import COMPACT_OPTIONS, FACT_CHOICES, MOVE_FACTS, ObservationLayout
from scopa.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError, RulesError
from scopa.moves import Declaration
from scopa.rules import (
    AceOnAce,
    CapturePriority,
    CompulsoryCapture,
    FirstTable,
    Leftovers,
    MisdealRule,
    Rules,
)
from scopa.state import GameState

__all__ = ["Env", "Rewards", "State"]

_CARDS: Final = 40
_RANKS: Final = 10
_ACTIONS: Final = _CARDS * COMPACT_OPTIONS
_RANK_OF: Final = np.arange(_CARDS, dtype=np.int32) % 10 + 1
"""The rank of each card index."""
_SEVEN_OF_DENARI: Final = 6
_BUSSO: Final = 1  # the code of each declaration, as a move's key has it
_TRIS: Final = 2
_POINTS: Final = np.array([0, Declaration.BUSSO.points, Declaration.TRIS.points], np.int32)
"""The points of each declaration code (0: none)."""
_STOCK_SCALE: Final = np.array([size / _CARDS for size in range(_CARDS + 1)], np.float32)
"""Each stock size divided by 40, as the scalar encoding rounds it."""
_LOWEST: Final = int(np.iinfo(np.int32).min)
"""Below every figure."""

Array = jax.Array
_ActionId = Array | npt.NDArray[np.integer[Any]] | np.integer[Any] | int
# a compact action id: an int, a numpy integer (or 0-d integer array), or a JAX array

Rewards = Literal["points", "margin", "zero-sum"]
"""What the step that ends a hand pays each player (see [`Env`][scopa.batch.Env])."""


@dataclasses.dataclass(frozen=True)
class State:
    """One hand of the batch engine: a pytree of fixed-shape arrays (a batch under `vmap`).

    The public fields are what a learner reads; the fields whose names start with `_` keep
    the game's books and are not part of the API.
    """

    current_player: Array
    """`int32`: the player to move; -1 once the hand is over (or was annulled)."""
    legal_action_mask: Array
    """`bool[2560]`: the legal compact action ids of the player to move (all `False` once
    the hand is over), as [`action_mask`][scopa.encoding.action_mask] gives them."""
    observation: Array
    """`float32[observation_size]`: the [`observation`][scopa.encoding.observation] of the
    view of the player to move; once the hand is over, of the view of the player who made
    the last play (the dealer) with nobody to move; all 0 for an annulled deal."""
    rewards: Array
    """`float32[num_players]`: 0, except at the step that ends the hand: what the hand
    pays each player, as the environment's `rewards` option says (by default the points of
    the player's side, which every partner receives)."""
    terminated: Array
    """`bool`: the hand is over (every card played, or the deal annulled)."""
    illegal_action: Array
    """`bool`: the last step was given an action that is not legal (and changed nothing)."""
    misdeal: Array
    """`bool`: the deal's first table is annulled by the misdeal rule: nothing is played."""
    _hands: Array  # bool[players, 40]
    _table: Array  # bool[40]
    _piles: Array  # bool[players, 40]
    _scope: Array  # int32[players]
    _deals: Array  # bool[deals, players, 40]: every deal's hands, the first one included
    _dealt: Array  # int32: the deals made so far
    _dealer: Array  # int32
    _last_capturer: Array  # int32, -1 for nobody
    _lays: Array  # bool[11]: by rank, whether the first choice of a card is to lay it
    _pairs: Array  # int32[11]: by rank, the table cards of equal rank it may take
    _sums: Array  # int32[11]: by rank, the sums it may take (under captures to fifteen,
    # which come after them; int32[0] otherwise)
    _sum_size: Array  # int32[11]: by rank, the size of the sums it may take (0: any)
    _counts: Array  # int32[40]: by card, its legal ids (0 for a card not in the hand)
    _lacks: Array  # bool[players, 10]: by rank - 1, what each one's plays of this deal show
    # they do not hold (see Env.resample)
    # Under declarations (each empty otherwise):
    _declarable: Array  # bool[2]: whether the hand to move may declare busso, tris
    _declared: Array  # int32[players]: the points each has declared in the hand
    _revealed: Array  # bool[players, 40]: the cards of each hand a declaration showed


jax.tree_util.register_dataclass(
    State,
    data_fields=[field.name for field in dataclasses.fields(State)],
    meta_fields=[],
)


# ------------------------------------------------------------------ the rules supported


def _check_supported(rules: Rules) -> None:
    """Refuse rules the engine does not play: a knob it does not know, or a component.

    Raises:
        RulesError: a knob the batch engine does not know set to other than its default,
            or a scoring component of your own (the message names it).
    """
    for name in unknown_knobs(rules):
        raise RulesError(
            f"the batch engine does not know the knob {name}={getattr(rules, name)!r} "
            f"(rules {rules.name!r}): it plays it only at its default, "
            f"{name}={getattr(Rules(), name)!r}"
        )
    _score.check_components(rules)


# ------------------------------------------------------------------ small array helpers


def _one_hot(index: Array, length: int) -> Array:
    """`length` float32 values, 1 at `index` (none when it is out of range)."""
    return (jnp.arange(length) == index).astype(jnp.float32)


def _action_id(action: object) -> _ActionId:
    """An action for the jitted step: one integer id; a concrete one out of range made -1.

    A concrete id is judged in Python or numpy before any cast, so that no cast to 32 bits
    wraps it into range; a JAX array (traced or not) keeps its integer type, which the
    step compares in.

    Raises:
        TypeError: `action` is not an integer.
        InvalidArgumentError: `action` is an array of more than one id.
    """
    if isinstance(action, bool) or not isinstance(action, (int, np.integer, np.ndarray, Array)):
        raise TypeError(f"an action must be an integer compact id, not {type(action).__name__}")
    if isinstance(action, int):
        return np.asarray(action if 0 <= action < _ACTIONS else -1, np.int32)
    if not np.issubdtype(action.dtype, np.integer):
        raise TypeError(f"an action must be an integer compact id, not {action.dtype}")
    if action.shape:
        raise InvalidArgumentError(
            f"step takes one action, not an array of shape {action.shape}: jax.vmap plays a batch"
        )
    if isinstance(action, Array):
        return action
    return np.asarray(action if 0 <= action < _ACTIONS else -1, np.int32)


def _checked_id(action: object, mask: Array, over: Array, game: str) -> int:
    """A concrete action's id, once it is legal in one `game` ("hand" or "match").

    Raises:
        IllegalMoveError: the id is out of range, not in `mask`, or the game is `over`.
        TypeError: the action is not an integer, or is traced.
        InvalidArgumentError: the mask or the action is a batch.
    """
    number = _concrete_id(action)
    legal = np.asarray(mask)
    if legal.shape != (_ACTIONS,):
        state = "state" if game == "hand" else game
        raise InvalidArgumentError(f"step_checked takes one {state}, not a batch")
    if not 0 <= number < _ACTIONS or not legal[number]:
        ended = f" (the {game} is over)" if bool(np.any(np.asarray(over))) else ""
        raise IllegalMoveError(f"action {quote(number)} is not legal here{ended}")
    return number


def _concrete_id(action: object) -> int:
    """A concrete action as a Python int (any integer, in range or not).

    Raises:
        TypeError: `action` is not an integer, or is traced.
        InvalidArgumentError: `action` is an array of more than one id.
    """
    if isinstance(action, jax.core.Tracer):
        raise TypeError("step_checked takes a concrete action, not a traced one: use step")
    if isinstance(action, bool) or not isinstance(action, (int, np.integer, np.ndarray, Array)):
        raise TypeError(f"an action must be an integer compact id, not {type(action).__name__}")
    if isinstance(action, int):
        return action
    given = np.asarray(action)
    if given.dtype.kind not in "iu":
        raise TypeError(f"an action must be an integer compact id, not {given.dtype}")
    if given.shape:
        raise InvalidArgumentError(
            f"step_checked takes one action, not an array of shape {given.shape}"
        )
    return int(given)


def _cards(mask: npt.NDArray[np.bool_]) -> list[Card]:
    """The cards of a concrete `bool[40]`, in index order."""
    return [DECK[card] for card in np.flatnonzero(mask)]


def _places(cards: Array, key: Array) -> Array:
    """A uniformly random place (int32[40]) for each of `cards`: 0 to their number less 1.

    The other cards get the places after those.
    """
    order = jax.random.permutation(key, _CARDS)
    order = order[jnp.argsort(~cards[order], stable=True)]  # `cards` first, in random order
    return jnp.zeros(_CARDS, jnp.int32).at[order].set(jnp.arange(_CARDS, dtype=jnp.int32))


def _split(place: Array, cards: Array, sizes: Array) -> Array:
    """`cards` dealt by `place` into groups of `sizes` (bool[groups, 40]), in group order."""
    ends = jnp.cumsum(sizes)
    starts = ends - sizes
    return cards[None, :] & (place[None, :] >= starts[:, None]) & (place[None, :] < ends[:, None])


_FACTORIALS: Final = np.array([math.factorial(n) for n in range(5)], np.float32)
_TINY: Final = float(np.finfo(np.float32).tiny)
_COUNTING_LIMIT: Final = 1 << 22
"""The most entries of `_Counting`'s tables: `resample` refuses larger rules."""


@attrs.frozen
class _Counting:
    """The tables that count the deals of unseen cards to the hands of the other players.

    A state of the count is how many cards each other hand still lacks (`unfilled`, one
    number in base `hand_size + 1`, the first other player in the lowest digit). A split
    is how many cards of one rank each other hand gets (at most 4 in all; the rest of the
    rank goes to the stock).
    """

    states: int
    radix: np.ndarray  # int32[others]: the place value of each other player's digit
    splits: np.ndarray  # int32[split, other]
    source: np.ndarray  # int32[unfilled, split]: the state once the split is dealt
    within: np.ndarray  # bool[unfilled, split]: whether the split fits in the hands

    @classmethod
    def of(cls, rules: Rules) -> _Counting:
        """The tables of `rules`.

        Raises:
            RulesError: the tables would be too large.
        """
        others = rules.players - 1
        base = rules.hand_size + 1
        states = base**others
        most = min(4, rules.hand_size)
        splits: list[tuple[int, ...]] = [()]
        for _ in range(others):  # at most 4 cards of a rank in all
            splits = [(*s, c) for s in splits for c in range(most + 1) if sum(s) + c <= 4]
        if states * len(splits) > _COUNTING_LIMIT:
            knob = (
                "compulsory_capture=CompulsoryCapture.CAPTURING_CARD"
                if rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
                else "ace_first_lead_forbidden=True"
            )
            raise RulesError(
                f"resample cannot count the deals of {rules.players} players of "
                f"{rules.hand_size} cards under {knob}: {states * len(splits):,} "
                f"entries, more than {_COUNTING_LIMIT:,}"
            )
        radix = base ** np.arange(others, dtype=np.int64)
        digits = np.arange(states)[:, None] // radix[None, :] % base  # [unfilled, other]
        table = np.array(splits, np.int64).reshape(len(splits), others)
        within = np.all(table[None, :, :] <= digits[:, None, :], axis=2)
        source = np.where(within, np.arange(states)[:, None] - table @ radix, 0)
        return cls(
            states, radix.astype(np.int32), table.astype(np.int32), source.astype(np.int32), within
        )


# ------------------------------------------------------------------ the environment


class Env:
    """A hand of Scopa under some rules, as pure functions of [`State`][scopa.batch.State].

    Every method plays one game and can be traced by `jax.jit`; `jax.vmap` plays a batch.

    `rewards` says what the step that ends a hand pays each player (every partner gets
    the side's figure):

    - `"points"` (the default): the side's points of the hand.
    - `"margin"`: the side's points minus the best other side's, as
      [`hand_returns`][scopa.adapters.hand_returns] pays in the other adapters; where the
      lowest total wins (`lowest_total_wins`, as in `scopa-a-perdere`), the best other
      side's points minus the side's own, so that more is always better. With two sides
      the rewards add up to zero.
    - `"zero-sum"`: the side's points minus the mean of the other sides' points (with the
      same sign rule). The rewards add up to zero with any number of sides; with two
      sides they are the margins.

    It plays every knob of [`Rules`][scopa.Rules] as [`GameState`][scopa.GameState] does.
    Under `claim_out`, each move comes twice, plain and as a claim that the player's side
    has reached the target (the odd choices of a card: [`is_claim`][scopa.batch.Env.is_claim]);
    within a hand a claim plays as the plain move does, as it does on a `GameState`: the
    match judges it ([`Match`][scopa.Match]), not the hand.

    Raises:
        RulesError: the rules have a knob the engine does not know set to other than its
            default, or a scoring component of your own (the message names it).
        InvalidArgumentError: `rewards` is not one of those three.
        TypeError: `rules` is not a `Rules`, or `rewards` is not a string.
    """

    def __init__(self, rules: Rules, *, rewards: Rewards = "points") -> None:
        """The environment of `rules`, paying `rewards`."""
        check_type(rules, Rules, "rules")
        _check_supported(rules)
        check_type(rewards, str, "rewards")
        if rewards not in get_args(Rewards):
            raise InvalidArgumentError(
                f"rewards must be 'points', 'margin' or 'zero-sum', not {quote(rewards)}"
            )
        self.rules: Final = rules
        """The rules played."""
        self.rewards: Final[Rewards] = rewards
        """What the step that ends a hand pays: `"points"`, `"margin"` or `"zero-sum"`."""
        self.num_players: Final = rules.players
        """The number of players."""
        self.num_actions: Final = _ACTIONS
        """The number of compact action ids: 2,560."""
        self.observation_size: Final = ObservationLayout.of(rules.players, rules.declarations).size
        """The length of an observation."""
        self._sides: Final = rules.number_of_sides
        self._deals: Final = rules.deals_per_hand
        self._hand_size: Final = rules.hand_size
        self._in_play: Final = np.array(
            [rules.in_play_mask >> card & 1 for card in range(_CARDS)], bool
        )
        self._deck_size: Final = rules.deck_size
        self._declarations: Final = rules.declarations
        # the plays that announce each move: with a claim or not (declarations vary by hand)
        self._claims: Final = 2 if rules.claim_out else 1
        # whether a play can show what its player does not hold (see `resample`)
        self._tells: Final = (
            rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
            or rules.ace_first_lead_forbidden
        )
        # compiled once per environment: the public methods call these
        self._jit_init: Final[Callable[[Array, Array], State]] = jax.jit(self._init)
        self._jit_deal: Final[Callable[[Array, Array], State]] = jax.jit(self._deal)
        self._jit_step: Final[Callable[[State, _ActionId], State]] = jax.jit(self._step)
        self._jit_observe: Final[Callable[[State, Array], Array]] = jax.jit(self._observe_any)
        self._jit_resample: Final[Callable[[State, Array], State]] = jax.jit(self._resample)
        # each hand size divided by the rules' hand size, as the scalar encoding rounds it
        self._size_scale: Final = np.array(
            [size / rules.hand_size for size in range(rules.hand_size + 1)], np.float32
        )

    def __repr__(self) -> str:
        paid = "" if self.rewards == "points" else f", rewards={self.rewards!r}"
        return f"Env({self.rules!r}{paid})"

    # -------------------------------------------------------------- dealing

    def init(self, key: Array, dealer: int | Array = 0) -> State:
        """A hand dealt from a shuffle drawn with a `jax.random` key, by `dealer`.

        A shuffle whose first table the misdeal rule annuls is drawn again (with a key split
        from the last one), so the deal is uniform among the deals the rules accept.

        Raises:
            InvalidArgumentError: a concrete (not traced) dealer is not a player.
        """
        self._check_dealer(dealer)
        return self._jit_init(key, jnp.asarray(dealer, jnp.int32))

    def _init(self, key: Array, dealer: Array) -> State:

        def shuffle(carried: tuple[Array, Array]) -> tuple[Array, Array]:
            key, _ = carried
            key, drawn = jax.random.split(key)
            return key, jax.random.permutation(drawn, _CARDS).astype(jnp.int32)

        def annulled(carried: tuple[Array, Array]) -> Array:
            return self._annulled(self._in_play_order(carried[1]))

        first = shuffle((key, jnp.zeros(_CARDS, jnp.int32)))
        _, order = jax.lax.while_loop(annulled, shuffle, first)
        return self._deal(order, dealer)

    def deal(self, order: Array | Any, dealer: int | Array = 0) -> State:
        """The hand dealt from a deck order (`int32[40]` card indices) by `dealer`.

        Cards go as [`GameState.new`][scopa.GameState.new] deals a `Deck` of that order:
        under rules of fewer cards (`ranks`, `suits`), the cards in play in that order, the
        others left out. A deal whose first table the misdeal rule annuls gives a state with
        `misdeal` and `terminated` set, nobody to move, no legal action, zero rewards and a
        zero observation. When `order` and `dealer` are concrete (not traced), they are checked.

        Raises:
            InvalidStateError: a concrete order is not a permutation of 0 to 39.
            InvalidArgumentError: a concrete dealer is not a player.
        """
        if not isinstance(order, jax.core.Tracer):
            given = np.asarray(order)
            if given.shape != (_CARDS,) or sorted(given.tolist()) != list(range(_CARDS)):
                raise InvalidStateError(
                    f"a deck order must hold each card index 0 to 39 once, not {quote(given)}"
                )
        self._check_dealer(dealer)
        return self._jit_deal(jnp.asarray(order, jnp.int32), jnp.asarray(dealer, jnp.int32))

    def _check_dealer(self, dealer: int | Array) -> None:
        """Check a concrete dealer (a traced one is taken as it is)."""
        self._check_player(dealer, "dealer")

    def _check_player(self, player: int | Array, what: str) -> None:
        """Check a concrete player number named `what` (a traced one is taken as it is)."""
        if isinstance(player, jax.core.Tracer):
            return
        given = np.asarray(player)
        if given.shape or given.dtype.kind not in "iu" or not 0 <= given < self.num_players:
            raise InvalidArgumentError(
                f"{what} must be a player number from 0 to {self.num_players - 1}, "
                f"not {quote(player)}"
            )

    def _annulled(self, order: Array) -> Array:
        """Whether the misdeal rule annuls the first table of an order of the cards in play."""
        rules = self.rules
        start = rules.players * rules.hand_size
        table = jnp.zeros(_CARDS, bool).at[order[start : start + rules.table_size]].set(True)
        by_rank = _captures.by_rank(table)
        kings, aces = by_rank[9], by_rank[0]
        misdeal = rules.misdeal
        if misdeal is MisdealRule.THREE_PLUS_KINGS:
            return kings >= 3
        if misdeal is MisdealRule.TRETRE:
            return (kings >= 3) | jnp.any(by_rank == 4)
        if misdeal is MisdealRule.CIRULLA:
            return aces >= 2
        return jnp.asarray(False)

    def _in_play_order(self, order: Array) -> Array:
        """The cards in play of a deck order (`int32[deck_size]`), in that order."""
        if self._deck_size == _CARDS:
            return order
        out = jnp.asarray(~self._in_play)[order]
        return order[jnp.argsort(out, stable=True)][: self._deck_size]

    def _deal(self, order: Array, dealer: Array) -> State:
        rules = self.rules
        n = rules.players
        size = rules.hand_size
        first = n * size
        table_end = first + rules.table_size
        leader = (dealer + 1) % n
        order = self._in_play_order(order)
        table = jnp.zeros(_CARDS, bool).at[order[first:table_end]].set(True)
        # Deal d gives the cards of `blocks[d, j]` to the j-th player from the leader.
        stock = jnp.concatenate([order[:first], order[table_end:]])
        blocks = jax.nn.one_hot(stock.reshape(self._deals, n, size), _CARDS, dtype=bool)
        blocks = jnp.any(blocks, axis=2)
        seats = (jnp.arange(n) - leader) % n
        deals = blocks[:, seats]
        misdeal = self._annulled(order)
        piles = jnp.zeros((n, _CARDS), bool)
        scope = jnp.zeros(n, jnp.int32)
        last = jnp.asarray(-1, jnp.int32)
        if rules.first_table is not FirstTable.NOTHING:  # a table of 15 or 30 is swept at once
            sweeps = jnp.where(misdeal, 0, self._first_table_sweeps(table))
            taker = leader if rules.first_table_to_eldest else dealer
            swept = sweeps > 0
            piles = piles.at[taker].set(table & swept)
            scope = scope.at[taker].set(sweeps)
            last = jnp.where(swept, taker, last).astype(jnp.int32)
            table = table & ~swept
        declaring = n if self._declarations else 0
        state = State(
            current_player=jnp.where(misdeal, -1, leader).astype(jnp.int32),
            legal_action_mask=jnp.zeros(_ACTIONS, bool),
            observation=jnp.zeros(self.observation_size, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=misdeal,
            illegal_action=jnp.asarray(False),
            misdeal=misdeal,
            _hands=deals[0],
            _table=table,
            _piles=piles,
            _scope=scope,
            _deals=deals,
            _dealt=jnp.asarray(1, jnp.int32),
            _dealer=dealer,
            _last_capturer=last,
            _lays=jnp.zeros(11, bool),
            _pairs=jnp.zeros(11, jnp.int32),
            _sums=jnp.zeros(11 if rules.capture_to_fifteen else 0, jnp.int32),
            _sum_size=jnp.zeros(11, jnp.int32),
            _counts=jnp.zeros(_CARDS, jnp.int32),
            _lacks=jnp.zeros((n, _RANKS), bool),
            _declarable=jnp.zeros(2 if self._declarations else 0, bool),
            _declared=jnp.zeros(declaring, jnp.int32),
            _revealed=jnp.zeros((declaring, _CARDS), bool),
        )
        return self._with_choices(state)

    def _first_table_sweeps(self, table: Array) -> Array:
        """How many scope a first table is worth at once under `first_table` (int32: 0 to 2).

        A total of 15 is one scopa, of 30 two (under `TWO_GROUPS`, only when the cards split
        into two groups of 15). A matta on the table counts whatever value from 1 to 10
        makes 15 or 30.
        """
        rules = self.rules
        plain = table
        wild = jnp.asarray(False)
        if rules.matta is not None:
            wild = table[rules.matta.index]
            plain = table.at[rules.matta.index].set(False)
        total = jnp.sum(jnp.where(plain, jnp.asarray(_RANK_OF), 0))

        def matta_for(wanted: int) -> Array:
            """The matta's value that makes `wanted` (0 without a matta), or -1 for none."""
            value = wanted - total
            return jnp.where(wild, jnp.where((value >= 1) & (value <= 10), value, -1), 0)

        thirty = jnp.where(wild, matta_for(30) > 0, total == 30)
        if rules.first_table is FirstTable.TWO_GROUPS:
            groups = self._group_totals(plain)  # what some group of the plain cards adds up to
            value = matta_for(30)
            thirty = thirty & (groups[15] | ((value > 0) & groups[jnp.clip(15 - value, 0, 15)]))
        fifteen = jnp.where(wild, matta_for(15) > 0, total == 15)
        return jnp.where(jnp.any(table), jnp.where(thirty, 2, jnp.where(fifteen, 1, 0)), 0)

    @staticmethod
    def _group_totals(cards: Array) -> Array:
        """Which totals from 0 to 15 some group of `cards` adds up to (bool[16])."""
        counts = _captures.by_rank(cards)
        totals = jnp.arange(16)
        reachable = totals == 0
        for rank in range(1, _RANKS + 1):
            options = [reachable]
            for taken in range(1, 5):
                source = jnp.clip(totals - rank * taken, 0, 15)
                shifted = (totals >= rank * taken) & reachable[source]
                options.append(shifted & (counts[rank - 1] >= taken))
            reachable = functools.reduce(jnp.logical_or, options)
        return reachable

    # -------------------------------------------------------------- the moves

    def _choices(self, hand: Array, table: Array) -> tuple[Array, Array, Array, Array, Array]:
        """By rank: whether laying comes first, the captures of each kind, the sums' size.

        Returns `lays` (bool[11]), `pairs`, `sums` and `fifteens` (the number of captures
        of each kind, int32[11]; no fifteens without `capture_to_fifteen`) and `sum_size`
        (int32[11]: the number of cards the sums take, 0 for any).
        """
        rules = self.rules
        by_rank = _captures.by_rank(table)
        equal = jnp.concatenate([jnp.zeros(1, jnp.int32), by_rank])
        pairs = equal if rules.capture_by_rank else jnp.zeros(11, jnp.int32)
        sums, sum_size = _captures.sum_captures(
            by_rank, fewest=rules.capture_priority is CapturePriority.MIN_CARDS
        )
        if not rules.capture_by_sum:
            sums = jnp.zeros(11, jnp.int32)
        if rules.capture_priority is not CapturePriority.FREE:
            sums = jnp.where(pairs > 0, 0, sums)  # an equal card is taken alone
        # captures to fifteen come whatever the priority, which rules only the others
        fifteens = jnp.zeros(11, jnp.int32)
        if rules.capture_to_fifteen:
            fifteens = _captures.fifteen_captures(by_rank)
        if rules.ace_captures_all:  # an Ace takes the table, or each Ace on it alone
            one_by_one = rules.ace_with_ace_on_table is AceOnAce.TAKE_ACE_ONLY
            alone = by_rank[0] if one_by_one else jnp.asarray(0)
            sweeping = self._ace_sweeps(table)
            pairs = pairs.at[1].set(jnp.where(sweeping, alone, pairs[1]))
            whole = (jnp.any(table) & (alone == 0)).astype(jnp.int32)
            sums = sums.at[1].set(jnp.where(sweeping, whole, sums[1]))
            fifteens = fifteens.at[1].set(jnp.where(sweeping, 0, fifteens[1]))
        captures = pairs + sums + fifteens
        lays = jnp.asarray(rules.compulsory_capture is CompulsoryCapture.NONE) | (captures == 0)
        if rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD:
            held = jnp.any(hand.reshape(4, 10), axis=0)  # by rank - 1
            lays = lays & ~jnp.any(held & (captures[1:] > 0))
        return lays, pairs, sums, fifteens, sum_size

    def _ace_sweeps(self, table: Array) -> Array:
        """Whether a played Ace takes the whole table (or an Ace on it), not as other cards."""
        if not self.rules.ace_captures_all:
            return jnp.asarray(False)
        if self.rules.ace_with_ace_on_table is AceOnAce.CAPTURE_NORMALLY:
            return ~jnp.any(table.reshape(4, 10)[:, 0])
        return jnp.asarray(True)

    def _declarable(self, hand: Array) -> Array:
        """Whether a hand may be declared busso, and tris (bool[2]), as `Declaration.allows`.

        Only a full hand (its player's first play of the deal) may; the matta counts 1 in a
        busso, and any rank in a tris.
        """
        matta = self.rules.matta
        plain = hand
        wild = jnp.asarray(0)
        if matta is not None:
            wild = hand[matta.index].astype(jnp.int32)
            plain = hand.at[matta.index].set(False)
        busso = jnp.sum(jnp.where(plain, jnp.asarray(_RANK_OF), 0)) + wild < 10
        tris = jnp.sum(jnp.any(plain.reshape(4, 10), axis=0)) == 1
        full = jnp.sum(hand) == self._hand_size
        return jnp.stack([busso, tris]) & full

    def _announced(self, state: State) -> Array:
        """How many legal ids each move of the player to move has (int32).

        The plain move and its declarations (`_declarable`), each with a claim or not.
        """
        forms = jnp.asarray(self._claims, jnp.int32)
        if self._declarations:
            forms = forms * (1 + jnp.sum(state._declarable, dtype=jnp.int32))
        return forms

    def _with_choices(self, state: State) -> State:
        """The state with its mask, observation and move books made for the player to move."""
        to_move = state.current_player
        playing = to_move >= 0
        held = state._hands[jnp.maximum(to_move, 0)] & playing
        hand = held
        if self.rules.ace_first_lead_forbidden:  # no Ace at the first play, if possible
            first = (state._dealt == 1) & (
                jnp.sum(state._hands) == self.num_players * self._hand_size
            )
            others = hand & (jnp.asarray(_RANK_OF) != 1)
            hand = jnp.where(first & jnp.any(others), others, hand)
        lays, pairs, sums, fifteens, sum_size = self._choices(hand, state._table)
        count = lays.astype(jnp.int32) + pairs + sums + fifteens
        if self._declarations:
            state = dataclasses.replace(state, _declarable=self._declarable(held))
        if self._declarations or self._claims > 1:
            count = count * self._announced(state)
        per_card = jnp.minimum(count[_RANK_OF], COMPACT_OPTIONS)
        mask = hand[:, None] & (jnp.arange(COMPACT_OPTIONS) < per_card[:, None])
        observer = jnp.where(playing, to_move, state._dealer)
        observation = jnp.where(state.misdeal, 0.0, self._observe(state, observer))
        return dataclasses.replace(
            state,
            legal_action_mask=mask.reshape(_ACTIONS),
            observation=observation,
            _lays=lays,
            _pairs=pairs,
            _sums=sums if self.rules.capture_to_fifteen else state._sums,
            _sum_size=sum_size,
            _counts=jnp.where(hand, per_card, 0).astype(jnp.int32),
        )

    def _move(self, state: State, choice: Array) -> tuple[Array, Array, Array]:
        """What the `choice`-th legal id of a card of the player to move plays.

        The move's place among the card's moves, its declaration (0 none, 1 busso, 2 tris)
        and whether it claims.
        """
        if not (self._declarations or self._claims > 1):
            return choice, jnp.asarray(0), jnp.asarray(False)
        forms = self._announced(state)
        move = choice // forms
        claim = (choice % self._claims == 1) if self._claims > 1 else jnp.asarray(False)
        declaration = jnp.asarray(0)
        if self._declarations:
            form = choice % forms // self._claims  # 0 plain, then each declaration allowed
            busso = state._declarable[0]
            declaration = jnp.where(form == 0, 0, jnp.where((form == 1) & busso, _BUSSO, _TRIS))
        return move, declaration, claim

    def _taken(self, state: State, card: Array, move: Array) -> Array:
        """The table cards (bool[40]) that the `move`-th move of `card` takes (`_move`)."""
        rank = card % 10 + 1
        table = state._table
        k = move - state._lays[rank].astype(jnp.int32)
        pairs = state._pairs[rank]
        # the k-th table card of the card's rank, suits in index order
        equal = table.reshape(4, 10)[:, rank - 1]
        suit = jnp.argmax(equal & (jnp.cumsum(equal) == k + 1))
        pair = jnp.arange(_CARDS) == suit * 10 + rank - 1
        summed = _captures.kth_sum(table, rank, state._sum_size[rank], k - pairs)
        summed = jnp.where((rank == 1) & self._ace_sweeps(table), table, summed)
        if self.rules.capture_to_fifteen:  # after the sums
            past = k - pairs - state._sums[rank]
            summed = jnp.where(past >= 0, _captures.kth_fifteen(table, rank, past), summed)
        taken = jnp.where(k < pairs, pair, summed)
        return jnp.where(k < 0, jnp.zeros(_CARDS, bool), taken)

    def is_claim(self, action: Array | npt.NDArray[np.integer[Any]] | int) -> Array:
        """Whether a legal compact id claims that the player's side has reached the target.

        Under `claim_out`, the odd choices of each card are the claiming forms of the moves
        just before them; under other rules no id claims. Returns a `bool` array of the
        shape of `action` (one id or several).
        """
        if self._claims == 1:
            return jnp.zeros(jnp.shape(action), bool)
        return jnp.asarray(action) % COMPACT_OPTIONS % 2 == 1

    def move_facts(self, state: State) -> tuple[Array, Array]:
        """The legal moves of the player to move, by hand slot, and their move facts.

        The slots are the first `FACT_CHOICES` legal ids of each card in the hand, cards in
        index order: `hand_size * FACT_CHOICES` slots. Returns the compact id of each slot
        (`int32`, -1 where no legal move is) and its
        [`move_facts`][scopa.encoding.move_facts] (`float32[slots, MOVE_FACTS]`, zeros
        where no legal move is), as the scalar function gives them for the same move (a
        declaration or a claim adds nothing to the facts of its move).
        """
        to_move = jnp.maximum(state.current_player, 0)
        hand = state._hands[to_move]
        cards = jnp.nonzero(hand, size=self._hand_size, fill_value=0)[0].astype(jnp.int32)
        cards = jnp.repeat(cards, FACT_CHOICES)
        choices = jnp.tile(jnp.arange(FACT_CHOICES, dtype=jnp.int32), self._hand_size)
        ids = cards * COMPACT_OPTIONS + choices
        legal = state.legal_action_mask[ids] & (
            jnp.arange(ids.shape[0]) // FACT_CHOICES < jnp.sum(hand)
        )
        moves = jax.vmap(self._move, in_axes=(None, 0))(state, choices)[0]
        taken = jax.vmap(self._taken, in_axes=(None, 0, 0))(state, cards, moves)
        seen = hand | state._table | jnp.any(state._piles, axis=0)
        if self._declarations:
            seen = seen | jnp.any(state._revealed, axis=0)
        facts = jax.vmap(_facts, in_axes=(None, None, 0, 0))(state._table, ~seen, cards, taken)
        return jnp.where(legal, ids, -1), jnp.where(legal[:, None], facts, 0.0)

    def step(
        self, state: State, action: Array | npt.NDArray[np.integer[Any]] | np.integer[Any] | int
    ) -> State:
        """The state after the player to move plays the compact action id `action`.

        An action that is not legal here (out of range, not in `legal_action_mask`, or any
        action once the hand is over) changes nothing but sets `illegal_action` and zeroes
        `rewards`; [`step_checked`][scopa.batch.Env.step_checked] raises instead. An id is
        judged whole, in its own integer type: `2**32 + 5` is out of range, not 5.

        `jax.jit` and `jax.vmap` convert their arguments before the step sees them: without
        `jax_enable_x64`, JAX cuts a 64-bit integer argument to 32 bits there. Give them
        `int32` ids (or enable 64 bits) to have every id judged whole.

        Raises:
            TypeError: `action` is not an integer (a float, a bool, a string), which its
                type shows even when it is traced.
            InvalidArgumentError: `action` is not one id (a scalar) but an array.
        """
        return self._jit_step(state, _action_id(action))

    def _step(self, state: State, action: Array) -> State:
        # Compared in its own type where int32 cannot hold every value of it (uint32, and
        # 64-bit integers under jax_enable_x64), so that no id wraps into range.
        if action.dtype.itemsize < 4 or action.dtype == jnp.int32:
            action = action.astype(jnp.int32)
        in_range = (action >= 0) & (action < _ACTIONS)
        action = jnp.where(in_range, action, 0).astype(jnp.int32)
        legal = in_range & state.legal_action_mask[action]
        played = self._play(state, action)
        kept = dataclasses.replace(
            state, illegal_action=jnp.asarray(True), rewards=jnp.zeros_like(state.rewards)
        )
        chosen: State = jax.tree_util.tree_map(
            lambda new, old: jnp.where(legal, new, old), played, kept
        )
        return chosen

    def random_action(self, state: State, key: Array) -> Array:
        """A legal compact id for the player to move, drawn uniformly with a `jax.random` key.

        Every legal id is equally likely (`int32`; 0, which is not legal, once the hand is
        over). It reads how many legal ids each card has, which the step keeps beside the
        mask, rather than the 2,560 entries of the mask: a random player costs next to
        nothing beside the step. `jax.vmap(env.random_action)(states, keys)` draws for a
        batch.
        """
        counts = state._counts
        ends = jnp.cumsum(counts)
        legal = ends[-1]
        drawn = jax.random.randint(key, (), 0, jnp.maximum(legal, 1))
        after = ends > drawn
        card = jnp.argmax(after)
        before = jnp.sum(jnp.where(after, 0, counts))
        action = card * COMPACT_OPTIONS + drawn - before
        return jnp.where(legal > 0, action, 0).astype(jnp.int32)

    def sample_action(self, state: State, logits: Array | Any, key: Array) -> Array:
        """A legal compact id drawn from a policy's `logits` over the 2,560 ids.

        Each legal id comes with probability the softmax of `logits` over the legal ids:
        the law of `jax.random.categorical(key, jnp.where(state.legal_action_mask, logits,
        -jnp.inf))`, both up to float32 rounding (neither resolves a probability below
        about 1e-7). It draws a card, then one of the card's legal ids, from the number of
        legal ids of each card that the step keeps: it reads only the logits of the cards
        in the hand and uses two random numbers, not 2,560. Logits at ids that are not
        legal are ignored; a legal id whose logit is -inf is never drawn, unless every
        legal logit is -inf: then every legal id is equally likely, as with
        [`random_action`][scopa.batch.Env.random_action]. Give finite logits or -inf;
        whatever they are (`inf` and NaN included), the id drawn is legal.

        Returns the id (`int32`; 0, which is not legal, once the hand is over).
        `jax.vmap(env.sample_action)(states, logits, keys)` draws for a batch.

        Raises:
            InvalidArgumentError: `logits` is not one value per compact id (`[2560]`).
        """
        shape = jnp.shape(logits)
        if shape != (_ACTIONS,):
            raise InvalidArgumentError(
                f"logits must hold one value per compact id, shape ({_ACTIONS},), "
                f"not {shape} (vmap sample_action for a batch)"
            )
        drawn: Array = _sample.sample_action(
            state._counts, jnp.asarray(logits), key, self._hand_size
        )
        return drawn

    def step_checked(
        self, state: State, action: Array | npt.NDArray[np.integer[Any]] | np.integer[Any] | int
    ) -> State:
        """`step`, for a concrete (not traced) state and action: an illegal action raises.

        Raises:
            IllegalMoveError: the action is not a legal compact id for the player to move
                (out of range, not in `legal_action_mask`, or the hand is over).
            TypeError: the action is not an integer (a float, a bool, a string), or is
                traced.
            InvalidArgumentError: the state or the action is a batch.
        """
        number = _checked_id(action, state.legal_action_mask, state.terminated, "hand")
        return self.step(state, number)

    def _play(self, state: State, action: Array) -> State:
        """The state after a legal action."""
        rules = self.rules
        n = rules.players
        player = state.current_player
        card = action // COMPACT_OPTIONS
        move, declaration, _ = self._move(state, action % COMPACT_OPTIONS)
        taken = self._taken(state, card, move)
        bit = jnp.arange(_CARDS) == card
        hands = state._hands.at[player].set(state._hands[player] & ~bit)
        declared, revealed = state._declared, state._revealed
        if self._declarations:  # a declared hand is shown: the cards left in it
            declared = declared.at[player].add(jnp.asarray(_POINTS)[declaration])
            shown = jnp.where(declaration > 0, hands[player], revealed[player] & ~bit)
            revealed = revealed.at[player].set(shown)
        round_over = (player == state._dealer) & ~jnp.any(hands[player])
        final = round_over & (state._dealt >= self._deals)
        redeal = round_over & ~final
        hands = jnp.where(redeal, state._deals[jnp.minimum(state._dealt, self._deals - 1)], hands)
        dealt = state._dealt + redeal.astype(jnp.int32)
        captures = jnp.any(taken)
        kept = captures  # the card goes to the player's pile
        if rules.ace_on_empty_table_captures_itself:  # an Ace laid on an empty table, too
            kept = captures | ((card % 10 == 0) & ~jnp.any(state._table))
        table = jnp.where(kept, state._table & ~taken, state._table | bit)
        piles = state._piles.at[player].set(
            jnp.where(kept, state._piles[player] | taken | bit, state._piles[player])
        )
        sweep = captures & ~jnp.any(table)
        if rules.ace_captures_all and not rules.ace_sweep_is_scopa:  # unless an Ace took an Ace
            took_ace = rules.ace_with_ace_on_table is not AceOnAce.TAKE_ALL
            aces = jnp.asarray(_RANK_OF) == 1
            ace_sweep = (card % 10 == 0) & ~(took_ace & jnp.any(taken & aces))
            sweep = sweep & ~ace_sweep
        if not rules.scopa_on_last_play:
            sweep = sweep & ~final
        scope = state._scope.at[player].add(sweep.astype(jnp.int32))
        lacks = state._lacks
        if self._tells:
            lacks = lacks.at[player].set(lacks[player] | self._told(state, card, captures))
            lacks = jnp.where(round_over, False, lacks)  # a new deal: nothing shown of it yet
        last = jnp.where(kept, player, state._last_capturer)
        if rules.leftovers is not Leftovers.NOBODY:
            taker = last if rules.leftovers is Leftovers.LAST_CAPTURER else state._dealer
            gathered = final & (taker >= 0)
            taker = jnp.maximum(taker, 0)
            piles = piles.at[taker].set(jnp.where(gathered, piles[taker] | table, piles[taker]))
            table = table & ~gathered
        after = dataclasses.replace(
            state,
            current_player=jnp.where(final, -1, (player + 1) % n).astype(jnp.int32),
            rewards=jnp.where(final, self._rewards(piles, scope, declared), 0.0),
            terminated=final,
            illegal_action=jnp.asarray(False),
            _hands=hands,
            _table=table,
            _piles=piles,
            _scope=scope,
            _dealt=dealt,
            _last_capturer=last,
            _lacks=lacks,
            _declared=declared,
            _revealed=revealed,
        )
        return self._with_choices(after)

    def _told(self, state: State, card: Array, captures: Array) -> Array:
        """By rank - 1, the ranks that playing `card` shows its player does not hold.

        Under `CompulsoryCapture.CAPTURING_CARD`, a card laid down shows a hand with no card
        that captures on that table; under `ace_first_lead_forbidden`, an Ace played first
        shows a hand of Aces, and another card played first shows nothing of the Aces
        (they were set aside). As [`PlayerView.resample`][scopa.PlayerView.resample] reads
        the plays.
        """
        rules = self.rules
        told = jnp.zeros(_RANKS, bool)
        if rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD:
            # which ranks capture depends on the table alone, not on the hand
            _, pairs, sums, fifteens, _ = self._choices(jnp.zeros(_CARDS, bool), state._table)
            told = ((pairs + sums + fifteens)[1:] > 0) & ~captures
        if rules.ace_first_lead_forbidden:
            n = self.num_players
            first = (state._dealt == 1) & (jnp.sum(state._hands) == n * self._hand_size)
            aces = jnp.arange(_RANKS) == 0
            ace = card % 10 == 0
            told = jnp.where(first & ace, told | ~aces, jnp.where(first, told & ~aces, told))
        return told

    # -------------------------------------------------------------- what a player sees

    def observe(self, state: State, player: int | Array) -> Array:
        """The observation of `player`'s view of the hand (`float32[observation_size]`).

        `state.observation` is the one of the player to move; this is any player's, as
        [`observation`][scopa.encoding.observation] gives it of `view(position, player)`,
        all 0 for an annulled deal. `jax.vmap(env.observe)(states, players)` observes a
        batch.

        Raises:
            InvalidArgumentError: a concrete (not traced) player is not a player number.
        """
        self._check_player(player, "player")
        return self._jit_observe(state, jnp.asarray(player, jnp.int32))

    def _observe_any(self, state: State, me: Array) -> Array:
        return jnp.where(state.misdeal, 0.0, self._observe(state, me))

    def position(self, state: State) -> GameState:
        """The position of one concrete (not traced) state, as a [`GameState`][scopa.GameState].

        The hands, the table, the piles, the scope, the stock (the deals still to come, in
        dealing order), the dealer, the player to move, the last capturer, and under
        declarations the points declared and the cards shown, are the state's, as
        [`GameState.from_position`][scopa.GameState.from_position] builds them:
        it has no history of plays, so each player's view is the state's less the plays
        that led there. An annulled deal gives the position as dealt.

        Raises:
            InvalidArgumentError: `state` is a batch of states, not one.
        """
        hands, piles = np.asarray(state._hands), np.asarray(state._piles)
        if hands.shape != (self.num_players, _CARDS):
            raise InvalidArgumentError("position takes one state, not a batch")
        n = self.num_players
        dealer = int(np.asarray(state._dealer))
        deals = np.asarray(state._deals)
        stock = [
            DECK[card]
            for deal in range(int(np.asarray(state._dealt)), self._deals)
            for seat in range(n)
            for card in np.flatnonzero(deals[deal, (dealer + 1 + seat) % n])
        ]
        last = int(np.asarray(state._last_capturer))
        declared = revealed = None
        if self._declarations:
            declared = [int(points) for points in np.asarray(state._declared)]
            revealed = [_cards(shown) for shown in np.asarray(state._revealed)]
        return GameState.from_position(
            self.rules,
            hands=[_cards(hand) for hand in hands],
            table=_cards(np.asarray(state._table)),
            stock=stock,
            dealer=dealer,
            piles=[_cards(pile) for pile in piles],
            scope=[int(made) for made in np.asarray(state._scope)],
            last_capturer=None if last < 0 else last,
            declared=declared,
            revealed=revealed,
        )

    def resample(self, state: State, key: Array) -> State:
        """The state with what the player to move cannot see drawn again with a `jax.random` key.

        The other players' hands (at their sizes) and the deals still to come are dealt
        anew from the cards the player to move has not seen (in play, in no pile, not on
        the table, not in their own hand, not shown by a declaration: the cards a
        declaration showed stay in their hand), uniformly among the deals that agree with
        every play seen, as [`PlayerView.resample`][scopa.PlayerView.resample] draws them:
        under `CompulsoryCapture.CAPTURING_CARD` a player who laid a card down in this deal
        holds no card that could have captured then, and under `ace_first_lead_forbidden`
        an Ace played first shows a hand of Aces. What the player to move sees stays as it is:
        their hand, the table, the piles, the scope, the turn, and so the observation and
        the legal mask. A hand that is over is returned as it is.

        A search that plays on from the resampled state sees only what the player to move
        may know. `jax.vmap(env.resample)(states, keys)` resamples a batch.

        Under those two rules the draw counts the deals that agree, rank by rank, in tables
        of a size that grows with the number of players (as the hand size plus one to the
        power of the players less one): rules too large for them are refused.

        Raises:
            RulesError: rules with one of those two knobs and too many players for the
                tables (the message says how many).
        """
        if self._tells:
            _ = self._counting  # refuses rules too large to count
        return self._jit_resample(state, key)

    def _resample(self, state: State, key: Array) -> State:
        n = self.num_players
        viewer = jnp.maximum(state.current_player, 0)
        unseen = ~(state._hands[viewer] | state._table | jnp.any(state._piles, axis=0))
        if self._deck_size < _CARDS:
            unseen = unseen & self._in_play
        shown = jnp.zeros((n, _CARDS), bool)
        if self._declarations:
            shown = state._revealed
            unseen = unseen & ~jnp.any(shown, axis=0)
        sizes = jnp.sum(state._hands & ~shown, axis=1, dtype=jnp.int32)  # the cards hidden
        others = jnp.arange(n) != viewer
        hand_key, stock_key = jax.random.split(key)
        if self._tells:
            drawn = self._draw_told_hands(state, viewer, unseen, sizes, hand_key)
        else:
            drawn = _split(_places(unseen, hand_key), unseen, jnp.where(others, sizes, 0))
        rest = unseen & ~jnp.any(drawn, axis=0)  # the stock, in no order yet
        later = jnp.arange(self._deals) >= state._dealt
        per_hand = jnp.repeat(jnp.where(later, self._hand_size, 0), n)  # by deal, then player
        coming = _split(_places(rest, stock_key), rest, per_hand).reshape(self._deals, n, _CARDS)
        hands = jnp.where(others[:, None], drawn | shown, state._hands)
        current = state._dealt - 1
        played = state._deals[current] & ~state._hands  # this deal's cards played so far
        deals = jnp.where(later[:, None, None], coming, state._deals)
        deals = deals.at[current].set(played | hands)
        resampled = dataclasses.replace(state, _hands=hands, _deals=deals)
        chosen: State = jax.tree_util.tree_map(
            lambda old, new: jnp.where(state.terminated, old, new), state, resampled
        )
        return chosen

    @functools.cached_property
    def _counting(self) -> _Counting:
        """The tables of `_draw_told_hands` (built once, on the first resample)."""
        return _Counting.of(self.rules)

    def _draw_told_hands(
        self, state: State, viewer: Array, unseen: Array, sizes: Array, key: Array
    ) -> Array:
        """The other players' hands (bool[players, 40]), drawn within what their plays show.

        Every deal of the unseen cards to the other hands and the stock that agrees with
        `_lacks` is equally likely. The cards of a rank are alike to `_lacks`, so the draw
        first chooses how many cards of each rank each hand gets, rank by rank, each choice
        weighted by the number of deals it leaves (counted backwards from the last rank
        over the hands' unfilled sizes), then which cards of each rank.
        """
        counting = self._counting
        others = (viewer + 1 + jnp.arange(self.num_players - 1)) % self.num_players
        allowed = ~state._lacks[others]  # [other, rank - 1]
        by_rank = jnp.sum(unseen.reshape(4, _RANKS), axis=0, dtype=jnp.int32)
        splits = jnp.asarray(counting.splits)  # [split, other]
        taken = jnp.sum(splits, axis=1)
        fits = (taken[None, :] <= by_rank[:, None]) & jnp.all(
            (splits[None, :, :] == 0) | allowed.T[:, None, :], axis=2
        )  # [rank - 1, split]
        factorial = jnp.asarray(_FACTORIALS)
        ways = factorial[by_rank][:, None] / (
            jnp.prod(factorial[splits], axis=1)[None, :]
            * factorial[jnp.clip(by_rank[:, None] - taken[None, :], 0, 4)]
        )
        ways = jnp.where(fits, ways, 0.0)  # [rank - 1, split]: the ways to pick its cards
        source = jnp.asarray(counting.source)  # [unfilled, split]: unfilled after the split
        within = jnp.asarray(counting.within)  # [unfilled, split]: the split fits in them

        def count_back(after: Array, rank: Array) -> tuple[Array, Array]:
            # after: by unfilled sizes, the deals of the ranks after `rank` (scaled)
            here = jnp.sum(jnp.where(within, ways[rank][None, :] * after[source], 0.0), axis=1)
            return here / jnp.maximum(jnp.max(here), _TINY), after

        filled = (jnp.arange(counting.states) == 0).astype(jnp.float32)
        _, afters = jax.lax.scan(count_back, filled, jnp.arange(_RANKS), reverse=True)
        count_key, card_key = jax.random.split(key)

        def draw(unfilled: Array, step: tuple[Array, Array]) -> tuple[Array, Array]:
            rank, drawn_key = step
            weights = jnp.where(within[unfilled], ways[rank] * afters[rank][source[unfilled]], 0)
            split = jax.random.categorical(drawn_key, jnp.log(weights))
            return source[unfilled, split], splits[split]

        start = jnp.sum(sizes[others] * jnp.asarray(counting.radix))
        steps = (jnp.arange(_RANKS), jax.random.split(count_key, _RANKS))
        _, counts = jax.lax.scan(draw, start, steps)  # [rank - 1, other]
        place = _places(unseen, card_key)
        rank = jnp.arange(_CARDS) % _RANKS
        alike = unseen[None, :] & (rank[None, :] == rank[:, None])
        order = jnp.sum(alike & (place[None, :] < place[:, None]), axis=1)  # among its rank
        ends = jnp.cumsum(counts, axis=1)[rank].T  # [other, card]
        starts = ends - counts[rank].T
        mine = unseen[None, :] & (order[None, :] >= starts) & (order[None, :] < ends)
        return jnp.zeros((self.num_players, _CARDS), bool).at[others].set(mine)

    def _observe(self, state: State, me: Array) -> Array:
        """The observation of player `me`'s view (see `scopa.encoding.observation`)."""
        n = self.num_players
        seats = (me + jnp.arange(n)) % n
        sizes = jnp.sum(state._hands, axis=1)
        stock = (self._deals - state._dealt) * n * self._hand_size
        to_move = state.current_player
        last = state._last_capturer
        parts = [
            state._hands[me].astype(jnp.float32),
            state._table.astype(jnp.float32),
            state._piles[seats].reshape(n * _CARDS).astype(jnp.float32),
            jnp.asarray(self._size_scale)[sizes[seats]],
            state._scope[seats].astype(jnp.float32),
            jnp.asarray(_STOCK_SCALE)[stock][None],
            _one_hot(jnp.where(to_move >= 0, (to_move - me) % n, n), n),
            _one_hot((state._dealer - me) % n, n),
            _one_hot(jnp.where(last >= 0, (last - me) % n, n), n + 1),
        ]
        if self._declarations:  # the cards each seat's declaration showed, its points
            parts.append(state._revealed[seats].reshape(n * _CARDS).astype(jnp.float32))
            parts.append(state._declared[seats].astype(jnp.float32))
        return jnp.concatenate(parts)

    # -------------------------------------------------------------- scoring

    def hand_score(self, state: State) -> tuple[Array, Array]:
        """The points of the cards taken so far, by scoring category; final once the hand is over.

        Returns each category's points for each side (`int32[categories, sides]`, the
        categories in the order of `rules.scoring.components`), as
        [`GameState.hand_score`][scopa.GameState.hand_score] gives them, and the side that
        wins the match outright with them (`int32`: the first category's
        `wins_match`, such as a napola of all ten denari; -1 for none). A side's points
        are those of its players together. `jax.vmap(env.hand_score)(states)` scores a
        batch.
        """
        taken = self._taken_by_sides(state._piles, state._scope, state._declared)
        return _score.score(self.rules.scoring.components, taken)

    def _taken_by_sides(self, piles: Array, scope: Array, declared: Array) -> _score.Taken:
        """What each side took: its players' piles, scope and declared points together."""
        sides = self._sides
        players = jnp.arange(self.num_players)
        mine = players[None, :] % sides == jnp.arange(sides)[:, None]  # [side, player]
        side_piles = jnp.any(mine[:, :, None] & piles[None, :, :], axis=1)
        side_scope = jnp.sum(jnp.where(mine, scope[None, :], 0), axis=1)
        side_declared = jnp.zeros(sides, jnp.int32)
        if self._declarations:
            side_declared = jnp.sum(jnp.where(mine, declared[None, :], 0), axis=1)
        suits = tuple(int(suit) for suit in self.rules.suits)
        return _score.Taken(side_piles, side_scope, side_declared, suits)

    def _rewards(self, piles: Array, scope: Array, declared: Array) -> Array:
        """What the hand pays each player, as `rewards` says (float32[players])."""
        sides = self._sides
        players = jnp.arange(self.num_players)
        taken = self._taken_by_sides(piles, scope, declared)
        points = jnp.sum(_score.score(self.rules.scoring.components, taken)[0], axis=0)
        if self.rewards == "points":
            return points[players % sides].astype(jnp.float32)
        won = points if not self.rules.lowest_total_wins else -points  # more is better
        others = ~jnp.eye(sides, dtype=bool)  # [side, other side]
        if self.rewards == "margin":
            best_other = jnp.max(jnp.where(others, won[None, :], _LOWEST), axis=1)
            paid = (won - best_other).astype(jnp.float32)
        else:
            rest = jnp.sum(won) - won
            paid = won.astype(jnp.float32) - rest.astype(jnp.float32) / (sides - 1)
        return paid[players % sides]


_SEVENS: Final = np.asarray(_RANK_OF == 7)
_SIXES: Final = np.asarray(_RANK_OF == 6)
_ACES: Final = np.asarray(_RANK_OF == 1)
_DENARI: Final = np.arange(_CARDS) < 10


def _facts(table: Array, unseen: Array, card: Array, taken: Array) -> Array:
    """The move facts (float32[MOVE_FACTS]) of playing `card`, taking `taken` (bool[40])."""
    bit = jnp.arange(_CARDS) == card
    captures = jnp.any(taken)
    won = jnp.where(captures, taken | bit, False)
    left = jnp.where(captures, table & ~taken, table | bit)
    total = jnp.sum(jnp.where(left, jnp.asarray(_RANK_OF), 0))
    sweepable = (total > 0) & (total <= 10)
    could_sweep = jnp.sum(unseen & (jnp.asarray(_RANK_OF) == total))
    rank = card % 10 + 1

    def count(cards: Array, of: Any = True) -> Array:
        return jnp.sum(cards & of).astype(jnp.float32)

    facts = [
        jnp.asarray(1.0),
        captures.astype(jnp.float32),
        count(won) / 4,
        count(won, _DENARI) / 2,
        count(won, _SEVENS) / 2,
        won[_SEVEN_OF_DENARI].astype(jnp.float32),
        (captures & ~jnp.any(left)).astype(jnp.float32),
        sweepable.astype(jnp.float32),
        jnp.where(sweepable, could_sweep, 0).astype(jnp.float32) / 4,
        count(left) / 10,
        rank.astype(jnp.float32) / 10,
        (card < 10).astype(jnp.float32),
        (rank == 7).astype(jnp.float32),
        (card == _SEVEN_OF_DENARI).astype(jnp.float32),
        left[_SEVEN_OF_DENARI].astype(jnp.float32),
        count(left, _SEVENS) / 4,
        count(won, _SIXES) / 2,
        count(won, _ACES) / 2,
    ]
    assert len(facts) == MOVE_FACTS
    return jnp.stack(facts)
