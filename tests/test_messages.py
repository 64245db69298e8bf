"""Error messages, whole.

A server shows these messages to players and a developer reads them to find the problem,
so each one is pinned here in full: it must say what was wrong and where, in words.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

import attrs
import pytest

from scopa import (
    DECK,
    Abandonment,
    AbandonReason,
    AmbiguousMoveError,
    BrilliEconomy,
    CapturePriority,
    Card,
    Carte,
    CompulsoryCapture,
    Deck,
    GameState,
    HandScore,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    Match,
    Move,
    Napola,
    NotationError,
    Outcome,
    Primiera,
    PrimieraTable,
    Rules,
    RulesError,
    ScopaError,
    Scope,
    ScoringRules,
    SeriesRecord,
    find_variant,
    variant_names,
)
from tests.helpers import (
    CLASSIC,
    card_list,
    cards,
    finish_match,
    play_until,
    position,
    rebuilt,
    rest_of,
    with_fields,
    wrong_type,
)

# The deal of seed 1, player 0 dealing: player 1 leads with 1D 9C 3S on 5D 6D 2C 8C.
SEED_1_TEXT = (
    "2D8S9B/1D9C3S 5D6D2C8C 4C3B5B10D1S3D5S4S1B10B1C10C6C6S10S6B7B2S4B8B9D7S9S7D3C7C2B4D8D5C "
    "-/- 0/0 0 1 -"
)
SEED_1 = GameState.new(CLASSIC, seed=1)
# A position after the last deal: 2D with player 0, 5C with player 1, 3C on the table;
# player 0 has captured every other card.
ENDGAME = position(CLASSIC, ["2D", "5C"], "3C", piles=["*", "-"])
NO_PILE = frozenset[Card]()


def raised(error: type[Exception], call: Callable[[], object]) -> str:
    """The message of the error that `call` raises."""
    with pytest.raises(error) as caught:
        call()
    if isinstance(caught.value, ScopaError):
        assert isinstance(caught.value, ValueError)
    return str(caught.value.args[0])


def named(cases: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Test cases written `(name, *arguments)`, as pytest parameters with their names."""
    return [pytest.param(*arguments, id=name) for name, *arguments in cases]


def test_the_positions_used_here_are_the_deal_of_seed_1_and_a_legal_endgame() -> None:
    assert GameState.from_text(CLASSIC, SEED_1_TEXT) == SEED_1
    assert rebuilt(SEED_1) == SEED_1
    assert ENDGAME.current_player == 0


# --------------------------------------------------------------------------- text readers

