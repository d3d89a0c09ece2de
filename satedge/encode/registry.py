"""Where satedge finds base encodings (:class:`satedge.encode.base.Base`): its own and yours, one
way for all.

* satedge's own: each module of :mod:`satedge.encode.bases` declares one, ``BASE``; a new base
  is a new module there;
* an installed package's, by name: an entry point of the group ``satedge.encodings``
  (``[project.entry-points."satedge.encodings"] mine = "mypackage.encodings:MINE"``);
* yours by reference: ``FILE.py:NAME`` (a relative file from the working directory, or from the
  folder of the spec or preset that names it) or ``package.module:NAME``.

What a name or reference names is a :class:`Base`, or its ``build`` function alone,
``(puzzle, options) -> Encoded``, which is declared as a base without a size, a floor or a
MaxSAT form.

>>> sorted(bases())
['direct', 'edgecolor', 'heule', 'split', 'support']
>>> find("support").source
'satedge.encode.bases.support'
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import replace
from functools import cache

from ..errors import SatedgeError
from ..system.files import quoted
from ..system.plugins import Found, entry_points, is_reference, load, load_entry_point
from . import bases as shipped_package
from .base import Base

__all__ = ["ENCODING_GROUP", "shipped", "bases", "find", "is_reference", "declared"]

ENCODING_GROUP = "satedge.encodings"  # the entry-point group of the encodings of installed packages


@cache
def shipped() -> dict[str, Base]:
    """satedge's own base encodings, by name (the modules of :mod:`satedge.encode.bases`)."""
    found = {}
    for info in pkgutil.iter_modules(shipped_package.__path__):
        module = importlib.import_module(f"{shipped_package.__name__}.{info.name}")
        base = getattr(module, "BASE", None)
        if isinstance(base, Base):
            found[base.name] = replace(base, source=module.__name__)
    return dict(sorted(found.items()))


def bases() -> dict[str, Base]:
    """Every base encoding by name: satedge's, then the installed packages' entry points (each
    loaded; one that does not load is a one-line error naming it)."""
    out = dict(shipped())
    for name in entry_points(ENCODING_GROUP):
        if name not in out:
            out[name] = declared(load_entry_point(ENCODING_GROUP, name, "encoding"))
    return out


def find(text: str, folder: str | os.PathLike | None = None) -> Base | None:
    """The base encoding ``text`` names: satedge's, a reference (``FILE.py:NAME``, a relative
    file from ``folder``; ``package.module:NAME``) or an entry point's name; ``None`` for a name
    that is none of these."""
    if text in shipped():
        return shipped()[text]
    if is_reference(text):
        return declared(load(text, "encoding", folder))
    if text in entry_points(ENCODING_GROUP):
        return declared(load_entry_point(ENCODING_GROUP, text, "encoding"))
    return None


def declared(found: Found) -> Base:
    """The base encoding of an object loaded by reference: a :class:`Base` as it declares itself,
    or a build function declared as a base, named as the reference (or entry point) names it and
    with the sha256 of its source file."""
    value = found.value
    sha256 = found.sha256 or ""
    if isinstance(value, Base):
        return replace(value, name=found.name, source=found.source, sha256=sha256)
    if callable(value):
        doc = (getattr(value, "__doc__", None) or "").strip().splitlines()
        return Base(
            name=found.name, build=value, summary=doc[0] if doc else "", source=found.source, sha256=sha256
        )
    raise SatedgeError(
        f"encoding {quoted(found.name, 80)}: a base encoding is a satedge.encode.Base or a function "
        f"(puzzle, options) -> Encoded, not {type(value).__name__}"
    )
