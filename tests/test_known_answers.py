"""Known answers that explain a rule, step by step, computed by hand from the rules page.

The rules page is docs/rules.md: the deck, dealing, playing a card, the end of the hand and
scoring; `KA-NN` names a known-answer example listed in `tests/test_golden.py`.

The tables of known answers (legal moves, plays, misdeals, scores) are in the golden files
read by `tests/test_golden.py`; the tests here walk through a rule in their comments.

Conventions used throughout:

- Player 1 deals, so player 0 leads every round and player 1 makes the final play.
- Card values: Ace 1 … King 10. Primiera (CLASSIC): 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
  2=12, figures 10; TRETRE is the same with A=15.
- Card indices: denari 0–9, coppe 10–19, spade 20–29, bastoni 30–39 (used when a test
  checks the text of a move, where captured cards are written in index order).
- In card lists, `1-5D` is short for `1D 2D 3D 4D 5D`.
"""

from __future__ import annotations

import attrs
import pytest

from scopa import (
    DECK,
    Captures,
    Card,
    Deck,
    GameState,
    HandScore,
    InvalidStateError,
    MisdealRule,
    Move,
    Rules,
)
from tests.helpers import CLASSIC, TRETRE, assert_legal, cards, lead, position, rest_of

LAST_SCOPA = attrs.evolve(CLASSIC, scopa_on_last_play=True)

# --------------------------------------------------------------------------- moves


def test_move_text_lists_captured_cards_in_index_order() -> None:
    # KA-04: 1C (10) < 8S (27); 5C (14) < 4B (33); 1C (10) < 5C (14) < 3S (22).
    state = lead(CLASSIC, "9D", "1C 3S 4B 5C 8S")
    assert {str(m) for m in state.legal_moves()} == {"9Dx1C+8S", "9Dx5C+4B", "9Dx1C+5C+3S"}
    # 6C (15) < 1S (20) < 2B (31).
    state = lead(CLASSIC, "3D 9C 10B", "1S 2B 6C")
    assert {str(m) for m in state.legal_moves()} == {"3Dx1S+2B", "9Cx6C+1S+2B", "10B"}


# --------------------------------------------------------------------------- end of hand

# KA-13, written out by hand in the position format: player 0 has played his last card;
# dealer 1 holds 9D; the table is {2B,3S,4C}; player 0 captured last. Piles: player 0 has
# the denari but 9D and the coppe but 4C; player 1 the spade but 3S and the bastoni but 2B.
KA13_TEXT = (
    "-/9D 2B3S4C - "
    "1D2D3D4D5D6D7D8D10D1C2C3C5C6C7C8C9C10C/1S2S4S5S6S7S8S9S10S1B3B4B5B6B7B8B9B10B "
    "0/0 1 1 0"
)


@pytest.mark.parametrize(
    ("rules", "scope", "points"),
    [
        # Piles at the end: player 0 = D but 9D (9) + C but 4C (9) = 18 cards;
        # player 1 = 18 + {9D,2B,3S,4C} = 22 cards.
        # carte 18-22 -> p1; denari 9-1 -> p0; settebello p0; primiera: p0 has only D and C
        # (21+21 = 42), p1 has 9D 10 + 4C 14 + 7S 21 + 7B 21 = 66 -> p1 under both policies.
        pytest.param(CLASSIC, (0, 0), (2, 2), id="classic"),
        pytest.param(TRETRE, (0, 0), (2, 2), id="tretre"),
        pytest.param(LAST_SCOPA, (0, 1), (2, 3), id="scopa-on-last-play"),
    ],
)
def test_ka13_dealer_final_sweep(
    rules: Rules, scope: tuple[int, int], points: tuple[int, int]
) -> None:
    state = GameState.from_text(rules, KA13_TEXT)
    assert state.current_player == 1
    # 9 on {2,3,4}: no 9, pairs make 5, 6, 7; only 2+3+4 = 9.
    assert_legal(state, "9Dx4C+3S+2B")
    end = state.apply(Move.parse("9Dx4C+3S+2B"))
    assert end.is_terminal
    assert end.current_player is None
    assert end.legal_moves() == ()
    assert end.table == frozenset()
    assert end.piles[1] - state.piles[1] == cards("9D 2B 3S 4C")
    assert end.piles[0] == state.piles[0]
    assert end.scope == scope
    score = end.hand_score()
    assert score["carte"].figures == (18, 22)
    assert score["denari"].figures == (9, 1)
    assert score["primiera"].figures == (42, 66)
    assert score["primiera"].points == (0, 1)
    assert score.points == points


