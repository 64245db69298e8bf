"""Positions built by hand and read from text, the first lead, views and cold caches.

Positions are written as `GameState.to_text` writes them: hands, table, stock, piles, scope,
dealer, player to move and last capturer.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scopa
from scopa import (
    AmbiguousMoveError,
    Card,
    CompulsoryCapture,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    Match,
    Move,
    NotationError,
    find_variant,
    view,
)
from scopa.cards import parse_cards
from tests.helpers import every_preset, wrong_type
from tests.strategies import states

CLASSIC = find_variant("classic")
# Seed 1 deals player 0 (the dealer) 2D 8S 9B and player 1 1D 3S 9C, with 2C 5D 6D 8C on the
# table and 30 cards in the stock: player 1 leads.
DEALT = (
    "2D8S9B/1D9C3S 5D6D2C8C"
    " 4C3B5B10D1S3D5S4S1B10B1C10C6C6S10S6B7B2S4B8B9D7S9S7D3C7C2B4D8D5C -/- 0/0 0 1 -"
)


def cards(text: str) -> list[Card]:
    """The cards of a text such as `"1S 5D 7C"`."""
    return [Card.parse(part) for part in text.split()]


def test_the_dealt_position_reads_back() -> None:
    state = GameState.new(CLASSIC, seed=1)
    assert state.to_text() == DEALT
    assert GameState.from_text(CLASSIC, DEALT) == state


def test_a_position_whose_player_to_move_disagrees_with_the_hands_is_refused() -> None:
    # Both hands hold three cards and player 0 deals, so player 1 is to move, not player 0.
    wrong = DEALT[: -len("0 1 -")] + "0 0 -"
    with pytest.raises(InvalidStateError, match="it is player 1's turn, not 0"):
        GameState.from_text(CLASSIC, wrong)


def test_the_player_to_move_and_the_last_capturer_must_be_players() -> None:
    with pytest.raises(InvalidStateError, match=r"^current_player must be a player number"):
        GameState.from_text(CLASSIC, DEALT[: -len("0 1 -")] + "0 2 -")
    with pytest.raises(InvalidStateError, match=r"^last_capturer must be a player number"):
        GameState.from_text(CLASSIC, DEALT[: -len("0 1 -")] + "0 1 2")


# ----------------------------------------------------------------------------- the first lead


def test_no_ace_may_lead_a_hand_of_asso_piglia_tutto_for_four() -> None:
    rules = find_variant("asso-piglia-tutto-4")
    assert rules.ace_first_lead_forbidden
    state = GameState.new(rules, seed=1)
    # Player 1 leads holding 1D with nine other cards: the Ace waits.
    assert state.current_player == 1
    assert Card.parse("1D") in state.hands[1]
    assert len(state.hands[1]) == 10
    assert {move.card for move in state.legal_moves()} == state.hands[1] - {Card.parse("1D")}
    with pytest.raises(IllegalMoveError, match=r"the first play of a hand may not be an Ace$"):
        state.parse_move("1D")


def test_no_ace_may_lead_when_the_rule_is_added_to_classic() -> None:
    # Seed 1: player 1 leads with 1D 3S 9C, and 30 cards are still in the stock.
    state = GameState.new(attrs.evolve(CLASSIC, ace_first_lead_forbidden=True), seed=1)
    assert state.hands[1] == frozenset(cards("1D 3S 9C"))
    assert {move.card for move in state.legal_moves()} == set(cards("3S 9C"))
    with pytest.raises(IllegalMoveError, match=r"the first play of a hand may not be an Ace$"):
        state.parse_move("1D")
    # Once player 1 has played, player 0 may play any card.
    after = state.apply(state.legal_moves()[0])
    assert {move.card for move in after.legal_moves()} == after.hands[0]


def test_an_ace_that_cannot_capture_where_a_capture_is_due_is_told_so() -> None:
    # Seed 25 gives player 1 1S 5D 7C with 4D 7B 8D 9B on the table; only 7C can capture,
    # and it must. The Ace is refused for that reason, not as a first lead.
    rules = attrs.evolve(CLASSIC, compulsory_capture=CompulsoryCapture.CAPTURING_CARD)
    state = GameState.new(rules, seed=25)
    assert state.hands[1] == frozenset(cards("1S 5D 7C"))
    with pytest.raises(IllegalMoveError) as raised:
        state.parse_move("1S")
    assert str(raised.value).endswith(
        "1S cannot capture, and a card that can capture must be played"
    )


# ----------------------------------------------------------------------------- views


def test_the_text_of_a_view_lists_its_cards_in_deck_order() -> None:
    state = GameState.from_text(CLASSIC, DEALT)
    # In deck order: 1D (index 0), 9C (18), 3S (22); 5D, 6D, 2C, 8C on the table.
    assert repr(view(state)) == "<PlayerView of player 1: hand 1D 9C 3S table 5D 6D 2C 8C>"
    assert repr(view(state, 0)) == "<PlayerView of player 0: hand 2D 8S 9B table 5D 6D 2C 8C>"


def test_a_view_of_a_finished_hand_is_player_0s_by_default() -> None:
    state = GameState.new(CLASSIC, seed=1)
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])
    assert state.current_player is None
    assert view(state) == view(state, 0) != view(state, 1)
    assert repr(view(state, 1)) == "<PlayerView of player 1: hand - table ->"


def test_a_view_names_what_was_wrong() -> None:
    state = GameState.new(CLASSIC, seed=1)
    with pytest.raises(TypeError) as caught:
        view(Match.new(CLASSIC, seed=1))  # type: ignore[arg-type]
    assert str(caught.value) in wrong_type(
        "a view is of a GameState, not Match", "scopa.state.GameState", "scopa.match.Match"
    )
    with pytest.raises(InvalidArgumentError, match=r"^player must be a player number from 0 to 1"):
        view(state, 2)


# ----------------------------------------------------------------------------- caches


def test_play_is_the_same_after_the_caches_are_emptied() -> None:
    every = [find_variant(name) for name in scopa.variant_names()]
    every.append(attrs.evolve(CLASSIC, claim_out=True, ace_on_empty_table_captures_itself=True))

    def play(rules: scopa.Rules) -> list[tuple[str, str]]:
        """Positions and legal moves of a game of the middle move each time, and its score."""
        state = GameState.new(rules, seed=3)
        seen = []
        while not state.is_terminal:
            moves = state.legal_moves()
            seen.append((state.to_text(), ",".join(map(str, moves))))
            state = state.apply(moves[len(moves) // 2])
        seen.append((state.to_text(), str(state.hand_score().points)))
        return seen

    # All the rules are played before the caches are emptied once, then all again.
    warm = [play(rules) for rules in every]
    scopa.clear_caches()
    assert [play(rules) for rules in every] == warm


def test_a_copy_of_a_declared_move_plays_as_the_move_itself() -> None:
    # Cirulla, seed 1, first legal move each time: a declaration (a busso) is soon offered.
    rules = find_variant("cirulla")
    state = GameState.new(rules, seed=1)
    while not any(move.declaration for move in state.legal_moves()):
        state = state.apply(state.legal_moves()[0])
    declared = next(move for move in state.legal_moves() if move.declaration)
    copy = Move(declared.card, declared.captured, declared.declaration, declared.claim)
    assert copy == declared
    assert copy is not declared
    after = state.apply(copy)
    assert after == state.apply(declared)
    assert after.history[-1] == (state.current_player, declared)


def ten_of_coins_against(table: str) -> GameState:
    """Player 0 holds 10D, player 1 (the dealer) 10B; every other card is in player 0's pile."""
    on_table = cards(table)
    hands = [cards("10D"), cards("10B")]
    used = {*on_table, *hands[0], *hands[1]}
    pile = [card for card in scopa.DECK if card not in used]
    return GameState.from_position(
        CLASSIC, hands=hands, table=on_table, stock=[], piles=[pile, []], dealer=1
    )


