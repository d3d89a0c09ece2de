"""Experiments: spec validation, isolated runs with timeouts, resume after SIGKILL, Dask, reports."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import ROOT, alive, children, dask_value, sigint_default, small_command_seconds, wait_until

from satedge.backtrack import native
from satedge.experiment.report import PER_PUZZLE_NOTE, SUMMARY_NOTE, report
from satedge.experiment.rows import read_results
from satedge.experiment.runner import run_experiment
from satedge.experiment.spec import load_spec, select

SMALL = """name: small
puzzles:
  - {root}/puzzles/hunde-spiel.yaml
  - {root}/puzzles/insects.yaml
  - generate: {{rows: 4, colors: 4, border_colors: 2, frame: true, seeds: [1, 2]}}
encodings: [support-seqcounter, {{base: edgecolor, card: ladder}}]
solvers: [cadical195, glucose4]
task: solve
timeout: 20
memory: 2048
"""


def write_spec(tmp_path, text=SMALL, name="spec.yaml"):
    f = tmp_path / name
    f.write_text(text.format(root=ROOT))
    return f


def test_spec_runs_and_ids(tmp_path):
    spec = load_spec(write_spec(tmp_path))
    assert len(spec.runs) == 4 * 2 * 2
    assert len({r.id for r in spec.runs}) == 16
    assert {r.encoding for r in spec.runs} == {"support-seqcounter", "edgecolor+card=ladder"}


def test_spec_validation_lists_the_problems_in_one_line(run_cli, tmp_path, monkeypatch):
    """Every problem of a spec is found before anything runs, and as many as fit in one line of
    about 300 characters are named, then how many more there are (the spec named by a short
    relative path: the line's length does not depend on where the test runs)."""
    monkeypatch.chdir(tmp_path)
    f = write_spec(
        Path("."),
        """name: bad
puzzles: [nowhere/*.yaml]
encodings: [nope]
solvers: [cadical195, minisat99, "backtrack:threads=2"]
colour: red
timeout: -1
memory: 4096.5
repeat: true
""",
    )
    code, out, err = run_cli("run", f, "--out", tmp_path / "o")
    assert (code, out) == (2, "")
    assert err == (
        f"satedge: error: {f}: unknown key(s) colour; no file matches 'nowhere/*.yaml'; unknown encoding "
        "'nope'; unknown solver 'minisat99'; solver 'backtrack:threads=2': backtrack takes workers=, "
        "order= and loop=; and 3 more\n"
    )
    f.write_text(
        f.read_text()
        .replace("nowhere/*.yaml", str(ROOT / "puzzles" / "insects.yaml"))
        .replace("[nope]", "[support]")
        .replace("colour: red\n", "")
    )
    code, out, err = run_cli("run", f, "--out", tmp_path / "o")
    assert (code, out) == (2, "")
    assert err == (
        f"satedge: error: {f}: unknown solver 'minisat99'; solver 'backtrack:threads=2': backtrack takes "
        "workers=, order= and loop=; timeout must be a positive number of seconds, at most 10,000,000, not -1; "
        "and 2 more\n"
    )
    assert not (tmp_path / "o").exists()


def test_a_spec_with_four_problems_names_all_four(run_cli, tmp_path, monkeypatch):
    """Before: two of them, "and 2 more", where the guide says every problem is listed."""
    monkeypatch.chdir(tmp_path)
    f = write_spec(
        Path("."),
        "name: four\npuzzles: [nowhere.yaml]\nencodings: [edgecolr]\nsolvers: [minisat99]\ntimout: 5\n",
    )
    code, out, err = run_cli("run", f)
    assert (code, out) == (2, "")
    assert err == (
        f"satedge: error: {f}: unknown key(s) timout; no file matches 'nowhere.yaml'; unknown encoding "
        "'edgecolr' (did you mean edgecolor?); unknown solver 'minisat99'\n"
    )


@pytest.mark.slow
def test_run_report_and_plots(run_cli, tmp_path):
    out = tmp_path / "out"
    code, _, err = run_cli("run", write_spec(tmp_path), "--out", out, "--workers", "2")
    assert code == 0
    rows = read_results(out / "results.jsonl")
    assert len(rows) == 16 and {r["status"] for r in rows} == {"SAT"}
    r = rows[0]
    for key in (
        "id",
        "puzzle",
        "puzzle_sha256",
        "encoding",
        "options",
        "solver",
        "task",
        "status",
        "variables",
        "clauses",
        "encode_seconds",
        "solve_seconds",
        "models",
        "stats",
        "peak_memory_mb",
        "env",
    ):
        assert key in r, key
    # the compiled backtracker's library and each engine's (the engine table's needs), all in the test extra
    assert set(r["env"]) == {
        "satedge",
        "pysat",
        "python",
        "numba",
        "cc",
        "ortools",
        "hermax",
        "clingo",
        "scipy",
        "host",
        "cpu",
    }
    assert r["env"]["cc"] == native.described()  # the C loop's compiler: its path and version, or None
    assert [r["env"][m] for m in ("numba", "ortools", "hermax", "clingo")] == [
        version(m) for m in ("numba", "ortools", "hermax", "clingo")
    ]
    assert set(r["stats"]) == {"conflicts", "decisions", "propagations", "restarts"}
    code, table, _ = run_cli(
        "report", out, "--compare", "support-seqcounter/cadical195", "edgecolor+card=ladder/glucose4"
    )
    note, table = table.split("\n\n", 1)
    assert code == 0 and note == SUMMARY_NOTE.strip()
    assert table.splitlines()[0].startswith(
        "| configuration | runs | solved runs | timeouts | out of memory |"
    )
    summary, per_puzzle = table.split(PER_PUZZLE_NOTE)
    summary, holds_up = summary.split(
        "\n\nWhat holds up: an instance is a puzzle, scored by the median PAR-2 of its "
        "runs; a configuration by the mean over its instances, with a bootstrap 95% "
        "interval over them, and the instances it solved, each counted as the share of its runs that "
        "solved it, with a bootstrap 95% interval over the instances (a puzzle's shuffled runs are not "
        "independent draws).\n\n"
    )
    assert len(summary.splitlines()) == 2 + 4
    intervals, verdict = holds_up.split("\n\n")
    assert len(intervals.splitlines()) == 2 + 4 and verdict.startswith(
        "edgecolor+card=ladder/glucose4 against support-seqcounter/cadical195 over 4 instances: PAR-2 "
    )
    configs = [line.split(" | ")[0][2:] for line in summary.splitlines()[2:]]
    lines = per_puzzle.splitlines()
    assert lines[0] == "| puzzle | " + " | ".join(configs) + " |" and len(lines) == 2 + 4
    assert [line.split(" | ")[0][2:] for line in lines[2:]] == [
        "Das verflixte Hunde-Spiel",
        "Insects",
        "planted-4x4-c4-b2-s1",
        "planted-4x4-c4-b2-s2",
    ]
    assert all(float(x) >= 0 for line in lines[2:] for x in line.strip("| ").split(" | ")[1:])
    assert (out / "summary.csv").read_text().startswith("configuration,runs,solved,timeouts")
    assert sorted(f.name for f in (out / "pictures").iterdir()) == [
        "hunde-spiel.png",
        "hunde-spiel.svg",
        "insects.png",
        "insects.svg",
    ]
    for stem in ("cactus", "sizes", "scatter"):
        for ext in ("png", "svg"):
            assert (out / f"{stem}.{ext}").stat().st_size > 1000
    code, _, err = run_cli("run", write_spec(tmp_path), "--out", out)
    assert code == 2 and "16 results already there: use --resume" in err
    other = tmp_path / "other"
    other.mkdir()
    (other / "results.jsonl").write_bytes((out / "results.jsonl").read_bytes())
    assert run_cli("report", other, "--compare", "support-seqcounter/cadical195", "nope/glucose4") == (
        2,
        "",
        "satedge: error: --compare: no configuration 'nope/glucose4'; there are edgecolor+card=ladder/cadical195, "
        "edgecolor+card=ladder/glucose4, support-seqcounter/cadical195, support-seqcounter/glucose4\n",
    )
    assert [f.name for f in other.iterdir()] == ["results.jsonl"]  # checked before anything is written


@pytest.mark.slow
def test_only_runs_a_slice_and_resume_the_rest(run_cli, tmp_path):
    spec = load_spec(write_spec(tmp_path))
    assert {r.config for r in select(spec, ["support-seqcounter/*"]).runs} == {
        "support-seqcounter/cadical195",
        "support-seqcounter/glucose4",
    }
    assert len(select(spec, ["support-seqcounter/*"]).runs) == 8 and len(spec.runs) == 16
    assert len(select(spec, ["*/glucose4", "support-seqcounter/cadical195"]).runs) == 12
    f = write_spec(
        tmp_path,
        SMALL.replace("solvers: [cadical195, glucose4]", "solvers: [cadical195, backtrack]").replace(
            "  - generate: {{rows: 4, colors: 4, border_colors: 2, frame: true, seeds: [1, 2]}}\n", ""
        ),
    )
    out = tmp_path / "out"
    code, _, err = run_cli("run", f, "--out", out, "--only", "nope/*", "--only", "*/backtrack", "--only", "x")
    assert code == 2 and err == (
        f"satedge: error: {f}: 'nope/*', 'x' match no configuration of the spec; it has "
        "support-seqcounter/cadical195, edgecolor+card=ladder/cadical195, backtrack/backtrack\n"
    )
    assert not out.exists()
    code, _, err = run_cli("run", f, "--out", out, "--only", "edgecolor/*")
    assert code == 2 and err.startswith(
        f"satedge: error: {f}: 'edgecolor/*' matches no configuration of the spec; "
    )
    code, _, err = run_cli("run", f, "--out", out, "--only", "*/backtrack")
    assert code == 0 and err.startswith("small: 2 runs done (2 SAT), 0 were there already")
    assert [(r["solver"], r["status"]) for r in read_results(out / "results.jsonl")] == [
        ("backtrack", "SAT")
    ] * 2
    code, _, err = run_cli("run", f, "--out", out, "--resume")
    assert code == 0 and err.startswith("small: 4 runs done (4 SAT), 2 were there already")
    assert sorted(r["id"] for r in read_results(out / "results.jsonl")) == sorted(
        r.id for r in load_spec(f).runs
    )
    rows = (out / "results.jsonl").read_text().splitlines(keepends=True)
    (out / "results.jsonl").write_text("".join(rows[:-1]))  # a row lost: --resume runs that one again
    code, _, err = run_cli("run", f, "--out", out, "--resume")
    assert code == 0 and err.startswith("small: 1 run done (1 SAT), 5 were there already")
    assert sorted(r["id"] for r in read_results(out / "results.jsonl")) == sorted(
        r.id for r in load_spec(f).runs
    )


def worker_processes(parent=None):
    """Run processes started by ``parent`` (default: this test process; other experiments may run
    on the machine): fresh interpreters, or the processes its warm process (satedge.system.forkserver)
    forked, and that process itself."""
    parent = parent or os.getpid()
    servers = children(parent, b"satedge.system.forkserver import serve")
    return (
        children(parent, b"satedge.system.process import fresh_main")
        + [pid for s in servers for pid in children(s)]
        + servers
    )


@pytest.mark.slow
def test_timeout_kills_run(tmp_path):
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    save_puzzle(
        generate(Params(rows=7, cols=7, colors=8, border_colors=3, frame=True), seed=1),
        tmp_path / "hard.yaml",
    )
    f = write_spec(
        tmp_path,
        """name: hard
puzzles: [hard.yaml]
encodings: [support-seqcounter]
solvers: [cadical195]
timeout: 2
""",
    )
    unit = small_command_seconds()
    t0 = time.monotonic()
    run_experiment(load_spec(f), tmp_path / "out", workers=1)
    elapsed = time.monotonic() - t0
    (row,) = read_results(tmp_path / "out" / "results.jsonl")
    assert row["status"] == "TIMEOUT" and row["wall_seconds"] < 2 + 1 + unit
    assert elapsed < 2 + 2 + 2 * unit, (elapsed, unit)
    assert worker_processes() == []


@pytest.mark.slow
def test_a_timed_out_run_has_its_formula_size(tmp_path):
    from satedge.encode.presets import Encoding
    from satedge.experiment.report import summarize
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    puzzle = generate(
        Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), seed=1
    )  # hours for CaDiCaL
    save_puzzle(puzzle, tmp_path / "hard.yaml")
    f = write_spec(
        tmp_path,
        """name: hard
puzzles: [hard.yaml]
encodings: [support-seqcounter]
solvers: [cadical195]
timeout: 10
""",
    )
    run_experiment(load_spec(f), tmp_path / "out", workers=1)
    (row,) = read_results(tmp_path / "out" / "results.jsonl")
    encoded = Encoding.parse("support-seqcounter").encode(puzzle)
    assert (row["status"], row["variables"], row["clauses"]) == (
        "TIMEOUT",
        encoded.nv,
        len(encoded.cnf.clauses),
    )
    assert 0 < row["encode_seconds"] < 10 and row.get("solve_seconds") is None
    (summary,) = summarize([row])
    assert (summary["solved"], summary["variables"], summary["clauses"]) == (
        0,
        encoded.nv,
        len(encoded.cnf.clauses),
    )


