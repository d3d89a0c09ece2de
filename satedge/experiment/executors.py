"""Where runs execute: on this machine (``local``) or on a Dask cluster (``dask``).

Either way a run is :func:`run_one`: its job in a fresh Python process under the spec's limits
(:mod:`satedge.system.process`: the time limit and the memory cap of its whole process tree), killed
with every process it started when a limit is reached, and one result row's fields back.
"""

from __future__ import annotations

import platform
import socket
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import pysat

from ..backtrack import native
from ..jobs import Job, run
from ..jobs.registry import engines
from ..system.extras import require
from ..system.forkserver import ForkServer
from ..system.machine import cpu_model
from ..system.resources import __version__
from .rows import result_fields

__all__ = ["environment", "run_one", "run_local", "run_dask"]


def environment() -> dict:
    """Versions and the machine a run ran on."""
    needed = {e.needs.module for e in engines().values() if e.needs is not None and e.needs.module}
    return {
        "satedge": __version__,
        "pysat": getattr(pysat, "__version__", "?"),
        "python": platform.python_version(),
        # the compiled backtracker's library, the best-board searches' assignments, then each engine's
        # (the engine table's needs)
        "numba": _installed("numba"),
        "scipy": _installed("scipy"),
        "cc": native.described(),  # the C loop's compiler, where there is one
        **{m: _installed(m) for m in sorted(needed)},
        "host": socket.gethostname(),
        "cpu": cpu_model(),
    }


def _installed(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def run_one(
    job: Job, cancel: threading.Event | None = None, server: ForkServer | None = None, env: dict | None = None
) -> dict:
    """Run ``job`` in a process of its own under its limits, started by ``server`` (a warm
    process) or as a fresh interpreter; the result row's fields
    (:func:`satedge.experiment.rows.result_fields`), with ``env`` as its :func:`environment`
    (found here when not given: on a cluster's worker, the worker's)."""
    started = datetime.now(UTC)
    res = run(job, fresh=True, cancel=cancel, server=server)
    return result_fields(job, res, started, datetime.now(UTC), env or environment())


def run_local(jobs: Iterable[tuple[str, Job]], workers: int, done: Callable[[str, dict], None]) -> None:
    """Run ``(id, job)`` pairs, ``workers`` at a time; ``done(id, fields)`` as each ends.  When
    this is interrupted (Ctrl-C, or ``done`` raises), the runs not yet started never start and
    those under way are killed, with no ``done`` for them."""
    cancel = threading.Event()
    futures: dict = {}
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    server = ForkServer()  # every run starts from one warm process
    env = environment()  # this machine's, once
    try:
        for rid, job in jobs:
            futures[pool.submit(run_one, job, cancel, server, env)] = rid
        for f in as_completed(futures):
            done(futures[f], f.result())
    except BaseException:
        cancel.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
        server.close()


def run_dask(jobs: Iterable[tuple[str, Job]], client: Any, done: Callable[[str, dict], None]) -> None:
    """The same runs on a Dask distributed cluster through ``client``, results streaming back."""
    distributed = require("dask.distributed")
    futures = {client.submit(run_one, job, pure=False, key=f"satedge-run-{rid}"): rid for rid, job in jobs}
    for f in distributed.as_completed(list(futures)):
        done(futures[f], f.result())
