"""Certified answers: DRAT proofs, in pieces, for "no solution" and for "exactly N solutions",
logged by the solver that enumerated and checked by a checker that shares no code with it; two
checkers that agree, on proofs and on corrupted proofs; certificates written to disk that
``satedge check-proof`` checks again and refuses once tampered with."""

import json
import re
import shutil

import pytest
from conftest import PUZZLES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from satedge.backtrack import search as backtrack
from satedge.encode import encode
from satedge.errors import SatedgeError
from satedge.jobs import Job, run
from satedge.jobs.certified import by_pictures
from satedge.jobs.engine import prose
from satedge.jobs.registry import doing
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle, save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.strategies import puzzles
from satedge.sat import drat
from satedge.sat.certify import CHECKERS, FormulaCheck, Piece, certificate
from satedge.sat.proofdir import recheck
from satedge.sat.solvers import PROOF_SOLVERS
from satedge.sat.solving import Enumerator
from satedge.system.extras import available

HUNDE = PUZZLES / "hunde-spiel.yaml"
pytestmark = pytest.mark.skipif(
    not available("dratify"), reason="the extra certify is not installed (dratify)"
)


@pytest.mark.slow
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(puzzles(max_cells=6), st.sampled_from([1, 2]))
def test_certified_counts_are_the_backtrackers(puzzle, workers):
    expected = list(backtrack.solutions(puzzle, limit=201))
    assume(len(expected) <= 200)
    for encoding in ("edgecolor-corners", "support+symmetry=rotation"):
        res_job = Job(
            puzzle,
            "count",
            solver=f"cadical195:workers={workers}" + (",strategy=cubes" if workers > 1 else ""),
            encoding=encoding,
            modes=("solutions", "distinct", "unique"),
            certify="dratify",
        )
        res = run(res_job)
        assert res.status in ("SAT", "UNSAT")
        c = symmetry.count(puzzle, expected)
        assert {k: res.counts[k] for k in ("solutions", "distinct", "unique")} == {
            "solutions": c.solutions,
            "distinct": c.distinct,
            "unique": c.unique,
        }
        assert res.certificate["certified"] is True and res.certificate["checker"] == "dratify"
        blocked = res.counts["distinct"] if res.certificate["blocks"] == "pictures" else res.counts["models"]
        assert res.certificate["models"] == blocked and res.certificate["route"] == "own"
        assert res.certificate["blocks"] == (
            "pictures" if by_pictures(res_job, encode(puzzle, encoding)) else "models"
        )


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3, 4])
def test_unsat_puzzles_come_with_checked_proofs(seed):
    p = generate(Params(rows=4, cols=4, colors=9, model="uniform"), seed)
    assert not list(backtrack.solutions(p, limit=1))  # uniform random puzzles: mostly no solution
    res = run(Job(p, "solve", limit=1, certify="dratify"))
    assert (
        res.status == "UNSAT"
        and res.certificate["covers"] == "the formula has no model: the puzzle has no solution"
    )
    assert res.certificate["proof_lemmas"] > 0 and res.certificate["models"] == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    "solver,route",
    [(s, "own") for s in PROOF_SOLVERS]
    + [("minisat22", "fresh"), ("maplesat", "fresh"), ("cadical195:enumeration=subspaces", "fresh")],
)
def test_every_route_certifies_the_seed(solver, route):
    """The solvers whose proofs of an enumeration check log them as they enumerate (route own);
    the others are followed by a fresh CaDiCaL (MapleSAT's proofs stopped checking once a
    blocking clause was added: it is no longer among them)."""
    res = run(Job(load_puzzle(HUNDE), "count", solver=solver, certify="dratify"))
    blocks = (
        ("models", 16) if "subspaces" in solver else ("pictures", 8)
    )  # a subspace walk counts no pictures
    assert (
        res.counts["solutions"],
        res.certificate["blocks"],
        res.certificate["models"],
        res.certificate["route"],
    ) == (16, *blocks, route)


