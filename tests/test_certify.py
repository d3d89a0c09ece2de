"""Certified answers: a DRUP proof for "no solution" and for "exactly N solutions", checked by a
checker that shares no code with the solver; two checkers that agree, on proofs and on
corrupted proofs."""

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings

from conftest import PUZZLES
from satedge import backtrack, symmetry
from satedge.certify import CHECKERS, check, prove
from satedge.encode import encode
from satedge.errors import SatedgeError
from satedge.extras import available
from satedge.generate import Params, generate
from satedge.jobs import Job, run
from satedge.solving import Enumerator
from satedge.strategies import puzzles

HUNDE = PUZZLES / "hunde-spiel.yaml"
pytestmark = pytest.mark.skipif(not available("dratify"), reason="the extra certify is not installed (dratify)")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(puzzles(max_cells=6))
def test_certified_counts_are_the_backtrackers(puzzle):
    expected = list(backtrack.solutions(puzzle, limit=201))
    assume(len(expected) <= 200)
    for encoding in ("edgecolor-corners", "support+symmetry=rotation"):
        res = run(Job(puzzle, "count", encoding=encoding, modes=("solutions", "distinct", "unique"), certify="dratify"))
        assert res.status in ("SAT", "UNSAT")
        c = symmetry.count(puzzle, expected)
        assert {k: res.counts[k] for k in ("solutions", "distinct", "unique")} == {
            "solutions": c.solutions, "distinct": c.distinct, "unique": c.unique}
        assert res.certificate["certified"] is True and res.certificate["checker"] == "dratify"
        assert res.certificate["models"] == res.counts["models"]


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_unsat_puzzles_come_with_checked_proofs(seed):
    p = generate(Params(rows=4, cols=4, colors=9, model="uniform"), seed)
    assert not list(backtrack.solutions(p, limit=1))  # uniform random puzzles: mostly no solution
    res = run(Job(p, "solve", limit=1, certify="dratify"))
    assert res.status == "UNSAT" and res.certificate["covers"] == "the formula has no model: the puzzle has no solution"
    assert res.certificate["proof_lemmas"] > 0 and res.certificate["models"] == 0


def _proof(puzzle, encoding="edgecolor-corners"):
    """The formula with its blocking clauses, its variables and the proof that it has no further model."""
    e = encode(puzzle, encoding)
    with Enumerator(e, "cadical195", reuse=False) as en:
        list(en.solutions())
        clauses = e.cnf.clauses + en.blocked
    return clauses, e.nv, prove(clauses)


def _corrupted(clauses, nv, proof) -> dict[str, list[str]]:
    """A proof with one needed lemma dropped, and one with a literal of a lemma flipped: the first
    such that dratify rejects."""
    lemmas = [i for i, line in enumerate(proof) if not line.startswith("d") and line.strip() != "0"]
    out = {}
    for i in reversed(lemmas):
        dropped = proof[:i] + proof[i + 1:]
        try:
            check(clauses, nv, dropped)
        except SatedgeError:
            out["dropped"] = dropped
            break
    for i in lemmas:
        lits = proof[i].split()
        flipped = proof[:i] + [" ".join([str(-int(lits[0]))] + lits[1:])] + proof[i + 1:]
        try:
            check(clauses, nv, flipped)
        except SatedgeError:
            out["flipped"] = flipped
            break
    assert set(out) == {"dropped", "flipped"}
    return out


@pytest.mark.parametrize("checker", CHECKERS)
def test_both_checkers_accept_proofs_and_reject_corrupted_ones(checker):
    if not available(checker):
        pytest.skip(f"{checker} is not installed (drup builds from source with Debian's ocaml, why3, ocaml-dune and "
                    "libctypes-ocaml-dev)")
    # small formulas: drup takes a minute on a proof of a thousand lines of a 3x3's formula
    for puzzle in (generate(Params(rows=2, cols=3, colors=4, model="uniform"), 1),  # 32 solutions
                   generate(Params(rows=2, cols=2, colors=5, model="uniform"), 3)):  # no solution
        clauses, nv, proof = _proof(puzzle)
        assert check(clauses, nv, proof, checker) >= 0
        for what, bad in _corrupted(clauses, nv, proof).items():
            with pytest.raises(SatedgeError, match=rf"^the proof does not check \({checker}: "):
                check(clauses, nv, bad, checker)


def test_the_command_line_certifies_and_exports(tmp_path, run_cli):
    code, out, err = run_cli("count", HUNDE, "--certify")
    assert (code, err) == (0, "")
    assert out.startswith(f"{HUNDE}: 16 solutions, 8 distinct, 2 unique (edgecolor-corners, cadical195, ")
    assert ", certified by dratify (a proof of " in out
    unsat = tmp_path / "u.yaml"
    from satedge.formats import save_puzzle

    save_puzzle(generate(Params(rows=4, cols=4, colors=9, model="uniform"), 1), unsat)
    code, out, err = run_cli("solve", unsat, "--certify", "--proof", tmp_path / "proof", "--json")
    row = json.loads(out)
    assert (code, row["status"], row["certificate"]["checker"]) == (1, "UNSAT", "dratify")
    assert sorted(p.name for p in (tmp_path / "proof").iterdir()) == ["formula.cnf", "manifest.json", "proof.drup"]
    manifest = json.loads((tmp_path / "proof" / "manifest.json").read_text())
    assert manifest["checker"] == "dratify" and manifest["proof_lemmas"] == row["certificate"]["proof_lemmas"]
    lines = (tmp_path / "proof" / "proof.drup").read_text().splitlines()
    formula = (tmp_path / "proof" / "formula.cnf").read_text().splitlines()
    header = next(line for line in formula if line.startswith("p cnf"))
    clauses = [list(map(int, line.split()[:-1])) for line in formula if line[0] not in "cp"]
    assert check(clauses, int(header.split()[2]), lines) >= 0  # what was written checks again


@pytest.mark.parametrize("args,message", [
    (["--checker", "drup"], "--checker applies with --certify"),
    (["--proof", "p"], "--proof applies with --certify"),
    (["--certify", "--method", "backtrack"], "a certified answer needs an engine that proves what it answers (PySAT "
                                             "solvers and solver binaries), not backtrack"),
    (["--certify", "--solver", "cpsat"], "a certified answer needs an engine that proves what it answers (PySAT solvers "
                                         "and solver binaries), not cpsat"),
    (["--certify", "--workers", "2"], "a certified answer comes from one solver on one process: no workers, no scheduler"),
])
def test_what_cannot_be_certified_is_refused(run_cli, args, message):
    assert run_cli("count", HUNDE, *args) == (2, "", f"satedge: error: {message}\n")


def test_a_spec_certifies_and_the_report_shows_the_cost(tmp_path, run_cli):
    spec = tmp_path / "s.yaml"
    spec.write_text(f"name: c\npuzzles: [{HUNDE}]\nencodings: [edgecolor-corners, support-seqcounter]\n"
                    "solvers: [cadical195]\ntask: {count: solutions}\ncertify: true\n")
    assert run_cli("run", spec, "--out", tmp_path / "o")[0] == 0
    rows = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    assert [r["certified"] for r in rows] == ["dratify", "dratify"] and all(r["proof_bytes"] > 0 for r in rows)
    code, out, _ = run_cli("report", tmp_path / "o", "--no-plots")
    assert code == 0 and "| proof_kb | check_s |" in out.splitlines()[0]
    assert "| edgecolor-corners/cadical195+certify=dratify | 1 | 1 |" in out
