"""Hypothesis settings: no deadline (timing is never asserted).

Set `HYPOTHESIS_PROFILE` to `thorough` for a longer run, or to `mutation` for the short,
deterministic run of the mutation-testing session.
"""

import os

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.register_profile("mutation", deadline=None, max_examples=15, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
