"""Process trees: start a worker or a solver binary that cannot outlive satedge, measure and
kill a job's whole tree, and keep temporary files where a later command can sweep them.

* :func:`forked_map`: forked worker processes, each with a pipe of its own;
* :func:`popen`: a solver binary;
* :func:`tree`, :func:`tree_memory_mb`, :func:`tree_cpu_seconds`, :func:`kill_tree`: a process
  and everything it started;
* :func:`scratch` and :func:`sweep`: temporary folders ``satedge-PID-XXXXXXXX``.

Each started process is killed by the kernel when the process that started it ends, even by
SIGKILL (Linux's parent-death signal).  It imports nothing of satedge but its errors.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType
from typing import Any

import psutil

from ..errors import SatedgeError

__all__ = [
    "SCRATCH",
    "die_with_parent",
    "as_worker",
    "become_subreaper",
    "end_descendants",
    "default_kill_signals",
    "forked_map",
    "popen",
    "tree",
    "tree_memory_mb",
    "tree_cpu_seconds",
    "kill_tree",
    "scratch",
    "sweep",
    "one_line_error",
    "how_it_ended",
    "Stop",
    "STOPS",
    "stops_blocked",
    "supervise",
]

SCRATCH = "satedge-"  # the prefix of every scratch folder: satedge-PID-XXXXXXXX


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> None:
    """Have the kernel send ``sig`` (by default SIGKILL, which ends this process at once) to this
    process when ``parent``, the process that started it, ends, even by SIGKILL, which gives it no
    chance to clean up (Linux only; elsewhere nothing); if it has ended already, exit now."""
    if _prctl(1, sig) and os.getppid() != parent:  # 1: PR_SET_PDEATHSIG; ended before: a new parent
        os._exit(1)


def become_subreaper() -> None:
    """Have the descendants of this process that lose their parent (a solver's wrapper killed, a
    ``setsid`` child, a daemon) re-parented to this process rather than to init, so that it can
    find and end them (Linux only; elsewhere nothing)."""
    _prctl(36, 1)  # PR_SET_CHILD_SUBREAPER


def end_descendants() -> None:
    """SIGKILL every descendant of this process and reap its children, until none is left (in a
    subreaper every orphaned descendant becomes a child, so none escapes)."""
    try:  # no child, not even a zombie: nothing under it (an orphan would have become its child)
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return
    me = psutil.Process()
    while True:
        try:
            found = me.children(recursive=True)
        except psutil.Error:
            found = []
        for p in found:
            try:
                p.kill()
            except psutil.Error:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:  # no child left
            return
        time.sleep(0.005)


def default_kill_signals() -> None:
    """Give SIGTERM and SIGHUP back their default action, so that they end this process at once.
    A forked process inherits its parent's handlers (the CLI raises SystemExit on them), and a
    Python handler waits for a solver's C code to return."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


STOPS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)  # the signals that stop a supervisor or a worker


