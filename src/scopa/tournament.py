"""Tournaments between agents: paired deals, paired intervals, parallel play.

Games run here or on any `concurrent.futures.Executor`. Each deal is played once per
seating (with two sides, twice, the agents swapping seats) so that the luck of the cards
cancels out, and the intervals are computed over deals, each deal's seatings averaged
first. Every game is seeded from the tournament's seed and its own number, so a tournament
gives the same result on any number of workers. The games are handed to an executor a
window of chunks at a time, so that the work waiting is bounded whatever the number of
deals, and an interruption (Ctrl-C) cancels what has not started. A worker that dies
(ended by the system when memory runs out, say) raises a
[`WorkerError`][scopa.WorkerError] that keeps the deals that finished.

Agents are given only the view of their player. A run in which an agent reads the whole
state must ask for it (`omniscient=True`), and its result is marked omniscient.

Examples:
    >>> from scopa import find_variant
    >>> from scopa.agents import GreedyAgent, RandomAgent
    >>> result = tournament(find_variant("classic"), [GreedyAgent(), RandomAgent()], deals=20)
    >>> result.agents[0].hands, len(result.deal_results)
    (40, 20)
    >>> result.head_to_head[0].difference > 0
    True
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from typing import Any

import attrs

from scopa._checks import quote
from scopa._shuffle import MASK_64
from scopa.agents import (
    Agent,
    AgentFunction,
    FunctionAgent,
    OmniscientAgent,
    as_agent,
    play_hand,
    play_match,
)
from scopa.errors import InvalidArgumentError, WorkerError
from scopa.match import Match
from scopa.rules import Rules
from scopa.state import GameState

__all__ = [
    "MAX_DEALS",
    "AgentStats",
    "DealResult",
    "HeadToHead",
    "TournamentResult",
    "tournament",
]

MAX_DEALS = 10_000_000
"""The most paired deals, and the most paired matches, one tournament plays.

The result keeps every deal's figures (`deal_results`, about 2 KB a deal with two sides),
so a tournament of ten million deals needs some 20 GB; larger counts are refused before
anything is played. Split a longer run into tournaments with different seeds.
"""

_Z95 = statistics.NormalDist().inv_cdf(0.975)  # the z-value of a 95% interval
_IN_FLIGHT = 1024  # the most chunks given to an executor and not yet finished

_Entrant = Agent | OmniscientAgent
_Interval = tuple[float, float]
_Chunk = tuple[list["DealResult"], list[tuple[bool, ...]]]


@attrs.frozen
class DealResult:
    """One paired deal: where each agent sat in each seating, and what its side made.

    In seating `r`, agent `a` plays side `(a + r) % sides`. Player 0 deals every hand of a
    tournament, so side 0 holds the dealer and side 1 the player who leads. Each field
    but the first two holds one tuple per seating, of one number per agent.
    """

    number: int
    """The deal's number in the tournament, from 0."""
    seed: int
    """The deal's seed: `GameState.new(rules, seed=seed)` deals it again."""
    sides: tuple[tuple[int, ...], ...]
    """The side each agent played."""
    points: tuple[tuple[int, ...], ...]
    """The points of each agent's side."""
    margins: tuple[tuple[int, ...], ...]
    """The points of each agent's side minus the best other side's."""
    scope: tuple[tuple[int, ...], ...]
    """The scope of each agent's side."""


@attrs.frozen
class HeadToHead:
    """Two agents compared deal by deal: the first one's margin minus the second one's.

    For each deal, the difference is averaged over the deal's seatings; the figure is the
    mean of that over the deals, and its interval is the 95% confidence interval over the
    deals (normal approximation). With two sides it is twice the first agent's
    `margin_per_hand`: twice the points its side makes more than the other per hand. With
    more sides each margin is against the best other side, so the figure says which of
    the two does better against the whole table, paired on the same deals, rather than by
    how many points one outscores the other.
    """

    first: int
    """The first agent's position in `TournamentResult.agents`."""
    second: int
    """The second agent's position in `TournamentResult.agents`."""
    difference: float
    """The mean over the deals of the first agent's margin minus the second one's."""
    interval: tuple[float, float]
    """The 95% confidence interval of `difference`."""


