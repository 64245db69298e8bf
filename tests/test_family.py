"""Known answers for the family's rules that need more than one line of a golden file.

Computed by hand from the rules page (docs/rules.md) and the presets' pages
(docs/variants/*.md): the first table of 15 or 30 (with the matta), declarations as they
are played and scored, and the endings (the lowest total, claims, outright wins, the last
hand's countdown). The captures, declarations allowed, misdeals and scores of the presets
are in the golden files.

Player 1 deals unless said, so player 0 leads; the first table is the 7th to 10th card.
"""

from __future__ import annotations

import attrs
import pytest

from scopa import (
    CategoryScore,
    Deck,
    FirstTable,
    GameState,
    HandScore,
    Match,
    Move,
    Napola,
    Rules,
    ScoringRules,
    Tiebreak,
    find_variant,
    view,
)
from scopa.match import _countdown
from scopa.state import _splits_into_fifteens
from tests.helpers import (
    CLASSIC,
    Scripted,
    card_list,
    cards,
    finish_hand,
    lead,
    rest_of,
    scripted,
)

ESCOBA = find_variant("escoba")
CIRULLA = find_variant("cirulla")
TWO_GROUPS = attrs.evolve(ESCOBA, first_table=FirstTable.TWO_GROUPS)


def dealt(rules: Rules, table: str, hands: str = "1D 2D 3D 4D 5D 6D") -> GameState:
    """A hand dealt by player 1: player 0 gets the first 3 cards, the dealer the next 3."""
    head = card_list(hands) + card_list(table)
    return GameState.new(rules, deck=Deck([*head, *sorted(rest_of(head))]), dealer=1)


# --------------------------------------------------------------------------- first tables


@pytest.mark.parametrize(
    ("rules", "table", "sweeps"),
    [
        # 1 + 2 + 5 + 7 = 15: one escoba for the dealer.
        pytest.param(ESCOBA, "1C 2S 5B 7C", 1, id="escoba-15"),
        # 10 + 10 + 9 + 1 = 30: two (pagat counts the total).
        pytest.param(ESCOBA, "10C 10S 9B 1C", 2, id="escoba-30-total"),
        # ... but no two groups of 15 in 10, 10, 9, 1 (10 + 1, 10 + 9 ...): none.
        pytest.param(TWO_GROUPS, "10C 10S 9B 1C", 0, id="escoba-30-no-groups"),
        # 10 + 5 and 8 + 7: two groups of 15.
        pytest.param(TWO_GROUPS, "10C 5S 8B 7C", 2, id="escoba-30-two-groups"),
        # 7 + 10 + 6 + 2 = 25: nothing; the 7C is no matta in Escoba.
        pytest.param(ESCOBA, "7C 10S 6B 2C", 0, id="escoba-25"),
        # Cirulla: 7 + 3 + 2 + 3 = 15 without the matta.
        pytest.param(CIRULLA, "7D 3S 2B 3C", 1, id="cirulla-15"),
        # The matta 7C with 2 + 3 + 4 = 9: it counts 6, and the table 15.
        pytest.param(CIRULLA, "7C 2S 3B 4C", 1, id="cirulla-matta-15"),
        # The matta with 10 + 10 + 5 = 25: it counts 5, and the table 30.
        pytest.param(CIRULLA, "7C 10S 10B 5C", 2, id="cirulla-matta-30"),
        # The matta with 10 + 6 + 2 = 18: 15 would need -3, 30 would need 12: nothing.
        pytest.param(CIRULLA, "7C 10S 6B 2C", 0, id="cirulla-matta-none"),
        # The matta counts at least 1: with 5 + 4 + 6 = 15, the table is 16 or more.
        pytest.param(CIRULLA, "7C 5S 4B 6C", 0, id="cirulla-matta-at-least-1"),
        # ... and it may count 1: with 5 + 4 + 5 = 14, the table is 15.
        pytest.param(CIRULLA, "7C 5S 4B 5C", 1, id="cirulla-matta-1"),
        # ... and at most 10: with 10 + 7 + 2 = 19, 30 would need 11.
        pytest.param(CIRULLA, "7C 10S 7B 2C", 0, id="cirulla-matta-at-most-10"),
        # Classic plays a first table of 15 like any other.
        pytest.param(CLASSIC, "1C 2S 5B 7C", 0, id="classic-15"),
        # 1 + 2 + 5 + 6 = 14 without a matta: nothing.
        pytest.param(ESCOBA, "1C 2S 5B 6C", 0, id="escoba-14"),
    ],
)
def test_the_first_table_of_15_or_30(rules: Rules, table: str, sweeps: int) -> None:
    state = dealt(rules, table)
    if sweeps:  # the dealer takes the four cards, and player 0 leads to an empty table
        assert state.table == frozenset()
        assert state.piles == (frozenset(), cards(table))
        assert state.scope == (0, sweeps)
        assert state.last_capturer == 1
    else:
        assert state.table == cards(table)
        assert state.scope == (0, 0)
        assert state.last_capturer is None
    assert state.current_player == 0


