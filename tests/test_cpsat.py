"""The CP-SAT baseline: the seed's model, same checker, same counts, same cross-check."""

import json

import pytest

pytest.importorskip("ortools")

from conftest import PUZZLES, ROOT, SEEDS

from satedge.engines import cpsat
from satedge.experiment import crosscheck
from satedge.puzzle.formats import load_puzzle


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_counts(run_cli, name):
    code, out, _ = run_cli("count", PUZZLES / f"{name}.yaml", "--solver", "cpsat", "--json")
    row = json.loads(out)
    assert code == 0 and (row["solutions"], row["distinct"], row["unique"]) == SEEDS[name]
    assert row["solver"] == "cpsat" and row["encoding"] == "cpsat"


def test_solve_with_workers(run_cli):
    code, out, _ = run_cli(
        "solve", PUZZLES / "scramble-squares.yaml", "--solver", "cpsat", "--cpsat-workers", "2", "--json"
    )
    assert code == 0 and json.loads(out)["status"] == "SAT"
    code, out, _ = run_cli(
        "count", PUZZLES / "scramble-squares.yaml", "--solver", "cpsat", "--workers", "2", "--json"
    )
    assert (
        code == 0
        and (json.loads(out)["solutions"], json.loads(out)["unique"]) == SEEDS["scramble-squares"][::2]
    )


def test_model_tables_follow_the_board_graph():
    p = load_puzzle(PUZZLES / "hunde-spiel.yaml")
    m, tile, rot = cpsat.build(p)
    # 9 cell tables + 12 neighbour tables + AllDifferent
    assert len(m.Proto().constraints) == 9 + 12 + 1


@pytest.mark.slow
def test_crosscheck_cpsat():
    report = crosscheck.run(crosscheck.default_configs(solvers=["cpsat"]), examples=100, seed=5)
    assert (
        report.ok and report.examples == 100 and report.checks == 400
    )  # the solutions, distinct, unique and classes


@pytest.mark.slow
def test_spec_with_cpsat(tmp_path):
    from satedge.experiment.rows import read_results
    from satedge.experiment.runner import run_experiment
    from satedge.experiment.spec import load_spec

    f = tmp_path / "s.yaml"
    f.write_text(
        f"name: cp\npuzzles: [{ROOT}/puzzles/insects.yaml]\nencodings: [support-seqcounter]\n"
        "solvers: [cpsat, cadical195, 'cpsat:workers=2', 'backtrack:workers=2']\ntask: {count: unique}\n"
        "timeout: 30\n"
    )
    run_experiment(load_spec(f), tmp_path / "out")
    rows = {r["solver"]: r for r in read_results(tmp_path / "out" / "results.jsonl")}
    assert [rows[s]["models"] for s in ("cpsat", "cadical195", "cpsat:workers=2", "backtrack:workers=2")] == [
        1
    ] * 4
    assert rows["backtrack:workers=2"]["encoding"] == "backtrack:workers=2"
    assert rows["cpsat"]["encoding"] == "cpsat" and rows["cpsat"]["status"] == "SAT"
