"""The `scopa` command: play against the computer, run tournaments, replay records, read rules.

On a terminal, `scopa play` draws the match as a board that it redraws in place (the
pictures of [`scopa.board`](#text-pictures)) with the latest plays below it, and colours
the cards by suit when `rich` is installed (the `cli` extra). When its output is not a
terminal it prints plain scrolling text instead. Under rules with a time limit per move
(tretre: 30 seconds) it runs a visible clock from when the board is drawn, stopped while
the help or the menu is shown, and a player who runs out of time abandons the match, as
the rules say; `--no-clock` turns the clock off. When the player stops the command
(Ctrl-D, or Ctrl-C in the menu) it offers to save the match, and writes it to a recovery
file when the offer cannot be answered; when the terminal closes (SIGHUP) or the command
is told to end (SIGTERM), it writes the recovery file at once.

Wherever the command takes an agent, it takes one of [`AGENTS`][scopa.cli.AGENTS] by
name, a trained policy file as `policy:FILE`, or an agent of the user's own as
`MODULE:NAME`, imported with the current folder first as `python -m` does.

Bad input ends the command with a one-line message on standard error: exit status 2 for
a bad argument (an unknown variant, a missing file, an agent that cannot be imported, a
closed standard output), 1 for bad data (a record that cannot be read) or a worker of a
tournament that died. Text that comes from the user or from a record is printed as it
is, never read as markup, and characters the terminal cannot show are written as escapes.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import math
import multiprocessing
import os
import random
import select
import shutil
import signal
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, TextIO

from scopa import __version__
from scopa._extras import needs_extra
from scopa.agents import Agent, GreedyAgent, MatchAgent, OmniscientAgent, RandomAgent
from scopa.board import (
    WIDTH,
    card_name,
    cards_text,
    declaration_text,
    ending_text,
    match_summary,
    match_text,
    move_text,
    player_name,
    rules_text,
    score_text,
    side_name,
    state_text,
)
from scopa.cards import Card, Rank
from scopa.errors import ScopaError
from scopa.match import HandRecord, Match
from scopa.moves import Declaration, Move
from scopa.records import read_record, write_record
from scopa.rules import Rules, find_variant, variant_aliases, variant_names
from scopa.search import ISMCTSAgent
from scopa.stakes import AbandonReason, BrilliEconomy
from scopa.state import GameState, PlayerView, view
from scopa.tournament import MAX_DEALS, TournamentResult, tournament

__all__ = ["AGENTS", "Reader", "main"]

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": lambda: ISMCTSAgent(iterations=1000, match_aware=True),
    "policy": lambda: _policy_agent(),
}
"""The agents the command knows by name (besides `policy:FILE` and `MODULE:NAME`)."""

Reader = Callable[[str, float | None], str | None]
"""How the command reads an answer.

It is called with the prompt and the seconds left to answer (`None` when there is no
limit), and returns the line typed, or `None` when the time ran out. It raises `EOFError`
at the end of the input; `None` for a prompt without a limit is read the same way.
"""

_SAVE_NAME = "scopa-match.txt"
_DECLARE_WORDS = (
    "With the first card of each deal you may declare your hand (busso: three cards under "
    "10, 3 points; tris: three of a kind, 10 points): you are asked when you may, or add "
    "@busso or @tris to the card (1D@busso). A declared hand is shown to everyone."
)
_SUITS = "D denari (♦), C coppe (♥), S spade (♠), B bastoni (♣)"
_SUIT_STYLES = {"D": "bold yellow", "C": "bold red", "S": "bold blue", "B": "bold green"}


class _UsageError(Exception):
    """A bad argument: reported on one line, exit status 2."""


class _DataError(Exception):
    """Bad data, such as a record that cannot be read: reported on one line, exit status 1."""


class _Signalled(Exception):
    """The terminal closed (SIGHUP) or the command was told to end (SIGTERM): stop now."""


_ENDING_SIGNALS = {"SIGHUP": "the terminal closed", "SIGTERM": "terminated"}
"""The signals that stop `scopa play` as the end of its input does, in words."""


@contextlib.contextmanager
def _ending_signals() -> Iterator[None]:
    """SIGHUP and SIGTERM raise `_Signalled` for a while, once (in the main thread, on POSIX).

    After the first, both are ignored until the while ends, so that what the command does
    to keep the match is not cut short.
    """
    numbers = [getattr(signal, name) for name in _ENDING_SIGNALS if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread() or not numbers:
        yield
        return

    def end(signum: int, frame: object) -> None:
        for number in numbers:
            signal.signal(number, signal.SIG_IGN)
        name = signal.Signals(signum).name
        raise _Signalled(f"{_ENDING_SIGNALS[name]}, {name}")

    previous = {number: signal.signal(number, end) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def _claim_words(rules: Rules) -> str:
    """How to claim, under rules with claims (else nothing)."""
    if not rules.claim_out:
        return ""
    return (
        f"Add ! to a move (7D!) to claim that your side has reached {rules.target} points "
        "with it: a right claim wins the match at once, a wrong one loses it."
    )


def _quoted(text: str, limit: int = 60) -> str:
    """User text in quotes for a message, cut to a short prefix."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# ----------------------------------------------------------------------------- output


class _Screen:
    """Where the command writes: a terminal it may redraw, or plain scrolling text.

    With `rich`, cards (`7D`) are coloured by suit on a terminal; text is never read as
    markup, so brackets in a name or a message are printed as they are.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.is_board = out.isatty() and os.environ.get("TERM") != "dumb"
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - depends on the environment
            self.console: Any = None
        else:
            self.console = Console(
                file=out, highlight=False, markup=False, emoji=False, soft_wrap=True
            )

    @property
    def has_colour(self) -> bool:
        """Whether the output shows colours."""
        return self.console is not None and self.console.color_system is not None

    def say(self, text: str = "", style: str = "") -> None:
        """Print a line in a style (such as `bold` or `red`), with cards in suit colours."""
        if self.console is None:  # pragma: no cover - depends on the environment
            self.out.write(text + "\n")
            self.out.flush()
            return
        from rich.text import Text

        line = Text(text, style=style)
        for suit, suit_style in _SUIT_STYLES.items():
            line.highlight_regex(rf"\b(?:10|[1-9]){suit}\b", suit_style)
        self.console.print(line)

    def wrap(self, text: str, style: str = "") -> None:
        """Print a paragraph, wrapped to the width of the pictures."""
        for line in _wrapped(text):
            self.say(line, style)

    def write(self, text: str) -> None:
        """Write text as it is (a prompt, or a terminal control sequence)."""
        self.out.write(text)
        self.out.flush()

    def clear(self) -> None:
        """Clear a terminal board (nothing on plain output)."""
        if self.is_board:
            self.write("\x1b[H\x1b[2J")


def _tolerant(stream: TextIO) -> None:
    """Let `stream` write characters its encoding lacks as escapes instead of failing."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="backslashreplace")


# ----------------------------------------------------------------------------- input


