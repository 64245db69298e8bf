"""Known-answer tests, every expectation computed by hand from SPEC.md §1–§5 and §8.

Conventions used throughout:

- Player 1 deals, so player 0 leads every round and player 1 makes the final play.
- Card values: Ace 1 … King 10. Primiera (CLASSIC): 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
  2=12, figures 10; TRETRE is the same with A=15.
- Card indices: denari 0–9, coppe 10–19, spade 20–29, bastoni 30–39 (used when a test
  checks the text of a move, where captured cards are written in index order).
- In card lists, `1-5D` is short for `1D 2D 3D 4D 5D`.
"""

from __future__ import annotations

from dataclasses import dataclass

import attrs
import pytest

import scopa
from scopa import (
    DECK,
    CapturePriority,
    Captures,
    Card,
    Deck,
    GameState,
    IllegalMoveError,
    InvalidStateError,
    MisdealRule,
    MissingSuit,
    Move,
    PrimieraTable,
    Rules,
    ScoringRules,
)
from tests.helpers import cards, rest_of

CLASSIC = scopa.find_variant("classic")
TRETRE = scopa.find_variant("tretre")
MIN_CARDS = attrs.evolve(CLASSIC, capture_priority=CapturePriority.MIN_CARDS)
FREE = attrs.evolve(CLASSIC, capture_priority=CapturePriority.FREE)
MAY_TRAIL = attrs.evolve(CLASSIC, played_card_must_capture=False)
LAST_SCOPA = attrs.evolve(CLASSIC, scopa_on_last_play=True)

# --------------------------------------------------------------------------- helpers


def position(
    rules: Rules,
    hands: tuple[str, str],
    table: str,
    *,
    stock: str = "",
    piles: tuple[str, str] = ("", ""),
    scope: tuple[int, int] = (0, 0),
    last_capturer: int | None = None,
) -> GameState:
    """A position dealt by player 1; every card not placed elsewhere is in player 1's pile.

    `stock` is in dealing order.
    """
    held = [cards(hands[0]), cards(hands[1])]
    on_table = cards(table)
    stock_cards = [Card.parse(token) for token in stock.split()]
    pile0 = cards(piles[0])
    pile1 = cards(piles[1])
    pile1 |= rest_of(*held, on_table, stock_cards, pile0, pile1)
    return GameState.from_position(
        rules,
        hands=held,
        table=on_table,
        stock=stock_cards,
        dealer=1,
        piles=[pile0, pile1],
        scope=scope,
        last_capturer=last_capturer,
    )


def lead(rules: Rules, hand: str, table: str) -> GameState:
    """Player 0 to lead `hand` onto `table`; the stock is empty.

    The dealer (player 1) holds as many filler cards (the lowest-index free ones) and has
    captured every other card, so the leader's play is never the final play of the hand.
    """
    held = cards(hand)
    free = sorted(rest_of(held, cards(table)))
    filler = " ".join(str(card) for card in free[: len(held)])
    return position(rules, (hand, filler), table)


def mv(text: str) -> Move:
    return Move.parse(text)


# --------------------------------------------------------------------------- legal moves

