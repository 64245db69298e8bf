"""The pgx adapter: pgx's own checker and tools run on it, with pgx's conventions."""

from __future__ import annotations

import importlib.util
import itertools
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from scopa import DECK, Captures, GameState, Rules, find_variant, variant_names, view
from scopa.adapters import hand_returns, return_bound
from scopa.encoding import ObservationLayout, legal_actions, move_of_action, observation
from scopa.errors import InvalidArgumentError
from scopa.scoring import CardPoints, ScoringRules
from tests.helpers import ROOT

jax = pytest.importorskip("jax", reason="needs JAX, from the optional extra jax")
pgx = pytest.importorskip("pgx", reason="needs pgx, from the optional extra pgx")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402  (installed with JAX)
import pgx._src.api_test as pgx_api_test  # type: ignore[import-untyped]  # noqa: E402
from pgx.experimental import act_randomly, auto_reset  # type: ignore[import-untyped]  # noqa: E402

from scopa import batch  # noqa: E402
from scopa.adapters.pgx import VERSION, Scopa, State, make  # noqa: E402
from scopa.batch import Env  # noqa: E402

PLAYED = ["classic", "scopa-a-perdere", "scopa-3", "scopone-scientifico"]


@pytest.fixture(scope="module")
def classic() -> Scopa:
    return _env("classic")


_ENVS: dict[str, Scopa] = {}
_COMPILED: dict[Scopa, tuple[Any, Any, Any, Any]] = {}


def _env(name: str) -> Scopa:
    """One environment per preset, whose functions are compiled once for all the tests."""
    return _ENVS.setdefault(name, make(name))


def _compiled(env: Scopa) -> tuple[Any, Any, Any, Any]:
    """`init` and `step`, on one state and on a batch, compiled once per environment."""
    if env not in _COMPILED:
        _COMPILED[env] = (
            jax.jit(env.init),
            jax.jit(env.step),
            jax.jit(jax.vmap(env.init)),
            jax.jit(jax.vmap(env.step)),
        )
    return _COMPILED[env]


def _hands(env: Scopa, count: int, seed: int) -> tuple[State, list[State]]:
    """`count` random hands played to the end: the first states and every state after."""
    _, _, init, step = _compiled(env)
    states = init(jax.random.split(jax.random.PRNGKey(seed), count))
    first = states
    seen = []
    key = jax.random.PRNGKey(seed + 1)
    draw = jax.jit(jax.vmap(env.random_action))
    while not bool(states.terminated.all()):
        key, now = jax.random.split(key)
        states = step(states, draw(states, jax.random.split(now, count)))
        seen.append(states)
    return first, seen


def _hand(state: State) -> batch.State:
    """The hand a state of a hand episode plays."""
    assert isinstance(state._hand, batch.State)
    return state._hand


def _one(states: Any, i: int) -> Any:
    return jax.tree_util.tree_map(lambda x: x[i], states)


def test_pgx_own_checker_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    # pgx's api_test checks its own games' ids against its list: ours is added to it. Its
    # random player draws along axis 1, which a single state's mask does not have under
    # this JAX (pgx's own games fail the same way): it draws along the last axis here.
    env = make("scopa-3")
    ids = typing.Literal[(*typing.get_args(pgx.EnvId), env.id)]  # type: ignore[valid-type]
    monkeypatch.setattr(pgx_api_test, "EnvId", ids)

    def act(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)

    monkeypatch.setattr(pgx_api_test, "act_randomly", jax.jit(act))
    pgx.api_test(env, 3)


def test_it_is_a_pgx_environment(classic: Scopa) -> None:
    assert isinstance(classic, pgx.Env)
    assert (classic.id, classic.version, classic.num_players) == ("scopa/classic", VERSION, 2)
    assert (classic.num_actions, classic.observation_shape) == (2560, (172,))
    state = classic.init(jax.random.PRNGKey(0))
    assert isinstance(state, pgx.State)
    assert state.env_id == "scopa/classic"
    assert int(state._step_count) == 0
    assert not bool(state.truncated)
    assert not np.asarray(state.rewards).any()
    assert state.observation.shape == classic.observation_shape
    assert state.legal_action_mask.shape == (classic.num_actions,)
    four = make("scopone-scientifico", observation="planes")
    assert (four.num_players, four.observation_shape) == (4, (4, 10, 28))
    assert "observation='planes'" in repr(four)


