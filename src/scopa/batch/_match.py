"""Whole matches on the batch engine: hands one after another to the target (see `scopa.batch`).

The match layer wraps the hand engine, [`Env`][scopa.batch.Env]: it deals each hand with
the engine (from a key and a dealer), reads each side's points at the end of a hand
category by category, and keeps the match's books, as [`Match`][scopa.Match] does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final, get_args

import jax
import jax.numpy as jnp
import numpy as np

from scopa._checks import check_type, is_int, quote
from scopa.adapters import MATCH_TOTAL_CAP, MatchReward, check_episode
from scopa.batch._env import (
    _ACTIONS,
    _CARDS,
    _LOWEST,
    Array,
    Env,
    Rewards,
    State,
    _action_id,
    _checked_id,
)
from scopa.errors import InvalidArgumentError, RulesError
from scopa.rules import MAX_TARGET, Rules, Tiebreak
from scopa.scoring import Carte, Denari, Primiera, Scope, Settebello
from scopa.stakes import BrilliEconomy
from scopa.state import GameState

__all__ = ["MatchEnv", "MatchState"]

MOST_HANDS: Final = 4 * MAX_TARGET
"""The largest `max_hands` a [`MatchEnv`][scopa.batch.MatchEnv] takes."""


@dataclasses.dataclass(frozen=True)
class MatchState:
    """One match of the batch engine: a pytree of fixed-shape arrays (a batch under `vmap`).

    A learner reads the first seven fields as it reads a [`State`][scopa.batch.State]'s,
    for the match rather than one hand; `truncated` is new. `hand` is the hand in
    progress; the other fields keep the match's books.
    """

    current_player: Array
    """`int32`: the player to move; -1 once the match is over (or truncated)."""
    legal_action_mask: Array
    """`bool[2560]`: the legal compact action ids of the player to move (all `False` once
    the match is over)."""
    observation: Array
    """`float32[observation_size]`: the hand's observation of the player to move (of the
    dealer once the match is over), followed by each side's match total divided by the
    target and capped at [`MATCH_TOTAL_CAP`][scopa.adapters.MATCH_TOTAL_CAP], that
    player's side first, as [`match_totals_seen`][scopa.adapters.match_totals_seen] gives
    them."""
    rewards: Array
    """`float32[num_players]`: 0, except at the step that ends the match with a winner:
    what the match pays each player, as the environment's `rewards` and `match_reward`
    say. A truncated match pays 0."""
    terminated: Array
    """`bool`: the match is over: a side has won it."""
    truncated: Array
    """`bool`: the match reached the environment's `max_hands` with no winner and was
    cut off there."""
    illegal_action: Array
    """`bool`: the last step was given an action that is not legal (and changed nothing)."""
    hand: State
    """The hand in progress (once the match is over, its last hand): a state of the hand
    engine, [`MatchEnv.engine`][scopa.batch.MatchEnv.engine]."""
    totals: Array
    """`int32[sides]`: each side's points, summed over the completed hands."""
    hands_played: Array
    """`int32`: the completed hands."""
    winner: Array
    """`int32`: the side that won the match; -1 until then (and for a truncated match)."""
    settlement: Array
    """`float32[sides]`: what each side has won under the rules' stakes (the tretre
    brilli): the shares of the completed hands, then, once the match is over, the
    settlement, as [`Match.settlement`][scopa.Match.settlement] gives them. All 0 under
    rules without stakes."""
    _key: Array  # the key the hands are dealt from: hand h (from 0) from fold_in(key, h)


jax.tree_util.register_dataclass(
    MatchState,
    data_fields=[field.name for field in dataclasses.fields(MatchState)],
    meta_fields=[],
)


def _countdown_order(rules: Rules) -> list[int]:
    """The scoring components in the order of the countdown (see `Tiebreak`), by index."""
    components = rules.scoring.components
    first = (Carte, Denari, Settebello, Primiera)
    order = [i for kind in first for i, c in enumerate(components) if type(c) is kind]
    order += [i for i, c in enumerate(components) if type(c) not in (*first, Scope)]
    order += [i for i, c in enumerate(components) if type(c) is Scope]
    return order


