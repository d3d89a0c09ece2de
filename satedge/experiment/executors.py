"""Where runs execute: on this machine (``local``) or on a Dask cluster (``dask``).

Either way a run is :func:`run_one`: its job in a fresh Python process under the spec's limits
(:mod:`satedge.process`: the time limit and the memory cap of its whole process tree), killed
with every process it started when a limit is reached, and one result row's fields back.
"""

from __future__ import annotations

import platform
import socket
import threading
from datetime import datetime, timezone
from concurrent.futures import ThreadPoolExecutor, as_completed
from importlib.metadata import PackageNotFoundError, version
from typing import Callable, Iterable

import pysat

from ..extras import require
from ..jobs import Job, run
from ..version import __version__


def environment() -> dict:
    """Versions and the machine a run ran on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), cpu)
    except OSError:
        pass
    return {"satedge": __version__, "pysat": getattr(pysat, "__version__", "?"), "python": platform.python_version(),
            # the optional extras behind the backtracker's compiled loop and the cpsat solver
            "numba": _installed("numba"), "ortools": _installed("ortools"),
            "host": socket.gethostname(), "cpu": cpu}


def _installed(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def run_one(job: Job, cancel: threading.Event | None = None) -> dict:
    """Run ``job`` in a fresh process under its limits; the result row's fields.  A run that
    finishes past its time limit is a ``TIMEOUT`` too.  ``started_at`` and ``finished_at``: ISO 8601
    in UTC; ``cpu_seconds``: user plus system time of the run's whole process tree."""
    started = datetime.now(timezone.utc)
    res = run(job, fresh=True, cancel=cancel)
    finished = datetime.now(timezone.utc)
    out: dict = {"status": res.status, "variables": res.variables, "clauses": res.clauses,
                 "encode_seconds": res.encode_seconds, "solve_seconds": res.solve_seconds, "models": 0, "stats": None}
    if res.error:
        out["error"] = res.error
    if res.status == "ENCODED":
        out.update(literals=res.literals, write_seconds=res.write_seconds, dimacs_bytes=res.dimacs_bytes,
                   literals_per_second=round(res.literals / max(res.encode_seconds, 1e-9)))
    elif res.status in ("SAT", "UNSAT"):
        out["models"] = res.counts.get(job.modes[0], 0) if job.task == "count" else len(res.solutions)
        if job.engine != "backtrack":
            out.update(stats=res.stats.counters if res.stats.reported else None, solver_calls=res.stats.calls)
        spent = (res.encode_seconds or 0.0) + (res.solve_seconds or 0.0)
        if job.limits.timeout is not None and spent > job.limits.timeout:
            out["status"] = "TIMEOUT"  # finished, but past the limit
    out["workers"] = job.workers  # the cores the run used
    if res.parallel:
        out["parallel"] = res.parallel
    out.update(started_at=started.isoformat(timespec="milliseconds"), finished_at=finished.isoformat(timespec="milliseconds"),
               wall_seconds=round(res.wall_seconds, 3), cpu_seconds=round(res.cpu_seconds or 0.0, 3),
               peak_memory_mb=None if res.peak_memory_mb is None else round(res.peak_memory_mb, 1),
               env=environment())
    return out


def run_local(jobs: Iterable[tuple[str, Job]], workers: int, done: Callable[[str, dict], None]) -> None:
    """Run ``(id, job)`` pairs, ``workers`` at a time; ``done(id, fields)`` as each ends.  When
    this is interrupted (Ctrl-C, or ``done`` raises), the runs not yet started never start and
    those under way are killed, with no ``done`` for them."""
    cancel = threading.Event()
    futures: dict = {}
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        for rid, job in jobs:
            futures[pool.submit(run_one, job, cancel)] = rid
        for f in as_completed(futures):
            done(futures[f], f.result())
    except BaseException:
        cancel.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)


def run_dask(jobs: Iterable[tuple[str, Job]], client, done: Callable[[str, dict], None]) -> None:
    """The same runs on a Dask distributed cluster through ``client``, results streaming back."""
    distributed = require("dask.distributed")
    futures = {client.submit(run_one, job, pure=False, key=f"satedge-run-{rid}"): rid for rid, job in jobs}
    for f in distributed.as_completed(list(futures)):
        done(futures[f], f.result())
