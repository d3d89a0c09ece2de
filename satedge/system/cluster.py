"""A Dask distributed cluster as more processes for one job (the extra ``dist``).

:func:`parts` runs a job's parts (cubes, subtrees, portfolio members) on the cluster's workers,
each part in a fresh process of its own under the job's limits (:func:`satedge.system.process.call`):
the memory cap per part, and the time limit as one deadline for all of them.  When the caller
stops reading (the answer is in, the deadline has passed, Ctrl-C), the parts not yet started
never start and the running ones are killed through a Dask ``Event`` their tasks watch.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator

from ..errors import SatedgeError
from .extras import require
from .files import one_line
from .process import Cancelled, Limits, Outcome, call

__all__ = ["connect", "threads", "parts"]


def connect(scheduler: str | None):
    """A ``dask.distributed.Client`` of the scheduler at ``scheduler``; a one-line error when the
    extra is missing, no address is given or the scheduler does not answer within 10 s."""
    distributed = require("dask.distributed")
    if not scheduler:
        raise SatedgeError("a Dask cluster needs its scheduler's address, e.g. tcp://10.0.0.1:8786")
    try:
        return distributed.Client(scheduler, timeout="10s")
    except (OSError, ValueError, TypeError) as e:  # no answer, or not an address
        raise SatedgeError(
            f"cannot reach the Dask scheduler at {one_line(scheduler)[:80]}: {one_line(str(e))[:200]}"
        ) from None


def threads(client) -> int:
    """The threads the cluster's workers run tasks on."""
    return max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))


def _task(fn: Callable, args: tuple, memory_mb: float | None, deadline: float | None, stop: str) -> Outcome:
    """On a Dask worker: ``fn(*args)`` in a fresh process under the memory cap, killed at the
    deadline (seconds since the epoch) or as soon as the Dask event ``stop`` is set."""
    distributed = require("dask.distributed")
    left = None if deadline is None else deadline - time.time()
    if left is not None and left <= 0:
        return Outcome("TIMEOUT", error="no time left")
    cancel = threading.Event()
    event = distributed.Event(stop)  # waited on in this thread: it needs the task's own client
    got: list[Outcome] = []

    def work() -> None:
        try:
            got.append(call(fn, args, Limits(timeout=left, memory_mb=memory_mb), fresh=True, cancel=cancel))
        except Cancelled:
            got.append(Outcome("ERROR", error="stopped"))

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            if event.wait(timeout=0.2):
                cancel.set()
            worker.join(0.01)
    finally:
        cancel.set()
        worker.join()
    return got[0]


def parts(
    client,
    fn: Callable,
    args: list[tuple],
    limits: Limits,
    more: Callable[[object, int], list[tuple]] | None = None,
) -> Iterator[Outcome]:
    """``fn(*a)`` for each ``a`` of ``args`` on the cluster, each in a process of its own under
    ``limits``; the outcomes as they end, and one ``TIMEOUT`` outcome when the time limit
    passes first.  ``more(value, waiting)``: the further parts an answer brings (work handed
    back), given how many parts are running or queued.  Closing the iterator stops every part."""
    distributed = require("dask.distributed")
    deadline = None if limits.timeout is None else time.time() + limits.timeout
    stop = f"satedge-stop-{uuid.uuid4().hex}"
    event = distributed.Event(stop, client=client)

    def submit(a: tuple):
        return client.submit(_task, fn, a, limits.memory_mb, deadline, stop, pure=False)

    futures = [submit(a) for a in args]
    pending = list(futures)
    try:
        while pending:
            if deadline is not None and time.time() >= deadline:
                yield Outcome("TIMEOUT", error=f"no answer in {limits.timeout:g} s", limits=limits)
                return
            finished = [f for f in pending if f.done()]
            if not finished:
                time.sleep(0.02)
                continue
            for f in finished:
                pending.remove(f)
                try:
                    outcome = f.result()
                except Exception as e:
                    outcome = Outcome(
                        "ERROR", error=f"a Dask task failed: {one_line(str(e))[:200]}", limits=limits
                    )
                if more is not None and outcome.status == "OK":
                    added = [submit(a) for a in more(outcome.value, len(pending))]
                    futures += added
                    pending += added
                yield outcome
    finally:
        event.set()
        client.cancel(futures)
