"""The command's language: English or Italian, from `--lang` or else from the locale.

Each command runs with the language variables of the environment set explicitly, so that
the machine's own locale changes nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scopa
from scopa.records import read_record, write_record
from tests.helpers import CLASSIC
from tests.test_cli import keystrokes

COMMAND = [sys.executable, "-m", "scopa"]
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

ENGLISH_WORDS = re.compile(
    r"\b(the|you|your|player|players|hand|points?|cards?|table|wins?|over|type|press|and|of"
    r"|to|deals?|plays?|dealer|stock|last|score|save|move)\b",
    re.IGNORECASE,
)
"""English words that no line of the command in Italian holds."""


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def run(*args: str, stdin: str = "", **locale: str) -> subprocess.CompletedProcess[str]:
    """The command with only the language variables given (none: no locale at all)."""
    env = {name: value for name, value in os.environ.items() if name not in LOCALE}
    env.update(locale, PYTHONUTF8="1")  # UTF-8 whatever the locale's character set
    return subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
        encoding="utf-8",
    )


def words(text: str) -> str:
    return " ".join(text.split())


ITALIAN_RULES = "2 giocatori, ognuno per sé, a 11 punti"
ENGLISH_RULES = "2 players each for self, to 11 points"


@pytest.mark.parametrize(
    ("locale", "arguments", "italian"),
    [
        ({}, [], False),  # no locale: English
        ({"LANG": "it_IT.UTF-8"}, [], True),
        ({"LANGUAGE": "it"}, [], True),
        ({"LC_MESSAGES": "it_CH", "LANG": "en_US.UTF-8"}, [], True),
        ({"LANG": "de_DE.UTF-8"}, [], False),  # a language the command does not speak
        ({"LANGUAGE": "fr:it", "LANG": "en_US.UTF-8"}, [], True),  # the first it speaks
        ({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, [], False),  # C is English
        ({"LANG": "it_IT.UTF-8"}, ["--lang", "en"], False),  # --lang over the locale
        ({"LANG": "en_US.UTF-8"}, ["--lang", "it"], True),
        ({}, ["--lang=IT"], True),
        ({}, ["--lang", "it_IT.UTF-8"], True),
    ],
)
def test_the_language_is_asked_for_or_the_locale_s(
    locale: dict[str, str], arguments: list[str], italian: bool
) -> None:
    listing = run("rules", *arguments, **locale)
    assert listing.returncode == 0, listing.stderr
    first = listing.stdout.splitlines()[0]
    assert first.endswith(ITALIAN_RULES if italian else ENGLISH_RULES), first


def test_the_language_may_come_before_the_subcommand() -> None:
    listing = run("--lang", "it", "rules")
    assert listing.stdout.splitlines()[0].endswith(ITALIAN_RULES)


@pytest.mark.parametrize(
    ("locale", "error"),
    [
        ({}, "scopa: error: --lang 'fr': the languages are en (English) and it (Italian)"),
        (
            {"LANG": "it_IT.UTF-8"},
            "scopa: errore: --lang 'fr': le lingue sono en (inglese) e it (italiano)",
        ),
    ],
)
def test_a_language_the_command_does_not_speak_is_one_line(
    locale: dict[str, str], error: str
) -> None:
    result = run("play", "--lang", "fr", **locale)
    assert result.returncode == 2
    assert result.stderr == error + "\n"


def test_the_help_is_in_italian() -> None:
    top = words(run("--lang", "it", "--help").stdout)
    assert "La scopa e la sua famiglia: gioca, simula, rivedi e leggi le regole." in top
    assert "gioca una partita contro il computer" in top
    assert "mostra la versione ed esci" in top
    play = words(run("play", "--help", LANGUAGE="it").stdout)
    assert "Gioca una partita contro il computer: tu sei il giocatore 0" in play
    assert "l'agente del computer: random, greedy, search, policy;" in play
    assert "(predefinito: greedy)" in play
    assert "mostra questo aiuto ed esci" in play
    assert "la lingua delle parole: en (inglese) o it (italiano)" in play
    replay = words(run("replay", "--help", "--lang", "it").stdout)
    assert "spiega anche ogni giocata e il punteggio di ogni smazzata" in replay


def test_a_whole_match_in_italian(tmp_path: Path) -> None:
    saved = tmp_path / "partita.txt"
    keys = keystrokes("classic", 7)
    # "s" is the Italian yes to saving the match
    script = "\n".join([*keys, "s", str(saved)]) + "\n"
    result = run("play", "--seed", "7", "--lang", "it", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    match = read_record(saved.read_text(encoding="utf-8"))
    assert match.is_over
    assert "Sei il giocatore 0; il computer (greedy) gioca per il giocatore 1." in out
    assert "La tua mossa (una carta come 7D; aiuto, perché, esci): " in out
    assert "Smazzata 1: sei tu il mazziere\n" in out
    assert "Smazzata 2: il mazziere è il giocatore 1\n" in out
    for hand in match.hands:
        mine, theirs = hand.points
        assert f"Smazzata {hand.number} finita: tu {mine}, giocatore 1 {theirs}.\n" in out
    assert out.count("punteggio della smazzata, tu / giocatore 1:") == len(match.hands)
    assert ("Hai vinto!" if match.winner == 0 else "Vince il computer.") in out
    assert f"Salvata in {saved}" in out
    said = out.replace(str(saved), "")  # the file's path is no word of the command's
    english = [line for line in said.splitlines() if ENGLISH_WORDS.search(line)]
    assert english == []


def test_why_and_the_menu_in_italian(tmp_path: Path) -> None:
    match = scopa.Match.new(CLASSIC, seed=89)
    match = match.apply(match.state.legal_moves()[0])  # player 1 leads 1D
    record = tmp_path / "lead.txt"
    record.write_text(write_record(match), encoding="utf-8")
    script = "perché\nperché 5B\n5Bx1D+4C\nzz\nesci\nx\na\nn\n"
    result = run("play", "--resume", str(record), stdin=script, LANG="it_IT.UTF-8")
    assert result.returncode == 0, result.stderr
    out = words(result.stdout)
    assert "Il giocatore 1 può giocare 1D. - 1D non prende nulla e resta in tavola" in out
    assert "Il giocatore 0 può giocare 5Bx5D. - 5B prende 5D, una carta di pari valore." in out
    assert (
        "5B deve prendere 5D: la carta di pari valore in tavola si prende per prima, prima di"
        " qualsiasi somma. (regole: Che cosa può prendere una carta)"
    ) in out
    assert "impossibile leggere 'zz' come carta" in out
    assert "Abbandoni la partita (a), la salvi e ti fermi (s), o continui (c)?" in out
    assert "Rispondi a, s o c." in out
    assert "Hai abbandonato: vince il computer." in out
    assert "Salvi la partita? [s/N]" in out


def test_a_replay_in_italian(tmp_path: Path) -> None:
    match = scopa.Match.new(scopa.find_variant("tretre"), seed=2)
    while not match.hands:
        match = match.apply(match.state.legal_moves()[0])
    match = match.timeout()
    record = tmp_path / "tretre.txt"
    record.write_text(write_record(match), encoding="utf-8")
    result = run("replay", str(record), "--all", "--why", LANGUAGE="it")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("tretre, a 9 punti, primo mazziere il giocatore 0\nPosta: brilli:")
    assert f"Smazzata 1, mazziere il giocatore 0, mazzo {match.hands[0].deck}" in out
    mine, theirs = match.hands[0].points
    assert f"Smazzata 1 finita: giocatore 0 {mine}, giocatore 1 {theirs}." in out
    assert "  Punteggio della smazzata: giocatore 0 " in out
    assert "Vincitore: giocatore 1" in out
    english = [line for line in out.splitlines() if ENGLISH_WORDS.search(line)]
    assert english == []


def test_simulate_speaks_italian_too() -> None:
    result = run("simulate", "--agents", "greedy,random", "--deals", "2", "--workers", "0")
    assert result.stderr.endswith("scopa: error: --workers must be at least 1\n")
    result = run(
        "simulate", "--agents", "greedy,random", "--deals", "2", "--workers", "0", LANGUAGE="it"
    )
    assert result.stderr.endswith("scopa: errore: --workers deve essere almeno 1\n")
