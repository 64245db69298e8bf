"""Invariants of whatever the library builds or reads: states, matches and rules.

The checks are written from the documented rules (docs/rules.md, docs/matches.md) and API,
not from the implementation, so that a fuzzer or a state machine can call them on anything
a reader returned:

- `check_state(state)`: the cards in play are each in exactly one place; hand sizes, stock and
  turn fit a round of the rules; scope and the last capturer fit the piles; the text form
  round-trips; the legal moves are well formed, non-empty unless the hand is over, and
  playing one leaves the state unchanged; the score and the players' views agree.
- `check_match(match)`: the current hand is valid; every recorded hand replays from its
  deck to its recorded score; the totals, the winner, the outcomes and the brilli follow
  docs/rules.md#winning-the-match and docs/matches.md; the record of the match reads back
  to the same match (`check_record`).
- `check_rules(rules)`: rules read from data can be written back, deal, play a hand to
  the end, score it with whole points, and settle a match.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

from scopa import (
    BrilliEconomy,
    GameState,
    Leftovers,
    Match,
    Move,
    Outcome,
    Rules,
    view,
)
from scopa.masks import cards_of
from scopa.records import read_record, rules_from_data, rules_to_data, write_record

__all__ = ["check_match", "check_record", "check_rules", "check_state", "check_structure", "leader"]

POT = Fraction(50)
"""The whole tretre pot: 20 for the match and 10 for each of the first three hands."""


def check_structure(state: GameState) -> None:
    """The static invariants of a position (no move is played)."""
    rules = state.rules
    n = rules.players
    hands, piles, scope = state.hands, state.piles, state.scope
    assert len(hands) == len(piles) == len(scope) == n, "one hand, pile and scope per player"
    table, stock = state.table, state.stock
    everywhere = [
        *(c for hand in hands for c in hand),
        *table,
        *stock,
        *(c for pile in piles for c in pile),
    ]
    in_play = set(cards_of(rules.in_play_mask))
    assert len(everywhere) == rules.deck_size, f"{len(everywhere)} cards in {state.to_text()}"
    assert set(everywhere) == in_play, "every card in play exactly once"

    for player, (made, pile) in enumerate(zip(scope, piles, strict=True)):
        assert isinstance(made, int)
        assert not isinstance(made, bool)
        assert made >= 0, f"player {player} has {made} scope"
        # A scopa takes at least one table card with the played card.
        assert 2 * made <= len(pile), f"player {player}: {made} scope with {len(pile)} cards"

    dealer = state.dealer
    assert 0 <= dealer < n
    assert len(stock) % (n * rules.hand_size) == 0, "the stock is whole deals"
    order = [(dealer + k) % n for k in range(1, n + 1)]  # the leader first, the dealer last
    sizes = [len(hands[p]) for p in order]
    current = state.current_player
    if current is None:
        assert state.is_terminal
        assert not any(sizes), "a finished hand has no cards in hand"
        assert not stock, "a finished hand has no stock"
    else:
        assert not state.is_terminal
        top = max(sizes)
        assert 1 <= top <= rules.hand_size, f"hand sizes {sizes}"
        played = sizes.count(top - 1)
        assert sizes == [top - 1] * played + [top] * (n - played), f"hand sizes {sizes}"
        assert current == order[played], "the turn follows the hand sizes"

    last = state.last_capturer
    taker = state.leftovers_taken_by
    if taker is not None:
        assert state.leftover_cards <= set(piles[taker]), "the leftovers are in the taker's pile"
    if last is None:
        # the dealer may have taken the leftovers of a hand in which nobody captured
        captured = [pile for seat, pile in enumerate(piles) if seat != taker]
        assert not any(captured), "someone has captured but there is no last capturer"
        if taker is not None:
            assert set(piles[taker]) == state.leftover_cards, "the dealer took only the leftovers"
    else:
        assert 0 <= last < n
        assert piles[last], "the last capturer has a pile"
    if state.is_terminal and rules.leftovers is Leftovers.LAST_CAPTURER and last is not None:
        assert not table, "the leftovers went to the last capturer"
    if state.is_terminal and rules.leftovers is Leftovers.DEALER:
        assert not table, "the leftovers went to the dealer"

    score = state.hand_score()
    sides = rules.number_of_sides
    assert len(score.points) == sides
    assert all(isinstance(p, int) and p >= 0 for p in score.points), score.points
    for category in score:
        assert len(category.points) == sides, category


def check_state(state: GameState) -> None:
    """Every invariant of a position, including the behaviour of its moves and text."""
    check_structure(state)
    rules = state.rules
    text = state.to_text()
    back = GameState.from_text(rules, text)
    assert back == state
    assert hash(back) == hash(state)
    assert back.to_text() == text
    assert back.key == state.key

    moves = state.legal_moves()
    assert isinstance(moves, tuple)
    assert back.legal_moves() == moves, "the same moves in the same order"
    assert len(set(moves)) == len(moves), "one move per capture choice"
    assert [m.card.index for m in moves] == sorted(m.card.index for m in moves)
    current = state.current_player
    if current is None:
        assert moves == ()
    else:
        assert moves, "a player to move always has a move"
        hand, table = state.hands[current], state.table
        for move in moves:
            assert isinstance(move, Move)
            assert move.card in hand
            assert move.captured <= table
            assert move.card not in move.captured
            assert Move.parse(str(move)) == move
            assert state.parse_move(str(move)) == move
        for move in {moves[0], moves[-1]}:
            child = state.apply(move)
            assert state.to_text() == text, "apply leaves the state unchanged"
            check_structure(child)
            assert child.history[-1] == (current, move)

    sizes = tuple(len(h) for h in state.hands)
    for player in range(rules.players):
        seen = view(state, player)
        assert seen.hand == state.hands[player]
        assert seen.table == state.table
        assert seen.piles == state.piles
        assert seen.hand_sizes == sizes
        assert seen.stock_size == len(state.stock)
        assert seen.legal_moves() == (moves if player == current else ())


def _replay(rules: Rules, match: Match) -> None:
    """Every completed hand replays from its deck to its recorded score."""
    players = rules.players
    for number, record in enumerate(match.hands, 1):
        assert record.number == number
        assert record.dealer == (match.first_dealer + number - 1) % players
        state = GameState.new(rules, deck=record.deck, dealer=record.dealer)
        for player, move in record.history:
            assert state.current_player == player
            state = state.apply(move)
        assert state.is_terminal
        assert state.hand_score() == record.score


def leader(totals: tuple[int, ...], target: int) -> int | None:
    """The side at or over the target and strictly ahead of every other (docs/rules.md)."""
    top = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == top]
    return leaders[0] if top >= target and len(leaders) == 1 else None


def check_record(match: Match) -> Match:
    """The record of `match` reads back to the same match, written the same; that match."""
    text = write_record(match)
    back = read_record(text)
    assert write_record(back) == text
    assert back.rules == match.rules
    assert back.state == match.state
    assert back.totals == match.totals
    assert back.winner == match.winner
    assert back.outcomes == match.outcomes
    assert back.settlement == match.settlement
    return back


def check_match(match: Match) -> None:
    """Every invariant of a match: hands, totals, winner, outcomes, brilli and record."""
    rules = match.rules
    check_state(match.state)
    _replay(rules, match)

    totals = [0] * rules.number_of_sides
    for record in match.hands:
        for side, points in enumerate(record.points):
            totals[side] += points
    assert match.totals == tuple(totals)

    # The hand in progress replays from its deck too (or the last hand, once over).
    state = GameState.new(rules, deck=match.deck, dealer=match.dealer)
    for _, move in match.state.history:
        state = state.apply(move)
    assert state == match.state

    abandonment = match.abandonment
    outright = [c.wins_match for h in match.hands for c in h.score if c.wins_match is not None]
    if abandonment is not None:
        assert match.is_over
        assert match.winner != rules.side_of(abandonment.player)
        assert abandonment.hand == len(match.hands) + 1
        outcomes = match.outcomes
        assert outcomes is not None
        assert outcomes[abandonment.player] is Outcome.ABANDONED
    elif outright:
        assert match.winner == outright[0]
    else:
        assert match.winner == leader(match.totals, rules.target)
    if match.is_over:
        outcomes = match.outcomes
        assert outcomes is not None
        assert len(outcomes) == rules.players
        assert match.winner is not None
        assert Outcome.WIN in outcomes
        for player, outcome in enumerate(outcomes):
            if outcome is Outcome.WIN:
                assert rules.side_of(player) == match.winner
    else:
        assert match.outcomes is None
        if not match.awaiting_deal:
            assert not match.state.is_terminal
            assert match.dealer == (match.first_dealer + len(match.hands)) % rules.players

    brilli = match.settlement
    if rules.stakes is None:
        assert brilli is None
    else:
        assert brilli is not None
        assert len(brilli) == rules.number_of_sides
        if rules.stakes == BrilliEconomy() and abandonment is None:
            assert all(b >= 0 for b in brilli)
            assert sum(brilli) <= POT
            if match.is_over:
                assert sum(brilli) == POT

    check_record(match)


def check_rules(rules: Rules, seed: int = 0) -> None:
    """Rules (read from data, say) can be written back, deal, play, score and settle."""
    assert isinstance(rules, Rules)
    hash(rules)
    data = rules_to_data(rules)
    json.dumps(data)
    assert rules_from_data(json.loads(json.dumps(data))) == rules
    rng = random.Random(seed)
    state = GameState.new(rules, seed=seed, dealer=rng.randrange(rules.players))
    check_state(state)
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])
    check_state(state)
    match = Match.new(rules, seed=seed)
    if rules.stakes is not None:
        points = state.hand_score().points
        settled = rules.stakes.settle([points], sides=rules.number_of_sides)
        assert len(settled) == rules.number_of_sides
        assert match.settlement is not None
    check_match(match)
