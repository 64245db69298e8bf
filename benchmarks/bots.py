"""Bot benchmark: agent strength in paired deals, view and resample speed, tournament scaling.

    python benchmarks/bots.py speed                 # µs per view and resample, search rates
    python benchmarks/bots.py scaling [--deals N]   # tournament time on 1 and 2 workers
    python benchmarks/bots.py greedy [--deals N]    # greedy against random
    python benchmarks/bots.py search [--deals N] [--ms 100 | --iterations K] [--workers W]
    python benchmarks/bots.py strength [--deals N] [--ms 25] [--cheap-ms 5] [--workers W]
    python benchmarks/bots.py bounds [--deals N] [--ms 25] [--workers W]   # pure Python only
    python benchmarks/bots.py headroom [--deals N] [--ms 200] [--workers W]
    python benchmarks/bots.py fit [--hands N] [--workers W]
    python benchmarks/bots.py policy [--deals N] [--ms 5,25] [--workers W]
    python benchmarks/bots.py table [--deals N,N,N] [--ms 5,25,100] [--workers W]
    python benchmarks/bots.py match [--deals N] [--ms 5] [--workers W]

Strength figures are the margin per hand (points of the agent's side minus the other's)
with a 95% confidence interval, over paired deals of classic 2-player Scopa. `strength`
pits ISMCTS, on a budget of `--ms` and of `--cheap-ms` CPU time per move
(`time.process_time`), against `AlphaBetaAgent(iterations=64, depth=5)` (determinized
alpha-beta, 64 deals searched 5 plays deep: the reference of open-source Scopa search), and
on 25 ms against the greedy agent, and measures the CPU time each takes per move over all
moves. It prints the build (`scopa.COMPILED`), since the figures depend on it. `headroom`
plays ISMCTS on `--ms` (200) and `AlphaBetaAgent(iterations=512, depth=6)`, each on ten or
more times the reference's CPU, against the reference, and that ISMCTS against greedy: what
more time buys. `bounds` plays ISMCTS against greedy and against `AlphaBetaAgent(64, 5)`
four ways, on the same budget: fair; knowing the other hand once its player has played from
it (a new hand is dealt at random and only the plays from it speak of it, so this bounds
what any inference from play can learn); knowing the other hands (the stock's order still
drawn at random); and knowing the whole deal. The last three are omniscient runs: they
bound what inference, and information, can add to the fair margin. They need the
pure-Python build, where `PlayerView` can be subclassed. `fit` fits the spreads of
`scopa.search.expected_points` to the outcomes of self-played hands. `policy` plays the
shipped `scopa.policy.PolicyAgent` against every other built-in agent, the search agents on
each budget of `--ms` CPU time per move, and prints the CPU time each agent takes per move.
`table` plays every built-in agent against every other, the search agents on each budget of
`--ms` (with as many paired deals as the matching entry of `--deals`), and prints one
Markdown table per budget, with each agent's CPU time per move. `match` plays ISMCTS
choosing by the chance of winning the match (`match_aware=True`) against the same search
playing each hand for its margin, in `--deals` paired matches of classic and of tretre, and
prints the share of matches each won.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from playout import BUILD, mid_hand_states  # the benchmark beside this one

import scopa
from scopa._search_core import _DENARI, _Category, _Most, _Primiera  # the evaluation's parts
from scopa.agents import Agent, FlatMonteCarloAgent, GreedyAgent, RandomAgent
from scopa.masks import ALL_CARDS
from scopa.search import AlphaBetaAgent, ISMCTSAgent
from scopa.state import _VIEW_PARTS
from scopa.tournament import TournamentResult, tournament

UNLIMITED = 10**9  # iterations: the time budget ends the search


def speed() -> None:
    print(f"scopa {scopa.__version__} ({BUILD})")
    rules = scopa.find_variant("classic")
    states = mid_hand_states(rules, 20_000)
    rng = random.Random(2)
    view_us, resample_us = [], []
    views = [scopa.view(state, 0) for state in states]
    view = scopa.view
    for _ in range(5):
        start = time.perf_counter()
        for state in states:
            view(state, 0)
        view_us.append((time.perf_counter() - start) / len(states) * 1e6)
        start = time.perf_counter()
        for seen in views:
            seen.resample(rng)
        resample_us.append((time.perf_counter() - start) / len(states) * 1e6)
    print(f"view(state, player)      {statistics.median(view_us):8.2f} µs")
    print(f"PlayerView.resample(rng) {statistics.median(resample_us):8.2f} µs")
    # the searches at a fixed number of iterations, on positions with a choice to make
    chosen = [seen for seen in views[::50] if len(seen.legal_moves()) > 1][:100]
    searches: list[tuple[str, Agent, int]] = [
        ("ISMCTSAgent(iterations=500)", ISMCTSAgent(iterations=500), 500),
        ("AlphaBetaAgent(iterations=64, depth=5)", AlphaBetaAgent(iterations=64, depth=5), 64),
    ]
    for name, agent, iterations in searches:
        start = time.process_time()
        for seen in chosen:
            agent.choose(seen, rng)
        rate = iterations * len(chosen) / (time.process_time() - start)
        print(f"{name}: {rate:,.0f} iterations per CPU second ({len(chosen)} positions)")


def scaling(deals: int) -> None:
    rules = scopa.find_variant("classic")
    agents: list[Agent] = [GreedyAgent(), RandomAgent()]
    times = {}
    for workers in (1, 2):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            tournament(rules, agents, deals=workers * 4, executor=pool, chunk_size=2)  # warm up
            start = time.perf_counter()
            tournament(rules, agents, deals=deals, executor=pool, chunk_size=25)
            times[workers] = time.perf_counter() - start
    print(f"tournament of {deals} paired deals: 1 worker {times[1]:.2f} s, 2: {times[2]:.2f} s")
    print(f"speed-up on 2 workers: {times[1] / times[2]:.2f}")


def duel(first: Agent, second: Agent, names: list[str], deals: int, workers: int) -> None:
    rules = scopa.find_variant("classic")
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            result = tournament(
                rules, [first, second], deals=deals, names=names, executor=pool, chunk_size=5
            )
    else:
        result = tournament(rules, [first, second], deals=deals, names=names)
    print(result.table())
    print(f"({time.perf_counter() - start:.0f} s)")


# ----------------------------------------------------------------------------- strength


def timed(kind: Callable[..., Agent], ms: float, **settings: float) -> Agent:
    """An agent on a budget of `ms` milliseconds of CPU time per move."""
    return kind(iterations=UNLIMITED, seconds=ms / 1000, clock=time.process_time, **settings)


def cpu_per_move(agent: Agent, deals: int) -> tuple[float, float]:
    """The mean CPU time the agent takes per move, in ms, over all its moves and over those
    with a choice, in `deals` hands against the greedy agent (here, in this process)."""
    rules = scopa.find_variant("classic")
    rng = random.Random(1)
    every, chosen = [], []
    for number in range(deals):
        state = scopa.GameState.new(rules, seed=10_000 + number)
        seat = number % 2
        while not state.is_terminal:
            if state.current_player == seat:
                start = time.process_time()
                move = agent.choose(scopa.view(state), rng)
                spent = (time.process_time() - start) * 1000
                every.append(spent)
                if len(state.legal_moves()) > 1:
                    chosen.append(spent)
            else:
                move = GreedyAgent().choose(scopa.view(state), rng)
            state = state.apply(move)
    return statistics.mean(every), statistics.mean(chosen)


def strength(deals: int, ms: float, cheap_ms: float, workers: int) -> None:
    best = timed(ISMCTSAgent, ms, exploration=1.0)
    cheap = timed(ISMCTSAgent, cheap_ms, exploration=1.0)
    at_25 = timed(ISMCTSAgent, 25, exploration=1.0)
    rival = AlphaBetaAgent(iterations=64, depth=5)
    greedy = GreedyAgent()
    names = {
        id(best): f"ISMCTS {ms:g} ms",
        id(cheap): f"ISMCTS {cheap_ms:g} ms",
        id(at_25): "ISMCTS 25 ms",
        id(rival): "alpha-beta 64x5",
        id(greedy): "greedy",
    }
    print(
        f"scopa {scopa.__version__} ({BUILD}), classic, {deals} paired deals a match, "
        "CPU time per move by time.process_time"
    )
    print()
    print("CPU time per move, measured over 10 hands against greedy (ms):")
    for agent in (best, cheap, at_25, rival):
        every, chosen = cpu_per_move(agent, 10)
        print(
            f"  {names[id(agent)]:16s} {every:6.1f} per move, {chosen:6.1f} per move with a choice"
        )
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for first, second in ((best, rival), (cheap, rival), (at_25, greedy)):
            result, line = head_to_head(
                pool, [first, second], [names[id(first)], names[id(second)]], deals
            )
            print()
            print(result.table())
            print(line)


def headroom(deals: int, ms: float, workers: int) -> None:
    """The searches on many times the reference's CPU, against it and against greedy."""
    rival = AlphaBetaAgent(iterations=64, depth=5)
    long_ismcts = timed(ISMCTSAgent, ms, exploration=1.0)
    deep = AlphaBetaAgent(iterations=512, depth=6)
    names = {
        id(long_ismcts): f"ISMCTS {ms:g} ms",
        id(deep): "alpha-beta 512x6",
        id(rival): "alpha-beta 64x5",
    }
    print(f"scopa {scopa.__version__} ({BUILD}), classic, {deals} paired deals a match")
    print("CPU time per move, measured over 6 hands against greedy (ms):")
    for agent in (long_ismcts, deep, rival):
        every, chosen = cpu_per_move(agent, 6)
        print(f"  {names[id(agent)]:17s} {every:6.1f} per move, {chosen:6.1f} with a choice")
    pairs = ((long_ismcts, rival), (deep, rival), (long_ismcts, GreedyAgent()))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for first, second in pairs:
            pair = [names[id(first)], names.get(id(second), "greedy")]
            print(head_to_head(pool, [first, second], pair, deals)[1], flush=True)


