"""`Env.sample_action` draws a legal id with the softmax of the logits over the legal ids.

The law is checked by counting: on a few positions (three cards of one or two ids each,
a ten-card hand, cards of dozens of ids each), many draws with fixed keys are compared with
the softmax probabilities, computed here in float64 from the logits and the mask, by
Pearson's chi-square at a threshold that a correct sampler passes with probability
1 - 1e-6 (and the keys are fixed, so a run repeats). Each position is chosen so that the
same counts fail against the law of a sampler that draws the right card but the wrong id
within it: the test can fail.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from scopa import Deck, GameState, find_variant
from scopa.cards import DECK, Card
from scopa.encoding import COMPACT_OPTIONS, legal_actions
from scopa.errors import InvalidArgumentError
from scopa.rules import Rules
from tests.helpers import chi_square, chi_square_critical

jax = pytest.importorskip("jax", reason="needs JAX, from the optional extra jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402  (installed with JAX)

from scopa.batch import Env, State  # noqa: E402

DRAWS = 400_000
Z_ONE_IN_A_MILLION = 4.75
"""The normal quantile of an upper tail of 1e-6, for `chi_square_critical`."""

BIG_TABLE: Rules = attrs.evolve(find_variant("classic"), name="big-table", table_size=10)
"""Classic with ten cards on the first table (and five deals): many sum captures."""


def _order(text: str) -> np.ndarray:
    """A deck order that starts with the cards of `text` (the rest in index order)."""
    first = [Card.parse(word).index for word in text.split()]
    return np.array(first + [i for i in range(40) if i not in first], np.int32)


def _draws(env: Env, state: State, logits: np.ndarray, seed: int, draws: int = DRAWS) -> Any:
    """`draws` ids drawn from one state and one set of logits, with fixed keys."""
    keys = jax.random.split(jax.random.key(seed), draws)
    sample = jax.jit(jax.vmap(env.sample_action, in_axes=(None, None, 0)))
    return np.asarray(sample(state, jnp.asarray(logits), keys))


def _softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The softmax of `logits` over the ids of `mask`, in float64 (0 elsewhere)."""
    shown = np.where(mask, logits.astype(np.float64), -np.inf)
    weights = np.exp(shown - shown.max())
    probabilities: np.ndarray = weights / weights.sum()
    return probabilities