@pytest.mark.parametrize("name", variant_names())
def test_every_preset_is_an_environment(name: str) -> None:
    rules = find_variant(name)
    env = make(name)
    assert env.observation_shape == (Env(rules).observation_size,)
    assert env.reward_scale == return_bound(rules)


@pytest.mark.parametrize("name", PLAYED)
def test_rewards_are_zero_sum_margins_scaled_by_the_bound(name: str) -> None:
    env = _env(name)
    rules = env.rules
    first, states = _hands(env, 12, seed=len(name))
    ended = 0
    worst = 0.0
    for before, after in itertools.pairwise([first, *states]):
        rewards = np.asarray(after.rewards)
        assert np.allclose(rewards.sum(axis=1), 0, atol=1e-6)
        # no hand pays -1 or less: pgx's penalty for an illegal action is the worst
        assert (rewards > -1).all()
        assert (rewards < 1).all()
        worst = min(worst, float(rewards.min()))
        for i in np.flatnonzero(np.asarray(after.terminated) & ~np.asarray(before.terminated)):
            game = env.position(_one(after, int(i)))
            points = game.hand_score().points
            sides = rules.number_of_sides
            sign = -1 if rules.lowest_total_wins else 1
            if sides == 2:
                wanted = np.array(hand_returns(game))
            else:  # each side's points less the mean of the others'
                by_side = [sign * (p - (sum(points) - p) / (sides - 1)) for p in points]
                wanted = np.array([by_side[player % sides] for player in range(rules.players)])
            np.testing.assert_allclose(rewards[i] * env.reward_scale, wanted, atol=1e-5)
            ended += 1
    assert ended == 12
    assert worst < 0


@pytest.mark.parametrize(
    ("name", "gained"),
    [("scopone-scientifico", [-1.0, 1.0, -1.0, 1.0]), ("scopa-3", [-1, 0.5, 0.5])],
)
def test_an_illegal_action_ends_the_hand_with_the_penalty(name: str, gained: list[float]) -> None:
    # the offender's side pays pgx's penalty, the other sides share its opposite: with the
    # offender as player 0, `gained`; 2559 (10B, choice 63) is never legal at a first play
    env = _env(name)
    _, _, init, step = _compiled(env)
    states = init(jax.random.split(jax.random.PRNGKey(1), 8))
    after = step(states, jnp.full(8, 2559, jnp.int32))
    assert np.asarray(after.terminated).all()
    assert np.asarray(after.legal_action_mask).all()
    assert (np.asarray(after._step_count) == 1).all()
    players = env.num_players
    for offender, rewards in zip(states.current_player, after.rewards, strict=True):
        wanted = [gained[(player - int(offender)) % players] for player in range(players)]
        assert np.asarray(rewards).tolist() == wanted


def test_the_scale_is_the_most_a_side_can_score() -> None:
    # classic: a scopa at each of a side's 18 plays, and carte, denari, settebello and
    # primiera; a hand lost by all of it would pay -1, the penalty of an illegal action
    env = _env("classic")
    assert env.reward_scale == 18 + 4
    assert _env("scopone-scientifico").reward_scale == 20 + 4


def test_the_end_of_a_hand_follows_pgx(classic: Scopa) -> None:
    first, states = _hands(classic, 8, seed=4)
    last = states[-1]
    assert np.asarray(last.legal_action_mask).all()  # all True at the end
    players = np.asarray(last.current_player)
    assert ((players >= 0) & (players < 2)).all()
    # the player who made the last play: the dealer, who plays last
    assert (players == np.asarray(_hand(last)._dealer)).all()
    assert not np.asarray(last.truncated).any()
    assert (np.asarray(last._step_count) == 36).all()
    again = _compiled(classic)[3](last, jnp.zeros(8, jnp.int32))
    assert not np.asarray(again.rewards).any()
    assert (np.asarray(again._step_count) == 36).all()
    assert np.array_equal(np.asarray(_hand(again)._piles), np.asarray(_hand(last)._piles))
    assert np.asarray(first.legal_action_mask).any(axis=1).all()


def test_the_dealer_is_drawn_from_the_key(classic: Scopa) -> None:
    states = _compiled(classic)[2](jax.random.split(jax.random.PRNGKey(5), 200))
    leaders = np.asarray(states.current_player)
    assert 60 < (leaders == 0).sum() < 140
    fixed = make("classic", dealer=0)
    states = jax.jit(jax.vmap(fixed.init))(jax.random.split(jax.random.PRNGKey(5), 20))
    assert (np.asarray(states.current_player) == 1).all()
    with pytest.raises(InvalidArgumentError, match="dealer must be a player number"):
        make("classic", dealer=2)
    with pytest.raises(InvalidArgumentError, match="observation must be 'flat' or 'planes'"):
        make("classic", observation="grid")


