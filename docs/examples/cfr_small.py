"""Solve scopa-mini with CFR through OpenSpiel, and measure how far the bots are from it.

    python -m pip install -e ".[openspiel]" --group train
    python docs/examples/cfr_small.py [--minutes 5] [--out cfr-small-nashconv.svg]

The game is one hand of the `scopa-mini` preset as the OpenSpiel game `python_scopa`
(chance deals the six cards in play one by one). OpenSpiel's tabular CFR runs for
`--minutes` of wall time; the NashConv of its average policy (the sum over the two seats of
what a best response gains over the policy, in points per hand) is measured after more and
more iterations, printed and drawn.

Then each agent of `AGENTS` is made a tabular policy over every information state of the
game and measured the same way: its NashConv, and what a best response earns against it
in each seat. An agent's policy plays, at each information state, the move the agent
chooses from that state's `PlayerView`, with a `random.Random` seeded by the information
state's text, so a stochastic agent becomes one deterministic policy (one of the many it
plays, drawn once). `RandomAgent` is the exception: its policy is the uniform one, which is
what it plays.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib
from typing import Any

import matplotlib
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import best_response, cfr, expected_game_score, exploitability

import scopa.adapters.openspiel
from scopa import view
from scopa.agents import Agent, FlatMonteCarloAgent, GreedyAgent, RandomAgent
from scopa.encoding import action_of
from scopa.policy import PolicyAgent
from scopa.search import AlphaBetaAgent, ISMCTSAgent

matplotlib.use("Agg")
from matplotlib import pyplot

GAME = pyspiel.load_game(scopa.adapters.openspiel.GAME_NAME, {"variant": "scopa-mini"})

AGENTS: list[tuple[str, Agent]] = [
    ("RandomAgent", RandomAgent()),
    ("GreedyAgent", GreedyAgent()),
    ("FlatMonteCarloAgent(iterations=20)", FlatMonteCarloAgent(iterations=20)),
    ("AlphaBetaAgent(iterations=8)", AlphaBetaAgent(iterations=8)),
    ("ISMCTSAgent(iterations=200)", ISMCTSAgent(iterations=200)),
    ("PolicyAgent() (trained on classic)", PolicyAgent()),
]
"""The agents measured, each with its label."""


def decision_states(game: Any) -> dict[str, Any]:
    """One state of each information state where a player acts, by its text."""
    found: dict[str, Any] = {}

    def walk(state: Any) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                walk(state.child(action))
            return
        found.setdefault(state.information_state_string(), state)
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    return found


def agent_policy(game: Any, agent: Agent, states: dict[str, Any]) -> policy_lib.TabularPolicy:
    """The agent as a tabular policy: its move at each information state (see above)."""
    tabular = policy_lib.TabularPolicy(game)  # uniform over the legal actions
    if isinstance(agent, RandomAgent):
        return tabular
    for key, state in states.items():
        position = state.position
        seen = view(position, state.current_player())
        move = agent.choose(seen, random.Random(zlib.crc32(key.encode())))
        probabilities = tabular.policy_for_key(key)
        probabilities[:] = 0.0
        probabilities[action_of(position, move)] = 1.0
    return tabular


def measure(game: Any, policy: Any) -> tuple[float, list[float], float]:
    """The NashConv of a policy, a best response's value in each seat, and seat 0's value."""
    root = game.new_initial_state()
    responses = [
        best_response.BestResponsePolicy(game, seat, policy).value(root)
        for seat in range(game.num_players())
    ]
    values = expected_game_score.policy_value(root, [policy] * game.num_players())
    nash_conv = sum(br - value for br, value in zip(responses, values, strict=True))
    return nash_conv, responses, values[0]


def solve(game: Any, seconds: float) -> tuple[cfr.CFRSolver, list[tuple[int, float, float]]]:
    """Run CFR for `seconds`; the solver, and (iterations, NashConv, seconds) along the way."""
    start = time.perf_counter()
    solver = cfr.CFRSolver(game)
    curve = []
    iterations, measured_at = 0, 1
    while time.perf_counter() - start < seconds:
        solver.evaluate_and_update_policy()
        iterations += 1
        if iterations == measured_at:
            nash_conv = exploitability.nash_conv(game, solver.average_policy())
            elapsed = time.perf_counter() - start
            curve.append((iterations, nash_conv, elapsed))
            print(f"CFR {iterations:4d} iterations: NashConv {nash_conv:.4f} ({elapsed:.0f} s)")
            measured_at = max(iterations + 1, round(iterations * 1.25))
    return solver, curve


def draw(curve: list[tuple[int, float, float]], agents: list[tuple[str, float]], out: str) -> None:
    """Draw CFR's NashConv against iterations, with each agent's NashConv as a line."""
    pyplot.rcParams["svg.hashsalt"] = "scopa"  # the same picture for the same figures
    figure, axes = pyplot.subplots(figsize=(7, 5), layout="constrained")
    axes.plot([p[0] for p in curve], [p[1] for p in curve], marker="o", label="CFR average policy")
    for (label, nash_conv), style in zip(agents, ["-", "--", "-.", ":", (0, (5, 1))], strict=False):
        axes.axhline(nash_conv, linestyle=style, color="grey", linewidth=1.0, label=label)
    axes.axhline(0.05, color="tab:red", linewidth=0.8, label="NashConv 0.05")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("CFR iterations")
    axes.set_ylabel("NashConv (points per hand)")
    axes.set_title("CFR on scopa-mini (one hand), through OpenSpiel")
    figure.legend(loc="outside lower center", ncols=2)
    figure.savefig(out, metadata={"Date": None})


def main() -> None:
    """Solve, measure the agents, print the figures and draw the picture."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="CFR's wall time")
    parser.add_argument("--out", default="cfr-small-nashconv.svg", help="the picture")
    args = parser.parse_args()
    solver, curve = solve(GAME, 60 * args.minutes)
    nash_conv, responses, value = measure(GAME, solver.average_policy())
    print(f"CFR average policy: NashConv {nash_conv:.4f}, seat 0's value {value:+.4f}")
    states = decision_states(GAME)
    print(f"{len(states)} information states where a player acts")
    measured = []
    for label, agent in AGENTS:
        start = time.perf_counter()
        nash_conv, responses, value = measure(GAME, agent_policy(GAME, agent, states))
        seconds = time.perf_counter() - start
        print(
            f"{label}: NashConv {nash_conv:.3f}; a best response earns {responses[0]:+.3f} "
            f"in seat 0, {responses[1]:+.3f} in seat 1; self-play seat 0 {value:+.3f} "
            f"({seconds:.0f} s)"
        )
        measured.append((f"{label} (NashConv {nash_conv:.2f})", nash_conv))
    draw(curve, measured, args.out)


if __name__ == "__main__":
    main()
