r"""An MkDocs hook that shows the doctest blocks of the site as Python sessions.

The examples of the pages are fenced as `python`, so that they run as tests; those that
start with `>>>` are sessions, with the program's output between the statements. When the
site is built, such a block is highlighted as `pycon`: the prompts and the code as Python,
the output as plain output rather than as code. A block of plain code is left as it is.

Examples:
    >>> page = "```python\n>>> 1 + 1\n2\n```\n\n```python\nx = 1\n```"
    >>> [line for line in console_blocks(page).split("\n") if line.startswith("```")]
    ['```pycon', '```', '```python', '```']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)(?P<info>.*)$")
"""The opening or closing line of a fenced code block, with its info string."""


def console_blocks(markdown: str) -> str:
    """The Markdown with each `python` block that starts with `>>>` fenced as `pycon`."""
    lines = markdown.split("\n")
    fence: str | None = None
    for number, line in enumerate(lines):
        found = FENCE.match(line)
        if found is None:
            continue
        if fence is not None:
            if found["fence"].startswith(fence) and not found["info"].strip():
                fence = None
            continue
        fence = found["fence"]
        following = lines[number + 1].strip() if number + 1 < len(lines) else ""
        if found["info"].strip() == "python" and following.startswith(">>>"):
            lines[number] = f"{found['indent']}{fence}pycon"
    return "\n".join(lines)


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fence the page's Python sessions as `pycon`."""
    return console_blocks(markdown)