# Each case: rules, the leader's hand, the table, and every legal move (order-free).
CAPTURE_CASES = [
    # KA-01: 7B equals the 7 (equal rank first); 3+4 = 7 is not allowed beside it.
    pytest.param(CLASSIC, "7D", "3C 4S 7B", ["7Dx7B"], id="KA-01-classic"),
    pytest.param(TRETRE, "7D", "3C 4S 7B", ["7Dx7B"], id="KA-01-tretre"),
    # KA-01 [scopone = MIN_CARDS]: the single 7B is the fewest cards.
    pytest.param(MIN_CARDS, "7D", "3C 4S 7B", ["7Dx7B"], id="KA-01-min-cards"),
    # KA-02: no 7 on the table; 3+4 = 7 is the only sum.
    pytest.param(CLASSIC, "7D", "3C 4S", ["7Dx3C+4S"], id="KA-02-classic"),
    pytest.param(TRETRE, "7D", "3C 4S", ["7Dx3C+4S"], id="KA-02-tretre"),
    # KA-03: two 5s on the table: take exactly one of them, never both.
    pytest.param(CLASSIC, "5D", "5C 5S 3B", ["5Dx5C", "5Dx5S"], id="KA-03-classic"),
    pytest.param(TRETRE, "5D", "5C 5S 3B", ["5Dx5C", "5Dx5S"], id="KA-03-tretre"),
    # KA-04: no 9 on {1,3,4,5,8}; 1+8, 4+5 and 1+3+5 make 9 (1+3+4+5 = 13).
    pytest.param(
        CLASSIC,
        "9D",
        "1C 3S 4B 5C 8S",
        ["9Dx1C+8S", "9Dx4B+5C", "9Dx1C+3S+5C"],
        id="KA-04-classic",
    ),
    pytest.param(
        FREE,
        "9D",
        "1C 3S 4B 5C 8S",
        ["9Dx1C+8S", "9Dx4B+5C", "9Dx1C+3S+5C"],
        id="KA-04-free",
    ),
    pytest.param(MIN_CARDS, "9D", "1C 3S 4B 5C 8S", ["9Dx1C+8S", "9Dx4B+5C"], id="KA-04-min-cards"),
    # KA-05: no 9 on {1,2,3,4,5}; pairs: 4+5; triples: 1+3+5, 2+3+4; 1+2+3+4 = 10.
    pytest.param(
        CLASSIC,
        "9D",
        "1C 2S 3B 4C 5S",
        ["9Dx4C+5S", "9Dx1C+3B+5S", "9Dx2S+3B+4C"],
        id="KA-05-classic",
    ),
    pytest.param(MIN_CARDS, "9D", "1C 2S 3B 4C 5S", ["9Dx4C+5S"], id="KA-05-min-cards"),
    # KA-06: 5B equals the 5; only FREE may take 2+3 instead.
    pytest.param(CLASSIC, "5D", "2C 3S 5B", ["5Dx5B"], id="KA-06-classic"),
    pytest.param(FREE, "5D", "2C 3S 5B", ["5Dx5B", "5Dx2C+3S"], id="KA-06-free"),
    pytest.param(MIN_CARDS, "5D", "2C 3S 5B", ["5Dx5B"], id="KA-06-min-cards"),
    # KA-07 (classic part): no 3, and 10+2 = 12: the 3 is laid down.
    pytest.param(CLASSIC, "3D", "10C 2S", ["3D"], id="KA-07-classic"),
    # KA-09: 7D must take 2+5; 10B cannot capture (no 10, 2+5 = 7), so it is laid down.
    pytest.param(CLASSIC, "7D 10B", "2C 5S", ["7Dx2C+5S", "10B"], id="KA-09-classic"),
    # KA-10: on an empty table every card is simply laid down.
    pytest.param(CLASSIC, "1D 5C 10S", "", ["1D", "5C", "10S"], id="KA-10-classic"),
    pytest.param(TRETRE, "1D 5C 10S", "", ["1D", "5C", "10S"], id="KA-10-tretre"),
    # Own: 10 on {1,2,3,4}: pairs reach 7 at most, triples 9 at most; only 1+2+3+4 = 10.
    pytest.param(CLASSIC, "10C", "1D 2S 3B 4C", ["10Cx1D+2S+3B+4C"], id="own-4-card-sum"),
    pytest.param(MIN_CARDS, "10C", "1D 2S 3B 4C", ["10Cx1D+2S+3B+4C"], id="own-4-card-min"),
    # Own: 7 on {2C,2S,3B}: 2+2 = 4, 2+3 = 5; only 2+2+3 = 7 (repeated ranks).
    pytest.param(CLASSIC, "7D", "2C 2S 3B", ["7Dx2C+2S+3B"], id="own-2-2-3"),
    # Own: 6 on {2D,2S,2B,4D}: each 2 with the 4, or the three 2s; 2+2 = 4, 2+2+4 = 8.
    pytest.param(
        CLASSIC,
        "6C",
        "2D 2S 2B 4D",
        ["6Cx2D+4D", "6Cx2S+4D", "6Cx2B+4D", "6Cx2D+2S+2B"],
        id="own-three-2s-classic",
    ),
    pytest.param(
        FREE,
        "6C",
        "2D 2S 2B 4D",
        ["6Cx2D+4D", "6Cx2S+4D", "6Cx2B+4D", "6Cx2D+2S+2B"],
        id="own-three-2s-free",
    ),
    # Own, MIN_CARDS: the three pairs (2 cards) beat 2+2+2 (3 cards).
    pytest.param(
        MIN_CARDS,
        "6C",
        "2D 2S 2B 4D",
        ["6Cx2D+4D", "6Cx2S+4D", "6Cx2B+4D"],
        id="own-three-2s-min-cards",
    ),
    # Own: 4 on {4C,4S,1B,3B}: one of the two 4s; 1+3 = 4 only under FREE.
    pytest.param(CLASSIC, "4D", "4C 4S 1B 3B", ["4Dx4C", "4Dx4S"], id="own-two-4s-classic"),
    pytest.param(FREE, "4D", "4C 4S 1B 3B", ["4Dx4C", "4Dx4S", "4Dx1B+3B"], id="own-two-4s-free"),
    pytest.param(MIN_CARDS, "4D", "4C 4S 1B 3B", ["4Dx4C", "4Dx4S"], id="own-two-4s-min"),
    # Own: 8 on {1,2,3,5,6,7}: pairs 1+7, 2+6, 3+5; triple 1+2+5 (1+2+3 = 6, 1+3+5 = 9,
    # 2+3+5 = 10); the smallest four cards already make 11.
    pytest.param(
        CLASSIC,
        "8B",
        "1D 2C 3S 5B 6C 7S",
        ["8Bx1D+7S", "8Bx2C+6C", "8Bx3S+5B", "8Bx1D+2C+5B"],
        id="own-8-on-six-classic",
    ),
    pytest.param(
        MIN_CARDS,
        "8B",
        "1D 2C 3S 5B 6C 7S",
        ["8Bx1D+7S", "8Bx2C+6C", "8Bx3S+5B"],
        id="own-8-on-six-min-cards",
    ),
    # Own: 10 on {1,2,3,4,6}: pair 4+6; triple 1+3+6 (the other triples are 6, 7, 8, 9, 9,
    # 11, 11, 12, 13); quadruple 1+2+3+4; the others exceed 10.
    pytest.param(
        CLASSIC,
        "10C",
        "1D 2D 3C 4S 6B",
        ["10Cx4S+6B", "10Cx1D+3C+6B", "10Cx1D+2D+3C+4S"],
        id="own-10-on-12346-classic",
    ),
    pytest.param(MIN_CARDS, "10C", "1D 2D 3C 4S 6B", ["10Cx4S+6B"], id="own-10-on-12346-min"),
    # Own: 10 on {1,2,3,4,5}: no pair reaches 10 (4+5 = 9); triples 1+4+5 and 2+3+5;
    # quadruple 1+2+3+4.
    pytest.param(
        CLASSIC,
        "10S",
        "1D 2C 3S 4B 5C",
        ["10Sx1D+4B+5C", "10Sx2C+3S+5C", "10Sx1D+2C+3S+4B"],
        id="own-10-on-12345-classic",
    ),
    # Own, MIN_CARDS: the fewest is 3 cards, and there are two such triples.
    pytest.param(
        MIN_CARDS,
        "10S",
        "1D 2C 3S 4B 5C",
        ["10Sx1D+4B+5C", "10Sx2C+3S+5C"],
        id="own-10-on-12345-min",
    ),
    # Own: 6 on three 3s: any two of them (3+3+3 = 9).
    pytest.param(
        CLASSIC, "6D", "3C 3S 3B", ["6Dx3C+3S", "6Dx3C+3B", "6Dx3S+3B"], id="own-three-3s"
    ),
    # Own: 2 on {1C,1S,2B}: the 2B first; 1+1 = 2 is allowed only under FREE.
    pytest.param(CLASSIC, "2D", "1C 1S 2B", ["2Dx2B"], id="own-2-on-aces-classic"),
    pytest.param(FREE, "2D", "1C 1S 2B", ["2Dx2B", "2Dx1C+1S"], id="own-2-on-aces-free"),
    pytest.param(MIN_CARDS, "2D", "1C 1S 2B", ["2Dx2B"], id="own-2-on-aces-min"),
    # Own: an Ace only takes an Ace in classic (no Ace sweep).
    pytest.param(CLASSIC, "1D", "1C 5S", ["1Dx1C"], id="own-ace-takes-ace"),
    # Own: a lone card taken by its equal.
    pytest.param(CLASSIC, "8D", "8C", ["8Dx8C"], id="own-lone-equal"),
    # Own: three Kings on the table: take exactly one.
    pytest.param(
        CLASSIC, "10D", "10C 10S 10B", ["10Dx10C", "10Dx10S", "10Dx10B"], id="own-three-kings"
    ),
    # Own: an Ace on {2,3} cannot capture (no sum of 2+ cards is 1).
    pytest.param(CLASSIC, "1D", "2C 3S", ["1D"], id="own-ace-no-capture"),
    # Own: 3 must take 1+2; 9 must take 1+2+6 (1+6 = 7, 2+6 = 8); 10 cannot capture
    # (everything sums to 9), so it may be laid even though the others could capture.
    pytest.param(
        CLASSIC,
        "3D 9C 10B",
        "1S 2B 6C",
        ["3Dx1S+2B", "9Cx1S+2B+6C", "10B"],
        id="own-must-capture-any-card",
    ),
    # Own: the same with played_card_must_capture=False: 3 and 9 may also be laid.
    pytest.param(
        MAY_TRAIL,
        "3D 9C 10B",
        "1S 2B 6C",
        ["3D", "3Dx1S+2B", "9C", "9Cx1S+2B+6C", "10B"],
        id="own-may-trail",
    ),
    # Own: KA-09 with played_card_must_capture=False: 7D may be laid as well.
    pytest.param(MAY_TRAIL, "7D 10B", "2C 5S", ["7D", "7Dx2C+5S", "10B"], id="own-KA-09-may-trail"),
    pytest.param(MAY_TRAIL, "5D", "5C", ["5D", "5Dx5C"], id="own-may-trail-equal"),
    # Own: 8, 9, 10 on {1,2}: 1+2 = 3 matches none, every card is laid.
    pytest.param(CLASSIC, "8D 9C 10S", "1B 2B", ["8D", "9C", "10S"], id="own-nothing-captures"),
    # Own: 9 on {1,2,3,4}: pairs reach 7; triples: 2+3+4 = 9 only; 1+2+3+4 = 10.
    pytest.param(CLASSIC, "9D", "1D 2C 3S 4B", ["9Dx2C+3S+4B"], id="own-9-on-1234"),
    # Own: 9 on {9C,4S,5B,1C,8B}: the 9C in classic and MIN_CARDS; FREE adds 4+5 and 1+8
    # (1+4+5 = 10, no 3-card set makes 9).
    pytest.param(CLASSIC, "9D", "1C 9C 4S 5B 8B", ["9Dx9C"], id="own-9-equal-classic"),
    pytest.param(MIN_CARDS, "9D", "1C 9C 4S 5B 8B", ["9Dx9C"], id="own-9-equal-min"),
    pytest.param(
        FREE,
        "9D",
        "1C 9C 4S 5B 8B",
        ["9Dx9C", "9Dx4S+5B", "9Dx1C+8B"],
        id="own-9-equal-free",
    ),
    # Own: 5D must take the 5B; 7C (no 7) takes 2+5 (2+3 = 5, 3+5 = 8, 2+3+5 = 10).
    pytest.param(
        CLASSIC, "5D 7C", "2S 3B 5B", ["5Dx5B", "7Cx2S+5B"], id="own-two-cards-two-captures"
    ),
    # Own: 7 on {2C,2S,3B,5C}: 2+5 twice, 2+2+3; 2+2+3+5 = 12.
    pytest.param(
        CLASSIC,
        "7D",
        "2C 2S 3B 5C",
        ["7Dx2C+5C", "7Dx2S+5C", "7Dx2C+2S+3B"],
        id="own-7-on-2235-classic",
    ),
    pytest.param(MIN_CARDS, "7D", "2C 2S 3B 5C", ["7Dx2C+5C", "7Dx2S+5C"], id="own-7-on-2235-min"),
]


