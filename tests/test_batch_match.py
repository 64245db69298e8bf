"""Whole matches on the batch engine play exactly as the scalar `Match`, and refuse bad input.

The lockstep tests play a batch of matches with random legal actions
(`MatchEnv.random_action`), replay each one on a scalar `Match` dealt the same decks by the
same dealers, and compare at every play the player to move, the legal ids and the
observation (with the match totals), and at the end of every hand the totals, the dealer,
the hands played, the winner, the outcome, the settlement (the tretre brilli), whether the
match was truncated, and the rewards. `SCOPA_BATCH_MATCHES=10000 python -m pytest
tests/test_batch_match.py -k lockstep` plays more matches (the default is 300 of
`classic`, `tretre` and `scopone-scientifico`, and of the knobs below).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import pytest

from scopa import Captures, Deck, Match, Outcome, Rules, find_variant, view
from scopa.adapters import match_returns, match_totals_seen
from scopa.cards import DECK, Rank
from scopa.encoding import legal_actions, move_of_action, observation
from scopa.errors import IllegalMoveError, InvalidArgumentError, RulesError
from scopa.rules import MisdealRule, Tiebreak
from scopa.scoring import AssoDueTre, Scope, ScoringRules
from scopa.stakes import Abandonment

jax = pytest.importorskip("jax", reason="needs JAX, from the optional extra jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402  (installed with JAX)

from scopa.batch import MatchEnv, MatchState  # noqa: E402
from scopa.batch._match import _shuffle  # noqa: E402

MATCHES = int(os.environ.get("SCOPA_BATCH_MATCHES", "300"))
CHUNK = 1000  # matches played together at most (one compiled shape)


def _deck(deals: np.ndarray, table: np.ndarray, piles: np.ndarray, dealer: int) -> Deck:
    """The deck order that deals a hand's first position, as `GameState.new` deals.

    Each player in turn from the one after the dealer gets a block of cards, then the
    table gets its cards (with those of a first table that sweeps, in a pile at once),
    then each later deal gives a block to each player in the same order (the order of the
    cards within a block does not matter); the cards not in play come last.
    """
    players = deals.shape[1]
    leader = (dealer + 1) % players
    seats = [(leader + k) % players for k in range(players)]
    order = [int(c) for seat in seats for c in np.flatnonzero(deals[0, seat])]
    order += [int(c) for c in np.flatnonzero(table | piles.any(axis=0))]
    order += [int(c) for deal in deals[1:] for seat in seats for c in np.flatnonzero(deal[seat])]
    order += sorted(set(range(40)) - set(order))
    return Deck(DECK[i] for i in order)


def _expected_rewards(match: Match, env: MatchEnv) -> list[float]:
    """What a finished match pays each player, from the scalar match and the definitions."""
    rules = match.rules
    sides = rules.number_of_sides
    if env.match_reward == "win":
        figures = [1.0 if side == match.winner else 0.0 for side in range(sides)]
    else:
        settlement = match.settlement
        assert settlement is not None
        figures = [float(value) for value in settlement]
    if env.rewards == "points":
        paid = figures
    elif env.rewards == "margin":
        paid = [
            own - max(f for s, f in enumerate(figures) if s != side)
            for side, own in enumerate(figures)
        ]
    else:
        paid = [own - (sum(figures) - own) / (sides - 1) for own in figures]
    return [paid[rules.side_of(player)] for player in range(rules.players)]


def _where(number: int, match: Match) -> str:
    """Where a difference was found: the match, its hand, and the position."""
    return f"match {number}, hand {match.hand_number}: {match.state.to_text()!r}"


_COMPILED: dict[MatchEnv, tuple[Any, Any, Any]] = {}


def _compiled(env: MatchEnv) -> tuple[Any, Any, Any]:
    """Compiled once per environment, on a batch: `init`, one random play, every view."""
    if env not in _COMPILED:

        def play(states: MatchState, key: Any) -> tuple[Any, MatchState]:
            keys = jax.random.split(key, states.current_player.shape[0])
            actions = jax.vmap(env.random_action)(states, keys)
            return actions, jax.vmap(env.step)(states, actions)

        def views(states: MatchState) -> Any:  # [match, player, observation]
            players = range(env.num_players)
            seen = [jax.vmap(env.observe, in_axes=(0, None))(states, p) for p in players]
            return jnp.stack(seen, axis=1)

        _COMPILED[env] = (jax.jit(jax.vmap(env.init)), jax.jit(play), jax.jit(views))
    return _COMPILED[env]


def _seen(match: Match, player: int) -> np.ndarray:
    """What the scalar engine and adapters show `player`: the hand's view and the totals."""
    wanted = observation(view(match.state, player)) + match_totals_seen(match, player)
    return np.array(wanted, np.float32)


