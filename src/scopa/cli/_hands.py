"""What the live screen of `scopa play` and `scopa replay` both say of a hand.

A first table swept as it was dealt, the cards left on the table after the last play and
who took them, and what the hand scored: said here once, for both, in the command's
language.
"""

from __future__ import annotations

from scopa._i18n import translation
from scopa.board import cards_text, player_name, score_text, side_name
from scopa.cards import Card, Rank
from scopa.cli._screen import capital
from scopa.match import HandRecord
from scopa.moves import Move
from scopa.rules import Rules
from scopa.state import GameState


def first_table_note(state: GameState, seat: int | None, lang: str) -> str | None:
    """Who swept a first table of 15 or 30 as the hand was dealt, if anyone did."""
    tr = translation(lang)
    for player, made in enumerate(state.scope):
        if made:
            swept = cards_text(state.piles[player])
            scope = tr.ngettext("a scopa", "{count} scope", made).format(count=made)
            if player == seat:
                note = tr.gettext("You sweep the first table, {cards}: {scope}.")
            else:
                note = tr.gettext("{player} sweeps the first table, {cards}: {scope}.")
            name = player_name(player, seat, lang=lang)
            return capital(note.format(player=name, cards=swept, scope=scope))
    return None


def leftovers(
    before: GameState, move: Move, final: GameState
) -> tuple[frozenset[Card], int | None]:
    """The cards the last play of a hand left on the table, and who took them.

    `final` is the hand's last state, `before` the one `move` was played in. Whoever took
    the cards is `None` when they stay on the table (or none was left).
    """
    rules = before.rules
    kept_by_player = bool(move.captured) or (
        rules.ace_on_empty_table_captures_itself
        and not before.table
        and move.card.rank == Rank.ASSO
    )
    played = frozenset() if kept_by_player else frozenset([move.card])
    left = (before.table - move.captured) | played
    return left, None if final.table or not left else final.last_capturer


def leftovers_note(
    before: GameState, move: Move, final: GameState, seat: int | None, lang: str
) -> str | None:
    """Where the cards left on the table after the last play of a hand went, if any was left."""
    tr = translation(lang)
    left, taker = leftovers(before, move, final)
    if not left:
        return None
    if taker is None:
        note = tr.gettext("The cards left on the table, {cards}, stay there.")
    elif taker == seat:
        note = tr.gettext("The cards left on the table, {cards}, go to you, the last to capture.")
    else:
        note = tr.gettext(
            "The cards left on the table, {cards}, go to {player}, the last to capture."
        )
    name = None if taker is None else player_name(taker, seat, lang=lang)
    return note.format(cards=cards_text(left), player=name)


def hand_over_note(rules: Rules, record: HandRecord, seat: int | None, lang: str) -> str:
    """The end of a hand with each side's points."""
    totals = ", ".join(
        f"{side_name(rules, side, seat, lang=lang)} {points}"
        for side, points in enumerate(record.points)
    )
    note = translation(lang).gettext("Hand {number} is over: {points}.")
    return note.format(number=record.number, points=totals)


def hand_score(rules: Rules, record: HandRecord, seat: int | None, lang: str) -> str:
    """The table of what a hand scored, category by category."""
    return score_text(record.score, rules, seat, lang=lang)