def test_the_eldest_hand_may_take_the_first_table() -> None:
    state = dealt(attrs.evolve(ESCOBA, first_table_to_eldest=True), "1C 2S 5B 7C")
    assert state.piles == (cards("1C 2S 5B 7C"), frozenset())
    assert state.scope == (1, 0)


def test_cirulla_annuls_two_aces_before_any_fifteen() -> None:
    # 1 + 1 + 6 + 7 = 15, but two Aces annul the deal first.
    assert CIRULLA.misdeal.annuls(card_list("1C 1S 6B 7D"))


# --------------------------------------------------------------------------- declarations


def test_a_declaration_scores_and_shows_the_hand() -> None:
    # 2 + 3 + 4 = 9: busso, 3 points; the two cards left are shown to everyone.
    state = lead(CIRULLA, "2C 3S 4B", "9D")
    after = state.apply(Move.parse("2C@busso"))
    seen = view(after, 1)
    assert seen.declared == (3, 0)
    assert seen.revealed == (cards("3S 4B"), frozenset())
    assert cards("3S 4B").isdisjoint(seen.unseen)
    assert after.hand_score()["accusi"].points == (3, 0)
    # the next card played leaves the shown cards
    later = after.apply(after.legal_moves()[0]).apply(Move.parse("3S"))
    assert view(later, 1).revealed == (cards("4B"), frozenset())


def test_tris_scores_ten_and_only_at_the_first_play_of_a_deal() -> None:
    state = lead(CIRULLA, "4C 4S 4B", "10D")
    after = state.apply(Move.parse("4C@tris"))
    assert after.hand_score()["accusi"].points == (10, 0)
    # player 0's next play holds two cards: no declaration any more
    again = after.apply(after.legal_moves()[0])
    assert {m.declaration for m in again.legal_moves()} == {None}


def test_partners_declarations_add_up_for_their_side() -> None:
    # Four players in two sides: players 0 and 2 declared a busso (3) and a tris (10).
    rules = attrs.evolve(CIRULLA, players=4, sides=2)
    hands = [cards("1D 2D 3D"), cards("4D 5D 6D"), cards("7D 8D 9D"), cards("10D 1C 2C")]
    table = cards("3C 4C 5C 6C")
    state = GameState.from_position(
        rules,
        hands=hands,
        table=table,
        stock=sorted(rest_of(*hands, table)),
        dealer=3,
        declared=[3, 0, 10, 0],
    )
    assert state.hand_score()["accusi"].points == (13, 0)


def test_rules_with_claims_but_no_declarations_offer_no_declaration() -> None:
    # 1 + 2 + 3 = 6 would be a busso, but classic with claims has no declarations.
    state = lead(attrs.evolve(CLASSIC, claim_out=True), "1D 2C 3S", "9D")
    moves = state.legal_moves()
    assert {m.declaration for m in moves} == {None}
    assert {m.claim for m in moves} == {False, True}


# --------------------------------------------------------------------------- endings


def test_the_lowest_total_wins_once_a_side_reaches_the_target() -> None:
    rules = scripted(find_variant("scopa-a-perdere"), [(10, 5), (12, 4)])
    match = finish_hand(Match.new(rules, seed=1))
    assert not match.is_over  # 10-5: nobody at 21
    match = finish_hand(match)
    assert match.totals == (22, 9)
    assert match.winner == 1  # side 0 reached 21: the lowest total, 9, wins


