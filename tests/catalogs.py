"""The message catalogs: find the marked messages, update the `.po` files, compile the `.mo`.

Run `python -m tests.catalogs` (or `nox -s catalogs`) after changing a message of the
library: each `.po` catalog under `src/scopa/locale` gains the new messages (with an empty
translation, which the tests refuse until it is written) and loses those no longer marked,
and every `.mo` is compiled from its `.po`. `python -m tests.catalogs --check` changes
nothing and fails when a file is out of date.

A message is marked by a call of `gettext`, `ngettext`, `pgettext` or `npgettext` (a
method of a translation) with literal strings, as GNU `xgettext` finds them with these
keywords. The compiler writes the GNU `.mo` format that the `gettext` module reads, like
`msgfmt` without a hash table, from the subset of the `.po` format these catalogs use:
comments, `msgctxt`, `msgid`, `msgid_plural`, `msgstr` and `msgstr[N]`, strings over
several lines, and the escapes `\\n`, `\\t`, `\\"` and `\\\\`. It needs only the standard
library, so the tests that use it run without the optional extras, and it writes the same
bytes for the same catalog on every platform.
"""

from __future__ import annotations

import argparse
import ast
import re
import struct
import sys
from collections.abc import Iterable
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "scopa"
LOCALE = SOURCE / "locale"
DOMAIN = "scopa"
MARKERS = {
    "gettext": (None, 0, None),
    "ngettext": (None, 0, 1),
    "pgettext": (0, 1, None),
    "npgettext": (0, 1, 2),
}
"""The marking methods: where their context, message and plural message are among the args."""

Key = tuple[str | None, str]
"""A message's context (or `None`) and its text."""


@attrs.frozen
class Marked:
    """A message marked in the source, and where."""

    context: str | None
    message: str
    plural: str | None
    where: str


@attrs.frozen
class Entry:
    """An entry of a `.po` catalog."""

    context: str | None
    message: str
    plural: str | None
    translations: tuple[str, ...]
    comments: tuple[str, ...] = ()

    @property
    def key(self) -> Key:
        """The entry's context and message."""
        return (self.context, self.message)


# --------------------------------------------------------------------------- the source


def marked_messages(source: Path = SOURCE, root: Path = ROOT) -> tuple[list[Marked], list[str]]:
    """The messages marked in the package's modules, in order, and the calls that mark none.

    A marking call whose text is not literal strings is reported as a problem: the
    catalogs could not hold its message. Places are written relative to `root`.
    """
    found: list[Marked] = []
    problems: list[str] = []
    for path in sorted(source.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=where)
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        calls.sort(key=lambda node: (node.lineno, node.col_offset))
        for call in calls:
            function = call.func
            if not isinstance(function, ast.Attribute) or function.attr not in MARKERS:
                continue
            context_at, message_at, plural_at = MARKERS[function.attr]
            places = [at for at in (context_at, message_at, plural_at) if at is not None]
            texts = [_literal(call.args[at]) if at < len(call.args) else None for at in places]
            if any(text is None for text in texts) or call.keywords:
                problems.append(
                    f"{where}:{call.lineno}: {function.attr} of text that is not literal"
                )
                continue
            values = dict(zip(places, texts, strict=True))
            found.append(
                Marked(
                    None if context_at is None else values[context_at],
                    str(values[message_at]),
                    None if plural_at is None else values[plural_at],
                    where,
                )
            )
    return found, problems


