"""The batch engine: one hand as a function of fixed-shape arrays (see `scopa.batch`)."""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from typing import Any, Final

import attrs
import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from scopa._checks import check_type, quote
from scopa.batch import _tables
from scopa.cards import Rank, Suit
from scopa.encoding import COMPACT_OPTIONS, FACT_CHOICES, MOVE_FACTS, ObservationLayout
from scopa.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError, RulesError
from scopa.rules import AceOnAce, CapturePriority, FirstTable, MisdealRule, Rules
from scopa.scoring import (
    AssoDueTre,
    CardPoints,
    Carte,
    Declarations,
    Denari,
    Grande,
    MissingSuit,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    ReBello,
    Scope,
    ScoringComponent,
    Settebello,
)

__all__ = ["Env", "State"]

_CARDS: Final = 40
_ACTIONS: Final = _CARDS * COMPACT_OPTIONS
_RANK_OF: Final = np.arange(_CARDS, dtype=np.int32) % 10 + 1
"""The rank of each card index."""
_SEVEN_OF_DENARI: Final = 6
_KING_OF_DENARI: Final = 9

_COMB: Final = np.array(
    [[0] + [math.comb(n, k) for k in range(5)] + [0] for n in range(5)], np.int32
)
"""`comb(n, k)` at `[n, k + 1]` for `n` from 0 to 4, `k` from -1 to 5 (0 outside 0 to n)."""
_STOCK_SCALE: Final = np.array([size / _CARDS for size in range(_CARDS + 1)], np.float32)
"""Each stock size divided by 40, as the scalar encoding rounds it."""
_LOWEST: Final = int(np.iinfo(np.int32).min)
"""Below every figure: what an ineligible side shows."""

Array = jax.Array
_ActionId = Array | npt.NDArray[np.integer[Any]] | np.integer[Any] | int
# a compact action id: an int, a numpy integer (or 0-d integer array), or a JAX array


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
    """`float32[num_players]`: 0, except at the step that ends the hand: each player's
    points of the hand (those of the player's side, which every partner receives)."""
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
    _sum_size: Array  # int32[11]: by rank, the size of the sums it may take (0: any)
    _counts: Array  # int32[40]: by card, its legal ids (0 for a card not in the hand)


jax.tree_util.register_dataclass(
    State,
    data_fields=[field.name for field in dataclasses.fields(State)],
    meta_fields=[],
)


# ------------------------------------------------------------------ the rules supported


# The knobs of `Rules` the engine plays whatever their value: those of the match layer
# (it plays one hand); `matta` and `first_table_to_eldest`, which matter only to the
# declarations and the first table it plays without; `scoring`, judged by component.
_ANY_VALUE: Final = frozenset(
    {
        "name",
        "players",
        "sides",
        "hand_size",
        "table_size",
        "capture_by_rank",
        "capture_by_sum",
        "capture_priority",
        "played_card_must_capture",
        "must_play_capturing_card_if_any",
        "ace_captures_all",
        "ace_sweep_is_scopa",
        "ace_with_ace_on_table",
        "ace_on_empty_table_captures_itself",
        "first_table_to_eldest",
        "matta",
        "ace_first_lead_forbidden",
        "scopa_on_last_play",
        "leftovers_to_last_capturer",
        "misdeal",
        "target",
        "tiebreak",
        "lowest_total_wins",
        "scoring",
        "move_time_limit",
        "stakes",
    }
)
# The knobs it plays with one value only. Any other knob (one added to `Rules` later) is
# refused until it is judged here.
_ONE_VALUE: Final[dict[str, object]] = {
    "capture_to_fifteen": False,
    "first_table": FirstTable.NOTHING,
    "declarations": False,
    "claim_out": False,
    "ranks": tuple(Rank),  # the engine deals the 40 cards
    "suits": tuple(Suit),
}
_COMPONENTS: Final = (
    Scope,
    Carte,
    Denari,
    Settebello,
    ReBello,
    Primiera,
    Napola,
    Grande,
    AssoDueTre,
    Ponino,
    CardPoints,
    Declarations,
)