@attrs.frozen
class AgentStats:
    """How one agent did in a tournament. Intervals are 95% confidence intervals."""

    name: str
    """The agent's name in the tournament."""
    omniscient: bool
    """Whether the agent read the whole state, hidden cards included."""
    hands: int
    """Hands played."""
    points_per_hand: float
    """Mean points of the agent's side per hand."""
    margin_per_hand: float
    """Mean of the side's points minus the best other side's, per hand."""
    margin_interval: tuple[float, float]
    """The interval of `margin_per_hand`, over the deals (normal approximation)."""
    margin_by_seat: tuple[float, ...]
    """`margin_per_hand` by the agent's side: when it deals (0), when it leads (1), …"""
    margin_by_seat_interval: tuple[tuple[float, float], ...]
    """The interval of each of `margin_by_seat` (normal approximation)."""
    hand_win_rate: float
    """The share of hands in which the side scored strictly more than every other side."""
    hand_win_interval: tuple[float, float]
    """The interval of `hand_win_rate` (Wilson score interval over the hands)."""
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
    """The outcome of a tournament: its settings, each agent's figures and every deal."""

    rules: Rules
    """The rules played."""
    deals: int
    """Paired deals played (each once per seating)."""
    matches: int
    """Paired matches played (each once per seating)."""
    seed: int
    """The tournament's seed."""
    omniscient: bool
    """Whether the run let agents read the whole state (`omniscient=True`)."""
    agents: tuple[AgentStats, ...]
    """The figures of each agent, in the order the agents were given."""
    head_to_head: tuple[HeadToHead, ...]
    """Every pair of agents compared deal by deal (one pair with two sides)."""
    deal_results: tuple[DealResult, ...]
    """What happened in each deal, in the order of their numbers."""

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data for JSON, keyed by the field names.

        The rules are given by name; an interval that cannot be computed (from fewer than
        two deals) has `None` for its infinite bounds.
        """
        return {
            field.name: _plain(getattr(self, field.name))
            for field in attrs.fields(TournamentResult)
        }

    def table(self) -> str:
        """The result as readable text tables: the agents, their margins by seat, the pairs."""
        played = [_count(self.deals, "paired deal")]
        if self.matches:
            played.append(_count(self.matches, "paired match"))
        lines = [
            f"{self.rules.name}: {', '.join(played)}, seed {self.seed}"
            + (", omniscient" if self.omniscient else "")
        ]
        if self.omniscient:
            lines.append("agents marked * read the whole state, hidden cards included")
        lines += _aligned(self._agent_rows())
        if self.deals:
            lines += ["", *_aligned(self._seat_rows()), "", *_aligned(self._pair_rows())]
        return "\n".join(line.rstrip() for line in lines)

    def _names(self) -> list[str]:
        return [agent.name + (" *" if agent.omniscient else "") for agent in self.agents]

    def _agent_rows(self) -> list[list[str]]:
        rows = [
            ["agent", "points/hand", "margin/hand (95% CI)", "hands won (95% CI)", "scope/hand"]
            + (["matches won (95% CI)"] if self.matches else [])
        ]
        for name, agent in zip(self._names(), self.agents, strict=True):
            row = [
                name,
                f"{agent.points_per_hand:.3f}",
                _signed(agent.margin_per_hand, agent.margin_interval),
                _share(agent.hand_win_rate, agent.hand_win_interval),
                f"{agent.scope_per_hand:.3f}",
            ]
            if agent.match_win_rate is not None and agent.match_win_interval is not None:
                row.append(_share(agent.match_win_rate, agent.match_win_interval))
            rows.append(row)
        return rows

    def _seat_rows(self) -> list[list[str]]:
        seats = ["dealing", "leading"] + [f"side {s}" for s in range(2, len(self.agents))]
        rows = [["margin/hand by seat"] + [f"{seat} (95% CI)" for seat in seats]]
        for name, agent in zip(self._names(), self.agents, strict=True):
            pairs = zip(agent.margin_by_seat, agent.margin_by_seat_interval, strict=True)
            rows.append([name] + [_signed(mean, interval) for mean, interval in pairs])
        return rows

    def _pair_rows(self) -> list[list[str]]:
        names = self._names()
        rows = [["head to head, paired by deal", "margin difference/hand (95% CI)"]]
        for pair in self.head_to_head:
            label = f"{names[pair.first]} - {names[pair.second]}"
            rows.append([label, _signed(pair.difference, pair.interval)])
        return rows


def tournament(
    rules: Rules,
    agents: Sequence[Agent | OmniscientAgent | AgentFunction],
    *,
    deals: int,
    matches: int = 0,
    seed: int = 0,
    names: Sequence[str] | None = None,
    omniscient: bool = False,
    executor: Executor | None = None,
    chunk_size: int = 20,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play `deals` paired deals (and `matches` paired matches) between the agents.

    There is one agent per side; in each seating agent `a` plays side `(a + r) % sides`
    for rotation `r`, and every deal is played in all `sides` rotations. Each agent is
    given only the view of the player to move.

    The chunks of games are made as they are given out, and an executor is given at most
    1,024 chunks that have not finished, so memory does not grow with the work waiting. When
    the call is interrupted (Ctrl-C) or a chunk fails, the chunks not started are cancelled.

    Args:
        rules: the rules to play.
        agents: one agent per side: an object with a `choose(seen, rng)` method, or a
            plain function `(seen, rng) -> Move`; they must be picklable to run on an
            executor.
        deals: paired deals for the per-hand figures, at most
            [`MAX_DEALS`][scopa.tournament.MAX_DEALS].
        matches: paired matches for the match win rates, at most `MAX_DEALS`.
        seed: the tournament's seed.
        names: the agents' names (by default their class names).
        omniscient: let an [`OmniscientAgent`][scopa.agents.OmniscientAgent] read the
            whole state; the result is then marked omniscient.
        executor: runs the chunks of games, e.g. a `ProcessPoolExecutor` or a Dask
            client's `get_executor()`; by default they run here, one after another.
        chunk_size: games per task given to the executor.
        progress: called with (deals done, deals in all) as chunks finish.

    Raises:
        InvalidArgumentError: the number of agents (or names) is not the number of sides,
            a count is negative or over `MAX_DEALS`, or an agent is omniscient in a run
            that is not.
        TypeError: an agent is neither an agent nor a function.
        WorkerError: the executor broke (a `BrokenExecutor`: a process pool's worker
            died, ended by the system or out of memory). The games it held are lost; the
            error's `result` is the tournament of the deals and matches that finished,
            each `DealResult` with its own number.
    """
    sides = rules.number_of_sides
    if len(agents) != sides:
        raise InvalidArgumentError(
            f"{rules.name} has {sides} sides: give {sides} agents, not {len(agents)}"
        )
    entrants = tuple(_entrant(agent, index, omniscient) for index, agent in enumerate(agents))
    if deals < 0 or matches < 0 or chunk_size < 1:
        raise InvalidArgumentError(
            "deals and matches must not be negative, chunk_size must be positive"
        )
    if deals > MAX_DEALS or matches > MAX_DEALS:
        raise InvalidArgumentError(
            f"a tournament plays at most {MAX_DEALS:,} paired deals and as many matches, "
            f"not {quote(max(deals, matches))}: its result keeps every deal; split the run "
            "into tournaments with different seeds"
        )
    labels = list(names) if names is not None else [_name_of(agent) for agent in entrants]
    if len(labels) != sides:
        raise InvalidArgumentError(f"give {sides} names, one per agent, not {len(labels)}")
    tasks = (
        (rules, entrants, seed, omniscient, kind, start, min(start + chunk_size, count))
        for kind, count in (("hand", deals), ("match", matches))
        for start in range(0, count, chunk_size)
    )
    chunks, broken = _run(tasks, executor, progress, deals + matches)
    result = _result(rules, seed, omniscient, entrants, labels, chunks)
    if broken is not None:
        raise WorkerError(_lost_words(result, deals, matches), result) from broken
    return result


