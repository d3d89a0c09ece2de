"""The ``cpsat`` engine: the CP-SAT model of the Scramble Squares seed (OR-Tools, extra ``cp``),
with ``workers`` search workers.

Per cell an integer tile variable and an integer rotation variable; ``AddAllDifferent`` over
the tiles; an allowed-assignment table per cell (frame, clues, self-loops: the placements of
:attr:`Puzzle.allowed`) and one per adjacency of the board graph (the pairs of placements
whose touching labels fit), so frames, clues and tori work as everywhere else.  One search
worker by default, so that comparisons with single-threaded SAT solvers are fair.

To maximize (:func:`best_board`), a model of Boolean placements: one literal per cell and
placement it allows (:func:`satedge.backtrack.search.symmetry_broken`: the frame, the clues and
one board of each board-turn orbit), exactly one per cell and per tile; per cell, side and label
a literal that the side shows it; per inner edge a match literal that implies the two sides fit;
the sum of the match literals maximized, bounded above by the labels' counts (each edge that
fits pairs two sides of one label); and the branch and bound's first board as the hint.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

from ..backtrack.search import symmetry_broken
from ..best.branch_and_bound import first_board
from ..errors import EncodingError
from ..jobs.anytime import MARGIN
from ..jobs.boards import board_note, set_best_board
from ..jobs.engine import Engine, Task
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..puzzle import symmetry
from ..puzzle.checker import label_bound, score, validate
from ..puzzle.model import Puzzle, Solution
from ..system.extras import Need, require
from ..system.progress import REPORT_SECONDS

__all__ = ["needs", "build", "solutions", "run", "best_board", "maximize", "ENGINE"]

needs = Need(module="ortools", extra="cp")  # what the engine needs beyond the core


def _cp() -> Any:
    return require("ortools.sat.python.cp_model", needs, "the cpsat engine")


def build(puzzle: Puzzle) -> tuple[Any, list, list]:
    """``(model, tile vars, rotation vars)``."""
    cp_model: Any = _cp()
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
    found_so_far: Callable[[int], None] | None = None,
) -> Iterator[Solution]:
    """Every solution (or the first ``limit``), found by CP-SAT's solution enumeration, each checked
    by the independent checker (:class:`satedge.errors.EncodingError` when one fails);
    ``found_so_far`` is told how many it has found, about every second while it finds them."""
    cp_model: Any = _cp()
    m, tile, rot = build(puzzle)
    found: list[Solution] = []
    told = [-REPORT_SECONDS]  # the first one found is told at once

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(Solution(tuple((self.Value(t), self.Value(r)) for t, r in zip(tile, rot))))
            if limit is not None and len(found) >= limit:
                self.StopSearch()
            if found_so_far is not None and time.monotonic() - told[0] >= REPORT_SECONDS:
                told[0] = time.monotonic()
                found_so_far(len(found))

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


def run(job: Job, note: Note | None = None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    first_only = job.task == "solve" and job.limit == 1
    puzzle, back = job.shuffled()
    told = (
        (lambda n: note({"progress": {"solutions": n, "seconds": round(time.perf_counter() - t0, 3)}}))
        if job.reporting and note is not None
        else None
    )
    sols = [
        back(s)
        for s in solutions(
            puzzle,
            limit=1 if first_only else None,
            workers=job.solver.workers,
            stats=res.stats.counters,
            found_so_far=told,
        )
    ]
    res.stats.reported = True
    if job.task == "count":
        res.counts = symmetry.counts(job.board, sols, job.modes)
    else:
        res.solutions = list(islice(symmetry.one_per_picture(job.board, sols, job.modes[0]), job.limit))
    res.solve_seconds = time.perf_counter() - t0
    return res.settled()


def best_board(
    puzzle: Puzzle,
    workers: int = 1,
    time_limit: float | None = None,
    better: Callable[..., None] | None = None,
) -> tuple[Solution | None, int, int]:
    """``(board, claimed, bound)``: the best board CP-SAT finds within ``time_limit`` seconds on
    ``workers`` search workers (see the module's docstring), the score its objective gives it
    (at most the board's: a match literal may stay false where the sides fit, before the
    optimum) and the bound it proves; ``board`` is ``None`` where no board keeps the hard rules
    (bound 0) or none was found in time.  ``better(board, claimed, bound)`` is called with each
    better board as it is found."""
    cp_model: Any = _cp()
    m = cp_model.CpModel()
    allowed, _ = symmetry_broken(puzzle)
    x = {(c, p): m.NewBoolVar(f"x_{c}_{p[0]}_{p[1]}") for c in puzzle.board.cells for p in allowed[c]}
    by_tile: dict = {}
    for (c, p), v in x.items():
        by_tile.setdefault(p[0], []).append(v)
    for c in puzzle.board.cells:
        m.AddExactlyOne([x[c, p] for p in allowed[c]])
    for t in range(len(puzzle.tiles)):
        m.AddExactlyOne(by_tile.get(t, [m.NewConstant(0)]))

    def side(c: int, d: int) -> dict:
        """Per label that side ``d`` of cell ``c`` can show, the literal that it shows it."""
        placed: dict = {}
        for p in allowed[c]:
            placed.setdefault(puzzle.oriented(*p)[d], []).append(x[c, p])
        shows = {label: m.NewBoolVar(f"s_{c}_{d}") for label in placed}
        for label, lits in placed.items():
            m.Add(shows[label] == sum(lits))
        return shows

    matches = []
    for adj in puzzle.board.adjacencies:
        if adj.a == adj.b:
            continue  # a cell's own sides: kept by puzzle.allowed, they fit on every board
        a, b = side(adj.a, adj.side_a), side(adj.b, adj.side_b)
        match = m.NewBoolVar(f"m_{adj.a}_{adj.side_a}")
        for label, lit in a.items():
            other = b.get(puzzle.partner(label))
            m.AddBoolOr([match.Not(), lit.Not()] + ([other] if other is not None else []))
        matches.append(match)
    loops = len(puzzle.board.adjacencies) - len(matches)
    m.Add(sum(matches) <= label_bound(puzzle) - loops)
    m.Maximize(sum(matches))
    hint = first_board(puzzle)
    if hint is not None and all((c, p) in x for c, p in enumerate(hint)):
        for c, p in enumerate(hint):
            m.AddHint(x[c, p], 1)
    cells = list(puzzle.board.cells)

    def board_of(value: Callable[[Any], Any]) -> Solution:
        return Solution(tuple(next(p for p in allowed[c] if value(x[c, p])) for c in cells))

    class Better(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if better is not None:
                bound = loops + int(self.BestObjectiveBound())
                better(board_of(self.BooleanValue), loops + int(self.ObjectiveValue()), bound)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.1, time_limit)
    status = solver.Solve(m, Better())
    if status == cp_model.INFEASIBLE:
        return None, 0, 0
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, 0, len(puzzle.board.adjacencies)
    claimed = loops + int(solver.ObjectiveValue())
    bound = claimed if status == cp_model.OPTIMAL else loops + int(solver.BestObjectiveBound())
    return board_of(solver.BooleanValue), claimed, bound


def maximize(job: Job, note: Note | None = None) -> Result:
    """The best board by CP-SAT (:func:`best_board`) with the job's workers as its search
    workers, until :data:`satedge.jobs.anytime.MARGIN` before the time limit: ``OPTIMUM`` where
    it proves it, else its best board and the bound it proved."""
    t0 = time.perf_counter()
    puzzle, back = job.shuffled()

    def better(board: Solution, claimed: int, bound: int) -> None:
        if note is not None:
            got = score(puzzle, board)
            progress = {"score": got, "bound": bound, "seconds": round(time.perf_counter() - t0, 3)}
            note({**board_note(back(board), got, bound), "progress": progress})

    limit = None if job.limits.timeout is None else job.limits.timeout - min(MARGIN, job.limits.timeout / 10)
    board, claimed, bound = best_board(puzzle, job.solver.workers, limit, better)
    res = Result("UNSAT", solve_seconds=time.perf_counter() - t0)
    if board is None:
        res.status = "TIMEOUT" if bound else "UNSAT"  # none found in its time, or none at all
        return res
    got = score(puzzle, board)
    if claimed > got:  # a match literal true where the sides do not fit: the model is wrong
        raise EncodingError(f"CP-SAT said its board scores {claimed}; the checker counts {got}", board)
    return set_best_board(job, res, back(board), bound, "CP-SAT", None if claimed == bound else got)


ENGINE = Engine(
    name="cpsat",
    needs=needs,
    tasks={
        **dict.fromkeys(("solve", "count"), Task(run=run, workers=True)),
        "maximize": Task(
            run=maximize,
            workers=True,
            certifies=True,
            summary="CP-SAT's model of the best board (Boolean placements, a match literal per edge) "
            "with --workers search workers: proves the optimum, or its best board at --timeout",
        ),
    },
    summary="the CP-SAT model of the puzzle (OR-Tools), with its own search workers; to maximize, its "
    "model of the best board",
)
