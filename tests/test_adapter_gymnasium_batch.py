"""The Gymnasium vector environment over the batch engine, checked against the scalar engine."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

gymnasium = pytest.importorskip("gymnasium", reason='needs gymnasium, from the extra "gymnasium"')
jax = pytest.importorskip("jax", reason='needs jax, from the extra "jax"')

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from scopa import (  # noqa: E402
    Deck,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    Rules,
    RulesError,
    ScoringRules,
    find_variant,
    view,
)
from scopa.adapters import hand_returns  # noqa: E402
from scopa.adapters.gymnasium import ScopaGymEnv  # noqa: E402
from scopa.adapters.gymnasium_batch import (  # noqa: E402
    ENV_ID,
    ScopaVectorEnv,
    random_legal_actions,
)
from scopa.encoding import (  # noqa: E402
    ObservationLayout,
    action_mask,
    move_of_action,
    observation,
)
from scopa.scoring import Captures, CategoryScore  # noqa: E402


@attrs.frozen
class _OddCards:
    """A scoring component of one's own: a point per odd card taken."""

    name: str = "odd"

    def score(self, hand: Captures) -> CategoryScore:
        return CategoryScore(self.name, tuple(sum(c.rank % 2 for c in pile) for pile in hand.piles))


def decks_of(variant: str, count: int, start: int = 0) -> list[Deck]:
    """`count` shuffled decks whose first table the rules accept."""
    rules = find_variant(variant)
    found: list[Deck] = []
    seed = start
    while len(found) < count:
        deck = Deck.shuffled(seed)
        seed += 1
        try:
            GameState.new(rules, deck=deck)
        except InvalidStateError:
            continue
        found.append(deck)
    return found


def orders_of(decks: list[Deck]) -> list[list[int]]:
    """The card indices of each deck, in order."""
    return [[card.index for card in deck] for deck in decks]


def seen_policy(observations: Any, masks: Any) -> Any:
    """A deterministic opponent that reads its observation: the count of the hand and table
    cards it sees picks among the legal ids."""
    seen = (observations[:, :80] > 0.5).sum(axis=1)
    weights = (jnp.arange(masks.shape[1])[None, :] * (1 + seen[:, None])) % 97
    return jnp.argmax(jnp.where(masks, weights, -1), axis=1)


def opponent_choice(state: GameState) -> int:
    """What `seen_policy` plays in a scalar position."""
    player = state.current_player
    assert player is not None
    seen = np.array(observation(view(state, player)), dtype=np.float32)[None]
    mask = np.frombuffer(action_mask(state), dtype=np.int8).astype(bool)[None]
    return int(seen_policy(seen, mask)[0])


def play_others(state: GameState, seat: int) -> GameState:
    """The scalar position after the opponent's turns, up to `seat`'s turn or the end."""
    while not state.is_terminal and state.current_player != seat:
        state = state.apply(move_of_action(state, opponent_choice(state)))
    return state


