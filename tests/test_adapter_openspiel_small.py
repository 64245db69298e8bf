"""The OpenSpiel game on fewer cards: scopa-mini and scopa-coperta, the `ranks`, `suits`
and `sorted_deal` parameters, the count of information states, CFR.

CFR runs as docs/solving.md runs it: OpenSpiel's C++ solver on the game's cached tree.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

from open_spiel.python import policy  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.algorithms import exploitability  # type: ignore[import-untyped]  # noqa: E402

from scopa import DECK, Card, IllegalMoveError, InvalidArgumentError, RulesError, find_variant  # noqa: E402
from scopa.adapters.openspiel import (  # noqa: E402
    GAME_NAME,
    ScopaGame,
    ScopaState,
    count_information_states,
    rules_from_parameters,
)

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


def test_a_sorted_deal_deals_each_group_in_increasing_order() -> None:
    # By hand: the leader's first card is the lower of their two, so a card with k cards
    # above it begins k of the 15 pairs: 1D 5/15, 6D 4/15, 7D 3/15, 1C 2/15, 6C 1/15 and
    # 7C, the highest, never. The second is any card above the first, equally likely.
    game = load(sorted_deal=True)
    assert game.sorted_deal
    assert game.max_game_length() == 6 + 4
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [DECK[card] for card, _ in outcomes] == MINI_CARDS[:5]
    assert [p for _, p in outcomes] == pytest.approx([5 / 15, 4 / 15, 3 / 15, 2 / 15, 1 / 15])
    state.apply_action(MINI_CARDS[2].index)  # 7D
    assert [DECK[card] for card, _ in state.chance_outcomes()] == MINI_CARDS[3:]
    with pytest.raises(IllegalMoveError, match="no accepted deal in increasing order"):
        state.apply_action(MINI_CARDS[0].index)  # 1D, below the 7D of the same hand
    state.apply_action(MINI_CARDS[5].index)  # 7C ends the leader's hand
    # the dealer's hand begins anew: 1D, 6D, 1C and 6C are left, with 3, 2, 1 and 0 above
    outcomes = state.chance_outcomes()
    assert [DECK[card] for card, _ in outcomes] == [MINI_CARDS[i] for i in (0, 1, 3)]
    assert [p for _, p in outcomes] == pytest.approx([3 / 6, 2 / 6, 1 / 6])
    with pytest.raises(TypeError, match="sorted_deal"):
        ScopaGame({"variant": "scopa-mini", "sorted_deal": 1})


Deal = tuple[tuple[frozenset[Card], ...], frozenset[Card]]


def chance_leaves(game: ScopaGame) -> tuple[dict[Deal, float], int]:
    """Each deal (the hands and the table) with its probability, and the chance sequences."""
    deals: dict[Deal, float] = {}
    sequences = 0

    def walk(state: ScopaState, probability: float) -> None:
        nonlocal sequences
        if not state.is_chance_node():
            position = state.position
            assert position is not None
            key = (position.hands, position.table)
            deals[key] = deals.get(key, 0.0) + probability
            sequences += 1
            return
        for card, chance in state.chance_outcomes():
            walk(state.child(card), probability * chance)

    walk(game.new_initial_state(), 1.0)
    return deals, sequences


def test_sorted_deals_give_every_accepted_deal_its_chance() -> None:
    # By hand: six cards split two, two and two in 6!/(2!2!2!) = 90 ways; Cirulla's misdeal
    # rule annuls a first table of two Aces, 1D 1C, which 4!/(2!2!) = 6 of them have. The
    # 84 others are equally likely, 1/84 each, dealt card by card (in 2!2!2! = 8 orders
    # each) or in increasing order within each group (one).
    for sort, orders in ((False, 8), (True, 1)):
        deals, sequences = chance_leaves(load(misdeal="cirulla", sorted_deal=sort))
        assert sequences == 84 * orders
        assert len(deals) == 84
        assert all(p == pytest.approx(1 / 84) for p in deals.values())
        assert all(table != frozenset(MINI_CARDS[::3]) for _, table in deals)


@pytest.mark.parametrize(
    "parameters",
    [{"variant": "scopa-coperta"}, {"variant": "classic"}, {"variant": "cirulla"}],
)
def test_sorted_deals_play_and_resample(parameters: dict[str, object]) -> None:
    game: ScopaGame = pyspiel.load_game(GAME_NAME, {**parameters, "sorted_deal": True})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    rng = random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node() and len(state.dealt) % 3 != 1:
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
            continue
        for player in range(game.num_players()):
            world = state.resample_from_infostate(player, sampler)
            info = state.information_state_string(player)
            assert world.information_state_string(player) == info
            assert len(world.history()) == len(state.history())  # replayed in sorted order
        if state.is_chance_node():
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_scopa_mini_hides_no_card_once_dealt() -> None:
    # Six cards, all dealt at once: each player holds two, sees two on the table and so
    # knows the other's two. A sorted deal has the same information states, in a smaller
    # tree.
    cards = count_information_states(load())
    assert (cards.hidden, cards.most_positions, cards.complete) == (0, 1, True)
    ordered = count_information_states(load(sorted_deal=True))
    assert ordered.information_states == cards.information_states
    assert (ordered.hidden, ordered.most_positions, ordered.complete) == (0, 1, True)
    assert ordered.states < cards.states


def test_scopa_coperta_hides_the_other_hand_and_the_stock() -> None:
    # By hand: the leader's first play, with two cards and an empty table, can be in
    # C(6,2) = 15 deals of the dealer's two and C(4,2) = 6 splits of the stock's four
    # between the two second hands: 90 positions. The walk is depth first, so its first
    # states hold the whole tree of the leader's first pair (1D 5D).
    game: ScopaGame = pyspiel.load_game(
        GAME_NAME, {"variant": "scopa-coperta", "sorted_deal": True}
    )
    assert (game.rules.deck_size, game.rules.deals_per_hand) == (8, 2)
    count = count_information_states(game, max_states=10_000)
    assert count.hidden > 0
    assert count.most_positions == 90
    assert (count.states, count.complete) == (10_000, False)


def test_counting_information_states_checks_its_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="max_states must be at least 1, not 0"):
        count_information_states(load(), max_states=0)
    with pytest.raises(TypeError, match="max_states must be an int"):
        count_information_states(load(), max_states=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="game must be"):
        count_information_states("scopa-mini")  # type: ignore[arg-type]


def test_cfr_plays_the_same_game_on_a_sorted_deal() -> None:
    # A sorted deal merges the orders of each group's cards, which play the same hand: CFR
    # on either cached tree has the same average policy's NashConv at every iteration.
    found = []
    for sort in (False, True):
        tree = pyspiel.convert_to_cached_tree(load(sorted_deal=sort))
        solver = pyspiel.CFRSolver(tree)
        for _ in range(10):
            solver.evaluate_and_update_policy()
        found.append(pyspiel.nash_conv(tree, solver.average_policy()))
    assert found[1] == pytest.approx(found[0], abs=1e-9)
    assert found[0] > 0.05  # ten iterations are far from an equilibrium