@contextmanager
def stops_blocked() -> Iterator[None]:
    """The stop signals held back while a supervisor or a worker is forked: the fork starts with
    this process's handlers (the CLI's raise SystemExit), and one that ran in the fork before
    :func:`supervise` or the worker replaced them would unwind a copy of this process's own stack."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def forked_map(
    worker: Callable[[], Callable[[Any], Any]],
    tasks: list,
    workers: int,
    idle: Callable[[], None] | None = None,
    more: Callable[[Any], list] | None = None,
    waiting: Callable[[int], None] | None = None,
) -> Generator[Any, None, None]:
    """``fn(task)`` for every task on ``workers`` forked processes, each result as it comes (in no
    fixed order); each process runs ``worker()`` once to make its ``fn`` (a solver it keeps from
    task to task, say) and takes the next task when it comes free.  Closing the iterator, or an
    error in a task (raised here), kills every process at once.  ``idle`` is called every half
    second of waiting (to show progress, say).  ``more(result)``: the tasks a result brings (work
    handed back), taken first; ``waiting(n)``: after each result, how many processes have no task.

    Each process talks to the parent through a pipe of its own and shares no lock with the others.
    ``multiprocessing.Pool`` does not do that: its workers send results under one shared lock, and
    ``terminate()`` hangs for good when it kills a worker holding it, as a portfolio race does
    when two members finish together.  A process that dies without an answer is an error here,
    where a pool would wait for it forever."""
    parent, ctx = os.getpid(), multiprocessing.get_context("fork")
    procs: list[Any] = []  # the processes, and each one's end of its pipe
    conns: list[Any] = []
    queue = deque(tasks)
    try:
        for _ in range(max(1, workers if more is not None else min(workers, len(tasks)))):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_forked_worker, args=(there, worker, parent), daemon=True)
            with stops_blocked():  # until the worker's own handlers are in place
                proc.start()
            there.close()  # this end is the worker's alone: its death is an EOF here
            procs.append(proc)
            conns.append(here)
        proc_of: dict[Any, Any] = dict(zip(conns, procs))
        busy: set[Any] = set()
        free = list(conns)  # with no task, first to last

        def hand_out() -> None:
            while free and queue:
                conn = free.pop(0)
                _send(conn, queue.popleft(), proc_of[conn])
                busy.add(conn)

        hand_out()
        while busy:
            ready: list[Any] = multiprocessing.connection.wait(list(busy), None if idle is None else 0.5)
            if not ready and idle is not None:
                idle()
            for conn in ready:
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):  # a worker dead before it read its task: reset, not EOF
                    raise _ended(proc_of[conn]) from None
                if not ok:  # the task's exception, raised here
                    raise value if isinstance(value, BaseException) else RuntimeError(value)
                busy.discard(conn)
                free.insert(0, conn)  # this one first: it has the tables at hand
                if more is not None:
                    queue.extendleft(reversed(more(value)))
                hand_out()
                if waiting is not None:
                    waiting(len(free) if busy else 0)
                yield value
    finally:
        for proc in procs:
            kill_tree(proc.pid)
        for proc in procs:
            proc.join()
        for conn in conns:
            conn.close()


def _ended(proc: Any) -> SatedgeError:
    proc.join(1)
    return SatedgeError(f"a worker process ended without an answer ({how_it_ended(proc.exitcode)})")


def _send(conn: Any, task: Any, proc: Any) -> None:
    try:
        conn.send(task)
    except OSError:  # the worker is gone: its end of the pipe closed
        raise _ended(proc) from None


def as_worker(parent: int) -> None:
    """Make this process, forked by ``parent`` with the stop signals blocked (:func:`stops_blocked`),
    a worker: Ctrl-C is the parent's, which kills its workers; SIGTERM and SIGHUP end it at once;
    and it ends with the parent, even when the parent is killed by SIGKILL."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    default_kill_signals()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    die_with_parent(parent)


def _forked_worker(conn: Connection, worker: Callable[[], Callable[[Any], Any]], parent: int) -> None:
    """A process of :func:`forked_map` (:func:`as_worker`)."""
    as_worker(parent)
    try:
        fn, broken = worker(), None
    except BaseException as e:
        fn, broken = None, e
    while True:
        try:
            task = conn.recv()
        except EOFError:
            os._exit(0)
        try:
            if fn is None:
                raise broken or RuntimeError("the worker made no function")
            answer = (True, fn(task))
        except BaseException as e:
            answer = (False, e)
        try:
            conn.send(answer)
        except Exception as e:
            conn.send((False, SatedgeError(f"a worker's answer could not be sent: {one_line_error(e)}")))


def popen(command: list[str], **kwargs: Any) -> subprocess.Popen:
    """Start a program (a solver binary) that the kernel kills when this process ends, even by
    SIGKILL: a binary cannot arrange that for itself, so it is set between fork and exec."""
    parent = os.getpid()
    return subprocess.Popen(command, preexec_fn=lambda: die_with_parent(parent), **kwargs)


