"""The ``pysat`` and ``cmd`` engines: the job's encoding, solved by a PySAT solver or a DIMACS
solver binary on one process, with blocking-clause enumeration (:mod:`satedge.sat.solving`); the
``encode`` task: the formula's size and DIMACS bytes only; and the ``maximize`` task on the job's
MaxSAT formula (:mod:`satedge.encode.maxsat`): RC2 over a PySAT solver (:func:`rc2`), a MaxSAT
Evaluation solver in-process (:func:`evaluation`) or a MaxSAT solver binary
(:func:`maxsat_binary`)."""

from __future__ import annotations

import time

from ..sat import solving
from ..sat.dimacs import write_dimacs
from ..sat.maxsat import binary_optimum, evaluation_optimum, optimum
from .result import Note, Result, Work
from .shared import encode_and_note, set_best_board, set_status

__all__ = ["run", "encode_only", "rc2", "evaluation", "maxsat_binary"]


def run(job: Work, note: Note | None = None) -> Result:
    """Solve or count ``job`` with its solver on this process."""
    res = Result("UNSAT")
    if job.progress and note is not None:
        note({"progress": {"stage": "encoding"}})
    formula = encode_and_note(job, res, note)
    t1 = time.perf_counter()
    progress = (
        (lambda stats: note({"progress": {**stats, "seconds": round(time.perf_counter() - t1, 3)}}))
        if job.progress and note is not None
        else None
    )
    if progress is not None:
        progress({"stage": "solving"})
    if job.task == "count":
        res.counts = solving.count_modes(formula, job.solver, job.modes, stats=res.stats, progress=progress)
    else:
        res.solutions = list(
            solving.solutions(formula, job.solver, job.modes[0], job.limit, res.stats, progress)
        )
    res.solve_seconds = time.perf_counter() - t1
    return set_status(res)


class _Sink:
    """A text stream that only counts: the DIMACS bytes of a formula, without writing them."""

    def write(self, text: str) -> None:
        pass


def encode_only(job: Work, note: Note | None = None) -> Result:
    """The ``encode`` task: the formula's variables, clauses, literals and DIMACS bytes."""
    res = Result("ENCODED", solve_seconds=0.0)
    formula = encode_and_note(job, res, note)
    t1 = time.perf_counter()
    res.literals = sum(map(len, formula.cnf.clauses))
    res.dimacs_bytes = write_dimacs(formula, _Sink(), job.encoding)
    res.write_seconds = time.perf_counter() - t1
    return res


def rc2(job: Work, note: Note | None = None) -> Result:
    """RC2 over the job's PySAT solver on the job's MaxSAT formula (exact; it finds no board
    before the optimum)."""
    return _exact(job, note, lambda formula: optimum(formula, job.solver.sat), f"RC2 over {job.solver.name}")


def evaluation(job: Work, note: Note | None = None) -> Result:
    """A MaxSAT Evaluation solver (:data:`satedge.sat.maxsat.EVALUATION_SOLVERS`) in this
    process on the job's MaxSAT formula (exact; it finds no board before the optimum)."""
    name = job.solver.name
    return _exact(job, note, lambda formula: evaluation_optimum(formula, name), f"the MaxSAT solver {name}")


def _exact(job: Work, note: Note | None, solve, who: str) -> Result:
    """The job's MaxSAT formula solved by ``solve(formula) -> (model, cost)``, an exact solver."""
    res = Result("UNSAT")
    formula = encode_and_note(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost = solve(formula)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    edges = len(job.puzzle.board.adjacencies)
    return set_best_board(job, res, board, edges - cost, who)


def maxsat_binary(job: Work, note: Note | None = None) -> Result:
    """A MaxSAT solver binary (``cmd:COMMAND``) on the WCNF of the job's MaxSAT formula
    (:func:`satedge.sat.maxsat.binary_optimum`): ``OPTIMUM`` when it says its cost is optimal,
    else its best board so far with the trivial bound, every edge."""
    res = Result("UNSAT")
    formula = encode_and_note(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost, proved = binary_optimum(formula, job.solver.name)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    edges = len(job.puzzle.board.adjacencies)
    said = None if proved else edges - cost
    return set_best_board(job, res, board, edges - cost if proved else edges, f"cmd:{job.solver.name}", said)