# Each configuration compiles its own functions (seconds each): a few cover the cases.
@pytest.mark.parametrize(
    ("variant", "seat", "dealer"),
    [
        ("classic", 1, 0),
        ("scopone-scientifico", None, 3),  # partners
        ("scopa-3", None, 2),  # three sides
        ("scopa-a-perdere", None, 1),  # the lowest total wins
        ("cirulla", None, 1),  # declarations: the cards shown and the points declared
    ],
)
def test_every_step_is_the_scalar_engines(variant: str, seat: int | None, dealer: int) -> None:
    rules = find_variant(variant)
    decks = decks_of(variant, 6, start=dealer)
    env = ScopaVectorEnv(len(decks), variant, seen_policy, seat, dealer=dealer)
    obs, info = env.reset(seed=1, options={"orders": np.array(orders_of(decks))})
    seats = env.seats.tolist()
    assert set(info) == {"seat", "_seat"}
    assert info["seat"].tolist() == seats
    assert info["_seat"].all()
    if seat is None:
        assert len(set(seats)) > 1
    states = [
        play_others(GameState.new(rules, deck=deck, dealer=dealer), seat)
        for deck, seat in zip(decks, seats, strict=True)
    ]
    rng = np.random.default_rng(len(variant))
    layout = ObservationLayout.of(rules.players, rules.declarations)
    learner_plays = rules.plays_per_hand // rules.players
    for step in range(learner_plays):
        actions = []
        for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
            assert state.current_player == seat
            mask = np.frombuffer(action_mask(state), dtype=np.int8)
            assert np.array_equal(obs["action_mask"][i], mask)
            expected = np.array(observation(view(state, seat)), dtype=np.float32)
            assert np.array_equal(obs["observation"][i], expected)
            actions.append(int(rng.choice(np.flatnonzero(mask))))
        obs, rewards, terminated, truncated, info = env.step(np.array(actions))
        assert env.observation_space.contains(obs)
        assert not truncated.any()
        assert "illegal_action" not in info
        assert "opponent_illegal_action" not in info
        states = [
            play_others(state.apply(move_of_action(state, action)), seat)
            for state, action, seat in zip(states, actions, seats, strict=True)
        ]
        over = step == learner_plays - 1
        assert terminated.tolist() == [over] * len(states)
        assert [state.is_terminal for state in states] == [over] * len(states)
    for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
        assert rewards[i] == hand_returns(state)[seat]
        assert tuple(info["points"][i]) == state.hand_score().points
        final = np.array(observation(view(state, seat)), dtype=np.float32)
        assert np.array_equal(obs["observation"][i], final)
        assert obs["observation"][i][layout.to_move].sum() == 0
    assert info["_points"].all()
    assert not obs["action_mask"].any()
    if rules.declarations:  # some hand was declared, and its points turned to each seat's view
        assert obs["observation"][:, layout.declared].any()


def test_random_legal_actions_are_uniform_over_the_legal_ids() -> None:
    masks = np.zeros((3, 2560), bool)
    masks[0, [5, 64, 70, 2559]] = True
    masks[1, 130] = True  # row 2 has no legal id
    keys = jax.random.split(jax.random.key(0), 2000)
    draws = np.array(jax.vmap(lambda key: random_legal_actions(jnp.asarray(masks), key))(keys))
    assert draws.dtype == np.int32
    assert set(draws[:, 1].tolist()) == {130}
    assert set(draws[:, 2].tolist()) == {0}
    ids, counts = np.unique(draws[:, 0], return_counts=True)
    assert ids.tolist() == [5, 64, 70, 2559]
    # 500 expected of each, with a standard deviation of about 19
    assert all(400 < count < 600 for count in counts)


def test_spaces_are_the_scalar_environments() -> None:
    env = ScopaVectorEnv(5, "scopa-4")
    scalar = ScopaGymEnv("scopa-4")
    single = env.single_observation_space
    for name in ("observation", "action_mask"):
        assert single[name] == scalar.observation_space[name]
        assert env.observation_space[name].shape == (5, *(single[name].shape or ()))
    assert env.single_action_space == scalar.action_space
    assert env.action_space == gymnasium.spaces.MultiDiscrete([2560] * 5)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.num_envs == 5
    assert env.opponent == "random"


