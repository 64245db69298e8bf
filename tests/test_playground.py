"""The playground page: the library played in the browser scores as the library itself.

The Python side of the page (`docs/playground/table.py`) is tested here in this process.
The page itself is tested in headless Chromium (the fixtures of `tests/built_site.py`), on
the site built with its own runtime: Pyodide and the wheel of attrs, which
`docs/playground/install` installs; without them the site loads Pyodide from a CDN, and
the browser tests are skipped, saying so. The browser reaches nothing but the local site:
no host name but 127.0.0.1 resolves, and every request it made is checked.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import random
import shutil
import sys
import types
import zipfile
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import scopa
from scopa.search import ISMCTSAgent
from tests.built_site import Browser
from tests.helpers import ROOT

WIDE = 1280
NEEDS_RUNTIME = (
    "needs the playground's runtime in the site: run docs/playground/install "
    "(npm ci for Pyodide, pip download for attrs)"
)
PAGE_TIMEOUT = 120
"""Seconds a script in the page may take: loading Pyodide on a busy machine, a whole hand."""


def _docs_module(name: str, path: Path) -> types.ModuleType:
    """A module of the docs folder (not a package), imported by its path."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


table = _docs_module("playground_table", ROOT / "docs" / "playground" / "table.py")
hook = _docs_module("playground_hook", ROOT / "docs" / "hooks" / "playground.py")


def _view(text: str) -> dict[str, Any]:
    shown = json.loads(text)
    assert isinstance(shown, dict)
    return shown


# --------------------------------------------------------------------------- the Python side


def test_a_hand_with_no_opponent_is_the_library_s_deal_and_score() -> None:
    # As GameState.new(find_variant(preset), seed=seed): the same moves, the same score.
    playing = table.Table()
    shown = _view(playing.new_hand("tretre", 11))
    state = scopa.GameState.new(scopa.find_variant("tretre"), seed=11)
    assert [move["text"] for move in shown["moves"]] == [str(m) for m in state.legal_moves()]
    rng = random.Random(3)
    while not state.is_terminal:
        assert playing.legal_moves() == [str(move) for move in state.legal_moves()]
        move = rng.choice(state.legal_moves())
        shown = _view(playing.play(str(move)))
        state = state.apply(move)
    assert playing.legal_moves() == []
    assert playing.hand_score() == list(state.hand_score().points)
    assert shown["over"]
    assert shown["moves"] == []
    rows = {row["name"]: row for row in shown["score"]["rows"]}
    primiera = next(c for c in state.hand_score() if c.name == "primiera")
    assert rows["primiera"]["figures"] == list(primiera.figures)
    assert shown["score"]["points"] == list(state.hand_score().points)
    points = list(state.hand_score().points)
    winner = None if points[0] == points[1] else points.index(max(points))
    assert shown["outcome"] == {"kind": "hand", "winner": winner, "points": points}


def test_the_reader_s_first_card_and_the_computer_s_reply() -> None:
    # Seed 4 with player 1 dealing: the reader, player 0, leads from the deal that
    # GameState.new(rules, seed=4, dealer=1) makes; greedy answers at once.
    playing = table.Table()
    shown = _view(playing.new_game("classic", 4, "greedy", False, False))
    state = scopa.GameState.new(scopa.find_variant("classic"), seed=4, dealer=1)
    assert shown["toMove"] == 0
    assert shown["reader"] == 0
    assert not shown["computerToMove"]
    assert 'data-shown="0"' in shown["svg"]  # the board is drawn from the reader's seat
    move = state.legal_moves()[0]
    shown = _view(playing.play(str(move)))
    assert shown["computerToMove"]
    assert shown["moves"] == []
    with pytest.raises(scopa.IllegalMoveError, match="the computer's turn"):
        playing.play(str(state.apply(move).legal_moves()[0]))
    shown = _view(playing.computer_move())
    assert [play["player"] for play in shown["history"]] == [0, 1]
    assert shown["toMove"] == 0
    assert not shown["computerToMove"]


