"""`scopa play`: a match against the computer, on a board redrawn in place or as plain text."""

from __future__ import annotations

import argparse
import random

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
from scopa.cli._board import Board
from scopa.cli._clock import MoveClock
from scopa.cli._errors import DataError, UsageError, quoted
from scopa.cli._guide import SUITS, declarations_allowed, introduction
from scopa.cli._hands import hand_score
from scopa.cli._io import Io, read, yes
from scopa.cli._log import PlayLog
from scopa.cli._records import Keeper, load
from scopa.cli._rules import find_rules
from scopa.cli._screen import capital, wrapped
from scopa.cli._signals import Signalled, ending_signals
from scopa.cli._typing import MoveTyping
from scopa.cli._why import asks_why, score_lines
from scopa.errors import ScopaError
from scopa.match import Match
from scopa.moves import Move
from scopa.stakes import AbandonReason
from scopa.state import GameState, view


def play(args: argparse.Namespace, io_: Io) -> int:
    """Run `scopa play` with its arguments."""
    tr = io_.tr
    if args.resume is not None:
        if args.variant is not None:
            raise UsageError(
                tr.gettext("--variant does not go with --resume: the record has its rules")
            )
        match = load(args.resume, tr)
        if match.is_over:
            over = tr.gettext("the match in {file} is over; see it with replay")
            raise DataError(over.format(file=quoted(args.resume)))
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
        self.tr = io_.tr
        self.lang = io_.lang
        self.screen = io_.screen
        self.match = match
        self.opponent = opponent
        self.agent = agent(opponent, match.rules, self.tr)
        self.rng = random.Random(seed)
        self.limit = match.rules.move_time_limit if clock else None
        self.clock_off = not clock and match.rules.move_time_limit is not None
        self.clock = MoveClock(io_, self.limit)
        self.log = PlayLog(self.screen, self.human, self.lang)
        self.typing = MoveTyping(io_, self.clock, match.rules, self.human, self.log)
        self.keeper = Keeper(io_)
        self.board = Board(
            self.screen,
            self.log,
            match.rules,
            opponent,
            limit=self.limit,
            clock_off=self.clock_off,
        )
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
                self.screen.say(
                    self.tr.gettext("The record holds no deck for the next hand: the match stops.")
                )
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
        tr, rules = self.tr, self.match.rules
        words = introduction(rules, self.opponent, self.human, self.lang, clock_off=self.clock_off)
        waits = self.limit is not None and self.screen.is_board
        if self.screen.is_board and not waits:
            self.board.greeting = [line for text in words for line in wrapped(text)]
            return
        words[1] += " " + tr.gettext("Suits: {suits}.").format(suits=SUITS)
        title = tr.gettext("scopa {version}: {variant}, to {target} points.")
        self.screen.wrap(
            title.format(version=__version__, variant=rules.name, target=rules.target), "bold"
        )
        for text in words:
            self.screen.wrap(text)
        if waits:
            read(
                self.io,
                tr.gettext("Press Enter to start: the clock starts when the board is drawn. "),
            )

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
        self.board.draw(match_text(self.match, self.human, lang=self.lang))
        state = self.match.state
        allowed = declarations_allowed(state.legal_moves())
        if allowed:
            kinds = self.tr.gettext(" or ").join(
                declaration_text(d, lang=self.lang) for d in allowed
            )
            may = self.tr.gettext("You may declare your hand with this card: {declarations}.")
            self.screen.say(may.format(declarations=kinds), "bold")
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
            if claim.correct:
                said = self.tr.gettext("The claim is right: the match is over.")
            else:
                said = self.tr.gettext("The claim is wrong: the match is over.")
            self.log.note(said, "bold")
        elif final.is_terminal:
            self.log.note_hand_end(final, self.match.hands[-1])
            self._hand_over(final)

    def _hand_over(self, final: GameState) -> None:
        """Show the score of the hand just over, and wait for Enter on a terminal board.

        There, `why` shows the reasons of the score before the next hand is dealt.
        """
        record = self.match.hands[-1]
        if not self.screen.is_board:
            self.screen.say()
            self.screen.say(hand_score(self.match.rules, record, self.human, self.lang))
            return
        summary = match_summary(self.match, self.human, lang=self.lang).split("\n", 1)
        if not self.match.is_over:  # the heading names the next hand, already dealt
            over = self.tr.gettext("{match}, hand {number} over")
            summary[0] = over.format(match=summary[0].rsplit(", ", 1)[0], number=record.number)
        self.board.draw("\n".join(summary) + f"\n\n{state_text(final, self.human, lang=self.lang)}")
        if self.match.is_over:
            return
        prompt = self.tr.gettext(
            "Press Enter to deal the next hand, or type why for the reasons of the score. "
        )
        while asks_why(read(self.io, prompt)) is not None:
            for line in score_lines(final, self.lang):
                self.screen.say(line)
            prompt = self.tr.gettext("Press Enter to deal the next hand. ")

    def _time_up(self, over: Match) -> None:
        assert self.limit is not None  # only a timed move runs out of time
        self.clock.stop()
        self.match = over
        self.keeper.unsaved = True
        up = self.tr.gettext(
            "Time is up: you took more than {seconds} s, and under the {variant} rules you "
            "abandon the match."
        )
        self.log.note(up.format(seconds=f"{self.limit:g}", variant=over.rules.name), "bold red")

    # ------------------------------------------------------------------ stopping

    def _menu(self) -> None:
        """Ctrl-C or quit: abandon, save and stop, or go on; the move's clock stops meanwhile."""
        tr = self.tr
        self.clock.pause()
        while True:
            prompt = tr.gettext("Abandon the match (a), save it and stop (s), or continue (c)? ")
            key = read(self.io, prompt).strip().lower()[:1]
            if key == tr.pgettext("menu key", "a"):
                self.clock.stop()
                self.match = self.match.abandon(self.human, AbandonReason.VOLUNTARY)
                self.keeper.unsaved = True
                self.log.note(tr.gettext("You abandon the match."), "bold")
                return
            if key == tr.pgettext("menu key", "s"):
                self.clock.stop()
                self.stopped = True
                self.keeper.save(self.match)
                return
            if key == tr.pgettext("menu key", "c"):
                return
            self.screen.say(tr.gettext("Answer a, s or c."), "red")

    def _finish(self) -> None:
        tr, rules = self.tr, self.match.rules
        if self.screen.is_board:
            self.board.draw(match_text(self.match, self.human, lang=self.lang))
        else:  # the position is already on the screen
            self.board.draw(match_summary(self.match, self.human, lang=self.lang))
        totals = " - ".join(map(str, self.match.totals))
        abandonment = self.match.abandonment
        if abandonment is not None and abandonment.player == self.human:
            verdict = tr.gettext("You abandoned: the computer wins.")
        elif abandonment is not None:
            verdict = tr.gettext("{player} abandoned: you win!")
        elif self.match.winner != rules.side_of(self.human):
            verdict = tr.gettext("The computer wins. {totals}")
        elif rules.number_of_sides == rules.players:
            verdict = tr.gettext("You win! {totals}")
        else:
            verdict = tr.gettext("Your side wins! {totals}")
        quitter = None if abandonment is None else abandonment.player
        name = None if quitter is None else player_name(quitter, self.human, lang=self.lang)
        ending = ending_text(self.match, self.human, lang=self.lang)
        if ending is not None and abandonment is None:
            self.screen.say(capital(ending) + ".", "bold")
        self.screen.say(capital(verdict.format(player=name, totals=totals)), "bold")
        if yes(self.io, tr.gettext("Save the match record? [y/N] ")):
            self.keeper.save(self.match)

    def _rescue(self, *, ask: bool) -> None:
        """Before the command stops, keep the match (see `Keeper.rescue`)."""
        self.clock.stop()
        self.keeper.rescue(self.match, ask=ask)