def test_a_run_that_fails_while_solving_keeps_its_formula_size(engines_of):
    """A run that runs out of memory after it has encoded its formula is MEMOUT with the formula's
    size: what the job noted before the solver started survives its end."""
    from satedge import jobs
    from satedge.puzzle.formats import load_puzzle
    from satedge.system.process import Limits

    engines_of("MEMOUT")  # notes a formula's size, then runs out of memory in the forked child
    puzzle = load_puzzle(ROOT / "puzzles" / "hunde-spiel.yaml")
    res = jobs.run(jobs.Job(puzzle, solver="memout", limit=1, limits=Limits(timeout=30)))
    assert (res.status, res.variables, res.clauses, res.encode_seconds) == ("MEMOUT", 7, 11, 0.5)
    assert res.error == "out of memory (MemoryError)"


@pytest.mark.slow
@pytest.mark.parametrize(
    "signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)]
)
def test_ctrl_c_or_kill_stops_the_runs_under_way_and_drops_the_rest(tmp_path, signum, status):
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    for seed in (1, 5):  # framed 7x7 with 8 colours: no run ends in the moment before the signal
        save_puzzle(
            generate(Params(rows=7, cols=7, colors=8, border_colors=3, frame=True), seed=seed),
            tmp_path / f"hard{seed}.yaml",
        )
    f = write_spec(
        tmp_path,
        """name: hard
puzzles: [hard1.yaml, hard5.yaml]
encodings: [support-seqcounter]
solvers: [cadical195, glucose4]
timeout: 120
""",
    )
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", "run", str(f), "--out", str(out), "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_default,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )  # a kill -9 leaves its temporary folder
    wait_until(lambda: len(worker_processes(proc.pid)) >= 3, 60)
    workers = worker_processes(proc.pid)
    assert len(workers) == 3  # two runs and the warm process that started them
    if signum == signal.SIGKILL:
        time.sleep(3)  # the runs are solving: past their SOLVING line, whose write would fail and end them
    proc.send_signal(signum)
    try:
        # before: SIGINT let every run of the spec go to its end first; SIGTERM left the runs orphaned
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == status, err
    if signum != signal.SIGKILL:  # before: exit 130 without a word
        assert err == (
            "satedge: interrupted: 0 runs of hard done, nothing written; the same command with --resume "
            "finishes it\n"
        )
    # SIGKILL: the kernel kills the runs as the runner ends; a run still starting up sees it when it reads its payload
    wait_until(lambda: not any(map(alive, workers)), 10)
    assert [pid for pid in workers if alive(pid)] == []  # orphans would have a new parent
    assert not (out / "results.jsonl").exists() or read_results(out / "results.jsonl") == []


