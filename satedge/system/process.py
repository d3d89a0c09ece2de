"""The one limits layer: run a job in a child process under a time limit and a memory cap.

Everything satedge runs goes through :func:`call`: a command's solving or encoding job, an
experiment's run (on this machine or a Dask worker), with the worker processes of one job, CP-SAT
and solver binaries inside it.  So a limit means the same wherever it is set:

* **memory**: the job's whole process tree (the child and every process it started): the resident
  size of a lone process, and with several the sum of their proportional set sizes (PSS), so that
  the pages a forked worker shares with its parent count once.  Past the cap the tree is killed:
  ``MEMOUT``.
* **time**: wall-clock seconds from the start of the child; then the tree is killed: ``TIMEOUT``;
  the process that starts a job is under the same limits while it prepares it
  (:func:`satedge.system.limits.within`).
* one kill: SIGKILL to the child's process group and to every descendant found;
* one classification: ``OK`` (the job's value), ``TIMEOUT``, ``MEMOUT`` or ``ERROR`` (the job's
  own error: bad input, an engine's failure, or the child's death), the same for every caller;
* nothing survives a killed parent: the child, the worker processes
  (:func:`satedge.system.proctree.forked_map`) and the solver binaries (:func:`satedge.system.proctree.popen`)
  each have the kernel kill them when the process that started them ends, even by SIGKILL
  (Linux's parent-death signal);
* each call keeps its temporary files in a folder ``satedge-PID-XXXXXXXX`` of its own, removed
  when it ends; :func:`satedge.system.proctree.sweep` removes those of satedge processes that were
  killed first.

It imports nothing of satedge but its errors, :mod:`satedge.system.limits` and :mod:`satedge.system.proctree`.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, Any

import psutil

from ..errors import EncodingError, SatedgeError
from .limits import (
    DEADLINE,
    MAX_MEMORY_MB,
    MAX_TIMEOUT,
    MAX_WORKERS,
    OUTCOMES,
    Limits,
    Outcome,
    OutOfTime,
    OverMemory,
    default_memory_mb,
)
from .proctree import (
    default_kill_signals,
    die_with_parent,
    how_it_ended,
    kill_tree,
    one_line_error,
    scratch,
    stops_blocked,
    supervise,
    tree,
    tree_cpu_seconds,
    tree_memory_mb,
)

__all__ = [
    "OUTCOMES",
    "MAX_TIMEOUT",
    "MAX_MEMORY_MB",
    "MAX_WORKERS",
    "Limits",
    "Outcome",
    "Cancelled",
    "default_memory_mb",
    "here",
    "fresh_main",
    "call",
]


# ---------------------------------------------------------------------------- processes
class Cancelled(Exception):
    """The call was cancelled (its ``cancel`` event was set) and its processes were killed."""


# ---------------------------------------------------------------------------- the child's side
def _send(fd: int, message: dict) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(struct.pack("!Q", len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _own_cpu() -> tuple[float, float]:
    """CPU seconds of this process and its waited-for children; their largest resident size (MB)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, max(me.ru_maxrss, kids.ru_maxrss) / 1024


def _attempt(fn: Callable, args: tuple, kwargs: dict, catch: type[BaseException]) -> dict:
    """``fn(*args, **kwargs)`` and how it ended, as the message a child sends (``catch``: what
    counts as the job's own failure rather than the caller's)."""
    try:
        return {"kind": "ok", "value": fn(*args, **kwargs)}
    except SatedgeError as e:
        return {"kind": "bad", "error": str(e)}
    except EncodingError as e:
        return {"kind": "wrong", "error": str(e)}
    except MemoryError:
        return {"kind": "memout"}
    except (OutOfTime, OverMemory):  # the limits of the block around a job run here: its caller's to say
        raise
    except catch as e:
        return {"kind": "error", "error": one_line_error(e), "trace": traceback.format_exc()}


def _ended(end: dict, outcome: Callable[..., Outcome], cpu: float) -> Outcome:
    """The outcome of a job that ended with the message ``end`` (:func:`_attempt`)."""
    kind = end["kind"]
    if kind == "ok":
        return outcome("OK", value=end["value"], cpu=cpu)
    if kind == "memout":
        return outcome("MEMOUT", error="out of memory (MemoryError)", cpu=cpu)
    if kind in ("bad", "wrong"):
        return outcome("ERROR", error=end["error"], bad_input=kind == "bad", wrong=kind == "wrong", cpu=cpu)
    return outcome("ERROR", error=end["error"], trace=end.get("trace"), cpu=cpu)


