"""The move generator and its precomputed tables, rebuilt here and checked by brute force.

The library builds its capture tables when `scopa.moves` is imported and one generator per
rules value; these tests build them afresh, so that what is checked is the code that
builds them, on arbitrary hands and tables (not only positions reached in play).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import attrs
import pytest

import scopa
from scopa import (
    DECK,
    AceOnAce,
    CapturePriority,
    Card,
    CompulsoryCapture,
    GameState,
    IllegalMoveError,
    Move,
    Rules,
    RulesError,
    find_variant,
)
from scopa import moves as moves_module
from scopa.moves import MoveGenerator as move_generator
from scopa.moves import move_of_key
from tests import oracle
from tests.helpers import source_only
from tests.strategies import PRESETS


def mask(cards: frozenset[Card] | list[Card]) -> int:
    return sum(1 << card.index for card in cards)


def rank_set(cards: frozenset[Card]) -> int:
    return sum(1 << (rank - 1) for rank in {card.rank for card in cards})


def expected_moves(rules: Rules, hand: list[Card], table: frozenset[Card]) -> list[Move]:
    """The legal moves in the documented order, from the capture oracle."""
    found = []
    for card in sorted(hand, key=lambda c: c.index):
        allowed = oracle.card_captures(rules, card, table)
        if not allowed or rules.compulsory_capture is CompulsoryCapture.NONE:
            found.append(Move(card))

        def order(captured: frozenset[Card], card: Card = card) -> tuple[int, ...]:
            fifteen = sum(c.rank for c in captured) != card.rank  # taken to make fifteen
            return (fifteen, not fifteen and len(captured) > 1, rank_set(captured), mask(captured))

        ordered = sorted(allowed, key=order)
        found += [Move(card, captured) for captured in ordered]
    capturing_first = rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
    if capturing_first and any(m.captured for m in found):
        found = [m for m in found if m.captured]
    return found


def random_position(rng: random.Random) -> tuple[list[Card], frozenset[Card]]:
    """A hand of 1-10 cards and a table of 0-10 others, often with few ranks in play."""
    pool = list(DECK)
    if rng.random() < 0.3:
        low = rng.randint(1, 6)
        pool = [card for card in DECK if low <= card.rank <= low + rng.randint(1, 4)]
    chosen = rng.sample(pool, min(len(pool), rng.randint(1, 20)))
    cut = rng.randint(1, min(10, len(chosen)))
    return chosen[:cut], frozenset(chosen[cut:][:10])


def knob_combinations() -> list[Rules]:
    """The classic rules under every combination of the knobs the generator reads."""
    found = []
    flags = itertools.product((False, True), repeat=4)
    for (by_rank, by_sum, ace_all, fifteen), priority, ace_on_ace, compulsory in itertools.product(
        flags, CapturePriority, AceOnAce, CompulsoryCapture
    ):
        try:
            found.append(
                attrs.evolve(
                    find_variant("classic"),
                    capture_priority=priority,
                    compulsory_capture=compulsory,
                    capture_by_rank=by_rank,
                    capture_by_sum=by_sum,
                    ace_captures_all=ace_all,
                    ace_with_ace_on_table=ace_on_ace,
                    capture_to_fifteen=fifteen,
                )
            )
        except RulesError:
            continue
    return found


KNOBS = knob_combinations()


def test_every_knob_combination_is_checked() -> None:
    # four flags, three capture priorities, three Ace-on-Ace rules, three compulsory captures:
    # all of them are valid but those with the four ways of capturing off, under which no
    # match could end
    assert len(KNOBS) == 2**4 * 3 * 3 * 3 - 3 * 3 * 3


@pytest.mark.parametrize(
    "rules", PRESETS + KNOBS, ids=[r.name for r in PRESETS] + [str(i) for i in range(len(KNOBS))]
)
def test_a_fresh_generator_agrees_with_the_oracle(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    # empty caches, and a count of the tables searched without the precomputed sums
    monkeypatch.setattr(moves_module, "_MOVES", {})
    searched = []
    search = moves_module._sums_any_table

    def counted(target: int, table: int, *, singles: bool = False) -> list[int]:
        searched.append(table)
        return search(target, table, singles=singles)

    monkeypatch.setattr(moves_module, "_sums_any_table", counted)
    generate = move_generator(rules)
    rng = random.Random(f"generator {rules!r}")
    repeated_ranks = distinct_ranks = 0
    for _ in range(60):
        hand, table = random_position(rng)
        found = generate.moves(mask(hand), mask(table))
        expected = expected_moves(rules, hand, table)
        assert found == expected, (sorted(map(str, hand)), sorted(map(str, table)))
        # the moves are the shared ones, whatever path built them
        assert all(move is move_of_key(move.key) for move in found)
        if len({card.rank for card in table}) < len(table):
            repeated_ranks += 1
        else:
            distinct_ranks += 1
            # a table of distinct ranks is served by the precomputed sums
            assert mask(table) not in searched
    assert repeated_ranks >= 5
    assert distinct_ranks >= 5


def tables_of(
    ranks: int, smallest: int, entry: Callable[[int], int]
) -> tuple[tuple[int, ...], ...]:
    """What a table of captures should hold for a set of distinct ranks (bit r - 1 for r).

    Every set of at least `smallest` of the ranks goes, as the mask of its cards, into the
    entry `entry(its sum)` when that is a rank; each entry is sorted.
    """
    present = [r for r in range(1, 11) if ranks >> (r - 1) & 1]
    expected: list[list[int]] = [[] for _ in range(11)]
    for size in range(smallest, len(present) + 1):
        for chosen in itertools.combinations(present, size):
            place = entry(sum(chosen))
            if 1 <= place <= 10:
                expected[place].append(mask(frozenset(c for c in DECK if c.rank in chosen)))
    return tuple(tuple(sorted(masks)) for masks in expected)


def test_the_sum_tables_hold_every_set_of_distinct_ranks() -> None:
    # For a played rank r, the sets of two or more distinct ranks adding up to r.
    for ranks in range(1024):
        assert moves_module._sum_sets(ranks) == tables_of(ranks, 2, lambda total: total), ranks


def test_the_fifteen_tables_hold_every_set_of_distinct_ranks() -> None:
    # For a played rank r, the sets of one or more distinct ranks adding up to 15 - r.
    for ranks in range(1024):
        expected = tables_of(ranks, 1, lambda total: 15 - total)
        assert moves_module._fifteen_sets(ranks) == expected, ranks


def test_the_fewest_cards_are_kept() -> None:
    assert moves_module._fewest([]) == []
    assert moves_module._fewest([0b111]) == [0b111]
    assert moves_module._fewest([0b111, 0b11]) == [0b11]
    assert moves_module._fewest([0b111, 0b1001, 0b110, 0b1111]) == [0b1001, 0b110]


def small_caches(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """Empty caches of `limit` entries per generation."""
    for name in ("_MOVES", "_OLD_MOVES"):
        monkeypatch.setattr(moves_module, name, {})
    monkeypatch.setattr(moves_module, "_CACHE_LIMIT", limit)


@source_only
def test_a_move_key_names_its_card_and_captures(monkeypatch: pytest.MonkeyPatch) -> None:
    small_caches(monkeypatch, 3)
    rng = random.Random("keys")
    for _ in range(50):
        index = rng.randrange(40)
        taken = rng.sample([card for card in DECK if card.index != index], rng.randint(0, 5))
        key = mask(taken) << 6 | index
        move = move_of_key(key)
        assert move == Move(DECK[index], frozenset(taken))
        assert move.key == key
        assert move_of_key(key) is move
    assert 1 <= len(moves_module._MOVES) <= 3
    assert len(moves_module._OLD_MOVES) == 3
    for cache in (moves_module._MOVES, moves_module._OLD_MOVES):
        assert all(move.key == key for key, move in cache.items())


@source_only
def test_a_move_of_the_previous_generation_is_kept_when_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small_caches(monkeypatch, 2)
    one, two, three = (1 << 6 | 1, 1 << 6 | 2, 1 << 6 | 3)  # 2D, 3D, 4D taking 1D
    first, second, third = (move_of_key(key) for key in (one, two, three))
    assert {one: first, two: second} == moves_module._OLD_MOVES
    assert {three: third} == moves_module._MOVES
    assert move_of_key(one) is first  # found in the previous generation, brought forward
    assert {three: third, one: first} == moves_module._MOVES


def test_the_moves_that_lay_a_card_down_are_shared_without_the_cache() -> None:
    for card in DECK:
        laid = move_of_key(card.index)
        assert laid == Move(card)
        assert move_of_key(card.index) is laid
    assert not set(moves_module._MOVES) & set(range(40))


def test_the_moves_that_take_one_card_of_their_rank_are_shared_without_the_cache() -> None:
    moves_module.clear_caches()
    for card, other in itertools.permutations(DECK, 2):
        if card.rank == other.rank:
            key = (1 << other.index) << 6 | card.index
            taken = move_of_key(key)
            assert taken == Move(card, {other})
            assert move_of_key(key) is taken
    assert not moves_module._MOVES


def test_a_key_of_a_card_taking_itself_is_refused() -> None:
    for card in DECK:
        with pytest.raises(IllegalMoveError, match="cannot capture itself"):
            move_of_key((1 << card.index) << 6 | card.index)


@pytest.mark.parametrize("variant", ["asso-piglia-tutto", "scopone-scientifico"])
def test_the_caches_stay_bounded_whatever_is_played(
    monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    small_caches(monkeypatch, 50)
    rules = find_variant(variant)
    rng = random.Random(variant)
    for seed in range(40):
        state = GameState.new(rules, seed=seed)
        while not state.is_terminal:
            moves = state.legal_moves()
            state = state.apply(moves[rng.randrange(len(moves))])
            for name in ("_MOVES", "_OLD_MOVES"):
                assert len(getattr(moves_module, name)) <= 50


def test_rules_that_capture_alike_share_one_move_generator() -> None:
    moves_module.clear_caches()
    classic = find_variant("classic")
    shared = moves_module.generator_for(classic)
    for target in range(1, 2000):
        assert moves_module.generator_for(attrs.evolve(classic, target=target)) is shared
    assert len(moves_module._GENERATORS) == 1
    other = moves_module.generator_for(find_variant("scopone"))
    assert other is not shared
    assert len(moves_module._GENERATORS) == 2


@source_only
def test_the_generator_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(moves_module, "_GENERATORS", {})
    monkeypatch.setattr(moves_module, "_GENERATOR_LIMIT", 3)
    classic = find_variant("classic")
    for changed in (
        attrs.evolve(classic, capture_by_rank=False),
        attrs.evolve(classic, capture_by_sum=False),
        attrs.evolve(classic, compulsory_capture=CompulsoryCapture.NONE),
        attrs.evolve(classic, ace_captures_all=True),
    ):
        moves_module.generator_for(changed)
        assert len(moves_module._GENERATORS) <= 3


def test_clearing_the_caches_empties_them() -> None:
    state = GameState.new(find_variant("classic"), seed=3)
    state.legal_moves()
    scopa.clear_caches()
    for name in ("_MOVES", "_OLD_MOVES", "_GENERATORS"):
        assert not getattr(moves_module, name), name
    # and play goes on as before
    assert GameState.new(find_variant("classic"), seed=3).legal_moves() == state.legal_moves()
