"""A warm process that starts jobs: a Python interpreter started once, with the modules a run
needs already imported, that forks each run's supervisor on request.  A run started from it is
what :func:`satedge.system.process.call` with ``fresh=True`` starts (a process of its own, its own
session, its stderr in a file, its job pickled on its stdin, the same limits), without the
cost of a new interpreter and its imports.

The server is the parent of the supervisors it forks: it reaps each and sends its exit status
back on a pipe of that run's own.  It ends when the process that started it closes the
connection or dies (the kernel's parent-death signal), and its supervisors end with it (theirs):
nothing survives.  A server that died is started again for the next run.
"""

from __future__ import annotations

import importlib
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading

from ..errors import SatedgeError
from .process import fresh_main
from .proctree import die_with_parent

__all__ = ["WARM", "ForkServer", "serve"]

WARM = ("satedge.jobs", "satedge.experiment.rows")  # what a run imports: the engines, the encodings, PySAT


def _start_child(fds: list[int], sock: socket.socket, inherited: list[int]) -> None:
    """In the forked child: the run's standard streams, then the supervisor (never returns)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the server's: it would end the other runs
    try:
        answer, stderr, stdin = fds
        sock.close()
        for fd in inherited:
            os.close(fd)
        signal.set_wakeup_fd(-1)
        os.setsid()
        os.dup2(stdin, 0)
        os.dup2(stderr, 2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        for fd in (stdin, stderr, null):
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        sys.argv = ["satedge-run", str(answer)]
        fresh_main(served=True)
    finally:
        os._exit(1)


def serve() -> None:
    """The server's main loop (``python -c 'from satedge.system.forkserver import serve; serve()'
    FD PARENT MODULES...``)."""
    fd, parent, modules = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    running: dict[int, int] = {}  # pid -> the write end of its status pipe

    def end(*_: object) -> None:
        # the supervisors end their jobs; then this process ends at once: a SystemExit raised
        # here could land in an atexit callback or a finalizer, which print it as a traceback
        _end_all(running)
        os._exit(0)

    die_with_parent(parent, signal.SIGTERM)
    signal.signal(signal.SIGTERM, end)
    for name in modules:
        importlib.import_module(name)
    sock = socket.socket(fileno=fd)
    woken, wake = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)  # a supervisor's end wakes the loop at once
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    try:
        while True:
            ready = select.select([sock.fileno(), woken], [], [], 1.0)[0]
            if woken in ready:
                os.read(woken, 4096)
            _reap(running)
            if sock.fileno() not in ready:
                continue
            try:
                _, fds, _, _ = socket.recv_fds(sock, 16, 4)
            except OSError:
                return
            if not fds:  # the client closed the connection
                return
            *run_fds, status = fds
            pid = os.fork()
            if pid == 0:
                _start_child(run_fds, sock, [status, *running.values(), woken, wake])
            for f in run_fds:
                os.close(f)
            running[pid] = status
            sock.sendall(struct.pack("!q", pid))
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # from here SIGTERM just ends the process
        _end_all(running)


def _end_all(running: dict[int, int]) -> None:
    """SIGTERM to every supervisor still running: they end their jobs."""
    for pid in list(running):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def _reap(running: dict[int, int]) -> None:
    while running:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        out = running.pop(pid, None)
        if out is not None:
            try:
                os.write(out, struct.pack("!q", os.waitstatus_to_exitcode(status)))
            except OSError:  # nobody reads it any more
                pass
            os.close(out)


class ForkServer:
    """The client's side: :meth:`spawn` starts a run's supervisor from the warm process and gives
    its pid and the read end of its status pipe.  Safe to share between threads; a context
    manager that ends the server."""

    def __init__(self, modules: tuple[str, ...] = WARM):
        self.modules = modules
        self.lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        self.sock: socket.socket | None = None

    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from satedge.system.forkserver import serve; serve()",
                str(theirs.fileno()),
                str(os.getpid()),
                *self.modules,
            ],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        theirs.close()
        self.sock = ours

    def spawn(self, answer: int, stderr: int, stdin: int) -> tuple[int, int]:
        """Start a supervisor with these descriptors as its answer pipe, stderr and stdin: its pid
        and the read end of the pipe its exit code comes on."""
        status_r, status_w = os.pipe()
        try:
            with self.lock:
                for _ in (1, 2):  # a server that died is started again, once
                    if self.proc is None or self.proc.poll() is not None:
                        self.close_locked()
                        self._start()
                    self.wake()
                    try:
                        if self.sock is None:
                            raise OSError("the fork server has no socket")
                        socket.send_fds(self.sock, [b"run"], [answer, stderr, stdin, status_w])
                        reply = self.sock.recv(8, socket.MSG_WAITALL)  # its pid, once it has forked
                        if len(reply) == 8:
                            return struct.unpack("!q", reply)[0], status_r
                    except OSError:
                        pass
                    self.close_locked()
            raise SatedgeError("the process that starts runs died")
        except BaseException:
            os.close(status_r)
            raise
        finally:
            os.close(status_w)

    def wake(self) -> None:
        """SIGCONT to the server: one that was stopped (kill -STOP, a frozen container) forks,
        reaps and answers again."""
        if self.proc is not None:
            try:
                os.kill(self.proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass

    def close_locked(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.proc is not None:
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def close(self) -> None:
        with self.lock:
            self.close_locked()

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
