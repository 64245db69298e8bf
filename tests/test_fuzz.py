"""Fuzzing every text reader with generated and mutated inputs.

The readers are `Card.parse`, `Move.parse`, `GameState.parse_move`, `GameState.from_text`,
`Deck.parse`, `scopa.records.read_record` and `scopa.records.rules_from_data`, and
`GameState.from_position` with random groups of cards. On any input of bounded size they
must:

- raise nothing but a `scopa.ScopaError` subclass (and `TypeError` for an argument that is
  not text);
- return something that satisfies the invariants of `tests.validator`.

Inputs are valid texts (cards, moves, positions reached by random play, deal codes, records
of random matches, rules data) mutated by character insertions, deletions and
substitutions, by line and token edits, and plain generated text. The tests at the end pin
down the crashes this fuzzing found, one input each.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scopa import (
    DECK,
    AbandonReason,
    Card,
    Deck,
    GameState,
    Match,
    Move,
    Rules,
    ScopaError,
    variant_names,
)
from scopa.records import read_record, rules_from_data, rules_to_data, write_record
from tests.helpers import CLASSIC, with_fields
from tests.strategies import PRESETS, any_rules, decks, seeds, states
from tests.validator import check_match, check_rules, check_state

T = TypeVar("T")

# ----------------------------------------------------------------------------- calling


def read(reader: Callable[..., T], *args: Any) -> T | None:
    """Call a reader: a `ScopaError` is a refusal (`None`); any other error fails the test."""
    try:
        return reader(*args)
    except ScopaError:
        return None


# ----------------------------------------------------------------------------- mutations

# Characters that mean something to some reader, and some that look like them: Unicode
# digits that are not decimal, the Kelvin sign (it lowercases to k), a dotted capital I,
# the long s (it uppercases to S), Arabic-Indic digits, a fraction and a non-breaking space.
SPECIAL = (
    '0123456789DCSBHdcsbhAFRJQKaxX+-/ \t\n#{}[]":,.eE_♦♥♠♣'
    "\u00b2\u00b3\u00b9\u00bd\u212a\u0130\u017f\u0660\u0663\u00a0"
)
characters = st.sampled_from(SPECIAL) | st.characters()
# Characters that other characters turn into, or are mistaken for (a fuzzing dictionary).
LOOKALIKES = {
    "0": "\u2070\u0660\u00ba",
    "1": "\u00b9\u0661\u2460",
    "2": "\u00b2\u0662",
    "3": "\u00b3\u0663",
    "9": "\u2079\u0669",
    "K": "\u212a",
    "k": "\u212a",
    "S": "\u017f",
    "s": "\u017f",
    "I": "\u0130\u0131",
    " ": "\u00a0\u2003\x1c",
    "-": "\u2010\u2212",
}
tokens = st.sampled_from(
    [
        "-",
        "/",
        "x",
        "+",
        "0",
        "1",
        "2",
        "3",
        "7",
        "10",
        "99",
        "-1",
        "00",
        "\u00b2",
        "9" * 30,
        "7D",
        "10B",
        "\u212aD",
        "play",
        "hand",
        "score",
        "abandon",
        "result",
        "winner",
        "totals",
        "unfinished",
        "deal",
        "dealer",
        "timeout",
        "null",
        "{}",
        "[]",
    ]
)


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str], max_edits: int = 6) -> str:
    """A text from `base` with character, span, token and line edits."""
    text = draw(base)
    for _ in range(draw(st.integers(0, max_edits))):
        op = draw(
            st.sampled_from(
                [
                    "insert",
                    "delete",
                    "replace",
                    "span",
                    "copy",
                    "token",
                    "line",
                    "swap",
                    "cut",
                    "lookalike",
                    "kelvin",
                ]
            )
        )
        at = draw(st.integers(0, len(text)))
        if op == "lookalike":  # the next character that has lookalikes gets one
            spots = [i for i in range(at, len(text)) if text[i] in LOOKALIKES]
            if spots:
                i = spots[0]
                text = text[:i] + draw(st.sampled_from(LOOKALIKES[text[i]])) + text[i + 1 :]
        elif op == "kelvin":  # a King (10 or K) written with the Kelvin sign
            found = [i for i in (text.find("10", at), text.upper().find("K", at)) if i >= 0]
            if found:
                i = min(found)
                width = 2 if text.startswith("10", i) else 1
                text = text[:i] + "\u212a" + text[i + width :]
        elif op == "insert":
            text = text[:at] + draw(characters) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + 1 :]
        elif op == "replace":
            text = text[:at] + draw(characters) + text[at + 1 :]
        elif op == "span":  # delete several characters
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif op == "copy":  # insert a copy of a part of the text
            start = draw(st.integers(0, len(text)))
            text = text[:at] + text[start : start + draw(st.integers(1, 24))] + text[at:]
        elif op == "token":  # replace a whitespace-separated token
            words = text.split(" ")
            words[at % len(words)] = draw(tokens)
            text = " ".join(words)
        else:
            lines = text.split("\n")
            k = at % len(lines)
            if op == "line":  # delete or duplicate a line
                lines[k : k + 1] = [] if draw(st.booleans()) else [lines[k], lines[k]]
            elif op == "swap":
                j = draw(st.integers(0, len(lines) - 1))
                lines[k], lines[j] = lines[j], lines[k]
            else:  # cut the text at a line
                lines = lines[:k]
            text = "\n".join(lines)
    return text


any_text = st.text(characters, max_size=60)
not_text = st.integers() | st.binary(max_size=8) | st.none() | st.floats() | st.lists(st.text())

# ----------------------------------------------------------------------------- cards and moves

RANKS = [str(r) for r in range(1, 11)] + list("AFCRJQK")
SUITS = list("DCSBH♦♥♠♣")
card_texts = st.builds(
    lambda r, s, lower, pad: (r + s).lower() if lower else pad + r + s + pad,
    st.sampled_from(RANKS),
    st.sampled_from(SUITS),
    st.booleans(),
    st.sampled_from(["", " ", "\t"]),
)


@st.composite
def move_texts(draw: st.DrawFn) -> str:
    card = draw(st.sampled_from(DECK))
    taken = draw(st.lists(st.sampled_from(DECK), max_size=5, unique=True))
    text = str(Move(card, frozenset(taken) - {card}))
    return text.lower() if draw(st.booleans()) else text


def check_card(card: Card, text: str) -> None:
    assert isinstance(card, Card)
    assert card in DECK
    assert Card.parse(str(card)) == card
    assert str(card) == f"{card.value}{card.suit.letter}"
    # A card is also a move that lays it down: the two readers agree.
    assert Move.parse(text) == Move(card)


def check_move(move: Move) -> None:
    assert isinstance(move, Move)
    assert move.card in DECK
    assert move.card not in move.captured
    assert Move.parse(str(move)) == move
    assert Move.parse(repr(move)[len("Move.parse('") : -2]) == move


@settings(max_examples=300)
@given(text=mutated(card_texts, 3) | any_text)
def test_card_parse(text: str) -> None:
    card = read(Card.parse, text)
    if card is not None:
        check_card(card, text)


@settings(max_examples=300)
@given(text=mutated(move_texts(), 4) | mutated(card_texts, 3) | any_text)
@example(text="1D!")  # a claim with no capture, which the card reader refuses
def test_move_parse(text: str) -> None:
    move = read(Move.parse, text)
    if move is None:
        return
    check_move(move)
    if not move.captured and move.declaration is None and not move.claim:
        # a card laid down, with no declaration or claim after it, is a card: the readers agree
        assert read(Card.parse, text) == move.card, f"Move.parse reads {text!r} as {move}"


@st.composite
def positions_and_moves(draw: st.DrawFn) -> tuple[GameState, str]:
    state = draw(states())
    moves = state.legal_moves()
    texts = [str(m) for m in moves] + [str(m.card) for m in moves] or ["7D"]
    return state, draw(mutated(st.sampled_from(texts), 3) | move_texts() | any_text)


@settings(max_examples=200)
@given(case=positions_and_moves())
def test_parse_move(case: tuple[GameState, str]) -> None:
    state, text = case
    before = state.to_text()
    move = read(state.parse_move, text)
    assert state.to_text() == before
    if move is not None:
        check_move(move)
        assert move in state.legal_moves()


# ----------------------------------------------------------------------------- positions


@st.composite
def position_texts(draw: st.DrawFn) -> tuple[Rules, str]:
    state = draw(states())
    rules = state.rules if draw(st.integers(0, 4)) else draw(st.sampled_from(PRESETS))
    return rules, draw(mutated(st.just(state.to_text())))


@settings(max_examples=300)
@given(case=position_texts())
def test_from_text(case: tuple[Rules, str]) -> None:
    rules, text = case
    state = read(GameState.from_text, rules, text)
    if state is not None:
        check_state(state)


@st.composite
def position_groups(draw: st.DrawFn) -> tuple[Rules, dict[str, Any]]:
    """The groups of cards of a reached position, often perturbed, or random groups."""
    state = draw(states())
    rules = state.rules
    n = rules.players
    groups: list[list[Card]] = [
        *(sorted(h) for h in state.hands),
        sorted(state.table),
        list(state.stock),
        *(sorted(p) for p in state.piles),
    ]
    if draw(st.integers(0, 3)) == 0:  # random groups of a random order of the 40 cards
        order = draw(st.permutations(DECK))
        cuts = sorted(draw(st.lists(st.integers(0, 40), min_size=2 * n + 1, max_size=2 * n + 1)))
        bounds = [0, *cuts, 40]
        groups = [list(order[a:b]) for a, b in itertools.pairwise(bounds)]
    for _ in range(draw(st.integers(0, 3))):  # move, drop or duplicate a card
        source = draw(st.integers(0, len(groups) - 1))
        if not groups[source]:
            continue
        card = groups[source].pop(draw(st.integers(0, len(groups[source]) - 1)))
        what = draw(st.sampled_from(["move", "drop", "duplicate"]))
        if what != "drop":
            groups[draw(st.integers(0, len(groups) - 1))].append(card)
        if what == "duplicate":
            groups[source].append(card)
    players = st.none() | st.integers(-1, n)
    arguments: dict[str, Any] = {
        "hands": groups[:n],
        "table": groups[n],
        "stock": groups[n + 1],
        "piles": draw(st.just(groups[n + 2 :]) | st.none()),
        "dealer": draw(st.just(state.dealer) | st.integers(-1, n)),
        "current_player": draw(st.just(state.current_player) | players),
        "scope": draw(
            st.just(list(state.scope))
            | st.none()
            | st.lists(st.integers(-1, 3) | st.booleans(), min_size=n - 1, max_size=n + 1)
        ),
        "last_capturer": draw(st.just(state.last_capturer) | players),
    }
    if draw(st.integers(0, 9)) == 0:  # a wrong shape: a string, a set, too few groups
        shorter = arguments["hands"][:-1]
        arguments[draw(st.sampled_from(["hands", "piles"]))] = draw(
            st.sampled_from(["7D", set(), shorter])
        )
    return rules, arguments


@settings(max_examples=300)
@given(case=position_groups())
def test_from_position(case: tuple[Rules, dict[str, Any]]) -> None:
    rules, arguments = case
    state = read(lambda: GameState.from_position(rules, **arguments))
    if state is not None:
        check_state(state)


# ----------------------------------------------------------------------------- deal codes

CODE_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
code_texts = decks.map(lambda deck: str(deck)) | st.text(
    st.sampled_from(CODE_DIGITS + "ILOilo-"), min_size=30, max_size=36
)


def normalized_code(text: str) -> str:
    """A deal code as str(Deck) writes it: upper case, no hyphens, I and L as 1, O as 0."""
    digits = text.strip().upper().replace("-", "")
    return digits.replace("I", "1").replace("L", "1").replace("O", "0")


@settings(max_examples=300)
@given(text=mutated(code_texts, 4) | any_text)
def test_deck_from_code(text: str) -> None:
    deck = read(Deck.parse, text)
    if deck is not None:
        assert isinstance(deck, Deck)
        assert len(deck) == 40
        assert set(deck) == set(DECK)
        assert str(deck) == normalized_code(text)
        assert Deck.parse(str(deck)) == deck


# ----------------------------------------------------------------------------- records


@st.composite
def records(draw: st.DrawFn) -> str:
    """The record of a random match of a preset: unfinished, finished or abandoned."""
    rules = draw(st.sampled_from(PRESETS))
    seed = draw(seeds)
    match = Match.new(rules, seed=seed, first_dealer=draw(st.integers(0, rules.players - 1)))
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 120))):
        if match.is_over:
            break
        moves = match.state.legal_moves()
        match = match.apply(moves[rng.randrange(len(moves))])
    if not match.is_over and draw(st.integers(0, 3)) == 0:
        match = match.abandon(
            draw(st.integers(0, rules.players - 1)), draw(st.sampled_from(AbandonReason))
        )
    return write_record(match)


@settings(max_examples=150)
@given(text=mutated(records(), 5))
def test_read_record(text: str) -> None:
    match = read(read_record, text)
    if match is not None:
        check_match(match)


# ----------------------------------------------------------------------------- rules data

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
ENUMS = ["CapturePriority", "AceOnAce", "MisdealRule", "Tiebreak", "MissingSuit", "PrimieraRule"]
ENUM_VALUES = ["free", "min-cards", "take-all", "none", "tretre", "zero", "sum", "play-on"]
CLASSES = ["ScoringRules", "Scope", "Carte", "Denari", "Settebello", "Primiera"]
CLASSES += ["PrimieraTable", "ReBello", "Napola", "BrilliEconomy", "Rules", "Card"]
FIELDS = ["value", "threshold", "name", "table", "values", "missing_suit", "rule"]
FIELDS += ["components", "hand_pot", "paid_hands", "match_bonus", "napoleone_wins_match"]
fraction_texts = st.from_regex(r"\A-?[0-9]{1,3}(/[0-9]{1,3})?\Z") | st.from_regex(
    r"\A[0-9]{0,2}(\.[0-9]{0,2})?(e-?[0-9]{1,5})?\Z"
)


def encoded(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The shapes of `records._encode`, with names and values drawn from real and junk."""
    return (
        st.fixed_dictionaries(
            {"enum": st.sampled_from(ENUMS) | st.text(max_size=5), "value": json_values}
        )
        | st.fixed_dictionaries(
            {"enum": st.sampled_from(ENUMS), "value": st.sampled_from(ENUM_VALUES)}
        )
        | st.fixed_dictionaries({"fraction": fraction_texts | st.text(max_size=6)})
        | st.fixed_dictionaries({"tuple": st.lists(children, max_size=10)})
        | st.fixed_dictionaries(
            {
                "class": st.sampled_from(CLASSES),
                "fields": st.dictionaries(st.sampled_from(FIELDS), children, max_size=3),
            }
        )
    )


