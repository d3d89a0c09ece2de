"""The one limits layer (satedge.system.process): the same measure, kill and statuses for a command's
job and an experiment's run, and nothing left behind by a killed parent."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, alive, small_command_seconds, wait_until

from satedge.errors import SatedgeError
from satedge.experiment.rows import read_results
from satedge.experiment.runner import run_experiment
from satedge.experiment.spec import load_spec
from satedge.system import proctree
from satedge.system.process import Limits, call

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


def _sleep(seconds):
    time.sleep(seconds)
    return seconds


def _hold(mb):
    block = bytearray(mb * 2**20)
    block[::4096] = b"x" * len(block[::4096])
    time.sleep(30)


def _bad():
    raise SatedgeError("no tiles", "p.yaml")


def _spin(seconds):
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        pass
    return "done"


@pytest.mark.slow
@pytest.mark.parametrize("fresh", [False, True], ids=["forked", "fresh"])
def test_one_classification_whichever_way_the_child_starts(fresh):
    """A forked child (a command's job) and a fresh interpreter (an experiment's run) end the same
    way: OK with the value, TIMEOUT, MEMOUT, or ERROR with the job's own message."""
    ok = call(_spin, (2.0,), Limits(timeout=30), fresh=fresh)
    assert (ok.status, ok.value) == ("OK", "done") and ok.peak_mb > 5
    # the child's own CPU: its 2 s of spinning, and no more than a child that spins for none takes
    # to start (a fresh interpreter's imports are seconds of CPU on a loaded machine) and 1.5 s
    idle = call(_spin, (0.0,), Limits(timeout=30), fresh=fresh)
    assert 1.95 < ok.cpu_seconds < idle.cpu_seconds + 2.0 + 1.5, (ok.cpu_seconds, idle.cpu_seconds)
    unit = small_command_seconds()
    t0 = time.monotonic()
    late = call(_sleep, (60,), Limits(timeout=1), fresh=fresh)
    assert (late.status, late.error) == (
        "TIMEOUT",
        "no answer in 1 s",
    ) and time.monotonic() - t0 < 1 + 2 + 2 * unit
    big = call(_hold, (400,), Limits(memory_mb=250), fresh=fresh)
    assert (big.status, big.error) == ("MEMOUT", "more than 250 MB of memory") and big.peak_mb > 250
    bad = call(_bad, (), Limits(timeout=30), fresh=fresh)
    assert (bad.status, bad.error, bad.bad_input) == ("ERROR", "p.yaml: no tiles", True)
    with pytest.raises(SatedgeError, match="^p.yaml: no tiles$"):
        bad.unwrap()


def test_limits_are_checked():
    with pytest.raises(SatedgeError, match=r"^timeout must be a positive finite number, not 0$"):
        Limits(timeout=0)
    with pytest.raises(SatedgeError, match=r"^memory_mb must be a positive finite number, not inf$"):
        Limits(memory_mb=float("inf"))


def _spec(
    tmp_path,
    solvers,
    memory,
    timeout=60,
    puzzles="[{generate: {rows: 5, colors: 5, border_colors: 2, frame: true, seeds: [1]}}]",
):
    f = tmp_path / "spec.yaml"
    f.write_text(
        f"name: limits\npuzzles: {puzzles}\nencodings: [edgecolor-corners]\nsolvers: {solvers}\n"
        f"timeout: {timeout}\nmemory: {memory}\n"
    )
    return f


@pytest.mark.slow
def test_a_spec_with_300_mb_runs_every_engine(tmp_path):
    """Before: under `memory: 300` (an address-space cap) the compiled backtracker ended as
    `ERROR OSError: Could not find/load shared object file 'libllvmlite.so'`; the cap now
    measures what the run's processes hold, as `--memory` does."""
    spec = load_spec(_spec(tmp_path, '[backtrack, "backtrack:workers=2", cadical195, cpsat]', 300))
    run_experiment(spec, tmp_path / "out", workers=1)
    rows = read_results(tmp_path / "out" / "results.jsonl")
    assert sorted((r["solver"], r["status"]) for r in rows) == [
        ("backtrack", "SAT"),
        ("backtrack:workers=2", "SAT"),
        ("cadical195", "SAT"),
        ("cpsat", "SAT"),
    ]
    measured = [(r["solver"], r["peak_memory_mb"], r["cpu_seconds"]) for r in rows]
    assert all(0 < mb < 300 and cpu > 0 for _, mb, cpu in measured), measured


