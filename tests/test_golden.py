"""Golden files: known answers that every future version must give.

Each file of `tests/golden/` holds one kind of known answer, one entry a line, in the
format documented at its top:

- `captures.txt`: positions of the presets with all their legal moves;
- `leads.txt`: a player leading onto a table: every legal move, and moves refused;
- `plays.txt`: a move played from such a lead, and what it changes;
- `sequences.txt`: a few plays from a position, often to the end of the hand;
- `deals.txt`: hands dealt from the standard deck order and played out;
- `misdeals.txt`: first tables that the misdeal rule annuls or accepts;
- `scores.txt`: finished hands, every scoring category: one at least of every preset as it
  is, the known answer each preset must have;
- `categories.txt`: one scoring category of a finished hand (bonuses, other primiera rules);
- `matches.txt`: matches whose hands score scripted points, to their end.

The answers were worked out by hand from the rules as the documentation states them (the
rules page, docs/rules.md, and the variants' pages, docs/variants/*.md, with the rule
books they cite), not copied from the code; only the first entries of `captures.txt` and
`scores.txt` were generated once from the library, and those files list the ones checked
by hand since. The legal moves and the scores are also compared with the independent
oracles of `tests/oracle.py`.

The entries and tests marked `KA-NN` are the known-answer examples below, each a rule
shown on a few cards; the same number marks the same example in every file:

- KA-01: a card of equal value is taken before any sum: 7D on 3C 4S 7B takes 7B only
  (docs/rules.md#what-a-card-can-capture).
- KA-02: a capture that empties the table before the final play is a scopa: 7D on 3C 4S
  (docs/rules.md#scopa).
- KA-03: of two cards of equal value one is taken, never both: 5D on 5C 5S 3B.
- KA-04: 9D on 1C 3S 4B 5C 8S takes 1C+8S, 4B+5C or 1C+3S+5C; under `MIN_CARDS`, which
  takes the fewest cards, only the two pairs (docs/variants/scopone.md).
- KA-05: 9D on 1C 2S 3B 4C 5S takes 4C+5S, 1C+3B+5S or 2S+3B+4C; under `MIN_CARDS` 4C+5S.
- KA-06: 5D on 2C 3S 5B takes 5B only; with `FREE` priority 2C+3S too.
- KA-07: 3D on 10C 2S takes nothing; in the games of fifteen 3 + 10 + 2 = 15 takes both
  (docs/rules.md#captures-to-fifteen).
- KA-08: in Cirulla, 7D on 3C 5S 6B 7C takes 7C (the fewest cards) or 3C+5S (a fifteen)
  (docs/variants/cirulla.md#captures).
- KA-09: a card that can capture must: holding 7D 10B on 2C 5S, 7D takes both, or 10B is
  laid down (docs/rules.md#compulsory-capture).
- KA-10: a card played on an empty table is laid down, no scopa; an Ace takes itself only
  under `ace_on_empty_table_captures_itself` (docs/rules.md#ace-sweeps).
- KA-11: 1D on 2C 5S 10B takes all three where an Ace sweeps (a scopa in asso piglia tutto,
  not in scopa d'assi), and is laid down in classic (docs/rules.md#ace-sweeps).
- KA-12: under `TAKE_ACE_ONLY`, 1D on 1C 6S 7B takes 1C only, no scopa.
- KA-13: the dealer's final card that empties the table makes no scopa, unless
  `scopa_on_last_play` (docs/rules.md#scopa, docs/rules.md#end-of-the-hand).
- KA-14: a sweep on the play before the final one counts; the dealer's last card, laid
  on the empty table, goes to the last capturer.
- KA-16: first tables: 10C 10S 10B 4D is annulled in classic and tretre, 5D 5C 5S 5B only
  in tretre, 1C 1S 6B 8D only in Cirulla, 10C 10S 3B 4D in none (docs/rules.md#misdeals).
- KA-17: carte 20-20 and denari 5-5 score nothing; 21-19 and 6-4 score a point
  (docs/rules.md#scoring).
- KA-18: best cards 7D 7C 6B 1S make a primiera of 76, or 75 on the tretre table
  (docs/rules.md#primiera).
- KA-19: 7D 7C 7S 10B (73) lose the primiera to 7B 6D 6C 6S (75) on both tables.
- KA-25: with two sides, carte, denari, settebello and primiera give 4 points a hand, less
  one for each tie among carte, denari and primiera.

The rules of an entry are written as a preset name, then any changes, separated by spaces:
`KNOB=VALUE` sets a field of `scopa.Rules` (`true` or `false`, an enum's value such as
`min-cards`, a number); `primiera=TABLE:POLICY[:RULE]` replaces the primiera category by one
with that table, missing-suit policy and rule (by default `sum`); `carte-threshold=N` and
`denari-threshold=N` give those categories a threshold; `+napola`, `+napola:wins-match`
(the napoleone wins the match outright) and `+re-bello` add a bonus category, scored last.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest

from scopa import (
    DECK,
    BrilliEconomy,
    Card,
    Carte,
    Deck,
    Denari,
    GameState,
    IllegalMoveError,
    InvalidStateError,
    Match,
    MissingSuit,
    Move,
    Napola,
    Outcome,
    Primiera,
    PrimieraRule,
    ReBello,
    Rules,
    ScoringComponent,
    ScoringRules,
    SeriesRecord,
    find_variant,
    variant_names,
)
from tests import oracle
from tests.helpers import (
    PRIMIERA_TABLES,
    assert_legal,
    card_list,
    cards,
    finish_hand,
    finished,
    lead,
    piles_of,
    position,
    rest_of,
    scripted,
)

GOLDEN = Path(__file__).parent / "golden"

# ----------------------------------------------------------------------------- reading


def entries(name: str, fields: int) -> list[list[str]]:
    """The entries of a golden file, split into their fields (comments removed)."""
    found = []
    for number, line in enumerate((GOLDEN / name).read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parts = [part.strip() for part in text.split(" | ")]
        assert len(parts) == fields, f"{name} line {number}: {len(parts)} fields, not {fields}"
        found.append(parts)
    return found


def checked_by_hand(name: str) -> list[str]:
    """The ids listed after "Checked by hand" in the file's header."""
    header = (GOLDEN / name).read_text(encoding="utf-8").split("\n\n", 1)[0]
    listed = header.split("Checked by hand", 1)[1]
    return re.findall(r"\b[PS]\d\d\b", listed)


