"""The languages the library writes in for people, and their catalogs (internal).

English is the source language: the text of the library's messages is English, and a
catalog translates it. The catalogs are GNU gettext message catalogs compiled into `.mo`
files inside the package (`scopa/locale/LANG/LC_MESSAGES/scopa.mo`), read with the
standard `gettext` module. Each function that writes for people takes a `lang` argument,
so that a server can answer each player in their own language; nothing sets a language
for the whole process. [`locale_language`][scopa.locale_language] reads the user's locale
the way `gettext` does, for programs that follow it.

Messages are marked by the calls that translate them: `gettext`, `ngettext`, `pgettext`
and `npgettext` of a translation, each with its text written out as literal strings, so
that the catalogs' tooling finds them in the source.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
from collections.abc import Sequence
from importlib import resources
from typing import Final

from scopa._checks import quote
from scopa.errors import InvalidArgumentError

__all__ = ["LANGUAGES", "and_list", "check_language", "locale_language", "translation"]

LANGUAGES: Final = ("en", "it")
"""The languages the library writes in: English (`en`, the source) and Italian (`it`)."""

DOMAIN: Final = "scopa"
"""The gettext domain: the catalogs' file name."""

# A language tag (`it`, `it-CH`) or a locale name (`it_IT.UTF-8@euro`): the language first.
_TAG: Final = re.compile(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*(?:\.[A-Za-z0-9-]+)?(?:@\w+)?")
_LANGUAGE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _primary(tag: str) -> str | None:
    """The language of a locale name or language tag (`it` of `it_IT.UTF-8` or `it-CH`)."""
    found = _TAG.fullmatch(tag.strip())
    return found[1].lower() if found else None


def _code(lang: str) -> str | None:
    """The code in `LANGUAGES` of a language asked for, or `None`."""
    code = _primary(lang)
    return code if code in LANGUAGES else None


def check_language(lang: str) -> str:
    """The code in `LANGUAGES` of a language asked for: `it`, `IT`, `it_IT.UTF-8`, `it-CH`...

    Raises:
        InvalidArgumentError: no catalog of the library is in that language.
        TypeError: `lang` is not text.
    """
    if not isinstance(lang, str):
        raise TypeError(f"a language must be text such as 'en' or 'it', not {type(lang).__name__}")
    code = _code(lang)
    if code is None:
        raise InvalidArgumentError(
            f"no text in the language {quote(lang)}; the languages are {', '.join(LANGUAGES)}"
        )
    return code


def locale_language() -> str:
    """The language of the user's locale, as `gettext` reads it, among those of the library.

    The first of the environment variables `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG`
    that is set gives a list of languages separated by colons (`it_IT.UTF-8`, `fr:it`); the
    first of them that the library writes in is the answer. `C` or `POSIX` ends the list,
    and English is the answer when none is found.

    Examples:
        >>> locale_language() in LANGUAGES
        True
    """
    for variable in _LANGUAGE_VARIABLES:
        value = os.environ.get(variable)
        if value:
            for tag in value.split(":"):
                if tag.strip() in ("C", "POSIX") or tag.strip().startswith(("C.", "POSIX.")):
                    return LANGUAGES[0]
                code = _primary(tag)
                if code in LANGUAGES:
                    return code
            break
    return LANGUAGES[0]


@functools.lru_cache(maxsize=len(LANGUAGES))
def _catalog(code: str) -> gettext.NullTranslations:
    """The translation of a language of `LANGUAGES`, read once from the package's catalog."""
    if code == LANGUAGES[0]:
        return gettext.NullTranslations()  # the source language: the messages as written
    mo = resources.files("scopa").joinpath("locale", code, "LC_MESSAGES", f"{DOMAIN}.mo")
    return gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))


def translation(lang: str) -> gettext.NullTranslations:
    """The translation of the messages into a language (see `check_language`).

    Raises:
        InvalidArgumentError: no catalog of the library is in that language.
        TypeError: `lang` is not text.
    """
    return _catalog(check_language(lang))


def and_list(tr: gettext.NullTranslations, words: Sequence[str]) -> str:
    """Words joined as in a sentence: `a`, `a and b`, `a, b and c` (`a, b e c`)."""
    if len(words) < 2:
        return "".join(words)
    return tr.gettext("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])