def _check_supported(rules: Rules) -> None:
    """Refuse rules the engine does not play, naming the first knob it lacks.

    Raises:
        RulesError: a knob or a scoring component the batch engine does not support.
    """
    for field in attrs.fields(Rules):
        value = getattr(rules, field.name)
        if field.name in _ANY_VALUE:
            continue
        if field.name not in _ONE_VALUE:
            raise RulesError(
                f"the batch engine does not know the knob {field.name}={value!r} "
                f"(rules {rules.name!r})"
            )
        wanted = _ONE_VALUE[field.name]
        if value != wanted:
            raise RulesError(
                f"the batch engine does not support {field.name}={value!r} "
                f"(rules {rules.name!r}); it plays only {field.name}={wanted!r}"
            )
    for component in rules.scoring.components:
        if type(component) not in _COMPONENTS:
            raise RulesError(
                f"the batch engine does not support the scoring component "
                f"{quote(component.name)} ({type(component).__name__}) of rules {rules.name!r}"
            )


# ------------------------------------------------------------------ small array helpers


def _one_hot(index: Array, length: int) -> Array:
    """`length` float32 values, 1 at `index` (none when it is out of range)."""
    return (jnp.arange(length) == index).astype(jnp.float32)


def _strict_max(figures: Array, eligible: Array) -> Array:
    """One point (int32) to the unique eligible side with the highest figure."""
    shown = jnp.where(eligible, figures, _LOWEST)
    winners = eligible & (shown == jnp.max(shown))
    return (winners & (jnp.sum(winners) == 1)).astype(jnp.int32)


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


# ------------------------------------------------------------------ the environment


