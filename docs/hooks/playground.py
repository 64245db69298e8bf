"""An MkDocs hook that builds the playground page, where a reader plays Scopa in the browser.

The page `playground.md` holds the marker `<!-- playground -->`. When the site is built,
the marker is replaced by the playground: its controls (the two-player presets, named by
the library, and the computer's agents with their strength), the place of the board, and
the page's script (`javascripts/playground.js`) with its settings. The library runs in
the reader's browser on Pyodide, the Python runtime compiled to WebAssembly, with no
server: the script loads Pyodide, unpacks `scopa` and `attrs` into its file system, and
drives the Python side of the page, `docs/playground/table.py`.

After the build, the hook writes into the site's `playground/` folder `table.py`, the
Python side of the page, and the pure-Python wheel of `scopa`, built from this checkout
by its build backend (hatchling) with `SCOPA_PURE_PYTHON=1`; with the local runtime,
instead of the wheel, `libraries.zip`: the files of the wheels of `scopa` and `attrs` as
installed, compiled to bytecode by the pinned Pyodide under node
(`docs/playground/compile.mjs`, a few seconds; kept in `docs/playground/runtime` for the
next build of the same wheels), and Pyodide itself (`playground/pyodide/`, its standard
library compiled). Compiled ahead of time, the page starts in well under half the time:
the browser no longer compiles every module it imports.

Where Pyodide comes from is the setting `extra.playground.runtime` of `mkdocs.yml` (or
the environment variable `SCOPA_PLAYGROUND_RUNTIME`):

- `local`: the npm package `pyodide`, pinned by `docs/playground/package-lock.json` and
  installed by `npm ci` in `docs/playground`, and the wheel of `attrs`, pinned with its
  hash by `docs/playground/requirements.txt` and fetched by `pip download` into
  `docs/playground/runtime`, with Pyodide's standard library compiled ahead of time by
  that same Pyodide (`docs/playground/compile.mjs`, under node, which the build needs
  too). `docs/playground/install` does all three. The page then needs no network at
  all, and loads as soon as it is opened.
- `cdn`: the same version of Pyodide from the jsDelivr CDN, with its own build of
  `attrs`; the page loads them only when the reader asks for it (the site loads nothing
  from elsewhere unasked).
- `auto` (the default): `local` when all of it is installed and node is there, else `cdn`;
  the build says which, and why.

Examples:
    >>> pinned = pyodide_version()
    >>> pinned.count(".")
    2
    >>> cdn_url(pinned) == f"https://cdn.jsdelivr.net/pyodide/v{pinned}/full/"
    True
    >>> html = controls_html()
    >>> html.index('value="classic"') < html.index('value="tretre"') < html.index('value="escoba"')
    True
    >>> 'value="scopone"' in html  # four players: not at this table
    False
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import scopa

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: the project the wheel is built from."""
FOLDER = ROOT / "docs" / "playground"
"""The playground's sources: the npm package's pins, the pin of attrs, the Python side."""
PAGE = "playground.md"
"""The page that holds the marker, relative to the docs folder."""
MARKER = "<!-- playground -->"
"""The text that the playground replaces."""
SITE_FOLDER = "playground"
"""The folder of the built site that receives the wheels, the Python side and Pyodide."""
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json")
"""The files of the npm package that the page loads, besides its standard library."""
STDLIB = "python_stdlib.zip"
"""The name the page loads Pyodide's standard library by."""
LIBRARIES = "libraries.zip"
"""The name the page loads `scopa` and `attrs` by, compiled, with the local runtime."""
SETTINGS = ("auto", "local", "cdn")
"""The values of `extra.playground.runtime`."""
FIRST = ("classic", "tretre")
"""The presets listed first, in this order; the other two-player presets follow."""
OPPONENTS = {
    "greedy": ("greedy: one move ahead", "+1.49 points a hand against random play"),
    "search": (
        "search: ISMCTS, 1,000 iterations a move",
        "about +1.0 a hand against greedy, +0.8 against the policy",
    ),
    "policy": ("the trained policy", "+0.57 a hand against greedy"),
}
"""The computer's agents (those of `scopa play`): a name, and their strength as the bots
guide measured it (`bots.md`, "How strong, how fast": pure Python, paired deals of classic;
the search's row is that of ISMCTS on 25 and 100 ms a move). Each plays on the library
alone: the trained policy in pure Python (`TrainedPolicy` of `table.py`), without numpy."""

