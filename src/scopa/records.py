"""Game records: a versioned text format for whole matches, written and read back.

A record is a sequence of lines, each a keyword and its fields; blank lines and lines that
start with `#` are ignored:

```text
scopa-record 1
rules {"changes": {}, "variant": "tretre"}
first-dealer 0
series wins 1 0 losses 0 1 abandoned 0 0
stream 4120574396839744871
hand 1 deal 3F5RB7GJDWZEFWB4TK83VCB1GKNNY0HT dealer 0
play 1 9Sx9C
play 0 2D
…
score 3 1
hand 2 deal … dealer 1
…
result winner 0 totals 9 4
```

- `scopa-record N`: the format version (this library writes 1 and reads 1 and earlier).
- `rules`: the preset and the knobs changed from it, as JSON (see
  [`rules_to_data`][scopa.records.rules_to_data]).
- `first-dealer P`: the player who deals hand 1.
- `series wins W… losses L… abandoned A…` (only for a match after others of its series,
  such as a [`rematch`][scopa.Match.rematch]): the series record before the match, one
  number per player in each list.
- `stream N` (only for a match dealt from a seed): the state of the shuffling generator
  after the hands recorded, from which the next hands are dealt.
- `hand N deal CODE dealer P`: a hand, its deck as a deal code (`str(Deck)`), its dealer.
- `play P MOVE`: player `P` plays `MOVE` in move notation.
- `score A B …`: the points each side made in the hand just ended (a check).
- `abandon P REASON`: player `P` leaves (`voluntary`, `expelled`, `disconnected`,
  `timeout`).
- `result winner S totals A B …` for a finished match, or `result unfinished`.

Reading replays every move through the rules, so a record cannot describe an impossible
match; any problem raises `NotationError` or `IllegalMoveError` naming the line and field.
A record is read a line at a time, from its text, the path of its file or an open file.

Examples:
    >>> from scopa import Match, find_variant
    >>> match = Match.new(find_variant("classic"), seed=4)
    >>> match = match.apply(match.state.legal_moves()[0])
    >>> read_record(write_record(match)).state == match.state
    True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from enum import Enum
from fractions import Fraction
from typing import Any, NoReturn, TextIO

import attrs

from scopa._checks import quote
from scopa.cards import Card, Deck
from scopa.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    RulesError,
    ScopaError,
)
from scopa.match import Match, SeriesRecord
from scopa.rules import _DEPRECATED, Rules, _upgraded_knobs, find_variant, variant_names
from scopa.scoring import COMPONENTS, PrimieraTable, ScoringRules
from scopa.stakes import AbandonReason, BrilliEconomy

__all__ = ["FORMAT_VERSION", "read_record", "rules_from_data", "rules_to_data", "write_record"]

FORMAT_VERSION = 1
"""The version of the record format this library writes."""

_CLASSES: dict[str, type] = {
    cls.__name__: cls for cls in (ScoringRules, PrimieraTable, BrilliEconomy, *COMPONENTS)
}
"""The rule parts a record holds, by the class name it writes them under."""


def _enums_of(*values: Any) -> dict[str, type[Enum]]:
    """The kinds of the enum knobs of attrs values, by name."""
    return {
        type(knob).__name__: type(knob)
        for value in values
        for field in attrs.fields(type(value))
        if isinstance(knob := getattr(value, field.name), Enum)
    }


_ENUMS: dict[str, type[Enum]] = _enums_of(Rules(), *(kind() for kind in COMPONENTS))
"""The enums of the knobs a record holds, by name: those of the rules and of the scoring
components, found in their default values."""


_FRACTION_DIGITS = 1000
"""The most digits of the numerator, and of the denominator, of a fraction in a record."""
_FRACTION = re.compile(
    rf"-?[0-9]{{1,{_FRACTION_DIGITS}}}(/[1-9][0-9]{{0,{_FRACTION_DIGITS - 1}}})?"
)
# the ends of lines, as `str.splitlines` finds them
_LINE = re.compile(
    r"([^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]*)(\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]|\Z)"
)
_PATH_LIKE = re.compile(r"[^\n\r]*([/\\][^\n\r]*|\.[A-Za-z0-9]{1,10})\s*")


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Enum) and type(value).__name__ in _ENUMS:
        return {"enum": type(value).__name__, "value": value.value}
    if isinstance(value, Fraction):
        if max(abs(value.numerator), value.denominator) >= 10**_FRACTION_DIGITS:
            raise NotationError(
                f"a record holds fractions of at most {_FRACTION_DIGITS:,} digits above and "
                f"below the line, not {quote(value)}"
            )
        return {"fraction": str(value)}
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    cls = type(value)
    if _CLASSES.get(cls.__name__) is cls and attrs.has(cls):
        fields = {a.name: _encode(getattr(value, a.name)) for a in attrs.fields(cls)}
        return {"class": type(value).__name__, "fields": fields}
    raise NotationError(
        f"a record cannot hold the rule part {quote(type(value).__name__)}: "
        "only the library's own rule parts"
    )


def _decode(data: Any) -> Any:
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, dict) and len(data) == 2 and "enum" in data:
        kind = _ENUMS.get(data["enum"]) if isinstance(data["enum"], str) else None
        if kind is None:
            raise NotationError(f"unknown kind of knob {quote(data['enum'])}")
        try:
            return kind(data.get("value"))
        except ValueError:
            raise NotationError(
                f"{kind.__name__} has no value {quote(data.get('value'))}"
            ) from None
    if isinstance(data, dict) and len(data) == 1 and "card" in data:
        text = data["card"]
        if not isinstance(text, str):
            raise NotationError(f"unreadable card {quote(text)}")
        return Card.parse(text)
    if isinstance(data, dict) and len(data) == 1 and "fraction" in data:
        text = data["fraction"]
        if not isinstance(text, str) or not _FRACTION.fullmatch(text):
            raise NotationError(f"unreadable fraction {quote(text)}")
        return Fraction(text)
    if isinstance(data, dict) and len(data) == 1 and isinstance(data.get("tuple"), list):
        return tuple(_decode(v) for v in data["tuple"])
    if isinstance(data, dict) and len(data) == 2 and isinstance(data.get("fields"), dict):
        cls = _CLASSES.get(data["class"]) if isinstance(data.get("class"), str) else None
        if cls is None:
            raise NotationError(f"unknown rule part {quote(data.get('class'))}")
        names = {a.name for a in attrs.fields(cls)}
        for name in data["fields"]:
            if name not in names:
                raise NotationError(f"{cls.__name__} has no field {quote(name)}")
        return cls(**{name: _decode(value) for name, value in data["fields"].items()})
    raise NotationError(f"unreadable value {quote(data)}")


def rules_to_data(rules: Rules) -> dict[str, Any]:
    """The rules as JSON-ready data: a preset and the knobs that differ from it.

    The preset is the one named by `rules.name`, or else the one closest to the rules.

    Raises:
        NotationError: a knob holds something other than the library's own rule parts
            (a scoring component of your own, for instance).
    """
    presets = [find_variant(name) for name in variant_names()]
    named = [preset for preset in presets if preset.name == rules.name]
    base = named[0] if named else min(presets, key=lambda preset: len(_changed(rules, preset)))
    changes = {name: _encode(getattr(rules, name)) for name in _changed(rules, base)}
    data: dict[str, Any] = {"variant": base.name, "changes": changes}
    if rules.name != base.name:
        data["name"] = rules.name
    return data


def _changed(rules: Rules, base: Rules) -> list[str]:
    return [
        a.name
        for a in attrs.fields(Rules)
        if a.eq and getattr(rules, a.name) != getattr(base, a.name)
    ]


def rules_from_data(data: Any) -> Rules:
    """Rules from the data of [`rules_to_data`][scopa.records.rules_to_data].

    Raises:
        NotationError: the data does not describe rules.
    """
    if not isinstance(data, dict):
        raise NotationError(f"rules data must be a JSON object, not {quote(data)}")
    unknown = set(data) - {"variant", "changes", "name"}
    if unknown or "variant" not in data or not isinstance(data.get("changes"), dict):
        raise NotationError(
            'rules data must be {"variant": NAME, "changes": {...}} with an optional "name", '
            f"not {quote(data)}"
        )
    try:
        base = find_variant(data["variant"])
        fields = {a.name for a in attrs.fields(Rules) if a.eq}
        for name in data["changes"]:
            if name not in fields and name not in _DEPRECATED:
                raise RulesError(f"rules have no knob {quote(name)}")
        changes = {name: _decode(value) for name, value in data["changes"].items()}
        # the knobs an earlier version wrote, under the knobs that replace them
        old = {name: changes.pop(name) for name in _DEPRECATED if name in changes}
        changes.update(_upgraded_knobs(attrs.evolve(base, **changes), old))
        if "name" in data:
            changes["name"] = data["name"]
        return attrs.evolve(base, **changes)
    except NotationError:
        raise
    except (ScopaError, TypeError, ValueError, RecursionError) as error:
        reason = str(error) if isinstance(error, (ScopaError, TypeError)) else "a bad value"
        if isinstance(error, RecursionError):
            reason = "the data is too deeply nested"
        raise NotationError(f"cannot read rules from {quote(data)}: {reason}") from None


def write_record(match: Match) -> str:
    """The record of a match, finished or not.

    Raises:
        NotationError: the rules hold parts a record cannot describe.
    """
    lines = [
        f"scopa-record {FORMAT_VERSION}",
        "rules " + json.dumps(rules_to_data(match.rules), sort_keys=True),
        f"first-dealer {match.first_dealer}",
    ]
    series = match.series_before
    if series.matches:
        lists = (("wins", series.wins), ("losses", series.losses), ("abandoned", series.abandoned))
        lines.append(
            "series " + " ".join(f"{name} {' '.join(map(str, counts))}" for name, counts in lists)
        )
    if match.stream is not None:
        lines.append(f"stream {match.stream}")
    for record in match.hands:
        lines.append(f"hand {record.number} deal {record.deck!s} dealer {record.dealer}")
        lines += [f"play {player} {move}" for player, move in record.history]
        lines.append("score " + " ".join(map(str, record.points)))
    if not match.state.is_terminal:  # a hand in progress
        lines.append(f"hand {len(match.hands) + 1} deal {match.deck!s} dealer {match.dealer}")
        lines += [f"play {player} {move}" for player, move in match.state.history]
    if match.abandonment is not None:
        lines.append(f"abandon {match.abandonment.player} {match.abandonment.reason.value}")
    if match.is_over:
        totals = " ".join(map(str, match.totals))
        lines.append(f"result winner {match.winner} totals {totals}")
    else:
        lines.append("result unfinished")
    return "\n".join(lines) + "\n"


class _Lines:
    """The meaningful lines of a record, with their numbers, read one at a time.

    `hint` is added to the message when the first line is not the record's first.
    """

    def __init__(self, lines: Iterable[str], hint: str = "") -> None:
        self._lines: Iterator[tuple[int, str]] = (
            (number, line.strip())
            for number, line in enumerate(lines, 1)
            if line.strip() and not line.lstrip().startswith("#")
        )
        self.hint = hint
        self.number = 0
        self.rest = ""
        self._pending: tuple[int, str] | None = None

    def keyword(self) -> str | None:
        """The keyword of the next line, or `None` at the end."""
        if self._pending is None:
            self._pending = next(self._lines, None)
        return None if self._pending is None else self._pending[1].split()[0]

    def take(self, keyword: str) -> list[str]:
        """The fields of the next line, which must start with `keyword`."""
        found = self.keyword()
        if found is None or self._pending is None:
            raise NotationError(f"the record ends where a '{keyword}' line was expected")
        self.number, line = self._pending
        self._pending = None
        if found != keyword:
            hint = self.hint if keyword == "scopa-record" else ""
            self.fail(keyword, f"expected a '{keyword}' line, found {quote(found)}{hint}")
        self.rest = line[len(keyword) :].strip()
        return line.split()[1:]

    def fail(self, field: str, message: str) -> NoReturn:
        raise NotationError(f"line {self.number}, {field}: {message}")


def _number(lines: _Lines, field: str, text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 20):
        lines.fail(field, f"{quote(text)} is not a number")
    return int(text)


def read_record(source: str | os.PathLike[str] | TextIO) -> Match:
    """The match a record describes, replayed move by move through its rules.

    The record is read a line at a time: however long it is, reading holds one line and
    the match.

    Args:
        source: the record's text (a `str` is always the text itself, never a file name);
            the path of a file that holds it, read as UTF-8; or a file open in text mode,
            read from where it stands and left open.

    Raises:
        NotationError: the record is malformed, truncated or inconsistent (the message
            names the line and the field), or its file is not UTF-8 text.
        IllegalMoveError: a move of the record is not legal where it is played.
        OSError: the file of a path cannot be read.
        TypeError: `source` is none of the three, or a file open in binary mode.
    """
    if isinstance(source, str):
        hint = ""
        if len(source) <= 4096 and _PATH_LIKE.fullmatch(source):
            hint = ", which looks like a file name: give the record's text, a path or an open file"
        return _read_lines(_Lines(_split(source), hint))
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as file:
            return _read_lines(_Lines(_text_lines(file)))
    if hasattr(source, "read"):
        return _read_lines(_Lines(_text_lines(source)))
    raise TypeError(
        "a record is given as its text, a path or a file open in text mode, "
        f"not {type(source).__name__}"
    )


def _split(text: str) -> Iterator[str]:
    """The lines of `text`, as `text.splitlines()` gives them, one at a time."""
    for found in _LINE.finditer(text):
        if not found.group():  # the end of the text
            return
        yield found.group(1)


def _text_lines(file: Iterable[Any]) -> Iterator[str]:
    """The lines of a file, which must be open in text mode."""
    for line in file:
        if not isinstance(line, str):
            raise TypeError("a record file must be open in text mode, not binary")
        yield line


def _read_lines(lines: _Lines) -> Match:
    """The match of a record's lines, with the number of the line at fault in any error."""
    try:
        return _read(lines)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"line {lines.number}, move: {error}") from None
    except NotationError:
        raise
    except ScopaError as error:
        raise NotationError(f"line {lines.number}: {error}") from None
    except UnicodeDecodeError as error:
        where = f"after line {lines.number}: " if lines.number else ""
        raise NotationError(f"{where}the file is not UTF-8 text ({error.reason})") from None


