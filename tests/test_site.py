"""The documentation site as built: every page loads cleanly, fits and shows its pictures.

The site is built with `mkdocs build --strict`, which needs the `docs` dependency group
(mkdocs and its plugins); its HTML is read for what should never be shown. It is then
served on localhost and visited page by page in headless Chromium, at a desktop width and
at a phone width, which needs the `site` group (`docs` and selenium) and Debian's
`chromium` and `chromium-driver`. Each test that lacks one of these is skipped, saying which.
The site, its server and the browser are the fixtures of `tests/built_site.py`.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from tests.built_site import Browser

DESKTOP, PHONE = 1280, 390
"""The two window widths, in CSS pixels, at which every page is checked."""
HEIGHT = 900

# The elements that stick out on the right of the viewport, or are cut off on its left,
# other than those inside a box that scrolls sideways (a code block, a table's wrapper)
# and those not drawn at all. Only the outermost of nested offenders is named, by its tag,
# classes and first words, and at most ten of them.
OVERFLOWING = """
const width = document.documentElement.clientWidth;
const scrollsSideways = (element) =>
    ["auto", "scroll"].includes(getComputedStyle(element).overflowX);
const offenders = new Set();
const found = [];
for (const element of document.body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const cut = box.right > width + 1 || (box.left < -1 && box.right > 0);
    if (!cut || getComputedStyle(element).visibility === "hidden") continue;
    let ancestor = element.parentElement;
    while (ancestor && !scrollsSideways(ancestor)) ancestor = ancestor.parentElement;
    if (ancestor) continue;
    offenders.add(element);
    if (offenders.has(element.parentElement)) continue;
    const classes = [...element.classList].map((name) => "." + name).join("");
    const words = (element.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    found.push(`<${element.tagName.toLowerCase()}${classes}> ${Math.round(box.left)}..`
        + `${Math.round(box.right)} px "${words}"`);
}
const page = document.documentElement.scrollWidth;
if (page > width) found.unshift(`the page is ${page} px wide in a ${width} px window`);
return found.slice(0, 10);
"""

# Waits for every <img> to finish loading (or failing), then names those with no picture.
BROKEN_IMAGES = """
const done = arguments[arguments.length - 1];
const images = [...document.images];
for (const image of images) image.loading = "eager";
Promise.all(images.map((image) => image.decode().catch(() => null))).then(() => done(
    images.filter((image) => image.naturalWidth === 0).map((image) => image.currentSrc || image.src)
));
"""

# The pictures drawn by the library (inline SVG in a figure) that take no room on the page.
EMPTY_PICTURES = """
return [...document.querySelectorAll("figure.scopa-picture")]
    .filter((figure) => {
        const svg = figure.querySelector("svg");
        return !svg || svg.getBoundingClientRect().width === 0;
    })
    .map((figure) => (figure.textContent || "").trim().slice(0, 60));
"""


# The code that the copy button of a code block hides for good: the characters under the
# button when the block is scrolled to its end (which for a block that does not scroll is
# where it stands), since scrolling back only moves them further right. Each block is named
# by its id and the characters hidden.
HIDDEN_UNDER_THE_BUTTON = """
const found = [];
for (const pre of document.querySelectorAll("pre")) {
    const button = pre.querySelector(".md-code__button, .md-clipboard");
    const code = pre.querySelector("code");
    if (!button || !code || button.getBoundingClientRect().width === 0) continue;
    const before = code.scrollLeft;
    code.scrollLeft = code.scrollWidth;
    const under = button.getBoundingClientRect();
    const shown = code.getBoundingClientRect();
    let hidden = "";
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const text = walker.currentNode;
        for (let i = 0; i < text.length; i++) {
            if (/\\s/.test(text.data[i])) continue;
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            for (const box of range.getClientRects()) {
                const inView = box.right > shown.left && box.left < shown.right;
                const covered = box.right > under.left && box.left < under.right
                    && box.bottom > under.top && box.top < under.bottom;
                if (inView && covered) hidden += text.data[i];
            }
        }
    }
    code.scrollLeft = before;
    if (hidden) found.push(`#${pre.id || "?"}: "${hidden}"`);
}
return found.slice(0, 10);
"""

# The signatures of the API reference that do not fit their box and must be scrolled.
WIDE_SIGNATURES = """
return [...document.querySelectorAll(".doc-signature code")]
    .filter((code) => code.scrollWidth > code.clientWidth + 1)
    .map((code) => `${code.scrollWidth} px in ${code.clientWidth} px: `
        + code.textContent.trim().replace(/\\s+/g, " ").slice(0, 60))
    .slice(0, 10);
"""

# The table that follows the heading `id`: how it fits its box. The widths of its box (the
# part that shows) and of its content, and any cell whose content is cut.
TABLE_FIT = """
const heading = document.getElementById(arguments[0]);
let next = heading && heading.nextElementSibling;
while (next && next.tagName !== "TABLE" && !next.querySelector("table")) {
    next = next.nextElementSibling;
}
if (!next) return null;
const table = next.tagName === "TABLE" ? next : next.querySelector("table");
const box = table.closest(".md-typeset__scrollwrap") || table.parentElement;
const shown = box.getBoundingClientRect();
const columns = [...table.querySelectorAll("thead th")].map((cell) => {
    const edges = cell.getBoundingClientRect();
    return [Math.round(edges.left - shown.left), Math.round(edges.right - shown.left)];
});
const cut = [...table.querySelectorAll("td, th")]
    .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
    .map((cell) => cell.textContent.trim().slice(0, 40));
