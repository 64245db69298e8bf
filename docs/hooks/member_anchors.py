"""An MkDocs hook that makes the enum members of the API reference targets of links.

The reference shows the members of an enum as a table in the enum's description (see
`docs/griffe_reference.py`), not as objects of their own, so the cross-reference plugin
does not learn their anchors. This hook finds each member's anchor in the rendered page and
registers it, so that `[Outcome.WIN][scopa.Outcome.WIN]` on any page leads to its row.

Examples:
    >>> html = '<td><a class="enum-member" id="scopa.Outcome.WIN" href="#scopa.Outcome.WIN">'
    >>> member_anchors(html)
    ['scopa.Outcome.WIN']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

ANCHOR = re.compile(r'<a class="enum-member" id="(?P<id>[^"]+)"')
"""The opening tag of a member's anchor, as `docs/griffe_reference.py` writes it."""


def member_anchors(html: str) -> list[str]:
    """The ids of the enum members' anchors in a page's HTML, in the order they appear."""
    return [found["id"] for found in ANCHOR.finditer(html)]


def on_page_content(html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Register the page's member anchors with the cross-reference plugin."""
    anchors = member_anchors(html)
    if anchors:
        autorefs = config.plugins["autorefs"]
        for anchor in anchors:
            autorefs.register_anchor(page, anchor, primary=True)  # type: ignore[attr-defined]
    return html
