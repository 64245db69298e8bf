"""The independent oracles of `tests/oracle.py` against the library.

The scoring oracle is compared with the library on thousands of hands of every preset
played to the end by random play, and on random partitions of the 40 cards (biased towards
missing suits, ties and cards left unowned) under every table, policy and primiera rule.

The capture oracle of `tests/oracle.py` is compared with `legal_moves()` on every
position of hundreds of random hands of every preset, and of presets with knobs changed.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    DECK,
    AceOnAce,
    CapturePriority,
    Captures,
    Card,
    CompulsoryCapture,
    GameState,
    MissingSuit,
    Primiera,
    PrimieraRule,
    Rules,
    RulesError,
    ScoringRules,
)
from tests import oracle
from tests.helpers import PRIMIERA_TABLES, every_preset
from tests.oracle import (
    POLICIES,
    STANDARD,
    Reference,
    assert_same,
    by_side,
    declared_by_side,
    outright_winner,
    plain,
    preset_reference,
    primiera,
    reference_score,
    standard_names,
)

# ----------------------------------------------------------------------------- hands


HANDS_PER_PRESET = 1000


def assert_scores_as_the_oracle(state: GameState) -> Reference:
    """The state's score is the oracle's, outright wins included; the oracle's score."""
    rules = state.rules
    piles, scope = by_side(rules, state.piles, state.scope)
    expected = preset_reference(rules, piles, scope, declared_by_side(rules, state))
    assert_same(state.hand_score(), expected, outright_winner(rules, piles))
    return expected


@every_preset
def test_random_hands_score_as_the_oracle(rules: Rules) -> None:
    rng = random.Random(f"hands {rules.name}")
    for _ in range(HANDS_PER_PRESET):
        state = GameState.new(rules, seed=rng.getrandbits(64), dealer=rng.randrange(rules.players))
        stop = rng.randrange(rules.plays_per_hand)  # also score one position mid-hand
        plays = 0
        while not state.is_terminal:
            if plays == stop:
                assert_scores_as_the_oracle(state)
            moves = state.legal_moves()
            state = state.apply(moves[rng.randrange(len(moves))])
            plays += 1
        expected = assert_scores_as_the_oracle(state)
        named = standard_names(rules)
        if rules.number_of_sides == 2 and len(named) == 5:  # KA-25 (tests/test_golden.py)
            tied = [named[name] for name in ("carte", "denari", "primiera")]
            ties = sum(sum(expected[name][0]) == 0 for name in tied)
            standard = sum(sum(expected[named[name]][0]) for name in STANDARD)
            assert standard == sum(expected[named["scope"]][0]) + 4 - ties


# ----------------------------------------------------------------------------- partitions

CONFIGS = [(t, p, "sum") for t in PRIMIERA_TABLES for p in POLICIES] + [
    ("classic", "opponent-wins", "most-sevens-cascade"),
    ("classic", "opponent-wins", "settanta-3-sevens"),
]


def scoring(table: str, policy: str, rule: str) -> ScoringRules:
    base = ScoringRules.standard(PRIMIERA_TABLES[table], MissingSuit(policy))
    return base.without("primiera").with_component(
        Primiera(PRIMIERA_TABLES[table], MissingSuit(policy), PrimieraRule(rule))
    )


def random_owners(rng: random.Random, sides: int) -> list[int]:
    """An owner side for each card (-1: nobody), suit by suit, often lopsided."""
    owners = []
    for _ in range(4):
        mode = rng.randrange(4)
        only = rng.randrange(sides)
        weights = [rng.random() ** 3 for _ in range(sides)]
        for _ in range(10):
            if rng.random() < 0.05:
                owners.append(-1)
            elif mode == 0:
                owners.append(rng.randrange(sides))
            elif mode == 1:  # the whole suit to one side
                owners.append(only)
            else:
                owners.append(rng.choices(range(sides), weights)[0])
    return owners


def check_partition(owners: list[int], scope: list[int]) -> None:
    sides = len(scope)
    piles = [
        [card for card, owner in zip(DECK, owners, strict=True) if owner == s] for s in range(sides)
    ]
    captures = Captures(tuple(map(frozenset, piles)), tuple(scope))
    for table, policy, rule in CONFIGS:
        expected = reference_score([plain(p) for p in piles], scope, table, policy, rule)
        assert_same(scoring(table, policy, rule).score(captures), expected)


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_random_partitions_score_as_the_oracle(sides: int) -> None:
    rng = random.Random(f"partitions {sides}")
    for _ in range(600):
        check_partition(
            random_owners(rng, sides), [rng.choice([0, 0, 1, 2, 5]) for _ in range(sides)]
        )


