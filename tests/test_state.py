from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    DECK,
    AceOnAce,
    AmbiguousMoveError,
    CapturePriority,
    Card,
    CompulsoryCapture,
    Deck,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    Leftovers,
    Move,
    NotationError,
    Rules,
    RulesError,
    ScopaError,
    find_variant,
)
from scopa.masks import cards_of
from scopa.scoring import Declarations
from tests import oracle
from tests.helpers import (
    CLASSIC,
    assert_legal,
    card_list,
    cards,
    lead,
    position,
    rebuilt,
)
from tests.strategies import PRESETS, any_rules, play_out, rules, seeds, states


def all_cards(state: GameState) -> list[Card]:
    return [
        *[c for hand in state.hands for c in hand],
        *state.table,
        *state.stock,
        *[c for pile in state.piles for c in pile],
    ]


# ----------------------------------------------------------------------------- properties
# Each property runs over every preset (parametrized), and over presets with their knobs
# changed at random ("varied").

CASES = [pytest.param(st.just(rules), id=rules.name) for rules in PRESETS] + [
    pytest.param(any_rules, id="varied")
]
every_preset_and_varied = pytest.mark.parametrize("rules", CASES)
per_case = settings(max_examples=25)


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_the_forty_cards_are_conserved(
    rules: st.SearchStrategy[Rules], data: st.DataObject
) -> None:
    state = data.draw(states(rules))
    found = all_cards(state)
    assert len(found) == state.rules.deck_size
    assert set(found) == set(cards_of(state.rules.in_play_mask))
    assert len(state.piles) == len(state.hands) == len(state.scope) == state.rules.players


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_legal_moves_match_the_brute_force_rules(
    rules: st.SearchStrategy[Rules], data: st.DataObject
) -> None:
    state = data.draw(states(rules))
    moves = state.legal_moves()
    assert len(moves) == len(set(moves)), "one move per distinct capture choice"
    assert set(moves) == oracle.legal_moves(state)
    assert moves is state.legal_moves(), "computed once per state"
    assert [m.card.index for m in moves] == sorted(m.card.index for m in moves)
    if not state.is_terminal:
        assert moves, "a player to move always has a move"


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_every_legal_move_applies_and_keeps_the_state(
    rules: st.SearchStrategy[Rules], data: st.DataObject
) -> None:
    state = data.draw(states(rules))
    before = state.to_text()
    for move in state.legal_moves():
        after = state.apply(move)
        assert move.card not in after.hands[state.current_player or 0]
        assert after.to_text() != before
        assert sum(after.scope) - sum(state.scope) in (0, 1)
    assert state.to_text() == before


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_illegal_moves_are_refused_and_change_nothing(
    rules: st.SearchStrategy[Rules], data: st.DataObject
) -> None:
    state = data.draw(states(rules))
    card = data.draw(st.sampled_from(DECK))
    captured = data.draw(st.sets(st.sampled_from(DECK), max_size=4)) - {card}
    move = Move(card, frozenset(captured))
    before = state.to_text()
    if move in state.legal_moves():
        return
    with pytest.raises(IllegalMoveError) as error:
        state.apply(move)
    assert str(move) in str(error.value)
    assert state.to_text() == before


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_a_hand_lasts_exactly_its_plays(
    rules: st.SearchStrategy[Rules], data: st.DataObject
) -> None:
    chosen = data.draw(rules)
    state = GameState.new(chosen, seed=data.draw(seeds))
    plays = 0
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[data.draw(st.integers(0, len(moves) - 1))])
        plays += 1
    assert plays == chosen.plays_per_hand == chosen.deck_size - chosen.table_size
    assert state.current_player is None
    assert state.stock == ()
    assert all(not hand for hand in state.hands)


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_scores_add_up(rules: st.SearchStrategy[Rules], data: st.DataObject) -> None:
    end = play_out(data.draw(states(rules)), data)
    chosen = end.rules
    sides = chosen.number_of_sides
    score = end.hand_score()
    assert [c.name for c in score] == [c.name for c in chosen.scoring.components]
    named = oracle.standard_names(chosen)
    # a side's captures and scope are its players' together
    side_piles = [frozenset().union(*end.piles[s::sides]) for s in range(sides)]
    side_scope = tuple(sum(end.scope[s::sides]) for s in range(sides))
    assert len(score.points) == sides
    if "scope" in named:
        assert score[named["scope"]].points == side_scope
    if "carte" in named:
        assert score[named["carte"]].figures == tuple(len(p) for p in side_piles)
    one_point = [named[n] for n in ("carte", "denari", "settebello", "primiera") if n in named]
    for name in one_point:
        assert sum(score[name].points) in (0, 1)
        assert all(p in (0, 1) for p in score[name].points)
    # the unique maximum of the figures wins carte and denari
    for name in (named[n] for n in ("carte", "denari") if n in named):
        figures = score[name].figures
        top = max(figures)
        expected = tuple(int(f == top and figures.count(top) == 1) for f in figures)
        assert score[name].points == expected
    assert all(points >= 0 for c in score for points in c.points)
    assert sum(score.points) == sum(sum(c.points) for c in score)
    if sum(len(p) for p in side_piles) == chosen.deck_size:
        if "settebello" in named:  # the settebello is always won
            assert sum(score[named["settebello"]].points) == 1
        if sides == 2:  # each one-point category gives its point but on a tie (KA-25)
            ties = sum(1 for name in one_point if sum(score[name].points) == 0)
            assert sum(sum(score[name].points) for name in one_point) == len(one_point) - ties
    else:
        # only when nobody takes the leftovers, or the last capturer does and nobody captured
        assert chosen.leftovers is not Leftovers.DEALER
        if chosen.leftovers is Leftovers.LAST_CAPTURER:
            assert end.last_capturer is None


