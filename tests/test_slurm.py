"""The HPC batch queue: `--cluster slurm` starts Dask workers as Slurm jobs (dask-jobqueue, the
extra hpc) and ends them with the command.  Against a real single-node Slurm (Debian's slurm-wlm
and munge), started here as root where they are installed: a spec's rows and a count are those of
this machine, and no job is left queued or running afterwards.  Elsewhere those tests skip with
their reason; the refusals need no Slurm."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satedge.errors import SatedgeError
from satedge.system import cluster
from satedge.system.cluster import Batch

DAEMONS = ("munged", "slurmctld", "slurmd")
# a subreaper that starts the daemons one after another, reaps every process they leave, and on
# SIGTERM ends them in the reverse order
KEEPER = """
import ctypes, json, os, signal, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1)
procs = []
def stop(*_):
    for p in reversed(procs):
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
    os.killpg(0, signal.SIGKILL)
signal.signal(signal.SIGTERM, stop)
for command in json.loads(sys.argv[1]):
    procs.append(subprocess.Popen(command))
    time.sleep(1)
while True:
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        time.sleep(0.2)
"""


def _missing() -> str | None:
    """Why no Slurm can be started here, or None."""
    if os.geteuid() != 0:
        return "starting a single-node Slurm needs root"
    absent = [d for d in (*DAEMONS, "sbatch", "squeue", "scancel") if shutil.which(d) is None]
    if absent:
        return f"no Slurm here ({', '.join(absent)} not on PATH; Debian's slurm-wlm and munge bring them)"
    try:
        import dask_jobqueue  # noqa: F401
    except ImportError:
        return "dask-jobqueue is not installed (the extra hpc)"
    return None


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    """A single-node Slurm of this machine's cores, its daemons stopped at the end: its conf's path."""
    why = _missing()
    if why is not None:
        pytest.skip(why)
    root = tmp_path_factory.mktemp("slurm")
    host = socket.gethostname()
    for sub in ("state", "spool", "log", "munge"):
        (root / sub).mkdir()
    conf = root / "slurm.conf"
    conf.write_text(
        f"ClusterName=satedge-test\nSlurmctldHost={host}\nSlurmUser=root\nSlurmdUser=root\n"
        f"StateSaveLocation={root}/state\nSlurmdSpoolDir={root}/spool\n"
        f"SlurmctldPidFile={root}/slurmctld.pid\nSlurmdPidFile={root}/slurmd.pid\n"
        f"SlurmctldLogFile={root}/log/slurmctld.log\nSlurmdLogFile={root}/log/slurmd.log\n"
        "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n"
        "SelectTypeParameters=CR_Core_Memory\nAuthType=auth/munge\nMpiDefault=none\nReturnToService=2\n"
        f"SlurmctldPort=16817\nSlurmdPort=16818\n"
        f"NodeName={host} CPUs={os.cpu_count()} RealMemory=4000 State=UNKNOWN\n"
        f"PartitionName=satedge Nodes={host} Default=YES MaxTime=12:00:00 State=UP\n"
    )
    key = root / "munge" / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    env = {**os.environ, "SLURM_CONF": str(conf)}
    socket_path = root / "munge" / "munge.socket"
    os.environ["SLURM_CONF"] = str(conf)
    # Slurm's plugins find munge's socket through its default path: point it at this one
    default_socket = Path("/run/munge/munge.socket.2")
    default_socket.parent.mkdir(parents=True, exist_ok=True)
    if default_socket.is_symlink() or not default_socket.exists():
        default_socket.unlink(missing_ok=True)
        default_socket.symlink_to(socket_path)
    munged = [
        "munged",
        "--foreground",
        "--force",
        f"--key-file={key}",
        f"--socket={socket_path}",
        f"--pid-file={root}/munge/munged.pid",
        f"--log-file={root}/log/munged.log",
        f"--seed-file={root}/munge/seed",
    ]
    # the daemons under a keeper of their own, which reaps what they leave (Slurm's step daemons)
    # and ends them all when it is told to
    keeper = subprocess.Popen(
        [sys.executable, "-c", KEEPER, json.dumps([munged, ["slurmctld", "-D"], ["slurmd", "-D"]])],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        for _ in range(60):
            state = subprocess.run(["sinfo", "-h", "-o", "%t"], env=env, capture_output=True, text=True)
            if state.stdout.strip() in ("idle", "mix", "alloc"):
                break
            time.sleep(0.5)
        else:
            pytest.skip(f"the single-node Slurm did not come up: sinfo said {state.stdout or state.stderr!r}")
        yield str(conf)
    finally:
        subprocess.run(["scancel", "--user", "root"], env=env, capture_output=True)
        keeper.terminate()
        try:
            keeper.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(keeper.pid, signal.SIGKILL)
            keeper.wait()
        if default_socket.is_symlink():
            default_socket.unlink()
        os.environ.pop("SLURM_CONF", None)


def _queued(conf: str) -> str:
    """The jobs Slurm still has, once those it is ending have ended (a few seconds at most)."""
    for _ in range(60):
        jobs = subprocess.run(
            ["squeue", "-h", "-o", "%j %T"],
            env={**os.environ, "SLURM_CONF": conf},
            capture_output=True,
            text=True,
        ).stdout
        if "COMPLETING" not in jobs:
            return jobs
        time.sleep(0.25)
    return jobs


SPEC = """name: slurm
puzzles: [hunde-spiel, insects, board-suite/4/5/board_0]
encodings: [support]
solvers: [cadical195, backtrack]
task: {count: solutions}
timeout: 120
"""


@pytest.mark.slow
def test_a_spec_run_through_slurm_gives_the_rows_of_this_machine(run_cli, tmp_path, slurm):
    spec = tmp_path / "slurm.yaml"
    spec.write_text(SPEC)
    assert run_cli("run", spec, "--out", tmp_path / "here", "--workers", "2")[0] == 0
    code, out, err = run_cli(
        "run", spec, "--out", tmp_path / "queued", "--cluster", "slurm", "--queue", "satedge", "--jobs", "2"
    )
    assert code == 0 and err.startswith("slurm: 6 runs done ("), err

    def rows(folder: str) -> dict:
        lines = (tmp_path / folder / "results.jsonl").read_text().splitlines()
        return {r["id"]: (r["status"], r["models"], r["puzzle_name"]) for r in map(json.loads, lines)}

    assert rows("queued") == rows("here") and len(rows("here")) == 6
    assert sorted({v for v in rows("queued").values()}) == [
        ("SAT", 1, "board-suite/4/5/board_0"),
        ("SAT", 4, "Insects"),
        ("SAT", 16, "Das verflixte Hunde-Spiel"),
    ]
    assert _queued(slurm) == ""


@pytest.mark.slow
def test_a_count_through_slurm_is_the_count_here_and_a_time_limit_leaves_no_job(run_cli, slurm):
    here = json.loads(run_cli("count", "board-suite/4/5/board_0", "--method", "backtrack", "--json")[1])
    code, out, err = run_cli(
        "count",
        "board-suite/4/5/board_0",
        "--method",
        "backtrack",
        "--cluster",
        "slurm",
        "--jobs",
        "2",
        "--json",
    )
    assert (code, err) == (0, "")
    assert {k: json.loads(out)[k] for k in ("solutions", "distinct", "unique")} == {
        k: here[k] for k in ("solutions", "distinct", "unique")
    }
    # a count that cannot end in 8 s: TIMEOUT (before: a traceback), and its worker jobs cancelled
    code, out, err = run_cli(
        "count", "board-suite/8/9/board_0", "--method", "backtrack", "--cluster", "slurm", "--timeout", "8"
    )
    assert (code, out, err) == (3, "board-suite/8/9/board_0: TIMEOUT after 8 s\n", "")
    assert _queued(slurm) == ""


def test_an_unknown_queue_is_one_line(run_cli, slurm):
    assert run_cli(
        "count", "hunde-spiel", "--method", "backtrack", "--cluster", "slurm", "--queue", "nope"
    ) == (
        2,
        "",
        "satedge: error: hunde-spiel: Slurm has no queue 'nope'; it has satedge\n",
    )


def test_a_queue_that_refuses_the_jobs_is_one_line_and_leaves_none(run_cli, slurm):
    """More memory per job than the node has: Slurm refuses the job, and the command says so."""
    code, out, err = run_cli(
        "count", "hunde-spiel", "--method", "backtrack", "--cluster", "slurm", "--job-memory", "900GB"
    )
    assert (code, out) == (2, "")
    assert err.startswith(
        "satedge: error: hunde-spiel: Slurm refuses the worker jobs of slurm:jobs=1,cores=1,"
    )
    assert err.endswith(": allocation failure: Requested node configuration is not available\n")
    assert err.count("\n") == 1 and _queued(slurm) == ""


def test_worker_jobs_the_queue_holds_for_good_are_one_line_at_once_and_leave_none(run_cli, slurm):
    """A time beyond the partition's limit passes sbatch --test-only, and the job would pend for
    good (before: the command waited 300 s for a worker and then said only that none started)."""
    code, out, err = run_cli(
        "count", "hunde-spiel", "--method", "backtrack", "--cluster", "slurm", "--walltime", "13:00:00"
    )
    assert (code, out) == (2, "")
    assert err.startswith(
        "satedge: error: hunde-spiel: Slurm holds the worker jobs of "
        "slurm:jobs=1,cores=1,memory=2GB,walltime=13:00:00,name=satedge-"
    )
    assert err.endswith(": PartitionTimeLimit (squeue's reason), which waiting does not end\n")
    assert err.count("\n") == 1 and _queued(slurm) == ""


def test_worker_jobs_that_end_before_a_worker_starts_are_one_line_at_once_and_leave_none(
    run_cli, slurm, monkeypatch
):
    """A job whose output folder its node lacks fails to start (the jobs' output went to /tmp,
    which the nodes of a cluster do not share; SBATCH_ERROR, which overrides the script's, names
    such a folder here): the command says so at once (before: it waited 300 s)."""
    monkeypatch.setenv("SBATCH_ERROR", "/nonexistent/satedge/%j.err")
    code, out, err = run_cli("count", "hunde-spiel", "--method", "backtrack", "--cluster", "slurm")
    assert (code, out) == (2, "")
    assert err.startswith(
        "satedge: error: hunde-spiel: the worker jobs of "
        "slurm:jobs=1,cores=1,memory=2GB,walltime=01:00:00,name=satedge-"
    )
    assert err.endswith(
        " ended before a worker started: FAILED, JobLaunchFailure (squeue's state and reason)\n"
    )
    assert err.count("\n") == 1 and _queued(slurm) == ""


def test_the_worker_jobs_write_their_output_under_the_cache_folder_that_the_nodes_share(
    tmp_path, monkeypatch
):
    """Named for this host and process; the folders of this host's ended processes are removed,
    those of live ones and of other hosts kept."""
    monkeypatch.setenv("SATEDGE_CACHE", str(tmp_path))
    host = socket.gethostname()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    old = {
        name: tmp_path / "slurm" / name
        for name in (f"{host}-{dead.stdout.strip()}-x", f"{host}-{os.getppid()}-y", f"other-{os.getpid()}-z")
    }
    for folder in old.values():
        folder.mkdir(parents=True)
    made = Path(cluster.log_folder())
    assert made.parent == tmp_path / "slurm" and made.name.startswith(f"{host}-{os.getpid()}-")
    assert sorted(p.name for p in (tmp_path / "slurm").iterdir()) == sorted([*list(old)[1:], made.name])


def test_cluster_options_are_checked_before_anything_starts(run_cli, monkeypatch):
    assert run_cli("count", "hunde-spiel", "--queue", "x") == (
        2,
        "",
        "satedge: error: --queue goes with --cluster slurm\n",
    )
    assert run_cli("count", "hunde-spiel", "--cluster", "slurm", "--scheduler", "tcp://h:1") == (
        2,
        "",
        "satedge: error: --cluster starts its own Dask workers: give it or --scheduler, not both\n",
    )
    assert run_cli("count", "hunde-spiel", "--cluster", "slurm", "--job-memory", "2GB,x=1") == (
        2,
        "",
        "satedge: error: --job-memory '2GB,x=1': one word, no comma or equals sign\n",
    )
    monkeypatch.setenv("PATH", "/nonexistent")
    code, out, err = run_cli("count", "hunde-spiel", "--method", "backtrack", "--cluster", "slurm")
    assert (code, out) == (2, "")
    assert err in (
        "satedge: error: hunde-spiel: --cluster slurm needs Slurm's sbatch on PATH; there is none\n",
        "satedge: error: hunde-spiel: --cluster slurm needs dask_jobqueue: pip install 'satedge[hpc]'\n",
    )


def test_a_missing_extra_names_hpc(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask_jobqueue", None)  # as where it is not installed
    with pytest.raises(SatedgeError) as e:
        cluster.connect("slurm:jobs=1")
    assert str(e.value) == "--cluster slurm needs dask_jobqueue: pip install 'satedge[hpc]'"


def test_a_batch_cluster_string_round_trips_with_a_name_of_its_own():
    one = Batch.parse("slurm:queue=debug,jobs=3,walltime=00:10:00")
    assert (one.queue, one.jobs, one.cores, one.memory, one.walltime) == ("debug", 3, 1, "2GB", "00:10:00")
    assert one.name.startswith(f"satedge-{os.getpid()}-") and Batch.parse(str(one)) == one
    assert Batch.parse("tcp://10.0.0.1:8786") is None and Batch.parse("slurm://host:1") is None
    with pytest.raises(SatedgeError) as e:
        Batch.parse("slurm:jobs=0")
    assert str(e.value) == "cluster 'slurm:jobs=0': jobs is a whole number from 1 to 10,000"