@pytest.mark.parametrize("rules", [CLASSIC, TRETRE, LAST_SCOPA], ids=["classic", "tretre", "last"])
def test_dealer_final_play_equal_card_sweep(rules: Rules) -> None:
    # Own: the final play 8D takes a lone 8C. Only scopa_on_last_play=True makes it a scopa.
    state = position(rules, ["", "8D"], "8C", piles=["1D", "*"], last_capturer=0)
    assert state.current_player == 1
    end = state.apply(Move.parse("8Dx8C"))
    assert end.is_terminal
    assert end.scope == ((0, 1) if rules.scopa_on_last_play else (0, 0))
    assert end.piles[1] - state.piles[1] == cards("8D 8C")


# KA-14, written out by hand: player 0 holds 6C, dealer 1 holds 10B, the table is {2S,4B},
# the stock is empty, player 1 captured last. Player 0's pile: every denaro and every coppa
# but 6C; player 1's pile: the spade but 2S and the bastoni but 4B and 10B.
KA14_TEXT = (
    "6C/10B 2S4B - "
    "1D2D3D4D5D6D7D8D9D10D1C2C3C4C5C7C8C9C10C/1S3S4S5S6S7S8S9S10S1B2B3B5B6B7B8B9B "
    "0/0 1 0 1"
)


@pytest.mark.parametrize("rules", [CLASSIC, TRETRE, LAST_SCOPA], ids=["classic", "tretre", "last"])
def test_ka14_sweep_on_the_35th_play_counts(rules: Rules) -> None:
    state = GameState.from_text(rules, KA14_TEXT)
    assert state.current_player == 0
    # 6 on {2,4}: no 6; 2+4 = 6.
    assert_legal(state, "6Cx2S+4B")
    swept = state.apply(Move.parse("6Cx2S+4B"))
    assert swept.scope == (1, 0)
    assert swept.table == frozenset()
    assert swept.last_capturer == 0
    assert not swept.is_terminal
    # The dealer's last card goes onto the empty table.
    assert_legal(swept, "10B")
    end = swept.apply(Move.parse("10B"))
    assert end.is_terminal
    assert end.scope == (1, 0)
    assert end.table == frozenset()
    # The 10B goes to the last capturer, player 0, as a leftover.
    assert end.piles[0] - state.piles[0] == cards("6C 2S 4B 10B")
    assert end.piles[1] == state.piles[1]
    # Player 0: D (10) + C (10) + 2S 4B 10B = 23 cards; player 1: 9 spade + 7 bastoni = 17.
    # Primiera: player 0 = 7D 21 + 7C 21 + 2S 12 + 4B 14 = 68 (complete); player 1 has no
    # D and no C: 7S 21 + 7B 21 = 42. Everything goes to player 0: 1+1+1+1+1 = 5.
    score = end.hand_score()
    assert score["carte"].figures == (23, 17)
    assert score["denari"].figures == (10, 0)
    assert score["primiera"].figures == (68, 42)
    assert score["scope"].points == (1, 0)
    assert score.points == (5, 0)


@pytest.mark.parametrize("rules", [CLASSIC, LAST_SCOPA], ids=["classic", "last"])
@pytest.mark.parametrize("last", [0, 1], ids=["B-leads", "B-deals"])
def test_ka15_leftovers_to_the_last_capturer(rules: Rules, last: int) -> None:
    # The dealer lays 6S (no 6 on a table of one 3) as the final play; the table {3C,6S}
    # goes to B, the last capturer, whoever played last; it is never a scopa.
    state = position(rules, ["", "6S"], "3C", piles=["1D 2D", "*"], last_capturer=last)
    assert_legal(state, "6S")
    end = state.apply(Move.parse("6S"))
    assert end.is_terminal
    assert end.table == frozenset()
    assert end.scope == (0, 0)
    assert len(end.piles[last]) == len(state.piles[last]) + 2
    assert end.piles[last] - state.piles[last] == cards("3C 6S")
    assert end.piles[1 - last] == state.piles[1 - last]


@pytest.mark.parametrize("rules", [CLASSIC, LAST_SCOPA], ids=["classic", "last"])
def test_final_capture_leaving_cards(rules: Rules) -> None:
    # Own: final play 5B on {2C,3S,9D}: no 5, only 2+3 = 5. The 9D is left and goes to the
    # dealer, who is now the last capturer. The table was not emptied by the capture and
    # leftovers are never a scopa, even with scopa_on_last_play=True.
    state = position(rules, ["", "5B"], "2C 3S 9D", piles=["1D", "*"], last_capturer=0)
    assert_legal(state, "5Bx2C+3S")
    end = state.apply(Move.parse("5Bx2C+3S"))
    assert end.is_terminal
    assert end.last_capturer == 1
    assert end.piles[1] - state.piles[1] == cards("5B 2C 3S 9D")
    assert end.piles[0] == state.piles[0]
    assert end.scope == (0, 0)


