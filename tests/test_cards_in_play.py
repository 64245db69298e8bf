"""The cards in play (`Rules.ranks`, `Rules.suits`): checks, dealing, scoring, records, play."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scopa import (
    Card,
    Deck,
    GameState,
    InvalidStateError,
    Match,
    MisdealRule,
    Rank,
    Rules,
    RulesError,
    ScoringRules,
    Suit,
    find_variant,
)
from scopa.agents import GreedyAgent, RandomAgent, play_hand, play_match
from scopa.records import read_record, rules_from_data, rules_to_data, write_record
from scopa.scoring import (
    AssoDueTre,
    Captures,
    CardPoints,
    Carte,
    Denari,
    Grande,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    ReBello,
    Scope,
)

MINI = find_variant("scopa-mini")
# Scope and carte only: rules that name no particular card.
PLAIN = ScoringRules((Scope(), Carte()))


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse(part) for part in text.split())


# ------------------------------------------------------------------ the knob and its checks


def test_the_default_is_the_forty_cards() -> None:
    rules = Rules()
    assert rules.ranks == tuple(Rank)
    assert rules.suits == tuple(Suit)
    assert rules.deck_size == 40
    assert rules.in_play_mask == (1 << 40) - 1
    assert (rules.deals_per_hand, rules.plays_per_hand) == (6, 36)


def test_the_mini_preset() -> None:
    assert MINI.ranks == (Rank.ASSO, Rank.SEI, Rank.SETTE)
    assert MINI.suits == (Suit.DENARI, Suit.COPPE)
    assert MINI.deck_size == 6
    # the six cards 1D 6D 7D 1C 6C 7C: bits 0, 5, 6, 10, 15, 16
    assert MINI.in_play_mask == sum(1 << i for i in (0, 5, 6, 10, 15, 16))
    assert (MINI.players, MINI.hand_size, MINI.table_size) == (2, 2, 2)
    assert (MINI.deals_per_hand, MINI.plays_per_hand) == (1, 4)
    assert [c.name for c in MINI.scoring.components] == [
        "scope",
        "carte",
        "denari",
        "settebello",
        "primiera",
    ]
    assert repr(MINI) == "find_variant('scopa-mini')"
    assert find_variant("mini") is MINI


def test_ranks_and_suits_are_kept_sorted_and_distinct() -> None:
    rules = attrs.evolve(MINI, ranks=[7, 1, 6, 1], suits=(Suit.COPPE, 0))
    assert rules == MINI
    assert rules.ranks == (Rank.ASSO, Rank.SEI, Rank.SETTE)
    assert all(type(rank) is Rank for rank in rules.ranks)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ranks": ()}, "ranks must name at least one rank in play"),
        ({"suits": []}, "suits must name at least one suit in play"),
        ({"ranks": (0, 1)}, "ranks must hold Ranks from 1 to 10, not 0"),
        ({"ranks": (11,)}, "ranks must hold Ranks from 1 to 10, not 11"),
        ({"suits": (4,)}, "suits must hold Suits from 0 to 3, not 4"),
    ],
)
def test_bad_values_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        attrs.evolve(MINI, **changes)


@pytest.mark.parametrize(
    "changes",
    [{"ranks": "167"}, {"ranks": 7}, {"suits": (0, 1.0)}, {"ranks": (True, 6, 7)}],
)
def test_values_of_the_wrong_type_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(TypeError, match=r"ranks|suits"):
        attrs.evolve(MINI, **changes)


def test_the_deal_must_fit_the_cards_in_play() -> None:
    # 6 cards: 2 on the table leave 4, which do not split into deals of 3 cards to each of 2
    with pytest.raises(RulesError, match="4 cards after the table \\(of 6 in play\\) do not split"):
        attrs.evolve(MINI, hand_size=3)
    with pytest.raises(RulesError, match="ranks 1,6,7 of suits D,C in play"):
        attrs.evolve(MINI, table_size=4)


@pytest.mark.parametrize(
    ("ranks", "suits", "component", "message"),
    [
        ((1, 6), (0, 1), Scope(), None),
        ((1, 6), (0, 1), Carte(threshold=5), "'carte' needs 5 cards of the 4 in play"),
        ((1, 6, 7), (1, 2), Denari(), "'denari' counts the denari, which are not in play"),
        ((1, 6, 7), (0, 1), Denari(threshold=4), "'denari' needs 4 denari of the 3 in play"),
        ((1, 6, 7), (0, 1), Denari(threshold=3), None),
        ((1, 6), (0, 1), ReBello(), "'re bello' scores the 10D, which is not in play"),
        ((1, 2, 3), (0, 1), Napola(), None),
        ((1, 2), (0, 1), Napola(), "'napola' scores the 3D, which is not in play"),
        ((1, 2, 3), (0, 1), Napola(napoleone_wins_match=True), "all ten denari"),
        ((8, 9, 10), (0, 1), Grande(), None),
        ((7, 8, 10), (0, 1), Grande(), "'grande' scores the 9D"),
        ((1, 2, 3), (1, 2), AssoDueTre(), "'asso-due-tre' scores the 1D"),
        ((9, 10), (0, 1, 2, 3), Ponino(), None),
        ((9, 10), (0, 1, 2), Ponino(), "'ponino' scores the 9B"),
        ((1, 2), (0, 1), CardPoints(), None),
        ((2, 3), (0, 1), CardPoints(), "scores ranks \\[1, 8, 9, 10\\], none of them in play"),
        ((1, 6), (0, 1), Primiera(), None),
        ((1, 6), (0, 1), Primiera(rule=PrimieraRule.MOST_SEVENS), "the sevens"),
        ((1, 7), (0, 1), Primiera(rule=PrimieraRule.MOST_SEVENS), None),
        ((1, 7), (0, 1), Primiera(rule=PrimieraRule.SETTANTA_3_SEVENS), "only 2 are in play"),
        ((1, 7), (0, 1, 2), Primiera(rule=PrimieraRule.SETTANTA_3_SEVENS), None),
        ((1, 7), (0, 1, 2), Primiera(all_sevens=1), "all four sevens"),
    ],
)
def test_categories_that_name_cards_out_of_play_are_refused(
    ranks: tuple[int, ...], suits: tuple[int, ...], component: Any, message: str | None
) -> None:
    cards_in_play = len(ranks) * len(suits)
    scoring = ScoringRules((Scope(), component)) if component != Scope() else PLAIN
    knobs: dict[str, Any] = {"ranks": ranks, "suits": suits, "table_size": 0, "scoring": scoring}
    knobs["hand_size"] = cards_in_play // 2
    if message is None:
        assert Rules(**knobs).deck_size == cards_in_play
    else:
        with pytest.raises(RulesError, match=message):
            Rules(**knobs)


def test_the_standard_categories_are_refused_without_their_cards() -> None:
    with pytest.raises(RulesError, match="'settebello' scores the 7D, which is not in play"):
        attrs.evolve(MINI, ranks=(1, 5, 6))
    with pytest.raises(RulesError, match="'denari' counts the denari, which are not in play"):
        attrs.evolve(MINI, suits=(1, 2))


def test_a_matta_out_of_play_is_refused() -> None:
    with pytest.raises(RulesError, match="the matta 7C is not in play"):
        attrs.evolve(MINI, matta=Card.parse("7C"), suits=(0, 2))
    assert attrs.evolve(MINI, matta=Card.parse("7C")).matta == Card.parse("7C")


def test_a_misdeal_rule_that_annuls_every_first_table_is_refused() -> None:
    # 8 cards, Aces and Kings: Cirulla annuls two Aces, so a table holds at most 1 + 4 cards
    knobs: dict[str, Any] = {"ranks": (1, 10), "hand_size": 1, "scoring": PLAIN}
    assert Rules(table_size=4, misdeal=MisdealRule.CIRULLA, **knobs).table_size == 4
    with pytest.raises(RulesError, match="CIRULLA annuls every first table of 6 cards"):
        Rules(table_size=6, misdeal=MisdealRule.CIRULLA, **knobs)
    # three Kings annul a deal: a table holds 4 Aces and at most 2 Kings
    assert Rules(table_size=6, **knobs).table_size == 6


# ------------------------------------------------------------------ dealing


def test_dealing_sets_the_cards_out_of_play_aside() -> None:
    # The standard order's cards in play are 1D 6D 7D 1C 6C 7C; player 1 leads.
    state = GameState.new(MINI, deck=Deck.standard(), dealer=0)
    assert state.hands == (cards("7D 1C"), cards("1D 6D"))
    assert state.table == cards("6C 7C")
    assert state.stock == ()


def test_a_seed_deals_the_cards_in_play_of_its_first_shuffle() -> None:
    for seed in range(20):
        deck = next(iter(Deck.shuffles(seed)))
        dealt = [card for card in deck if card.rank in (1, 6, 7) and card.suit in (0, 1)]
        state = GameState.new(MINI, seed=seed, dealer=1)
        assert state.hands == (frozenset(dealt[0:2]), frozenset(dealt[2:4]))
        assert state.table == frozenset(dealt[4:6])


def test_a_position_with_cards_out_of_play_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="cards not in play under these rules: 2D"):
        GameState.from_position(
            MINI,
            hands=[cards("1D 6D"), cards("7D 1C")],
            table=cards("6C 7C 2D"),
            stock=[],
            dealer=0,
        )
    with pytest.raises(InvalidStateError, match="cards missing: 7C"):
        GameState.from_position(
            MINI, hands=[cards("1D 6D"), cards("7D 1C")], table=cards("6C"), stock=[], dealer=0
        )


# ------------------------------------------------------------------ scoring, by hand


def finished(first: str, second: str) -> GameState:
    return GameState.from_position(
        MINI,
        hands=[(), ()],
        table=(),
        stock=(),
        dealer=1,
        piles=[cards(first), cards(second)],
        last_capturer=0,
    )


def test_scoring_a_mini_hand_by_hand() -> None:
    # Side 0: 7D 1D 6C; side 1: 6D 1C 7C. Carte 3-3: nobody. Denari 2-1: side 0. The
    # settebello: side 0. Primiera: 21 (7D) + 18 (6C) = 39 against 18 (6D) + 21 (7C) = 39.
    score = finished("7D 1D 6C", "6D 1C 7C").hand_score()
    assert score["carte"].points == (0, 0)
    assert score["denari"].points == (1, 0)
    assert score["denari"].figures == (2, 1)
    assert score["settebello"].points == (1, 0)
    assert score["primiera"].figures == (39, 39)
    assert score["primiera"].points == (0, 0)
    assert score.points == (2, 0)


def test_scoring_a_mini_hand_with_every_point_to_one_side() -> None:
    # Side 0: four cards, both suits, 7D (21) and 7C (21) = 42; side 1: 1D 6D, denari only.
    score = finished("7D 1C 6C 7C", "1D 6D").hand_score()
    assert score["carte"].points == (1, 0)
    assert score["denari"].points == (0, 1)  # 2 against 1
    assert score["settebello"].points == (1, 0)
    assert score["primiera"].figures == (42, 18)
    assert score["primiera"].points == (1, 0)
    assert score.points == (3, 1)


def test_primiera_needs_every_suit_in_play_and_only_those() -> None:
    # Side 0 holds denari and coppe (7D 7C: 42), side 1 the three suits D, C, S (2s: 36).
    piles = (cards("7D 7C"), cards("2D 2C 2S"))
    three_suits = Captures(piles, (0, 0), (0, 0), (Suit.DENARI, Suit.COPPE, Suit.SPADE))
    assert Primiera().score(three_suits).points == (0, 1)  # side 0 lacks spade
    # with the four suits in play neither side holds them all: no point
    assert Primiera().score(Captures(piles, (0, 0))).points == (0, 0)


# ------------------------------------------------------------------ records and play


def test_records_round_trip_a_small_deck_match() -> None:
    rules = attrs.evolve(MINI, name="mini-to-5", target=5)
    match = play_match(
        Match.new(rules, seed=11), {0: GreedyAgent(), 1: RandomAgent()}, random.Random(3)
    )
    assert match.is_over
    text = write_record(match)
    again = read_record(text)
    assert again.rules == rules
    assert again.totals == match.totals
    assert [hand.history for hand in again.hands] == [hand.history for hand in match.hands]
    assert write_record(again) == text


def test_rules_data_names_the_knobs() -> None:
    rules = Rules(ranks=(1, 2, 3, 4, 5, 6, 7), suits=(0, 1), table_size=2)
    data = rules_to_data(rules)
    assert data["changes"]["ranks"] == {"tuple": [1, 2, 3, 4, 5, 6, 7]}
    assert rules_from_data(data) == rules


@st.composite
def small_rules(draw: st.DrawFn) -> Rules:
    """Two to four players with a subset of the cards, dealt in one or more rounds."""
    suits = draw(st.sets(st.sampled_from(Suit), min_size=2))
    ranks = draw(st.sets(st.integers(1, 10), min_size=2)) | {7}
    players = draw(st.integers(2, 4))
    in_play = len(ranks) * len(suits)
    deals = [
        (table, hand)
        for table in range(5)
        for hand in range(1, 6)
        if in_play - table >= players * hand and (in_play - table) % (players * hand) == 0
    ]
    assume(deals)
    table_size, hand_size = draw(st.sampled_from(deals))
    scoring = ScoringRules.standard() if Suit.DENARI in suits else PLAIN
    return Rules(
        players=players,
        ranks=tuple(ranks),
        suits=tuple(suits),
        table_size=table_size,
        hand_size=hand_size,
        misdeal=MisdealRule.NONE,
        scoring=scoring,
    )


@settings(max_examples=40)
@given(small_rules(), st.integers(0, 2**32))
def test_random_games_account_for_every_card_in_play(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(rules, seed=seed)
    state = play_hand(state, dict.fromkeys(range(rules.players), RandomAgent()), rng)
    assert state.is_terminal
    piles = [card for pile in state.piles for card in pile]
    kept = [*piles, *state.table]
    assert len(kept) == len(set(kept)) == rules.deck_size
    assert all(rules.in_play_mask >> card.index & 1 for card in kept)
    assert len(state.history) == rules.plays_per_hand
    assert len(state.hand_score().points) == rules.number_of_sides
