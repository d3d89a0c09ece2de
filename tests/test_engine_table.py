"""The engine table is the whole contract of an engine: a toy engine, defined here by a job
function and a table entry and nothing else, is picked up by the parser's refusals, `satedge
solvers`, the cross-check and the engine list of the documentation."""

from __future__ import annotations

import argparse
import json
import sys
from itertools import islice, permutations, product
from pathlib import Path

import pytest

from satedge.backtrack import solutions as backtracked
from satedge.cli import build_parser
from satedge.errors import SatedgeError
from satedge.experiment import crosscheck
from satedge.jobs import Job, engines, run
from satedge.jobs.config import SolverConfig
from satedge.jobs.engines import ENGINES, Engine, Option, Task
from satedge.jobs.result import Result
from satedge.puzzle import symmetry
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.model import Puzzle, Solution
from satedge.system.extras import Need

DOCS = Path(__file__).resolve().parents[1] / "docs"


def brute(job: Job, note=None) -> Result:
    """Every tile in every cell in every turn, each arrangement checked: boards of at most 4 cells."""
    p = job.puzzle
    if p.n > 4:
        raise SatedgeError(f"brute force takes boards of at most 4 cells, not {p.n}")
    found = [
        s
        for order in permutations(range(len(p.tiles)))
        for turns in product(range(4), repeat=p.n)
        if validate(p, s := Solution(tuple(zip(order, turns)))) is None
    ]
    res = Result("UNSAT")
    if job.task == "count":
        res.counts = symmetry.counts(p, found, job.modes)
    else:
        res.solutions = list(islice(symmetry.one_per_picture(p, found, job.modes[0]), job.limit))
    res.status = "SAT" if found else "UNSAT"
    return res


TOY = Engine(
    name="brute",
    summary="brute force, every arrangement checked, for boards of at most 4 cells",
    tasks=dict.fromkeys(("solve", "count"), Task(run=brute, modes=("solutions", "distinct"))),
)


@pytest.fixture
def toy(monkeypatch):
    """The table with the toy engine in it (the table is a plain dict: one entry is all it takes)."""
    monkeypatch.setitem(ENGINES, TOY.name, TOY)
    return TOY


def two_by_two() -> Puzzle:
    return Puzzle(rows=2, cols=2, tiles=((0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0)), frame=0)


def test_a_toy_engine_answers_through_the_one_dispatch(toy):
    p = two_by_two()
    want = symmetry.count(p, backtracked(p))
    res = run(Job(p, "count", solver="brute", modes=("solutions", "distinct")))
    assert res.counts == {"solutions": want.solutions, "distinct": want.distinct}
    assert str(SolverConfig.parse("brute")) == "brute"


def test_the_parser_refuses_what_the_toy_cannot_do(toy, run_cli, tmp_path):
    puzzle = tmp_path / "two.yaml"
    save_puzzle(two_by_two(), puzzle)
    refusals = {
        (
            "count",
            str(puzzle),
            "--solver",
            "brute",
            "--workers",
            "2",
        ): "workers=N applies to PySAT solvers, solver binaries, backtrack, budget, restarts, field, lns and cpsat "
        "only, not to brute",
        (
            "count",
            str(puzzle),
            "--solver",
            "brute",
            "--mode",
            "unique",
        ): "the brute engine cannot answer mode unique: it answers solutions and distinct",
        (
            "count",
            str(puzzle),
            "--solver",
            "brute",
            "--mode",
            "distinct",
            "--certify",
        ): "a certified answer needs an engine that proves what it answers (PySAT solvers and solver binaries), "
        "not brute",
        (
            "count",
            str(puzzle),
            "--solver",
            "brute",
            "--mode",
            "distinct",
            "--encoding",
            "support",
        ): "brute has its own model: it takes no encoding ('support')",
        (
            "count",
            str(puzzle),
            "--solver",
            "brute",
            "--mode",
            "distinct",
            "--scheduler",
            "tcp://127.0.0.1:1",
        ): "a Dask scheduler applies to the engines whose parts run there (PySAT solvers, solver binaries, "
        "backtrack), not to brute",
    }
    for argv, line in refusals.items():
        assert run_cli(*argv) == (2, "", f"satedge: error: {line}\n"), argv
    code, out, err = run_cli("count", str(puzzle), "--solver", "brute", "--mode", "distinct")
    assert (code, err) == (0, "") and out.startswith(f"{puzzle}: 1 distinct (brute, ")


