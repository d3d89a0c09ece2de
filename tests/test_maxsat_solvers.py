"""The MaxSAT Evaluation's exact solvers in-process (hermax, extra ``maxsat``): brute force's
optimum on tiny boards, RC2's on exported formulas, and a solver's wrong answer refused."""

from __future__ import annotations

import json
import sys
import types

import pytest
from conftest import ROOT, prose
from hypothesis import HealthCheck, given, settings
from test_maximize import TINY, brute_maximum

from satedge.encode.maxsat import weighted
from satedge.errors import EncodingError
from satedge.jobs import Job, run
from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.strategies import puzzles
from satedge.sat import maxsat
from satedge.sat.dimacs import export, rebuilt
from satedge.sat.maxsat import EVALUATION_SOLVERS, evaluation_optimum, optimum
from satedge.system.files import shown

hermax = pytest.importorskip("hermax", reason="the MaxSAT Evaluation's solvers need hermax (extra maxsat)")

SOLVERS = list(EVALUATION_SOLVERS)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**TINY))
def test_every_maxsat_evaluation_solver_finds_the_brute_force_maximum(puzzle):
    want = brute_maximum(puzzle)
    for solver in SOLVERS:
        res = run(Job(puzzle, "maximize", solver=solver)).raise_error()
        if want is None:
            assert (res.status, res.solutions) == ("UNSAT", []), solver
            continue
        board = res.solutions[0]
        assert (res.status, res.score, res.bound) == ("OPTIMUM", want, want), solver
        assert board_problem(puzzle, board) is None and score(puzzle, board) == want


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["direct", "support"])
def test_each_solvers_optimum_of_an_exported_wcnf_is_rc2s(tmp_path, encoding):
    p = generate(Params(rows=3, colors=8, model="uniform"), seed=4)
    path = tmp_path / "f.wcnf"
    export(p, encoding, path, None, maxsat=True)
    _, formula, hard = rebuilt(path)  # the file's formula, checked clause by clause, with its decoder
    assert hard == [list(c) for c in formula.cnf.clauses]
    _, want = optimum(formula, "cadical195")
    assert want > 0
    for solver in SOLVERS:
        model, cost = evaluation_optimum(formula, solver)
        assert cost == want, solver
        assert score(p, formula.decode(model)) == len(p.board.adjacencies) - want


class _Answers:
    """A stand-in for a hermax solver that answers ``model`` with ``cost``, optimal."""

    model: list[int] = []
    cost = 0

    def add_clause(self, clause):
        pass

    def add_soft_unit(self, lit, weight):
        pass

    def solve(self):
        return True

    def get_status(self):
        return 30

    def get_model(self):
        return self.model

    def get_cost(self):
        return self.cost

    def close(self):
        pass


def test_a_solver_whose_model_breaks_a_hard_clause_or_lies_about_its_cost_is_refused(monkeypatch):
    p = generate(Params(rows=3, colors=8, model="uniform"), seed=4)  # no board where every edge fits
    formula = weighted(p)
    module = types.ModuleType("satedge_test_fake_maxsat")
    module.Liar = type("Liar", (_Answers,), {"model": [-v for v in range(1, formula.nv + 1)]})
    model, _ = optimum(formula, "cadical195")
    module.Boaster = type("Boaster", (_Answers,), {"model": model, "cost": 0})
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(EVALUATION_SOLVERS, "liar", (module.__name__, "Liar"))
    monkeypatch.setitem(EVALUATION_SOLVERS, "boaster", (module.__name__, "Boaster"))
    first = next(i for i, c in enumerate(formula.cnf.clauses, 1) if all(lit > 0 for lit in c))
    clause = " ".join(map(str, formula.cnf.clauses[first - 1]))
    with pytest.raises(EncodingError) as e:
        evaluation_optimum(formula, "liar")
    assert str(e.value) == (
        f"the MaxSAT solver liar gave a model that falsifies hard clause {first:,} ({shown(clause + ' 0', 60)})"
    )
    cost = sum(1 for m in formula.soft if m not in set(model))
    assert cost > 0
    with pytest.raises(EncodingError) as e:
        evaluation_optimum(formula, "boaster")
    assert (
        str(e.value) == f"the MaxSAT solver boaster says cost 0, but its model falsifies {cost} soft clauses"
    )
    assert maxsat.HERMAX.extra == "maxsat"


