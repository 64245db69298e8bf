"""The OpenSpiel game on fewer cards: scopa-mini, the `ranks` and `suits` parameters, CFR.

CFR runs as docs/solving.md runs it: OpenSpiel's C++ solver on the game's cached tree.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

from open_spiel.python import policy  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.algorithms import exploitability  # type: ignore[import-untyped]  # noqa: E402

from scopa import DECK, IllegalMoveError, InvalidArgumentError, RulesError, find_variant  # noqa: E402
from scopa.adapters.openspiel import GAME_NAME, ScopaGame, rules_from_parameters  # noqa: E402

MINI_CARDS = [DECK[i] for i in (0, 5, 6, 10, 15, 16)]  # 1D 6D 7D 1C 6C 7C


def load(**parameters: object) -> ScopaGame:
    game: ScopaGame = pyspiel.load_game(GAME_NAME, {"variant": "scopa-mini", **parameters})
    return game


def test_chance_deals_only_the_cards_in_play() -> None:
    game = load()
    assert game.rules == find_variant("scopa-mini")
    assert game.max_game_length() == 6 + 4  # six cards dealt, four played
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [DECK[card] for card, _ in outcomes] == MINI_CARDS
    assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)
    for dealt in range(6):
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == 6 - dealt
        state.apply_action(state.chance_outcomes()[-1][0])
    assert not state.is_chance_node()
    position = state.position
    assert position is not None
    # dealt from the last card in play down: player 1 leads with 7C 6C, player 0 has 1C 7D
    assert position.hands[1] == frozenset(MINI_CARDS[4:6])
    assert position.hands[0] == frozenset(MINI_CARDS[2:4])
    assert position.table == frozenset(MINI_CARDS[:2])


def test_a_card_out_of_play_cannot_be_dealt() -> None:
    state = load().new_initial_state()
    with pytest.raises(IllegalMoveError, match="card 1 cannot be dealt now"):
        state.apply_action(1)  # 2D


@pytest.mark.parametrize("variant", ["scopa-mini"])
def test_random_simulations(variant: str) -> None:
    pyspiel.random_sim_test(load(), num_sims=5, serialize=True, verbose=False)
    game = load(ranks="1,2,3,6,7", suits="dc")  # ten cards, dealt twice
    assert game.rules.deck_size == 10
    assert game.rules.deals_per_hand == 2
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_resampling_keeps_to_the_cards_in_play() -> None:
    game = load(ranks="1,2,3,6,7")
    rng = random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
    state.apply_action(state.legal_actions()[0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        other = state.resample_from_infostate(0, sampler)
        assert other.information_state_string(0) == state.information_state_string(0)
        assert sorted(other.dealt) == sorted(state.dealt)


def test_ranks_and_suits_parameters() -> None:
    rules = rules_from_parameters({"variant": "scopa-mini", "ranks": "7, 1,6,2,3", "suits": "CD"})
    assert [int(rank) for rank in rules.ranks] == [1, 2, 3, 6, 7]
    assert [suit.letter for suit in rules.suits] == ["D", "C"]
    assert rules_from_parameters({"variant": "scopa-mini", "ranks": "", "suits": ""}) == (
        find_variant("scopa-mini")
    )
    with pytest.raises(InvalidArgumentError, match="ranks must be numbers separated by commas"):
        rules_from_parameters({"variant": "scopa-mini", "ranks": "1,six"})
    with pytest.raises(InvalidArgumentError, match="suits must be suit letters"):
        rules_from_parameters({"variant": "scopa-mini", "suits": "DX"})
    with pytest.raises(RulesError, match="ranks must hold Ranks from 1 to 10, not 11"):
        rules_from_parameters({"variant": "scopa-mini", "ranks": "1,6,7,11"})
    with pytest.raises(RulesError, match="do not split into deals"):
        rules_from_parameters({"variant": "classic", "suits": "DC"})


def test_cfr_on_the_cached_tree_of_scopa_mini() -> None:
    # docs/solving.md runs OpenSpiel's C++ CFR on the cached tree of the Python game, which
    # must be the same game: the uniform policy is as far from an equilibrium on both
    # (OpenSpiel's Python NashConv walks the Python game itself). CFR's first average
    # policy is that uniform one; 30 iterations bring it within 0.05 of an equilibrium
    # (24 do, in docs/solving.md), which a wrong game or solver would not.
    game = load()
    tree = pyspiel.load_game(f"cached_tree(game={GAME_NAME}(variant=scopa-mini))")
    uniform = exploitability.nash_conv(game, policy.TabularPolicy(game))
    assert uniform > 1
    solver = pyspiel.CFRSolver(tree)
    solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(tree, solver.average_policy()) == pytest.approx(uniform)
    for _ in range(29):
        solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(tree, solver.average_policy()) < 0.05