@pytest.mark.parametrize(("rules", "hand", "table", "expected"), CAPTURE_CASES)
def test_legal_moves(rules: Rules, hand: str, table: str, expected: list[str]) -> None:
    state = lead(rules, hand, table)
    assert state.current_player == 0
    moves = state.legal_moves()
    assert set(moves) == {mv(text) for text in expected}
    # One move per distinct choice: no duplicates.
    assert len(moves) == len(expected)


def test_move_text_lists_captured_cards_in_index_order() -> None:
    # KA-04: 1C (10) < 8S (27); 5C (14) < 4B (33); 1C (10) < 5C (14) < 3S (22).
    state = lead(CLASSIC, "9D", "1C 3S 4B 5C 8S")
    assert {str(m) for m in state.legal_moves()} == {"9Dx1C+8S", "9Dx5C+4B", "9Dx1C+5C+3S"}
    # 6C (15) < 1S (20) < 2B (31).
    state = lead(CLASSIC, "3D 9C 10B", "1S 2B 6C")
    assert {str(m) for m in state.legal_moves()} == {"3Dx1S+2B", "9Cx6C+1S+2B", "10B"}


@pytest.mark.parametrize(
    ("rules", "hand", "table", "move"),
    [
        # KA-09: 7D can capture 2+5, so it may not be laid down.
        pytest.param(CLASSIC, "7D 10B", "2C 5S", "7D", id="KA-09-trail-7D"),
        # KA-01: 7D may not be laid down, nor take 3+4 beside the 7B.
        pytest.param(CLASSIC, "7D", "3C 4S 7B", "7D", id="KA-01-trail"),
        pytest.param(CLASSIC, "7D", "3C 4S 7B", "7Dx3C+4S", id="KA-01-sum"),
        # KA-03: never both 5s.
        pytest.param(CLASSIC, "5D", "5C 5S 3B", "5Dx5C+5S", id="KA-03-both"),
        # KA-06: 2+3 is not allowed beside the 5B in classic.
        pytest.param(CLASSIC, "5D", "2C 3S 5B", "5Dx2C+3S", id="KA-06-sum"),
        # KA-04 MIN_CARDS: a 3-card set while 2-card sets exist.
        pytest.param(MIN_CARDS, "9D", "1C 3S 4B 5C 8S", "9Dx1C+3S+5C", id="KA-04-min-3"),
        # Own: a sum that is not the played value (1+3 = 4, played 5).
        pytest.param(CLASSIC, "5D", "1C 3S 7B", "5Dx1C+3S", id="own-wrong-sum"),
    ],
)
def test_illegal_moves(rules: Rules, hand: str, table: str, move: str) -> None:
    state = lead(rules, hand, table)
    with pytest.raises(IllegalMoveError):
        state.apply(mv(move))


# --------------------------------------------------------------------------- playing a move


