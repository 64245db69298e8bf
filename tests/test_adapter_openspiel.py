"""The OpenSpiel adapter: the registered game, its chance deal, observers, resampling, bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]  # noqa: E402

from scopa import (  # noqa: E402
    DECK,
    CompulsoryCapture,
    Deck,
    GameState,
    Leftovers,
    find_variant,
    variant_names,
)
from scopa.adapters import hand_returns  # noqa: E402
from scopa.adapters import openspiel as openspiel_adapter  # noqa: E402
from scopa.adapters.openspiel import (  # noqa: E402
    GAME_NAME,
    PARAMETERS,
    ScopaGame,
    ScopaState,
    rules_from_parameters,
)
from scopa.encoding import (  # noqa: E402
    ACTION_COUNT,
    MOVE_FACTS,
    information_state,
    information_state_size,
    legal_actions,
    legal_move_facts,
    observation,
)
from scopa.errors import IllegalMoveError, RulesError  # noqa: E402
from scopa.state import view  # noqa: E402


def load(variant: str, **knobs: Any) -> ScopaGame:
    game: ScopaGame = pyspiel.load_game(GAME_NAME, {"variant": variant, **knobs})
    return game


def deal(state: ScopaState, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = [card for card, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))


def after_deal(game: ScopaGame, rng: random.Random, plays: int = 0) -> ScopaState:
    """A new state of `game`, dealt at random, after `plays` random actions."""
    state = game.new_initial_state()
    deal(state, rng)
    for _ in range(plays):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_randomly(game: ScopaGame, seed: int) -> ScopaState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_game_is_registered() -> None:
    assert GAME_NAME in pyspiel.registered_names()
    game = pyspiel.load_game(GAME_NAME)
    assert isinstance(game, ScopaGame)
    assert game.rules == find_variant("classic")
    assert game.num_distinct_actions() == 2560
    assert load("classic", encoding="flat").num_distinct_actions() == ACTION_COUNT
    assert game.max_chance_outcomes() == 40
    assert pyspiel.load_game(str(game)).rules == game.rules


@pytest.mark.parametrize("variant", variant_names())
def test_random_simulations(variant: str) -> None:
    game = load(variant)
    assert game.num_players() == find_variant(variant).players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_random_simulations_with_the_flat_encoding() -> None:
    game = load("scopa-4", encoding="flat")
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_random_simulations_with_serialization() -> None:
    pyspiel.random_sim_test(load("scopa-4"), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", variant_names())
def test_default_parameters_give_the_preset(name: str) -> None:
    assert rules_from_parameters({"variant": name}) == find_variant(name)


def test_knobs_change_the_rules() -> None:
    game = load(
        "scopa-4",
        capture_priority="min-cards",
        misdeal="none",
        scopa_on_last_play=True,
        compulsory_capture="capturing-card",
        leftovers="dealer",
        dealer=3,
    )
    rules = game.rules
    assert (rules.players, rules.capture_priority.value, rules.misdeal.value) == (
        4,
        "min-cards",
        "none",
    )
    assert rules.scopa_on_last_play
    assert rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
    assert rules.leftovers is Leftovers.DEALER
    assert game.dealer == 3
    assert set(game.get_parameters()) == set(PARAMETERS)


@pytest.mark.parametrize(
    ("parameter", "value", "knob", "expected"),
    [
        ("must_play_capturing_card_if_any", True, "compulsory_capture", "capturing-card"),
        ("leftovers_to_last_capturer", False, "leftovers", "nobody"),
    ],
)
def test_the_deprecated_bool_parameters_still_work(
    parameter: str, value: bool, knob: str, expected: str
) -> None:
    with pytest.warns(DeprecationWarning, match=f"the game parameter {parameter} is deprecated"):
        rules = rules_from_parameters({"variant": "scopa-4", parameter: value})
    assert getattr(rules, knob).value == expected
    # at their default value they change nothing, and say nothing
    default = rules_from_parameters({"variant": "scopa-4", parameter: not value})
    assert default == find_variant("scopa-4")


@pytest.mark.parametrize(
    ("parameters", "error"),
    [
        ({"variant": "briscola"}, RulesError),
        ({"capture_priority": "most-cards"}, ValueError),
        ({"misdeal": "sometimes"}, ValueError),
        ({"dealer": 2}, ValueError),
        ({"encoding": "dense"}, ValueError),
        ({"variant": "escoba", "encoding": "flat"}, ValueError),
    ],
)
def test_bad_parameters_are_refused(parameters: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        pyspiel.load_game(GAME_NAME, parameters)


def test_unknown_parameters_are_refused() -> None:
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game(GAME_NAME, {"players": 3})
    with pytest.raises(ValueError, match="episode='match'"):  # one hand: no match target
        pyspiel.load_game(GAME_NAME, {"target": 21})
    with pytest.raises(ValueError, match="unknown parameters"):
        rules_from_parameters({"players": 3})


def test_utility_follows_the_sides() -> None:
    utility = pyspiel.GameType.Utility
    assert load("classic").get_type().utility == utility.ZERO_SUM
    assert load("scopa-6").get_type().utility == utility.ZERO_SUM
    assert load("scopa-3").get_type().utility == utility.GENERAL_SUM
    assert load("scopa-3").max_utility() == -load("scopa-3").min_utility() > 0


def test_chance_deals_the_deck_in_order() -> None:
    game = load("classic", dealer=1, misdeal="none")  # no misdeal: every card equally likely
    order = [DECK[i] for i in random.Random(4).sample(range(40), 40)]
    deck = Deck(order)
    assert not find_variant("classic").misdeal.annuls(order[6:10])
    state = game.new_initial_state()
    for dealt, card in enumerate(order):
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - dealt
        assert all(p == pytest.approx(1 / (40 - dealt)) for _, p in outcomes)
        state.apply_action(card.index)
    expected = GameState.new(find_variant("classic"), deck=deck, dealer=1)
    assert state.position is not None
    assert state.position.key == expected.key
    assert state.current_player() == expected.current_player
    assert state.legal_actions() == legal_actions(expected)


def test_a_deal_the_misdeal_rule_annuls_is_never_dealt() -> None:
    # Classic annuls a first table with three or more Kings. With two Kings on the table
    # and one place left, a third King cannot come; every other card may, equally likely.
    kings = [9, 19, 29]
    others = [i for i in range(40) if i not in kings]
    state = load("classic").new_initial_state()
    for card in others[:6] + kings[:2]:
        state.apply_action(card)
    outcomes = dict(state.chance_outcomes())
    assert kings[2] not in outcomes
    assert 39 not in outcomes  # the fourth King
    assert len(outcomes) == 40 - 8 - 2
    assert all(p == pytest.approx(1 / 30) for p in outcomes.values())
    with pytest.raises(IllegalMoveError, match="annuls"):
        state.apply_action(kings[2])


def test_the_chance_of_a_card_is_its_share_of_the_accepted_deals() -> None:
    # Computed by hand: after the six hand cards (no King among them), 34 cards are left,
    # four of them Kings. A first table is 4 of them with at most two Kings: C(30,4) +
    # 4·C(30,3) + 6·C(30,2) = 27405 + 16240 + 2610 = 46255 tables. A King dealt first
    # leaves 33 cards, 3 Kings, and 3 places for at most one more King: C(30,3) + 3·C(30,2)
    # = 4060 + 1305 = 5365; another card leaves 29 others: C(29,3) + 4·C(29,2) +
    # 6·C(29,1) = 3654 + 1624 + 174 = 5452. Each table is counted once per first card:
    # 4·5365 + 30·5452 = 185020 = 4·46255.
    state = load("classic").new_initial_state()
    for card in range(6):  # 1D to 6D to the players
        state.apply_action(card)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 34
    assert outcomes[9] == pytest.approx(5365 / 185020)  # the King of denari
    assert outcomes[6] == pytest.approx(5452 / 185020)  # the seven of denari
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_a_game_never_outlasts_its_declared_length() -> None:
    for variant in ("classic", "tretre", "scopone-scientifico"):
        game = load(variant)
        rng = random.Random(variant)
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    cards, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(cards, probabilities)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            assert len(state.history()) <= game.max_game_length()
            first_deal = game.rules.players * game.rules.hand_size
            table = state.dealt[first_deal : first_deal + game.rules.table_size]
            assert not game.rules.misdeal.annuls(DECK[i] for i in table)


def test_actions_are_played_as_moves() -> None:
    rng = random.Random(8)
    state = after_deal(load("scopone"), rng)
    position = state.position
    assert position is not None
    action = rng.choice(state.legal_actions())
    assert state.action_to_string(state.current_player(), action) in {
        str(move) for move in position.legal_moves()
    }
    before = str(state)
    child = state.child(action)
    assert str(state) == before
    assert child.position is not None
    assert len(child.position.history) == 1
    assert child.history() == [*state.history(), action]


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("classic", 1), ("scopa-3", 2), ("scopa-4", 3), ("cirulla", 4), ("scopa-a-perdere", 5)],
)
def test_returns_are_side_points_minus_best_other(variant: str, seed: int) -> None:
    state = play_randomly(load(variant), seed)
    assert state.is_terminal()
    position = state.position
    assert position is not None
    returns = state.returns()
    assert returns == list(hand_returns(position))
    points = position.hand_score().points
    rules = position.rules
    for player, value in enumerate(returns):
        side = rules.side_of(player)
        others = [p for s, p in enumerate(points) if s != side]
        if rules.lowest_total_wins:  # points count against: the gap below the lowest other
            assert value == min(others) - points[side]
        else:
            assert value == points[side] - max(others)
    if rules.number_of_sides == 2:
        assert sum(returns) == 0


def test_returns_are_zero_before_the_end() -> None:
    rng = random.Random(5)
    state = after_deal(load("classic"), rng)
    assert state.returns() == [0.0, 0.0]
    assert state.rewards() == [0.0, 0.0]


def test_the_last_card_of_the_first_table_cannot_make_it_annulled() -> None:
    # classic annuls a first table with three Kings or more; the first 6 cards go to the
    # hands, the next 4 to the table
    state = load("classic").new_initial_state()
    kings = [9, 19, 29, 39]
    for card in [0, 1, 2, 3, 4, 5, 9, 19, 6]:  # two Kings and the 7 of denari on the table
        state.apply_action(card)
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == set(range(40)) - {0, 1, 2, 3, 4, 5, 6, *kings}
    assert sum(outcomes.values()) == pytest.approx(1.0)
    with pytest.raises(IllegalMoveError, match="annuls"):
        state.apply_action(29)
    state.apply_action(7)
    assert set(dict(state.chance_outcomes())) == set(range(40)) - {0, 1, 2, 3, 4, 5, 6, 7, 9, 19}


def test_observations() -> None:
    rng = random.Random(6)
    game = load("scopa-4")
    state = after_deal(game, rng, plays=5)
    position = state.position
    assert position is not None
    for player in range(4):
        info = state.information_state_string(player)
        seen = state.observation_string(player)
        assert info.startswith(seen)
        assert "plays " in info
        assert "plays " not in seen
        expected = np.array(observation(view(position, player)), dtype=np.float32)
        assert np.array_equal(np.array(state.observation_tensor(player), np.float32), expected)
    assert len({state.information_state_string(p) for p in range(4)}) == 4
    assert game.observation_tensor_size() == len(observation(view(position, 0)))


def test_observations_while_dealing_show_only_own_cards() -> None:
    game = load("classic", dealer=1)
    state = game.new_initial_state()
    for card in range(8):  # player 0 (after the dealer) gets 0-2, player 1 3-5, table 6-9
        state.apply_action(card)
    mine = state.information_state_string(0)
    assert "hand 1D2D3D " in mine
    assert mine.endswith("table 7D8D")
    assert "4D" not in mine
    tensor = np.array(state.observation_tensor(1))
    assert tensor[3:6].tolist() == [1.0, 1.0, 1.0]
    assert tensor[:3].sum() == 0
    assert tensor[40 + 6 : 40 + 8].tolist() == [1.0, 1.0]


def test_public_observer_hides_the_hand() -> None:
    game = load("classic")
    rng = random.Random(7)
    state = after_deal(game, rng)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    observer.set_from(state, 0)
    assert observer.tensor is not None
    assert observer.tensor[:40].sum() == 0
    assert "hand" not in observer.string_from(state, 0)
    everyone = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="at most one player"):
        game.make_py_observer(everyone)


def test_clone_is_independent() -> None:
    rng = random.Random(9)
    state = after_deal(load("classic"), rng)
    copy = state.clone()
    assert str(copy) == str(state)
    assert copy.history() == state.history()
    copy.apply_action(copy.legal_actions()[0])
    assert str(copy) != str(state)
    assert len(copy.history()) == len(state.history()) + 1


def test_serialization_keeps_the_plays() -> None:
    rng = random.Random(10)
    game = load("scopa-4")
    state = after_deal(game, rng, plays=6)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.history() == state.history()
    for player in range(4):
        assert again.information_state_string(player) == state.information_state_string(player)


@pytest.mark.parametrize(
    ("variant", "knobs"),
    [
        ("classic", {}),
        ("scopa-4", {}),
        ("asso-piglia-tutto-4", {}),
        ("scopa-3", {"compulsory_capture": "capturing-card"}),
        ("cirulla", {}),
    ],
)
def test_resampling_keeps_the_information_state(variant: str, knobs: dict[str, Any]) -> None:
    game = load(variant, **knobs)
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    checked = 0
    while True:
        if state.is_chance_node() and len(state.dealt) % 7 != 3:
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
            continue
        for player in range(game.num_players()):
            world = state.resample_from_infostate(player, sampler)
            assert isinstance(world, ScopaState)
            info = state.information_state_string(player)
            assert world.information_state_string(player) == info
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.current_player() == state.current_player()
            if state.position is not None:
                assert len(world.history()) >= 40 + len(state.position.history)
            checked += 1
        if state.is_terminal():
            assert world.returns() == state.returns()
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > game.max_game_length() - 40


def test_resampling_draws_other_hands() -> None:
    rng = random.Random(12)
    state = after_deal(load("classic"), rng)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    worlds = {str(state.resample_from_infostate(0, sampler)) for _ in range(10)}
    assert len(worlds) > 1


def test_resampling_gives_up_on_unlikely_histories(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openspiel_adapter, "_RESAMPLE_ATTEMPTS", 0)
    rng = random.Random(13)
    state = after_deal(load("classic"), rng)
    state.apply_action(state.legal_actions()[0])
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.history() == []
    assert world.information_state_string(1) == state.information_state_string(1)


def random_bot(game: ScopaGame, player: int) -> Any:
    return pyspiel.make_uniform_random_bot(player, 100 + player)


def play_with_bots(game: ScopaGame, bots: list[Any], seed: int) -> ScopaState:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def ismcts_bot(game: ScopaGame, evaluator: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's information-set MCTS bot, seeded."""
    random_state = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=random_state
    )