return {shown: Math.round(shown.width), columns: columns, cut: cut};
"""


@attrs.frozen
class PageReport:
    """What the browser found wrong on one page of the site."""

    path: str
    """The page's address relative to the site's root, such as `rules/`."""
    console_errors: tuple[str, ...]
    """The messages logged at the level of errors while the page was shown."""
    broken_images: tuple[str, ...]
    """The images that did not load."""
    empty_pictures: tuple[str, ...]
    """The captions of the library's pictures that were drawn with no size."""
    overflowing: dict[int, tuple[str, ...]]
    """For each window width, the elements cut off at the edge of the viewport."""
    under_the_button: dict[int, tuple[str, ...]]
    """For each window width, the code that a code block's copy button hides for good."""
    wide_signatures: dict[int, tuple[str, ...]]
    """For each window width, the signatures of the reference that must be scrolled."""


def _pages(site: Path) -> list[str]:
    """The address of every page of the built site, relative to its root."""
    pages = [page.parent.relative_to(site).as_posix() for page in site.rglob("index.html")]
    return sorted("" if page == "." else f"{page}/" for page in pages)


def _set_width(browser: Browser, width: int) -> None:
    """Lay the page out for a window `width` CSS pixels wide."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def _visit(browser: Browser, address: str, path: str) -> PageReport:
    """Show one page at each width and report what is wrong with it."""
    _set_width(browser, DESKTOP)
    browser.get(address + path)
    broken = browser.execute_async_script(BROKEN_IMAGES)
    empty = browser.execute_script(EMPTY_PICTURES)
    overflowing, under_the_button, wide_signatures = {}, {}, {}
    for width in (DESKTOP, PHONE):
        _set_width(browser, width)
        overflowing[width] = tuple(browser.execute_script(OVERFLOWING))
        under_the_button[width] = tuple(browser.execute_script(HIDDEN_UNDER_THE_BUTTON))
        wide_signatures[width] = tuple(browser.execute_script(WIDE_SIGNATURES))
    log = browser.get_log("browser")
    errors = [entry["message"] for entry in log if entry["level"] == "SEVERE"]
    return PageReport(
        path=path,
        console_errors=tuple(errors),
        broken_images=tuple(broken),
        empty_pictures=tuple(empty),
        overflowing=overflowing,
        under_the_button=under_the_button,
        wide_signatures=wide_signatures,
    )


@pytest.fixture(scope="module")
def reports(browser: Browser, site: Path, address: str) -> list[PageReport]:
    """What the browser found on every page of the site."""
    pages = _pages(site)
    assert "" in pages, f"the built site has no home page: {pages}"
    assert "reference/cards/" in pages, f"the built site lacks the reference: {pages}"
    return [_visit(browser, address, page) for page in pages]


def _listing(found: dict[str, tuple[str, ...]]) -> str:
    """The problems of each page, a page to a paragraph."""
    return "\n".join(
        f"{page or '(home)'}:\n  " + "\n  ".join(items) for page, items in found.items()
    )


def test_no_page_shows_a_doctest_marker(site: Path) -> None:
    # A doctest writes an empty line of output as <BLANKLINE>; a reader should see the
    # empty line. The search index holds the pages' text, so it is read too.
    files = [*site.rglob("*.html"), site / "search" / "search_index.json"]
    found = [
        file.relative_to(site).as_posix()
        for file in files
        if "BLANKLINE" in file.read_text(encoding="utf-8")
    ]
    assert not found, f"<BLANKLINE> shown on {found}"


def test_every_page_loads_without_console_errors(reports: list[PageReport]) -> None:
    found = {report.path: report.console_errors for report in reports if report.console_errors}
    assert not found, f"console errors:\n{_listing(found)}"


def test_every_image_loads(reports: list[PageReport]) -> None:
    found = {
        report.path: report.broken_images + report.empty_pictures
        for report in reports
        if report.broken_images or report.empty_pictures
    }
    assert not found, f"images that did not load:\n{_listing(found)}"


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_no_page_is_wider_than_the_window(reports: list[PageReport], width: int) -> None:
    found = {
        report.path: report.overflowing[width] for report in reports if report.overflowing[width]
    }
    assert not found, f"cut off at {width} px:\n{_listing(found)}"


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_no_code_is_hidden_under_a_copy_button(reports: list[PageReport], width: int) -> None:
    found = {
        report.path: report.under_the_button[width]
        for report in reports
        if report.under_the_button[width]
    }
    assert not found, f"code under the copy button at {width} px:\n{_listing(found)}"


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_every_signature_fits_the_page(reports: list[PageReport], width: int) -> None:
    found = {
        report.path: report.wide_signatures[width]
        for report in reports
        if report.wide_signatures[width]
    }
    assert not found, f"signatures wider than the page at {width} px:\n{_listing(found)}"


def test_the_presets_table_shows_every_column_at_desktop_width(
    browser: Browser, address: str
) -> None:
    # The variants overview compares the presets knob by knob in three columns: at a
    # desktop width all three are in view without scrolling, and no cell is cut.
    _set_width(browser, DESKTOP)
    browser.get(address + "variants/")
    fit = browser.execute_script(TABLE_FIT, "the-presets-side-by-side")
    assert fit is not None, "no table after the heading 'The presets side by side'"
    assert len(fit["columns"]) == 3, fit
    outside = [column for column in fit["columns"] if column[0] < 0 or column[1] > fit["shown"] + 1]
    assert not outside, f"columns outside the {fit['shown']} px the table shows: {fit}"
    assert not fit["cut"], f"cells cut: {fit['cut']}"
