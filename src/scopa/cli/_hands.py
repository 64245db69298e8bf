"""What the live screen of `scopa play` and `scopa replay` both say of a hand.

A first table swept as it was dealt, the cards left on the table after the last play and
who took them, and what the hand scored: said here once, for both.
"""

from __future__ import annotations

from scopa.board import cards_text, player_name, score_text, side_name
from scopa.cards import Card, Rank
from scopa.match import HandRecord
from scopa.moves import Move
from scopa.rules import Rules
from scopa.state import GameState


def first_table_note(state: GameState, seat: int | None = None) -> str | None:
    """Who swept a first table of 15 or 30 as the hand was dealt, if anyone did."""
    for player, made in enumerate(state.scope):
        if made:
            name = player_name(player, seat)
            swept = cards_text(state.piles[player])
            noun = "a scopa" if made == 1 else f"{made} scope"
            return f"{name.capitalize()} {verb('sweep', name)} the first table, {swept}: {noun}."
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
    before: GameState, move: Move, final: GameState, seat: int | None = None
) -> str | None:
    """Where the cards left on the table after the last play of a hand went, if any was left."""
    left, taker = leftovers(before, move, final)
    if not left:
        return None
    if taker is None:
        return f"The cards left on the table, {cards_text(left)}, stay there."
    return (
        f"The cards left on the table, {cards_text(left)}, go to {player_name(taker, seat)}, "
        "the last to capture."
    )


def hand_over_note(rules: Rules, record: HandRecord, seat: int | None = None) -> str:
    """The end of a hand with each side's points."""
    totals = ", ".join(
        f"{side_name(rules, side, seat)} {points}" for side, points in enumerate(record.points)
    )
    return f"Hand {record.number} is over: {totals}."


def hand_score(rules: Rules, record: HandRecord, seat: int | None = None) -> str:
    """The table of what a hand scored, category by category."""
    return score_text(record.score, rules, seat)


def verb(verb: str, subject: str) -> str:
    """`deal` for you, `deals` for anyone else."""
    return verb if subject == "you" else f"{verb}s"