def _result(
    rules: Rules,
    seed: int,
    omniscient: bool,
    entrants: tuple[_Entrant, ...],
    labels: list[str],
    chunks: list[_Chunk],
) -> TournamentResult:
    """The result of the chunks played, in the order of their deals and matches."""
    sides = rules.number_of_sides
    deal_results = tuple(itertools.chain.from_iterable(chunk[0] for chunk in chunks))
    match_wins = list(itertools.chain.from_iterable(chunk[1] for chunk in chunks))
    stats = tuple(
        _agent_stats(a, labels[a], agent, sides, deal_results, match_wins)
        for a, agent in enumerate(entrants)
    )
    pairs = tuple(
        _head_to_head(a, b, deal_results) for a, b in itertools.combinations(range(sides), 2)
    )
    matches = len(match_wins) // sides  # a paired match gives one entry per seating
    return TournamentResult(
        rules, len(deal_results), matches, seed, omniscient, stats, pairs, deal_results
    )


def _lost_words(kept: TournamentResult, deals: int, matches: int) -> str:
    """The message of a tournament whose worker died, with what finished."""
    done = f"{kept.deals:,} of {deals:,} paired deals"
    if matches:
        done += f" and {kept.matches:,} of {matches:,} paired matches"
    return (
        "a worker process died before its games were played (ended by the system, as when "
        f"memory runs out): {done} finished, and the error's result holds them"
    )