def _read(lines: _Lines) -> Match:
    header = lines.take("scopa-record")
    if len(header) != 1:
        lines.fail("version", "expected one version number")
    version = _number(lines, "version", header[0])
    if not 1 <= version <= FORMAT_VERSION:
        lines.fail("version", f"format {version} is not one this library reads")
    lines.take("rules")
    try:
        data = json.loads(lines.rest)
    except json.JSONDecodeError as error:
        lines.fail("rules", f"not JSON: {error.msg}")
    except (ValueError, RecursionError):
        lines.fail("rules", "the JSON is too large or too deeply nested")
    try:
        rules = rules_from_data(data)
    except NotationError as error:
        lines.fail("rules", str(error))
    first = lines.take("first-dealer")
    if len(first) != 1:
        lines.fail("first-dealer", "expected one player number")
    first_dealer = _number(lines, "first-dealer", first[0])
    if first_dealer >= rules.players:
        lines.fail("first-dealer", f"there is no player {first_dealer}")
    series = _read_series(lines, rules.players) if lines.keyword() == "series" else None
    stream = None
    if lines.keyword() == "stream":
        fields = lines.take("stream")
        if len(fields) != 1:
            lines.fail("stream", "expected one number")
        stream = _number(lines, "stream", fields[0])
        if stream >= 2**64:
            lines.fail("stream", "the number is out of range")
    match: Match | None = None
    match = _read_hand(lines, rules, first_dealer, series, None)
    while lines.keyword() == "hand":
        match = _read_hand(lines, rules, first_dealer, series, match)
    if lines.keyword() == "abandon":
        fields = lines.take("abandon")
        if len(fields) != 2:
            lines.fail("abandon", "expected a player and a reason")
        player = _number(lines, "abandon player", fields[0])
        if player >= rules.players:
            lines.fail("abandon player", f"there is no player {player}")
        try:
            reason = AbandonReason(fields[1])
        except ValueError:
            lines.fail("abandon reason", f"unknown reason {quote(fields[1])}")
        if match.is_over:
            lines.fail("abandon", "the match is already over")
        match = match.abandon(player, reason)
    _read_result(lines, match)
    if lines.keyword() is not None:
        lines.take("end of record")
    if stream is not None:
        match = match.with_stream(stream)
    return match