def test_an_ambiguous_card_lists_up_to_twelve_captures() -> None:
    # Sums of 10 from 1C…9C: 1+9, 2+8, 3+7, 4+6, 1+2+7, 1+3+6, 1+4+5, 2+3+5, 1+2+3+4 (nine);
    # with 5S too: 5S+5C, 5S+1C+4C, 5S+2C+3C (three more), twelve in all.
    state = ten_of_coins_against("1C 2C 3C 4C 5C 6C 7C 8C 9C 5S")
    assert len(state.legal_moves()) == 12
    with pytest.raises(AmbiguousMoveError) as raised:
        state.parse_move("10D")
    choices = str(raised.value).split("it may be ")[1]
    assert len(choices.split(", ")) == 12
    assert "more" not in choices
    # With 4S instead of 5S, the clubs that make 6 with it: 6, 1+5, 2+4, 1+2+3 (four): 13.
    state = ten_of_coins_against("1C 2C 3C 4C 5C 6C 7C 8C 9C 4S")
    assert len(state.legal_moves()) == 13
    with pytest.raises(AmbiguousMoveError) as raised:
        state.parse_move("10D")
    assert str(raised.value).endswith(" and 1 more")


def test_a_position_prints_as_a_picture_for_terminals() -> None:
    # Classic deals (40 - 4) / (2 × 3) = 6 times a hand; seed 1 is the position of DEALT.
    picture = str(GameState.from_text(CLASSIC, DEALT)).splitlines()
    assert picture[0] == "classic: deal 1 of 6, to play: player 1"
    # cards in the standard order: denari, coppe, spade, bastoni
    assert picture[1].split() == ["table", "5D", "6D", "2C", "8C"]
    assert picture[2].split() == ["stock", "30", "cards"]
    assert picture[-1].split() == [">", "player", "1", "1D", "9C", "3S", "0", "0"]
    match = str(Match.new(CLASSIC, seed=1)).splitlines()
    assert match[0] == "classic match to 11 points, hand 1"
    assert match[1].split() == ["points", "player", "0", "0,", "player", "1", "0"]
    assert match[3:] == picture


