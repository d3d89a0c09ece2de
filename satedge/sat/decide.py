"""The backtracker's decisions inside CaDiCaL: an external propagator (CaDiCaL 1.9.5's
IPASIR-UP interface, PySAT's :class:`pysat.engines.Propagator`) that propagates nothing and
only decides, as the backtracker would: the first cell of its fill order that holds no tile
yet gets the first of its tiles (in the order the formula lists them, the backtracker's: by
number) that the solver has not ruled out.  Once every cell holds a tile the solver decides on
its own (a tile's turn, the auxiliaries).  CaDiCaL keeps its learning, restarts and
propagation; only the choice of the next decision is the backtracker's.  A decision is never a
constraint, so the formula's models, and every count, are the same with it.

>>> from satedge.puzzle import Puzzle
>>> from satedge.encode import encode
>>> e = encode(Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0), "direct-pairwise")
>>> from pysat.solvers import Solver
>>> s = Solver(name="cadical195", bootstrap_with=e.cnf.clauses)
>>> d = attach(s, e, (1, 0))
>>> s.solve(), e.decode(s.get_model()), d.decisions  # cell 1 first: tile 0 there, turned
(True, Solution(1/2 0/2), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pysat.engines import Propagator

from ..encode import Encoded

__all__ = ["FillOrder", "attach"]


class FillOrder(Propagator):
    """Decisions in a fill order: ``cells``, per cell in that order, its placement literals in
    the order they are tried.  The solver tells it each placement literal it sets and each
    backtrack; :attr:`decisions` counts the decisions it made."""

    def __init__(self, cells: Sequence[Sequence[int]]):
        super().__init__()
        self.cells = [list(dict.fromkeys(c)) for c in cells]
        self.cell_of = {v: i for i, c in enumerate(self.cells) for v in c}
        self.assigned: set[int] = set()  # the placement variables set, either way
        self.held = [0] * len(self.cells)  # per cell, its placement literals set true
        self.fixed: set[int] = set()  # those set for good (at the root: never undone)
        self.fixed_held = [False] * len(self.cells)
        self.trail: list[int] = []
        self.levels: list[int] = []  # where each decision level starts on the trail
        self.decisions = 0

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        if fixed:
            self.fixed.add(abs(lit))
            if lit > 0:
                self.fixed_held[self.cell_of[lit]] = True
            return
        self.assigned.add(abs(lit))
        self.trail.append(lit)
        if lit > 0:
            self.held[self.cell_of[lit]] += 1

    def on_new_level(self) -> None:
        self.levels.append(len(self.trail))

    def on_backtrack(self, to: int) -> None:
        if to >= len(self.levels):
            return
        start = self.levels[to]
        for lit in self.trail[start:]:
            self.assigned.discard(abs(lit))
            if lit > 0:
                self.held[self.cell_of[lit]] -= 1
        del self.trail[start:], self.levels[to:]

    def decide(self) -> int:
        assigned, held, fixed, fixed_held = self.assigned, self.held, self.fixed, self.fixed_held
        for i, lits in enumerate(self.cells):
            if held[i] or fixed_held[i]:
                continue
            for v in lits:
                if v not in assigned and v not in fixed:
                    self.decisions += 1
                    return v
        return 0  # every cell holds a tile, or none is left to try: the solver's own choice

    def check_model(self, model: list[int]) -> bool:
        return True  # it adds no constraint

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []  # never asked: it propagates nothing

    def has_clause(self) -> bool:
        return False

    def add_clause(self) -> list[int]:
        return []


def attach(solver: Any, encoded: Encoded, order: Sequence[int]) -> FillOrder:
    """Connect to ``solver`` (one of :data:`satedge.sat.solvers.DECIDING`, holding ``encoded``'s clauses) a
    :class:`FillOrder` that decides ``encoded``'s placements cell by cell in ``order`` (cells
    of the board; those it leaves out are the solver's to decide)."""
    read = encoded.cells()
    cells = [[v for v, _, _ in read[c]] for c in order]
    decider = FillOrder(cells)
    solver.connect_propagator(decider)
    for v in sorted(decider.cell_of):
        solver.observe(v)
    return decider
