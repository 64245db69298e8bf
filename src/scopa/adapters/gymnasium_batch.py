"""Gymnasium vector environment over the batch engine: many hands at once, one learner in each.

[`ScopaVectorEnv`][scopa.adapters.gymnasium_batch.ScopaVectorEnv] plays `num_envs` hands
with [`scopa.batch`][scopa.batch], the JAX engine, in a few jitted calls per step. In each hand
the learner plays one seat (the same seat in every hand, or with `seat=None` a seat drawn
for each hand); every other seat, partners included, is played by the opponent: uniformly
random legal actions drawn on the accelerator (`"random"`), or a policy of your own, a
function `(observations, masks) -> actions` written with `jax.numpy` and applied to the
whole batch. Its turns are played inside the step, in a `lax.while_loop`, up to the
learner's next turn or the end of the hand.

Observations, actions and rewards are those of the
[Gymnasium adapter][scopa.adapters.gymnasium] with the compact encoding, one row per hand:
a dict of `"observation"` (`float32`, the learner's
[observation vector][scopa.encoding.observation]) and `"action_mask"` (`int8`), actions
that are compact [`scopa.encoding`][scopa.encoding] ids, and a reward of 0 until a hand ends,
then [`hand_returns`][scopa.adapters.hand_returns] of the learner's seat. The arrays are
NumPy arrays, as Gymnasium's vector environments return. It has no `move_facts` option:
the [move facts][scopa.encoding.legal_move_facts] are computed move by move in Python, which
would undo the speed of the batch.

A hand that ends is dealt again on the next step (Gymnasium's `AutoresetMode.NEXT_STEP`):
that step ignores the hand's action and returns the new hand's first observation, a reward
of 0 and `terminated` false. An action that is not legal is replaced by default
(`illegal_action="random"`) by a uniformly random legal action, and the step's info has
`"illegal_action"` (with `"_illegal_action"`, the hands it concerns, as Gymnasium's vector
infos do); with `illegal_action="raise"` the step raises
[`IllegalMoveError`][scopa.IllegalMoveError] and changes nothing. An illegal action of an
opponent policy is replaced in the same way, and reported as `"opponent_illegal_action"`.

`reset(seed=...)` is reproducible: the seed fixes the deals, the seats and the opponent's
random choices; `reset(options={"orders": orders})` deals the first hands from deck orders
of your own (`int[num_envs, 40]`, [`Card.index`][scopa.Card.index] values, dealt as
[`Deck`][scopa.Deck] deals them), to replay deals or to play the same deals twice.

Each environment compiles its functions on its first reset and step (seconds on a CPU);
environments of the same rules, number of hands, seat, dealer and opponent share them.
Importing this module registers the environment as `"scopa/ScopaBatch-v0"` for
`gymnasium.make_vec`.

Examples:
    >>> import numpy as np
    >>> from scopa.adapters.gymnasium_batch import ScopaVectorEnv
    >>> env = ScopaVectorEnv(8, "classic", seat=1)
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape, obs["action_mask"].shape
    ((8, 172), (8, 2560))
    >>> actions = env.action_space.sample(mask=tuple(obs["action_mask"]))
    >>> obs, rewards, terminated, truncated, info = env.step(actions)
    >>> rewards.shape, bool(terminated.any()), "illegal_action" in info
    ((8,), False, False)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple, cast

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from scopa._checks import check_number, quote
from scopa.adapters import rules_of
from scopa.adapters._spaces import Observation, observation_space
from scopa.batch import Env, State
from scopa.encoding import COMPACT, ObservationLayout
from scopa.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError
from scopa.rules import Rules

__all__ = ["ENV_ID", "Policy", "ScopaVectorEnv", "random_legal_actions"]

ENV_ID = "scopa/ScopaBatch-v0"
"""The id the environment is registered under, for `gymnasium.make_vec`."""

Policy = Callable[[jax.Array, jax.Array], jax.Array]
"""An opponent policy: observations `float32[n, size]` and legal-action masks `bool[n, 2560]`
of `n` hands to actions `int[n]`, traceable by `jax.jit`."""


class _Hands(NamedTuple):
    """What the environment keeps on the device between steps."""

    state: State
    seats: jax.Array  # int32[n]: the learner's seat in each hand
    key: jax.Array


class _Step(NamedTuple):
    """What the learner is shown and paid after the opponent's turns."""

    observation: jax.Array
    mask: jax.Array
    reward: jax.Array
    terminated: jax.Array
    opponent_illegal: jax.Array
    points: jax.Array