class MatchEnv:
    """A whole match of Scopa, hand after hand to the target, as pure functions of arrays.

    Each hand is one of [`Env`][scopa.batch.Env]'s, dealt from the match's key by the
    dealer whose turn it is: the first dealer deals hand 1 and the deal passes on to the
    next player, as in a [`Match`][scopa.Match]. When a play ends a hand, its points are
    added to the totals and the rules' ending applies (the target and its tie rule, the
    countdown, the lowest total, a category that wins outright); unless the match is over,
    the next hand is dealt in the same step, so a state always has a hand to play until
    the match ends. `jax.vmap` plays a batch of matches, each at its own hand.

    The match pays at its last step (every partner gets the side's figure). The figure is,
    with `match_reward="win"`, 1 for the winning side and 0 for the others, or with
    `"stakes"`, the side's [`settlement`][scopa.batch.MatchState.settlement] under the
    rules' stakes (the tretre brilli). `rewards` turns the figures into rewards:

    - `"margin"` (the default): the side's figure minus the best other side's, as
      [`match_returns`][scopa.adapters.match_returns] pays in the other adapters: +1 to
      the winners and -1 to the others, or the side's brilli minus the best other side's.
    - `"zero-sum"`: the side's figure minus the mean of the other sides' figures; they
      add up to zero with any number of sides (with two sides, the margins).
    - `"points"`: the side's figure itself.

    A match ends only when a side wins it, and a tie at the top plays on, so a match could
    go on for ever: `max_hands` bounds it. A match with no winner at the end of hand
    `max_hands` is cut off there: `truncated` is set, nobody is to move, and it pays 0. By
    default `max_hands` is four times the target, as the OpenSpiel adapter's match has it:
    far past a match's usual length (in random play, classic lasts 4.5 hands on average;
    see the batch guide, "Whole matches"). A match has at most
    `max_hands * rules.plays_per_hand` legal plays.

    The hands are dealt from shuffles drawn without a sort (`jax.random.permutation`
    sorts), uniform as well: under `vmap` every step deals the next hand in case its hand
    ends, and a sort for each match of a batch would cost more than the rest of the step.

    Args:
        rules: the rules, which the hand engine must play.
        match_reward: `"win"` or `"stakes"` (for rules whose stakes are brilli).
        rewards: `"margin"`, `"zero-sum"` or `"points"`.
        max_hands: the most hands of a match; `None` for four times the target.

    Raises:
        RulesError: the hand engine does not play the rules, rules with `claim_out` (a
            claim is judged on the points a side is sure of, which the engine does not
            count), or `"stakes"` for stakes that are not brilli.
        InvalidArgumentError: an unknown `match_reward` or `rewards`, `"stakes"` for rules
            without stakes, or `max_hands` not from 1 to 4,000,000.
        TypeError: `rules` is not a `Rules`, `rewards` not a string, or `max_hands` not an
            int.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        match_reward: MatchReward = "win",
        rewards: Rewards = "margin",
        max_hands: int | None = None,
    ) -> None:
        """The matches of `rules`, paying `rewards` of `match_reward`, of `max_hands` at most."""
        check_type(rules, Rules, "rules")
        self.engine: Final = Env(rules)
        """The hand engine that plays each hand."""
        if rules.claim_out:
            raise RulesError(
                f"the batch engine does not judge claims in a match (rules {rules.name!r} "
                "with claim_out=True): play its hands with Env"
            )
        check_type(match_reward, str, "match_reward")
        check_episode(rules, "match", match_reward)
        if match_reward == "stakes" and not isinstance(rules.stakes, BrilliEconomy):
            raise RulesError(
                f"the batch engine settles only brilli stakes, not {quote(rules.stakes)} "
                f"(rules {rules.name!r}): use match_reward='win'"
            )
        check_type(rewards, str, "rewards")
        if rewards not in get_args(Rewards):
            raise InvalidArgumentError(
                f"rewards must be 'margin', 'zero-sum' or 'points', not {quote(rewards)}"
            )
        if max_hands is None:
            max_hands = 4 * rules.target
        elif not is_int(max_hands):
            raise TypeError(f"max_hands must be an int or None, not {quote(max_hands)}")
        elif not 1 <= max_hands <= MOST_HANDS:
            raise InvalidArgumentError(
                f"max_hands must be from 1 to {MOST_HANDS:,}, not {quote(max_hands)}"
            )
        self.rules: Final = rules
        """The rules played."""
        self.match_reward: Final[MatchReward] = match_reward
        """What the match pays for: `"win"` or `"stakes"`."""
        self.rewards: Final[Rewards] = rewards
        """How the figures are paid: `"margin"`, `"zero-sum"` or `"points"`."""
        self.max_hands: Final = max_hands
        """The most hands of a match: one without a winner after them is truncated."""
        self.num_players: Final = rules.players
        """The number of players."""
        self.num_actions: Final = _ACTIONS
        """The number of compact action ids: 2,560."""
        self.observation_size: Final = self.engine.observation_size + rules.number_of_sides
        """The length of an observation: the hand's, and each side's match total."""
        self._sides: Final = rules.number_of_sides
        self._countdown: Final = _countdown_order(rules)
        # each total divided by the target up to the cap, as the scalar adapters round it
        # (a division on the device need not round as the host does)
        capped = int(MATCH_TOTAL_CAP * rules.target)
        self._scale: Final = np.minimum(
            np.arange(capped + 1) / rules.target, MATCH_TOTAL_CAP
        ).astype(np.float32)
        stakes = rules.stakes
        self._brilli: Final = stakes if isinstance(stakes, BrilliEconomy) else None
        self._jit_init: Final[Callable[[Array, Array], MatchState]] = jax.jit(self._init)
        self._jit_step: Final[Callable[[MatchState, Any], MatchState]] = jax.jit(self._step)
        self._jit_observe: Final[Callable[[MatchState, Array], Array]] = jax.jit(self._observe)
        self._jit_resample: Final[Callable[[MatchState, Array], MatchState]] = jax.jit(
            self._resample
        )

    def __repr__(self) -> str:
        return (
            f"MatchEnv({self.rules!r}, match_reward={self.match_reward!r}, "
            f"rewards={self.rewards!r}, max_hands={self.max_hands})"
        )

    # -------------------------------------------------------------- playing

    def init(self, key: Array, dealer: int | Array = 0) -> MatchState:
        """A match whose hands are dealt from a `jax.random` key, the first by `dealer`.

        Hand `h` (from 0) is dealt from shuffles drawn with `jax.random.fold_in(key, h)`,
        as [`Env.init`][scopa.batch.Env.init] deals (a shuffle whose first table the
        misdeal rule annuls is drawn again), but shuffled without a sort: see
        [`MatchEnv`][scopa.batch.MatchEnv].

        Raises:
            InvalidArgumentError: a concrete (not traced) dealer is not a player.
        """
        self.engine._check_player(dealer, "dealer")
        return self._jit_init(key, jnp.asarray(dealer, jnp.int32))

    def _init(self, key: Array, dealer: Array) -> MatchState:
        hand = self._deal(jax.random.fold_in(key, 0), dealer)
        sides = self._sides
        state = MatchState(
            current_player=hand.current_player,
            legal_action_mask=hand.legal_action_mask,
            observation=jnp.zeros(self.observation_size, jnp.float32),
            rewards=jnp.zeros(self.num_players, jnp.float32),
            terminated=jnp.asarray(False),
            truncated=jnp.asarray(False),
            illegal_action=jnp.asarray(False),
            hand=hand,
            totals=jnp.zeros(sides, jnp.int32),
            hands_played=jnp.asarray(0, jnp.int32),
            winner=jnp.asarray(-1, jnp.int32),
            settlement=jnp.zeros(sides, jnp.float32),
            _key=key,
        )
        return self._shown(state)

    def _deal(self, key: Array, dealer: Array) -> State:
        """A hand dealt by `dealer` from shuffles drawn with `key`, until one is accepted."""
        engine = self.engine

        def draw(carried: tuple[Array, Array]) -> tuple[Array, Array]:
            key, _ = carried
            key, drawn = jax.random.split(key)
            return key, _shuffle(drawn)

        def annulled(carried: tuple[Array, Array]) -> Array:
            return engine._annulled(engine._in_play_order(carried[1]))

        first = draw((key, jnp.zeros(_CARDS, jnp.int32)))
        _, order = jax.lax.while_loop(annulled, draw, first)
        return engine._deal(order, dealer)

    def step(self, state: MatchState, action: Any) -> MatchState:
        """The match after the player to move plays the compact action id `action`.

        As [`Env.step`][scopa.batch.Env.step]: an action that is not legal (out of range,
        not in the mask, or any action once the match is over) changes nothing but sets
        `illegal_action` and zeroes `rewards`.

        Raises:
            TypeError: `action` is not an integer.
            InvalidArgumentError: `action` is not one id but an array.
        """
        return self._jit_step(state, _action_id(action))

    def step_checked(self, state: MatchState, action: Any) -> MatchState:
        """`step`, for a concrete (not traced) match and action: an illegal action raises.

        Raises:
            IllegalMoveError: the action is not a legal compact id for the player to move
                (out of range, not in `legal_action_mask`, or the match is over).
            TypeError: the action is not an integer, or is traced.
            InvalidArgumentError: the state or the action is a batch.
        """
        over = state.terminated | state.truncated
        return self.step(state, _checked_id(action, state.legal_action_mask, over, "match"))

    def _step(self, state: MatchState, action: Array) -> MatchState:
        hand = self.engine._step(state.hand, action)
        ended = hand.terminated & ~state.hand.terminated  # a legal play ended the hand
        categories, outright = self.engine.hand_score(hand)
        points = jnp.sum(categories, axis=0, dtype=jnp.int32)
        totals = state.totals + jnp.where(ended, points, 0)
        played = state.hands_played + ended.astype(jnp.int32)
        found = self._winner(outright, categories, state.totals, totals)
        won = ended & (found >= 0)
        cut = ended & ~won & (played >= self.max_hands)
        settlement = self._settled(state, points, ended, won, found, played)
        rewards = jnp.where(won, self._paid(found, settlement), 0.0)

        def deal() -> State:
            dealer = (hand._dealer + 1) % self.num_players
            return self._deal(jax.random.fold_in(state._key, played), dealer)

        following = jax.lax.cond(ended & ~won & ~cut, deal, lambda: hand)
        after = dataclasses.replace(
            state,
            rewards=rewards.astype(jnp.float32),
            terminated=state.terminated | won,
            truncated=state.truncated | cut,
            illegal_action=hand.illegal_action,
            hand=following,
            totals=totals,
            hands_played=played,
            winner=jnp.where(won, found, state.winner).astype(jnp.int32),
            settlement=settlement,
        )
        return self._shown(after)

    def _shown(self, state: MatchState) -> MatchState:
        """The state with the player to move, mask and observation of its hand and totals."""
        hand = state.hand
        observer = jnp.where(hand.current_player >= 0, hand.current_player, hand._dealer)
        return dataclasses.replace(
            state,
            current_player=hand.current_player,
            legal_action_mask=hand.legal_action_mask,
            observation=jnp.concatenate([hand.observation, self._seen(state.totals, observer)]),
        )

    def _seen(self, totals: Array, player: Array) -> Array:
        """Each side's total as `player` sees it (see `match_totals_seen`)."""
        sides = self._sides
        order = (player % sides + jnp.arange(sides)) % sides
        return jnp.asarray(self._scale)[jnp.clip(totals[order], 0, self._scale.shape[0] - 1)]

    def random_action(self, state: MatchState, key: Array) -> Array:
        """A legal compact id for the player to move, drawn uniformly with a `jax.random` key.

        [`Env.random_action`][scopa.batch.Env.random_action] of the hand in progress (0 once
        the match is over).
        """
        return self.engine.random_action(state.hand, key)

    def sample_action(self, state: MatchState, logits: Array | Any, key: Array) -> Array:
        """A legal compact id drawn from a policy's `logits` over the 2,560 ids.

        [`Env.sample_action`][scopa.batch.Env.sample_action] of the hand in progress (0 once
        the match is over).

        Raises:
            InvalidArgumentError: `logits` is not one value per compact id (`[2560]`).
        """
        return self.engine.sample_action(state.hand, logits, key)

    # -------------------------------------------------------------- the match's books

    def _winner(self, outright: Array, categories: Array, before: Array, totals: Array) -> Array:
        """The side that wins after a hand, or -1: as `Match` decides at the end of a hand.

        `outright` is the side a category of the hand makes win at once (-1 for none),
        which comes first; `categories` are the hand's points by component and side,
        `before` and `totals` the totals before and after it.
        """
        rules = self.rules
        if rules.lowest_total_wins:
            found = jnp.where(_leader(totals, rules.target) >= 0, _lowest(totals), -1)
        elif rules.tiebreak is Tiebreak.LAST_HAND_COUNTDOWN:
            found = self._counted_down(categories, before)
        else:
            found = _leader(totals, rules.target)
        return jnp.where(outright >= 0, outright, found).astype(jnp.int32)

    def _counted_down(self, categories: Array, before: Array) -> Array:
        """The winner of the countdown of the last hand (see `Tiebreak`), or -1."""
        if not self._countdown:
            return jnp.asarray(-1, jnp.int32)
        ordered = categories[jnp.asarray(self._countdown)]
        running = before[None, :] + jnp.cumsum(ordered, axis=0)  # [category, side]
        reached = running >= self.rules.target
        best = jnp.max(jnp.where(reached, running, _LOWEST), axis=1)
        top = reached & (running == best[:, None])
        unique = jnp.sum(top, axis=1) == 1
        first = jnp.argmax(unique)
        return jnp.where(jnp.any(unique), jnp.argmax(top[first]), -1).astype(jnp.int32)

    def _settled(
        self,
        state: MatchState,
        points: Array,
        ended: Array,
        won: Array,
        winner: Array,
        played: Array,
    ) -> Array:
        """The settlement after this step under brilli stakes (see `BrilliEconomy.settle`)."""
        brilli = self._brilli
        if brilli is None:
            return state.settlement
        pot = float(brilli.hand_pot)
        total = jnp.sum(points)
        if brilli.split_zero_total:
            even = jnp.full(self._sides, pot / self._sides, jnp.float32)
        else:
            even = jnp.zeros(self._sides, jnp.float32)
        shares = jnp.where(
            total > 0, pot * points.astype(jnp.float32) / jnp.maximum(total, 1), even
        )
        paid = ended & (state.hands_played < brilli.paid_hands)
        settlement = state.settlement + jnp.where(paid, shares, 0.0)
        bonus = jnp.asarray(float(brilli.match_bonus), jnp.float32)
        if brilli.unplayed_to_winner:  # the pots of the paid hands never played
            bonus = bonus + pot * jnp.maximum(brilli.paid_hands - played, 0)
        to_winner = won & (jnp.arange(self._sides) == winner)
        return (settlement + jnp.where(to_winner, bonus, 0.0)).astype(jnp.float32)

    def _paid(self, winner: Array, settlement: Array) -> Array:
        """What the match pays each player (float32[players]) once `winner` has won."""
        sides = self._sides
        if self.match_reward == "win":
            figures = (jnp.arange(sides) == winner).astype(jnp.float32)
        else:
            figures = settlement
        if self.rewards == "points":
            paid = figures
        elif self.rewards == "margin":
            others = ~jnp.eye(sides, dtype=bool)  # [side, other side]
            paid = figures - jnp.max(jnp.where(others, figures[None, :], -jnp.inf), axis=1)
        else:
            paid = figures - (jnp.sum(figures) - figures) / (sides - 1)
        return paid[jnp.arange(self.num_players) % sides]

    # -------------------------------------------------------------- what a player sees

    def observe(self, state: MatchState, player: int | Array) -> Array:
        """The observation of `player` (`float32[observation_size]`).

        The hand's [`Env.observe`][scopa.batch.Env.observe] of that player, followed by each
        side's match total as that player sees it (its side first).

        Raises:
            InvalidArgumentError: a concrete (not traced) player is not a player number.
        """
        self.engine._check_player(player, "player")
        return self._jit_observe(state, jnp.asarray(player, jnp.int32))

    def _observe(self, state: MatchState, player: Array) -> Array:
        seen = self.engine._observe_any(state.hand, player)
        return jnp.concatenate([seen, self._seen(state.totals, player)])

    def move_facts(self, state: MatchState) -> tuple[Array, Array]:
        """The legal moves of the player to move and their move facts, in the hand in progress.

        [`Env.move_facts`][scopa.batch.Env.move_facts] of `state.hand`.
        """
        return self.engine.move_facts(state.hand)

    def position(self, state: MatchState) -> GameState:
        """The position of the hand in progress of one concrete state (see `Env.position`).

        Raises:
            InvalidArgumentError: `state` is a batch of states, not one.
        """
        return self.engine.position(state.hand)

    def resample(self, state: MatchState, key: Array) -> MatchState:
        """The match with what the player to move cannot see drawn again with a `jax.random` key.

        The hand's [`Env.resample`][scopa.batch.Env.resample], and the hands still to come
        dealt from a new key, so that a search from the state knows none of them. A match
        that is over is returned as it is.

        Raises:
            RulesError: as `Env.resample` raises.
        """
        if self.engine._tells:
            _ = self.engine._counting  # refuses rules too large to count
        return self._jit_resample(state, key)

    def _resample(self, state: MatchState, key: Array) -> MatchState:
        hand_key, deal_key = jax.random.split(key)
        fresh = jax.random.fold_in(state._key, jax.random.bits(deal_key, dtype=jnp.uint32))
        over = state.terminated | state.truncated
        return dataclasses.replace(
            state,
            hand=self.engine._resample(state.hand, hand_key),
            _key=jax.lax.select(over, state._key, fresh),
        )