_mode: dict[str, str] = {}
"""The runtime chosen for the build in progress (`runtime`), and why (`why`)."""


class PlaygroundError(ValueError):
    """The playground cannot be built as asked."""


# --------------------------------------------------------------------------- pins


def pyodide_version() -> str:
    """The version of Pyodide pinned by `docs/playground/package.json`."""
    package = json.loads((FOLDER / "package.json").read_text(encoding="utf-8"))
    version = str(package["dependencies"]["pyodide"])
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise PlaygroundError(f"package.json must pin an exact version of pyodide, not {version}")
    return version


def cdn_url(version: str) -> str:
    """The folder of that version of Pyodide on the jsDelivr CDN."""
    return f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"


def attrs_pin() -> tuple[str, str, str]:
    """The wheel of attrs pinned by `docs/playground/requirements.txt`: its name, version, hash."""
    text = (FOLDER / "requirements.txt").read_text(encoding="utf-8")
    found = re.search(r"^attrs==(\S+) --hash=sha256:([0-9a-f]{64})$", text, re.MULTILINE)
    if found is None:
        raise PlaygroundError("docs/playground/requirements.txt pins no attrs==X --hash=sha256:H")
    version, digest = found.groups()
    return f"attrs-{version}-py3-none-any.whl", version, digest


def missing_runtime() -> str | None:
    """What the local runtime lacks, or `None` when it is installed as pinned."""
    version = pyodide_version()
    package = FOLDER / "node_modules" / "pyodide"
    try:
        installed = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return "the npm package pyodide is not installed"
    if installed != version:
        return f"the npm package pyodide is {installed}, not the pinned {version}"
    absent = [name for name in RUNTIME_FILES if not (package / name).is_file()]
    if absent:
        return f"the npm package pyodide lacks {', '.join(absent)}"
    if shutil.which("node") is None:
        return "node is not installed"
    name, _, digest = attrs_pin()
    wheel = FOLDER / "runtime" / name
    if not wheel.is_file():
        return f"the wheel {name} is not in docs/playground/runtime"
    if hashlib.sha256(wheel.read_bytes()).hexdigest() != digest:
        return f"docs/playground/runtime/{name} is not the wheel pinned by its hash"
    if not compiled_stdlib(version).is_file():
        return f"the standard library of Pyodide {version} is not compiled"
    return None


def compiled_stdlib(version: str) -> Path:
    """Where `compile.mjs stdlib` writes the standard library of that Pyodide, compiled."""
    return FOLDER / "runtime" / f"python_stdlib-{version}.zip"


def choose_runtime(setting: str) -> tuple[str, str]:
    """The runtime the site gets, `local` or `cdn`, for a setting, and why.

    Raises:
        PlaygroundError: the setting is unknown, or `local` while it is not installed.
    """
    if setting not in SETTINGS:
        raise PlaygroundError(
            f"extra.playground.runtime must be one of {', '.join(SETTINGS)}, not {setting!r}"
        )
    missing = None if setting == "cdn" else missing_runtime()
    install = "run docs/playground/install for a site that works offline"
    if setting == "local" and missing is not None:
        raise PlaygroundError(f"the local runtime is asked for, but {missing}: {install}")
    if setting == "cdn":
        return "cdn", "as extra.playground.runtime asks"
    if missing is not None:
        return "cdn", f"{missing}; {install}"
    return "local", "installed in docs/playground"


# --------------------------------------------------------------------------- the page


