"""Gymnasium adapter: one learner's seat in a hand of Scopa, the other seats played by an agent.

An episode is one hand. The learner plays one seat; every other seat, partners included,
is played by the `opponent` agent (any [`Agent`][scopa.agents.Agent]), which is given only
its own [`view`][scopa.view]. Observations, actions and the reward are those of the
PettingZoo adapter, seen from the learner's seat: a dict of `"observation"` (`float32`)
and `"action_mask"` (`int8`), actions that are [`scopa.encoding`][scopa.encoding] ids, and
a reward of 0 until the hand ends, then [`hand_returns`][scopa.adapters.hand_returns] of
the learner's seat.

`reset(seed=...)` is reproducible: the seed fixes the deal and the opponent's random
choices. An action that is not legal raises [`IllegalMoveError`][scopa.IllegalMoveError]
by default; with `illegal_action="random"` it is replaced by a uniformly random legal
action and the step's info has `"illegal_action": True` (useful for learners and tools
that ignore the mask, such as `gymnasium.utils.env_checker.check_env`).

Importing this module registers the environment as `"scopa/Scopa-v0"` for `gymnasium.make`.

Examples:
    >>> import gymnasium
    >>> import scopa.adapters.gymnasium
    >>> env = gymnasium.make("scopa/Scopa-v0", variant="classic", seat=1)
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
    ((172,), True)
"""

from __future__ import annotations

import random
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from scopa._checks import check_number, quote
from scopa.adapters import (
    _PositionHolder,
    hand_returns,
    observation_high,
    rules_of,
)
from scopa.agents import Agent, GreedyAgent
from scopa.encoding import (
    COMPACT,
    ActionEncoding,
    action_mask,
    legal_actions,
    move_of_action,
    observation,
)
from scopa.errors import IllegalMoveError, InvalidArgumentError
from scopa.rules import Rules
from scopa.state import GameState, view

__all__ = ["ENV_ID", "ScopaGymEnv"]

ENV_ID = "scopa/Scopa-v0"
"""The id the environment is registered under."""

Observation = dict[str, Any]
"""An observation: `"observation"` (a float32 array) and `"action_mask"` (an int8 array)."""


class ScopaGymEnv(_PositionHolder, gymnasium.Env[Observation, np.int64]):
    """One seat of a hand of Scopa against an agent, as a Gymnasium environment.

    Args:
        variant: a preset name (see [`variant_names`][scopa.variant_names]) or `Rules`.
        opponent: the agent that plays every other seat; by default a
            [`GreedyAgent`][scopa.agents.GreedyAgent].
        seat: the learner's player number.
        dealer: the player who deals each hand.
        render_mode: `None`, or `"ansi"` for [`render`][scopa.adapters.gymnasium.ScopaGymEnv.render]
            to return the position as text.
        illegal_action: `"raise"` to raise on an illegal action, `"random"` to play a random
            legal action instead.
        encoding: how actions are numbered (see
            [`ActionEncoding`][scopa.encoding.ActionEncoding]); the flat encoding is not for
            rules with captures to fifteen, declarations or claims.

    Raises:
        ValueError: a seat or dealer that is not a player, an unknown render mode or
            illegal-action policy, or the flat encoding for rules it has no ids for.
        TypeError: an opponent without a `choose` method, an encoding that is not an
            `ActionEncoding`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012
    observation_space: spaces.Dict
    action_space: spaces.Discrete

    def __init__(
        self,
        variant: str | Rules = "classic",
        opponent: Agent | None = None,
        seat: int = 0,
        *,
        dealer: int = 0,
        render_mode: str | None = None,
        illegal_action: Literal["raise", "random"] = "raise",
        encoding: ActionEncoding = COMPACT,
    ) -> None:
        self.rules = rules_of(variant)
        """The rules of the hands."""
        if not isinstance(encoding, ActionEncoding):
            raise TypeError(f"encoding must be an ActionEncoding, not {quote(encoding)}")
        actions = encoding.count(self.rules)
        self.encoding = encoding
        """How actions are numbered."""
        players = self.rules.players
        for name, value in (("seat", seat), ("dealer", dealer)):
            check_number(value, players, name, InvalidArgumentError)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(
                f"render_mode must be None or 'ansi', not {quote(render_mode)}"
            )
        if illegal_action not in ("raise", "random"):
            raise InvalidArgumentError(
                f"illegal_action must be 'raise' or 'random', not {quote(illegal_action)}"
            )
        if opponent is None:
            opponent = GreedyAgent()
        if not isinstance(opponent, Agent):
            raise TypeError(f"opponent must be an Agent, not {type(opponent).__name__}")
        self.opponent = opponent
        """The agent that plays the other seats."""
        self.seat = seat
        """The learner's player number."""
        self.dealer = dealer
        """The player who deals."""
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        """What an illegal action does: `"raise"` or `"random"`."""
        high = np.array(observation_high(self.rules), dtype=np.float32)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(actions)
        self._state: GameState | None = None
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new hand and let the opponent play up to the learner's first turn.

        Args:
            seed: seeds `np_random`, which draws the deal and the opponent's randomness.
            options: ignored.
        """
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 1 << 63))
        self._rng = random.Random(int(self.np_random.integers(0, 1 << 63)))
        self._state = GameState.new(self.rules, seed=deal, dealer=self.dealer)
        self._play_others()
        return self._observe(), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the other seats up to the learner's next turn.

        The result is the usual five: the observation, the reward (0 until the hand
        ends), whether the hand is over, `False` (a hand is never truncated), and an info
        dict (at the end, `"points"`: each side's points).

        Raises:
            IllegalMoveError: the action is not legal (with `illegal_action="raise"`).
            RuntimeError: the hand is over or the environment has not been reset.
        """
        state = self.position
        if state.is_terminal:
            raise RuntimeError("the hand is over: call reset()")
        info: dict[str, Any] = {}
        legal = legal_actions(state, self.encoding)
        chosen = int(action)
        if chosen not in legal:
            if self.illegal_action == "raise":
                raise IllegalMoveError(
                    f"action {chosen} is not legal for seat {self.seat}; legal actions: {legal}"
                )
            chosen = legal[int(self._rng.random() * len(legal))]
            info["illegal_action"] = True
        self._state = state.apply(move_of_action(state, chosen, self.encoding))
        self._play_others()
        state = self.position
        reward = 0.0
        if state.is_terminal:
            reward = hand_returns(state)[self.seat]
            info["points"] = state.hand_score().points
        return self._observe(), reward, state.is_terminal, False, info

    def render(self) -> str | None:
        """The position as text with `render_mode="ansi"`; nothing otherwise."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        return str(self._state)

    def _play_others(self) -> None:
        state = self.position
        while True:
            player = state.current_player
            if player is None or player == self.seat:
                break
            state = state.apply(self.opponent.choose(view(state, player), self._rng))
        self._state = state

    def _observe(self) -> Observation:
        seen = view(self.position, self.seat)
        return {
            "observation": np.array(observation(seen), dtype=np.float32),
            "action_mask": np.frombuffer(action_mask(seen, self.encoding), dtype=np.int8),
        }


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:ScopaGymEnv")
