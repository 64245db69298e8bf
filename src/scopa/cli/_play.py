"""`scopa play`: a match against the computer, on a board redrawn in place or as plain text."""

from __future__ import annotations

import argparse
import random
import shutil

from scopa import __version__
from scopa.agents import MatchAgent
from scopa.board import (
    declaration_text,
    ending_text,
    match_summary,
    match_text,
    player_name,
    state_text,
)
from scopa.cli._agents import agent
from scopa.cli._clock import MoveClock
from scopa.cli._errors import DataError, UsageError, quoted
from scopa.cli._hands import hand_score
from scopa.cli._intro import introduction
from scopa.cli._io import Io, read, yes
from scopa.cli._log import PlayLog
from scopa.cli._records import Keeper, load
from scopa.cli._rules import find_rules
from scopa.cli._screen import wrapped
from scopa.cli._signals import Signalled, ending_signals
from scopa.cli._typing import SUITS, MoveTyping, declarations_allowed
from scopa.errors import ScopaError
from scopa.match import Match
from scopa.moves import Move
from scopa.stakes import AbandonReason
from scopa.state import GameState, view


def play(args: argparse.Namespace, io_: Io) -> int:
    """Run `scopa play` with its arguments."""
    if args.resume is not None:
        if args.variant is not None:
            raise UsageError("--variant does not go with --resume: the record has its rules")
        match = load(args.resume)
        if match.is_over:
            raise DataError(f"the match in {quoted(args.resume)} is over; see it with replay")
    else:
        rules = find_rules(args.variant or "classic")
        try:
            match = Match.new(rules, seed=args.seed)
        except ScopaError as error:
            raise UsageError(f"--seed: {error}") from None
    game = Game(io_, match, args.opponent, clock=not args.no_clock, seed=args.seed)
    with ending_signals():
        return game.run()


class Game:
    """A match of `scopa play`: you at seat 0, the computer in every other seat."""

    human = 0

    def __init__(
        self, io_: Io, match: Match, opponent: str, *, clock: bool, seed: int | None
    ) -> None:
        self.io = io_
        self.screen = io_.screen
        self.match = match
        self.opponent = opponent
        self.agent = agent(opponent, match.rules)
        self.rng = random.Random(seed)
        self.limit = match.rules.move_time_limit if clock else None
        self.clock_off = not clock and match.rules.move_time_limit is not None
        self.clock = MoveClock(io_, self.limit)
        self.typing = MoveTyping(io_, self.clock, match.rules, self.human)
        self.log = PlayLog(self.screen, self.human)
        self.keeper = Keeper(io_)
        self.greeting: list[str] = []  # the words of the introduction, for the first board
        self.stopped = False

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the match is over or the player stops.

        Raises:
            EOFError: the input ended; the record was offered for saving, or written to a
                recovery file when the offer could not be answered.
            KeyboardInterrupt: Ctrl-C in the menu; the same.
            Signalled: the terminal closed, or the command was told to end; the record
                was written to a recovery file at once.
        """
        try:
            self._introduce()
            self.log.recall(self.match)
            self._play()
            if self.match.is_over:
                self._finish()
        except (EOFError, KeyboardInterrupt):
            self._rescue(ask=True)
            raise
        except Signalled:
            self._rescue(ask=False)
            raise
        return 0

    def _play(self) -> None:
        while not self.match.is_over and not self.stopped:
            if self.match.awaiting_deal:
                self.screen.say("The record holds no deck for the next hand: the match stops.")
                break
            if self.match.hand_number != self.log.announced:
                self.log.note_deal(self.match.hand_number, self.match.state)
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
        words = introduction(rules, self.opponent, self.human, clock_off=self.clock_off)
        waits = self.limit is not None and self.screen.is_board
        if self.screen.is_board and not waits:
            self.greeting = [line for text in words for line in wrapped(text)]
            return
        words[1] += f" Suits: {SUITS}."
        self.screen.wrap(f"scopa {__version__}: {rules.name}, to {rules.target} points.", "bold")
        for text in words:
            self.screen.wrap(text)
        if waits:
            read(self.io, "Press Enter to start: the clock starts when the board is drawn. ")

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
        self.screen.say(f"Suits: {SUITS}.{' Clock: off.' if self.clock_off else ''}")
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
        for text, style in self.log.lines[-max(room, 3) :]:
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
        allowed = declarations_allowed(state.legal_moves())
        if allowed:
            kinds = " or ".join(declaration_text(d) for d in allowed)
            self.screen.say(f"You may declare your hand with this card: {kinds}.", "bold")
        self.clock.start()
        choice = self.typing.choose(state)
        if choice == "menu":
            self._menu()
        elif choice == "time":
            self._time_up(self.match.timeout())
        elif isinstance(choice, Move):
            self._apply(self.human, choice, self.clock.stop())

    # ------------------------------------------------------------------ playing a move

    def _apply(self, player: int, move: Move, elapsed: float | None) -> None:
        self.keeper.unsaved = self.keeper.unsaved or player == self.human
        before = self.match.state
        after = self.match.apply(move, elapsed=elapsed)
        if after.abandonment is not None:
            self._time_up(after)
            return
        self.match = after
        final = before.apply(move)  # the hand's last state, even when the next is dealt
        self.log.note_play(player, before, move, final)
        claim = after.claim
        if claim is not None:
            right = "right" if claim.correct else "wrong"
            self.log.note(f"The claim is {right}: the match is over.", "bold")
        elif final.is_terminal:
            self.log.note_hand_end(before, move, final, self.match.hands[-1])
            self._hand_over(final)

    def _hand_over(self, final: GameState) -> None:
        """Show the score of the hand just over, and wait for Enter on a terminal board."""
        record = self.match.hands[-1]
        if not self.screen.is_board:
            self.screen.say()
            self.screen.say(hand_score(self.match.rules, record, self.human))
            return
        summary = match_summary(self.match, self.human).split("\n", 1)
        if not self.match.is_over:  # the heading names the next hand, already dealt
            summary[0] = f"{summary[0].rsplit(', ', 1)[0]}, hand {record.number} over"
        self._draw("\n".join(summary) + f"\n\n{state_text(final, self.human)}")
        if not self.match.is_over:
            read(self.io, "Press Enter to deal the next hand. ")

    def _time_up(self, over: Match) -> None:
        assert self.limit is not None  # only a timed move runs out of time
        self.clock.stop()
        self.match = over
        self.keeper.unsaved = True
        self.log.note(
            f"Time is up: you took more than {self.limit:g} s, and under the "
            f"{over.rules.name} rules you abandon the match.",
            "bold red",
        )

    # ------------------------------------------------------------------ stopping

    def _menu(self) -> None:
        """Ctrl-C or quit: abandon, save and stop, or go on; the move's clock stops meanwhile."""
        self.clock.pause()
        while True:
            prompt = "Abandon the match (a), save it and stop (s), or continue (c)? "
            key = read(self.io, prompt).strip().lower()[:1]
            if key == "a":
                self.clock.stop()
                self.match = self.match.abandon(self.human, AbandonReason.VOLUNTARY)
                self.keeper.unsaved = True
                self.log.note("You abandon the match.", "bold")
                return
            if key == "s":
                self.clock.stop()
                self.stopped = True
                self.keeper.save(self.match)
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
        if yes(self.io, "Save the match record? [y/N] "):
            self.keeper.save(self.match)

    def _rescue(self, *, ask: bool) -> None:
        """Before the command stops, keep the match (see `Keeper.rescue`)."""
        self.clock.stop()
        self.keeper.rescue(self.match, ask=ask)
