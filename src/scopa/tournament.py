"""Tournaments between agents: paired deals, confidence intervals, parallel play.

Games run here or on any `concurrent.futures.Executor`. Each deal is played once per
seating (with two sides, twice, the agents swapping seats) so that the luck of the cards
cancels out. Every game is seeded from the tournament's seed and its own number, so a
tournament gives the same result on any number of workers.

Examples:
    >>> from scopa import find_variant
    >>> from scopa.agents import GreedyAgent, RandomAgent
    >>> result = tournament(find_variant("classic"), [GreedyAgent(), RandomAgent()], deals=20)
    >>> result.agents[0].hands
    40
    >>> result.agents[0].margin_per_hand > 0
    True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, as_completed
from typing import Any

import attrs

from scopa._shuffle import MASK_64
from scopa.agents import Agent, AgentFunction, FunctionAgent, as_agent, play_hand
from scopa.errors import InvalidArgumentError
from scopa.match import Match
from scopa.rules import Rules
from scopa.state import GameState

__all__ = ["AgentStats", "TournamentResult", "tournament"]

_Z95 = statistics.NormalDist().inv_cdf(0.975)  # the z-value of a 95% interval


@attrs.frozen
class AgentStats:
    """How one agent did in a tournament. Intervals are 95% confidence intervals."""

    name: str
    """The agent's name in the tournament."""
    hands: int
    """Hands played."""
    points_per_hand: float
    """Mean points of the agent's side per hand."""
    margin_per_hand: float
    """Mean of the side's points minus the best other side's, per hand."""
    margin_interval: tuple[float, float]
    """The interval of `margin_per_hand` (normal approximation)."""
    hand_win_rate: float
    """The share of hands in which the side scored strictly more than every other side."""
    hand_win_interval: tuple[float, float]
    """The interval of `hand_win_rate` (Wilson score interval)."""
    scope_per_hand: float
    """Mean scope of the agent's side per hand."""
    matches: int
    """Matches played."""
    match_win_rate: float | None
    """The share of matches won, if any were played."""
    match_win_interval: tuple[float, float] | None
    """The interval of `match_win_rate` (Wilson score interval)."""


@attrs.frozen
class TournamentResult:
    """The outcome of a tournament: its settings and each agent's statistics."""

    rules: Rules
    """The rules played."""
    deals: int
    """Paired deals played (each once per seating)."""
    matches: int
    """Paired matches played (each once per seating)."""
    seed: int
    """The tournament's seed."""
    agents: tuple[AgentStats, ...]
    """The statistics of each agent, in the order the agents were given."""

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data (for JSON)."""
        return {
            "rules": self.rules.name,
            "deals": self.deals,
            "matches": self.matches,
            "seed": self.seed,
            "agents": [attrs.asdict(agent) for agent in self.agents],
        }

    def table(self) -> str:
        """The result as a readable text table."""
        header = (
            f"{self.rules.name}: {self.deals} paired deals, {self.matches} paired "
            f"matches, seed {self.seed}"
        )
        rows: list[list[str]] = [
            ["agent", "points/hand", "margin/hand (95% CI)", "hands won (95% CI)", "scope/hand"]
            + (["matches won (95% CI)"] if self.matches else [])
        ]
        for agent in self.agents:
            low, high = agent.margin_interval
            wlow, whigh = agent.hand_win_interval
            row = [
                agent.name,
                f"{agent.points_per_hand:.3f}",
                f"{agent.margin_per_hand:+.3f} ({low:+.3f}, {high:+.3f})",
                f"{agent.hand_win_rate:.1%} ({wlow:.1%}, {whigh:.1%})",
                f"{agent.scope_per_hand:.3f}",
            ]
            if self.matches and agent.match_win_interval is not None:
                mlow, mhigh = agent.match_win_interval
                row.append(f"{agent.match_win_rate or 0:.1%} ({mlow:.1%}, {mhigh:.1%})")
            rows.append(row)
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [header]
        for row in rows:
            lines.append(
                "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            )
        return "\n".join(line.rstrip() for line in lines)


def tournament(
    rules: Rules,
    agents: Sequence[Agent | AgentFunction],
    *,
    deals: int,
    matches: int = 0,
    seed: int = 0,
    names: Sequence[str] | None = None,
    executor: Executor | None = None,
    chunk_size: int = 20,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play `deals` paired deals (and `matches` paired matches) between the agents.

    There is one agent per side; in each seating agent `a` plays side `(a + r) % sides`
    for rotation `r`, and every deal is played in all `sides` rotations.

    Args:
        rules: the rules to play.
        agents: one agent per side: an object with a `choose(game, rng)` method, or a
            plain function `(game, rng) -> Move`; they must be picklable to run on an
            executor.
        deals: paired deals for the per-hand statistics.
        matches: paired matches for the match win rates.
        seed: the tournament's seed.
        names: the agents' names (by default their class names).
        executor: runs the chunks of games, e.g. a `ProcessPoolExecutor` or a Dask
            client's `get_executor()`; by default they run here, one after another.
        chunk_size: games per task given to the executor.
        progress: called with (deals done, deals in all) as chunks finish.

    Raises:
        ValueError: the number of agents is not the number of sides, or a count is
            negative.
        TypeError: an agent is neither an agent nor a function.
    """
    sides = rules.number_of_sides
    if len(agents) != sides:
        raise InvalidArgumentError(
            f"{rules.name} has {sides} sides: give {sides} agents, not {len(agents)}"
        )
    players = tuple(as_agent(agent) for agent in agents)
    if deals < 0 or matches < 0 or chunk_size < 1:
        raise InvalidArgumentError(
            "deals and matches must not be negative, chunk_size must be positive"
        )
    labels = list(names) if names is not None else [_name_of(agent) for agent in players]
    tasks = [
        (kind, start, min(start + chunk_size, count))
        for kind, count in (("hand", deals), ("match", matches))
        for start in range(0, count, chunk_size)
    ]
    arguments = [(rules, players, seed, kind, start, stop) for kind, start, stop in tasks]
    total = deals + matches
    done = 0
    if executor is None:
        chunks = []
        for args in arguments:
            chunks.append(_play_chunk(*args))
            done += args[5] - args[4]
            if progress is not None:
                progress(done, total)
    else:
        futures = [executor.submit(_play_chunk, *args) for args in arguments]
        sizes = {future: args[5] - args[4] for future, args in zip(futures, arguments, strict=True)}
        for future in as_completed(futures):
            done += sizes[future]
            if progress is not None:
                progress(done, total)
        chunks = [future.result() for future in futures]
    hands: list[list[tuple[int, int, int]]] = [[] for _ in agents]
    match_wins: list[list[bool]] = [[] for _ in agents]
    for (kind, _, _), chunk in zip(tasks, chunks, strict=True):
        for record in chunk:
            for agent, value in enumerate(record):
                if kind == "hand":
                    hands[agent].append(value)
                else:
                    match_wins[agent].append(bool(value[0]))
    stats = tuple(_stats(labels[a], hands[a], match_wins[a]) for a in range(len(agents)))
    return TournamentResult(rules, deals, matches, seed, stats)