rule_values = st.recursive(json_values, encoded, max_leaves=10)
KNOBS = [a.name for a in attrs.fields(Rules)]


@st.composite
def rules_data(draw: st.DrawFn) -> Any:
    """Valid rules data with some values replaced, or other data altogether."""
    if draw(st.integers(0, 5)) == 0:
        return draw(rule_values)
    rules = draw(any_rules)
    data: Any = json.loads(json.dumps(rules_to_data(rules)))
    for _ in range(draw(st.integers(0, 3))):
        path: list[Any] = []
        node = data
        while isinstance(node, (dict, list)) and node and draw(st.integers(0, 2)):
            key = draw(
                st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node)))
            )
            path.append(key)
            node = node[key]
        value = draw(rule_values)
        if not path:
            changes = data.get("changes")
            if isinstance(changes, dict):
                changes[draw(st.sampled_from(KNOBS))] = value
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = value
    if draw(st.integers(0, 9)) == 0:
        data["variant"] = draw(st.sampled_from([*variant_names(), "Scopa d'assi", "nope", 7]))
    return data


@settings(max_examples=300)
@given(data=rules_data())
def test_rules_from_data(data: Any) -> None:
    rules = read(rules_from_data, data)
    if rules is not None:
        check_rules(rules)


@settings(max_examples=100)
@given(data=rules_data())
def test_rules_in_a_record(data: Any) -> None:
    # The same data, as the rules line of a record.
    try:
        line = json.dumps(data)
    except ValueError:
        return
    text = f"scopa-record 1\nrules {line}\nfirst-dealer 0\nhand 1 deal {'0' * 32} dealer 0\n"
    match = read(read_record, text + "result unfinished\n")
    if match is not None:
        check_match(match)