def test_a_toy_that_finds_one_solution_refuses_to_list_several(monkeypatch, run_cli, tmp_path):
    first = Engine(
        name="first",
        summary="one solution",
        tasks={"solve": Task(run=brute, enumerates=False), "count": Task(run=brute)},
    )
    monkeypatch.setitem(ENGINES, "first", first)
    with pytest.raises(
        SatedgeError,
        match="^the first engine finds one solution: it cannot list several "
        r"\(--all, --limit\)$",
    ):
        Job(two_by_two(), "solve", solver="first", limit=None)
    assert crosscheck.checks_of(ENGINES["first"]) == ("first", "distinct", "unique")


def test_satedge_solvers_lists_the_toy(toy, run_cli):
    code, out, err = run_cli("solvers", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["engines"]["brute"] == {
        "formula": False,
        "installed": True,
        "extra": None,
        "needs": None,
        "options": [],
        "tasks": ["solve", "enumerate", "count"],
        "certify": False,
        "summary": TOY.summary,
    }


def test_a_missing_need_is_one_line_naming_it(monkeypatch, run_cli, tmp_path):
    needy = Engine(
        name="needy",
        tasks=TOY.tasks,
        summary="needs what is not here",
        needs=Need(module="no_such_module_of_satedge", extra="brute"),
    )
    monkeypatch.setitem(ENGINES, needy.name, needy)
    assert run_cli("count", "hunde-spiel", "--solver", "needy") == (
        2,
        "",
        "satedge: error: the needy engine needs no_such_module_of_satedge: pip install 'satedge[brute]'\n",
    )
    code, out, _ = run_cli("solvers")
    line = next(line for line in out.splitlines() if line.startswith("needy "))
    assert code == 0 and line.endswith(
        " needs what is not here [not installed: pip install 'satedge[brute]']"
    )
    binary = Engine(
        name="prog", tasks=TOY.tasks, summary="a program", needs=Need(binary="no-such-program-of-satedge")
    )
    monkeypatch.setitem(ENGINES, binary.name, binary)
    assert run_cli("count", "hunde-spiel", "--solver", "prog") == (
        2,
        "",
        "satedge: error: the prog engine needs the program no-such-program-of-satedge on PATH\n",
    )


def test_the_cross_check_asks_the_table_and_checks_the_toy(toy):
    assert crosscheck.checks_of(toy) == ("solutions", "distinct")
    configs = crosscheck.default_configs(solvers=["brute"])
    assert configs == [(None, SolverConfig(engine="brute"))]
    checks, mismatch = crosscheck.check_puzzle(two_by_two(), configs)
    assert (checks, mismatch) == (2, None)  # the solution set, then the one count it answers beside it

    def wrong(job, note=None):  # one solution short
        res = brute(job, note)
        res.solutions = res.solutions[1:]
        return res

    engines.ENGINES["brute"] = Engine(name="brute", summary="wrong", tasks={"solve": Task(run=wrong)})
    checks, mismatch = crosscheck.check_puzzle(two_by_two(), configs)
    assert checks == 0 and mismatch.problem == "23 solutions, the backtracker has 24"


def test_the_docs_engine_list_names_the_toy(toy):
    sys.path.insert(0, str(DOCS))
    try:
        import build_pages
    finally:
        sys.path.remove(str(DOCS))
    page = build_pages.engines_reference()
    assert (
        f"| `brute` | {TOY.summary} | no | none | solve, count, several solutions | no | no | the core |"
        in page.splitlines()
    )
    assert [line.split("`")[1] for line in page.splitlines() if line.startswith("| `")] == list(ENGINES)


# ---------------------------------------------------------------------------- a toy engine that maximizes
@pytest.fixture
def toymax(monkeypatch):
    """The table with the toy maximize engine in it: its module (tests/toy_maximize.py) and its
    one entry are all it takes."""
    import toy_maximize

    monkeypatch.setitem(ENGINES, toy_maximize.ENTRY.name, toy_maximize.ENTRY)
    return toy_maximize.ENTRY


def uniform_two_by_two() -> Puzzle:
    """A 2x2 without a frame, whose best board misses an edge or more."""
    return Puzzle(rows=2, cols=2, tiles=((1, 2, 3, 1), (2, 2, 1, 3), (3, 1, 2, 2), (1, 3, 3, 2)))


def test_a_toy_maximize_engine_answers_the_command_the_api_and_the_listings(toymax, run_cli, tmp_path):
    from satedge import maximize
    from satedge.best.branch_and_bound import best_board

    p = uniform_two_by_two()
    puzzle = tmp_path / "two.yaml"
    save_puzzle(p, puzzle)
    best = best_board(p)
    code, out, err = run_cli("maximize", puzzle, "--method", "toymax", "--json")
    answer = json.loads(out)
    assert (code, err) == (0, "")
    assert (answer["status"], answer["score"], answer["bound"], answer["solver"]) == (
        "OPTIMUM",
        best.score,
        best.score,
        "toymax",
    )
    assert maximize(p, method="toymax").score == best.score
    from satedge.cli import build_parser

    command = next(a for a in build_parser()._actions if a.dest == "command").choices["maximize"]
    assert "toymax: every arrangement scored, the best board proved" in " ".join(
        command.format_help().split()
    )
    code, out, _ = run_cli("solvers", "--json")
    assert json.loads(out)["engines"]["toymax"]["tasks"] == ["maximize"]
    assert run_cli("count", puzzle, "--solver", "toymax") == (
        2,
        "",
        "satedge: error: the toymax engine cannot count: it answers maximize\n",
    )
    assert run_cli("maximize", puzzle, "--method", "toymax", "--workers", "2") == (
        2,
        "",
        "satedge: error: workers=N applies to PySAT solvers, solver binaries, backtrack, budget, restarts, field, "
        "lns and cpsat only, not to toymax\n",
    )
    sys.path.insert(0, str(DOCS))
    try:
        import build_pages
    finally:
        sys.path.remove(str(DOCS))
    assert f"| `toymax` | {toymax.summary} | no | none | maximize | no | no | the core |" in (
        build_pages.engines_reference().splitlines()
    )


# ---------------------------------------------------------------------------- an engine with an option
def _tries(value) -> int:
    """A positive whole number of tries, or its digits."""
    value = int(value) if isinstance(value, str) and value.isdigit() else value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(value)
    return value


TRIES = Option(
    name="tries",
    what="a number of tries",
    convert=_tries,
    wrong="tries must be a positive whole number, not {value}",
    written="tries=N takes a positive whole number",
    metavar="N",
    help="--method sampler: how many arrangements it tries (default: 24)",
)


def sampled(job: Job, note=None) -> Result:
    """The first arrangement that keeps every rule among the first ``tries`` (default 24)."""
    p, tries = job.puzzle, job.solver.get("tries") or 24
    arrangements = (
        Solution(tuple(zip(o, t)))
        for o in permutations(range(len(p.tiles)))
        for t in product(range(4), repeat=p.n)
    )
    found = [s for s in islice(arrangements, tries) if validate(p, s) is None][:1]
    return Result("SAT" if found else "UNSAT", solutions=found)


SAMPLER = Engine(
    name="sampler",
    method=True,
    options=(TRIES,),
    summary="the first arrangement that keeps every rule among a few tried",
    tasks={
        "solve": Task(run=sampled, enumerates=False, modes=("solutions",), summary="a few arrangements tried")
    },
)


def test_an_engine_with_an_option_is_one_entry_and_its_option_goes_everywhere(monkeypatch, run_cli, tmp_path):
    """One entry in the table, its job function and its option declared here: the solver
    string, the request, the command's flag, its help and the refusals follow from them."""
    monkeypatch.setitem(ENGINES, SAMPLER.name, SAMPLER)
    config = SolverConfig.parse("sampler:tries=3")
    assert (config.engine, config.get("tries"), str(config)) == ("sampler", 3, "sampler:tries=3")
    assert (
        SolverConfig.parse(str(config)) == config == SolverConfig(engine="sampler", settings={"tries": "3"})
    )
    with pytest.raises(
        SatedgeError, match=r"^solver 'sampler:tries=0': tries=N takes a positive whole number$"
    ):
        SolverConfig.parse("sampler:tries=0")
    with pytest.raises(SatedgeError, match=r"^tries must be a positive whole number, not 'many'$"):
        SolverConfig(engine="sampler", settings={"tries": "many"})
    with pytest.raises(SatedgeError, match=r"^a number of tries applies to sampler only, not to backtrack$"):
        SolverConfig(engine="backtrack", settings={"tries": 2})
    p = two_by_two()
    assert (
        sampled(Job(p, solver="sampler:tries=1", limit=1), None).solutions == []
    )  # the first arrangement fails
    puzzle = tmp_path / "two.yaml"
    save_puzzle(p, puzzle)
    code, out, err = run_cli("solve", puzzle, "--method", "sampler", "--tries", "5000", "--json")
    obj = json.loads(out)
    assert (code, err, obj["status"], obj["solver"]) == (0, "", "SAT", "sampler:tries=5000")
    assert validate(p, Solution(tuple((c["tile"], c["rotation"]) for c in obj["solution"]))) is None
    code, out, err = run_cli("solve", puzzle, "--tries", "5000", "--json")  # the option names its engine
    assert (code, json.loads(out)["solver"]) == (0, "sampler:tries=5000")
    assert run_cli("solve", puzzle, "--method", "backtrack", "--tries", "2") == (
        2,
        "",
        "satedge: error: a number of tries applies to sampler only, not to backtrack\n",
    )
    parser = build_parser()
    solve = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["solve"]
    shown = " ".join(solve.format_help().split())
    assert "--tries N --method sampler: how many arrangements it tries (default: 24)" in shown


def _help_of(command: str, option: str) -> str:
    """The help of ``option`` in ``satedge COMMAND --help``, its words joined by single spaces."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    action = next(a for a in sub._actions if option in a.option_strings)
    return " ".join(action.help.split())


def test_the_solver_help_lists_what_each_command_takes_from_the_table():
    """Before: maximize's --solver said "the PySAT solver RC2 runs on", and named neither the
    MaxSAT Evaluation's solvers nor cpsat."""
    from satedge.sat.maxsat import EVALUATION_SOLVERS

    text = _help_of("maximize", "--solver")
    assert f"a MaxSAT Evaluation solver by its name: {', '.join(EVALUATION_SOLVERS)} (extra maxsat)" in text
    for name in ("backtrack", "budget", "restarts", "lns", "cpsat"):
        engine = ENGINES[name]
        assert f"{name}: {' '.join(engine.tasks['maximize'].summary.split())}" in text, name
    for command in ("solve", "count"):
        text = _help_of(command, "--solver")
        named = [
            e for e in ENGINES.values() if e.name in ("backtrack", "cpsat", "clasp") and command in e.tasks
        ]
        assert len(named) == 3
        for engine in named:
            summary = engine.summary
            assert f"{engine.name}: {' '.join(summary.split())}" in text, (command, engine.name)