@pytest.mark.parametrize(
    ("rules", "hand", "table", "move", "table_after", "taken", "scope"),
    [
        # KA-01: 7D takes 7B; 3C and 4S stay; no scopa.
        pytest.param(CLASSIC, "7D", "3C 4S 7B", "7Dx7B", "3C 4S", "7D 7B", 0, id="KA-01"),
        # KA-02: 7D takes 3+4, the table is empty and it is not the final play: a scopa.
        pytest.param(CLASSIC, "7D", "3C 4S", "7Dx3C+4S", "", "7D 3C 4S", 1, id="KA-02-classic"),
        pytest.param(TRETRE, "7D", "3C 4S", "7Dx3C+4S", "", "7D 3C 4S", 1, id="KA-02-tretre"),
        # KA-06 FREE: 2+3 taken, the 5B stays.
        pytest.param(FREE, "5D", "2C 3S 5B", "5Dx2C+3S", "5B", "5D 2C 3S", 0, id="KA-06-free"),
        # KA-07 classic: the 3 is laid beside 10C and 2S.
        pytest.param(CLASSIC, "3D", "10C 2S", "3D", "10C 2S 3D", "", 0, id="KA-07"),
        # KA-09: 7D takes 2+5 and sweeps.
        pytest.param(CLASSIC, "7D 10B", "2C 5S", "7Dx2C+5S", "", "7D 2C 5S", 1, id="KA-09-7D"),
        # KA-09: 10B laid; the table grows to three cards.
        pytest.param(CLASSIC, "7D 10B", "2C 5S", "10B", "2C 5S 10B", "", 0, id="KA-09-10B"),
        # KA-10: a card on the empty table is placed; no capture, no scopa.
        pytest.param(CLASSIC, "1D 5C 10S", "", "5C", "5C", "", 0, id="KA-10"),
        # Own: a lone card taken by its equal is a scopa.
        pytest.param(CLASSIC, "8D", "8C", "8Dx8C", "", "8D 8C", 1, id="own-lone-equal-scopa"),
        # Own: 10 takes all of {1,2,3,4}: a scopa.
        pytest.param(
            CLASSIC,
            "10C",
            "1D 2S 3B 4C",
            "10Cx1D+2S+3B+4C",
            "",
            "10C 1D 2S 3B 4C",
            1,
            id="own-4-card-scopa",
        ),
        # Own: 7 takes 2+2+3: a scopa.
        pytest.param(
            CLASSIC, "7D", "2C 2S 3B", "7Dx2C+2S+3B", "", "7D 2C 2S 3B", 1, id="own-2-2-3-scopa"
        ),
        # Own: 6 takes 2S+4D out of {2D,2S,2B,4D}; 2D and 2B stay.
        pytest.param(
            CLASSIC, "6C", "2D 2S 2B 4D", "6Cx2S+4D", "2D 2B", "6C 2S 4D", 0, id="own-2s-partial"
        ),
        # Own: FREE, 9D takes 1C+8B; 9C, 4S and 5B stay.
        pytest.param(
            FREE, "9D", "1C 9C 4S 5B 8B", "9Dx1C+8B", "9C 4S 5B", "9D 1C 8B", 0, id="own-free-sum"
        ),
        # Own: a trailed card with played_card_must_capture=False.
        pytest.param(MAY_TRAIL, "5D", "5C", "5D", "5C 5D", "", 0, id="own-may-trail-lay"),
    ],
)
def test_apply(
    rules: Rules,
    hand: str,
    table: str,
    move: str,
    table_after: str,
    taken: str,
    scope: int,
) -> None:
    state = lead(rules, hand, table)
    after = state.apply(mv(move))
    assert after.table == cards(table_after)
    assert after.piles[0] - state.piles[0] == cards(taken)
    assert after.piles[1] == state.piles[1]
    assert after.scope == (scope, 0)
    assert after.hands[0] == state.hands[0] - {Card.parse(move.partition("x")[0])}
    assert after.current_player == 1
    assert after.last_capturer == (0 if taken else 1)


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
    assert {str(m) for m in state.legal_moves()} == {"9Dx4C+3S+2B"}
    end = state.apply(mv("9Dx4C+3S+2B"))
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
    state = position(rules, ("", "8D"), "8C", piles=("1D", ""), last_capturer=0)
    assert state.current_player == 1
    end = state.apply(mv("8Dx8C"))
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
    assert {str(m) for m in state.legal_moves()} == {"6Cx2S+4B"}
    swept = state.apply(mv("6Cx2S+4B"))
    assert swept.scope == (1, 0)
    assert swept.table == frozenset()
    assert swept.last_capturer == 0
    assert not swept.is_terminal
    # The dealer's last card goes onto the empty table.
    assert {str(m) for m in swept.legal_moves()} == {"10B"}
    end = swept.apply(mv("10B"))
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
    state = position(rules, ("", "6S"), "3C", piles=("1D 2D", ""), last_capturer=last)
    assert {str(m) for m in state.legal_moves()} == {"6S"}
    end = state.apply(mv("6S"))
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
    state = position(rules, ("", "5B"), "2C 3S 9D", piles=("1D", ""), last_capturer=0)
    assert {str(m) for m in state.legal_moves()} == {"5Bx2C+3S"}
    end = state.apply(mv("5Bx2C+3S"))
    assert end.is_terminal
    assert end.last_capturer == 1
    assert end.piles[1] - state.piles[1] == cards("5B 2C 3S 9D")
    assert end.piles[0] == state.piles[0]
    assert end.scope == (0, 0)


# --------------------------------------------------------------------------- dealing


def test_first_deal_order_dealer_1() -> None:
    # Standard order: leader (player 0) gets 1D 2D 3D, the dealer 4D 5D 6D, the table
    # 7D 8D 9D 10D (one King: no misdeal), the stock the 30 other cards in order.
    state = GameState.new(CLASSIC, deck=Deck.standard(), dealer=1)
    assert state.hands == (cards("1-3D"), cards("4-6D"))
    assert state.table == cards("7-10D")
    assert state.stock == tuple(DECK[10:])
    assert state.current_player == 0
    assert state.dealer == 1


def test_first_deal_order_dealer_0() -> None:
    # Dealer 0: player 1 leads and gets the first three cards.
    state = GameState.new(TRETRE, deck=Deck.standard(), dealer=0)
    assert state.hands == (cards("4-6D"), cards("1-3D"))
    assert state.table == cards("7-10D")
    assert state.current_player == 1


