"""Known answers of the presets that walk through a rule, computed by hand from the docs.

The tables of known answers for every preset (leads, plays, sequences, deals, misdeals,
scores, categories, matches) are in the golden files read by `tests/test_golden.py`.

Conventions used throughout:

- Players are numbered from 0 and play goes upwards: after player p comes p + 1. The player
  after the dealer leads every round of a hand and the dealer plays last
  (docs/rules.md#players-and-turns).
- With 4 players side 0 is players 0 and 2 and side 1 is players 1 and 3.
- Capture values: Ace 1 … King 10. Primiera (CLASSIC): 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
  2=12, figures (8, 9, 10) 10.
- In card lists `1-5D` is short for `1D 2D 3D 4D 5D`.
"""

from __future__ import annotations

import attrs
import pytest

from scopa import (
    Captures,
    Card,
    Deck,
    GameState,
    Match,
    MisdealRule,
    Move,
    Napola,
    Outcome,
    Primiera,
    PrimieraRule,
    Rules,
    RulesError,
    Scope,
    ScoringRules,
    find_variant,
)
from scopa.board import rules_text
from scopa.records import rules_from_data, rules_to_data
from tests.helpers import STANDARD_CATEGORIES, assert_legal, cards, every_preset, rest_of


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


# --------------------------------------------------------------------------- dealing


@pytest.mark.parametrize("name", ["scopa-a-15", "asso-piglia-tutto-semplice"])
def test_presets_that_deal_as_classic_annul_three_kings(name: str) -> None:
    # Both deal as classic, as the online room that plays them does: three Kings on the
    # first table annul the deal. A deck whose table (cards 7-10, dealer 1) shows them is
    # refused; two Kings are dealt.
    rules = find_variant(name)
    assert rules.misdeal is MisdealRule.THREE_PLUS_KINGS
    front = cards("1D 2D 3D 4D 5D 6D")
    kings = [*sorted(front), *cards("10C 10S 10B 4C")]
    deck = Deck([*kings, *sorted(rest_of(kings))])
    with pytest.raises(ValueError, match="annul"):
        GameState.new(rules, deck=deck, dealer=1)
    two = [*sorted(front), *cards("10C 10S 5B 4C")]
    state = GameState.new(rules, deck=Deck([*two, *sorted(rest_of(two))]), dealer=1)
    assert state.table == cards("10C 10S 5B 4C")


# --------------------------------------------------------------------------- scoring

# Two hands that the four readings of Escoba's setenta score differently (partial piles:
# only the cards that matter). Best cards, one per suit, strongest first: 7, 6, A, 5, 4,
# 3, 2, figures; the sums with 7=21, 6=18, A=16, 2=12.
# - SIXES: p0 7D 7C 6S 2B against p1 7S 7B 1D 1C. Card by card 7 7 6 2 beats 7 7 A A (the
#   6 beats an Ace); summed 72 loses to 74; sevens 2-2, sixes 1-0: the cascade gives p0;
#   the most sevens alone: a tie, nobody.
# - TWOS: p0 7D 7C 6D 6C 2S 2B against p1 7S 7B 1D 1C. Best cards 7 7 2 2 against
#   7 7 A A: p1; summed 21+21+12+12 = 66 against 74: p1; sevens 2-2, sixes 2-0: the
#   cascade gives p0; the most sevens: nobody.
SIXES = Captures((cards("7D 7C 6S 2B"), cards("7S 7B 1D 1C")), (0, 0))
TWOS = Captures((cards("7D 7C 6D 6C 2S 2B"), cards("7S 7B 1D 1C")), (0, 0))


@pytest.mark.parametrize(
    ("rule", "sixes", "twos"),
    [
        (PrimieraRule.BEST_CARDS, (1, 0), (0, 1)),
        (PrimieraRule.SUM, (0, 1), (0, 1)),
        (PrimieraRule.MOST_SEVENS_CASCADE, (1, 0), (1, 0)),
        (PrimieraRule.MOST_SEVENS, (0, 0), (0, 0)),
    ],
    ids=lambda value: value.name if isinstance(value, PrimieraRule) else None,
)
def test_the_readings_of_the_setenta(
    rule: PrimieraRule, sixes: tuple[int, int], twos: tuple[int, int]
) -> None:
    escoba = find_variant("escoba")
    setenta = Primiera(rule=rule, name="setenta")
    rules = attrs.evolve(
        escoba,
        name="escoba, a setenta",
        scoring=escoba.scoring.without("setenta").with_component(setenta),
    )
    assert rules.scoring.score(SIXES)["setenta"].points == sixes
    assert rules.scoring.score(TWOS)["setenta"].points == twos
    if rule is PrimieraRule.BEST_CARDS:
        assert rules == escoba  # the preset's reading