class Env:
    """A hand of Scopa under some rules, as pure functions of [`State`][scopa.batch.State].

    Every method plays one game and can be traced by `jax.jit`; `jax.vmap` plays a batch.

    Raises:
        RulesError: the rules have a knob or scoring component the engine does not support
            (the message names it).
        TypeError: `rules` is not a `Rules`.
    """

    def __init__(self, rules: Rules) -> None:
        """The environment of `rules`."""
        check_type(rules, Rules, "rules")
        _check_supported(rules)
        self.rules: Final = rules
        """The rules played."""
        self.num_players: Final = rules.players
        """The number of players."""
        self.num_actions: Final = _ACTIONS
        """The number of compact action ids: 2,560."""
        self.observation_size: Final = ObservationLayout.of(rules.players).size
        """The length of an observation."""
        self._sides: Final = rules.number_of_sides
        self._deals: Final = rules.deals_per_hand
        self._hand_size: Final = rules.hand_size
        # compiled once per environment: the public methods call these
        self._jit_init: Final[Callable[[Array, Array], State]] = jax.jit(self._init)
        self._jit_deal: Final[Callable[[Array, Array], State]] = jax.jit(self._deal)
        self._jit_step: Final[Callable[[State, _ActionId], State]] = jax.jit(self._step)
        # each hand size divided by the rules' hand size, as the scalar encoding rounds it
        self._size_scale: Final = np.array(
            [size / rules.hand_size for size in range(rules.hand_size + 1)], np.float32
        )

    def __repr__(self) -> str:
        return f"Env({self.rules!r})"

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
            return self._annulled(carried[1])

        first = shuffle((key, jnp.zeros(_CARDS, jnp.int32)))
        _, order = jax.lax.while_loop(annulled, shuffle, first)
        return self._deal(order, dealer)

    def deal(self, order: Array | Any, dealer: int | Array = 0) -> State:
        """The hand dealt from a deck order (`int32[40]` card indices) by `dealer`.

        Cards go as [`GameState.new`][scopa.GameState.new] deals a `Deck` of that order.
        A deal whose first table the misdeal rule annuls gives a state with `misdeal` and
        `terminated` set, nobody to move, no legal action, zero rewards and a zero
        observation. When `order` and `dealer` are concrete (not traced), they are checked.

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
        if isinstance(dealer, jax.core.Tracer):
            return
        given = np.asarray(dealer)
        if given.shape or given.dtype.kind not in "iu" or not 0 <= given < self.num_players:
            raise InvalidArgumentError(
                f"dealer must be a player number from 0 to {self.num_players - 1}, "
                f"not {quote(dealer)}"
            )

    def _annulled(self, order: Array) -> Array:
        """Whether the misdeal rule annuls the first table of a deck order."""
        rules = self.rules
        start = rules.players * rules.hand_size
        table = jnp.zeros(_CARDS, bool).at[order[start : start + rules.table_size]].set(True)
        by_rank = jnp.sum(table.reshape(4, 10), axis=0)
        kings, aces = by_rank[9], by_rank[0]
        misdeal = rules.misdeal
        if misdeal is MisdealRule.THREE_PLUS_KINGS:
            return kings >= 3
        if misdeal is MisdealRule.TRETRE:
            return (kings >= 3) | jnp.any(by_rank == 4)
        if misdeal is MisdealRule.CIRULLA:
            return aces >= 2
        return jnp.asarray(False)

    def _deal(self, order: Array, dealer: Array) -> State:
        rules = self.rules
        n = rules.players
        size = rules.hand_size
        first = n * size
        table_end = first + rules.table_size
        leader = (dealer + 1) % n
        table = jnp.zeros(_CARDS, bool).at[order[first:table_end]].set(True)
        # Deal d gives the cards of `blocks[d, j]` to the j-th player from the leader.
        stock = jnp.concatenate([order[:first], order[table_end:]])
        blocks = jax.nn.one_hot(stock.reshape(self._deals, n, size), _CARDS, dtype=bool)
        blocks = jnp.any(blocks, axis=2)
        seats = (jnp.arange(n) - leader) % n
        deals = blocks[:, seats]
        misdeal = self._annulled(order)
        zeros = jnp.zeros(n, jnp.int32)
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
            _piles=jnp.zeros((n, _CARDS), bool),
            _scope=zeros,
            _deals=deals,
            _dealt=jnp.asarray(1, jnp.int32),
            _dealer=dealer,
            _last_capturer=jnp.asarray(-1, jnp.int32),
            _lays=jnp.zeros(11, bool),
            _pairs=jnp.zeros(11, jnp.int32),
            _sum_size=jnp.zeros(11, jnp.int32),
            _counts=jnp.zeros(_CARDS, jnp.int32),
        )
        return self._with_choices(state)

    # -------------------------------------------------------------- the moves

    def _choices(self, hand: Array, table: Array) -> tuple[Array, Array, Array, Array]:
        """By rank: whether laying comes first, the pair and sum captures, the sums' size.

        Returns `lays` (bool[11]), `pairs` and `sums` (the number of captures of each kind,
        int32[11]) and `sum_size` (int32[11]: the number of cards the sums take, 0 for any).
        """
        rules = self.rules
        by_rank = jnp.sum(table.reshape(4, 10), axis=0, dtype=jnp.int32)
        equal = jnp.concatenate([jnp.zeros(1, jnp.int32), by_rank])
        pairs = equal if rules.capture_by_rank else jnp.zeros(11, jnp.int32)
        sums, sum_size = _sum_captures(
            by_rank, fewest=rules.capture_priority is CapturePriority.MIN_CARDS
        )
        if not rules.capture_by_sum:
            sums = jnp.zeros(11, jnp.int32)
        if rules.capture_priority is not CapturePriority.FREE:
            sums = jnp.where(pairs > 0, 0, sums)  # an equal card is taken alone
        if rules.ace_captures_all:  # an Ace takes the table, or each Ace on it alone
            one_by_one = rules.ace_with_ace_on_table is AceOnAce.TAKE_ACE_ONLY
            alone = by_rank[0] if one_by_one else jnp.asarray(0)
            sweeping = self._ace_sweeps(table)
            pairs = pairs.at[1].set(jnp.where(sweeping, alone, pairs[1]))
            whole = (jnp.any(table) & (alone == 0)).astype(jnp.int32)
            sums = sums.at[1].set(jnp.where(sweeping, whole, sums[1]))
        captures = pairs + sums
        lays = jnp.asarray(not rules.played_card_must_capture) | (captures == 0)
        if rules.must_play_capturing_card_if_any:
            held = jnp.any(hand.reshape(4, 10), axis=0)  # by rank - 1
            lays = lays & ~jnp.any(held & (captures[1:] > 0))
        return lays, pairs, sums, sum_size

    def _ace_sweeps(self, table: Array) -> Array:
        """Whether a played Ace takes the whole table (or an Ace on it), not as other cards."""
        if not self.rules.ace_captures_all:
            return jnp.asarray(False)
        if self.rules.ace_with_ace_on_table is AceOnAce.CAPTURE_NORMALLY:
            return ~jnp.any(table.reshape(4, 10)[:, 0])
        return jnp.asarray(True)

    def _with_choices(self, state: State) -> State:
        """The state with its mask, observation and move books made for the player to move."""
        to_move = state.current_player
        playing = to_move >= 0
        hand = state._hands[jnp.maximum(to_move, 0)] & playing
        if self.rules.ace_first_lead_forbidden:  # no Ace at the first play, if possible
            first = (state._dealt == 1) & (
                jnp.sum(state._hands) == self.num_players * self._hand_size
            )
            others = hand & (jnp.asarray(_RANK_OF) != 1)
            hand = jnp.where(first & jnp.any(others), others, hand)
        lays, pairs, sums, sum_size = self._choices(hand, state._table)
        count = lays.astype(jnp.int32) + pairs + sums
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
            _sum_size=sum_size,
            _counts=jnp.where(hand, per_card, 0).astype(jnp.int32),
        )

    def _taken(self, state: State, card: Array, choice: Array) -> Array:
        """The table cards (bool[40]) that the `choice`-th legal move of `card` takes."""
        rank = card % 10 + 1
        table = state._table
        k = choice - state._lays[rank].astype(jnp.int32)
        pairs = state._pairs[rank]
        # the k-th table card of the card's rank, suits in index order
        equal = table.reshape(4, 10)[:, rank - 1]
        suit = jnp.argmax(equal & (jnp.cumsum(equal) == k + 1))
        pair = jnp.arange(_CARDS) == suit * 10 + rank - 1
        summed = _kth_sum(table, rank, state._sum_size[rank], k - pairs)
        summed = jnp.where((rank == 1) & self._ace_sweeps(table), table, summed)
        taken = jnp.where(k < pairs, pair, summed)
        return jnp.where(k < 0, jnp.zeros(_CARDS, bool), taken)

    def move_facts(self, state: State) -> tuple[Array, Array]:
        """The legal moves of the player to move, by hand slot, and their move facts.

        The slots are the first `FACT_CHOICES` legal ids of each card in the hand, cards in
        index order: `hand_size * FACT_CHOICES` slots. Returns the compact id of each slot
        (`int32`, -1 where no legal move is) and its
        [`move_facts`][scopa.encoding.move_facts] (`float32[slots, MOVE_FACTS]`, zeros
        where no legal move is), as the scalar function gives them for the same move.
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
        taken = jax.vmap(self._taken, in_axes=(None, 0, 0))(state, cards, choices)
        seen = hand | state._table | jnp.any(state._piles, axis=0)
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
        number = _concrete_id(action)
        mask = np.asarray(state.legal_action_mask)
        if mask.shape != (_ACTIONS,):
            raise InvalidArgumentError("step_checked takes one state, not a batch")
        if not 0 <= number < _ACTIONS or not mask[number]:
            over = " (the hand is over)" if bool(np.asarray(state.terminated)) else ""
            raise IllegalMoveError(f"action {quote(number)} is not legal here{over}")
        return self.step(state, number)

    def _play(self, state: State, action: Array) -> State:
        """The state after a legal action."""
        rules = self.rules
        n = rules.players
        player = state.current_player
        card = action // COMPACT_OPTIONS
        taken = self._taken(state, card, action % COMPACT_OPTIONS)
        bit = jnp.arange(_CARDS) == card
        hands = state._hands.at[player].set(state._hands[player] & ~bit)
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
        last = jnp.where(kept, player, state._last_capturer)
        if rules.leftovers_to_last_capturer:
            to_last = final & (last >= 0)
            winner = jnp.maximum(last, 0)
            piles = piles.at[winner].set(jnp.where(to_last, piles[winner] | table, piles[winner]))
            table = table & ~to_last
        after = dataclasses.replace(
            state,
            current_player=jnp.where(final, -1, (player + 1) % n).astype(jnp.int32),
            rewards=jnp.where(final, self._rewards(piles, scope), 0.0),
            terminated=final,
            illegal_action=jnp.asarray(False),
            _hands=hands,
            _table=table,
            _piles=piles,
            _scope=scope,
            _dealt=dealt,
            _last_capturer=last,
        )
        return self._with_choices(after)

    # -------------------------------------------------------------- what a player sees

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
        return jnp.concatenate(parts)

    # -------------------------------------------------------------- scoring

    def _rewards(self, piles: Array, scope: Array) -> Array:
        """Each player's points of the hand: those of the player's side (float32[players])."""
        sides = self._sides
        players = jnp.arange(self.num_players)
        mine = players[None, :] % sides == jnp.arange(sides)[:, None]  # [side, player]
        side_piles = jnp.any(mine[:, :, None] & piles[None, :, :], axis=1)
        side_scope = jnp.sum(jnp.where(mine, scope[None, :], 0), axis=1)
        points = jnp.zeros(sides, jnp.int32)
        for component in self.rules.scoring.components:
            points = points + _score(component, side_piles, side_scope)
        return points[players % sides].astype(jnp.float32)


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