def test_a_whole_match_against_each_opponent_ends_with_the_library_s_totals() -> None:
    for opponent in ("greedy", "search"):
        playing = table.Table()
        shown = _view(playing.new_game("tretre", 5, opponent, True, False))
        if opponent == "search":  # a cheap search: the test is of the table, not of strength
            playing.computer = ISMCTSAgent(iterations=20)
        hands = 0
        while not shown["over"]:
            if shown["nextHand"]:
                assert shown["score"] is not None
                assert shown["match"]["hand"] == hands + 1
                hands += 1
                shown = _view(playing.next_hand())
            elif shown["computerToMove"]:
                shown = _view(playing.computer_move())
            else:
                shown = _view(playing.play(shown["moves"][0]["text"]))
        match = playing.match
        assert match.is_over
        assert shown["match"]["totals"] == list(match.totals)
        # Shown to the hundredth, as the tretre economy rounds them: 3 hands of 10, and 20
        # to the winner.
        brilli = [Fraction(share) for share in shown["match"]["brilli"]]
        assert all(
            abs(b - s) <= Fraction(1, 200) for b, s in zip(brilli, match.settlement, strict=True)
        )
        assert sum(match.settlement) == 50
        assert shown["outcome"] == {
            "kind": "match",
            "winner": match.winner,
            "points": list(match.totals),
        }


def test_the_trained_policy_plays_at_the_table() -> None:
    # In pure Python: nothing of numpy is needed.
    playing = table.Table()
    shown = _view(playing.new_game("classic", 6, "policy", False, False))
    while not shown["over"]:
        if shown["computerToMove"]:
            shown = _view(playing.computer_move())
        else:
            shown = _view(playing.play(shown["moves"][-1]["text"]))
    players = [play["player"] for play in shown["history"]]
    assert players.count(1) == 18
    assert shown["score"] is not None


def test_the_page_s_policy_plays_the_moves_of_the_library_s() -> None:
    # The same network in Python floats: on every position of random hands of classic and
    # tretre, the scores of PolicyAgent() to float32's precision, and the same move.
    pytest.importorskip("numpy", reason='needs numpy, from the extra "policy"')
    from scopa.policy import SHIPPED, PolicyAgent

    assert table.SHIPPED == SHIPPED
    agent, page = PolicyAgent(), table.TrainedPolicy.shipped()
    rng = random.Random(5)
    positions = choices = 0
    for preset in ("classic", "tretre"):
        for seed in range(8):
            state = scopa.GameState.new(scopa.find_variant(preset), seed=seed)
            while not state.is_terminal:
                seen = scopa.view(state)
                moves = seen.legal_moves()
                assert page.scores(seen) == pytest.approx(agent.scores(seen), rel=1e-5, abs=1e-5)
                assert page.choose(seen, rng) == agent.choose(seen, rng)
                positions += 1
                choices += len(moves) > 1
                state = state.apply(rng.choice(moves))
    assert positions > 500
    assert choices > 350


def test_the_page_s_policy_refuses_other_rules_and_other_files() -> None:
    policy = table.TrainedPolicy.shipped()
    with pytest.raises(scopa.InvalidArgumentError) as refused:
        policy.check_rules(scopa.find_variant("cirulla"))
    assert str(refused.value) == (
        "the trained policy cannot play 'cirulla': it reads observations of 172 values, and "
        "those of 'cirulla' (2 players, with declarations) have 254"
    )
    playing = table.Table()
    playing.new_hand("cirulla", 1)
    with pytest.raises(scopa.InvalidArgumentError, match="cannot play 'cirulla'"):
        playing.set_opponent("policy")
    with pytest.raises(scopa.InvalidArgumentError, match="not a policy file"):
        table.read_policy(b"not a zip")
    # An array of float64, or a .npy of another version, is not read as float32.
    shipped = (ROOT / "src" / "scopa" / "data" / table.SHIPPED).read_bytes()
    for old, new in ((b"'descr': '<f4'", b"'descr': '<f8'"), (b"NUMPY\x01\x00", b"NUMPY\x02\x00")):
        changed = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(shipped)) as source, zipfile.ZipFile(changed, "w") as out:
            for info in source.infolist():
                data = source.read(info)
                out.writestr(
                    info.filename, data.replace(old, new) if info.filename == "hidden.npy" else data
                )
        with pytest.raises(scopa.InvalidArgumentError, match="'hidden' of the policy is not"):
            table.read_policy(changed.getvalue())