def _shuffle(key: Array) -> Array:
    """A uniformly random order of the 40 card indices (`int32[40]`), drawn without a sort.

    Each card draws two random 32-bit words, and its place is the number of cards whose
    words come first (by index on a tie of both, about once in 10**17 shuffles). Under
    `vmap` a step deals the next hand whether or not its hand ends, and on a CPU a sort of
    40 keys for each match costs several times this.
    """
    high, low = jax.random.bits(key, (2, _CARDS), jnp.uint32)
    index = jnp.arange(_CARDS)
    # [card, other]: whether the other card comes first
    same_high = high[None, :] == high[:, None]
    first = (high[None, :] < high[:, None]) | (same_high & (low[None, :] < low[:, None]))
    first |= same_high & (low[None, :] == low[:, None]) & (index[None, :] < index[:, None])
    place = jnp.sum(first, axis=1)
    return jnp.zeros(_CARDS, jnp.int32).at[place].set(index.astype(jnp.int32))


def _leader(totals: Array, target: int) -> Array:
    """The side at or above the target and strictly ahead of every other side, or -1."""
    top = jnp.max(totals)
    alone = jnp.sum(totals == top) == 1
    return jnp.where(alone & (top >= target), jnp.argmax(totals), -1).astype(jnp.int32)


def _lowest(totals: Array) -> Array:
    """The side with the unique lowest total, or -1."""
    low = jnp.min(totals)
    return jnp.where(jnp.sum(totals == low) == 1, jnp.argmin(totals), -1).astype(jnp.int32)
