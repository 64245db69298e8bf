"""The move the player of `scopa play` types: a card, a capture, a declaration, a claim."""

from __future__ import annotations

import functools
import gettext
import math
from collections.abc import Callable

from scopa.board import card_name, cards_text, declaration_text
from scopa.cards import Card
from scopa.cli._clock import MoveClock
from scopa.cli._errors import Refused, quoted, unreadable
from scopa.cli._guide import help_lines
from scopa.cli._io import Io, number, read
from scopa.cli._log import PlayLog
from scopa.cli._why import asked_lines, asks_why
from scopa.errors import IllegalMoveError, NotationError, ScopaError
from scopa.explain import explain_move
from scopa.moves import Declaration, Move
from scopa.rules import Rules
from scopa.state import GameState, view

HELP_WORDS = ("help", "h", "?", "aiuto")
QUIT_WORDS = ("quit", "q", "esci")
"""The words that ask for the help and the menu, in every language the command speaks."""


class MoveTyping:
    """The questions that read the move of the player at `seat`, on the move's clock.

    The `log` of the plays gives the last play and hand, which `why` explains.
    """

    def __init__(self, io_: Io, clock: MoveClock, rules: Rules, seat: int, log: PlayLog) -> None:
        self.io = io_
        self.tr = io_.tr
        self.screen = io_.screen
        self.clock = clock
        self.rules = rules
        self.seat = seat
        self.log = log

    def choose(self, state: GameState) -> Move | str:
        """The player's move, `"menu"` to stop, or `"time"` when the time ran out."""
        prompt = self.tr.gettext("Your move (a card such as 7D; help, why, quit): ")
        typed: str | None = None  # what was typed at the end of the help, if anything
        while True:
            text = typed if typed else self.clock.ask(prompt)
            typed = None
            if text is None:
                return "time"
            word = text.lower()
            if word in QUIT_WORDS:
                return "menu"
            if word in HELP_WORDS:
                typed = self._aside(functools.partial(self._help, state))
                continue
            asked = asks_why(text)
            if asked is not None:
                typed = self._aside(functools.partial(self._why, state, asked))
                continue
            if not text:
                continue
            try:
                body, declaration, claim = announcement(text, self.tr)
                self._check_claim(claim)
                options = self._options(state, body)
                chosen = options[0] if len(options) == 1 else self._choose_capture(options)
                if isinstance(chosen, Move):
                    return self._announced(state, chosen, declaration, claim)
            except (Refused, ScopaError) as error:
                for line in str(error).splitlines():
                    self.screen.say(line, "red")
                continue
            if chosen is not None:
                return chosen

    def _check_claim(self, claim: bool) -> None:
        if claim and not self.rules.claim_out:
            why = self.tr.gettext("There are no claims under the {variant} rules.")
            raise Refused(why.format(variant=self.rules.name))

    def _announced(
        self, state: GameState, move: Move, declaration: Declaration | None, claim: bool
    ) -> Move | str:
        """The move with the declaration typed or chosen now, and the claim if typed.

        Raises:
            Refused: the typed declaration cannot be made with this move.
        """
        legal = state.legal_moves()
        allowed = [d for d in Declaration if move.announced(d) in legal]
        if declaration is not None and declaration not in allowed:
            raise Refused(why_not_declared(state, declaration, self.seat, self.tr))
        if declaration is None and allowed:
            chosen = self._choose_declaration(allowed)
            if not isinstance(chosen, Declaration | None):
                return chosen
            declaration = chosen
        return move.announced(declaration, claim=claim)

    def _choose_declaration(self, allowed: list[Declaration]) -> Declaration | str | None:
        """The declaration the player makes (`None` for none), or `"time"`."""
        tr, lang = self.tr, self.io.lang
        self.screen.say(tr.gettext("  0) declare nothing"))
        for count, declaration in enumerate(allowed, 1):
            option = tr.gettext("  {number}) declare {declaration}")
            kind = declaration_text(declaration, lang=lang)
            self.screen.say(option.format(number=count, declaration=kind))
        while True:
            answer = self.clock.ask(tr.gettext("Declare your hand? "))
            if answer is None:
                return "time"
            chosen = number(answer, len(allowed))
            if chosen is not None:
                return None if chosen == 0 else allowed[chosen - 1]
            self.screen.say(_numbers(tr, 0, len(allowed)), "red")

    def _options(self, state: GameState, text: str) -> list[Move]:
        """The plain moves `text` may mean: a card alone, or a whole move such as `7Dx3C+4S`.

        A plain move has no declaration and no claim.

        Raises:
            Refused: the text is not a card or a move, or not one the player may play.
        """
        tr = self.tr
        whole = "x" in text.lower()
        card = _typed_card(text, whole, tr)
        hand = state.hands[self.seat]
        if card not in hand:
            why = tr.gettext("You do not hold {card}, {name}. Your cards: {cards}")
            name = card_name(card, lang=self.io.lang)
            raise Refused(why.format(card=card, name=name, cards=cards_text(hand)))
        if whole:
            try:
                return [state.parse_move(text)]
            except IllegalMoveError as error:
                raise Refused(self._refusal(state, text, error)) from None
        options = [
            move
            for move in state.legal_moves()
            if move.card == card and move.declaration is None and not move.claim
        ]
        if not options:
            legal = ", ".join(map(str, state.legal_moves()))
            why = tr.gettext("You cannot play {card} now. Legal moves: {moves}")
            raise Refused(why.format(card=card, moves=legal))
        return options

    def _refusal(self, state: GameState, text: str, error: IllegalMoveError) -> str:
        """Why a whole move typed is refused, in the reasons of `scopa.explain`.

        Each reason cites the rule; the library's message stands when it gives none.
        """
        explained = explain_move(view(state, self.seat), Move.parse(text), lang=self.io.lang)
        return "\n".join(map(str, explained.reasons)) or str(error)

    def _choose_capture(self, options: list[Move]) -> Move | str | None:
        """The capture chosen among `options`, `"time"`, or `None` to choose another card.

        The options are listed in the order of the legal moves.
        """
        tr = self.tr
        for count, option in enumerate(options, 1):
            if option.captured:
                line = tr.gettext("  {number}) take {cards}")
            else:
                line = tr.gettext("  {number}) take nothing (lay it down)")
            self.screen.say(line.format(number=count, cards=cards_text(option.captured)))
        while True:
            answer = self.clock.ask(tr.gettext("Which capture (Enter for another card)? "))
            if answer is None:
                return "time"
            if not answer:
                return None
            chosen = number(answer, len(options))
            if chosen is not None and chosen >= 1:
                return options[chosen - 1]
            self.screen.say(_numbers(tr, 1, len(options)), "red")

    def _aside(self, show: Callable[[], None]) -> str | None:
        """Show the help or an explanation; what was typed to go back, while the clock runs.

        The clock stops while the player reads: they press Enter to go back to the move, or
        type the move there, which is taken as typed at the move's own prompt.
        """
        show()
        if self.clock.deadline is None:
            return None
        left = math.ceil(self.clock.deadline - self.io.clock())
        self.clock.pause()
        stops = self.tr.gettext(
            "The clock stops while you read, with {seconds} s left for your move."
        )
        self.screen.say(stops.format(seconds=left))
        prompt = self.tr.gettext("Press Enter to go back to your move, or type it now: ")
        typed = read(self.io, prompt)
        self.clock.start()
        return typed.strip()

    def _help(self, state: GameState) -> None:
        """Show the help: how to type a move, the legal moves, how to ask why, how to stop."""
        for line in help_lines(state, self.rules, self.io.lang):
            self.screen.say(line)

    def _why(self, state: GameState, asked: str) -> None:
        """Show the explanation asked for after `why` (see `scopa.cli._why`)."""
        log = self.log
        try:
            found = asked_lines(
                view(state, self.seat), asked, log.last_play, log.last_hand, self.io.lang
            )
        except Refused as error:
            self.screen.say(str(error), "red")
            return
        for line in found:
            self.screen.say(line)