def _entrant(
    agent: Agent | OmniscientAgent | AgentFunction, index: int, omniscient: bool
) -> _Entrant:
    """An agent as it plays: an omniscient one only in an omniscient run."""
    if isinstance(agent, OmniscientAgent):
        if not omniscient:
            raise InvalidArgumentError(
                f"agent {index}, a {type(agent).__name__}, reads the whole state: it plays "
                "only with omniscient=True, and the result is then marked omniscient"
            )
        return agent
    return as_agent(agent)


def _name_of(agent: _Entrant) -> str:
    """An agent's default name: its class's, or its function's for a `FunctionAgent`."""
    if isinstance(agent, FunctionAgent):
        return getattr(agent.function, "__name__", "function")
    return type(agent).__name__


_Task = tuple[Rules, tuple[_Entrant, ...], int, bool, str, int, int]


def _run(
    tasks: Iterator[_Task],
    executor: Executor | None,
    progress: Callable[[int, int], None] | None,
    total: int,
) -> tuple[list[_Chunk], BrokenExecutor | None]:
    """Play the chunks, here or on `executor`, reporting progress as they finish.

    Returns the chunks that finished, in order, and the error of a broken executor (one
    whose worker died), if it broke. An executor holds at most `_IN_FLIGHT` chunks at a
    time, given a new one as each finishes; on any other exception (KeyboardInterrupt
    included) those not started are cancelled. A broken executor fails them itself.
    """
    done = 0
    chunks: list[_Chunk] = []
    if executor is None:
        for task in tasks:
            chunks.append(_play_chunk(*task))
            done += task[6] - task[5]
            if progress is not None:
                progress(done, total)
        return chunks, None
    finished: dict[int, _Chunk] = {}
    pending: dict[Future[_Chunk], tuple[int, int]] = {}  # a chunk's place and its games
    try:
        for number, chunk in enumerate(itertools.chain(tasks, [None])):
            if chunk is not None:
                pending[executor.submit(_play_chunk, *chunk)] = (number, chunk[6] - chunk[5])
            while pending and (chunk is None or len(pending) >= _IN_FLIGHT):
                ready, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    place, games = pending.pop(future)
                    finished[place] = future.result()
                    done += games
                    if progress is not None:
                        progress(done, total)
    except BrokenExecutor as error:
        for future, (place, _) in pending.items():  # finished, but not yet collected
            if future.done() and not future.cancelled() and future.exception() is None:
                finished[place] = future.result()
        return [finished[place] for place in sorted(finished)], error
    except BaseException:
        for future in pending:
            future.cancel()
        raise
    return [finished[place] for place in range(len(finished))], None


