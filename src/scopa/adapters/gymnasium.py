"""Gymnasium adapter: one learner's seat in a hand of Scopa, the other seats played by an agent.

An episode is one hand, or with `episode="match"` a whole [`Match`][scopa.Match] to the
rules' target, hand after hand. The learner plays one seat; every other seat, partners
included, is played by the `opponent` agent (any [`Agent`][scopa.agents.Agent]), which is
given only its own [`view`][scopa.view]. Observations, actions and the reward are those of
the PettingZoo adapter, seen from the learner's seat: a dict of `"observation"` (`float32`)
and `"action_mask"` (`int8`), actions that are [`scopa.encoding`][scopa.encoding] ids, and
a reward of 0 until the episode ends, then [`hand_returns`][scopa.adapters.hand_returns]
of the learner's seat for a hand, or [`match_returns`][scopa.adapters.match_returns] for a
match (`match_reward="win"`: +1 or -1; `"stakes"`: the settlement under the rules' stakes
minus the best other side's). A match observation ends with each side's match total
divided by the target, the learner's side first
([`match_totals_seen`][scopa.adapters.match_totals_seen]).

Act with the mask: `env.action_space.sample(mask=obs["action_mask"])` draws a legal
action. The learner plays the same seat in every episode, or with `seat=None` a seat drawn for
each episode; the info of `reset` says the seat (`"seat"`).
`reset(seed=...)` is reproducible: the seed fixes the deals, the seat drawn and the
opponent's random choices. An action that is not legal is replaced by default
(`illegal_action="random"`) by a uniformly random legal action, and the step's info has
`"illegal_action": True`, so that tools which ignore the mask, such as
`gymnasium.utils.env_checker.check_env`, can play; with `illegal_action="raise"` it raises
[`IllegalMoveError`][scopa.IllegalMoveError].

With `move_facts=True`, observations add `"move_facts"`: a `float32` array of
[`legal_move_facts`][scopa.encoding.legal_move_facts] of the learner's view, what each of
its legal moves does, laid out by compact id (see [`scopa.adapters`][scopa.adapters]).
`action_masks()` gives the mask of the learner's legal actions, for learners that ask the
environment for it.

Importing this module registers the environment as `"scopa/Scopa-v0"` for `gymnasium.make`.

Examples:
    >>> import gymnasium
    >>> import scopa.adapters.gymnasium
    >>> env = gymnasium.make("scopa/Scopa-v0", variant="classic", seat=1)
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
    ((172,), True)
    >>> action = env.action_space.sample(mask=obs["action_mask"])
    >>> obs, reward, terminated, truncated, info = env.step(action)
    >>> "illegal_action" in info
    False
"""

from __future__ import annotations

import random
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from scopa._checks import check_number, check_type, quote
from scopa.adapters import (
    Episode,
    MatchReward,
    _PositionHolder,
    check_episode,
    hand_returns,
    match_returns,
    rules_of,
)
from scopa.adapters._spaces import Observation, action_array, observation_space, observe
from scopa.agents import Agent, GreedyAgent
from scopa.encoding import COMPACT, ActionEncoding, action_count, legal_actions, move_of_action
from scopa.errors import IllegalMoveError, InvalidArgumentError
from scopa.match import Match
from scopa.moves import Move
from scopa.rules import Rules
from scopa.state import GameState, view

__all__ = ["ENV_ID", "ScopaGymEnv"]

ENV_ID = "scopa/Scopa-v0"
"""The id the environment is registered under."""