TEXT_CASES: list[tuple[str, type[Exception], Callable[[], object], str | tuple[str, ...]]] = [
    ("card type", TypeError, lambda: Card.parse(7), "a card must be given as text, not int"),  # type: ignore[arg-type]
    (
        "card",
        NotationError,
        lambda: Card.parse("11D"),
        "cannot read '11D' as a card (expected e.g. '7D', '10b', 'Rc')",
    ),
    (
        "move type",
        TypeError,
        lambda: Move.parse(7),  # type: ignore[arg-type]
        wrong_type("a move must be given as text, not int", "str", "int"),
    ),
    (
        "move without a card",
        NotationError,
        lambda: Move.parse("x3C"),
        "cannot read 'x3C' as a move (expected e.g. '7D' or '7Dx3C+4S')",
    ),
    (
        "move taking nothing",
        NotationError,
        lambda: Move.parse("7Dx"),
        "cannot read '7Dx' as a move (expected e.g. '7D' or '7Dx3C+4S')",
    ),
    (
        "move taking '-'",
        NotationError,
        lambda: Move.parse("7Dx-"),
        "cannot read '7Dx-' as a move (expected e.g. '7D' or '7Dx3C+4S')",
    ),
    (
        "move of two cards",
        NotationError,
        lambda: Move.parse("7D3C"),
        "cannot read '7D3C' as a move (expected e.g. '7D' or '7Dx3C+4S')",
    ),
    (
        "move of no card",
        NotationError,
        lambda: Move.parse("-"),
        "cannot read '-' as a move (expected e.g. '7D' or '7Dx3C+4S')",
    ),
    (
        "move with two x",
        NotationError,
        lambda: Move.parse("7Dx3Cx4S"),
        "cannot read '3Cx4S' as a move: bad card at 'x4S'",
    ),
    (
        "move with a bad card",
        NotationError,
        lambda: Move.parse("7Q"),
        "cannot read '7Q' as a move: bad card at '7Q'",
    ),
    (
        "move with a bad capture",
        NotationError,
        lambda: Move.parse("7Dx3C+4Q"),
        "cannot read '3C4Q' as a move: bad card at '4Q'",
    ),
    (
        "move repeating a card",
        NotationError,
        lambda: Move.parse("7Dx3C+3C"),
        "cannot read '7Dx3C+3C' as a move: a card is repeated",
    ),
    (
        "deal code type",
        TypeError,
        lambda: Deck.parse(12),  # type: ignore[arg-type]
        "a deal code must be text, not int",
    ),
    (
        "position type",
        TypeError,
        lambda: GameState.from_text(CLASSIC, 5),  # type: ignore[arg-type]
        wrong_type("a position must be text, not int", "str", "int"),
    ),
    (
        "position fields",
        NotationError,
        lambda: GameState.from_text(CLASSIC, "a b c"),
        "a position has 8 fields, 3 in 'a b c'",
    ),
    (
        "hands",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, hands="2D8S9B")),
        "hands needs 2 parts separated by '/', got '2D8S9B'",
    ),
    (
        "piles",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, piles="-")),
        "piles needs 2 parts separated by '/', got '-'",
    ),
    (
        "scope",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, scope="0")),
        "scope needs 2 parts separated by '/', got '0'",
    ),
    (
        "scope count",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, scope="0/x")),
        "a scope count must be a number, got 'x'",
    ),
    (
        "dealer",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, dealer="x")),
        "dealer must be a player number or '-', got 'x'",
    ),
    (
        "dealer '-'",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, dealer="-")),
        "the dealer cannot be '-'",
    ),
    (
        "dealer of ten digits",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, dealer="1234567890")),
        "dealer must be a player number or '-', got '1234567890'",
    ),
    (
        "dealer of nine digits",
        InvalidStateError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, dealer="123456789")),
        "dealer must be a player number from 0 to 1, not 123456789",
    ),
    (
        "current player",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, current="y")),
        "current player must be a player number or '-', got 'y'",
    ),
    (
        "last capturer",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, last="z")),
        "last capturer must be a player number or '-', got 'z'",
    ),
    (
        "a hand",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, hands="2D8S9Q/1D9C3S")),
        "cannot read '2D8S9Q' as a hand: bad card at '9Q'",
    ),
    (
        "an empty hand",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, hands="2D8S9B/")),
        "cannot read '' as a hand (write '-' for none)",
    ),
    (
        "the table",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, table="5D6D2C8Q")),
        "cannot read '5D6D2C8Q' as a table: bad card at '8Q'",
    ),
    (
        "the stock",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, stock="4C3Q5B")),
        "cannot read '4C3Q5B' as a stock: bad card at '3Q5B'",
    ),
    (
        "a pile",
        NotationError,
        lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, piles="-/7Q")),
        "cannot read '7Q' as a pile: bad card at '7Q'",
    ),
]


@pytest.mark.parametrize(("error", "call", "expected"), named(TEXT_CASES))
def test_reader_messages(
    error: type[Exception], call: Callable[[], object], expected: str | tuple[str, ...]
) -> None:
    assert raised(error, call) in ((expected,) if isinstance(expected, str) else expected)


def test_a_move_holds_its_captures_as_a_frozenset() -> None:
    move = Move(Card.parse("7D"), [Card.parse("3C"), Card.parse("4C")])
    assert move.captured == frozenset(card_list("3C 4C"))
    assert isinstance(move.captured, frozenset)


def test_moves_are_read_with_either_x() -> None:
    assert Move.parse("7DX3C+4S") == Move.parse("7Dx3C+4S") == Move.parse(" 7dx3c4s ")
    assert Move.parse("7D").captured == frozenset()


# --------------------------------------------------------------------------- positions