def _game_seed(seed: int, kind: str, number: int) -> int:
    """A 64-bit seed for one deal, mixed from the tournament's seed and the deal's number."""
    z = (seed * 0x9E3779B97F4A7C15 + number * 0xBF58476D1CE4E5B9 + (kind == "match")) & MASK_64
    z = ((z ^ (z >> 31)) * 0x94D049BB133111EB) & MASK_64
    return z ^ (z >> 29)


def _play_chunk(
    rules: Rules,
    agents: tuple[_Entrant, ...],
    seed: int,
    omniscient: bool,
    kind: str,
    start: int,
    stop: int,
) -> _Chunk:
    """Play deals (or matches) `start` to `stop` in every seating.

    Returns the deals' results, and for each match played, whether each agent won it.
    """
    deals: list[DealResult] = []
    wins: list[tuple[bool, ...]] = []
    for number in range(start, stop):
        if kind == "hand":
            deals.append(_play_deal(rules, agents, seed, omniscient, number))
        else:
            wins += _play_matches(rules, agents, seed, omniscient, number)
    return deals, wins


def _seated(rules: Rules, agents: tuple[_Entrant, ...], rotation: int) -> dict[int, _Entrant]:
    """Each player's agent in seating `rotation`: agent `a` plays side `(a + rotation) % sides`."""
    sides = rules.number_of_sides
    return {p: agents[(rules.side_of(p) - rotation) % sides] for p in range(rules.players)}


def _play_deal(
    rules: Rules, agents: tuple[_Entrant, ...], seed: int, omniscient: bool, number: int
) -> DealResult:
    """Play deal `number` once in every seating."""
    deal_seed = _game_seed(seed, "hand", number)
    sides = rules.number_of_sides
    seatings = [tuple((a + r) % sides for a in range(len(agents))) for r in range(sides)]
    points: list[tuple[int, ...]] = []
    margins: list[tuple[int, ...]] = []
    scope: list[tuple[int, ...]] = []
    for rotation, agent_sides in enumerate(seatings):
        rng = random.Random(f"{seed}:hand:{number}:{rotation}")
        start = GameState.new(rules, seed=deal_seed)
        end = play_hand(start, _seated(rules, agents, rotation), rng, omniscient=omniscient)
        side_points = end.hand_score().points
        side_scope = [0] * sides
        for player, made in enumerate(end.scope):
            side_scope[rules.side_of(player)] += made
        points.append(tuple(side_points[side] for side in agent_sides))
        margins.append(
            tuple(side_points[side] - _best_other(side_points, side) for side in agent_sides)
        )
        scope.append(tuple(side_scope[side] for side in agent_sides))
    return DealResult(
        number, deal_seed, tuple(seatings), tuple(points), tuple(margins), tuple(scope)
    )


def _best_other(points: tuple[int, ...], side: int) -> int:
    """The most points made by a side other than `side`."""
    return max(p for s, p in enumerate(points) if s != side)


def _play_matches(
    rules: Rules, agents: tuple[_Entrant, ...], seed: int, omniscient: bool, number: int
) -> list[tuple[bool, ...]]:
    """Play match `number` once in every seating; whether each agent won each one."""
    match_seed = _game_seed(seed, "match", number)
    sides = rules.number_of_sides
    wins = []
    for rotation in range(sides):
        rng = random.Random(f"{seed}:match:{number}:{rotation}")
        start = Match.new(rules, seed=match_seed)
        end = play_match(start, _seated(rules, agents, rotation), rng, omniscient=omniscient)
        wins.append(tuple(end.winner == (a + rotation) % sides for a in range(len(agents))))
    return wins