def _sum_captures(by_rank: Array, *, fewest: bool) -> tuple[Array, Array]:
    """By rank: the captures of two or more table cards adding up to it, and their size.

    `by_rank[q - 1]` is the number of table cards of rank `q`. Returns the number of
    captures (int32[11]) and, with `fewest`, the number of cards they take, keeping only
    those with the fewest cards (int32[11], 0 where there is none; all 0 without
    `fewest`). The ranks are added one by one, counting the subsets by their total (and
    the fewest cards of each total): the captures of rank `r` are the subsets of the
    lower ranks adding up to `r`, read before rank `r` is added.
    """
    none = _tables.MAX_SET + 1  # more cards than any capture takes
    totals = jnp.arange(11)

    def add(carried: tuple[Array, Array], rank: Array) -> tuple[tuple[Array, Array], Any]:
        ways, size = carried  # by total: the subsets, and the fewest cards of one
        options = [(ways, size)]
        for taken in range(1, 5):
            shift = rank * taken
            source = jnp.clip(totals - shift, 0, 10)
            more = jnp.where(totals >= shift, ways[source], 0) * _comb(by_rank[rank - 1], taken)
            options.append((more, jnp.where(more > 0, size[source] + taken, none)))
        if fewest:
            size = functools.reduce(jnp.minimum, [s for _, s in options])
            ways = functools.reduce(jnp.add, [jnp.where(s == size, w, 0) for w, s in options])
        else:
            ways = functools.reduce(jnp.add, [w for w, _ in options])
        return (ways, size), (carried[0][rank], carried[1][rank])

    start = (jnp.where(totals == 0, 1, 0), jnp.where(totals == 0, 0, none))
    (ways, size), (below, fewest_below) = jax.lax.scan(add, start, jnp.arange(1, 10))
    counts = jnp.concatenate([jnp.zeros(1, jnp.int32), below, ways[10:]])
    if not fewest:
        return counts, jnp.zeros(11, jnp.int32)
    sizes = jnp.concatenate([jnp.zeros(1, jnp.int32), fewest_below, size[10:]])
    return counts, jnp.where(counts > 0, sizes, 0)