class _Keyboard:
    """The lines typed (or piped) on standard input, read with a countdown under a limit.

    On a terminal board the countdown is the line above the prompt, rewritten in place
    every second; on plain output the prompt starts with the seconds left.
    """

    def __init__(self, screen: _Screen, clock: Callable[[], float]) -> None:
        self.screen = screen
        self.clock = clock
        self.pending = b""
        self.ended = False

    def __call__(self, prompt: str, seconds: float | None) -> str | None:
        if os.name != "posix":  # pragma: no cover - no select() on a console elsewhere
            return input(prompt)
        if seconds is None:
            self.screen.write(prompt)
            return self._line(None)
        if self.screen.is_board:
            self.screen.say(_time_left(seconds))
            self.screen.write(prompt)
        else:
            self.screen.write(f"[{math.ceil(seconds)} s] {prompt}")
        line = self._line(self.clock() + seconds)
        if line is None:
            self.screen.write("\n")
            self._discard()
        return line

    def _discard(self) -> None:
        """Forget what was typed for a prompt whose time ran out, so no later prompt reads it."""
        self.pending = b""
        if os.isatty(sys.stdin.fileno()):
            import termios  # POSIX only, as this reader is

            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)

    def _line(self, deadline: float | None) -> str | None:
        """The next line, or `None` if the deadline passes first."""
        shown = None
        fd = sys.stdin.fileno()
        while b"\n" not in self.pending and not self.ended:
            wait = None
            if deadline is not None:
                left = deadline - self.clock()
                if left <= 0:
                    return None
                if math.ceil(left) != shown and shown is not None:
                    self._show(left)
                shown = math.ceil(left)
                wait = left - (shown - 1)  # until the next whole second
            ready, _, _ = select.select([fd], [], [], wait)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # a terminal that has hung up: the input has ended
                    chunk = b""
                self.ended = not chunk
                self.pending += chunk
        if not self.pending:
            if os.isatty(fd):
                self.ended = False  # Ctrl-D on a terminal ends one answer, not the input
            raise EOFError
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode(sys.stdin.encoding or "utf-8", "replace")

    def _show(self, left: float) -> None:
        """Rewrite the countdown line above the prompt, keeping what is being typed."""
        if not self.screen.is_board:
            return
        text = _time_left(left)
        if self.screen.has_colour and left <= 10:
            text = f"\x1b[1;31m{text}\x1b[0m"
        self.screen.write(f"\x1b7\x1b[1A\r\x1b[2K{text}\x1b8")


def _time_left(seconds: float) -> str:
    return f"Clock: {math.ceil(seconds)} s left for this move"


@dataclass
class _Io:
    """What a subcommand talks through: the screen, the reader of answers and the clock."""

    screen: _Screen
    read: Reader
    clock: Callable[[], float]


def _read(io_: _Io, prompt: str) -> str:
    """The answer to a prompt without a time limit.

    A reader that answers `None` (no answer) is taken to have reached the end of its input.
    """
    answer = io_.read(prompt, None)
    if answer is None:
        raise EOFError
    return answer


def _yes(io_: _Io, prompt: str, *, default: bool = False) -> bool:
    """A yes or a no, asked again until the answer is one; Enter gives the default."""
    while True:
        answer = _read(io_, prompt).strip().lower()
        if not answer:
            return default
        if answer in ("y", "yes", "n", "no"):
            return answer.startswith("y")
        io_.screen.say("Answer y or n.", "red")


# ----------------------------------------------------------------------------- arguments


def _rules(name: str) -> Rules:
    try:
        return find_variant(name)
    except ScopaError as error:
        raise _UsageError(str(error)) from None


def _agent(spec: str, rules: Rules) -> Agent:
    """The agent of `spec` (see `_built_agent`), once it has said it plays these rules.

    An agent that has a `check_rules(rules)` method is asked; one that reads the whole state
    is refused, since the command plays fair.
    """
    agent = _built_agent(spec)
    if isinstance(agent, OmniscientAgent):
        raise _UsageError(
            f"agent {_named(spec)} reads the whole state (choose_from_state): "
            "the command plays only agents that see their player's view"
        )
    check_rules = getattr(agent, "check_rules", None)
    if check_rules is not None:
        try:
            check_rules(rules)
        except ScopaError as error:
            raise _UsageError(f"agent {_named(spec)}: {error}") from None
    return agent


def _built_agent(spec: str) -> Agent:
    """The agent of a name: a known one, `policy:FILE`, or `MODULE:NAME` of the user's own."""
    if spec in AGENTS:
        return AGENTS[spec]()
    kind, colon, rest = spec.partition(":")
    if colon and kind == "policy":
        return _policy_file_agent(spec, rest)
    if colon:
        return _own_agent(spec, kind, rest)
    raise _UsageError(
        f"unknown agent {_quoted(spec)}; known agents: {', '.join(AGENTS)}; or a trained "
        "policy as policy:FILE, or an agent of your own as MODULE:NAME"
    )


def _named(spec: str) -> str:
    """An agent's name for a message: a known one as it is, any other quoted short."""
    return spec if spec in AGENTS else _quoted(spec)


def _policy_agent() -> Agent:
    """The shipped trained policy, which needs numpy (the extra "cli")."""
    agent: Agent = _policy_class("policy")()
    return agent


def _policy_class(spec: str) -> Any:
    """`scopa.policy.PolicyAgent`, or a usage error that says how to install numpy."""
    try:
        from scopa.policy import PolicyAgent  # numpy is imported only when asked for
    except ImportError:
        raise _UsageError(needs_extra(f"agent {_named(spec)}", "numpy", "cli")) from None
    return PolicyAgent


def _policy_file_agent(spec: str, path: str) -> Agent:
    """The trained policy of a parameter file (`scopa.policy.load_parameters`)."""
    policy = _policy_class(spec)
    from scopa.policy import load_parameters

    if not path:
        raise _UsageError(f"agent {_named(spec)}: give the policy's file, as policy:FILE")
    try:
        agent: Agent = policy(load_parameters(path))
    except ScopaError as error:
        raise _UsageError(f"agent {_named(spec)}: {error}") from None
    except (OSError, ValueError) as error:
        raise _UsageError(
            f"agent {_named(spec)}: cannot read {_quoted(path)}: {_why_not(error)}"
        ) from None
    return agent


def _own_agent(spec: str, module_name: str, name: str) -> Agent:
    """The agent `name` of module `module_name`, made with no arguments if it is a class.

    `name` may be dotted (`Outer.inner`); a class or a function that makes an agent is
    called with no arguments, and an object with a `choose` method is the agent itself.
    """
    dotted = [*module_name.split("."), *name.split(".")]
    if not all(part.isidentifier() for part in dotted):
        raise _UsageError(
            f"agent {_named(spec)}: give an agent of your own as MODULE:NAME, "
            "such as mybots:MyAgent"
        )
    found: Any = _imported(spec, module_name)
    for part in name.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise _UsageError(
                f"agent {_named(spec)}: {module_name} has no {_quoted(part)}"
            ) from None
        except Exception as error:
            raise _UsageError(
                f"agent {_named(spec)}: reading {part} raised {_raised(error)}"
            ) from None
    agent = found
    if isinstance(found, type) or (callable(found) and not hasattr(found, "choose")):
        try:
            agent = found()
        except Exception as error:
            raise _UsageError(f"agent {_named(spec)}: making it raised {_raised(error)}") from None
    if not callable(getattr(agent, "choose", None)):
        raise _UsageError(
            f"agent {_named(spec)} is not an agent: {type(agent).__name__} objects have no "
            "choose(seen, rng) method"
        )
    return agent  # type: ignore[no-any-return]


def _imported(spec: str, module_name: str) -> ModuleType:
    """The module of an agent of the user's own, imported with the current folder first.

    The current folder is put first on the module path, as `python -m` does, until the
    command ends.
    """
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if module_name == missing or module_name.startswith(f"{missing}."):
            raise _UsageError(
                f"agent {_named(spec)}: there is no module {_quoted(module_name)} in the "
                "current folder or among the installed packages"
            ) from None
        raise _UsageError(
            f"agent {_named(spec)}: importing {module_name} raised {_raised(error)}"
        ) from None
    except Exception as error:
        raise _UsageError(
            f"agent {_named(spec)}: importing {module_name} raised {_raised(error)}"
        ) from None


