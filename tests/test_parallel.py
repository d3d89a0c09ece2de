"""One puzzle on several workers: the SAT portfolio and cube-and-conquer on this machine, and the
SAT method and the backtracker on a Dask LocalCluster, give exactly the backtracker's counts and
solution sets; a time limit covers every worker; a scheduler that does not answer stops the
command before anything starts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from itertools import islice

import pytest
from conftest import PUZZLES, ROOT, alive, small_command_seconds
from hypothesis import HealthCheck, assume, given, settings
from pysat.solvers import Solver

from satedge.backtrack import loop as driver
from satedge.backtrack import search as backtrack
from satedge.encode.presets import Encoding, presets
from satedge.errors import SatedgeError, Unsupported
from satedge.experiment import load_results
from satedge.experiment.runner import run_experiment
from satedge.experiment.spec import load_spec
from satedge.jobs import Job, dispatch, run
from satedge.jobs.cubes import tree_split
from satedge.jobs.portfolio import members as portfolio
from satedge.jobs.solver import SolverConfig
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.strategies import puzzles
from satedge.sat import cubes
from satedge.sat.solving import MODES, STAT_KEYS, Enumerator
from satedge.system import proctree
from satedge.system.process import Limits, call

SLOW = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def reference(p) -> tuple[dict, set]:
    """The backtracker's counts and solutions; puzzles with more than 200 solutions are left out
    (as the cross-check does): a 6-cell puzzle can have millions."""
    sols = set(islice(backtrack.solutions(p), 201))
    assume(len(sols) <= 200)
    return symmetry.counts(p, sols, MODES), sols


@pytest.mark.slow
@SLOW
@given(puzzles(max_cells=6))
def test_cubes_and_portfolio_count_and_enumerate_what_the_backtracker_does(p):
    counts, sols = reference(p)
    for strategy, preset in [
        ("cubes", "edgecolor-corners"),
        ("cubes", "edgecolor-corners-sym"),
        ("cubes", "direct-pairwise"),
        ("portfolio", "support-seqcounter"),
    ]:
        res = run(
            Job(
                p,
                "count",
                modes=MODES,
                encoding=preset,
                solver=SolverConfig(workers=2, settings={"strategy": strategy}),
            )
        )
        assert {m: res.counts[m] for m in MODES} == counts, (strategy, preset)
        assert res.parallel["strategy"] == strategy and res.parallel["workers"] == 2
    res = run(Job(p, "solve", solver="cadical195:workers=2,strategy=cubes"))  # every solution, each once
    assert len(res.solutions) == len(sols) and set(res.solutions) == sols
    for strategy in ("cubes", "portfolio"):
        first = run(Job(p, "solve", limit=1, solver=SolverConfig(workers=2, settings={"strategy": strategy})))
        assert (
            first.status == ("SAT" if sols else "UNSAT")
            and set(first.solutions) <= sols
            and len(first.solutions) == min(1, len(sols))
        )
    unique = run(Job(p, "solve", modes=("unique",), solver="cadical195:workers=2,strategy=cubes"))
    assert len(unique.solutions) == counts["unique"]
    assert len({symmetry.canonical(p, symmetry.picture(p, s)) for s in unique.solutions}) == counts["unique"]


def test_a_walk_over_every_model_splits_into_smaller_cubes():
    """Counting (and solve without a limit) walks every model: 64 cubes per worker; a first
    solution: 16 per worker."""
    p = load_puzzle(PUZZLES / "board-suite" / "6" / "8" / "board_0.yaml")
    every = run(Job(p, "count", solver="cadical195:workers=2,strategy=cubes"))
    first = run(Job(p, "solve", limit=1, solver="cadical195:workers=2,strategy=cubes"))
    assert (every.counts, every.parallel["cubes"], first.status, first.parallel["cubes"]) == (
        {"solutions": 1, "models": 1},
        128,
        "SAT",
        32,
    )


@pytest.mark.slow
def test_cubes_partition_the_models():
    """Every model of the formula lies in exactly one cube (18,432 solutions of a 4x4, 64 cubes);
    refuted branches hold none.  The split is best first: the cubes come from the most free
    decision variables to the fewest, none with more than 40 of the 138 (the split breadth first
    left one with 97 and four with 2,304 solutions; now the largest holds 576)."""
    p = generate(Params(rows=4, cols=4, colors=3, border_colors=1, frame=True, clues=1), 4)
    e = Encoding.parse("edgecolor-corners").encode(p)
    split = cubes.split(e, 64)
    assert len(split.cubes) == 64 and split.refuted >= 0
    decision = set(e.decision)
    with Solver(name=cubes.LOOKAHEAD, bootstrap_with=e.cnf.clauses) as s:
        free = [
            len(
                decision - {abs(lit) for lit in s.propagate(assumptions=list(c))[1]} - {abs(lit) for lit in c}
            )
            for c in split.cubes
        ]
    assert free == sorted(free, reverse=True) and (len(decision), max(free)) == (138, 40)
    per_cube = [c.solutions for c in cubes.conquer(e, split.cubes, 2)]
    assert max(map(len, per_cube)) == 576
    every = [s for found in per_cube for s in found]
    assert len(every) == len(set(every)) == 18432
    assert set(every) == set(backtrack.solutions(p))
    times = [c.seconds for c in cubes.solve_cubes(e, "cadical195", split.cubes[:8])]
    assert len(times) == 8 and cubes.makespan(times, 1) == pytest.approx(sum(times))
    assert all(set(c.counters) == set(STAT_KEYS) for c in cubes.conquer(e, split.cubes[:4], 2))


@SLOW
@given(puzzles(max_cells=6))
def test_the_backtrackers_cubes_partition_every_presets_models(p):
    """``cubes=backtracker``: the roots of the backtracker's tree (every turn and copy tried) as
    cubes of each shipped preset; their solutions, cube by cube, are the whole formula's, each in
    one cube only (and without symmetry breaking the backtracker's)."""
    _, sols = reference(p)
    for name, encoding in presets().items():
        try:
            e = encoding.encode(p)
        except Unsupported:
            continue
        made = tree_split(e, 8)
        found = [s for c in cubes.solve_cubes(e, "cadical195", made.cubes) for s in c.solutions]
        (whole,) = cubes.solve_cubes(e, "cadical195", [()])
        assert len(found) == len(set(found)) and set(found) == set(whole.solutions), name
        if e.orbit == 1:
            assert {x for s in found for x in e.expand(s)} == sols, name


def test_the_backtrackers_cubes_without_the_compiled_search_say_so(monkeypatch):
    """Where the compiled search's tables cannot be built, the error names ``--cubes backtracker``."""
    monkeypatch.setattr(backtrack, "compiled_available", lambda puzzle: False)
    e = presets()["edgecolor-corners"].encode(generate(Params(rows=2, cols=2, colors=2), 1))
    with pytest.raises(SatedgeError) as got:
        tree_split(e, 8)
    assert str(got.value).startswith("--cubes backtracker needs the compiled search: numba")


@pytest.mark.slow
def test_the_backtrackers_cubes_on_one_worker_and_two():
    """On a 4x4 of 18,432 solutions with identical tiles and a clue: the count by the backtracker's
    cubes (each model blocked, the walk shared), on one worker and on two, is the backtracker's;
    the cubes place the first cells of its fill order, as many as give at least 64 (one worker,
    a walk) or 128 (two): 168 of 3 cells both.  A first solution is one of the backtracker's."""
    p = generate(Params(rows=4, cols=4, colors=3, border_colors=1, frame=True, clues=1), 4)
    for workers, made in [(1, 168), (2, 168)]:
        res = run(
            Job(p, "count", solver=f"cadical195:workers={workers},cubes=backtracker,enumeration=blocking")
        )
        assert res.counts["solutions"] == 18432
        assert (res.parallel["made_by"], res.parallel["cubes"]) == ("backtracker", made)
    first = run(Job(p, "solve", limit=1, solver="cadical195:cubes=backtracker"))
    assert first.status == "SAT" and set(first.solutions) <= set(backtrack.solutions(p))
    with pytest.raises(
        SatedgeError,
        match=re.escape("cubes= applies to cube-and-conquer (the cubes strategy), not to a portfolio"),
    ):
        Job(p, solver="cadical195:workers=2,strategy=portfolio,cubes=backtracker")


@pytest.mark.slow
def test_a_cube_reports_the_solver_statistics_it_cost():
    """The whole formula as one cube costs what one enumeration with the same solver costs."""
    e = Encoding.parse("direct-pairwise").encode(load_puzzle(PUZZLES / "hunde-spiel.yaml"))
    with Enumerator(e, "cadical195", reuse=False) as plain:
        n = sum(1 for _ in plain.solutions())
        expected = plain.counters()
    (whole,) = cubes.solve_cubes(e, "cadical195", [()])
    assert (whole.found, whole.counters) == (n, expected) and n == 16 and expected["conflicts"] > 0
    assert cubes.solve_cubes(e, "kissat404", [()])[0].counters is None  # Kissat gives none


def test_a_portfolio_is_diverse():
    p = generate(Params(rows=3, cols=3, colors=3), 1)
    members = portfolio(Job(p, solver="cadical195:sat,workers=4", shuffle=2))
    assert [(str(m.solver), m.shuffle) for m in members] == [
        ("cadical195:sat", 2),
        ("kissat404", 1),
        ("cadical195:sat", 3),
        ("kissat404", 4),
    ]
    assert {m.solver.workers for m in members} == {1}


@pytest.mark.slow
def test_the_cli_counts_and_solves_with_workers(run_cli):
    hunde = PUZZLES / "hunde-spiel.yaml"
    for strategy in ("cubes", "portfolio"):
        code, out, err = run_cli("count", hunde, "--workers", "2", "--strategy", strategy, "--json")
        row = json.loads(out)
        assert (code, err, row["solutions"], row["distinct"], row["unique"]) == (0, "", 16, 8, 2)
    code, out, _ = run_cli("solve", hunde, "--workers", "2", "--all", "--json")
    assert code == 0 and len(json.loads(out)["solutions"]) == 16
    code, out, _ = run_cli("count", hunde, "--workers", "2", "--encoding", "edgecolor-corners-sym", "--json")
    assert (json.loads(out)["solutions"], json.loads(out)["unique"]) == (16, 2)


@pytest.mark.slow
def test_a_spec_gives_a_solver_workers(tmp_path):
    f = tmp_path / "w.yaml"
    f.write_text(
        f"name: w\npuzzles: [{PUZZLES / 'hunde-spiel.yaml'}]\nencodings: [edgecolor-corners]\n"
        "solvers: [cadical195, 'cadical195:workers=2,strategy=cubes', 'kissat404:workers=2,strategy=portfolio']\n"
        "task: {count: solutions}\ntimeout: 60\n"
    )
    run_experiment(load_spec(f), tmp_path / "out", workers=1)
    df = load_results(tmp_path / "out").set_index("solver")
    assert (
        df.loc["cadical195", "workers"] == 1 and df.loc["cadical195:workers=2,strategy=cubes", "workers"] == 2
    )
    assert list(df["models"]) == [16, 16, 16]
    assert df.loc["cadical195:workers=2,strategy=cubes", "parallel"]["strategy"] == "cubes"
    assert SolverConfig.parse("kissat404:workers=3") == SolverConfig("pysat", "kissat404", workers=3)
    for bad, message in [
        ("cadical195:workers=0", "workers=N takes N from 1 to 1,024"),
        ("cadical195:workers=2,strategy=halves", "strategy is one of portfolio, cubes"),
    ]:
        with pytest.raises(SatedgeError, match=message):
            SolverConfig.parse(bad)
    f.write_text(f.read_text().replace("'cadical195:workers=2,strategy=cubes'", "'kissat404:strategy=cubes'"))
    with pytest.raises(
        SatedgeError,
        match="solver kissat404:strategy=cubes: a strategy applies with workers=N "
        r"\(N at least 2\) or a Dask scheduler",
    ):
        load_spec(f)


def _hard_puzzle(tmp_path):
    from satedge.puzzle.formats import save_puzzle

    f = tmp_path / "hard.yaml"
    save_puzzle(
        generate(Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), 1).with_(planted=None), f
    )
    return f


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["portfolio", "cubes"])
def test_a_timeout_covers_every_worker(tmp_path, strategy):
    """`solve --workers 2 --timeout 5` on a puzzle no configuration solves in 50 s ends within 5 s
    and three times what a small command takes here now (its own start-up included), with no
    process left."""
    command = [
        sys.executable,
        "-m",
        "satedge",
        "solve",
        str(_hard_puzzle(tmp_path)),
        "--workers",
        "2",
        "--strategy",
        strategy,
        "--timeout",
        "5",
    ]
    unit = small_command_seconds()
    t0 = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: set[int] = set()
    while proc.poll() is None:
        seen.update(p.pid for p in proctree.tree(proc.pid)[1:])
        time.sleep(0.05)
    elapsed = time.monotonic() - t0
    out, err = proc.communicate()
    assert (proc.returncode, out.split(": ", 1)[1].split(" (")[0], err) == (3, "TIMEOUT", "")
    assert elapsed < 5 + 3 * unit, (elapsed, unit)  # the timeout and a command's start-up, however loaded
    assert len(seen) >= 3  # the job's process and its two workers
    assert not [p for p in seen if alive(p)]


