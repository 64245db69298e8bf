"""The `scopa` command: play against the computer, run tournaments, replay records, read rules.

Colours, tables and progress bars come from `rich` when it is installed (the `cli` extra);
without it the command prints plain text.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NoReturn, TextIO

import attrs

from scopa import __version__
from scopa.agents import Agent, GreedyAgent, RandomAgent, SearchAgent
from scopa.cards import Card, Suit
from scopa.errors import ScopaError
from scopa.match import Match
from scopa.moves import Move
from scopa.records import read_record, write_record
from scopa.rules import Rules, find_variant, variant_aliases, variant_names
from scopa.stakes import AbandonReason
from scopa.state import GameState
from scopa.tournament import tournament

__all__ = ["main"]

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": lambda: SearchAgent(iterations=60),
}
"""The agents the command knows by name."""

_COLOURS = {Suit.DENARI: "yellow", Suit.COPPE: "red", Suit.SPADE: "blue", Suit.BASTONI: "green"}


class _UsageError(Exception):
    """A bad argument: reported on one line, exit status 2."""


class _Screen:
    """Output with colours when `rich` is there, plain text otherwise."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - depends on the environment
            self.console: Any = None
        else:
            self.console = Console(file=out, highlight=False, soft_wrap=True)

    def say(self, text: str = "") -> None:
        """Print a line; `[style]…[/]` markup is kept for rich and dropped otherwise."""
        if self.console is not None:
            self.console.print(text)
        else:
            self.out.write(_strip_markup(text) + "\n")
            self.out.flush()

    def card(self, card: Card) -> str:
        """A card with its suit symbol, in its suit's colour."""
        text = f"{card.rank}{card.suit.symbol}"
        return f"[bold {_COLOURS[card.suit]}]{text}[/]"

    def cards(self, cards: Sequence[Card] | frozenset[Card]) -> str:
        """Cards in index order, or a dash."""
        return " ".join(self.card(c) for c in sorted(cards)) or "-"


def _strip_markup(text: str) -> str:
    out = []
    depth = 0
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def _rules(name: str) -> Rules:
    try:
        return find_variant(name)
    except ScopaError as error:
        raise _UsageError(str(error)) from None


def _agent(name: str) -> Agent:
    if name not in AGENTS:
        raise _UsageError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}")
    return AGENTS[name]()


# ----------------------------------------------------------------------------- play


def _show_position(screen: _Screen, match: Match, human: int) -> None:
    state = match.state
    rules = match.rules
    screen.say()
    screen.say(f"[bold]Table[/]      {screen.cards(state.table)}")
    screen.say(f"[bold]Your hand[/]  {screen.cards(state.hands[human])}")
    others = ", ".join(
        f"player {p}: {len(state.hands[p])} cards" for p in range(rules.players) if p != human
    )
    captured = ", ".join(
        f"{'you' if p == human else f'player {p}'} {len(pile)} ({state.scope[p]} scope)"
        for p, pile in enumerate(state.piles)
    )
    screen.say(f"[dim]{others}; stock {len(state.stock)}; captured: {captured}[/]")
    screen.say(f"[bold]Match[/]      {_totals(match, human)}")


def _totals(match: Match, human: int) -> str:
    mine = match.rules.side_of(human)
    sides = ", ".join(
        f"{'you' if side == mine else f'side {side}'} {total}"
        for side, total in enumerate(match.totals)
    )
    return f"{sides} (to {match.rules.target})"


def _ask(prompt: str, read: Callable[[str], str]) -> str:
    return read(prompt).strip()


def _choose_move(screen: _Screen, state: GameState, read: Callable[[str], str]) -> Move | str:
    """The human's move, or a command word ('quit')."""
    moves = state.legal_moves()
    while True:
        text = _ask("Your move (a card such as 7D, 'help' or 'quit'): ", read)
        if text.lower() in ("quit", "q"):
            return "quit"
        if text.lower() in ("help", "h", "?"):
            screen.say("Type the card you play: a rank 1-10 or A F C R, then the suit D C S B.")
            screen.say("Legal moves: " + ", ".join(str(m) for m in moves))
            continue
        try:
            if "x" in text.lower():
                return state.parse_move(text)
            played = Card.parse(text)
        except ScopaError as error:
            screen.say(f"[red]{error}[/]")
            continue
        options = [m for m in moves if m.card == played]
        if not options:
            screen.say(f"[red]{text!r} is not a card you can play now[/]")
            continue
        if len(options) == 1:
            return options[0]
        for number, option in enumerate(options, 1):
            taken = screen.cards(option.captured) if option.captured else "nothing (lay it down)"
            screen.say(f"  {number}) take {taken}")
        answer = _ask("Which capture? ", read)
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        screen.say("[red]Choose one of the numbers above[/]")


def _show_hand_end(screen: _Screen, match: Match) -> None:
    record = match.hands[-1]
    screen.say()
    screen.say(f"[bold]Hand {record.number} is over[/]")
    for category in record.score:
        figures = " / ".join(map(str, category.figures))
        points = " / ".join(map(str, category.points))
        screen.say(f"  {category.name:<11} {points:<9} [dim]{figures}[/]")
    screen.say(f"  {'total':<11} {' / '.join(map(str, record.points))}")
    screen.say(f"[bold]Match[/] {_totals(match, 0)}")
    if match.brilli is not None:
        screen.say("Brilli so far: " + " / ".join(f"{float(b):.2f}" for b in match.brilli))


