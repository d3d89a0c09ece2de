"""Every engine, satedge's or yours, is one declaration (:mod:`satedge.engines`): each is
dispatched, documented, listed by `satedge solvers`, runs in the cross-check, counts and solves
the seed puzzles, and maximizes to the branch and bound's optimum where it maximizes, one test
over every engine the registry finds; a count stopped at its time limit keeps what it counted,
and an interrupted maximisation answers as well as one told its time limit; no engine's name is
written outside its own module; and the clasp engine counts as the backtracker does."""

import ast
import json
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest
from conftest import PUZZLES, ROOT, SEEDS, read_terminal, sigint_default, small_command_seconds
from docpages import text
from hypothesis import given, settings
from hypothesis import strategies as st

from satedge.backtrack import search as backtrack
from satedge.best.branch_and_bound import best_board
from satedge.encode import Encoding
from satedge.errors import Unsupported
from satedge.experiment.crosscheck import check_puzzle, default_configs
from satedge.jobs import Job, execute
from satedge.jobs.engine import TASKS
from satedge.jobs.registry import REFERENCE, SHIPPED, engines
from satedge.jobs.solver import SolverConfig
from satedge.puzzle import symmetry
from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.formats import load_puzzle, save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.strategies import puzzles
from satedge.sat.maxsat import EVALUATION_SOLVERS
from satedge.system.process import Limits

HUNDE = PUZZLES / "hunde-spiel.yaml"
SATEDGE = ROOT / "satedge"
ENGINES = engines()
# string constants that spell an engine's name outside its module, and why
NOT_ENGINES = {
    ("jobs/registry.py", "backtrack"): "REFERENCE: the engine every other is cross-checked against",
    ("jobs/solver.py", "pysat"): "PYSAT: the engine a PySAT solver's name, and the default solver, names",
    ("jobs/solver.py", "hermax"): "EVALUATION: the engine a MaxSAT Evaluation solver's name names",
    ("sat/solvers.py", "cmd"): "BINARY: the prefix of a solver binary's string, cmd:COMMAND",
    ("sat/maxsat.py", "hermax"): "the module that the MaxSAT Evaluation's solvers need",
    ("experiment/executors.py", "pysat"): "the PySAT package's version in a row's environment",
    ("sat/binaries.py", "clasp"): "a program looked for on PATH (KNOWN_BINARIES)",
    ("cli/solvers.py", "pysat"): "the key of `satedge solvers --json` listing the PySAT solvers",
    ("sat/solvers.py", "restarts"): "a SAT solver's statistic (STAT_KEYS)",
    ("backtrack/loop.py", "budget"): "a loop's parameter: the candidates a call may try",
    ("puzzle/formats.py", "field"): "the key puzzle files carried engine settings under, refused",
}


def example(name: str, task: str = "solve") -> str | None:
    """A solver string of the engine ``name`` that runs ``task`` here, or None: an engine named by
    its name, the default solver of the PySAT engine, a MaxSAT Evaluation solver, CaDiCaL's binary
    (to solve and count)."""
    e = ENGINES[name]
    if not e.installed() or task not in e.tasks:
        return None
    if e.named:
        return name
    if name == SolverConfig().engine:
        return str(SolverConfig())
    if any(e.tasks[t].run.__name__ == "evaluation" for t in e.tasks):
        return next(iter(EVALUATION_SOLVERS))
    return "cmd:cadical -q" if task != "maximize" and shutil.which("cadical") else None


def test_every_engine_is_declared_in_a_module_of_its_own_that_runs_it():
    modules = [e.source for e in ENGINES.values()]
    assert len(set(modules)) == len(modules)
    for e in ENGINES.values():
        assert e.tasks and set(e.tasks) <= set(TASKS), e.name
        assert (
            e.source.startswith(f"{SHIPPED}.")
            and (SATEDGE / "engines" / f"{e.source.split('.')[-1]}.py").is_file()
        )
        for task, does in e.tasks.items():  # its own job function, or what every formula engine shares
            assert does.run.__module__.split(".")[1] in ("engines", "jobs"), (e.name, task)