def _raised(error: BaseException) -> str:
    """An exception in words, for a one-line message: its class and its message, cut short."""
    text = " ".join(str(error).split())
    if len(text) > 120:
        text = text[:120] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _Rebuilt:
    """An agent that a worker process builds again from its name on the command line.

    Only the name travels to the worker, so an agent that cannot be pickled plays on a
    pool too. The agent is built on the first move of each chunk of games it is sent with.
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.agent: Agent | None = None

    def __reduce__(self) -> tuple[type[_Rebuilt], tuple[str]]:
        return type(self), (self.spec,)

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The move of the agent, built when it is first asked."""
        if self.agent is None:
            self.agent = _built_agent(self.spec)
        return self.agent.choose(seen, rng)


@contextlib.contextmanager
def _module_path_kept() -> Iterator[None]:
    """Put the module path back as it was when the command ends (see `_imported`)."""
    saved = list(sys.path)
    try:
        yield
    finally:
        sys.path[:] = saved


def _load(path: str) -> Match:
    """The match of a record file, read a line at a time."""
    try:
        with open(path, encoding="utf-8") as file:
            return read_record(file)
    except (OSError, ValueError) as error:
        if isinstance(error, ScopaError):
            raise
        raise _UsageError(f"cannot read {_quoted(path)}: {_why_not(error)}") from None


# ----------------------------------------------------------------------------- play


class _Refused(Exception):
    """A move the player typed that cannot be played; the message says why."""


