"""The explanations the command shows on request, from `scopa.explain`.

In `scopa play`, `why` explains the last play, `why 7D` or `why 7Dx3C+4S` a move the player
may make now, and `why score` what the last hand scored; at the end of a hand on a
terminal, `why` explains its score. `scopa replay --why` explains every play and every
hand's score.
"""

from __future__ import annotations

import textwrap

from scopa._i18n import translation
from scopa.board import WIDTH
from scopa.cards import Card
from scopa.cli._errors import unreadable
from scopa.errors import NotationError
from scopa.explain import Explanation, explain_move, explain_score
from scopa.moves import Move
from scopa.state import GameState, PlayerView

WHY_WORDS = ("why", "perché", "perche")
"""The words that ask for an explanation, in every language the command speaks."""

SCORE_WORDS = ("score", "punti", "punteggio")
"""The words after `why` that ask for the explanation of a score."""


def asks_why(text: str) -> str | None:
    """What is asked after `why` in a typed answer (`""` for `why` alone), or `None`."""
    word, _, rest = text.strip().partition(" ")
    return rest.strip() if word.lower() in WHY_WORDS else None


def lines(explanation: Explanation, indent: str = "") -> list[str]:
    """An explanation as lines of the pictures' width: its summary, then each reason."""
    found = []
    for line in str(explanation).splitlines():
        more = indent + "  " if line.startswith("- ") else indent
        found += textwrap.wrap(
            line, WIDTH, initial_indent=indent, subsequent_indent=more, break_on_hyphens=False
        )
    return found


def play_lines(before: GameState, move: Move, lang: str, indent: str = "") -> list[str]:
    """Why a move that was played was legal, what it took, and what followed from it."""
    return lines(explain_move(before, move, lang=lang), indent)


def score_lines(final: GameState | PlayerView, lang: str, indent: str = "") -> list[str]:
    """What each category of a hand's score came to (so far, before its end)."""
    return lines(explain_score(final, lang=lang), indent)


def asked_lines(
    seen: PlayerView,
    asked: str,
    last_play: tuple[GameState, Move] | None,
    last_hand: GameState | None,
    lang: str,
) -> list[str]:
    """The explanation asked for after `why`, from the player's `seen` view.

    `why` alone explains the `last_play` (the state it was played in, and the move);
    `why score` the score of the `last_hand` to end (its last position), or of this hand so
    far when none has ended; `why` and a move, that move (see `move_lines`).

    Raises:
        Refused: the text is not a card or a move.
    """
    if not asked:
        if last_play is None:
            return [translation(lang).gettext("No card has been played yet.")]
        return play_lines(*last_play, lang)
    if asked.lower() in SCORE_WORDS:
        return score_lines(last_hand if last_hand is not None else seen, lang)
    return move_lines(seen, asked, lang)


def move_lines(seen: PlayerView, text: str, lang: str) -> list[str]:
    """Why a move typed after `why` is legal or refused, in the player's `seen` view.

    A card alone (`7D`) means the move the card makes now, as at the move's prompt: its
    capture (the first in the order of `legal_moves`, when it may choose, whose reasons
    list the others) or laying it down; or the card laid down when it cannot be played. A
    whole move (`7Dx3C+4S`, `2D@busso`, `7D!`) is explained as it is written.

    Raises:
        Refused: the text is not a card or a move.
    """
    tr = translation(lang)
    whole = any(mark in text.lower() for mark in "x@!")
    try:
        move = Move.parse(text) if whole else _card_move(seen, Card.parse(text))
    except NotationError:
        raise unreadable(text, whole, tr) from None
    return lines(explain_move(seen, move, lang=lang))


def _card_move(seen: PlayerView, card: Card) -> Move:
    """The first plain move a card may make now, or the card laid down when it makes none."""
    options = (
        move
        for move in seen.legal_moves()
        if move.card == card and move.declaration is None and not move.claim
    )
    return next(options, Move(card))