def _read_series(lines: _Lines, players: int) -> SeriesRecord:
    """The series record of a `series` line: wins, losses and abandonments per player."""
    fields = lines.take("series")
    names = ("wins", "losses", "abandoned")
    if len(fields) != 3 * (players + 1) or tuple(fields[:: players + 1]) != names:
        counts = " ".join(["N"] * players)
        lines.fail("series", f"expected 'series wins {counts} losses {counts} abandoned {counts}'")
    wins, losses, abandoned = (
        tuple(_number(lines, f"series {name}", value) for value in fields[i + 1 : i + 1 + players])
        for name, i in zip(names, range(0, len(fields), players + 1), strict=True)
    )
    return SeriesRecord(wins, losses, abandoned)


def _read_hand(
    lines: _Lines,
    rules: Rules,
    first_dealer: int,
    series: SeriesRecord | None,
    match: Match | None,
) -> Match:
    fields = lines.take("hand")
    if len(fields) != 5 or fields[1] != "deal" or fields[3] != "dealer":
        lines.fail("hand", "expected 'hand N deal CODE dealer P'")
    number = _number(lines, "hand number", fields[0])
    expected = 1 if match is None else len(match.hands) + 1
    if number != expected:
        lines.fail("hand number", f"expected hand {expected}, found {number}")
    try:
        deck = Deck.parse(fields[2])
    except NotationError as error:
        lines.fail("deal", str(error))
    dealer = _number(lines, "dealer", fields[4])
    if match is None:
        match = Match.new(rules, decks=[deck], first_dealer=first_dealer, series=series)
    elif not match.awaiting_deal:
        lines.fail("hand", "the previous hand is not over, or the match is")
    else:
        match = match.deal(deck)
    if match.dealer != dealer:
        lines.fail("dealer", f"hand {number} is dealt by player {match.dealer}, not {dealer}")
    while lines.keyword() == "play":
        move_fields = lines.take("play")
        if len(move_fields) != 2:
            lines.fail("play", "expected a player and a move")
        player = _number(lines, "play player", move_fields[0])
        if match.state.is_terminal or player != match.state.current_player:
            lines.fail("play player", f"it is not player {player}'s turn")
        try:
            move = match.state.parse_move(move_fields[1])
        except (NotationError, AmbiguousMoveError) as error:
            lines.fail("play move", str(error))
        match = match.apply(move)
    if len(match.hands) == number:
        score = lines.take("score")
        points = tuple(_number(lines, "score", value) for value in score)
        if points != match.hands[-1].points:
            lines.fail(
                "score", f"the record says {points}, the hand scores {match.hands[-1].points}"
            )
    return match


def _read_result(lines: _Lines, match: Match) -> None:
    fields = lines.take("result")
    if fields == ["unfinished"]:
        if match.is_over:
            lines.fail("result", "the match is over")
        return
    if len(fields) < 4 or fields[0] != "winner" or fields[2] != "totals":
        lines.fail("result", "expected 'result winner S totals A B …' or 'result unfinished'")
    winner = _number(lines, "result winner", fields[1])
    totals = tuple(_number(lines, "result totals", value) for value in fields[3:])
    if not match.is_over:
        lines.fail("result", "the match is not over")
    if (winner, totals) != (match.winner, match.totals):
        lines.fail(
            "result",
            f"the record says {winner} with {totals}, the match {match.winner} with {match.totals}",
        )
