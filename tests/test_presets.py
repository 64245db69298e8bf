"""Known answers of the presets that walk through a rule, computed by hand from SPEC.md.

The tables of known answers for every preset (leads, plays, sequences, deals, misdeals,
scores, categories, matches) are in the golden files read by `tests/test_golden.py`.

Conventions used throughout:

- Players are numbered from 0 and play goes upwards: after player p comes p + 1. The player
  after the dealer leads every round of a hand and the dealer plays last (§2).
- With 4 players side 0 is players 0 and 2 and side 1 is players 1 and 3.
- Capture values: Ace 1 … King 10. Primiera (CLASSIC): 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
  2=12, figures (8, 9, 10) 10.
- In card lists `1-5D` is short for `1D 2D 3D 4D 5D`.
"""

from __future__ import annotations

import attrs
import pytest

from scopa import Card, Deck, GameState, Match, Move, Napola, Outcome, find_variant
from tests.helpers import STANDARD_CATEGORIES, assert_legal, cards, rest_of


def test_first_lead_may_be_an_ace_when_only_aces_are_held() -> None:
    # asso-piglia-tutto-4 dealt 3 cards at a time with 4 on the table (4 x 3 = 12 per
    # deal, 36 / 12 = 3 deals), so that a first leader can hold only Aces. Dealer 3.
    rules = attrs.evolve(
        find_variant("asso-piglia-tutto-4"), name="apt-4-by-three", hand_size=3, table_size=4
    )
    table = cards("2D 3C 4S 5B")

    def dealt(hand: str, *, first: bool) -> GameState:
        held = cards(hand)
        free = iter(sorted(rest_of(held, table)))
        hands = [held, *(frozenset(next(free) for _ in range(3)) for _ in range(3))]
        rest = sorted(rest_of(*hands, table))
        if first:  # the first play: 24 cards still to deal, nothing captured
            return GameState.from_position(rules, hands=hands, table=table, stock=rest, dealer=3)
        # a later deal: 12 cards to deal, the dealer has captured 12
        piles: list[frozenset[Card]] = [frozenset(), frozenset(), frozenset(), frozenset(rest[12:])]
        return GameState.from_position(
            rules, hands=hands, table=table, stock=rest[:12], dealer=3, piles=piles
        )

    # Only Aces: each may lead and sweeps the table (no Ace on it), a scopa.
    only_aces = dealt("1D 1C 1S", first=True)
    assert_legal(only_aces, "1Dx2D+3C+4S+5B 1Cx2D+3C+4S+5B 1Sx2D+3C+4S+5B")
    assert only_aces.apply(Move.parse("1Cx2D+3C+4S+5B")).scope == (1, 0, 0, 0)
    # An Ace and other cards: not the Ace; 2C and 3S must take their equals.
    assert_legal(dealt("1D 2C 3S", first=True), "2Cx2D 3Sx3C")
    # Leading a later deal the Ace is allowed again.
    assert_legal(dealt("1D 2C 3S", first=False), "1Dx2D+3C+4S+5B 2Cx2D 3Sx3C")


# --------------------------------------------------------------------------- matches

# Scopone scientifico dealt in the standard order by player 3: player 0 holds the denari,
# 1 the coppe, 2 the spade, 3 the bastoni. Rounds 1-9 (k = 10 … 2): 0 lays kD on the empty
# table; 1 lays (k-1)C (another rank, no sum with one card); 2's kS takes its equal kD (the
# single card is the fewest; kD + (k-1)C > k); 3's (k-1)B takes the lone (k-1)C: a scopa.
# Round 10: 1D, 10C laid, 1S takes 1D, and the dealer's 10B takes 10C on the last play: no
# scopa. Side 0 ends with all the denari and spade (20 cards), side 1 with coppe and
# bastoni (20) and 9 scope. Score: scope 0-9, carte 20-20 none, denari 10-0, settebello
# 1-0, primiera 42-42 with neither side complete: none; napola 10-0. Totals 12-9.
NAPOLEONE_ROUNDS = (
    "10D 9C 10Sx10D 9Bx9C",
    "9D 8C 9Sx9D 8Bx8C",
    "8D 7C 8Sx8D 7Bx7C",
    "7D 6C 7Sx7D 6Bx6C",
    "6D 5C 6Sx6D 5Bx5C",
    "5D 4C 5Sx5D 4Bx4C",
    "4D 3C 4Sx4D 3Bx3C",
    "3D 2C 3Sx3D 2Bx2C",
    "2D 1C 2Sx2D 1Bx1C",
    "1D 10C 1Sx1D 10Bx10C",
)


@pytest.mark.parametrize("wins", [True, False], ids=["napoleone-wins", "napoleone-scores"])
def test_napoleone_through_a_match(wins: bool) -> None:
    scientifico = find_variant("scopone-scientifico")
    napola = Napola(napoleone_wins_match=wins)
    rules = attrs.evolve(scientifico, scoring=scientifico.scoring.with_component(napola))
    match = Match.new(rules, decks=[Deck.standard()], first_dealer=3)
    assert match.state.hands == (cards("1-10D"), cards("1-10C"), cards("1-10S"), cards("1-10B"))
    for round_ in NAPOLEONE_ROUNDS:
        for text in round_.split():
            assert not match.hands
            match = match.apply(Move.parse(text))
    assert len(match.hands) == 1
    assert match.state.piles == (
        frozenset(),
        frozenset(),
        cards("1-10D 1-10S"),
        cards("1-10C 1-10B"),
    )
    assert match.state.scope == (0, 0, 0, 9)
    score = match.hands[0].score
    assert [c.name for c in score] == [*STANDARD_CATEGORIES, "napola"]
    assert [c.points for c in score] == [(0, 9), (0, 0), (1, 0), (1, 0), (0, 0), (10, 0)]
    assert score["primiera"].figures == (42, 42)
    assert score["napola"].wins_match == (0 if wins else None)
    assert match.totals == (12, 9)
    if wins:
        # far from 21, the napoleone wins the match for both partners
        assert match.is_over
        assert match.winner == 0
        assert match.outcomes == (Outcome.WIN, Outcome.LOSS, Outcome.WIN, Outcome.LOSS)
    else:
        assert not match.is_over
        assert match.winner is None
        assert match.awaiting_deal