@pytest.mark.slow
def test_a_stopped_portfolio_keeps_the_formula_size(tmp_path):
    """A portfolio killed by its time limit still says how big its formula is (the row's
    variables and clauses), as a single-core run does."""

    from satedge.puzzle.formats import load_puzzle

    p = load_puzzle(_hard_puzzle(tmp_path))
    job = Job(p, solver="cadical195:workers=2,strategy=portfolio", limit=1, limits=Limits(timeout=3))
    res = run(job)
    size = job.encoding.size(p)
    assert (res.status, res.variables, res.clauses) == ("TIMEOUT", size.variables, size.clauses)


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_stops_the_command_first(run_cli):
    code, out, err = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--scheduler", "tcp://127.0.0.1:1")
    assert (code, out) == (2, "")
    assert err == (
        f"satedge: error: {PUZZLES / 'hunde-spiel.yaml'}: cannot reach the Dask scheduler at tcp://127.0.0.1:1: "
        "Timed out trying to connect to tcp://127.0.0.1:1 after 10 s\n"
    )


@pytest.mark.slow
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(p=puzzles(max_cells=6))
def test_on_a_dask_cluster_the_counts_and_solutions_are_the_backtrackers(scheduler, p):
    counts, sols = reference(p)
    limits = Limits(timeout=120, memory_mb=2048)
    for engine in ("cadical195", "backtrack"):
        res = run(Job(p, "count", solver=engine, modes=MODES, scheduler=scheduler, limits=limits))
        assert {m: res.counts[m] for m in MODES} == counts, engine
    here = run(Job(p, "count", solver="backtrack", modes=MODES))
    assert res.nodes == here.nodes  # the cluster's tasks place the tiles one search places
    every = run(Job(p, "solve", scheduler=scheduler, limits=limits))
    assert len(every.solutions) == len(sols) and set(every.solutions) == sols
    assert every.parallel["strategy"] == "cubes" and every.parallel["workers"] == 2


