"""Matches: known answers computed by hand from the rules, and properties.

The rules are those of docs/rules.md#winning-the-match and of the matches page
(docs/matches.md: the dealer, stakes and the tretre brilli, abandonment, rematches).

The known answers of whole matches, hand by hand, are in `tests/golden/matches.txt`.
"""

from __future__ import annotations

import math
import pickle
from fractions import Fraction as F

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    AbandonReason,
    Deck,
    HandScore,
    IllegalMoveError,
    InvalidArgumentError,
    Leftovers,
    Match,
    Move,
    Outcome,
    Rules,
    SeriesRecord,
    find_variant,
)
from scopa.match import Claim
from scopa.records import read_record, write_record
from tests.helpers import CLASSIC, TRETRE, every_preset, finish_hand, finish_match, scripted
from tests.strategies import seeds

# ----------------------------------------------------------------------------- ends


def test_a_classic_match_goes_to_eleven_and_has_no_stakes() -> None:
    # 9-2 would end a tretre match; classic plays on to 11: 9-2, then 12-2.
    match = Match.new(scripted(CLASSIC, [(9, 2), (3, 0)]), seed=1)
    match = finish_hand(match)
    assert not match.is_over
    assert match.settlement is None
    match = finish_hand(match)
    assert (match.winner, match.totals) == (0, (12, 2))
    assert match.settlement is None


def test_reaching_the_target_behind_the_opponent_does_not_end_it_early() -> None:
    # 6-8 then 4-3: 10-11, both over 9, the second player is ahead and wins.
    match = finish_match(Match.new(scripted(TRETRE, [(6, 8), (4, 3)]), seed=2))
    assert (match.winner, match.totals) == (1, (10, 11))


# ----------------------------------------------------------------------------- dealing


def test_the_dealer_alternates_from_the_capotavolo() -> None:
    match = Match.new(scripted(TRETRE, [(1, 1)] * 5 + [(9, 0)]), seed=3, first_dealer=1)
    dealers = []
    while not match.is_over:
        dealers.append(match.dealer)
        assert match.state.current_player == 1 - match.dealer  # the non-dealer leads
        match = finish_hand(match)
    assert dealers == [1, 0, 1, 0, 1, 0]
    assert [h.dealer for h in match.hands] == dealers


def test_a_seeded_match_deals_the_stream_of_its_seed() -> None:
    from scopa import GameState

    match = Match.new(TRETRE, seed=77)
    assert match.state == GameState.new(TRETRE, seed=77)
    assert Match.new(TRETRE, seed=77).deck == match.deck
    second = finish_hand(match)
    assert second.deck != match.deck
    assert second.hands[0].deck == match.deck
    third = finish_hand(second)
    assert third.deck not in (match.deck, second.deck)
    assert third.hands[1].deck == second.deck


def test_without_a_seed_one_is_drawn() -> None:
    matches = [Match.new(TRETRE) for _ in range(20)]
    assert all(0 <= m.stream < 2**64 for m in matches)  # type: ignore[operator]
    assert len({m.deck for m in matches}) > 1


def test_a_stream_replaces_the_decks_to_come() -> None:
    decks = [Deck.shuffled(1), Deck.shuffled(2)]
    switched = Match.new(scripted(TRETRE, [(1, 0), (1, 0)]), decks=decks).with_stream(99)
    assert switched.deck == decks[0]
    assert finish_hand(switched).deck not in decks
    assert not finish_hand(switched).awaiting_deal


def test_explicit_decks_then_waiting_for_a_deal() -> None:
    decks = [Deck.shuffled(1), Deck.shuffled(2)]
    match = Match.new(scripted(TRETRE, [(1, 0), (1, 0), (9, 0)]), decks=decks)
    assert match.deck == decks[0]
    match = finish_hand(match)
    assert match.deck == decks[1]
    match = finish_hand(match)
    assert match.awaiting_deal
    assert not match.is_over
    with pytest.raises(IllegalMoveError, match="deal"):
        match.apply(match.state.legal_moves()[0] if match.state.legal_moves() else None)  # type: ignore[arg-type]
    match = match.deal(Deck.shuffled(3))
    assert match.hand_number == 3
    assert match.state.dealer == 0
    match = finish_hand(match)
    assert match.is_over
    with pytest.raises(IllegalMoveError, match="not waiting"):
        match.deal(Deck.shuffled(4))


