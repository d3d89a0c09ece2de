"""Where runs execute: on this machine (``local``) or on a Dask cluster (``dask``).

Either way a run is :func:`run_payload`: a fresh ``python -m satedge.experiment.worker`` process
in its own session, killed with its whole process group at the timeout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Callable, Iterable

from ..errors import SatedgeError
from .worker import SOLVING

GRACE = 0.5  # seconds between a run's timeout and the kill


def run_payload(payload: dict, timeout: float, live: set | None = None) -> dict:
    """Execute one run in its own process; always returns a result (TIMEOUT, MEMOUT, ERROR too).
    ``live``: a set that holds the process while it runs, so that the caller can kill it."""
    with tempfile.TemporaryDirectory(prefix="satedge-run-") as scratch:  # the run's temporary files, however it ends
        return _run_payload(payload, timeout, live, scratch)


def _run_payload(payload: dict, timeout: float, live: set | None, scratch: str) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "satedge.experiment.worker"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "TMPDIR": scratch})
    if live is not None:
        live.add(proc)
    try:
        out, err = proc.communicate(json.dumps({**payload, "parent": os.getpid()}), timeout=timeout + GRACE)
    except subprocess.TimeoutExpired:
        _kill(proc)
        out, _ = proc.communicate()  # what the run wrote before the kill
        return {**_sizes(_last_line(out)), "status": "TIMEOUT", "wall_seconds": round(time.perf_counter() - t0, 3)}
    finally:
        _kill(proc)  # nothing of the run's session survives it
        if live is not None:
            live.discard(proc)
    wall = round(time.perf_counter() - t0, 3)
    result = _last_line(out)
    if result.get("status") in (None, SOLVING):  # the run died without its result
        tail = (err or "").strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        memout = any(k in (err or "") for k in ("MemoryError", "bad_alloc", "Cannot allocate", "out of memory"))
        result = {**_sizes(result), "status": "MEMOUT" if memout else "ERROR", "error": tail[0]}
    solve = result.get("solve_seconds")
    if result.get("status") in ("SAT", "UNSAT") and solve is not None and (result.get("encode_seconds") or 0) + solve > timeout:
        result["status"] = "TIMEOUT"  # finished, but past the limit
    result["wall_seconds"] = wall
    return result


def _last_line(out: str | None) -> dict:
    """The last JSON line a worker wrote, or ``{}``."""
    try:
        return json.loads((out or "").strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {}


def _sizes(line: dict) -> dict:
    """The fields of a worker's ``SOLVING`` line (the formula's size and encode time) but its
    status, else nothing."""
    if line.get("status") != SOLVING:
        return {}
    return {key: value for key, value in line.items() if key != "status"}


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def run_local(jobs: Iterable[tuple[str, dict]], timeout: float, workers: int, done: Callable[[str, dict], None]) -> None:
    """Run ``(id, payload)`` jobs, ``workers`` at a time; ``done(id, result)`` as each ends.  When
    this is interrupted (Ctrl-C, or ``done`` raises), the runs not yet started are dropped and
    those under way are killed, with no ``done`` for them."""
    live: set = set()
    futures: dict = {}
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        for rid, payload in jobs:
            futures[pool.submit(run_payload, payload, timeout, live)] = rid
        for f in as_completed(futures):
            done(futures[f], f.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        while not all(f.done() for f in futures):  # a run may be starting while the others die
            for proc in list(live):
                _kill(proc)
            time.sleep(0.05)
        raise
    finally:
        pool.shutdown(wait=True)


def connect(scheduler: str | None):
    """A ``dask.distributed.Client`` of the scheduler at ``scheduler``; a one-line error when the
    extra is missing, no address is given or the scheduler does not answer within 10 s."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise SatedgeError("the dask executor needs the 'dist' extra: pip install 'satedge[dist]'") from None
    if not scheduler:
        raise SatedgeError("--executor dask needs --scheduler ADDRESS")
    try:
        return Client(scheduler, timeout="10s")
    except OSError as e:
        raise SatedgeError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None


def run_dask(jobs: Iterable[tuple[str, dict]], timeout: float, client, done: Callable[[str, dict], None]) -> None:
    """The same runs on a Dask distributed cluster through ``client``, results streaming back."""
    from dask.distributed import as_completed as dask_completed

    futures = {client.submit(run_payload, payload, timeout, pure=False, key=f"satedge-run-{rid}"): rid
               for rid, payload in jobs}
    for f in dask_completed(list(futures)):
        done(futures[f], f.result())