def test_second_deal_after_both_hands_are_empty() -> None:
    state = GameState.new(CLASSIC, deck=Deck.standard(), dealer=1)
    # Leader {1D,2D,3D} on {7D,8D,9D,10D}: no sum of 2+ table cards is 1, 2 or 3.
    assert set(state.legal_moves()) == {mv("1D"), mv("2D"), mv("3D")}
    state = state.apply(mv("1D"))
    # Dealer {4D,5D,6D} on {1,7,8,9,10}: 4, 5, 6 need a 3, 4 or 5 beside the Ace: none.
    assert set(state.legal_moves()) == {mv("4D"), mv("5D"), mv("6D")}
    state = state.apply(mv("4D"))
    # Leader {2D,3D} on {1,4,7,8,9,10}: 2 would need 1+1, 3 would need 1+2: laid.
    assert set(state.legal_moves()) == {mv("2D"), mv("3D")}
    state = state.apply(mv("2D"))
    # Dealer {5D,6D} on {1,2,4,7,8,9,10}: 5 = 1+4 only; 6 = 2+4 only.
    assert set(state.legal_moves()) == {mv("5Dx1D+4D"), mv("6Dx2D+4D")}
    state = state.apply(mv("5Dx1D+4D"))
    assert state.table == cards("2D 7-10D")
    # Leader {3D} on {2,7,8,9,10}: no 3, 1+2 impossible without the Ace.
    assert set(state.legal_moves()) == {mv("3D")}
    state = state.apply(mv("3D"))
    # Dealer {6D} on {2,3,7,8,9,10}: 2+3 = 5: laid. Both hands are then empty: new deal,
    # leader first (1C 2C 3C), then the dealer (4C 5C 6C); no new table cards.
    assert set(state.legal_moves()) == {mv("6D")}
    state = state.apply(mv("6D"))
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
        CLASSIC, ("5S", "7B"), "2C", stock="1B 2B 3B 4B 5B 6B", piles=("1D", ""), last_capturer=0
    )
    # 5 on {2}: no capture, laid.
    state = state.apply(mv("5S"))
    # 7 on {2,5}: 2+5 = 7, the table is emptied.
    assert {str(m) for m in state.legal_moves()} == {"7Bx2C+5S"}
    state = state.apply(mv("7Bx2C+5S"))
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
        ("7D", "10B"),
        "3C 4S",
        stock="1S 2S 6C 9S 3B 10C",
        piles=("1-5D 1C 2C 4C 5C 7C 8C 3S 5S 1B 2B", ""),
        last_capturer=1,
    )
    assert state.piles[1] == cards("6D 8D 9D 10D 9C 6S 7S 8S 10S 4-9B")
    # 1. 7D: no 7; 3+4 = 7 takes the whole table, not the final play: scopa.
    assert {str(m) for m in state.legal_moves()} == {"7Dx3C+4S"}
    state = state.apply(mv("7Dx3C+4S"))
    assert state.scope == (1, 0)
    # 2. 10B on the empty table; then the new deal: 1S 2S 6C to player 0, 9S 3B 10C to 1.
    assert {str(m) for m in state.legal_moves()} == {"10B"}
    state = state.apply(mv("10B"))
    assert state.hands == (cards("1S 2S 6C"), cards("9S 3B 10C"))
    assert state.table == cards("10B")
    # 3. Nothing captures the lone 10B except a 10.
    assert {str(m) for m in state.legal_moves()} == {"1S", "2S", "6C"}
    state = state.apply(mv("2S"))
    # 4. 9 and 3: no equal card, 2+10 = 12; 10C must take the 10B (equal rank).
    assert {str(m) for m in state.legal_moves()} == {"9S", "3B", "10Cx10B"}
    state = state.apply(mv("10Cx10B"))
    assert state.table == cards("2S")
    assert state.scope == (1, 0)
    # 5. 1S and 6C on {2S}: neither captures.
    assert {str(m) for m in state.legal_moves()} == {"1S", "6C"}
    state = state.apply(mv("1S"))
    # 6. 3B: 1+2 = 3, must capture (a scopa: the dealer still holds 9S); 9S cannot.
    assert {str(m) for m in state.legal_moves()} == {"9S", "3Bx1S+2S"}
    state = state.apply(mv("3Bx1S+2S"))
    assert state.scope == (1, 1)
    # 7. 6C on the empty table; 8. 9S laid (final play), both go to player 1.
    state = state.apply(mv("6C"))
    assert {str(m) for m in state.legal_moves()} == {"9S"}
    state = state.apply(mv("9S"))
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


@pytest.mark.parametrize(
    ("table", "classic", "tretre", "cirulla"),
    [
        pytest.param("10C 10S 10B 4D", True, True, False, id="KA-16-three-kings"),
        pytest.param("5D 5C 5S 5B", False, True, False, id="KA-16-four-5s"),
        pytest.param("10C 10S 3B 4D", False, False, False, id="KA-16-two-kings"),
        pytest.param("1C 1S 6B 8D", False, False, True, id="KA-16-two-aces"),
        # Own: four Kings are 3+ Kings (and four of a kind); no Ace.
        pytest.param("10D 10C 10S 10B", True, True, False, id="own-four-kings"),
        # Own: four Aces: four of a kind (tretre) and 2+ Aces (cirulla).
        pytest.param("1D 1C 1S 1B", False, True, True, id="own-four-aces"),
        # Own: one Ace and two Kings: nothing annuls it.
        pytest.param("1D 10C 10S 9B", False, False, False, id="own-one-ace-two-kings"),
        # Own: three 9s are not four of a kind; three Aces trigger cirulla.
        pytest.param("9D 9C 9S 2B", False, False, False, id="own-three-9s"),
        pytest.param("1D 1C 1S 2B", False, False, True, id="own-three-aces"),
    ],
)
def test_ka16_misdeals(table: str, classic: bool, tretre: bool, cirulla: bool) -> None:
    first = cards(table)
    assert CLASSIC.misdeal.annuls(first) is classic
    assert TRETRE.misdeal.annuls(first) is tretre
    assert MisdealRule.CIRULLA.annuls(first) is cirulla
    assert MisdealRule.NONE.annuls(first) is False


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


@dataclass(frozen=True)
class Partition:
    """A complete split of the 40 cards: `pile0` and every other card in pile 1.

    Primiera points are given for OPPONENT_WINS and ZERO,
    with the CLASSIC table (Ace 16) and the TRETRE table (Ace 15).
    """

    name: str
    pile0: str
    scope: tuple[int, int]
    carte: tuple[int, int]
    carte_points: tuple[int, int]
    denari: tuple[int, int]
    denari_points: tuple[int, int]
    settebello: tuple[int, int]
    primiera_classic: tuple[int, int]
    primiera_tretre: tuple[int, int]
    classic_opponent: tuple[int, int]
    classic_zero: tuple[int, int]
    tretre_opponent: tuple[int, int]
    tretre_zero: tuple[int, int]
    total_classic: tuple[int, int]
    total_tretre: tuple[int, int]

    def captures(self) -> Captures:
        pile0 = cards(self.pile0)
        return Captures(piles=(pile0, rest_of(pile0)), scope=self.scope)