def _proof(puzzle, encoding="edgecolor-corners"):
    """The formula, the blocking clauses of its models and the proof, logged as they were found,
    that it has no further model."""
    e = encode(puzzle, encoding)
    with Enumerator(e, "cadical195", reuse=False, proof=True) as en:
        list(en.solutions())
        return e.cnf.clauses, e.nv, en.blocked, en.proof()


def _steps(proof: drat.Proof) -> list[str]:
    return proof.text().decode().splitlines()


def _corrupted(check, added, proof) -> dict[str, drat.Proof]:
    """The empty clause at once, and the proof with a literal of a lemma flipped (the first lemma
    such that dratify rejects the proof): no refutations, for forward and backward checkers alike
    (a lemma dropped or the proof cut short may be: a backward checker skips the lemmas the
    refutation does not need, and drup accepts a conflict by unit propagation at the end)."""
    steps = _steps(proof)
    lemmas = [i for i, line in enumerate(steps) if not line.startswith("d") and line.strip() != "0"]
    out = {"empty": drat.read(b"0\n")}
    for i in lemmas:
        lits = steps[i].split()
        bad = drat.read(
            (
                "\n".join(steps[:i] + [" ".join([str(-int(lits[0]))] + lits[1:])] + steps[i + 1 :]) + "\n"
            ).encode()
        )
        try:
            check(added, bad)
        except SatedgeError:
            out["flipped"] = bad
            break
    assert set(out) == {"empty", "flipped"}
    return out


@pytest.mark.slow
@pytest.mark.parametrize("checker", CHECKERS)
def test_both_checkers_accept_proofs_and_reject_corrupted_ones(checker):
    if not available(checker):
        pytest.skip(f"{checker} is not installed (the extra verified)")
    for puzzle in (
        generate(Params(rows=2, cols=3, colors=4, model="uniform"), 1),  # 32 solutions
        generate(Params(rows=2, cols=2, colors=5, model="uniform"), 3),
    ):  # no solution
        clauses, nv, blocked, proof = _proof(puzzle)
        reference = FormulaCheck(clauses, nv, "dratify")
        check = FormulaCheck(clauses, nv, checker)
        assert check(blocked, proof) >= 0
        for what, bad in _corrupted(reference, blocked, proof).items():
            with pytest.raises(SatedgeError, match=rf"^the proof does not check \({checker}: "):
                check(blocked, bad)
        if blocked:  # a model left out of the blocking clauses: the proof no longer refutes the formula
            with pytest.raises(SatedgeError, match=rf"^the proof does not check \({checker}: "):
                check(blocked[1:], proof)


def test_the_reader_reads_what_the_writer_writes():
    _, _, _, proof = _proof(generate(Params(rows=2, cols=3, colors=4, model="uniform"), 1))
    again = drat.read(proof.text())
    assert again.packed() == proof.packed() and again.text() == proof.text() and proof.lemmas > 0
    assert drat.read(proof.text(), compiled=False).packed() == drat.read(proof.text(), compiled=True).packed()
    cut = drat.read(
        b"1 2 0\n-1 0\n0\nd 1 2 0\n"
    ).refutation()  # steps after the empty clause: drup refuses them
    assert (cut.text(), cut.steps, cut.lemmas) == (b"1 2 0\n-1 0\n0\n", 3, 3)
    assert drat.read(b"1 0\n0\n").refutation().text() == b"1 0\n0\n"
    with pytest.raises(SatedgeError, match=r"^the proof is damaged near byte \d"):
        drat.read(proof.text()[:-1] + b"x\n")