@every_preset_and_varied
@per_case
@given(data=st.data())
def test_position_text_round_trips(rules: st.SearchStrategy[Rules], data: st.DataObject) -> None:
    state = data.draw(states(rules))
    text = state.to_text()
    back = GameState.from_text(state.rules, text)
    assert back == state
    assert back.to_text() == text
    assert back.key == state.key
    assert hash(back) == hash(state)
    assert back.legal_moves() == state.legal_moves()


@given(states())
def test_move_text_round_trips_through_the_state(state: GameState) -> None:
    for move in state.legal_moves():
        assert Move.parse(str(move)) == move
        assert state.parse_move(str(move)) is move


@given(rules(), seeds)
@settings(max_examples=30)
def test_the_same_seed_gives_the_same_game(chosen: object, seed: int) -> None:
    assert isinstance(chosen, type(CLASSIC))

    def game() -> list[str]:
        state = GameState.new(chosen, seed=seed)
        texts = []
        while not state.is_terminal:
            texts.append(state.to_text())
            state = state.apply(state.legal_moves()[-1])
        return texts

    assert game() == game()


@given(states())
def test_states_copy_and_pickle_to_equal_states(state: GameState) -> None:
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    assert pickle.loads(pickle.dumps(state)) == state


@given(states())
def test_states_cannot_be_mutated_through_public_attributes(state: GameState) -> None:
    for name in ("table", "hands", "piles", "scope", "stock", "current_player", "rules", "key"):
        with pytest.raises(AttributeError):
            setattr(state, name, None)
    with pytest.raises(AttributeError):
        state.extra = 1  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- dealing


def test_new_deals_in_the_documented_order() -> None:
    deck = Deck.shuffled(11)
    for dealer in (0, 1):
        state = GameState.new(CLASSIC, deck=deck, dealer=dealer)
        leader = 1 - dealer
        assert state.current_player == leader
        assert state.hands[leader] == frozenset(deck[0:3])
        assert state.hands[dealer] == frozenset(deck[3:6])
        assert state.table == frozenset(deck[6:10])
        assert state.stock == deck.cards[10:]
        assert state.dealer == dealer


def test_later_deals_give_three_cards_each_leader_first() -> None:
    deck = Deck.shuffled(12)
    state = GameState.new(CLASSIC, deck=deck, dealer=0)
    for _ in range(6):
        state = state.apply(state.legal_moves()[0])
    assert state.current_player == 1
    assert state.hands[1] == frozenset(deck[10:13])
    assert state.hands[0] == frozenset(deck[13:16])
    assert state.stock == deck.cards[16:]


