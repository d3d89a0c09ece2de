"""One engine table (satedge.jobs.engines): every engine in it is dispatched, documented, listed by
`satedge solvers` and runs in the cross-check; no engine's name is written outside the table and
its own modules; and the clasp engine counts as the backtracker does."""

import ast
import json
import shutil

import pytest
from conftest import PUZZLES, ROOT, SEEDS
from docpages import text
from hypothesis import given, settings
from hypothesis import strategies as st

from satedge.backtrack import search as backtrack
from satedge.encode import Encoding
from satedge.errors import Unsupported
from satedge.experiment.crosscheck import check_puzzle, default_configs
from satedge.jobs import Job, execute
from satedge.jobs.engines import ENGINES, REFERENCE, TASKS
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.strategies import puzzles
from satedge.sat.solvers import DEFAULT_SOLVER

HUNDE = PUZZLES / "hunde-spiel.yaml"
SATEDGE = ROOT / "satedge"
# the modules each engine is made of, beside the table: its job module and what it alone uses
OWN = {
    "pysat": {"sat/solvers.py", "sat/solving.py", "jobs/sat.py", "jobs/portfolio.py"},
    "cmd": {"sat/solvers.py", "sat/binaries.py", "sat/solving.py", "jobs/sat.py"},
    "hermax": {"sat/maxsat.py", "jobs/sat.py"},
    "backtrack": {"backtrack/search.py", "backtrack/loop.py", "jobs/exact.py"},
    "cpsat": {"jobs/cpsat.py"},
    "clasp": {"jobs/clasp.py"},
    "lns": {"jobs/best.py", "best/lns.py"},
    "budget": {"jobs/best.py", "best/budget.py"},
    "restarts": {"jobs/best.py", "best/restarts.py"},
    "field": {"jobs/best.py", "best/field.py"},
}
# string constants that spell an engine's name but are not one
NOT_ENGINES = {
    ("experiment/executors.py", "pysat"): "the PySAT package's version in a row's environment",
    ("sat/binaries.py", "clasp"): "a program looked for on PATH (KNOWN_BINARIES)",
    ("cli/solvers.py", "pysat"): "the key of `satedge solvers --json` listing the PySAT solvers",
    ("sat/solvers.py", "restarts"): "a SAT solver's statistic (STAT_KEYS)",
    ("backtrack/loop.py", "budget"): "a loop's parameter: the candidates a call may try",
    ("puzzle/formats.py", "field"): "a puzzle file's key: the settings tuned for its board",
}


def example(name: str) -> str | None:
    """A solver string of the engine ``name`` that runs here, or None."""
    e = ENGINES[name]
    if not e.installed():
        return None
    if name == "pysat":
        return DEFAULT_SOLVER
    if name == "cmd":
        return "cmd:cadical -q" if shutil.which("cadical") else None
    if name == "hermax":
        return "uwrmaxsat"
    return name


def test_every_engine_is_dispatched_to_a_job_module_that_runs_it():
    for e in ENGINES.values():
        assert e.tasks and set(e.tasks) <= set(TASKS), e.name
        for task, does in e.tasks.items():
            module = does.run.__module__.split(".")
            assert module[:2] == ["satedge", "jobs"] and (SATEDGE / "jobs" / f"{module[2]}.py").is_file(), (
                task
            )


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


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_runs_in_the_crosscheck(name):
    solver = example(name)
    if "solve" not in ENGINES[name].tasks:
        pytest.skip(
            f"engine {name} answers {', '.join(ENGINES[name].tasks)} only (tests/test_maximize.py checks it)"
        )
    if solver is None:
        pytest.skip(
            f"engine {name} cannot run here (what it needs, {ENGINES[name].needs}, or its binary is missing)"
        )
    configs = default_configs(["edgecolor-corners", "direct-pairwise"], [solver])
    assert len(configs) == (2 if ENGINES[name].solves_formula else 1)
    puzzle = load_puzzle(HUNDE)
    checks, mismatch = check_puzzle(puzzle, configs)
    assert mismatch is None and checks == (2 * 5 if ENGINES[name].solves_formula else 3)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_counts_and_solves_the_seed_puzzles(name):
    solver = example(name)
    if "solve" not in ENGINES[name].tasks:
        pytest.skip(
            f"engine {name} answers {', '.join(ENGINES[name].tasks)} only (tests/test_maximize.py checks it)"
        )
    if solver is None:
        pytest.skip(
            f"engine {name} cannot run here (what it needs, {ENGINES[name].needs}, or its binary is missing)"
        )
    for seed, counts in SEEDS.items():
        puzzle = load_puzzle(PUZZLES / f"{seed}.yaml")
        res = execute(Job(puzzle, "count", solver=solver, modes=symmetry.MODES))
        assert tuple(res.counts[m] for m in symmetry.MODES) == counts, seed
        first = execute(Job(puzzle, "solve", solver=solver, limit=1)).solutions
        every = execute(Job(puzzle, "solve", solver=solver)).solutions
        assert len(first) == 1 and set(first) <= set(every) and len(every) == counts[0]


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


def test_no_engine_name_is_written_outside_the_table_and_its_own_modules():
    names = set(ENGINES)
    found = []
    for path in sorted(SATEDGE.rglob("*.py")):
        rel = path.relative_to(SATEDGE).as_posix()
        if rel == "jobs/engines.py":  # the table
            continue
        tree = ast.parse(path.read_text())
        if rel == "api.py":  # auto's policy, the API's default: that function alone
            tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name == "choose")]
        for node in _string_constants(tree):
            if node.value in names and rel not in OWN[node.value] and (rel, node.value) not in NOT_ENGINES:
                found.append(f"{rel}:{node.lineno}: {node.value!r}")
    assert found == []
    assert {rel for rels in OWN.values() for rel in rels} <= {
        p.relative_to(SATEDGE).as_posix() for p in SATEDGE.rglob("*.py")
    }


def test_the_solver_option_and_method_help_read_the_table():
    from satedge.cli import build_parser

    count = next(a for a in build_parser()._actions if a.dest == "command").choices["count"]
    flat = " ".join(count.format_help().split())
    for e in ENGINES.values():
        if e.name not in ("pysat", "cmd") and "count" in e.tasks:
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
        Job(puzzle, "count", solver=f"clasp:enumeration={enumeration}", encoding=preset, modes=symmetry.MODES)
    )
    assert tuple(res.counts[m] for m in symmetry.MODES) == (
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
        want = symmetry.count(puzzle, expected)
        assert len(got) == getattr(want, mode) and set(got) <= set(expected)
        assert len(
            {
                symmetry.picture(puzzle, s)
                if mode == "distinct"
                else symmetry.canonical(puzzle, symmetry.picture(puzzle, s))
                for s in got
            }
        ) == len(got)


@needs_clasp
def test_clasp_with_a_limit_stops_there(run_cli):
    code, out, err = run_cli("solve", HUNDE, "--solver", "clasp", "--limit", "3", "--json")
    assert (code, err) == (0, "") and len(json.loads(out)["solutions"]) == 3