def lockstep(env: MatchEnv, matches: int, seed: int) -> dict[str, int]:
    """Play `matches` random matches on both engines in lockstep; fail at the first difference.

    At every play: the player to move, the legal ids and the observation. At the start and
    the end of every hand: every player's view. At the end of every hand: the totals, the
    hands played, the dealer of the next hand, whether the match is over or truncated,
    the winner and the outcomes, the settlement and the rewards.

    Returns counts of what was played: matches won, truncated, hands, plays, matches won
    outright by a category, and the others won by a side that is not alone at the top.
    """
    rules = env.rules
    init, play, views = _compiled(env)
    counts = dict.fromkeys(("won", "truncated", "hands", "plays", "outright", "not_top"), 0)
    rng = np.random.default_rng(seed)
    key = jax.random.key(seed)
    for start in range(0, matches, CHUNK):
        size = min(CHUNK, matches - start)
        key, deal_key = jax.random.split(key)
        dealers = rng.integers(0, rules.players, size, dtype=np.int32)
        states = init(jax.random.split(deal_key, size), jnp.asarray(dealers))
        deals, table, piles = jax.device_get(
            (states.hand._deals, states.hand._table, states.hand._piles)
        )
        games = [
            Match.new(rules, decks=[_deck(deals[i], table[i], piles[i], d)], first_dealer=int(d))
            for i, d in enumerate(dealers)
        ]
        playing = [True] * size
        turned = list(range(size))  # the matches whose hand was just dealt, or ended
        while True:
            if turned:
                every = np.asarray(views(states))
                for i in turned:
                    for player in range(rules.players):
                        where = _where(start + i, games[i])
                        assert np.array_equal(every[i, player], _seen(games[i], player)), where
            if not any(playing):
                break
            to_move, masks, seen = jax.device_get(
                (states.current_player, states.legal_action_mask, states.observation)
            )
            for i, match in enumerate(games):
                if not playing[i]:
                    continue
                mover = match.state.current_player
                assert mover is not None
                assert to_move[i] == mover, _where(start + i, match)
                legal = legal_actions(match.state)
                assert np.flatnonzero(masks[i]).tolist() == legal, _where(start + i, match)
                assert np.array_equal(seen[i], _seen(match, mover)), _where(start + i, match)
            key, now = jax.random.split(key)
            actions, states = play(states, now)
            books = jax.device_get(
                (
                    actions,
                    states.illegal_action,
                    states.terminated,
                    states.truncated,
                    states.totals,
                    states.hands_played,
                    states.winner,
                    states.settlement,
                    states.rewards,
                    states.observation,
                    states.hand._dealer,
                    states.hand._deals,
                    states.hand._table,
                    states.hand._piles,
                )
            )
            chosen, illegal, over, cut, totals, played, winner, settled, rewards, seen = books[:10]
            dealer, deals, table, piles = books[10:]
            turned = []
            for i, match in enumerate(games):
                if not playing[i]:
                    continue
                assert not illegal[i]
                hands = len(match.hands)
                match = games[i] = match.apply(move_of_action(match.state, int(chosen[i])))
                counts["plays"] += 1
                if len(match.hands) == hands:
                    assert not over[i], _where(start + i, match)
                    assert not cut[i], _where(start + i, match)
                    assert not rewards[i].any(), _where(start + i, match)
                    continue
                counts["hands"] += 1
                turned.append(i)
                assert totals[i].tolist() == list(match.totals), _where(start + i, match)
                assert played[i] == len(match.hands), _where(start + i, match)
                assert bool(over[i]) == match.is_over, _where(start + i, match)
                if match.settlement is not None:
                    wanted = [float(value) for value in match.settlement]
                    assert settled[i].tolist() == pytest.approx(wanted, abs=1e-4)
                else:
                    assert not settled[i].any()
                if match.is_over or len(match.hands) >= env.max_hands:
                    # nobody to move: the dealer of the last hand observes it
                    last = match.state.dealer
                    assert np.array_equal(seen[i], _seen(match, last)), _where(start + i, match)
                    playing[i] = False
                if match.is_over:
                    assert winner[i] == match.winner, _where(start + i, match)
                    assert not cut[i]
                    outcomes = [
                        Outcome.WIN if rules.side_of(p) == winner[i] else Outcome.LOSS
                        for p in range(rules.players)
                    ]
                    assert match.outcomes == tuple(outcomes), _where(start + i, match)
                    paid = _expected_rewards(match, env)
                    assert rewards[i].tolist() == pytest.approx(paid, abs=1e-4)
                    if env.rewards == "margin":  # the other adapters' returns
                        reward = env.match_reward
                        assert paid == pytest.approx(match_returns(match, reward), abs=1e-9)
                    outright = [c for c in match.hands[-1].score if c.wins_match is not None]
                    counts["outright"] += bool(outright)
                    top = max(match.totals)
                    counts["not_top"] += not outright and (
                        match.totals[int(winner[i])] < top or match.totals.count(top) > 1
                    )
                    counts["won"] += 1
                    continue
                assert winner[i] == -1, _where(start + i, match)
                assert not rewards[i].any(), _where(start + i, match)
                if len(match.hands) >= env.max_hands:
                    assert cut[i], _where(start + i, match)
                    counts["truncated"] += 1
                    continue
                assert not cut[i], _where(start + i, match)
                deck = _deck(deals[i], table[i], piles[i], int(dealer[i]))
                match = games[i] = match.deal(deck)
                assert dealer[i] == match.dealer, _where(start + i, match)
        assert (np.asarray(states.terminated) | np.asarray(states.truncated)).all()
        assert (np.asarray(states.current_player) == -1).all()
        assert not np.asarray(states.legal_action_mask).any()
    return counts