def _comb(n: Array, k: Array | int) -> Array:
    """`comb(n, k)` for `n` from 0 to 4 and any `k` (int32), elementwise."""
    return jnp.asarray(_COMB)[n, jnp.clip(k + 1, 0, 6)]


def _kth_sum(table: Array, rank: Array, size: Array, k: Array) -> Array:
    """The `k`-th capture of two or more table cards adding up to `rank` (bool[40]).

    In the order of the legal moves: by set of ranks, then by cards. With a `size` (not
    0), only the captures of that many cards count. The set of ranks comes first, from the
    number of captures of each; then the cards, from the highest index down: the captures
    without a card come before those with it, so the card is taken when `k` is past them.
    """
    by_rank = jnp.concatenate([jnp.zeros(1, jnp.int32), jnp.sum(table.reshape(4, 10), axis=0)])
    ranks = jnp.asarray(_tables.SUPPORT_RANKS)[rank]  # [support, place]: 0 past the last
    counts = jnp.asarray(_tables.SUPPORT_COUNTS)[rank]  # [support, slot, place]
    sizes = jnp.asarray(_tables.SUPPORT_SIZES)[rank]  # [support, slot]
    wanted = (sizes >= 0) & ((size == 0) | (sizes == size))
    found = jnp.prod(_comb(by_rank[ranks][:, None, :], counts), axis=-1)
    per_support = jnp.sum(jnp.where(wanted, found, 0), axis=1)
    ends = jnp.cumsum(per_support)
    support = jnp.sum(ends <= k)
    k = k - (ends[support] - per_support[support])
    ranks, counts, wanted = ranks[support], counts[support], wanted[support]
    on_table = table.reshape(4, 10)[:, jnp.maximum(ranks - 1, 0)] & (ranks > 0)  # [suit, place]
    places = jnp.arange(_tables.MAX_SUPPORT)

    def decide(step: Array, carried: tuple[Array, ...]) -> tuple[Array, ...]:
        # the cards from the highest index down: suits from the last, ranks from the highest
        k, left, have, ways, taken = carried
        suit = 3 - step // _tables.MAX_SUPPORT
        place = _tables.MAX_SUPPORT - 1 - step % _tables.MAX_SUPPORT
        here = places == place
        candidate = on_table[suit, place]
        remaining = left[place] - candidate.astype(jnp.int32)
        without = jnp.where(here, _comb(remaining, counts[:, place] - have[place])[:, None], ways)
        before = jnp.sum(jnp.where(wanted, jnp.prod(without, axis=1), 0))
        take = candidate & (k >= before)
        taking = have[place] + take.astype(jnp.int32)
        ways = jnp.where(here, _comb(remaining, counts[:, place] - taking)[:, None], without)
        return (
            k - jnp.where(take, before, 0),
            jnp.where(here, remaining, left),
            jnp.where(here, taking, have),
            ways,
            taken.at[suit, place].set(take),
        )

    left = by_rank[ranks] * (ranks > 0)  # the cards of each place still to decide
    have = jnp.zeros(_tables.MAX_SUPPORT, jnp.int32)  # the cards of each place taken
    ways = _comb(left, counts)  # [slot, place]: the ways to complete each pattern
    taken = jnp.zeros((4, _tables.MAX_SUPPORT), bool)
    carried = jax.lax.fori_loop(0, 4 * _tables.MAX_SUPPORT, decide, (k, left, have, ways, taken))
    cards = jnp.arange(4)[:, None] * 10 + ranks - 1  # [suit, place]
    return jnp.zeros(_CARDS, bool).at[jnp.where(carried[4], cards, _CARDS)].set(True, mode="drop")


