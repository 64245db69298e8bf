"""The batch engine on JAX plays exactly as the scalar engine, and refuses bad input.

The lockstep tests deal the same deck orders to both engines, play the same random legal
actions, and compare at every step the player to move, the action mask and the
observation, and at the end the rewards and the points of each scoring category, for every
preset and for mixes of knobs. `SCOPA_BATCH_HANDS=100000 python -m pytest
tests/test_batch.py -k lockstep` plays more hands per preset (the default is 2,000 for
`classic`, `tretre` and `scopone-scientifico`, half as many for every other preset).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import random
import subprocess
import sys
from typing import Any

import attrs
import pytest

from scopa import Deck, GameState, _batch_knobs, find_variant, scoring, variant_names, view
from scopa.adapters import hand_returns
from scopa.cards import DECK, Card
from scopa.encoding import (
    FACT_CHOICES,
    action_mask,
    legal_actions,
    move_facts,
    move_of_action,
    observation,
)
from scopa.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError, RulesError
from scopa.rules import (
    AceOnAce,
    CapturePriority,
    CompulsoryCapture,
    FirstTable,
    Leftovers,
    MisdealRule,
    Rules,
)
from scopa.scoring import (
    AssoDueTre,
    Captures,
    CardPoints,
    Carte,
    Declarations,
    Denari,
    Grande,
    MissingSuit,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    ReBello,
    Scope,
    ScoringRules,
    Settebello,
)
from tests.helpers import ROOT

jax = pytest.importorskip("jax", reason="needs JAX, from the optional extra jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402  (installed with JAX)

from scopa.batch import Env, State, _score  # noqa: E402

HANDS = int(os.environ.get("SCOPA_BATCH_HANDS", "2000"))
CHUNK = 2000  # hands played together (one compiled shape)


def _dealt(rules: Rules, order: np.ndarray, dealer: int) -> GameState | None:
    """The scalar engine's hand of a deck order, or None when it refuses the deal."""
    try:
        return GameState.new(rules, deck=Deck([DECK[i] for i in order]), dealer=dealer)
    except InvalidStateError:
        return None


def _array(values: Any) -> np.ndarray:
    return np.asarray(values)


def _side_points(game: GameState) -> list[float]:
    points = game.hand_score().points
    sides = game.rules.number_of_sides
    return [float(points[player % sides]) for player in range(game.rules.players)]


def _where(hand: int, game: GameState) -> str:
    return f"hand {hand}, position {game.to_text()!r}"


def _check_misdeal(states: State, i: int) -> None:
    assert bool(states.misdeal[i])
    assert bool(states.terminated[i])
    assert int(states.current_player[i]) == -1
    assert not _array(states.legal_action_mask[i]).any()
    assert not _array(states.rewards[i]).any()
    assert not _array(states.observation[i]).any()


def _paid(game: GameState, rewards: str) -> list[float]:
    """What a finished hand pays each player under the engine's `rewards` option."""
    if rewards == "points":
        return _side_points(game)
    if rewards == "margin":
        return list(hand_returns(game))
    # zero-sum: the side's points less the mean of the others', more being better
    points = game.hand_score().points
    sides = len(points)
    sign = -1 if game.rules.lowest_total_wins else 1
    by_side = [sign * (own - (sum(points) - own) / (sides - 1)) for own in points]
    return [by_side[player % sides] for player in range(game.rules.players)]


@dataclasses.dataclass(frozen=True)
class Engine:
    """An environment and its functions on a batch, compiled once for every test."""

    env: Env
    deal: Any
    step: Any
    hand_score: Any


_ENGINES: dict[tuple[Rules, str], Engine] = {}


def engine(rules: Rules, paying: str = "points") -> Engine:
    """The engine of `rules` paying `paying`, shared by the tests that play them."""
    key = (rules, paying)
    if key not in _ENGINES:
        env = Env(rules, rewards=paying)  # type: ignore[arg-type]
        _ENGINES[key] = Engine(
            env,
            jax.jit(jax.vmap(env.deal)),
            jax.jit(jax.vmap(env.step)),
            jax.jit(jax.vmap(env.hand_score)),
        )
    return _ENGINES[key]


def _check_scores(
    scores: tuple[np.ndarray, np.ndarray], i: int, hand: int, game: GameState
) -> None:
    """The batch engine's score of row `i` (hand number `hand`) is the scalar one, by category."""
    points, winner = scores
    expected = game.hand_score()
    by_category = [list(category.points) for category in expected]
    assert points[i].tolist() == by_category, _where(hand, game)
    outright = next((c.wins_match for c in expected if c.wins_match is not None), None)
    assert int(winner[i]) == (-1 if outright is None else outright), _where(hand, game)


