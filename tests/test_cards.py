from __future__ import annotations

import math
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa import (
    DECK,
    Card,
    Deck,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    Rank,
    Suit,
)
from scopa.cards import card_set, format_cards, show_cards
from scopa.masks import bits, cards_of
from tests.strategies import decks, seeds

# The published first outputs of SplitMix64 for the seeds 1234567 and 0.
SPLITMIX_1234567 = (
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
)
SPLITMIX_0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_deck_holds_each_card_once_in_index_order() -> None:
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert [card.index for card in DECK] == list(range(40))
    assert DECK[0] == Card(Rank.ASSO, Suit.DENARI)
    assert DECK[9] == Card(Rank.RE, Suit.DENARI)
    assert DECK[6] == Card(Rank.SETTE, Suit.DENARI)
    assert DECK[39] == Card(Rank.RE, Suit.BASTONI)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7D", Rank.SETTE, Suit.DENARI),
        ("7d", Rank.SETTE, Suit.DENARI),
        ("10b", Rank.RE, Suit.BASTONI),
        ("10B", Rank.RE, Suit.BASTONI),
        ("Rb", Rank.RE, Suit.BASTONI),
        ("Cc", Rank.CAVALLO, Suit.COPPE),
        ("cC", Rank.CAVALLO, Suit.COPPE),
        ("AS", Rank.ASSO, Suit.SPADE),
        ("1s", Rank.ASSO, Suit.SPADE),
        ("Fd", Rank.FANTE, Suit.DENARI),
        ("8D", Rank.FANTE, Suit.DENARI),
        ("9C", Rank.CAVALLO, Suit.COPPE),
        ("JB", Rank.FANTE, Suit.BASTONI),
        ("QH", Rank.CAVALLO, Suit.COPPE),
        ("KS", Rank.RE, Suit.SPADE),
        ("5♦", Rank.CINQUE, Suit.DENARI),
        ("2♥", Rank.DUE, Suit.COPPE),
        ("3♠", Rank.TRE, Suit.SPADE),
        ("4♣", Rank.QUATTRO, Suit.BASTONI),
        (" 6b ", Rank.SEI, Suit.BASTONI),
        ("1B\u00a0", Rank.ASSO, Suit.BASTONI),
    ],
)
def test_parse_reads_every_documented_form(text: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(
    "text", ["", "7", "D", "11D", "0D", "7X", "77D", "7DD", "10", "Z7", "1 0D", "7Dx"]
)
def test_parse_refuses_bad_text_naming_it(text: str) -> None:
    with pytest.raises(NotationError, match=repr(text).replace("[", r"\[")):
        Card.parse(text)


def test_parse_refuses_non_text() -> None:
    with pytest.raises(TypeError, match="text"):
        Card.parse(7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        Deck.parse(7)  # type: ignore[arg-type]


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="cannot read"):
        Card.parse("nope")


@pytest.mark.parametrize("card", DECK)
def test_canonical_text_and_repr_round_trip(card: Card) -> None:
    text = str(card)
    assert text == f"{int(card.rank)}{'DCSB'[card.suit]}"
    assert Card.parse(text) is card
    assert eval(repr(card), {"Card": Card}) == card


# How a suit and a rank print: the suits by their Italian names, as the glossary of the rules
# page writes them; the ranks as its table of ranks names them, the Ace and the figures by
# name and the others by number.
SUIT_WORDS = {"D": "denari", "C": "coppe", "S": "spade", "B": "bastoni"}
RANK_WORDS = {1: "asso", 8: "fante", 9: "cavallo", 10: "re"}


@pytest.mark.parametrize("card", DECK)
def test_a_suit_and_a_rank_print_as_words_and_keep_their_repr(card: Card) -> None:
    number, letter = str(card)[:-1], str(card)[-1]
    assert str(card.suit) == f"{card.suit}" == SUIT_WORDS[letter]
    assert str(card.rank) == RANK_WORDS.get(int(number), number)
    assert repr(card.suit) == f"Suit.{card.suit.name}"
    assert repr(card.rank) == f"Rank.{card.rank.name}"
    # They stay ints: a number comes out of int() and of a numeric format.
    assert int(card.rank) == int(number)
    assert f"{card.suit:d}" == str("DCSB".index(letter))


def test_print_of_the_settebello_s_suit_and_rank() -> None:
    settebello = Card.parse("7D")
    assert f"{settebello.rank} of {settebello.suit}" == "7 of denari"
    assert str(Card.parse("Rb").rank) == "re"


def test_cards_sort_and_hash_by_index() -> None:
    assert sorted([Card.parse("1B"), Card.parse("10D"), Card.parse("1D")]) == [
        Card.parse("1D"),
        Card.parse("10D"),
        Card.parse("1B"),
    ]
    built = Card(Rank.SETTE, Suit.DENARI)
    assert built == DECK[6]
    assert hash(built) == hash(DECK[6])
    assert built in {DECK[6]}
    assert not built < DECK[6]
    assert not built > DECK[6]
    text: object = "7D"
    assert Card.parse("7D") != text


@pytest.mark.parametrize(
    ("rank", "suit", "message"),
    [
        (11, 0, "a card's rank must be from 1 to 10, not 11"),
        (0, Suit.DENARI, "a card's rank must be from 1 to 10, not 0"),
        (1, 4, "a card's suit must be from 0 to 3, not 4"),
        (Rank.RE, -1, "a card's suit must be from 0 to 3, not -1"),
        (10**400, 0, "a card's rank must be from 1 to 10, not an int of about 401 digits"),
    ],
)
def test_a_card_out_of_range_names_the_field(rank: int, suit: int, message: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        Card(rank, suit)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("rank", "suit", "message"),
    [
        ("7", "D", "a card's rank must be a Rank or an int, not str"),
        (7, "D", "a card's suit must be a Suit or an int, not str"),
        (7.0, 0, "a card's rank must be a Rank or an int, not float"),
        (True, 0, "a card's rank must be a Rank or an int, not bool"),
        (7, None, "a card's suit must be a Suit or an int, not NoneType"),
    ],
)
def test_a_card_of_wrong_types_is_a_type_error(rank: object, suit: object, message: str) -> None:
    with pytest.raises(TypeError) as caught:
        Card(rank, suit)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_a_card_of_plain_ints_is_the_decks_card() -> None:
    assert Card(7, 0) == DECK[6]
    assert Card(7, 0).rank is Rank.SETTE
    assert Card(10, 3).suit is Suit.BASTONI


def test_cards_for_people_are_in_standard_order_separated_by_spaces() -> None:
    # index order: 1C is 10, 8S is 27, 5B is 34
    assert show_cards([Card.parse("5B"), Card.parse("1C"), Card.parse("8S")]) == "1C 8S 5B"
    assert show_cards(frozenset({DECK[39], DECK[0]})) == "1D 10B"
    assert show_cards([]) == "-"
    # the form positions write stays joined, in the order given
    assert format_cards([Card.parse("5B"), Card.parse("1C")]) == "5B1C"


@given(st.sets(st.sampled_from(DECK)))
def test_a_card_set_iterates_in_standard_order(chosen: set[Card]) -> None:
    ordered = card_set(chosen)
    assert list(ordered) == sorted(chosen, key=lambda card: card.index)
    assert ordered == frozenset(chosen)
    assert hash(ordered) == hash(frozenset(chosen))
    assert card_set(ordered) is ordered
    assert eval(repr(ordered), {"Card": Card}) == ordered
    listed = ", ".join(f"Card.parse('{card}')" for card in sorted(chosen))
    assert repr(ordered) == (f"frozenset({{{listed}}})" if chosen else "frozenset()")
    assert pickle.loads(pickle.dumps(ordered)) == ordered
    assert list(pickle.loads(pickle.dumps(ordered))) == list(ordered)


def test_card_is_immutable() -> None:
    card = Card.parse("7D")
    with pytest.raises(AttributeError):
        card.rank = Rank.RE  # type: ignore[misc]


def test_card_values_and_unicode() -> None:
    assert Card.parse("RD").value == 10
    assert Card.parse("7D").unicode == "\U0001f0c7"
    assert Card.parse("10D").unicode == "\U0001f0ce"
    assert Card.parse("9S").unicode == "\U0001f0ac"
    assert Card.parse("8C").unicode == "\U0001f0bb"
    assert Card.parse("1B").unicode == "\U0001f0d1"


def test_suit_letters_and_symbols() -> None:
    assert [s.letter for s in Suit] == ["D", "C", "S", "B"]
    assert [s.symbol for s in Suit] == ["♦", "♥", "♠", "♣"]
    assert repr(Suit.DENARI) == "Suit.DENARI"
    assert repr(Rank.CAVALLO) == "Rank.CAVALLO"


# ----------------------------------------------------------------------------- decks


def test_standard_deck_and_its_code() -> None:
    assert Deck.standard().cards == DECK
    assert str(Deck.standard()) == "0" * 32
    assert Deck.parse("0" * 32) == Deck.standard()


def test_deal_code_of_hand_computed_orders() -> None:
    # Swapping the last two cards is the order of rank 1 among the 40! orders.
    swapped = Deck((*DECK[:38], DECK[39], DECK[38]))
    assert str(swapped) == "0" * 31 + "1"
    # Moving the last card to the front: its Lehmer digit 39 has weight 39!.
    rotated = Deck((DECK[39], *DECK[:39]))
    assert str(rotated) == _base32(39 * math.factorial(39))
    # The reversed deck is the last order, 40! - 1.
    assert Deck.parse(str(Deck(reversed(DECK)))).cards == tuple(reversed(DECK))


def test_deal_code_reading_is_forgiving_about_case_and_hyphens() -> None:
    deck = Deck.shuffled(99)
    code = str(deck)
    assert Deck.parse(code.lower()) == deck
    assert Deck.parse("-".join(code[i : i + 4] for i in range(0, 32, 4))) == deck


@given(decks)
def test_deal_code_round_trips(deck: Deck) -> None:
    code = str(deck)
    assert len(code) == 32
    assert Deck.parse(code) == deck
    assert eval(repr(deck), {"Deck": Deck}) == deck


@pytest.mark.parametrize(
    "code",
    ["", "0" * 31, "0" * 33, "U" * 32, "!" * 32, "Z" * 32, "7Dx" * 11],
)
def test_bad_deal_codes_are_refused(code: str) -> None:
    with pytest.raises(NotationError, match="deal code"):
        Deck.parse(code)


def _base32(number: int) -> str:
    digits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    text = ""
    for _ in range(32):
        number, digit = divmod(number, 32)
        text = digits[digit] + text
    return text


def test_deal_code_bounds() -> None:
    assert Deck.parse(_base32(math.factorial(40) - 1)).cards == tuple(reversed(DECK))
    with pytest.raises(NotationError, match="too large"):
        Deck.parse(_base32(math.factorial(40)))


def test_a_deck_needs_the_forty_distinct_cards() -> None:
    with pytest.raises(InvalidStateError, match="40 cards"):
        Deck(DECK[:39])
    with pytest.raises(InvalidStateError) as caught:
        Deck((*DECK[:39], DECK[0]))
    assert str(caught.value) == "a deck needs each of the 40 cards once; missing 10B"
    with pytest.raises(InvalidStateError) as caught:
        Deck((*DECK[:27], DECK[0], *DECK[28:34], DECK[1], *DECK[35:]))
    assert str(caught.value) == "a deck needs each of the 40 cards once; missing 8S 5B"
    with pytest.raises(InvalidStateError):
        Deck([*DECK[:39], "10B"])  # type: ignore[list-item]


def test_deck_is_immutable_and_sequence_like() -> None:
    deck = Deck.shuffled(5)
    assert len(deck) == 40
    assert list(deck) == list(deck.cards)
    assert deck[0] == deck.cards[0]
    assert len(str(deck)) == 32  # its deal code
    assert repr(deck) == f"Deck.parse('{deck}')"
    with pytest.raises(AttributeError):
        deck.cards = DECK  # type: ignore[misc]


def _splitmix(seed: int, count: int) -> list[int]:
    """SplitMix64 written out plainly from its published definition."""
    out = []
    state = seed
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 % 2**64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % 2**64
        out.append(z ^ (z >> 31))
    return out


def test_plain_splitmix_matches_the_published_outputs() -> None:
    assert tuple(_splitmix(1234567, 5)) == SPLITMIX_1234567
    assert tuple(_splitmix(0, 2)) == SPLITMIX_0


def _documented_shuffle(outputs: tuple[int, int, int]) -> list[Card]:
    """The shuffle of `Deck.shuffles`, from its documentation, given three 64-bit outputs."""
    number = outputs[0] * 2**128 + outputs[1] * 2**64 + outputs[2]
    assert number < (2**192 // math.factorial(40)) * math.factorial(40)
    order = list(DECK)
    for i in range(39, 0, -1):
        j = number % (i + 1)
        number //= i + 1
        order[i], order[j] = order[j], order[i]
    return order


def test_seeded_shuffle_follows_its_specification() -> None:
    first = Deck.shuffled(1234567)
    assert list(first.cards) == _documented_shuffle(SPLITMIX_1234567[:3])
    decks = Deck.shuffles(1234567)
    next(decks)
    second_outputs = _splitmix(1234567, 6)[3:]
    assert list(next(decks).cards) == _documented_shuffle(
        (second_outputs[0], second_outputs[1], second_outputs[2])
    )


def test_seeded_shuffle_at_the_seed_bounds() -> None:
    # Pinned so that a change of the shuffle can never go unnoticed: the same deals on
    # every platform and every version.
    third = _splitmix(0, 3)[2]
    assert Deck.shuffled(0) == Deck(_documented_shuffle((*SPLITMIX_0, third)))
    top = _splitmix(2**64 - 1, 3)
    assert Deck.shuffled(2**64 - 1) == Deck(_documented_shuffle((top[0], top[1], top[2])))


@given(seeds)
def test_same_seed_same_deck(seed: int) -> None:
    assert Deck.shuffled(seed) == Deck.shuffled(seed)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_out_of_range_seeds_are_refused(seed: int) -> None:
    with pytest.raises(InvalidArgumentError, match="seed"):
        Deck.shuffled(seed)


@pytest.mark.parametrize("seed", ["1", 1.0, True, None])
def test_seeds_must_be_ints(seed: object) -> None:
    with pytest.raises(TypeError, match="seed"):
        Deck.shuffled(seed)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(DECK), unique=True))