def test_direct_pairwise_on_eternity2_beyond_1500_mb(run_cli, tmp_path):
    """The same cap, the same verdict: an experiment run is MEMOUT; `solve` and `encode` end with
    one line naming the cap, and write nothing."""
    e2 = PUZZLES / "eternity2" / "e2.yaml"
    spec = _spec(tmp_path, "[cadical195]", 1500, puzzles=f"[{e2}]").read_text()
    (tmp_path / "spec.yaml").write_text(spec.replace("edgecolor-corners", "direct-pairwise"))
    run_experiment(load_spec(tmp_path / "spec.yaml"), tmp_path / "out")
    (row,) = read_results(tmp_path / "out" / "results.jsonl")
    assert (row["status"], row["variables"], row["clauses"]) == ("MEMOUT", 156816, 332688964)
    assert row["error"] == (
        "encoding direct-pairwise needs more than 1500 MB of memory: its 332,688,964 clauses of "
        "665,690,536 literals take at least 40,622 MB"
    )  # known before it is built
    assert run_cli("solve", e2, "--encoding", "direct-pairwise", "--memory", "1500") == (
        2,
        "",
        f"satedge: error: {e2}: solving needs more than 1500 MB of memory (--memory MB to allow more)\n",
    )
    out = tmp_path / "e2.cnf"
    assert run_cli("encode", e2, "--encoding", "direct-pairwise", "--memory", "1500", "-o", out) == (
        2,
        "",
        f"satedge: error: {e2}: encoding direct-pairwise needs more than 1500 MB of memory: its 60,245,976 or "
        "more clauses of 120,648,256 or more literals take at least 7,360 MB (--memory MB to allow more)\n",
    )
    assert not out.exists()


def _slow_solver(tmp_path) -> dict:
    """A 'solver binary' that sleeps, on PATH, and an environment whose TMPDIR is in tmp_path."""
    bin_dir, tmp = tmp_path / "bin", tmp_path / "tmp"
    bin_dir.mkdir()
    tmp.mkdir()
    (bin_dir / "slowsat").write_text("#!/bin/sh\nexec sleep 300\n")
    (bin_dir / "slowsat").chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "TMPDIR": str(tmp)}


def _descendants(pid: int) -> list[int]:
    return [p.pid for p in proctree.tree(pid)[1:]]


def _left_behind(before: list[int]) -> list[int]:
    """This process's descendants that were not there ``before`` (a test worker may hold others
    from tests before it: multiprocessing's resource tracker, a module's Dask cluster)."""
    return [p for p in _descendants(os.getpid()) if p not in before]