def test_states_are_equal_when_position_and_rules_are() -> None:
    state = GameState.new(CLASSIC, seed=1)
    assert state == GameState.new(CLASSIC, seed=1)
    assert state != GameState.new(attrs.evolve(CLASSIC, target=21), seed=1)
    assert state != GameState.new(CLASSIC, seed=2)
    # hashes follow equality and tell different states apart
    later = [state]
    for _ in range(10):
        later.append(later[-1].apply(later[-1].legal_moves()[0]))
    assert hash(GameState.new(CLASSIC, seed=1)) == hash(state)
    assert len({hash(s) for s in later}) == len(later)
    moves = [move for s in later for move in s.legal_moves()]
    assert len({hash(m) for m in moves}) == len(set(moves)) > 10


def test_three_players_are_dealt_leader_first_round_the_table() -> None:
    # the leader is the player after the dealer, then the next, the dealer last
    deck = Deck.shuffled(13)
    rules = find_variant("scopa-3")
    state = GameState.new(rules, deck=deck, dealer=1)
    assert [state.hands[p] for p in (2, 0, 1)] == [frozenset(deck[i : i + 3]) for i in (0, 3, 6)]
    assert state.table == frozenset(deck[9:13])
    for _ in range(9):
        state = state.apply(state.legal_moves()[0])
    assert [state.hands[p] for p in (2, 0, 1)] == [frozenset(deck[i : i + 3]) for i in (13, 16, 19)]


def test_seeded_deal_skips_annulled_tables() -> None:
    # Find a seed whose first shuffle is annulled (3+ kings on the table): the deal must
    # then be the next shuffle of the same stream.
    for seed in range(20_000):
        decks = Deck.shuffles(seed)
        first = next(decks)
        if sum(1 for c in first[6:10] if c.rank == 10) >= 3:
            break
    else:
        pytest.fail("no annulled deal found")
    state = GameState.new(CLASSIC, seed=seed)
    second = next(decks)
    assert state.table == frozenset(second[6:10])
    with pytest.raises(InvalidStateError, match="annulled"):
        GameState.new(CLASSIC, deck=first)


def test_new_without_seed_or_deck_deals_a_random_hand() -> None:
    states = [GameState.new(CLASSIC) for _ in range(20)]
    assert all(len(state.table) == 4 for state in states)
    assert len({state.key for state in states}) > 1


def test_a_state_shows_as_a_picture_in_notebooks() -> None:
    from scopa.svg import state_svg

    state = GameState.new(CLASSIC, seed=1)
    assert state._repr_svg_() == state_svg(state)


def test_a_hand_without_a_capture_leaves_the_table_to_nobody() -> None:
    # nothing can be captured; declared points are what a match under these rules is for
    rules = attrs.evolve(
        CLASSIC,
        capture_by_rank=False,
        capture_by_sum=False,
        declarations=True,
        scoring=CLASSIC.scoring.with_component(Declarations()),
    )
    state = GameState.new(rules, seed=3)
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])
    assert state.piles == (frozenset(), frozenset())
    assert state.table == frozenset(DECK)


def test_an_ace_laid_last_on_an_empty_table_leaves_no_card() -> None:
    # with the ace taking itself on an empty table, the last card of the hand, 1D, goes to
    # its player's pile: no card is left on the table, and nobody takes leftovers
    rules = attrs.evolve(CLASSIC, ace_on_empty_table_captures_itself=True)
    empty = position(rules, ["", "1D"], piles=["*", ""])
    final = empty.apply(Move.parse("1D"))
    assert final.is_terminal
    assert Card.parse("1D") in final.piles[1]
    assert (final.table, final.leftover_cards, final.leftovers_taken_by) == (
        frozenset(),
        frozenset(),
        None,
    )


def test_new_refuses_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="dealer"):
        GameState.new(CLASSIC, seed=1, dealer=2)
    with pytest.raises(InvalidArgumentError, match="not both"):
        GameState.new(CLASSIC, seed=1, deck=Deck.standard())
    with pytest.raises(TypeError, match="Rules"):
        GameState.new("classic", seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Deck"):
        GameState.new(CLASSIC, deck=list(DECK))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"missing (10 )?required"):
        GameState()  # type: ignore[call-arg]


