"""The words that start a match of `scopa play`: who plays, how to type, the clock."""

from __future__ import annotations

from scopa.cli._typing import DECLARE_WORDS, claim_words
from scopa.rules import Rules


def introduction(rules: Rules, opponent: str, seat: int, *, clock_off: bool) -> list[str]:
    """The paragraphs that say what is played, by whom, and how to type a move."""
    return [
        f"You are player {seat}{_partners(rules, seat)}; the computer ({opponent}) "
        f"plays {_others(rules, seat)}.",
        "Type a card as its rank and suit: 7D is the 7 of denari.",
        DECLARE_WORDS if rules.declarations else "",
        claim_words(rules),
        _clock_words(rules, clock_off=clock_off),
        "Type help for help, quit to stop.",
    ]


def _partners(rules: Rules, seat: int) -> str:
    mine = rules.side_of(seat)
    mates = [p for p in range(rules.players) if p != seat and rules.side_of(p) == mine]
    if not mates:
        return ""
    names = " and ".join(f"player {p}" for p in mates)
    return f", with {names} as your partner{'s' if len(mates) > 1 else ''}"


def _others(rules: Rules, seat: int) -> str:
    others = [str(p) for p in range(rules.players) if p != seat]
    if len(others) == 1:
        return f"player {others[0]}"
    return f"players {', '.join(others[:-1])} and {others[-1]}"


def _clock_words(rules: Rules, *, clock_off: bool) -> str:
    limit = rules.move_time_limit
    if limit is None:
        return ""
    if clock_off:
        return f"The clock is off (--no-clock): the limit of {limit:g} s a move is not applied."
    return (
        f"The clock runs: {limit:g} s a move, from when the board is drawn. Under the "
        f"{rules.name} rules a player who runs out of time, even once, abandons the whole "
        "match (start with --no-clock to play untimed). The clock stops while the help or "
        "the quit menu is shown."
    )