def _kill_9_leaves_nothing(command: list[str], env: dict) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", *command],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_until(
            lambda: any(
                b"sleep" in open(f"/proc/{p}/cmdline", "rb").read()
                for p in _descendants(proc.pid)
                if alive(p)
            ),
            60,
        ), proc.stderr
        found = _descendants(proc.pid)
        scratch = list(Path(env["TMPDIR"]).glob("satedge-*"))
        assert scratch  # the formula the binary was given lies there
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        # before: the binary went on, reparented to init, with no timeout
        assert wait_until(lambda: not any(map(alive, found)), 5), [p for p in found if alive(p)]
    finally:
        proc.kill()
    assert all(p.exists() for p in scratch)
    r = subprocess.run(
        [sys.executable, "-m", "satedge", "count", str(PUZZLES / "insects.yaml")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert list(Path(env["TMPDIR"]).iterdir()) == []  # the next command removed the dead one's folders


@pytest.mark.slow
def test_kill_9_of_solve_with_a_solver_binary_leaves_nothing(tmp_path):
    env = _slow_solver(tmp_path)
    _kill_9_leaves_nothing(["solve", str(PUZZLES / "hunde-spiel.yaml"), "--solver-cmd", "slowsat"], env)


@pytest.mark.slow
def test_kill_9_of_run_with_a_cmd_solver_leaves_nothing(tmp_path):
    env = _slow_solver(tmp_path)
    spec = _spec(tmp_path, '["cmd:slowsat"]', 1000, timeout=300)
    _kill_9_leaves_nothing(["run", str(spec), "--out", str(tmp_path / "out"), "--workers", "1"], env)


@pytest.mark.slow
def test_a_timeout_kills_the_solver_binary_too(run_cli, tmp_path, monkeypatch):
    env = _slow_solver(tmp_path)
    unit = small_command_seconds()
    monkeypatch.setenv("PATH", env["PATH"])
    before = _descendants(os.getpid())
    t0 = time.monotonic()
    code, out, err = run_cli(
        "solve", PUZZLES / "hunde-spiel.yaml", "--solver-cmd", "slowsat", "--timeout", "1", "--json"
    )
    assert (code, json.loads(out)["status"], err) == (3, "TIMEOUT", "")
    assert time.monotonic() - t0 < 1 + 2 + 2 * unit
    assert _left_behind(before) == []


def test_sweep_removes_only_the_folders_of_ended_processes(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    gone = tmp_path / f"satedge-{int(dead.stdout)}-abcd1234"
    mine = tmp_path / f"satedge-{os.getpid()}-abcd1234"
    other = tmp_path / "satedge-notapid"
    for d in (gone, mine, other):
        d.mkdir()
    (gone / "formula.cnf").write_text("p cnf 1 1\n1 0\n")
    assert proctree.sweep(str(tmp_path)) == [gone.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name])


@pytest.mark.slow
def test_every_listed_solver_counts_hunde_spiel(run_cli):
    """`satedge solvers` lists only solvers that work here; each counts Hunde-Spiel's 16, 8 and 2
    (before: cryptosat and minisatgh were listed and failed)."""
    code, out, _ = run_cli("solvers", "--json")
    listed = json.loads(out)
    assert code == 0 and "cadical195" in listed["pysat"]
    hunde = PUZZLES / "hunde-spiel.yaml"
    commands = [["--solver", s] for s in listed["pysat"]] + [["--solver-cmd", b] for b in listed["binaries"]]
    for extra in commands:
        code, out, err = run_cli("count", hunde, "--json", *extra)
        assert code == 0, err
        assert [json.loads(out)[k] for k in ("solutions", "distinct", "unique")] == [16, 8, 2], extra


def test_a_solver_pysat_names_but_cannot_run_is_refused(run_cli):
    from pysat.solvers import SolverNames

    from satedge.sat.solvers import solver_names

    broken = [n for n in vars(SolverNames) if not n.startswith("_") and n not in solver_names()]
    if not broken:
        pytest.skip("every solver PySAT names works here")
    code, out, err = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--solver", broken[0])
    assert (code, out) == (2, "") and err.startswith(
        f"satedge: error: unknown solver {broken[0]!r}; choose a PySAT solver "
    )


def _racer():
    """Each task sleeps until a shared moment and answers then: every worker sends at once."""

    def fn(task):
        start, i = task
        time.sleep(max(0.0, start - time.time()))
        return i

    return fn


@pytest.mark.slow
def test_forked_map_survives_a_race_it_stops():
    """Two workers that answer at the same moment, the first answer taken and the rest killed, 150
    times over: multiprocessing.Pool's terminate() hung for good in such a race (a worker killed
    while it held the lock of the result queue)."""
    before = _descendants(os.getpid())
    for _ in range(150):
        start = time.time() + 0.01
        race = proctree.forked_map(_racer, [(start, 0), (start, 1)], 2)
        assert next(race) in (0, 1)
        race.close()
    assert _left_behind(before) == []


def test_forked_map_takes_the_tasks_a_result_brings_and_says_who_waits():
    # a task n > 0 brings back n - 1 twice: from [3], 1 + 2 + 4 + 8 tasks; 2 processes, one idle
    # at the start (a single task) and at the end
    idle: list[int] = []
    done = list(
        proctree.forked_map(
            lambda: lambda n: n, [3], 2, more=lambda n: [n - 1] * 2 if n else [], waiting=idle.append
        )
    )
    assert sorted(done) == [0] * 8 + [1] * 4 + [2] * 2 + [3]
    assert len(idle) == 15 and idle[0] == 0 and idle[-1] == 0 and set(idle) <= {0, 1}


def test_forked_map_gives_every_answer_and_reports_failures():
    before = _descendants(os.getpid())
    assert sorted(proctree.forked_map(lambda: lambda x: x * x, list(range(20)), 3)) == [
        x * x for x in range(20)
    ]
    assert list(proctree.forked_map(lambda: lambda x: x, [], 2)) == []

    def crash():
        return lambda x: os._exit(7) if x == 3 else x

    with pytest.raises(SatedgeError, match=r"^a worker process ended without an answer \(exit status 7\)$"):
        list(proctree.forked_map(crash, list(range(6)), 2))

    def failing():
        return lambda x: _bad() if x == 2 else x

    with pytest.raises(SatedgeError, match="no tiles"):
        list(proctree.forked_map(failing, list(range(4)), 2))

    def broken():
        raise ValueError("no solver here")

    with pytest.raises(ValueError, match="no solver here"):
        list(proctree.forked_map(broken, [1, 2], 2))
    assert _left_behind(before) == []


SUPERVISOR_TOLD_TWICE = """
import os, signal, time
from satedge.system.proctree import supervise

r, w = os.pipe()


def job(supervisor):  # stops that keep coming while the supervisor ends (until it kills the sender)
    if os.fork() == 0:
        while True:
            os.kill(supervisor, signal.SIGTERM)
    time.sleep(5)


supervise(w, job, os.getppid())
"""


@pytest.mark.parametrize("attempt", range(5))
def test_a_supervisor_told_to_stop_many_times_ends_by_that_signal_without_a_word(attempt):
    """A stop that came while the supervisor was already ending raised again in its clean-up and
    printed a traceback (seen once in the suite: `solve --certify`)."""
    r = subprocess.run(
        [sys.executable, "-c", SUPERVISOR_TOLD_TWICE], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stderr) == (-signal.SIGTERM, "")


SUPERVISOR_TOLD_IN_FORK = """
import os, signal, sys
from satedge.system.proctree import supervise

me = os.getpid()


def told():  # the supervisor's fork of its job is still returning when the parent tells it to stop
    if os.getpid() == me:
        os.kill(me, signal.SIGTERM)


os.register_at_fork(after_in_parent=told)
r, w = os.pipe()
supervise(w, lambda supervisor: sys.stdout.write("job ran\\n"), os.getppid())
"""


def test_a_supervisor_told_to_stop_while_it_forks_ends_by_that_signal_without_a_word():
    """A stop that came while the supervisor's fork was running its hooks (a job that answered at
    once, its parent reaping) raised in logging's fork hook, where Python prints it and drops it
    (seen once in the suite: `count --order spiral` under load); it now waits for the fork to end."""
    r = subprocess.run(
        [sys.executable, "-c", SUPERVISOR_TOLD_IN_FORK], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stderr) == (-signal.SIGTERM, "")


TOLD_BEFORE_ITS_HANDLERS = """
import os, signal
from satedge.system import process
from satedge.system.limits import Limits

me = os.getpid()


def stop(signum, frame):  # as the command line's handler does
    raise SystemExit(128 + signum)


def told():  # the parent stops its new supervisor before the supervisor's handlers are in place
    if os.getppid() == me:
        os.kill(os.getpid(), signal.SIGTERM)


signal.signal(signal.SIGTERM, stop)
os.register_at_fork(after_in_child=told)
try:
    out = process.call(sum, ([1, 2],), Limits(timeout=30))
    print("parent", out.status, out.value)
except SystemExit:
    print("a copy of the parent" if os.getpid() != me else "the parent stopped")
"""


def test_a_supervisor_stopped_as_it_starts_runs_none_of_its_parents_handlers():
    """A stop that reached a forked supervisor before it set its own handlers ran the parent's
    (the command line's SystemExit) in a copy of the parent: seen once under load, where
    `render --solve --memory 1` stopped its child at once and the copy went on as the test run."""
    r = subprocess.run(
        [sys.executable, "-c", TOLD_BEFORE_ITS_HANDLERS], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stdout, r.stderr) == (0, "parent ERROR None\n", "")


WORKER_TOLD_BEFORE_ITS_HANDLERS = """
import os, signal
from satedge.system import proctree
from satedge.errors import SatedgeError

me = os.getpid()


def stop(signum, frame):  # as the command line's handler does
    raise SystemExit(128 + signum)


def told():
    if os.getppid() == me:
        os.kill(os.getpid(), signal.SIGTERM)


signal.signal(signal.SIGTERM, stop)
os.register_at_fork(after_in_child=told)
try:
    print(list(proctree.forked_map(lambda: abs, [-1], 1)))
except SatedgeError as e:
    print(e)
except SystemExit:
    print("a copy of the parent" if os.getpid() != me else "the parent stopped")
"""


def test_a_worker_stopped_as_it_starts_ends_by_that_signal():
    r = subprocess.run(
        [sys.executable, "-c", WORKER_TOLD_BEFORE_ITS_HANDLERS], capture_output=True, text=True, timeout=60
    )
    assert (r.returncode, r.stdout, r.stderr) == (
        0,
        "a worker process ended without an answer (killed by signal 15)\n",
        "",
    )


def test_a_memory_cap_below_what_the_process_holds_is_refused_however_soon_the_job_ends(run_cli):
    """Before: the first look at memory came after 0.1 s, so a count that ended sooner answered."""
    assert run_cli("count", "hunde-spiel", "--memory", "1") == (
        2,
        "",
        "satedge: error: hunde-spiel: reading and preparing its job needs more than 1 MB of memory "
        "(--memory MB to allow more)\n",
    )


def test_reading_a_small_file_under_a_large_limit_allocates_what_it_holds(tmp_path):
    """Before: ``read(limit + 1)`` allocated the whole limit (16 GiB for a proof), a MemoryError
    under ``ulimit -v``."""
    import subprocess
    import sys

    path = tmp_path / "small.drat"
    path.write_bytes(b"1 2 0\n" * 1000)
    code = (
        "import resource, sys; from satedge.system.files import read_bytes; "
        "resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30)); "
        f"sys.stdout.write(str(len(read_bytes({str(path)!r}, 2**34))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "6000", "")


def test_the_command_limits_leave_an_alarm_set_around_them_to_its_own_handler():
    """A test runner's time limit (an alarm around the command) is not the command's: a block
    without a timeout leaves its signal to its handler (a count over Slurm once said TIMEOUT
    where pytest-timeout's alarm rang), and one with a timeout sets it again when it ends."""
    from satedge.system.limits import OutOfTime, within

    rang: list[int] = []
    before = signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with within(None, None):
            assert wait_until(lambda: rang, 5)
        assert rang == [signal.SIGALRM]
        signal.setitimer(signal.ITIMER_REAL, 30)
        with within(0.05, None):
            with pytest.raises(OutOfTime):
                time.sleep(5)
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 25 < left < 30 and rang == [signal.SIGALRM]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@pytest.mark.parametrize("where", ["__del__", "a weakref callback while the collector runs"])
def test_a_limit_that_comes_inside_a_finalizer_is_raised_after_it(where):
    """A time limit that rings while a finalizer runs (a ``__del__``, a weakref callback the
    garbage collector calls, multiprocessing's ``Finalize``: Python prints what they raise and
    goes on) is raised a moment later, outside it: the block still ends at its time."""
    import gc
    import weakref

    from satedge.system.limits import OutOfTime, within

    ran, refs = [], []

    def slow(*_):  # the alarm rings in here
        time.sleep(0.3)
        ran.append("finalized")

    class Slow:
        def __del__(self):
            slow()

    class Cycle:
        pass

    t0 = time.monotonic()
    with pytest.raises(OutOfTime):
        with within(0.05, None):
            time.sleep(0.5)  # GRACE: the alarm comes at 0.55 s
            if where == "__del__":
                Slow()
            else:
                c = Cycle()
                c.me = c  # only the collector frees it
                refs.append(weakref.ref(c, slow))  # the callback runs while it lives
                del c
            gc.collect()
            time.sleep(30)
    assert ran == ["finalized"] and time.monotonic() - t0 < 5