def lockstep(rules: Rules, hands: int, seed: int, paying: str = "points") -> dict[str, int]:
    """Play `hands` random hands on both engines in lockstep; fail at the first difference.

    Returns how many hands were played, how many deals were annulled, and how many plays
    declared or claimed.
    """
    played = annulled = declared = claimed = 0
    compiled = engine(rules, paying)
    env = compiled.env
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    for start in range(0, hands, CHUNK):
        size = min(CHUNK, hands - start)
        orders = np.argsort(rng.random((size, 40)), axis=1).astype(np.int32)
        dealers = rng.integers(0, rules.players, size, dtype=np.int32)
        states = compiled.deal(orders, dealers)
        games = [_dealt(rules, orders[i], int(dealers[i])) for i in range(size)]
        for i, game in enumerate(games):
            if game is None:
                _check_misdeal(states, i)
                annulled += 1
            else:
                assert not bool(states.misdeal[i])
        while any(game is not None and not game.is_terminal for game in games):
            to_move = _array(states.current_player)
            masks = _array(states.legal_action_mask)
            seen_all = _array(states.observation)
            actions = np.zeros(size, np.int32)  # hands over: an illegal action, no rewards
            for i, game in enumerate(games):
                if game is None or game.is_terminal:
                    continue
                seen = view(game)
                assert to_move[i] == game.current_player, _where(start + i, game)
                expected = np.frombuffer(action_mask(seen), np.int8).astype(bool)
                assert np.array_equal(masks[i], expected), _where(start + i, game)
                wanted = np.array(observation(seen), np.float32)
                assert np.array_equal(seen_all[i], wanted), _where(start + i, game)
                actions[i] = pick.choice(legal_actions(seen))
            claims = _array(env.is_claim(actions))
            states = compiled.step(states, actions)
            illegal = _array(states.illegal_action)
            ended = _array(states.terminated)
            to_move = _array(states.current_player)
            masks = _array(states.legal_action_mask)
            rewards = _array(states.rewards)
            seen_all = _array(states.observation)
            for i, game in enumerate(games):
                if game is None or game.is_terminal:
                    continue
                assert not illegal[i]
                move = move_of_action(game, int(actions[i]))
                assert claims[i] == move.claim, _where(start + i, game)
                declared += move.declaration is not None
                claimed += move.claim
                game = games[i] = game.apply(move)
                assert ended[i] == game.is_terminal, _where(start + i, game)
                if game.is_terminal:
                    assert to_move[i] == -1
                    assert not masks[i].any()
                    paid = _paid(game, paying)
                    assert rewards[i].tolist() == pytest.approx(paid), _where(start + i, game)
                    last = np.array(observation(view(game, game.dealer)), np.float32)
                    assert np.array_equal(seen_all[i], last), _where(start + i, game)
                    played += 1
                else:
                    assert not rewards[i].any()
        scores = tuple(_array(part) for part in compiled.hand_score(states))
        for i, game in enumerate(games):
            if game is not None:
                _check_scores(scores, i, start + i, game)  # type: ignore[arg-type]
    return {"played": played, "annulled": annulled, "declared": declared, "claimed": claimed}


MAIN = ["classic", "tretre", "scopone-scientifico"]
"""The presets played most: `SCOPA_BATCH_HANDS` hands each (2,000 by default); every other
preset half as many."""


@pytest.mark.parametrize("name", variant_names())
def test_lockstep_of_every_preset(name: str) -> None:
    rules = find_variant(name)
    hands = HANDS if name in MAIN else HANDS // 2
    result = lockstep(rules, hands, seed=sum(map(ord, name)))
    assert result["played"] + result["annulled"] == hands
    assert result["played"] > 0.9 * hands
    # a declaration was played wherever the rules have them
    assert (result["declared"] > 0) == rules.declarations


@pytest.mark.parametrize("rewards", ["margin", "zero-sum"])
@pytest.mark.parametrize(
    "name", ["classic", "scopa-a-perdere", "scopa-3", "scopone-scientifico", "scopa-6"]
)
def test_lockstep_rewards_of_the_hand(name: str, rewards: str) -> None:
    # margin: hand_returns, as the other adapters pay; zero-sum: less the others' mean
    result = lockstep(find_variant(name), 100, seed=len(name), paying=rewards)
    assert result["played"] > 0


def test_rewards_by_hand() -> None:
    # scopa-3: three sides each for self, as the scoring of scopa-3 gives them
    env = Env(find_variant("scopa-3"), rewards="margin")
    owners = np.repeat([0, 1, 1, 2], 10)  # denari; coppe and spade; bastoni
    piles = jnp.asarray(owners[None, :] == np.arange(3)[:, None])
    scope = jnp.asarray([0, 0, 2], jnp.int32)
    none = jnp.zeros(0, jnp.int32)  # no declarations
    # points: 0 the denari and the settebello, 2; 1 the most cards (20), 1; 2 two scope, 2;
    # nobody holds all four suits, so nobody takes the primiera
    assert np.asarray(env._rewards(piles, scope, none)).tolist() == [0.0, -1.0, 0.0]
    zero_sum = Env(find_variant("scopa-3"), rewards="zero-sum")
    assert np.asarray(zero_sum._rewards(piles, scope, none)).tolist() == [0.5, -1.0, 0.5]
    points = Env(find_variant("scopa-3"))._rewards(piles, scope, none)
    assert np.asarray(points).tolist() == [2, 1, 2]
    # scopa-a-perdere: the fewest points win; two sides
    rules = find_variant("scopa-a-perdere")
    piles = jnp.asarray(np.repeat([0, 1, 1, 1], 10)[None, :] == np.arange(2)[:, None])
    scope = jnp.zeros(2, jnp.int32)
    points = np.asarray(Env(rules)._rewards(piles, scope, none)).tolist()
    margin = np.asarray(Env(rules, rewards="margin")._rewards(piles, scope, none))
    assert margin.tolist() == [points[1] - points[0], points[0] - points[1]]
    assert points[0] > points[1]  # player 0 took the denari and the settebello: worse
    assert margin[0] < 0


