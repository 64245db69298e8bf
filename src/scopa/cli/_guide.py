"""What `scopa play` says to teach itself: the introduction of a match, and the help."""

from __future__ import annotations

import gettext
from collections.abc import Sequence

from scopa._i18n import and_list, translation
from scopa.board import declaration_text
from scopa.cli._screen import wrapped
from scopa.moves import Declaration, Move
from scopa.rules import Rules
from scopa.state import GameState

SUITS = "D denari (♦), C coppe (♥), S spade (♠), B bastoni (♣)"
"""The suits as they are typed, in every language."""


def introduction(
    rules: Rules, opponent: str, seat: int, lang: str, *, clock_off: bool
) -> list[str]:
    """The paragraphs that say what is played, by whom, and how to type a move."""
    tr = translation(lang)
    mine = rules.side_of(seat)
    others = [p for p in range(rules.players) if p != seat]
    mates = [p for p in others if rules.side_of(p) == mine]
    if not mates:
        you = tr.gettext("You are player {number}; the computer ({agent}) plays {others}.")
    else:
        you = tr.ngettext(
            "You are player {number}, with {partners} as your partner; the computer ({agent}) "
            "plays {others}.",
            "You are player {number}, with {partners} as your partners; the computer ({agent}) "
            "plays {others}.",
            len(mates),
        )
    partners, played = _players(tr, mates), _players(tr, others)
    return [
        you.format(number=seat, partners=partners, agent=opponent, others=played),
        tr.gettext("Type a card as its rank and suit: 7D is the 7 of denari."),
        declare_words(tr) if rules.declarations else "",
        claim_words(rules, tr),
        _clock_words(rules, tr, clock_off=clock_off),
        tr.gettext("Type help for help, why for the reasons of a play, quit to stop."),
    ]


def help_lines(state: GameState, rules: Rules, lang: str) -> list[str]:
    """The help: how to type a move, the legal moves, how to ask why, how to stop."""
    tr = translation(lang)
    lines = [
        tr.gettext("Type the card you play: its rank, then its suit."),
        tr.gettext("  Ranks: 1 to 10, or A (Ace, 1), F (Fante, 8), C (Cavallo, 9), R (Re, 10)."),
        tr.gettext("  Suits: {suits}.").format(suits=SUITS),
        *wrapped(
            tr.gettext(
                "So 1C is the Ace of coppe, and 7D the settebello. When the card can take "
                "different cards you are asked which; or type it all: 7Dx3C+4S."
            ),
            "  ",
        ),
    ]
    for words in (declare_words(tr) if rules.declarations else "", claim_words(rules, tr)):
        lines += wrapped(words)
    plain = [m for m in state.legal_moves() if m.declaration is None and not m.claim]
    lines.append(tr.gettext("Legal moves: {moves}").format(moves=", ".join(map(str, plain))))
    allowed = declarations_allowed(state.legal_moves())
    if allowed:
        kinds = tr.gettext(" or ").join(declaration_text(d, lang=lang) for d in allowed)
        lines.append(tr.gettext("You may declare now: {declarations}").format(declarations=kinds))
    lines += wrapped(
        tr.gettext(
            "Type why to see why the last play was legal and what it took; why and a card or "
            "a move (why 7D, why 7Dx3C+4S) for a move you may make; why score for the score "
            "of the last hand."
        )
    )
    lines.append(tr.gettext("Type quit (or press Ctrl-C) to abandon or save the match."))
    return lines


def declare_words(tr: gettext.NullTranslations) -> str:
    """How to declare, under rules with declarations."""
    return tr.gettext(
        "With the first card of each deal you may declare your hand (busso: three cards "
        "under 10, 3 points; tris: three of a kind, 10 points): you are asked when you may, "
        "or add @busso or @tris to the card (1D@busso). A declared hand is shown to everyone."
    )


def claim_words(rules: Rules, tr: gettext.NullTranslations) -> str:
    """How to claim, under rules with claims (else nothing)."""
    if not rules.claim_out:
        return ""
    return tr.gettext(
        "Add ! to a move (7D!) to claim that your side has reached {target} points with it: "
        "a right claim wins the match at once, a wrong one loses it."
    ).format(target=rules.target)


def declarations_allowed(moves: Sequence[Move]) -> list[Declaration]:
    """The declarations some of `moves` make, in their order."""
    made = {move.declaration for move in moves}
    return [declaration for declaration in Declaration if declaration in made]


def _players(tr: gettext.NullTranslations, players: list[int]) -> str:
    """Players by number: `player 1`, `players 1, 2 and 3`."""
    numbers = and_list(tr, [str(p) for p in players])
    return tr.ngettext("player {numbers}", "players {numbers}", len(players)).format(
        numbers=numbers
    )


def _clock_words(rules: Rules, tr: gettext.NullTranslations, *, clock_off: bool) -> str:
    limit = rules.move_time_limit
    if limit is None:
        return ""
    if clock_off:
        words = tr.gettext(
            "The clock is off (--no-clock): the limit of {seconds} s a move is not applied."
        )
        return words.format(seconds=f"{limit:g}")
    return tr.gettext(
        "The clock runs: {seconds} s a move, from when the board is drawn. Under the {variant} "
        "rules a player who runs out of time, even once, abandons the whole match (start with "
        "--no-clock to play untimed). The clock stops while the help, an explanation or the "
        "quit menu is shown."
    ).format(seconds=f"{limit:g}", variant=rules.name)