def test_no_engine_module_imports_another():
    found = []
    for path in sorted((SATEDGE / "engines").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                found.append(f"{path.name}: .{node.module}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(SHIPPED):
                found.append(f"{path.name}: {node.module}")
    assert found == []


def test_every_engine_is_documented():
    docs = text()
    for e in ENGINES.values():
        assert f"`{e.name}`" in docs, f"no page names the engine {e.name}"


def test_satedge_solvers_lists_every_engine(run_cli):
    code, out, err = run_cli("solvers", "--json")
    listed = json.loads(out)["engines"]
    assert (code, list(listed)) == (0, list(ENGINES))
    for name, e in ENGINES.items():
        assert listed[name] == {
            "formula": e.solves_formula,
            "installed": e.installed(),
            "extra": e.needs and e.needs.extra,
            "needs": e.needs and e.needs.module,
            "options": list(e.settings),
            "tasks": [
                t
                for t in ("solve", "enumerate", "count", "maximize")
                if t in e.tasks or (t == "enumerate" and "solve" in e.tasks and e.tasks["solve"].enumerates)
            ],
            "certify": "count" in e.tasks and e.tasks["count"].certifies,
            "summary": e.summary,
        }
    code, out, err = run_cli("solvers")
    assert [line.split()[0] for line in out.splitlines()[: len(ENGINES)]] == list(ENGINES)


def _runs(name: str, task: str) -> str:
    """A solver string of the engine for ``task``, or the test skips and says why."""
    e = ENGINES[name]
    if task not in e.tasks:
        pytest.skip(f"engine {name} answers {', '.join(e.tasks)} only")
    solver = example(name, task)
    if solver is None:
        pytest.skip(
            f"engine {name} cannot run {task} here (what it needs, {e.needs}, or its program is missing)"
        )
    return solver


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_runs_in_the_crosscheck(name):
    solver = _runs(name, "solve")
    configs = default_configs(["edgecolor-corners", "direct-pairwise"], [solver])
    assert len(configs) == (2 if ENGINES[name].solves_formula else 1)
    puzzle = load_puzzle(HUNDE)
    checks, mismatch = check_puzzle(puzzle, configs)
    assert mismatch is None and checks == (2 * 6 if ENGINES[name].solves_formula else 4)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_counts_and_solves_the_seed_puzzles(name):
    solver = _runs(name, "solve")
    for seed, counts in SEEDS.items():
        puzzle = load_puzzle(PUZZLES / f"{seed}.yaml")
        res = execute(Job(puzzle, "count", solver=solver, modes=symmetry.DEFAULT_MODES))
        assert tuple(res.counts[m] for m in symmetry.DEFAULT_MODES) == counts, seed
        first = execute(Job(puzzle, "solve", solver=solver, limit=1)).solutions
        every = execute(Job(puzzle, "solve", solver=solver)).solutions
        assert len(first) == 1 and set(first) <= set(every) and len(every) == counts[0]


def _one_label_off(puzzle):
    """The puzzle with the top label of its first inner tile changed: its planted board misses an edge."""
    tiles = list(puzzle.tiles)
    k = next(i for i, t in enumerate(tiles) if puzzle.frame not in t)
    other = next(x for t in tiles for x in t if x not in (puzzle.frame, tiles[k][0]))
    tiles[k] = (other, *tiles[k][1:])
    return puzzle.with_(tiles=tuple(tiles), planted=None)


# boards small enough that every engine finds the best in a few seconds, whose best board misses
# edges: a framed 4x4 (23 of 24) and a 3x3 without a frame (10 of 12)
MAXIMIZED = (
    _one_label_off(generate(Params(rows=4, cols=4, colors=5, border_colors=2, frame=True), seed=3)),
    generate(Params(rows=3, cols=3, colors=8, model="uniform"), seed=1),
)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_maximizes_to_the_branch_and_bounds_optimum(name):
    """The maximize engines' contract: a board that keeps the hard rules, scored as the checker
    scores it, at most the optimum the branch and bound proves; an engine that proves its answer
    (it needs no time limit) answers OPTIMUM at that optimum, an anytime one (it runs until its
    time limit, here 3 s) a board no better, its bound every edge where it proved nothing."""
    solver = _runs(name, "maximize")
    does = ENGINES[name].tasks["maximize"]
    for puzzle in MAXIMIZED:
        best = best_board(puzzle)
        edges = len(puzzle.board.adjacencies)
        assert best.score == best.bound < edges  # proved; not every edge fits
        res = execute(
            Job(puzzle, "maximize", solver=solver, limits=Limits(timeout=3 if does.timeout else None))
        )
        board = res.solutions[0]
        assert board_problem(puzzle, board) is None and score(puzzle, board) == res.score <= best.score, name
        if does.timeout:
            assert (res.status, res.bound) == ("TIMEOUT", edges), (name, puzzle.name)
        else:
            assert (res.status, res.score, res.bound) == ("OPTIMUM", best.score, best.score), (
                name,
                puzzle.name,
            )


# a board with astronomically many solutions (two labels, most tiles alike): no count ends in time
MANY = generate(Params(rows=4, cols=4, colors=2), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_keeps_what_it_counted_at_its_time_limit(name, tmp_path, run_cli):
    """Before: a count stopped at --timeout answered nothing, where its progress line had shown the
    solutions found so far.  Now each counting engine's last report (about every second, and at
    its first solution) is kept as a lower bound: ``at_least`` in the JSON.  The limit grows with
    the machine's load: CP-SAT finds its first solution after about 3 s on an idle machine; where
    none came in time (a machine far busier than when its load was measured), once more with
    four times the limit."""
    solver = _runs(name, "count")
    f = tmp_path / "many.yaml"
    save_puzzle(MANY, f)
    limit = max(8, round(8 * small_command_seconds()))
    for seconds in (limit, 4 * limit):
        code, out, err = run_cli("count", f, "--solver", solver, "--timeout", seconds, "--json")
        got = json.loads(out)
        if got.get("at_least"):
            break
    assert (code, got["status"], got["solutions"]) == (3, "TIMEOUT", None), err
    assert set(got.get("at_least", {})) in ({"solutions"}, {"solutions", "distinct"}), got
    assert got["at_least"]["solutions"] >= 1


def test_a_stopped_count_says_what_it_had_counted(tmp_path, run_cli):
    f = tmp_path / "many.yaml"
    save_puzzle(MANY, f)
    code, out, _ = run_cli("count", f, "--solver", "backtrack", "--workers", "1", "--timeout", "4")
    assert code == 3 and re.fullmatch(
        rf"{re.escape(str(f))}: TIMEOUT after 4 s; at least [\d,]+ solutions so far, a lower bound\n", out
    ), out


def _scores(shown: str) -> list[int]:
    """The best scores a status line showed, in turn."""
    seen = [int(n) for n in re.findall(r"best score (\d+)", shown)]
    return [n for i, n in enumerate(seen) if i == 0 or n != seen[i - 1]]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_answers_an_interrupt_with_the_best_board_it_holds(name):
    """Before: Ctrl-C at 15 s gave the field engine's first board on Eternity II's 8x8 (78 of 112
    edges) where --timeout 15 gave 97: it polished its best board at its time limit only.  A
    test that compared an interrupted run with one told its time limit, started together, failed
    on a busy machine (78 against 97).  Now, on a terminal, every maximize engine that reports
    its best score shows a better one than its first within minutes, and interrupted then
    answers a board at least as good as the last one its status line showed (the one it holds,
    where a search reports a worse one: CP-SAT's first solutions after its hint)."""
    solver = _runs(name, "maximize")
    workers = ["--workers", "1"] if ENGINES[name].tasks["maximize"].workers else []
    command = [sys.executable, "-m", "satedge", "maximize", "eternity2/8x8", "--solver", solver, *workers]
    command += ["--json"]
    if "loop" in {o.name for o in ENGINES[name].options} or name == "lns":  # its loop compiled first
        subprocess.run(command + ["--timeout", "1"], capture_output=True, timeout=600)
    terminal, stderr = pty.openpty()
    proc = subprocess.Popen(
        command + ["--timeout", "3600"], stdout=subprocess.PIPE, stderr=stderr, preexec_fn=sigint_default
    )
    os.close(stderr)
    # a first board within seconds (on an idle machine: half a second), a better one within minutes
    scale, t0 = max(1.0, small_command_seconds()), time.monotonic()

    def enough(shown: str) -> bool:
        s, waited = _scores(shown), time.monotonic() - t0
        return bool(s) and max(s) > s[0] or waited > (120 if s else 8) * scale

    try:
        scores = _scores(read_terminal(proc, terminal, enough, 3600))
        proc.send_signal(signal.SIGINT)
        kept, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
        os.close(terminal)
    assert proc.returncode == 130, kept
    if not scores:  # an engine that reports no board as it goes (a MaxSAT solver's cores)
        return
    answer = json.loads(kept)
    assert answer["status"] == "INTERRUPTED" and max(scores) > scores[0], (name, scores, answer["status"])
    assert answer["score"] >= scores[-1], (scores, answer["score"])


def _string_constants(tree: ast.AST):
    """Every string constant of a module but its docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def test_no_engine_name_is_written_outside_its_own_module():
    found = []
    for path in sorted(SATEDGE.rglob("*.py")):
        rel = path.relative_to(SATEDGE).as_posix()
        for node in _string_constants(ast.parse(path.read_text())):
            e = ENGINES.get(node.value)
            if (
                e is not None
                and rel != f"engines/{e.source.split('.')[-1]}.py"
                and (rel, e.name) not in NOT_ENGINES
            ):
                found.append(f"{rel}:{node.lineno}: {node.value!r}")
    assert found == []


def test_the_solver_option_and_method_help_read_the_declarations():
    from satedge.cli import build_parser

    count = next(a for a in build_parser()._actions if a.dest == "command").choices["count"]
    flat = " ".join(count.format_help().split())
    for e in ENGINES.values():
        if e.named and "count" in e.tasks:
            assert f"{e.name}: {' '.join(e.summary.split())}" in flat
    assert f"{REFERENCE}: the reference backtracker" in flat
    assert "lns:" not in flat  # it cannot count


def test_a_missing_extra_is_one_line_naming_it(monkeypatch, run_cli):
    from satedge.system import extras

    real = extras.importlib.import_module

    def without_clingo(name, *args):
        if name.split(".")[0] == "clingo":
            raise ModuleNotFoundError("No module named 'clingo'", name="clingo")
        return real(name, *args)

    monkeypatch.setattr(extras.importlib, "import_module", without_clingo)
    code, out, err = run_cli("count", HUNDE, "--solver", "clasp")
    assert (code, out, err) == (
        2,
        "",
        "satedge: error: the clasp engine needs clingo: pip install 'satedge[asp]'\n",
    )


# ---------------------------------------------------------------------------- the clasp engine
needs_clasp = pytest.mark.skipif(
    not ENGINES["clasp"].installed(), reason="clingo is not installed (pip install 'satedge[asp]')"
)
CLASP_PRESETS = (
    "edgecolor-corners",
    "edgecolor-corners-sym",
    "direct-pairwise",
    "split-ladder",
    "support-seqcounter",
    "heule2008-all",
)


@pytest.mark.slow
@needs_clasp
@settings(max_examples=40, deadline=None)
@given(
    puzzle=puzzles(max_cells=6),
    preset=st.sampled_from(CLASP_PRESETS),
    enumeration=st.sampled_from(["auto", "blocking"]),
)
def test_clasp_counts_as_the_backtracker_does(puzzle, preset, enumeration):
    """Identical tiles, tiles that look alike turned, tori, clues and frames, every count; with
    auxiliary variables (seqcounter) every model of the projection counted once."""
    try:
        Encoding.of(preset).encode(puzzle)
    except Unsupported:
        return
    allowed, orbit = backtrack.symmetry_broken(puzzle)
    expected = symmetry.count_weighted(puzzle, backtrack.weighted(puzzle, allowed=allowed), orbit)
    if (
        enumeration == "blocking" and expected.solutions > 5000
    ):  # every model listed: the counts by pictures suffice
        return
    res = execute(
        Job(
            puzzle,
            "count",
            solver=f"clasp:enumeration={enumeration}",
            encoding=preset,
            modes=symmetry.DEFAULT_MODES,
        )
    )
    assert tuple(res.counts[m] for m in symmetry.DEFAULT_MODES) == (
        expected.solutions,
        expected.distinct,
        expected.unique,
    )
    if expected.solutions <= 5000:
        blocking = execute(Job(puzzle, "count", solver="minisat22:enumeration=blocking", encoding=preset))
        assert res.counts["models"] == blocking.counts["models"]


@needs_clasp
@settings(max_examples=30, deadline=None)
@given(
    puzzle=puzzles(max_cells=6), preset=st.sampled_from(CLASP_PRESETS), mode=st.sampled_from(symmetry.MODES)
)
def test_clasp_gives_the_backtrackers_solutions(puzzle, preset, mode):
    try:
        encoded = Encoding.of(preset).encode(puzzle)
    except Unsupported:
        return
    expected = list(backtrack.solutions(puzzle, limit=2001))
    if len(expected) > 2000:
        return
    got = execute(Job(puzzle, "solve", solver="clasp", encoding=preset, modes=(mode,))).solutions
    if mode == "solutions" and encoded.orbit == 1:
        assert len(got) == len(set(got)) and set(got) == set(expected)
    elif mode != "solutions":
        want = symmetry.counts(puzzle, expected, symmetry.MODES)
        assert len(got) == want[mode] and set(got) <= set(expected)
        images = symmetry.group(puzzle) if mode == "classes" else None
        assert len(
            {
                symmetry.picture(puzzle, s)
                if mode == "distinct"
                else symmetry.canonical(puzzle, symmetry.picture(puzzle, s), images)
                for s in got
            }
        ) == len(got)


@needs_clasp
def test_clasp_with_a_limit_stops_there(run_cli):
    code, out, err = run_cli("solve", HUNDE, "--solver", "clasp", "--limit", "3", "--json")
    assert (code, err) == (0, "") and len(json.loads(out)["solutions"]) == 3
