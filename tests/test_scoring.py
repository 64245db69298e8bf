from __future__ import annotations

import attrs
import pytest

from scopa import (
    DECK,
    Captures,
    Card,
    CategoryScore,
    PrimieraTable,
    Rank,
    RulesError,
    ScoringComponent,
    ScoringRules,
    Suit,
)
from tests.helpers import CLASSIC, STANDARD_CATEGORIES, finished, piles_of

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