@pytest.mark.slow
def test_a_job_on_a_dask_cluster_under_limits_runs_in_a_new_interpreter(scheduler, monkeypatch):
    """Killed at its time limit with its Dask client, and never a fork of this process and its
    threads.  It ran in the command's own process, where the limit's signal once landed in Dask's
    code as it forked and left logging's lock held: the next command on the cluster hung."""
    started = []
    monkeypatch.setattr(dispatch, "here", lambda *a, **k: pytest.fail("the job ran in this process"))
    monkeypatch.setattr(dispatch, "call", lambda *a, **k: started.append(k["fresh"]) or call(*a, **k))
    hunde = load_puzzle(PUZZLES / "hunde-spiel.yaml")
    job = Job(
        hunde, "count", solver="backtrack", modes=MODES, scheduler=scheduler, limits=Limits(timeout=120)
    )
    counts = run(job).counts
    assert ({m: counts[m] for m in MODES}, started) == (
        {"solutions": 16, "distinct": 8, "unique": 2, "classes": 2},
        [True],
    )


@pytest.mark.slow
def test_a_cluster_task_hands_back_the_rest_of_its_share_when_its_time_is_up(monkeypatch):
    # what each Dask task runs: stopped at its first pause (20,000 candidates, no time), its share
    # comes back split until nothing is left; the solutions and the cost are those of one search
    p = generate(Params(rows=3, cols=4, colors=4, topology="torus"), seed=1)
    search = backtrack.plan(p, order="rows", distinct=False)
    whole = backtrack.Cost()
    alone = sorted(backtrack.solutions(p, cost=whole, order=search, loop="numba"), key=str)
    monkeypatch.setattr(driver, "CALL_BUDGET", 20_000)
    cost = backtrack.Cost()
    shares, found, tasks = [backtrack.prefixes(p, 2, search, cost)], [], 0
    while shares:
        got, (candidates, nodes), rest = backtrack.subtrees(p, shares.pop(), None, search, seconds=0)
        found, tasks = found + got, tasks + 1
        cost.candidates, cost.nodes = cost.candidates + candidates, cost.nodes + nodes
        shares += [rest[::2], rest[1::2]] if rest else []
    assert sorted(found, key=str) == alone and len(alone) == 4224 and tasks > 100
    assert (cost.candidates, cost.nodes) == (whole.candidates, whole.nodes)