def test_the_rewards_option_is_checked() -> None:
    rules = find_variant("classic")
    with pytest.raises(InvalidArgumentError, match="rewards must be 'points', 'margin' or"):
        Env(rules, rewards="margins")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rewards"):
        Env(rules, rewards=1)  # type: ignore[arg-type]
    assert repr(Env(rules, rewards="zero-sum")).endswith(", rewards='zero-sum')")
    assert Env(rules).rewards == "points"


MATTA = Card.parse("7C")
MIXES = [
    Rules(compulsory_capture=CompulsoryCapture.CAPTURING_CARD, scopa_on_last_play=True),
    Rules(
        capture_by_rank=False,
        capture_priority=CapturePriority.FREE,
        leftovers=Leftovers.NOBODY,
        misdeal=MisdealRule.CIRULLA,
    ),
    Rules(
        players=3,
        capture_by_sum=False,
        capture_priority=CapturePriority.MIN_CARDS,
        ace_on_empty_table_captures_itself=True,
    ),
    Rules(
        ace_captures_all=True,
        ace_with_ace_on_table=AceOnAce.CAPTURE_NORMALLY,
        ace_sweep_is_scopa=False,
        ace_on_empty_table_captures_itself=True,
        compulsory_capture=CompulsoryCapture.CAPTURING_CARD,
    ),
    Rules(
        players=4,
        sides=2,
        hand_size=9,
        capture_priority=CapturePriority.MIN_CARDS,
        ace_captures_all=True,
        ace_first_lead_forbidden=True,
        compulsory_capture=CompulsoryCapture.NONE,
    ),
    Rules(players=4, hand_size=9, capture_priority=CapturePriority.FREE, scopa_on_last_play=True),
    Rules(players=3, leftovers=Leftovers.DEALER, compulsory_capture=CompulsoryCapture.NONE),
    # fifteens beside sums of the fewest cards, Aces that sweep, a first table of two
    # groups swept by the eldest hand, a matta, claims, and a capture compulsory by hand
    Rules(
        capture_to_fifteen=True,
        capture_priority=CapturePriority.MIN_CARDS,
        ace_captures_all=True,
        first_table=FirstTable.TWO_GROUPS,
        first_table_to_eldest=True,
        matta=MATTA,
        claim_out=True,
        compulsory_capture=CompulsoryCapture.CAPTURING_CARD,
        misdeal=MisdealRule.NONE,
    ),
    # declarations for four in pairs with claims, any capture, no sums, the first lead
    # rule, leftovers to nobody
    Rules(
        players=4,
        sides=2,
        declarations=True,
        matta=Card.parse("1D"),
        first_table=FirstTable.TOTAL,
        claim_out=True,
        capture_by_sum=False,
        capture_to_fifteen=True,
        capture_priority=CapturePriority.FREE,
        ace_first_lead_forbidden=True,
        leftovers=Leftovers.NOBODY,
        scoring=ScoringRules.standard().with_component(Declarations()),
    ),
    # 21 cards for three: ranks 1 to 7 of three suits, two cards a deal, fifteens, a
    # first table that sweeps
    Rules(
        players=3,
        ranks=tuple(range(1, 8)),
        suits=(0, 1, 3),
        hand_size=2,
        table_size=3,
        capture_to_fifteen=True,
        first_table=FirstTable.TOTAL,
        misdeal=MisdealRule.NONE,
    ),
]