# --------------------------------------------------------------------------- dealing


def test_second_deal_after_both_hands_are_empty() -> None:
    state = GameState.new(CLASSIC, deck=Deck.standard(), dealer=1)
    # Leader {1D,2D,3D} on {7D,8D,9D,10D}: no sum of 2+ table cards is 1, 2 or 3.
    assert_legal(state, "1D 2D 3D")
    state = state.apply(Move.parse("1D"))
    # Dealer {4D,5D,6D} on {1,7,8,9,10}: 4, 5, 6 need a 3, 4 or 5 beside the Ace: none.
    assert_legal(state, "4D 5D 6D")
    state = state.apply(Move.parse("4D"))
    # Leader {2D,3D} on {1,4,7,8,9,10}: 2 would need 1+1, 3 would need 1+2: laid.
    assert_legal(state, "2D 3D")
    state = state.apply(Move.parse("2D"))
    # Dealer {5D,6D} on {1,2,4,7,8,9,10}: 5 = 1+4 only; 6 = 2+4 only.
    assert_legal(state, "5Dx1D+4D 6Dx2D+4D")
    state = state.apply(Move.parse("5Dx1D+4D"))
    assert state.table == cards("2D 7-10D")
    # Leader {3D} on {2,7,8,9,10}: no 3, 1+2 impossible without the Ace.
    assert_legal(state, "3D")
    state = state.apply(Move.parse("3D"))
    # Dealer {6D} on {2,3,7,8,9,10}: 2+3 = 5: laid. Both hands are then empty: new deal,
    # leader first (1C 2C 3C), then the dealer (4C 5C 6C); no new table cards.
    assert_legal(state, "6D")
    state = state.apply(Move.parse("6D"))
    assert state.hands == (cards("1-3C"), cards("4-6C"))
    assert state.table == cards("2D 3D 6D 7D 8D 9D 10D")
    assert len(state.stock) == 24
    assert state.stock == tuple(DECK[16:])
    assert state.current_player == 0
    assert state.piles == (frozenset(), cards("1D 4D 5D"))
    assert state.last_capturer == 1
    assert state.scope == (0, 0)


def test_further_deal_from_position_stock_order() -> None:
    # Own: the dealer's last card of a round sweeps while the stock still has cards: not the
    # final play, so the scopa counts; then leader gets the first 3 stock cards.
    state = position(
        CLASSIC, ["5S", "7B"], "2C", stock="1B 2B 3B 4B 5B 6B", piles=["1D", "*"], last_capturer=0
    )
    # 5 on {2}: no capture, laid.
    state = state.apply(Move.parse("5S"))
    # 7 on {2,5}: 2+5 = 7, the table is emptied.
    assert_legal(state, "7Bx2C+5S")
    state = state.apply(Move.parse("7Bx2C+5S"))
    assert state.scope == (0, 1)
    assert state.hands == (cards("1B 2B 3B"), cards("4B 5B 6B"))
    assert state.stock == ()
    assert state.table == frozenset()
    assert state.current_player == 0
    assert not state.is_terminal


def test_short_hand_played_out() -> None:
    # Own: two deals of play with hand-computed moves and final score.
    state = position(
        CLASSIC,
        ["7D", "10B"],
        "3C 4S",
        stock="1S 2S 6C 9S 3B 10C",
        piles=["1-5D 1C 2C 4C 5C 7C 8C 3S 5S 1B 2B", "*"],
        last_capturer=1,
    )
    assert state.piles[1] == cards("6D 8D 9D 10D 9C 6S 7S 8S 10S 4-9B")
    # 1. 7D: no 7; 3+4 = 7 takes the whole table, not the final play: scopa.
    assert_legal(state, "7Dx3C+4S")
    state = state.apply(Move.parse("7Dx3C+4S"))
    assert state.scope == (1, 0)
    # 2. 10B on the empty table; then the new deal: 1S 2S 6C to player 0, 9S 3B 10C to 1.
    assert_legal(state, "10B")
    state = state.apply(Move.parse("10B"))
    assert state.hands == (cards("1S 2S 6C"), cards("9S 3B 10C"))
    assert state.table == cards("10B")
    # 3. Nothing captures the lone 10B except a 10.
    assert_legal(state, "1S 2S 6C")
    state = state.apply(Move.parse("2S"))
    # 4. 9 and 3: no equal card, 2+10 = 12; 10C must take the 10B (equal rank).
    assert_legal(state, "9S 3B 10Cx10B")
    state = state.apply(Move.parse("10Cx10B"))
    assert state.table == cards("2S")
    assert state.scope == (1, 0)
    # 5. 1S and 6C on {2S}: neither captures.
    assert_legal(state, "1S 6C")
    state = state.apply(Move.parse("1S"))
    # 6. 3B: 1+2 = 3, must capture (a scopa: the dealer still holds 9S); 9S cannot.
    assert_legal(state, "9S 3Bx1S+2S")
    state = state.apply(Move.parse("3Bx1S+2S"))
    assert state.scope == (1, 1)
    # 7. 6C on the empty table; 8. 9S laid (final play), both go to player 1.
    state = state.apply(Move.parse("6C"))
    assert_legal(state, "9S")
    state = state.apply(Move.parse("9S"))
    assert state.is_terminal
    assert state.scope == (1, 1)
    assert state.piles[0] == cards("1-5D 7D 1-5C 7C 8C 3-5S 1B 2B")
    assert state.piles[1] == cards("6D 8D 9D 10D 6C 9C 10C 1S 2S 6-10S 3-10B")
    # carte 18-22 -> p1; denari 6-4 -> p0; settebello p0; primiera p0 = 7D 21 + 7C 21 +
    # 5S 15 + 1B 16 = 73 (72 with Ace 15), p1 = 6D 18 + 6C 18 + 7S 21 + 7B 21 = 78 -> p1.
    score = state.hand_score()
    assert score["carte"].figures == (18, 22)
    assert score["denari"].figures == (6, 4)
    assert score["primiera"].figures == (73, 78)
    assert [c.points for c in score] == [(1, 1), (0, 1), (1, 0), (1, 0), (0, 1)]
    assert score.points == (3, 3)


