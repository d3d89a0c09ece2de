"""The jobs of the engines that solve a formula (a PySAT solver, a solver binary, a MaxSAT solver,
clasp): the job's formula, encoded and its size noted; the SAT method on one process, with
blocking-clause enumeration (:mod:`satedge.sat.solving`); and the ``encode`` task: the formula's
size and DIMACS bytes only."""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Callable

from ..backtrack.orders import cell_order
from ..encode import Encoded, Encoding
from ..encode.maxsat import weighted
from ..sat import solving
from ..sat.dimacs import write_dimacs
from ..sat.solvers import SatSolver
from .job import Job
from .result import Note, Result

__all__ = ["encoding_of", "sat_solver", "encode_and_note", "progress_of", "solve_here", "encode_only"]


def encoding_of(job: Job) -> Encoding:
    """The job's encoding (a job of a formula engine always has one)."""
    if job.encoding is None:
        raise ValueError(f"the {job.solver.engine} engine solves a formula: its job has an encoding")
    return job.encoding


def sat_solver(job: Job) -> SatSolver:
    """The SAT solver the job's formula goes to: its solver's (:attr:`SolverConfig.sat`), with
    ``decide=backtracker`` deciding in the backtracker's fill order of the job's board
    (:func:`satedge.backtrack.orders.cell_order`, :mod:`satedge.sat.decide`)."""
    solver = job.solver.formula_solver
    if job.solver.get("decide") == "backtracker":
        solver = dataclasses.replace(solver, order=cell_order(job.board))
    return solver


def progress_of(job: Job, note: Note | None) -> Callable[[dict], None] | None:
    """What the job reports as it goes (where it reports: :attr:`Job.reporting`), with the seconds
    since now: a solver's statistics, and what it has found."""
    if not job.reporting or note is None:
        return None
    t0 = time.perf_counter()
    return lambda stats: note({"progress": {**stats, "seconds": round(time.perf_counter() - t0, 3)}})


def encode_and_note(job: Job, res: Result, note: Note | None) -> Encoded:
    """The job's formula (of a ``maximize`` job, the MaxSAT form of its encoding: its hard
    clauses counted); its size, orbit and encode time go into ``res`` and to ``note``."""
    t0 = time.perf_counter()
    if job.task == "maximize":
        formula = weighted(job.board, job.encoding, job.shuffle)
    else:
        formula = encoding_of(job).encode(job.board, job.shuffle)
    res.variables, res.clauses, res.orbit = formula.nv, len(formula.cnf.clauses), formula.orbit
    res.encode_seconds = time.perf_counter() - t0
    if note is not None:
        note({"variables": res.variables, "clauses": res.clauses, "encode_seconds": res.encode_seconds})
    return formula


def solve_here(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with its solver on this process."""
    res = Result("UNSAT")
    if job.reporting and note is not None:
        note({"progress": {"stage": "encoding"}})
    formula = encode_and_note(job, res, note)
    t1 = time.perf_counter()
    progress = progress_of(job, note)
    if progress is not None:
        progress({"stage": "solving"})
    if job.task == "count":
        res.counts = solving.count_modes(
            formula, sat_solver(job), job.modes, stats=res.stats, progress=progress
        )
    else:
        res.solutions = list(
            solving.solutions(formula, sat_solver(job), job.modes[0], job.limit, res.stats, progress)
        )
    res.solve_seconds = time.perf_counter() - t1
    return res.settled()


class _Sink(io.StringIO):
    """A text stream that only counts: the DIMACS bytes of a formula, without keeping them."""

    def write(self, text: str) -> int:
        return len(text)


def encode_only(job: Job, note: Note | None = None) -> Result:
    """The ``encode`` task: the formula's variables, clauses, literals and DIMACS bytes."""
    res = Result("ENCODED", solve_seconds=0.0)
    formula = encode_and_note(job, res, note)
    t1 = time.perf_counter()
    res.literals = sum(map(len, formula.cnf.clauses))
    res.dimacs_bytes = write_dimacs(formula, _Sink(), job.encoding)
    res.write_seconds = time.perf_counter() - t1
    return res
