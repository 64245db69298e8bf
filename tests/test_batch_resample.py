"""`Env.resample` draws what the player to move cannot see as `PlayerView.resample` does.

A resampled state keeps the view of the player to move (its scalar position has the same
view), and its deals, played again from the first card with the same moves on the scalar
engine, allow every move and end in the same view: it is a deal that
agrees with everything the player saw, the plays that show what a hand lacks included. On
small positions, whose agreeing deals the tests list and count by playing each one on the
scalar engine, the draws are uniform among them (a chi-square test at a level of one in a
million, with fixed keys).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from scopa import CompulsoryCapture, GameState, Move, Rules, find_variant, view
from scopa.encoding import legal_actions, move_of_action, observation
from scopa.errors import InvalidArgumentError, RulesError
from tests.helpers import chi_square, chi_square_critical

jax = pytest.importorskip("jax", reason="needs JAX, from the optional extra jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402  (installed with JAX)

from scopa.batch import Env, State  # noqa: E402
from tests.test_batch import _dealt, _order  # noqa: E402

ONE_IN_A_MILLION = 4.753  # the normal quantile of an upper tail of 1e-6

MUST_CAPTURE_2 = Rules(compulsory_capture=CompulsoryCapture.CAPTURING_CARD)
MUST_CAPTURE_3 = Rules(players=3, compulsory_capture=CompulsoryCapture.CAPTURING_CARD)
ACE_FIRST = Rules(ace_first_lead_forbidden=True)
BOTH = Rules(ace_first_lead_forbidden=True, compulsory_capture=CompulsoryCapture.CAPTURING_CARD)


def _one(states: State, i: int) -> State:
    return jax.tree_util.tree_map(lambda x: x[i], states)  # type: ignore[no-any-return]


def _copies(state: State, count: int) -> State:
    return jax.tree_util.tree_map(  # type: ignore[no-any-return]
        lambda x: jnp.broadcast_to(x, (count, *x.shape)), state
    )


def _order_of(env: Env, state: State, table: np.ndarray) -> np.ndarray:
    """The deck order that deals `state`'s deals: the first deal, the table, the others.

    The cards out of play (under rules of fewer cards) come last.
    """
    n = env.num_players
    leader = (int(state._dealer) + 1) % n
    deals = np.asarray(state._deals)
    blocks = [
        np.flatnonzero(deals[d, (leader + j) % n]) for d in range(len(deals)) for j in range(n)
    ]
    dealt = np.concatenate([*blocks[:n], table, *blocks[n:]])
    return np.concatenate([dealt, np.setdiff1d(np.arange(40), dealt)]).astype(np.int32)


def _replay(rules: Rules, order: np.ndarray, dealer: int, moves: list[Move]) -> GameState | None:
    """The scalar hand of `order` after `moves`, or None if one of them is not legal.

    Moves, not action ids: under declarations the id of a move depends on the declarations
    the hand allows, which a hand drawn again need not allow.
    """
    game = _dealt(rules, order, dealer)
    assert game is not None  # the table is the original one, which the rules accepted
    for move in moves:
        if move not in game.legal_moves():
            return None
        game = game.apply(move)
    return game


def _table_of(rules: Rules, order: np.ndarray) -> np.ndarray:
    """The first table dealt from a deck order: after the hands, among the cards in play."""
    in_play = np.array([card for card in order if rules.in_play_mask >> int(card) & 1])
    first = rules.players * rules.hand_size
    return in_play[first : first + rules.table_size]


# ------------------------------------------------------------------ the view and the plays


CASES = [
    find_variant("classic"),
    find_variant("scopa-3"),
    find_variant("asso-piglia-tutto-4"),  # four players, ace_first_lead_forbidden
    MUST_CAPTURE_3,
    BOTH,
    find_variant("escoba"),  # captures to fifteen, a first table that sweeps
    find_variant("cirulla"),  # declarations: the cards a declaration showed stay
    Rules(ranks=tuple(range(1, 8)), suits=(0, 1, 3), table_size=3),  # 21 cards in play
]


@pytest.mark.parametrize("rules", CASES, ids=range(len(CASES)))
def test_a_resampled_state_keeps_the_view_and_agrees_with_every_play(rules: Rules) -> None:
    env = Env(rules)
    hands = 6
    rng = np.random.default_rng(len(repr(rules)))
    orders = np.argsort(rng.random((hands, 40)), axis=1).astype(np.int32)
    dealers = rng.integers(0, rules.players, hands, dtype=np.int32)
    states = jax.vmap(env.deal)(orders, dealers)
    games = [
        _dealt(rules, order, int(dealer)) for order, dealer in zip(orders, dealers, strict=True)
    ]
    history: list[list[Move]] = [[] for _ in range(hands)]
    resample = jax.jit(jax.vmap(env.resample))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.key(len(rules.name))
    changed = told = shown = 0
    for _ in range(rules.plays_per_hand):
        key, now = jax.random.split(key)
        drawn = resample(states, jax.random.split(now, hands))
        assert np.array_equal(drawn.observation, states.observation)
        assert np.array_equal(drawn.legal_action_mask, states.legal_action_mask)
        told += int(np.asarray(states._lacks).any())
        shown += int(np.asarray(states._revealed).any())
        actions = np.zeros(hands, np.int32)
        for i, game in enumerate(games):
            if game is None or game.is_terminal:
                continue
            player = game.current_player
            original, one = _one(states, i), _one(drawn, i)
            assert view(env.position(one), player) == view(env.position(original), player)
            replayed = _replay(
                rules, _order_of(env, one, _table_of(rules, orders[i])), int(dealers[i]), history[i]
            )
            assert replayed is not None, f"hand {i}: a play the resampled deal does not allow"
            assert view(replayed, player) == view(game, player)
            assert replayed.to_text() == env.position(one).to_text()
            changed += not np.array_equal(np.asarray(one._deals), np.asarray(original._deals))
            actions[i] = random.Random(len(history[i]) + i).choice(legal_actions(game))
            history[i].append(move_of_action(game, int(actions[i])))
            games[i] = game.apply(history[i][-1])
        states = step(states, jnp.asarray(actions))
    assert changed > rules.plays_per_hand  # the hidden cards move
    if rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD:
        assert told > 0  # some play showed what a hand lacks
    assert (shown > 0) == rules.declarations  # a declaration showed cards, which stayed


def test_a_finished_hand_and_an_annulled_deal_are_returned_as_they_are() -> None:
    env = Env(find_variant("classic"))
    state = env.init(jax.random.key(0))
    while not bool(state.terminated):
        state = env.step(state, env.random_action(state, jax.random.key(1)))
    again = env.resample(state, jax.random.key(2))
    leaves = zip(jax.tree_util.tree_leaves(state), jax.tree_util.tree_leaves(again), strict=True)
    for before, after in leaves:
        assert np.array_equal(before, after)
    annulled = env.deal(_order("1D 2D 3D 4D 5D 6D 10D 10C 10S 7B"), 0)
    again = env.resample(annulled, jax.random.key(3))
    assert np.array_equal(again._deals, annulled._deals)


def test_rules_too_large_to_count_are_refused() -> None:
    rules = Rules(
        players=10,
        hand_size=4,
        table_size=0,
        compulsory_capture=CompulsoryCapture.CAPTURING_CARD,
    )
    env = Env(rules)
    state = env.init(jax.random.key(0))
    with pytest.raises(RulesError, match="resample cannot count the deals of 10 players"):
        env.resample(state, jax.random.key(1))
    Env(Rules(players=10, hand_size=4, table_size=0)).resample(state, jax.random.key(1))


# ------------------------------------------------------------------ uniform draws


Position = tuple[Env, State, GameState, np.ndarray, list[Move]]
_ENVS: dict[Rules, Env] = {}


def _position(rules: Rules, plays: int, seed: int) -> Position:
    """A hand after `plays` random plays: the state, the scalar hand, the order, the plays."""
    env = _ENVS.setdefault(rules, Env(rules))  # one environment, compiled once
    rng = np.random.default_rng(seed)
    while True:
        order = np.argsort(rng.random(40)).astype(np.int32)
        game = _dealt(rules, order, 0)
        if game is not None:
            break
    state = env.deal(order, 0)
    played: list[Move] = []
    for _ in range(plays):
        action = int(rng.choice(legal_actions(game)))
        played.append(move_of_action(game, action))
        game = game.apply(played[-1])
        state = env.step(state, action)
    return env, state, game, order, played


def _outcome(env: Env, state: Any, hidden: list[int], dealt: int, stock: bool) -> bytes:
    """What a draw decided: the hidden hands, and with `stock` the deals to come."""
    parts = [np.asarray(state._hands)[..., hidden, :].reshape(-1)]
    if stock:
        parts.append(np.asarray(state._deals)[..., dealt:, :, :].reshape(-1))
    return np.packbits(np.concatenate(parts)).tobytes()


def _candidates(
    env: Env, state: State, hidden: list[int], stock: bool
) -> Iterator[tuple[bytes, State]]:
    """Every way to deal the unseen cards to the hidden hands (and the deals to come)."""
    hands = np.asarray(state._hands)
    viewer = int(state.current_player)
    seen = hands[viewer] | np.asarray(state._table) | np.asarray(state._piles).any(axis=0)
    unseen = [int(c) for c in np.flatnonzero(~seen)]
    sizes = [int(hands[p].sum()) for p in hidden]
    dealt = int(state._dealt)
    n, h = env.num_players, env.rules.hand_size
    blocks = [(d, p) for d in range(dealt, env.rules.deals_per_hand) for p in range(n)]

    def deal_out(cards: list[int], counts: list[int]) -> Iterator[list[tuple[int, ...]]]:
        if not counts:
            yield []
            return
        for chosen in itertools.combinations(cards, counts[0]):
            rest = [c for c in cards if c not in chosen]
            for more in deal_out(rest, counts[1:]):
                yield [chosen, *more]

    for held in deal_out(unseen, sizes):
        rest = [c for c in unseen if all(c not in hand for hand in held)]
        arrangements = deal_out(rest, [h] * len(blocks))
        if not stock:  # one arrangement of the stock stands for all
            arrangements = iter([next(arrangements)])
        for arranged in arrangements:
            new_hands = hands.copy()
            for p, hand in zip(hidden, held, strict=True):
                new_hands[p] = False
                new_hands[p, list(hand)] = True
            deals = np.asarray(state._deals).copy()
            current = dealt - 1
            deals[current] = (deals[current] & ~hands) | new_hands
            for (d, p), block in zip(blocks, arranged, strict=True):
                deals[d, p] = False
                deals[d, p, list(block)] = True
            candidate = State(
                **{
                    **{f: getattr(state, f) for f in State.__dataclass_fields__},
                    "_hands": jnp.asarray(new_hands),
                    "_deals": jnp.asarray(deals),
                }
            )
            yield _outcome(env, candidate, hidden, dealt, stock), candidate


def _agreeing(
    env: Env, state: State, game: GameState, order: np.ndarray, played: list[Move], stock: bool
) -> tuple[set[bytes], int]:
    """The deals that agree with the plays (each played again on the scalar engine), and all."""
    viewer = game.current_player
    hidden = [p for p in range(env.num_players) if p != viewer]
    table = _table_of(env.rules, order)
    agreeing = set()
    total = 0
    for outcome, candidate in _candidates(env, state, hidden, stock):
        total += 1
        replayed = _replay(env.rules, _order_of(env, candidate, table), 0, played)
        if replayed is not None and view(replayed, viewer) == view(game, viewer):
            agreeing.add(outcome)
    return agreeing, total


def _draw(env: Env, state: State, count: int, seed: int, stock: bool) -> Counter[bytes]:
    viewer = int(state.current_player)
    hidden = [p for p in range(env.num_players) if p != viewer]
    dealt = int(state._dealt)
    found: Counter[bytes] = Counter()
    resample = jax.jit(jax.vmap(env.resample))
    for chunk in range(0, count, 10_000):
        size = min(10_000, count - chunk)
        keys = jax.random.split(jax.random.fold_in(jax.random.key(seed), chunk), size)
        drawn = resample(_copies(state, size), keys)
        hands = np.asarray(drawn._hands)
        deals = np.asarray(drawn._deals)
        for i in range(size):
            parts = [hands[i, hidden].reshape(-1)]
            if stock:
                parts.append(deals[i, dealt:].reshape(-1))
            found[np.packbits(np.concatenate(parts)).tobytes()] += 1
    return found


def _assert_uniform(found: Counter[bytes], agreeing: set[bytes]) -> None:
    assert set(found) <= agreeing, "a draw that disagrees with the plays"
    assert set(found) == agreeing, "a deal that agrees is never drawn"
    ordered = sorted(agreeing)
    statistic = chi_square([found[o] for o in ordered], [1 / len(ordered)] * len(ordered))
    assert statistic < chi_square_critical(len(ordered) - 1, ONE_IN_A_MILLION), statistic


def test_near_the_end_of_a_hand_of_classic_every_deal_is_as_likely() -> None:
    # the fifth deal of six after four plays: the leader to move holds one card, the dealer
    # one, and the last deal's six cards wait in the stock: 7 x 20 deals, all agreeing
    env, state, game, order, played = _position(find_variant("classic"), 28, seed=1)
    assert int(state._dealt) == 5
    agreeing, total = _agreeing(env, state, game, order, played, stock=True)
    assert len(agreeing) == total == 7 * 20
    _assert_uniform(_draw(env, state, 200 * total, seed=2, stock=True), agreeing)


def _told_position(rules: Rules, plays: int, fewer: float) -> tuple[Any, ...]:
    """The first seed's position whose plays leave at most `fewer` of the hidden hands.

    Each other player's plays of the deal must show a rank they lack that is unseen.
    """
    for seed in range(200):
        env, state, game, order, played = _position(rules, plays, seed)
        viewer = game.current_player
        unseen = ~(
            np.asarray(state._hands)[viewer]
            | np.asarray(state._table)
            | np.asarray(state._piles).any(axis=0)
        )
        unseen_ranks = unseen.reshape(4, 10).any(axis=0)
        lacks = np.asarray(state._lacks)
        others = [p for p in range(rules.players) if p != viewer]
        if not all((lacks[p] & unseen_ranks).any() for p in others):
            continue
        agreeing, total = _agreeing(env, state, game, order, played, stock=False)
        if len(agreeing) <= fewer * total:
            return env, state, game, order, played, agreeing, total
    raise AssertionError("no position found")  # pragma: no cover


def _hand_of(outcome: bytes) -> frozenset[int]:
    """The cards of the one hidden hand of a hands-only outcome."""
    bits = np.unpackbits(np.frombuffer(outcome, np.uint8))[:40]
    return frozenset(np.flatnonzero(bits).tolist())


def test_a_card_laid_down_shows_a_hand_without_captures_and_the_draw_stays_uniform() -> None:
    # must_play_capturing_card_if_any, two players: the dealer laid a card down in this
    # deal, so the card left in their hand captures nothing the table then offered
    env, state, game, order, played, hands, total = _told_position(MUST_CAPTURE_2, 28, 0.7)
    assert total == 7
    agreeing, total = _agreeing(env, state, game, order, played, stock=True)
    assert len(agreeing) == len(hands) * 20
    _assert_uniform(_draw(env, state, 200 * len(agreeing), seed=3, stock=True), agreeing)
    # the scalar engine's resample draws among the same hands
    viewer = game.current_player
    seen = view(game, viewer)
    scalar = {
        frozenset(card.index for card in seen.resample(random.Random(k)).hands[1 - viewer])
        for k in range(300)
    }
    assert scalar == {_hand_of(outcome) for outcome in hands}


def test_with_three_players_the_hands_that_plays_limit_are_drawn_uniformly() -> None:
    # must_play_capturing_card_if_any, three players: after the first round of the third
    # deal of four, both other players have laid cards down; their two-card hands are
    # drawn among the pairs that agree, every pair as likely (the stock is alike for all)
    env, state, game, _, _, agreeing, total = _told_position(MUST_CAPTURE_3, 21, 0.8)
    assert total == 78 * 55
    lacking = np.asarray(state._lacks)
    assert lacking[[p for p in range(3) if p != game.current_player]].any(axis=1).all()
    _assert_uniform(_draw(env, state, 12 * len(agreeing), seed=4, stock=False), agreeing)


def test_an_ace_led_first_shows_a_hand_of_aces() -> None:
    # the leader holds three Aces and must lead one: the dealer, to move, knows the
    # leader's other two cards are Aces, two of the three left unseen
    rules = ACE_FIRST
    env = Env(rules)
    order = _order("1D 1C 1S 5D 6D 7D 2C 3C 4C 8C")
    game = _dealt(rules, order, 0)
    assert game is not None
    state = env.deal(order, 0)
    action = legal_actions(game)[0]
    assert action // 64 in (0, 10, 20)
    game = game.apply(move_of_action(game, action))
    state = env.step(state, action)
    found = _draw(env, state, 3000, seed=5, stock=False)
    aces = {c for c in (0, 10, 20, 30) if c != action // 64}
    assert {_hand_of(outcome) for outcome in found} == {
        frozenset(pair) for pair in itertools.combinations(aces, 2)
    }
    statistic = chi_square(list(found.values()), [1 / 3] * 3)
    assert statistic < chi_square_critical(2, ONE_IN_A_MILLION)
    seen = view(game, 0)
    scalar = {
        frozenset(c.index for c in seen.resample(random.Random(k)).hands[1]) for k in range(100)
    }
    assert scalar == {_hand_of(outcome) for outcome in found}


# ------------------------------------------------------------------ observe and position


def _in_blocks(game: GameState) -> tuple[Any, ...]:
    """A position, its stock read as the hands it will deal (each a set of cards)."""
    size = game.rules.hand_size
    stock = game.stock
    blocks = tuple(frozenset(stock[i : i + size]) for i in range(0, len(stock), size))
    fields = game.to_text().split()
    return (*fields[:2], *fields[3:], blocks)


@pytest.mark.parametrize(
    "name", ["classic", "scopa-3", "scopone-scientifico", "escoba", "cirulla", "scopa-mini"]
)
def test_observe_and_position_match_the_scalar_engine(name: str) -> None:
    rules = find_variant(name)
    env = Env(rules)
    observe = jax.jit(env.observe)
    rng = np.random.default_rng(7)
    order = np.argsort(rng.random(40)).astype(np.int32)
    game = _dealt(rules, order, 1)
    assert game is not None
    state = env.deal(order, 1)
    while True:
        assert _in_blocks(env.position(state)) == _in_blocks(game)
        for player in range(rules.players):
            wanted = np.array(observation(view(game, player)), np.float32)
            assert np.array_equal(observe(state, player), wanted)
        if game.is_terminal:
            break
        action = int(rng.choice(legal_actions(game)))
        game = game.apply(move_of_action(game, action))
        state = env.step(state, action)
    players = jnp.arange(rules.players)
    batch = _copies(state, rules.players)
    seen = jax.vmap(env.observe)(batch, players)
    assert seen.shape == (rules.players, env.observation_size)


def test_observe_and_position_refuse_bad_input() -> None:
    env = Env(find_variant("classic"))
    state = env.init(jax.random.key(0))
    with pytest.raises(InvalidArgumentError, match="player must be a player number from 0 to 1"):
        env.observe(state, 2)
    with pytest.raises(InvalidArgumentError, match="player must be"):
        env.observe(state, -1)
    batch = _copies(state, 2)
    with pytest.raises(InvalidArgumentError, match="one state, not a batch"):
        env.position(batch)
    annulled = env.deal(_order("1D 2D 3D 4D 5D 6D 10D 10C 10S 7B"), 0)
    assert not np.asarray(env.observe(annulled, 1)).any()
    assert env.position(annulled).table_mask.bit_count() == 4