PARTITIONS = [
    # Low halves / high halves. carte 20-20 and denari 5-5: no points (KA-17). Settebello p1.
    # Primiera p0 = four Aces = 64 (Ace 15 = 5: 60 in tretre); p1 = four 7s = 84.
    # Totals: p0 = 1 scopa; p1 = 1 scopa + settebello + primiera = 3.
    Partition(
        name="halves-20-20-5-5",
        pile0="1-5D 1-5C 1-5S 1-5B",
        scope=(1, 1),
        carte=(20, 20),
        carte_points=(0, 0),
        denari=(5, 5),
        denari_points=(0, 0),
        settebello=(0, 1),
        primiera_classic=(64, 84),
        primiera_tretre=(60, 84),
        classic_opponent=(0, 1),
        classic_zero=(0, 1),
        tretre_opponent=(0, 1),
        tretre_zero=(0, 1),
        total_classic=(1, 3),
        total_tretre=(1, 3),
    ),
    # Both sides lack a suit. p0 = 1-6D 1-10C 1-5S (21 cards, 6 denari, no bastoni);
    # p1 = 7-10D 6-10S 1-10B (19, 4 denari, no coppe). carte 21-19 and denari 6-4 -> p0
    # (KA-17). Primiera p0 = 6D 18 + 7C 21 + 1S 16 = 55 (54 tretre); p1 = 7D+7S+7B = 63.
    # OPPONENT_WINS: nobody; ZERO: p1.
    Partition(
        name="both-lack-a-suit",
        pile0="1-6D 1-10C 1-5S",
        scope=(0, 0),
        carte=(21, 19),
        carte_points=(1, 0),
        denari=(6, 4),
        denari_points=(1, 0),
        settebello=(0, 1),
        primiera_classic=(55, 63),
        primiera_tretre=(54, 63),
        classic_opponent=(0, 0),
        classic_zero=(0, 1),
        tretre_opponent=(0, 0),
        tretre_zero=(0, 1),
        total_classic=(2, 1),
        total_tretre=(2, 2),
    ),
    # p0 = {1,4,5,6,7} of D, C, S (15 cards, no bastoni); p1 = {2,3,8,9,10} of D, C, S and
    # all bastoni (25). denari 5-5. Primiera p0 = three 7s = 63 (incomplete); p1 = 3D 13 +
    # 3C 13 + 3S 13 + 7B 21 = 60. OPPONENT_WINS: p1 (the only complete side) although
    # p0 has the higher sum; ZERO: p0 (63 > 60).
    Partition(
        name="lacks-bastoni-higher-sum",
        pile0="1D 4-7D 1C 4-7C 1S 4-7S",
        scope=(0, 0),
        carte=(15, 25),
        carte_points=(0, 1),
        denari=(5, 5),
        denari_points=(0, 0),
        settebello=(1, 0),
        primiera_classic=(63, 60),
        primiera_tretre=(63, 60),
        classic_opponent=(0, 1),
        classic_zero=(1, 0),
        tretre_opponent=(0, 1),
        tretre_zero=(1, 0),
        total_classic=(1, 2),
        total_tretre=(2, 1),
    ),
    # Primiera tie 78-78: p0's best 7D 7C 6S 6B, p1's best 6D 6C 7S 7B. p0 = 1-5D 7D,
    # 1-5C 7-10C, 1-3S 6S, 6B = 6+9+4+1 = 20; p1 = 6D 8-10D, 6C, 4S 5S 7-10S, 1-5B 7-10B
    # = 4+1+6+9 = 20. carte 20-20: nothing; denari 6-4: p0; settebello p0; scope 0-2.
    Partition(
        name="primiera-tie-78",
        pile0="1-5D 7D 1-5C 7-10C 1-3S 6S 6B",
        scope=(0, 2),
        carte=(20, 20),
        carte_points=(0, 0),
        denari=(6, 4),
        denari_points=(1, 0),
        settebello=(1, 0),
        primiera_classic=(78, 78),
        primiera_tretre=(78, 78),
        classic_opponent=(0, 0),
        classic_zero=(0, 0),
        tretre_opponent=(0, 0),
        tretre_zero=(0, 0),
        total_classic=(2, 2),
        total_tretre=(2, 2),
    ),
    # All three tied: p0 = 1-4D 7D (5 denari), 1-5C 7-10C (9), 1-3S 6S (4), 1B 6B (2) = 20;
    # p1 = 5D 6D 8-10D (5 denari), 6C, 4S 5S 7-10S, 2-5B 7-10B = 5+1+6+8 = 20.
    # Primiera p0 = 7D 21 + 7C 21 + 6S 18 + 6B 18 = 78 (1S 16 and 1B 16 are lower);
    # p1 = 6D 18 + 6C 18 + 7S 21 + 7B 21 = 78. Only the settebello scores.
    Partition(
        name="all-three-tied",
        pile0="1-4D 7D 1-5C 7-10C 1-3S 6S 1B 6B",
        scope=(0, 0),
        carte=(20, 20),
        carte_points=(0, 0),
        denari=(5, 5),
        denari_points=(0, 0),
        settebello=(1, 0),
        primiera_classic=(78, 78),
        primiera_tretre=(78, 78),
        classic_opponent=(0, 0),
        classic_zero=(0, 0),
        tretre_opponent=(0, 0),
        tretre_zero=(0, 0),
        total_classic=(1, 0),
        total_tretre=(1, 0),
    ),
    # p0 takes everything: 40-0, 10-0, settebello, 84 against an empty pile (0), 2 scope.
    Partition(
        name="all-40-to-one-side",
        pile0="1-10D 1-10C 1-10S 1-10B",
        scope=(2, 0),
        carte=(40, 0),
        carte_points=(1, 0),
        denari=(10, 0),
        denari_points=(1, 0),
        settebello=(1, 0),
        primiera_classic=(84, 0),
        primiera_tretre=(84, 0),
        classic_opponent=(1, 0),
        classic_zero=(1, 0),
        tretre_opponent=(1, 0),
        tretre_zero=(1, 0),
        total_classic=(6, 0),
        total_tretre=(6, 0),
    ),
    # Each side holds two whole suits (both lack a suit): 20-20 cards; denari 10-0;
    # primiera 7D+7C = 42 against 7S+7B = 42: nothing under any policy.
    Partition(
        name="two-whole-suits-each",
        pile0="1-10D 1-10C",
        scope=(0, 0),
        carte=(20, 20),
        carte_points=(0, 0),
        denari=(10, 0),
        denari_points=(1, 0),
        settebello=(1, 0),
        primiera_classic=(42, 42),
        primiera_tretre=(42, 42),
        classic_opponent=(0, 0),
        classic_zero=(0, 0),
        tretre_opponent=(0, 0),
        tretre_zero=(0, 0),
        total_classic=(2, 0),
        total_tretre=(2, 0),
    ),
    # p0 = all denari + 1-9S (19 cards, lacks C and B); p1 = 10S + all coppe + all bastoni
    # (21, lacks D). Primiera p0 = 7D+7S = 42; p1 = 7C 21 + 10S 10 + 7B 21 = 52.
    # OPPONENT_WINS: nobody; ZERO: p1. p1 has 1 scopa.
    Partition(
        name="both-lack-zero-decides",
        pile0="1-10D 1-9S",
        scope=(0, 1),
        carte=(19, 21),
        carte_points=(0, 1),
        denari=(10, 0),
        denari_points=(1, 0),
        settebello=(1, 0),
        primiera_classic=(42, 52),
        primiera_tretre=(42, 52),
        classic_opponent=(0, 0),
        classic_zero=(0, 1),
        tretre_opponent=(0, 0),
        tretre_zero=(0, 1),
        total_classic=(2, 2),
        total_tretre=(2, 3),
    ),
    # p0 = 2D 3D 2C 3C 2S 3S (6 cards, 2 denari, no bastoni): primiera 3 x 13 = 39;
    # p1 = the other 34 with all four 7s = 84: p1 wins under every policy. p0 has 1 scopa.
    Partition(
        name="lacks-bastoni-lower-sum",
        pile0="2-3D 2-3C 2-3S",
        scope=(1, 0),
        carte=(6, 34),
        carte_points=(0, 1),
        denari=(2, 8),
        denari_points=(0, 1),
        settebello=(0, 1),
        primiera_classic=(39, 84),
        primiera_tretre=(39, 84),
        classic_opponent=(0, 1),
        classic_zero=(0, 1),
        tretre_opponent=(0, 1),
        tretre_zero=(0, 1),
        total_classic=(1, 4),
        total_tretre=(1, 4),
    ),
    # The Ace's value decides: p0 = 1D 6-8D 1C 6-8C 1-3S 1-3B (14 cards, 4 denari);
    # p1 = 2-5D 9D 10D 2-5C 9C 10C 4-10S 4-10B (26, 6 denari).
    # Classic primiera p0 = 21+21+16+16 = 74, p1 = 5D 15 + 5C 15 + 7S 21 + 7B 21 = 72: p0.
    # Tretre: p0 = 21+21+15+15 = 72 = p1: a tie, nobody.
    Partition(
        name="ace-16-decides",
        pile0="1D 6-8D 1C 6-8C 1-3S 1-3B",
        scope=(0, 0),
        carte=(14, 26),
        carte_points=(0, 1),
        denari=(4, 6),
        denari_points=(0, 1),
        settebello=(1, 0),
        primiera_classic=(74, 72),
        primiera_tretre=(72, 72),
        classic_opponent=(1, 0),
        classic_zero=(1, 0),
        tretre_opponent=(0, 0),
        tretre_zero=(0, 0),
        total_classic=(2, 2),
        total_tretre=(1, 2),
    ),
    # p0 = {1,5,6,7} of D, C, S (12 cards, no bastoni): primiera 63; p1 = {2,3,4,8,9,10} of
    # D, C, S + all bastoni (28): 4D 14 + 4C 14 + 4S 14 + 7B 21 = 63. OPPONENT_WINS:
    # p1; ZERO: a 63-63 tie, nobody.
    Partition(
        name="lacks-bastoni-zero-tie",
        pile0="1D 5-7D 1C 5-7C 1S 5-7S",
        scope=(0, 0),
        carte=(12, 28),
        carte_points=(0, 1),
        denari=(4, 6),
        denari_points=(0, 1),
        settebello=(1, 0),
        primiera_classic=(63, 63),
        primiera_tretre=(63, 63),
        classic_opponent=(0, 1),
        classic_zero=(0, 0),
        tretre_opponent=(0, 1),
        tretre_zero=(0, 0),
        total_classic=(1, 3),
        total_tretre=(1, 2),
    ),
    # p0 = 1-4D 7D 1-10C 6-10S 1B (21 cards, 5 denari); p1 = 5D 6D 8-10D 1-5S 2-10B (19,
    # 5 denari, no coppe). carte 21-19: p0 (KA-17); denari 5-5: nothing.
    # Primiera p0 = 7D+7C+7S 63 + 1B 16 = 79 (78 tretre); p1 = 6D 18 + 1S 16 + 7B 21 = 55
    # (1S 15 = 5S 15 in tretre: 54). p0 under every policy. p1 has 1 scopa.
    Partition(
        name="other-side-lacks-coppe",
        pile0="1-4D 7D 1-10C 6-10S 1B",
        scope=(0, 1),
        carte=(21, 19),
        carte_points=(1, 0),
        denari=(5, 5),
        denari_points=(0, 0),
        settebello=(1, 0),
        primiera_classic=(79, 55),
        primiera_tretre=(78, 54),
        classic_opponent=(1, 0),
        classic_zero=(1, 0),
        tretre_opponent=(1, 0),
        tretre_zero=(1, 0),
        total_classic=(3, 1),
        total_tretre=(3, 1),
    ),
    # KA-18: p0's best cards are 7D, 7C, 6B and 1S (1S beats 4S 14 and 10S 10): 76 classic,
    # 75 tretre. p1 = 6D 18 + 6C 18 + 7S 21 + 7B 21 = 78 wins. p0: 9 cards, 2 denari.
    Partition(
        name="KA-18",
        pile0="2D 7D 5C 7C 1S 4S 10S 3B 6B",
        scope=(0, 0),
        carte=(9, 31),
        carte_points=(0, 1),
        denari=(2, 8),
        denari_points=(0, 1),
        settebello=(1, 0),
        primiera_classic=(76, 78),
        primiera_tretre=(75, 78),
        classic_opponent=(0, 1),
        classic_zero=(0, 1),
        tretre_opponent=(0, 1),
        tretre_zero=(0, 1),
        total_classic=(1, 3),
        total_tretre=(1, 3),
    ),
    # KA-19: p0 = 7D 7C 7S 8B 9B 10B: 21+21+21+10 = 73; p1 (the other 34) has 6D 6C 6S 7B
    # as best cards: 18+18+18+21 = 75 and wins under both tables.
    Partition(
        name="KA-19",
        pile0="7D 7C 7S 8-10B",
        scope=(0, 0),
        carte=(6, 34),
        carte_points=(0, 1),
        denari=(1, 9),
        denari_points=(0, 1),
        settebello=(1, 0),
        primiera_classic=(73, 75),
        primiera_tretre=(73, 75),
        classic_opponent=(0, 1),
        classic_zero=(0, 1),
        tretre_opponent=(0, 1),
        tretre_zero=(0, 1),
        total_classic=(1, 3),
        total_tretre=(1, 3),
    ),
]