def test_each_play_and_each_choice_is_explained_by_the_library() -> None:
    # Seed 4: player 1's 7D takes 1D and 6C, which add up to 7, by the rule of what a card
    # can capture; a card that can capture must (compulsory capture).
    playing = table.Table()
    playing.new_hand("classic", 4)
    why = json.loads(playing.explain("7Dx1D+6C"))
    pages = [reason["page"] for reason in why["reasons"]]
    assert pages == ["rules.md#what-a-card-can-capture", "rules.md#compulsory-capture"]
    assert "add up to 7" in why["reasons"][0]["text"]
    refused = json.loads(playing.explain("6Dx1D"))
    assert refused["summary"] == "Player 1 cannot play 6Dx1D."
    shown = _view(playing.play("7Dx1D+6C"))
    assert shown["history"][0]["why"] == why
    # In Italian, the board and the explanations; the plays already made too.
    shown = _view(playing.set_language("it"))
    assert "giocatori" in shown["svg"]
    assert shown["history"][0]["why"]["summary"].startswith("Il giocatore 1 può giocare")
    with pytest.raises(scopa.InvalidArgumentError, match="no language 'fr'"):
        playing.set_language("fr")


def test_every_page_an_explanation_cites_is_a_section_of_the_site(site: Path) -> None:
    # A hand of each preset the page plays, every play and every score explained: each
    # page it cites is a page of the built site, with the section it names.
    cited = set()
    for preset in ("classic", "tretre", "scopa-a-15", "cirulla", "asso-piglia-tutto"):
        playing = table.Table()
        shown = _view(playing.new_hand(preset, 7))
        while not shown["over"]:
            for move in shown["moves"]:
                cited |= {r["page"] for r in json.loads(playing.explain(move["text"]))["reasons"]}
            shown = _view(playing.play(shown["moves"][-1]["text"]))
        cited |= {r["page"] for r in shown["score"]["why"]["reasons"]}
    for page in sorted(cited):
        path, _, anchor = page.partition("#")
        built = site / path.removesuffix(".md") / "index.html"
        assert built.is_file(), page
        assert f'id="{anchor}"' in built.read_text(encoding="utf-8"), page


def test_the_clock_loses_the_match_for_a_slow_move() -> None:
    playing = table.Table()
    shown = _view(playing.new_game("tretre", 2, "greedy", True, True))
    assert shown["clock"] == 30
    move = shown["moves"][0]["text"]
    shown = _view(playing.play(move, 30.5))  # the library times out a move over 30 s
    assert shown["over"]
    assert shown["outcome"] == {"kind": "timeout", "player": 0, "winner": 1}
    assert playing.match.abandonment.reason is scopa.AbandonReason.TIMEOUT
    # Without the clock, the time a move took is not counted; classic has no limit at all.
    for preset, clock in (("tretre", False), ("classic", True)):
        shown = _view(playing.new_game(preset, 2, "greedy", True, clock))
        assert shown["clock"] is None
        shown = _view(playing.play(shown["moves"][0]["text"], 31.0))
        assert not shown["over"]


def test_the_table_refuses_what_it_cannot_play() -> None:
    playing = table.Table()
    with pytest.raises(scopa.IllegalMoveError, match="no hand is dealt"):
        playing.legal_moves()
    with pytest.raises(scopa.InvalidArgumentError, match="two players, not 'scopone'"):
        playing.new_hand("scopone", 1)
    playing.new_hand("classic", 4)
    with pytest.raises(scopa.InvalidArgumentError, match="no opponent 'nobody'"):
        playing.set_opponent("nobody")
    with pytest.raises(scopa.InvalidArgumentError, match="seat 0 or 1, not 2"):
        playing.set_opponent("greedy", 2)
    with pytest.raises(scopa.IllegalMoveError, match="6D may only play as 6Dx6C"):
        playing.play("6Dx1D")
    with pytest.raises(scopa.NotationError):
        playing.play("not a move")
    with pytest.raises(scopa.IllegalMoveError, match="not the computer's turn"):
        playing.computer_move()
    with pytest.raises(scopa.IllegalMoveError, match="the hand is not over"):
        playing.hand_score()
    with pytest.raises(scopa.IllegalMoveError, match="no next hand"):
        playing.next_hand()