POSITION_CASES: list[tuple[str, Callable[[], object], str]] = [
    (
        "dealer",
        lambda: rebuilt(SEED_1, dealer=2),
        "dealer must be a player number from 0 to 1, not 2",
    ),
    (
        "hands as text",
        lambda: rebuilt(SEED_1, hands="ab"),
        "hands must be a sequence of 2 groups of cards",
    ),
    (
        "hands of one player",
        lambda: rebuilt(SEED_1, hands=[cards("2D")]),
        "hands must be a sequence of 2 groups of cards",
    ),
    (
        "hands of text",
        lambda: rebuilt(SEED_1, hands=[["x"], []]),
        "hands must hold Cards, got ('x',)",
    ),
    (
        "a card twice in a hand",
        lambda: rebuilt(SEED_1, hands=[card_list("2D 8S") + card_list("8S"), cards("1D 9C 3S")]),
        "a card is given twice in hands",
    ),
    (
        "a card twice on the table",
        lambda: rebuilt(SEED_1, table=card_list("5D 6D 2C") + card_list("2C")),
        "a card is given twice in table",
    ),
    (
        "a card twice in a pile",
        lambda: rebuilt(ENDGAME, piles=[[*rest_of(cards("2D 5C 3C")), DECK[0]], NO_PILE]),
        "a card is given twice in piles",
    ),
    ("stock of text", lambda: rebuilt(SEED_1, stock=["4C"]), "stock must hold Cards"),
    (
        "a card twice in the stock",
        lambda: rebuilt(SEED_1, stock=card_list("4C") * 2),
        "cards given twice in the stock",
    ),
    ("scope", lambda: rebuilt(SEED_1, scope=[0]), "scope must be 2 non-negative ints, not [0]"),
    (
        "a card in a hand and on the table",
        lambda: rebuilt(SEED_1, table=cards("5D 6D 2C 8C 9B 2D")),
        "cards given twice: 2D 9B",
    ),
    (
        "cards missing",
        lambda: rebuilt(SEED_1, table=cards("5D 6D")),
        "cards missing: 2C 8C",
    ),
    (
        "a stock too large",
        lambda: GameState.from_position(
            CLASSIC,
            hands=[NO_PILE, NO_PILE],
            table=cards("1D 2D 3D 4D"),
            stock=sorted(rest_of(cards("1D 2D 3D 4D"))),
            dealer=0,
        ),
        "a stock of 36 cards is impossible with deals of 6",
    ),
    (
        "the current player",
        lambda: rebuilt(SEED_1, current_player=0),
        "with these hand sizes it is player 1's turn, not 0",
    ),
    (
        "hand sizes",
        lambda: rebuilt(SEED_1, hands=[cards("2D 8S 9B 1D"), cards("9C 3S")]),
        "hand sizes [4, 2] do not fit a round of 3-card hands led by player 1",
    ),
    (
        "too many scope",
        lambda: rebuilt(ENDGAME, scope=[20, 0]),
        "player 0 cannot have 20 scope with 37 cards",
    ),
    (
        "the last capturer",
        lambda: rebuilt(ENDGAME, last_capturer=1),
        "last_capturer 1 has captured nothing",
    ),
    (
        "several capturers",
        lambda: rebuilt(
            ENDGAME, piles=[rest_of(cards("2D 5C 3C 1B")), cards("1B")], last_capturer=None
        ),
        "several players have captured: give last_capturer",
    ),
    (
        "a finished hand with cards on the table",
        lambda: rebuilt(ENDGAME, hands=[NO_PILE, NO_PILE], table=cards("2D 5C 3C")),
        "a finished hand has no cards left on the table",
    ),
    (
        "empty hands and a stock",
        lambda: GameState.from_position(
            CLASSIC,
            hands=[NO_PILE, NO_PILE],
            table=NO_PILE,
            stock=sorted(cards("1D 2D 3D 4D 5D 6D")),
            piles=[rest_of(cards("1D 2D 3D 4D 5D 6D")), NO_PILE],
            dealer=0,
        ),
        "every hand is empty but the stock is not: deal the next cards",
    ),
]


@pytest.mark.parametrize(("call", "expected"), named(POSITION_CASES))
def test_position_messages(call: Callable[[], object], expected: str) -> None:
    assert raised(InvalidStateError, call) == expected


def test_states_are_built_by_their_named_constructors() -> None:
    with pytest.raises(TypeError, match=r"missing (10 )?required"):
        GameState()  # type: ignore[call-arg]