@pytest.mark.slow
def test_a_run_that_starts_while_the_others_are_killed_is_killed_too(tmp_path, monkeypatch):
    """Stopping the runner while a run is about to start: that run never starts (or is killed at
    once), instead of solving on to its timeout."""
    from satedge.experiment import executors
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate
    from satedge.system import process

    save_puzzle(
        generate(Params(rows=7, cols=7, colors=8, border_colors=3, frame=True), seed=1),
        tmp_path / "hard.yaml",
    )
    f = write_spec(
        tmp_path,
        """name: race
puzzles: [demo.yaml, hard.yaml]
encodings: [support-seqcounter]
solvers: [cadical195]
timeout: 120
""",
    )
    (tmp_path / "demo.yaml").write_text((ROOT / "puzzles" / "hunde-spiel.yaml").read_text())
    spec = load_spec(f)
    jobs = [(r.id, r.job) for r in sorted(spec.runs, key=lambda r: "hard" in r.puzzle_path)]
    run_one, hard, started = executors.run_one, jobs[1][1], []
    child = process._Child

    def late_run(job, *args):  # the hard run starts after the easy one has ended
        if job is hard:
            time.sleep(3)
        return run_one(job, *args)

    class RecordedChild(child):  # a run's process, as it starts
        def __init__(self, fn, args, *rest):
            started.append(args[0])
            super().__init__(fn, args, *rest)

    def done(rid, result):
        raise RuntimeError("stop")

    monkeypatch.setattr(executors, "run_one", late_run)
    monkeypatch.setattr(process, "_Child", RecordedChild)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"):
        executors.run_local(jobs, 2, done)
    assert started == [jobs[0][1]]  # the hard run never started
    assert time.monotonic() - t0 < 60  # before: the hard run went on to its timeout of 120 s
    assert worker_processes() == []