@pytest.mark.parametrize("leftovers", Leftovers)
def test_the_record_of_a_hand_says_who_took_the_leftovers(leftovers: Leftovers) -> None:
    # The record of each hand keeps what its last state says: the cards left after the last
    # play (tests/golden/sequences.txt and docs/rules.md#end-of-the-hand have known answers)
    # and who took them, beside the hand's score; pickling the last state keeps them too.
    rules = attrs.evolve(CLASSIC, leftovers=leftovers)
    left = 0
    for seed in range(8):
        match = Match.new(rules, seed=seed)
        state = match.state
        while not match.hands:
            state = state.apply(state.legal_moves()[0])
            match = match.apply(match.state.legal_moves()[0])
        record = match.hands[0]
        assert record.leftover_cards == state.leftover_cards
        assert record.leftovers_taken_by == state.leftovers_taken_by
        assert record.score == state.hand_score()
        back = pickle.loads(pickle.dumps(state))
        assert (back.leftover_cards, back.leftovers_taken_by) == (
            state.leftover_cards,
            state.leftovers_taken_by,
        )
        left += bool(record.leftover_cards)
        taker = {
            Leftovers.LAST_CAPTURER: state.last_capturer,
            Leftovers.DEALER: state.dealer,
            Leftovers.NOBODY: None,
        }[leftovers]
        if record.leftover_cards:
            assert record.leftovers_taken_by == taker
            assert (record.leftover_cards <= state.table) is (taker is None)
    assert left >= 4  # most hands end with cards on the table


def test_bad_match_arguments_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="not both"):
        Match.new(TRETRE, seed=1, decks=[Deck.shuffled(1)])
    with pytest.raises(InvalidArgumentError, match="first_dealer"):
        Match.new(TRETRE, seed=1, first_dealer=2)
    with pytest.raises(TypeError):
        Match.new(TRETRE, decks=["deck"])  # type: ignore[list-item]


# ----------------------------------------------------------------------------- abandonment


def test_abandonment_in_hand_one() -> None:
    match = Match.new(TRETRE, seed=4)
    match = match.apply(match.state.legal_moves()[0])
    over = match.abandon(1)
    assert over.is_over
    assert over.winner == 0
    assert over.outcomes == (Outcome.WIN, Outcome.ABANDONED)
    assert over.settlement == (F(10), F(-30))
    assert over.abandonment is not None
    assert over.abandonment.hand == 1
    assert over.abandonment.reason is AbandonReason.VOLUNTARY
    assert over.series == SeriesRecord(wins=(1, 0), losses=(0, 0), abandoned=(0, 1))
    assert over.series.matches == 1


def test_abandonment_in_hand_two_and_between_hands() -> None:
    match = finish_hand(Match.new(scripted(TRETRE, [(3, 1)]), seed=5))
    # right after hand 1: the abandonment counts in hand 2
    between = match.abandon(0, AbandonReason.EXPELLED)
    assert between.settlement == (F(-45, 2), F(25, 2))
    during = match.apply(match.state.legal_moves()[0]).abandon(0, AbandonReason.DISCONNECTED)
    assert during.settlement == between.settlement
    assert during.outcomes == (Outcome.ABANDONED, Outcome.WIN)


def test_abandonment_in_hand_four() -> None:
    match = Match.new(scripted(TRETRE, [(2, 2), (2, 3), (3, 2)]), seed=6)
    for _ in range(3):
        match = finish_hand(match)
    assert match.hand_number == 4
    over = match.abandon(1)
    assert over.settlement == (F(15), F(-15))
    assert over.winner == 0


def test_a_timeout_is_an_abandonment_by_the_player_to_move() -> None:
    match = Match.new(TRETRE, seed=8)
    mover = match.state.current_player
    move = match.state.legal_moves()[0]
    on_time = match.apply(move, elapsed=30.0)
    assert not on_time.is_over
    late = match.apply(move, elapsed=30.5)
    assert late.is_over
    assert late.abandonment is not None
    assert (late.abandonment.player, late.abandonment.reason) == (mover, AbandonReason.TIMEOUT)
    assert late.state == match.state, "the late move is not played"
    assert match.timeout().abandonment == late.abandonment
    with pytest.raises(InvalidArgumentError, match="negative"):
        match.apply(move, elapsed=-1)
    # classic has no time limit
    slow = Match.new(CLASSIC, seed=8)
    assert not slow.apply(slow.state.legal_moves()[0], elapsed=3600).is_over


