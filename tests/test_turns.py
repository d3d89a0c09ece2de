"""Tiles that may not turn (``turns: none``, Tetravex) or only by half turns (``turns: half``):
the model, the files, the checker, the counts, every engine and encoding."""

import json

import pytest
from hypothesis import given, settings
from oracle import brute_force

from satedge.backtrack import search as backtrack
from satedge.encode import encode
from satedge.errors import SatedgeError
from satedge.puzzle import symmetry
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import load_puzzle, puzzle_from_dict, puzzle_to_yaml
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Clue, Puzzle, Solution, rotate
from satedge.puzzle.shuffle import shuffle
from satedge.puzzle.strategies import puzzles
from satedge.system.files import cut

# four tiles of a 2x2 torus: every tile differs in each of its turns
TILES = ((1, 2, 3, 4), (3, 4, 1, 2), (3, 2, 1, 4), (1, 4, 3, 2))


def test_the_turns_a_puzzle_allows_are_the_only_ones_placed():
    free = Puzzle(rows=2, cols=2, tiles=TILES, topology="torus")
    fixed, half = free.with_(turns="none"), free.with_(turns="half")
    assert {r for cell in fixed.allowed for _, r in cell} == {0}
    assert {r for cell in half.allowed for _, r in cell} == {0, 2}
    every = set(backtrack.solutions(free))
    assert set(backtrack.solutions(fixed)) == {s for s in every if all(r == 0 for _, r in s)}
    assert set(backtrack.solutions(half)) == {s for s in every if all(r in (0, 2) for _, r in s)}
    assert set(backtrack.solutions(half)) == brute_force(half) and brute_force(fixed) == set(
        backtrack.solutions(fixed)
    )
    assert validate(fixed, Solution(((0, 1), (1, 0), (2, 0), (3, 0)))) == (
        "cell (0, 0) has rotation 1, which turns: none forbids"
    )


@pytest.mark.parametrize(
    "change, message",
    [
        ({"turns": "quarter"}, "turns must be one of all, half, none, not 'quarter'"),
        ({"turns": None}, "turns must be one of all, half, none, not None"),
        (
            {"turns": "half", "clues": (Clue(0, 0, 0, 1),)},
            "clue at row 0, col 0 has rotation 1, which turns: half forbids",
        ),
    ],
)
def test_turns_a_puzzle_cannot_have_are_refused(change, message):
    with pytest.raises(SatedgeError) as e:
        Puzzle(rows=2, cols=2, tiles=TILES, topology="torus", **change)
    assert str(e.value) == message


def test_a_file_says_its_turns_and_keeps_them(tmp_path, run_cli):
    p = generate(Params(rows=3, colors=3, turns="half"), seed=2)
    text = puzzle_to_yaml(p)
    assert "\nturns: half\n" in text and "\nturns:" not in puzzle_to_yaml(p.with_(turns="all", planted=None))
    f = tmp_path / "half.yaml"
    f.write_text(text)
    assert load_puzzle(f) == p and load_puzzle(f).planted == p.planted
    out = tmp_path / "half.puz"
    assert run_cli("convert", f, out) == (
        2,
        "",
        cut(f"satedge: error: {out}: .puz has no way to say turns: half: write a .yaml") + "\n",
    )
    assert not out.exists()
    g = tmp_path / "bad.yaml"
    g.write_text(text.replace("turns: half", "turns: [0, 2]"))
    assert run_cli("count", g) == (
        2,
        "",
        cut(f"satedge: error: {g}: turns must be one of all, half, none, not [0, 2]") + "\n",
    )


def test_the_counts_of_fixed_turns_and_what_unique_means():
    """``unique`` counts pictures up to the board turns that keep the tiles' turns allowed: none
    but the identity where tiles may not turn (``unique`` is ``distinct``), the half turn where
    tiles may take half turns (worked out here by hand: a 2x2 turned a half turn swaps the
    diagonal cells and turns each tile a half turn)."""
    free = Puzzle(rows=2, cols=2, tiles=TILES, topology="torus")
    got = {}
    for turns in ("all", "half", "none"):
        p = free.with_(turns=turns)
        found = set(backtrack.solutions(p))
        assert found == brute_force(p)
        got[turns] = symmetry.count(p, found)
        pictures = {tuple(p.oriented(t, r) for t, r in s) for s in found}
        assert got[turns].distinct == len(pictures)
        if turns == "half":
            half = {pic: tuple(rotate(pic[3 - c], 2) for c in range(4)) for pic in pictures}
            assert got[turns].unique == len({min(pic, half[pic]) for pic in pictures})
    assert {k: (c.solutions, c.distinct, c.unique) for k, c in got.items()} == {
        "all": (96, 24, 8),
        "half": (48, 12, 8),
        "none": (12, 12, 12),
    }
    assert free.with_(turns="none").board_turns == (0,) and free.with_(turns="half").board_turns == (0, 2)