# ----------------------------------------------------------------------------- positions


# Dealer 1; player 0 holds 9D, player 1 holds 2B; table 1C 3S 4B 5C 8S; both players have
# captured, player 1 last.
ENDGAME = position(
    CLASSIC, ["9D", "2B"], "1C 3S 4B 5C 8S", piles=["1-8D 10D 2-4C 6-10C", "*"], last_capturer=1
)


def test_from_position_builds_the_position() -> None:
    state = ENDGAME
    assert state.current_player == 0
    assert state.table == cards("1C 3S 4B 5C 8S")
    assert state.last_capturer == 1
    assert_legal(state, "9Dx1C+8S 9Dx5C+4B 9Dx1C+5C+3S")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"table": card_list("1C 3S 4B 5C 8S 9D")}, "twice"),
        ({"table": card_list("1C 3S 4B 5C")}, "missing: 8S"),
        (
            {"hands": [card_list("9D 8S"), card_list("2B")], "table": card_list("1C 3S 4B 5C")},
            "hand sizes",
        ),
        ({"current_player": 1}, "turn"),
        ({"dealer": 2}, "dealer"),
        ({"last_capturer": None}, "last_capturer"),
        ({"scope": [0]}, "scope"),
        ({"scope": [0, -1]}, "scope"),
        ({"scope": [0, 30]}, "scope"),
        ({"hands": [card_list("9D")]}, "hands"),
        ({"hands": "9D 2B"}, "hands"),
        ({"hands": [["9D"], card_list("2B")]}, "Cards"),
    ],
)
def test_from_position_refuses_impossible_positions(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidStateError, match=message):
        rebuilt(ENDGAME, **changes)


def test_from_position_refuses_a_stock_that_cannot_be() -> None:
    state = GameState.new(CLASSIC, seed=3)
    stock = list(state.stock)
    with pytest.raises(InvalidStateError, match="stock"):
        GameState.from_position(
            CLASSIC,
            hands=state.hands,
            table=state.table,
            stock=stock[:-1],
            dealer=0,
            piles=[[stock[-1]], []],
        )
    with pytest.raises(InvalidStateError, match="empty"):
        GameState.from_position(
            CLASSIC,
            hands=[[], []],
            table=state.table,
            stock=stock,
            dealer=0,
            piles=[[*state.hands[0], *state.hands[1]], []],
        )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a b c d e f g h",
        "9D/2B 1C3S4B5C8S - -/- 0/0 1 0 1 extra",
        "9D 1C3S4B5C8S - -/- 0/0 1 0 1",
        "9D/2B 1C3S4B5C8S - -/- 0/x 1 0 1",
        "9D/2B 1C3S4B5C8S - -/- 0/0 - 0 1",
        "9D/2B 1C3S4B5C8S - -/- 0/0 1 x 1",
    ],
)
def test_from_text_refuses_unreadable_positions(text: str) -> None:
    with pytest.raises(NotationError):
        GameState.from_text(CLASSIC, text)


def test_from_text_reads_a_known_position() -> None:
    state = ENDGAME
    # cards are written in index order: coppe (1C 5C) before spade (3S 8S) before bastoni (4B)
    assert state.to_text().startswith("9D/2B 1C5C3S8S4B - ")
    assert state.to_text().endswith(" 0/0 1 0 1")
    piles = "/".join("".join(map(str, sorted(p))) for p in state.piles)
    written = f"9d/2b 8s4b1c3s5c - {piles} 0/0 1 0 1"
    assert GameState.from_text(CLASSIC, written) == state


# ----------------------------------------------------------------------------- moves in a state


def test_parse_move_reads_short_and_full_forms() -> None:
    state = ENDGAME
    with pytest.raises(AmbiguousMoveError, match="9Dx1C\\+8S"):
        state.parse_move("9d")
    assert state.parse_move("9Dx8S+1C") == Move.parse("9Dx1C+8S")
    with pytest.raises(IllegalMoveError, match="2B is not in player 0's hand"):
        state.parse_move("2B")
    with pytest.raises(IllegalMoveError, match="9D may only play as"):
        state.parse_move("9Dx1C+3S+5C+8S")
    with pytest.raises(IllegalMoveError, match="not on the table"):
        state.parse_move("9Dx2S+7S")
    with pytest.raises(NotationError):
        state.parse_move("9")