class _Game:
    """A match of `scopa play`: you at seat 0, the computer in every other seat."""

    human = 0

    def __init__(
        self, io_: _Io, match: Match, opponent: str, *, clock: bool, seed: int | None
    ) -> None:
        self.io = io_
        self.screen = io_.screen
        self.match = match
        self.opponent = opponent
        self.agent = _agent(opponent, match.rules)
        self.rng = random.Random(seed)
        self.limit = match.rules.move_time_limit if clock else None
        self.clock_off = not clock and match.rules.move_time_limit is not None
        self.deadline: float | None = None  # when the move's time runs out, while it runs
        self.left: float | None = None  # the seconds left for the move, while its clock stops
        self.log: list[tuple[str, str]] = []
        self.announced = 0  # the last hand whose deal is in the log
        self.greeting: list[str] = []  # the words of the introduction, for the first board
        self.stopped = False
        self.unsaved = False  # whether the player has acted since the match was started or saved

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the match is over or the player stops.

        Raises:
            EOFError: the input ended; the record was offered for saving, or written to a
                recovery file when the offer could not be answered.
            KeyboardInterrupt: Ctrl-C in the menu; the same.
            _Signalled: the terminal closed, or the command was told to end; the record
                was written to a recovery file at once.
        """
        try:
            self._introduce()
            self._recall()
            self._play()
            if self.match.is_over:
                self._finish()
        except (EOFError, KeyboardInterrupt):
            self._rescue(ask=True)
            raise
        except _Signalled:
            self._rescue(ask=False)
            raise
        return 0

    def _play(self) -> None:
        while not self.match.is_over and not self.stopped:
            if self.match.awaiting_deal:
                self.screen.say("The record holds no deck for the next hand: the match stops.")
                break
            if self.match.hand_number != self.announced:
                self._note_deal(self.match.hand_number, self.match.state)
            try:
                if self.match.state.current_player == self.human:
                    self._human_turn()
                else:
                    self._computer_turn()
            except KeyboardInterrupt:  # Ctrl-C, at any moment of the match
                self.screen.say()
                self._menu()

    def _introduce(self) -> None:
        """Say what is played, by whom, and how to type a move.

        On a terminal board the words go under the header of the first board, which names
        the game and the suits; under a clock they come first, on their own, and the
        command waits for Enter to start the clock.
        """
        rules = self.match.rules
        words = [
            f"You are player 0{self._partners()}; the computer ({self.opponent}) "
            f"plays {self._others()}.",
            "Type a card as its rank and suit: 7D is the 7 of denari.",
            _DECLARE_WORDS if rules.declarations else "",
            _claim_words(rules),
            self._clock_words(),
            "Type help for help, quit to stop.",
        ]
        waits = self.limit is not None and self.screen.is_board
        if self.screen.is_board and not waits:
            self.greeting = [line for text in words for line in _wrapped(text)]
            return
        words[1] += f" Suits: {_SUITS}."
        self.screen.wrap(f"scopa {__version__}: {rules.name}, to {rules.target} points.", "bold")
        for text in words:
            self.screen.wrap(text)
        if waits:
            _read(self.io, "Press Enter to start: the clock starts when the board is drawn. ")

    def _recall(self) -> None:
        """Put the plays of a resumed match's record in the log, as they were noted live."""
        rules = self.match.rules
        for record in self.match.hands:
            start = GameState.new(rules, deck=record.deck, dealer=record.dealer)
            self._note_deal(record.number, start)
            self._note_plays(start, record.history, record)
        state = self.match.state
        if state.history and not self.match.awaiting_deal:
            start = GameState.new(rules, deck=self.match.deck, dealer=self.match.dealer)
            self._note_deal(self.match.hand_number, start)
            self._note_plays(start, state.history, None)

    def _note_plays(
        self,
        start: GameState,
        plays: Sequence[tuple[int, Move]],
        record: HandRecord | None,
    ) -> None:
        """Note the plays of a hand from its deal, and its end if it is the `record`'s."""
        state = start
        for player, move in plays:
            before, state = state, state.apply(move)
            self._note_play(player, before, move, state)
            if record is not None and state.is_terminal:
                self._note_hand_end(before, move, state, record)

    def _partners(self) -> str:
        rules = self.match.rules
        mine = rules.side_of(self.human)
        mates = [p for p in range(rules.players) if p != self.human and rules.side_of(p) == mine]
        if not mates:
            return ""
        names = " and ".join(f"player {p}" for p in mates)
        return f", with {names} as your partner{'s' if len(mates) > 1 else ''}"

    def _others(self) -> str:
        others = [str(p) for p in range(1, self.match.rules.players)]
        if len(others) == 1:
            return f"player {others[0]}"
        return f"players {', '.join(others[:-1])} and {others[-1]}"

    def _clock_words(self) -> str:
        limit = self.match.rules.move_time_limit
        if limit is None:
            return ""
        if self.clock_off:
            return f"The clock is off (--no-clock): the limit of {limit:g} s a move is not applied."
        return (
            f"The clock runs: {limit:g} s a move, from when the board is drawn. Under the "
            f"{self.match.rules.name} rules a player who runs out of time, even once, abandons "
            "the whole match (start with --no-clock to play untimed). The clock stops while "
            "the help or the quit menu is shown."
        )

    def _note_deal(self, number: int, dealt: GameState) -> None:
        """Note the deal of hand `number`, and a first table swept as it was dealt."""
        self.announced = number
        dealer = player_name(dealt.dealer, self.human)
        self._note(f"Hand {number}: {dealer} {_verb('deal', dealer)}", "bold")
        swept = _first_table_note(dealt, self.human)
        if swept is not None and not dealt.history:
            self._note(swept, "bold magenta")

    def _note(self, text: str, style: str = "") -> None:
        """Add a line to the log of plays (printed at once on plain output)."""
        self.log.append((text, style))
        if not self.screen.is_board:
            self.screen.say(text, style)

    def _draw(self, picture: str) -> None:
        """On a terminal, redraw the board with the latest plays; else print the picture."""
        if not self.screen.is_board:
            self.screen.say()
            for line in picture.splitlines():
                self.screen.say(line)
            return
        self.screen.clear()
        rules = self.match.rules
        self.screen.say(
            f"scopa {__version__}: {rules.name} against the computer ({self.opponent}). "
            "Type help for help.",
            "bold",
        )
        self.screen.say(f"Suits: {_SUITS}.{' Clock: off.' if self.clock_off else ''}")
        greeting, self.greeting = self.greeting, []  # on the first board only
        for line in greeting:
            self.screen.say(line)
        lines = picture.splitlines()
        if self.limit is not None:
            lines = [
                f"Clock: {self.limit:g} s a move; running out of time abandons the match.",
                "",
                *lines,
            ]
        self.screen.say()
        for line in lines:
            self.screen.say(line)
        room = shutil.get_terminal_size().lines - len(lines) - len(greeting) - 8
        self.screen.say()
        self.screen.say("Plays", "bold")
        for text, style in self.log[-max(room, 3) :]:
            self.screen.say(f"  {text}", style)
        self.screen.say()

    # ------------------------------------------------------------------ turns

    def _computer_turn(self) -> None:
        state = self.match.state
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        if isinstance(self.agent, MatchAgent):
            move = self.agent.choose_in_match(seen, self.match.totals, self.rng)
        else:
            move = self.agent.choose(seen, self.rng)
        self._apply(player, self._claimed_if_right(move), None)

    def _claimed_if_right(self, move: Move) -> Move:
        """The computer's move, claiming the target exactly when the claim is right.

        An agent chooses the move, not the claim: that is decided from public facts, the
        side's total and the points it is sure of after the move.
        """
        rules = self.match.rules
        if not rules.claim_out:
            return move
        state = self.match.state
        player = state.current_player
        assert player is not None
        side = rules.side_of(player)
        sure = state.apply(move).guaranteed_points()[side]
        right = self.match.totals[side] + sure >= rules.target
        return move.announced(move.declaration, claim=right)

    def _human_turn(self) -> None:
        self._draw(match_text(self.match, self.human))
        state = self.match.state
        allowed = _declarations_allowed(state.legal_moves())
        if allowed:
            kinds = " or ".join(declaration_text(d) for d in allowed)
            self.screen.say(f"You may declare your hand with this card: {kinds}.", "bold")
        self._start_clock()
        choice = self._choose_move(state)
        if choice == "menu":
            self._menu()
        elif choice == "time":
            self._time_up(self.match.timeout())
        elif isinstance(choice, Move):
            self._apply(self.human, choice, self._stop_clock())

    # ------------------------------------------------------------------ the clock

    def _start_clock(self) -> None:
        """Start the clock of the move, or start it again where it stopped."""
        if self.limit is None or self.deadline is not None:
            return
        left = self.limit if self.left is None else self.left
        self.deadline = self.io.clock() + left
        self.left = None

    def _pause_clock(self) -> None:
        """Stop the clock of the move for a while, keeping the seconds left."""
        if self.deadline is not None:
            self.left = max(0.0, self.deadline - self.io.clock())
            self.deadline = None

    def _stop_clock(self) -> float | None:
        """Stop the clock for good; the seconds the move took (`None` when untimed)."""
        used = None
        if self.limit is not None and self.deadline is not None:
            used = self.limit - (self.deadline - self.io.clock())
        self.deadline = self.left = None
        return used

    def _ask(self, prompt: str) -> str | None:
        """An answer within the time left for the move, or `None` once it has run out."""
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - self.io.clock()
            if seconds <= 0:
                return None
        answer = self.io.read(prompt, seconds)
        if answer is None and seconds is None:
            raise EOFError  # no answer where time cannot run out: the input has ended
        return None if answer is None else answer.strip()

    def _choose_move(self, state: GameState) -> Move | str:
        """The player's move, `"menu"` to stop, or `"time"` when the time ran out."""
        typed: str | None = None  # what was typed at the end of the help, if anything
        while True:
            text = typed if typed else self._ask("Your move (a card such as 7D; help, quit): ")
            typed = None
            if text is None:
                return "time"
            word = text.lower()
            if word in ("quit", "q"):
                return "menu"
            if word in ("help", "h", "?"):
                typed = self._help(state)
                continue
            if not text:
                continue
            try:
                body, declaration, claim = _announcement(text)
                self._check_claim(claim)
                options = self._options(state, body)
                chosen = options[0] if len(options) == 1 else self._choose_capture(options)
                if isinstance(chosen, Move):
                    return self._announced(state, chosen, declaration, claim)
            except (_Refused, ScopaError) as error:
                self.screen.say(str(error), "red")
                continue
            if chosen is not None:
                return chosen

    def _check_claim(self, claim: bool) -> None:
        rules = self.match.rules
        if claim and not rules.claim_out:
            raise _Refused(f"There are no claims under the {rules.name} rules.")

    def _announced(
        self, state: GameState, move: Move, declaration: Declaration | None, claim: bool
    ) -> Move | str:
        """The move with the declaration typed or chosen now, and the claim if typed.

        Raises:
            _Refused: the typed declaration cannot be made with this move.
        """
        legal = state.legal_moves()
        allowed = [d for d in Declaration if move.announced(d) in legal]
        if declaration is not None and declaration not in allowed:
            raise _Refused(_why_not_declared(state, declaration, self.human))
        if declaration is None and allowed:
            chosen = self._choose_declaration(allowed)
            if not isinstance(chosen, Declaration | None):
                return chosen
            declaration = chosen
        return move.announced(declaration, claim=claim)

    def _choose_declaration(self, allowed: list[Declaration]) -> Declaration | str | None:
        """The declaration the player makes (`None` for none), or `"time"`."""
        self.screen.say("  0) declare nothing")
        for number, declaration in enumerate(allowed, 1):
            self.screen.say(f"  {number}) declare {declaration_text(declaration)}")
        while True:
            answer = self._ask("Declare your hand? ")
            if answer is None:
                return "time"
            chosen = _number(answer, len(allowed))
            if chosen is not None:
                return None if chosen == 0 else allowed[chosen - 1]
            self.screen.say(f"Choose one of the numbers 0 to {len(allowed)}.", "red")

    def _options(self, state: GameState, text: str) -> list[Move]:
        """The plain moves `text` may mean: a card alone, or a whole move such as `7Dx3C+4S`.

        A plain move has no declaration and no claim.
        """
        whole = "x" in text.lower()
        card = Move.parse(text).card if whole else Card.parse(text)
        hand = state.hands[self.human]
        if card not in hand:
            raise _Refused(
                f"You do not hold {card}, {card_name(card)}. Your cards: {cards_text(hand)}"
            )
        if whole:
            return [state.parse_move(text)]
        options = [
            move
            for move in state.legal_moves()
            if move.card == card and move.declaration is None and not move.claim
        ]
        if not options:
            legal = ", ".join(map(str, state.legal_moves()))
            raise _Refused(f"You cannot play {card} now. Legal moves: {legal}")
        return options

    def _choose_capture(self, options: list[Move]) -> Move | str | None:
        """The capture chosen among `options`, `"time"`, or `None` to choose another card.

        The options are listed in the order of the legal moves.
        """
        for number, option in enumerate(options, 1):
            taken = cards_text(option.captured) if option.captured else "nothing (lay it down)"
            self.screen.say(f"  {number}) take {taken}")
        while True:
            answer = self._ask("Which capture (Enter for another card)? ")
            if answer is None:
                return "time"
            if not answer:
                return None
            chosen = _number(answer, len(options))
            if chosen is not None and chosen >= 1:
                return options[chosen - 1]
            self.screen.say(f"Choose one of the numbers 1 to {len(options)}.", "red")

    def _help(self, state: GameState) -> str | None:
        """Show the help; what was typed to go back to the move, while the clock runs.

        With the clock stopped, the player presses Enter to go back to the move, or types
        the move there, which is taken as typed at the move's own prompt.
        """
        say = self.screen.say
        say("Type the card you play: its rank, then its suit.")
        say("  Ranks: 1 to 10, or A (Ace, 1), F (Fante, 8), C (Cavallo, 9), R (Re, 10).")
        say(f"  Suits: {_SUITS}.")
        say("  So 1C is the Ace of coppe, and 7D the settebello. When the card can take")
        say("  different cards you are asked which; or type it all: 7Dx3C+4S.")
        rules = self.match.rules
        for words in (_DECLARE_WORDS if rules.declarations else "", _claim_words(rules)):
            if words:
                self.screen.wrap(words)
        plain = [m for m in state.legal_moves() if m.declaration is None and not m.claim]
        say("Legal moves: " + ", ".join(str(m) for m in plain))
        allowed = _declarations_allowed(state.legal_moves())
        if allowed:
            say("You may declare now: " + " or ".join(declaration_text(d) for d in allowed))
        say("Type quit (or press Ctrl-C) to abandon or save the match.")
        if self.deadline is not None:
            left = math.ceil(self.deadline - self.io.clock())
            self._pause_clock()
            say(f"The clock stops while you read, with {left} s left for your move.")
            typed = _read(self.io, "Press Enter to go back to your move, or type it now: ")
            self._start_clock()
            return typed.strip()
        return None

    # ------------------------------------------------------------------ playing a move

    def _apply(self, player: int, move: Move, elapsed: float | None) -> None:
        self.unsaved = self.unsaved or player == self.human
        before = self.match.state
        after = self.match.apply(move, elapsed=elapsed)
        if after.abandonment is not None:
            self._time_up(after)
            return
        self.match = after
        final = before.apply(move)  # the hand's last state, even when the next is dealt
        self._note_play(player, before, move, final)
        claim = after.claim
        if claim is not None:
            right = "right" if claim.correct else "wrong"
            self._note(f"The claim is {right}: the match is over.", "bold")
        elif final.is_terminal:
            self._note_hand_end(before, move, final, self.match.hands[-1])
            self._hand_over(final)

    def _note_play(self, player: int, before: GameState, move: Move, after: GameState) -> None:
        """Note a play: who played what, the hand a declaration shows, and a scopa."""
        name = player_name(player, self.human)
        text = f"{name.capitalize()} {_verb('play', name)} {move_text(move)}"
        if move.declaration is not None:
            text += f", and {_verb('show', name)} {cards_text(after.hands[player])}"
        if after.scope[player] > before.scope[player]:
            self._note(f"{text}. Scopa!", "bold magenta")
        else:
            self._note(text)

    def _note_hand_end(
        self, before: GameState, move: Move, final: GameState, record: HandRecord
    ) -> None:
        """Note where the cards left on the table went, and the points of the hand."""
        rules = self.match.rules
        left = _left_on_table(before, move, final)
        if left and final.table:
            self._note(f"The cards left on the table, {cards_text(left)}, stay there.")
        elif left and final.last_capturer is not None:
            taker = player_name(final.last_capturer, self.human)
            self._note(
                f"The cards left on the table, {cards_text(left)}, go to {taker}, "
                "the last to capture."
            )
        totals = ", ".join(
            f"{side_name(rules, side, self.human)} {points}"
            for side, points in enumerate(record.points)
        )
        self._note(f"Hand {record.number} is over: {totals}.", "bold")

    def _hand_over(self, final: GameState) -> None:
        """Show the score of the hand just over, and wait for Enter on a terminal board."""
        rules = self.match.rules
        record = self.match.hands[-1]
        if not self.screen.is_board:
            self.screen.say()
            self.screen.say(score_text(record.score, rules, self.human))
            return
        summary = match_summary(self.match, self.human).split("\n", 1)
        if not self.match.is_over:  # the heading names the next hand, already dealt
            summary[0] = f"{summary[0].rsplit(', ', 1)[0]}, hand {record.number} over"
        self._draw("\n".join(summary) + f"\n\n{state_text(final, self.human)}")
        if not self.match.is_over:
            _read(self.io, "Press Enter to deal the next hand. ")

    def _time_up(self, over: Match) -> None:
        assert self.limit is not None  # only a timed move runs out of time
        self._stop_clock()
        self.match = over
        self.unsaved = True
        self._note(
            f"Time is up: you took more than {self.limit:g} s, and under the "
            f"{over.rules.name} rules you abandon the match.",
            "bold red",
        )

    # ------------------------------------------------------------------ stopping

    def _menu(self) -> None:
        """Ctrl-C or quit: abandon, save and stop, or go on; the move's clock stops meanwhile."""
        self._pause_clock()
        while True:
            prompt = "Abandon the match (a), save it and stop (s), or continue (c)? "
            key = _read(self.io, prompt).strip().lower()[:1]
            if key == "a":
                self._stop_clock()
                self.match = self.match.abandon(self.human, AbandonReason.VOLUNTARY)
                self.unsaved = True
                self._note("You abandon the match.", "bold")
                return
            if key == "s":
                self._stop_clock()
                self.stopped = True
                self._save()
                return
            if key == "c":
                return
            self.screen.say("Answer a, s or c.", "red")

    def _finish(self) -> None:
        rules = self.match.rules
        if self.screen.is_board:
            self._draw(match_text(self.match, self.human))
        else:  # the position is already on the screen
            self._draw(match_summary(self.match, self.human))
        totals = " - ".join(map(str, self.match.totals))
        if self.match.abandonment is not None:
            quitter = player_name(self.match.abandonment.player, self.human)
            verdict = f"{quitter.capitalize()} abandoned: " + (
                "the computer wins." if quitter == "you" else "you win!"
            )
        elif self.match.winner != rules.side_of(self.human):
            verdict = f"The computer wins. {totals}"
        elif rules.number_of_sides == rules.players:
            verdict = f"You win! {totals}"
        else:
            verdict = f"Your side wins! {totals}"
        ending = ending_text(self.match, self.human)
        if ending is not None and self.match.abandonment is None:
            self.screen.say(f"{ending[0].upper()}{ending[1:]}.", "bold")
        self.screen.say(verdict, "bold")
        if _yes(self.io, "Save the match record? [y/N] "):
            self._save()

    def _save(self) -> None:
        """Ask for a file name and write the record, asking before replacing a file."""
        while True:
            name = _read(self.io, f"File name [{_SAVE_NAME}]: ").strip() or _SAVE_NAME
            path = Path(name)
            try:
                exists = path.exists()
            except (OSError, ValueError):  # writing says what is wrong with the name
                exists = False
            if exists and not _yes(self.io, f"{name} exists. Replace it? [y/N] "):
                continue
            try:
                path.write_text(write_record(self.match), encoding="utf-8")
            except (OSError, ValueError) as error:
                self.screen.say(f"Cannot write {_quoted(name)}: {_why_not(error)}", "red")
                continue
            self.unsaved = False
            self.screen.say(f"Saved to {name}")
            return

    def _rescue(self, *, ask: bool) -> None:
        """Before the command stops, keep the match.

        Unless the player has not acted since the match was started or last saved, they are
        asked whether to save it (when `ask`: the input ended, or Ctrl-C in the menu); when
        that question goes unanswered too, or is not asked (the terminal closed, or the
        command was told to end), the record goes to a recovery file.
        """
        self._stop_clock()
        if not self.unsaved or (ask and self._offer_to_save()):
            return
        self._recover()

    def _offer_to_save(self) -> bool:
        """Ask whether to save the match before stopping; whether it was answered."""
        try:
            self.screen.say()
            if _yes(self.io, "Stopping. Save the match record first? [Y/n] ", default=True):
                self._save()
        except (EOFError, KeyboardInterrupt, OSError, _Signalled):
            # no answer, or no terminal to ask on (OSError: it has gone)
            return not self.unsaved  # saved just before the question was cut short
        return True

    def _recover(self) -> None:
        """Write the record to a recovery file and say where, if the output is still there."""
        path = _recovery_file(write_record(self.match))
        try:
            self.screen.say()
            if path is None:
                self.screen.say("The match record could not be written anywhere.", "red")
                return
            then = (
                "see it with: scopa replay"
                if self.match.is_over
                else "go on with: scopa play --resume"
            )
            self.screen.say(f"The match record is saved in {path}; {then} {path}", "bold")
        except OSError:
            pass  # the terminal has gone: the file is there all the same


