"""A Dask distributed cluster as more processes for one job (the extra ``dist``): a running
cluster's scheduler by its address, or a cluster of worker jobs on an HPC batch queue
(:class:`Batch`: Slurm through dask-jobqueue, the extra ``hpc``), started for the job and ended
with it.

:func:`parts` runs a job's parts (cubes, subtrees, portfolio members) on the cluster's workers,
each part in a fresh process of its own under the job's limits (:func:`satedge.system.process.call`):
the memory cap per part, and the time limit as one deadline for all of them.  When the caller
stops reading (the answer is in, the deadline has passed, Ctrl-C), the parts not yet started
never start and the running ones are killed through a Dask ``Event`` their tasks watch.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import SatedgeError
from .extras import Need, require
from .files import cache_folder, one_line, quoted
from .process import Cancelled, Limits, Outcome, call
from .proctree import sweep

__all__ = [
    "BATCH_SYSTEMS",
    "HPC",
    "WORKER_START",
    "Batch",
    "connect",
    "disconnect",
    "cancel",
    "threads",
    "parts",
]

BATCH_SYSTEMS = ("slurm",)  # the batch queues a cluster is made on (dask-jobqueue's SLURMCluster)
HPC = Need(module="dask_jobqueue", extra="hpc")
WORKER_START = 300.0  # seconds the queue has to start the first worker job before the job gives up


@dataclass(frozen=True)
class Batch:
    """A cluster of Dask workers run as batch jobs, as a scheduler string names it:
    ``slurm:queue=debug,jobs=2,cores=1,memory=2GB,walltime=01:00:00,name=satedge-...``.  Each
    job is one worker process of ``cores`` threads and ``memory`` (Slurm's ``--mem``), for at
    most ``walltime``; ``queue`` is Slurm's partition (default: its default one); ``name`` the
    jobs' name, by which they are cancelled when the job ends (made unique when parsed)."""

    system: str = "slurm"
    queue: str | None = None
    jobs: int = 1
    cores: int = 1
    memory: str = "2GB"
    walltime: str = "01:00:00"
    name: str = ""

    @classmethod
    def parse(cls, text: str | None) -> Batch | None:
        """The batch cluster ``text`` names, or ``None`` for a scheduler's address."""
        if not text:
            return None
        system, _, rest = text.partition(":")
        if system not in BATCH_SYSTEMS or rest.startswith("//"):
            return None
        settings: dict = {}
        names = {f.name for f in fields(cls)} - {"system"}
        for item in filter(None, rest.split(",")):
            key, _, value = item.partition("=")
            if key not in names or not value:
                takes = ", ".join(sorted(names))
                raise SatedgeError(
                    f"cluster {quoted(text, 60)}: {quoted(item, 30)} is not one of {takes} with a value"
                )
            settings[key] = value
        for key in ("jobs", "cores"):
            if key in settings:
                if not settings[key].isdigit() or not 1 <= int(settings[key]) <= 10_000:
                    raise SatedgeError(
                        f"cluster {quoted(text, 60)}: {key} is a whole number from 1 to 10,000"
                    )
                settings[key] = int(settings[key])
        batch = cls(system=system, **settings)
        return batch if batch.name else replace(batch, name=f"satedge-{os.getpid()}-{uuid.uuid4().hex[:8]}")

    def __str__(self) -> str:
        given = [
            f"{f.name}={getattr(self, f.name)}" for f in fields(self)[1:] if getattr(self, f.name) is not None
        ]
        return f"{self.system}:" + ",".join(given)


def connect(scheduler: str | None) -> Any:
    """A ``dask.distributed.Client`` of the scheduler at ``scheduler``, or of a cluster of worker
    jobs started on the batch queue it names (:class:`Batch`; :func:`disconnect` ends them); a
    one-line error when an extra is missing, no address is given, the scheduler does not answer
    within 10 s, or the queue is unknown or starts no worker."""
    distributed = require("dask.distributed")
    if not scheduler:
        raise SatedgeError("a Dask cluster needs its scheduler's address, e.g. tcp://10.0.0.1:8786")
    batch = Batch.parse(scheduler)
    if batch is not None:
        return _on_queue(batch, distributed)
    try:
        return distributed.Client(scheduler, timeout="10s")
    except (OSError, ValueError, TypeError) as e:  # no answer, or not an address
        raise SatedgeError(
            f"cannot reach the Dask scheduler at {one_line(scheduler)[:80]}: {one_line(str(e))[:200]}"
        ) from None


def _slurm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def _on_queue(batch: Batch, distributed: Any) -> Any:
    """A client of worker jobs on Slurm, once the first has started (``WORKER_START``)."""
    jobqueue = require("dask_jobqueue", HPC, "--cluster slurm")
    if shutil.which("sbatch") is None:
        raise SatedgeError("--cluster slurm needs Slurm's sbatch on PATH; there is none")
    if batch.queue is not None:
        listed = _slurm("sinfo", "-h", "-o", "%P")
        if listed.returncode != 0:
            said = (listed.stderr or listed.stdout or "no word").strip().splitlines()[0]
            raise SatedgeError(f"Slurm's sinfo failed: {one_line(said)[:160]}")
        queues = sorted({q.strip().rstrip("*") for q in listed.stdout.split()})
        if batch.queue not in queues:
            raise SatedgeError(
                f"Slurm has no queue {quoted(batch.queue, 30)}; it has {', '.join(queues) or 'none'}"
            )
    folder = tempfile.mkdtemp(prefix="satedge-slurm-")  # the workers' space, made again on their nodes
    logs = log_folder()  # the jobs' output, where their nodes write it
    try:
        cluster = jobqueue.SLURMCluster(
            queue=batch.queue,
            cores=batch.cores,
            processes=1,
            memory=batch.memory,
            walltime=batch.walltime,
            job_name=batch.name,
            python=sys.executable,
            local_directory=folder,
            log_directory=logs,
            # the scheduler's web page on a free port: two jobs at once do not contend for 8787
            scheduler_options={"dashboard_address": ":0"},
        )
    except (ValueError, TypeError) as e:
        _remove(folder, logs)
        raise SatedgeError(f"cluster {batch}: {one_line(str(e))[:200]}") from None
    script = os.path.join(folder, "worker.sh")
    with open(script, "w") as fh:
        fh.write(cluster.job_script())
    tried = _slurm("sbatch", "--test-only", script)  # what the queue would refuse, refused now
    if tried.returncode != 0:
        cluster.close()
        _remove(folder, logs)
        said = _refusal(tried.stderr) or one_line(tried.stderr.strip() or "no word")[:160]
        raise SatedgeError(f"Slurm refuses the worker jobs of {batch}: {said}")
    client = distributed.Client(cluster)
    client.satedge_batch = (cluster, (folder, logs), batch)  # what disconnect ends
    try:
        cluster.scale(jobs=batch.jobs)
        _first_worker(client, batch)
    except BaseException as e:
        said = _job_errors(logs)
        disconnect(client)
        if isinstance(e, SatedgeError):  # with what a job that ran wrote first to its error file
            raise SatedgeError(f"{e}: {said}" if said else str(e)) from None
        if isinstance(e, Exception):  # none started in time (the queue is full, say)
            raise SatedgeError(
                f"Slurm started no worker of {batch.name} within {WORKER_START:g} s"
                + (f": {said}" if said else " (squeue and the queue's limits say why)")
            ) from None
        raise
    return client


# what squeue gives as the reason of a pending job that waiting does not start: it asks for more
# than the queue ever gives (sbatch --test-only passes a time beyond the partition's limit), or
# someone holds it
HELD_FOR_GOOD = frozenset(
    {
        "BadConstraints",
        "DependencyNeverSatisfied",
        "InvalidAccount",
        "InvalidQOS",
        "JobHeldAdmin",
        "JobHeldUser",
        "PartitionNodeLimit",
        "PartitionTimeLimit",
    }
)
PER_JOB = r"(QOS|Assoc)Max\w*PerJob\w*"  # squeue's reasons of the limits per job of a QOS or an account
# the states of a job that has ended (squeue lists them for a few minutes after)
ENDED = frozenset(
    {
        "BOOT_FAIL",
        "CANCELLED",
        "COMPLETED",
        "DEADLINE",
        "FAILED",
        "NODE_FAIL",
        "OUT_OF_MEMORY",
        "PREEMPTED",
        "TIMEOUT",
    }
)


def _first_worker(client: Any, batch: Batch) -> None:
    """Wait for the first worker job to start (``WORKER_START``), and look at the jobs in squeue
    every 2 s: a pending job's reason that no wait ends, or jobs that all ended, is a one-line
    error at once."""
    deadline = time.monotonic() + WORKER_START
    while True:
        try:
            client.wait_for_workers(1, timeout=min(2.0, max(0.01, deadline - time.monotonic())))
            return
        except TimeoutError:
            if time.monotonic() >= deadline:
                raise
        jobs = _states(batch.name)
        held = [r for s, r in jobs if s == "PENDING" and (r in HELD_FOR_GOOD or re.fullmatch(PER_JOB, r))]
        if held:
            raise SatedgeError(
                f"Slurm holds the worker jobs of {batch}: {held[0]} (squeue's reason), which waiting does not end"
            )
        if jobs and all(s in ENDED for s, _ in jobs):  # a job that ended has no worker to come
            state, reason = jobs[0]
            raise SatedgeError(
                f"the worker jobs of {batch} ended before a worker started: {state}"
                + (f", {reason}" if reason and reason != "None" else "")
                + " (squeue's state and reason)"
            )


def _states(name: str) -> list[tuple[str, str]]:
    """squeue's state and reason of each job named ``name``, those that ended lately too."""
    try:
        listed = _slurm("squeue", "-h", "-n", name, "-t", "all", "-o", "%T %r")
    except (OSError, subprocess.SubprocessError):
        return []
    jobs = []
    for line in listed.stdout.splitlines():
        state, _, reason = line.strip().partition(" ")
        if state:
            jobs.append((state, reason.split(",")[0].strip()))
    return jobs


def log_folder() -> str:
    """A new folder for the output of a batch queue's worker jobs, which their nodes write
    themselves: under :func:`satedge.system.files.cache_folder`, in the home directory that a
    cluster's nodes share (a node's /tmp is its own, and a job whose output folder its node lacks
    fails to start), named for this host and process.  The folders of this host's processes that
    have ended (killed at their time limit) are removed first; where the cache folder cannot be
    written, a temporary folder, which serves a single node."""
    host = re.sub(r"[^A-Za-z0-9.]", "_", socket.gethostname()) or "host"
    base = cache_folder() / "slurm"
    try:
        base.mkdir(parents=True, exist_ok=True)
        sweep(base, f"{host}-")
        return tempfile.mkdtemp(prefix=f"{host}-{os.getpid()}-", dir=base)
    except OSError:
        return tempfile.mkdtemp(prefix="satedge-slurm-logs-")


def _remove(*folders: str) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def _refusal(text: str) -> str:
    """What sbatch said where it refuses a job: its first ``sbatch: error:`` line."""
    for line in text.splitlines():
        if "sbatch: error:" in line:
            return one_line(line[line.index("sbatch: error:") :])[:160]
    return ""


def _job_errors(folder: str) -> str:
    """The first line a worker job wrote to its error file, if any."""
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if name.endswith(".err"):
            with open(os.path.join(folder, name), errors="replace") as fh:
                for line in fh:
                    if line.strip():
                        return one_line(line)[:160]
    return ""


def disconnect(client: Any) -> None:
    """Close ``client``; of a cluster of batch jobs, cancel them and remove their logs too."""
    batch = getattr(client, "satedge_batch", None)
    try:
        client.close()
    finally:
        if batch is not None:
            cluster, folders, spec = batch
            try:
                cluster.close()
            except Exception:  # a cluster whose jobs never started closes with errors of its own
                pass
            finally:
                cancel(str(spec))
                _remove(*folders)


def cancel(scheduler: str | None) -> None:
    """Cancel the batch jobs of ``scheduler`` (a :class:`Batch` string with its ``name``) that are
    queued or running: what a job killed at its time limit could not end itself."""
    batch = Batch.parse(scheduler) if scheduler else None
    if batch is None or not scheduler or "name=" not in scheduler or shutil.which("scancel") is None:
        return
    try:
        _slurm("scancel", "--name", batch.name)
    except (OSError, subprocess.SubprocessError):
        pass


def threads(client: Any) -> int:
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
    client: Any,
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

    def submit(a: tuple) -> Any:
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