# ------------------------------------------------------------------ lockstep


@pytest.fixture(scope="module")
def classic() -> MatchEnv:
    return MatchEnv(find_variant("classic"))


def test_lockstep_classic(classic: MatchEnv) -> None:
    counts = lockstep(classic, MATCHES, seed=1)
    assert counts["won"] == MATCHES
    assert counts["hands"] > 3 * MATCHES  # a match of classic lasts three hands or more


def test_lockstep_tretre_with_its_brilli() -> None:
    env = MatchEnv(find_variant("tretre"), match_reward="stakes")
    counts = lockstep(env, MATCHES, seed=2)
    assert counts["won"] == MATCHES


def test_lockstep_scopone_scientifico() -> None:
    env = MatchEnv(find_variant("scopone-scientifico"), rewards="zero-sum")
    counts = lockstep(env, MATCHES, seed=3)
    assert counts["won"] == MATCHES


def test_lockstep_the_lowest_total_wins_and_truncation() -> None:
    # scopa-a-perdere: the match ends as it would, and the lowest total wins; cut off
    # after six hands, some matches have no winner yet (a side needs 21)
    env = MatchEnv(find_variant("scopa-a-perdere"), rewards="points", max_hands=6)
    counts = lockstep(env, MATCHES, seed=4)
    assert counts["won"] > 0
    assert counts["truncated"] > 0
    assert counts["won"] + counts["truncated"] == MATCHES
    assert counts["not_top"] == counts["won"]  # the lowest total, never the highest


