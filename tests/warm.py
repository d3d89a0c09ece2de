"""The satedge command, run many times from a warm process: one interpreter imports satedge's CLI
once and forks a process per command, so that a test of many commands pays for one start-up
instead of one per command.  Each command still runs in a process of its own, with its own
working folder, address-space limit, standard streams and exit status, as the ``satedge`` script
runs it.  The warm process is a child of the test's, which waits for it: it leaves nothing
behind.

As a script (``python warm.py``) it reads the commands as JSON on stdin and writes the outcomes
as JSON on stdout; :func:`run_commands` is the test's side.
"""

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path


def run_commands(
    commands: list[tuple[list[str], str]], *, workers: int = 2, hang: float, address_space: int | None = None
) -> list[tuple[int | None, str, str]]:
    """Each (argv, working folder) run as ``satedge ARGV`` there, ``workers`` at a time: its
    exit status, stdout and stderr, or (None, "", "still running after HANG s")."""
    request = {"commands": commands, "workers": workers, "hang": hang, "address_space": address_space}
    r = subprocess.run(
        [sys.executable, str(Path(__file__))],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=hang * len(commands) + 60,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return [tuple(outcome) for outcome in json.loads(r.stdout)]


def _command(argv: list[str], cwd: str, address_space: int | None, out: int, err: int) -> None:
    """In the forked process: the command in ``cwd``, stdin empty, stdout and stderr to the files
    ``out`` and ``err``; ends the process with the command's exit status."""
    code = 1
    try:
        os.setsid()  # its own session, so that a command that hangs is stopped with all it started
        os.chdir(cwd)
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        from satedge.cli import main

        try:
            code = main(argv)
        except SystemExit as e:  # as the interpreter turns it into a status
            code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        except BaseException:
            traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def _serve(commands: list, workers: int, hang: float, address_space: int | None) -> list:
    import satedge.cli  # noqa: F401  (what every command imports, once)

    outcomes: list = [None] * len(commands)
    running: dict[int, tuple[int, int, int, float]] = {}  # pid -> index, stdout, stderr, start
    waiting = list(range(len(commands)))[::-1]
    with tempfile.TemporaryDirectory() as scratch:
        while waiting or running:
            while waiting and len(running) < workers:
                i = waiting.pop()
                out, err = (os.open(f"{scratch}/{i}.{s}", os.O_RDWR | os.O_CREAT) for s in ("out", "err"))
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _command(*commands[i], address_space, out, err)
                running[pid] = (i, out, err, time.monotonic())
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                for pid, (i, _, _, start) in running.items():
                    if time.monotonic() - start > hang and outcomes[i] is None:
                        os.killpg(pid, signal.SIGKILL)
                        outcomes[i] = (None, "", f"still running after {hang} s")
                time.sleep(0.01)
                continue
            i, out, err, _ = running.pop(pid)
            texts = []
            for fd in (out, err):
                with open(fd, "rb") as f:
                    f.seek(0)
                    texts.append(f.read().decode(errors="replace"))
            if outcomes[i] is None:
                outcomes[i] = (os.waitstatus_to_exitcode(status), *texts)
    return outcomes


if __name__ == "__main__":
    request = json.load(sys.stdin)
    json.dump(
        _serve(request["commands"], request["workers"], request["hang"], request["address_space"]), sys.stdout
    )
