"""The documentation: it covers every preset and public name, and what it states holds."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest

import scopa
from tests.helpers import ROOT

DOCS = ROOT / "docs"
# The API reference has a page per module; the names are looked up in all of them.
REFERENCE = "\n".join(
    page.read_text(encoding="utf-8") for page in sorted((DOCS / "reference").glob("*.md"))
)


PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
"""The README and the pages of the site, whose examples run as tests (see conftest.py)."""


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_no_page_writes_an_empty_line_of_output_as_a_doctest_marker(page: Path) -> None:
    # The pages are read on the site, in the repository and (the README) on the package
    # index: an empty line of output is written as one, which the examples' parser accepts.
    text = page.read_text(encoding="utf-8")
    lines = [number for number, line in enumerate(text.splitlines(), 1) if "<BLANKLINE>" in line]
    assert not lines, f"<BLANKLINE> on lines {lines}"


# A page with a block skipped for a module that is missing, and a session whose output has
# an empty line within it; the lines are numbered from 1.
EXAMPLE_PAGE = """\
# A page

<!-- skip: start needs("scopa_no_such_module") -->

```python
>>> import scopa_no_such_module
```

<!-- skip: end -->

```python
>>> print("a\\n\\nb")
a

b
```
"""


def test_the_examples_of_a_page_read_empty_lines_and_report_skips_at_their_line(
    tmp_path: Path,
) -> None:
    shutil.copy(ROOT / "conftest.py", tmp_path)
    (tmp_path / "README.md").write_text(EXAMPLE_PAGE, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "README.md"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert "3 passed, 1 skipped" in run.stdout  # the two skip markers pass
    reason = "needs scopa_no_such_module, from an optional extra (see pyproject.toml)"
    assert f"SKIPPED [1] README.md:6: {reason}" in run.stdout, run.stdout[-2000:]


# A page with two blocks skipped for one missing module and one for another.
SKIPPING_PAGE = """\
# A page

<!-- skip: start needs("scopa_no_such_module") -->

```python
>>> import scopa_no_such_module
```

```python
>>> import scopa_no_such_module as again
```

<!-- skip: end -->

<!-- skip: start needs("scopa_no_other_module") -->

```python
>>> import scopa_no_other_module
```

<!-- skip: end -->
"""


def _pytest_options() -> list[str]:
    """The options that pyproject.toml gives every run of the tests (`addopts`)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options: list[str] = pyproject["tool"]["pytest"]["ini_options"]["addopts"]
    return [option for option in options if option != "--doctest-modules"]


