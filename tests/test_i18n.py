"""The languages: the catalogs in the package, how a language is chosen, and the catalogs' tool."""

from __future__ import annotations

import ast
import gettext
import io
import re
import string
from pathlib import Path

import pytest

import scopa
from scopa import Card, GameState, InvalidArgumentError, find_variant
from scopa._i18n import _catalog, check_language, translation
from scopa.board import state_text
from tests import catalogs

PO = catalogs.LOCALE / "it" / "LC_MESSAGES" / "scopa.po"


@pytest.fixture(scope="module")
def italian() -> tuple[catalogs.Entry, list[catalogs.Entry]]:
    """The header and the messages of the Italian catalog."""
    return catalogs.read_po(PO.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def marked() -> list[catalogs.Marked]:
    found, problems = catalogs.marked_messages()
    assert not problems, problems
    return found


# --------------------------------------------------------------------------- the catalogs


def test_the_italian_catalog_is_the_only_one_beside_english() -> None:
    assert scopa.LANGUAGES == ("en", "it")
    assert catalogs.catalogs() == [PO]


def test_the_committed_mo_is_what_the_po_compiles_to(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]],
) -> None:
    header, entries = italian
    assert PO.with_suffix(".mo").read_bytes() == catalogs.compile_mo(header, entries)


def test_gettext_reads_every_message_of_the_po_from_the_mo(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]],
) -> None:
    header, entries = italian
    read = gettext.GNUTranslations(io.BytesIO(PO.with_suffix(".mo").read_bytes()))
    assert read.info()["language"] == "it"
    assert "nplurals=2; plural=(n != 1);" in header.translations[0]
    for entry in entries:
        if entry.plural is None and entry.context is None:
            assert read.gettext(entry.message) == entry.translations[0]
        elif entry.plural is None:
            assert entry.context is not None
            assert read.pgettext(entry.context, entry.message) == entry.translations[0]
        else:
            one, many = entry.translations
            assert read.ngettext(entry.message, entry.plural, 1) == one
            assert read.ngettext(entry.message, entry.plural, 2) == many
            assert read.ngettext(entry.message, entry.plural, 0) == many


def test_every_marked_message_has_an_italian_form(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]], marked: list[catalogs.Marked]
) -> None:
    _, entries = italian
    translated = {entry.key: entry for entry in entries if all(entry.translations)}
    missing = sorted(
        {f"{m.where}: {m.message!r}" for m in marked if (m.context, m.message) not in translated}
    )
    assert not missing, "no Italian form of " + "; ".join(missing)
    for mark in marked:
        entry = translated[(mark.context, mark.message)]
        assert entry.plural == mark.plural, mark
        assert len(entry.translations) == (1 if mark.plural is None else 2)


def test_the_catalog_holds_no_message_the_source_no_longer_marks(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]], marked: list[catalogs.Marked]
) -> None:
    _, entries = italian
    keys = {(m.context, m.message) for m in marked}
    assert [entry.message for entry in entries if entry.key not in keys] == []


def test_the_po_is_as_the_catalogs_command_writes_it(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]], marked: list[catalogs.Marked]
) -> None:
    header, entries = italian
    updated = catalogs.updated(header, entries, marked)
    assert catalogs.write_po(header, updated) == PO.read_text(encoding="utf-8")
    assert catalogs.main(["--check"]) == 0


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_a_translation_has_the_fields_of_its_message(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]],
) -> None:
    _, entries = italian
    for entry in entries:
        if entry.plural is None:
            assert _fields(entry.translations[0]) == _fields(entry.message), entry
        else:
            one, many = entry.translations
            assert _fields(many) == _fields(entry.plural), entry
            # the singular may leave the number out ("nella prima smazzata"), never add one
            assert _fields(one) <= _fields(entry.plural), entry


def test_a_translation_keeps_the_spaces_around_a_piece_of_a_sentence(
    italian: tuple[catalogs.Entry, list[catalogs.Entry]],
) -> None:
    _, entries = italian
    for entry in entries:
        for form in entry.translations:
            assert form[:1].isspace() == entry.message[:1].isspace(), entry
            assert form[-1:].isspace() == entry.message[-1:].isspace(), entry
            assert form.endswith(".") == entry.message.endswith("."), entry


# The calls through which the command writes for people, or refuses what it was given,
# with where their message stands among the arguments.
_COMMAND_WRITES = {
    **dict.fromkeys(("say", "wrap", "note", "ask", "UsageError", "DataError", "Refused"), 0),
    **dict.fromkeys(("read", "yes"), 1),
}


