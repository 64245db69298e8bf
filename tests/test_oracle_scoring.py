"""An independent oracle for hand scoring, and the capture oracle against `legal_moves()`.

`reference_score` is written from SPEC.md §5 alone, with plain lists of `(rank, suit)`
pairs and the primiera tables copied from the SPEC's table (not from the library): scope,
carte and denari to the unique maximum, the settebello, and primiera with the four tables
and the three missing-suit policies (plus the two other primiera rules), pooled by side.
It is compared with the library on thousands of hands of every preset played to the end
by random play, and on random partitions of the 40 cards (biased towards missing suits,
ties and cards left unowned) under every table and policy.

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
    GameState,
    HandScore,
    MissingSuit,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    Rules,
    ScoringRules,
)
from tests import oracle
from tests.strategies import PRESETS

# ----------------------------------------------------------------------------- the oracle

# SPEC.md §5, the primiera table, read column by column: 7, 6, A, 5, 4, 3, 2, F, C, R.
# Here each list is indexed by rank (1 = Ace ... 10 = Re); index 0 is unused.
PRIMIERA_VALUES = {
    "classic": [0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10],
    "tretre": [0, 15, 12, 13, 14, 15, 18, 21, 10, 10, 10],
    "face-value-figures": [0, 16, 12, 13, 14, 15, 18, 21, 8, 9, 10],
    "zero-figures": [0, 16, 12, 13, 14, 15, 18, 21, 0, 0, 0],
}
POLICIES = ["opponent-wins", "zero"]
CASCADE = [7, 6, 1, 5, 4, 3, 2]  # SPEC.md §5: sevens, then sixes, Aces, fives...

Pile = list[tuple[int, str]]
Reference = dict[str, tuple[list[int], list[int]]]


def plain(cards: frozenset[Card] | list[Card]) -> Pile:
    """Cards as `(rank, suit letter)` pairs, read from their text (`7D` -> (7, "D"))."""
    return [(int(str(card)[:-1]), str(card)[-1]) for card in cards]


def unique_best(figures: list[int], allowed: list[bool]) -> list[int]:
    """One point to the single allowed side with the highest figure; a tie gives nothing."""
    points = [0] * len(figures)
    best = None
    for side, figure in enumerate(figures):
        if allowed[side] and (best is None or figure > best):
            best = figure
    winners = [s for s, f in enumerate(figures) if allowed[s] and f == best]
    if len(winners) == 1:
        points[winners[0]] = 1
    return points


def primiera(piles: list[Pile], table: str, policy: str, rule: str) -> tuple[list[int], list[int]]:
    """The primiera points and figures of SPEC.md §5."""
    sides = len(piles)
    if rule != "sum":
        sevens = [sum(1 for rank, _ in pile if rank == 7) for pile in piles]
        if rule == "settanta":  # three or four sevens win
            return [1 if n >= 3 else 0 for n in sevens], sevens
        still = list(range(sides))  # the cascade: most sevens, then sixes, Aces...
        for wanted in CASCADE:
            counts = [sum(1 for rank, _ in piles[s] if rank == wanted) for s in range(sides)]
            most = max(counts[s] for s in still)
            still = [s for s in still if counts[s] == most]
        points = [0] * sides
        if len(still) == 1:
            points[still[0]] = 1
        return points, sevens
    values = PRIMIERA_VALUES[table]
    sums = []
    complete = []
    for pile in piles:
        total = 0
        held = 0
        for suit in "DCSB":
            in_suit = [values[rank] for rank, s in pile if s == suit]
            if in_suit:
                total += max(in_suit)
                held += 1
        sums.append(total)
        complete.append(held == 4)
    # With "zero" a missing suit counts 0; with opponent-wins a side lacking a suit cannot
    # win.
    allowed = [True] * sides if policy == "zero" else complete
    return unique_best(sums, allowed), sums


def reference_score(
    piles: list[Pile],
    scope: list[int],
    table: str = "classic",
    policy: str = "opponent-wins",
    rule: str = "sum",
) -> Reference:
    """Each category's points and figures, per side, as SPEC.md §5 states them."""
    sides = len(piles)
    everyone = [True] * sides
    cards = [len(pile) for pile in piles]
    denari = [sum(1 for _, suit in pile if suit == "D") for pile in piles]
    settebello = [1 if (7, "D") in pile else 0 for pile in piles]
    return {
        "scope": (list(scope), list(scope)),
        "carte": (unique_best(cards, everyone), cards),
        "denari": (unique_best(denari, everyone), denari),
        "settebello": (settebello, settebello),
        "primiera": primiera(piles, table, policy, rule),
    }