def head_to_head(
    pool: ProcessPoolExecutor,
    agents: list[Any],
    names: list[str],
    deals: int,
    omniscient: bool = False,
    variant: str = "classic",
) -> tuple[TournamentResult, str]:
    """Two agents on paired deals of a preset (classic): the result, and a line with the
    first's margin per hand, its 95% interval and the time taken."""
    start = time.perf_counter()
    result = tournament(
        scopa.find_variant(variant),
        agents,
        deals=deals,
        seed=1,
        names=names,
        omniscient=omniscient,
        executor=pool,
        chunk_size=5,
    )
    low, high = result.agents[0].margin_interval
    line = (
        f"{names[0]} against {names[1]}: {result.agents[0].margin_per_hand:+.3f} points per "
        f"hand (95% CI {low:+.3f} to {high:+.3f}; {time.perf_counter() - start:.0f} s)"
    )
    return result, line


def fixed_agents() -> list[tuple[str, Agent]]:
    """The agents that take no budget: random, greedy and, with numpy, the trained policy."""
    agents: list[tuple[str, Agent]] = [("random", RandomAgent()), ("greedy", GreedyAgent())]
    try:
        from scopa.policy import PolicyAgent  # numpy, the extra "policy"
    except ImportError:
        return agents
    return [*agents, ("policy", PolicyAgent())]