@settings(max_examples=200)
@given(
    owners_and_scope=st.integers(2, 4).flatmap(
        lambda sides: st.tuples(
            st.lists(st.integers(-1, sides - 1), min_size=40, max_size=40),
            st.lists(st.integers(0, 6), min_size=sides, max_size=sides),
        )
    )
)
def test_generated_partitions_score_as_the_oracle(
    owners_and_scope: tuple[list[int], list[int]],
) -> None:
    owners, scope = owners_and_scope
    check_partition(owners, scope)


def test_the_oracle_knows_the_known_answer_examples() -> None:
    # The oracle itself, on the known-answer examples KA-18 and KA-19 (tests/test_golden.py).
    ka18 = plain([Card.parse(t) for t in ["7D", "7C", "6B", "1S"]])
    assert primiera([ka18], "classic", "zero", "sum")[1] == [76]
    assert primiera([ka18], "tretre", "zero", "sum")[1] == [75]
    first = plain([Card.parse(t) for t in ["7D", "7C", "7S", "10B"]])
    second = plain([Card.parse(t) for t in ["7B", "6D", "6C", "6S"]])
    for table in ("classic", "tretre"):
        assert primiera([first, second], table, "opponent-wins", "sum") == ([0, 1], [73, 75])
    # KA-17: 20-20 cards and 5-5 denari give nothing; 21-19 and 6-4 give one.
    even = reference_score(
        [plain(list(DECK[:5] + DECK[10:25])), plain(list(DECK[5:10] + DECK[25:]))], [0, 0]
    )
    assert even["carte"][0] == [0, 0]
    assert even["denari"][0] == [0, 0]
    odd = reference_score(
        [plain(list(DECK[:6] + DECK[10:25])), plain(list(DECK[6:10] + DECK[25:]))], [0, 0]
    )
    assert odd["carte"] == ([1, 0], [21, 19])
    assert odd["denari"] == ([1, 0], [6, 4])


# ----------------------------------------------------------------------------- captures


def varied(rules: Rules, rng: random.Random) -> Rules:
    """A preset with its capturing knobs changed at random.

    `CompulsoryCapture.CAPTURING_CARD` and `ace_first_lead_forbidden` are never together:
    when the only card that can capture on the first play is an Ace, the two rules
    contradict each other, the rules page does not say which wins, and the oracle allows no move
    at all (the library lets the Ace capture). Draws that leave nothing to capture are
    drawn again: no match could end under such rules, so they are refused.
    """
    while True:
        try:
            return _changed(rules, rng)
        except RulesError:
            continue


def _changed(rules: Rules, rng: random.Random) -> Rules:
    capturing_first = rng.random() < 0.5
    compulsory = rng.choice([CompulsoryCapture.NONE, CompulsoryCapture.PLAYED_CARD])
    return attrs.evolve(
        rules,
        capture_priority=rng.choice(list(CapturePriority)),
        compulsory_capture=CompulsoryCapture.CAPTURING_CARD if capturing_first else compulsory,
        capture_by_rank=rng.random() < 0.8,
        capture_by_sum=rng.random() < 0.8,
        ace_captures_all=rng.random() < 0.5,
        ace_sweep_is_scopa=rng.random() < 0.5,
        ace_with_ace_on_table=rng.choice(list(AceOnAce)),
        ace_on_empty_table_captures_itself=rng.random() < 0.5,
        ace_first_lead_forbidden=not capturing_first and rng.random() < 0.5,
    )


def compare_captures(rules: Rules, hands: int, rng: random.Random) -> int:
    positions = 0
    for _ in range(hands):
        state = GameState.new(rules, seed=rng.getrandbits(64), dealer=rng.randrange(rules.players))
        while True:
            moves = state.legal_moves()
            assert set(moves) == oracle.legal_moves(state), state.to_text()
            assert len(set(moves)) == len(moves)
            positions += 1
            if state.is_terminal:
                break
            state = state.apply(moves[rng.randrange(len(moves))])
    return positions


@every_preset
def test_legal_moves_agree_with_the_capture_oracle(rules: Rules) -> None:
    rng = random.Random(f"captures {rules.name}")
    positions = compare_captures(rules, 250, rng)
    for _ in range(10):
        positions += compare_captures(varied(rules, rng), 10, rng)
    assert positions > 250 * rules.plays_per_hand