@pytest.mark.slow
def test_the_cli_on_a_dask_cluster(run_cli, scheduler):
    hunde = PUZZLES / "hunde-spiel.yaml"
    for method in ("sat", "backtrack"):
        code, out, err = run_cli("count", hunde, "--method", method, "--scheduler", scheduler, "--json")
        row = json.loads(out)
        assert (code, err, row["solutions"], row["distinct"], row["unique"]) == (0, "", 16, 8, 2)
    code, out, _ = run_cli("solve", hunde, "--scheduler", scheduler, "--strategy", "portfolio", "--json")
    assert code == 0 and json.loads(out)["status"] == "SAT"


@pytest.mark.slow
def test_the_committed_hybrid_study_says_what_its_rows_say(tmp_path, run_cli):
    """experiments/bench-hybrid.md quotes `report --compare` on its committed rows: the Friedman
    test, the pairs, and each configuration's instances solved, PAR-2 and median."""
    (tmp_path / "results.jsonl").write_bytes(
        (ROOT / "experiments" / "bench-hybrid-results.jsonl").read_bytes()
    )
    sat = [f"edgecolor-corners-sym/cadical195:sat{c}" for c in ("", ",cubes=backtracker", ",cubes=lookahead")]
    code, out, err = run_cli("report", tmp_path, "--no-plots", "--compare", *sat)
    assert code == 0, err
    page = (ROOT / "experiments" / "bench-hybrid.md").read_text()
    quoted = [line.removeprefix("> ") for line in page.splitlines() if line.startswith("> ")]
    assert len(quoted) == 3 and all(line in out for line in quoted)
    for config, name, solved, par2, median in (
        ("backtrack/backtrack", "backtracker", "14 of 15", "14.8 (0.4 to 42.0)", "0.233"),
        (sat[0], "the solver alone", "11 of 15", "82.8 (47.4 to 122.0)", "37.131"),
        (sat[2], "`cubes=lookahead`", "10 of 15", "88.2 (47.6 to 130.3)", "30.409"),
        (sat[1], "`cubes=backtracker`", "6 of 15", "128.3 (80.8 to 173.8)", "10.78"),
    ):
        assert f"| {config} | 15 | {solved} (" in out and f") | {par2} |" in out
        assert f"| {name} | {solved} | {par2} | {median} |" in page
    guide = " ".join((ROOT / "docs" / "guides" / "parallel.md").read_text().split())
    assert (
        "6 of 15 peak puzzles against the solver's 11, a PAR-2 1.55 times the solver's (interval 1.00 to 2.79)"
        in guide
    )