def search_agents(ms: float) -> list[tuple[str, Agent]]:
    """The search agents on a budget of `ms` milliseconds of CPU time per move."""
    return [
        (f"flat MC {ms:g} ms", timed(FlatMonteCarloAgent, ms)),
        (f"alpha-beta {ms:g} ms", timed(AlphaBetaAgent, ms)),
        (f"ISMCTS {ms:g} ms", timed(ISMCTSAgent, ms, exploration=1.0)),
    ]


def policy(deals: int, budgets: list[float], workers: int) -> None:
    from scopa.policy import PolicyAgent  # numpy, the extra "policy"

    agent = PolicyAgent()
    opponents: list[tuple[str, Agent]] = [("random", RandomAgent()), ("greedy", GreedyAgent())]
    for ms in budgets:
        opponents += search_agents(ms)
    print(
        f"scopa {scopa.__version__} ({BUILD}), classic, {deals} paired deals a match, "
        "CPU time per move by time.process_time over all moves"
    )
    every, chosen = cpu_per_move(agent, 20)
    print(f"policy: {every:.2f} ms per move, {chosen:.2f} ms per move with a choice")
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name, opponent in opponents:
            every, _ = cpu_per_move(opponent, 4)
            _, line = head_to_head(pool, [agent, opponent], ["policy", name], deals)
            print(f"{line} [{name}: {every:.1f} ms per move]", flush=True)
        for name, opponent in opponents[:2]:  # the same network plays tretre
            names = ["policy", name]
            _, line = head_to_head(pool, [agent, opponent], names, deals, variant="tretre")
            print(f"tretre: {line}", flush=True)