def _literal(node: ast.expr) -> str | None:
    """The string a node writes out, or `None` for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


# --------------------------------------------------------------------------- .po files


def _unescape(text: str) -> str:
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda found: escapes[found[1]], text)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")


def read_po(text: str) -> tuple[Entry, list[Entry]]:
    """The header entry of a `.po` catalog and its messages, in the order written.

    Raises:
        ValueError: a line that is not of the subset of the format read here.
    """
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    comments: list[str] = []
    last: str | None = None

    def close() -> None:
        if "msgid" not in fields:
            if fields:
                raise ValueError(f"an entry without msgid: {fields}")
            return
        plurals = sorted((k for k in fields if k.startswith("msgstr[")), key=lambda k: int(k[7:-1]))
        translations = tuple(fields[k] for k in plurals) if plurals else (fields.get("msgstr", ""),)
        entries.append(
            Entry(
                fields.get("msgctxt"),
                fields["msgid"],
                fields.get("msgid_plural"),
                translations,
                tuple(comments),
            )
        )
        fields.clear()
        comments.clear()

    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            close()
            last = None
        elif line.startswith("#"):
            if fields:
                close()
            comments.append(line)
        elif line.startswith('"') and last is not None:
            fields[last] += _unescape(_quoted(line, number))
        else:
            keyword, _, rest = line.partition(" ")
            if not re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr|msgstr\[\d\]", keyword):
                raise ValueError(f"line {number}: cannot read {line!r}")
            if keyword in ("msgctxt", "msgid") and ("msgid" in fields or keyword in fields):
                close()
            fields[keyword] = _unescape(_quoted(rest, number))
            last = keyword
    close()
    if not entries or entries[0].message != "" or entries[0].context is not None:
        raise ValueError("a catalog starts with its header, the entry of the empty message")
    return entries[0], entries[1:]


def _quoted(text: str, number: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"line {number}: expected a quoted string, not {text!r}")
    return text[1:-1]


def write_po(header: Entry, entries: Iterable[Entry]) -> str:
    """A `.po` catalog's text."""
    blocks = []
    for entry in (header, *entries):
        lines = list(entry.comments)
        if entry.context is not None:
            lines.append(f'msgctxt "{_escape(entry.context)}"')
        if entry is header:
            lines.append('msgid ""')
            lines.append('msgstr ""')
            lines += [f'"{_escape(line)}"' for line in entry.translations[0].splitlines(True)]
        else:
            lines.append(f'msgid "{_escape(entry.message)}"')
            if entry.plural is None:
                lines.append(f'msgstr "{_escape(entry.translations[0])}"')
            else:
                lines.append(f'msgid_plural "{_escape(entry.plural)}"')
                lines += [
                    f'msgstr[{n}] "{_escape(form)}"' for n, form in enumerate(entry.translations)
                ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def updated(header: Entry, entries: list[Entry], marked: list[Marked]) -> list[Entry]:
    """A catalog's messages for the marked ones, in the source's order.

    A message already translated keeps its translation and its translator's comments (the
    lines `# ...`); a new one has empty translations; one no longer marked is dropped.
    """
    forms = _plural_forms(header)
    old = {entry.key: entry for entry in entries}
    wheres: dict[Key, list[str]] = {}
    first: dict[Key, Marked] = {}
    for mark in marked:
        key = (mark.context, mark.message)
        first.setdefault(key, mark)
        if mark.where not in wheres.setdefault(key, []):
            wheres[key].append(mark.where)
    result = []
    for key, mark in first.items():
        kept = old.get(key)
        translations = kept.translations if kept is not None else ()
        width = 1 if mark.plural is None else forms
        if len(translations) != width or (kept is not None and kept.plural != mark.plural):
            translations = ("",) * width
        notes = tuple(c for c in (kept.comments if kept else ()) if c.startswith("# "))
        references = tuple(f"#: {where}" for where in wheres[key])
        result.append(
            Entry(mark.context, mark.message, mark.plural, translations, notes + references)
        )
    return result


def _plural_forms(header: Entry) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", header.translations[0])
    return int(found[1]) if found else 2


# --------------------------------------------------------------------------- .mo files


def compile_mo(header: Entry, entries: Iterable[Entry]) -> bytes:
    """The GNU `.mo` file of a catalog: its translated messages, sorted, without hash table.

    An entry without a translation is left out, so that the message is written as it is.
    """
    table = {"": header.translations[0]}
    for entry in entries:
        if not all(entry.translations):
            continue
        key = entry.message if entry.context is None else f"{entry.context}\x04{entry.message}"
        if entry.plural is not None:
            key += f"\x00{entry.plural}"
        table[key] = "\x00".join(entry.translations)
    keys = sorted(table, key=lambda k: k.encode("utf-8"))
    originals = [k.encode("utf-8") for k in keys]
    translated = [table[k].encode("utf-8") for k in keys]
    count = len(keys)
    start = 7 * 4 + 16 * count  # the header, then the two tables of (length, offset)
    offsets: list[int] = []
    data = b""
    for text in (*originals, *translated):
        offsets += [len(text), start + len(data)]
        data += text + b"\x00"
    header_words = struct.pack("<7I", 0x950412DE, 0, count, 28, 28 + 8 * count, 0, start)
    return header_words + struct.pack(f"<{4 * count}I", *offsets) + data


# --------------------------------------------------------------------------- the command


def catalogs() -> list[Path]:
    """The `.po` catalogs of the package."""
    return sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def main(argv: list[str] | None = None) -> int:
    """Update every `.po` catalog from the source and compile its `.mo`; 1 if out of date."""
    parser = argparse.ArgumentParser(prog="python -m tests.catalogs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; fail if stale")
    args = parser.parse_args(argv)
    marked, problems = marked_messages()
    for problem in problems:
        print(problem, file=sys.stderr)
    stale = bool(problems)
    for po in catalogs():
        header, entries = read_po(po.read_text(encoding="utf-8"))
        entries = updated(header, entries, marked)
        text = write_po(header, entries)
        mo = po.with_suffix(".mo")
        compiled = compile_mo(header, entries)
        untranslated = [entry.message for entry in entries if not all(entry.translations)]
        for message in untranslated:
            print(f"{po.relative_to(ROOT)}: no translation of {message!r}", file=sys.stderr)
        changed = po.read_text(encoding="utf-8") != text
        changed_mo = not mo.exists() or mo.read_bytes() != compiled
        if args.check:
            stale = stale or changed or changed_mo or bool(untranslated)
        else:
            if changed:
                po.write_text(text, encoding="utf-8")
            if changed_mo:
                mo.write_bytes(compiled)
            stale = stale or bool(untranslated)
        print(f"{po.relative_to(ROOT)}: {len(entries)} messages, {len(untranslated)} untranslated")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
