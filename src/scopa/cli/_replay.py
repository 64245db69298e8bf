"""`scopa replay`: a saved match record, play by play, or all at once."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from fractions import Fraction

from scopa.board import (
    cards_text,
    ending_text,
    move_text,
    player_name,
    rules_text,
    side_name,
    state_text,
)
from scopa.cli._hands import first_table_note, hand_over_note, hand_score, leftovers_note
from scopa.cli._io import Io, read
from scopa.cli._records import load
from scopa.cli._screen import Screen
from scopa.cli._streams import is_terminal
from scopa.match import HandRecord
from scopa.rules import Rules
from scopa.stakes import BrilliEconomy
from scopa.state import GameState


def replay(args: argparse.Namespace, io_: Io) -> int:
    """Run `scopa replay` with its arguments."""
    match = load(args.file)
    screen = io_.screen
    rules = match.rules
    step = not args.all and is_terminal(sys.stdin) and screen.out.isatty()
    screen.say(
        f"{rules.name}, to {rules.target} points, first dealer {player_name(match.first_dealer)}",
        "bold",
    )
    if rules.stakes is not None:
        screen.wrap(f"Stakes: {_rules_field(rules, 'stakes')}.")
    if step:
        screen.say("Press Enter to see each play, or type q and Enter to stop.")
    hands = list(match.hands)
    ended_after_a_hand = match.is_over and match.abandonment is None and match.claim is None
    unfinished = [] if ended_after_a_hand else [None]
    for record in [*hands, *unfinished]:
        if record is None:
            number, deck, dealer = len(hands) + 1, match.deck, match.dealer
            plays = match.state.history
        else:
            number, deck, dealer, plays = record.number, record.deck, record.dealer, record.history
        state = GameState.new(rules, deck=deck, dealer=dealer)
        screen.say()
        screen.say(f"Hand {number}, dealer player {dealer}, deal {deck!s}", "bold")
        screen.say(f"  Table {cards_text(state.table)}")
        swept = first_table_note(state)
        if swept is not None:
            screen.say(f"  {swept}")
        _board(screen, state, args.boards)
        for player, move in plays:
            if step and read(io_, "(Enter, or q to stop) ").strip().lower().startswith("q"):
                return 0
            before = state
            state = state.apply(move)
            sweep = " Scopa!" if state.scope[player] > before.scope[player] else ""
            screen.say(f"  Player {player}: {move_text(move)}.{sweep}")
            if record is not None and state.is_terminal:
                left = leftovers_note(before, move, state)
                if left is not None:
                    screen.say(f"  {left}")
            _board(screen, state, args.boards)
        if record is not None:
            _hand_end(screen, rules, hands[:number], scored=args.boards)
    screen.say()
    ending = ending_text(match)
    if ending is not None:
        screen.say(f"{ending[0].upper()}{ending[1:]}.")
    for line in _standing(rules, match.totals, match.settlement):
        screen.say(line)
    winner = match.winner
    if winner is not None:
        screen.say(f"Winner: {side_name(rules, winner)}", "bold")
    else:
        screen.say("The match is unfinished.")
    return 0


def _rules_field(rules: Rules, label: str) -> str:
    """One field of the rules in words, such as the `stakes`, on one line."""
    lines = rules_text(rules).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(f"{label} "))
    rest = lines[first + 1 :]
    more = next((i for i, line in enumerate(rest) if not line.startswith(" ")), len(rest))
    return " ".join(part.strip() for part in [lines[first][len(label) :], *rest[:more]])


def _board(screen: Screen, state: GameState, shown: bool) -> None:
    """The picture of a position, with `--boards`."""
    if shown:
        screen.say()
        for line in state_text(state).splitlines():
            screen.say(line)
        screen.say()


def _hand_end(screen: Screen, rules: Rules, hands: Sequence[HandRecord], *, scored: bool) -> None:
    """The score of the last of `hands`, then the points and stakes of the match after it.

    `scored`: the board of the hand's end, which shows its score, is already printed.
    """
    record = hands[-1]
    screen.say()
    screen.say(hand_over_note(rules, record), "bold")
    if not scored:
        screen.say(hand_score(rules, record))
    totals = tuple(map(sum, zip(*(hand.points for hand in hands), strict=True)))
    stakes = rules.stakes
    won = None
    if stakes is not None:
        won = stakes.settle([hand.points for hand in hands], sides=rules.number_of_sides)
    for line in _standing(rules, totals, won):
        screen.say(f"  {line}")


def _standing(rules: Rules, totals: Sequence[int], won: Sequence[Fraction] | None) -> list[str]:
    """The points of the match and, under stakes, what each side has won."""
    names = [side_name(rules, side) for side in range(rules.number_of_sides)]
    lines = ["Points: " + ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True))]
    if won is not None:
        stakes = rules.stakes
        money = stakes if isinstance(stakes, BrilliEconomy) else BrilliEconomy()
        lines.append(
            "Brilli: "
            + ", ".join(f"{n} {money.format(w)}" for n, w in zip(names, won, strict=True))
        )
    return lines