def test_new_state_messages() -> None:
    deck = Deck.standard()
    assert raised(TypeError, lambda: GameState.new("classic", seed=1)) in wrong_type(  # type: ignore[arg-type]
        "rules must be a Rules, not str", "scopa.rules.Rules", "str"
    )
    assert raised(InvalidArgumentError, lambda: GameState.new(CLASSIC, seed=1, deck=deck)) == (
        "give a seed or a deck, not both"
    )
    assert raised(TypeError, lambda: GameState.new(CLASSIC, seed=1, dealer="0")) == (
        "dealer must be an int, not str"
    )
    assert raised(TypeError, lambda: GameState.new(CLASSIC, seed=1, dealer=True)) == (
        "dealer must be an int, not bool"
    )
    assert raised(TypeError, lambda: GameState.new(CLASSIC, seed=1, dealer=1.0)) == (
        "dealer must be an int, not float"
    )
    assert raised(InvalidArgumentError, lambda: GameState.new(CLASSIC, seed=1, dealer=2)) == (
        "dealer must be a player number from 0 to 1, not 2"
    )
    assert raised(TypeError, lambda: GameState.new(CLASSIC, deck=list(DECK))) in wrong_type(  # type: ignore[arg-type]
        "deck must be a Deck, not list", "scopa.cards.Deck or None", "list"
    )
    assert raised(TypeError, lambda: GameState.new(CLASSIC, seed="1")) in wrong_type(  # type: ignore[arg-type]
        "a seed must be an int, not str", "int or None", "str"
    )
    assert raised(InvalidArgumentError, lambda: GameState.new(CLASSIC, seed=2**64)) == (
        "a seed must be between 0 and 2**64 - 1, not 18446744073709551616"
    )
    assert raised(InvalidArgumentError, lambda: GameState.new(CLASSIC, seed=10**5000)) == (
        "a seed must be between 0 and 2**64 - 1, not an int of about 5,001 digits"
    )


def test_illegal_move_messages() -> None:
    state = GameState.new(CLASSIC, seed=1)
    where = "with table 5D 6D 2C 8C"
    # the same message in both builds: apply() checks the type of its move itself
    assert raised(TypeError, lambda: state.apply("1D")) == (
        "a move must be a Move, not text: read it with state.parse_move('1D')"
    )
    assert raised(TypeError, lambda: state.apply("1D" * 50)) == (
        "a move must be a Move, not text: read it with state.parse_move('1D1D1D1D1D1D1D1D1D1D'"
        "… (100 characters))"
    )
    assert raised(TypeError, lambda: state.apply(None)) == "a move must be a Move, not NoneType"
    assert raised(IllegalMoveError, lambda: state.apply(Move.parse("2D"))) == (
        f"illegal move '2D' {where}: 2D is not in player 1's hand"
    )
    assert raised(IllegalMoveError, lambda: state.apply(Move.parse("9Cx7C+2C"))) == (
        f"illegal move '9Cx2C+7C' {where}: 7C not on the table"
    )
    # player 0 holds 2D and must take the 2C with it
    last = position(CLASSIC, ["2D", "5C"], "2C", piles=["*", "-"])
    assert raised(IllegalMoveError, lambda: last.apply(Move.parse("2D"))) == (
        "illegal move '2D' with table 2C: 2D may only play as 2Dx2C"
    )
    # player 0 holds 7D and may take the 7C or the 3C and 4C
    free = attrs.evolve(CLASSIC, capture_priority=CapturePriority.FREE)
    choice = position(free, ["7D", "5C"], "7C 3C 4C", piles=["*", "-"])
    assert raised(IllegalMoveError, lambda: choice.apply(Move.parse("7D"))) == (
        "illegal move '7D' with table 3C 4C 7C: 7D may only play as 7Dx7C, 7Dx3C+4C"
    )
    over = last.apply(Move.parse("2Dx2C")).apply(Move.parse("5C"))
    assert over.is_terminal
    assert raised(IllegalMoveError, lambda: over.apply(Move.parse("5C"))) == (
        "illegal move '5C' with table -: the hand is over"
    )


def test_an_ambiguous_short_move_names_its_choices() -> None:
    state = position(CLASSIC, ["5D", "5C"], "2C 3C 1B 4B", piles=["*", "-"])
    assert raised(Exception, lambda: state.parse_move("5D")) == (
        "'5D' is ambiguous with table 2C 3C 1B 4B: it may be 5Dx2C+3C, 5Dx1B+4B"
    )


def test_a_pickled_state_keeps_its_history() -> None:
    state = GameState.new(CLASSIC, seed=1)
    later = state.apply(state.legal_moves()[0])
    copy = pickle.loads(pickle.dumps(later))
    assert copy.history == later.history == ((1, state.legal_moves()[0]),)


# --------------------------------------------------------------------------- matches


def finished_match() -> Match:
    """A match to 1 point, played to its end."""
    return finish_match(Match.new(attrs.evolve(CLASSIC, target=1), seed=3))


def waiting_match() -> Match:
    """A match given one deck, played until it waits for the next."""
    return play_until(Match.new(CLASSIC, decks=[Deck.standard()]), lambda m: m.awaiting_deal)


