"""MaxSAT formulas (:func:`satedge.encode.maxsat.weighted`): solved by RC2, PySAT's MaxSAT
solver, over a PySAT SAT solver, and their clauses as WCNF in the MaxSAT Evaluation's format
(since 2022: a hard clause ``h 1 -2 0``, a soft one its weight first, ``1 3 0``; no ``p``
line)."""

from __future__ import annotations

from typing import Iterator

from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from ..encode.core import Encoded
from .solvers import SatSolver

__all__ = ["wcnf_of", "wcnf_lines", "optimum"]


def wcnf_of(encoded: Encoded) -> WCNF:
    """The formula as PySAT's :class:`WCNF`: its clauses hard, its match literals soft, weight 1."""
    w = WCNF()
    w.nv = encoded.nv
    w.hard = [list(c) for c in encoded.cnf.clauses]
    w.soft = [[m] for m in encoded.soft]
    w.wght = [1] * len(encoded.soft)
    w.topw = len(encoded.soft) + 1
    return w


def wcnf_lines(encoded: Encoded) -> Iterator[str]:
    """The clauses' lines of the WCNF file: the hard ones, then the soft ones."""
    for clause in encoded.cnf.clauses:
        yield "h " + " ".join(map(str, clause)) + " 0\n"
    for m in encoded.soft:
        yield f"1 {m} 0\n"


def optimum(encoded: Encoded, solver: SatSolver | str) -> tuple[list[int] | None, int]:
    """``(model, cost)``: an optimal model of the MaxSAT formula by RC2 over ``solver`` (its
    PySAT name; RC2's own options ``adapt``, ``exhaust`` and ``minz`` on), and its cost, the soft
    clauses it falsifies; ``(None, 0)`` when the hard clauses have no model."""
    name = solver.name if isinstance(solver, SatSolver) else SatSolver.parse(solver).name
    with RC2(wcnf_of(encoded), solver=name, adapt=True, exhaust=True, minz=True) as rc2:
        model = rc2.compute()
        return (None, 0) if model is None else (list(model), int(rc2.cost))
