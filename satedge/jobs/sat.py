"""The ``sat`` and ``cmd`` engines: the job's encoding, solved by a PySAT solver or a DIMACS
solver binary on one process, with blocking-clause enumeration (:mod:`satedge.solving`); and
the ``encode`` task: the formula's size and DIMACS bytes only."""

from __future__ import annotations

import time

from .. import certify, solving, symmetry
from ..dimacs import header_lines, write_dimacs
from ..encode import Encoded
from ..solvers import DEFAULT_SOLVER, PROOF_SOLVERS
from .job import Job, Note, Result
from .shared import encoded, finished

__all__ = ["run", "encode_only"]


def run(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with its solver on this process."""
    res = Result("UNSAT")
    if job.progress and note is not None:
        note({"progress": {"stage": "encoding"}})
    formula = encoded(job, res, note)
    t1 = time.perf_counter()
    progress = (lambda stats: note({"progress": {**stats, "seconds": round(time.perf_counter() - t1, 3)}})) \
        if job.progress and note is not None else None
    if progress is not None:
        progress({"stage": "solving"})
    if job.certify is not None:
        return _certified(job, res, formula, t1, progress, note)
    if job.task == "count":
        res.counts = solving.count_modes(formula, job.solver, job.modes, stats=res.stats, progress=progress)
    else:
        res.solutions = list(solving.solutions(formula, job.solver, job.modes[0], job.limit, res.stats, progress))
    res.solve_seconds = time.perf_counter() - t1
    return finished(res)


def _certified(job: Job, res: Result, formula: Encoded, t1: float, progress, note: Note | None = None) -> Result:
    """A certified answer: every model (up to the limit of a solve), blocked with plain blocking
    clauses; when the enumeration has ended on UNSAT, a fresh solver (the job's when it writes
    proofs, else CaDiCaL) proves that the formula and those clauses have no model, and the proof
    is checked by ``job.certify`` before anything is answered (:mod:`satedge.certify`)."""
    limit = job.limit if job.task == "solve" else None
    with solving.Enumerator(formula, job.solver, res.stats, reuse=False, progress=progress) as e:
        found = list(e.solutions("solutions", limit))
        complete = limit is None or len(found) < limit
        clauses = formula.cnf.clauses + e.blocked
    prover = job.solver.name if job.solver.name in PROOF_SOLVERS else DEFAULT_SOLVER
    if note is not None and complete:  # kept if the job is stopped now: it was the proof's turn
        note({"stage": f"certifying (a proof by {prover}, checked by {job.certify})"})
    if progress is not None and complete:
        progress({"stage": "certifying", "solutions": len(found)})
    proof = certify.prove(clauses, prover) if complete else []
    res.solve_seconds = time.perf_counter() - t1
    if job.task == "count":
        res.counts = {**symmetry.counts(job.puzzle, found, job.modes, formula.orbit), "models": res.stats.models}
    else:
        res.solutions = found
    if not complete:  # a solve that found what it was asked for: each solution checked, nothing to prove
        res.certificate = {"certified": True, "checker": "satedge.checker",
                           "covers": "each solution given, accepted by satedge's independent checker"}
        return finished(res)
    seconds = certify.check(clauses, formula.nv, proof, job.certify)
    models, k = res.stats.models, formula.orbit
    covers = ("the formula has no model: the puzzle has no solution" if not found else
              f"the formula has exactly these {models:,} models over its decision variables, each decoded to a "
              "solution satedge's checker accepts"
              + (f"; each stands for its board-turn orbit of {k} solutions" if k > 1 else "")
              + ("; some stand for several solutions, the turns of a tile that looks the same turned, which the "
                 "encoding does not tell apart" if len(found) != models else ""))
    cert = certify.Certificate(job.certify, len(clauses), models, sum(1 for line in proof if not line.startswith("d")),
                               sum(len(line) + 1 for line in proof), seconds, covers)
    res.certificate = cert.as_dict()
    if job.proof is not None:
        header = header_lines(formula, job.encoding.name, "-", added=len(clauses) - len(formula.cnf.clauses))
        certify.export(job.proof, clauses, formula.nv, proof, {
            **cert.as_dict(), "puzzle": job.puzzle.name, "encoding": job.encoding.name, "solver": str(job.solver),
            "variables": formula.nv, "blocking_clauses": len(clauses) - len(formula.cnf.clauses),
            "files": {"formula": "formula.cnf", "proof": "proof.drup"}}, header)
    return finished(res)


class _Sink:
    """A text stream that only counts: the DIMACS bytes of a formula, without writing them."""

    def write(self, text: str) -> None:
        pass


def encode_only(job: Job, note: Note | None = None) -> Result:
    """The ``encode`` task: the formula's variables, clauses, literals and DIMACS bytes."""
    res = Result("ENCODED", solve_seconds=0.0)
    formula = encoded(job, res, note)
    t1 = time.perf_counter()
    res.literals = sum(map(len, formula.cnf.clauses))
    res.dimacs_bytes = write_dimacs(formula, _Sink(), job.encoding.name)
    res.write_seconds = time.perf_counter() - t1
    return res
