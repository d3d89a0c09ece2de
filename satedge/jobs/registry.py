"""Where satedge finds its engines (:class:`satedge.jobs.engine.Engine`), one way for its own and
yours, and what the commands ask of them all.

* satedge's own: each module of :mod:`satedge.engines` declares one, ``ENGINE``; a new engine
  is a new module there;
* an installed package's: an entry point of the group ``satedge.engines``
  (``[project.entry-points."satedge.engines"] toy = "mypackage.engine:ENGINE"``);
* yours without a package: ``$SATEDGE_ENGINES``, references ``FILE.py:NAME`` or
  ``package.module:NAME`` separated by commas.

An engine of yours works as satedge's do, in every command: its name in solver strings and
``--method``, its options as flags.  A name already taken is refused in one line.

>>> [name for name in engines() if engines()[name].method]
['backtrack', 'budget', 'field', 'lns', 'restarts']
>>> methods("count"), takers("order")
(('auto', 'sat', 'backtrack'), 'backtrack and budget')
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import replace
from functools import cache

from ..errors import SatedgeError
from ..system.files import quoted
from ..system.plugins import Found, entry_points, load, load_entry_point
from .engine import Engine, Option, prose

__all__ = [
    "ENGINE_GROUP",
    "ENVIRONMENT",
    "REFERENCE",
    "engines",
    "engine",
    "declared",
    "option_names",
    "methods",
    "takers",
    "doing",
]

ENGINE_GROUP = "satedge.engines"  # the entry-point group of the engines of installed packages
ENVIRONMENT = "SATEDGE_ENGINES"  # engines of yours: FILE.py:NAME or package.module:NAME, comma-separated
REFERENCE = "backtrack"  # the engine every other is cross-checked against
# satedge's own engines, found as yours are: by name, at run time (the engines import this layer,
# which names none of them)
SHIPPED = "satedge.engines"


def engines() -> dict[str, Engine]:
    """Every engine by name: satedge's, the installed packages' and those of ``$SATEDGE_ENGINES``
    (read anew each call, so that a new value counts)."""
    return _engines(os.environ.get(ENVIRONMENT, ""))


def engine(name: str) -> Engine:
    """The engine called ``name``; a one-line error naming the engines where there is none."""
    found = engines().get(name)
    if found is None:
        raise SatedgeError(f"unknown engine {quoted(str(name), 30)}; choose from {', '.join(engines())}")
    return found


@cache
def _shipped() -> tuple[Engine, ...]:
    found = []
    package = importlib.import_module(SHIPPED)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{SHIPPED}.{info.name}")
        declared = getattr(module, "ENGINE", None)
        if isinstance(declared, Engine):
            found.append(replace(declared, source=module.__name__))
    return tuple(sorted(found, key=lambda e: e.name))


@cache
def _engines(yours: str) -> dict[str, Engine]:
    out = {e.name: e for e in _shipped()}
    found = [load_entry_point(ENGINE_GROUP, name, "engine") for name in entry_points(ENGINE_GROUP)]
    found += [load(text.strip(), "engine ($SATEDGE_ENGINES)") for text in yours.split(",") if text.strip()]
    for f in found:
        e = _engine(f)
        if e.name in out:
            raise SatedgeError(
                f"engine {quoted(f.name, 200)}: the name {e.name} is taken by {out[e.name].source or 'another'}"
            )
        out[e.name] = e
    return out


def _engine(found: Found) -> Engine:
    if not isinstance(found.value, Engine):
        raise SatedgeError(
            f"engine {quoted(found.name, 60)}: an engine is a satedge.jobs.engine.Engine, not "
            f"{type(found.value).__name__}"
        )
    return replace(found.value, source=found.source)


def declared(task: str | None = None) -> dict[str, Option]:
    """The options the engines declare (with ``task``: of the engines that run it, those its
    command takes as flags), by name, in the engines' order."""
    found: dict[str, Option] = {}
    for e in engines().values():
        if task is None or task in e.tasks:
            for o in e.options:
                if task is None or not o.tasks or task in o.tasks:
                    found.setdefault(o.name, o)
    return found


def option_names() -> tuple[str, ...]:
    """``workers`` and the name of every option an engine declares: what a solver string, a
    job and a spec take beside a PySAT solver's own options."""
    return ("workers", *declared())


def methods(task: str) -> tuple[str, ...]:
    """The choices of ``--method`` for ``task``: ``auto`` (the engines' preferences), ``sat`` (an
    encoding and a solver) where a formula engine runs the task, and the engines ``--method``
    names that run it."""
    found = engines().values()
    formula = any(e.solves_formula and task in e.tasks for e in found)
    named = tuple(e.name for e in found if e.method and task in e.tasks)
    return ("auto",) + ("sat",) * formula + named


def takers(option: str, task: str | None = None) -> str:
    """The engines that take ``option`` (``workers`` or a declared option; with ``task``,
    ``workers`` for that task), as prose calls them.

    >>> takers("strategy"), takers("workers", "maximize")
    ('solver binaries and PySAT solvers', 'budget, cpsat, field, lns and restarts')
    """
    return prose(
        [
            e.prose
            for e in engines().values()
            if option in e.settings and (task is None or (task in e.tasks and e.tasks[task].workers))
        ]
    )


def doing(task: str, what: str, but: str | None = None) -> list[str]:
    """The engines whose ``task`` allows ``what`` (a :class:`Task` field), as prose calls them;
    with ``but``, only those where that field is false.

    >>> doing("maximize", "resumes")
    ['budget', 'field', 'lns', 'restarts']
    """
    return [
        e.prose
        for e in engines().values()
        if task in e.tasks and getattr(e.tasks[task], what) and not (but and getattr(e.tasks[task], but))
    ]
