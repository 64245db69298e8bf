"""The bounded caches of values made from rules (internal).

Rules are values, and a process meets few of them, but a server may read any number: each
cache is a plain dict emptied when it reaches its limit, so that it never grows without
bound and its hits stay a single dict lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def remembered(cache: dict[K, V], key: K, make: Callable[[], V], limit: int) -> V:
    """The value of `key` in `cache`, made with `make` and kept if it is missing.

    A full cache (`limit` entries) is emptied before the new value goes in.
    """
    value = cache.get(key)  # pragma: no mutate - a miss makes the value again
    if value is None:
        if len(cache) >= limit:  # pragma: no mutate - only the cache's size
            cache.clear()
        value = cache[key] = make()
    return value