BONUSES: dict[str, ScoringComponent] = {
    "napola": Napola(),
    "napola:wins-match": Napola(napoleone_wins_match=True),
    "re-bello": ReBello(),
}


def _replaced(rules: Rules, component: ScoringComponent) -> Rules:
    """The rules with the scoring category of the same name replaced, in its place."""
    parts = rules.scoring.components
    assert component.name in [part.name for part in parts], component
    kept = tuple(component if part.name == component.name else part for part in parts)
    return attrs.evolve(rules, scoring=ScoringRules(kept))


def _changed(rules: Rules, change: str) -> Rules:
    """The rules with one change of an entry's rules applied."""
    if change.startswith("+"):
        return attrs.evolve(rules, scoring=rules.scoring.with_component(BONUSES[change[1:]]))
    key, _, value = change.partition("=")
    if key == "primiera":
        table, policy, *rule = value.split(":")
        chosen = PrimieraRule(rule[0]) if rule else PrimieraRule.SUM
        return _replaced(rules, Primiera(PRIMIERA_TABLES[table], MissingSuit(policy), chosen))
    if key == "carte-threshold":
        return _replaced(rules, Carte(threshold=int(value)))
    if key == "denari-threshold":
        return _replaced(rules, Denari(threshold=int(value)))
    current = getattr(rules, key)
    knob: dict[str, Any] = {}
    if isinstance(current, bool):
        knob[key] = {"true": True, "false": False}[value]
    elif isinstance(current, enum.Enum):
        knob[key] = type(current)(value)
    else:
        knob[key] = int(value)
    return attrs.evolve(rules, **knob)


def rules_of(spec: str) -> Rules:
    """The rules of an entry: a preset name, then its changes (see the module's docstring)."""
    preset, *changes = spec.split()
    rules = find_variant(preset)
    for change in changes:
        rules = _changed(rules, change)
    return rules


def per_player(text: str) -> list[str]:
    """A field with one part per player, separated by `/`."""
    return [part.strip() for part in text.split("/")]


def numbers(text: str) -> tuple[int, ...]:
    """Numbers separated by commas, one per side: `1,0`."""
    return tuple(int(number) for number in text.split(","))


