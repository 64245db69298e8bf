"""The move the player of `scopa play` types: a card, a capture, a declaration, a claim."""

from __future__ import annotations

import math
from collections.abc import Sequence

from scopa.board import card_name, cards_text, declaration_text
from scopa.cards import Card
from scopa.cli._clock import MoveClock
from scopa.cli._errors import quoted
from scopa.cli._io import Io, number, read
from scopa.errors import ScopaError
from scopa.moves import Declaration, Move
from scopa.rules import Rules
from scopa.state import GameState

SUITS = "D denari (♦), C coppe (♥), S spade (♠), B bastoni (♣)"
"""The suits as they are typed."""

DECLARE_WORDS = (
    "With the first card of each deal you may declare your hand (busso: three cards under "
    "10, 3 points; tris: three of a kind, 10 points): you are asked when you may, or add "
    "@busso or @tris to the card (1D@busso). A declared hand is shown to everyone."
)
"""How to declare, under rules with declarations."""

_DECLARATION_RULES = {
    Declaration.BUSSO: "three cards adding up to less than 10",
    Declaration.TRIS: "three cards of one rank",
}


def claim_words(rules: Rules) -> str:
    """How to claim, under rules with claims (else nothing)."""
    if not rules.claim_out:
        return ""
    return (
        f"Add ! to a move (7D!) to claim that your side has reached {rules.target} points "
        "with it: a right claim wins the match at once, a wrong one loses it."
    )


class Refused(Exception):
    """A move the player typed that cannot be played; the message says why."""


class MoveTyping:
    """The questions that read the move of the player at `seat`, on the move's clock."""

    def __init__(self, io_: Io, clock: MoveClock, rules: Rules, seat: int) -> None:
        self.io = io_
        self.screen = io_.screen
        self.clock = clock
        self.rules = rules
        self.seat = seat

    def choose(self, state: GameState) -> Move | str:
        """The player's move, `"menu"` to stop, or `"time"` when the time ran out."""
        typed: str | None = None  # what was typed at the end of the help, if anything
        while True:
            text = typed if typed else self.clock.ask("Your move (a card such as 7D; help, quit): ")
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
                body, declaration, claim = announcement(text)
                self._check_claim(claim)
                options = self._options(state, body)
                chosen = options[0] if len(options) == 1 else self._choose_capture(options)
                if isinstance(chosen, Move):
                    return self._announced(state, chosen, declaration, claim)
            except (Refused, ScopaError) as error:
                self.screen.say(str(error), "red")
                continue
            if chosen is not None:
                return chosen

    def _check_claim(self, claim: bool) -> None:
        if claim and not self.rules.claim_out:
            raise Refused(f"There are no claims under the {self.rules.name} rules.")

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
            raise Refused(why_not_declared(state, declaration, self.seat))
        if declaration is None and allowed:
            chosen = self._choose_declaration(allowed)
            if not isinstance(chosen, Declaration | None):
                return chosen
            declaration = chosen
        return move.announced(declaration, claim=claim)

    def _choose_declaration(self, allowed: list[Declaration]) -> Declaration | str | None:
        """The declaration the player makes (`None` for none), or `"time"`."""
        self.screen.say("  0) declare nothing")
        for count, declaration in enumerate(allowed, 1):
            self.screen.say(f"  {count}) declare {declaration_text(declaration)}")
        while True:
            answer = self.clock.ask("Declare your hand? ")
            if answer is None:
                return "time"
            chosen = number(answer, len(allowed))
            if chosen is not None:
                return None if chosen == 0 else allowed[chosen - 1]
            self.screen.say(f"Choose one of the numbers 0 to {len(allowed)}.", "red")

    def _options(self, state: GameState, text: str) -> list[Move]:
        """The plain moves `text` may mean: a card alone, or a whole move such as `7Dx3C+4S`.

        A plain move has no declaration and no claim.
        """
        whole = "x" in text.lower()
        card = Move.parse(text).card if whole else Card.parse(text)
        hand = state.hands[self.seat]
        if card not in hand:
            raise Refused(
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
            raise Refused(f"You cannot play {card} now. Legal moves: {legal}")
        return options

    def _choose_capture(self, options: list[Move]) -> Move | str | None:
        """The capture chosen among `options`, `"time"`, or `None` to choose another card.

        The options are listed in the order of the legal moves.
        """
        for count, option in enumerate(options, 1):
            taken = cards_text(option.captured) if option.captured else "nothing (lay it down)"
            self.screen.say(f"  {count}) take {taken}")
        while True:
            answer = self.clock.ask("Which capture (Enter for another card)? ")
            if answer is None:
                return "time"
            if not answer:
                return None
            chosen = number(answer, len(options))
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
        say(f"  Suits: {SUITS}.")
        say("  So 1C is the Ace of coppe, and 7D the settebello. When the card can take")
        say("  different cards you are asked which; or type it all: 7Dx3C+4S.")
        rules = self.rules
        for words in (DECLARE_WORDS if rules.declarations else "", claim_words(rules)):
            if words:
                self.screen.wrap(words)
        plain = [m for m in state.legal_moves() if m.declaration is None and not m.claim]
        say("Legal moves: " + ", ".join(str(m) for m in plain))
        allowed = declarations_allowed(state.legal_moves())
        if allowed:
            say("You may declare now: " + " or ".join(declaration_text(d) for d in allowed))
        say("Type quit (or press Ctrl-C) to abandon or save the match.")
        if self.clock.deadline is not None:
            left = math.ceil(self.clock.deadline - self.io.clock())
            self.clock.pause()
            say(f"The clock stops while you read, with {left} s left for your move.")
            typed = read(self.io, "Press Enter to go back to your move, or type it now: ")
            self.clock.start()
            return typed.strip()
        return None


def announcement(text: str) -> tuple[str, Declaration | None, bool]:
    """A typed move split into the move, the declaration (`@busso`) and the claim (`!`)."""
    body = text.strip()
    claim = body.endswith("!")
    body, at, named = body.removesuffix("!").partition("@")
    if not at:
        return body.strip(), None, claim
    try:
        declaration = Declaration(named.strip().lower())
    except ValueError:
        raise Refused(
            f"Cannot declare {quoted(named)}: the declarations are @busso and @tris."
        ) from None
    return body.strip(), declaration, claim


def declarations_allowed(moves: Sequence[Move]) -> list[Declaration]:
    """The declarations some of `moves` make, in their order."""
    made = {move.declaration for move in moves}
    return [declaration for declaration in Declaration if declaration in made]


def why_not_declared(state: GameState, declaration: Declaration, seat: int) -> str:
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