def test_ismcts_against_mcts() -> None:
    game = load("classic")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [
        ismcts_bot(game, evaluator, simulations=40, seed=2),
        mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=40,
            evaluator=evaluator,
            random_state=np.random.RandomState(3),
        ),
    ]
    state = play_with_bots(game, bots, seed=4)
    assert state.is_terminal()
    assert sum(state.returns()) == 0


def test_ismcts_partners_against_random_bots() -> None:
    game = load("scopa-4")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(5))
    bots = [
        ismcts_bot(game, evaluator, simulations=10, seed=6)
        if player % 2 == 0
        else random_bot(game, player)
        for player in range(4)
    ]
    state = play_with_bots(game, bots, seed=7)
    assert state.is_terminal()
    returns = state.returns()
    assert returns[0] == returns[2] == -returns[1] == -returns[3]


@pytest.mark.parametrize("variant", variant_names())
def test_information_state_tensors_have_the_size_of_the_rules(variant: str) -> None:
    game = load(variant)
    rules = find_variant(variant)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_size() == information_state_size(rules)
    assert game.information_state_tensor_shape() == [information_state_size(rules)]


@pytest.mark.parametrize("variant", ["classic", "scopa-4", "cirulla"])
def test_information_state_tensors_are_the_encoded_views_with_their_plays(variant: str) -> None:
    game = load(variant)
    rng = random.Random(14)
    state = after_deal(game, rng, plays=7)
    position = state.position
    assert position is not None
    for player in range(game.num_players()):
        tensor = state.information_state_tensor(player)
        assert tensor == pytest.approx(information_state(view(position, player)))
        assert tensor[: game.observation_tensor_size()] == state.observation_tensor(player)
    resampled = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_tensor(1) == state.information_state_tensor(1)


