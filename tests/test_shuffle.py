"""Shuffles: the same puzzle with its tiles reordered and turned, the formula renumbered and
reordered; every answer in the original puzzle's numbering."""

import json

import pytest
from conftest import PUZZLES
from hypothesis import given
from hypothesis import strategies as st
from pysat.solvers import Solver

from satedge.backtrack import search as backtrack
from satedge.encode import Options, bases, encode
from satedge.encode.presets import Encoding
from satedge.encode.shuffled import encode_shuffled
from satedge.errors import Unsupported
from satedge.experiment.rows import read_results
from satedge.experiment.runner import run_experiment
from satedge.experiment.spec import load_spec
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.shuffle import permutation, shuffle
from satedge.puzzle.strategies import puzzles
from satedge.sat.dimacs import read_header
from satedge.sat.solving import solutions

HUNDE = PUZZLES / "hunde-spiel.yaml"


def test_a_shuffle_is_the_same_everywhere():
    """A pure function of the seed: these values must never change (they name published runs)."""
    assert permutation(10, 1, "tiles") == [6, 5, 2, 9, 0, 7, 1, 3, 4, 8]
    moved, sh = shuffle(load_puzzle(HUNDE), 5)
    assert (sh.order, sh.turns) == ((0, 5, 8, 7, 6, 2, 4, 3, 1), (1, 1, 2, 3, 3, 3, 1, 1, 0))
    assert sorted(map(sorted, moved.tiles)) == sorted(map(sorted, load_puzzle(HUNDE).tiles))


def test_encode_shuffle_writes_the_same_bytes_for_the_same_seed(run_cli, tmp_path):
    files = {name: tmp_path / f"{name}.cnf" for name in ("a5", "b5", "c6", "plain")}
    for name, f in files.items():
        seed = [] if name == "plain" else ["--shuffle", name[1:]]
        assert run_cli("encode", HUNDE, "-o", f, *seed)[0] == 0
    for f in files.values():  # the command lines differ in the file they name; the rest must not
        f.write_bytes(
            b"\n".join(line for line in f.read_bytes().split(b"\n") if not line.startswith(b"c command: "))
        )
    assert files["a5"].read_bytes() == files["b5"].read_bytes()
    assert len({files[n].read_bytes() for n in ("a5", "c6", "plain")}) == 3
    assert (read_header(files["a5"])["shuffle"], read_header(files["plain"])["shuffle"]) == (5, None)
    assert "c shuffle: 5 (a seed" in files["a5"].read_text()
    # a model of the shuffled formula decodes to a valid solution of the original puzzle
    clauses = [
        [int(x) for x in line.split()[:-1]]
        for line in files["c6"].read_text().splitlines()
        if line and line[0] not in "cp"
    ]
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        assert s.solve()
        (tmp_path / "m.txt").write_text(" ".join(map(str, s.get_model())) + " 0\n")
    code, out, _ = run_cli("decode", files["c6"], tmp_path / "m.txt", "--json")
    assert code == 0 and json.loads(out)["status"] == "SAT"


@pytest.mark.slow
def test_count_with_a_shuffle_gives_the_puzzles_counts(run_cli):
    for extra in (
        [],
        ["--encoding", "edgecolor-corners-sym"],
        ["--encoding", "support-seqcounter"],
        ["--method", "backtrack"],
        ["--solver", "cpsat"],
    ):
        code, out, _ = run_cli("count", HUNDE, "--shuffle", "9", "--json", *extra)
        row = json.loads(out)
        assert (code, row["solutions"], row["distinct"], row["unique"], row["shuffle"]) == (0, 16, 8, 2, 9), (
            extra
        )


def test_solve_with_a_shuffle_gives_original_numbers(run_cli):
    expected = set(backtrack.solutions(load_puzzle(HUNDE)))
    code, out, _ = run_cli("solve", HUNDE, "--shuffle", "3", "--all", "--json")
    got = {tuple((p["tile"], p["rotation"]) for p in s) for s in json.loads(out)["solutions"]}
    assert code == 0 and got == {s.placements for s in expected}