def tree(pid: int) -> list[psutil.Process]:
    """Process ``pid`` and every process it started, recursively, that is still there."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def tree_memory_mb(procs: list[psutil.Process]) -> float:
    """Memory a process tree holds (MB): a lone process's resident size; with several, the sum of
    their proportional set sizes (Linux 4.14 and later; resident sizes elsewhere), so that a page
    several of them share counts once in all.  Reading PSS walks the page tables: about a
    millisecond per 100 MB."""
    total = 0
    for p in procs:
        try:
            if len(procs) == 1:
                total += p.memory_info().rss
            else:
                info = p.memory_full_info()
                total += getattr(info, "pss", info.rss)
        except psutil.Error:  # it ended meanwhile
            continue
    return total / 2**20


def tree_cpu_seconds(procs: list[psutil.Process]) -> float:
    """User plus system time of a process tree, with the children each process has waited for."""
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def kill_tree(pid: int) -> None:
    """SIGKILL to process ``pid``'s process group and to every descendant of it found (one that
    made a group of its own included)."""
    found = tree(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for p in found:
        try:
            p.kill()
        except psutil.Error:
            pass


# ---------------------------------------------------------------------------- scratch folders
@contextmanager
def scratch() -> Iterator[Path]:
    """A temporary folder ``satedge-PID-XXXXXXXX`` of this process's, removed when the block ends."""
    folder = Path(tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sweep(where: str | Path | None = None, prefix: str = SCRATCH) -> list[str]:
    """Remove the folders named ``prefix`` and then ``PID-...`` in ``where`` (default: the scratch
    folders ``satedge-PID-XXXXXXXX`` in the temporary folder) of processes that have ended without
    removing them (killed by SIGKILL); the names removed."""
    base = Path(where or tempfile.gettempdir())
    removed: list[str] = []
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    for d in entries:
        pid = d.name[len(prefix) :].split("-", 1)[0]
        if not (d.name.startswith(prefix) and pid.isdigit() and d.is_dir() and not d.is_symlink()):
            continue
        if psutil.pid_exists(int(pid)):
            continue
        shutil.rmtree(d, ignore_errors=True)
        removed.append(d.name)
    return removed


def one_line_error(e: BaseException) -> str:
    text = f"{e.__class__.__name__}: {e}" if str(e) else e.__class__.__name__
    return " ".join(text.split())


def how_it_ended(code: int | None) -> str:
    """A dead process's exit code in words."""
    if code is None or code >= 0:
        return f"exit status {code}" if code is not None else "it ended without an answer"
    return f"killed by signal {-code}" + (", perhaps by the kernel for lack of memory" if code == -9 else "")


# ---------------------------------------------------------------------------- supervising a job
class Stop(Exception):
    """The supervisor was told to end its job (by the parent, by the parent's death, by a kill):
    ``signum``, the signal that said so."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def supervise(fd: int, job: Callable[[int], None], parent: int) -> None:
    """The child :func:`satedge.system.process.call` starts: a supervisor in a process group of its own that starts the
    job's process (``job(supervisor)`` in a fork) and ends the job's whole tree when the job
    ends, when the parent tells it to (SIGTERM) and when the parent dies, even by SIGKILL (the
    kernel then sends it SIGTERM).  It is a subreaper: whatever the job started and left behind
    (a solver's wrapper killed, a ``setsid`` child, a solver's background child holding its
    output) becomes its child, so nothing escapes.  It ends as the job's process ended."""
    if os.getpgrp() != os.getpid():  # its own process group (a fresh child has a session of its own):
        os.setpgrp()  # a last-resort kill of the group reaches the job too
    become_subreaper()
    stops: list[int] = []

    def stop_here(
        signum: int, frame: FrameType | None
    ) -> None:  # the first signal stops the supervisor; later ones change nothing
        if not stops:
            stops.append(signum)
            raise Stop(signum)

    ends = STOPS
    for sig in ends:
        signal.signal(sig, stop_here)
    die_with_parent(parent, signal.SIGTERM)
    status = None
    try:  # Stop is raised once at most, wherever the signal finds the supervisor, even as it ends
        # a parent that forks a supervisor blocks the stops until its handlers are in place
        # (:func:`stops_blocked`): one that came meanwhile raises Stop here
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ends)
        try:
            # blocked across the fork: a signal that finds the supervisor in fork's own hooks
            # (logging's locks) would raise Stop where Python can only print and drop it
            signal.pthread_sigmask(signal.SIG_BLOCK, ends)
            pid = os.fork()
            if pid == 0:  # the job's process: the supervisor's handlers are not its own
                for sig in ends:
                    signal.signal(sig, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, ends)
                try:
                    job(os.getppid())
                finally:
                    os._exit(0)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, ends)  # one that came meanwhile raises Stop here
            os.close(fd)  # the job's alone: its death is the end of the pipe for the parent
            while status is None:
                got, st = os.waitpid(-1, 0)  # the job, or an orphan that became ours
                if got == pid:
                    status = st
        except ChildProcessError:
            pass
        finally:
            signal.pthread_sigmask(signal.SIG_BLOCK, ends)
    except Stop:
        pass
    for sig in ends:  # ignored, a pending one is dropped
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ends)
    end_descendants()
    stopped = stops[0] if stops else None
    if status is not None and os.WIFSIGNALED(status):  # end as the job ended: killed by the same signal
        stopped = os.WTERMSIG(status)
    if stopped is not None:  # or as it was told to end: by that signal
        if stopped != signal.SIGKILL:
            signal.signal(stopped, signal.SIG_DFL)
        os.kill(os.getpid(), stopped)
    os._exit(os.waitstatus_to_exitcode(status) if status is not None else 1)
