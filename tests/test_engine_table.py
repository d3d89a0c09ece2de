"""An engine is one declaration in its own module: a toy engine of :mod:`toy_engines`, brought in as
a user brings in one of their own (``$SATEDGE_ENGINES``), is dispatched, refused by the parser
for what it cannot do, listed by `satedge solvers`, cross-checked and documented; an engine in a
file of its own, or in an installed package (its entry point), runs through the commands with an
option of its own, and no satedge file changes for it."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from satedge.backtrack import solutions as backtracked
from satedge.best.branch_and_bound import best_board
from satedge.cli import build_parser
from satedge.errors import SatedgeError
from satedge.experiment import crosscheck
from satedge.jobs import Job, run
from satedge.jobs.registry import engines, takers
from satedge.jobs.solver import SolverConfig
from satedge.puzzle import symmetry
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.model import Puzzle, Solution

DOCS = ROOT / "docs"


def two_by_two() -> Puzzle:
    return Puzzle(rows=2, cols=2, tiles=((0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0)), frame=0)


def uniform_two_by_two() -> Puzzle:
    """A 2x2 without a frame, whose best board misses an edge or more."""
    return Puzzle(rows=2, cols=2, tiles=((1, 2, 3, 1), (2, 2, 1, 3), (3, 1, 2, 2), (1, 3, 3, 2)))


def _engines_page() -> list[str]:
    sys.path.insert(0, str(DOCS))
    try:
        import build_pages
    finally:
        sys.path.remove(str(DOCS))
    return build_pages.engines_reference().splitlines()


def test_a_toy_engine_answers_through_the_one_dispatch(engines_of):
    engines_of("BRUTE")
    p = two_by_two()
    want = symmetry.count(p, backtracked(p))
    res = run(Job(p, "count", solver="brute", modes=("solutions", "distinct")))
    assert res.counts == {"solutions": want.solutions, "distinct": want.distinct}
    assert str(SolverConfig.parse("brute")) == "brute"


def test_the_parser_refuses_what_the_toy_cannot_do(engines_of, run_cli, tmp_path):
    engines_of("BRUTE")
    puzzle = tmp_path / "two.yaml"
    save_puzzle(two_by_two(), puzzle)
    with_cluster = ", ".join(
        e.prose for e in engines().values() if "count" in e.tasks and e.tasks["count"].cluster
    )
    certifies = " and ".join(
        e.prose for e in engines().values() if "count" in e.tasks and e.tasks["count"].certifies
    )
    refusals = {
        ("--workers", "2"): f"workers=N applies to {takers('workers')} only, not to brute",
        ("--mode", "unique"): "the brute engine cannot answer mode unique: it answers solutions and distinct",
        ("--mode", "distinct", "--certify"): "a certified answer needs an engine that proves what it answers "
        f"({certifies}), not brute",
        (
            "--mode",
            "distinct",
            "--encoding",
            "support",
        ): "brute has its own model: it takes no encoding ('support')",
        ("--mode", "distinct", "--scheduler", "tcp://127.0.0.1:1"): "a Dask scheduler applies to the engines "
        f"whose parts run there ({with_cluster}), not to brute",
    }
    for argv, line in refusals.items():
        assert run_cli("count", puzzle, "--solver", "brute", *argv) == (2, "", f"satedge: error: {line}\n"), (
            argv
        )
    code, out, err = run_cli("count", puzzle, "--solver", "brute", "--mode", "distinct")
    assert (code, err) == (0, "") and out.startswith(f"{puzzle}: 1 distinct (brute, ")


def test_a_toy_that_finds_one_solution_refuses_to_list_several(engines_of):
    (first,) = engines_of("FIRST")
    with pytest.raises(
        SatedgeError,
        match=r"^the first engine finds one solution: it cannot list several \(--all, --limit\)$",
    ):
        Job(two_by_two(), "solve", solver="first", limit=None)
    assert crosscheck.checks_of(first) == ("first", "distinct", "unique", "classes")


def test_satedge_solvers_lists_the_toy(engines_of, run_cli):
    (brute,) = engines_of("BRUTE")
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
        "summary": brute.summary,
    }


def test_a_missing_need_is_one_line_naming_it(engines_of, run_cli):
    engines_of("NEEDY", "PROG")
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
    assert run_cli("count", "hunde-spiel", "--solver", "prog") == (
        2,
        "",
        "satedge: error: the prog engine needs the program no-such-program-of-satedge on PATH\n",
    )


def test_the_cross_check_asks_the_declaration_and_checks_the_toy(engines_of):
    brute, wrong = engines_of("BRUTE", "WRONG")
    assert crosscheck.checks_of(brute) == ("solutions", "distinct")
    configs = crosscheck.default_configs(solvers=["brute"])
    assert configs == [(None, SolverConfig(engine="brute"))]
    assert crosscheck.check_puzzle(two_by_two(), configs) == (
        2,
        None,
    )  # the set, then the one count beside it
    checks, mismatch = crosscheck.check_puzzle(two_by_two(), crosscheck.default_configs(solvers=["wrong"]))
    assert checks == 0 and mismatch is not None and mismatch.problem == "23 solutions, the backtracker has 24"


def test_the_docs_engine_list_names_the_toy(engines_of):
    (brute,) = engines_of("BRUTE")
    page = _engines_page()
    assert (
        f"| `brute` | {brute.summary} | no | none | solve, count, several solutions | no | no | the core |"
        in page
    )
    assert [line.split("`")[1] for line in page if line.startswith("| `")] == list(engines())


def test_a_toy_maximize_engine_answers_the_command_the_api_and_the_listings(engines_of, run_cli, tmp_path):
    from satedge import maximize

    (toymax,) = engines_of("TOYMAX")
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
        f"satedge: error: workers=N applies to {takers('workers')} only, not to toymax\n",
    )
    assert f"| `toymax` | {toymax.summary} | no | none | maximize | no | no | the core |" in _engines_page()


def test_an_engine_with_an_option_is_one_declaration_and_its_option_goes_everywhere(
    engines_of, run_cli, tmp_path
):
    """One declaration, its job function and its option declared beside it: the solver string,
    the job, the command's flag, its help and the refusals follow from them."""
    engines_of("SAMPLER")
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
    assert run(Job(p, solver="sampler:tries=1", limit=1)).solutions == []  # the first arrangement fails
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
    assert "--tries N --method sampler: how many arrangements it tries (default: 24)" in _help_of("solve")