def test_a_time_beyond_floats_is_over_the_limit_and_no_time_is_infinite() -> None:
    match = Match.new(TRETRE, seed=8)
    move = match.state.legal_moves()[0]
    assert match.apply(move, elapsed=10**400) == match.timeout()
    # without a limit, it is only a long time
    slow = Match.new(CLASSIC, seed=8)
    first = slow.state.legal_moves()[0]
    assert slow.apply(first, elapsed=10**400) == slow.apply(first)
    message = "elapsed time must be a finite, non-negative number of seconds, not {}"
    for bad, shown in (
        (-(10**400), "an int of about 401 digits"),
        (math.inf, "inf"),
        (-math.inf, "-inf"),
        (math.nan, "nan"),
    ):
        for rules_match in (match, slow):
            with pytest.raises(InvalidArgumentError) as caught:
                rules_match.apply(rules_match.state.legal_moves()[0], elapsed=bad)
            assert str(caught.value) == message.format(shown)


def test_a_finished_match_cannot_be_changed() -> None:
    match = Match.new(TRETRE, seed=9).abandon(0)
    with pytest.raises(IllegalMoveError, match="over"):
        match.apply(match.state.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="over"):
        match.abandon(1)
    with pytest.raises(IllegalMoveError, match="over"):
        match.timeout()
    with pytest.raises(AttributeError):
        match.hands = ()  # type: ignore[misc]


def test_abandon_refuses_bad_players_and_reasons() -> None:
    match = Match.new(TRETRE, seed=9)
    with pytest.raises(InvalidArgumentError, match="player"):
        match.abandon(2)
    with pytest.raises(TypeError, match="AbandonReason"):
        match.abandon(0, "timeout")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- rematches


def test_rematch_dealer_is_the_player_right_of_the_last_dealer() -> None:
    # three hands dealt by 0, 1, 0: the rematch is first dealt by 1
    three = finish_match(Match.new(scripted(TRETRE, [(2, 1), (3, 3), (4, 1)]), seed=10))
    assert three.state.dealer == 0
    again = three.rematch(seed=11)
    assert again.first_dealer == again.dealer == 1
    assert again.deck == Match.new(TRETRE, seed=11, first_dealer=1).deck
    assert three.rematch(decks=[Deck.shuffled(5)]).deck == Deck.shuffled(5)
    assert again.series_before == SeriesRecord(wins=(1, 0), losses=(0, 1), abandoned=(0, 0))
    # two hands dealt by 0, 1: the rematch is first dealt by 0
    two = finish_match(Match.new(scripted(TRETRE, [(5, 3), (4, 1)]), seed=12))
    assert two.rematch(seed=1).first_dealer == 0


def test_the_series_record_runs_on_until_a_player_leaves() -> None:
    won_by_0 = scripted(TRETRE, [(9, 0)] * 3)
    match = finish_match(Match.new(won_by_0, seed=13))
    match = finish_match(match.rematch(seed=14))
    assert match.series == SeriesRecord(wins=(2, 0), losses=(0, 2), abandoned=(0, 0))
    match = match.rematch(seed=15).abandon(0)
    assert match.series == SeriesRecord(wins=(2, 1), losses=(0, 2), abandoned=(1, 0))
    assert match.series.matches == 3
    with pytest.raises(IllegalMoveError, match="player 0 left the table: the series is over"):
        match.rematch(seed=16)
    with pytest.raises(IllegalMoveError, match="a rematch starts once the match is over"):
        finish_match(Match.new(won_by_0, seed=16)).rematch(seed=17).rematch()


def test_the_same_events_give_the_same_rematch_dealer() -> None:
    # the same three hands, dealt from a seed or from decks given one by one
    rules = scripted(TRETRE, [(2, 1), (3, 3), (4, 1)] * 2)
    seeded = finish_match(Match.new(rules, seed=10))
    decks = [hand.deck for hand in seeded.hands]
    given = Match.new(rules, decks=decks[:1])
    for deck in decks[1:]:
        given = finish_hand(given).deal(deck)
    given = finish_hand(given)
    assert given.is_over
    assert given.hands == seeded.hands
    assert given.rematch(seed=3).first_dealer == seeded.rematch(seed=3).first_dealer == 1


# ----------------------------------------------------------------------------- properties