def scope_of(text: str) -> tuple[int, ...]:
    """The scope of each player, separated by `/`: `1/0`."""
    return tuple(int(number) for number in per_player(text))


def moves(text: str) -> list[Move]:
    """Moves separated by spaces, or `-` for none."""
    return [] if text == "-" else [Move.parse(token) for token in text.split()]


def brilli(text: str) -> Fraction:
    """A sum of fractions and whole numbers, such as `90/11+40`."""
    return sum((Fraction(term) for term in re.findall(r"[+-]?[^+-]+", text)), Fraction(0))


CAPTURES = entries("captures.txt", 4)
LEADS = entries("leads.txt", 6)
PLAYS = entries("plays.txt", 8)
SEQUENCES = entries("sequences.txt", 10)
DEALS = entries("deals.txt", 8)
MISDEALS = entries("misdeals.txt", 4)
SCORES = entries("scores.txt", 5)
CATEGORIES = entries("categories.txt", 7)
MATCHES = entries("matches.txt", 9)
FILES = {
    "captures.txt": CAPTURES,
    "leads.txt": LEADS,
    "plays.txt": PLAYS,
    "sequences.txt": SEQUENCES,
    "deals.txt": DEALS,
    "misdeals.txt": MISDEALS,
    "scores.txt": SCORES,
    "categories.txt": CATEGORIES,
    "matches.txt": MATCHES,
}


def each(found: list[list[str]]) -> Callable[..., object]:
    """Parametrize a test over the entries of a golden file, named by their ids."""
    return pytest.mark.parametrize("entry", found, ids=[entry[0] for entry in found])


# ----------------------------------------------------------------------------- the files


@pytest.mark.parametrize("name", FILES)
def test_the_files_are_whole(name: str) -> None:
    found = FILES[name]
    ids = [entry[0] for entry in found]
    assert len(set(ids)) == len(ids), "ids are unique"
    for entry in found:
        rules_of(entry[1])
    if name in ("captures.txt", "scores.txt"):
        checked = checked_by_hand(name)
        assert len(checked) >= 20, "at least 20 entries checked by hand"
        assert set(checked) <= set(ids)


def test_every_preset_has_a_hand_scored_by_hand() -> None:
    # The known answers a preset must have are in one place: a finished hand of the preset
    # as it is, every category scored, in scores.txt (its scoring is what a preset most
    # often sets, and this checks its categories, their names and order). Its captures,
    # play and scores are also compared on random hands with the oracles of
    # tests/oracle.py, which read its rules (tests/test_oracle_scoring.py); the other files
    # hold the known answers of the rules, under the presets that show them best.
    scored = {entry[1] for entry in SCORES}
    missing = [name for name in variant_names() if name not in scored]
    assert not missing, f"no hand of {missing} is scored in tests/golden/scores.txt"


# ----------------------------------------------------------------------------- moves


@each(CAPTURES)
def test_golden_legal_moves(entry: list[str]) -> None:
    _, preset, text, expected = entry
    state = GameState.from_text(find_variant(preset), text)
    assert state.to_text() == text
    legal = expected.split()
    assert len(set(legal)) == len(legal)
    assert sorted(str(m) for m in state.legal_moves()) == sorted(legal)
    assert {str(m) for m in oracle.legal_moves(state)} == set(legal)


@each(LEADS)
def test_golden_leads(entry: list[str]) -> None:
    _, spec, hand, table, legal, refused = entry
    state = lead(rules_of(spec), hand, table)
    assert state.current_player == 0
    assert_legal(state, legal)
    assert oracle.legal_moves(state) == set(moves(legal))
    before = state.to_text()
    for move in moves(refused):
        with pytest.raises(IllegalMoveError):
            state.apply(move)
    assert state.to_text() == before


@each(PLAYS)
def test_golden_plays(entry: list[str]) -> None:
    _, spec, hand, table, played, table_after, taken, scope = entry
    rules = rules_of(spec)
    dealer = rules.players - 1
    state = lead(rules, hand, table)
    move = Move.parse(played)
    after = state.apply(move)
    assert after.table == cards(table_after)
    assert after.hands[0] == state.hands[0] - {move.card}
    assert after.piles[0] - state.piles[0] == cards(taken)
    assert after.piles[1:] == state.piles[1:]
    assert after.scope == (int(scope),) + (0,) * dealer
    assert after.last_capturer == (0 if cards(taken) else dealer)
    assert after.current_player == 1
    assert not after.is_terminal


