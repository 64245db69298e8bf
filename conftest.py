"""Run the code examples of the README and the documentation as tests.

Every fenced ```python block runs; a block written as a doctest (`>>>` lines) also checks
its printed output.
"""

from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE)],
    patterns=["README.md", "docs/*.md", "docs/**/*.md"],
).pytest()