def test_generate_turns_its_tiles_only_as_the_puzzle_allows(run_cli, tmp_path):
    for turns in ("none", "half"):
        p = generate(Params(rows=3, colors=3, turns=turns), seed=2)
        assert p.turns == turns and validate(p, p.planted) is None
        assert {r for _, r in p.planted} <= set(p.rotations)
        q, sh = shuffle(p, 5)
        assert set(sh.turns) <= set(p.rotations) and validate(q, sh.to_shuffled(p.planted)) is None
    f = tmp_path / "fixed.yaml"
    assert (
        run_cli("generate", "--rows", "3", "--colors", "3", "--turns", "none", "--seed", "2", "-o", f)[0] == 0
    )
    code, out, _ = run_cli("count", f, "--json")
    assert code == 0 and (json.loads(out)["solutions"], json.loads(out)["unique"]) == (2, 2)


@pytest.mark.parametrize(
    "encoding", ["direct-pairwise", "split-ladder", "support-seqcounter", "edgecolor-corners"]
)
def test_the_encodings_leave_out_the_turns_that_cannot_happen(encoding):
    p = generate(Params(rows=3, colors=3), seed=2)
    sizes = {t: encode(p.with_(turns=t), encoding).cnf for t in ("all", "half", "none")}
    assert len(sizes["all"].clauses) > len(sizes["half"].clauses) > len(sizes["none"].clauses)
    assert sizes["all"].nv >= sizes["half"].nv >= sizes["none"].nv


@settings(max_examples=60, deadline=None)
@given(puzzles(max_cells=6, max_colors=3, turns=("half", "none")))
def test_fixed_turn_puzzles_have_brute_forces_solutions(puzzle):
    assert set(backtrack.solutions(puzzle)) == brute_force(puzzle)


def test_a_3x3_of_fixed_tiles_has_brute_forces_solutions():
    p = generate(Params(rows=3, colors=2, turns="none"), seed=4)
    found = set(backtrack.solutions(p))
    assert found == brute_force(p) and len(found) == len(set(found)) >= 1
    assert (
        puzzle_from_dict(
            json.loads(json.dumps({"rows": 1, "cols": 1, "tiles": [[1, 1, 1, 1]], "turns": "none"}))
        ).turns
        == "none"
    )


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_shipped_tetravex_boards_have_one_solution_each(n, run_cli):
    p = load_puzzle(f"tetravex/{n}x{n}")
    assert (p.name, p.turns, p.frame) == (f"tetravex/{n}x{n}", "none", None)
    assert len({x for t in p.tiles for x in t}) <= 10
    for method in ("backtrack", "sat"):
        code, out, err = run_cli("count", f"tetravex/{n}x{n}", "--method", method, "--json")
        assert code == 0, err
        assert {k: json.loads(out)[k] for k in ("solutions", "distinct", "unique")} == {
            "solutions": 1,
            "distinct": 1,
            "unique": 1,
        }
    if n == 3:
        assert brute_force(p) == {p.planted}


def _as_brute_force_counts(puzzle) -> None:
    from oracle import brute_force_fixed

    from satedge import count

    expected = brute_force_fixed(puzzle)
    assert set(backtrack.solutions(puzzle)) == expected
    want = symmetry.counts(puzzle, expected, symmetry.MODES)
    for method in ("backtrack", "sat"):
        got = count(puzzle, classes=True, method=method)
        assert (got.solutions, got.distinct, got.unique, got.classes) == tuple(
            want[m] for m in symmetry.MODES
        )


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(puzzles(max_rows=3, max_cols=3, max_cells=9, max_colors=3, turns=("none",)))
def test_fixed_tile_boards_up_to_3x3_count_as_brute_force_does(puzzle):
    """Every generated board up to 3x3 whose tiles may not turn: the backtracker's and a SAT
    encoding's solution sets and counts are those of every permutation of the tiles."""
    _as_brute_force_counts(puzzle)


@pytest.mark.parametrize(
    "params",
    [
        Params(rows=3, colors=2, turns="none"),
        Params(rows=3, colors=3, turns="none", frame=True, border_colors=1),
        Params(rows=3, colors=2, turns="none", border=1),
        Params(rows=3, colors=2, turns="none", model="uniform"),
    ],
    ids=["plain", "framed", "bordered", "uniform"],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_generated_3x3_boards_of_fixed_tiles_count_as_brute_force_does(params, seed):
    _as_brute_force_counts(generate(params, seed=seed))