PARTITION_IDS = [p.name for p in PARTITIONS]

SCORING_VARIANTS = [
    pytest.param(table, policy, id=f"{table.name}-{policy.name}")
    for table in (PrimieraTable.CLASSIC, PrimieraTable.TRETRE)
    for policy in (MissingSuit.OPPONENT_WINS, MissingSuit.ZERO)
]


def expected_primiera(
    part: Partition, table: PrimieraTable, policy: MissingSuit
) -> tuple[int, int]:
    zero = policy is MissingSuit.ZERO
    if table is PrimieraTable.CLASSIC:
        return part.classic_zero if zero else part.classic_opponent
    return part.tretre_zero if zero else part.tretre_opponent


def test_partitions_are_complete() -> None:
    for part in PARTITIONS:
        piles = part.captures().piles
        assert len(piles[0]) + len(piles[1]) == 40
        assert (len(piles[0]), len(piles[1])) == part.carte, part.name


@pytest.mark.parametrize(("table", "policy"), SCORING_VARIANTS)
@pytest.mark.parametrize("part", PARTITIONS, ids=PARTITION_IDS)
def test_partition_scores(part: Partition, table: PrimieraTable, policy: MissingSuit) -> None:
    rules = attrs.evolve(CLASSIC, scoring=ScoringRules.standard(table, policy))
    score = rules.scoring.score(part.captures())
    assert [c.name for c in score] == ["scope", "carte", "denari", "settebello", "primiera"]
    assert score["scope"].points == part.scope
    assert score["scope"].figures == part.scope
    assert score["carte"].figures == part.carte
    assert score["carte"].points == part.carte_points
    assert score["denari"].figures == part.denari
    assert score["denari"].points == part.denari_points
    assert score["settebello"].points == part.settebello
    figures = part.primiera_classic if table is PrimieraTable.CLASSIC else part.primiera_tretre
    assert score["primiera"].figures == figures
    primiera = expected_primiera(part, table, policy)
    assert score["primiera"].points == primiera
    total = tuple(
        s + c + d + b + p
        for s, c, d, b, p in zip(
            part.scope,
            part.carte_points,
            part.denari_points,
            part.settebello,
            primiera,
            strict=True,
        )
    )
    assert score.points == total


