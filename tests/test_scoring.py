from __future__ import annotations

import itertools
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scopa
from scopa import (
    DECK,
    Captures,
    Card,
    CardPoints,
    Carte,
    CategoryScore,
    Denari,
    Grande,
    Ponino,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    Rank,
    Rules,
    RulesError,
    ScoredOn,
    ScoringComponent,
    ScoringRules,
    Suit,
    scoring,
)
from tests.helpers import CLASSIC, STANDARD_CATEGORIES, finished, piles_of
from tests.strategies import PRESETS

KING_OF_DENARI = Card(Rank.RE, Suit.DENARI)


@attrs.frozen
class KingOfDenari:
    """A user's own component: one point for the king of denari."""

    name: str = "re bello"

    def score(self, hand: Captures) -> CategoryScore:
        held = tuple(int(KING_OF_DENARI in pile) for pile in hand.piles)
        return CategoryScore(self.name, held, held)


def test_a_user_component_scores_without_touching_the_library() -> None:
    assert isinstance(KingOfDenari(), ScoringComponent)
    rules = attrs.evolve(CLASSIC, scoring=CLASSIC.scoring.with_component(KingOfDenari()))
    # Player 0 captured the ten denari only (so also 10D and 7D); player 1 the rest.
    score = finished(rules, piles_of(["1-10D", "*"])).hand_score()
    assert score["re bello"].points == (1, 0)
    # carte 10-30 to 1, denari 10-0 to 0, settebello to 0, re bello to 0; primiera: 0
    # lacks three suits and 1 lacks denari, so nobody scores it.
    assert score["primiera"].points == (0, 0)
    assert score.points == (3, 1)
    assert [c.name for c in score] == [*STANDARD_CATEGORIES, "re bello"]


def test_component_names_must_be_unique_and_components_must_fit_the_protocol() -> None:
    with pytest.raises(RulesError, match="unique"):
        ScoringRules.standard().with_component(KingOfDenari()).with_component(KingOfDenari())
    with pytest.raises(RulesError, match="no name and score"):
        ScoringRules((object(),))  # type: ignore[arg-type]


def test_without_removes_a_category() -> None:
    rules = ScoringRules.standard().without("settebello")
    assert [c.name for c in rules.components] == ["scope", "carte", "denari", "primiera"]
    with pytest.raises(RulesError, match="no scoring component 'napola'"):
        rules.without("napola")


def test_a_component_with_the_wrong_number_of_sides_is_reported() -> None:
    @attrs.frozen
    class Broken:
        name: str = "broken"

        def score(self, hand: Captures) -> CategoryScore:
            return CategoryScore(self.name, (1,))

    captures = Captures((frozenset(DECK[:20]), frozenset(DECK[20:])), (0, 0))
    with pytest.raises(RulesError, match="'broken' gave 1 scores for 2 sides"):
        ScoringRules((Broken(),)).score(captures)


def test_unknown_category_is_a_key_error_naming_the_known_ones() -> None:
    score = ScoringRules.standard().score(Captures((frozenset(DECK), frozenset()), (0, 0)))
    with pytest.raises(KeyError, match="primiera"):
        score["napola"]


@pytest.mark.parametrize("values", [(1, 2, 3), (-1,) * 10, ("a",) * 10, (True,) * 10, (101,) * 10])
def test_primiera_tables_need_ten_non_negative_ints(values: tuple[object, ...]) -> None:
    with pytest.raises(RulesError, match="ten ints from 0 to 100"):
        PrimieraTable("bad", values)  # type: ignore[arg-type]


def test_primiera_tables_known_values() -> None:
    assert PrimieraTable.CLASSIC.value(Rank.SETTE) == 21
    assert PrimieraTable.CLASSIC.value(Rank.ASSO) == 16
    assert PrimieraTable.TRETRE.value(Rank.ASSO) == 15
    assert PrimieraTable.FACE_VALUE_FIGURES.value(Rank.CAVALLO) == 9
    assert PrimieraTable.ZERO_FIGURES.value(Rank.RE) == 0
    # the maximum is four sevens: 84
    assert 4 * max(PrimieraTable.CLASSIC.values) == 84


def test_the_standard_scoring_keeps_its_missing_suit_policy() -> None:
    from scopa import MissingSuit, Primiera

    for policy in MissingSuit:
        scoring = ScoringRules.standard(PrimieraTable.TRETRE, policy)
        primiera = scoring.components[-1]
        assert isinstance(primiera, Primiera)
        assert primiera.missing_suit is policy
        assert primiera.table == PrimieraTable.TRETRE


