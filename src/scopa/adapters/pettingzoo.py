"""PettingZoo adapter: one hand of Scopa as an AEC environment, every seat an agent.

Agents are `player_0`, `player_1`… (the player numbers of [`GameState`][scopa.GameState]);
`agent_selection` is always the player to move. An observation is a dict:

- `"observation"`: [`scopa.encoding.observation`][scopa.encoding.observation] of the
  agent's view, a `float32` array of length
  [`observation_size`][scopa.encoding.observation_size];
- `"action_mask"`: an `int8` array of length
  [`ACTION_COUNT`][scopa.encoding.ACTION_COUNT], 1 for the agent's legal actions (all 0
  when it is not the agent's turn).
- `"move_facts"`, with `move_facts=True`: a `float32` array of
  [`legal_move_facts`][scopa.encoding.legal_move_facts] of the agent's view, what each of
  its legal moves does, laid out by compact id (all 0 when it is not the agent's turn;
  see [`scopa.adapters`][scopa.adapters]).

Actions are the ids of [`scopa.encoding`][scopa.encoding]. Rewards are 0 until the hand
ends, then each agent gets [`hand_returns`][scopa.adapters.hand_returns] (its side's points
minus the best other side's) and every agent is terminated.

With `episode="match"`, an episode is a whole [`Match`][scopa.Match] to the rules' target:
the hands follow one another, the rewards are 0 until the match is over, then each agent
gets [`match_returns`][scopa.adapters.match_returns] (`match_reward="win"`: +1 for the
winning side, -1 for the others; `"stakes"`: its side's settlement under the rules' stakes
minus the best other side's). The observation vector then ends with each side's match
total divided by the target, the agent's side first
([`match_totals_seen`][scopa.adapters.match_totals_seen]).

With `render_mode="human"` the environment prints the board at each reset and step, as
PettingZoo's classic environments do; with `"ansi"`, `render()` returns it as text.

Examples:
    >>> from scopa.adapters.pettingzoo import ScopaEnv
    >>> env = ScopaEnv("scopa-4")
    >>> env.reset(seed=1)
    >>> env.agent_selection, env.observe("player_1")["observation"].shape
    ('player_1', (262,))
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

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
from scopa.adapters._spaces import Observation, observation_space, observe
from scopa.encoding import COMPACT, ActionEncoding, action_count, move_of_action
from scopa.errors import IllegalMoveError, InvalidArgumentError
from scopa.match import Match
from scopa.rules import Rules
from scopa.state import GameState

__all__ = ["ScopaEnv"]


class ScopaEnv(_PositionHolder, AECEnv):  # type: ignore[misc]
    """One hand of Scopa for every player, as a PettingZoo AEC environment.

    Args:
        variant: a preset name (see [`variant_names`][scopa.variant_names]) or `Rules`.
        dealer: the player who deals each hand.
        render_mode: `None`; `"human"` to print the board at each reset and step (and at
            each [`render`][scopa.adapters.pettingzoo.ScopaEnv.render]); or `"ansi"` for
            `render` to return it as text.
        encoding: how actions are numbered (see
            [`ActionEncoding`][scopa.encoding.ActionEncoding]); the flat encoding is not for
            rules with captures to fifteen, declarations or claims.
        episode: `"hand"` for one hand per episode, `"match"` for a whole match (the
            dealer is then the first hand's).
        match_reward: how a match pays, `"win"` or `"stakes"` (see the module
            documentation).
        move_facts: whether observations add `"move_facts"` (see the module
            documentation).

    Raises:
        ValueError: an unknown render mode, episode or match reward, stakes for rules
            without them, a dealer who is not a player, or the flat encoding for rules it
            has no ids for.
        TypeError: an encoding that is not an `ActionEncoding`, a `move_facts` that is
            not a bool.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "scopa_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    rules: Rules
    """The rules of the hands."""
    dealer: int
    """The player who deals."""
    render_mode: str | None
    """`None`, `"human"` or `"ansi"`."""
    encoding: ActionEncoding
    """How actions are numbered."""
    episode: Episode
    """`"hand"` or `"match"`."""
    match_reward: MatchReward
    """How a match pays: `"win"` or `"stakes"`."""
    move_facts: bool
    """Whether observations carry the agent's move facts."""
    possible_agents: list[str]
    agents: list[str]
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agent_selection: str

    def __init__(
        self,
        variant: str | Rules = "classic",
        *,
        dealer: int = 0,
        render_mode: str | None = None,
        encoding: ActionEncoding = COMPACT,
        episode: Episode = "hand",
        match_reward: MatchReward = "win",
        move_facts: bool = False,
    ) -> None:
        super().__init__()
        self.rules = rules_of(variant)
        check_episode(self.rules, episode, match_reward)
        self.episode = episode
        self.match_reward = match_reward
        actions = action_count(self.rules, encoding)
        self.encoding = encoding
        players = self.rules.players
        check_number(dealer, players, "dealer", InvalidArgumentError)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(
                f"render_mode must be None, 'human' or 'ansi', not {quote(render_mode)}"
            )
        self.dealer = dealer
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = []
        check_type(move_facts, bool, "move_facts")
        self.move_facts = move_facts
        space = observation_space(self.rules, encoding, episode == "match", move_facts)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._index = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._rng = random.Random()
        self._state: GameState | None = None
        self._match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of an agent (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of an agent (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or the first hand of a new match).

        Args:
            seed: seeds the deals of this and the following resets; by default they go on
                from the previous seed (or from the operating system's entropy).
            options: ignored.
        """
        if seed is not None:
            self._rng = random.Random(seed)
        deal = self._rng.getrandbits(64)
        if self.episode == "match":
            self._match = Match.new(self.rules, seed=deal, first_dealer=self.dealer)
            self._state = self._match.state
        else:
            self._state = GameState.new(self.rules, seed=deal, dealer=self.dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        player = self._state.current_player
        assert player is not None
        self.agent_selection = self.possible_agents[player]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        """The agent's observation: its view and its action mask (fresh arrays)."""
        player = self._index[agent]
        return observe(self.position, player, self.encoding, self._match, self.move_facts)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play the selected agent's action (`None` for an agent whose episode is over).

        Raises:
            IllegalMoveError: the action is not legal for the agent to move.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.position
        if action is None:
            raise IllegalMoveError(f"{agent} must act: None is only for a finished hand")
        move = move_of_action(state, int(action), self.encoding)
        if move not in state.legal_moves():
            raise IllegalMoveError(
                f"action {int(action)} ({move}) is not legal for {agent}; "
                f"the mask in its observation shows the legal ones"
            )
        self._cumulative_rewards[agent] = 0.0
        if self._match is not None:
            self._match = self._match.apply(move)
            state = self._state = self._match.state
            over = self._match.is_over
        else:
            state = self._state = state.apply(move)
            over = state.is_terminal
        player = state.current_player
        if over:
            returns = (
                hand_returns(state)
                if self._match is None
                else match_returns(self._match, self.match_reward)
            )
            for other in self.agents:
                self.rewards[other] = returns[self._index[other]]
                self.terminations[other] = True
            self._accumulate_rewards()
            player = (self._index[agent] + 1) % self.rules.players
        assert player is not None  # a match that goes on deals its next hand at once
        self.agent_selection = self.possible_agents[player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Show the board, as `render_mode` says: print it (`"human"`) or return it (`"ansi"`).

        The board is [`state_text`][scopa.board.state_text] of the hand, every hand face
        up; in a match episode, [`match_text`][scopa.board.match_text] of the match. Before
        the first reset, and without a render mode, there is nothing to show.
        """
        if self.render_mode is None or self._state is None:
            return None
        if self.render_mode == "ansi":
            return self._board()
        print(self._board())
        return None

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""