def controls_html() -> str:
    """The playground's controls: presets, opponents, a hand or a match, clock, language, seed.

    Each word the page translates is marked with its key (`data-text`).
    """
    two = [name for name in scopa.variant_names() if scopa.find_variant(name).players == 2]
    presets = [name for name in FIRST if name in two] + [n for n in two if n not in FIRST]
    timed = [name for name in presets if scopa.find_variant(name).move_time_limit is not None]
    preset_options = "".join(
        f'<option value="{name}"{" data-clock" if name in timed else ""}>{name}</option>'
        for name in presets
    )
    opponent_options = "".join(
        f'<option value="{name}" data-text="{name}">'
        f"{html.escape(label)} ({html.escape(strength)})</option>"
        for name, (label, strength) in OPPONENTS.items()
    )

    def words(key: str, text: str) -> str:
        return f'<span data-text="{key}">{text}</span>'

    return "".join(
        [
            '<form class="scopa-pg-controls" autocomplete="off">',
            f'<label>{words("game", "Game")} <select name="preset">{preset_options}</select>'
            "</label>",
            f'<label>{words("opponent", "Opponent")} <select name="opponent">'
            f"{opponent_options}</select></label>",
            f'<label>{words("span", "Play")} <select name="span">'
            '<option value="hand" data-text="hand">one hand</option>'
            '<option value="match" data-text="match">a match</option></select></label>',
            '<label class="scopa-pg-clock" hidden><input type="checkbox" name="clock"> '
            f"{words('clock', 'the clock: 30 s a move')}</label>",
            f'<label>{words("lang", "Language")} <select name="lang">'
            '<option value="en" lang="en">English</option>'
            '<option value="it" lang="it">Italiano</option></select></label>',
            f'<label>{words("seed", "Seed")} <input name="seed" type="number" min="0" step="1" '
            'placeholder="any" inputmode="numeric"></label>',
            '<button type="submit" class="md-button md-button--primary" data-text="deal">'
            "Deal</button>",
            "</form>",
        ]
    )


def playground_html(settings: dict[str, Any], script: str, stylesheet: str) -> str:
    """The playground's HTML: its controls, its panels, its settings and its script."""
    return "\n".join(
        [
            '<div class="scopa-playground" id="scopa-playground" data-search-exclude>',
            controls_html(),
            '<div class="scopa-pg-status" role="status" aria-live="polite"></div>',
            '<div class="scopa-pg-main">',
            '<div class="scopa-pg-board" aria-label="the board"></div>',
            '<div class="scopa-pg-side">',
            '<div class="scopa-pg-choices" aria-live="polite"></div>',
            '<div class="scopa-pg-score"></div>',
            '<ol class="scopa-pg-log" aria-label="the plays of the hand"></ol>',
            "</div>",
            "</div>",
            '<script type="application/json" class="scopa-pg-settings">'
            + json.dumps(settings).replace("</", "<\\/")
            + "</script>",
            "</div>",
            f'<link rel="stylesheet" href="{stylesheet}">',
            f'<script src="{script}"></script>',
        ]
    )


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Choose where the page's runtime comes from, and say it.

    Raises:
        PluginError: the setting is unknown, or asks for a local runtime not installed.
    """
    from mkdocs.exceptions import PluginError
    from mkdocs.utils import log

    setting = str((config.extra.get("playground") or {}).get("runtime", "auto"))
    try:
        runtime, why = choose_runtime(setting)
    except PlaygroundError as error:
        raise PluginError(str(error)) from None
    _mode.update(runtime=runtime, why=why)
    where = "from the site itself" if runtime == "local" else f"from {cdn_url(pyodide_version())}"
    log.info(f"playground: Pyodide {pyodide_version()} is loaded {where} ({why})")
    return config


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace the playground page's marker with the playground.

    Raises:
        PluginError: the page has no marker, so the playground would silently go missing.
    """
    from mkdocs.exceptions import PluginError
    from mkdocs.utils import get_relative_url

    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise PluginError(f"{PAGE} has no {MARKER} marker for the playground")

    def here(path: str) -> str:
        return get_relative_url(path, page.url)

    local = _mode["runtime"] == "local"
    settings = {
        "version": pyodide_version(),
        "runtime": _mode["runtime"],
        "indexURL": here(f"{SITE_FOLDER}/pyodide/") if local else cdn_url(pyodide_version()),
        # What the page unpacks into site-packages, and how (Pyodide's `unpackArchive`).
        "archives": [
            {"url": here(f"{SITE_FOLDER}/{LIBRARIES}"), "format": "zip"}
            if local
            else {"url": here(f"{SITE_FOLDER}/{wheel_name()}"), "format": "wheel"}
        ],
        "packages": [] if local else ["attrs"],
        "module": here(f"{SITE_FOLDER}/table.py"),
        "siteRoot": here("") or ".",
        "directoryUrls": bool(config.use_directory_urls),
    }
    script = here("javascripts/playground.js")
    stylesheet = here("stylesheets/playground.css")
    return markdown.replace(MARKER, playground_html(settings, script, stylesheet))