def _wrapped(text: str) -> list[str]:
    """A paragraph as lines of the width of the pictures."""
    return textwrap.wrap(text, WIDTH, break_on_hyphens=False)


def _number(answer: str, most: int) -> int | None:
    """The number from 0 to `most` typed as `answer`, or `None` if it is not one."""
    if answer.isascii() and answer.isdigit() and len(answer) <= 3 and int(answer) <= most:
        return int(answer)
    return None


def _why_not(error: OSError | ValueError) -> str:
    """Why a file could not be used, without the file name (the message quotes it)."""
    if isinstance(error, ValueError):  # the one ValueError of a path: a NUL character
        return "a file name cannot hold a NUL character"
    return error.strerror or "the system refused it"


def _recovery_file(record: str) -> str | None:
    """Write a record to a new file, here or else in the temporary folder; its path.

    `None` when neither folder can be written.
    """
    for number in range(1, 100):
        path = Path("scopa-recovery.txt" if number == 1 else f"scopa-recovery-{number}.txt")
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(record)
        except FileExistsError:
            continue
        except OSError:
            break
        return os.path.abspath(path)
    try:
        handle, name = tempfile.mkstemp(prefix="scopa-recovery-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(record)
    except OSError:
        return None
    return name


_DECLARATION_RULES = {
    Declaration.BUSSO: "three cards adding up to less than 10",
    Declaration.TRIS: "three cards of one rank",
}


def _announcement(text: str) -> tuple[str, Declaration | None, bool]:
    """A typed move split into the move, the declaration (`@busso`) and the claim (`!`)."""
    body = text.strip()
    claim = body.endswith("!")
    body, at, named = body.removesuffix("!").partition("@")
    if not at:
        return body.strip(), None, claim
    try:
        declaration = Declaration(named.strip().lower())
    except ValueError:
        raise _Refused(
            f"Cannot declare {_quoted(named)}: the declarations are @busso and @tris."
        ) from None
    return body.strip(), declaration, claim


def _declarations_allowed(moves: Sequence[Move]) -> list[Declaration]:
    """The declarations some of `moves` make, in their order."""
    made = {move.declaration for move in moves}
    return [declaration for declaration in Declaration if declaration in made]


def _why_not_declared(state: GameState, declaration: Declaration, seat: int) -> str:
    """Why the player at `seat` cannot make `declaration` now."""
    rules = state.rules
    if not rules.declarations:
        return f"There are no declarations under the {rules.name} rules."
    hand = state.hands[seat]
    if len(hand) != rules.hand_size:
        return "You may declare only with the first card of a deal."
    return (
        f"Your hand {cards_text(hand)} is not a {declaration.value}: "
        f"{_DECLARATION_RULES[declaration]}."
    )


def _first_table_note(state: GameState, seat: int | None = None) -> str | None:
    """Who swept a first table of 15 or 30 as the hand was dealt, if anyone did."""
    for player, made in enumerate(state.scope):
        if made:
            name = player_name(player, seat)
            swept = cards_text(state.piles[player])
            noun = "a scopa" if made == 1 else f"{made} scope"
            return f"{name.capitalize()} {_verb('sweep', name)} the first table, {swept}: {noun}."
    return None


def _verb(verb: str, subject: str) -> str:
    """`deal` for you, `deals` for anyone else."""
    return verb if subject == "you" else f"{verb}s"


def _left_on_table(before: GameState, move: Move, final: GameState) -> frozenset[Card]:
    """The cards the last play of a hand left on the table (wherever they went then)."""
    rules = before.rules
    kept_by_player = bool(move.captured) or (
        rules.ace_on_empty_table_captures_itself
        and not before.table
        and move.card.rank == Rank.ASSO
    )
    played = frozenset() if kept_by_player else frozenset([move.card])
    return (before.table - move.captured) | played


def _play(args: argparse.Namespace, io_: _Io) -> int:
    if args.resume is not None:
        if args.variant is not None:
            raise _UsageError("--variant does not go with --resume: the record has its rules")
        match = _load(args.resume)
        if match.is_over:
            raise _DataError(f"the match in {_quoted(args.resume)} is over; see it with replay")
    else:
        rules = _rules(args.variant or "classic")
        try:
            match = Match.new(rules, seed=args.seed)
        except ScopaError as error:
            raise _UsageError(f"--seed: {error}") from None
    game = _Game(io_, match, args.opponent, clock=not args.no_clock, seed=args.seed)
    with _ending_signals():
        return game.run()


# ----------------------------------------------------------------------------- simulate


def _output_path(name: str) -> Path:
    """The path of `--json`, checked before the tournament runs."""
    path = Path(name)
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        pass  # a new file, or a folder that is missing: said below
    except (OSError, ValueError) as error:  # a name too long, or with a NUL character
        raise _UsageError(f"--json {_quoted(name)}: {_why_not(error)}") from None
    if path.is_dir():
        raise _UsageError(f"--json {_quoted(name)} is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise _UsageError(f"--json {_quoted(name)}: there is no folder {_quoted(str(folder))}")
    if not os.access(folder, os.W_OK):
        raise _UsageError(f"--json {_quoted(name)}: cannot write in {_quoted(str(folder))}")
    return path


def _chunk_size(deals: int, workers: int) -> int:
    """Deals per task: one here (progress after every deal); more per task in a pool."""
    return 1 if workers == 1 else max(1, min(20, deals // (10 * workers)))


def _simulate(args: argparse.Namespace, io_: _Io) -> int:
    rules = _rules(args.variant)
    names = [name.strip() for name in args.agents.split(",")]
    agents = [_agent(name, rules) for name in names]
    if len(agents) != rules.number_of_sides:
        raise _UsageError(f"{rules.name} needs {rules.number_of_sides} agents, not {len(agents)}")
    if not 1 <= args.deals <= MAX_DEALS:
        raise _UsageError(
            f"--deals must be from 1 to {MAX_DEALS:,} (a tournament keeps every deal's result)"
        )
    if args.workers < 1:
        raise _UsageError("--workers must be at least 1")
    output = _output_path(args.json) if args.json is not None else None
    progress, finish = _progress_bar(io_.screen, args.deals)
    settings: dict[str, Any] = {
        "deals": args.deals,
        "seed": args.seed,
        "names": names,
        "chunk_size": _chunk_size(args.deals, args.workers),
        "progress": progress,
    }
    try:
        if args.workers > 1:  # each worker builds the agents again from their names
            pooled: list[Agent] = [_Rebuilt(name) for name in names]
            result = _tournament_on_pool(rules, pooled, args.workers, settings)
        else:
            result = tournament(rules, agents, **settings)
    finally:
        finish()
    io_.screen.say(result.table())
    if output is not None:
        try:
            output.write_text(json.dumps(result.as_dict(), indent=2), encoding="utf-8")
        except OSError as error:
            raise _DataError(f"cannot write {_quoted(args.json)}: {error.strerror}") from None
        io_.screen.say(f"Wrote {args.json}")
    return 0


def _tournament_on_pool(
    rules: Rules, agents: list[Agent], workers: int, settings: dict[str, Any]
) -> TournamentResult:
    """The tournament on a pool of worker processes, which Ctrl-C stops at once.

    Ctrl-C never raises while the pool is in use: an interrupt inside the waiting of
    `concurrent.futures` can leave one of its locks held, and the command hung at exit.
    It ends the workers instead, which breaks the pool: the pool fails the chunks it holds,
    and the command stops when the tournament gives up on them, where nothing is held. An
    interrupt that came before the workers started stops it at the next chunk's progress.
    A second Ctrl-C does the same again.
    """
    others = set(multiprocessing.active_children())
    interrupted = threading.Event()
    ended = threading.Event()  # the workers, by an interrupt

    def pool_workers() -> list[multiprocessing.process.BaseProcess]:
        return [child for child in multiprocessing.active_children() if child not in others]

    def interrupt(signum: int, frame: object) -> None:
        interrupted.set()
        for worker in pool_workers():
            worker.terminate()
            ended.set()

    progress = settings["progress"]

    def progress_or_stop(done: int, total: int) -> None:
        if interrupted.is_set() and not ended.is_set():  # else the broken pool stops it
            raise KeyboardInterrupt
        progress(done, total)

    with _interrupt_handler(interrupt):
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt)
        try:
            result = tournament(
                rules, agents, executor=pool, **{**settings, "progress": progress_or_stop}
            )
        except BaseException:
            _stop_pool(pool, pool_workers())
            if interrupted.is_set():
                raise KeyboardInterrupt from None  # not the failed chunks it caused
            raise
        pool.shutdown()
    if interrupted.is_set():  # as the last chunks finished: stop, with no table
        raise KeyboardInterrupt
    return result


def _ignore_interrupt() -> None:
    """Leave Ctrl-C to the main process, which stops the workers (run in each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _interrupt_handler(handler: Callable[[int, Any], None]) -> Iterator[None]:
    """Ctrl-C calls `handler` for a while (in the main thread; elsewhere it cannot come)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_pool(
    pool: ProcessPoolExecutor, workers: list[multiprocessing.process.BaseProcess]
) -> None:
    """Drop the chunks waiting and end the pool's `workers` now."""
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    pool.shutdown()


def _progress_bar(
    screen: _Screen, total: int
) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A progress display updated after every deal, and the function that removes it."""
    if screen.console is None:  # pragma: no cover - depends on the environment

        def plain(done: int, all_: int) -> None:
            if _is_open(sys.stderr):
                sys.stderr.write(f"\r{done}/{all_} deals")
                sys.stderr.flush()

        def end() -> None:
            if _is_open(sys.stderr):
                sys.stderr.write("\n")

        return plain, end
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("playing"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} deals"),
        TimeElapsedColumn(),
        console=screen.console,
        transient=True,
    )
    task = bar.add_task("playing", total=total)
    bar.start()
    return (lambda done, _: bar.update(task, completed=done)), bar.stop


# ----------------------------------------------------------------------------- replay


def _replay(args: argparse.Namespace, io_: _Io) -> int:
    match = _load(args.file)
    screen = io_.screen
    rules = match.rules
    step = not args.all and _is_terminal(sys.stdin) and screen.out.isatty()
    screen.say(
        f"{rules.name}, to {rules.target} points, first dealer {player_name(match.first_dealer)}",
        "bold",
    )
    if rules.stakes is not None:
        screen.wrap(f"Stakes: {_rules_field(rules, 'stakes')}.")
    if step:
        screen.say("Press Enter to see each play, or type q and Enter to stop.")
    hands = list(match.hands)
    ended_after_a_hand = match.is_over and match.abandonment is None and match.claim is None
    unfinished = [] if ended_after_a_hand else [None]
    for record in [*hands, *unfinished]:
        if record is None:
            number, deck, dealer = len(hands) + 1, match.deck, match.dealer
            plays = match.state.history
        else:
            number, deck, dealer, plays = record.number, record.deck, record.dealer, record.history
        state = GameState.new(rules, deck=deck, dealer=dealer)
        screen.say()
        screen.say(f"Hand {number}, dealer player {dealer}, deal {deck!s}", "bold")
        screen.say(f"  Table {cards_text(state.table)}")
        swept = _first_table_note(state)
        if swept is not None:
            screen.say(f"  {swept}")
        _board(screen, state, args.boards)
        for player, move in plays:
            if step and _read(io_, "(Enter, or q to stop) ").strip().lower().startswith("q"):
                return 0
            before = state
            state = state.apply(move)
            sweep = " Scopa!" if state.scope[player] > before.scope[player] else ""
            screen.say(f"  Player {player}: {move_text(move)}.{sweep}")
            if record is not None and state.is_terminal:
                left = _left_on_table(before, move, state)
                if left and state.last_capturer is not None and not state.table:
                    screen.say(
                        f"  The cards left on the table, {cards_text(left)}, go to player "
                        f"{state.last_capturer}, the last to capture."
                    )
            _board(screen, state, args.boards)
        if record is not None:
            _hand_end(screen, rules, hands[:number], scored=args.boards)
    screen.say()
    ending = ending_text(match)
    if ending is not None:
        screen.say(f"{ending[0].upper()}{ending[1:]}.")
    for line in _standing(rules, match.totals, match.settlement):
        screen.say(line)
    winner = match.winner
    if winner is not None:
        screen.say(f"Winner: {side_name(rules, winner)}", "bold")
    else:
        screen.say("The match is unfinished.")
    return 0


def _rules_field(rules: Rules, label: str) -> str:
    """One field of the rules in words, such as the `stakes`, on one line."""
    lines = rules_text(rules).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(f"{label} "))
    rest = lines[first + 1 :]
    more = next((i for i, line in enumerate(rest) if not line.startswith(" ")), len(rest))
    return " ".join(part.strip() for part in [lines[first][len(label) :], *rest[:more]])


def _board(screen: _Screen, state: GameState, shown: bool) -> None:
    """The picture of a position, with `--boards`."""
    if shown:
        screen.say()
        for line in state_text(state).splitlines():
            screen.say(line)
        screen.say()


def _hand_end(screen: _Screen, rules: Rules, hands: Sequence[HandRecord], *, scored: bool) -> None:
    """The score of the last of `hands`, then the points and stakes of the match after it.

    `scored`: the board of the hand's end, which shows its score, is already printed.
    """
    record = hands[-1]
    points = ", ".join(
        f"{side_name(rules, side)} {value}" for side, value in enumerate(record.points)
    )
    screen.say()
    screen.say(f"Hand {record.number} is over: {points}.", "bold")
    if not scored:
        screen.say(score_text(record.score, rules))
    totals = tuple(map(sum, zip(*(hand.points for hand in hands), strict=True)))
    stakes = rules.stakes
    won = None
    if stakes is not None:
        won = stakes.settle([hand.points for hand in hands], sides=rules.number_of_sides)
    for line in _standing(rules, totals, won):
        screen.say(f"  {line}")


def _standing(rules: Rules, totals: Sequence[int], won: Sequence[Fraction] | None) -> list[str]:
    """The points of the match and, under stakes, what each side has won."""
    names = [side_name(rules, side) for side in range(rules.number_of_sides)]
    lines = ["Points: " + ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True))]
    if won is not None:
        stakes = rules.stakes
        money = stakes if isinstance(stakes, BrilliEconomy) else BrilliEconomy()
        lines.append(
            "Brilli: "
            + ", ".join(f"{n} {money.format(w)}" for n, w in zip(names, won, strict=True))
        )
    return lines


# ----------------------------------------------------------------------------- rules


def _rules_command(args: argparse.Namespace, io_: _Io) -> int:
    screen = io_.screen
    if args.name is None:
        width = max(map(len, variant_names()))
        for name in variant_names():
            rules = find_variant(name)
            sides = (
                "each for self"
                if rules.number_of_sides == rules.players
                else f"in {rules.number_of_sides} sides"
            )
            screen.say(f"{name:<{width}} {rules.players} players {sides}, to {rules.target} points")
            aliases = textwrap.wrap(
                ", ".join(variant_aliases(name)),
                WIDTH,
                initial_indent=" " * width + " also: ",
                subsequent_indent=" " * (width + 7),
                break_on_hyphens=False,
            )
            for line in aliases:
                screen.say(line)
        return 0
    rules = _rules(args.name)
    screen.say(f"{rules.name} (also: {', '.join(variant_aliases(rules.name))})", "bold")
    for line in rules_text(rules).splitlines():
        screen.say(line)
    return 0


# ----------------------------------------------------------------------------- main


_AGENT_WORDS = (
    f"{', '.join(AGENTS)}; a trained policy file as policy:FILE; or an agent of your own as "
    "MODULE:NAME (a class, made with no arguments, a function that makes one, or an agent), "
    "imported with the current folder first, as python -m does"
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scopa",
        description="Scopa and its family: play, simulate, replay and read the rules.",
    )
    parser.add_argument("--version", action="version", version=f"scopa {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser(
        "play",
        help="play a match against the computer",
        description=(
            "Play a match against the computer: you are player 0, the computer plays every "
            "other seat. Type a card such as 7D to play it, help for help, quit to stop."
        ),
    )
    play.add_argument("--variant", help="the preset (default: classic)")
    play.add_argument(
        "--opponent",
        default="greedy",
        metavar="AGENT",
        help=f"the computer's agent: {_AGENT_WORDS} (default: greedy)",
    )
    play.add_argument(
        "--seed", type=int, default=None, help="the seed of the deals (default: a random one)"
    )
    play.add_argument("--resume", metavar="FILE", help="go on with a saved record")
    play.add_argument(
        "--no-clock", action="store_true", help="do not time the moves, whatever the rules say"
    )
    play.set_defaults(func=_play)
    simulate = commands.add_parser(
        "simulate",
        help="run a tournament between agents",
        description=(
            "Run a tournament between agents on paired deals, each deal played once per "
            "seating, and print each agent's results with 95% confidence intervals."
        ),
    )
    simulate.add_argument("--variant", default="classic", help="the preset (default: classic)")
    simulate.add_argument(
        "--agents",
        required=True,
        metavar="A,B",
        help=f"one agent per side, comma-separated: {_AGENT_WORDS}",
    )
    simulate.add_argument("--deals", type=int, required=True, help="paired deals to play")
    simulate.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    simulate.add_argument("--seed", type=int, default=0, help="the tournament's seed (default: 0)")
    simulate.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    simulate.set_defaults(func=_simulate)
    replay = commands.add_parser(
        "replay",
        help="step through a saved match record",
        description=(
            "Step through a saved match record, play by play (press Enter for each one), "
            "or print it all at once."
        ),
    )
    replay.add_argument("file", metavar="FILE", help="a record written by 'scopa play'")
    replay.add_argument("--all", action="store_true", help="print everything without pausing")
    replay.add_argument(
        "--boards", action="store_true", help="also draw the board after the deal and each play"
    )
    replay.set_defaults(func=_replay)
    rules = commands.add_parser(
        "rules",
        help="list the presets, or describe one",
        description="List the presets of rules, or describe one in words.",
    )
    rules.add_argument("name", nargs="?", help="a preset name or alias")
    rules.set_defaults(func=_rules_command)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    read: Reader | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Run the `scopa` command and return its exit status.

    Args:
        argv: the arguments (by default the command line's).
        read: answers the prompts (see [`Reader`][scopa.cli.Reader]); by default the lines
            of standard input, with a countdown when a move has a time limit.
        clock: the time in seconds, for the move clock.
    """
    return _main(argv, read, clock, console=False)


def _main(
    argv: Sequence[str] | None,
    read: Reader | None,
    clock: Callable[[], float],
    *,
    console: bool,
) -> int:
    """`main`; `console`: run as the command itself, which ignores Ctrl-C once it stops."""
    parser = _parser()
    args = parser.parse_args(argv)
    _tolerant(sys.stdout)
    _tolerant(sys.stderr)
    try:
        _check_streams(args, read)
        screen = _Screen(sys.stdout)
        io_ = _Io(screen, read if read is not None else _Keyboard(screen, clock), clock)
        with _module_path_kept():
            status: int = args.func(args, io_)
    except _UsageError as error:
        _fail(parser, str(error), 2)
    except (_DataError, ScopaError) as error:
        _fail(parser, str(error), 1)
    except (EOFError, KeyboardInterrupt, _Signalled) as error:
        if console:  # nothing is left to stop: a late Ctrl-C would end it with a traceback
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        why = f" ({error})" if isinstance(error, _Signalled) else ""
        _error_line(f"\n{parser.prog}: stopped{why}")
        _drop_output_if_gone()
        return 1
    except BrokenPipeError:
        # the reader went away (`scopa rules | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


def _check_streams(args: argparse.Namespace, read: Reader | None) -> None:
    """Refuse to run with standard output closed, or `play` with standard input closed."""
    if not _is_open(sys.stdout):
        raise _UsageError("standard output is closed: the command has nowhere to write")
    if read is None and args.func is _play and not _is_open(sys.stdin):
        raise _UsageError("standard input is closed: scopa play reads your moves from it")


def _is_open(stream: TextIO | None) -> bool:
    """Whether a standard stream is there to be used (a closed descriptor leaves `None`)."""
    return stream is not None and not stream.closed


def _is_terminal(stream: TextIO | None) -> bool:
    """Whether a standard stream is open on a terminal."""
    return _is_open(stream) and stream is not None and stream.isatty()


def _error_line(text: str) -> None:
    """Write a line on standard error, if there is one to write on."""
    if not _is_open(sys.stderr):
        return
    with contextlib.suppress(OSError):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _drop_output_if_gone() -> None:
    """Send what is left to write to nowhere when the terminal has gone (hung up).

    Otherwise the interpreter fails to write it as it exits, with another message and
    another exit status.
    """
    for stream in (sys.stdout, sys.stderr):
        if not _is_open(stream):
            continue
        assert stream is not None
        try:
            stream.flush()
        except OSError:
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _fail(parser: argparse.ArgumentParser, message: str, status: int) -> NoReturn:
    one_line = " ".join(message.split())
    _error_line(f"{parser.prog}: error: {one_line}")
    raise SystemExit(status)


def run() -> NoReturn:
    """The console entry point."""
    status = _main(None, None, time.monotonic, console=True)
    # The command is done: a late Ctrl-C (a second one as it stops) has nothing to stop, and
    # would only cut short the interpreter's exit with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise SystemExit(status)