def _name_of(agent: Agent) -> str:
    """An agent's default name: its class's, or its function's for a `FunctionAgent`."""
    if isinstance(agent, FunctionAgent):
        return getattr(agent.function, "__name__", "function")
    return type(agent).__name__


def _game_seed(seed: int, kind: str, number: int) -> int:
    """A 64-bit seed for one deal, mixed from the tournament's seed and the deal's number."""
    z = (seed * 0x9E3779B97F4A7C15 + number * 0xBF58476D1CE4E5B9 + (kind == "match")) & MASK_64
    z = ((z ^ (z >> 31)) * 0x94D049BB133111EB) & MASK_64
    return z ^ (z >> 29)


def _play_chunk(
    rules: Rules, agents: tuple[Agent, ...], seed: int, kind: str, start: int, stop: int
) -> list[list[tuple[int, int, int]]]:
    """Play deals `start` to `stop` in every rotation; one record per game and agent.

    A hand's record per agent is (points, margin over the best other side, scope); a
    match's is (won, 0, 0).
    """
    sides = rules.number_of_sides
    records = []
    for number in range(start, stop):
        deal_seed = _game_seed(seed, kind, number)
        for rotation in range(sides):
            rng = random.Random(f"{seed}:{kind}:{number}:{rotation}")
            seat = {p: agents[(rules.side_of(p) - rotation) % sides] for p in range(rules.players)}
            agent_side = [(a + rotation) % sides for a in range(len(agents))]
            if kind == "hand":
                end = play_hand(GameState.new(rules, seed=deal_seed), seat, rng)
                points = end.hand_score().points
                scope = [0] * sides
                for player, made in enumerate(end.scope):
                    scope[rules.side_of(player)] += made
                records.append([_hand_record(points, side, scope[side]) for side in agent_side])
            else:
                match = Match.new(rules, seed=deal_seed)
                while not match.is_over:
                    mover = match.state.current_player
                    assert mover is not None
                    match = match.apply(seat[mover].choose(match.state, rng))
                records.append([(int(match.winner == side), 0, 0) for side in agent_side])
    return records


def _hand_record(points: tuple[int, ...], side: int, scope: int) -> tuple[int, int, int]:
    best_other = max(p for s, p in enumerate(points) if s != side)
    return points[side], points[side] - best_other, scope


def _stats(name: str, hands: list[tuple[int, int, int]], wins: list[bool]) -> AgentStats:
    n = len(hands)
    margins = [margin for _, margin, _ in hands]
    mean_margin = sum(margins) / n if n else 0.0
    if n > 1:
        variance = sum((m - mean_margin) ** 2 for m in margins) / (n - 1)
        half = _Z95 * math.sqrt(variance / n)
    else:
        half = math.inf
    won = sum(1 for margin in margins if margin > 0)
    return AgentStats(
        name=name,
        hands=n,
        points_per_hand=sum(p for p, _, _ in hands) / n if n else 0.0,
        margin_per_hand=mean_margin,
        margin_interval=(mean_margin - half, mean_margin + half),
        hand_win_rate=won / n if n else 0.0,
        hand_win_interval=_wilson(won, n),
        scope_per_hand=sum(s for _, _, s in hands) / n if n else 0.0,
        matches=len(wins),
        match_win_rate=sum(wins) / len(wins) if wins else None,
        match_win_interval=_wilson(sum(wins), len(wins)) if wins else None,
    )


def _wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score interval of a proportion at 95%."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))