def test_parse_move_short_form_names_the_only_capture() -> None:
    # KA-09 position: 7D must take 2C+5S; 10B can only be laid down.
    state = lead(CLASSIC, "7D 10B", "2C 5S")
    assert state.parse_move("7d") == Move.parse("7Dx2C+5S")
    assert state.parse_move("10b") == Move.parse("10B")
    with pytest.raises(IllegalMoveError):
        state.apply(Move.parse("7D"))


def test_apply_refuses_non_moves_and_moves_after_the_end() -> None:
    state = ENDGAME
    with pytest.raises(TypeError) as caught:
        state.apply("9D")
    assert str(caught.value) == (
        "a move must be a Move, not text: read it with state.parse_move('9D')"
    )
    end = state.apply(state.legal_moves()[0]).apply(
        state.apply(state.legal_moves()[0]).legal_moves()[0]
    )
    assert end.is_terminal
    with pytest.raises(IllegalMoveError, match="over"):
        end.apply(Move.parse("9D"))


def test_every_error_is_a_scopa_error_and_a_value_error() -> None:
    for error in (
        AmbiguousMoveError,
        IllegalMoveError,
        InvalidArgumentError,
        InvalidStateError,
        NotationError,
        RulesError,
    ):
        assert issubclass(error, ScopaError)
        assert issubclass(error, ValueError)


def test_free_priority_offers_the_equal_card_and_the_sums() -> None:
    free = attrs.evolve(CLASSIC, capture_priority=CapturePriority.FREE)
    state = lead(free, "5D", "2C 3S 5B")
    assert_legal(state, "5Dx5B 5Dx2C+3S")


def test_repr_evaluates_back() -> None:
    state = GameState.new(CLASSIC, seed=5)
    assert repr(state).startswith("GameState.from_text(find_variant('classic'), ")
    assert eval(repr(state), {"GameState": GameState, "find_variant": find_variant}) == state


class _EqualToAnything(Move):
    """A move that claims to equal every move, as a hostile client could send."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = Move.__hash__


def test_apply_plays_the_legal_move_equal_by_value_not_the_object_given() -> None:
    state = GameState.new(CLASSIC, seed=2026)  # table 4C 4S 9D 10D, player 1 holds 2C 3B 4B
    hostile = _EqualToAnything(Card.parse("4B"), frozenset(state.table))
    with pytest.raises(IllegalMoveError, match="4B may only play as 4Bx4C, 4Bx4S"):
        state.apply(hostile)
    assert len(state.table) == 4  # nothing changed
    fair = _EqualToAnything(Card.parse("4B"), frozenset({Card.parse("4S")}))
    after = state.apply(fair)
    assert after.table == cards("4C 9D 10D")
    assert type(after.history[-1][1]) is Move
    assert after == state.apply(Move.parse("4Bx4S"))


def test_a_hand_in_which_nobody_captured_reads_back_with_the_dealer_holding_the_leftovers() -> None:
    # Only an Ace captures (all the table); in this deal the Aces are always played onto an
    # empty table or never find one, so nobody captures and at the end the dealer takes every
    # card: the text's last capturer is "-", which must read back as nobody.
    rules = attrs.evolve(
        find_variant("classic"),
        capture_by_rank=False,
        capture_by_sum=False,
        compulsory_capture=CompulsoryCapture.NONE,
        ace_captures_all=True,
        ace_sweep_is_scopa=False,
        ace_with_ace_on_table=AceOnAce.CAPTURE_NORMALLY,
        leftovers=Leftovers.DEALER,
    )
    state = GameState.new(rules, seed=2)
    chooser = random.Random(2)
    while not state.is_terminal:
        state = state.apply(chooser.choice(state.legal_moves()))
    assert state.is_terminal
    assert state.last_capturer is None
    assert state.leftovers_taken_by == state.dealer
    assert len(state.piles[state.dealer]) == 40
    back = GameState.from_text(rules, state.to_text())
    assert back == state
    assert back.last_capturer is None
    assert back.piles == state.piles