@pytest.mark.slow
def test_sigkill_then_resume(tmp_path):
    spec_text = SMALL.replace("seeds: [1, 2]", "seeds: [1, 2, 3, 4, 5, 6]")
    f = write_spec(tmp_path, spec_text)
    total = len(load_spec(f).runs)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", "run", str(f), "--out", str(out), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )  # a kill -9 leaves its temporary folder
    results = out / "results.jsonl"
    wait_until(lambda: results.exists() and len(read_results(results)) >= 3, 60)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = len(read_results(results))
    assert 3 <= before < total
    r = subprocess.run(
        [sys.executable, "-m", "satedge", "run", str(f), "--out", str(out), "--resume"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    rows = read_results(results)
    ids = [row["id"] for row in rows]
    assert len(ids) == total and len(set(ids)) == total
    assert {run.id for run in load_spec(f).runs} == set(ids)


@pytest.mark.slow
def test_dask_same_rows_as_local(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    f = write_spec(tmp_path)
    run_experiment(load_spec(f), tmp_path / "local", workers=2)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        dashboard_address=":0",
        protocol="tcp",
        host="127.0.0.1",
    ) as cluster:
        code = subprocess.run(
            [
                sys.executable,
                "-m",
                "satedge",
                "run",
                str(f),
                "--out",
                str(tmp_path / "dask"),
                "--executor",
                "dask",
                "--scheduler",
                cluster.scheduler_address,
            ],
            capture_output=True,
            text=True,
        )
        assert code.returncode == 0, code.stderr
    timing = {
        "encode_seconds",
        "solve_seconds",
        "wall_seconds",
        "cpu_seconds",
        "peak_memory_mb",
        "stats",
        "solver_calls",
        "started_at",
        "finished_at",
    }

    def strip(rows):
        return sorted(
            json.dumps({k: v for k, v in r.items() if k not in timing}, sort_keys=True) for r in rows
        )

    assert strip(read_results(tmp_path / "local" / "results.jsonl")) == strip(
        read_results(tmp_path / "dask" / "results.jsonl")
    )


def test_encode_task_and_optional_globs(tmp_path, monkeypatch):
    monkeypatch.setenv("SATEDGE_BENCHMARKS", str(tmp_path / "absent"))
    f = write_spec(
        tmp_path,
        """name: enc
puzzles:
  - {root}/puzzles/hunde-spiel.yaml
  - optional: $SATEDGE_BENCHMARKS/eternity2/e2.puz
encodings: [direct, edgecolor]
task: encode
timeout: 30
""",
    )
    spec = load_spec(f)
    assert len(spec.runs) == 2 and {r.solver for r in spec.runs} == {"-"}
    run_experiment(spec, str(tmp_path / "out"))  # the three take a str as well as a Path
    rows = {r["base"]: r for r in read_results(str(tmp_path / "out" / "results.jsonl"))}
    assert rows["direct"]["status"] == "ENCODED"
    assert (rows["direct"]["variables"], rows["direct"]["clauses"]) == (324, 23406)
    # 18 exactly-one clauses of 36 literals; every other clause binary
    assert (
        rows["direct"]["literals"] == 18 * 36 + 2 * (23406 - 18) and rows["direct"]["dimacs_bytes"] > 100000
    )
    table, _ = report(str(tmp_path / "out"), with_plots=False)
    lines = table.splitlines()
    assert lines[0].startswith("| puzzle | cells | encoding | status | variables | clauses | literals |")
    assert len(lines) == 4 and "| 9 | direct | ENCODED | 324 | 23,406 | 47,424 |" in lines[2]


def test_relative_benchmarks_folder_is_taken_from_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "bm" / "suite").mkdir(parents=True)
    (tmp_path / "bm" / "suite" / "a.yaml").write_text((ROOT / "puzzles" / "insects.yaml").read_text())
    (tmp_path / "specs").mkdir()
    f = write_spec(
        tmp_path / "specs",
        """name: rel
puzzles: [{{optional: $SATEDGE_BENCHMARKS/suite/*.yaml}}]
encodings: [direct]
solvers: [cadical195]
""",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SATEDGE_BENCHMARKS", "bm")
    assert [r.puzzle_path for r in load_spec(f).runs] == [str(tmp_path / "bm" / "suite" / "a.yaml")]


@pytest.mark.slow
def test_committed_specs_load(monkeypatch):
    """Every spec in experiments/ and benchmarks/ is valid without $SATEDGE_BENCHMARKS (the board suite ships under
    puzzles/); the solve benchmarks have the runs their comments state (bench-solve: 35 generated
    puzzles and 35 of the board suite x 20 configurations)."""
    monkeypatch.setenv("SATEDGE_BENCHMARKS", str(ROOT / "no-such-folder"))
    specs = sorted((ROOT / "experiments").glob("*.yaml")) + sorted((ROOT / "benchmarks").glob("*/*.yaml"))
    runs = {f.stem: len(load_spec(f).runs) for f in specs}
    assert runs["bench-solve"] == 70 * 20 and runs["bench-solve-quick"] == 10 * 6
    assert runs["bench-solve-2cores"] == 10 * 2  # each solver ignores the encoding: one run per puzzle
    assert runs["bench-solve-backtrack"] == 70  # one solver
    assert runs["bench-encode"] == 6 * 4  # Eternity II among the puzzles
    committed = {
        json.loads(line)["id"] for line in (ROOT / "experiments" / "bench-solve-results.jsonl").open()
    }
    assert {
        r.id for r in load_spec(ROOT / "experiments" / "bench-solve.yaml").runs
    } == committed  # --resume: nothing to run
    assert runs["heule2008"] == 7 * 8 * 2 * 5  # instances x encodings x solvers x shuffles
    assert runs["bench-solve-shuffled"] == 10 * 2 * 2 * 3  # puzzles x encodings x solvers x shuffles
    assert runs["bench-parallel"] == 10 * 4  # one encoding; the backtracker ignores it
    committed = [
        json.loads(line)
        for line in (ROOT / "benchmarks" / "parallel" / "bench-parallel-results.jsonl").open()
    ]
    assert {r.id for r in load_spec(ROOT / "benchmarks" / "parallel" / "bench-parallel.yaml").runs} == {
        r["id"] for r in committed
    }
    assert sorted({r["workers"] for r in committed}) == [1, 2]
    assert runs["heule2008-tries"] == 7 * 4 * 2 * 5 and runs["peak-tries"] == 10 * 2 * 2 * 3
    assert set(runs) == {
        "demo",
        "bench-encode",
        "bench-enumerate",
        "bench-solve",
        "bench-solve-quick",
        "bench-solve-2cores",
        "bench-solve-backtrack",
        "heule2008",
        "bench-solve-shuffled",
        "bench-parallel",
        "heule2008-tries",
        "peak-tries",
        "bench-maximize",
        "bench-maxsat-solvers",
        "bench-maxsat-forms",
        "bench-counts",
        "bench-hybrid",
        "bench-decide",
    }
    assert runs["bench-counts"] == 20 * (4 + 1)  # puzzles x (encodings with CaDiCaL, the backtracker)
    assert runs["bench-hybrid"] == 15 * 4  # puzzles x (three ways of CaDiCaL, the backtracker)
    assert (
        runs["bench-decide"] == 15 * 3
    )  # puzzles x (CaDiCaL's decisions, the backtracker's, the backtracker)
    assert runs["bench-maximize"] == 10 * 3  # boards x (budgets, branch and bound, RC2 on support)
    committed = {
        json.loads(line)["id"]
        for line in (ROOT / "benchmarks" / "maximize" / "bench-maximize-results.jsonl").open()
    }
    assert {
        r.id for r in load_spec(ROOT / "benchmarks" / "maximize" / "bench-maximize.yaml").runs
    } == committed


def test_per_puzzle_table_repeats_and_shared_names():
    from satedge.experiment.report import per_puzzle, summarize

    def row(path, name, solver, status, seconds):
        return {
            "puzzle": path,
            "puzzle_name": name,
            "encoding": "support",
            "solver": solver,
            "status": status,
            "encode_seconds": 0.5,
            "solve_seconds": seconds,
            "timeout": 10,
        }

    rows = [
        row("a/puzzle.puz", "puzzle", "minisat22", "SAT", 1.5),
        row("a/puzzle.puz", "puzzle", "minisat22", "SAT", 3.5),
        row("b/puzzle.puz", "puzzle", "minisat22", "SAT", 0.5),
        row("b/puzzle.puz", "puzzle", "glucose4", "TIMEOUT", None),
        row("c.yaml", "seed", "glucose4", "SAT", 2.0),
        row("c.yaml", "seed", "minisat22", "SAT", 1.0),
        row("c.yaml", "seed", "glucose4", "TIMEOUT", None),
        row("c.yaml", "seed", "glucose4", "SAT", 4.0),
    ]
    table, columns = per_puzzle(rows, summarize(rows))
    assert columns == ["puzzle", "support/minisat22", "support/glucose4"]
    assert table == [
        {"puzzle": "a/puzzle.puz", "support/minisat22": 3.0},
        {"puzzle": "b/puzzle.puz", "support/glucose4": "TIMEOUT", "support/minisat22": 1.0},
        {"puzzle": "seed", "support/glucose4": "2 of 3: 3.5", "support/minisat22": 1.5},
    ]


def test_summary_leaves_unknown_figures_empty():
    """No conflicts for a solver that gives no statistics, no formula size for the backtracker:
    '-' in the table, not 0."""
    from satedge.experiment.report import markdown, summarize

    def row(encoding, solver, stats, size):
        return {
            "puzzle": "p.yaml",
            "puzzle_name": "p",
            "encoding": encoding,
            "solver": solver,
            "status": "SAT",
            "encode_seconds": 0.0,
            "solve_seconds": 1.0,
            "timeout": 10,
            "stats": stats,
            "variables": size,
            "clauses": size,
        }

    rows = [
        row("support", "kissat404", None, 100),
        row("support", "cadical195", {"conflicts": 7}, 100),
        row("backtrack", "backtrack", None, None),
    ]
    lines = markdown(summarize(rows)).splitlines()[2:]
    assert lines == [
        "| backtrack/backtrack | 1 | 1 | 0 | 0 | 0 | 1.0 | 1.0 | 1.0 | - | - | - |",
        "| support/cadical195 | 1 | 1 | 0 | 0 | 0 | 1.0 | 1.0 | 1.0 | 7 | 100 | 100 |",
        "| support/kissat404 | 1 | 1 | 0 | 0 | 0 | 1.0 | 1.0 | 1.0 | - | 100 | 100 |",
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args,message",
    [
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler applies to --executor dask only"),
        (["--executor", "dask"], "--executor dask needs --scheduler ADDRESS (or --cluster slurm)"),
        (
            ["--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"],
            "cannot reach the Dask scheduler at tcp://127.0.0.1:1: Timed out trying to connect to "
            "tcp://127.0.0.1:1 after 10 s",
        ),
    ],
)
def test_dask_options_checked_before_anything_is_written(run_cli, tmp_path, args, message):
    pytest.importorskip("dask.distributed")
    out = tmp_path / "out"
    assert run_cli("run", write_spec(tmp_path), "--out", out, *args) == (
        2,
        "",
        f"satedge: error: {message}\n",
    )
    assert not out.exists()


@pytest.mark.slow
def test_plots_of_rows_with_partial_sizes(tmp_path):
    """A row with clauses but no variables (hand-edited, or from a run that died) and no experiment
    name: the size plot takes the rows that have both, the cactus plot the folder's name."""
    pytest.importorskip("matplotlib")
    from satedge.experiment.figures import plots

    rows = [
        {
            "puzzle_sha256": "a",
            "repetition": 0,
            "encoding": e,
            "solver": "cadical195",
            "status": "SAT",
            "encode_seconds": 0.1,
            "solve_seconds": 1.0,
            "timeout": 10,
            "variables": v,
            "clauses": 50,
        }
        for e, v in (("support", 100), ("direct", None))
    ]
    files = plots(rows, tmp_path, ("support/cadical195", "direct/cadical195"))
    assert sorted(f.name for f in files) == [
        f"{stem}.{ext}" for stem in ("cactus", "scatter", "sizes") for ext in ("pdf", "png", "svg")
    ]
    assert b"Cactus plot: " + tmp_path.name.encode() in (tmp_path / "cactus.svg").read_bytes()


@pytest.mark.slow
def test_two_runners_on_one_folder_run_every_run_once(tmp_path):
    """Before: two `run --resume` started together on one folder both ran everything (56 rows for
    28 runs). The second now finds the folder locked and stops at once, with one line."""
    f = write_spec(tmp_path, SMALL.replace("seeds: [1, 2]", "seeds: [1, 2, 3, 4]"))
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "satedge",
        "run",
        str(f),
        "--out",
        str(out),
        "--resume",
        "--workers",
        "1",
    ]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert wait_until(lambda: (out / ".lock").exists() and (out / ".lock").read_text().strip(), 30)
    os.kill(first.pid, signal.SIGSTOP)  # held while the second starts, however loaded the machine
    try:
        second = subprocess.run(command, capture_output=True, text=True)
    finally:
        os.kill(first.pid, signal.SIGCONT)
    first.communicate(timeout=300)
    assert (first.returncode, second.returncode, second.stdout) == (0, 2, "")
    assert second.stderr == (
        f"satedge: error: {out}: another satedge run (pid {first.pid}) is writing its results "
        "here; wait for it to end, or give another --out\n"
    )
    ids = [r["id"] for r in read_results(out / "results.jsonl")]
    assert sorted(ids) == sorted(r.id for r in load_spec(f).runs)  # every run exactly once


@pytest.mark.slow
def test_the_lock_of_a_killed_runner_is_free(tmp_path):
    f = write_spec(tmp_path, SMALL.replace("seeds: [1, 2]", "seeds: [1, 2, 3, 4]"))
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "satedge",
        "run",
        str(f),
        "--out",
        str(out),
        "--resume",
        "--workers",
        "1",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert wait_until(lambda: (out / "results.jsonl").exists() and read_results(out / "results.jsonl"), 60)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    r = subprocess.run(command, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ids = [row["id"] for row in read_results(out / "results.jsonl")]
    assert sorted(ids) == sorted(run.id for run in load_spec(f).runs)


@pytest.mark.slow
def test_damaged_lines_are_named_by_report_and_kept_by_resume(run_cli, tmp_path):
    """Before: report skipped such a line without a word, --resume deleted it, and a byte that is
    not UTF-8 ended both in a UnicodeDecodeError traceback."""
    f = write_spec(tmp_path, SMALL.replace("solvers: [cadical195, glucose4]", "solvers: [cadical195]"))
    out = tmp_path / "out"
    assert run_cli("run", f, "--out", out)[0] == 0
    path = out / "results.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    damaged = [b'{"id": "oops", \n', b"\xff\xfe not text\n"]
    path.write_bytes(lines[0] + damaged[0] + lines[1] + damaged[1] + b"".join(lines[2:-1]) + lines[-1][:40])
    code, table, err = run_cli("report", out, "--no-plots")
    assert code == 0 and table.startswith(SUMMARY_NOTE + "| configuration |")
    assert err.splitlines()[:3] == [
        f"satedge: warning: {path}: line 2 does not parse as JSON: left out",
        f"satedge: warning: {path}: line 4 is not UTF-8 text: left out",
        f"satedge: warning: {path}: line 10 is cut short: left out",
    ]
    code, _, err = run_cli("run", f, "--out", out, "--resume")
    assert code == 0
    assert err.splitlines()[:3] == [
        f"satedge: warning: {path}: line 2 does not parse as JSON: moved to results.rejected.jsonl",
        f"satedge: warning: {path}: line 4 is not UTF-8 text: moved to results.rejected.jsonl",
        f"satedge: warning: {path}: line 10 is cut short: moved to results.rejected.jsonl",
    ]
    assert err.splitlines()[-1].startswith("small: 1 run done (1 SAT), 7 were there already")
    assert (out / "results.rejected.jsonl").read_bytes() == damaged[0] + damaged[1] + lines[-1][:40] + b"\n"
    assert sorted(r["id"] for r in read_results(path)) == sorted(r.id for r in load_spec(f).runs)
    assert run_cli("report", out, "--no-plots")[2].count("warning") == 0


@pytest.mark.slow
def test_report_counts_a_run_once_and_says_it_found_it_twice(run_cli, tmp_path):
    f = write_spec(tmp_path, SMALL.replace("solvers: [cadical195, glucose4]", "solvers: [cadical195]"))
    out = tmp_path / "out"
    assert run_cli("run", f, "--out", out)[0] == 0
    path = out / "results.jsonl"
    path.write_bytes(path.read_bytes() * 2)  # as two runners without a lock wrote it
    code, table, err = run_cli("report", out, "--no-plots")
    assert code == 0
    assert err.splitlines()[0] == (
        f"satedge: warning: {path}: 8 rows repeat a run id found before: each run is "
        "counted once (were two runners writing here?)"
    )
    runs = {
        line.split(" | ")[0][2:]: int(line.split(" | ")[1])
        for line in table.split("\n\n")[1].splitlines()[2:]
    }
    assert runs == {
        "support-seqcounter/cadical195": 4,
        "edgecolor+card=ladder/cadical195": 4,
    }  # before: 8 each


def test_report_without_the_plot_extra_prints_the_tables_and_says_which_extra(tmp_path, run_cli, monkeypatch):
    """Before: exit 2 and no table on a core install."""
    import satedge.experiment.report as report_module

    (tmp_path / "results.jsonl").write_bytes(
        (ROOT / "benchmarks" / "maximize" / "bench-maximize-results.jsonl").read_bytes()
    )
    monkeypatch.setattr(report_module, "available", lambda module: module != "matplotlib")
    code, out, err = run_cli("report", tmp_path)
    assert code == 0 and out.startswith(SUMMARY_NOTE + "| configuration | runs | solved runs |")
    assert err.splitlines()[0] == (
        "satedge: warning: no plots: they need matplotlib, the extra plot (pip install "
        "'satedge[plot]'); the tables follow"
    )


def test_the_cactus_median_stops_where_the_median_shuffle_stops():
    """Solved per shuffle 7, 8 and 6 of 8 (the new user's spec): the median curve has 7 steps, not
    8 (before: at position k the median of the shuffles that solved k or more only)."""
    from satedge.experiment.figures import cactus

    rows = [
        {
            "encoding": "edgecolor-heule2008",
            "solver": "cadical195",
            "shuffle": s,
            "status": "SAT" if i < n else "TIMEOUT",
            "encode_seconds": 0.0,
            "solve_seconds": float(i + 1),
        }
        for s, n in ((1, 7), (2, 8), (3, 6))
        for i in range(8)
    ]
    c = cactus(rows)["edgecolor-heule2008/cadical195"]
    assert (c["median"], len(c["low"]), c["shuffles"]) == ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 8, 3)


def test_a_median_score_of_whole_numbers_is_printed_whole():
    """Before: `23.0` beside `23` in a maximize report."""
    from satedge.experiment.report import summarize

    def row(puzzle, score):
        return {
            "puzzle": puzzle,
            "puzzle_name": puzzle,
            "encoding": "budget",
            "solver": "budget",
            "status": "OPTIMUM",
            "encode_seconds": 0.0,
            "solve_seconds": 1.0,
            "timeout": 10,
            "score": score,
        }

    (whole,) = summarize([row("a", 23), row("b", 23)])
    (half,) = summarize([row("a", 22), row("b", 23)])
    assert (repr(whole["median_score"]), repr(half["median_score"])) == ("23", "22.5")


def test_a_spec_names_every_solver_its_task_cannot_take(run_cli, tmp_path):
    """Before: only the first."""
    spec = tmp_path / "two.yaml"
    spec.write_text(
        "name: two\npuzzles: [hunde-spiel]\nencodings: [support]\nsolvers: [lns, restarts, cadical195]\n"
        "task: solve\ntimeout: 10\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "out") == (
        2,
        "",
        f"satedge: error: {spec}: solver lns: the lns engine cannot solve: it answers maximize; solver "
        "restarts: the restarts engine cannot solve: it answers maximize\n",
    )
    assert not (tmp_path / "out").exists()


def tick_labels(svg: str, axis: str) -> list[str]:
    """The labels of an SVG plot's ticks on one axis (matplotlib keeps text as text)."""
    from xml.etree import ElementTree

    ns = "{http://www.w3.org/2000/svg}"
    ticks = [
        g
        for g in ElementTree.fromstring(svg).iter(ns + "g")
        if re.fullmatch(rf"{axis}tick_\d+", g.get("id", ""))
    ]
    return [t.text for g in ticks for t in g.iter(ns + "text")]


def test_plot_ticks_are_plain_numbers_that_do_not_run_into_each_other(tmp_path):
    """Before: the scatter of times from 2 to 8 s labelled 2x10^0, 3x10^0, 4x10^0 and 6x10^0 (the
    3 and the 4 ran into each other), and the cactus plot had ticks at 1.25 instances."""
    pytest.importorskip("matplotlib")
    from satedge.experiment.figures import plots

    rows = [
        {
            "puzzle_sha256": str(i),
            "repetition": 0,
            "encoding": e,
            "solver": "cadical195",
            "status": "SAT",
            "encode_seconds": 0.0,
            "solve_seconds": 2.0 + 0.6 * i + (e == "direct"),
            "timeout": 8,
        }
        for i in range(5)
        for e in ("support", "direct")
    ]
    plots(rows, tmp_path, ("support/cadical195", "direct/cadical195"))
    scatter = (tmp_path / "scatter.svg").read_text()
    assert tick_labels(scatter, "x") == tick_labels(scatter, "y") == ["1", "2", "5", "10"]
    assert tick_labels((tmp_path / "cactus.svg").read_text(), "x") == ["1", "2", "3", "4", "5"]


@pytest.mark.parametrize("folder", ["/tmp/satedge-test-dask-0else", "/tmp/satedge-test-dask-ab_3"])
def test_the_suites_dask_folder_reads_back_unchanged_and_without_a_warning(folder):
    # Dask reads its variables as Python literals: a bare folder ending in "-0else" printed a
    # SyntaxWarning in every process that loads Dask, a second line where an error has one
    pytest.importorskip("dask")
    env = {**os.environ, "DASK_TEMPORARY_DIRECTORY": dask_value(folder)}
    code = "import dask.config; print(dask.config.get('temporary-directory'))"
    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", code], env=env, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, folder + "\n", "")


def test_a_spec_whose_every_run_errors_says_so(run_cli, tmp_path):
    """Before: exit 0 and "2 runs done", and the report scored the errors as timeouts.  Now the
    summary counts them by status, names each with its first line, and exits 1 when nothing was
    measured; the report lists them apart and PAR-2 leaves them out."""
    f = write_spec(
        tmp_path,
        "name: broken\npuzzles: [{root}/puzzles/hunde-spiel.yaml, {root}/puzzles/insects.yaml]\n"
        "encodings: [edgecolor]\nsolvers: ['cmd:false']\ntimeout: 20\n",
    )
    out = tmp_path / "out"
    code, _, err = run_cli("run", f, "--out", out)
    failed = "solver command 'false' exited with 1: 'no output'"
    assert (code, err) == (
        1,
        f"broken: 2 runs done (2 ERROR), 0 were there already; results in {out / 'results.jsonl'}\n"
        f"satedge: error in a run: edgecolor/cmd:false on {ROOT}/puzzles/hunde-spiel.yaml: {failed}\n"
        f"satedge: error in a run: edgecolor/cmd:false on {ROOT}/puzzles/insects.yaml: {failed}\n"
        "satedge: every run of broken ended in an error: nothing was measured\n",
    )
    code, text, _ = run_cli("report", out, "--no-plots")
    assert code == 0 and "| edgecolor/cmd:false | 2 | 0 | 0 | 0 | 2 | - |" in text
    assert (
        "2 of 2 runs ended in an error, which PAR-2 leaves out; the first line of each:\n\n"
        f"- `edgecolor/cmd:false` on Das verflixte Hunde-Spiel: {failed}\n"
        f"- `edgecolor/cmd:false` on Insects: {failed}\n\n"
    ) in text
