"""Solve a small Scopa with CFR through OpenSpiel, and measure how far the bots are from it.

    python -m pip install -e ".[openspiel]" --group train
    python docs/examples/cfr_small.py [--iterations 500] [--out cfr-small-nashconv.svg]
    python docs/examples/cfr_small.py --variant scopa-coperta --sorted-deal \
        --iterations 300 --out cfr-coperta-nashconv.svg

The game is one hand of a small preset (`--variant`, `scopa-mini` unless told) as the
OpenSpiel game `python_scopa` (chance deals the cards in play one by one, with
`--sorted-deal` each player's cards of a deal in increasing order, which makes the tree
smaller and leaves the game as it is), wrapped in OpenSpiel's `cached_tree`: the wrapper
walks the Python game's states once and keeps them, so that OpenSpiel's C++ `CFRSolver`,
best responses and NashConv run on it at the speed of C++ rather than calling Python at
every node. The script first counts the game's information states, and those that hold
more than one position (`count_information_states`). CFR runs for `--iterations`; the
NashConv of its average policy (the sum over the two seats of what a best response gains
over the policy, in points per hand) is measured after more and more iterations, printed
and drawn.

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

import scopa.adapters.openspiel
from scopa import find_variant, view
from scopa.agents import Agent, FlatMonteCarloAgent, GreedyAgent, RandomAgent
from scopa.encoding import action_of
from scopa.policy import PolicyAgent
from scopa.search import AlphaBetaAgent, ISMCTSAgent

matplotlib.use("Agg")
from matplotlib import pyplot
from matplotlib.figure import Figure

AGENTS: list[tuple[str, Agent]] = [
    ("RandomAgent", RandomAgent()),
    ("GreedyAgent", GreedyAgent()),
    ("FlatMonteCarloAgent(iterations=20)", FlatMonteCarloAgent(iterations=20)),
    ("AlphaBetaAgent(iterations=8)", AlphaBetaAgent(iterations=8)),
    ("ISMCTSAgent(iterations=200)", ISMCTSAgent(iterations=200)),
    ("PolicyAgent() (trained on classic)", PolicyAgent()),
]
"""The agents measured, each with its label."""

TARGET = 0.05
"""The NashConv drawn as a line unless `--target` says another: the policy is within this of
an equilibrium."""

Policy = dict[str, list[tuple[int, float]]]
"""A tabular policy as OpenSpiel's C++ functions take it: for each information state, each
legal action with its probability."""


def load_games(variant: str = "scopa-mini", sorted_deal: bool = False) -> tuple[Any, Any]:
    """The Python game of one hand of a preset, and its C++ cached tree."""
    parameters = {"variant": variant, "sorted_deal": sorted_deal}
    game = pyspiel.load_game(scopa.adapters.openspiel.GAME_NAME, parameters)
    return game, pyspiel.convert_to_cached_tree(game)


def decision_states(game: Any) -> dict[str, Any]:
    """One state of the Python game for each information state where a player acts."""
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


def agent_policy(agent: Agent, states: dict[str, Any]) -> Policy:
    """The agent as a tabular policy: its move at each information state (see above).

    Where a single move is legal, the agent is not asked.
    """
    policy: Policy = {}
    for key, state in states.items():
        legal = state.legal_actions()
        if isinstance(agent, RandomAgent) or len(legal) == 1:
            policy[key] = [(action, 1 / len(legal)) for action in legal]
            continue
        position = state.position
        move = agent.choose(
            view(position, state.current_player()), random.Random(zlib.crc32(key.encode()))
        )
        chosen = action_of(position, move)
        policy[key] = [(action, float(action == chosen)) for action in legal]
    return policy


def measure(tree: Any, policy: Any) -> tuple[float, list[float], float]:
    """The NashConv of a policy, a best response's value in each seat, and seat 0's value."""
    if isinstance(policy, dict):
        policy = pyspiel.TabularPolicy(policy)
    root = tree.new_initial_state()
    responses = [
        pyspiel.TabularBestResponse(tree, seat, policy).value(root.history_str())
        for seat in range(tree.num_players())
    ]
    values = pyspiel.expected_returns(root, policy, -1, True)
    nash_conv = sum(br - value for br, value in zip(responses, values, strict=True))
    return nash_conv, responses, values[0]


def solve(tree: Any, iterations: int) -> tuple[Any, list[tuple[int, float, float]]]:
    """Run CFR; the solver, and (iterations, NashConv, seconds of CFR) along the way."""
    solver = pyspiel.CFRSolver(tree)
    curve = []
    seconds, measured_at = 0.0, 1
    for done in range(1, iterations + 1):
        start = time.perf_counter()
        solver.evaluate_and_update_policy()
        seconds += time.perf_counter() - start
        if done in (measured_at, iterations):
            nash_conv = pyspiel.nash_conv(tree, solver.average_policy())
            curve.append((done, nash_conv, seconds))
            print(f"CFR {done:4d} iterations: NashConv {nash_conv:.4f} ({seconds:.1f} s)")
            measured_at = max(done + 1, round(done * 1.25))
    return solver, curve


def draw(
    curve: list[tuple[int, float, float]],
    agents: list[tuple[str, float]],
    out: str,
    variant: str = "scopa-mini",
    target: float = TARGET,
) -> Figure:
    """Draw CFR's NashConv against iterations, with each agent's NashConv as a line.

    The NashConv axis is logarithmic down to 0.001 and linear below it, so that a policy
    at NashConv 0 (an equilibrium) is drawn at the bottom. Agents with the same NashConv
    share a line; the legend is below the plot, one entry a row, inside the picture.
    """
    pyplot.rcParams["svg.hashsalt"] = "scopa"  # the same picture for the same figures
    shared: dict[float, list[str]] = {}
    for label, nash_conv in agents:
        shared.setdefault(round(nash_conv, 3), []).append(label)
    figure, axes = pyplot.subplots(figsize=(7.5, 7), layout="constrained")
    axes.plot([p[0] for p in curve], [p[1] for p in curve], marker="o", label="CFR average policy")
    styles = [
        ("-", "tab:purple"),
        ("--", "tab:orange"),
        ("-.", "tab:brown"),
        ((0, (5, 1)), "tab:green"),
        (":", "tab:olive"),
        ((0, (1, 3)), "tab:cyan"),
    ]
    lines = sorted(shared.items(), reverse=True)
    for (nash_conv, labels), (style, colour) in zip(lines, styles, strict=False):
        label = f"{', '.join(labels)}: NashConv {nash_conv:.3f}"
        axes.axhline(nash_conv, linestyle=style, color=colour, linewidth=1.8, label=label)
    axes.axhline(target, color="tab:red", linewidth=0.8, label=f"NashConv {target}")
    axes.set_xscale("log")
    axes.set_yscale("symlog", linthresh=1e-3, linscale=0.5)
    highest = max([*(p[1] for p in curve), *(nash_conv for _, nash_conv in agents)])
    axes.set_ylim(bottom=-2e-4, top=max(3.0, 1.5 * highest))
    axes.set_xlabel("CFR iterations")
    axes.set_ylabel("NashConv (points per hand; logarithmic above 0.001)")
    axes.set_title(f"CFR on {variant} (one hand), OpenSpiel's C++ solver")
    figure.legend(loc="outside lower center", ncols=1, fontsize="small")
    figure.savefig(out, metadata={"Date": None})
    return figure


def main() -> None:
    """Solve, measure the agents, print the figures and draw the picture."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=500, help="CFR's iterations")
    parser.add_argument("--out", default="cfr-small-nashconv.svg", help="the picture")
    parser.add_argument("--variant", default="scopa-mini", help="the preset: a small one")
    parser.add_argument("--target", type=float, default=TARGET, help="the NashConv drawn")
    parser.add_argument(
        "--sorted-deal", action="store_true", help="deal each group in increasing order"
    )
    args = parser.parse_args()
    variant = find_variant(args.variant).name
    start = time.perf_counter()
    game, tree = load_games(variant, args.sorted_deal)
    count = scopa.adapters.openspiel.count_information_states(game)
    print(
        f"{variant}: {count.information_states} information states where a player acts, "
        f"{count.hidden} of them with more than one position (at most "
        f"{count.most_positions}); {count.states} states ({time.perf_counter() - start:.0f} s)"
    )
    solver, curve = solve(tree, args.iterations)
    nash_conv, responses, value = measure(tree, solver.average_policy())
    print(
        f"CFR average policy: NashConv {nash_conv:.4f}, seat 0's value {value:+.4f}; a best "
        f"response earns {responses[0]:+.4f} in seat 0, {responses[1]:+.4f} in seat 1"
    )
    states = decision_states(game)
    print(f"{len(states)} information states where a player acts")
    measured = []
    for label, agent in AGENTS:
        start = time.perf_counter()
        nash_conv, responses, value = measure(tree, agent_policy(agent, states))
        seconds = time.perf_counter() - start
        print(
            f"{label}: NashConv {nash_conv:.3f}; a best response earns {responses[0]:+.3f} "
            f"in seat 0, {responses[1]:+.3f} in seat 1; self-play seat 0 {value:+.3f} "
            f"({seconds:.0f} s)"
        )
        measured.append((label, nash_conv))
    draw(curve, measured, args.out, variant, args.target)


if __name__ == "__main__":
    main()