def test_observe_gives_any_players_view(classic: Scopa) -> None:
    init, step, _, _ = _compiled(classic)
    state = init(jax.random.PRNGKey(6))
    for _ in range(5):
        state = step(state, classic.random_action(state, jax.random.PRNGKey(7)))
    game = classic.position(state)
    assert np.array_equal(classic.observe(state), state.observation)
    for player in range(2):
        with pytest.deprecated_call():  # pgx deprecates the argument, for all its games
            seen = classic.observe(state, player)
        assert np.array_equal(seen, np.array(observation(view(game, player)), np.float32))
        assert np.array_equal(seen, classic.engine.observe(state._hand, player))


def test_planes_hold_the_flat_observation() -> None:
    flat = make("scopa-3")
    planes = make("scopa-3", observation="planes")
    one = flat.init(jax.random.PRNGKey(8))
    other = planes.init(jax.random.PRNGKey(8))
    vector, grid = np.asarray(one.observation), np.asarray(other.observation)
    assert grid.shape == (4, 10, 22)
    for channel in range(5):  # hand, table, three piles: by card
        assert np.array_equal(
            grid[:, :, channel].reshape(40), vector[40 * channel : 40 * channel + 40]
        )
    assert (grid[:, :, 5:] == vector[200:]).all()


def test_planes_under_declarations_hold_the_cards_shown_and_the_points() -> None:
    # cirulla, two players: hand, table, two piles and the two seats' cards shown as card
    # planes; the 14 other entries, the points declared last, as planes of their value
    flat = make("cirulla", dealer=0)
    planes = make("cirulla", dealer=0, observation="planes")
    assert planes.observation_shape == (4, 10, 20)
    layout = ObservationLayout.of(2, declarations=True)
    for seed in range(100):  # a deal whose first hand may declare
        key = jax.random.PRNGKey(seed)
        game = flat.position(flat.init(key))
        declaring = [a for a in legal_actions(game) if move_of_action(game, a).declaration]
        if declaring:
            break
    declared = move_of_action(game, declaring[0]).declaration
    assert declared is not None
    one = flat.step(flat.init(key), declaring[0])
    other = planes.step(planes.init(key), declaring[0])
    vector, grid = np.asarray(one.observation), np.asarray(other.observation)
    # seen by the next player: the declarer is the seat after the observer
    assert vector[layout.revealed[1]].any()
    assert vector[layout.declared].tolist() == [0, declared.points]
    cards = [layout.hand, layout.table, *layout.piles, *layout.revealed]
    for channel, entries in enumerate(cards):
        assert np.array_equal(grid[:, :, channel].reshape(40), vector[entries])
    between = vector[layout.hand_sizes.start : layout.revealed[0].start]
    others = np.concatenate([between, vector[layout.declared]])
    assert len(others) == 14
    assert (grid[:, :, 6:] == others).all()


def test_auto_reset_and_act_randomly_play_on(classic: Scopa) -> None:
    step = jax.jit(jax.vmap(auto_reset(classic.step, classic.init)))
    states = _compiled(classic)[2](jax.random.split(jax.random.PRNGKey(9), 4))
    key = jax.random.PRNGKey(10)
    ended = 0
    for _ in range(80):
        key, pick, deal = jax.random.split(key, 3)
        actions = act_randomly(pick, states.legal_action_mask)
        states = step(states, actions, jax.random.split(deal, 4))
        over = np.asarray(states.terminated)
        ended += int(over.sum())
        # a hand that ends pays, and is dealt again: a fresh hand with its mask
        assert not np.asarray(states.rewards)[~over].any()
        assert np.asarray(states.legal_action_mask).any(axis=1).all()
    assert ended >= 8


def test_resample_keeps_what_the_player_sees(classic: Scopa) -> None:
    init, step, _, _ = _compiled(classic)
    state = init(jax.random.PRNGKey(11))
    state = step(state, classic.random_action(state, jax.random.PRNGKey(12)))
    again = classic.resample(state, jax.random.PRNGKey(13))
    assert isinstance(again, State)
    assert np.array_equal(again.observation, state.observation)
    assert np.array_equal(again.legal_action_mask, state.legal_action_mask)
    player = int(state.current_player)
    assert view(classic.position(again), player) == view(classic.position(state), player)
    assert not np.array_equal(np.asarray(_hand(again)._deals), np.asarray(_hand(state)._deals))