@pytest.mark.slow
def test_the_command_line_certifies_and_exports(tmp_path, run_cli):
    code, out, err = run_cli("count", HUNDE, "--certify")
    assert (code, err) == (0, "")
    assert out.startswith(f"{HUNDE}: 16 solutions, 8 distinct, 2 unique (edgecolor-corners, cadical195:sat, ")
    assert ", certified by dratify (a proof of " in out
    unsat = tmp_path / "u.yaml"
    save_puzzle(generate(Params(rows=4, cols=4, colors=9, model="uniform"), 1), unsat)
    code, out, err = run_cli("solve", unsat, "--certify", "--proof", tmp_path / "proof", "--json")
    row = json.loads(out)
    assert (code, row["status"], row["certificate"]["checker"]) == (1, "UNSAT", "dratify")
    assert sorted(p.name for p in (tmp_path / "proof").iterdir()) == [
        "formula.cnf",
        "manifest.json",
        "pieces",
    ]
    assert sorted(p.name for p in (tmp_path / "proof" / "pieces").iterdir()) == ["0.cnf", "0.drat"]
    manifest = json.loads((tmp_path / "proof" / "manifest.json").read_text())
    assert manifest["checker"] == "dratify" and manifest["proof_lemmas"] == row["certificate"]["proof_lemmas"]
    assert manifest["models"] == 0 and [p["cube"] for p in manifest["pieces"]] == [[]]
    code, out, err = run_cli("check-proof", tmp_path / "proof")
    assert (code, err) == (0, "") and out.startswith(
        f"{tmp_path / 'proof'}: certified by dratify: 0 models, 0 solutions (1 piece, "
    )


@pytest.mark.slow
def test_a_certificate_says_that_the_symmetry_breaking_is_assumed(tmp_path, run_cli):
    """With symmetry breaking the proof is checked against the formula with its clauses, which
    DRAT cannot derive: the certificate says so, on the line, in JSON and when checked again;
    without, it assumes nothing."""
    said = (
        "the encoding's symmetry breaking (rotation): its clauses are in the formula the proof is checked "
        "against, not derived in it; that the formula keeps a solution of every board-turn orbit is not proved: "
        "a count by pictures is not turned (with the solver's enumeration=blocking it counts models, and the "
        "symmetry breaking is proved where the formula turns)"
    )
    code, out, err = run_cli("count", HUNDE, "--encoding", "edgecolor-corners-sym", "--certify")
    assert (code, err) == (0, "") and out.endswith("; its symmetry breaking assumed, not proved)\n")
    code, out, err = run_cli(
        "count",
        HUNDE,
        "--encoding",
        "edgecolor-corners-sym",
        "--certify",
        "--json",
        "--proof",
        tmp_path / "p",
    )
    assert (code, json.loads(out)["certificate"]["assumed"]) == (0, said)
    code, out, err = run_cli("check-proof", tmp_path / "p")
    assert (code, err) == (0, "") and out.endswith("; its symmetry breaking assumed, not proved)\n")
    assert json.loads(run_cli("check-proof", tmp_path / "p", "--json")[1])["assumed"] == said
    code, out, err = run_cli("count", HUNDE, "--certify", "--json")
    assert code == 0 and "assumed" not in json.loads(out)["certificate"]


@pytest.fixture(scope="module")
def pieces(tmp_path_factory):
    """A certificate of Hunde-Spiel in cubes, written by two workers, every model blocked."""
    folder = tmp_path_factory.mktemp("cert") / "proof"
    res = run(
        Job(
            load_puzzle(HUNDE),
            "count",
            solver="cadical195:workers=2,strategy=cubes,enumeration=blocking",
            certify="dratify",
            proof=str(folder),
        )
    )
    assert res.counts["solutions"] == 16 and res.certificate["pieces"] > 2
    return folder


@pytest.mark.slow
def test_a_certificate_in_pieces_checks_again(pieces, run_cli):
    manifest = json.loads((pieces / "manifest.json").read_text())
    n = len(manifest["pieces"])
    assert manifest["pieces"][-1]["index"] == -1 and manifest["models"] == 16 and manifest["solutions"] == 16
    assert sum(p["models"] for p in manifest["pieces"]) == 16
    assert sorted(f.name for f in (pieces / "pieces").iterdir()) == sorted(
        [f"{i}.{x}" for i in range(n - 1) for x in ("cnf", "drat")] + ["cover.cnf", "cover.drat"]
    )
    cert, solutions = recheck(pieces, workers=2)
    assert (cert.models, solutions, cert.pieces) == (16, 16, n)
    code, out, err = run_cli("check-proof", pieces, "--json")
    assert (code, err) == (0, "") and (json.loads(out)["models"], json.loads(out)["solutions"]) == (16, 16)