def _score(component: ScoringComponent, piles: Array, scope: Array) -> Array:
    """The points (int32[sides]) of one scoring component, from the sides' piles and scope."""
    sides = piles.shape[0]
    everyone = jnp.ones(sides, bool)
    suits = piles.reshape(sides, 4, 10)
    if isinstance(component, Scope):
        return scope * component.value
    if isinstance(component, (Carte, Denari)):
        cards = piles if isinstance(component, Carte) else suits[:, 0]
        counts = jnp.sum(cards, axis=1, dtype=jnp.int32)
        threshold = component.threshold
        return _strict_max(counts, everyone if threshold is None else counts >= threshold)
    if isinstance(component, (Settebello, ReBello)):
        held = _SEVEN_OF_DENARI if isinstance(component, Settebello) else _KING_OF_DENARI
        return piles[:, held].astype(jnp.int32)
    if isinstance(component, Primiera):
        return _primiera(component, suits)
    if isinstance(component, Napola):
        run = jnp.sum(jnp.cumprod(suits[:, 0], axis=1), axis=1, dtype=jnp.int32)
        return jnp.where(run >= 3, jnp.minimum(run, component.most), 0)
    if isinstance(component, Grande):
        run = jnp.sum(jnp.cumprod(suits[:, 0, 9:4:-1], axis=1), axis=1, dtype=jnp.int32)
        return jnp.where(run >= 3, run + 2 if component.extends else 5, 0)
    if isinstance(component, AssoDueTre):
        return jnp.sum(suits[:, 0, :3] * jnp.arange(1, 4), axis=1, dtype=jnp.int32)
    if isinstance(component, Ponino):
        return jnp.where(jnp.all(suits[:, :, 8], axis=1), scope, 0)
    if isinstance(component, CardPoints):
        scoring = jnp.isin(jnp.arange(1, 11), jnp.asarray(component.ranks))
        counts = jnp.sum(suits & scoring, axis=(1, 2), dtype=jnp.int32)
        return counts * component.value
    if isinstance(component, Declarations):  # no declarations are played: nothing
        return jnp.zeros(sides, jnp.int32)
    raise RulesError(f"no batch scoring for {quote(component.name)}")  # pragma: no cover


