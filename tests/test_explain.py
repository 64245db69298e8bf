"""Moves and scores explained: known answers worked out by hand from the rules pages.

Each expected sentence below was written from the rule it states (docs/rules.md and the
variants pages), with the position's cards: which captures the card could make, which the
rule allows, and what follows. The property tests check that an explanation says legal
exactly when the library does, and gives the reason the library refuses a move with.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from pathlib import Path

import attrs
import pytest

import scopa
from scopa import (
    DECK,
    CapturePriority,
    Carte,
    CompulsoryCapture,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    Leftovers,
    Move,
    NotationError,
    ScoringRules,
    find_variant,
)
from scopa._i18n import translation
from scopa.explain import _TOPICS, Explanation, Reason, _cite, explain_move, explain_score
from tests.helpers import CLASSIC, TRETRE, cards, finished, position

DOCS = Path(__file__).resolve().parent.parent / "docs"
CAPTURE = "rules.md#what-a-card-can-capture"
COMPULSORY = "rules.md#compulsory-capture"
SCOPA = "rules.md#scopa"
END = "rules.md#end-of-the-hand"
ACES = "rules.md#ace-sweeps"
FIFTEEN = "rules.md#captures-to-fifteen"
DECLARATIONS = "rules.md#declarations-and-the-matta"
SCORING = "rules.md#scoring"
PRIMIERA = "rules.md#primiera"
OTHER_PRIMIERA = "variants/bonuses.md#other-primiera-rules"


def said(explanation: Explanation) -> list[tuple[str, str]]:
    """The reasons of an explanation as (text, page) pairs."""
    return [(reason.text, reason.page) for reason in explanation.reasons]


# --------------------------------------------------------------------------- classic captures


@pytest.fixture
def seven_on_seven() -> GameState:
    # Player 0 holds 7D 2B on a table of 3C 4S 7B: the 7 could take 7B, or 3 + 4.
    return position(CLASSIC, ["7D 2B", "9S 1B"], "3C 4S 7B")


def test_a_sum_is_refused_when_a_card_of_equal_rank_is_on_the_table(
    seven_on_seven: GameState,
) -> None:
    why = explain_move(seven_on_seven, "7Dx3C+4S")
    assert why.legal is False
    assert why.summary == "Player 0 cannot play 7Dx3C+4S."
    assert said(why) == [
        (
            "7D must take 7B: a card of equal rank on the table is taken first, before any sum.",
            CAPTURE,
        )
    ]
    assert why.reasons[0].title == "rules: What a card can capture"


def test_the_capture_by_rank_says_why_the_sum_is_not_taken(seven_on_seven: GameState) -> None:
    why = explain_move(seven_on_seven, Move.parse("7Dx7B"))
    assert why.legal is True
    assert why.summary == "Player 0 may play 7Dx7B."
    assert said(why) == [
        ("7D takes 7B, a card of equal rank.", CAPTURE),
        ("A card of equal rank on the table is taken first: no sum may be taken (3C+4S).", CAPTURE),
        ("7D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
    ]


def test_laying_down_a_card_that_can_capture_is_refused(seven_on_seven: GameState) -> None:
    assert said(explain_move(seven_on_seven, "7D")) == [
        (
            "7D can capture (7Dx7B), so it must: a card that can capture must capture; any card "
            "of the hand may still be played.",
            COMPULSORY,
        )
    ]


def test_a_card_that_takes_nothing_is_laid_down(seven_on_seven: GameState) -> None:
    # a 2 on 3, 4, 7: no 2, and no two cards add up to 2
    assert said(explain_move(seven_on_seven, "2B")) == [
        (
            "2B takes nothing and stays on the table: no card of value 2, no cards adding up to 2.",
            CAPTURE,
        )
    ]


def test_cards_not_held_not_on_the_table_or_not_adding_up(seven_on_seven: GameState) -> None:
    assert said(explain_move(seven_on_seven, "9Sx3C")) == [
        (
            "Player 0 does not hold 9S: a player plays a card of their hand.",
            "rules.md#playing-a-card",
        )
    ]
    assert said(explain_move(seven_on_seven, "7Dx6B+1C")) == [
        ("1C and 6B are not on the table: a card takes only cards that are on the table.", CAPTURE)
    ]
    assert said(explain_move(seven_on_seven, "2Bx3C")) == [
        (
            "2B cannot take 3C, worth 3: it takes a card of value 2 or two or more cards adding "
            "up to 2.",
            CAPTURE,
        )
    ]
    assert said(explain_move(seven_on_seven, "7Dx3C+7B"))[0][0] == (
        "7D cannot take 3C 7B, which add up to 10: it takes a card of value 7 or two or more "
        "cards adding up to 7."
    )


def test_two_cards_of_equal_rank_are_a_choice_never_taken_together() -> None:
    state = position(CLASSIC, ["5D 2B", "9S 1B"], "5C 5S 3B")
    assert said(explain_move(state, "5Dx5S")) == [
        ("5D takes 5S, a card of equal rank.", CAPTURE),
        ("5D can capture in 2 ways, and its player chooses: 5Dx5C, 5Dx5S.", CAPTURE),
        ("5D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
    ]
    assert said(explain_move(state, "5Dx5C+5S")) == [
        ("5D takes one card of equal rank at a time, never 2: 5C 5S.", CAPTURE)
    ]


def test_a_sum_among_several() -> None:
    # docs/rules.md: player 0 holds 3S 5B 7B on 1D 5D 3C 4C 2B; the 7 takes 1+4+2, 3+4 or 5+2
    state = GameState.new(CLASSIC, seed=89)
    state = state.apply(state.legal_moves()[0])
    assert said(explain_move(state, "7Bx1D+4C+2B"))[:2] == [
        ("7B takes 1D 4C 2B, which add up to 7 (1 + 4 + 2).", CAPTURE),
        (
            "7B can capture in 3 ways, and its player chooses: 7Bx1D+4C+2B, 7Bx3C+4C, 7Bx5D+2B.",
            CAPTURE,
        ),
    ]


# --------------------------------------------------------------------------- scopa and the end


def test_a_capture_that_empties_the_table_is_a_scopa() -> None:
    state = position(CLASSIC, ["2B", "7D"], "3C 4S", dealer=0)  # player 1 leads
    assert said(explain_move(state, "7Dx3C+4S")) == [
        ("7D takes 3C 4S, which add up to 7 (3 + 4).", CAPTURE),
        ("7D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
        ("It takes every card on the table: a scopa, worth 1 point.", SCOPA),
    ]


def test_the_last_play_of_the_hand_makes_no_scopa_unless_the_rules_say_so() -> None:
    last = "It is the last play of the hand, and it leaves no card on the table."
    state = position(CLASSIC, ["7D", ""], "3C 4S", dealer=0)  # the dealer's last card
    assert said(explain_move(state, "7Dx3C+4S"))[2:] == [
        ("It empties the table with the last play of the hand, which is no scopa.", SCOPA),
        (last, END),
    ]
    counted = attrs.evolve(CLASSIC, scopa_on_last_play=True)
    state = position(counted, ["7D", ""], "3C 4S", dealer=0)
    assert said(explain_move(state, "7Dx3C+4S"))[2:] == [
        ("It takes every card on the table: a scopa, worth 1 point.", SCOPA),
        (last, END),
    ]


def test_the_cards_left_after_the_last_play_go_to_the_last_capturer() -> None:
    state = position(CLASSIC, ["10B", ""], "3C 4S", dealer=0, piles=["", "*"])
    assert said(explain_move(state, "10B")) == [
        (
            "10B takes nothing and stays on the table: no card of value 10, no cards adding up "
            "to 10.",
            CAPTURE,
        ),
        (
            "It is the last play of the hand: the cards left on the table, 3C 4S 10B, go to "
            "player 1, the last to capture, and that is no scopa.",
            END,
        ),
    ]
    # docs/rules.md, the end of the hand: the King laid on the empty table goes to player 1
    state = position(CLASSIC, ["10B", ""], "", dealer=0, piles=["", "*"])
    assert said(explain_move(state, "10B")) == [
        ("10B is laid on the empty table: there is nothing to take.", "rules.md#playing-a-card"),
        (
            "It is the last play of the hand: the cards left on the table, 10B, go to player 1, "
            "the last to capture, and that is no scopa.",
            END,
        ),
    ]
    kept = attrs.evolve(CLASSIC, leftovers=Leftovers.NOBODY)
    state = position(kept, ["10B", ""], "3C 4S", dealer=0, piles=["", "*"])
    assert said(explain_move(state, "10B"))[1] == (
        "It is the last play of the hand: the cards left on the table, 3C 4S 10B, stay there "
        "and count for nobody.",
        END,
    )
    # the dealer, player 0, takes them, though player 1 captured last
    dealt = attrs.evolve(CLASSIC, leftovers=Leftovers.DEALER)
    state = position(dealt, ["10B", ""], "3C 4S", dealer=0, piles=["", "*"])
    assert said(explain_move(state, "10B"))[1] == (
        "It is the last play of the hand: the cards left on the table, 3C 4S 10B, go to "
        "player 0, the dealer, and that is no scopa.",
        END,
    )


def test_a_scopa_that_the_rules_do_not_score() -> None:
    frac = find_variant("scopa-frac")  # only the Aces and the figures score
    state = position(frac, ["2B", "7D"], "3C 4S", dealer=0)
    assert said(explain_move(state, "7Dx3C+4S"))[-1] == (
        "It takes every card on the table: a scopa, which these rules do not score.",
        SCOPA,
    )


# --------------------------------------------------------------------------- compulsion


def test_a_player_who_can_capture_must_play_a_card_that_captures() -> None:
    must_take = attrs.evolve(CLASSIC, compulsory_capture=CompulsoryCapture.CAPTURING_CARD)
    state = position(must_take, ["7D 10B", "3B 4B"], "2C 5S")
    assert said(explain_move(state, "10B")) == [
        (
            "10B takes nothing, and a player who holds a card that can capture must play such a "
            "card.",
            COMPULSORY,
        )
    ]
    assert said(explain_move(state, "7Dx2C+5S"))[1] == (
        "7D could not be laid down instead: a card that can capture must capture. A player who "
        "can capture must play a card that captures.",
        COMPULSORY,
    )
    free_play = attrs.evolve(CLASSIC, compulsory_capture=CompulsoryCapture.NONE)
    state = position(free_play, ["7D 10B", "3B 4B"], "2C 5S")
    assert said(explain_move(state, "7D")) == [
        ("7D could capture, but these rules let a card that can capture be laid down.", COMPULSORY)
    ]


# --------------------------------------------------------------------------- the fewest cards


def test_the_fewest_cards_rule_of_the_scopone() -> None:
    # docs/rules.md: a 9 on 1C 3S 4B 5C 8S may take 5+4 or 1+8; 1+5+3 has more cards
    state = position(find_variant("scopone"), ["9D", "2B", "6C", "10B"], "1C 3S 4B 5C 8S")
    assert said(explain_move(state, "9Dx1C+5C+3S")) == [
        ("9D must take the fewest cards it can: 2 cards, not 3.", CAPTURE)
    ]
    assert said(explain_move(state, "9Dx5C+4B")) == [
        ("9D takes 5C 4B, which add up to 9 (5 + 4).", CAPTURE),
        ("It takes the fewest cards it can, 2: no capture of more cards is allowed.", CAPTURE),
        ("9D can capture in 2 ways, and its player chooses: 9Dx5C+4B, 9Dx1C+8S.", CAPTURE),
        ("9D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
    ]


def test_under_the_fewest_cards_rule_a_card_of_equal_rank_beats_any_sum() -> None:
    fewest = attrs.evolve(CLASSIC, capture_priority=CapturePriority.MIN_CARDS)
    state = position(fewest, ["5D 2B", "9S 1B"], "2C 3S 5B")
    assert said(explain_move(state, "5Dx2C+3S")) == [
        (
            "5D must take the fewest cards it can: one card of equal rank, which beats any sum.",
            CAPTURE,
        )
    ]


# --------------------------------------------------------------------------- fifteens


@pytest.mark.parametrize("name", ["scopa-a-15", "escoba"])
def test_captures_to_fifteen(name: str) -> None:
    # docs/rules.md: a 4 on 1C 3S 4B 7C makes fifteen with 4 + 7 or with 1 + 3 + 7
    state = position(find_variant(name), ["4D 2B", "9S 5B"], "1C 3S 4B 7C")
    assert said(explain_move(state, "4Dx7C+4B")) == [
        ("4D takes 7C 4B: with 4D they make 15 (4 + 7 + 4).", FIFTEEN),
        ("4D can capture in 2 ways, and its player chooses: 4Dx1C+7C+3S, 4Dx7C+4B.", FIFTEEN),
        ("4D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
    ]
    # no capture by rank in these games: only fifteens
    assert said(explain_move(state, "4Dx4B")) == [
        (
            "4D cannot take 4B, worth 4: it takes cards adding up to 11, which make 15 with it.",
            FIFTEEN,
        )
    ]
    # 2 + 13: no cards of the table add up to 13
    assert said(explain_move(state, "2B")) == [
        ("2B takes nothing and stays on the table: no cards making 15 with it.", FIFTEEN)
    ]


# --------------------------------------------------------------------------- Aces


def test_an_ace_sweeps_the_table_in_scopa_d_assi_without_a_scopa() -> None:
    # docs/rules.md, Ace sweeps: the Ace of denari on 2C 5S 10B takes all three
    state = position(find_variant("scopa-d-assi"), ["1D 9S", "3B 4B"], "2C 5S 10B")
    assert said(explain_move(state, "1Dx2C+5S+10B")) == [
        ("1D takes every card on the table, 2C 5S 10B: an Ace sweeps.", ACES),
        ("1D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
        ("It empties the table, but in these rules an Ace's sweep is no scopa.", ACES),
    ]
    assert said(explain_move(state, "1Dx2C")) == [
        ("An Ace takes every card on the table: 2C 5S 10B.", ACES)
    ]
    piglia_tutto = position(find_variant("asso-piglia-tutto"), ["1D 9S", "3B 4B"], "2C 5S 10B")
    assert said(explain_move(piglia_tutto, "1Dx2C+5S+10B"))[2] == (
        "It takes every card on the table: a scopa, worth 1 point.",
        SCOPA,
    )


def test_with_an_ace_on_the_table_the_ace_takes_that_ace_alone() -> None:
    assi = find_variant("scopa-d-assi")
    state = position(assi, ["1D 9S", "3B 4B"], "1C 5S")
    assert said(explain_move(state, "1Dx1C")) == [
        (
            "1D takes 1C alone: with an Ace on the table, a played Ace takes only that Ace.",
            ACES,
        ),
        ("1D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
    ]
    assert said(explain_move(state, "1Dx1C+5S")) == [
        ("With an Ace on the table, a played Ace takes only that Ace.", ACES)
    ]
    # an Ace alone on the table: taking it empties the table, a scopa even in scopa d'assi
    state = position(assi, ["1D 9S", "3B 4B"], "1C")
    assert said(explain_move(state, "1Dx1C"))[-1] == (
        "It takes every card on the table: a scopa, worth 1 point.",
        SCOPA,
    )


def test_the_first_play_of_a_hand_may_not_be_an_ace() -> None:
    rules = find_variant("asso-piglia-tutto-4")  # ten cards each, an empty table
    hands = [DECK[10 * p : 10 * p + 10] for p in range(4)]  # player 0: the denari
    state = GameState.from_position(rules, hands=hands, table=[], stock=[], dealer=3)
    assert said(explain_move(state, "1D")) == [
        ("The first play of a hand may not be an Ace, unless the player holds only Aces.", ACES)
    ]
    assert explain_move(state, "2D").legal is True


# --------------------------------------------------------------------------- declarations, claims


def test_declarations_of_cirulla() -> None:
    cirulla = find_variant("cirulla")
    state = position(cirulla, ["1D 2C 4S", "5D 5S 8C"], "10C 9S")
    assert said(explain_move(state, "2C@busso")) == [
        (
            "2C takes nothing and stays on the table: no card of value 2, no cards adding up to "
            "2, no cards making 15 with it.",
            CAPTURE,
        ),
        (
            "With it, player 0 declares busso: 1D 2C 4S add up to 7, less than 10; 3 points at "
            "the end of the hand, and the hand is shown to everyone.",
            DECLARATIONS,
        ),
    ]
    assert said(explain_move(state, "2C@tris")) == [
        ("The hand is no tris: its three cards are not of one rank.", DECLARATIONS)
    ]
    # the Ace sweeps in Cirulla (no Ace on the table), and that is a scopa
    assert said(explain_move(state, "1Dx10C+9S"))[0] == (
        "1D takes every card on the table, 10C 9S: an Ace sweeps.",
        ACES,
    )


def test_the_matta_in_a_declaration() -> None:
    # the matta, 7C, stands for a third 5; as 1 the hand adds up to 11, no busso
    state = position(find_variant("cirulla"), ["5D 5S 7C", "1D 2C 4S"], "10C 9S")
    assert said(explain_move(state, "5Dx10C@tris")) == [
        ("5D takes 10C: with 5D they make 15 (5 + 10).", FIFTEEN),
        ("5D could not be laid down instead: a card that can capture must capture.", COMPULSORY),
        (
            "With it, player 0 declares tris: 5D 7C 5S are three cards of one rank, with the "
            "matta 7C standing for one; 10 points at the end of the hand, and the hand is shown "
            "to everyone.",
            DECLARATIONS,
        ),
    ]
    assert said(explain_move(state, "5Dx10C@busso")) == [
        ("The hand is no busso: its three cards add up to 10 or more.", DECLARATIONS)
    ]


def test_claims_and_announcements_the_rules_do_not_have(seven_on_seven: GameState) -> None:
    assert said(explain_move(seven_on_seven, "2B@busso")) == [
        ("These rules have no declarations.", DECLARATIONS)
    ]
    assert said(explain_move(seven_on_seven, "2B!")) == [
        ("These rules have no claims.", "rules.md#other-endings")
    ]
    claims = attrs.evolve(CLASSIC, claim_out=True)
    state = position(claims, ["7D 2B", "9S 1B"], "3C 4S 7B")
    assert said(explain_move(state, "2B!"))[-1] == (
        "With it, player 0 claims that their side has reached the target: a right claim wins "
        "the match at once, a wrong one loses it.",
        "rules.md#other-endings",
    )


# --------------------------------------------------------------------------- views, Italian, errors


def test_a_view_explains_its_own_moves_and_not_the_others(seven_on_seven: GameState) -> None:
    mine = explain_move(scopa.view(seven_on_seven, 0), "7Dx3C+4S")
    assert mine == explain_move(seven_on_seven, "7Dx3C+4S")
    theirs = explain_move(scopa.view(seven_on_seven, 1), "9S")
    assert theirs.legal is False
    assert theirs.summary == "Player 1 cannot play 9S."
    assert said(theirs) == [
        ("It is player 0's turn, not player 1's.", "rules.md#players-and-turns")
    ]


def test_explanations_in_italian(seven_on_seven: GameState) -> None:
    why = explain_move(seven_on_seven, "7Dx3C+4S", lang="it")
    assert why.summary == "Il giocatore 0 non può giocare 7Dx3C+4S."
    assert why.reasons == (
        Reason(
            "7D deve prendere 7B: la carta di pari valore in tavola si prende per prima, prima "
            "di qualsiasi somma.",
            CAPTURE,
            "regole: Che cosa può prendere una carta",
        ),
    )
    sweep = position(CLASSIC, ["2B", "7D"], "3C 4S", dealer=0)
    assert str(explain_move(sweep, "7Dx3C+4S", lang="it")) == (
        "Il giocatore 1 può giocare 7Dx3C+4S.\n"
        "- 7D prende 3C 4S, che sommano 7 (3 + 4). (regole: Che cosa può prendere una carta)\n"
        "- 7D non si poteva calare senza prendere: una carta che può prendere deve prendere. "
        "(regole: Presa obbligatoria)\n"
        "- Prende tutte le carte in tavola: è scopa, e vale 1 punto. (regole: Scopa)"
    )


def test_the_text_of_an_explanation(seven_on_seven: GameState) -> None:
    assert str(explain_move(seven_on_seven, "7Dx3C+4S")) == (
        "Player 0 cannot play 7Dx3C+4S.\n"
        "- 7D must take 7B: a card of equal rank on the table is taken first, before any sum. "
        "(rules: What a card can capture)"
    )


def test_bad_input_gets_the_usual_errors(seven_on_seven: GameState) -> None:
    over = finished(CLASSIC, [DECK[:20], DECK[20:]])
    with pytest.raises(IllegalMoveError, match="the hand is over"):
        explain_move(over, "7D")
    with pytest.raises(NotationError, match="cannot read '7Q'"):
        explain_move(seven_on_seven, "7Q")
    with pytest.raises(TypeError, match="a move must be a Move or its text, not int"):
        explain_move(seven_on_seven, 7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not str"):
        explain_move("position", "7D")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not NoneType"):
        explain_score(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="the languages are en, it"):
        explain_move(seven_on_seven, "7D", lang="fr")
    with pytest.raises(TypeError, match="a language must be text"):
        explain_score(over, lang=1)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- scores


def test_the_score_of_two_halves_of_the_deck() -> None:
    # docs/rules.md, scoring: player 0 took the denari and coppe, player 1 the others
    state = finished(CLASSIC, [DECK[:20], DECK[20:]])
    why = explain_score(state)
    assert why.legal is None
    assert why.summary == "Score of the hand: player 0 2 points, player 1 0 points."
    assert said(why) == [
        (
            "scope: player 0 0, player 1 0; each scopa scores 1 point. Points: player 0 0, "
            "player 1 0.",
            SCORING,
        ),
        (
            "carte: cards taken: player 0 20, player 1 20. A tie for the most scores nothing. "
            "Points: player 0 0, player 1 0.",
            SCORING,
        ),
        (
            "denari: denari taken: player 0 10, player 1 0. Player 0 has the most. Points: "
            "player 0 1, player 1 0.",
            SCORING,
        ),
        ("settebello: player 0 took the settebello (7D). Points: player 0 1, player 1 0.", SCORING),
        (
            "primiera: the best card of each suit: player 0 7D 21 + 7C 21 = 42 (no spade and "
            "bastoni); player 1 7S 21 + 7B 21 = 42 (no denari and coppe). Player 0 and player 1 "
            "lack a suit and cannot win it. Nobody holds every suit, so nobody wins it. Points: "
            "player 0 0, player 1 0.",
            PRIMIERA,
        ),
    ]
    assert [reason.page for reason in explain_score(state, lang="it").reasons] == [
        page for _, page in said(why)
    ]
    assert explain_score(state, lang="it").reasons[1].text == (
        "carte: carte prese: giocatore 0 20, giocatore 1 20. In caso di parità il punto non "
        "viene assegnato. Punti: giocatore 0 0, giocatore 1 0."
    )


# Player 1 took the three 2s and the bastoni: the only side with every suit.
TWOS_AND_BASTONI = "2D 2C 2S 1-10B"


def test_a_missing_suit_in_classic_and_in_tretre() -> None:
    taken = cards(TWOS_AND_BASTONI)
    piles = [frozenset(DECK) - taken, taken]
    classic = said(explain_score(finished(CLASSIC, piles)))[-1]
    assert classic == (
        "primiera: the best card of each suit: player 0 7D 21 + 7C 21 + 7S 21 = 63 (no "
        "bastoni); player 1 2D 12 + 2C 12 + 2S 12 + 7B 21 = 57. Player 0 lacks a suit and "
        "cannot win it. Player 1 has the best primiera. Points: player 0 0, player 1 1.",
        PRIMIERA,
    )
    tretre = said(explain_score(finished(TRETRE, piles)))[-1]
    assert tretre == (
        "primiera: the best card of each suit: player 0 7D 21 + 7C 21 + 7S 21 = 63 (no "
        "bastoni); player 1 2D 12 + 2C 12 + 2S 12 + 7B 21 = 57. A missing suit counts 0. "
        "Player 0 has the best primiera. Points: player 0 1, player 1 0.",
        PRIMIERA,
    )


def test_the_ace_in_the_two_primiera_tables() -> None:
    aces = cards("1D 1C 1S 1B")
    piles = [frozenset(DECK) - aces, aces]
    for rules, ace in ((CLASSIC, 16), (TRETRE, 15)):
        text = said(explain_score(finished(rules, piles)))[-1][0]
        expected = f"player 1 1D {ace} + 1C {ace} + 1S {ace} + 1B {ace} = {4 * ace}"
        assert expected in text
        assert "player 0 7D 21 + 7C 21 + 7S 21 + 7B 21 = 84" in text


def test_a_threshold_for_the_most_cards() -> None:
    rules = attrs.evolve(CLASSIC, scoring=ScoringRules((Carte(threshold=21),)))
    even = said(explain_score(finished(rules, [DECK[:20], DECK[20:]])))
    assert even == [
        (
            "carte: cards taken: player 0 20, player 1 20. Nobody reaches 21, the least that "
            "scores. Points: player 0 0, player 1 0.",
            "variants/bonuses.md#thresholds-for-cards-and-denari",
        )
    ]


def test_the_setenta_compares_the_best_cards_one_by_one() -> None:
    # 7 7 6 5 against 7 7 6 6: the fourth card decides (the escoba page's setenta)
    taken = cards("7D 7C 6S 5B")
    state = finished(find_variant("escoba"), [taken, frozenset(DECK) - taken])
    assert said(explain_score(state))[-1] == (
        "setenta: the best card of each suit: player 0 7D 21 + 7C 21 + 6S 18 + 5B 15 = 75; "
        "player 1 6D 18 + 6C 18 + 7S 21 + 7B 21 = 78. Player 1 has the best cards, compared "
        "one by one from the highest. Points: player 0 0, player 1 1.",
        OTHER_PRIMIERA,
    )


def test_the_most_sevens_and_all_four() -> None:
    sevens = cards("7D 7C 7S 7B")
    state = finished(find_variant("escoba-sin-setenta"), [sevens, frozenset(DECK) - sevens])
    assert said(explain_score(state))[-1] == (
        "sietes: sevens taken: player 0 4, player 1 0. Player 0 has the most sevens. Player 0 "
        "took all four sevens: 1 point more. Points: player 0 2, player 1 0.",
        OTHER_PRIMIERA,
    )


def test_the_napola_and_the_napoleone() -> None:
    napola = find_variant("napola")
    run = cards("1-4D 6D")  # the run stops at the missing 5
    reason = said(explain_score(finished(napola, [run, frozenset(DECK) - run])))[-1]
    assert reason == (
        "napola: runs of denari from the Ace: player 0 4, player 1 0; a run scores its length "
        "from three on. Points: player 0 4, player 1 0.",
        "variants/bonuses.md#napola-and-napoleone",
    )
    denari = cards("1-10D")
    reason = said(explain_score(finished(napola, [denari, frozenset(DECK) - denari])))[-1]
    assert reason[0] == (
        "napola: runs of denari from the Ace: player 0 10, player 1 0; a run scores its length "
        "from three on. Player 0 took all ten denari and wins the match. Points: player 0 10, "
        "player 1 0."
    )


def test_sides_are_named_and_their_players_pooled() -> None:
    # scopone: players 0 and 2 are side A; player 0 took the denari and coppe
    state = finished(find_variant("scopone"), [DECK[:20], DECK[20:], [], []])
    why = explain_score(state)
    assert why.summary == "Score of the hand: side A 2 points, side B 0 points."
    assert (
        said(why)[3][0]
        == "settebello: side A took the settebello (7D). Points: side A 1, side B 0."
    )


def test_the_score_so_far_and_the_declared_points() -> None:
    state = position(find_variant("cirulla"), ["1D 2C 4S", "5D 5S 8C"], "10C 9S")
    state = state.apply(state.parse_move("2C@busso"))
    why = explain_score(state)
    assert why.summary.startswith("Score of the hand so far: player 0 3 points, player 1 ")
    accusi = said(why)[5]
    assert accusi == (
        "accusi: points declared with busso and tris: player 0 3, player 1 0. Points: player 0 "
        "3, player 1 0.",
        DECLARATIONS,
    )


def test_every_category_of_every_preset_is_explained() -> None:
    for name in scopa.variant_names():
        rules = find_variant(name)
        state = GameState.new(rules, seed=3)
        rng = random.Random(3)
        while not state.is_terminal:
            moves = state.legal_moves()
            state = state.apply(moves[int(rng.random() * len(moves))])
        score = state.hand_score()
        for lang in ("en", "it"):
            why = explain_score(state, lang=lang)
            assert len(why.reasons) == len(score.categories)
            for reason, category in zip(why.reasons, score, strict=True):
                assert reason.text.startswith(f"{category.name}: ")
                points = ", ".join(
                    f"{side} {p}"
                    for side, p in zip(_sides(rules, lang), category.points, strict=True)
                )
                assert reason.text.endswith(f"{points}.")


def _sides(rules: scopa.Rules, lang: str) -> list[str]:
    from scopa.board import side_name

    return [side_name(rules, side, lang=lang) for side in range(rules.number_of_sides)]


# --------------------------------------------------------------------------- against the library


def _candidates(state: GameState, rng: random.Random) -> list[Move]:
    """Moves to explain: each card of the hand (and one other) laid or taking up to 3 cards."""
    player = state.current_player
    assert player is not None
    table = sorted(state.table)
    found = list(state.legal_moves())
    for card in [*sorted(state.hands[player]), DECK[rng.randrange(40)]]:
        found.append(Move(card))
        for size in (1, 2, 3):
            found += [
                Move(card, frozenset(taken))
                for taken in itertools.combinations(table, size)
                if card not in taken
            ]
    if state.rules.declarations:  # declarations the hand may not allow
        found += [move.announced(d) for move in found[:6] for d in scopa.Declaration]
    rng.shuffle(found)
    return found[:12]


# The library's reason for refusing a move, and the pages an explanation may cite for it.
LIBRARY_REASONS = {
    "is not in player": {"rules.md#playing-a-card"},
    "not on the table": {CAPTURE},
    "the first play of a hand may not be an Ace": {ACES},
    "may only play as": {
        CAPTURE,
        FIFTEEN,
        COMPULSORY,
        ACES,
        DECLARATIONS,
        "rules.md#other-endings",
    },
    "a card that can capture must be played": {COMPULSORY},
}


@pytest.mark.parametrize("name", scopa.variant_names())
def test_an_explanation_says_legal_exactly_when_the_library_does(name: str) -> None:
    rules = find_variant(name)
    rng = random.Random(name)
    state = GameState.new(rules, seed=11)
    while not state.is_terminal:
        for move in _candidates(state, rng):
            why = explain_move(state, move)
            assert why.legal is (move in state.legal_moves()), (state.to_text(), str(move))
            assert why.reasons
            if not (why.legal and move.declaration):  # a declared hand is shown to everyone
                hidden = {str(card) for card in state.hands[state.current_player or 0]}
                named = set(re.findall(r"(?:10|[1-9])[DCSB]", str(why)))
                assert not named & (hidden - {str(move.card)}), str(why)
            if not why.legal:
                with pytest.raises(IllegalMoveError) as refused:
                    state.apply(move)
                message = str(refused.value)
                (pages,) = [p for key, p in LIBRARY_REASONS.items() if key in message]
                assert {reason.page for reason in why.reasons} <= pages, (message, str(why))
        moves = state.legal_moves()
        state = state.apply(moves[int(rng.random() * len(moves))])


# --------------------------------------------------------------------------- the pages cited


def _slug(heading: str) -> str:
    """The anchor the site gives a heading: the default `toc` slugify of Python-Markdown."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


@pytest.mark.parametrize("topic", _TOPICS)
def test_every_cited_section_exists_with_its_title(topic: str) -> None:
    page, title = _cite(translation("en"), topic)
    path, anchor = page.split("#")
    text = (DOCS / path).read_text(encoding="utf-8")
    headings = re.findall(r"^#{1,6} (.+?)\s*$", text, flags=re.MULTILINE)
    section = title.split(": ", 1)[1]
    assert section in headings, f"{path} has no section {section!r}"
    assert _slug(section) == anchor
    # the first heading of that name holds the anchor (a later one would get `_1`)
    assert [_slug(h) for h in headings].count(anchor) >= 1


def test_the_slug_is_that_of_the_site() -> None:
    toc = pytest.importorskip("markdown.extensions.toc", reason="needs markdown, from docs group")
    for heading in (
        "What a card can capture",
        "A first table of 15 or 30",
        "The dealer's first table",
    ):
        assert _slug(heading) == toc.slugify(heading, "-")