def here(fn: Callable, args: tuple = (), note: Callable[[dict], None] | None = None) -> Outcome:
    """``fn(*args)`` in this process, without limits, its end classified as :func:`call` classifies
    a child's (``note``: passed on to ``fn`` as its keyword ``note``).  Ctrl-C is not the job's
    failure: it is raised.

    >>> here(sum, ([1, 2],)).value, here(int, ("x",)).status
    (3, 'ERROR')
    """
    t0, cpu0 = time.monotonic(), time.process_time()
    end = _attempt(fn, args, {} if note is None else {"note": note}, Exception)

    def outcome(status: str, cpu: float, **fields: Any) -> Outcome:
        return Outcome(status, wall_seconds=time.monotonic() - t0, cpu_seconds=cpu, **fields)

    return _ended(end, outcome, time.process_time() - cpu0)


def _serve(
    fd: int, fn: Callable, args: tuple, parent: int, folder: str, notes: bool, deadline: float | None
) -> None:
    """The job's process: run ``fn(*args)`` and send what happened to the parent through ``fd``.
    ``deadline`` (seconds since the epoch, its ``--timeout``) is in its environment as
    :data:`DEADLINE`, for what it may start and must bound (a compiler)."""
    die_with_parent(parent)
    default_kill_signals()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    tempfile.tempdir = os.environ["TMPDIR"] = folder  # its temporary files, removed by the parent
    os.environ.pop(DEADLINE, None)
    if deadline is not None:
        os.environ[DEADLINE] = repr(deadline)
    cpu0, rss0 = _own_cpu()  # a fork, and an exec after it, inherit the parent's high-water mark
    _send(fd, {"kind": "start", "cpu": cpu0})
    kwargs = {"note": lambda fields: _send(fd, {"kind": "note", "fields": fields})} if notes else {}
    message = _attempt(fn, args, kwargs, BaseException)  # every failure is the parent's to report
    cpu, rss = _own_cpu()
    message.update(cpu=cpu - cpu0, maxrss_mb=rss if rss > rss0 else 0.0)  # the job's own peak only
    try:
        _send(fd, message)
    except Exception as e:
        _send(
            fd,
            {"kind": "error", "error": one_line_error(e), "trace": traceback.format_exc(), "cpu": cpu - cpu0},
        )


def fresh_main(served: bool = False) -> None:
    """The entry point of a fresh child (``python -c 'from satedge.system.process import fresh_main; ...'``):
    its job comes pickled on stdin, the answer goes to the file descriptor named in argv.  It is
    the supervisor (:func:`satedge.system.proctree.supervise`); the job is unpickled only in the job's
    process.  ``served``: forked by a :mod:`satedge.system.forkserver`, its parent."""
    fd = int(sys.argv[1])
    path, job, parent, folder, notes, deadline = pickle.loads(sys.stdin.buffer.read())
    sys.path[:] = path  # the parent's, so that its job's function imports here as there
    if served:
        parent = os.getppid()
        os.environ["TMPDIR"] = folder
        tempfile.tempdir = None

    def run(supervisor: int) -> None:
        _serve(fd, _unpickled, (job,), supervisor, folder, notes, deadline)
        sys.stdout.flush()

    supervise(fd, run, parent)


def _unpickled(job: bytes, **kwargs: Any) -> Any:
    """``fn(*args)`` of a job that came pickled (its unpickling fails as the job would)."""
    fn, args = pickle.loads(job)
    return fn(*args, **kwargs)


# ---------------------------------------------------------------------------- the parent's side
def _hand_over(
    stdin: IO[bytes], fn: Callable, args: tuple, folder: Path, notes: bool, deadline: float | None
) -> None:
    """Write a fresh or served child's job to its stdin, as :func:`fresh_main` reads it, and close it."""
    try:
        with stdin:
            job = (sys.path, pickle.dumps((fn, args)), os.getpid(), str(folder), notes, deadline)
            stdin.write(pickle.dumps(job))
    except BrokenPipeError:  # it died at once; the watch says how
        pass