class ScopaGymEnv(_PositionHolder, gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a hand of Scopa against an agent, as a Gymnasium environment.

    Args:
        variant: a preset name (see [`variant_names`][scopa.variant_names]) or `Rules`.
        opponent: the agent that plays every other seat; by default a
            [`GreedyAgent`][scopa.agents.GreedyAgent].
        seat: the learner's player number in every episode, or `None` to draw it for each
            episode (see
            [`learner_seat`][scopa.adapters.gymnasium.ScopaGymEnv.learner_seat]).
        dealer: the player who deals each hand.
        render_mode: `None`, or `"ansi"` for [`render`][scopa.adapters.gymnasium.ScopaGymEnv.render]
            to return the board as text.
        illegal_action: `"random"` to play a random legal action instead of an illegal one
            (and say so in the info), `"raise"` to raise.
        encoding: how actions are numbered (see
            [`ActionEncoding`][scopa.encoding.ActionEncoding]); the flat encoding is not for
            rules with captures to fifteen, declarations or claims.
        episode: `"hand"` for one hand per episode, `"match"` for a whole match (the
            dealer is then the first hand's).
        match_reward: how a match pays, `"win"` or `"stakes"` (see the module
            documentation).
        move_facts: whether observations add `"move_facts"`: the learner's
            [`legal_move_facts`][scopa.encoding.legal_move_facts] (see the module
            documentation).

    Raises:
        ValueError: a seat or dealer that is not a player, an unknown render mode,
            illegal-action policy, episode or match reward, stakes for rules without
            them, or the flat encoding for rules it has no ids for.
        TypeError: an opponent without a `choose` method, an encoding that is not an
            `ActionEncoding`, a `move_facts` that is not a bool.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012
    observation_space: spaces.Dict
    action_space: spaces.Discrete

    def __init__(
        self,
        variant: str | Rules = "classic",
        opponent: Agent | None = None,
        seat: int | None = 0,
        *,
        dealer: int = 0,
        render_mode: str | None = None,
        illegal_action: Literal["raise", "random"] = "random",
        encoding: ActionEncoding = COMPACT,
        episode: Episode = "hand",
        match_reward: MatchReward = "win",
        move_facts: bool = False,
    ) -> None:
        self.rules = rules_of(variant)
        """The rules of the hands."""
        check_episode(self.rules, episode, match_reward)
        self.episode = episode
        """`"hand"` or `"match"`."""
        self.match_reward = match_reward
        """How a match pays: `"win"` or `"stakes"`."""
        actions = action_count(self.rules, encoding)
        self.encoding = encoding
        """How actions are numbered."""
        players = self.rules.players
        if seat is not None:
            check_number(seat, players, "seat", InvalidArgumentError)
        check_number(dealer, players, "dealer", InvalidArgumentError)
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
        """The learner's player number in every episode, or `None` when it is drawn for each."""
        self._seat: int | None = seat
        self.dealer = dealer
        """The player who deals."""
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        """What an illegal action does: `"raise"` or `"random"`."""
        check_type(move_facts, bool, "move_facts")
        self.move_facts = move_facts
        """Whether observations carry the learner's move facts."""
        self.observation_space = observation_space(
            self.rules, encoding, episode == "match", move_facts
        )
        self.action_space = spaces.Discrete(actions)
        self._state: GameState | None = None
        self._match: Match | None = None
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new hand (or match) and let the opponent play up to the learner's first turn.

        The info has `"seat"`: the learner's player number in this episode.

        Args:
            seed: seeds `np_random`, which draws the deal, the seat (with `seat=None`) and
                the opponent's randomness.
            options: ignored.
        """
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 1 << 63))
        self._rng = random.Random(int(self.np_random.integers(0, 1 << 63)))
        if self.seat is None:
            self._seat = int(self.np_random.integers(0, self.rules.players))
        if self.episode == "match":
            self._match = Match.new(self.rules, seed=deal, first_dealer=self.dealer)
            self._state = self._match.state
        else:
            self._state = GameState.new(self.rules, seed=deal, dealer=self.dealer)
        self._play_others()
        return self._observe(), {"seat": self.learner_seat}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the other seats up to the learner's next turn.

        The result is the usual five: the observation, the reward (0 until the episode
        ends), whether the episode is over, `False` (an episode is never truncated), and an
        info dict. At the end of a hand episode, the info has `"points"`: each side's
        points; at the end of a match, `"totals"`: each side's match total, and
        `"winner"`: the winning side.

        Raises:
            IllegalMoveError: the action is not legal (with `illegal_action="raise"`).
            RuntimeError: the episode is over or the environment has not been reset.
        """
        state = self.position
        if self._is_over():
            raise RuntimeError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        legal = legal_actions(state, self.encoding)
        chosen = int(action)
        if chosen not in legal:
            if self.illegal_action == "raise":
                raise IllegalMoveError(
                    f"action {chosen} is not legal for seat {self.learner_seat}; "
                    f"legal actions: {legal}"
                )
            chosen = legal[int(self._rng.random() * len(legal))]
            info["illegal_action"] = True
        self._play(move_of_action(state, chosen, self.encoding))
        self._play_others()
        over = self._is_over()
        reward = 0.0
        if over and self._match is not None:
            reward = match_returns(self._match, self.match_reward)[self.learner_seat]
            info["totals"] = self._match.totals
            info["winner"] = self._match.winner
        elif over:
            reward = hand_returns(self.position)[self.learner_seat]
            info["points"] = self.position.hand_score().points
        return self._observe(), reward, over, False, info

    @property
    def learner_seat(self) -> int:
        """The learner's player number in the episode being played.

        Raises:
            RuntimeError: the seat is drawn for each episode and the environment has not
                been reset.
        """
        if self._seat is None:
            raise RuntimeError("with seat=None the seat is drawn by reset(): call it first")
        return self._seat

    def render(self) -> str | None:
        """The board as text with `render_mode="ansi"`; nothing otherwise.

        The board is [`state_text`][scopa.board.state_text] of the hand, every hand face
        up; in a match episode, [`match_text`][scopa.board.match_text] of the match.
        """
        if self.render_mode != "ansi" or self._state is None:
            return None
        return self._board()

    def _is_over(self) -> bool:
        """Whether the episode is over: the hand, or the match."""
        if self._match is not None:
            return self._match.is_over
        return self.position.is_terminal

    def _play(self, move: Move) -> None:
        """Play a move in the hand, through the match in a match episode."""
        if self._match is not None:
            self._match = self._match.apply(move)
            self._state = self._match.state
        else:
            self._state = self.position.apply(move)

    def _play_others(self) -> None:
        """Let the opponent play until the learner's turn or the end of the episode."""
        while not self._is_over():
            state = self.position
            player = state.current_player
            if player is None or player == self._seat:
                break
            self._play(self.opponent.choose(view(state, player), self._rng))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions, the observation's mask as booleans.

        Learners that ask the environment for the mask, such as sb3-contrib's
        MaskablePPO, find it here.
        """
        return action_array(self.position, self.learner_seat, self.encoding).astype(bool)

    def _observe(self) -> Observation:
        return observe(
            self.position, self.learner_seat, self.encoding, self._match, self.move_facts
        )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:ScopaGymEnv")
