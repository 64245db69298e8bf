"""A Griffe extension used by the API reference to present the docstrings of `scopa`.

It changes what is rendered, never the source:

- An attribute declared as `attrs.field(...)` is shown with its default value (or its
  factory call) instead of the `attrs.field` call, which names private helpers.
- The members of an enum are shown as a table in the class's description (name, value,
  meaning) instead of a block each. Each member's name is an anchor with the class
  `MEMBER_CLASS`, which the hook `docs/hooks/member_anchors.py` registers, so that a link
  such as `[Outcome.WIN][scopa.Outcome.WIN]` still leads to it.
"""

from __future__ import annotations

from typing import Any

import griffe

_ATTRS_FIELD = ("attrs.field", "attr.ib", "attr.attrib", "field")
MEMBER_CLASS = "enum-member"
"""The class of the anchor of an enum member in the table of its enum."""
_ENUM_BASES = {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"}


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


def _is_enum(cls: griffe.Class) -> bool:
    """Whether a class derives from `enum.Enum`, directly or through classes of the package."""
    for base in cls.bases:
        if isinstance(base, griffe.Expr) and base.canonical_path in _ENUM_BASES:
            return True
    return any(_is_enum(base) for base in cls.resolved_bases)


def _enum_members(cls: griffe.Class) -> list[griffe.Attribute]:
    """The members of an enum: its public class attributes that are given a value."""
    return [
        member
        for member in cls.members.values()
        if isinstance(member, griffe.Attribute)
        and not member.name.startswith("_")
        and member.value is not None
        and "class-attribute" in member.labels
    ]


def _members_table(documented_as: str, members: list[griffe.Attribute]) -> str:
    """A Markdown table of an enum's members, each row holding the member's anchor."""
    rows = ["| Member | Value | Meaning |", "|---|---|---|"]
    for member in members:
        meaning = " ".join(member.docstring.value.split()) if member.docstring else ""
        anchor = f"{documented_as}.{member.name}"
        link = f'<a class="{MEMBER_CLASS}" id="{anchor}" href="#{anchor}">'
        name = f"{link}<code>{member.name}</code></a>"
        cells = [name, f"`{member.value}`", meaning.replace("|", "\\|")]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _documented_path(pkg: griffe.Module, cls: griffe.Class) -> str:
    """The path a class is documented under: the package's, if the package exports it."""
    exports = [str(name) for name in pkg.exports or ()]
    alias = pkg.members.get(cls.name)
    if cls.name in exports and isinstance(alias, griffe.Alias) and alias.target_path == cls.path:
        return f"{pkg.name}.{cls.name}"
    return cls.path


def _classes(module: griffe.Module) -> list[griffe.Class]:
    """Every class defined in a module and its submodules, nested classes included."""
    found: list[griffe.Class] = []
    pending: list[griffe.Object] = [module]
    while pending:
        obj = pending.pop()
        for member in obj.members.values():
            if member.is_alias:
                continue
            if isinstance(member, griffe.Class):
                found.append(member)
            if isinstance(member, griffe.Module | griffe.Class):
                pending.append(member)
    return found


class ReferencePresentation(griffe.Extension):
    """Show the defaults of attrs fields and the members of enums once a package is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Adjust one object (any kind)."""
        if isinstance(obj, griffe.Attribute):
            value = obj.value
            if isinstance(value, griffe.ExprCall) and str(value.function) in _ATTRS_FIELD:
                obj.value = _field_default(value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Turn the members of each enum of the package into a table in its description."""
        for cls in _classes(pkg):
            members = _enum_members(cls) if _is_enum(cls) else []
            if not members or cls.docstring is None:
                continue
            documented_as = _documented_path(pkg, cls)
            sections = cls.docstring.parsed
            at = 1 if sections and sections[0].kind is griffe.DocstringSectionKind.text else 0
            sections.insert(at, griffe.DocstringSectionText(_members_table(documented_as, members)))
            for member in members:
                del cls.members[member.name]
