"""Runs started from a warm process (satedge.system.forkserver): the same limits, the same isolation,
nothing left behind."""

import os
import signal
import socket
import time

import pytest
from conftest import alive, children, wait_until

from satedge.system.forkserver import ForkServer
from satedge.system.process import Limits, call


def _kill_myself() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _leave_a_child_behind() -> int:
    pid = os.fork()
    if pid == 0:
        os.setsid()
        time.sleep(60)
        os._exit(0)
    return pid


@pytest.fixture
def server():
    with ForkServer() as s:
        yield s
    assert children(os.getpid(), b"satedge.system.forkserver import serve") == []


def test_a_run_answers_as_a_fresh_one_does(server):
    fresh = call(sum, ([1, 2, 3],), Limits(timeout=30), fresh=True)
    served = [call(sum, ([1, 2, 3],), Limits(timeout=30), server=server) for _ in range(3)]
    assert [(o.status, o.value) for o in served] == [(fresh.status, fresh.value)] * 3 == [("OK", 6)] * 3


@pytest.mark.slow
def test_a_run_is_killed_at_its_timeout_and_at_its_memory_cap(server):
    t0 = time.monotonic()
    slow = call(time.sleep, (60,), Limits(timeout=1), server=server)
    assert slow.status == "TIMEOUT" and time.monotonic() - t0 < 10
    big = call(bytearray, (3 * 10**9,), Limits(timeout=60, memory_mb=300), server=server)
    assert (big.status, big.error) == ("MEMOUT", "more than 300 MB of memory")


@pytest.mark.slow
def test_a_run_that_crashes_costs_one_run(server):
    died = call(_kill_myself, (), Limits(timeout=30), server=server)
    assert (died.status, died.error) == (
        "ERROR",
        "the solving process died (killed by signal 9, perhaps by the kernel for lack of memory)",
    )
    exited = call(os._exit, (7,), Limits(timeout=30), server=server)
    assert (exited.status, exited.error) == ("ERROR", "the solving process died (exit status 7)")
    assert call(sum, ([2, 2],), Limits(timeout=30), server=server).value == 4


@pytest.mark.slow
def test_what_a_run_leaves_behind_ends_with_it(server):
    left = call(_leave_a_child_behind, (), Limits(timeout=30), server=server).value
    wait_until(lambda: not alive(left), 10)
    assert not alive(left)


@pytest.mark.slow
def test_a_server_that_died_is_started_again(server):
    assert call(sum, ([1],), Limits(timeout=30), server=server).value == 1
    first = server.proc.pid
    os.kill(first, signal.SIGKILL)
    server.proc.wait()
    assert call(sum, ([5],), Limits(timeout=30), server=server).value == 5
    assert server.proc.pid != first


def _server(module: str, env=None):
    """A warm process started as ``ForkServer`` starts one, importing ``module``: the process,
    and our end of its socket."""
    import subprocess
    import sys

    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from satedge.system.forkserver import serve; serve()",
            str(theirs.fileno()),
            str(os.getpid()),
            module,
        ],
        pass_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    theirs.close()
    return proc, ours


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.0, 0.3, 3.0])
def test_a_server_ended_by_sigterm_says_nothing_at_any_moment(after):
    """Before: a SIGTERM that landed while the server was exiting (say, as a full disk ended
    ``satedge run``) raised SystemExit in its handler, printed as a 12-line traceback."""
    proc, ours = _server("satedge.cli")
    time.sleep(after)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    ours.close()
    assert (proc.returncode in (0, -signal.SIGTERM), err) == (True, b"")


def test_a_sigterm_that_lands_in_a_finalizer_of_the_server_says_nothing(tmp_path):
    """Before: the server's SIGTERM handler raised SystemExit wherever the signal landed; in a
    finalizer (as when a full disk ended ``satedge run``) Python printed it as a traceback on the
    client's stderr. A module the server imports runs a finalizer that waits for the signal."""
    import sys

    (tmp_path / "finalizer_waits.py").write_text(
        "import sys, time, weakref\n"
        "class Thing:\n    pass\n"
        "thing = Thing()\n"
        "def slow():\n    sys.stderr.write('in the finalizer\\n'); sys.stderr.flush(); time.sleep(30)\n"
        "weakref.finalize(thing, slow)\n"
        "del thing\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    proc, ours = _server("finalizer_waits", env)
    assert proc.stderr.readline() == b"in the finalizer\n"
    proc.send_signal(signal.SIGTERM)
    ours.close()
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode in (0, -signal.SIGTERM), err) == (True, b"")