def test_information_state_tensors_while_dealing_hold_only_the_seen_cards() -> None:
    game = load("classic", dealer=1)
    state = game.new_initial_state()
    for card in range(8):  # player 0 gets 0-2, player 1 3-5, the table 6 and 7
        state.apply_action(card)
    tensor = state.information_state_tensor(0)
    assert len(tensor) == 3124
    assert [i for i, v in enumerate(tensor) if v] == [0, 1, 2, 46, 47]


# --------------------------------------------------------------------------- move facts


@pytest.mark.parametrize(("variant", "encoding"), [("classic", "compact"), ("scopa-4", "flat")])
def test_random_simulations_with_move_facts(variant: str, encoding: str) -> None:
    game = load(variant, encoding=encoding, move_facts=True)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", ["classic", "scopa-4", "cirulla"])
def test_move_facts_end_both_tensors(variant: str) -> None:
    plain = load(variant)
    game = load(variant, move_facts=True)
    assert game.observation_tensor_size() == plain.observation_tensor_size() + 2160
    assert game.information_state_tensor_size() == plain.information_state_tensor_size() + 2160
    state = after_deal(game, random.Random(15), plays=5)
    twin = after_deal(plain, random.Random(15), plays=5)
    position = state.position
    assert position is not None
    assert position == twin.position
    for player in range(game.num_players()):
        expected = legal_move_facts(view(position, player))
        if player != position.current_player:
            assert not any(expected)
        for tensor, before in (
            (state.observation_tensor(player), twin.observation_tensor(player)),
            (state.information_state_tensor(player), twin.information_state_tensor(player)),
        ):
            assert tensor[: len(before)] == before
            assert tensor[len(before) :] == pytest.approx(expected)
    mover = position.current_player
    assert mover is not None
    facts = state.observation_tensor(mover)[plain.observation_tensor_size() :]
    present = [slot for slot in range(120) if facts[MOVE_FACTS * slot] == 1.0]
    ids = legal_actions(position)
    assert present == [3 * (a // 64) + a % 64 for a in ids if a % 64 < 3]
    assert str(pyspiel.load_game(str(game))) == str(game)


def test_move_facts_are_zero_while_dealing_and_for_the_public_observer() -> None:
    game = load("classic", move_facts=True)
    state = game.new_initial_state()
    for card in range(8):
        state.apply_action(card)
    assert not any(state.information_state_tensor(1)[-2160:])
    deal(state, random.Random(3))
    mover = state.current_player()
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    observer.set_from(state, mover)
    assert sorted(observer.dict) == ["move_facts", "observation"]
    assert observer.dict["move_facts"].shape == (2160,)
    assert not observer.dict["move_facts"].any()
    private = game.make_py_observer()
    private.set_from(state, mover)
    assert private.dict["move_facts"].any()
    assert np.shares_memory(private.dict["move_facts"], private.tensor)


def test_a_move_facts_parameter_that_is_not_a_bool_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="move_facts"):
        load("classic", move_facts=1)
    with pytest.raises(TypeError, match="move_facts must be a bool, not str"):
        ScopaGame({"move_facts": "yes"})