def test_a_name_taken_is_refused_in_one_line(monkeypatch, tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(
        "from satedge.jobs.engine import Engine, Task\n"
        "ENGINE = Engine(name='backtrack', summary='mine', tasks={'solve': Task(run=print)})\n"
    )
    monkeypatch.setenv("SATEDGE_ENGINES", f"{mine}:ENGINE")
    with pytest.raises(SatedgeError) as e:
        engines()
    assert str(e.value) == f"engine '{mine}:ENGINE': the name backtrack is taken by satedge.engines.backtrack"
    monkeypatch.setenv("SATEDGE_ENGINES", f"{mine}:NOPE")
    with pytest.raises(
        SatedgeError, match=rf"^engine \(\$SATEDGE_ENGINES\) '{mine}:NOPE': {mine} has no NOPE$"
    ):
        engines()


def _help_of(command: str, option: str | None = None) -> str:
    """The help of ``option`` in ``satedge COMMAND --help`` (or the whole help), its words joined
    by single spaces."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    if option is None:
        return " ".join(sub.format_help().split())
    action = next(a for a in sub._actions if option in a.option_strings)
    return " ".join((action.help or "").split())


def test_the_solver_help_lists_what_each_command_takes_from_the_declarations():
    """Before: maximize's --solver said "the PySAT solver RC2 runs on", and named neither the
    MaxSAT Evaluation's solvers nor cpsat."""
    from satedge.sat.maxsat import EVALUATION_SOLVERS

    text = _help_of("maximize", "--solver")
    assert f"a MaxSAT Evaluation solver by its name: {', '.join(EVALUATION_SOLVERS)} (extra maxsat)" in text
    named = [e for e in engines().values() if e.named and "maximize" in e.tasks]
    assert len(named) >= 5
    for e in named:
        assert f"{e.name}: {' '.join(e.tasks['maximize'].summary.split())}" in text, e.name
    for command in ("solve", "count"):
        text = _help_of(command, "--solver")
        named = [e for e in engines().values() if e.named and command in e.tasks]
        assert len(named) >= 3
        for e in named:
            assert f"{e.name}: {' '.join(e.summary.split())}" in text, (command, e.name)


# ---------------------------------------------------------------------------- engines of your own, outside
TOY = '''"""An engine of a researcher's own, outside satedge: every arrangement of a board of at most 4
cells scored, the best answered; its option ``first`` scores only the first N arrangements."""
from itertools import islice, permutations, product

from satedge.jobs.boards import set_best_board
from satedge.jobs.engine import Engine, Option, Task, whole
from satedge.jobs.result import Result
from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.model import Solution


def best(job, note=None):
    p = job.board
    turns = product(range(4), repeat=p.n)
    every = (Solution(tuple(zip(o, t))) for o in permutations(range(len(p.tiles))) for t in turns)
    boards = [b for b in islice(every, job.solver.get("first")) if board_problem(p, b) is None]
    top = max(boards, key=lambda b: score(p, b), default=None)
    proved = job.solver.get("first") is None
    bound = score(p, top) if proved and top else len(p.board.adjacencies)
    return set_best_board(job, Result("UNSAT"), top, bound, "the toy", None if proved else score(p, top))


FIRST = Option(name="first", what="a number of arrangements", convert=whole, metavar="N",
               wrong="first must be a positive whole number, not {value}", written="first=N takes a positive number",
               help="--method toybest: score only the first N arrangements (default: every one)")
ENGINE = Engine(name="toybest", method=True, options=(FIRST,), summary="every arrangement scored",
                tasks={"maximize": Task(run=best, summary="every arrangement scored")})
'''


def _satedge(*argv, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "satedge", *map(str, argv)], capture_output=True, text=True, env=env, cwd=cwd
    )