@pytest.mark.parametrize("rules", MIXES, ids=range(len(MIXES)))
def test_lockstep_of_other_knobs(rules: Rules) -> None:
    result = lockstep(rules, HANDS // 4, seed=len(repr(rules)))
    assert result["played"] > 0
    assert (result["claimed"] > 0) == rules.claim_out
    assert (result["declared"] > 0) == rules.declarations


# ------------------------------------------------------------------ the environment


@pytest.fixture(scope="module")
def classic() -> Env:
    return Env(find_variant("classic"))


@pytest.fixture(scope="module")
def step(classic: Env) -> Any:
    return jax.jit(classic.step)


def _order(text: str) -> np.ndarray:
    """A deck order that starts with the cards of `text` (the rest in index order)."""
    first = [Card.parse(word).index for word in text.split()]
    return np.array(first + [i for i in range(40) if i not in first], np.int32)


def _game_fields(state: State) -> dict[str, np.ndarray]:
    return {
        field.name: np.asarray(getattr(state, field.name))
        for field in dataclasses.fields(state)
        if field.name not in ("illegal_action", "rewards")
    }


def test_sizes(classic: Env) -> None:
    from scopa.encoding import action_count, observation_size

    for name in ("classic", "scopone-scientifico", "scopa-6"):
        env = Env(find_variant(name))
        rules = env.rules
        assert (env.num_players, env.num_actions) == (rules.players, action_count(rules))
        assert env.observation_size == observation_size(rules)
        state = env.deal(np.arange(40, dtype=np.int32))
        assert state.legal_action_mask.shape == (2560,)
        assert state.observation.shape == (env.observation_size,)
        assert state.rewards.shape == (rules.players,)
    assert "classic" in repr(classic)


def test_an_illegal_action_inside_jit_changes_nothing_and_is_flagged(
    classic: Env, step: Any
) -> None:
    # 1D 2D 3D to the leader (player 1), 4D 5D 6D to the dealer, then the table
    state = classic.deal(_order("1D 2D 3D 4D 5D 6D 7C 8C 9C 10C"), 0)
    assert int(state.current_player) == 1
    mask = np.asarray(state.legal_action_mask)
    # 4D is the dealer's: not playable by player 1; 1D has one move (laid), so choice 1 is out
    for action in (3 * 64, 0 * 64 + 1, -1, 2560, 10**6):
        assert action < 0 or action >= 2560 or not mask[action]
        after = step(state, action)
        assert bool(after.illegal_action)
        assert not np.asarray(after.rewards).any()
        for name, value in _game_fields(state).items():
            assert np.array_equal(_game_fields(after)[name], value), name
    played = step(after, 0)  # 1D laid on the table, the flag cleared
    assert not bool(played.illegal_action)
    assert int(played.current_player) == 0
    assert bool(np.asarray(played._table)[0])


def test_an_illegal_action_in_a_batch_leaves_the_other_hands_playing(classic: Env) -> None:
    states = jax.vmap(classic.init)(jax.random.split(jax.random.key(5), 4))
    first = np.argmax(np.asarray(states.legal_action_mask), axis=1).astype(np.int32)
    actions = first.copy()
    actions[2] = 2559  # 10B, choice 63: never legal in a first position
    after = jax.jit(jax.vmap(classic.step))(states, actions)
    assert np.asarray(after.illegal_action).tolist() == [False, False, True, False]
    assert np.asarray(after.current_player)[2] == np.asarray(states.current_player)[2]
    assert (
        np.asarray(after.current_player)[[0, 1, 3]] != np.asarray(states.current_player)[[0, 1, 3]]
    ).all()


def test_step_checked_raises_on_an_illegal_action(classic: Env) -> None:
    state = classic.deal(_order("1D 2D 3D 4D 5D 6D 7C 8C 9C 10C"), 0)
    with pytest.raises(IllegalMoveError, match="action 192 is not legal"):
        classic.step_checked(state, 3 * 64)
    with pytest.raises(IllegalMoveError):
        classic.step_checked(state, 2560)
    after = classic.step_checked(state, 0)
    assert int(after.current_player) == 0
    assert not bool(after.illegal_action)
    while not bool(after.terminated):
        after = classic.step_checked(after, int(np.argmax(np.asarray(after.legal_action_mask))))
    with pytest.raises(IllegalMoveError, match="the hand is over"):
        classic.step_checked(after, 0)
    assert bool(classic.step(after, 0).illegal_action)
    batch = jax.vmap(classic.init)(jax.random.split(jax.random.key(1), 2))
    with pytest.raises(InvalidArgumentError, match="not a batch"):
        classic.step_checked(batch, 0)


def _unchanged(before: State, after: State) -> bool:
    return bool(after.illegal_action) and all(
        np.array_equal(_game_fields(after)[name], value)
        for name, value in _game_fields(before).items()
    )


def test_an_id_out_of_range_is_judged_whole_not_cut_to_32_bits(classic: Env, step: Any) -> None:
    # Player 1 holds 1D 2D 3D: id 0 (1D laid) is legal; each id below is 0 modulo 2**32.
    state = classic.deal(_order("1D 2D 3D 4D 5D 6D 7C 8C 9C 10C"), 0)
    assert not bool(classic.step(state, np.int64(0)).illegal_action)
    for action in (np.int64(2**32), np.uint64(2**32), np.int64(-(2**32)), 2**32, -(2**32), 2**70):
        assert _unchanged(state, classic.step(state, action)), action
    # 2**32 - 1 is -1 in 32 bits: out of range either way, and JAX keeps uint32 under jit
    assert _unchanged(state, step(state, np.uint32(2**32 - 1)))


def test_a_non_integer_action_is_refused(classic: Env, step: Any) -> None:
    state = classic.deal(_order("1D 2D 3D 4D 5D 6D 7C 8C 9C 10C"), 0)
    for action in (0.7, 0.0, np.float64(0), "0", True, np.bool_(False), None, jnp.float32(0)):
        with pytest.raises(TypeError, match="an action must be an integer compact id"):
            classic.step(state, action)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not float32"):  # under jit the type still shows
        step(state, 0.7)
    with pytest.raises(InvalidArgumentError, match="one action, not an array of shape"):
        classic.step(state, np.array([0]))


def test_step_checked_refuses_what_is_not_a_legal_integer_id(classic: Env) -> None:
    state = classic.deal(_order("1D 2D 3D 4D 5D 6D 7C 8C 9C 10C"), 0)
    action: Any
    for action in ("192", "abc", 0.5, 192.0, math.nan, math.inf, True, None):
        with pytest.raises(TypeError, match="an action must be an integer compact id"):
            classic.step_checked(state, action)
    for action in (2**70, np.int64(2**32), np.uint64(2**32), -(2**32)):
        with pytest.raises(IllegalMoveError, match="is not legal here"):
            classic.step_checked(state, action)
    for action in (np.int16(0), np.uint8(0), np.array(0), jnp.asarray(0)):  # integers all
        assert int(classic.step_checked(state, action).current_player) == 0
    with pytest.raises(TypeError, match="not a traced one"):
        jax.jit(lambda action: classic.step_checked(state, action))(0)


def test_deal_checks_a_concrete_order_and_dealer(classic: Env) -> None:
    with pytest.raises(InvalidStateError, match="each card index 0 to 39 once"):
        classic.deal(np.zeros(40, np.int32))
    with pytest.raises(InvalidStateError, match="each card index 0 to 39 once"):
        classic.deal(np.arange(39, dtype=np.int32))
    with pytest.raises(InvalidStateError):
        classic.deal(np.arange(1, 41, dtype=np.int32))
    with pytest.raises(InvalidArgumentError, match="dealer must be a player number from 0 to 1"):
        classic.deal(np.arange(40, dtype=np.int32), 2)
    with pytest.raises(InvalidArgumentError, match="dealer must be"):
        classic.deal(np.arange(40, dtype=np.int32), 0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="dealer must be"):
        classic.init(jax.random.key(0), -1)
    with pytest.raises(TypeError):
        Env("classic")  # type: ignore[arg-type]


def test_a_deal_the_misdeal_rule_annuls() -> None:
    # three Kings among the four table cards: the scalar engine refuses the deck
    rules = find_variant("classic")
    order = _order("1D 2D 3D 4D 5D 6D 10D 10C 10S 7B")
    assert _dealt(rules, order, 0) is None
    state = Env(rules).deal(order, 0)
    assert bool(state.misdeal)
    assert bool(state.terminated)
    assert int(state.current_player) == -1
    assert not np.asarray(state.legal_action_mask).any()
    assert not np.asarray(state.rewards).any()
    assert not np.asarray(state.observation).any()
    # four of a kind annuls a tretre deal, not a classic one
    four = _order("1D 2D 3D 4D 5D 6D 7D 7C 7S 7B")
    assert bool(Env(find_variant("tretre")).deal(four).misdeal)
    assert not bool(Env(rules).deal(four).misdeal)


def test_init_deals_only_what_the_misdeal_rule_accepts() -> None:
    # sixteen cards on the table: three Kings or more among them about a quarter of the time
    rules = Rules(table_size=16)
    env = Env(rules)
    init = jax.jit(jax.vmap(env.init, in_axes=(0, None)))
    states = init(jax.random.split(jax.random.key(2), 2000), 1)
    assert not np.asarray(states.misdeal).any()
    tables = np.asarray(states._table)
    kings = tables[:, [9, 19, 29, 39]].sum(axis=1)
    assert (kings < 3).all()
    assert (kings == 2).any()
    hands = np.asarray(states._deals)  # [hand, deal, player, card]
    cards = hands.sum(axis=(1, 2)) + tables
    assert (cards == 1).all()  # every card dealt once: to a hand or to the table
    assert (tables.sum(axis=1) == 16).all()
    assert (np.asarray(states.current_player) == 0).all()  # the player after dealer 1


def test_init_of_fewer_cards_deals_only_what_the_misdeal_rule_accepts() -> None:
    # twelve cards, Aces, sevens and Kings: three Kings or more among the four on the table
    # (4 * 8 + 1) / comb(12, 4) = 1 time in 15, which the rule must judge among the cards
    # in play, not among the first cards of the 40
    rules = Rules(ranks=(1, 7, 10), hand_size=2)
    env = Env(rules)
    init = jax.jit(jax.vmap(env.init, in_axes=(0, None)))
    states = init(jax.random.split(jax.random.key(4), 2000), 0)
    assert not np.asarray(states.misdeal).any()
    tables = np.asarray(states._table)
    kings = tables[:, [9, 19, 29, 39]].sum(axis=1)
    assert (kings < 3).all()
    assert (kings == 2).any()
    cards = np.asarray(states._deals).sum(axis=(1, 2)) + tables
    in_play = np.isin(np.arange(40) % 10 + 1, (1, 7, 10))  # by card index
    assert (cards == in_play).all()  # every card in play dealt once, no other


def test_init_is_reproducible_and_varies_with_the_key(classic: Env) -> None:
    keys = jax.random.split(jax.random.key(3), 2)
    one, two = jax.vmap(classic.init)(keys), jax.vmap(classic.init)(keys)
    assert np.array_equal(np.asarray(one._deals), np.asarray(two._deals))
    assert not np.array_equal(np.asarray(one._deals[0]), np.asarray(one._deals[1]))


# ------------------------------------------------------------------ the rules it plays


def test_a_knob_it_does_not_know_is_played_only_at_its_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # as a knob added to Rules later would be
    known = {knob: role for knob, role in _batch_knobs.KNOWN.items() if knob != "target"}
    monkeypatch.setattr("scopa._batch_knobs.KNOWN", known)
    Env(find_variant("classic"))  # target=11, the default
    with pytest.raises(RulesError, match=r"does not know the knob target=21 .* default, target=11"):
        Env(find_variant("scopa-a-perdere"))


def test_every_preset_is_played() -> None:
    for name in variant_names():
        assert Env(find_variant(name)).rules.name == name


def test_a_scoring_component_of_your_own_is_refused_saying_what_to_do() -> None:
    @attrs.frozen
    class MostAces:
        name: str = "assi"

        def score(self, hand: Captures) -> Any:
            return Scope().score(hand)

    rules = Rules(scoring=ScoringRules.standard().with_component(MostAces()))
    with pytest.raises(RulesError, match="does not score the component 'assi' \\(MostAces\\)") as e:
        Env(rules)
    assert "scalar engine" in str(e.value)
    assert "scopa/batch/_score.py" in str(e.value)


# ------------------------------------------------------------------ scoring


SCORED = [
    Scope(value=3),
    Carte(),
    Carte(threshold=21),
    Denari(),
    Denari(threshold=6),
    Settebello(),
    ReBello(),
    Primiera(),
    Primiera(PrimieraTable.TRETRE, MissingSuit.ZERO),
    Primiera(PrimieraTable.ZERO_FIGURES),
    Primiera(rule=PrimieraRule.BEST_CARDS),
    Primiera(rule=PrimieraRule.BEST_CARDS, missing_suit=MissingSuit.ZERO),
    Primiera(PrimieraTable.ZERO_FIGURES, MissingSuit.ZERO, PrimieraRule.BEST_CARDS),
    Primiera(rule=PrimieraRule.MOST_SEVENS_CASCADE),
    Primiera(rule=PrimieraRule.SETTANTA_3_SEVENS),
    Primiera(rule=PrimieraRule.MOST_SEVENS, all_sevens=1),
    Primiera(all_sevens=2),
    Napola(),
    Napola(most=5, napoleone_wins_match=True),
    Grande(),
    Grande(extends=False),
    AssoDueTre(),
    AssoDueTre(trio_wins_match=False),
    Ponino(),
    CardPoints(),
    CardPoints(ranks=(7,), value=2),
    Declarations(),
]
"""Every scoring component of the library, some of them under several settings."""


def test_every_component_of_the_library_is_scored() -> None:
    # the registry's components: each has its JAX scoring, tried here
    assert {type(component) for component in SCORED} == set(scoring.COMPONENTS)
    assert set(_score._SCORERS) == set(scoring.COMPONENTS)


def _owners(hands: int, players: int, seed: int) -> np.ndarray:
    """Each card to a player, or left on the table (-1), in `hands` random hands.

    The denari, the sevens and the Cavalli go more often to player 0, so that runs and sets
    occur.
    """
    rng = np.random.default_rng(seed)
    owners = rng.integers(-1, players, (hands, 40))
    favoured = rng.random((hands, 40)) < 0.5
    for cards in (slice(0, 10), slice(6, 40, 10), slice(8, 40, 10)):
        owners[:, cards] = np.where(favoured[:, cards], 0, owners[:, cards])
    return owners


@pytest.mark.parametrize(("players", "sides"), [(2, None), (3, None), (4, 2)])
@pytest.mark.parametrize("component", SCORED, ids=repr)
def test_scoring_matches_the_scalar_scoring(
    component: Any, players: int, sides: int | None
) -> None:
    declarations = isinstance(component, Declarations)
    rules = Rules(
        players=players,
        sides=sides,
        declarations=declarations,
        scoring=ScoringRules((component,)),
    )
    env = Env(rules)
    hands = 400
    owners = _owners(hands, players, players)
    piles = owners[:, None, :] == np.arange(players)[None, :, None]
    rng = np.random.default_rng(players + 1)
    scope = rng.integers(0, 4, (hands, players)).astype(np.int32)
    declared = rng.choice([0, 3, 10, 13], (hands, players)).astype(np.int32)
    if not declarations:
        declared = np.zeros((hands, 0), np.int32)

    def both(piles: Any, scope: Any, declared: Any) -> Any:
        taken = env._taken_by_sides(piles, scope, declared)
        return env._rewards(piles, scope, declared), _score.score(rules.scoring.components, taken)

    scored = jax.jit(jax.vmap(both))(piles, scope, declared)
    rewards, points, winners = (np.asarray(part) for part in jax.tree_util.tree_leaves(scored))
    number = rules.number_of_sides
    for i in range(hands):
        mine = [[p for p in range(players) if p % number == s] for s in range(number)]
        side_piles = tuple(
            frozenset(DECK[c] for c in range(40) if owners[i, c] in mine[s]) for s in range(number)
        )
        side_scope = tuple(int(scope[i, mine[s]].sum()) for s in range(number))
        side_declared = tuple(
            int(declared[i, mine[s]].sum()) if declarations else 0 for s in range(number)
        )
        score = rules.scoring.score(Captures(side_piles, side_scope, side_declared))
        total = score.points
        assert rewards[i].tolist() == [float(total[p % number]) for p in range(players)], i
        assert points[i].tolist() == [list(category.points) for category in score], i
        outright = score.categories[0].wins_match
        assert int(winners[i]) == (-1 if outright is None else outright), i


@pytest.mark.parametrize(
    "component", [Primiera(), Primiera(rule=PrimieraRule.BEST_CARDS)], ids=repr
)
def test_primiera_needs_the_suits_in_play(component: Primiera) -> None:
    # three suits in play: a side holding all three, and none of bastoni, may win
    rules = Rules(suits=(0, 1, 2), table_size=0, scoring=ScoringRules((component,)))
    env = Env(rules)
    in_play = np.array([card // 10 < 3 for card in range(40)])
    owners = np.where(in_play, _owners(400, 2, 9), -1)
    piles = owners[:, None, :] == np.arange(2)[None, :, None]
    scope = np.zeros((400, 2), np.int32)
    got = np.asarray(jax.jit(jax.vmap(env._rewards))(piles, scope, np.zeros((400, 0), np.int32)))
    won = 0
    for i in range(400):
        side_piles = tuple(
            frozenset(DECK[c] for c in range(40) if owners[i, c] == s) for s in range(2)
        )
        points = rules.scoring.score(Captures(side_piles, (0, 0), suits=rules.suits)).points
        assert got[i].tolist() == [float(p) for p in points], i
        won += sum(points)
    assert won > 100


# ------------------------------------------------------------------ imports


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_the_capture_tables_equal_a_plain_enumeration() -> None:
    from scopa.batch import _tables

    # Every tuple of counts of ranks 1 to 9, each from 0 to 4 and to what fits in the rank,
    # in increasing order, kept when it adds up to the rank with two cards or more.
    plain: list[list[tuple[int, ...]]] = [[], []]
    for rank in range(2, 11):
        ranges = [range(min(4, rank // value) + 1) for value in range(1, 10)]
        plain.append(
            [
                counts
                for counts in itertools.product(*ranges)
                if sum(value * m for value, m in enumerate(counts, 1)) == rank and sum(counts) >= 2
            ]
        )
    assert plain == _tables._PATTERNS
    # By hand: the partitions of r (2, 3, 5, 7, 11, 15, 22, 30, 42 for r = 2 to 10) less the
    # one of a single card and those with a part five times or more (1 at 5 and 6, 2 at 7,
    # 3 at 8, 5 at 9, 8 at 10).
    assert [len(plain[rank]) for rank in range(2, 11)] == [1, 2, 4, 5, 9, 12, 18, 24, 33]
    built = _tables.SUPPORT_RANKS, _tables.SUPPORT_COUNTS, _tables.SUPPORT_SIZES
    for table, expected in zip(built, _tables._by_support(plain), strict=True):
        assert table.dtype == expected.dtype == np.int32
        assert np.array_equal(table, expected)
    # To fifteen: the tuples of counts of ranks 1 to 10 adding up to 15 less the played
    # rank, with one card or more.
    fifteens: list[list[tuple[int, ...]]] = [[]]
    for rank in range(1, 11):
        total = 15 - rank
        ranges = [range(min(4, total // value) + 1) for value in range(1, 11)]
        fifteens.append(
            [
                counts
                for counts in itertools.product(*ranges)
                if sum(value * m for value, m in enumerate(counts, 1)) == total
            ]
        )
    assert fifteens == _tables._FIFTEEN_PATTERNS
    # By hand: the partitions of 5, 6 and 7 (7, 11, 15) less those with a part five times
    # or more (1, 1, 2), for the played ranks 10, 9 and 8.
    assert [len(fifteens[rank]) for rank in (10, 9, 8)] == [6, 10, 13]
    built = _tables.FIFTEEN_RANKS, _tables.FIFTEEN_COUNTS, _tables.FIFTEEN_SIZES
    for table, expected in zip(built, _tables._by_support(fifteens), strict=True):
        assert np.array_equal(table, expected)


def test_building_the_capture_tables_at_import_takes_little_work() -> None:
    # Work counted in lines of `_tables.py` run (about 40,000), not in time: listing the
    # 5**9 tuples of counts of each rank would run over 100 million.
    done = _run(
        "import sys\n"
        "import jax\n"
        "lines = 0\n"
        "def local(frame, event, arg):\n"
        "    global lines\n"
        "    lines += event == 'line'\n"
        "    if lines > 200_000:\n"
        "        raise RuntimeError('the tables take more than 200,000 lines to build')\n"
        "    return local\n"
        "def calls(frame, event, arg):\n"
        "    return local if frame.f_code.co_filename.endswith('_tables.py') else None\n"
        "sys.settrace(calls)\n"
        "import scopa.batch\n"
        "sys.settrace(None)\n"
        "assert 'scopa.batch._tables' in sys.modules and lines > 0, lines\n"
    )
    assert done.returncode == 0, done.stderr


def test_importing_scopa_does_not_import_jax() -> None:
    done = _run(
        "import sys, scopa, scopa.encoding, scopa.adapters\n"
        "assert 'jax' not in sys.modules, 'jax imported'\n"
        "assert 'scopa.batch' not in sys.modules\n"
    )
    assert done.returncode == 0, done.stderr


def test_without_jax_the_import_says_how_to_install_it() -> None:
    done = _run("import sys\nsys.modules['jax'] = None\nimport scopa.batch\n")
    assert done.returncode == 1
    assert '"jax" installs: pip install' in done.stderr
    assert "ImportError" in done.stderr


def test_a_program_with_64_bit_jax_gets_the_same_32_bit_state() -> None:
    code = (
        "import jax, numpy as np\n"
        "from scopa import find_variant\n"
        "from scopa.batch import Env\n"
        "env = Env(find_variant('classic'))\n"
        "state = env.init(jax.random.key(0))\n"
        "while not bool(state.terminated):\n"
        "    state = env.step_checked(state, int(np.argmax(state.legal_action_mask)))\n"
        "assert state.current_player.dtype == np.int32, state.current_player.dtype\n"
        "assert state.observation.dtype == state.rewards.dtype == np.float32\n"
        "assert float(state.rewards.sum()) > 0\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={**os.environ, "JAX_ENABLE_X64": "1"},
    )
    assert done.returncode == 0, done.stderr


def test_a_program_with_64_bit_jax_has_every_id_judged_whole() -> None:
    # With 64-bit integers, jit and vmap pass int64 ids as they are: 2**32 stays out of range.
    code = (
        "import jax, numpy as np\n"
        "from scopa import find_variant\n"
        "from scopa.batch import Env\n"
        "env = Env(find_variant('classic'))\n"
        "state = env.init(jax.random.key(0))\n"
        "legal = int(np.argmax(state.legal_action_mask))\n"
        "wide = np.int64(2**32 + legal)\n"
        "assert not bool(env.step(state, np.int64(legal)).illegal_action)\n"
        "assert bool(env.step(state, wide).illegal_action)\n"
        "assert bool(jax.jit(env.step)(state, wide).illegal_action)\n"
        "assert bool(jax.jit(env.step)(state, jax.numpy.asarray(wide)).illegal_action)\n"
        "states = jax.vmap(env.init)(jax.random.split(jax.random.key(1), 2))\n"
        "firsts = np.argmax(np.asarray(states.legal_action_mask), axis=1).astype(np.int64)\n"
        "after = jax.jit(jax.vmap(env.step))(states, firsts + np.array([0, 2**32]))\n"
        "assert np.asarray(after.illegal_action).tolist() == [False, True]\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={**os.environ, "JAX_ENABLE_X64": "1"},
    )
    assert done.returncode == 0, done.stderr


def test_random_action_draws_every_legal_id_alike(classic: Env) -> None:
    # The leader holds 10D 5D 7S, the table 1C 2C 3C 4C: 10D takes the four (one id), 5D
    # takes 1C+4C or 2C+3C, 7S 3C+4C or 1C+2C+4C (two each), and a card that captures must.
    order = _order("10D 5D 7S 4D 6D 8D 1C 2C 3C 4C")
    state = classic.deal(order, 0)
    game = GameState.new(classic.rules, deck=Deck([DECK[i] for i in order]), dealer=0)
    legal = legal_actions(game)
    assert len(legal) == 5
    draws = 25_000
    keys = jax.random.split(jax.random.key(11), draws)
    states = jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (draws, *x.shape)), state)
    actions = np.asarray(jax.jit(jax.vmap(classic.random_action))(states, keys))
    found, counts = np.unique(actions, return_counts=True)
    assert found.tolist() == legal
    # each id 1/5 of the draws: 5,000, with a standard deviation of about 63
    assert np.all(np.abs(counts - draws / 5) < 6 * 63), counts.tolist()


def test_random_action_is_legal_all_through_a_hand_and_zero_at_the_end() -> None:
    env = Env(find_variant("scopone-scientifico"))
    states = jax.vmap(env.init)(jax.random.split(jax.random.key(3), 64))
    draw = jax.jit(jax.vmap(env.random_action))
    play = jax.jit(jax.vmap(env.step))
    key = jax.random.key(4)
    for _ in range(env.rules.plays_per_hand):
        key, now = jax.random.split(key)
        actions = draw(states, jax.random.split(now, 64))
        masks = np.asarray(states.legal_action_mask)
        assert masks[np.arange(64), np.asarray(actions)].all()
        states = play(states, actions)
    assert np.asarray(states.terminated).all()
    assert not np.asarray(draw(states, jax.random.split(key, 64))).any()


FACTS = [
    *map(find_variant, ["classic", "scopone-scientifico", "escoba", "cirulla", "scopa-mini"]),
    MIXES[6],  # claims
    MIXES[7],  # declarations and claims
]


@pytest.mark.parametrize("rules", FACTS, ids=[*(r.name for r in FACTS[:5]), "claims", "declaring"])
def test_move_facts_match_the_scalar_facts(rules: Rules) -> None:
    # Random hands in lockstep: at every step each slot holds a legal id with the scalar
    # facts of its move, and every legal id among the first FACT_CHOICES of its card has a
    # slot.
    compiled = engine(rules)
    env, play = compiled.env, compiled.step
    facts_of = jax.jit(jax.vmap(env.move_facts))
    hands = 8
    rng = np.random.default_rng(5)
    orders = np.array([rng.permutation(40) for _ in range(hands)], np.int32)
    games = [_dealt(rules, order, 0) for order in orders]
    states = compiled.deal(jnp.asarray(orders), jnp.zeros(hands, jnp.int32))
    for _ in range(rules.plays_per_hand):
        ids, facts = (np.asarray(part) for part in facts_of(states))
        actions = []
        for i, game in enumerate(games):
            if game is None or game.is_terminal:
                actions.append(0)
                continue
            seen = view(game)
            slots = {int(a): facts[i, k] for k, a in enumerate(ids[i]) if a >= 0}
            wanted = [a for a in legal_actions(game) if a % 64 < FACT_CHOICES]
            assert sorted(slots) == wanted
            for action, values in slots.items():
                expected = move_facts(seen, move_of_action(seen, action))
                np.testing.assert_allclose(values, expected, rtol=1e-6)
            assert not facts[i, ids[i] < 0].any()
            action = int(rng.choice(legal_actions(game)))
            actions.append(action)
            games[i] = game.apply(move_of_action(seen, action))
        states = play(states, jnp.asarray(actions, jnp.int32))