# --------------------------------------------------------------------------- the site's runtime


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the playground's pins, with nothing installed: the hook reads it."""
    for name in ("package.json", "requirements.txt"):
        (tmp_path / name).write_bytes((ROOT / "docs" / "playground" / name).read_bytes())
    monkeypatch.setattr(hook, "FOLDER", tmp_path)
    # node, which compiles the page's Python, is found (or not) by shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    return tmp_path


def _install(folder: Path, version: str, wheel: bytes) -> None:
    """Lay out an installed runtime of that version, with that wheel of attrs."""
    package = folder / "node_modules" / "pyodide"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"version": version}), encoding="utf-8")
    for name in hook.RUNTIME_FILES:
        (package / name).write_bytes(b"")
    name, _, _ = hook.attrs_pin()
    (folder / "runtime").mkdir()
    (folder / "runtime" / name).write_bytes(wheel)
    (folder / "runtime" / f"python_stdlib-{version}.zip").write_bytes(b"")


def test_without_its_runtime_the_site_loads_pyodide_from_the_cdn(sources: Path) -> None:
    runtime, why = hook.choose_runtime("auto")
    assert runtime == "cdn"
    assert why.startswith("the npm package pyodide is not installed")
    assert "docs/playground/install" in why
    assert hook.choose_runtime("cdn")[0] == "cdn"
    with pytest.raises(hook.PlaygroundError, match="the local runtime is asked for, but the npm"):
        hook.choose_runtime("local")
    with pytest.raises(hook.PlaygroundError, match="one of auto, local, cdn, not 'offline'"):
        hook.choose_runtime("offline")


def test_an_installed_runtime_is_used_only_as_pinned(sources: Path) -> None:
    pinned = hook.pyodide_version()
    _install(sources, "0.0.1", b"not the pinned wheel")
    assert "pyodide is 0.0.1, not the pinned" in hook.choose_runtime("auto")[1]
    (sources / "node_modules" / "pyodide" / "package.json").write_text(
        json.dumps({"version": pinned}), encoding="utf-8"
    )
    assert "is not the wheel pinned by its hash" in hook.choose_runtime("auto")[1]
    with pytest.raises(hook.PlaygroundError, match="not the wheel pinned by its hash"):
        hook.choose_runtime("local")


def test_the_pinned_wheel_of_attrs_makes_the_runtime_local(
    sources: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hash of the pin is that of the wheel's bytes: a wheel that hashes to it passes.
    wheel = b"a wheel"
    text = (sources / "requirements.txt").read_text(encoding="utf-8")
    _, version, digest = hook.attrs_pin()
    mine = hashlib.sha256(wheel).hexdigest()
    (sources / "requirements.txt").write_text(text.replace(digest, mine), encoding="utf-8")
    _install(sources, hook.pyodide_version(), wheel)
    assert hook.choose_runtime("auto") == ("local", "installed in docs/playground")
    assert hook.choose_runtime("local")[0] == "local"
    assert hook.attrs_pin()[1] == version
    # Without node, the page's Python cannot be compiled when the site is built.
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert hook.choose_runtime("auto")[1].startswith("node is not installed")
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    # The standard library compiled for another version of Pyodide is not this one's.
    (sources / "runtime" / f"python_stdlib-{hook.pyodide_version()}.zip").unlink()
    assert hook.choose_runtime("auto")[1].startswith("the standard library of Pyodide")


# --------------------------------------------------------------------------- the page


@pytest.fixture(scope="module")
def playground(browser: Browser, site: Path, address: str) -> Iterator[Browser]:
    """The browser on the playground page, once its runtime is loaded and a hand dealt.

    The browser is shared with the other tests of the site: its logs are read before, and
    again after, so that what one test logs is never put down to another.
    """
    settings = (site / "playground" / "index.html").read_text(encoding="utf-8")
    if '"runtime": "local"' not in settings:
        pytest.skip(NEEDS_RUNTIME)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDE, "height": 1000, "deviceScaleFactor": 1, "mobile": False},
    )
    for log in ("browser", "performance"):
        browser.get_log(log)
    browser.get(address + "playground/")
    failed = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "scopaPlayground.ready.then(() => done(null), (error) => done(error.message));"
    )
    assert failed is None, f"the playground did not start: {failed}"
    yield browser
    browser.get("about:blank")
    for log in ("browser", "performance"):
        browser.get_log(log)


