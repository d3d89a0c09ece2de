"""The ``maximize`` task: the board with the most inner edges that fit, every tile placed once,
the frame and the clues kept.  Each engine that maximizes has its job function here: the
backtracker's branch and bound (:mod:`satedge.backtrack.maximize`), anytime, and RC2 over a
PySAT solver on the job's MaxSAT encoding (:mod:`satedge.encode.maxsat`).  A board is checked
and scored by the independent checker before it is answered; status ``OPTIMUM`` when its score
is proved the best, and a job stopped at its time limit keeps the best board it noted."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from ..backtrack import maximize as bnb
from ..backtrack.lns import COLD, HOT, Board, Search, compiled_anneal
from ..encode.maxsat import maxsat_encoding, weighted
from ..errors import EncodingError
from ..puzzle.checker import board_problem, score
from ..puzzle.model import Solution
from ..sat import certify, proofdir
from ..sat.dimacs import to_text
from ..sat.maxsat import beyond, binary_optimum, optimum
from ..sat.solvers import DEFAULT_SOLVER
from ..system.extras import Need
from ..system.proctree import forked_map
from .result import Note, Result
from .shared import encoded, shuffled

if TYPE_CHECKING:  # the request, made above the engine table that names this module
    from .job import Job

__all__ = ["branch_and_bound", "rc2", "binary", "lns", "certified", "lns_needs", "noted", "answered"]

lns_needs = Need(module="scipy", extra="stats")  # the swaps' assignment problems
ROUND = 10.0  # seconds at most between the moments lns() notes its best board
MARGIN = 1.0  # seconds before its time limit at which lns() answers
POLISH = 0.05  # the share of lns()'s time that the moves of Search.improve take after annealing


def noted(board: Solution, best: int, bound: int) -> dict:
    """What a job notes of a better board, which a stopped job's result keeps
    (:func:`satedge.jobs.dispatch.run`)."""
    return {"board": [list(p) for p in board], "score": best, "bound": bound}


def answered(
    job: Job, res: Result, board: Solution | None, bound: int, who: str, said: int | None = None
) -> Result:
    """``res`` with a board an engine says is optimal with ``bound`` (or scores ``said``, where
    it proves nothing), checked and scored by the checker: ``OPTIMUM`` (the score is the
    bound), ``TIMEOUT`` (it is not: the best board a search found in its time), or ``UNSAT``
    when no board keeps the hard rules."""
    if board is None:
        res.status = "UNSAT"
        return res
    problem = board_problem(job.puzzle, board)
    if problem is not None:
        raise EncodingError(f"{who} gave a board that breaks a rule: {problem}", board)
    got = score(job.puzzle, board)
    if got != (bound if said is None else said):
        raise EncodingError(
            f"{who} said its board scores {bound if said is None else said}; the checker counts {got}", board
        )
    res.status, res.solutions, res.score, res.bound = (
        "OPTIMUM" if got == bound else "TIMEOUT",
        [board],
        got,
        bound,
    )
    return res


def branch_and_bound(job: Job, note: Note | None = None) -> Result:
    """The backtracker's branch and bound, noting each better board with what the search has cost
    so far (a stopped job's result keeps both) and, asked for its progress, that about every
    second."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)

    def progress(best: bnb.Best) -> dict:
        return {
            "progress": {
                "nodes": best.nodes,
                "candidates": best.candidates,
                "score": best.score,
                "bound": best.bound,
                "seconds": round(time.perf_counter() - t0, 3),
            }
        }

    def better(best: bnb.Best) -> None:
        if note is not None:
            note({**noted(back(best.board), best.score, best.bound), **progress(best)})

    paused = (lambda best: note(progress(best))) if note is not None and job.progress else None
    best = bnb.maximize(puzzle, better=better, paused=paused)
    res = Result(
        "UNSAT", nodes=best.nodes, candidates=best.candidates, solve_seconds=time.perf_counter() - t0
    )
    return answered(
        job, res, back(best.board) if best.board is not None else None, best.bound, "branch and bound"
    )


def rc2(job: Job, note: Note | None = None) -> Result:
    """RC2 over the job's PySAT solver on the job's MaxSAT formula (exact; it finds no board
    before the optimum)."""
    res = Result("UNSAT")
    formula = encoded(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost = optimum(formula, job.solver.sat)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    return answered(job, res, board, len(job.puzzle.board.adjacencies) - cost, f"RC2 over {job.solver.name}")


def binary(job: Job, note: Note | None = None) -> Result:
    """A MaxSAT solver binary (``cmd:COMMAND``) on the WCNF of the job's MaxSAT formula
    (:func:`satedge.sat.maxsat.binary_optimum`): ``OPTIMUM`` when it says its cost is optimal,
    else its best board so far with the trivial bound, every edge."""
    res = Result("UNSAT")
    formula = encoded(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost, proved = binary_optimum(formula, job.solver.name)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    edges = len(job.puzzle.board.adjacencies)
    return answered(
        job,
        res,
        board,
        edges - cost if proved else edges,
        f"cmd:{job.solver.name}",
        said=None if proved else edges - cost,
    )


def lns(job: Job, note: Note | None = None) -> Result:
    """The large-neighbourhood search (:mod:`satedge.backtrack.lns`): on each of
    ``job.solver.workers`` processes a walk of its own, annealing from the first board over the
    job's time (the temperature falling over the whole of it, in rounds of at most
    :data:`ROUND` seconds, after each of which the best board so far is noted), then the last
    :data:`POLISH` of the time on the moves of :meth:`Search.improve` from the best board, until
    a second before the time limit (or every edge fits)."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)
    end = t0 + job.limits.timeout - min(MARGIN, job.limits.timeout / 10)
    search = Search(puzzle, seed=job.shuffle or 0)
    board = search.start()
    edges = search.loops + search.edges
    res = Result("UNSAT")
    if board is None:
        return answered(job, res, None, edges, "the large-neighbourhood search")
    workers, seeds = job.solver.workers, iter(range(1, 1 << 62))
    compiled_anneal()  # here, once, before the workers are forked

    def better(found: Board) -> None:
        nonlocal board
        if found.score > board.score or found is board:
            board = found
            if note is not None:
                note(
                    {
                        **noted(back(found.solution()), found.score, edges),
                        "progress": {
                            "score": found.score,
                            "bound": edges,
                            "seconds": round(time.perf_counter() - t0, 3),
                        },
                    }
                )

    better(board)
    walks = [board] * workers
    c0 = time.perf_counter()
    cooling = (end - c0) * (1 - POLISH)
    fall = math.log(COLD / HOT)
    while board.score < edges and (cooled := time.perf_counter() - c0) < cooling - 0.5:
        seconds = min(ROUND, cooling - cooled)
        hot, cold = (HOT * math.exp(fall * x / cooling) for x in (cooled, cooled + seconds))
        tasks = [("cool", walk, next(seeds), seconds, hot, cold) for walk in walks]
        found = _on(puzzle, tasks, workers)
        walks = [walk for walk, _ in found]
        better(max((best for _, best in found), key=lambda b: b.score))
    left = end - time.perf_counter()
    if board.score < edges and left > 0.5:
        better(
            max(
                _on(puzzle, [("improve", board, next(seeds), left)] * workers, workers), key=lambda b: b.score
            )
        )
    res.solve_seconds = time.perf_counter() - t0
    return answered(
        job, res, back(board.solution()), edges, "the large-neighbourhood search", said=board.score
    )


def _on(puzzle, tasks: list, workers: int) -> list:
    """The tasks of :func:`lns` done, on ``workers`` processes (forked) or this one."""
    if workers == 1:
        return [_searcher(puzzle)(task) for task in tasks]
    return list(forked_map(lambda: _searcher(puzzle), tasks, workers))


def _searcher(puzzle):
    """A worker's function of :func:`lns`: one task, a :class:`Search` of its own with the
    task's seed."""

    def one(task: tuple):
        what, board, seed, seconds, *temperatures = task
        search = Search(puzzle, seed=seed)
        return (
            search.cool(board, seconds, *temperatures) if what == "cool" else search.improve(board, seconds)
        )

    return one


def certified(job: Job, res: Result) -> Result:
    """``res``, an optimum, with a certificate that no board scores more: a DRAT proof, by
    PySAT's default solver, that the hard clauses of the MaxSAT formula (the job's encoding, or
    the default MaxSAT encoding for an engine without one) with :func:`satedge.sat.maxsat.beyond`
    (at least one edge more) have no model, checked by ``job.certify``; with ``job.proof``, the
    formula, the constraint, the proof and the board written there (``satedge check-proof``).
    A board where every edge fits needs no proof.  A search stopped at its time limit is
    answered uncertified."""
    if res.status != "OPTIMUM":
        return res
    formula = weighted(job.puzzle, job.encoding if job.solver.has_formula else None, job.shuffle)
    best = res.score
    if best == len(job.puzzle.board.adjacencies):
        res.certificate = certify.Certificate(
            checker=job.certify,
            covers="every edge of the board fits, which the checker confirmed: no board scores more",
            route="fresh",
        )
        return res
    added = beyond(formula, best)
    t0 = time.perf_counter()
    proof = certify.prove(formula.cnf.clauses + added)
    t1 = time.perf_counter()
    seconds = certify.FormulaCheck(formula.cnf.clauses, formula.nv, job.certify)(added, proof)
    res.certificate = certify.Certificate(
        checker=job.certify,
        covers=f"no board scores more than {best}: the MaxSAT formula's hard clauses with at "
        f"least {best + 1} edges that fit have no model",
        pieces=1,
        lemmas=proof.lemmas,
        bytes=proof.size,
        check_seconds=seconds,
        prover=DEFAULT_SOLVER,
        route="fresh",
    )
    if job.proof is not None:
        piece = certify.Piece(0, (), added, proof.lemmas, proof.size, t1 - t0, seconds, proof)
        name = maxsat_encoding(job.encoding if job.solver.has_formula else None).name
        proofdir.export(
            job.proof,
            to_text(formula, name),
            formula.nv,
            len(formula.cnf.clauses),
            [piece],
            {
                **res.certificate.as_dict(),
                "task": "maximize",
                "puzzle": job.puzzle.name,
                "encoding": name,
                "solver": str(job.solver),
                "score": best,
                "board": [list(p) for p in res.solutions[0]],
            },
        )
    return res
