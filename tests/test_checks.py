"""The shared checks of values callers give (`scopa._checks`): quotations, labels, validators.

The validators `int_in` and `instance_of` are made when the rule classes are defined, so
they are made and called here, on the fields of a small class of their own.
"""

from __future__ import annotations

import attrs
import pytest

from scopa import RulesError
from scopa._checks import check_label, instance_of, int_in, quote


def test_an_int_of_up_to_100_bits_is_quoted_in_full() -> None:
    assert (2**99).bit_length() == 100
    assert quote(2**99) == "633825300114114700748351602688"
    assert quote(-(2**99)) == "-633825300114114700748351602688"


def test_a_larger_int_is_quoted_by_its_number_of_digits() -> None:
    # 2**100 has 101 bits, about 101 × log10(2) = 30.4 digits: 31 (1267650600228229401496703205376).
    assert quote(2**100) == "an int of about 31 digits"
    assert quote(10**4000) == "an int of about 4,001 digits"


def test_text_of_exactly_the_limit_is_quoted_in_full() -> None:
    assert quote("abcd", limit=4) == "'abcd'"
    assert quote("abcde", limit=4) == "'abcd'… (5 characters)"


def test_other_values_of_exactly_the_limit_are_quoted_in_full() -> None:
    assert quote([1, 2], limit=6) == "[1, 2]"
    assert quote([1, 2, 3], limit=6) == "[1, 2,… (9 characters)"


def test_a_label_has_1_to_64_characters() -> None:
    assert check_label("A", "name") == "A"
    assert check_label("x" * 64, "name") == "x" * 64
    for wrong in ("", "x" * 65):
        with pytest.raises(
            RulesError, match=f"^name must have 1 to 64 characters, not {len(wrong)}$"
        ):
            check_label(wrong, "name")


@attrs.frozen
class Knobs:
    """Fields to validate (the validators are made and called in the tests)."""

    players: int
    rounds: int
    title: str


PLAYERS, ROUNDS, TITLE = attrs.fields(Knobs)


def test_an_int_in_validator_accepts_its_bounds_and_what_lies_between() -> None:
    players = int_in(2, 8)
    rounds = int_in(0, 10_000)
    for value in (2, 5, 8):
        players(None, PLAYERS, value)
    rounds(None, ROUNDS, 0)
    rounds(None, ROUNDS, 10_000)


@pytest.mark.parametrize(
    ("value", "shown"), [(1, "1"), (9, "9"), (-3, "-3"), (True, "True"), (2.0, "2.0"), ("3", "'3'")]
)
def test_an_int_in_validator_refuses_other_values_and_quotes_them(
    value: object, shown: str
) -> None:
    with pytest.raises(RulesError) as raised:
        int_in(2, 8)(None, PLAYERS, value)
    assert str(raised.value) == f"players must be an int from 2 to 8, not {shown}"


def test_an_int_in_validator_writes_a_large_bound_with_separators() -> None:
    with pytest.raises(RulesError) as raised:
        int_in(0, 10_000)(None, ROUNDS, 10_001)
    assert str(raised.value) == "rounds must be an int from 0 to 10,000, not 10001"


def test_an_instance_of_validator_accepts_its_kind_and_refuses_others() -> None:
    text = instance_of(str, "text")
    text(None, TITLE, "Scopa")
    with pytest.raises(RulesError) as raised:
        text(None, TITLE, 3)
    assert str(raised.value) == "title must be text, not 3"
