from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa import DECK, Card, Declaration, IllegalMoveError, Move, NotationError
from tests.helpers import cards, wrong_type


def test_move_text_forms() -> None:
    assert str(Move(Card.parse("7D"))) == "7D"
    assert str(Move(Card.parse("9D"), cards("8S 1C"))) == "9Dx1C+8S"
    assert Move.parse("9dx8s+1c") == Move(Card.parse("9D"), set(cards("1C 8S")))
    assert Move.parse("9Dx1C8S") == Move.parse("9Dx1C+8S")
    assert Move.parse(" 7d ") == Move(Card.parse("7D"))
    assert Move.parse("9DX1C+8S") == Move.parse("9Dx1C+8S")  # the separator in capitals
    assert not Move.parse("7D").is_capture
    assert Move.parse("7Dx7B").is_capture


@pytest.mark.parametrize(
    "text", ["", "x", "7Dx", "x7D", "7D7C", "7Dx7B+7B", "7Dx7D", "7Dx7Bx7C", "11D"]
)
def test_bad_move_text_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="move"):
        Move.parse(text)


def test_moves_are_values() -> None:
    a = Move(Card.parse("9D"), cards("1C 8S"))
    b = Move.parse("9Dx1C+8S")
    assert a == b
    assert hash(a) == hash(b)
    assert a != Move.parse("9Dx4B+5C")
    assert a != "9Dx1C+8S"
    assert eval(repr(a), {"Move": Move}) == a
    with pytest.raises(AttributeError):
        a.card = Card.parse("1D")  # type: ignore[misc]


def test_a_card_cannot_capture_itself_or_non_cards() -> None:
    with pytest.raises(IllegalMoveError, match="itself"):
        Move(Card.parse("7D"), cards("7D"))
    with pytest.raises(TypeError, match="Card"):
        Move("7D")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Card"):
        Move(Card.parse("7D"), frozenset({"7B"}))  # type: ignore[arg-type]
    with pytest.raises(TypeError) as caught:
        Move.parse(None)  # type: ignore[arg-type]
    assert str(caught.value) in wrong_type(
        "a move must be given as text, not NoneType", "str", "None"
    )


@given(st.sampled_from(DECK), st.sets(st.sampled_from(DECK), max_size=6))
def test_move_text_round_trips(card: Card, captured: set[Card]) -> None:
    captured.discard(card)
    move = Move(card, frozenset(captured))
    assert Move.parse(str(move)) == move
    assert Move.parse(str(move).lower()) == move


@given(st.sampled_from(DECK), st.sets(st.sampled_from(DECK), min_size=2, max_size=8))
def test_the_captured_cards_come_in_the_order_of_the_text(card: Card, captured: set[Card]) -> None:
    captured.discard(card)
    move = Move(card, captured)
    assert str(move) == f"{card}x{'+'.join(map(str, move.captured))}"
    assert list(move.captured) == sorted(captured)
    assert list(Move.parse(str(move)).captured) == sorted(captured)


def test_the_captured_cards_of_a_move_read_as_written() -> None:
    # 1C is card 10, 8S card 27, 3B card 32, 5B card 34
    move = Move.parse("10Dx5B+1C+3B+8S")
    assert str(move) == "10Dx1C+8S+3B+5B"
    assert [str(card) for card in move.captured] == ["1C", "8S", "3B", "5B"]
    assert repr(move.captured) == (
        "frozenset({Card.parse('1C'), Card.parse('8S'), Card.parse('3B'), Card.parse('5B')})"
    )
    assert move.captured == frozenset(cards("8S 5B 3B 1C"))
    assert isinstance(move.captured, frozenset)


def test_a_move_of_wrong_values_names_them() -> None:
    with pytest.raises(TypeError) as raised:
        Move("7D", frozenset())  # type: ignore[arg-type]
    assert str(raised.value) == "a move's card must be a Card, not '7D'"
    with pytest.raises(TypeError) as raised:
        Move(Card.parse("7D"), [Card.parse("4C"), "3C"])  # type: ignore[list-item]
    assert str(raised.value) == "a move captures Cards, not '3C'"


def test_a_move_captures_the_cards_of_any_iterable() -> None:
    taken = [Card.parse("3C"), Card.parse("4S")]
    move = Move(Card.parse("7D"), taken)
    assert move.captured == frozenset(taken)
    assert move == Move(Card.parse("7D"), frozenset(taken)) == Move.parse("7Dx3C+4S")


class MarkedMove(Move):
    """A subclass, as a program may make to carry its own methods."""


def test_a_subclass_reads_moves_of_its_own_class() -> None:
    assert type(Move.parse("7Dx3C+4S")) is Move
    assert type(MarkedMove.parse("7Dx3C+4S")) is MarkedMove  # the same text read before
    assert type(MarkedMove.parse("6Bx2C+4D")) is MarkedMove
    assert type(Move.parse("6Bx2C+4D")) is Move  # the same text read by the subclass before


def test_announced_moves_are_written_with_their_declaration_and_claim() -> None:
    plain = Move.parse("7Dx7B")
    busso = plain.announced(Declaration.BUSSO)
    assert busso.declaration is Declaration.BUSSO
    assert not busso.claim  # no claim unless asked for
    assert str(busso) == "7Dx7B@busso"
    assert str(plain.announced(claim=True)) == "7Dx7B!"
    assert str(plain.announced(Declaration.TRIS, claim=True)) == "7Dx7B@tris!"
    assert Move.parse("7Dx7B@TRIS!") == plain.announced(Declaration.TRIS, claim=True)
    assert plain.announced() == plain
    assert plain.announced(claim=True) != plain  # a claim is part of the move
    assert Move(plain.card, plain.captured, claim=True) == plain.announced(claim=True)


def test_an_unknown_declaration_is_named() -> None:
    with pytest.raises(
        NotationError, match=r"^cannot read '7D@bisso' as a move: unknown declaration 'bisso'$"
    ):
        Move.parse("7D@bisso")


@pytest.mark.parametrize(
    ("hand", "matta", "busso", "tris"),
    [
        ("1D 2C 6S", None, True, False),  # 9: under 10
        ("1D 2C 7S", None, False, False),  # 10: not under 10
        ("4D 4C 4S", None, False, True),  # three of a kind, 12
        ("2D 2C 2S", None, True, True),  # both
        ("2D 2C 7C", "7C", True, True),  # the matta counts 1, or stands for a 2
        ("1D 2C 3S 1S", None, False, False),  # four cards are no hand to declare
        ("1D 2C", None, False, False),  # nor two
        ("7C 7C 7C", "7C", False, False),  # the same card thrice is no hand
        ("1D 1D 1C", None, False, False),  # nor a card twice
    ],
)
def test_the_declarations_a_hand_allows(
    hand: str, matta: str | None, busso: bool, tris: bool
) -> None:
    held = [Card.parse(code) for code in hand.split()]
    wild = None if matta is None else Card.parse(matta)
    assert Declaration.BUSSO.allows(held, wild) is busso
    assert Declaration.TRIS.allows(held, wild) is tris


def test_a_bad_declaration_or_claim_is_named() -> None:
    card = Card.parse("7D")
    with pytest.raises(TypeError) as caught:
        Move(card, declaration="busso")  # type: ignore[arg-type]
    assert str(caught.value) in wrong_type(
        "a declaration must be a Declaration, not 'busso'", "scopa.moves.Declaration or None", "str"
    )
    with pytest.raises(TypeError) as caught:
        Move(card, claim=1)  # type: ignore[arg-type]
    assert str(caught.value) in wrong_type("claim must be True or False, not 1", "bool", "int")