def test_lockstep_a_match_won_outright_by_the_napoleone() -> None:
    # all ten denari win the match whatever the totals: about one hand in 400 in random
    # play, so that 300 matches of about four hands see a few
    env = MatchEnv(find_variant("napola"))
    counts = lockstep(env, MATCHES, seed=6)
    assert counts["won"] == MATCHES
    assert counts["outright"] >= 1


def test_lockstep_three_sides_the_countdown_and_the_trio() -> None:
    # three players each for self; the last hand counted down category by category; the
    # Ace, 2 and 3 of denari to one side win the match at once
    rules = attrs.evolve(
        find_variant("scopa-3"),
        tiebreak=Tiebreak.LAST_HAND_COUNTDOWN,
        scoring=find_variant("scopa-3").scoring.with_component(AssoDueTre()),
    )
    env = MatchEnv(rules, rewards="zero-sum")
    counts = lockstep(env, MATCHES, seed=7)
    assert counts["won"] == MATCHES
    assert counts["outright"] > 10
    assert counts["not_top"] > 0  # by the countdown, not by the totals


# ------------------------------------------------------------------ the API


def _played(env: MatchEnv, state: MatchState, plays: int, seed: int) -> MatchState:
    """The match after `plays` random legal plays."""
    key = jax.random.key(seed)
    for _ in range(plays):
        key, drawn = jax.random.split(key)
        state = env.step(state, env.random_action(state, drawn))
    return state


def _same(one: Any, other: Any) -> bool:
    """Whether two pytrees of arrays (keys among them) hold the same values."""

    def values(leaf: Any) -> np.ndarray:
        if jnp.issubdtype(leaf.dtype, jax.dtypes.prng_key):
            leaf = jax.random.key_data(leaf)
        return np.asarray(leaf)

    pairs = zip(jax.tree_util.tree_leaves(one), jax.tree_util.tree_leaves(other), strict=True)
    return all(np.array_equal(values(a), values(b)) for a, b in pairs)


def test_the_defaults_and_the_hands_dealt(classic: MatchEnv) -> None:
    # classic is played to 11: four times that many hands at most
    assert (classic.max_hands, classic.match_reward, classic.rewards) == (44, "win", "margin")
    assert (classic.num_players, classic.num_actions) == (2, 2560)
    assert classic.observation_size == classic.engine.observation_size + 2
    assert repr(classic).startswith("MatchEnv(")
    assert "max_hands=44" in repr(classic)
    key = jax.random.key(5)
    state = classic.init(key, dealer=1)
    assert _same(state, classic.init(key, dealer=1))
    assert not _same(state.hand, classic.init(jax.random.key(6), dealer=1).hand)
    assert int(state.hand._dealer) == 1
    assert int(state.current_player) == 0  # the player after the dealer leads
    assert state.totals.tolist() == [0, 0]
    assert (int(state.hands_played), int(state.winner)) == (0, -1)
    assert not bool(state.terminated | state.truncated | state.illegal_action)
    assert not state.rewards.any()
    # the totals follow the hand's observation, the observer's side first: 0 and 0
    assert state.observation.shape == (classic.observation_size,)
    assert state.observation[-2:].tolist() == [0.0, 0.0]


def test_the_shuffles_are_uniform() -> None:
    # 40,000 shuffles: each card lands in each place about 1,000 times (a standard
    # deviation of about 31), and each is a permutation
    orders = np.asarray(jax.jit(jax.vmap(_shuffle))(jax.random.split(jax.random.key(17), 40_000)))
    assert (np.sort(orders, axis=1) == np.arange(40)).all()
    counts = np.zeros((40, 40), int)  # [card, place]
    np.add.at(counts, (orders, np.arange(40)[None, :]), 1)
    assert counts.min() > 1000 - 160
    assert counts.max() < 1000 + 160
    chi2 = ((counts - 1000) ** 2 / 1000).sum()  # 1,521 degrees of freedom
    assert 1300 < chi2 < 1750