@pytest.mark.parametrize("no_skips", [False, True])
def test_a_run_counts_its_skips_by_reason_in_a_line_each(tmp_path: Path, no_skips: bool) -> None:
    # Without the extras, the README's test run skips many tests for a few reasons: the end
    # of the run counts them by reason rather than listing every test.
    shutil.copy(ROOT / "conftest.py", tmp_path)
    (tmp_path / "README.md").write_text(SKIPPING_PAGE, encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            *_pytest_options(),
            *(["--no-skips"] if no_skips else []),
            "README.md",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == (1 if no_skips else 0), run.stdout[-2000:]
    assert "SKIPPED [" not in run.stdout, run.stdout[-2000:]
    reason = "needs {}, from an optional extra (see pyproject.toml)"
    lines = run.stdout.splitlines()
    assert f"    2  {reason.format('scopa_no_such_module')}" in lines, run.stdout[-2000:]
    assert f"    1  {reason.format('scopa_no_other_module')}" in lines, run.stdout[-2000:]
    assert "3 skipped" in lines[-1]
    assert ("--no-skips: 3 tests were skipped" in run.stdout) == no_skips


def _hook(name: str) -> types.ModuleType:
    """A hook of the site, loaded as MkDocs loads it (its folder on the path while it loads)."""
    folder = str(DOCS / "hooks")
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(f"site_{name}", DOCS / "hooks" / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return module


PRESET_PAGES = _hook("preset_pages")


@pytest.mark.parametrize("name", scopa.variant_names())
def test_every_preset_has_a_page_and_a_place_in_the_navigation(name: str) -> None:
    # A preset's page is written by hand, or drawn from its entry by the site's hook; the
    # navigation lists it under its family either way, and mkdocs.yml does not name it.
    page = DOCS / "variants" / f"{name}.md"
    if page.exists():
        text = page.read_text(encoding="utf-8")
        assert f'"{name}"' in text
    else:
        text = PRESET_PAGES.generated_page(scopa.find_preset(name))
        assert f"# {name}\n" in text
        assert scopa.find_preset(name).summary in text
    PRESET_PAGES.with_lists(text, f"variants/{name}.md")  # every marker draws its list
    section = PRESET_PAGES.variants_nav(["variants/index.md", {"Bonus": "variants/bonuses.md"}])
    family = scopa.find_preset(name).family.value
    groups = [item[family] for item in section if isinstance(item, dict) and family in item]
    assert [{name: f"variants/{name}.md"}] == [entry for entry in groups[0] if name in entry]
    assert section[0] == "variants/index.md"
    assert section[-1] == {"Bonus": "variants/bonuses.md"}
    assert f"variants/{name}.md" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_the_lists_of_presets_are_drawn_from_the_presets(page: Path) -> None:
    # A page lists presets through a marker of the site's hook, which must draw a list; the
    # aliases and sources of a preset's page are drawn from the preset, not typed again.
    where = page.relative_to(DOCS).as_posix() if DOCS in page.parents else page.name
    text = page.read_text(encoding="utf-8")
    PRESET_PAGES.with_lists(text, where)
    name = page.stem
    if page.parent == DOCS / "variants" and name in scopa.variant_names():
        sections = dict(re.findall(r"^## (\w+)\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S))
        assert sections["Aliases"].lstrip().startswith("<!-- preset: aliases -->")
        if scopa.find_preset(name).sources:
            assert sections["Sources"].strip() == "<!-- preset: sources -->"
    everyone = {f"`{name}`" for name in scopa.variant_names()}
    for paragraph in re.split(r"\n\s*\n", text):
        named = {word for word in re.findall(r"`[a-z0-9-]+`", paragraph) if word in everyone}
        assert len(named) < 8, f"a paragraph names {len(named)} presets: draw the list instead"


def test_a_marker_that_asks_for_no_list_is_refused() -> None:
    with pytest.raises(PRESET_PAGES.PresetMarkerError, match="no list of presets"):
        PRESET_PAGES.with_lists("<!-- presets: everything -->", "index.md")
    with pytest.raises(PRESET_PAGES.PresetMarkerError, match="no list of presets"):
        PRESET_PAGES.with_lists("<!-- preset: aliases -->", "rules.md")  # not a preset's page
    fenced = "```text\n<!-- presets: everything -->\n```"
    assert PRESET_PAGES.with_lists(fenced, "index.md") == fenced


@pytest.mark.parametrize("name", scopa.__all__)
def test_every_public_name_is_in_the_reference(name: str) -> None:
    assert f"::: scopa.{name}\n" in REFERENCE + "\n", f"scopa.{name} is not in the API reference"


# The modules documented under their own name in the API reference, each with the
# frameworks it imports (the adapters need theirs; skip one whose framework is missing).
DOCUMENTED_MODULES = {
    "scopa.cards": None,
    "scopa.errors": None,
    "scopa.rules": None,
    "scopa.scoring": None,
    "scopa.stakes": None,
    "scopa.moves": None,
    "scopa.state": None,
    "scopa.match": None,
    "scopa.svg": None,
    "scopa.board": None,
    "scopa.explain": None,
    "scopa.cli": None,
    "scopa.masks": None,
    "scopa.encoding": None,
    "scopa.agents": None,
    "scopa.search": None,
    "scopa.odds": None,
    "scopa.policy": "numpy",
    "scopa.tournament": None,
    "scopa.records": None,
    "scopa.adapters": None,
    "scopa.adapters.openspiel": "pyspiel",
    "scopa.adapters.pettingzoo": "pettingzoo",
    "scopa.adapters.gymnasium": "gymnasium",
    "scopa.batch": "jax",
    "scopa.adapters.gymnasium_batch": "jax gymnasium",
    "scopa.adapters.pgx": "jax pgx",
}


@pytest.mark.parametrize("module_name", DOCUMENTED_MODULES)
def test_every_name_of_a_documented_module_is_in_the_reference(module_name: str) -> None:
    framework = DOCUMENTED_MODULES[module_name]
    for needed in (framework or "").split():
        pytest.importorskip(needed, reason=f"needs {needed}, from an optional extra")
    module = importlib.import_module(module_name)
    entries = set(re.findall(r"^::: (\S+)$", REFERENCE, flags=re.MULTILINE))
    missing = []
    for name in module.__all__:
        # A name that the package also exports may be documented under the package.
        exported = name in scopa.__all__ and getattr(scopa, name) is getattr(module, name)
        if f"{module_name}.{name}" not in entries and not (exported and f"scopa.{name}" in entries):
            missing.append(name)
    assert not missing, f"{module_name}: {missing} not in the API reference"


def _public_names() -> dict[str, str]:
    """Each public name of the package and of its documented modules, with where it is."""
    names = dict.fromkeys(scopa.__all__, "scopa")
    for module_name, framework in DOCUMENTED_MODULES.items():
        if framework is None:
            for name in importlib.import_module(module_name).__all__:
                names.setdefault(name, module_name)
    return names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_no_page_defines_a_function_or_class_with_the_name_of_a_public_one(page: Path) -> None:
    # A reader who copies an example must not find a library name meaning something else.
    public = _public_names()
    defined = re.findall(
        r"^(?:>>> |\.\.\. )?\s*(?:def|class) (\w+)",
        page.read_text(encoding="utf-8"),
        flags=re.MULTILINE,
    )
    clashes = sorted({f"{name} (of {public[name]})" for name in defined if name in public})
    assert not clashes, f"defines {clashes}"


def test_the_readme_says_what_each_dependency_group_is_for() -> None:
    # The skip reasons name the groups to install; the README explains each one, in a list
    # item that starts with its name (`- `name`: ...`, or `; `name`: ...` within an item).
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    explained = set(re.findall(r"(?:^- |; )`(\w+)`:", readme, flags=re.MULTILINE))
    missing = sorted(set(groups["dependency-groups"]) - explained)
    assert not missing, f"the README does not explain the dependency groups {missing}"


# The classes whose reference lists its members by hand, in the order a reader needs them:
# the methods first and, for positions, the bit masks last.
ORDERED_MEMBERS = {
    "scopa.GameState": scopa.GameState,
    "scopa.PlayerView": scopa.PlayerView,
    "scopa.Match": scopa.Match,
}
WITH_THE_METHODS = {"is_terminal"}
"""The attributes listed among the methods: a program reads them at every move."""


def _members_listed(entry: str) -> list[str]:
    """The `members:` list of an entry of the API reference (`::: NAME` and its options)."""
    found = re.search(rf"^::: {re.escape(entry)}\n((?:    .*\n)*)", REFERENCE, re.MULTILINE)
    assert found is not None, f"{entry} is not in the API reference"
    return re.findall(r"^        - (\w+)$", found[1], flags=re.MULTILINE)


@pytest.mark.parametrize("entry", ORDERED_MEMBERS)
def test_a_class_reference_lists_every_member_with_the_methods_first(entry: str) -> None:
    cls = ORDERED_MEMBERS[entry]
    listed = _members_listed(entry)
    public = {name for name in dir(cls) if not name.startswith("_")}
    assert sorted(listed) == sorted(public), f"listed {set(listed) ^ public} wrongly"
    data = (property, types.MemberDescriptorType)
    # 0 for a method, 1 for an attribute, 2 for a bit mask: the ranks must not go down.
    ranks = [
        0
        if name in WITH_THE_METHODS or not isinstance(inspect.getattr_static(cls, name), data)
        else 2
        if name.endswith(("_mask", "_masks"))
        else 1
        for name in listed
    ]
    assert ranks == sorted(ranks), f"{entry}: out of order: {dict(zip(listed, ranks, strict=True))}"


@pytest.mark.parametrize("page", ["README.md", "docs/index.md", "docs/quickstart.md"])
def test_the_first_example_of_a_starting_page_draws_the_position(page: str) -> None:
    # A newcomer's first look at a hand is the board; build details come after the first hand.
    text = (ROOT / page).read_text(encoding="utf-8")
    first = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert ">>> print(state)\n" in first
    if "## Compiled or pure Python" in text:
        assert text.index("## A first hand") < text.index("## Compiled or pure Python")


STARTING_PAGES = ["README.md", "docs/index.md", "docs/quickstart.md"]
"""The pages a newcomer reads first, whose names are used right after `import scopa`."""


def test_every_dotted_name_of_the_starting_pages_works_after_import_scopa() -> None:
    # `scopa.board.state_text(...)` in the README must work after `import scopa` alone, as
    # the page shows it; in a fresh interpreter, so that no other test has imported it.
    names = sorted(
        {
            name
            for page in STARTING_PAGES
            for name in re.findall(r"\bscopa(?:\.\w+)+", (ROOT / page).read_text(encoding="utf-8"))
            if name.count(".") >= 2
        }
    )
    assert "scopa.board.state_text" in names, names
    script = (
        "import functools, sys\n"
        "import scopa\n"
        "early = sorted(m for m in ('scopa.board', 'scopa.svg') if m in sys.modules)\n"
        "assert not early, f'import scopa imported {early}'\n"
        "for name in sys.argv[1:]:\n"
        "    functools.reduce(getattr, name.split('.')[1:], scopa)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, *names],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]


def test_an_unknown_name_of_the_package_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'scopa' has no attribute 'boards'"):
        _ = scopa.boards
    assert not hasattr(scopa, "batch_engine")


def test_the_scopone_capture_rule_is_not_written_as_a_scoring_rule() -> None:
    # `MIN_CARDS` limits what a card may take; "the fewest cards captured" reads as a side
    # scoring by capturing few cards. The pages and the presets' summaries say it as the
    # command does: "a card takes the fewest table cards it can".
    texts = {page.relative_to(ROOT).as_posix(): page.read_text(encoding="utf-8") for page in PAGES}
    texts.update((preset.name, preset.summary) for preset in scopa.presets())
    wrong = re.compile(r"fewest[- ]cards?[ -]captur|captur\w* (?:by )?the fewest", re.IGNORECASE)
    found = {name: wrong.findall(text) for name, text in texts.items() if wrong.search(text)}
    assert not found, found
    assert "a card takes the fewest table cards it can" in texts["scopone"]


# The repository's text files: what is not built, installed or cached.
_NOT_SOURCE = {"__pycache__", "site", "build", "dist", "mutants", "node_modules"}
_TEXT_SUFFIXES = {"", ".py", ".md", ".txt", ".toml", ".yml", ".yaml", ".cfg", ".css", ".svg"}


def _repository_text_files() -> list[Path]:
    """The text files of the repository, without the build outputs, caches and environments."""
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        hidden = any(part.startswith(".") and part != ".ci" for part in parts)
        if hidden or _NOT_SOURCE & set(parts) or any(p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file() and path.suffix in _TEXT_SUFFIXES:
            found.append(path)
    return found


def test_the_repository_cites_only_itself_and_published_sources() -> None:
    # The tests and their data say where their known answers come from: the docs' pages and
    # the rule books those cite, never a document the repository does not hold.
    absent = re.compile("|".join([r"spec\.md", "".join(["doss", "ier"])]), re.IGNORECASE)
    files = _repository_text_files()
    assert ROOT / "tests" / "golden" / "leads.txt" in files
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if absent.search(line)
    ]
    assert not found, f"cites a document not in the repository: {found}"


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as the site makes them (lower case, hyphens)."""
    anchors = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M):
        text = re.sub(r"\[([^]]*)\]\[[^]]*\]|`", r"\1", heading)
        text = re.sub(r"[^\w\s-]", "", text).strip().lower()
        anchors.add(re.sub(r"[-\s]+", "-", text))
    return anchors


def test_every_section_the_tests_cite_exists() -> None:
    # The tests cite the sections of the docs they were worked out from, as
    # `docs/rules.md#scoring`: each page and each section must exist.
    cited = {
        (match[1], match[2], path.relative_to(ROOT).as_posix())
        for path in _repository_text_files()
        if "tests" in path.relative_to(ROOT).parts
        for match in re.finditer(r"\b(docs/[\w/-]+\.md)#([\w-]+)", path.read_text("utf-8"))
    }
    assert len(cited) > 20, cited
    missing = sorted(
        f"{page}#{anchor} (in {where})"
        for page, anchor, where in cited
        if not (ROOT / page).exists() or anchor not in _anchors(ROOT / page)
    )
    assert not missing, missing


# The numbers in English words up to ninety-nine, and a pattern for a number in digits or words.
_UNITS = [
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen"),
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER = rf"\d+|(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS[1:10])}))?|{'|'.join(_UNITS)}"


def _number(words: str) -> int:
    """The value of a number written in digits or in English words, up to ninety-nine."""
    if words.isdigit():
        return int(words)
    first, _, second = words.lower().replace(" ", "-").partition("-")
    if first in _TENS:
        return 10 * (_TENS.index(first) + 2) + (_UNITS.index(second) if second else 0)
    return _UNITS.index(first)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_a_page_that_counts_the_presets_counts_them_all(page: Path) -> None:
    # The count of the presets is written nowhere but in `variant_names()`; a page that says
    # "twenty-three presets" or "the 21 others" drifts when a preset is added. Numbers below
    # ten count some presets (such as "the two presets of the two-player game").
    counts = re.findall(
        rf"\b({_NUMBER})\b(?:\s+[\w-]+)??\s+(?:presets|variants|others\b)",
        page.read_text(encoding="utf-8"),
        flags=re.IGNORECASE,
    )
    wrong = [count for count in counts if 10 <= _number(count) != len(scopa.variant_names())]
    assert not wrong, f"counts the presets as {wrong}, not {len(scopa.variant_names())}"


@pytest.mark.parametrize(
    ("text", "value"),
    [("21", 21), ("twenty-three", 23), ("Twenty three", 23), ("eleven", 11), ("forty", 40)],
)
def test_a_count_in_words_is_read(text: str, value: int) -> None:
    assert _number(text) == value
    assert re.fullmatch(_NUMBER, text, flags=re.IGNORECASE)


def _sentences(text: str) -> list[str]:
    """The sentences of a page's prose (not of its tables), each on one line."""
    prose = " ".join(line for line in text.splitlines() if not line.startswith("|"))
    return re.split(r"(?<=[.;])\s+(?=[A-Z`(*\[])", " ".join(prose.split()))


def test_every_page_gives_the_compiled_build_the_same_speed_up() -> None:
    # How much faster the compiled build plays random hands is measured once, and the
    # quick start says how; the README, the changelog and every page say the same.
    pages = [*PAGES, ROOT / "CHANGELOG.md"]
    factor = re.compile(r"\b((?:about |nearly |almost |over )?[\w.]+) times as (?:fast|many)\b")
    found: dict[str, set[str]] = {}
    for page in pages:
        for sentence in _sentences(page.read_text(encoding="utf-8")):
            about_builds = re.search(r"(?i)compil", sentence) and "pure Python" in sentence
            about_playouts = re.search(r"playouts?|random hands", sentence)
            if about_builds and about_playouts and not re.search(r"search|iteration", sentence):
                for match in factor.finditer(sentence):
                    found.setdefault(match[1], set()).add(page.relative_to(ROOT).as_posix())
    assert "docs/quickstart.md" in set().union(*found.values()), found
    assert len(found) == 1, f"the pages give different speed-ups: {found}"


# The line that installs from a checkout, and the line that runs the tests.
INSTALL_LINE = 'python -m pip install ".[cli]" && scopa play'
TEST_LINE = "python -m pip install -e . --group test && python -m pytest"


@pytest.mark.parametrize("page", STARTING_PAGES)
def test_the_install_and_test_lines_say_what_they_do_to_the_build(page: str) -> None:
    # The install line compiles for minutes without a word from pip: the paragraph after
    # it says so, and how to skip it. The test line, run after it in the same checkout,
    # replaces the compiled build with an editable pure-Python one: the paragraph says so.
    text = (ROOT / page).read_text(encoding="utf-8")
    for line, words in (
        (INSTALL_LINE, ["minutes", "SCOPA_PURE_PYTHON=1"]),
        (TEST_LINE, ["replaces the compiled build", "editable, pure-Python"]),
    ):
        assert line in text
        after = " ".join(text.split(line, 1)[1].split("```", 1)[1].split("\n\n", 2)[1].split())
        missing = [word for word in words if word not in after]
        assert not missing, f"the paragraph after {line!r} does not say {missing}: {after!r}"


def test_the_cfr_chart_shows_every_agent_and_its_whole_legend(tmp_path: Path) -> None:
    # The chart of docs/solving.md: an agent at NashConv 0 (an equilibrium) is drawn inside
    # the plot, not lost below a logarithmic axis, and the legend's long labels fit in the
    # picture rather than being cut at its edges.
    pytest.importorskip("pyspiel", reason="needs pyspiel, from the extra `openspiel`")
    pytest.importorskip("matplotlib", reason="needs matplotlib, from the dependency group `train`")
    spec = importlib.util.spec_from_file_location("cfr_small", DOCS / "examples" / "cfr_small.py")
    assert spec is not None
    assert spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    curve = [(1, 1.6, 0.1), (10, 0.107, 0.5), (100, 0.011, 6.0), (500, 0.002, 30.0)]
    agents = [
        (label, nash_conv)
        for (label, _), nash_conv in zip(example.AGENTS, [1.6, 0.47, 0, 0, 0, 0.36], strict=True)
    ]
    figure = example.draw(curve, agents, str(tmp_path / "chart.svg"))
    assert (tmp_path / "chart.svg").stat().st_size > 0
    renderer = figure.canvas.get_renderer()
    width, height = figure.bbox.width, figure.bbox.height
    for legend in figure.legends:
        box = legend.get_window_extent(renderer)
        assert min(box.x0, box.y0) >= 0, box
        assert box.x1 <= width, box
        assert box.y1 <= height, box
    axes = figure.axes[0]
    plot = axes.get_window_extent(renderer)
    labels = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    for label, nash_conv in agents:
        assert any(label in text for text in labels), (label, labels)
        y = axes.transData.transform((1, nash_conv))[1]
        assert plot.y0 + 1 < y < plot.y1 - 1, f"{label} at NashConv {nash_conv} is drawn at {y}"


def test_the_training_example_draws_its_curve_beside_its_parameters() -> None:
    # docs/examples/train_policy.py needs JAX and takes half a minute to import, so its
    # function is read from the source and run alone: without `--curve`, the learning
    # curve goes beside `--out`, not into the folder the command is run from.
    source = (DOCS / "examples" / "train_policy.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    function = next(
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "curve_path"
    )
    namespace: dict[str, Any] = {"Path": Path}
    exec(compile(ast.Module([function], []), "train_policy.py", "exec"), namespace)
    curve_path = namespace["curve_path"]
    assert curve_path("runs/policy.npz", None) == "runs/policy-curve.svg"
    assert curve_path("policy.npz", None) == "policy-curve.svg"
    assert curve_path("runs/policy.npz", "chart.svg") == "chart.svg"
    options = {
        node.args[0].value: {keyword.arg: keyword.value for keyword in node.keywords}
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", None) == "add_argument"
        and isinstance(node.args[0], ast.Constant)
    }
    curve = options["--curve"]
    assert "default" not in curve
    help_text = curve["help"]
    assert isinstance(help_text, ast.Constant)
    assert "beside --out" in str(help_text.value)
    bots = (DOCS / "bots.md").read_text(encoding="utf-8")
    assert "Without `--curve`, the learning curve is drawn beside the parameters" in bots