def test_the_lowest_total_plays_on_at_a_tie_at_the_top() -> None:
    rules = scripted(find_variant("scopa-a-perdere"), [(11, 11), (10, 10), (1, 0)])
    match = finish_hand(finish_hand(Match.new(rules, seed=1)))
    assert match.totals == (21, 21)
    assert not match.is_over
    match = finish_hand(match)
    assert match.totals == (22, 21)
    assert match.winner == 1


CLAIMS = attrs.evolve(CLASSIC, claim_out=True, target=1)
# Dealer 0: player 1 leads 7D 2C 3C; the table 7B 8S 9S 10S.
CLAIM_DECK = Deck(
    [
        *card_list("7D 2C 3C 4C 5C 6C 7B 8S 9S 10S"),
        *sorted(rest_of(card_list("7D 2C 3C 4C 5C 6C 7B 8S 9S 10S"))),
    ]
)


def test_a_correct_claim_wins() -> None:
    # 7D takes the 7B: the settebello is sure, 1 point: side 1 reaches the target of 1.
    match = Match.new(CLAIMS, decks=[CLAIM_DECK])
    assert Move.parse("7Dx7B!") in match.state.legal_moves()
    over = match.apply(Move.parse("7Dx7B!"))
    assert over.claim is not None
    assert (over.claim.player, over.claim.correct) == (1, True)
    assert over.winner == 1


@pytest.mark.parametrize(
    ("rules", "move"),
    [
        # 2C is laid: nothing is sure yet.
        pytest.param(CLAIMS, "2C!", id="nothing-sure"),
        # the settebello's point falls short of a target of 2.
        pytest.param(attrs.evolve(CLAIMS, target=2), "7Dx7B!", id="short-of-the-target"),
    ],
)
def test_a_false_claim_loses(rules: Rules, move: str) -> None:
    over = Match.new(rules, decks=[CLAIM_DECK]).apply(Move.parse(move))
    assert over.claim is not None
    assert not over.claim.correct
    assert over.winner == 0


def test_a_play_without_a_claim_claims_nothing() -> None:
    match = Match.new(CLAIMS, decks=[CLAIM_DECK]).apply(Move.parse("7Dx7B"))
    assert not match.is_over
    assert match.claim is None


def test_an_outright_win_beats_the_totals() -> None:
    # the second category declares side 1 the winner, although side 0 is at the target
    rules = scripted(CLASSIC, [(12, 0)])
    outright = attrs.evolve(rules, scoring=rules.scoring.with_component(_Outright()))
    match = finish_hand(Match.new(outright, seed=1))
    assert match.totals == (12, 0)
    assert match.winner == 1


def test_the_lowest_total_plays_on_when_two_sides_share_it() -> None:
    # Three players: side 0 reaches 21, sides 1 and 2 share the lowest total, 3.
    rules = scripted(
        attrs.evolve(find_variant("scopa-a-perdere"), players=3), [(21, 3, 3), (0, 1, 0)]
    )
    match = finish_hand(Match.new(rules, seed=1))
    assert match.totals == (21, 3, 3)
    assert not match.is_over
    match = finish_hand(match)
    assert match.totals == (21, 4, 3)
    assert match.winner == 2


def test_a_match_counts_its_last_hand_down() -> None:
    # Two categories counted in their order. The first hand brings both sides to 10; in the
    # second, the first category's point brings side 0 to 11 before the second category
    # brings side 1 to 13: side 0 wins the countdown, side 1 would win on the totals.
    def rules(tiebreak: Tiebreak) -> Rules:
        first = Scripted(iter([(5, 5), (1, 0)]), "first")
        second = Scripted(iter([(5, 5), (0, 3)]), "second")
        return attrs.evolve(CLASSIC, tiebreak=tiebreak, scoring=ScoringRules((first, second)))

    for tiebreak, winner in ((Tiebreak.LAST_HAND_COUNTDOWN, 0), (Tiebreak.PLAY_ON, 1)):
        match = finish_hand(Match.new(rules(tiebreak), seed=1))
        assert match.totals == (10, 10)
        assert not match.is_over
        match = finish_hand(match)
        assert match.totals == (11, 13)
        assert match.winner == winner