def test_match_messages() -> None:
    deck = Deck.standard()
    assert raised(InvalidArgumentError, lambda: Match.new(CLASSIC, seed=1, decks=[deck])) == (
        "give a seed or decks, not both"
    )
    assert raised(TypeError, lambda: Match.new(CLASSIC, decks=["x"])) == (  # type: ignore[list-item]
        "decks must be Deck objects"
    )
    assert raised(TypeError, lambda: Match.new("classic")) == "rules must be a Rules, not str"  # type: ignore[arg-type]
    assert raised(InvalidArgumentError, lambda: Match.new(CLASSIC, seed=1, first_dealer=5)) == (
        "first_dealer must be a player number from 0 to 1, not 5"
    )
    assert raised(TypeError, lambda: Match.new(CLASSIC, seed=1, first_dealer=True)) == (
        "first_dealer must be an int, not bool"
    )
    assert raised(TypeError, lambda: Match.new(CLASSIC, seed=1, series="x")) == (  # type: ignore[arg-type]
        "series must be a SeriesRecord, not str"
    )
    assert raised(
        InvalidArgumentError, lambda: Match.new(CLASSIC, series=SeriesRecord.empty(4))
    ) == ("the series record is of 4 players, not 2")
    assert raised(InvalidStateError, lambda: SeriesRecord((1, 2), (0,), (0, 0))) == (
        "a series record needs as many wins, losses and abandonments, each a non-negative int, "
        "not ((1, 2), (0,), (0, 0))"
    )
    assert raised(InvalidStateError, lambda: SeriesRecord((1, True), (0, 0), (0, 0))) == (
        "a series record needs as many wins, losses and abandonments, each a non-negative int, "
        "not ((1, True), (0, 0), (0, 0))"
    )
    playing = Match.new(CLASSIC, seed=1)
    move = playing.state.legal_moves()[0]
    assert raised(InvalidArgumentError, lambda: playing.apply(move, elapsed=-1)) == (
        "elapsed time must be a finite, non-negative number of seconds, not -1"
    )
    for bad in (float("nan"), float("inf")):
        assert raised(InvalidArgumentError, partial(playing.apply, move, elapsed=bad)) == (
            f"elapsed time must be a finite, non-negative number of seconds, not {bad}"
        )
    assert raised(TypeError, lambda: playing.apply(move, elapsed=True)) == (
        "elapsed time must be a number of seconds, not bool"
    )
    assert raised(TypeError, lambda: playing.apply(move, elapsed="1")) == (  # type: ignore[arg-type]
        "elapsed time must be a number of seconds, not str"
    )
    assert raised(IllegalMoveError, lambda: playing.deal(deck)) == (
        "the match is not waiting for a deck"
    )
    assert raised(IllegalMoveError, playing.rematch) == "a rematch starts once the match is over"
    assert raised(InvalidArgumentError, lambda: playing.abandon(5)) == (
        "player must be a player number from 0 to 1, not 5"
    )
    assert raised(TypeError, lambda: playing.abandon(1.0)) == "player must be an int, not float"  # type: ignore[arg-type]
    assert raised(TypeError, lambda: playing.abandon(True)) == "player must be an int, not bool"
    assert raised(TypeError, lambda: playing.abandon(0, "left")) == (  # type: ignore[arg-type]
        "reason must be an AbandonReason, not 'left'"
    )
    waiting = waiting_match()
    assert raised(TypeError, lambda: waiting.deal("x")) == "deck must be a Deck, not str"  # type: ignore[arg-type]
    assert raised(IllegalMoveError, lambda: waiting.apply(move)) == (
        "the match waits for the next deck: call deal(deck)"
    )
    over = finished_match()
    assert raised(IllegalMoveError, lambda: over.apply(move)) == "the match is over"
    assert raised(IllegalMoveError, lambda: over.abandon(0)) == "the match is already over"
    assert raised(InvalidStateError, lambda: SeriesRecord.empty(2).add([Outcome.WIN])) == (
        "a series of 2 players needs 2 outcomes, got 1"
    )


def test_a_match_shows_its_progress() -> None:
    assert repr(Match.new(CLASSIC, seed=1)) == "<Match classic hand 1 totals (0, 0)>"
    over = finished_match()
    assert repr(over) == f"<Match classic hand {len(over.hands)} totals {over.totals} over>"


def test_time_short_of_a_second_is_accepted() -> None:
    match = Match.new(find_variant("tretre"), seed=1)
    for elapsed in (0, 0.5, 29.9):
        assert match.apply(match.state.legal_moves()[0], elapsed=elapsed).abandonment is None