def _interrupted(
    screen: _Screen, match: Match, human: int, read: Callable[[str], str]
) -> Match | None:
    """Ctrl-C: abandon, save or go on. `None` means go on."""
    screen.say()
    answer = _ask("Abandon the match (a), save it and stop (s), or continue (c)? ", read).lower()
    if answer.startswith("a"):
        over = match.abandon(human, AbandonReason.VOLUNTARY)
        screen.say("You abandon: the other side wins.")
        if over.brilli is not None:
            screen.say("Brilli: " + " / ".join(f"{float(b):.2f}" for b in over.brilli))
        return over
    if answer.startswith("s"):
        _save(screen, match, read, ask=False)
        raise SystemExit(0)
    return None


def _save(screen: _Screen, match: Match, read: Callable[[str], str], *, ask: bool) -> None:
    if ask and not _ask("Save the match record? [y/N] ", read).lower().startswith("y"):
        return
    name = _ask("File name [scopa-match.txt]: ", read) or "scopa-match.txt"
    Path(name).write_text(write_record(match), encoding="utf-8")
    screen.say(f"Saved to {name}")


def _play(args: argparse.Namespace, screen: _Screen, read: Callable[[str], str]) -> int:
    match = _load(args.resume) if args.resume else Match.new(_rules(args.variant), seed=args.seed)
    opponent = _agent(args.opponent)
    human = 0
    rng = random.Random(args.seed)
    rules = match.rules
    screen.say(f"[bold]scopa {__version__}[/]: {rules.name}, to {rules.target} points.")
    screen.say(f"You are player 0; the computer ({args.opponent}) plays the other seats.")
    announced = 0
    while not match.is_over:
        hands_before = len(match.hands)
        if announced != hands_before + 1:
            announced = hands_before + 1
            screen.say(f"\n[bold]Hand {announced}[/], dealt by player {match.dealer}")
        state = match.state
        player = state.current_player
        if player is None:  # pragma: no cover - matches from the command always deal on
            break
        if player != human:
            move = opponent.choose(state, rng)
            screen.say(f"Player {player} plays {_move_text(screen, move)}")
            match = match.apply(move)
        else:
            _show_position(screen, match, human)
            try:
                choice = _choose_move(screen, state, read)
            except KeyboardInterrupt:
                outcome = _interrupted(screen, match, human, read)
                if outcome is not None:
                    match = outcome
                continue
            if choice == "quit":
                outcome = _interrupted(screen, match, human, read)
                if outcome is not None:
                    match = outcome
                continue
            assert isinstance(choice, Move)
            screen.say(f"You play {_move_text(screen, choice)}")
            match = match.apply(choice)
        if len(match.hands) > hands_before:
            _show_hand_end(screen, match)
    winner = match.winner
    verdict = "You win!" if winner == rules.side_of(human) else "The computer wins."
    screen.say(f"[bold]{verdict}[/] {' - '.join(map(str, match.totals))}")
    _save(screen, match, read, ask=True)
    return 0


def _move_text(screen: _Screen, move: Move) -> str:
    if not move.captured:
        return f"{screen.card(move.card)} on the table"
    return f"{screen.card(move.card)} taking {screen.cards(move.captured)}"


# ----------------------------------------------------------------------------- simulate


def _simulate(args: argparse.Namespace, screen: _Screen) -> int:
    rules = _rules(args.variant)
    names = [name.strip() for name in args.agents.split(",")]
    agents = [_agent(name) for name in names]
    if len(agents) != rules.number_of_sides:
        raise _UsageError(f"{rules.name} needs {rules.number_of_sides} agents, not {len(agents)}")
    if args.deals < 1:
        raise _UsageError("--deals must be at least 1")
    progress, finish = _progress_bar(screen, args.deals)
    try:
        if args.workers > 1:
            with ProcessPoolExecutor(max_workers=args.workers) as pool:
                result = tournament(
                    rules,
                    agents,
                    deals=args.deals,
                    seed=args.seed,
                    names=names,
                    executor=pool,
                    progress=progress,
                )
        else:
            result = tournament(
                rules, agents, deals=args.deals, seed=args.seed, names=names, progress=progress
            )
    finally:
        finish()
    screen.say(result.table())
    if args.json:
        Path(args.json).write_text(json.dumps(result.as_dict(), indent=2), encoding="utf-8")
        screen.say(f"Wrote {args.json}")
    return 0


def _progress_bar(
    screen: _Screen, total: int
) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    try:
        from rich.progress import Progress
    except ImportError:  # pragma: no cover - depends on the environment

        def plain(done: int, all_: int) -> None:
            sys.stderr.write(f"\r{done}/{all_} deals")
            sys.stderr.flush()

        def end() -> None:
            sys.stderr.write("\n")

        return plain, end
    bar = Progress(console=screen.console, transient=True)
    task = bar.add_task("playing", total=total)
    bar.start()
    return (lambda done, _: bar.update(task, completed=done)), bar.stop