def test_views_of_different_positions_hash_apart() -> None:
    state = GameState.new(CLASSIC, seed=1)
    views = set()
    while not state.is_terminal:
        views.add(view(state, 0))
        views.add(view(state, 1))
        state = state.apply(state.legal_moves()[0])
    assert len({hash(v) for v in views}) == len(views) > 20


def declared_cirulla_position() -> GameState:
    """Cirulla, seed 1, first legal move each time, until a declaration has been made."""
    state = GameState.new(find_variant("cirulla"), seed=1)
    while not any(move.declaration for move in state.legal_moves()):
        state = state.apply(state.legal_moves()[0])
    return state.apply(next(move for move in state.legal_moves() if move.declaration))


def test_declarations_and_shown_cards_read_back_from_text() -> None:
    state = declared_cirulla_position()
    fields = state.to_text().split()
    assert len(fields) == 10
    declared, revealed = fields[8:]
    assert declared != "0/0"
    assert revealed != "-/-"
    assert GameState.from_text(state.rules, state.to_text()) == state


def test_declaration_fields_need_one_part_per_player() -> None:
    state = declared_cirulla_position()
    fields = state.to_text().split()
    with pytest.raises(NotationError, match=r"^declared needs 2 parts separated by '/', got '0'$"):
        GameState.from_text(state.rules, " ".join([*fields[:8], "0", fields[9]]))
    with pytest.raises(NotationError, match=r"^revealed needs 2 parts separated by '/', got '-'$"):
        GameState.from_text(state.rules, " ".join([*fields[:9], "-"]))


def dealt(rules: scopa.Rules, **declarations: list[int] | list[list[Card]]) -> GameState:
    """The position of DEALT under `rules`, built by hand, with the declarations given."""
    return GameState.from_position(
        rules,
        hands=[cards("2D 8S 9B"), cards("1D 9C 3S")],
        table=cards("5D 6D 2C 8C"),
        stock=parse_cards(DEALT.split()[2]),
        dealer=0,
        **declarations,  # type: ignore[arg-type]
    )


def test_declarations_in_a_position_are_checked() -> None:
    assert dealt(CLASSIC) == GameState.from_text(CLASSIC, DEALT)
    with pytest.raises(InvalidStateError, match=r"^these rules have no declarations$"):
        dealt(CLASSIC, declared=[0, 3])
    with pytest.raises(InvalidStateError, match=r"^these rules have no declarations$"):
        dealt(CLASSIC, revealed=[[], cards("9C")])
    cirulla = find_variant("cirulla")
    with pytest.raises(InvalidStateError, match=r"^declared "):
        dealt(cirulla, declared=[3])
    with pytest.raises(InvalidStateError, match=r"^revealed "):
        dealt(cirulla, revealed=[cards("2D")])
    with pytest.raises(InvalidStateError, match=r"^player 0 shows cards they do not hold$"):
        dealt(cirulla, revealed=[cards("9C"), []])


def test_an_unreadable_shown_card_is_named_as_such() -> None:
    state = declared_cirulla_position()
    fields = state.to_text().split()
    with pytest.raises(NotationError, match=r"^cannot read 'zz' as a revealed: bad card at 'zz'$"):
        GameState.from_text(state.rules, " ".join([*fields[:9], "zz/-"]))


@every_preset
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_guaranteed_points_are_kept_however_the_hand_ends(
    rules: scopa.Rules, data: st.DataObject
) -> None:
    state = data.draw(states(st.just(rules)))
    sure = state.guaranteed_points()
    if state.is_terminal:
        assert sure == state.hand_score().points
        return
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(3):
        end = state
        while not end.is_terminal:
            end = end.apply(rng.choice(end.legal_moves()))
        points = end.hand_score().points
        assert all(s <= p for s, p in zip(sure, points, strict=True)), (sure, points)


def test_guaranteed_points_of_a_known_position() -> None:
    # Side 0 holds 21 cards with the settebello and all ten denari, side 1 three, 16 are
    # left: carte (21 against at most 19), denari and settebello are sure; primiera too
    # (its four sevens, 84, beat the 72 side 1 could reach at most); and its 2 scope.
    piles = [
        [*parse_cards("1D2D3D4D5D6D7D8D9D10D"), *parse_cards("7C7S7B1C2C3C4C5C6C8C9C")],
        parse_cards("1S2S3S"),
    ]
    taken = {card for pile in piles for card in pile}
    left = [card for card in scopa.DECK if card not in taken]
    state = scopa.GameState.from_position(
        find_variant("classic"),
        hands=[left[:3], left[3:6]],
        table=left[6:10],
        stock=left[10:],
        dealer=1,
        piles=piles,
        scope=(2, 0),
        last_capturer=1,
    )
    assert state.guaranteed_points() == (2 + 1 + 1 + 1 + 1, 0)
