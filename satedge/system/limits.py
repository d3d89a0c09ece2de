"""A job's limits (wall-clock time and memory for its whole process tree, with their bounds, the
commands' default memory cap and the cores this process may use) and how a limited call ended.
:mod:`satedge.system.process` enforces them on the job's process tree; :func:`within` on the
process that starts it, while it reads the puzzle and prepares the job."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import psutil

from ..errors import EncodingError, OutOfMemory, SatedgeError
from .files import shown

__all__ = [
    "DEADLINE",
    "seconds_left",
    "GRACE",
    "OutOfTime",
    "OverMemory",
    "within",
    "MAX_TIMEOUT",
    "MAX_MEMORY_MB",
    "MAX_WORKERS",
    "OUTCOMES",
    "Limits",
    "Outcome",
    "default_memory_mb",
    "cores",
]

MAX_TIMEOUT = 10_000_000  # seconds: 116 days
MAX_MEMORY_MB = 10_000_000  # 10 TB
MAX_WORKERS = 1024


@dataclass(frozen=True)
class Limits:
    """A job's limits.

    Attributes
    ----------
    timeout : float or None
        Seconds of wall-clock time; then the job's whole process tree is killed (``TIMEOUT``).
    memory_mb : float or None
        MB for the job's whole process tree; past it the tree is killed (``MEMOUT``).

    ``None`` is no limit.  Values out of range raise :class:`SatedgeError`.
    """

    timeout: float | None = None
    memory_mb: float | None = None

    def __post_init__(self) -> None:
        for name, high in (("timeout", MAX_TIMEOUT), ("memory_mb", MAX_MEMORY_MB)):
            v = getattr(self, name)
            if v is not None and (
                isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < float("inf")
            ):
                raise SatedgeError(f"{name} must be a positive finite number, not {shown(v)}")
            if v is not None and v > high:
                raise SatedgeError(f"{name} must be at most {high:,}, not {v:,}")

    @property
    def unlimited(self) -> bool:
        return self.timeout is None and self.memory_mb is None


def default_memory_mb() -> int | None:
    """80% of the memory available now (the CLI's default cap), or ``None`` where psutil cannot tell."""
    try:
        return int(psutil.virtual_memory().available / 2**20 * 0.8)
    except (OSError, AttributeError, psutil.Error):
        return None


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


OUTCOMES = ("OK", "TIMEOUT", "MEMOUT", "ERROR")


@dataclass(frozen=True)
class Outcome:
    """How a :func:`call` ended (``status`` one of :data:`OUTCOMES`) and what it cost.

    * ``value``: what the job returned (``OK``);
    * ``error``: one line (``ERROR``); ``bad_input``: it was a :class:`SatedgeError`, ``wrong``:
      an :class:`EncodingError` (a solution the checker rejects), each raised again by
      :meth:`unwrap`; ``trace``: the traceback of any other exception;
    * ``notes``: what the job reported with its ``note`` callable before it ended (merged);
    * ``cpu_seconds``: user plus system time of the job's process tree; ``peak_mb``: the most
      memory the tree held when looked at (the measure of the cap).
    """

    status: str
    value: Any = None
    error: str | None = None
    bad_input: bool = False
    wrong: bool = False
    trace: str | None = None
    notes: dict = field(default_factory=dict)
    wall_seconds: float = 0.0
    cpu_seconds: float | None = None
    peak_mb: float | None = None
    limits: Limits = Limits()

    def unwrap(self, what: str = "the job") -> Any:
        """The job's value; beyond the memory cap :class:`OutOfMemory` ("``what`` needs more than
        N MB of memory"), past the time limit :class:`TimeoutError`, bad input the job's own
        :class:`SatedgeError`, a wrong answer an :class:`EncodingError`, the child's death a
        :class:`SatedgeError` that says how it died, and any other exception a
        :class:`RuntimeError` with the child's traceback (a bug to report)."""
        if self.status == "OK":
            return self.value
        if self.status == "MEMOUT":
            cap = self.limits.memory_mb
            raise OutOfMemory(
                f"{what} needs more than {cap:g} MB of memory" if cap else f"{what}: {self.error}", cap
            )
        if self.status == "TIMEOUT":
            raise TimeoutError(f"{what}: {self.error}")
        if self.wrong:
            raise EncodingError(self.error or "a wrong answer")
        if self.bad_input or self.trace is None:  # bad input, or the child died: one line
            raise SatedgeError(self.error or "the job ended without a word")
        raise RuntimeError(self.trace)


# the environment variable that gives a job's process its deadline (seconds since the epoch)
DEADLINE = "SATEDGE_DEADLINE"


def seconds_left() -> float | None:
    """The seconds this job's process has left before its ``--timeout`` (``None``: no timeout),
    from :data:`DEADLINE`, which :func:`satedge.system.process.call` sets in the job's process."""
    try:
        return float(os.environ[DEADLINE]) - time.time()
    except (KeyError, ValueError):
        return None


GRACE = 0.5  # seconds past a job's timeout before the process that started it stops waiting for it
LATER = 0.1  # seconds by which a limit's signal waits where its exception would be lost


def swallowing(frame: FrameType | None, collecting: bool = False, callbacks: tuple = ()) -> bool:
    """Whether an exception raised at ``frame`` would be lost: while the garbage collector runs
    (``collecting``: its ``__del__`` methods and weakref callbacks, and its own ``callbacks``,
    code objects), inside a ``__del__``, a callback of :mod:`weakref`'s sets and dictionaries or
    one of multiprocessing's finalizers (also run at exit), where Python prints it and goes on."""
    if collecting:
        return True
    while frame is not None:
        code = frame.f_code
        if (
            code in callbacks
            or code.co_name == "__del__"
            or code.co_filename.endswith(("/weakref.py", "/_weakrefset.py"))
            or (
                code.co_name in ("__call__", "_run_finalizers")
                and code.co_filename.endswith("multiprocessing/util.py")
            )
        ):
            return True
        frame = frame.f_back
    return False


class OutOfTime(Exception):
    """The time of a block under :func:`within` ran out in this process."""


class OverMemory(Exception):
    """This process held more than the memory cap of a block under :func:`within`."""


@contextmanager
def within(timeout: float | None, memory_mb: float | None) -> Iterator[Callable[[], float | None]]:
    """The block under a command's limits in the process that starts its job, as the job's
    process is under them (:func:`call`): an alarm at ``timeout`` seconds and a grace
    (:class:`OutOfTime`), and a look at this process's memory ten times a second
    (:class:`OverMemory` past ``memory_mb``).  The block gets a callable that says how many
    seconds are left (``None``: no limit), for the job it starts.  Off the main thread, where
    no signal can be caught, the block runs without them.  An alarm set around the block (a
    test runner's time limit) is not the block's: without ``timeout`` its signal stays with its
    own handler, and with one it is set again at the end for what it had left.  A signal that
    comes inside a finalizer, where its exception would be lost (:func:`swallowing`), is sent
    again a moment later."""
    start = time.monotonic()
    main = threading.current_thread() is threading.main_thread()
    handlers, stop, outer = {}, threading.Event(), (0.0, 0.0)

    ident = threading.get_ident()
    raised: set[int] = set()  # the signals whose exception was raised: a repeat is ignored
    deferred: set[int] = set()  # the signals sent again until raised

    def again(signum: int) -> None:  # the signal again, a moment apart, until it is raised
        while not stop.wait(LATER) and signum not in raised:
            signal.pthread_kill(ident, signum)

    collecting: list[bool] = []  # while the garbage collector runs, its callbacks first and last

    def collector(phase: str, info: dict) -> None:
        if phase == "start":
            collecting.append(True)

    def collected(phase: str, info: dict) -> None:
        if phase == "stop" and collecting:
            collecting.pop()

    def raise_(error: type[BaseException]) -> Callable[[int, FrameType | None], None]:
        def handler(signum: int, frame: FrameType | None) -> None:
            if signum in raised:
                return
            if swallowing(frame, bool(collecting), (collector.__code__, collected.__code__)):
                # where it would be lost: a moment later instead
                if signum not in deferred:
                    deferred.add(signum)
                    threading.Thread(target=again, args=(signum,), daemon=True).start()
                return
            raised.add(signum)
            raise error()

        return handler

    if main:
        gc.callbacks.insert(0, collector)
        gc.callbacks.append(collected)
        handlers[signal.SIGUSR1] = signal.signal(signal.SIGUSR1, raise_(OverMemory))
        if timeout is not None:  # an alarm of our own; one set by someone else is theirs to catch
            handlers[signal.SIGALRM] = signal.signal(signal.SIGALRM, raise_(OutOfTime))
            # the job stops itself first, at the timeout; an outer alarm is set again at the end
            outer = signal.setitimer(signal.ITIMER_REAL, timeout + GRACE)
        if memory_mb is not None:
            me = psutil.Process()

            def watch() -> None:
                while not stop.wait(0.1):
                    if me.memory_info().rss > memory_mb * 2**20:
                        signal.pthread_kill(ident, signal.SIGUSR1)
                        return

            threading.Thread(target=watch, daemon=True).start()
    try:
        if memory_mb is not None and psutil.Process().memory_info().rss > memory_mb * 2**20:
            raise OverMemory()  # past the cap already: a block that ends sooner than a look is refused too
        yield lambda: None if timeout is None else max(0.001, timeout - (time.monotonic() - start))
    finally:
        stop.set()
        if main:
            gc.callbacks.remove(collector)
            gc.callbacks.remove(collected)
            if timeout is not None:
                signal.setitimer(signal.ITIMER_REAL, 0)
            for sig, old in handlers.items():
                signal.signal(sig, old)
            if outer[0]:  # what was left of the alarm around the block, less the block's time
                left = max(0.001, outer[0] - (time.monotonic() - start))
                signal.setitimer(signal.ITIMER_REAL, left, outer[1])