@pytest.mark.slow
@given(
    puzzle=puzzles(max_cells=6),
    base=st.sampled_from(sorted(bases())),
    seed=st.integers(0, 2**63 - 1),
    symmetry=st.sampled_from(["none", "rotation"]),
)
def test_shuffled_formulas_have_the_backtrackers_solutions(puzzle, base, seed, symmetry):
    expected = set(backtrack.solutions(puzzle, limit=301))
    if len(expected) > 300:
        return
    try:
        e = encode_shuffled(bases()[base].build, puzzle, Options(symmetry=symmetry), seed)
    except Unsupported:
        return
    got = list(solutions(e, "cadical195"))
    assert len(got) == len(set(got)) and set(got) <= expected and len(got) * e.orbit == len(expected)
    assert all(validate(puzzle, s) is None for s in got)
    assert e.cnf.nv == encode(shuffle(puzzle, seed)[0], base, Options(symmetry=symmetry)).nv


def test_a_preset_under_a_shuffle_is_renumbered_and_reordered():
    puzzle = load_puzzle(HUNDE)
    plain, moved = (
        Encoding.parse("edgecolor-corners").encode(puzzle),
        Encoding.parse("edgecolor-corners").encode(puzzle, 4),
    )
    assert (plain.nv, len(plain.cnf.clauses)) == (moved.nv, len(moved.cnf.clauses))
    assert plain.cnf.clauses != moved.cnf.clauses and moved.shuffle == 4
    assert sorted(map(len, plain.cnf.clauses)) == sorted(map(len, moved.cnf.clauses))


@pytest.mark.slow
def test_a_spec_with_shuffles_gives_a_row_per_shuffle(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"name: s\npuzzles: [{HUNDE}, {PUZZLES / 'insects.yaml'}]\nencodings: [edgecolor-corners]\n"
        "solvers: [cadical195, backtrack]\ntimeout: 60\nshuffles: 3\n"
    )
    loaded = load_spec(spec)
    assert len(loaded.runs) == 2 * 2 * 3 and len({r.id for r in loaded.runs}) == 12
    run_experiment(loaded, tmp_path / "out", workers=2)
    rows = read_results(tmp_path / "out" / "results.jsonl")
    per = {}
    for r in rows:
        per.setdefault((r["puzzle"], r["encoding"], r["solver"]), []).append(r["shuffle"])
        assert r["status"] == "SAT" and r["cpu_seconds"] >= 0
        assert r["started_at"].endswith("+00:00") and r["started_at"] <= r["finished_at"]
    assert sorted(map(sorted, per.values())) == [[1, 2, 3]] * 4
    spec.write_text(spec.read_text().replace("shuffles: 3", "shuffles: [7, 2026]"))
    assert {r.shuffle for r in load_spec(spec).runs} == {7, 2026}


def test_bad_shuffles_are_named(run_cli, tmp_path):
    spec = tmp_path / "s.yaml"
    for value in ("0", "[1, 1]", "[-1]", "'x'", "1001"):
        spec.write_text(
            f"name: s\npuzzles: [{HUNDE}]\nencodings: [edgecolor-corners]\nsolvers: [cadical195]\n"
            f"shuffles: {value}\n"
        )
        code, out, err = run_cli("run", spec, "--out", tmp_path / "o")
        assert (
            (code, out) == (2, "")
            and "shuffles must be a number of shuffles from 1 to 1,000 (seeds 1..N) or a "
            "list of distinct seeds from 0 to 2**63 - 1, not "
            in err
        ), value
    assert (
        run_cli("count", HUNDE, "--shuffle", "-1")[2]
        == "satedge: error: argument --shuffle: must be at least 0, not -1\n"
    )