@pytest.mark.parametrize("part", PARTITIONS, ids=PARTITION_IDS)
def test_partition_preset_totals(part: Partition) -> None:
    captures = part.captures()
    assert CLASSIC.scoring.score(captures).points == part.total_classic
    assert TRETRE.scoring.score(captures).points == part.total_tretre


@pytest.mark.parametrize("part", PARTITIONS, ids=PARTITION_IDS)
@pytest.mark.parametrize("rules", [CLASSIC, TRETRE], ids=["classic", "tretre"])
def test_partition_finished_hand(rules: Rules, part: Partition) -> None:
    # The same partitions as finished hands: every card in the piles.
    captures = part.captures()
    state = GameState.from_position(
        rules,
        hands=[[], []],
        table=[],
        stock=[],
        dealer=1,
        piles=list(captures.piles),
        scope=part.scope,
        last_capturer=0,
    )
    assert state.is_terminal
    assert state.legal_moves() == ()
    score = state.hand_score()
    expected = part.total_classic if rules is CLASSIC else part.total_tretre
    assert score.points == expected
    assert score["carte"].figures == part.carte
    assert score["denari"].figures == part.denari
    figures = part.primiera_classic if rules is CLASSIC else part.primiera_tretre
    assert score["primiera"].figures == figures


def _score(rules: Rules, pile0: str, scope: tuple[int, int] = (0, 0)) -> scopa.HandScore:
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


def test_ka19_primiera_73_against_75() -> None:
    # First pile 7D 7C 7S 10B (with 8B 9B, whose best is still 10B): 21+21+21+10 = 73.
    # The second pile's best are 7B 6D 6C 6S: 21+18+18+18 = 75, and it wins.
    for rules in (CLASSIC, TRETRE):
        score = _score(rules, "7D 7C 7S 8-10B")
        assert score["primiera"].figures == (73, 75)
        assert score["primiera"].points == (0, 1)


def test_settebello_always_awarded() -> None:
    for part in PARTITIONS:
        holder = 0 if Card.parse("7D") in cards(part.pile0) else 1
        for rules in (CLASSIC, TRETRE):
            score = rules.scoring.score(part.captures())
            assert score["settebello"].points == ((1, 0) if holder == 0 else (0, 1))


@pytest.mark.parametrize("part", PARTITIONS, ids=PARTITION_IDS)
def test_ka25_non_scopa_points(part: Partition) -> None:
    # KA-25: points other than scope = 4 - (categories among carte, denari and primiera
    # that give no point), always between 1 and 4.
    for table in (PrimieraTable.CLASSIC, PrimieraTable.TRETRE):
        for policy in MissingSuit:
            rules = attrs.evolve(CLASSIC, scoring=ScoringRules.standard(table, policy))
            score = rules.scoring.score(part.captures())
            non_scopa = sum(score.points) - sum(score["scope"].points)
            ties = sum(
                1 for name in ("carte", "denari", "primiera") if sum(score[name].points) == 0
            )
            assert non_scopa == 4 - ties
            assert 1 <= non_scopa <= 4
            assert all(sum(score[name].points) <= 1 for name in ("carte", "denari", "primiera"))
            # Hand-computed count: the same from the expectations above.
            primiera = expected_primiera(part, table, policy)
            awarded = sum(part.carte_points) + sum(part.denari_points) + sum(primiera)
            assert non_scopa == 1 + awarded


def test_ka25_extremes() -> None:
    # Three ties (carte 20-20, denari 5-5, primiera 78-78): only the settebello, 1 point.
    tie = next(p for p in PARTITIONS if p.name == "all-three-tied")
    score = CLASSIC.scoring.score(tie.captures())
    assert sum(score.points) - sum(score["scope"].points) == 1
    assert score.points == (1, 0)
    # No tie at all: lacks-bastoni-lower-sum gives 4 non-scopa points, all to p1.
    none = next(p for p in PARTITIONS if p.name == "lacks-bastoni-lower-sum")
    score = CLASSIC.scoring.score(none.captures())
    assert sum(score.points) - sum(score["scope"].points) == 4