# ----------------------------------------------------------------------------- non-text


@settings(max_examples=60)
@given(value=not_text, data=st.data())
def test_readers_refuse_what_is_not_text(value: object, data: st.DataObject) -> None:
    state = GameState.new(CLASSIC, seed=data.draw(seeds))
    readers: list[Callable[[Any], object]] = [
        Card.parse,
        Move.parse,
        state.parse_move,
        lambda v: GameState.from_text(state.rules, v),
        Deck.parse,
        read_record,
    ]
    for reader in readers:
        with pytest.raises(TypeError):
            reader(value)


# ----------------------------------------------------------------------------- found crashes
# Each input below made a reader raise something other than a ScopaError, or return rules
# that break later, when this file was written. A plain reader must refuse them with a
# NotationError (or, for the rules, return rules that work).

POSITION = GameState.new(CLASSIC, seed=1).to_text()


def _deep(depth: int) -> Any:
    data: Any = {"tuple": []}
    for _ in range(depth):
        data = {"tuple": [data]}
    return data


def _record(first_dealer: str = "0", rules: str = '{"changes": {}, "variant": "classic"}') -> str:
    return (
        f"scopa-record 1\nrules {rules}\nfirst-dealer {first_dealer}\n"
        f"hand 1 deal {'0' * 32} dealer 0\nresult unfinished\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        with_fields(POSITION, dealer="\u00b2"),  # a superscript two passes str.isdigit, not int()
        with_fields(POSITION, current="\u00b9"),
        with_fields(POSITION, scope="0/\u00b3"),
        with_fields(POSITION, dealer="9" * 5000),  # more digits than int() reads
        POSITION.replace("10D", "\u212aD", 1),  # the Kelvin sign: a KeyError
        POSITION.replace("10B", "\u212ab", 1),
    ],
    ids=[
        "superscript-dealer",
        "superscript-current",
        "superscript-scope",
        "5000-digits",
        "kelvin-10D",
        "kelvin-10B",
    ],
)
def test_from_text_refuses_what_it_cannot_read(text: str) -> None:
    state = read(GameState.from_text, CLASSIC, text)
    if state is not None:
        check_state(state)


