"""The board's turns as renamings of a formula's variables (satedge.encode.board_turns), and certified
answers whose symmetry breaking is proved: one cube per turn, the first's proof renamed for
the others, every piece checked."""

import dataclasses
import json
import shutil

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, assume, given, settings

from satedge.backtrack import search as backtrack
from satedge.encode import Encoding
from satedge.encode.board_turns import cube, turns
from satedge.encode.core import extended
from satedge.jobs import Job, run
from satedge.puzzle import symmetry
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Clue
from satedge.puzzle.strategies import puzzles
from satedge.system.extras import available

PLANTED = generate(Params(rows=5, colors=5, border_colors=3, frame=True), seed=1)
TURNING = ("direct-pairwise", "heule2008-cmp", "edgecolor+card=pairwise", "support+card=pairwise")
certified = pytest.mark.skipif(
    not available("dratify"), reason="the extra certify is not installed (dratify)"
)


def unsolvable():
    """PLANTED with one label of its first inner tile changed: a label then shows an odd number of
    times inside, so no board fits, though no clause says so at once."""
    tiles = [list(t) for t in PLANTED.tiles]
    i = next(i for i, t in enumerate(tiles) if PLANTED.frame not in t)
    tiles[i][0] = next(x for x in tiles[i][1:] if x != tiles[i][0])
    return dataclasses.replace(PLANTED, tiles=tuple(map(tuple, tiles)), planted=None, name="unsolvable")


def as_sets(clauses):
    return sorted(sorted(c) for c in clauses)


@pytest.mark.parametrize("name", TURNING)
def test_each_turn_renames_the_formula_onto_itself(name):
    formula = Encoding.of(name).encode(PLANTED)
    images = turns(formula)
    assert sorted(images) == [1, 2, 3]
    for k, image in images.items():
        renamed = [[int(image[abs(x)]) * (1 if x > 0 else -1) for x in c] for c in formula.cnf.clauses]
        assert as_sets(renamed) == as_sets(formula.cnf.clauses)
        board = PLANTED.board
        for c, cell in enumerate(formula.cells()):  # a placement's variable goes to its turned placement's
            for v, t, rotations in cell:
                for r, _ in rotations:
                    there = formula.cells()[board.turn_cell(c, k)]
                    assert any(w == image[v] and u == t and (r + k) % 4 in dict(rs) for w, u, rs in there)


def test_formulas_that_do_not_turn_have_no_renaming():
    # a sequential counter's auxiliaries follow the order of its inputs
    assert turns(Encoding.of("edgecolor-corners").encode(PLANTED)) is None
    plain = Encoding.of("direct-pairwise").encode(PLANTED)
    assert turns(extended(plain, [[1, 2]])) is None  # a clause the turns do not keep
    assert sorted(turns(extended(plain, [[]]))) == [1, 2, 3]  # the empty clause is its own image
    clued = dataclasses.replace(PLANTED, clues=(Clue(2, 2, *list(PLANTED.planted)[12]),))
    assert turns(Encoding.of("direct-pairwise").encode(clued)) is None


def test_the_cube_keeps_what_the_symmetry_breaking_keeps():
    formula = Encoding.of("direct-pairwise").encode(PLANTED)
    tile, cells, keep = symmetry.symmetry_breaking(PLANTED)
    assert (cells, keep) == ((0,), (0, 1, 2, 3))  # a corner tile kept in the top-left corner
    dropped = {
        v for c, cell in enumerate(formula.cells()) for v, t, _ in cell if t == tile and c not in cells
    }
    assert len(dropped) == 3 and set(cube(formula)) == {-v for v in dropped}
    # a tile kept to one turn, where one variable reads every turn of it: no cube of literals
    free = generate(Params(rows=3, cols=4, colors=3), seed=2)
    assert symmetry.symmetry_breaking(free)[1:] == (tuple(range(12)), (0, 1))
    assert cube(Encoding.of("edgecolor+card=pairwise").encode(free)) is None
    assert len(cube(Encoding.of("direct-pairwise").encode(free))) == 24