@every_preset
@settings(max_examples=5)
@given(seed=seeds, data=st.data())
def test_random_matches_end_and_add_up(rules: Rules, seed: int, data: st.DataObject) -> None:
    first = data.draw(st.integers(0, rules.players - 1))
    match = Match.new(rules, seed=seed, first_dealer=first)
    while not match.is_over:
        assert match.hand_number == len(match.hands) + 1
        assert match.dealer == (first + len(match.hands)) % rules.players
        moves = match.state.legal_moves()
        match = match.apply(moves[data.draw(st.integers(0, len(moves) - 1))])
        assert len(match.hands) < 60, "a match always ends"
    sides = rules.number_of_sides
    totals = tuple(sum(h.points[side] for h in match.hands) for side in range(sides))
    assert match.totals == totals
    winner = match.winner
    assert winner is not None
    outright = [c.wins_match for c in match.hands[-1].score if c.wins_match is not None]
    others = [t for side, t in enumerate(totals) if side != winner]
    if outright:
        assert winner == outright[0]
    elif rules.lowest_total_wins:
        assert max(totals) >= rules.target
        assert all(totals[winner] < t for t in others)
    else:
        assert totals[winner] >= rules.target
        assert all(totals[winner] > t for t in others)
    assert match.outcomes == tuple(
        Outcome.WIN if rules.side_of(p) == winner else Outcome.LOSS for p in range(rules.players)
    )
    if rules.stakes is not None:
        assert match.settlement is not None
        assert sum(match.settlement) == 50
    assert [h.dealer for h in match.hands] == [
        (first + i) % rules.players for i in range(len(match.hands))
    ]
    with pytest.raises(IllegalMoveError):
        match.apply(Move.parse("1D"))
    with pytest.raises(IllegalMoveError):
        match.abandon(0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        match.hands = ()  # type: ignore[misc]


def test_a_move_late_in_a_long_match_rescores_no_finished_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Count the hand scores whose points are summed: a match keeps running totals, so each
    # finished hand's points are read once, when it ends, and never again (a server can
    # play or read a record of thousands of hands in time linear in their number).
    endless = attrs.evolve(CLASSIC, target=1_000_000)
    reads = 0
    points = HandScore.points

    def counted(self: HandScore) -> tuple[int, ...]:
        nonlocal reads
        reads += 1
        return points.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(HandScore, "points", property(counted))
    match = Match.new(endless, seed=8)
    for _ in range(30):
        match = finish_hand(match)
    assert len(match.hands) == 30
    assert reads == 30
    sums = [sum(c.points[side] for h in match.hands for c in h.score) for side in (0, 1)]
    assert match.totals == tuple(sums)
    reads = 0
    again = read_record(write_record(match))
    assert again.totals == match.totals
    assert reads == 3 * 30  # written once, scored once and checked once per hand


# ----------------------------------------------------------------------------- three sides


def test_an_abandonment_among_three_goes_to_the_leader_of_the_others() -> None:
    # After one hand of 1, 5 and 3 points, the best of the others is side 1, or side 2 when
    # side 1 leaves.
    match = finish_hand(Match.new(scripted(find_variant("scopa-3"), [(1, 5, 3)]), seed=1))
    assert match.totals == (1, 5, 3)
    assert [match.abandon(player).winner for player in range(3)] == [1, 2, 1]


def test_a_tie_among_the_others_goes_to_the_next_in_play_order() -> None:
    # 2-2-2: the others of 0 are 1 then 2, of 1 are 2 then 0, of 2 are 0 then 1.
    match = finish_hand(Match.new(scripted(find_variant("scopa-3"), [(2, 2, 2)]), seed=1))
    assert [match.abandon(player).winner for player in range(3)] == [1, 2, 0]


def test_a_rematch_among_three_is_dealt_by_the_next_player() -> None:
    # One hand dealt by 0 ends the match 11-0-0; the rematch is first dealt by 1, not 2.
    match = finish_match(Match.new(scripted(find_variant("scopa-3"), [(11, 0, 0)]), seed=1))
    assert len(match.hands) == 1
    assert match.first_dealer == 0
    assert match.rematch(seed=2).first_dealer == 1


def test_a_series_record_of_wrong_values_says_what_it_holds() -> None:
    with pytest.raises(TypeError, match=r"^a series record holds three tuples of ints$"):
        SeriesRecord((1,), (0,), "x")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- claims


def test_a_wrong_claim_ends_the_match_for_the_next_other_side() -> None:
    # scopa-3 with claims, seed 1: player 1 leads and claims at once, sure of no points at
    # all with 0-0-0 on the board; the claim is wrong, and on the tie the match goes to the
    # next side in play order after 1, which is 2.
    rules = attrs.evolve(find_variant("scopa-3"), claim_out=True)
    match = Match.new(rules, seed=1)
    assert match.state.current_player == 1
    claim = next(move for move in match.state.legal_moves() if move.claim)
    over = match.apply(claim)
    assert over.is_over
    assert over.claim == Claim(1, False)
    assert over.winner == 2
    assert over.state.history == ((1, claim),)
    # The claimed hand counts as played: the rematch is first dealt by player 1, not 2.
    assert over.hands == ()
    assert over.rematch(seed=2).first_dealer == 1