def _tampered(pieces, tmp_path, change) -> str:
    copy = tmp_path / "copy"
    shutil.copytree(pieces, copy)
    change(copy)
    return str(copy)


def _first_piece_with_models(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    return next(p for p in manifest["pieces"] if p["models"] > 0)


def _drop_a_model(folder):
    p = _first_piece_with_models(folder)
    f = folder / p["clauses"]
    lines = f.read_text().splitlines(keepends=True)
    f.write_text("".join(lines[:-1]))


def _drop_a_cube_from_the_cover(folder):
    lines = (folder / "pieces" / "cover.cnf").read_text().splitlines(keepends=True)
    (folder / "pieces" / "cover.cnf").write_text("".join(lines[:-1]))


def _drop_a_piece(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["pieces"] = manifest["pieces"][1:]
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _count_more(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["models"] += 1
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _edit_the_formula(folder):
    f = folder / "formula.cnf"
    lines = f.read_text().splitlines(keepends=True)
    f.write_text("".join(lines[:-1]))


@pytest.mark.slow
@pytest.mark.parametrize(
    "change,message",
    [
        (lambda f: (f / "pieces" / "0.drat").unlink(), r"pieces/0\.drat: no such file"),
        (_drop_a_model, r"piece \d+: the proof does not check \(dratify: "),
        (_drop_a_cube_from_the_cover, r"the cover: the proof does not check \(dratify: "),
        (_drop_a_piece, r"a certificate's pieces are missing or doubled"),
        (_count_more, r"the pieces hold 16 models and 16 solutions, the manifest says 17 and 16"),
        (
            _edit_the_formula,
            r"formula\.cnf: cannot read the clauses \(truncated or not DIMACS\): 5,051 of the 5,052 its "
            r"'p cnf' line counts",
        ),
    ],
)
def test_a_tampered_certificate_is_refused(pieces, tmp_path, run_cli, change, message):
    copy = _tampered(pieces, tmp_path, change)
    code, out, err = run_cli("check-proof", copy)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("satedge: error: ") and re.search(message, err), err


def test_pieces_fit_together_or_are_refused():
    def piece(index, cube, blocking):
        return Piece(index, cube, blocking, 1, 10, 0.0, 0.0)

    two = [piece(0, (1,), [[-2]]), piece(1, (-1,), [[2]])]
    assert certificate(two + [piece(-1, (), [[-1], [1]])], "dratify", "cadical195").models == 2
    for pieces, message in (
        (
            two + [piece(-1, (), [[-1]])],
            "the cover of a certificate's cubes does not name exactly its pieces' cubes",
        ),
        (two, "the cover of a certificate's cubes does not name exactly its pieces' cubes"),
        (two[1:] + [piece(-1, (), [[-1], [1]])], "a certificate's pieces are missing or doubled"),
        ([piece(0, (1,), [])], "a certificate of one piece must cover the whole formula, not a cube of it"),
        (
            [piece(0, (1,), [[-2]]), piece(1, (-1,), [[-2]]), piece(-1, (), [[-1], [1]])],
            "a model is blocked twice (piece 1): it would be counted twice",
        ),
    ):
        with pytest.raises(SatedgeError, match=f"^{re.escape(message)}$"):
            certificate(pieces, "dratify", "cadical195")


@pytest.fixture(scope="module")
def pictured(tmp_path_factory):
    """A certificate of Hunde-Spiel counted by pictures (as the plain count is): one piece."""
    folder = tmp_path_factory.mktemp("cert") / "proof"
    res = run(
        Job(
            load_puzzle(HUNDE),
            "count",
            modes=("solutions", "distinct", "unique"),
            certify="dratify",
            proof=str(folder),
        )
    )
    assert res.counts == {"solutions": 16, "distinct": 8, "unique": 2, "models": 16}
    assert (res.certificate["blocks"], res.certificate["models"], res.certificate["pieces"]) == (
        "pictures",
        8,
        1,
    )
    return folder


def _change_a_definition(folder):
    f = folder / "pieces" / "0.cnf"
    lines = f.read_text().splitlines(keepends=True)
    lines[2] = lines[2].split(" ", 1)[1]  # the first definition loses its first literal
    f.write_text("".join(lines))


@pytest.mark.slow
@pytest.mark.parametrize(
    "change,message",
    [
        (None, None),
        (_drop_a_model, r"piece 0: the proof does not check \(dratify: "),
        (
            _change_a_definition,
            r"piece 0: its look variables are not new or not defined as the encoding says",
        ),
    ],
)
def test_a_certificate_by_pictures_checks_again_and_refuses_tampering(
    pictured, tmp_path, run_cli, change, message
):
    folder = _tampered(pictured, tmp_path, change or (lambda f: None))
    code, out, err = run_cli("check-proof", folder)
    if change is None:
        assert (code, err) == (0, "") and out.startswith(
            f"{folder}: certified by dratify: 8 pictures, 16 solutions (1 piece, "
        )
    else:
        assert (code, out) == (2, "") and err.count("\n") == 1 and re.search(message, err), err


@pytest.mark.parametrize(
    "args,message",
    [
        (["--checker", "drup"], "--checker applies with --certify"),
        (["--proof", "p"], "--proof applies with --certify"),
        (
            ["--certify", "--method", "backtrack"],
            "a certified answer needs an engine that proves what it answers "
            f"({prose(doing('solve', 'certifies'))}), not backtrack",
        ),
        (
            ["--certify", "--solver", "cpsat"],
            "a certified answer needs an engine that proves what it answers "
            f"({prose(doing('solve', 'certifies'))}), not cpsat",
        ),
        (
            ["--certify", "--workers", "2", "--strategy", "portfolio"],
            "a certified answer uses this machine's workers (a "
            "proof checked in parts, or strategy=cubes): no Dask "
            "scheduler, no portfolio",
        ),
    ],
)
def test_what_cannot_be_certified_is_refused(run_cli, args, message):
    assert run_cli("count", HUNDE, *args) == (2, "", f"satedge: error: {message}\n")


@pytest.mark.slow
def test_a_spec_certifies_and_the_report_shows_the_cost(tmp_path, run_cli):
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"name: c\npuzzles: [{HUNDE}]\nencodings: [edgecolor-corners, support-seqcounter]\n"
        "solvers: [cadical195]\ntask: {count: solutions}\ncertify: true\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "o")[0] == 0
    rows = [json.loads(line) for line in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    assert [r["certified"] for r in rows] == ["dratify", "dratify"] and all(
        r["proof_bytes"] > 0 for r in rows
    )
    code, out, _ = run_cli("report", tmp_path / "o", "--no-plots")
    assert code == 0 and out.splitlines()[2].endswith("| mean proof kB | mean check s |")
    assert "| edgecolor-corners/cadical195+certify=dratify | 1 | 1 |" in out


def test_a_clause_that_names_a_literal_twice_checks():
    """Before: the compiled checker rejected a refutation of a formula with a clause naming a
    literal twice (a look variable's definition from an encoding whose literals coincide)."""
    assert FormulaCheck([[1, 1, 2], [-1, -1], [-2]], 2)([], drat.read(b"0\n")) >= 0
    assert FormulaCheck([[1, 2]], 2)([[-1, -1], [-2, -2]], drat.read(b"0\n")) >= 0


def test_a_long_proof_is_checked_in_parts_with_the_same_verdict(monkeypatch):
    """Cut into parts, each checked from the clauses live where it starts, a proof gets the
    verdict the whole proof gets: every part of a valid one checks; a flipped lemma makes its
    part fail, and the proof is refused as a whole."""
    from satedge.sat import proofparts
    from satedge.sat.certify import _native
    from satedge.sat.drat import internal_clause as _internal
    from satedge.sat.proofparts import check_part as _check_part
    from satedge.sat.proofparts import parts

    clauses, nv, blocked, proof = _proof(generate(Params(rows=2, cols=3, colors=4, model="uniform"), 1))
    base = [_internal(c) for c in clauses + blocked]
    assert parts(base, proof, 4) == []  # too short to be worth it
    monkeypatch.setattr(proofparts, "PART_LEMMAS", 1)
    cut = parts(base, proof, 4)
    assert [(p.start, p.last) for p in cut][0] == (0, False) and len(cut) == 4 and cut[-1].end == proof.steps
    assert [p.start for p in cut[1:]] == [p.end for p in cut[:-1]] and len(cut[0].live) == len(base)
    native = _native()
    if native is None:
        pytest.skip("dratify's compiled checker is not installed (cdclkit-native)")
    assert [_check_part(native, nv, base, proof, p) for p in cut] == [True] * 4
    bad = _corrupted(FormulaCheck(clauses, nv), blocked, proof)["flipped"]
    verdicts = [_check_part(native, nv, base, bad, p) for p in parts(base, bad, 4)]
    assert False in verdicts and verdicts[: verdicts.index(False)] == [True] * verdicts.index(False)
    assert FormulaCheck(clauses, nv, "dratify", workers=2)(blocked, proof) >= 0
    with pytest.raises(
        SatedgeError, match=r"^the proof does not check \(dratify: clause is neither RUP nor RAT"
    ):
        FormulaCheck(clauses, nv, "dratify", workers=2)(blocked, bad)


def test_the_proof_is_checked_as_it_is_logged(monkeypatch, tmp_path):
    """A tail checks parts of a proof as the solver logs it (from the clauses added so far); the
    steps it verified are taken only where the proof read at the end holds them.  With two
    workers the count is the one-worker count, whatever the tail got to check."""
    from satedge.sat import certify, proofparts, solving
    from satedge.sat.drat import internal_clause as internal
    from satedge.sat.proofparts import Tail, checksum

    monkeypatch.setattr(proofparts, "PART_LEMMAS", 20)
    clauses, nv, blocked, proof = _proof(generate(Params(rows=2, cols=3, colors=4, model="uniform"), 1))
    native = certify._native()
    if native is None:
        pytest.skip("dratify's compiled checker is not installed (cdclkit-native)")
    log = tmp_path / "proof.drat"
    log.write_bytes(proof.text())
    lemmas = [i for i in range(proof.steps) if not proof.deleted[i]]
    ends = [i + 1 for i in lemmas[19::20]]  # parts of 20 lemmas: the steps verified when each is checked
    with log.open("rb") as f:
        tail = Tail(native, nv, [internal(c) for c in clauses], f.fileno(), False)
        try:
            tail.mark([internal(c) for c in blocked], log.stat().st_size)
            first = tail.poll(60)  # one part or more, as the machine lets it
        finally:
            last = tail.end()
    assert first[0] in ends and first == (first[0], checksum(proof, first[0]))
    assert last[0] in ends and last[0] >= first[0] and last[1] == checksum(proof, last[0])
    k = proof.steps // 2
    for claim in ((k, checksum(proof, k) ^ 1), (proof.steps + 1, 0)):  # a claim that does not hold: ignored
        assert FormulaCheck(clauses, nv, "dratify", workers=2)(blocked, proof, claim) >= 0
    bad = _corrupted(FormulaCheck(clauses, nv), blocked, proof)["flipped"]
    with pytest.raises(
        SatedgeError, match=r"^the proof does not check \(dratify: "
    ):  # a claim that holds no more
        FormulaCheck(clauses, nv, "dratify", workers=2)(
            blocked, bad, (proof.steps - 1, checksum(proof, proof.steps - 1))
        )
    monkeypatch.setattr(solving, "PROGRESS_CONFLICTS", 1)  # the tail hears of the proof at every solver call
    seen = []
    call = certify.FormulaCheck.__call__

    def spy(self, added, proof, verified=(0, 0)):
        seen.append(verified[0] == 0 or checksum(proof, verified[0]) == verified[1])
        return call(self, added, proof, verified)

    monkeypatch.setattr(certify.FormulaCheck, "__call__", spy)
    puzzle = generate(Params(rows=4, cols=4, colors=4, border_colors=1, frame=True), 1)
    one = run(Job(puzzle, "count", certify="dratify"))
    two = run(Job(puzzle, "count", solver="cadical195:workers=2", certify="dratify"))
    assert one.counts == two.counts and two.counts["solutions"] == 18_432 and seen == [True, True]