def test_escoba_sin_setenta_scores_the_sevens() -> None:
    # p0 7D 7C 7S 6B, p1 7B and the rest: 3 sevens to 1: 1 point. p0 all four sevens: 1 for
    # the most and 1 for all four. 2 to 2: nothing, whatever the sixes (p0 three, p1 one).
    rules = find_variant("escoba-sin-setenta")
    assert [c.name for c in rules.scoring.components][-1] == "sietes"
    three = Captures((cards("7D 7C 7S 6B"), rest_of(cards("7D 7C 7S 6B"))), (0, 0))
    four = Captures((cards("7D 7C 7S 7B"), rest_of(cards("7D 7C 7S 7B"))), (0, 0))
    two = Captures((cards("7D 7C 6D 6C 6S"), rest_of(cards("7D 7C 6D 6C 6S"))), (0, 0))
    sietes = [rules.scoring.score(hand)["sietes"] for hand in (three, four, two)]
    assert [(c.points, c.figures) for c in sietes] == [
        ((1, 0), (3, 1)),
        ((2, 0), (4, 0)),
        ((0, 0), (2, 2)),
    ]
    # All four sevens are sure as soon as they are taken; the most sevens once the other
    # side cannot catch up: 3 to 0 with one seven out is sure, 2 to 0 with two out is not.
    # with nothing left: p0 the siete de velo and 2 sietes, p1 cartas and oros
    assert rules.scoring.guaranteed(four, frozenset()) == (1 + 2, 1 + 1)
    ahead = Captures((cards("7D 7C 7S"), cards("1D")), (0, 0))
    assert Primiera(rule=PrimieraRule.MOST_SEVENS).guaranteed(ahead, cards("7B")) == (1, 0)
    level = Captures((cards("7D 7C"), cards("1D")), (0, 0))
    assert Primiera(rule=PrimieraRule.MOST_SEVENS).guaranteed(level, cards("7S 7B")) == (0, 0)


@pytest.mark.parametrize(
    ("rule", "points"),
    [
        (PrimieraRule.SUM, (4, 0)),  # 84 against 0 + 3 more
        (PrimieraRule.BEST_CARDS, (4, 0)),
        (PrimieraRule.MOST_SEVENS_CASCADE, (4, 0)),
        (PrimieraRule.SETTANTA_3_SEVENS, (4, 0)),
        (PrimieraRule.MOST_SEVENS, (4, 0)),
    ],
)
def test_all_four_sevens_add_their_points_to_any_reading(
    rule: PrimieraRule, points: tuple[int, int]
) -> None:
    # The tables that score 3 for all four sevens: p0 holds the four sevens (and so the best
    # card of every suit), p1 the Aces: 1 for the comparison and 3 more.
    hand = Captures((cards("7D 7C 7S 7B"), cards("1D 1C 1S 1B")), (0, 0))
    assert Primiera(rule=rule, all_sevens=3).score(hand).points == points
    assert Primiera(rule=rule).score(hand).points == (1, 0)


def test_the_bonus_for_all_sevens_is_checked() -> None:
    assert Primiera(all_sevens=100).all_sevens == 100
    for bad in (-1, 101, "3", True, 1.0):
        with pytest.raises(RulesError, match=r"^all_sevens must be an int from 0 to 100, not "):
            Primiera(all_sevens=bad)  # type: ignore[arg-type]


def test_the_new_setenta_knobs_round_trip_through_records() -> None:
    escoba = find_variant("escoba")
    sietes = Primiera(rule=PrimieraRule.MOST_SEVENS, all_sevens=3, name="sietes")
    rules = attrs.evolve(escoba, name="sevens", scoring=escoba.scoring.with_component(sietes))
    assert rules_from_data(rules_to_data(rules)) == rules
    sin = find_variant("escoba-sin-setenta")
    assert rules_from_data(rules_to_data(sin)) == sin


def test_cirulla_caps_the_piccola_at_six_or_five() -> None:
    # 1-9D: a run of nine, scored 6 in the preset; 5 with the cap of five; 9 without a cap.
    # All ten still win the match, for 6 points.
    cirulla = find_variant("cirulla")
    run = Captures((cards("1-9D"), cards("10D 1C")), (0, 0))
    assert cirulla.scoring.score(run)["piccola"].points == (6, 0)
    for most, points in ((5, 5), (10, 9)):
        piccola = Napola(name="piccola", napoleone_wins_match=True, most=most)
        scoring = cirulla.scoring.without("piccola").with_component(piccola)
        assert scoring.score(run)["piccola"].points == (points, 0)
    all_ten = cirulla.scoring.score(Captures((cards("1-10D"), cards("1C")), (0, 0)))
    assert (all_ten["piccola"].points, all_ten["piccola"].wins_match) == ((6, 0), 0)


# --------------------------------------------------------------------------- descriptions


def test_a_game_without_points_for_scope_does_not_promise_one() -> None:
    text = " ".join(rules_text(find_variant("scopa-frac")).split())
    assert "emptying the table scores nothing;" in text
    assert "scores a scopa" not in text


@every_preset
def test_the_description_promises_a_scopa_only_where_scope_score(rules: Rules) -> None:
    scored = any(isinstance(c, Scope) and c.value > 0 for c in rules.scoring.components)
    text = " ".join(rules_text(rules).split())
    assert ("emptying the table scores a scopa" in text) is scored
    assert ("emptying the table scores nothing" in text) is not scored


def test_scope_worth_nothing_are_described_so() -> None:
    classic = find_variant("classic")
    scoring = ScoringRules((Scope(value=0), *classic.scoring.components[1:]))
    rules = attrs.evolve(classic, name="no scope", scoring=scoring)
    assert "emptying the table scores nothing;" in " ".join(rules_text(rules).split())