# ----------------------------------------------------------------------------- replay, rules


def _load(path: str) -> Match:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise _UsageError(f"cannot read {path}: {error.strerror}") from None
    return read_record(text)


def _replay(args: argparse.Namespace, screen: _Screen, read: Callable[[str], str]) -> int:
    match = _load(args.file)
    step = not args.all and sys.stdin.isatty()
    screen.say(f"[bold]{match.rules.name}[/], first dealer player {match.first_dealer}")
    hands = list(match.hands)
    current = [] if match.is_over and match.abandonment is None else [None]
    for record in [*hands, *current]:
        if record is None:
            number, deck, dealer = len(hands) + 1, match.deck, match.dealer
            plays = match.state.history
        else:
            number, deck, dealer, plays = record.number, record.deck, record.dealer, record.history
        state = GameState.new(match.rules, deck=deck, dealer=dealer)
        screen.say()
        screen.say(f"[bold]Hand {number}[/], dealer player {dealer}, deal {deck.code}")
        screen.say(f"Table {screen.cards(state.table)}")
        for player, move in plays:
            if step and _ask("", read).lower().startswith("q"):
                return 0
            before = sum(state.scope)
            state = state.apply(move)
            sweep = " [bold]scopa![/]" if sum(state.scope) > before else ""
            screen.say(f"  player {player}: {_move_text(screen, move)}{sweep}")
        if record is not None:
            screen.say("  score " + " / ".join(map(str, record.points)))
    if match.abandonment is not None:
        screen.say(
            f"Player {match.abandonment.player} abandoned ({match.abandonment.reason.value})"
        )
    if match.is_over:
        screen.say(f"[bold]Winner: side {match.winner}[/], {' - '.join(map(str, match.totals))}")
    else:
        screen.say("The match is unfinished.")
    return 0


def _rules_command(args: argparse.Namespace, screen: _Screen) -> int:
    if args.name is None:
        for name in variant_names():
            rules = find_variant(name)
            aliases = ", ".join(variant_aliases(name))
            screen.say(
                f"[bold]{name:<20}[/] {rules.players} players, {rules.number_of_sides} sides, "
                f"to {rules.target}  [dim]{aliases}[/]"
            )
        return 0
    rules = _rules(args.name)
    screen.say(f"[bold]{rules.name}[/] (aliases: {', '.join(variant_aliases(rules.name))})")
    for field in attrs.fields(Rules):
        if field.name != "name":
            screen.say(f"  {field.name:<36} {getattr(rules, field.name)!r}")
    return 0


# ----------------------------------------------------------------------------- main


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scopa",
        description="Scopa and its family: play, simulate, replay and read the rules.",
    )
    parser.add_argument("--version", action="version", version=f"scopa {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser("play", help="play a match against the computer")
    play.add_argument("--variant", default="classic", help="the preset (default: classic)")
    play.add_argument(
        "--opponent", default="greedy", choices=sorted(AGENTS), help="the computer's agent"
    )
    play.add_argument("--seed", type=int, default=None, help="the seed of the deals")
    play.add_argument("--resume", metavar="FILE", help="go on with a saved record")
    simulate = commands.add_parser("simulate", help="run a tournament between agents")
    simulate.add_argument("--variant", default="classic", help="the preset (default: classic)")
    simulate.add_argument(
        "--agents", required=True, help=f"one agent per side, comma-separated ({', '.join(AGENTS)})"
    )
    simulate.add_argument("--deals", type=int, required=True, help="paired deals to play")
    simulate.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    simulate.add_argument("--seed", type=int, default=0, help="the tournament's seed")
    simulate.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    replay = commands.add_parser("replay", help="step through a saved match record")
    replay.add_argument("file", metavar="FILE", help="a record written by 'scopa play'")
    replay.add_argument("--all", action="store_true", help="print everything without pausing")
    rules = commands.add_parser("rules", help="list the presets, or show one's knobs")
    rules.add_argument("name", nargs="?", help="a preset name or alias")
    return parser


def main(argv: Sequence[str] | None = None, *, read: Callable[[str], str] = input) -> int:
    """Run the `scopa` command and return its exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    screen = _Screen(sys.stdout)
    try:
        if args.command == "play":
            return _play(args, screen, read)
        if args.command == "simulate":
            return _simulate(args, screen)
        if args.command == "replay":
            return _replay(args, screen, read)
        return _rules_command(args, screen)
    except _UsageError as error:
        _fail(parser, str(error), 2)
    except ScopaError as error:
        _fail(parser, str(error), 1)
    except (EOFError, KeyboardInterrupt):
        sys.stderr.write("\nscopa: stopped\n")
        return 1
    except BrokenPipeError:
        # the reader went away (`scopa rules | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _fail(parser: argparse.ArgumentParser, message: str, status: int) -> NoReturn:
    sys.stderr.write(f"{parser.prog}: error: {message}\n")
    raise SystemExit(status)


def run() -> NoReturn:
    """The console entry point."""
    raise SystemExit(main())