# --------------------------------------------------------------------------- misdeals (KA-16)


def _deck_with_table(first_six: str, table: str) -> Deck:
    head = [Card.parse(t) for t in first_six.split()] + [Card.parse(t) for t in table.split()]
    return Deck([*head, *sorted(rest_of(head))])


def test_ka16_annulled_deck_is_refused() -> None:
    # The table is the 7th to 10th card dealt.
    kings = _deck_with_table("1D 2D 3D 5D 6D 7D", "10C 10S 10B 4D")
    with pytest.raises(InvalidStateError):
        GameState.new(CLASSIC, deck=kings, dealer=1)
    with pytest.raises(InvalidStateError):
        GameState.new(TRETRE, deck=kings, dealer=1)
    state = GameState.new(attrs.evolve(CLASSIC, misdeal=MisdealRule.CIRULLA), deck=kings, dealer=1)
    assert state.table == cards("10C 10S 10B 4D")
    assert state.hands == (cards("1D 2D 3D"), cards("5D 6D 7D"))
    fives = _deck_with_table("1D 2D 3D 4D 6D 7D", "5D 5C 5S 5B")
    with pytest.raises(InvalidStateError):
        GameState.new(TRETRE, deck=fives, dealer=1)
    assert GameState.new(CLASSIC, deck=fives, dealer=1).table == cards("5D 5C 5S 5B")


# --------------------------------------------------------------------------- scoring


def _score(rules: Rules, pile0: str, scope: tuple[int, int] = (0, 0)) -> HandScore:
    piles = cards(pile0)
    return rules.scoring.score(Captures(piles=(piles, rest_of(piles)), scope=scope))


@pytest.mark.parametrize("rules", [CLASSIC, TRETRE], ids=["classic", "tretre"])
def test_ka17_carte_and_denari(rules: Rules) -> None:
    # 20-20 cards, 5-5 denari: no point for either.
    halves = _score(rules, "1-5D 1-5C 1-5S 1-5B")
    assert halves["carte"].figures == (20, 20)
    assert halves["carte"].points == (0, 0)
    assert halves["denari"].figures == (5, 5)
    assert halves["denari"].points == (0, 0)
    # 21-19 cards, 6-4 denari: 1 each to the 21 and the 6.
    more = _score(rules, "1-6D 1-10C 1-5S")
    assert more["carte"].figures == (21, 19)
    assert more["carte"].points == (1, 0)
    assert more["denari"].figures == (6, 4)
    assert more["denari"].points == (1, 0)
    # The other way round: p0 = 7-10D 6-10S 1-10B (19 cards, 4 denari).
    fewer = _score(rules, "7-10D 6-10S 1-10B")
    assert fewer["carte"].figures == (19, 21)
    assert fewer["carte"].points == (0, 1)
    assert fewer["denari"].points == (0, 1)


def test_ka18_primiera_values() -> None:
    # {7D,7C,6B,1S} alone: 21+21+18+16 = 76 classic, 21+21+18+15 = 75 tretre.
    # p1 keeps 6D 6C 7S 7B: 78.
    assert _score(CLASSIC, "7D 7C 6B 1S")["primiera"].figures == (76, 78)
    assert _score(TRETRE, "7D 7C 6B 1S")["primiera"].figures == (75, 78)
