"""The text pictures of `scopa.board`: known pictures, every preset within 80 columns, no leaks."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import attrs
import pytest

import scopa
from scopa.board import (
    WIDTH,
    card_name,
    cards_text,
    match_summary,
    match_text,
    move_text,
    rules_text,
    score_text,
    side_name,
    state_text,
)
from scopa.svg import state_svg
from tests.helpers import CARD_CODE, CLASSIC, card_list, position


def played(variant: str, plays: int, seed: int = 5) -> scopa.GameState:
    state = scopa.GameState.new(scopa.find_variant(variant), seed=seed)
    rng = random.Random(seed)
    for _ in range(plays):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        state = state.apply(moves[int(rng.random() * len(moves))])
    return state


def test_a_position_of_four_players_by_hand() -> None:
    # scopa-4, dealer 3, so player 0 leads. Dealt: 1D 7C 2C / 9B 10D 5D / 4C 8B 6S /
    # 1B 7D 4S, table 3S 5C 9C 6D. Player 0 lays 2C down; player 1 takes 5C with 5D.
    rules = scopa.find_variant("scopa-4")
    dealt = card_list("1D 7C 2C 9B 10D 5D 4C 8B 6S 1B 7D 4S 3S 5C 9C 6D")
    state = scopa.GameState.from_position(
        rules,
        hands=[
            card_list("1D 7C"),
            card_list("9B 10D"),
            card_list("4C 8B 6S"),
            card_list("1B 7D 4S"),
        ],
        table=card_list("2C 3S 6D 9C"),
        stock=[c for c in scopa.DECK if c not in dealt],
        dealer=3,
        piles=[[], card_list("5D 5C"), [], []],
    )
    assert state.current_player == 2
    assert state_text(state, player=2).splitlines() == [
        "scopa-4: deal 1 of 3, to play: you",
        "sides   your side: player 0, you; side B: player 1, player 3",
        "table   6D 2C 9C 3S",  # the standard order: denari, coppe, spade, bastoni
        "stock   24 cards",
        "",
        "  player     hand      captured  scope",
        "  player 0   ## ##            0      0",
        "  player 1   ## ##            2      0",
        "> you        4C 6S 8B         0      0",
        "  player 3   ## ## ##         0      0   dealer",
    ]
    assert state_text(state, player=1).splitlines()[:2] == [
        "scopa-4: deal 1 of 3, to play: player 2",
        "sides   side A: player 0, player 2; your side: you, player 3",
    ]


def test_the_view_of_a_seat_is_the_state_seen_from_it() -> None:
    state = played("scopone", 7)
    for seat in range(4):
        assert state_text(scopa.view(state, seat)) == state_text(state, seat)


@pytest.mark.parametrize("name", scopa.variant_names())
def test_every_preset_fits_80_columns_and_hides_the_other_hands(name: str) -> None:
    rules = scopa.find_variant(name)
    for plays in (0, 5, rules.plays_per_hand):
        state = played(name, plays)
        for seat in (None, *range(rules.players)):
            picture = state_text(state, seat)
            assert max(map(len, picture.splitlines())) <= WIDTH
            assert not set(picture) & set("♦♥♠♣")
            rows = [line for line in picture.splitlines() if line[:2] in ("> ", "  ")]
            shown = set(CARD_CODE.findall("\n".join(rows)))
            declared = scopa.view(state, 0).revealed  # shown to everyone by a declaration
            for player, hand in enumerate(state.hands):
                if seat is not None and player != seat:
                    assert not {str(c) for c in hand - declared[player]} & shown


def test_the_end_of_a_hand_shows_its_score() -> None:
    state = played("classic", 36)
    assert state.is_terminal
    picture = str(state)
    assert picture.splitlines()[0] == "classic: the hand is over"
    assert picture.endswith(score_text(state.hand_score(), state.rules))
    assert "> " not in picture  # nobody is to play


def test_str_draws_and_to_text_keeps_the_notation() -> None:
    state = played("classic", 3)
    assert str(state) == state_text(state)
    assert scopa.GameState.from_text(state.rules, state.to_text()) == state
    match = scopa.Match.new(scopa.find_variant("tretre"), seed=2)
    assert str(match) == match_text(match)


def test_cards_and_moves_are_written_as_typed_in_the_standard_order() -> None:
    # the order of the deck: denari Ace to Re, then coppe, spade, bastoni
    assert cards_text(card_list("10B 7C 1C 7D")) == "7D 1C 7C 10B"
    assert cards_text(card_list("3B 10S 2S 1D")) == "1D 2S 10S 3B"
    assert cards_text([]) == "-"
    assert move_text(scopa.Move.parse("7Dx3C+4S")) == "7D taking 3C 4S"
    assert move_text(scopa.Move.parse("7D")) == "7D on the table"
    assert card_name(scopa.Card.parse("1C")) == "the Ace of coppe (♥)"
    assert card_name(scopa.Card.parse("9B")) == "the Cavallo of bastoni (♣)"
    assert card_name(scopa.Card.parse("7D")) == "the 7 of denari (♦)"


def test_a_score_of_sides_names_them() -> None:
    score = scopa.HandScore(
        (
            scopa.CategoryScore("scope", (0, 2), (0, 2)),
            scopa.CategoryScore("primiera", (1, 0), (78, 70)),
        )
    )
    assert score_text(score, scopa.find_variant("scopone"), seat=1).splitlines() == [
        "score of the hand, side A / your side:",
        "  category   counted   points",
        "  scope      0 / 2     0 / 2",
        "  primiera   78 / 70   1 / 0",
        "  total                1 / 2",
    ]


def test_an_abandoned_tretre_match_by_hand() -> None:
    match = scopa.Match.new(scopa.find_variant("tretre"), seed=2).abandon(0)
    # hand 1: the abandoner loses 30 brilli, the other player takes the hand's 10
    assert match_summary(match, 0).splitlines() == [
        "tretre match to 9 points, over",
        "points  you 0, player 1 0",
        "brilli  you -30, player 1 10",
        "ended   you abandoned (voluntary)",
        "winner  player 1",
    ]


@pytest.mark.parametrize(
    ("leftovers", "english", "italian"),
    [
        (scopa.Leftovers.LAST_CAPTURER, "go to the last player who captured", "ultimo"),
        (scopa.Leftovers.DEALER, "go to the dealer", "vanno al mazziere"),
        (scopa.Leftovers.NOBODY, "stay there and nobody scores them", "non contano"),
    ],
)
def test_the_words_say_who_takes_the_leftovers(
    leftovers: scopa.Leftovers, english: str, italian: str
) -> None:
    rules = attrs.evolve(CLASSIC, leftovers=leftovers)
    assert english in " ".join(rules_text(rules).split())
    assert italian in " ".join(rules_text(rules, lang="it").split())
    # player 0 sweeps 3 + 4 with the 7; the dealer (player 1) lays the King last: it goes
    # to player 0, the last to capture, to the dealer, or stays on the table
    state = position(rules, ["7D", "10B"], "3C 4S", piles=["", "*"], last_capturer=1)
    for move in ("7Dx3C+4S", "10B"):
        state = state.apply(scopa.Move.parse(move))
    last = " ".join(" ".join(state_text(state).split("\n    ")).split())
    went = {
        scopa.Leftovers.LAST_CAPTURER: "went to the last player to capture",
        scopa.Leftovers.DEALER: "went to the dealer",
        scopa.Leftovers.NOBODY: "10B",
    }[leftovers]
    assert went in last, last
    assert (state.leftovers_taken_by, state.leftover_cards) == (
        {scopa.Leftovers.LAST_CAPTURER: 0, scopa.Leftovers.DEALER: 1}.get(leftovers),
        frozenset({scopa.Card.parse("10B")}),
    )


def test_rules_in_words_have_no_python_in_them() -> None:
    for name in scopa.variant_names():
        text = rules_text(scopa.find_variant(name))
        assert max(map(len, text.splitlines())) <= WIDTH
        assert not re.search(r"None|True|False|\w+\(|\.[A-Z_]{3,}", text), name
    tretre = " ".join(rules_text(scopa.find_variant("tretre")).split())
    assert "30 seconds a move" in tretre
    assert "a missing suit counts 0" in tretre


def test_bad_arguments() -> None:
    state = played("classic", 1)
    with pytest.raises(scopa.InvalidArgumentError, match="from 0 to 1, not 2"):
        state_text(state, 2)
    for wrong_type in ("0", True, 1.0):
        with pytest.raises(TypeError, match="player must be an int"):
            state_text(state, wrong_type)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState or a PlayerView, not str"):
        state_text("1D", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a Match, not GameState"):
        match_text(state)  # type: ignore[arg-type]


def test_every_picture_of_a_seat_checks_the_seat() -> None:
    match = scopa.Match.new(scopa.find_variant("scopone"), seed=1)
    score = played("scopone", 40).hand_score()
    pictures: list[Callable[[int], str]] = [
        lambda seat: match_text(match, seat),
        lambda seat: match_summary(match, seat),
        lambda seat: score_text(score, match.rules, seat),
        lambda seat: side_name(match.rules, 0, seat),
    ]
    for draw in pictures:
        assert draw(3)
        with pytest.raises(scopa.InvalidArgumentError, match="from 0 to 3, not 4"):
            draw(4)
        with pytest.raises(TypeError, match="player must be an int, not bool"):
            draw(True)


# The bad seats of a two-player hand, each with the error it must raise, and the same
# seats asked of player 0's view (which shows no other seat).
BAD_SEATS: list[tuple[object, type[Exception], str]] = [
    (2, scopa.InvalidArgumentError, "player must be a player number from 0 to 1, not 2"),
    (-1, scopa.InvalidArgumentError, "player must be a player number from 0 to 1, not -1"),
    (True, TypeError, "player must be an int, not bool"),
    (1.0, TypeError, "player must be an int, not float"),
    ("0", TypeError, "player must be an int, not str"),
]


@pytest.mark.parametrize(("seat", "error", "message"), BAD_SEATS, ids=repr)
def test_text_and_svg_pictures_refuse_the_same_seats(
    seat: object, error: type[Exception], message: str
) -> None:
    state = played("classic", 1)
    for picture in (state, scopa.view(state, 0)):
        for draw in (state_text, state_svg):
            with pytest.raises(error) as refused:
                draw(picture, seat)  # type: ignore[arg-type]
            assert str(refused.value) == message


def test_text_and_svg_pictures_of_a_view_refuse_the_other_seats() -> None:
    seen = scopa.view(played("classic", 1), 0)
    for draw in (state_text, state_svg):
        with pytest.raises(scopa.InvalidArgumentError) as refused:
            draw(seen, 1)
        assert str(refused.value) == "a view of player 0 cannot show player 1's hand"


# ----------------------------------------------------------------------------- declarations


def declared_cirulla() -> scopa.GameState:
    """Cirulla, dealer 0: player 1 held 2C 4C 3B (9, under 10: a busso for 3 points) and
    laid 3B down (3 takes nothing among 5S 8C 9S 10C, and no cards add up to 12)."""
    rules = scopa.find_variant("cirulla")
    used = card_list("5D 6D 7S 2C 4C 3B 5S 8C 9S 10C")
    return scopa.GameState.from_position(
        rules,
        hands=[card_list("5D 6D 7S"), card_list("2C 4C")],
        table=card_list("3B 5S 8C 9S 10C"),
        stock=[c for c in scopa.DECK if c not in used],
        dealer=0,
        declared=[0, 3],
        revealed=[[], card_list("2C 4C")],
    )


def test_shown_cards_and_declared_points_by_hand() -> None:
    state = declared_cirulla()
    assert state_text(state, 0).splitlines() == [
        "cirulla: deal 1 of 6, to play: you",
        "table   8C 10C 5S 9S 3B",
        "stock   30 cards",
        "shown   player 1 2C 4C",
        "",
        "  player     hand      captured  scope  declared",
        "> you        5D 6D 7S         0      0         0   dealer",
        "  player 1   2C 4C            0      0         3",
    ]
    rows = state_text(state, 1).splitlines()[-2:]
    assert rows == [
        "> player 0   ## ## ##         0      0         0   dealer",
        "  you        2C 4C            0      0         3",
    ]


def test_declarations_and_claims_in_words() -> None:
    busso = scopa.Move.parse("1D@busso")
    assert move_text(busso) == "1D on the table, declaring busso (3 points)"
    assert move_text(scopa.Move.parse("7Dx7C@tris!")) == (
        "7D taking 7C, declaring tris (10 points), claiming the target"
    )


def test_the_new_knobs_in_words() -> None:
    def words(name: str) -> str:
        return " ".join(rules_text(scopa.find_variant(name)).split())

    escoba = words("escoba")
    assert "a card takes table cards that add up to 15 with it" in escoba
    assert "no card captures" not in escoba
    assert "a first table adding up to 15 or 30 is swept at once by the dealer" in escoba
    assert "setenta: 1 point for the best primiera, the best four cards" in escoba
    assert "escobas: 1 point for each scopa" in escoba
    cirulla = words("cirulla")
    assert "with an Ace on the table, an Ace captures as any other card" in cirulla
    assert "busso (3 points) for three cards adding up to less than 10" in cirulla
    assert "the matta (7C) stands for any card" in cirulla
    assert "grande: the Fante, Cavallo and Re of denari together score 5" in cirulla
    assert "piccola: a run of denari from the Ace" in cirulla
    assert "then the side with the lowest total wins" in words("scopa-a-perdere")
    assert "1 point for each Ace, Fante, Cavallo and Re taken" in words("scopa-frac")
    assert "even with an Ace on the table, an Ace takes every card" in words(
        "asso-piglia-tutto-semplice"
    )
    assert "all three win the match" in words("scopone-de-trente")
    assert "ponino: a side that takes all four Cavalli" in words("il-ponino")
    house = attrs.evolve(
        scopa.find_variant("classic"), tiebreak=scopa.Tiebreak.LAST_HAND_COUNTDOWN, claim_out=True
    )
    match = " ".join(rules_text(house).split())
    assert "counted category by category" in match
    assert "on a tie at the top" not in match
    assert "a right claim wins the match at once, a wrong one loses it" in match


def test_the_last_play_says_where_a_card_that_left_the_table_went() -> None:
    # player 0 lays the last card of the hand, 2B, next to 5D: nothing adds up to 2, so
    # both cards go to player 1, the last to capture, and the table is empty
    last = position(CLASSIC, ["2B", ""], "5D", piles=["", "*"], dealer=0)
    over = last.apply(scopa.Move.parse("2B"))
    picture = " ".join(state_text(over, 0).split())
    assert "table -" in picture
    assert (
        "last you: 2B laid down, the last card of the hand; the cards left on the table went "
        "to the last player to capture"
    ) in picture
    # an Ace on an empty table goes to its player's pile under this rule
    aces = attrs.evolve(CLASSIC, ace_on_empty_table_captures_itself=True)
    lead = position(aces, ["1D 3C", "5C 6C"], piles=["", "*"])
    picture = " ".join(state_text(lead.apply(scopa.Move.parse("1D")), 0).split())
    assert "last you: 1D on the empty table, taking itself" in picture
    # a card laid down that stays on the table is said as before
    laid = position(CLASSIC, ["2B 3B", "4S 6S"], "5D", piles=["", "*"])
    assert "last    you: 2B on the table" in state_text(laid.apply(scopa.Move.parse("2B")), 0)


# ----------------------------------------------------------------------------- in Italian


def test_a_position_of_four_players_in_italian_by_hand() -> None:
    # the position of the first test, seen by player 2; the same cards, the Italian words
    # (giocatore, mano, prese, mazziere; tavolo and mazzo for the table and the stock)
    rules = scopa.find_variant("scopa-4")
    dealt = card_list("1D 7C 2C 9B 10D 5D 4C 8B 6S 1B 7D 4S 3S 5C 9C 6D")
    state = scopa.GameState.from_position(
        rules,
        hands=[
            card_list("1D 7C"),
            card_list("9B 10D"),
            card_list("4C 8B 6S"),
            card_list("1B 7D 4S"),
        ],
        table=card_list("2C 3S 6D 9C"),
        stock=[c for c in scopa.DECK if c not in dealt],
        dealer=3,
        piles=[[], card_list("5D 5C"), [], []],
    )
    assert state_text(state, player=2, lang="it").splitlines() == [
        "scopa-4: distribuzione 1 di 3, di turno: tu",
        "squadre  la tua squadra: giocatore 0, tu; squadra B: giocatore 1, giocatore 3",
        "tavolo   6D 2C 9C 3S",
        "mazzo    24 carte",
        "",
        "  giocatore     mano      prese  scope",
        "  giocatore 0   ## ##         0      0",
        "  giocatore 1   ## ##         2      0",
        "> tu            4C 6S 8B      0      0",
        "  giocatore 3   ## ## ##      0      0   mazziere",
    ]


@pytest.mark.parametrize("name", scopa.variant_names())
def test_every_preset_fits_80_columns_in_italian(name: str) -> None:
    rules = scopa.find_variant(name)
    state = played(name, rules.plays_per_hand)
    for seat in (None, 0):
        assert max(map(len, state_text(state, seat, lang="it").splitlines())) <= WIDTH
    text = rules_text(rules, lang="it")
    assert max(map(len, text.splitlines())) <= WIDTH
    assert not re.search(r"None|True|False|\w+\(|\.[A-Z_]{3,}", text), name


def test_a_score_and_an_abandoned_match_in_italian_by_hand() -> None:
    score = scopa.HandScore(
        (
            scopa.CategoryScore("scope", (0, 2), (0, 2)),
            scopa.CategoryScore("primiera", (1, 0), (78, 70)),
        )
    )
    assert score_text(score, scopa.find_variant("scopone"), seat=1, lang="it").splitlines() == [
        "punteggio della smazzata, squadra A / la tua squadra:",
        "  categoria   conteggio   punti",
        "  scope       0 / 2       0 / 2",
        "  primiera    78 / 70     1 / 0",
        "  totale                  1 / 2",
    ]
    match = scopa.Match.new(scopa.find_variant("tretre"), seed=2).abandon(0)
    assert match_summary(match, 0, lang="it").splitlines() == [
        "tretre: partita a 9 punti, finita",
        "punti     tu 0, giocatore 1 0",
        "brilli    tu -30, giocatore 1 10",
        "fine      tu: abbandono (volontario)",
        "vincitore giocatore 1",
    ]


def test_moves_cards_and_rules_in_italian() -> None:
    assert move_text(scopa.Move.parse("7Dx3C+4S"), lang="it") == "7D prende 3C 4S"
    assert move_text(scopa.Move.parse("1D@busso!"), lang="it") == (
        "1D sul tavolo, accusando busso (3 punti), chiamandosi fuori"
    )
    assert card_name(scopa.Card.parse("9B"), lang="it") == "il cavallo di bastoni (♣)"
    classic = " ".join(rules_text(CLASSIC, lang="it").split())
    assert "giocatori 2, ognuno per sé" in classic
    assert "chi vuota il tavolo fa scopa, tranne che con l'ultima giocata della smazzata" in classic
    assert "7=21, 6=18, asso=16, 5=15, 4=14, 3=13, 2=12, fante=10, cavallo=10, re=10" in classic
    escoba = " ".join(rules_text(scopa.find_variant("escoba"), lang="it").split())
    assert "un primo tavolo che somma 15 o 30 viene preso subito dal mazziere" in escoba
    with pytest.raises(scopa.InvalidArgumentError, match="no text in the language 'de'"):
        rules_text(CLASSIC, lang="de")