def test_a_primiera_table_may_give_a_rank_100_points() -> None:
    table = PrimieraTable("aces high", (100, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    assert table.value(Rank.ASSO) == 100
    with pytest.raises(RulesError, match="ten ints from 0 to 100"):
        PrimieraTable("too high", (101, 0, 0, 0, 0, 0, 0, 0, 0, 0))


def test_a_component_without_a_proper_name_is_refused_by_that_description() -> None:
    @attrs.frozen
    class Nameless:
        name: str = ""

        def score(self, captures: Captures) -> CategoryScore:
            raise NotImplementedError

    with pytest.raises(
        RulesError, match=r"^a scoring component's name must have 1 to 64 characters"
    ):
        ScoringRules((Nameless(),))


# ----------------------------------------------------------------------- guaranteed points

_COMPONENTS = {
    repr(c): c
    for c in (
        *(c for r in PRESETS for c in r.scoring.components),
        Carte(threshold=21),  # the thresholds of the "20 or more cards" readings
        Denari(threshold=6),
    )
}


@pytest.mark.parametrize("component", _COMPONENTS.values(), ids=_COMPONENTS.keys())
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_guaranteed_points_are_the_least_of_every_way_the_hand_can_end(
    component: ScoringComponent, data: st.DataObject
) -> None:
    # Deal 40 cards to two sides' piles and the cards still out (at most 7, so that every
    # way of sharing them can be tried); the points a side is guaranteed are those it
    # keeps however the cards out are shared.
    owners = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=40, max_size=40))
    dealt = list(zip(DECK, owners, strict=True))
    out = [card for card, owner in dealt if owner == 2][:7]
    piles = (
        frozenset(c for c, o in dealt if o == 0 or (o == 2 and c not in out)),
        frozenset(c for c, o in dealt if o == 1),
    )
    scope = (data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3)))
    declared = (data.draw(st.sampled_from([0, 3, 10])), data.draw(st.sampled_from([0, 3])))
    hand = Captures(tuple(piles), scope, declared)
    sure = ScoringRules((component,)).guaranteed(hand, frozenset(out))
    least: list[int | None] = [None, None]
    for shares in itertools.product((0, 1), repeat=len(out)):
        ended = [set(piles[0]), set(piles[1])]
        for card, side in zip(out, shares, strict=True):
            ended[side].add(card)
        points = component.score(Captures(tuple(map(frozenset, ended)), scope, declared)).points
        least = [p if low is None else min(low, p) for low, p in zip(least, points, strict=True)]
    assert list(sure) == least


def test_a_threshold_holds_back_a_point_three_sides_would_otherwise_be_sure_of() -> None:
    # With every card taken, 15 cards against 12 and 13 is the most, but short of 21; five
    # denari against 3 and 2 are the most, but short of 6.
    denari = [Card(r, Suit.DENARI) for r in range(1, 11)]
    others = [c for c in DECK if c.suit is not Suit.DENARI]
    piles = (
        frozenset(denari[:5] + others[:10]),
        frozenset(denari[5:8] + others[10:19]),
        frozenset(denari[8:] + others[19:]),
    )
    assert [len(p) for p in piles] == [15, 12, 13]
    hand = Captures(piles, (0, 0, 0))
    assert Carte(threshold=21).guaranteed(hand, frozenset()) == (0, 0, 0)
    assert Carte(threshold=15).guaranteed(hand, frozenset()) == (1, 0, 0)
    assert Denari(threshold=6).guaranteed(hand, frozenset()) == (0, 0, 0)
    assert Denari(threshold=5).guaranteed(hand, frozenset()) == (1, 0, 0)


@pytest.mark.parametrize("rule", [PrimieraRule.MOST_SEVENS_CASCADE, PrimieraRule.SETTANTA_3_SEVENS])
def test_the_primiera_of_sevens_is_never_sure_before_the_end(rule: PrimieraRule) -> None:
    # Side 0 holds all four sevens and every six, and nothing is left to take: yet a
    # primiera counted by sevens promises nothing before the hand is scored.
    sevens = frozenset(c for c in DECK if c.rank in (6, 7))
    hand = Captures((sevens, frozenset(DECK) - sevens), (0, 0))
    assert Primiera(rule=rule).score(hand).points == (1, 0)
    assert Primiera(rule=rule).guaranteed(hand, frozenset()) == (0, 0)