class _Child:
    """A started child: forked from this process, or a fresh interpreter."""

    def __init__(
        self,
        fn: Callable,
        args: tuple,
        fd: int,
        folder: Path,
        fresh: bool,
        notes: bool,
        server: Any = None,
        deadline: float | None = None,
    ) -> None:
        self.fresh, self.served = fresh or server is not None, server is not None
        self.code: int | None = None
        self.proc: Any = None  # a subprocess.Popen (fresh) or a forked multiprocessing.Process
        self.server, self.answered = server, False  # answered: its job sent its end
        if server is not None:  # forked by a warm process (satedge.system.forkserver), as a fresh one starts
            self.stderr = open(folder / "stderr.txt", "w+b")
            r, w = os.pipe()
            try:
                self.pid, self.status = server.spawn(fd, self.stderr.fileno(), r)
            finally:
                os.close(r)
            _hand_over(os.fdopen(w, "wb"), fn, args, folder, notes, deadline)
        elif fresh:  # a new interpreter: safe to start from any thread, and from Dask's daemonic workers
            self.stderr = open(folder / "stderr.txt", "w+b")
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "from satedge.system.process import fresh_main; fresh_main()",
                    str(fd),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=self.stderr,
                pass_fds=(fd,),
                start_new_session=True,
                env={**os.environ, "TMPDIR": str(folder)},
            )
            self.pid = self.proc.pid
            _hand_over(self.proc.stdin, fn, args, folder, notes, deadline)
        else:
            ctx = multiprocessing.get_context("fork")
            job = partial(_serve, fd, fn, args, folder=str(folder), notes=notes, deadline=deadline)
            self.proc = ctx.Process(
                target=supervise, args=(fd, lambda supervisor: job(supervisor), os.getpid())
            )
            with stops_blocked():  # until the supervisor's own handlers are in place
                self.proc.start()  # not a daemon: it may start workers
            self.pid = self.proc.pid

    def exitcode(self) -> int | None:
        if self.served:
            return self._status(0)
        return self.proc.poll() if self.fresh else self.proc.exitcode

    def _status(self, wait: float | None) -> int | None:
        """A served child's exit code, once its server has reaped it (waiting up to ``wait`` s)."""
        if self.code is None and select.select([self.status], [], [], wait)[0]:
            data = os.read(self.status, 8)
            self.code = struct.unpack("!q", data)[0] if len(data) == 8 else -signal.SIGKILL  # its server died
        return self.code

    def reap(self) -> None:
        """End the child and its whole tree: the supervisor ends it (SIGTERM, with SIGCONT to
        every process of the tree, so that a stopped one can act on it); one that does not end
        within a second is killed with every process found under it, even when the wait for it
        is interrupted (the command's own time limit).  A job that answered ends by itself (its
        supervisor ends what it started) and is only waited for."""
        if self.answered and self._ended(0.5):
            return self._close()
        for p in tree(self.pid):
            try:
                if p.pid == self.pid:
                    p.send_signal(signal.SIGTERM)
                p.send_signal(signal.SIGCONT)
            except psutil.Error:
                pass
        if self.served:  # its server reaps it and sends the exit code: a stopped one could not
            self.server.wake()
        ended = False
        try:
            ended = self._ended(1)
        finally:
            if not ended:
                kill_tree(self.pid)
            self._close()

    def _ended(self, wait: float) -> bool:
        """Whether the child ended within ``wait`` seconds."""
        if self.served:
            return self._status(wait) is not None
        if self.fresh:
            try:
                self.proc.wait(wait)
                return True
            except subprocess.TimeoutExpired:
                return False
        self.proc.join(wait)
        return self.proc.exitcode is not None

    def _close(self) -> None:
        """Wait for the child that ended or was killed, and close what was its."""
        if self.served:
            self._status(5)  # a server that lost it (stopped again, or gone) is not waited for
            os.close(self.status)
        elif self.fresh:
            self.proc.wait()
        else:
            self.proc.join()
        if self.served or self.fresh:
            self.stderr.close()

    def last_words(self) -> str:
        """The last line the fresh child wrote to stderr, if any."""
        if not self.fresh:
            return ""
        self.stderr.seek(0)
        lines = self.stderr.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1][:300] if lines else ""


def _frames(buf: bytearray) -> Iterator[dict]:
    """The complete messages at the start of ``buf``, removed from it."""
    while len(buf) >= 8:
        (n,) = struct.unpack("!Q", buf[:8])
        if len(buf) < 8 + n:
            return
        message = pickle.loads(bytes(buf[8 : 8 + n]))
        del buf[: 8 + n]
        yield message


def _died(code: int | None, last: str) -> str:
    return f"the solving process died ({how_it_ended(code)})" + (f": {last}" if last else "")


