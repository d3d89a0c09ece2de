"""A solver binary's "no" is never passed on as a fact: an answer that rests on its UNSAT (or, of
a MaxSAT binary, on its word that a cost is optimal) is checked with --certify, or flagged as
resting on its word in the answer, the JSON, the results row and a line on standard error."""

import json
import sys

from conftest import PUZZLES

from satedge.jobs import Job, run
from satedge.puzzle.generate import Params, generate

HUNDE = PUZZLES / "hunde-spiel.yaml"
LIAR = '#!/bin/sh\necho "s UNSATISFIABLE"\nexit 20\n'


def _liar(tmp_path) -> str:
    path = tmp_path / "liar.sh"
    path.write_text(LIAR)
    path.chmod(0o755)
    return str(path)


def _warning(solver: str) -> str:
    return (
        f"satedge: warning: {HUNDE}: the answer rests on the word of cmd:{solver}, which nothing checked: "
        "--certify checks it with a DRAT proof\n"
    )


def test_a_binarys_false_unsat_is_flagged_in_the_count_and_its_json(run_cli, tmp_path):
    """Before: `count hunde-spiel --solver-cmd ./liar.sh` answered 0 solutions, exit 0, as a fact
    (there are 16)."""
    liar = _liar(tmp_path)
    code, out, err = run_cli("count", HUNDE, "--solver-cmd", liar)
    assert (code, err) == (0, _warning(liar))
    assert out.startswith(f"{HUNDE}: 0 solutions, 0 distinct, 0 unique (edgecolor-corners, cmd:{liar}, ")
    assert out.endswith(" s), on the solver's word (unchecked)\n")
    code, out, err = run_cli("count", HUNDE, "--solver-cmd", liar, "--json")
    obj = json.loads(out)
    assert (code, err, obj["solutions"], obj["checked"]) == (0, _warning(liar), 0, False)


def test_a_binarys_false_unsat_is_flagged_in_solve(run_cli, tmp_path):
    liar = _liar(tmp_path)
    code, out, err = run_cli("solve", HUNDE, "--solver-cmd", liar, "--json")
    obj = json.loads(out)
    assert (code, err, obj["status"], obj["checked"]) == (1, _warning(liar), "UNSAT", False)


def test_certify_checks_a_binarys_unsat_and_catches_the_lie(run_cli, tmp_path):
    liar = _liar(tmp_path)
    assert run_cli("count", HUNDE, "--solver-cmd", liar, "--certify") == (
        2,
        "",
        f"satedge: error: {HUNDE}: cadical195 found a model of what should have none: the enumeration or "
        "the cubes left a model out\n",
    )


def test_a_binarys_unsat_is_flagged_in_the_results_row(run_cli, tmp_path):
    liar = _liar(tmp_path)
    spec = tmp_path / "liar.yaml"
    spec.write_text(
        f"name: liar\npuzzles: [{HUNDE}]\nencodings: [support]\nsolvers: ['cmd:{liar}']\n"
        "task: {count: solutions}\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "out")[0] == 0
    (row,) = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert (row["status"], row["models"], row["checked"]) == ("UNSAT", 0, False)


def test_a_pysat_answer_and_a_binarys_model_are_not_flagged(run_cli):
    obj = json.loads(run_cli("count", HUNDE, "--method", "sat", "--json")[1])
    assert (obj["solutions"], "checked" in obj) == (16, False)
    res = run(
        Job(generate(Params(rows=3, colors=3), seed=1), "solve", solver=f"cmd:{sys.executable} -c pass")
    )
    assert res.status == "ERROR"  # a binary that says nothing is an error, never an unchecked answer