# ----------------------------------------------------------------------------- table


def table(deals: list[int], budgets: list[float], workers: int) -> None:
    fixed = fixed_agents()
    print(
        f"scopa {scopa.__version__} ({BUILD}), classic; each cell: the row's margin per hand "
        "against the column, 95% CI; CPU time per move by time.process_time over all moves"
    )
    played: dict[tuple[str, str], str] = {}
    cpu = {name: cpu_per_move(agent, 4)[0] for name, agent in fixed}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for ms, count in zip(budgets, deals, strict=True):
            searches = search_agents(ms)
            cpu.update((name, cpu_per_move(agent, 4)[0]) for name, agent in searches)
            agents = fixed + searches
            for (a, first), (b, second) in itertools.combinations(agents, 2):
                if (a, b) in played:
                    continue
                result, _ = head_to_head(pool, [first, second], [a, b], count)
                margin = result.agents[0].margin_per_hand
                low, high = result.agents[0].margin_interval
                played[a, b] = f"{margin:+.2f} ({low:+.2f}, {high:+.2f})"
                played[b, a] = f"{0.0 - margin:+.2f} ({0.0 - high:+.2f}, {0.0 - low:+.2f})"
            names = [name for name, _ in agents]
            print()
            print(f"Budget {ms:g} ms ({count} paired deals for each pair with a search agent):")
            print()
            print("| | " + " | ".join(names) + " | CPU per move |")
            print("|---" * (len(names) + 2) + "|")
            for row in names:
                cells = [played.get((row, column), "") for column in names]
                print(f"| {row} | " + " | ".join(cells) + f" | {cpu[row]:.2f} ms |", flush=True)


# ----------------------------------------------------------------------------- match


def match_play(matches: int, ms: float, workers: int) -> None:
    aware = timed(ISMCTSAgent, ms, exploration=1.0, match_aware=True)
    plain = timed(ISMCTSAgent, ms, exploration=1.0)
    names = [f"ISMCTS {ms:g} ms, match-aware", f"ISMCTS {ms:g} ms"]
    print(f"scopa {scopa.__version__} ({BUILD}), {matches} paired matches, {ms:g} ms a move")
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for variant in ("classic", "tretre"):
            start = time.perf_counter()
            result = tournament(
                scopa.find_variant(variant),
                [aware, plain],
                deals=0,
                matches=matches,
                seed=1,
                names=names,
                executor=pool,
                chunk_size=2,
            )
            stats = result.agents[0]
            assert stats.match_win_rate is not None
            assert stats.match_win_interval is not None
            low, high = stats.match_win_interval
            print(
                f"{variant}: {names[0]} won {stats.match_win_rate:.1%} of {stats.matches} "
                f"matches (95% CI {low:.1%} to {high:.1%}; "
                f"{time.perf_counter() - start:.0f} s)",
                flush=True,
            )


# ----------------------------------------------------------------------------- bounds


class KnowingView(scopa.PlayerView):
    """A view whose deals of the unseen cards are the true ones (pure Python only).

    With `after_a_play`, the other player's hand is known only once that player has played
    from it (2 players): before, it is dealt fairly. That bounds what any inference can
    learn, since a new hand is dealt at random and only the plays from it speak of it.
    """

    __slots__ = ("after_a_play", "stock_known", "truth")

    truth: scopa.GameState
    stock_known: bool
    after_a_play: bool

    def resample(self, rng: random.Random) -> scopa.GameState:
        """The true deal, or the true hands with the stock's order drawn at random."""
        truth = self.truth
        if self.after_a_play:
            other = truth.hands[1 - self.player]
            if len(other) == truth.rules.hand_size:
                return super().resample(rng)
        if self.stock_known:
            return truth
        stock = list(truth.stock)
        rng.shuffle(stock)
        return scopa.GameState.from_position(
            truth.rules,
            hands=truth.hands,
            table=truth.table,
            stock=stock,
            dealer=truth.dealer,
            current_player=truth.current_player,
            piles=truth.piles,
            scope=truth.scope,
            last_capturer=truth.last_capturer,
        )


