"""The satedge command, run many times from a warm process: the standard library's forkserver
imports satedge's CLI once and forks one process per command, so that a test of many commands
pays for one interpreter's start-up instead of one per command.  Each command still runs in a
process of its own, with its own working folder, address-space limit, standard streams and exit
status, as the ``satedge`` script runs it."""

import multiprocessing
import os
import resource
import sys
import tempfile
import traceback
from concurrent.futures import ThreadPoolExecutor


def _command(argv: list[str], cwd: str, address_space: int | None) -> tuple[int, str, str]:
    """In the forked process: the command in ``cwd``, stdin empty, its exit status and output."""
    os.chdir(cwd)
    if address_space:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        from satedge.cli import main

        try:
            code = main(argv)
        except SystemExit as e:  # as the interpreter turns it into a status
            code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        texts = []
        for f in (out, err):
            f.seek(0)
            texts.append(f.read().decode(errors="replace"))
    return code, texts[0], texts[1]


def _child(answer, argv: list[str], cwd: str, address_space: int | None) -> None:
    answer.send(_command(argv, cwd, address_space))
    answer.close()


def run_commands(
    commands: list[tuple[list[str], str]], *, workers: int = 2, hang: float, address_space: int | None = None
) -> list[tuple[int | None, str, str]]:
    """Each (argv, working folder) run as ``satedge ARGV`` there, ``workers`` at a time: its
    exit status, stdout and stderr, or (None, "", "still running after HANG s")."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["warm", "satedge.cli"])

    def one(command: tuple[list[str], str]) -> tuple[int | None, str, str]:
        ours, theirs = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(theirs, *command, address_space))
        process.start()
        theirs.close()
        try:
            if ours.poll(hang):
                return ours.recv()
            return None, "", f"still running after {hang} s"
        except EOFError:  # it died before it answered
            process.join()
            return process.exitcode, "", f"died with exit code {process.exitcode}"
        finally:
            process.kill()
            process.join()
            ours.close()

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(one, commands))
