"""Code of yours that satedge loads by reference: ``FILE.py:NAME`` (a Python file), ``package.module:NAME``
(a module on the path) or, by a name alone, an installed package's entry point.

The encodings (:mod:`satedge.encode.registry`) and the engines (:mod:`satedge.jobs.registry`)
find yours this way; each loaded object comes with its :class:`Found`: the reference as written,
where it was loaded from (``source``, the file's absolute path: a new process loads it from
there again) and the sha256 of its source file, which rows, reports and DIMACS headers record.
A file is loaded as a module named after its sha256 (``satedge_plugin_<16 hex digits>``), so
that the same file is loaded once per process and a changed one anew.

>>> is_reference("mine.py:encode"), is_reference("pkg.encodings:ONEHOT"), is_reference("support")
(True, True, False)
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import SatedgeError
from .files import quoted, read_bytes

__all__ = ["Found", "is_reference", "load", "entry_points", "load_entry_point"]


@dataclass(frozen=True)
class Found:
    """An object loaded by reference: ``value``; ``name``, the reference as written (or the entry
    point's name); ``source``, where a new process loads it from (``/abs/FILE.py:NAME``,
    ``package.module:NAME``); ``sha256``, of its source file (``None`` where it has none)."""

    value: Any
    name: str
    source: str
    sha256: str | None


def is_reference(text: str) -> bool:
    """Whether ``text`` is a reference, ``FILE.py:NAME`` or ``package.module:NAME``."""
    head, colon, attr = text.rpartition(":")
    return bool(colon and head and attr.isidentifier()) and (
        _is_file(head) or all(part.isidentifier() for part in head.split("."))
    )


def _is_file(head: str) -> bool:
    return head.endswith(".py") or "/" in head or os.sep in head


def load(text: str, what: str, folder: str | os.PathLike | None = None) -> Found:
    """The object a reference names (``what`` names it in errors: ``encoding``, ``engine``); a
    relative ``FILE.py`` is taken from ``folder`` (default: the working directory).  A reference
    that does not load is one line that names it and why."""
    head, _, attr = text.rpartition(":")
    where: str
    sha256: str | None
    if _is_file(head):
        path = Path(head).expanduser()
        path = (Path(folder) / path if folder is not None and not path.is_absolute() else path).resolve()
        if not path.is_file():
            raise SatedgeError(f"{what} {quoted(text, 200)}: no such file {path}")
        data = read_bytes(path)
        sha256 = hashlib.sha256(data).hexdigest()
        module = _file_module(path, data, sha256, f"{what} {quoted(text, 200)}")
        source, where = f"{path}:{attr}", str(path)
    else:
        try:
            module = importlib.import_module(head)
        except ImportError as e:
            raise SatedgeError(f"{what} {quoted(text, 200)}: cannot import {head} ({e})") from None
        except Exception as e:  # its own code failed as it was imported
            raise SatedgeError(f"{what} {quoted(text, 200)}: importing {head} failed: {_said(e)}") from None
        sha256 = _file_sha256(module)
        source, where = text, head  # a module's name, not a file's
    if not hasattr(module, attr):
        raise SatedgeError(f"{what} {quoted(text, 200)}: {where} has no {attr}")
    return Found(getattr(module, attr), text, source, sha256)


def _file_module(path: Path, data: bytes, sha256: str, named: str) -> ModuleType:
    """The module of the file ``path`` (its bytes ``data``), loaded once per process under a name
    made of its sha256."""
    name = f"satedge_plugin_{sha256[:16]}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SatedgeError(f"{named}: {path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its own dataclasses and pickles look it up there
    try:
        exec(compile(data, str(path), "exec"), module.__dict__)
    except Exception as e:
        del sys.modules[name]
        raise SatedgeError(f"{named}: loading {path} failed: {_said(e)}") from None
    return module


def _file_sha256(module: ModuleType | None) -> str | None:
    file = getattr(module, "__file__", None)
    if not file or not Path(file).is_file():
        return None
    return hashlib.sha256(Path(file).read_bytes()).hexdigest()


def _said(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


@cache
def entry_points(group: str) -> dict[str, importlib.metadata.EntryPoint]:
    """The entry points of ``group`` that the installed packages declare, by name (read once per
    process: the installed packages do not change while it runs)."""
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=group)}


def load_entry_point(group: str, name: str, what: str) -> Found:
    """The object the entry point ``name`` of ``group`` names; one that does not load is one
    line that names it, its package and why."""
    ep = entry_points(group)[name]
    package = ep.dist.name if ep.dist is not None else "an installed package"
    try:
        value = ep.load()
    except Exception as e:
        raise SatedgeError(
            f"{what} {quoted(name, 60)} ({ep.value}, entry point of {package}): cannot load: {_said(e)}"
        ) from None
    return Found(value, name, ep.value, _file_sha256(sys.modules.get(ep.module)))