@each(SEQUENCES)
def test_golden_sequences(entry: list[str]) -> None:
    _, spec, dealer_text, hands, table, plays, table_after, gains, scope, end = entry
    rules = rules_of(spec)
    players, dealer = rules.players, int(dealer_text)
    state = start = position(rules, per_player(hands), table, dealer=dealer)
    steps = [step.split(" -> ") for step in plays.split(" ; ")]
    for number, (legal, played) in enumerate(steps):
        # the player after the dealer leads, then play goes upwards
        assert state.current_player == (dealer + 1 + number) % players
        assert_legal(state, legal)
        state = state.apply(Move.parse(played))
    assert state.is_terminal is (end == "over")
    if state.is_terminal:
        assert (dealer + len(steps)) % players == dealer, "the dealer played last"
        assert state.legal_moves() == ()
    assert state.table == cards(table_after)
    for player, gained in enumerate(per_player(gains)):
        assert state.piles[player] - start.piles[player] == cards(gained)
    assert state.scope == scope_of(scope)
    if state.is_terminal:  # the cards left after the last play, and who took them
        taker = state.leftovers_taken_by
        if state.table:
            assert (taker, state.leftover_cards) == (None, state.table)
        elif state.leftover_cards:
            assert taker is not None
            assert state.leftover_cards <= state.piles[taker] - start.piles[taker]


@each(DEALS)
def test_golden_deals(entry: list[str]) -> None:
    _, spec, dealer_text, hands, table, first_legal, deals, plays = entry
    rules = rules_of(spec)
    players, dealer = rules.players, int(dealer_text)
    leader = (dealer + 1) % players
    state = GameState.new(rules, deck=Deck.standard(), dealer=dealer)
    assert state.hands == tuple(cards(hand) for hand in per_player(hands))
    assert state.table == cards(table)
    full = players * rules.hand_size
    in_play = tuple(card for card in DECK if rules.in_play_mask >> card.index & 1)
    assert state.stock == in_play[full + rules.table_size :]
    assert state.current_player == leader
    assert state.dealer == dealer
    assert_legal(state, first_legal)
    assert (rules.deals_per_hand, rules.plays_per_hand) == (int(deals), int(plays))
    dealt = played = 0
    mover: int | None = None
    while not state.is_terminal:  # the first legal move each time
        if sum(len(hand) for hand in state.hands) == full:
            dealt += 1
            assert state.current_player == leader
        mover = state.current_player
        state = state.apply(state.legal_moves()[0])
        played += 1
    assert (dealt, played) == (int(deals), int(plays))
    assert mover == dealer
    # the leftovers went to the last capturer: every card is in a pile
    assert state.table == frozenset()
    assert sum(len(pile) for pile in state.piles) == rules.deck_size


@each(MISDEALS)
def test_golden_misdeals(entry: list[str]) -> None:
    _, spec, table_text, verdict = entry
    rules = rules_of(spec)
    table = card_list(table_text)
    assert len(table) == rules.table_size
    annulled = verdict == "annulled"
    assert rules.misdeal.annuls(table) is annulled
    # a deck that deals this first table
    head = sorted(rest_of(table))[: rules.players * rules.hand_size]
    deck = Deck([*head, *table, *sorted(rest_of(head, table))])
    dealer = rules.players - 1
    if annulled:
        with pytest.raises(InvalidStateError, match="annulled"):
            GameState.new(rules, deck=deck, dealer=dealer)
    else:
        assert GameState.new(rules, deck=deck, dealer=dealer).table == frozenset(table)


# ----------------------------------------------------------------------------- scores