def _written_out(node: ast.expr) -> str:
    """The words a message is written out with: its literal text (without `--options`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = " ".join(
            part.value
            for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
    else:
        return ""
    return re.sub(r"--[a-z-]+", "", text)


def test_the_command_writes_no_message_that_is_not_marked() -> None:
    # What the command writes goes through a translation: a message written out as literal
    # text (or an f-string) where it is said would stay in English.
    source = catalogs.SOURCE / "cli"
    unmarked = []
    for path in sorted(source.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            function = call.func
            name = function.attr if isinstance(function, ast.Attribute) else None
            if isinstance(function, ast.Name):
                name = function.id
            if name is None or name not in _COMMAND_WRITES:
                continue
            at = _COMMAND_WRITES[name]
            message = call.args[at] if at < len(call.args) else None
            if message is not None and re.search(r"[A-Za-z]{2,}", _written_out(message)):
                unmarked.append(f"{path.name}:{call.lineno}: {ast.unparse(message)}")
    assert unmarked == []


def test_the_catalogs_hold_the_command_s_messages(marked: list[catalogs.Marked]) -> None:
    places = {mark.where for mark in marked}
    for module in ("_play", "_typing", "_guide", "_replay", "_rules", "_main", "_parser"):
        assert f"src/scopa/cli/{module}.py" in places, module
    italian = translation("it")
    assert italian.gettext("Your move (a card such as 7D; help, why, quit): ") == (
        "La tua mossa (una carta come 7D; aiuto, perché, esci): "
    )


# --------------------------------------------------------------------------- the catalogs' tool


def test_the_tool_reports_a_marking_call_of_text_that_is_not_literal(tmp_path: Path) -> None:
    package = tmp_path / "scopa"
    package.mkdir()
    (package / "words.py").write_text(
        "def f(tr, n, word):\n"
        "    tr.gettext('table')\n"
        "    tr.ngettext('{count} card', '{count} cards', n)\n"
        "    tr.pgettext('rank', 'Ace')\n"
        "    tr.gettext(word)\n"
        "    tr.gettext('a' + 'b')\n"
        "    tr.gettext(message='table')\n",
        encoding="utf-8",
    )
    found, problems = catalogs.marked_messages(package, tmp_path)
    assert [(m.context, m.message, m.plural) for m in found] == [
        (None, "table", None),
        (None, "{count} card", "{count} cards"),
        ("rank", "Ace", None),
    ]
    assert [p.split(": ", 1)[0] for p in problems] == [
        "scopa/words.py:5",
        "scopa/words.py:6",
        "scopa/words.py:7",
    ]


def test_the_tool_reads_and_writes_the_po_format() -> None:
    text = (
        "# a note\n"
        'msgid ""\n'
        'msgstr ""\n'
        '"Language: it\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
        "\n"
        "# the translator's note\n"
        "#: src/scopa/board.py\n"
        'msgctxt "rank"\n'
        'msgid "Ace"\n'
        'msgstr "asso"\n'
        "\n"
        'msgid "{count} card"\n'
        'msgid_plural "{count} cards"\n'
        'msgstr[0] "{count} carta"\n'
        'msgstr[1] "{count} carte"\n'
        "\n"
        'msgid "say \\"hello\\"\\tthen"\n'
        'msgstr ""\n'
        '"di\' \\"ciao\\" "\n'
        '"poi"\n'
    )
    header, entries = catalogs.read_po(text)
    assert header.comments == ("# a note",)
    assert [(e.context, e.message, e.plural, e.translations) for e in entries] == [
        ("rank", "Ace", None, ("asso",)),
        (None, "{count} card", "{count} cards", ("{count} carta", "{count} carte")),
        (None, 'say "hello"\tthen', None, ('di\' "ciao" poi',)),
    ]
    assert entries[0].comments == ("# the translator's note", "#: src/scopa/board.py")
    again = catalogs.read_po(catalogs.write_po(header, entries))
    assert again == (header, entries)
    with pytest.raises(ValueError, match="cannot read"):
        catalogs.read_po(text + '\nmsgfoo "x"\n')


def test_the_compiled_catalog_is_read_by_gettext() -> None:
    header = catalogs.Entry(None, "", None, ("Plural-Forms: nplurals=2; plural=(n != 1);\n",))
    entries = [
        catalogs.Entry("rank", "Ace", None, ("asso",)),
        catalogs.Entry(None, "{count} card", "{count} cards", ("{count} carta", "{count} carte")),
        catalogs.Entry(None, "table", None, ("tavolo",)),
        catalogs.Entry(None, "stock", None, ("",)),  # not translated: left out
    ]
    read = gettext.GNUTranslations(io.BytesIO(catalogs.compile_mo(header, entries)))
    assert read.pgettext("rank", "Ace") == "asso"
    assert read.gettext("Ace") == "Ace"
    assert read.ngettext("{count} card", "{count} cards", 1) == "{count} carta"
    assert read.ngettext("{count} card", "{count} cards", 5) == "{count} carte"
    assert read.gettext("table") == "tavolo"
    assert read.gettext("stock") == "stock"


def test_updating_keeps_translations_and_drops_what_is_no_longer_marked() -> None:
    header = catalogs.Entry(None, "", None, ("Plural-Forms: nplurals=2; plural=(n != 1);\n",))
    old = [
        catalogs.Entry(None, "table", None, ("tavolo",), ("# a note", "#: old.py")),
        catalogs.Entry(None, "gone", None, ("andato",)),
    ]
    marked = [
        catalogs.Marked(None, "{count} card", "{count} cards", "src/scopa/a.py"),
        catalogs.Marked(None, "table", None, "src/scopa/a.py"),
        catalogs.Marked(None, "table", None, "src/scopa/b.py"),
    ]
    assert catalogs.updated(header, old, marked) == [
        catalogs.Entry(None, "{count} card", "{count} cards", ("", ""), ("#: src/scopa/a.py",)),
        catalogs.Entry(
            None,
            "table",
            None,
            ("tavolo",),
            ("# a note", "#: src/scopa/a.py", "#: src/scopa/b.py"),
        ),
    ]


# --------------------------------------------------------------------------- choosing a language


@pytest.mark.parametrize(
    ("asked", "code"),
    [
        ("en", "en"),
        ("it", "it"),
        ("IT", "it"),
        ("it_IT.UTF-8", "it"),
        ("it-CH", "it"),
        ("en_GB", "en"),
        ("it_IT@euro", "it"),
    ],
)
def test_a_language_is_named_by_its_code_or_a_locale(asked: str, code: str) -> None:
    assert check_language(asked) == code
    assert translation(asked) is translation(code)


@pytest.mark.parametrize("asked", ["fr", "", "C", "italiano", "i", "it__"])
def test_a_language_without_a_catalog_is_refused(asked: str) -> None:
    with pytest.raises(InvalidArgumentError, match="the languages are en, it"):
        translation(asked)


def test_a_language_that_is_not_text_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="a language must be text such as 'en' or 'it', not list"):
        translation(["it"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Card.parse("7D").name(None)  # type: ignore[arg-type]


def test_the_catalogs_are_read_once_each() -> None:
    assert _catalog.cache_info().maxsize == len(scopa.LANGUAGES)
    assert translation("it") is translation("it")
    assert type(translation("en")) is gettext.NullTranslations


ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({}, "en"),
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "en_US.UTF-8"}, "it"),
        ({"LC_MESSAGES": "it_CH", "LANG": "en_US"}, "it"),
        ({"LANGUAGE": "fr:it:en", "LANG": "en_US"}, "it"),
        ({"LANGUAGE": "fr:de", "LANG": "it_IT"}, "en"),  # the first variable set decides
        ({"LANGUAGE": "", "LANG": "it_IT"}, "it"),  # an empty one is not set
        ({"LANGUAGE": "C:it"}, "en"),  # C ends the list
        ({"LC_ALL": "C.UTF-8", "LANG": "it_IT"}, "en"),
    ],
)
def test_the_locale_language_is_read_as_gettext_reads_it(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], expected: str
) -> None:
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert scopa.locale_language() == expected


def test_the_default_language_is_english_whatever_the_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a server answers each player in their language: nothing follows the process's locale
    for name in ENVIRONMENT:
        monkeypatch.setenv(name, "it_IT.UTF-8")
    assert scopa.locale_language() == "it"
    state = GameState.new(find_variant("classic"), seed=1)
    assert state_text(state) == state_text(state, lang="en")
    assert state_text(state).startswith("classic: deal 1 of 6, to play: player 1")
    assert str(state) == state_text(state)
    italian = state_text(state, lang=scopa.locale_language())
    assert italian.startswith("classic: distribuzione 1 di 6, di turno: giocatore 1")


# --------------------------------------------------------------------------- card names


def test_the_names_of_the_cards() -> None:
    names = {
        "1C": ("Ace of coppe", "asso di coppe"),
        "2S": ("2 of spade", "due di spade"),
        "3B": ("3 of bastoni", "tre di bastoni"),
        "4D": ("4 of denari", "quattro di denari"),
        "5C": ("5 of coppe", "cinque di coppe"),
        "6S": ("6 of spade", "sei di spade"),
        "7D": ("7 of denari", "sette di denari"),
        "8B": ("Fante of bastoni", "fante di bastoni"),
        "9C": ("Cavallo of coppe", "cavallo di coppe"),
        "10D": ("Re of denari", "re di denari"),
    }
    for text, (english, italian) in names.items():
        card = Card.parse(text)
        assert (card.name(), card.name("it")) == (english, italian)
        assert card.name("en") == english
    assert Card.parse("7D").nickname == "settebello"
    assert Card.parse("10D").nickname == "re bello"
    assert [card.nickname for card in scopa.DECK].count(None) == 38


def test_italian_has_the_article_each_rank_takes() -> None:
    from scopa.board import card_name

    assert card_name(Card.parse("1C"), lang="it") == "l'asso di coppe (♥)"
    assert card_name(Card.parse("7D"), lang="it") == "il sette di denari (♦)"
    assert card_name(Card.parse("10B"), lang="it") == "il re di bastoni (♣)"
    assert re.fullmatch(r"the \w+ of \w+ \(.\)", card_name(Card.parse("8S"))) is not None