def test_a_maxsat_evaluation_solver_on_the_command_line(run_cli, tmp_path):
    from satedge.puzzle.formats import save_puzzle

    p = generate(Params(rows=3, colors=8, model="uniform"), seed=4)
    save_puzzle(p, tmp_path / "u.yaml")
    code, out, err = run_cli("maximize", tmp_path / "u.yaml", "--method", "sat", "--solver", "cgss")
    assert (code, err, out.splitlines()[0]) == (
        0,
        "",
        f"{tmp_path / 'u.yaml'}: OPTIMUM, score 11 of 12 inner edges (optimal) (support, cgss)",
    )
    assert run_cli("solve", tmp_path / "u.yaml", "--solver", "cgss") == (
        2,
        "",
        "satedge: error: the hermax engine cannot solve: it answers maximize\n",
    )
    assert run_cli("maximize", tmp_path / "u.yaml", "--solver", "uwrmaxsat:sat") == (
        2,
        "",
        "satedge: error: the MaxSAT solver uwrmaxsat takes no options\n",
    )


@pytest.mark.slow
def test_a_spec_runs_them_beside_rc2_and_cpsat_and_the_report_ranks_them(run_cli, tmp_path):
    pytest.importorskip("ortools", reason="CP-SAT needs OR-Tools (extra cp)")
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "name: s\npuzzles:\n  - generate: {rows: 3, colors: 8, model: uniform, seeds: [4]}\n"
        "encodings: [support, edgecolor]\nsolvers: [cadical195, uwrmaxsat, cpsat]\ntask: maximize\ntimeout: 60\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "o")[0] == 0
    code, out, _ = run_cli("report", tmp_path / "o", "--no-plots")
    ranked = [line.split(" | ")[0][2:] for line in out.splitlines() if line.startswith("| ") and "/" in line]
    assert code == 0 and set(ranked[:5]) == {
        "support/cadical195",
        "edgecolor/cadical195",
        "support/uwrmaxsat",
        "edgecolor/uwrmaxsat",
        "cpsat/cpsat",
    }
    rows = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    assert {(r["status"], r["score"]) for r in rows} == {("OPTIMUM", 11)}


def test_the_bench_maxsat_report_is_made_from_the_committed_files(monkeypatch):
    """The study's page, its specs' runs and the figures the results page and the changelog quote
    are the committed rows'."""
    import importlib.util

    from satedge.experiment.spec import load_spec

    monkeypatch.setenv("SATEDGE_BENCHMARKS", str(ROOT / "no-such-folder"))
    spec = importlib.util.spec_from_file_location(
        "bench_maxsat", ROOT / "benchmarks" / "maxsat" / "bench-maxsat.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.report() == (ROOT / "benchmarks" / "maxsat" / "bench-maxsat.md").read_text()
    for stem in ("solvers", "forms"):
        committed = {r["id"] for r in module.rows_of(stem)}
        assert {
            r.id for r in load_spec(ROOT / "benchmarks" / "maxsat" / f"bench-maxsat-{stem}.yaml").runs
        } == committed
    solvers = module.rows_of("solvers")
    assert len(solvers) == 10 * 9 and len(module.rows_of("forms")) == 10 * 4 * 2
    assert module.best_maxsat(solvers) == ["cadical195", "uwrmaxsat"]
    assert (ROOT / "benchmarks" / "maxsat" / "bench-maxsat-forms.yaml").read_text() == module.forms_spec(
        module.best_maxsat(solvers)
    )
    both = solvers + [r for r in module.rows_of("forms") if r["encoding"] != "support"]
    rc2, cpsat, budget = (
        module.median_5x5(both, c) for c in ("support/cadical195", "cpsat/cpsat", "budget/budget")
    )
    assert (rc2[1:], cpsat[1:], budget[1:]) == ((1, 4), (0, 4), (4, 4))
    line = prose(ROOT / "docs" / "results" / "index.md")
    assert (
        f"the budgets of misfits proved all four 5x5 boards (median {budget[0]:.1f} s), RC2 over CaDiCaL "
        f"{rc2[1]} and CP-SAT {cpsat[1]}" in line
    )