@each(SCORES)
def test_golden_hand_scores(entry: list[str]) -> None:
    _, spec, pile_text, scope_text, expected = entry
    rules = rules_of(spec)
    piles = piles_of(per_player(pile_text))
    scope = scope_of(scope_text)
    assert len(piles) == len(scope) == rules.players
    score = finished(rules, piles, scope).hand_score()
    found = " ".join(
        f"{c.name}={','.join(map(str, c.points))}/{','.join(map(str, c.figures))}" for c in score
    )
    assert f"{found} points={','.join(map(str, score.points))}" == expected

    # The settebello (Escoba's siete de velo) always scores, for the side that holds it.
    holder = next(p for p, pile in enumerate(piles) if Card.parse("7D") in pile)
    sides = rules.number_of_sides
    named = oracle.standard_names(rules)
    if "settebello" in named:
        settebello = score[named["settebello"]].points
        assert settebello == tuple(int(s == holder % sides) for s in range(sides))
    if sides == 2:  # KA-25: a point in each such category, less one per tie
        one_point = [named[n] for n in ("carte", "denari", "settebello", "primiera") if n in named]
        ties = sum(sum(score[name].points) == 0 for name in one_point)
        assert sum(sum(score[name].points) for name in one_point) == len(one_point) - ties

    # The independent oracle agrees with the file.
    side_piles, side_scope = oracle.by_side(rules, piles, scope)
    reference = oracle.preset_reference(rules, side_piles, side_scope)
    wanted = " ".join(
        f"{name}={','.join(map(str, points))}/{','.join(map(str, figures))}"
        for name, (points, figures) in reference.items()
    )
    assert expected == f"{wanted} points={','.join(map(str, score.points))}"


@each(CATEGORIES)
def test_golden_categories(entry: list[str]) -> None:
    _, spec, pile_text, name, points, figures, wins = entry
    rules = rules_of(spec)
    piles = piles_of(per_player(pile_text))
    category = finished(rules, piles).hand_score()[name]
    assert category.points == numbers(points)
    assert category.figures == numbers(figures)
    assert category.wins_match == (None if wins == "-" else int(wins))
    side_piles, scope = oracle.by_side(rules, piles, [0] * rules.players)
    reference = oracle.preset_reference(rules, side_piles, scope)
    assert reference[name] == (list(numbers(points)), list(numbers(figures)))
    assert category.wins_match == oracle.outright_winner(rules, side_piles)


# ----------------------------------------------------------------------------- matches


def check_hand_start(match: Match, number: int, first_dealer: int) -> None:
    """Hand `number` of a match is under way, dealt and led by the right players."""
    players = match.rules.players
    assert not match.is_over
    assert match.outcomes is None
    assert match.hand_number == number
    # the deal passes to the next player, and the player after the dealer leads
    assert match.dealer == (first_dealer + number - 1) % players
    assert match.state.current_player == (match.dealer + 1) % players


@each(MATCHES)
def test_golden_matches(entry: list[str]) -> None:
    _, spec, first_text, points_text, leaves, totals, winner, outcome_text, brilli_text = entry
    points = [numbers(hand) for hand in points_text.split()]
    rules = scripted(rules_of(spec), points)
    first = int(first_text)
    match = Match.new(rules, seed=1, first_dealer=first)
    for number in range(1, len(points) + 1):
        check_hand_start(match, number, first)
        match = finish_hand(match)
        assert match.totals == tuple(map(sum, zip(*points[:number], strict=True)))
    if leaves != "-":  # a player leaves after the first play of the next hand
        quitter, number = int(leaves), len(points) + 1
        check_hand_start(match, number, first)
        match = match.apply(match.state.legal_moves()[0]).abandon(quitter)
        assert match.abandonment is not None
        assert (match.abandonment.player, match.abandonment.hand) == (quitter, number)
        with pytest.raises(IllegalMoveError, match=f"player {quitter} left the table"):
            match.rematch(seed=2)
    assert match.is_over
    assert [hand.points for hand in match.hands] == points
    assert match.totals == numbers(totals)
    assert match.winner == int(winner)
    outcomes = tuple(Outcome(word) for word in outcome_text.split())
    assert match.outcomes == outcomes
    assert match.series == SeriesRecord(
        wins=tuple(int(o is Outcome.WIN) for o in outcomes),
        losses=tuple(int(o is Outcome.LOSS) for o in outcomes),
        abandoned=tuple(int(o is Outcome.ABANDONED) for o in outcomes),
    )
    if brilli_text == "-":
        assert match.settlement is None
    else:
        shares = tuple(brilli(side) for side in brilli_text.split())
        assert match.settlement == shares
        if leaves == "-":
            assert BrilliEconomy().settle(points, winner=int(winner)) == shares
            assert sum(shares) == 50
