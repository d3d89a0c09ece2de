"""The ``cpsat`` engine: the CP-SAT model of the Scramble Squares seed (OR-Tools, extra ``cp``),
with ``workers`` search workers.

Per cell an integer tile variable and an integer rotation variable; ``AddAllDifferent`` over
the tiles; an allowed-assignment table per cell (frame, clues, self-loops: the placements of
:attr:`Puzzle.allowed`) and one per adjacency of the board graph (the pairs of placements
whose touching labels fit), so frames, clues and tori work as everywhere else.  One search
worker by default, so that comparisons with single-threaded SAT solvers are fair.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import islice

from ..errors import EncodingError
from ..puzzle import symmetry
from ..puzzle.checker import validate
from ..puzzle.model import Puzzle, Solution
from ..system.extras import Need, require
from .result import Note, Result, Work
from .shared import set_status, shuffled

__all__ = ["needs", "build", "solutions", "run"]

needs = Need(module="ortools", extra="cp")  # what the engine needs beyond the core


def _cp():
    return require("ortools.sat.python.cp_model", needs, "the cpsat engine")


def build(puzzle: Puzzle):
    """``(model, tile vars, rotation vars)``."""
    cp_model = _cp()
    m = cp_model.CpModel()
    n = len(puzzle.tiles)
    tile = [m.NewIntVar(0, n - 1, f"tile_{c}") for c in puzzle.board.cells]
    rot = [m.NewIntVar(0, 3, f"rot_{c}") for c in puzzle.board.cells]
    m.AddAllDifferent(tile)
    allowed = puzzle.allowed
    for c in puzzle.board.cells:
        m.AddAllowedAssignments([tile[c], rot[c]], [list(p) for p in allowed[c]])
    for adj in puzzle.board.adjacencies:
        if adj.a == adj.b:
            continue  # self-loops are in puzzle.allowed
        by_label: dict = {}
        for t, r in allowed[adj.b]:
            by_label.setdefault(puzzle.oriented(t, r)[adj.side_b], []).append((t, r))
        table = [
            [t, r, u, q]
            for t, r in allowed[adj.a]
            for u, q in by_label.get(puzzle.partner(puzzle.oriented(t, r)[adj.side_a]), ())
            if u != t
        ]
        m.AddAllowedAssignments([tile[adj.a], rot[adj.a], tile[adj.b], rot[adj.b]], table)
    return m, tile, rot


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    workers: int = 1,
    stats: dict | None = None,
    time_limit: float | None = None,
) -> Iterator[Solution]:
    """Every solution (or the first ``limit``), found by CP-SAT's solution enumeration, each checked
    by the independent checker (:class:`satedge.errors.EncodingError` when one fails)."""
    cp_model = _cp()
    m, tile, rot = build(puzzle)
    found: list[Solution] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(Solution(tuple((self.Value(t), self.Value(r)) for t, r in zip(tile, rot))))
            if limit is not None and len(found) >= limit:
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers if limit == 1 else 1  # enumeration needs one worker
    solver.parameters.enumerate_all_solutions = limit != 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    solver.Solve(m, Collect())
    if stats is not None:
        stats.update(
            conflicts=int(solver.NumConflicts()),
            decisions=int(solver.NumBranches()),
            propagations=0,
            restarts=0,
        )
    for sol in found:
        problem = validate(puzzle, sol)
        if problem is not None:
            raise EncodingError(f"cpsat gave an invalid solution: {problem}", sol)
        yield sol


def run(job: Work, note: Note | None = None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    first_only = job.task == "solve" and job.limit == 1
    puzzle, back = shuffled(job)
    sols = [
        back(s)
        for s in solutions(
            puzzle, limit=1 if first_only else None, workers=job.solver.workers, stats=res.stats.counters
        )
    ]
    res.stats.reported = True
    if job.task == "count":
        res.counts = symmetry.counts(job.puzzle, sols, job.modes)
    else:
        res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, sols, job.modes[0]), job.limit))
    res.solve_seconds = time.perf_counter() - t0
    return set_status(res)