def call(
    fn: Callable,
    args: tuple = (),
    limits: Limits = Limits(),
    *,
    fresh: bool = False,
    notes: bool = False,
    cancel: threading.Event | None = None,
    on_note: Callable[[dict], None] | None = None,
    server: Any = None,
) -> Outcome:
    """Run ``fn(*args)`` in a child process under ``limits`` and say how it ended.

    ``fresh``: the child is a new Python interpreter (safe from threads and Dask workers; ``fn``
    and ``args`` must pickle) instead of a fork of this process; ``server``: a
    :class:`satedge.system.forkserver.ForkServer` starts that child instead, from a warm process.
    ``notes``: ``fn`` is called
    with a keyword argument ``note``, a callable that sends a mapping to the parent at once
    (what a run knows before it ends: the size of its formula), kept in :attr:`Outcome.notes`
    even when the run is killed later; ``on_note`` is called with each as it comes (to show
    progress).  ``cancel``: an event that, once set (by another thread:
    an experiment being stopped), kills the child within a tenth of a second and raises
    :class:`Cancelled`; a call whose event is already set starts nothing.

    >>> call(sum, ([1, 2, 3],), Limits(timeout=60, memory_mb=4096)).value
    6
    """
    t0 = time.monotonic()
    if cancel is not None and cancel.is_set():
        raise Cancelled()
    with scratch() as folder:
        r, w = os.pipe()
        try:
            deadline = None if limits.timeout is None else time.time() + limits.timeout
            child = _Child(fn, args, w, folder, fresh, notes, server, deadline)
        except BaseException:
            os.close(r)
            raise
        finally:
            os.close(w)
        try:
            return _watch(child, r, limits, t0, cancel, on_note)
        finally:
            child.reap()
            os.close(r)


def _watch(
    child: _Child,
    r: int,
    limits: Limits,
    t0: float,
    cancel: threading.Event | None,
    on_note: Callable[[dict], None] | None,
) -> Outcome:
    deadline = None if limits.timeout is None else t0 + limits.timeout
    buf, end = bytearray(), None
    notes: dict[str, Any] = {}
    cpu0 = cpu_seen = peak = 0.0
    next_look = t0 + 0.05  # a job that answers at once is not looked at

    def outcome(status: str, **fields: Any) -> Outcome:
        return Outcome(
            status,
            notes=notes,
            wall_seconds=time.monotonic() - t0,
            peak_mb=peak or None,
            limits=limits,
            cpu_seconds=fields.pop("cpu", max(0.0, cpu_seen - cpu0)),
            **fields,
        )

    def read(wait: float) -> bool:
        """Read what the child sent within ``wait`` seconds; False at the end of the pipe."""
        nonlocal end, cpu0
        if not select.select([r], [], [], max(0.0, wait))[0]:
            return True
        chunk = os.read(r, 1 << 20)
        buf.extend(chunk)
        for message in _frames(buf):
            if message["kind"] == "start":
                cpu0 = message["cpu"]
            elif message["kind"] == "note":
                notes.update(message["fields"])
                if on_note is not None:
                    on_note(message["fields"])
            else:
                end = message
        return bool(chunk)

    while end is None:
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            return outcome("TIMEOUT", error=f"no answer in {limits.timeout:g} s")
        if now >= next_look:  # the tree's memory and time: at most 5% of a core, however many processes
            procs = tree(child.pid)
            held = tree_memory_mb(procs)
            cpu_seen, peak = max(cpu_seen, tree_cpu_seconds(procs)), max(peak, held)
            if limits.memory_mb is not None and held > limits.memory_mb:
                return outcome("MEMOUT", error=f"more than {limits.memory_mb:g} MB of memory")
            next_look = time.monotonic() + min(1.0, max(0.05, 20 * (time.monotonic() - now)))
        wake = min(
            next_look, deadline or next_look, time.monotonic() + 0.1 if cancel is not None else next_look
        )
        open_ = read(wake - time.monotonic())
        if end is None and (not open_ or child.exitcode() is not None):
            while end is None and open_ and select.select([r], [], [], 0)[0]:  # what it wrote before it went
                open_ = read(0)
            if end is None:
                for _ in range(20):  # the pipe ended first: give the child a moment to go
                    if child.exitcode() is not None:
                        break
                    time.sleep(0.05)
                return outcome("ERROR", error=_died(child.exitcode(), child.last_words()))
    child.answered = True
    peak = max(peak, end.get("maxrss_mb", 0.0))
    return _ended(end, outcome, end.get("cpu", max(0.0, cpu_seen - cpu0)))
