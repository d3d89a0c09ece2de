import importlib.util
import os
import select
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

# CI (CI is set): derandomized and thorough; locally: quick.  SATEDGE_HYPOTHESIS picks either by name.
# Neither traces a failing example to explain it: under the tracer the compiled searches, called
# from Python step by step, ran for more than ten minutes before the failure was reported.
PHASES = [phase for phase in Phase if phase != Phase.explain]
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=300,
    deadline=None,
    print_blob=True,
    phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "dev", max_examples=60, deadline=None, phases=PHASES, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("SATEDGE_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent

# the searches the tests compile (satedge.backtrack.native) are not kept in the user's cache: `make
# test` names a folder in the venv, kept from one run to the next; where no cache is named, the run
# makes one of its own and removes it at its end.  Test workers (and the commands the tests start)
# inherit the folder of the run that started them
_CACHE = None
if not os.environ.get("SATEDGE_CACHE"):
    _CACHE = tempfile.mkdtemp(prefix="satedge-test-cache-")
    os.environ["SATEDGE_CACHE"] = _CACHE


# Dask's clusters keep their scratch space (and its lock files) in a folder of the run's, removed
# at its end, not in $TMPDIR.  Dask reads its variables as Python literals, so the path goes in
# quoted: bare, a random name such as one ending in "-0else" made every process that loads Dask
# print a SyntaxWarning, a second line on the standard error of a command that fails in one
def dask_value(text: str) -> str:
    """``text`` as a Dask variable gives it back, unchanged and with no warning."""
    return repr(text)


_SCRATCH = None
if not os.environ.get("DASK_TEMPORARY_DIRECTORY"):
    _SCRATCH = tempfile.mkdtemp(prefix="satedge-test-dask-")
    os.environ["DASK_TEMPORARY_DIRECTORY"] = dask_value(_SCRATCH)


# the files whose tests take minutes in all, run first: the suite's workers take whole files in
# the order they are collected, and one of these begun last kept its worker busy for three minutes
# after the others had ended
FIRST = ("test_documented_commands_run.py", "test_encodings.py", "test_documented_python_runs.py")


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: item.path.name not in FIRST)  # stable: the order within each kept


@pytest.hookimpl(trylast=True)  # after pytest has removed the folders of the tests that passed
def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):  # a worker: the run's own process cleans up
        return
    for made in (_CACHE, _SCRATCH):
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
    # pytest keeps a failed test's tmp_path (tmp_path_retention_policy); the folder of the user's
    # runs around them goes where it is left empty
    base = getattr(getattr(session.config, "_tmp_path_factory", None), "_basetemp", None)
    for folder in (base, base.parent) if base is not None else ():
        try:
            folder.rmdir()
        except OSError:
            pass


def benchmark_script(name: str):
    """The module of ``benchmarks/NAME/bench-NAME.py`` (a benchmark's script: its report is
    recomputed from its rows)."""
    path = ROOT / "benchmarks" / name / f"bench-{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prose(path: Path) -> str:
    """The words of a text file, each run of white space one space: a sentence it quotes is found
    however the file wraps it."""
    return " ".join(path.read_text().split())


PUZZLES = ROOT / "puzzles"
SEEDS = {
    "hunde-spiel": (16, 8, 2),
    "insects": (4, 4, 1),
    "scramble-squares": (4, 4, 1),
    "one-tough-puzzle": (4, 4, 1),
}


def benchmarks_dir() -> Path:
    """As satedge.experiment.spec.benchmarks(), but the default is taken from the project's folder, not
    the working directory, so that pytest finds ../shared from anywhere."""
    return Path(os.environ.get("SATEDGE_BENCHMARKS") or ROOT.parent / "shared" / "benchmarks")


@pytest.fixture
def benchmarks() -> Path:
    d = benchmarks_dir()
    if not d.is_dir():
        pytest.skip(f"benchmark instances not found at {d} (set SATEDGE_BENCHMARKS)")
    return d


@pytest.fixture
def engines_of(monkeypatch):
    """Bring in toy engines of :mod:`toy_engines` as a user brings in engines of their own,
    by ``$SATEDGE_ENGINES``: ``engines_of("BRUTE", "TOYMAX")``; returns their declarations."""
    import toy_engines

    def add(*names: str):
        monkeypatch.setenv("SATEDGE_ENGINES", ",".join(f"{toy_engines.__file__}:{n}" for n in names))
        from satedge.jobs.registry import engines

        found = engines()
        return [found[getattr(toy_engines, n).name] for n in names]

    return add


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process: returns (exit status, stdout, stderr)."""
    from satedge.cli import main

    def run(*argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _stat(pid) -> list[str]:
    """The fields of /proc/PID/stat after the command name: state, ppid, pgrp, ..."""
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (an orphan's may wait for a reaper)."""
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def children(parent: int, command: bytes = b"") -> list[int]:
    """The processes whose parent is ``parent`` (and whose command line holds ``command``)."""
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if int(_stat(d)[1]) == parent and command in open(f"/proc/{d}/cmdline", "rb").read():
                    found.append(int(d))
            except (OSError, ValueError, IndexError):
                continue
    return found


def wait_until(condition, seconds: float):
    """Poll ``condition()`` every 0.05 s until it is true or ``seconds`` have passed; its last value."""
    deadline = time.monotonic() + seconds
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


def read_terminal(proc, terminal: int, enough, seconds: float) -> str:
    """What ``proc`` writes to the pseudo-terminal ``terminal`` (its end that the test reads), until
    it ends, ``seconds`` pass or what it wrote is ``enough``."""
    seen, t0 = b"", time.monotonic()
    while time.monotonic() - t0 < seconds and not enough(seen.decode("utf-8", "replace")):
        if select.select([terminal], [], [], 0.2)[0]:
            try:
                seen += os.read(terminal, 65536)
            except OSError:
                break
        elif proc.poll() is not None:
            break
    return seen.decode("utf-8", "replace")


def sigint_default() -> None:
    """``preexec_fn`` of a command a test stops with SIGINT: Ctrl-C's default for it even when the
    suite itself runs in the background, where SIGINT is ignored and children inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def small_command_seconds() -> float:
    """The wall time of a small satedge command here, now (counting Hunde-Spiel's solutions through
    SAT, start-up included): a test's bound on wall time is a multiple of it, so that it holds on
    a loaded machine as on an idle one, and checks what was done, not how fast."""
    import subprocess
    import sys

    t0 = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "satedge", "count", str(PUZZLES / "hunde-spiel.yaml"), "--method", "sat"],
        capture_output=True,
        timeout=600,
    )
    return time.monotonic() - t0


@pytest.fixture(scope="module")
def scheduler():
    """The address of a Dask LocalCluster of two single-threaded worker processes (extra dist)."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as lc:
        yield lc.scheduler_address


def covers(base: str, puzzle) -> bool:
    """Whether the base encoding ``base`` takes ``puzzle``: Heule's needs a frame and two rows and columns."""
    return base != "heule" or (puzzle.frame is not None and puzzle.rows > 1 and puzzle.cols > 1)
