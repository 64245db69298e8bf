"""What the live screen of `scopa play` and `scopa replay` both say of a hand.

A first table swept as it was dealt, the cards left on the table after the last play and
who took them (as the library's hand records say), and what the hand scored: said here
once, for both, in the command's language.
"""

from __future__ import annotations

from scopa._i18n import translation
from scopa.board import cards_text, player_name, score_text, side_name
from scopa.cli._screen import capital
from scopa.match import HandRecord
from scopa.rules import Leftovers, Rules
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


def leftovers_note(rules: Rules, record: HandRecord, seat: int | None, lang: str) -> str | None:
    """Where the cards left on the table after the last play of a hand went, if any was left.

    The hand's record says which cards were left and who took them (as
    `GameState.leftover_cards` and `GameState.leftovers_taken_by` do); the rules'
    `leftovers` say why that player took them: as the last to capture, or as the dealer.
    """
    left, taker = record.leftover_cards, record.leftovers_taken_by
    if not left:
        return None
    tr = translation(lang)
    if taker is None:
        note = tr.gettext("The cards left on the table, {cards}, stay there.")
    elif rules.leftovers is Leftovers.DEALER and taker == seat:
        note = tr.gettext("The cards left on the table, {cards}, go to you, the dealer.")
    elif rules.leftovers is Leftovers.DEALER:
        note = tr.gettext("The cards left on the table, {cards}, go to {player}, the dealer.")
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
