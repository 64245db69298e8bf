"""Golden files: known legal moves and hand scores that every future version must give.

`tests/golden/captures.txt` holds positions with all their legal moves and
`tests/golden/scores.txt` finished hands with their scores, in the line formats documented
at the top of each file. The entries listed there as checked by hand were checked against
SPEC.md, not copied from the code. Each entry is also compared with the independent
oracles (`tests/oracle.py` for captures, `tests/test_oracle_scoring.py` for scores).
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from scopa import (
    Card,
    GameState,
    MissingSuit,
    PrimieraTable,
    Rules,
    ScoringRules,
    find_variant,
    variant_names,
)
from tests import oracle
from tests.test_oracle_scoring import plain, reference_score

GOLDEN = Path(__file__).parent / "golden"
TABLES = {
    "classic": PrimieraTable.CLASSIC,
    "tretre": PrimieraTable.TRETRE,
    "face-value-figures": PrimieraTable.FACE_VALUE_FIGURES,
    "zero-figures": PrimieraTable.ZERO_FIGURES,
}


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


CAPTURES = entries("captures.txt", 4)
SCORES = entries("scores.txt", 5)


@pytest.mark.parametrize(("name", "found"), [("captures.txt", CAPTURES), ("scores.txt", SCORES)])
def test_the_files_are_whole(name: str, found: list[list[str]]) -> None:
    ids = [entry[0] for entry in found]
    assert len(set(ids)) == len(ids), "ids are unique"
    checked = checked_by_hand(name)
    assert len(checked) >= 20, "at least 20 entries checked by hand"
    assert set(checked) <= set(ids)
    assert {entry[1].split()[0] for entry in found} == set(variant_names()), "every preset"


@pytest.mark.parametrize("entry", CAPTURES, ids=[entry[0] for entry in CAPTURES])
def test_golden_legal_moves(entry: list[str]) -> None:
    _, preset, position, moves = entry
    rules = find_variant(preset)
    state = GameState.from_text(rules, position)
    assert state.to_text() == position
    expected = moves.split()
    assert len(set(expected)) == len(expected)
    assert sorted(str(m) for m in state.legal_moves()) == sorted(expected)
    assert {str(m) for m in oracle.legal_moves(state)} == set(expected)


def cards_of(text: str) -> list[Card]:
    """Cards written one after the other in canonical form (`7D10B`), or `-` for none."""
    found = re.findall(r"(?:10|[1-9])[DCSB]", text)
    assert "".join(found) == ("" if text == "-" else text), text
    return [Card.parse(card) for card in found]


def rules_of(spec: str) -> Rules:
    preset, *change = spec.split()
    rules = find_variant(preset)
    if change:
        key, _, value = change[0].partition("=")
        assert key == "primiera", spec
        assert len(change) == 1, spec
        table, policy = value.split(":")
        rules = attrs.evolve(
            rules, scoring=ScoringRules.standard(TABLES[table], MissingSuit(policy))
        )
    return rules


@pytest.mark.parametrize("entry", SCORES, ids=[entry[0] for entry in SCORES])
def test_golden_hand_scores(entry: list[str]) -> None:
    _, spec, pile_text, scope_text, expected = entry
    rules = rules_of(spec)
    piles = [cards_of(part) for part in pile_text.split("/")]
    scope = [int(part) for part in scope_text.split("/")]
    n = rules.players
    assert len(piles) == len(scope) == n
    state = GameState.from_position(
        rules,
        hands=[()] * n,
        table=(),
        stock=(),
        dealer=0,
        piles=piles,
        scope=scope,
        last_capturer=max(p for p in range(n) if piles[p]),
    )
    assert state.is_terminal
    score = state.hand_score()
    found = " ".join(
        f"{c.name}={','.join(map(str, c.points))}/{','.join(map(str, c.figures))}" for c in score
    )
    assert f"{found} points={','.join(map(str, score.points))}" == expected

    # The independent oracle agrees with the file (standard scoring only).
    sides = rules.number_of_sides
    side_piles: list[list[tuple[int, str]]] = [[] for _ in range(sides)]
    side_scope = [0] * sides
    for player in range(n):
        side_piles[player % sides] += plain(piles[player])
        side_scope[player % sides] += scope[player]
    if "=" in spec:
        table, policy = spec.split("=")[1].split(":")
    elif spec == "tretre":  # SPEC.md section 7.5
        table, policy = "tretre", "zero"
    else:
        table, policy = "classic", "opponent-wins"
    reference = reference_score(side_piles, side_scope, table, policy)
    wanted = " ".join(
        f"{name}={','.join(map(str, points))}/{','.join(map(str, figures))}"
        for name, (points, figures) in reference.items()
    )
    assert expected.startswith(wanted + " points=")