# --------------------------------------------------------------------------- the files


def wheel_name() -> str:
    """The file name of the pure-Python wheel of this checkout."""
    return f"scopa-{scopa.__version__}-py3-none-any.whl"


def build_wheel(folder: Path) -> Path:
    """Build the pure-Python wheel of this checkout into `folder`, with hatchling.

    Raises:
        PlaygroundError: hatchling is missing or the build fails.
    """
    environment = {**os.environ, "SCOPA_PURE_PYTHON": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "--target", "wheel", "--directory", folder],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    wheel = folder / wheel_name()
    if built.returncode != 0 or not wheel.is_file():
        raise PlaygroundError(
            f"the wheel of scopa could not be built with hatchling (the group docs installs "
            f"it): {(built.stderr or built.stdout).strip()[-500:]}"
        )
    return wheel


def compiled_libraries(wheels: list[Path]) -> Path:
    """The files of the wheels as installed, compiled by the pinned Pyodide, as a zip.

    The zip is kept in `docs/playground/runtime`, named after the wheels' contents, so that
    a build of the same wheels reuses it.

    Raises:
        PlaygroundError: the compilation failed.
    """
    digest = hashlib.sha256(pyodide_version().encode())
    for wheel in wheels:
        digest.update(wheel.read_bytes())
    kept = FOLDER / "runtime" / f"libraries-{digest.hexdigest()[:16]}.zip"
    if kept.is_file():
        return kept
    for old in kept.parent.glob("libraries-*.zip"):
        old.unlink()
    compiled = subprocess.run(
        ["node", FOLDER / "compile.mjs", "wheels", kept, *wheels],
        capture_output=True,
        text=True,
        check=False,
    )
    if compiled.returncode != 0 or not kept.is_file():
        kept.unlink(missing_ok=True)
        raise PlaygroundError(
            f"the libraries could not be compiled: {compiled.stderr.strip()[-500:]}"
        )
    return kept


def on_post_build(config: MkDocsConfig) -> None:
    """Write the library, the Python side and, with the local runtime, Pyodide into the site.

    Raises:
        PluginError: the wheel of scopa cannot be built, or compiled.
    """
    from mkdocs.exceptions import PluginError

    out = Path(config.site_dir) / SITE_FOLDER
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FOLDER / "table.py", out / "table.py")
    local = _mode["runtime"] == "local"
    with tempfile.TemporaryDirectory() as work:
        try:
            wheel = build_wheel(Path(work))
            if local:
                name, _, _ = attrs_pin()
                libraries = compiled_libraries([wheel, FOLDER / "runtime" / name])
        except PlaygroundError as error:
            raise PluginError(str(error)) from None
        if not local:
            shutil.copyfile(wheel, out / wheel.name)
            return
    shutil.copyfile(libraries, out / LIBRARIES)
    runtime = out / "pyodide"
    runtime.mkdir(exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(FOLDER / "node_modules" / "pyodide" / name, runtime / name)
    shutil.copyfile(compiled_stdlib(pyodide_version()), runtime / STDLIB)