# --------------------------------------------------------------------------- rules


RULES_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("one player", lambda: Rules(players=1), "players must be an int from 2 to 40, not 1"),
    (
        "a float of players",
        lambda: Rules(players=2.0),  # type: ignore[arg-type]
        "players must be an int from 2 to 40, not 2.0",
    ),
    (
        "a huge target",
        lambda: Rules(target=10**4000),
        "target must be an int from 1 to 1,000,000, not an int of about 4,001 digits",
    ),
    (
        "a target of True",
        lambda: Rules(target=True),
        "target must be an int from 1 to 1,000,000, not True",
    ),
    (
        "sides as text",
        lambda: Rules(sides="3"),  # type: ignore[arg-type]
        "sides must be an int from 2 to 40 or None, not '3'",
    ),
    (
        "sides that do not divide",
        lambda: Rules(players=3, sides=2),
        "3 players cannot form 2 equal sides",
    ),
    (
        "a hand size",
        lambda: Rules(hand_size=7),
        "36 cards after the table do not split into deals of 7 cards to each of 2 players",
    ),
    (
        "a capture priority",
        lambda: Rules(capture_priority="free"),  # type: ignore[arg-type]
        "capture_priority must be a CapturePriority, not 'free'",
    ),
    ("stakes", lambda: Rules(stakes=5), "stakes must be a Stakes or None, not 5"),  # type: ignore[arg-type]
    ("a flag", lambda: Rules(capture_by_sum=1), "capture_by_sum must be True or False, not 1"),  # type: ignore[arg-type]
    (
        "a time limit",
        lambda: Rules(move_time_limit=0),
        "move_time_limit must be a positive number of seconds up to 86,400, or None, not 0",
    ),
    (
        "a time limit that is not a number",
        lambda: Rules(move_time_limit=float("nan")),
        "move_time_limit must be a positive number of seconds up to 86,400, or None, not nan",
    ),
    (
        "a rules name with markup",
        lambda: Rules(name="[/bold]x"),
        "name must be printable text without markup characters, not '[/bold]x'",
    ),
    (
        "a rules name with a control character",
        lambda: Rules(name="a\x1b[31m"),
        "name must be printable text without markup characters, not 'a\\x1b[31m'",
    ),
    ("a rules name of None", lambda: Rules(name=None), "name must be text, not NoneType"),  # type: ignore[arg-type]
    ("an empty rules name", lambda: Rules(name=""), "name must have 1 to 64 characters, not 0"),
    (
        "a scoring that gives no points",
        lambda: Rules(scoring=ScoringRules(())),
        "scoring gives no points at all, so a match could never end",
    ),
    (
        "a scoring of zero-point scope",
        lambda: Rules(scoring=ScoringRules([Scope(value=0)])),
        "scoring gives no points at all, so a match could never end",
    ),
    ("a name", lambda: Scope(name=3), "name must be text, not int"),  # type: ignore[arg-type]
    ("a threshold", lambda: Carte(threshold=-1), "threshold must be an int from 0 to 40, not -1"),
    (
        "a scopa value",
        lambda: Scope(value=10**6),
        "value must be an int from 0 to 100, not 1000000",
    ),
    (
        "a flag as a threshold",
        lambda: Carte(threshold=True),
        "threshold must be an int from 0 to 40, not True",
    ),
    (
        "a component flag",
        lambda: Napola(napoleone_wins_match=1),  # type: ignore[arg-type]
        "napoleone_wins_match must be True or False, not 1",
    ),
    ("a primiera table", lambda: Primiera(table="x"), "table must be a PrimieraTable, not 'x'"),  # type: ignore[arg-type]
    (
        "primiera values",
        lambda: PrimieraTable("short", (1, 2)),
        "a primiera table needs ten ints from 0 to 100, got (1, 2)",
    ),
    (
        "primiera values that are flags",
        lambda: PrimieraTable("flags", (True,) * 10),
        "a primiera table needs ten ints from 0 to 100, "
        "got (True, True, True, True, True, True, Tru… (60 characters)",
    ),
    (
        "a negative pot",
        lambda: BrilliEconomy(hand_pot=-10),
        "brilli must be from 0 to 1,000,000,000, not -10",
    ),
    (
        "paid hands",
        lambda: BrilliEconomy(paid_hands=10**9),
        "paid_hands must be an int from 0 to 100, not 1000000000",
    ),
    (
        "brilli",
        lambda: BrilliEconomy(hand_pot="10"),  # type: ignore[arg-type]
        "brilli must be an int or a Fraction, not '10'",
    ),
    (
        "brilli as a flag",
        lambda: BrilliEconomy(hand_pot=True),
        "brilli must be an int or a Fraction, not True",
    ),
    (
        "a component",
        lambda: ScoringRules([Scope(), "carte"]),  # type: ignore[list-item]
        "'carte' has no name and score() method",
    ),
    (
        "component names",
        lambda: ScoringRules([Scope(), Scope()]),
        "scoring component names must be unique, got ['scope', 'scope']",
    ),
    (
        "a component to remove",
        lambda: ScoringRules.standard().without("napola"),
        "no scoring component 'napola'",
    ),
    (
        "a variant",
        lambda: find_variant("briscola"),
        "unknown variant 'briscola'; the presets are " + ", ".join(variant_names()),
    ),
    (
        "a misspelt variant",
        lambda: find_variant("Scopone Scentifico"),
        "unknown variant 'Scopone Scentifico'; did you mean 'scopone-scientifico'? "
        "the presets are " + ", ".join(variant_names()),
    ),
    (
        "a long variant",
        lambda: find_variant("x" * 10_000),
        "unknown variant 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (10,000 characters); "
        "the presets are " + ", ".join(variant_names()),
    ),
]