def test_pictures(classic: Scopa, tmp_path: Path) -> None:
    state = _compiled(classic)[0](jax.random.PRNGKey(14))
    picture = state.to_svg()
    assert picture.startswith("<svg")
    assert picture.count('data-face="up"') == 10
    assert state.to_svg(scale=0.5).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="450"')
    states = _compiled(classic)[2](jax.random.split(jax.random.PRNGKey(15), 3))
    batch = states.to_svg()
    assert batch.count("<svg") == 4
    assert batch.count('data-face="up"') == 30
    states.save_svg(tmp_path / "hands.svg")
    assert (tmp_path / "hands.svg").read_text() == batch
    with pytest.raises(InvalidArgumentError, match=r"ends with \.svg"):
        state.save_svg(tmp_path / "hand.png")
    assert isinstance(classic.position(state), GameState)


def test_the_search_example_plays_legal_moves_to_the_end() -> None:
    pytest.importorskip("mctx", reason="needs mctx, from the optional extra pgx")
    path = ROOT / "docs" / "examples" / "mctx_search.py"
    spec = importlib.util.spec_from_file_location("mctx_search", path)
    assert spec is not None
    assert spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--deals", "2", "--simulations", "2", "--worlds", "2"])
    assert result.illegal == 0
    assert result.margins.shape == (2, 2)
    # a search for one hand of each pair at each of the 36 plays, the first call not timed
    assert result.searched == 2 * 35
    assert np.allclose(result.margins, np.round(result.margins), atol=1e-4)  # whole points


def test_without_pgx_the_import_says_how_to_install_it() -> None:
    code = "import sys\nsys.modules['pgx'] = None\nimport scopa.adapters.pgx\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 1
    assert 'scopa.adapters.pgx needs pgx, which the extra "pgx" installs' in done.stderr


def test_card_points_worth_more_than_forty_stay_within_the_scale() -> None:
    # every card scores 2: a side that takes them all scores 80, beyond the 40 the bound
    # once assumed for card points; the rewards must stay between -1 and 1
    rules = Rules(scoring=ScoringRules((CardPoints(ranks=tuple(range(1, 11)), value=2),)))
    assert return_bound(rules) == 80
    everything = Captures((frozenset(DECK), frozenset()), (0, 0))
    assert rules.scoring.score(everything).points == (80, 0)
    assert make(rules).reward_scale == 80


# ------------------------------------------------------------------ a match episode


def _matches(env: Scopa, count: int, seed: int) -> list[State]:
    """`count` random matches played to their end: the states after each step."""
    _, _, init, step = _compiled(env)
    states = init(jax.random.split(jax.random.PRNGKey(seed), count))
    seen = [states]
    key = jax.random.PRNGKey(seed + 1)
    draw = jax.jit(jax.vmap(env.random_action))
    while not bool((states.terminated | states.truncated).all()):
        key, now = jax.random.split(key)
        states = step(states, draw(states, jax.random.split(now, count)))
        seen.append(states)
    return seen


def _match(state: State) -> batch.MatchState:
    """The match a state of a match episode plays."""
    assert isinstance(state._hand, batch.MatchState)
    return state._hand


def test_a_match_is_a_pgx_environment_too(monkeypatch: pytest.MonkeyPatch) -> None:
    env = make("scopa-3", episode="match")
    assert env.id == "scopa/scopa-3/match"
    assert env.observation_shape == (Env(env.rules).observation_size + 3,)
    ids = typing.Literal[(*typing.get_args(pgx.EnvId), env.id)]  # type: ignore[valid-type]
    monkeypatch.setattr(pgx_api_test, "EnvId", ids)

    def act(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)

    monkeypatch.setattr(pgx_api_test, "act_randomly", jax.jit(act))
    pgx.api_test(env, 1)


