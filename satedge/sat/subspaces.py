"""Enumeration without blocking clauses (``enumeration=subspaces``): a binary tree of disjoint
subspaces under assumptions, walked with the enumerator's solver.

A node is a list of assumed decision literals and, when known, a solution
inside it with the decision literals that block it (those a blocking clause would negate);
propagating the assumptions (PySAT's ``propagate``, always MiniSat's: :data:`PROPAGATOR`) gives
the literals they fix.  When all of the solution's literals are fixed, the node holds what
blocking the solution would remove, and nothing else.  Otherwise the first of them not fixed
splits the node: the side the solution is on keeps it, the other side, when propagation does
not refute it at once, is asked for a model of its own.  The subspaces partition what blocking
removes one solution at a time, so every solution comes once, and the formula stays as it
was; ``distinct`` and ``unique`` keep the first solution of each picture (of each picture up to
turns) of that stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pysat.solvers import Solver

from ..errors import EncodingError
from ..puzzle.model import Solution

__all__ = ["PROPAGATOR", "walk"]

PROPAGATOR = "minisat22"  # whose propagate() the subspaces walk and the cube split use


def walk(e: Any, cube: list[int]) -> Iterator[Solution]:
    """The solution of each model inside ``cube`` (before :meth:`Encoded.expand`), found
    subspace by subspace with the solver of ``e``, a :class:`satedge.sat.solving.Enumerator`; no
    clause is added to the solver.  A blocking clause per model is kept in its ``blocked``
    (unless ``reuse``): a certificate's formula is the formula with them, as the blocking
    enumeration would have it."""
    encoded, s, stats = e.encoded, e.solver, e.stats
    if e.propagator is None:
        e.propagator = Solver(name=PROPAGATOR, bootstrap_with=encoded.cnf.clauses)
    look = e.propagator
    stack: list[tuple[list[int], list[int] | None]] = [(cube, None)]  # assumptions, a solution's literals
    while stack:
        assume, lits = stack.pop()
        if lits is None:
            stats.calls += 1
            if not e.search(s, assume):
                continue
            first = e.read(s.get_model())
            e.found += encoded.weight(first)
            yield first
            lits = encoded.literals(first)
            if lits is None:
                raise EncodingError(
                    f"{encoded.base} encoding: a model's solution has no model (solver {e.config})"
                )
            if not e.reuse:
                e.blocked.append([-lit for lit in lits])
        ok, implied = look.propagate(assumptions=assume)
        if not ok:  # what the assumptions of a model's subspace imply holds in the model
            raise EncodingError(f"solver {e.config}: propagation refutes a subspace that has a model")
        fixed = set(implied) | set(assume)
        lit = next((x for x in lits if x not in fixed), None)
        if lit is None:  # the subspace holds this solution's models only (blocking it would empty it)
            continue
        if look.propagate(assumptions=assume + [-lit])[0]:
            stack.append((assume + [-lit], None))
        stack.append((assume + [lit], lits))