class KnowingSearch:
    """ISMCTS whose worlds are dealt from the true state: an omniscient agent, for bounds."""

    def __init__(self, ms: float, stock_known: bool, after_a_play: bool = False) -> None:
        self.search = timed(ISMCTSAgent, ms, exploration=1.0)
        self.stock_known = stock_known
        self.after_a_play = after_a_play

    def choose(self, seen: scopa.PlayerView, rng: random.Random) -> scopa.Move:
        raise TypeError("a knowing search plays only in omniscient runs")

    def choose_from_state(self, state: scopa.GameState, rng: random.Random) -> scopa.Move:
        seen = scopa.view(state)
        knowing = KnowingView(*(getattr(seen, name) for name in _VIEW_PARTS))
        knowing.truth = state
        knowing.stock_known = self.stock_known
        knowing.after_a_play = self.after_a_play
        return self.search.choose(knowing, rng)


def bounds(deals: int, ms: float, workers: int) -> None:
    if scopa.COMPILED:
        raise SystemExit("bounds needs the pure-Python build (SCOPA_PURE_PYTHON=1)")
    print(f"scopa {scopa.__version__} ({BUILD}), classic, {deals} paired deals, {ms:g} ms a move")
    opponents: list[tuple[str, Agent]] = [
        ("greedy", GreedyAgent()),
        ("AlphaBetaAgent(64, 5)", AlphaBetaAgent(iterations=64, depth=5)),
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for opponent_name, opponent in opponents:
            fair = timed(ISMCTSAgent, ms, exploration=1.0)
            names = ["fair ISMCTS", opponent_name]
            print(head_to_head(pool, [fair, opponent], names, deals)[1], flush=True)
            knowing_what = (
                ("the other hand once it has played from it", False, True),
                ("the hands", False, False),
                ("the deal", True, False),
            )
            for name, stock_known, after_a_play in knowing_what:
                knowing = KnowingSearch(ms, stock_known, after_a_play)
                names = [f"ISMCTS knowing {name}", opponent_name]
                print(head_to_head(pool, [knowing, opponent], names, deals, True)[1], flush=True)


# ----------------------------------------------------------------------------- fit

# The settings tried for each spread of the evaluation (see scopa._search_core._chances_of_most).
SPREADS = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 25.0, 1e6)
PRIMIERA_SPREADS = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
Position = tuple[tuple[int, int], dict[str, tuple[int, ...]]]  # piles, points by category


def self_played(first: int, count: int) -> list[Position]:
    """Every fourth position of hands `first` to `first + count` played by AlphaBetaAgent,
    with the points each category gave at the end of the hand."""
    rules = scopa.find_variant("classic")
    agent = AlphaBetaAgent(iterations=8, depth=3)
    rng = random.Random(first)
    found: list[Position] = []
    for number in range(first, first + count):
        state = scopa.GameState.new(rules, seed=number)
        piles = []
        while not state.is_terminal:
            piles.append(state.pile_masks)
            state = state.apply(agent.choose(scopa.view(state), rng))
        score = state.hand_score()
        points = {name: score[name].points for name in ("carte", "denari", "primiera")}
        found.extend(((p[0], p[1]), points) for p in piles[1::4])
    return found


def log_likelihood(category: _Category, name: str, positions: Sequence[Position]) -> float:
    """The mean log-likelihood of the category's outcomes (side 0, side 1 or nobody wins)."""
    total = 0.0
    for (first, second), points in positions:
        chances = category.expected((first, second), (0, 0), ALL_CARDS & ~(first | second))
        won = points[name]
        chance = chances[0] if won[0] else chances[1] if won[1] else 1 - sum(chances)
        total += math.log(max(chance, 1e-12))
    return total / len(positions)


def calibration(category: _Category, name: str, positions: Sequence[Position]) -> str:
    """Predicted against observed chances of side 0, by tenths of the prediction."""
    bins: list[list[float]] = [[] for _ in range(10)]
    observed: list[list[int]] = [[] for _ in range(10)]
    for (first, second), points in positions:
        chance = category.expected((first, second), (0, 0), ALL_CARDS & ~(first | second))[0]
        tenth = min(9, int(chance * 10))
        bins[tenth].append(chance)
        observed[tenth].append(points[name][0])
    return "  ".join(
        f"{statistics.mean(b):.2f}:{statistics.mean(o):.2f}"
        for b, o in zip(bins, observed, strict=True)
        if b
    )


