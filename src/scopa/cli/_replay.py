"""`scopa replay`: a saved match record, play by play, or all at once."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from fractions import Fraction

from scopa._i18n import translation
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
from scopa.cli._screen import capital
from scopa.cli._streams import is_terminal
from scopa.cli._why import play_lines, score_lines
from scopa.match import HandRecord, Match
from scopa.rules import Rules
from scopa.stakes import BrilliEconomy
from scopa.state import GameState


def replay(args: argparse.Namespace, io_: Io) -> int:
    """Run `scopa replay` with its arguments."""
    tr = io_.tr
    match = load(args.file, tr)
    screen = io_.screen
    rules = match.rules
    step = not args.all and is_terminal(sys.stdin) and screen.out.isatty()
    title = tr.gettext("{variant}, to {target} points, first dealer {player}")
    first = player_name(match.first_dealer, lang=io_.lang)
    screen.say(title.format(variant=rules.name, target=rules.target, player=first), "bold")
    if rules.stakes is not None:
        stakes = _rules_field(rules, io_.lang)
        screen.wrap(tr.gettext("Stakes: {stakes}.").format(stakes=stakes))
    if step:
        screen.say(tr.gettext("Press Enter to see each play, or type q and Enter to stop."))
    hands = list(match.hands)
    ended_after_a_hand = match.is_over and match.abandonment is None and match.claim is None
    unfinished = [] if ended_after_a_hand else [None]
    for record in [*hands, *unfinished]:
        if _replay_hand(args, io_, match, record, step):
            return 0
    screen.say()
    ending = ending_text(match, lang=io_.lang)
    if ending is not None:
        screen.say(capital(ending) + ".")
    for line in _standing(io_, rules, match.totals, match.settlement):
        screen.say(line)
    winner = match.winner
    if winner is not None:
        won = tr.gettext("Winner: {side}").format(side=side_name(rules, winner, lang=io_.lang))
        screen.say(won, "bold")
    else:
        screen.say(tr.gettext("The match is unfinished."))
    return 0


def _replay_hand(
    args: argparse.Namespace, io_: Io, match: Match, record: HandRecord | None, step: bool
) -> bool:
    """Replay a hand of the match (`None`: the unfinished one); whether to stop there."""
    screen, tr, lang = io_.screen, io_.tr, io_.lang
    rules = match.rules
    hands = match.hands
    if record is None:
        number, deck, dealer = len(hands) + 1, match.deck, match.dealer
        plays = match.state.history
    else:
        number, deck, dealer, plays = record.number, record.deck, record.dealer, record.history
    state = GameState.new(rules, deck=deck, dealer=dealer)
    screen.say()
    heading = tr.gettext("Hand {number}, dealer {player}, deal {deal}")
    name = player_name(dealer, lang=lang)
    screen.say(heading.format(number=number, player=name, deal=deck), "bold")
    screen.say("  " + tr.gettext("Table {cards}").format(cards=cards_text(state.table)))
    swept = first_table_note(state, None, lang)
    if swept is not None:
        screen.say(f"  {swept}")
    _board(io_, state, args.boards)
    for player, move in plays:
        if step and read(io_, tr.gettext("(Enter, or q to stop) ")).strip().lower()[:1] == "q":
            return True
        before = state
        state = state.apply(move)
        said = tr.gettext("{player}: {move}.").format(
            player=player_name(player, lang=lang), move=move_text(move, lang=lang)
        )
        if state.scope[player] > before.scope[player]:
            said = tr.gettext("{play} Scopa!").format(play=said)
        screen.say("  " + capital(said))
        if args.why:
            for line in play_lines(before, move, lang, indent="    "):
                screen.say(line)
        if record is not None and state.is_terminal:
            left = leftovers_note(rules, record, None, lang)
            if left is not None:
                screen.say(f"  {left}")
        _board(io_, state, args.boards)
    if record is not None:
        _hand_end(io_, rules, hands[:number], scored=args.boards)
        if args.why:
            for line in score_lines(state, lang, indent="  "):
                screen.say(line)
    return False


def _rules_field(rules: Rules, lang: str) -> str:
    """The stakes of the rules in words (their field of `rules_text`), on one line."""
    label = translation(lang).pgettext("rules", "stakes")
    lines = rules_text(rules, lang=lang).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(f"{label} "))
    rest = lines[first + 1 :]
    more = next((i for i, line in enumerate(rest) if not line.startswith(" ")), len(rest))
    return " ".join(part.strip() for part in [lines[first][len(label) :], *rest[:more]])


def _board(io_: Io, state: GameState, shown: bool) -> None:
    """The picture of a position, with `--boards`."""
    if shown:
        io_.screen.say()
        for line in state_text(state, lang=io_.lang).splitlines():
            io_.screen.say(line)
        io_.screen.say()


def _hand_end(io_: Io, rules: Rules, hands: Sequence[HandRecord], *, scored: bool) -> None:
    """The score of the last of `hands`, then the points and stakes of the match after it.

    `scored`: the board of the hand's end, which shows its score, is already printed.
    """
    screen = io_.screen
    record = hands[-1]
    screen.say()
    screen.say(hand_over_note(rules, record, None, io_.lang), "bold")
    if not scored:
        screen.say(hand_score(rules, record, None, io_.lang))
    totals = tuple(map(sum, zip(*(hand.points for hand in hands), strict=True)))
    stakes = rules.stakes
    won = None
    if stakes is not None:
        won = stakes.settle([hand.points for hand in hands], sides=rules.number_of_sides)
    for line in _standing(io_, rules, totals, won):
        screen.say(f"  {line}")


def _standing(
    io_: Io, rules: Rules, totals: Sequence[int], won: Sequence[Fraction] | None
) -> list[str]:
    """The points of the match and, under stakes, what each side has won."""
    tr = io_.tr
    names = [side_name(rules, side, lang=io_.lang) for side in range(rules.number_of_sides)]
    points = ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True))
    lines = [tr.gettext("Points: {points}").format(points=points)]
    if won is not None:
        stakes = rules.stakes
        money = stakes if isinstance(stakes, BrilliEconomy) else BrilliEconomy()
        brilli = ", ".join(f"{n} {money.format(w)}" for n, w in zip(names, won, strict=True))
        lines.append(tr.gettext("Brilli: {brilli}").format(brilli=brilli))
    return lines
