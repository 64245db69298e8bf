"""Framework floors: what OpenSpiel and PettingZoo cost with a game that does no work.

Each floor is a game of the frameworks' own kind with the shape of a hand of the rules (40
cards dealt one by one at chance nodes for OpenSpiel, the rules' plays, their observation
size and action count, four legal actions at each play) whose states do nothing else: the
observation is a fixed array, and a play only counts itself. `adapters.py` plays them in the
same loops as the adapters, so a floor's ratio is the most an adapter of that framework can
reach in that loop, whatever the library does.
"""

from __future__ import annotations

from typing import Any, ClassVar

import scopa
from scopa.encoding import action_count, observation_size

ACTIONS = (0, 64, 640, 1280)
"""The legal actions at every play of a floor game."""


def openspiel_game(rules: scopa.Rules, chance: bool = True) -> Any:
    """A do-nothing OpenSpiel game with the shape of a hand of `rules` (see the module).

    With `chance` false, its hands start dealt: no chance node at all, as in a game whose
    chance is sampled inside its states.
    """
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]

    name = f"python_scopa_floor_{rules.name}" + ("" if chance else "_dealt")
    modes = pyspiel.GameType.ChanceMode
    chance_mode = modes.EXPLICIT_STOCHASTIC if chance else modes.SAMPLED_STOCHASTIC
    cards = 40 if chance else 0
    if name not in pyspiel.registered_names():
        plays = rules.plays_per_hand
        kind = pyspiel.GameType(
            short_name=name,
            long_name="A do-nothing game with the shape of a Scopa hand",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=chance_mode,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=rules.players,
            min_num_players=rules.players,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=True,
            parameter_specification={},
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(rules),
            max_chance_outcomes=cards,
            num_players=rules.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=cards + plays,
        )
        fixed = np.zeros(observation_size(rules), np.float32)

        class Observer:
            def __init__(self) -> None:
                self.tensor = np.zeros_like(fixed)
                self.dict = {"observation": self.tensor}

            def set_from(self, state: Any, player: int) -> None:
                self.tensor[:] = fixed

            def string_from(self, state: Any, player: int) -> str:
                return ""

        class State(pyspiel.State):  # type: ignore[misc]
            def __init__(self, game: Any) -> None:
                super().__init__(game)
                self.dealt = 40 - cards
                self.played = 0

            def current_player(self) -> int:
                if self.dealt < 40:
                    return int(pyspiel.PlayerId.CHANCE)
                if self.played == plays:
                    return int(pyspiel.PlayerId.TERMINAL)
                return self.played % rules.players

            def _legal_actions(self, player: int) -> list[int]:
                return list(ACTIONS)

            def chance_outcomes(self) -> list[tuple[int, float]]:
                left = 40 - self.dealt
                return [(card, 1 / left) for card in range(left)]

            def _apply_action(self, action: int) -> None:
                if self.dealt < 40:
                    self.dealt += 1
                else:
                    self.played += 1

            def _action_to_string(self, player: int, action: int) -> str:
                return str(action)

            def is_terminal(self) -> bool:
                return self.played == plays

            def returns(self) -> list[float]:
                return [0.0] * rules.players

        class Game(pyspiel.Game):  # type: ignore[misc]
            def __init__(self, params: Any = None) -> None:
                super().__init__(kind, info, params or {})

            def new_initial_state(self) -> State:
                return State(self)

            def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
                return Observer()

        pyspiel.register_game(kind, Game)

    return pyspiel.load_game(name)


def pettingzoo_env(rules: scopa.Rules) -> Any:
    """A do-nothing PettingZoo AEC environment with the shape of a hand of `rules`."""
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]

    class Floor(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, str]] = {"name": "scopa_floor_v0"}

        def __init__(self, rules: scopa.Rules) -> None:
            self.plays = rules.plays_per_hand
            self.possible_agents = [f"player_{p}" for p in range(rules.players)]
            count = action_count(rules)
            size = observation_size(rules)
            mask = np.zeros(count, np.int8)
            mask[list(ACTIONS)] = 1
            self.fixed = {"observation": np.zeros(size, np.float32), "action_mask": mask}
            space = spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (count,), np.int8),
                }
            )
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(count))

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def observe(self, agent: str) -> Any:
            return self.fixed

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.played = 0
            self.agent_selection = self.agents[0]

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.played += 1
            if self.played == self.plays:
                self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[self.played % len(self.agents)]
            self._accumulate_rewards()

    return Floor(rules)