def _within_card_uniform(probabilities: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A wrong law: each card as likely as it should be, its legal ids alike."""
    by_card = probabilities.reshape(40, COMPACT_OPTIONS).sum(axis=1, keepdims=True)
    legal = mask.reshape(40, COMPACT_OPTIONS)
    ids = np.maximum(legal.sum(axis=1, keepdims=True), 1)
    return np.where(legal, by_card / ids, 0.0).reshape(-1)


def _policy_logits(mask: np.ndarray, seed: int, minus_infinity: int) -> np.ndarray:
    """Logits from 0 to 3 at the legal ids, -inf at `minus_infinity` of them, and junk
    (1e30, +inf and NaN) at every id that is not legal."""
    rng = np.random.default_rng(seed)
    logits = rng.uniform(0.0, 3.0, mask.shape).astype(np.float32)
    junk = np.array([1e30, np.inf, np.nan], np.float32)
    logits[~mask] = junk[np.arange((~mask).sum()) % 3]
    legal = np.flatnonzero(mask)
    logits[rng.choice(legal, minus_infinity, replace=False)] = -np.inf
    return logits


def _check_law(
    counts: np.ndarray, probabilities: np.ndarray, wrong: np.ndarray | None = None
) -> None:
    """The counts follow `probabilities` (and not `wrong`); no id of probability 0 is drawn."""
    possible = probabilities > 0
    assert not counts[~possible].any(), np.flatnonzero(counts * ~possible).tolist()
    observed = counts[possible].tolist()
    critical = chi_square_critical(int(possible.sum()) - 1, Z_ONE_IN_A_MILLION)
    statistic = chi_square(observed, probabilities[possible].tolist())
    assert statistic < critical, (statistic, critical)
    if wrong is not None:
        assert chi_square(observed, wrong[possible].tolist()) > critical


def _position(rules: Rules, text: str) -> tuple[Env, State, np.ndarray]:
    """The environment, the first position of a deal that starts with `text`, and its
    legal ids as the scalar engine gives them (dealer 0)."""
    env = Env(rules)
    order = _order(text)
    state = env.deal(order, 0)
    game = GameState.new(rules, deck=Deck([DECK[i] for i in order]), dealer=0)
    mask = np.asarray(state.legal_action_mask)
    assert np.flatnonzero(mask).tolist() == legal_actions(game)
    return env, state, mask


# The leader holds 10D 7D 5S; the table 1-6C 1-4B. 5S takes 5C alone (one id); 7D and 10D
# take dozens of sums each.
MANY_SUMS = (BIG_TABLE, "10D 7D 5S 8D 9D 8S 1C 2C 3C 4C 5C 6C 1B 2B 3B 4B")
# The leader holds 10D 5D 7S, the table 1C 2C 3C 4C: 10D takes the four (one id), 5D takes
# 1C+4C or 2C+3C, 7S 3C+4C or 1C+2C+4C (two each), and a card that captures must.
FEW_SUMS = (find_variant("classic"), "10D 5D 7S 4D 6D 8D 1C 2C 3C 4C")


@pytest.mark.parametrize(("rules", "text"), [MANY_SUMS, FEW_SUMS], ids=["many", "few"])
def test_the_draws_follow_the_softmax_over_the_legal_ids(rules: Rules, text: str) -> None:
    env, state, mask = _position(rules, text)
    counts_per_card = np.asarray(state._counts)
    assert counts_per_card.max() >= 2
    logits = _policy_logits(mask, seed=1, minus_infinity=1)
    probabilities = _softmax(logits, mask)
    counts = np.bincount(_draws(env, state, logits, seed=2), minlength=env.num_actions)
    _check_law(counts, probabilities, _within_card_uniform(probabilities, mask))


def test_the_draws_follow_the_softmax_over_a_hand_of_ten_cards() -> None:
    # The first play of scopone scientifico: ten cards in hand, an empty table, one id each.
    env = Env(find_variant("scopone-scientifico"))
    state = env.init(jax.random.key(5))
    mask = np.asarray(state.legal_action_mask)
    assert mask.sum() == 10
    logits = _policy_logits(mask, seed=3, minus_infinity=2)
    probabilities = _softmax(logits, mask)
    counts = np.bincount(_draws(env, state, logits, seed=4), minlength=env.num_actions)
    _check_law(counts, probabilities)


def test_the_draws_follow_the_softmax_in_the_middle_of_scopone_hands() -> None:
    # Random hands of scopone scientifico, played to the play where some hand has the most
    # legal ids: several cards, some with more than one id.
    env = Env(find_variant("scopone-scientifico"))
    hands = 64
    states = jax.vmap(env.init)(jax.random.split(jax.random.key(6), hands))
    step = jax.jit(jax.vmap(env.step))
    draw = jax.jit(jax.vmap(env.random_action))
    found = []  # (legal ids, play, hand) of each play's hand with the most legal ids
    history = []
    for play in range(env.rules.plays_per_hand // 2):
        legal = np.asarray(states.legal_action_mask).sum(axis=1)
        found.append((int(legal.max()), play, int(legal.argmax())))
        history.append(states)
        states = step(states, draw(states, jax.random.split(jax.random.key(play), hands)))
    _, play, hand = max(found)
    best = jax.tree_util.tree_map(lambda x: x[hand], history[play])
    assert np.asarray(best._counts).max() >= 2
    mask = np.asarray(best.legal_action_mask)
    logits = _policy_logits(mask, seed=7, minus_infinity=2)
    probabilities = _softmax(logits, mask)
    counts = np.bincount(_draws(env, best, logits, seed=8), minlength=env.num_actions)
    _check_law(counts, probabilities, _within_card_uniform(probabilities, mask))


def test_the_draws_follow_the_softmax_with_fewer_cards_than_a_full_hand() -> None:
    # The leader holds 1D 5D 7S, the table 9C 2C 3C 10B; the leader lays 7S, the dealer 4D.
    # The leader is left with two cards, one of them card 0 (1D): one id each.
    env, state, _ = _position(find_variant("classic"), "1D 5D 7S 4D 6D 8D 9C 2C 3C 10B")
    state = env.step_checked(state, Card.parse("7S").index * COMPACT_OPTIONS)
    state = env.step_checked(state, Card.parse("4D").index * COMPACT_OPTIONS)
    mask = np.asarray(state.legal_action_mask)
    assert np.flatnonzero(mask).tolist() == [0, Card.parse("5D").index * COMPACT_OPTIONS]
    logits = np.where(mask, 0.0, np.nan).astype(np.float32)
    logits[0] = 1.0
    counts = np.bincount(_draws(env, state, logits, seed=18), minlength=env.num_actions)
    _check_law(counts, _softmax(logits, mask))


def test_with_every_legal_logit_minus_infinity_every_legal_id_is_alike() -> None:
    env, state, mask = _position(*MANY_SUMS)
    logits = np.where(mask, -np.inf, 5.0).astype(np.float32)
    counts = np.bincount(_draws(env, state, logits, seed=9), minlength=env.num_actions)
    _check_law(counts, mask / mask.sum())


def test_a_single_finite_legal_logit_is_always_drawn() -> None:
    env, state, mask = _position(*MANY_SUMS)
    chosen = int(np.flatnonzero(mask)[40])
    logits = np.where(mask, -np.inf, 100.0).astype(np.float32)
    logits[chosen] = -50.0
    assert set(_draws(env, state, logits, seed=10, draws=2_000).tolist()) == {chosen}


@pytest.mark.parametrize("bad", [np.inf, np.nan])
def test_an_infinite_or_nan_legal_logit_still_draws_legal_ids(bad: float) -> None:
    env, state, mask = _position(*MANY_SUMS)
    rng = np.random.default_rng(19)
    logits = rng.normal(size=env.num_actions).astype(np.float32)
    legal = np.flatnonzero(mask)
    logits[legal[[5, 50]]] = bad
    assert mask[_draws(env, state, logits, seed=20, draws=5_000)].all()


def test_logits_at_ids_that_are_not_legal_change_nothing() -> None:
    env, state, mask = _position(*MANY_SUMS)
    rng = np.random.default_rng(11)
    logits = rng.normal(size=env.num_actions).astype(np.float32)
    other = np.where(mask, logits, rng.normal(size=env.num_actions) * 1e6).astype(np.float32)
    other[~mask & (np.arange(env.num_actions) % 2 == 0)] = np.nan
    first = _draws(env, state, logits, seed=12, draws=5_000)
    assert np.array_equal(first, _draws(env, state, other, seed=12, draws=5_000))
    assert len(set(first.tolist())) > 10  # the draws vary with the key


def test_the_same_key_draws_the_same_id_and_the_draw_needs_no_jit() -> None:
    env, state, mask = _position(*FEW_SUMS)
    logits = jnp.zeros(env.num_actions)
    key = jax.random.key(13)
    action = env.sample_action(state, logits, key)
    assert action.dtype == jnp.int32
    assert mask[int(action)]
    assert int(action) == int(jax.jit(env.sample_action)(state, logits, key))
    # half-precision logits, as a network may give them, are accepted
    assert mask[int(env.sample_action(state, logits.astype(jnp.bfloat16), key))]


def test_once_the_hand_is_over_the_draw_is_zero() -> None:
    env = Env(find_variant("classic"))
    states = jax.vmap(env.init)(jax.random.split(jax.random.key(14), 32))
    step = jax.jit(jax.vmap(env.step))
    draw = jax.jit(jax.vmap(env.sample_action))
    logits = jax.random.normal(jax.random.key(15), (32, env.num_actions))
    for play in range(env.rules.plays_per_hand):
        actions = np.asarray(draw(states, logits, jax.random.split(jax.random.key(play), 32)))
        assert np.asarray(states.legal_action_mask)[np.arange(32), actions].all()
        states = step(states, actions)
    assert np.asarray(states.terminated).all()
    assert not np.asarray(draw(states, logits, jax.random.split(jax.random.key(99), 32))).any()


def test_an_annulled_deal_draws_zero() -> None:
    env = Env(find_variant("classic"))
    state = env.deal(_order("1D 2D 3D 4D 5D 6D 10C 10B 10S 1C"), 0)  # three kings on the table
    assert bool(state.misdeal)
    assert int(env.sample_action(state, jnp.zeros(env.num_actions), jax.random.key(0))) == 0


def test_a_whole_hand_of_draws_in_one_compiled_loop_is_legal() -> None:
    # As a learner's loop draws: a fused deal and hand, the plays drawn from given logits.
    env = Env(find_variant("scopone-scientifico"))
    hands = 16

    def run(key: Any, logits: Any) -> Any:
        states = jax.vmap(env.init)(jax.random.split(key, hands))

        def play(i: Any, carried: tuple[Any, Any]) -> tuple[Any, Any]:
            states, illegal = carried
            keys = jax.random.split(jax.random.fold_in(key, i), hands)
            states = jax.vmap(env.step)(states, jax.vmap(env.sample_action)(states, logits, keys))
            return states, illegal | states.illegal_action

        return jax.lax.fori_loop(
            0, env.rules.plays_per_hand, play, (states, jnp.zeros(hands, bool))
        )

    logits = jax.random.normal(jax.random.key(16), (hands, env.num_actions)) * 3
    states, illegal = jax.jit(run)(jax.random.key(17), logits)
    assert np.asarray(states.terminated).all()
    assert not np.asarray(illegal).any()


@pytest.mark.parametrize("shape", [(2559,), (4, 2560), ()])
def test_logits_of_the_wrong_shape_are_refused(shape: tuple[int, ...]) -> None:
    env, state, _ = _position(*FEW_SUMS)
    with pytest.raises(InvalidArgumentError, match=r"shape \(2560,\), not"):
        env.sample_action(state, jnp.zeros(shape), jax.random.key(0))
