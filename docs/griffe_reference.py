"""A Griffe extension used by the API reference to present the docstrings of `scopa`.

It changes what is rendered, never the source:

- An attribute declared as `attrs.field(...)` is shown with its default value (or its
  factory call) instead of the `attrs.field` call, which names private helpers.
"""

from __future__ import annotations

from typing import Any

import griffe

_ATTRS_FIELD = ("attrs.field", "attr.ib", "attr.attrib", "field")


def _field_default(value: griffe.Expr) -> griffe.Expr | None:
    """The default of an `attrs.field(...)` call: `default=`, or `factory=` called."""
    assert isinstance(value, griffe.ExprCall)
    for argument in value.arguments:
        if isinstance(argument, griffe.ExprKeyword):
            if argument.name == "default":
                return argument.value  # type: ignore[return-value]
            if argument.name == "factory" and isinstance(argument.value, griffe.Expr):
                return griffe.ExprCall(function=argument.value, arguments=[])
    return None


class ReferencePresentation(griffe.Extension):
    """Show the defaults of attrs fields once the package is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Adjust one object (any kind)."""
        if isinstance(obj, griffe.Attribute):
            value = obj.value
            if isinstance(value, griffe.ExprCall) and str(value.function) in _ATTRS_FIELD:
                obj.value = _field_default(value)