@pytest.mark.parametrize(("call", "expected"), named(RULES_CASES))
def test_rules_messages(call: Callable[[], object], expected: str) -> None:
    assert raised(RulesError, call) == expected


def test_valid_rule_parts_are_accepted() -> None:
    assert Rules(move_time_limit=0.5).move_time_limit == 0.5
    assert Carte(threshold=21).threshold == 21
    assert Rules(sides=None).number_of_sides == 2
    assert (
        find_variant("Scopa_d assi") == find_variant("scopa d'assi") == find_variant("scopa-d-assi")
    )


def test_a_missing_category_names_the_categories() -> None:
    score: HandScore = GameState.new(CLASSIC, seed=1).hand_score()
    with pytest.raises(KeyError) as caught:
        score["napola"]
    assert caught.value.args[0] == (
        "no scoring category 'napola'; the categories are scope, carte, denari, settebello, "
        "primiera"
    )


# --------------------------------------------------------------------------- stakes


def test_settling_messages() -> None:
    brilli = BrilliEconomy()
    assert raised(InvalidStateError, lambda: brilli.settle([(1, 2, 3)])) == (
        "hand points (1, 2, 3) do not fit 2 sides"
    )
    assert raised(InvalidStateError, lambda: brilli.settle([(1, -2)])) == (
        "hand points (1, -2) do not fit 2 sides"
    )
    late = Abandonment(player=0, hand=3, reason=AbandonReason.VOLUNTARY)
    assert raised(InvalidStateError, lambda: brilli.settle([(4, 0)], abandonment=late)) == (
        "an abandonment in hand 3 by player 0 does not follow 1 completed hands of 2 sides"
    )
    assert raised(InvalidStateError, lambda: brilli.settle([(4, 0)], winner=2)) == (
        "winner 2 is not one of 2 sides"
    )


def test_the_pot_of_an_abandoned_hand_is_split_among_the_survivors() -> None:
    # three sides; hand 1 went 3-1-0 (10 brilli: 7.5, 2.5, 0); side 1 leaves in hand 2,
    # whose 10 brilli go to sides 0 and 2, 5 each; side 1 loses 30
    left = Abandonment(player=1, hand=2, reason=AbandonReason.VOLUNTARY)
    assert BrilliEconomy().settle([(3, 1, 0)], abandonment=left, sides=3) == (
        Fraction(25, 2),
        Fraction(5, 2) - 30,
        Fraction(5),
    )


# --------------------------------------------------------------------------- at the boundary


@pytest.mark.parametrize("value", [True, 1.0, "0"])
@pytest.mark.parametrize("argument", ["last_capturer", "current_player", "dealer"])
def test_player_numbers_of_a_position_must_be_ints(argument: str, value: object) -> None:
    with pytest.raises(TypeError, match=f"^{argument} must be an int, not {type(value).__name__}$"):
        rebuilt(ENDGAME, **{argument: value})


def test_a_dash_is_the_current_player_only_of_a_finished_hand() -> None:
    text = ENDGAME.to_text()
    assert text.split()[6] == "0"
    dashed = with_fields(text, current="-")
    assert raised(InvalidStateError, lambda: GameState.from_text(CLASSIC, dashed)) == (
        "the current player is '-' (the hand is over), but it is player 0's turn"
    )