def _primiera(component: Primiera, suits: Array) -> Array:
    """The primiera point of each side (int32[sides]); `suits` is bool[sides, 4, 10]."""
    held = jnp.any(suits, axis=2)  # [side, suit]
    eligible = jnp.all(held, axis=1)
    if component.missing_suit is MissingSuit.ZERO:
        eligible = jnp.ones_like(eligible)
    rule = component.rule
    if rule in (PrimieraRule.MOST_SEVENS_CASCADE, PrimieraRule.SETTANTA_3_SEVENS):
        counts = jnp.sum(suits, axis=1, dtype=jnp.int32)  # [side, rank - 1]
        sevens = counts[:, 6]
        if rule is PrimieraRule.SETTANTA_3_SEVENS:
            return (sevens >= 3).astype(jnp.int32)
        # the cascade compares the counts of 7, 6, Ace, 5, 4, 3, 2 in turn: one number
        key = jnp.zeros_like(sevens)
        for rank in (7, 6, 1, 5, 4, 3, 2):
            key = key * 5 + counts[:, rank - 1]
        return _strict_max(key, jnp.ones_like(eligible))
    values = jnp.asarray(component.table.values, jnp.int32)
    best = jnp.max(jnp.where(suits, values, 0), axis=2)  # [side, suit]
    if rule is PrimieraRule.BEST_CARDS:
        ranked = -jnp.sort(-best, axis=1)
        key = jnp.zeros(best.shape[0], jnp.int32)
        for place in range(4):
            key = key * 101 + ranked[:, place]
        return _strict_max(key, eligible)
    return _strict_max(jnp.sum(best, axis=1), eligible)
