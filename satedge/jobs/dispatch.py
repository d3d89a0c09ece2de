"""Running a job: :func:`execute` in this process, :func:`run` under the job's limits.

A job runs its engine's job function for its task (:attr:`satedge.jobs.engine.Engine.tasks`),
whatever the engine, satedge's or yours; a certified one :func:`satedge.jobs.certified.run` (a
maximum: the engine's, then :func:`satedge.jobs.certified.prove_optimum`; a board whose first
board fits every edge is answered at once, :func:`satedge.jobs.boards.every_edge_fits`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..encode.presets import too_big
from ..errors import SatedgeError
from ..puzzle.model import Solution
from ..system import cluster
from ..system.forkserver import ForkServer
from ..system.limits import OutOfTime
from ..system.process import Outcome, call, here
from . import certified
from .boards import every_edge_fits
from .job import Job
from .result import Note, Result

__all__ = ["execute", "run"]


def execute(job: Job, note: Note | None = None) -> Result:
    """Run ``job`` in this process, without its limits (errors raise); ``note`` is called with
    what is known before the search starts (a formula's size and encode time)."""
    if job.certify is not None and job.task != "maximize":
        return certified.run(job, note)
    res = every_edge_fits(job) if job.task == "maximize" else None  # nothing to search for
    if res is None:
        res = job.solver.declared.tasks[job.task].run(job, note)
    if job.certify is not None:
        res = certified.prove_optimum(job, res)
    res.checked = not on_a_binarys_word(job, res)
    return res


def on_a_binarys_word(job: Job, res: Result) -> bool:
    """Whether ``res`` rests on what a solver binary said and nothing checked: its UNSAT (no
    solution; the end of a count, or of an enumeration that found fewer than its limit) or, to
    maximize, its word that no board scores more (or that none keeps the hard rules).  Its models
    are checked where they are read; a certificate checks the rest."""
    if not job.solver.declared.outside or res.certificate is not None:
        return False
    if job.task == "count":
        return res.status in ("SAT", "UNSAT")
    if job.task == "solve":
        return res.status == "UNSAT" or (
            res.status == "SAT" and (job.limit is None or len(res.solutions) < job.limit)
        )
    if job.task == "maximize":  # a board where every edge fits is the checker's word
        return res.status == "UNSAT" or (
            res.status == "OPTIMUM" and res.score != len(job.board.board.adjacencies)
        )
    return False


def run(
    job: Job,
    fresh: bool = False,
    cancel: threading.Event | None = None,
    progress: Callable[[dict], None] | None = None,
    server: ForkServer | None = None,
) -> Result:
    """Run a job, however it ends.

    A job with limits runs in a child process under them (:func:`satedge.system.process.call`; a
    new interpreter for a job on a Dask cluster), a job without in this process; on a Dask cluster
    every part runs under the job's limits too.

    Parameters
    ----------
    job : Job
    fresh : bool
        A new interpreter rather than a fork.
    cancel : threading.Event, optional
        Set it to stop the job.
    progress : callable, optional
        Called with what a job that asks for it (``Job.progress``) reports as it goes:
        ``nodes`` and ``seconds``, or ``conflicts``; a maximisation's ``score``, the best
        board's it holds (which an interrupt answers), where a search reports a worse one.
    server : satedge.system.forkserver.ForkServer, optional
        Start the job's process from this warm process, as a fresh one starts.

    Returns
    -------
    Result
        With its status; a stopped job's result keeps what was known (the formula's size).
        :meth:`Result.raise_error` raises for ``MEMOUT`` and ``ERROR``.

    Raises
    ------
    KeyboardInterrupt, SystemExit, satedge.system.limits.OutOfTime
        As they came (Ctrl-C; the command line's SIGTERM and SIGHUP; the time limit of the block
        around it, :func:`satedge.system.limits.within`, before the job's answer came back),
        once the job's processes are gone; of a maximisation that had found a board, with
        ``best``: a result of status ``INTERRUPTED`` (``TIMEOUT`` for the time limit) that holds
        it (and ``job``); of a count that had reported, the same with its lower bounds
        (``Result.at_least``).
    """

    best: dict = {}  # a maximisation's best board so far, for an interrupt or a time limit to keep
    tally: dict[str, int] = {}  # a count's lower bounds, the highest it reported, as well

    def on_note(fields: dict) -> None:
        if "board" in fields:  # the board only when it scores more; the bound as last proved
            if not best or fields.get("score", 0) > best.get("score", 0):
                best.update({k: fields[k] for k in ("board", "score") if k in fields})
            if "bound" in fields:
                best["bound"] = fields["bound"]
        if job.task == "count":
            for key, n in counted(fields.get("progress") or {}).items():
                tally[key] = max(tally.get(key, 0), n)
        if progress is not None and "progress" in fields:
            shown = fields["progress"]
            if "score" in shown and best.get("score", 0) > shown["score"]:  # the best board it holds
                shown = {**shown, "score": best["score"]}
            progress(shown)

    try:
        return _run(job, fresh, cancel, on_note, server, best, tally)
    except (KeyboardInterrupt, SystemExit, OutOfTime) as e:  # Ctrl-C, the CLI's SIGTERM and SIGHUP, its time
        if best:  # the job's processes are gone; its best board is the answer so far
            so_far = Result(
                "TIMEOUT" if isinstance(e, OutOfTime) else "INTERRUPTED",
                solutions=[Solution(tuple((int(t), int(r)) for t, r in best["board"]))],
                score=best.get("score"),
                bound=best.get("bound"),
            )
            setattr(e, "best", so_far)  # what the command answers: the exception carries it out
            setattr(e, "job", job)
        elif tally:  # a count: what it had counted, lower bounds
            setattr(
                e, "best", Result("TIMEOUT" if isinstance(e, OutOfTime) else "INTERRUPTED", at_least=tally)
            )
            setattr(e, "job", job)
        raise
    finally:  # the worker jobs of a batch queue, where the job's process was killed before it ended them
        cluster.cancel(job.scheduler)


def _run(
    job: Job,
    fresh: bool,
    cancel: threading.Event | None,
    on_note: Note | None,
    server: ForkServer | None,
    best: dict,
    tally: dict,
) -> Result:
    if job.limits.unlimited and not fresh and server is None and cancel is None:
        return _result(here(execute, (job,), note=on_note), best, tally)
    if job.encoding is not None and job.limits.memory_mb is not None:  # what cannot fit is not built
        try:
            size = job.encoding.size(job.board, job.shuffle)
        except SatedgeError as e:  # an encoding that does not cover the puzzle
            return _result(Outcome("ERROR", error=str(e), bad_input=True, limits=job.limits, cpu_seconds=0.0))
        error = too_big(job.encoding, size, job.limits.memory_mb)
        if error is not None and size is not None:
            res = _result(Outcome("MEMOUT", error=str(error), limits=job.limits, cpu_seconds=0.0))
            res.variables, res.clauses = size.variables, size.clauses
            return res
    return _result(
        call(
            execute,
            (job,),
            job.limits,
            # a job on a Dask cluster in a new interpreter, not a fork of this process and its threads:
            # killed at its time limit with its scheduler, where the limit's signal in this process
            # could land in Dask's code and leave its locks held
            fresh=fresh or job.scheduler is not None,
            notes=True,
            cancel=cancel,
            on_note=on_note,
            server=server,
        ),
        best,
        tally,
    )


def counted(so_far: dict) -> dict[str, int]:
    """What a count's last progress report says it had counted: lower bounds of its counts.
    Solutions found count as themselves; pictures found (a count by pictures, one per class)
    are at least as many distinct pictures, and as many solutions.  None found says nothing.

    >>> counted({"solutions": 14784128, "seconds": 7.9}), counted({"pictures": 12}), counted({"nodes": 5})
    ({'solutions': 14784128}, {'solutions': 12, 'distinct': 12}, {})
    >>> counted({"solutions": 0})
    {}
    """
    pictures = int(so_far.get("pictures") or 0)
    solutions = max(int(so_far.get("solutions") or 0), pictures)
    if not solutions:
        return {}
    return {"solutions": solutions} | ({"distinct": pictures} if pictures else {})


def _result(outcome: Outcome, best: dict | None = None, tally: dict | None = None) -> Result:
    """The result of a job that ended as ``outcome`` says, with what it cost; a stopped
    maximisation's board is the best it noted (``best``), whatever it noted after it, and a
    stopped count's lower bounds are the highest it reported (``tally``)."""
    if outcome.status == "OK":
        res = outcome.value
    else:
        known = {
            k: v for k, v in outcome.notes.items() if k in ("variables", "clauses", "encode_seconds", "stage")
        }
        so_far = outcome.notes.get("progress", {})  # the backtracker's last report
        known.update({k: so_far[k] for k in ("nodes", "candidates", "loop") if k in so_far})
        if "nodes" in so_far and so_far.get("seconds"):
            known["solve_seconds"] = so_far["seconds"]  # the search's, until its last report
        noted = best if best else outcome.notes
        known.update({k: noted[k] for k in ("score", "bound") if k in noted})
        if "board" in noted:  # a maximisation's best board so far
            known["solutions"] = [Solution(tuple(map(tuple, noted["board"])))]
        res = Result(outcome.status, at_least=dict(tally or {}), **known)
    res.outcome, res.wall_seconds, res.cpu_seconds = outcome, outcome.wall_seconds, outcome.cpu_seconds
    res.peak_memory_mb = outcome.peak_mb
    return res