@pytest.mark.parametrize("letter", ["ı", "ﬀ", "Ｚ", "٣"])
def test_a_deal_code_has_only_the_documented_digits(letter: str) -> None:
    code = str(Deck.shuffled(5))
    assert Deck.parse(code.lower()) == Deck.shuffled(5)  # case does not matter
    bad = letter + code[1:]
    assert raised(NotationError, lambda: Deck.parse(bad)) == (
        f"cannot read {bad!r} as a deal code: it must be 32 base-32 digits"
    )


HUGE = "7" * 10_000_000


@pytest.mark.parametrize(
    "call",
    named(
        [
            ("card", lambda: Card.parse(HUGE)),
            ("move", lambda: Move.parse(HUGE)),
            ("deal code", lambda: Deck.parse(HUGE)),
            ("position", lambda: GameState.from_text(CLASSIC, HUGE)),
            (
                "position field",
                lambda: GameState.from_text(CLASSIC, with_fields(SEED_1_TEXT, hands=HUGE)),
            ),
            ("short move", lambda: GameState.new(CLASSIC, seed=1).parse_move(HUGE)),
            ("variant", lambda: find_variant(HUGE)),
        ]
    ),
)
def test_a_huge_input_is_quoted_by_a_short_prefix(call: Callable[[], object]) -> None:
    with pytest.raises(ScopaError) as caught:
        call()
    message = str(caught.value)
    assert max(map(len, re.findall("7+", message))) <= 40  # a short prefix of the sevens
    assert len(message) < 600  # the rest is the message itself (the variant's lists presets)
    assert "'7777777777" in message
    assert "(10,000,000 characters)" in message or "characters)" in message


def test_control_characters_are_escaped_in_messages() -> None:
    assert raised(NotationError, lambda: Card.parse("\x1b[2J7D")) == (
        "cannot read '\\x1b[2J7D' as a card (expected e.g. '7D', '10b', 'Rc')"
    )


def test_a_card_that_cannot_be_played_says_why() -> None:
    vile = find_variant("asso-piglia-tutto-4")
    state = GameState.new(vile, seed=1)
    player = state.current_player
    assert player is not None
    aces = sorted(card for card in state.hands[player] if card.rank == 1)
    seed = 1
    while not aces or len(aces) == len(state.hands[player]):
        seed += 1
        state = GameState.new(vile, seed=seed)
        player = state.current_player
        assert player is not None
        aces = sorted(card for card in state.hands[player] if card.rank == 1)
    ace = aces[0]
    table = " ".join(map(str, sorted(state.table))) or "-"
    assert raised(IllegalMoveError, lambda: state.apply(Move(ace))) == (
        f"illegal move '{ace}' with table {table}: the first play of a hand may not be an Ace"
    )
    # with compulsory capture by any card: 5D cannot capture, the 7D can take 3C+4C
    capturing = attrs.evolve(CLASSIC, compulsory_capture=CompulsoryCapture.CAPTURING_CARD)
    must = position(capturing, ["5D 7D", "5C 9B"], "3C 4C", piles=["*", "-"])
    assert raised(IllegalMoveError, lambda: must.apply(Move.parse("5D"))) == (
        "illegal move '5D' with table 3C 4C: 5D cannot capture, and a card that can capture "
        "must be played"
    )
    # with the first-lead rule too, past the first play an Ace is refused as any card is
    both = attrs.evolve(capturing, ace_first_lead_forbidden=True)
    later = position(both, ["1S 7D", "5C 9B"], "3C 4C", piles=["*", "-"])
    assert raised(IllegalMoveError, lambda: later.apply(Move.parse("1S"))) == (
        "illegal move '1S' with table 3C 4C: 1S cannot capture, and a card that can capture "
        "must be played"
    )


def test_an_ambiguous_move_lists_a_dozen_choices_and_counts_the_rest() -> None:
    # 10D on a table of every Ace to 9 except in denari: many sums make ten
    table = [card for card in DECK if card.suit != 0 and card.rank <= 9 and card.rank != 5]
    state = position(CLASSIC, ["10D", "10C"], " ".join(map(str, table)), piles=["*", "-"])
    options = [m for m in state.legal_moves() if str(m.card) == "10D"]
    assert len(options) > 100
    message = raised(AmbiguousMoveError, lambda: state.parse_move("10D"))
    shown = ", ".join(str(m) for m in options[:12])
    assert message.endswith(f"it may be {shown} and {len(options) - 12} more")
