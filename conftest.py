"""Run the code examples of the README and the documentation as tests.

Every fenced ```python block runs; a block written as a doctest (`>>>` lines) also checks
its printed output.
"""

import importlib.util
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE)],
    patterns=["README.md", "docs/*.md", "docs/**/*.md"],
).pytest()

# The adapters' docstrings need their frameworks (the optional extras); skip those missing.
_FRAMEWORKS = {"openspiel": "pyspiel", "pettingzoo": "pettingzoo", "gymnasium": "gymnasium"}
collect_ignore = [
    f"src/scopa/adapters/{module}.py"
    for module, framework in _FRAMEWORKS.items()
    if importlib.util.find_spec(framework) is None
]