@pytest.mark.slow
def test_an_engine_in_a_file_of_its_own_runs_through_maximize_with_its_option(tmp_path):
    """No satedge file is touched: the engine is a file of the user's, named by $SATEDGE_ENGINES,
    its option a flag of `satedge maximize`."""
    (tmp_path / "toy.py").write_text(TOY)
    save_puzzle(uniform_two_by_two(), tmp_path / "two.yaml")
    env = {**os.environ, "SATEDGE_ENGINES": f"{tmp_path / 'toy.py'}:ENGINE"}
    r = _satedge("maximize", "two.yaml", "--method", "toybest", "--json", env=env, cwd=tmp_path)
    best = best_board(uniform_two_by_two())
    obj = json.loads(r.stdout)
    assert (r.returncode, r.stderr, obj["status"], obj["score"], obj["solver"]) == (
        0,
        "",
        "OPTIMUM",
        best.score,
        "toybest",
    )
    r = _satedge(
        "maximize", "two.yaml", "--method", "toybest", "--first", "1", "--json", env=env, cwd=tmp_path
    )
    obj = json.loads(r.stdout)
    assert (r.returncode, obj["status"], obj["solver"], obj["bound"]) == (3, "TIMEOUT", "toybest:first=1", 4)
    r = _satedge("maximize", "two.yaml", "--method", "toybest", "--first", "x", env=env, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (
        2,
        "",
        "satedge: error: first must be a positive whole number, not 'x'\n",
    )


def _wheel(folder: Path, name: str, modules: dict[str, str], entry_points: str) -> Path:
    """A wheel of a one-module package: its modules, and the entry points it declares."""
    info = f"{name}-0.1.dist-info"
    wheel = folder / f"{name}-0.1-py3-none-any.whl"
    files = {
        **modules,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": entry_points,
    }
    files[f"{info}/RECORD"] = "".join(f"{f},,\n" for f in [*files, f"{info}/RECORD"])
    with zipfile.ZipFile(wheel, "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return wheel


@pytest.mark.slow
def test_a_package_that_declares_an_encoding_and_an_engine_is_found_by_name_once_installed(tmp_path):
    """A one-module package whose entry points name an encoding (the guide's, from scratch) and an
    engine, installed with pip: `--encoding NAME` and `--method NAME` find them."""
    encoding = (DOCS / "examples" / "onehot.py").read_text()
    wheel = _wheel(
        tmp_path,
        "satedge_toys",
        {"satedge_toys.py": encoding + "\n\n" + TOY.split('"""', 2)[2]},
        "[satedge.encodings]\nonehot = satedge_toys:encode\n\n[satedge.engines]\ntoybest = satedge_toys:ENGINE\n",
    )
    site = tmp_path / "site"
    pip = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-index",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    r = _satedge(
        "count", PUZZLES / "hunde-spiel.yaml", "--encoding", "onehot", "--json", env=env, cwd=tmp_path
    )
    obj = json.loads(r.stdout)
    assert (r.returncode, obj["solutions"], obj["distinct"], obj["unique"], obj["encoding"]) == (
        0,
        16,
        8,
        2,
        "onehot",
    )
    save_puzzle(uniform_two_by_two(), tmp_path / "two.yaml")
    r = _satedge("maximize", "two.yaml", "--method", "toybest", "--json", env=env, cwd=tmp_path)
    assert (r.returncode, json.loads(r.stdout)["score"]) == (0, best_board(uniform_two_by_two()).score)
    r = _satedge("solvers", "--json", env=env, cwd=tmp_path)
    assert json.loads(r.stdout)["engines"]["toybest"]["tasks"] == ["maximize"]