def test_an_illegal_action_changes_nothing(classic: MatchEnv) -> None:
    state = _played(classic, classic.init(jax.random.key(6)), 40, seed=7)  # in hand 2
    assert int(state.hands_played) == 1
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    for action in (illegal, -1, 2560, 2**32 + 5):
        after = classic.step(state, action)
        assert bool(after.illegal_action)
        assert bool(after.hand.illegal_action)
        hand = dataclasses.replace(after.hand, illegal_action=state.hand.illegal_action)
        kept = dataclasses.replace(after, illegal_action=state.illegal_action, hand=hand)
        assert _same(kept, state)
        with pytest.raises(IllegalMoveError, match="is not legal here"):
            classic.step_checked(state, action)
    legal = int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
    assert not bool(classic.step_checked(state, legal).illegal_action)


def test_once_the_match_is_over_nothing_is_legal(classic: MatchEnv) -> None:
    state = classic.init(jax.random.key(8))
    key = jax.random.key(9)
    while not bool(state.terminated):
        key, drawn = jax.random.split(key)
        state = classic.step(state, classic.random_action(state, drawn))
    assert state.rewards.tolist() in ([1.0, -1.0], [-1.0, 1.0])
    assert int(state.current_player) == -1
    assert not np.asarray(state.legal_action_mask).any()
    assert int(classic.random_action(state, key)) == 0
    after = classic.step(state, 0)
    assert bool(after.illegal_action)
    assert not after.rewards.any()
    assert _same(after.totals, state.totals)
    with pytest.raises(IllegalMoveError, match="the match is over"):
        classic.step_checked(state, 0)


def test_sample_action_and_move_facts_read_the_hand_in_progress(classic: MatchEnv) -> None:
    state = _played(classic, classic.init(jax.random.key(10)), 38, seed=11)
    assert int(state.hands_played) == 1
    ids, facts = classic.move_facts(state)
    wanted_ids, wanted_facts = classic.engine.move_facts(state.hand)
    assert np.array_equal(ids, wanted_ids)
    assert np.array_equal(facts, wanted_facts)
    logits = jnp.zeros(2560)
    for seed in range(20):
        drawn = int(classic.sample_action(state, logits, jax.random.key(seed)))
        assert bool(state.legal_action_mask[drawn])
    assert classic.position(state) == classic.engine.position(state.hand)


