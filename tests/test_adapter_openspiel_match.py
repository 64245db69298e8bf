"""The OpenSpiel adapter's whole-match game: its deals, returns, observations and parameters."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from scopa import DECK, Abandonment, Deck, GameState, Match, find_variant  # noqa: E402
from scopa.adapters import openspiel as openspiel_adapter  # noqa: E402
from scopa.adapters.openspiel import GAME_NAME, ScopaGame, ScopaState  # noqa: E402
from scopa.encoding import observation, observation_size  # noqa: E402
from scopa.errors import RulesError  # noqa: E402
from scopa.state import view  # noqa: E402


def load(variant: str, **parameters: Any) -> ScopaGame:
    game: ScopaGame = pyspiel.load_game(
        GAME_NAME, {"variant": variant, "episode": "match", **parameters}
    )
    return game


def step(state: ScopaState, rng: random.Random) -> None:
    """One chance outcome, drawn with its probability, or one random legal action."""
    if state.is_chance_node():
        cards, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(cards, probabilities)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def play_until(state: ScopaState, rng: random.Random, hands: int) -> None:
    """Play on until `hands` hands are complete (or the match is over), into the next deal."""
    while not state.is_terminal() and (state.match is None or len(state.match.hands) < hands):
        step(state, rng)


@pytest.mark.parametrize(
    ("variant", "parameters"),
    [
        ("classic", {}),
        ("tretre", {"match_reward": "stakes"}),
        ("scopa-3", {"target": 6}),
        ("scopa-4", {"hand_size": 9, "dealer": 3}),
        ("cirulla", {"target": 12}),
        ("scopa-a-perdere", {"target": 8}),
        ("classic", {"max_hands": 1}),
    ],
)
def test_random_simulations(variant: str, parameters: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(variant, **parameters), num_sims=2, serialize=True, verbose=False)


def test_the_game_of_a_match() -> None:
    game = load("classic")
    assert game.max_hands == 44  # four times the target of 11
    assert game.max_game_length() == 44 * (40 + 36)  # each hand: 40 cards dealt, 36 played
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.observation_tensor_size() == observation_size(game.rules) + 2
    assert load("classic", max_hands=3).max_game_length() == 3 * 76
    assert load("scopa-3").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # the tretre brilli: 10 for each of the first three hands and 20 for the match
    stakes = load("tretre", match_reward="stakes")
    assert (stakes.min_utility(), stakes.max_utility()) == (-50.0, 50.0)
    assert load("classic", target=21).max_hands == 84
    assert pyspiel.load_game(GAME_NAME).max_hands is None


def test_chance_deals_every_hand_card_by_card() -> None:
    # with no misdeal rule every card not dealt yet is equally likely, in every hand
    game = load("classic", misdeal="none", dealer=1)
    rng = random.Random(3)
    state = game.new_initial_state()
    play_until(state, rng, 1)
    assert not state.is_terminal()  # no side reaches 11 in the first hand of this deal
    match = state.match
    assert match is not None
    assert match.awaiting_deal
    assert state.dealt == ()  # the next hand is dealt from its first card
    order = rng.sample(range(40), 40)
    for dealt, card in enumerate(order):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - dealt
        assert all(p == pytest.approx(1 / (40 - dealt)) for _, p in outcomes)
        state.apply_action(card)
    # the deal passes to the other player: hand 2 is dealt by player 0
    expected = GameState.new(game.rules, deck=Deck(DECK[i] for i in order), dealer=0)
    hand_two = state.position
    assert hand_two is not None
    assert hand_two.key == expected.key
    assert state.match is not None
    assert state.match.totals == match.totals


def replay(game: ScopaGame, actions: list[int]) -> Match:
    """The library's own match, played from the decks and moves of a game's history."""
    rules = game.rules
    match = None
    state = game.new_initial_state()
    for action in actions:
        if state.is_chance_node():
            state.apply_action(action)
            if state.position is not None:  # a deck is complete
                deck = Deck(DECK[i] for i in state.dealt)
                if match is None:
                    match = Match.new(rules, decks=[deck], first_dealer=game.dealer)
                else:
                    match = match.deal(deck)
        else:
            assert match is not None
            assert state.position is not None
            move = next(
                move
                for move in state.position.legal_moves()
                if state.action_to_string(state.current_player(), action) == str(move)
            )
            match = match.apply(move)
            state.apply_action(action)
    assert match is not None
    return match


@pytest.mark.parametrize(
    ("variant", "reward", "seed"),
    [("classic", "win", 1), ("scopa-4", "win", 2), ("scopa-3", "win", 3), ("tretre", "stakes", 4)],
)
def test_returns_are_those_of_the_match(variant: str, reward: str, seed: int) -> None:
    game = load(variant, match_reward=reward)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.returns() == [0.0] * game.num_players()
        step(state, rng)
    match = replay(game, state.history())
    assert match.is_over
    assert state.match is not None
    assert state.match.totals == match.totals
    assert max(match.totals) >= game.rules.target
    rules = game.rules
    returns = state.returns()
    for player, value in enumerate(returns):
        side = rules.side_of(player)
        if reward == "win":
            assert value == (1.0 if side == match.winner else -1.0)
        else:
            settlement = match.settlement
            assert settlement is not None
            assert value == float(settlement[side] - settlement[1 - side])
    if rules.number_of_sides == 2:
        assert sum(returns) == 0


def test_a_match_ends_at_its_last_hand_without_a_winner() -> None:
    game = load("classic", max_hands=2)
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        step(state, rng)
    match = state.match
    assert match is not None
    assert len(match.hands) == 2
    assert len(state.history()) == 2 * 76 == game.max_game_length()
    assert not match.is_over  # 2 hands of classic rarely reach 11: this deal does not
    assert state.returns() == [0.0, 0.0]
    assert state.position is match.state
    assert state.position.is_terminal
    assert state.legal_actions() == []
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_observations_end_with_the_match_totals() -> None:
    game = load("scopa-3", target=6)
    rng = random.Random(6)
    state = game.new_initial_state()
    play_until(state, rng, 1)
    match = state.match
    assert match is not None
    assert not state.is_terminal()
    totals = match.totals
    for _ in range(60):  # into the plays of hand 2
        step(state, rng)
    position = state.position
    assert position is not None
    assert state.match is not None
    assert state.match.totals == totals
    for player in range(3):
        tensor = np.array(state.observation_tensor(player), np.float32)
        expected = np.array(observation(view(position, player)), np.float32)
        assert np.array_equal(tensor[:-3], expected)
        # the player's side first, then the sides after it, each total over the target
        own = [totals[(player + k) % 3] / 6 for k in range(3)]
        assert tensor[-3:].tolist() == pytest.approx(own)
        info = state.information_state_tensor(player)
        assert info[-3:] == pytest.approx(own)
        assert len(info) == game.information_state_tensor_size()
        text = state.observation_string(player)
        assert text.startswith(f"match hand 2 totals {'/'.join(map(str, totals))} p{player} ")
        history = state.information_state_string(player)
        first = " ".join(f"{p}:{m}" for p, m in state.match.hands[0].history)
        assert history.endswith(f" hands {first}")
        assert history.startswith(text)


def test_observations_while_a_later_hand_is_dealt() -> None:
    game = load("classic", dealer=1)
    rng = random.Random(3)
    state = game.new_initial_state()
    play_until(state, rng, 1)
    match = state.match
    assert match is not None
    for card in range(8):  # hand 2 is dealt by player 0: 0-2 to player 1, 3-5 to player 0
        state.apply_action(card)
    text = state.observation_string(0)
    assert text.endswith("p0 dealing 8/40 hand 4D5D6D table 7D8D")
    tensor = state.observation_tensor(0)
    assert [i for i, v in enumerate(tensor[:-2]) if v] == [3, 4, 5, 46, 47]
    assert tensor[-2:] == pytest.approx([match.totals[0] / 11, match.totals[1] / 11])


@pytest.mark.parametrize("variant", ["classic", "scopa-4"])
def test_resampling_in_a_later_hand_keeps_the_earlier_ones(variant: str) -> None:
    game = load(variant)
    rng = random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    play_until(state, rng, 1)
    assert not state.is_terminal()
    start = len(state.history())
    for _ in range(45):  # the deal of hand 2, then a few plays
        step(state, rng)
    for player in range(game.num_players()):
        world = state.resample_from_infostate(player, sampler)
        assert world.history()[:start] == state.history()[:start]
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.current_player() == state.current_player()


def test_cloning_and_serializing_a_match() -> None:
    game = load("tretre", match_reward="stakes")
    rng = random.Random(8)
    state = game.new_initial_state()
    play_until(state, rng, 1)
    for _ in range(50):
        step(state, rng)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history()
    assert str(again) == str(state)
    assert str(state).startswith("match hand 2 totals ")
    copy = state.clone()
    step(copy, rng)
    assert len(copy.history()) == len(state.history()) + 1


def test_parameters_change_the_rules() -> None:
    game = load("classic", hand_size=6, target=16)
    assert (game.rules.hand_size, game.rules.deals_per_hand, game.rules.target) == (6, 3, 16)
    hand = pyspiel.load_game(GAME_NAME, {"variant": "scopa-4", "hand_size": 3})
    assert hand.rules.hand_size == 3
    assert hand.rules.deals_per_hand == 3  # 36 cards in deals of 12
    assert load("classic", target=0).rules.target == 11  # 0: the preset's
    again = pyspiel.load_game(str(game))  # the game's text names its parameters
    assert (again.rules, again.max_hands) == (game.rules, game.max_hands) == (game.rules, 64)


@pytest.mark.parametrize(
    ("parameters", "error", "words"),
    [
        ({"hand_size": 4}, RulesError, "do not split"),  # 36 cards in deals of 8
        ({"hand_size": -1}, RulesError, "hand_size"),
        ({"target": -5}, RulesError, "target"),
        ({"episode": "set"}, ValueError, "episode"),
        ({"episode": "match", "match_reward": "stakes"}, ValueError, "no stakes"),
        ({"episode": "match", "match_reward": "brilli"}, ValueError, "match_reward"),
        ({"episode": "match", "max_hands": -1}, ValueError, "max_hands"),
        ({"target": 21}, ValueError, "episode='match'"),
        ({"max_hands": 5}, ValueError, "episode='match'"),
    ],
)
def test_bad_parameters_are_refused(
    parameters: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        pyspiel.load_game(GAME_NAME, {"variant": "classic", **parameters})


def test_ismcts_plays_a_later_hand() -> None:
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

    game = load("classic", max_hands=2)
    rng = random.Random(9)
    state = game.new_initial_state()
    play_until(state, rng, 1)
    assert not state.is_terminal()
    while state.is_chance_node():  # the deal of hand 2
        step(state, rng)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(2)
    )
    assert bot.step(state) in state.legal_actions()


def test_stakes_without_a_known_bound_are_refused() -> None:
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

    rules = attrs.evolve(find_variant("tretre"), stakes=Pot())
    with pytest.raises(ValueError, match="no bound"):
        openspiel_adapter._utility_bound(rules, "match", "stakes")
    assert openspiel_adapter._utility_bound(rules, "match", "win") == 1.0
