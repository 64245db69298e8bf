"""pgx adapter: a hand or a match of Scopa as a `pgx.Env`, on the batch engine.

[`make`][scopa.adapters.pgx.make] gives a [`Scopa`][scopa.adapters.pgx.Scopa] environment,
a subclass of `pgx.Env` whose states are `pgx.State`s, so that code written for pgx's games
(its README loop, `pgx.experimental.auto_reset` and `act_randomly`, its AlphaZero example
with mctx) plays Scopa as it is. An episode is one hand of any rules the batch engine plays
([`scopa.batch`][scopa.batch]), or with `episode="match"` a whole match to the target
([`scopa.batch.MatchEnv`][scopa.batch.MatchEnv]), with pgx's conventions:

- `init(key)` deals a hand and draws its dealer from the key, so that either seat may lead
  (`dealer=` fixes the dealer).
- Actions are the 2,560 compact ids of [`scopa.encoding`][scopa.encoding];
  `legal_action_mask` marks the legal ones, and is all `True` once the hand is over.
- The observation is [`observation`][scopa.encoding.observation] of the view of the player
  to move (`float32[observation_size]`), in a match followed by each side's match total
  ([`match_totals_seen`][scopa.adapters.match_totals_seen]), or the same numbers laid out
  as planes over the cards for a convolutional network (`observation="planes"`, see
  [`Scopa`][scopa.adapters.pgx.Scopa]). `observe(state, player_id)` gives any player's.
- Rewards are zero-sum and lie between -1 and 1: at the step that ends the hand, each
  side's points minus the mean of the other sides' points (the margin over the other side
  with two sides; fewer points are better where the lowest total wins), divided by
  [`return_bound`][scopa.adapters.return_bound] of the rules, the most points a side can
  score in a hand. Every partner receives the side's reward. A match pays at the step
  that ends it: 1 to the winning side and `-1 / (sides - 1)` to each other side
  (`match_reward="win"`), or under the tretre brilli (`match_reward="stakes"`) each
  side's brilli minus the mean of the other sides', divided by the brilli of a whole
  match (50).
- An action that is not legal ends the episode: the offender's side gets -1, pgx's
  penalty, and each other side `1 / (sides - 1)`, so the rewards still add up to zero. No
  episode pays less than -1, so an illegal action is never better than playing on.
- `_step_count` counts the steps. A hand always ends, so its `truncated` is always
  `False`; a match that reaches `max_hands` hands with no winner is cut off there with
  `truncated` set, every reward 0 and the mask all `True`.
- Once the episode is over, `current_player` stays the player who made the last play.
- `step(state, action, key)` takes pgx's key and does not need it: the deals are drawn at
  `init`. The state holds every hand and the deals to come, so a search that plays on from
  it sees them: [`Scopa.resample`][scopa.adapters.pgx.Scopa.resample] redraws what the
  player to move cannot see, for an honest search.

Install with `pip install "scopa[pgx]"` (pgx 2.6.0, the version this adapter is tested
with).

Examples:
    >>> import jax
    >>> import pgx
    >>> from scopa.adapters.pgx import make
    >>> env = make("classic")
    >>> isinstance(env, pgx.Env), env.id, env.num_players, env.num_actions
    (True, 'scopa/classic', 2, 2560)
    >>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
    >>> isinstance(state, pgx.State), state.observation.shape, int(state._step_count)
    (True, (172,), 0)
    >>> step = jax.jit(env.step)
    >>> while not state.terminated:
    ...     state = step(state, jax.numpy.argmax(state.legal_action_mask))
    >>> float(state.rewards.sum()), bool(state.legal_action_mask.all())
    (0.0, True)
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Final, Literal

from scopa._extras import needs_extra

try:
    import pgx  # type: ignore[import-untyped]
except ImportError:
    raise ImportError(needs_extra("scopa.adapters.pgx", "pgx", "pgx")) from None

import jax
import jax.numpy as jnp
import numpy as np

from scopa import batch
from scopa._checks import check_type, quote
from scopa.adapters import Episode, MatchReward, check_episode, return_bound, rules_of
from scopa.encoding import ObservationLayout
from scopa.errors import InvalidArgumentError
from scopa.rules import Rules
from scopa.stakes import BrilliEconomy
from scopa.state import GameState

__all__ = ["VERSION", "Observation", "Scopa", "State", "make"]

VERSION = "v0"
"""The environments' version (pgx's `Env.version`), raised when what they do changes."""

Observation = Literal["flat", "planes"]
"""How observations are laid out: one vector, or planes over the cards."""

Array = jax.Array


def _env_id(rules: Rules, episode: Episode) -> str:
    return f"scopa/{rules.name}" if episode == "hand" else f"scopa/{rules.name}/match"


@dataclasses.dataclass(frozen=True)
class State(pgx.State):  # type: ignore[misc]
    """A hand or a match of Scopa as a `pgx.State`: pgx's fields, and the batch engine's.

    `current_player`, `observation`, `rewards`, `terminated`, `truncated`,
    `legal_action_mask` and `_step_count` are pgx's; `_hand` is what the environment
    plays: a [`scopa.batch.State`][scopa.batch.State], or in a match episode a
    [`scopa.batch.MatchState`][scopa.batch.MatchState].
    """

    _hand: batch.State | batch.MatchState
    _rules: Rules  # not an array: the same for every state of an environment

    @property
    def env_id(self) -> str:
        """The id of the environment, as `Scopa.id`."""
        return _env_id(self._rules, "match" if isinstance(self._hand, batch.MatchState) else "hand")

    def replace(self, **changes: Any) -> State:
        """The state with some fields changed (as pgx's states have it)."""
        return dataclasses.replace(self, **changes)

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """The position as an SVG picture, every hand face up.

        The picture is [`state_svg`][scopa.svg.state_svg]'s of the hand's position (in a
        match, of the hand in progress); a batch of states gives one picture of them all,
        one above the other. `scale` multiplies
        its width; `color_theme`, pgx's choice of colours for its own games, changes
        nothing here.
        """
        from scopa.svg import state_svg  # only pictures need it

        engine = batch.Env(self._rules)
        hands = self._hand.hand if isinstance(self._hand, batch.MatchState) else self._hand
        leading = np.shape(self.current_player)
        pictures = []
        for index in np.ndindex(*leading):
            hand = jax.tree_util.tree_map(lambda x, i=index: x[i], hands)
            picture = state_svg(engine.position(hand))
            if scale is not None:
                picture = _scaled(picture, scale)
            pictures.append(picture)
        if not leading:
            return pictures[0]
        return _stacked(pictures)

    def save_svg(
        self,
        filename: str | Path,
        *,
        color_theme: str | None = None,
        scale: float | None = None,
    ) -> None:
        """Write [`to_svg`][scopa.adapters.pgx.State.to_svg]'s picture to `filename`.

        Raises:
            InvalidArgumentError: the file name does not end with `.svg`.
        """
        if not str(filename).endswith(".svg"):
            raise InvalidArgumentError(f"an SVG file name ends with .svg, not {quote(filename)}")
        Path(filename).write_text(self.to_svg(color_theme=color_theme, scale=scale))


jax.tree_util.register_dataclass(
    State,
    data_fields=[f.name for f in dataclasses.fields(State) if f.name != "_rules"],
    meta_fields=["_rules"],
)

_SIZE = re.compile(r'^<svg[^>]*? width="([0-9.]+)" height="([0-9.]+)"')


def _scaled(picture: str, scale: float) -> str:
    """A picture `scale` times as large."""
    found = _SIZE.match(picture)
    assert found is not None  # state_svg's pictures start with their size
    width, height = (float(size) * scale for size in found.groups())
    start, end = found.span(1)[0], found.span(2)[1]
    return f'{picture[:start]}{width:g}" height="{height:g}{picture[end:]}'


def _stacked(pictures: list[str]) -> str:
    """Pictures one above the other, in one picture."""
    placed = []
    top = width = 0.0
    for picture in pictures:
        found = _SIZE.match(picture)
        assert found is not None
        placed.append(f'<svg x="0" y="{top:g}"{picture[4:]}')
        width = max(width, float(found.group(1)))
        top += float(found.group(2))
    size = f'width="{width:g}" height="{top:g}" viewBox="0 0 {width:g} {top:g}"'
    return f'<svg xmlns="http://www.w3.org/2000/svg" {size}>{"".join(placed)}</svg>'


class Scopa(pgx.Env):  # type: ignore[misc]
    """A hand or a match of Scopa under some rules, as a `pgx.Env` (see [`scopa.adapters.pgx`][]).

    With `observation="planes"` the observation is `float32[4, 10, 6 * players + 4]`: the
    cards as a grid of suits by ranks (the index of a card is `10 * suit + rank - 1`), and
    for channels the observer's hand, the table, and each seat's pile from the observer's
    on, then every other entry of the flat observation (hand sizes, scope, stock, the seat
    to move, the dealer, the last capturer, and in a match each side's total) as a plane
    of that value. Under rules with declarations, each seat's cards a declaration showed
    follow the piles as card planes, and each seat's declared points are planes of their
    value too. It holds the same numbers as the flat vector.

    Args:
        rules: the rules, which the batch engine must play.
        dealer: the dealer of every hand (in a match, of its first hand); `None` (the
            default) draws it from `init`'s key.
        observation: `"flat"` (the default) or `"planes"`.
        episode: `"hand"` (the default) or `"match"`.
        match_reward: in a match, `"win"` (the default) or `"stakes"` (the tretre brilli).
        max_hands: in a match, the most hands before it is cut off (`truncated`); `None`
            (the default) for four times the target, as
            [`MatchEnv`][scopa.batch.MatchEnv] has it.

    Raises:
        RulesError: the batch engine does not play the rules, or `"stakes"` for stakes
            that are not brilli.
        InvalidArgumentError: `dealer` is not a player, `observation`, `episode` or
            `match_reward` is not one of its values, `"stakes"` for rules without stakes,
            a bad `max_hands`, or an option of a match given for a hand.
        TypeError: `rules` is not a `Rules`.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        dealer: int | None = None,
        observation: Observation = "flat",
        episode: Episode = "hand",
        match_reward: MatchReward = "win",
        max_hands: int | None = None,
    ) -> None:
        super().__init__()
        check_type(rules, Rules, "rules")
        self.engine: Final = batch.Env(rules, rewards="zero-sum")
        """The batch engine that plays the hands, paying zero-sum rewards in points."""
        self.rules: Final = rules
        """The rules played."""
        check_episode(rules, episode, match_reward)
        if episode == "hand" and (match_reward != "win" or max_hands is not None):
            raise InvalidArgumentError(
                "match_reward and max_hands are options of a match: give episode='match'"
            )
        self.episode: Final[Episode] = episode
        """What an episode is: `"hand"` or `"match"`."""
        self.match: Final = (
            batch.MatchEnv(
                rules, match_reward=match_reward, rewards="zero-sum", max_hands=max_hands
            )
            if episode == "match"
            else None
        )
        """In a match episode, the batch engine's matches, paying zero-sum rewards."""
        self.reward_scale: Final = _reward_scale(rules, episode, match_reward)
        """What the engine's rewards are divided by: the most points a side can score in a
        hand; in a match, 1 (`"win"`) or the brilli of a whole match (`"stakes"`)."""
        if dealer is not None:
            self.engine._check_player(dealer, "dealer")
        self.dealer: Final = dealer
        """The dealer of every hand (of a match's first), or `None` for one drawn from
        `init`'s key."""
        if observation not in ("flat", "planes"):
            raise InvalidArgumentError(
                f"observation must be 'flat' or 'planes', not {quote(observation)}"
            )
        self.observation: Final[Observation] = observation
        """How observations are laid out."""
        # the flat observation's entries that make the card planes, and the other entries
        layout = ObservationLayout.of(rules.players, rules.declarations)
        cards = [layout.hand, layout.table, *layout.piles, *layout.revealed]
        self._card_entries: Final = np.concatenate([np.arange(s.start, s.stop) for s in cards])
        size = layout.size if self.match is None else self.match.observation_size
        self._other_entries: Final = np.setdiff1d(np.arange(size), self._card_entries)

    def __repr__(self) -> str:
        played = ""
        if self.match is not None:
            played = (
                f", episode='match', match_reward={self.match.match_reward!r}, "
                f"max_hands={self.match.max_hands}"
            )
        return (
            f"Scopa({self.rules!r}, dealer={self.dealer!r}, "
            f"observation={self.observation!r}{played})"
        )

    @property
    def id(self) -> str:
        """`scopa/` and the rules' name, `scopa/classic`; `scopa/classic/match` for a match."""
        return _env_id(self.rules, self.episode)

    @property
    def version(self) -> str:
        """[`VERSION`][scopa.adapters.pgx.VERSION]."""
        return VERSION

    @property
    def num_players(self) -> int:
        """The number of players."""
        return self.rules.players

    @property
    def num_actions(self) -> int:
        """The number of action ids: 2,560."""
        return self.engine.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of an observation."""
        size = self.engine.observation_size if self.match is None else self.match.observation_size
        if self.observation == "flat":
            return (size,)
        return (4, 10, len(self._card_entries) // 40 + len(self._other_entries))

    def _init(self, key: Array) -> State:
        dealer_key, deal_key = jax.random.split(key)
        if self.dealer is None:
            dealer = jax.random.randint(dealer_key, (), 0, self.num_players, jnp.int32)
        else:
            dealer = jnp.int32(self.dealer)
        played: batch.State | batch.MatchState
        if self.match is None:
            played = self.engine.init(deal_key, dealer)
        else:
            played = self.match.init(deal_key, dealer)
        return State(
            current_player=played.current_player,
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            rewards=jnp.zeros(self.num_players, jnp.float32),
            terminated=jnp.asarray(False),
            truncated=jnp.asarray(False),
            legal_action_mask=played.legal_action_mask,
            _step_count=jnp.int32(0),
            _hand=played,
            _rules=self.rules,
        )

    def _step(self, state: State, action: Array, key: Array | None) -> State:
        del key  # the deals were drawn at init
        played = state._hand
        if isinstance(played, batch.MatchState):
            assert self.match is not None
            match = self.match.step(played, action)
            over = match.terminated | match.truncated
            return state.replace(
                current_player=jnp.where(over, state.current_player, match.current_player),
                rewards=match.rewards / self.reward_scale,
                terminated=match.terminated,
                truncated=match.truncated,
                # all True once cut off, as pgx has it once over
                legal_action_mask=match.legal_action_mask | match.truncated,
                _hand=match,
            )
        hand = self.engine.step(played, action)
        over = hand.terminated
        return state.replace(
            current_player=jnp.where(over, state.current_player, hand.current_player),
            rewards=hand.rewards / self.reward_scale,
            terminated=over,
            legal_action_mask=hand.legal_action_mask,
            _hand=hand,
        )

    def _observe(self, state: State, player_id: Array) -> Array:
        played = state._hand
        if isinstance(played, batch.MatchState):
            assert self.match is not None
            seen = self.match.observe(played, player_id)
        else:
            seen = self.engine.observe(played, player_id)
        if self.observation == "flat":
            return seen
        grid = seen[self._card_entries].reshape(-1, 4, 10).transpose(1, 2, 0)
        others = seen[self._other_entries]
        rest = jnp.broadcast_to(others, (4, 10, others.shape[0]))
        return jnp.concatenate([grid, rest], axis=-1)

    def _step_with_illegal_action(self, state: State, loser: Array) -> State:
        sides = self.rules.number_of_sides
        offenders = jnp.arange(self.num_players) % sides == loser % sides
        penalty = self._illegal_action_penalty
        rewards = jnp.where(offenders, penalty, -penalty / (sides - 1)).astype(jnp.float32)
        return state.replace(rewards=rewards, terminated=jnp.asarray(True))

    def resample(self, state: State, key: Array) -> State:
        """The state with what the player to move cannot see drawn again with a `jax.random` key.

        The hand's [`scopa.batch.Env.resample`][scopa.batch.Env.resample]: the other hands
        and the deals to come, uniformly among those that agree with what the player to
        move has seen; the observation and the legal mask stay. In a match,
        [`MatchEnv.resample`][scopa.batch.MatchEnv.resample]: the hands still to come are
        dealt anew as well.
        """
        played = state._hand
        if isinstance(played, batch.MatchState):
            assert self.match is not None
            return state.replace(_hand=self.match.resample(played, key))
        return state.replace(_hand=self.engine.resample(played, key))

    def random_action(self, state: State, key: Array) -> Array:
        """A uniformly random legal action, drawn without reading the mask.

        [`scopa.batch.Env.random_action`][scopa.batch.Env.random_action] of the hand (in a
        match, of the hand in progress; 0 once the episode is over): much cheaper on a CPU
        than `pgx.experimental.act_randomly`.
        """
        return self.engine.random_action(_hand_of(state), key)

    def position(self, state: State) -> GameState:
        """The position of one concrete state, as `scopa.batch.Env.position` gives it.

        In a match, of the hand in progress.
        """
        return self.engine.position(_hand_of(state))


def _hand_of(state: State) -> batch.State:
    """The hand of a state: the hand in progress of a match."""
    played = state._hand
    return played.hand if isinstance(played, batch.MatchState) else played


def _reward_scale(rules: Rules, episode: Episode, match_reward: MatchReward) -> float:
    """What the rewards of the batch engine are divided by, to lie between -1 and 1.

    A hand: the most points a side can score. A match won: 1. A match for brilli: the
    brilli of a whole match, which no side's brilli less the mean of the others' exceeds.
    """
    if episode == "hand":
        return return_bound(rules)
    stakes = rules.stakes
    if match_reward == "win" or not isinstance(stakes, BrilliEconomy):
        return 1.0
    whole = stakes.hand_pot * stakes.paid_hands + stakes.match_bonus
    return float(whole) if whole > 0 else 1.0


def make(variant: str | Rules, **options: Any) -> Scopa:
    """The [`Scopa`][scopa.adapters.pgx.Scopa] environment of a preset name or of rules.

    `options` are `Scopa`'s: `dealer`, `observation`, and `episode="match"` with
    `match_reward` and `max_hands` for a whole match.

    Raises:
        RulesError: no preset has that name, or the batch engine does not play the rules.
        InvalidArgumentError: a bad option (see `Scopa`).
        TypeError: `variant` is neither a string nor `Rules`.
    """
    return Scopa(rules_of(variant), **options)