def test_resample_keeps_what_the_player_sees_and_deals_the_next_hands_anew(
    classic: MatchEnv,
) -> None:
    # at the last play of hand 1 nothing of the hand is hidden: the hand stays as it is,
    # and only the hands still to come change
    state = _played(classic, classic.init(jax.random.key(12)), 35, seed=13)
    again = classic.resample(state, jax.random.key(14))
    assert np.array_equal(again.observation, state.observation)
    assert np.array_equal(again.legal_action_mask, state.legal_action_mask)
    assert _same(again.hand, state.hand)
    last = int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
    dealt, redealt = classic.step(state, last), classic.step(again, last)
    assert int(dealt.hands_played) == int(redealt.hands_played) == 1
    assert _same(dealt.totals, redealt.totals)
    assert not np.array_equal(dealt.hand._deals, redealt.hand._deals)
    assert _same(classic.step(state, last), dealt)  # the same match deals the same hand
    # in the middle of a hand, what the player to move sees stays
    state = _played(classic, state, 5, seed=15)
    again = classic.resample(state, jax.random.key(16))
    assert np.array_equal(again.observation, state.observation)
    player = int(state.current_player)
    assert view(classic.position(again), player) == view(classic.position(state), player)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"match_reward": "money"}, InvalidArgumentError, "match_reward must be 'win' or 'stakes'"),
        ({"match_reward": 1}, TypeError, "match_reward"),
        ({"match_reward": "stakes"}, InvalidArgumentError, "classic has no stakes"),
        ({"rewards": "sum"}, InvalidArgumentError, "rewards must be 'margin', 'zero-sum' or"),
        ({"rewards": None}, TypeError, "rewards"),
        ({"max_hands": 0}, InvalidArgumentError, "max_hands must be from 1 to 4,000,000"),
        ({"max_hands": 4_000_001}, InvalidArgumentError, "max_hands must be from 1 to"),
        ({"max_hands": True}, TypeError, "max_hands must be an int or None"),
        ({"max_hands": 2.0}, TypeError, "max_hands must be an int or None"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        MatchEnv(find_variant("classic"), **options)


def test_rules_it_cannot_play_are_refused() -> None:
    with pytest.raises(TypeError, match="rules"):
        MatchEnv("classic")  # type: ignore[arg-type]

    @attrs.frozen
    class Pot:
        def settle(
            self,
            hand_points: Sequence[Sequence[int]],
            *,
            winner: int | None = None,
            abandonment: Abandonment | None = None,
            sides: int = 2,
        ) -> tuple[Fraction, ...]:
            return (Fraction(0),) * sides

    pot = attrs.evolve(find_variant("tretre"), stakes=Pot())
    with pytest.raises(RulesError, match="settles only brilli stakes"):
        MatchEnv(pot, match_reward="stakes")
    assert MatchEnv(pot).match_reward == "win"  # who won is paid under any stakes

    @attrs.frozen
    class MostAces:
        name: str = "assi"

        def score(self, hand: Captures) -> Any:
            return Scope().score(hand)

    own = Rules(scoring=ScoringRules.standard().with_component(MostAces()))
    with pytest.raises(RulesError, match="assi"):
        MatchEnv(own)
    # a claim ends a match on the points its side is sure of, which the batch engine does
    # not count: the hand engine plays a claim as the plain move
    with pytest.raises(RulesError, match="does not judge claims"):
        MatchEnv(Rules(claim_out=True))


def test_bad_players_and_actions_are_refused(classic: MatchEnv) -> None:
    with pytest.raises(InvalidArgumentError, match="dealer must be a player number"):
        classic.init(jax.random.key(0), dealer=2)
    state = classic.init(jax.random.key(0))
    with pytest.raises(InvalidArgumentError, match="player must be a player number"):
        classic.observe(state, -1)
    with pytest.raises(TypeError, match="integer compact id"):
        classic.step(state, 1.5)
    with pytest.raises(InvalidArgumentError, match="one action"):
        classic.step(state, np.array([1, 2]))
    with pytest.raises(TypeError, match="concrete action"):
        jax.jit(classic.step_checked)(state, 0)
    states = jax.vmap(classic.init)(jax.random.split(jax.random.key(0), 2))
    with pytest.raises(InvalidArgumentError, match="one match, not a batch"):
        classic.step_checked(states, 0)
    with pytest.raises(InvalidArgumentError, match="one state, not a batch"):
        classic.position(states)


def test_lockstep_a_misdeal_judged_among_the_cards_in_play() -> None:
    # twelve cards (Aces, 7s and Kings) and three Kings or more on the first table annul
    # a deal: about one deal in fifteen (33 tables of 495), which Match refuses to be
    # dealt; the table is read among the cards in play, not among the 40
    rules = Rules(
        ranks=(Rank.ASSO, Rank.SETTE, Rank.RE),
        hand_size=2,
        table_size=4,
        misdeal=MisdealRule.THREE_PLUS_KINGS,
        target=6,
    )
    counts = lockstep(MatchEnv(rules), MATCHES, seed=8)
    assert counts["won"] + counts["truncated"] == MATCHES


def test_lockstep_escoba_whose_first_table_may_sweep() -> None:
    # a first table of fifteen or thirty goes to the dealer as escobas at once
    counts = lockstep(MatchEnv(find_variant("escoba")), MATCHES // 3, seed=9)
    assert counts["won"] == MATCHES // 3