def by_side(rules: Rules, state: GameState) -> tuple[list[Pile], list[int]]:
    """The players' piles and scope pooled by side (player p plays for side p % sides)."""
    sides = rules.players if rules.sides is None else rules.sides
    piles: list[Pile] = [[] for _ in range(sides)]
    scope = [0] * sides
    for player in range(rules.players):
        piles[player % sides] += plain(state.piles[player])
        scope[player % sides] += state.scope[player]
    return piles, scope


def assert_same(score: HandScore, expected: Reference) -> None:
    assert [c.name for c in score] == list(expected)
    for category in score:
        points, figures = expected[category.name]
        assert list(category.points) == points, category
        assert list(category.figures) == figures, category
    totals = [
        sum(points[side] for points, _ in expected.values()) for side in range(len(score.points))
    ]
    assert list(score.points) == totals


# SPEC.md §8: tretre is the classic game with the tretre table and, by §7.5, a missing
# suit counting zero; every other preset scores the classic way.
PRESET_PRIMIERA = {"tretre": ("tretre", "zero")}


def preset_primiera(rules: Rules) -> tuple[str, str]:
    return PRESET_PRIMIERA.get(rules.name, ("classic", "opponent-wins"))


# ----------------------------------------------------------------------------- hands


def test_the_presets_score_as_the_spec_says() -> None:
    for rules in PRESETS:
        table, policy = preset_primiera(rules)
        names = [c.name for c in rules.scoring.components]
        assert names == ["scope", "carte", "denari", "settebello", "primiera"], rules.name
        component = rules.scoring.components[-1]
        assert isinstance(component, Primiera)
        assert list(component.table.values) == PRIMIERA_VALUES[table][1:]
        assert component.missing_suit.value == policy
        assert component.rule is PrimieraRule.SUM


HANDS_PER_PRESET = 1000


@pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
def test_random_hands_score_as_the_oracle(rules: Rules) -> None:
    table, policy = preset_primiera(rules)
    rng = random.Random(f"hands {rules.name}")
    for _ in range(HANDS_PER_PRESET):
        state = GameState.new(rules, seed=rng.getrandbits(64), dealer=rng.randrange(rules.players))
        stop = rng.randrange(rules.plays_per_hand)  # also score one position mid-hand
        plays = 0
        while not state.is_terminal:
            if plays == stop:
                assert_same(
                    state.hand_score(), reference_score(*by_side(rules, state), table, policy)
                )
            moves = state.legal_moves()
            state = state.apply(moves[rng.randrange(len(moves))])
            plays += 1
        expected = reference_score(*by_side(rules, state), table, policy)
        assert_same(state.hand_score(), expected)
        if rules.number_of_sides == 2:  # SPEC.md §8 KA-25
            ties = sum(sum(expected[name][0]) == 0 for name in ("carte", "denari", "primiera"))
            scope = sum(expected["scope"][0])
            assert sum(state.hand_score().points) == scope + 4 - ties


# ----------------------------------------------------------------------------- partitions

TABLES = {
    "classic": PrimieraTable.CLASSIC,
    "tretre": PrimieraTable.TRETRE,
    "face-value-figures": PrimieraTable.FACE_VALUE_FIGURES,
    "zero-figures": PrimieraTable.ZERO_FIGURES,
}
CONFIGS = [(t, p, "sum") for t in TABLES for p in POLICIES] + [
    ("classic", "opponent-wins", "cascade"),
    ("classic", "opponent-wins", "settanta"),
]
RULES = {"sum": PrimieraRule.SUM, "cascade": PrimieraRule.MOST_SEVENS_CASCADE}
RULES["settanta"] = PrimieraRule.SETTANTA_3_SEVENS


def scoring(table: str, policy: str, rule: str) -> ScoringRules:
    base = ScoringRules.standard(TABLES[table], MissingSuit(policy))
    return base.without("primiera").with_component(
        Primiera(TABLES[table], MissingSuit(policy), RULES[rule])
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


def test_the_oracle_knows_the_spec_examples() -> None:
    # The oracle itself, on SPEC.md §8: KA-18 and KA-19.
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

    `must_play_capturing_card_if_any` and `ace_first_lead_forbidden` are never both on:
    when the only card that can capture on the first play is an Ace, the two rules
    contradict each other, SPEC.md does not say which wins, and the oracle allows no move
    at all (the library lets the Ace capture).
    """
    capturing_first = rng.random() < 0.5
    return attrs.evolve(
        rules,
        capture_priority=rng.choice(list(CapturePriority)),
        played_card_must_capture=rng.random() < 0.5,
        must_play_capturing_card_if_any=capturing_first,
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


@pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
def test_legal_moves_agree_with_the_capture_oracle(rules: Rules) -> None:
    rng = random.Random(f"captures {rules.name}")
    positions = compare_captures(rules, 250, rng)
    for _ in range(10):
        positions += compare_captures(varied(rules, rng), 10, rng)
    assert positions > 10_000