def test_a_component_without_guaranteed_points_promises_nothing() -> None:
    # A component of your own with only a `score` counts nothing in the guaranteed points.
    @attrs.frozen
    class Always:
        name: str = "always"

        def score(self, hand: Captures) -> CategoryScore:
            return CategoryScore(self.name, (1, 0))

    hand = Captures((frozenset(DECK), frozenset()), (2, 0))
    assert ScoringRules((Always(), Carte())).guaranteed(hand, frozenset()) == (1, 0)


def test_card_points_take_ranks_from_1_to_10() -> None:
    assert CardPoints(ranks=(10, 1, 10, 8)).ranks == (1, 8, 10)  # sorted, once each
    for ranks in ((), (0,), (11,), (1, 11), (True,), (1.0,)):
        with pytest.raises(RulesError) as caught:
            CardPoints(ranks=ranks)  # type: ignore[arg-type]
        assert str(caught.value).startswith("ranks must be ranks from 1 to 10, not "), caught.value
    with pytest.raises(RulesError, match=r"^ranks must be ranks from 1 to 10, not \(11,\)$"):
        CardPoints(ranks=(11,))
    # a 2 of denari, a King of coppe and a 3 for one side; the two Aces for the other
    frac = CardPoints(ranks=(1, 10), value=2)
    hand = Captures(
        (
            frozenset(map(Card.parse, ["2D", "10C", "3S"])),
            frozenset(map(Card.parse, ["1D", "1B"])),
        ),
        (0, 0),
    )
    assert frac.score(hand).points == (2, 4)


@pytest.mark.parametrize(
    ("denari", "extended", "plain"),
    [
        ("10D 9D 8D", 5, 5),  # the three figures
        ("10D 9D 8D 7D", 6, 5),  # and the 7
        ("10D 9D 8D 7D 6D", 7, 5),  # and the 6
        ("10D 9D 8D 7D 6D 5D", 7, 5),  # the 5 does not extend it
        ("10D 9D 8D 6D", 5, 5),  # the 6 without the 7 is no run
        ("10D 9D 7D 6D", 0, 0),  # no Fante: no grande
        ("9D 8D 7D", 0, 0),  # no Re
    ],
)
def test_the_grande_and_its_extensions(denari: str, extended: int, plain: int) -> None:
    mine = frozenset(map(Card.parse, denari.split()))
    hand = Captures((mine, frozenset(map(Card.parse, ["1D", "2C"]))), (0, 0))
    assert Grande().score(hand).points == (extended, 0)
    assert Grande(extends=False).score(hand).points == (plain, 0)
    swapped = Captures((hand.piles[1], mine), (0, 0))
    assert Grande().score(swapped).points == (0, extended)


def test_the_ponino_doubles_the_scope_of_the_side_with_four_cavalli() -> None:
    knights = frozenset(map(Card.parse, ["9D", "9C", "9S", "9B"]))
    three = frozenset(map(Card.parse, ["9D", "9C", "9S", "1B"]))
    assert Ponino().score(Captures((knights, three), (3, 2))).points == (3, 0)
    assert Ponino().score(Captures((three, knights), (3, 2))).points == (0, 2)
    assert Ponino().score(Captures((knights, three), (0, 4))).points == (0, 0)
    assert Ponino().score(Captures((knights, three), (3, 2))).figures == (1, 0)


# ----------------------------------------------------------------------------- the registry


def test_the_registry_holds_every_component_of_the_library_once() -> None:
    public = [getattr(scoring, name) for name in scoring.__all__]
    components = [
        value
        for value in public
        if isinstance(value, type)
        and attrs.has(value)
        and "name" in attrs.fields_dict(value)
        and hasattr(value, "score")
    ]
    assert sorted(components, key=str) == sorted(scoring.COMPONENTS, key=str)
    assert len(set(scoring.COMPONENTS)) == len(scoring.COMPONENTS)
    assert all(name in scopa.__all__ for name in scoring.__all__)


@pytest.mark.parametrize("kind", scoring.COMPONENTS, ids=lambda kind: kind.__name__)
def test_every_component_says_what_it_scores(kind: type[ScoringComponent]) -> None:
    # Under rules where nothing can be captured, only a category of declared points can
    # score, and only with declarations (Cirulla's busso and tris).
    scored_on = kind.scored_on  # type: ignore[attr-defined]
    assert isinstance(scored_on, ScoredOn)
    nothing_captured: dict[str, Any] = {
        "capture_by_rank": False,
        "capture_by_sum": False,
        "scoring": ScoringRules((kind(),)),
    }
    if scored_on is ScoredOn.DECLARATIONS:
        Rules(declarations=True, **nothing_captured)
    else:
        with pytest.raises(RulesError, match="no scoring category can ever give a point"):
            Rules(**nothing_captured)