def _in_page(browser: Browser, body: str, *args: Any) -> Any:
    """Run `body`, the body of an async function of `args`, in the page; its result."""
    script = (
        "const done = arguments[arguments.length - 1];"
        f"(async (...args) => {{ {body} }})(...[...arguments].slice(0, -1))"
        ".then((value) => done({value}), (error) => done({error: error.message}));"
    )
    outcome = browser.execute_async_script(script, *args)
    assert "error" not in outcome, outcome["error"]
    return outcome["value"]


# Plays `moves` through the page's API from the deal of (preset, seed), and gives the legal
# moves the page listed before each, and the hand's score it gives at the end.
PLAY_A_HAND = """
const [preset, seed, moves] = args;
await scopaPlayground.newHand(preset, seed);
const listed = [];
for (const move of moves) {
    listed.push(await scopaPlayground.legalMoves());
    await scopaPlayground.play(move);
}
listed.push(await scopaPlayground.legalMoves());
return {listed, score: await scopaPlayground.handScore()};
"""


@pytest.mark.parametrize(("preset", "seed"), [("classic", 4), ("tretre", 17), ("cirulla", 5)])
def test_a_hand_played_in_the_browser_scores_as_the_library(
    playground: Browser, preset: str, seed: int
) -> None:
    # The moves are chosen here, at random, from the library's own legal moves; the page
    # must list the same moves at every turn and give the library's score at the end.
    state = scopa.GameState.new(scopa.find_variant(preset), seed=seed)
    rng = random.Random(seed)
    moves, listed = [], []
    while not state.is_terminal:
        listed.append([str(move) for move in state.legal_moves()])
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    listed.append([])
    played = _in_page(playground, PLAY_A_HAND, preset, seed, moves)
    assert played["listed"] == listed
    assert played["score"] == list(state.hand_score().points)
    shown = playground.find_element("css selector", ".scopa-pg-score-table tfoot").text
    assert shown.split()[1:] == [str(points) for points in state.hand_score().points]


def test_the_readme_s_hand_in_the_page(playground: Browser) -> None:
    # The README's first hand: seed 4, 7Dx1D+6C, then the first legal move each time,
    # ends 0 to 4; the page says so in words.
    score = _in_page(
        playground,
        "await scopaPlayground.newHand('classic', 4);"
        "await scopaPlayground.play('7Dx1D+6C');"
        "for (let moves = await scopaPlayground.legalMoves(); moves.length;"
        "     moves = await scopaPlayground.legalMoves()) {"
        "  await scopaPlayground.play(moves[0]);"
        "}"
        "return await scopaPlayground.handScore();",
    )
    assert score == [0, 4]
    status = playground.find_element("css selector", ".scopa-pg-status").text
    assert status == "Player 1 won the hand, 4 to 0."


