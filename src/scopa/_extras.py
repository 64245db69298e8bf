"""How to install an optional extra, said from where the package was installed (internal).

A package installed from an index takes its extras from there (`pip install "scopa[jax]"`);
one installed from a checkout takes them from the same folder, which pip recorded when it
installed it (`pip install ".[jax]"` from that folder, or its path from elsewhere).
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse


def _source_folder() -> tuple[Path, bool] | None:
    """The local folder this package was installed from and whether editably, if any."""
    try:
        recorded = metadata.distribution("scopa").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not recorded:
        return None
    try:
        origin = json.loads(recorded)
        url = urlparse(origin["url"])
        editable = bool(origin.get("dir_info", {}).get("editable", False))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if url.scheme != "file" or "dir_info" not in origin:
        return None
    return Path(unquote(url.path)), editable


def install_hint(extra: str) -> str:
    """The command that installs the extra `extra` where this package came from."""
    source = _source_folder()
    if source is None:
        return f'pip install "scopa[{extra}]"'
    folder, editable = source
    try:
        here = Path.cwd().resolve() == folder.resolve()
    except OSError:
        here = False
    where = "." if here else os.fspath(folder)
    return f'pip install {"-e " if editable else ""}"{where}[{extra}]"'


def needs_extra(what: str, needed: str, extra: str) -> str:
    """The message of the `ImportError` of a module that needs an extra's packages."""
    return f'{what} needs {needed}, which the extra "{extra}" installs: {install_hint(extra)}'