@certified
@pytest.mark.parametrize("name", ["heule2008-cmp+symmetry=rotation", "direct-pairwise+symmetry=rotation"])
def test_a_proof_of_no_solution_proves_its_symmetry_breaking(name):
    res = run(Job(unsolvable(), "solve", solver="cadical195", encoding=name, certify="dratify"))
    cert = res.certificate.as_dict()
    assert (res.status, cert["pieces"], cert["turned"], cert.get("assumed")) == ("UNSAT", 5, 3, None)
    assert cert["covers"].startswith(
        "the formula has no model: the puzzle has no solution (in 4 cubes, and a proof that they leave no model "
        "out); the symmetry breaking proved"
    )


@certified
def test_the_command_line_says_what_it_proved_and_check_proof_checks_each_turn(tmp_path, run_cli):
    save_puzzle(unsolvable(), tmp_path / "u.yaml")
    said = "; its symmetry breaking proved, 3 of its pieces turned from another)\n"
    args = ("solve", tmp_path / "u.yaml", "--encoding", "heule2008-cmp+symmetry=rotation", "--certify")
    code, out, err = run_cli(*args, "--proof", tmp_path / "p")
    assert (code, err) == (1, "") and out.startswith(f"{tmp_path / 'u.yaml'}: UNSAT") and out.endswith(said)
    code, out, err = run_cli("check-proof", tmp_path / "p")
    assert (code, err) == (0, "") and out.endswith(said)
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert (manifest["encoding"], manifest["turned"]) == ("heule2008-cmp", 3)
    # a turned piece is checked as any piece: piece 1 with piece 2's proof does not check
    shutil.copy(tmp_path / "p" / "pieces" / "2.drat", tmp_path / "p" / "pieces" / "1.drat")
    code, out, err = run_cli("check-proof", tmp_path / "p")
    assert code == 2 and err.startswith(
        f"satedge: error: {tmp_path / 'p'}: piece 1: the proof does not check"
    )
    # where the formula does not turn, the certificate says why it assumes the symmetry breaking
    code, out, err = run_cli(*args[:3], "edgecolor-corners-sym", "--certify", "--json")
    assert json.loads(out)["certificate"]["assumed"].endswith(
        "is not proved: no renaming of the formula's variables turns it with the board (a card encoding whose "
        "auxiliaries follow the order of their inputs has none: card=pairwise has)"
    )


@certified
@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(puzzles(max_cells=6, clues=False))
def test_certified_counts_with_turned_pieces_are_the_backtrackers(puzzle):
    found = list(backtrack.solutions(puzzle, limit=201))
    assume(len(found) <= 200)
    expected = symmetry.count(puzzle, found)
    for name in ("direct-pairwise+symmetry=rotation", "support+card=pairwise+symmetry=rotation"):
        job = Job(
            puzzle,
            "count",
            solver="cadical195:enumeration=blocking",
            encoding=name,
            modes=("solutions", "distinct", "unique"),
            certify="dratify",
        )
        res = run(job)
        assert {k: res.counts[k] for k in ("solutions", "distinct", "unique")} == {
            "solutions": expected.solutions,
            "distinct": expected.distinct,
            "unique": expected.unique,
        }
        cert = res.certificate.as_dict()
        if symmetry.symmetry_breaking(puzzle) is None:
            assert "turned" not in cert and "assumed" not in cert
        else:  # each of the board's turns but none has its piece: nothing assumed
            assert (cert.get("turned"), cert.get("assumed")) == (len(puzzle.board_turns) - 1, None)


@certified
def test_the_guides_count_proves_its_symmetry_breaking(run_cli):
    line = (
        "satedge count hunde-spiel --method sat --encoding direct-pairwise+symmetry=rotation --enumeration blocking "
        "--certify   # ...; its symmetry breaking proved, 3 of its pieces turned from another)"
    )
    assert line in (ROOT / "docs" / "guides" / "certify.md").read_text()
    code, out, err = run_cli(*line.split("#")[0].split()[1:])
    assert (code, err) == (0, "") and out.startswith("hunde-spiel: 16 solutions, 8 distinct, 2 unique (")
    assert out.endswith("; its symmetry breaking proved, 3 of its pieces turned from another)\n")