def test_the_page_speaks_italian_and_links_the_rules(playground: Browser, address: str) -> None:
    _in_page(
        playground,
        "await scopaPlayground.newHand('classic', 4);await scopaPlayground.play('7Dx1D+6C');",
    )
    playground.execute_script(
        "const language = document.querySelector('select[name=lang]');"
        "language.value = 'it';"
        "language.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    status = 'return document.querySelector(".scopa-pg-status").textContent'
    _wait_for(playground, status, "Tocca al giocatore 0: fai clic su una carta.")
    board = playground.find_element("css selector", ".scopa-pg-board svg")
    assert "giocatori" in board.get_attribute("innerHTML")
    links = playground.execute_script(
        "return [...document.querySelectorAll('.scopa-pg-log a')].map((a) => a.href)"
    )
    assert links[0] == address + "rules/#what-a-card-can-capture"
    playground.execute_script(
        "const language = document.querySelector('select[name=lang]');"
        "language.value = 'en';"
        "language.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    _wait_for(playground, status, "Player 0 to play: click a card.")


def test_an_illegal_move_is_refused_with_the_library_s_message(playground: Browser) -> None:
    refused = _in_page(
        playground,
        "await scopaPlayground.newHand('classic', 4);"
        "try { await scopaPlayground.play('6Dx1D'); } catch (error) { return error.message; }",
    )
    assert refused == "IllegalMoveError: illegal move '6Dx1D' with table 1D 3C 6C 5S: " + (
        "6D may only play as 6Dx6C"
    )
    assert _in_page(playground, "return await scopaPlayground.legalMoves();")[0] == "6Dx6C"


def test_a_card_click_and_a_capture_choice_play_the_move(playground: Browser) -> None:
    # Seed 4: player 1 holds 6D 7D 9D over 1D 3C 6C 5S; the 9D takes 1D 3C 5S or 3C 6C.
    _in_page(playground, "await scopaPlayground.newHand('classic', 4);")
    playground.find_element("css selector", 'g.card[data-where="hand"][data-card="9D"]').click()
    offered = playground.execute_script(
        "return [...document.querySelectorAll('.scopa-pg-choice')].map((b) => b.dataset.move)"
    )
    assert offered == ["9Dx1D+3C+5S", "9Dx3C+6C"]
    # The first is in focus, and the library's explanation of it beside: 1 + 3 + 5 = 9.
    why = 'return document.querySelector(".scopa-pg-choices li")?.textContent'
    _wait_for(
        playground,
        why,
        "9D takes 1D 3C 5S, which add up to 9 (1 + 3 + 5). (rules: What a card can capture)",
    )
    playground.find_element("css selector", '.scopa-pg-choice[data-move="9Dx3C+6C"]').click()
    last = 'return document.querySelector(".scopa-pg-log > li:last-child summary")?.textContent'
    _wait_for(playground, last, "Player 1: 9D takes 3C and 6C")
    # Player 0's 2S has one move, laying it: a click plays it at once.
    playground.find_element("css selector", 'g.card[data-where="hand"][data-card="2S"]').click()
    _wait_for(playground, last, "Player 0: lays 2S")
    state = scopa.GameState.new(scopa.find_variant("classic"), seed=4)
    for text in ("9Dx3C+6C", "2S"):
        state = state.apply(state.parse_move(text))
    listed = _in_page(playground, "return await scopaPlayground.legalMoves();")
    assert listed == [str(move) for move in state.legal_moves()]


def _wait_for(browser: Browser, script: str, expected: str) -> None:
    """Wait until `script` returns `expected` in the page (the page plays asynchronously)."""
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"const read = () => {{ {script} }};"
        "const start = Date.now();"
        "const poll = () => {"
        "  const value = read();"
        "  if (value === arguments[0] || Date.now() - start > 20000) done(value);"
        "  else setTimeout(poll, 50);"
        "};"
        "poll();",
        expected,
    )
    assert found == expected


# Deals from the page's controls: the preset, the opponent, a match, the clock and a seed.
DEAL_FROM_THE_CONTROLS = """
const form = document.querySelector(".scopa-pg-controls");
form.elements.preset.value = "tretre";
form.elements.preset.dispatchEvent(new Event("change", {bubbles: true}));
form.elements.opponent.value = "greedy";
form.elements.span.value = "match";
form.elements.clock.checked = true;
form.elements.seed.value = "3";
form.requestSubmit();
"""


def test_the_controls_deal_a_match_against_the_computer(playground: Browser) -> None:
    # Tretre, seed 3, the reader leading: the hand is played to its end (the computer
    # answering each move), then the match's line gives the totals and the brilli.
    playground.execute_script(DEAL_FROM_THE_CONTROLS)
    status = 'return document.querySelector(".scopa-pg-status").textContent'
    _wait_for(playground, status, "Your turn: click a card of your hand.")
    assert not playground.execute_script('return document.querySelector(".scopa-pg-clock").hidden')
    board = playground.find_element("css selector", ".scopa-pg-board svg")
    assert board.get_attribute("data-variant") == "tretre"
    _in_page(
        playground,
        "for (let moves = await scopaPlayground.legalMoves(); moves.length;"
        "     moves = await scopaPlayground.legalMoves()) {"
        "  await scopaPlayground.play(moves[0]);"
        "}",
    )
    line = playground.find_element("css selector", ".scopa-pg-match").text
    assert line.startswith("Match, hand 1, to 9: you ")
    assert " Brilli: you " in line
    # The next hand is dealt by the reader: the computer leads it, then the reader plays.
    playground.find_element("css selector", ".scopa-pg-score button").click()
    _wait_for(playground, status, "Your turn: click a card of your hand.")
    plays = 'return document.querySelectorAll(".scopa-pg-log > li").length'
    assert playground.execute_script(plays) == 1


def test_the_computer_answers_in_the_page(playground: Browser) -> None:
    # The search, as the page plays it: a whole hand, the computer (player 0, the dealer)
    # answering each move of player 1.
    played = _in_page(
        playground,
        "await scopaPlayground.newHand('classic', 8);"
        "await scopaPlayground.setOpponent('search', 0);"
        "let plays = [];"
        "for (let moves = await scopaPlayground.legalMoves(); moves.length;"
        "     moves = await scopaPlayground.legalMoves()) {"
        "  plays = plays.concat(await scopaPlayground.play(moves[0]));"
        "}"
        "return {plays, score: await scopaPlayground.handScore()};",
    )
    state = scopa.GameState.new(scopa.find_variant("classic"), seed=8)
    for text in played["plays"]:
        state = state.apply(state.parse_move(text))
    assert state.is_terminal
    assert played["score"] == list(state.hand_score().points)
    assert [player for player, _ in state.history] == [1, 0] * 18


SEEN: list[str] = []
"""Every network request read from the browser's log by `_requested`, in order."""


def _requested(browser: Browser) -> list[str]:
    """The network requests the browser made since the last call (its performance log)."""
    entries = [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]
    urls = [
        entry["params"]["request"]["url"]
        for entry in entries
        if entry["method"] == "Network.requestWillBeSent"
    ]
    # Chromium's own pages (chrome://) and data in the page (data:, blob:) are not requests
    # to a host.
    network = [url for url in urls if url.startswith(("http:", "https:", "ws:", "wss:"))]
    SEEN.extend(network)
    return network


def _errors(browser: Browser) -> list[str]:
    """The errors the page logged since the last call."""
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def test_the_trained_policy_plays_a_hand_offline(playground: Browser, address: str) -> None:
    # The page plays the trained policy in pure Python, from the weights in the library's
    # wheel: a whole hand against it, the computer answering each move of the reader, with
    # no request off the site. Its moves are those of the same network here.
    _requested(playground)
    state = scopa.GameState.new(scopa.find_variant("classic"), seed=6)
    first = state.current_player
    assert first is not None
    seat = 1 - first  # the reader leads
    played = _in_page(
        playground,
        "const [seat] = args;"
        "await scopaPlayground.newHand('classic', 6);"
        "await scopaPlayground.setOpponent('policy', seat);"
        "let plays = [];"
        "for (let moves = await scopaPlayground.legalMoves(); moves.length;"
        "     moves = await scopaPlayground.legalMoves()) {"
        "  plays = plays.concat(await scopaPlayground.play(moves.at(-1)));"
        "}"
        "return {plays, score: await scopaPlayground.handScore()};",
        seat,
    )
    policy = table.TrainedPolicy.shipped()
    for text in played["plays"]:
        if state.current_player == seat:
            assert text == str(policy.choose(scopa.view(state), random.Random(0)))
        state = state.apply(state.parse_move(text))
    assert state.is_terminal
    assert [player for player, _ in state.history].count(seat) == 18
    assert played["score"] == list(state.hand_score().points)
    assert [url for url in _requested(playground) if not url.startswith(address)] == []
    assert _errors(playground) == []


def test_every_request_of_the_browser_went_to_the_local_site(
    playground: Browser, address: str
) -> None:
    # Every request of the tests so far; and no error in the page's console.
    assert _errors(playground) == []
    _requested(playground)
    assert any(url.endswith("/pyodide.asm.wasm") for url in SEEN), SEEN[:5]
    elsewhere = [url for url in SEEN if not url.startswith(address)]
    assert not elsewhere, elsewhere[:5]