def fit(hands: int, workers: int) -> None:
    rules = scopa.find_variant("classic")
    values = scopa.PrimieraTable.CLASSIC.values
    missing = scopa.MissingSuit.OPPONENT_WINS
    chunk = 50
    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunks = pool.map(self_played, range(0, hands, chunk), [chunk] * (hands // chunk))
        positions = [position for found in chunks for position in found]
    print(f"{len(positions)} positions of {hands} hands of classic self-play by AlphaBetaAgent")
    print("mean log-likelihood of who wins the category (higher is better):")
    fitted: dict[str, tuple[float, _Category]] = {}
    trials: list[tuple[str, Sequence[float], Callable[[float], _Category]]] = [
        ("carte", SPREADS, lambda spread: _Most(ALL_CARDS, None, spread)),
        ("denari", SPREADS, lambda spread: _Most(_DENARI, None, spread)),
        ("primiera", PRIMIERA_SPREADS, lambda spread: _Primiera(values, missing, spread, rules)),
    ]
    for name, spreads, make in trials:
        scores = [(log_likelihood(make(spread), name, positions), spread) for spread in spreads]
        print(f"  {name:9s}" + "".join(f"  {spread:g}: {score:.4f}" for score, spread in scores))
        best_spread = max(scores)[1]
        fitted[name] = (best_spread, make(best_spread))
    print("fitted spreads: " + ", ".join(f"{n} {s:g}" for n, (s, _) in fitted.items()))
    print("calibration of the fitted chances (predicted:observed for side 0, by tenths):")
    for name, (_, category) in fitted.items():
        print(f"  {name:9s} {calibration(category, name, positions)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what",
        choices=[
            "speed",
            "scaling",
            "greedy",
            "search",
            "strength",
            "bounds",
            "headroom",
            "fit",
            "policy",
            "table",
            "match",
        ],
    )
    parser.add_argument("--deals", default=None, help="paired deals (table: one per budget)")
    parser.add_argument("--ms", default=None, help="search time per move (policy: a list)")
    parser.add_argument("--cheap-ms", type=float, default=5.0, help="the cheap setting's time")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per move")
    parser.add_argument("--hands", type=int, default=2000, help="self-played hands to fit")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    deals = int(args.deals) if args.deals and args.what != "table" else None
    if args.what == "speed":
        speed()
    elif args.what == "scaling":
        scaling(deals or 2000)
    elif args.what == "greedy":
        duel(GreedyAgent(), RandomAgent(), ["greedy", "random"], deals or 2000, args.workers)
    elif args.what == "strength":
        strength(deals or 1000, float(args.ms or 25), args.cheap_ms, args.workers)
    elif args.what == "headroom":
        headroom(deals or 150, float(args.ms or 200), args.workers)
    elif args.what == "bounds":
        bounds(deals or 300, float(args.ms or 25), args.workers)
    elif args.what == "policy":
        budgets = [float(ms) for ms in (args.ms or "5,25").split(",")]
        policy(deals or 500, budgets, args.workers)
    elif args.what == "table":
        budgets = [float(ms) for ms in (args.ms or "5,25,100").split(",")]
        counts = [int(count) for count in (args.deals or "200,100,50").split(",")]
        table(counts * len(budgets) if len(counts) == 1 else counts, budgets, args.workers)
    elif args.what == "match":
        match_play(deals or 300, float(args.ms or 5), args.workers)
    elif args.what == "fit":
        fit(args.hands, args.workers)
    else:
        ms = float(args.ms or 100)
        if args.iterations is not None:
            search: Agent = FlatMonteCarloAgent(iterations=args.iterations)
            label = f"flat MC ({args.iterations} iterations)"
        else:
            search = timed(FlatMonteCarloAgent, ms)
            label = f"flat MC ({ms:.0f} ms)"
        duel(search, GreedyAgent(), [label, "greedy"], deals or 1000, args.workers)


if __name__ == "__main__":
    main()