@pytest.mark.parametrize(
    "text",
    [
        _record(first_dealer="\u00b2"),
        _record(first_dealer="9" * 5000),
        _record(rules="[" * 100_000),  # the JSON decoder runs out of stack
        _record(rules='{"changes": {"target": ' + "9" * 5000 + '}, "variant": "classic"}'),
    ],
    ids=["superscript", "5000-digits", "deep-json", "big-json-int"],
)
def test_read_record_refuses_what_it_cannot_read(text: str) -> None:
    match = read(read_record, text)
    if match is not None:
        check_match(match)


def _stakes(**fields: Any) -> dict[str, Any]:
    return {
        "variant": "tretre",
        "changes": {"stakes": {"class": "BrilliEconomy", "fields": fields}},
    }


def _scoring(*components: Any) -> dict[str, Any]:
    parts = {"components": {"tuple": list(components)}}
    return {
        "variant": "classic",
        "changes": {"scoring": {"class": "ScoringRules", "fields": parts}},
    }


@pytest.mark.parametrize(
    "data",
    [
        _stakes(hand_pot={"fraction": "1/0"}),  # ZeroDivisionError
        _stakes(hand_pot={"fraction": "1e5000"}),  # rules that cannot be written back
        _stakes(paid_hands="x"),  # brilli fail with TypeError
        _scoring({"class": "Scope", "fields": {"value": "x"}}),  # points become text
        _scoring({"class": "Carte", "fields": {"threshold": "x"}}),
        {"variant": "classic", "changes": {"table_size": 4.0}},  # dealing fails
        {"variant": "classic", "changes": {"target": _deep(3000)}},  # RecursionError
    ],
    ids=[
        "fraction-1/0",
        "fraction-1e5000",
        "paid-hands-text",
        "scope-value-text",
        "carte-threshold-text",
        "table-size-float",
        "deep-tuple",
    ],
)
def test_rules_from_data_refuses_rules_that_do_not_work(data: Any) -> None:
    rules = read(rules_from_data, data)
    if rules is not None:
        check_rules(rules)


@pytest.mark.parametrize("text", ["\u212aD", "\u212ab", " \u212aS ", "7Dx\u212aC"])
def test_the_card_readers_agree_on_the_kelvin_sign(text: str) -> None:
    # The Kelvin sign matches K in the case-insensitive card pattern of the list readers,
    # but the card table only knows the letter K: Move.parse raised KeyError.
    card = read(Card.parse, text)
    move = read(Move.parse, text)
    assert move is None or move.captured or card == move.card
    assert read(GameState.new(CLASSIC, seed=1).parse_move, text) is None