@attrs.frozen
class _Outright:
    """A category that gives nothing and declares side 1 the winner."""

    name: str = "outright"

    def score(self, hand: object) -> CategoryScore:
        """No points; side 1 wins the match."""
        return CategoryScore(self.name, (0, 0), wins_match=1)


def _hand(**points: tuple[int, int]) -> HandScore:
    """A hand's score with the standard categories, given by their points."""
    return HandScore(tuple(CategoryScore(name, points.get(name, (0, 0))) for name in _NAMES))


_NAMES = ("scope", "carte", "denari", "settebello", "primiera")
COUNTDOWN = attrs.evolve(CLASSIC, tiebreak=Tiebreak.LAST_HAND_COUNTDOWN)


@pytest.mark.parametrize(
    ("before", "points", "winner"),
    [
        # 10-10: carte is counted first and gives side 1 its 11th point.
        pytest.param((10, 10), {"scope": (3, 0), "carte": (0, 1)}, 1, id="carte-first"),
        # carte tied (none); denari to side 0: 11 first, whatever side 1's scope.
        pytest.param((10, 10), {"denari": (1, 0), "scope": (0, 5)}, 0, id="denari-next"),
        # 9-10: side 0 needs two; carte and denari to 0 reach 11 before the settebello (1).
        pytest.param(
            (9, 10), {"carte": (1, 0), "denari": (1, 0), "settebello": (0, 1)}, 0, id="two"
        ),
        # 10-9: settebello to 0 (11) before primiera to 1, which is counted later.
        pytest.param(
            (10, 9),
            {"primiera": (0, 1), "settebello": (1, 0), "scope": (0, 2)},
            0,
            id="settebello-before-primiera",
        ),
        # 8-8: nobody reaches 11 before the scope, 3 each: 11-11, a tie to the end.
        pytest.param((8, 8), {"scope": (3, 3)}, None, id="tie-plays-on"),
        # 10-9: both reach 11 with the scope, 11 and 12: the higher total wins.
        pytest.param((10, 9), {"scope": (1, 3)}, 1, id="both-reach-the-higher-wins"),
        # 2-3: nobody reaches 11 at all.
        pytest.param((2, 3), {"carte": (1, 0), "scope": (2, 2)}, None, id="nobody-reaches"),
    ],
)
def test_the_last_hand_countdown(
    before: tuple[int, int], points: dict[str, tuple[int, int]], winner: int | None
) -> None:
    assert _countdown(COUNTDOWN, _hand(**points), before) == winner


def test_the_countdown_counts_other_categories_before_the_scope() -> None:
    # Classic with a napola, scored last but counted after primiera and before the scope:
    # 10-9, the napola's 2 bring side 1 to 11 before side 0's 3 scope are counted.
    rules = attrs.evolve(COUNTDOWN, scoring=COUNTDOWN.scoring.with_component(Napola()))
    names = (*_NAMES, "napola")
    points = {"scope": (3, 0), "napola": (0, 2)}
    score = HandScore(tuple(CategoryScore(n, points.get(n, (0, 0))) for n in names))
    assert _countdown(rules, score, (10, 9)) == 1
    # Without the napola's points, the scope comes last and gives side 0 its 13.
    points["napola"] = (0, 0)
    score = HandScore(tuple(CategoryScore(n, points.get(n, (0, 0))) for n in names))
    assert _countdown(rules, score, (10, 9)) == 0


@pytest.mark.parametrize(
    ("values", "splits"),
    [
        ([10, 5, 8, 7], True),  # 10 + 5 and 8 + 7
        ([1, 4, 10, 7, 8], True),  # 1 + 4 + 10 and 7 + 8
        ([9, 9, 6, 6], True),  # 9 + 6 twice
        ([10, 10, 9, 1], False),  # no part adds up to 15
        ([8, 8, 8, 6], False),
        ([3] * 10, True),  # five threes and five threes
    ],
)
def test_thirty_split_into_two_fifteens(values: list[int], splits: bool) -> None:
    assert sum(values) == 30
    assert _splits_into_fifteens(values) is splits