def play(env: ScopaVectorEnv, seed: int, steps: int) -> list[Any]:
    """Random legal steps from a seeded reset: everything the environment returned."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: list[Any] = [obs]
    for _ in range(steps):
        # a finished hand has no legal action: any action does
        legal = [np.flatnonzero(row) if row.any() else [0] for row in obs["action_mask"]]
        actions = [int(rng.choice(ids)) for ids in legal]
        obs, rewards, terminated, _, info = env.step(np.array(actions))
        seen += [obs, rewards, terminated, sorted(info)]
    return seen


def same(first: list[Any], second: list[Any]) -> bool:
    for a, b in zip(first, second, strict=True):
        if isinstance(a, dict):
            if not all(np.array_equal(a[k], b[k]) for k in a):
                return False
        elif not np.array_equal(a, b):
            return False
    return True


def test_reset_with_a_seed_is_reproducible() -> None:
    env = ScopaVectorEnv(4, "classic", seat=None)
    first = play(env, 4, 20)
    seats = env.seats
    assert same(play(env, 4, 20), first)
    assert np.array_equal(env.seats, seats)
    assert same(play(ScopaVectorEnv(4, "classic", seat=None), 4, 20), first)
    assert not same(play(env, 5, 20), first)


def test_hands_are_dealt_again_on_the_next_step() -> None:
    rules = find_variant("classic")
    layout = ObservationLayout.of(rules.players)
    env = ScopaVectorEnv(4, "classic")
    obs, _ = env.reset(seed=2)
    learner_plays = rules.plays_per_hand // rules.players
    for _ in range(learner_plays):
        obs, rewards, terminated, _, info = env.step(obs["action_mask"].argmax(axis=1))
    assert terminated.all()
    assert set(info) == {"points", "_points"}
    # the action of a finished hand is ignored, even one that is not legal
    obs, rewards, terminated, _, info = env.step(np.full(4, 2559))
    assert not terminated.any()
    assert not rewards.any()
    assert set(info) == {"seat", "_seat"}  # every hand was dealt again, the learner in seat 0
    assert info["seat"].tolist() == [0, 0, 0, 0]
    assert info["_seat"].all()
    # a fresh hand, in which the learner has played no card yet
    assert (obs["observation"][:, layout.hand].sum(axis=1) == rules.hand_size).all()
    assert (obs["observation"][:, layout.stock] > 0).all()
    assert obs["action_mask"].any(axis=1).all()
    _, _, _, _, info = env.step(obs["action_mask"].argmax(axis=1))
    assert info == {}  # no hand was dealt on this step


def test_random_opponents_play_whole_hands() -> None:
    rules = find_variant("scopone-scientifico")
    env = ScopaVectorEnv(16, rules, seat=None)
    obs, _ = env.reset(seed=7)
    seats = env.seats
    assert set(seats.tolist()) == {0, 1, 2, 3}
    layout = ObservationLayout.of(rules.players)
    rng = np.random.default_rng(0)
    total = np.zeros(16)
    for _ in range(rules.plays_per_hand // rules.players):
        # the learner is to move, and sees from its own seat: first in the to-move entries
        assert (obs["observation"][:, layout.to_move][:, 0] == 1).all()
        assert obs["action_mask"].any(axis=1).all()
        actions = [int(rng.choice(np.flatnonzero(row))) for row in obs["action_mask"]]
        obs, rewards, terminated, _, info = env.step(np.array(actions))
        total += rewards
    assert terminated.all()
    points = info["points"]
    sides = seats % 2
    assert np.array_equal(total, points[np.arange(16), sides] - points[np.arange(16), 1 - sides])


def test_illegal_actions_are_replaced_by_default() -> None:
    rules = find_variant("classic")
    layout = ObservationLayout.of(rules.players)
    env = ScopaVectorEnv(4, "classic")
    obs, _ = env.reset(seed=1)
    actions = obs["action_mask"].argmax(axis=1)
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    actions[2] = -5
    obs, _, _, _, info = env.step(actions)
    assert info["illegal_action"].tolist() == [False, True, True, False]
    assert info["_illegal_action"].tolist() == [False, True, True, False]
    # every hand was played: the learner holds one card fewer
    assert (obs["observation"][:, layout.hand].sum(axis=1) == rules.hand_size - 1).all()


def test_illegal_actions_raise_when_asked_and_change_nothing() -> None:
    env = ScopaVectorEnv(4, "classic", illegal_action="raise")
    twin = ScopaVectorEnv(4, "classic", illegal_action="raise")
    obs, _ = env.reset(seed=8)
    twin.reset(seed=8)
    bad = obs["action_mask"].argmax(axis=1)
    bad[2] = 2560
    with pytest.raises(IllegalMoveError, match=r"hands \[2\]: \[2560\]"):
        env.step(bad)
    good = obs["action_mask"].argmax(axis=1)
    assert same(list(env.step(good)[:3]), list(twin.step(good)[:3]))


def test_illegal_opponent_actions_are_replaced_and_reported() -> None:
    env = ScopaVectorEnv(4, "classic", lambda obs, masks: jnp.full(obs.shape[0], 2559), seat=1)
    obs, info = env.reset(seed=0)
    # seat 0 played first, with a random legal action instead of the policy's
    assert set(info) == {"seat", "_seat"}
    assert obs["action_mask"].any(axis=1).all()
    obs, _, _, _, info = env.step(obs["action_mask"].argmax(axis=1))
    assert info["opponent_illegal_action"].all()
    assert info["_opponent_illegal_action"].all()
    assert obs["action_mask"].any(axis=1).all()


def test_make_vec() -> None:
    env = gymnasium.make_vec(ENV_ID, num_envs=4, variant="classic")
    assert isinstance(env, ScopaVectorEnv)
    obs, _ = env.reset(seed=0)
    assert obs["observation"].shape == (4, 172)
    env.close()


def test_gymnasiums_vector_wrappers_read_it() -> None:
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    env = RecordEpisodeStatistics(ScopaVectorEnv(4, "classic"))
    obs, _ = env.reset(seed=3)
    for _ in range(18):
        obs, rewards, terminated, _, info = env.step(obs["action_mask"].argmax(axis=1))
    assert terminated.all()
    assert np.array_equal(info["episode"]["r"], rewards)
    assert (info["episode"]["l"] == 18).all()
    listed = DictInfoToList(ScopaVectorEnv(4, "classic"))
    _, infos = listed.reset(seed=0)
    assert infos == [{"seat": 0}] * 4  # each hand's seat, in its own info


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="num_envs"):
        ScopaVectorEnv(0)
    with pytest.raises(TypeError, match="num_envs"):
        ScopaVectorEnv(2.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seat"):
        ScopaVectorEnv(4, "classic", seat=2)
    with pytest.raises(InvalidArgumentError, match="dealer"):
        ScopaVectorEnv(4, "classic", dealer=-1)
    with pytest.raises(InvalidArgumentError, match="illegal_action"):
        ScopaVectorEnv(4, illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="opponent"):
        ScopaVectorEnv(4, opponent="greedy")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="opponent"):
        ScopaVectorEnv(4, opponent=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one integer action per hand"):
        ScopaVectorEnv(4, opponent=lambda obs, masks: masks.argmax())
    with pytest.raises(TypeError, match="one integer action per hand"):
        ScopaVectorEnv(4, opponent=lambda obs, masks: obs[:, 0])
    with pytest.raises(TypeError, match="traced"):
        ScopaVectorEnv(4, opponent=lambda obs, masks: int(masks[0, 0]))  # type: ignore[arg-type,return-value]
    with pytest.raises(RulesError, match="does not score the component 'odd'"):
        ScopaVectorEnv(4, Rules(scoring=ScoringRules((_OddCards(),))))
    env = ScopaVectorEnv(4)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, np.int64))
    with pytest.raises(RuntimeError, match="reset"):
        _ = env.seats
    env.reset(seed=0)
    with pytest.raises(InvalidArgumentError, match="shape"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.zeros(4))


def test_bad_deck_orders() -> None:
    env = ScopaVectorEnv(4, "classic")
    good = orders_of(decks_of("classic", 4))
    with pytest.raises(InvalidArgumentError, match="shape"):
        env.reset(options={"orders": good[:1]})
    with pytest.raises(TypeError, match="integers"):
        env.reset(options={"orders": np.array(good, dtype=float)})
    with pytest.raises(InvalidStateError, match=r"hands \[1\]"):
        env.reset(options={"orders": [good[0], [0] * 40, *good[2:]]})
    # the first table (cards 6 to 9 of the order in classic) shows three kings: annulled
    kings = [9, 19, 29]
    rest = [c for c in range(40) if c not in kings]
    annulled = rest[:6] + kings + rest[6:]
    with pytest.raises(InvalidStateError, match="misdeal"):
        env.reset(options={"orders": [*good[:3], annulled]})


def test_options_that_are_not_a_dict_are_refused() -> None:
    env = ScopaVectorEnv(16, "classic", seat=None)
    env.reset(seed=0)
    seats = env.seats
    for options in ([{"orders": None}], ("orders",), "orders", 3):
        with pytest.raises(TypeError, match="options must be a dict"):
            env.reset(seed=1, options=options)  # type: ignore[arg-type]
    assert np.array_equal(env.seats, seats)  # the refused calls dealt nothing
    env.reset(seed=1, options={})
    assert not np.array_equal(env.seats, seats)  # as a reset with seed 1 does