def _agent_stats(
    a: int,
    name: str,
    agent: _Entrant,
    sides: int,
    deals: Sequence[DealResult],
    match_wins: Sequence[tuple[bool, ...]],
) -> AgentStats:
    """Agent `a`'s figures, from every deal's results and every match's winners."""
    hands = [
        (deal.sides[r][a], deal.points[r][a], deal.margins[r][a], deal.scope[r][a])
        for deal in deals
        for r in range(len(deal.sides))
    ]
    margin, margin_interval = _mean_and_interval(
        [statistics.fmean(seating[a] for seating in deal.margins) for deal in deals]
    )
    by_seat = [
        _mean_and_interval([margin for side, _, margin, _ in hands if side == seat])
        for seat in range(sides)
    ]
    won = sum(1 for _, _, margin, _ in hands if margin > 0)
    wins = [match[a] for match in match_wins]
    return AgentStats(
        name=name,
        omniscient=isinstance(agent, OmniscientAgent),
        hands=len(hands),
        points_per_hand=_mean([points for _, points, _, _ in hands]),
        margin_per_hand=margin,
        margin_interval=margin_interval,
        margin_by_seat=tuple(mean for mean, _ in by_seat),
        margin_by_seat_interval=tuple(interval for _, interval in by_seat),
        hand_win_rate=won / len(hands) if hands else 0.0,
        hand_win_interval=_wilson(won, len(hands)),
        scope_per_hand=_mean([scope for _, _, _, scope in hands]),
        matches=len(wins),
        match_win_rate=sum(wins) / len(wins) if wins else None,
        match_win_interval=_wilson(sum(wins), len(wins)) if wins else None,
    )


def _head_to_head(a: int, b: int, deals: Sequence[DealResult]) -> HeadToHead:
    """Agent `a`'s margin minus agent `b`'s, averaged over each deal's seatings."""
    difference, interval = _mean_and_interval(
        [statistics.fmean(seating[a] - seating[b] for seating in deal.margins) for deal in deals]
    )
    return HeadToHead(a, b, difference, interval)


def _mean(values: Sequence[float]) -> float:
    """The mean of `values`, 0 if there are none."""
    return statistics.fmean(values) if values else 0.0


def _mean_and_interval(values: Sequence[float]) -> tuple[float, _Interval]:
    """The mean of independent `values` and its 95% interval (infinite below two values)."""
    mean = _mean(values)
    if len(values) < 2:
        return mean, (-math.inf, math.inf)
    half = _Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - half, mean + half)


def _wilson(successes: int, trials: int) -> _Interval:
    """The Wilson score interval of a proportion at 95%."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _plain(value: Any) -> Any:
    """`value` as JSON data: rules by name, attrs values as dicts, tuples as lists.

    JSON has no infinity: an infinite bound of an interval becomes `None`.
    """
    if isinstance(value, Rules):
        return value.name
    if attrs.has(type(value)):
        return {
            field.name: _plain(getattr(value, field.name)) for field in attrs.fields(type(value))
        }
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, float) and math.isinf(value):
        return None
    return value


def _count(number: int, noun: str) -> str:
    """`number` and `noun`, plural unless it is one: "1 paired deal", "4 paired matches"."""
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{number:,} {noun if number == 1 else plural}"


def _signed(mean: float, interval: _Interval) -> str:
    """A mean and its interval, signed, to three decimals."""
    low, high = interval
    return f"{mean:+.3f} ({low:+.3f}, {high:+.3f})"


def _share(rate: float, interval: _Interval) -> str:
    """A share and its interval, as percentages."""
    low, high = interval
    return f"{rate:.1%} ({low:.1%}, {high:.1%})"


def _aligned(rows: list[list[str]]) -> list[str]:
    """The rows as lines, each column padded to its widest cell."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