def _typed_card(text: str, whole: bool, tr: gettext.NullTranslations) -> Card:
    """The card a typed move plays.

    Raises:
        Refused: the text is not a card (or, `whole`, a move).
    """
    try:
        return Move.parse(text).card if whole else Card.parse(text)
    except NotationError:
        raise unreadable(text, whole, tr) from None


def _numbers(tr: gettext.NullTranslations, least: int, most: int) -> str:
    return tr.gettext("Choose one of the numbers {least} to {most}.").format(least=least, most=most)


def announcement(text: str, tr: gettext.NullTranslations) -> tuple[str, Declaration | None, bool]:
    """A typed move split into the move, the declaration (`@busso`) and the claim (`!`).

    Raises:
        Refused: the declaration is not one of the game's.
    """
    body = text.strip()
    claim = body.endswith("!")
    body, at, named = body.removesuffix("!").partition("@")
    if not at:
        return body.strip(), None, claim
    try:
        declaration = Declaration(named.strip().lower())
    except ValueError:
        why = tr.gettext("Cannot declare {name}: the declarations are @busso and @tris.")
        raise Refused(why.format(name=quoted(named))) from None
    return body.strip(), declaration, claim


def why_not_declared(
    state: GameState, declaration: Declaration, seat: int, tr: gettext.NullTranslations
) -> str:
    """Why the player at `seat` cannot make `declaration` now."""
    rules = state.rules
    if not rules.declarations:
        why = tr.gettext("There are no declarations under the {variant} rules.")
        return why.format(variant=rules.name)
    hand = state.hands[seat]
    if len(hand) != rules.hand_size:
        return tr.gettext("You may declare only with the first card of a deal.")
    if declaration is Declaration.BUSSO:
        why = tr.gettext("Your hand {cards} is not a busso: three cards adding up to less than 10.")
    else:
        why = tr.gettext("Your hand {cards} is not a tris: three cards of one rank.")
    return why.format(cards=cards_text(hand))
