"""Hypothesis settings: no deadline (timing is never asserted).

Set `HYPOTHESIS_PROFILE` to `thorough` for a longer run, or to `mutation` for the short,
deterministic run of the mutation-testing session. Under continuous integration (`CI` set)
the examples are derandomized, so that a run there repeats a run made here with `CI=true`.
"""

import os

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.register_profile("mutation", deadline=None, max_examples=15, derandomize=True)
settings.register_profile("ci", deadline=None, derandomize=True)
default = "ci" if os.environ.get("CI") else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default))