def _rotations(players: int, declarations: bool) -> npt.NDArray[np.int32]:
    """For each offset `d`, where each entry of the observation from seat `d` comes from.

    Row `d` turns an observation made from some seat into the one made from the seat `d`
    places after it: the seats' entries move, the others stay.
    """
    layout = ObservationLayout.of(players, declarations)
    rows = np.tile(np.arange(layout.size, dtype=np.int32), (players, 1))
    seats = [layout.hand_sizes, layout.scope, layout.to_move, layout.dealer, layout.last_capturer]
    if declarations:
        seats.append(layout.declared)
    for offset in range(players):
        for seat in range(players):
            source = (offset + seat) % players
            for cards in (layout.piles, layout.revealed):  # no cards shown without declarations
                rows[offset, cards[seat]] = np.arange(layout.size)[cards[source]]
            for group in seats:
                rows[offset, group.start + seat] = group.start + source
    return rows


def _select(flags: jax.Array, new: State, old: State) -> State:
    """Each hand's `new` state where its flag is set, its `old` one elsewhere."""

    def pick(a: jax.Array, b: jax.Array) -> jax.Array:
        return jnp.where(flags.reshape(flags.shape + (1,) * (a.ndim - 1)), a, b)

    result: State = jax.tree_util.tree_map(pick, new, old)
    return result


def random_legal_actions(masks: jax.Array, key: jax.Array) -> jax.Array:
    """A uniformly random legal action of each row of `masks`, as the random opponent plays.

    Args:
        masks: `bool[n, 2560]`, legal compact ids (such as a batch of
            [`State.legal_action_mask`][scopa.batch.State]).
        key: a `jax.random` key.

    Returns:
        `int32[n]`: one legal id per row (0 for a row without any). It can be traced by
        `jax.jit`; it draws one number per row and counts the legal ids card by card.
    """
    hands = masks.shape[0]
    cards = masks.reshape(hands, 40, -1)
    per_card = cards.astype(jnp.int8).sum(axis=2, dtype=jnp.int8).astype(jnp.int32)
    up_to = jnp.cumsum(per_card, axis=1)
    rank = jnp.floor(jax.random.uniform(key, (hands,)) * up_to[:, -1]).astype(jnp.int32)
    card = jnp.argmax(up_to > rank[:, None], axis=1)
    rows = jnp.arange(hands)
    within = rank - up_to[rows, card] + per_card[rows, card]
    seen = jnp.cumsum(cards[rows, card].astype(jnp.int32), axis=1)
    option = jnp.argmax(seen > within[:, None], axis=1)
    return (card * cards.shape[2] + option).astype(jnp.int32)