def test_a_match_pays_its_winner_at_its_end() -> None:
    env = _ENVS.setdefault("classic/match", make("classic", episode="match"))
    assert (env.episode, env.reward_scale) == ("match", 1.0)
    assert "episode='match'" in repr(env)
    assert "max_hands=44" in repr(env)
    assert env.observation_shape == (174,)
    states = _matches(env, 6, seed=20)
    last = states[-1]
    assert isinstance(last._hand, batch.MatchState)
    assert np.asarray(last.terminated).all()
    assert not np.asarray(last.truncated).any()
    assert np.asarray(last.legal_action_mask).all()
    winners = np.asarray(_match(last).winner)
    assert set(winners.tolist()) <= {0, 1}
    paid = np.zeros((6, 2))
    for before, after in itertools.pairwise(states):
        rewards = np.asarray(after.rewards)
        ended = np.asarray(after.terminated) & ~np.asarray(before.terminated)
        assert not rewards[~ended].any()  # nothing before the end of the match
        paid += rewards
        # the totals follow the hand's observation, the player to move's side first
        totals = np.asarray(_match(after).totals)
        movers = np.asarray(after.current_player)
        seen = np.asarray(after.observation)[:, -2:]
        for i in np.flatnonzero(~np.asarray(after.terminated)):
            mover = int(movers[i])
            wanted = [min(totals[i, mover] / 11, 2.0), min(totals[i, 1 - mover] / 11, 2.0)]
            assert seen[i].tolist() == np.array(wanted, np.float32).tolist()
    for won, side in zip(paid.tolist(), winners.tolist(), strict=True):
        assert won == [1.0 if p == side else -1.0 for p in range(2)]
    # a step counts each play of every hand: 36 a hand
    plays = np.asarray(_match(last).hands_played) * 36
    assert np.array_equal(np.asarray(last._step_count), plays)
    position = env.position(_one(last, 0))
    assert position == env.engine.position(_match(_one(last, 0)).hand)
    assert _one(last, 0).to_svg().startswith("<svg")


def test_a_match_for_brilli_pays_them_on_a_scale_of_fifty() -> None:
    env = make("tretre", episode="match", match_reward="stakes")
    assert env.reward_scale == 50.0  # 10 for each of three hands, and 20 for the match
    states = _matches(env, 4, seed=21)
    settled = np.asarray(_match(states[-1]).settlement)
    assert np.allclose(settled.sum(axis=1), 50, atol=1e-4)
    rewards = np.stack([np.asarray(state.rewards) for state in states])
    assert (np.abs(rewards) <= 1).all()
    margins = settled[:, [0, 1]] - settled[:, [1, 0]]
    np.testing.assert_allclose(rewards.sum(axis=0) * 50, margins, atol=1e-4)


def test_a_match_cut_off_pays_nothing_and_stays() -> None:
    # classic to 11, cut off after one hand: a side rarely makes 11 in one hand
    env = make("classic", episode="match", max_hands=1)
    states = _matches(env, 8, seed=22)
    last = states[-1]
    cut = np.asarray(last.truncated)
    assert cut.any()
    assert not (cut & np.asarray(last.terminated)).any()
    assert not np.asarray(last.rewards)[cut].any()
    assert np.asarray(last.legal_action_mask)[cut].all()
    assert (np.asarray(last._step_count)[cut] == 36).all()
    again = _compiled(env)[3](last, jnp.zeros(8, jnp.int32))
    assert not np.asarray(again.rewards).any()
    assert np.array_equal(np.asarray(again._step_count), np.asarray(last._step_count))
    assert np.array_equal(np.asarray(_match(again).totals), np.asarray(_match(last).totals))


def test_an_illegal_action_ends_a_match_with_the_penalty() -> None:
    env = make("scopone-scientifico", episode="match")
    _, _, init, step = _compiled(env)
    states = init(jax.random.split(jax.random.PRNGKey(23), 4))
    after = step(states, jnp.full(4, 2559, jnp.int32))
    assert np.asarray(after.terminated).all()
    for offender, rewards in zip(states.current_player, after.rewards, strict=True):
        wanted = [-1.0 if (p - int(offender)) % 2 == 0 else 1.0 for p in range(4)]
        assert np.asarray(rewards).tolist() == wanted


def test_a_match_in_planes_ends_with_the_totals() -> None:
    env = make("classic", episode="match", observation="planes", dealer=0)
    assert env.observation_shape == (4, 10, 18)
    state = env.init(jax.random.PRNGKey(24))
    flat = env.match
    assert flat is not None
    vector = np.asarray(flat.observe(_match(state), 1))
    grid = np.asarray(state.observation)
    assert (grid[:, :, 4:] == vector[160:]).all()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"episode": "game"}, "episode must be 'hand' or 'match'"),
        ({"episode": "match", "match_reward": "money"}, "match_reward must be"),
        ({"episode": "match", "match_reward": "stakes"}, "classic has no stakes"),
        ({"episode": "match", "max_hands": 0}, "max_hands must be from 1"),
        ({"match_reward": "stakes"}, "options of a match"),
        ({"max_hands": 5}, "options of a match"),
    ],
)
def test_bad_match_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make("classic", **options)