def test_card_lists_of_a_position_round_trip(cards: list[Card]) -> None:
    from scopa.cards import format_cards, parse_cards

    assert parse_cards(format_cards(cards), "card list") == tuple(cards)


# ----------------------------------------------------------------------------- messages


def test_a_list_of_cards_that_cannot_be_read_is_named_and_cut_short() -> None:
    from scopa.cards import parse_cards

    with pytest.raises(NotationError) as raised:
        parse_cards("7D3Cxx")
    assert str(raised.value) == "cannot read '7D3Cxx' as a list of cards: bad card at 'xx'"
    # The rest of the text is quoted up to 12 characters: 18 z's are cut after 12.
    with pytest.raises(NotationError) as raised:
        parse_cards("7D" + "z" * 18, "hand")
    assert str(raised.value).endswith("as a hand: bad card at 'zzzzzzzzzzzz'… (18 characters)")


def test_a_deck_of_forty_items_that_are_not_all_cards_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="exactly 40 cards"):
        Deck([*DECK[:39], "7D"])  # type: ignore[list-item]


def test_a_deal_code_too_large_is_quoted() -> None:
    # 32 digits of base 32 reach 2**160 (about 1.5e48), above 40! (about 8.2e47).
    with pytest.raises(NotationError) as raised:
        Deck.parse("Z" * 32)
    assert str(raised.value) == f"cannot read {'Z' * 32!r} as a deal code: the number is too large"


@pytest.mark.parametrize(
    ("indices", "ordered"),
    [
        ([], []),
        ([0], [0]),
        ([39], [39]),
        ([39, 0, 7], [0, 7, 39]),
        (list(range(40)), list(range(40))),
    ],
)
def test_the_bits_of_a_mask_are_its_card_indices_lowest_first(
    indices: list[int], ordered: list[int]
) -> None:
    mask = sum(1 << index for index in indices)
    assert list(bits(mask)) == ordered
    assert [DECK[i] for i in bits(mask)] == list(cards_of(mask))