def _legal_or_random(
    masks: jax.Array, actions: jax.Array, played: jax.Array, key: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """The actions with each illegal one of the hands `played` replaced; which those were.

    The replacements are random legal actions, drawn only when one is needed.
    """
    illegal = played & ~_is_legal(masks, actions)
    chosen = jax.lax.cond(
        jnp.any(illegal),
        lambda: jnp.where(illegal, random_legal_actions(masks, key), actions),
        lambda: actions,
    )
    return chosen, illegal


def _is_legal(masks: jax.Array, actions: jax.Array) -> jax.Array:
    """Whether each action is an id of the encoding that its row of `masks` allows."""
    inside = (actions >= 0) & (actions < masks.shape[1])
    index = jnp.clip(actions, 0, masks.shape[1] - 1)
    legal: jax.Array = inside & jnp.take_along_axis(masks, index[:, None], axis=1)[:, 0]
    return legal


def _check_policy(policy: object, hands: int, engine: Env) -> Policy:
    """The opponent policy, once it is known to give one integer action per hand.

    Raises:
        TypeError: it is not a function, cannot be traced, or gives something else.
    """
    if not callable(policy):
        raise TypeError(
            "opponent must be 'random' or a function (observations, masks) -> actions, not "
            + (quote(policy) if isinstance(policy, str) else type(policy).__name__)
        )
    observations = jnp.zeros((hands, engine.observation_size), jnp.float32)
    masks = jnp.zeros((hands, engine.num_actions), jnp.bool_)
    try:
        shape = jax.eval_shape(policy, observations, masks)
    except Exception as error:
        raise TypeError(f"the opponent policy cannot be traced by jax: {error}") from error
    if (
        not isinstance(shape, jax.ShapeDtypeStruct)
        or shape.shape != (hands,)
        or not jnp.issubdtype(shape.dtype, jnp.integer)
    ):
        raise TypeError(
            f"the opponent policy must return one integer action per hand, shape ({hands},); "
            f"it returns {shape}"
        )
    checked: Policy = policy
    return checked


class _Program:
    """The jitted functions of one configuration, shared by the environments that have it."""

    def __init__(
        self, rules: Rules, hands: int, seat: int | None, dealer: int, opponent: str | Policy
    ) -> None:
        self.engine = Env(rules)
        engine = self.engine
        self.policy = None if opponent == "random" else _check_policy(opponent, hands, engine)
        self.rules = rules
        self.hands = hands
        self.seat = seat
        self.dealer = dealer
        players = rules.players
        self.others = jnp.asarray(
            [[rules.side_of(p) != rules.side_of(q) for q in range(players)] for p in range(players)]
        )
        self.first_of_side = jnp.asarray(
            [
                min(p for p in range(players) if rules.side_of(p) == side)
                for side in range(rules.number_of_sides)
            ]
        )
        self.seen_by = jnp.asarray(_rotations(players, rules.declarations))
        self.deal = jax.jit(self._deal)
        self.deal_orders = jax.jit(self._deal_orders)
        self.learn = jax.jit(self._learn)
        self.select = jax.jit(_select)
        self.play_others = jax.jit(self._play_others)

    def _seats(self, key: jax.Array) -> jax.Array:
        """The learner's seat in each new hand."""
        if self.seat is None:
            seats = jax.random.randint(key, (self.hands,), 0, self.rules.players)
        else:
            seats = jnp.full((self.hands,), self.seat)
        return seats.astype(jnp.int32)

    def _deal(self, key: jax.Array) -> tuple[State, jax.Array]:
        """New hands dealt from shuffles, and the learner's seat in each."""
        deals, draw = jax.random.split(key)
        keys = jax.random.split(deals, self.hands)
        state = jax.vmap(lambda key: self.engine.init(key, self.dealer))(keys)
        return state, self._seats(draw)

    def _deal_orders(self, orders: jax.Array, key: jax.Array) -> tuple[State, jax.Array]:
        """New hands dealt from deck orders, and the learner's seat in each."""
        state = jax.vmap(lambda order: self.engine.deal(order, self.dealer))(orders)
        return state, self._seats(key)

    def _learn(self, hands: _Hands, actions: jax.Array) -> tuple[State, jax.Array, jax.Array]:
        """The learner's plays, which of the actions were illegal, and the next key.

        An illegal action is replaced by a random legal one.
        """
        key, replace = jax.random.split(hands.key)
        state = hands.state
        masks = state.legal_action_mask
        actions, illegal = _legal_or_random(masks, actions, ~state.terminated, replace)
        return jax.vmap(self.engine.step)(state, actions), illegal, key

    def _choose(self, state: State, turn: jax.Array, key: jax.Array) -> tuple[jax.Array, jax.Array]:
        """The opponent's actions; in which hands of its `turn` its policy's was illegal."""
        masks = state.legal_action_mask
        if self.policy is None:
            keys = jax.random.split(key, self.hands)
            random = jax.vmap(self.engine.random_action)(state, keys)
            return random, jnp.zeros(self.hands, jnp.bool_)
        chosen = self.policy(state.observation, masks).astype(jnp.int32)
        return _legal_or_random(masks, chosen, turn, key)

    def _play_others(self, state: State, seats: jax.Array, key: jax.Array) -> tuple[_Hands, _Step]:
        """Play the opponent's turns up to each learner's turn or the end of each hand."""
        step = jax.vmap(self.engine.step)

        def waiting(state: State) -> jax.Array:
            return ~state.terminated & (state.current_player != seats)

        def more(carry: tuple[State, jax.Array, jax.Array]) -> jax.Array:
            return jnp.any(waiting(carry[0]))

        def play(
            carry: tuple[State, jax.Array, jax.Array],
        ) -> tuple[State, jax.Array, jax.Array]:
            state, wrong, key = carry
            key, draw = jax.random.split(key)
            turn = waiting(state)
            actions, illegal = self._choose(state, turn, draw)
            return _select(turn, step(state, actions), state), wrong | illegal, key

        key, loop = jax.random.split(key)
        wrong = jnp.zeros(self.hands, jnp.bool_)
        state, wrong, _ = jax.lax.while_loop(more, play, (state, wrong, loop))
        return _Hands(state, seats, key), self._outcome(state, seats, wrong)

    def _outcome(self, state: State, seats: jax.Array, wrong: jax.Array) -> _Step:
        """What the learner sees of the hands, and is paid."""
        points = state.rewards  # each player's side's points at the end of the hand
        sign = -1.0 if self.rules.lowest_total_wins else 1.0
        own = sign * jnp.take_along_axis(points, seats[:, None], axis=1)[:, 0]
        best_other = jnp.where(self.others[seats], sign * points, -jnp.inf).max(axis=1)
        over = state.terminated
        # Once a hand is over the engine shows the dealer's view: turn it to the learner's.
        turn = self.seen_by[(seats - self.dealer) % self.rules.players]
        final = jnp.take_along_axis(state.observation, turn, axis=1)
        return _Step(
            observation=jnp.where(over[:, None], final, state.observation),
            mask=(state.legal_action_mask & ~over[:, None]).astype(jnp.int8),
            reward=jnp.where(over, own - best_other, 0.0),
            terminated=over,
            opponent_illegal=wrong,
            points=points[:, self.first_of_side].astype(jnp.int32),
        )


@functools.lru_cache(maxsize=16)
def _program(
    rules: Rules, hands: int, seat: int | None, dealer: int, opponent: str | Policy
) -> _Program:
    return _Program(rules, hands, seat, dealer, opponent)


class ScopaVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """`num_envs` hands of Scopa, one learner's seat in each, as a Gymnasium vector environment.

    Args:
        num_envs: the number of hands played at once.
        variant: a preset name or `Rules` that the batch engine plays (see
            [`scopa.batch`][scopa.batch]).
        opponent: `"random"` for uniformly random legal actions, or a
            [`Policy`][scopa.adapters.gymnasium_batch.Policy] applied to every hand's
            observation and mask at once (it is traced by `jax.jit`).
        seat: the learner's player number in every hand, or `None` to draw it for each hand
            (see [`seats`][scopa.adapters.gymnasium_batch.ScopaVectorEnv.seats]).
        dealer: the player who deals each hand.
        illegal_action: `"random"` to play a random legal action instead of an illegal one
            (and say so in the info), `"raise"` to raise.

    Raises:
        ValueError: a number of hands below 1, a seat or dealer that is not a player, an
            unknown illegal-action policy, or rules the batch engine does not play.
        TypeError: an opponent that is neither `"random"` nor a function, or a policy whose
            result is not one integer action per hand.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012
    single_observation_space: spaces.Dict
    observation_space: spaces.Dict
    single_action_space: spaces.Discrete
    action_space: spaces.MultiDiscrete

    def __init__(
        self,
        num_envs: int,
        variant: str | Rules = "classic",
        opponent: Literal["random"] | Policy = "random",
        seat: int | None = 0,
        *,
        dealer: int = 0,
        illegal_action: Literal["raise", "random"] = "random",
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool):
            raise TypeError(f"num_envs must be an int, not {type(num_envs).__name__}")
        if num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be at least 1, not {num_envs}")
        self.rules = rules_of(variant)
        """The rules of the hands."""
        players = self.rules.players
        if seat is not None:
            check_number(seat, players, "seat", InvalidArgumentError)
        check_number(dealer, players, "dealer", InvalidArgumentError)
        if illegal_action not in ("raise", "random"):
            raise InvalidArgumentError(
                f"illegal_action must be 'raise' or 'random', not {quote(illegal_action)}"
            )
        if isinstance(opponent, str) and opponent != "random":
            raise TypeError(
                f"opponent must be 'random' or a function (observations, masks) -> actions, "
                f"not {quote(opponent)}"
            )
        self._program = _program(self.rules, num_envs, seat, dealer, opponent)
        self.engine = self._program.engine
        """The batch engine that plays the hands."""
        self.num_envs = num_envs
        self.seat = seat
        """The learner's seat in every hand, or `None` when it is drawn for each hand."""
        self.dealer = dealer
        """The player who deals."""
        self.illegal_action = illegal_action
        """What an illegal action does: `"raise"` or `"random"`."""
        self.opponent = opponent
        """`"random"`, or the policy that plays the other seats."""
        self.single_observation_space = observation_space(self.rules, COMPACT, False)
        self.observation_space = cast(
            spaces.Dict, batch_space(self.single_observation_space, num_envs)
        )
        self.single_action_space = spaces.Discrete(self.engine.num_actions)
        self.action_space = cast(
            spaces.MultiDiscrete, batch_space(self.single_action_space, num_envs)
        )
        self._hands: _Hands | None = None
        self._ended = np.zeros(num_envs, np.bool_)

    @property
    def seats(self) -> npt.NDArray[np.int32]:
        """The learner's seat in each hand being played.

        Raises:
            RuntimeError: the environment has not been reset.
        """
        return np.array(self._current().seats)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal `num_envs` new hands and let the opponent play up to the learner's first turns.

        The info has `"seat"`, the learner's seat in each hand (and `"_seat"`, all true).

        Args:
            seed: seeds `np_random`, which draws the key of the deals, the seats and the
                opponent's randomness.
            options: `{"orders": orders}` deals the hands from these deck orders, one row
                of 40 card indices per hand; other options are ignored.

        Raises:
            InvalidStateError: an order is not the 40 card indices, or its first table is
                annulled by the misdeal rule.
            ValueError: the orders are not one row per hand.
            TypeError: `options` is not a dict (or None), or the orders are not integers.
        """
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(
                f"options must be a dict such as {{'orders': orders}} or None, "
                f"not {type(options).__name__}"
            )
        orders = None if options is None else options.get("orders")
        checked = None if orders is None else self._check_orders(orders)
        super().reset(seed=seed)
        program = self._program
        key, deal = jax.random.split(jax.random.key(int(self.np_random.integers(0, 1 << 31))))
        if checked is None:
            state, seats = program.deal(deal)
        else:
            state, seats = program.deal_orders(jnp.asarray(checked), deal)
            annulled = np.flatnonzero(np.array(state.terminated))
            if annulled.size:
                raise InvalidStateError(
                    f"the misdeal rule annuls the first table of the orders of hands "
                    f"{annulled[:5].tolist()}"
                )
        self._hands, out = program.play_others(state, seats, key)
        observations, info = self._host(out)
        info["seat"] = np.array(seats)
        info["_seat"] = np.ones(self.num_envs, np.bool_)
        return observations, info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observation, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Play each hand's action, then the other seats up to the learner's next turn.

        A hand that ended at the previous step is dealt again instead, and its action is
        ignored. The result is the usual five arrays: observations, rewards (0 until a hand
        ends), terminations, truncations (never) and an info dict. When hands end, the info
        has `"points"`, each side's points in each hand (`"_points"` says which hands ended);
        when hands are dealt again, `"seat"`, the learner's seat in each hand (`"_seat"`
        says which hands are new).

        Raises:
            IllegalMoveError: an action is not legal (with `illegal_action="raise"`); no hand
                is played.
            ValueError: `actions` is not one action per hand.
            TypeError: `actions` are not integers.
            RuntimeError: the environment has not been reset.
        """
        hands = self._current()
        program = self._program
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise InvalidArgumentError(
                f"actions must have shape ({self.num_envs},), not {chosen.shape}"
            )
        if chosen.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {chosen.dtype}")
        limit = np.iinfo(np.int32)
        chosen = np.clip(chosen, limit.min, limit.max).astype(np.int32)
        state, illegal, key = program.learn(hands, jnp.asarray(chosen))
        wrong = np.array(illegal)
        if self.illegal_action == "raise" and wrong.any():
            hands_at = np.flatnonzero(wrong)
            raise IllegalMoveError(
                f"actions not legal in hands {hands_at[:5].tolist()}"
                f"{' …' if len(hands_at) > 5 else ''}: {chosen[hands_at[:5]].tolist()}"
            )
        seats = hands.seats
        dealt = self._ended
        if dealt.any():
            key, deal = jax.random.split(key)
            fresh, fresh_seats = program.deal(deal)
            ended = jnp.asarray(dealt)
            state = program.select(ended, fresh, state)
            seats = jnp.where(ended, fresh_seats, seats)
        self._hands, out = program.play_others(state, seats, key)
        observations, info = self._host(out)
        if dealt.any():
            info["seat"] = np.array(seats)
            info["_seat"] = dealt
        if wrong.any():
            info["illegal_action"] = wrong
            info["_illegal_action"] = wrong.copy()
        rewards = np.array(out.reward, dtype=np.float64)
        return observations, rewards, self._ended.copy(), np.zeros(self.num_envs, np.bool_), info

    def _check_orders(self, orders: object) -> npt.NDArray[np.int32]:
        """The deck orders of the `orders` option, checked."""
        given = np.asarray(orders)
        if given.shape != (self.num_envs, 40):
            raise InvalidArgumentError(
                f"orders must have shape ({self.num_envs}, 40), not {given.shape}"
            )
        if given.dtype.kind not in "iu":
            raise TypeError(f"orders must be integers, not {given.dtype}")
        wrong = np.flatnonzero((np.sort(given, axis=1) != np.arange(40)).any(axis=1))
        if wrong.size:
            raise InvalidStateError(
                f"an order must hold each card index 0 to 39 once; hands {wrong[:5].tolist()} "
                f"do not"
            )
        return given.astype(np.int32)

    def _current(self) -> _Hands:
        if self._hands is None:
            raise RuntimeError("call reset() before step()")
        return self._hands

    def _host(self, out: _Step) -> tuple[Observation, dict[str, Any]]:
        """The observations and the info of the hands as NumPy arrays; keeps which ended."""
        observations = {
            "observation": np.array(out.observation),
            "action_mask": np.array(out.mask),
        }
        info: dict[str, Any] = {}
        wrong = np.array(out.opponent_illegal)
        if wrong.any():
            info["opponent_illegal_action"] = wrong
            info["_opponent_illegal_action"] = wrong.copy()
        self._ended = np.array(out.terminated)
        if self._ended.any():
            info["points"] = np.array(out.points)
            info["_points"] = self._ended.copy()
        return observations, info


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, vector_entry_point=f"{__name__}:ScopaVectorEnv")
