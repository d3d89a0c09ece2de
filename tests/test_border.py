"""A border rule apart from the frame: every outside edge shows one of the border's labels,
which may also run inside (MacMahon's squares with a white border)."""

import json

import pytest
from hypothesis import given, settings
from oracle import brute_force

from satedge.backtrack import search as backtrack
from satedge.errors import SatedgeError
from satedge.puzzle.checker import label_bound, validate
from satedge.puzzle.formats import load_puzzle, puzzle_to_yaml
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle, Solution
from satedge.puzzle.strategies import puzzles
from satedge.system.files import cut


def test_the_border_label_runs_inside_where_a_frame_label_may_not():
    # a 1x2 board whose outside must be white (1): each tile shows its 2 on the inner side
    two = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (1, 1, 1, 2)), border=(1,))
    assert (
        set(backtrack.solutions(two))
        == brute_force(two)
        == {
            Solution(((0, 0), (1, 0))),
            Solution(((1, 2), (0, 2))),
        }
    )
    assert validate(two, Solution(((0, 1), (1, 0)))) == (
        "cell (0, 0) bottom is on the border and must show 1, shows 2"
    )
    # white inside too: every turn of each tile in either cell; a frame label may not run inside
    white = ((1, 1, 1, 1), (1, 1, 1, 1))
    assert len(set(backtrack.solutions(Puzzle(rows=1, cols=2, tiles=white, border=(1,))))) == 2 * 16
    assert list(backtrack.solutions(Puzzle(rows=1, cols=2, tiles=white, frame=1))) == []
    either = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (1, 1, 1, 3)), border=(1, 2))
    assert validate(either, Solution(((0, 0), (1, 2)))) == (
        "cell (0, 1) right is on the border and must show one of 1, 2, shows 3"
    )
    assert set(backtrack.solutions(either)) == brute_force(either)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"border": (1,), "frame": 0},
            "a puzzle has a frame or a border, not both: a frame already says the outside's label",
        ),
        ({"border": (1,), "topology": "torus"}, "a torus has no border"),
        ({"border": (1, 1)}, "border names label 1 twice"),
        ({"border": 1.5}, "border must be a label or a list of labels, not 1.5"),
        ({"border": (True,)}, "border: label True must be an integer or a string"),
    ],
)
def test_a_border_a_puzzle_cannot_have_is_refused(change, message):
    assert Puzzle(rows=1, cols=1, tiles=((1, 1, 1, 1),), border=1).border == (1,)
    assert Puzzle(rows=1, cols=1, tiles=((1, 1, 1, 1),), border=[1, 2]).border == (1, 2)
    with pytest.raises(SatedgeError) as e:
        Puzzle(rows=2, cols=2, tiles=((1, 1, 1, 1),) * 4, **change)
    assert str(e.value) == message


def test_a_file_says_its_border_and_keeps_it(tmp_path, run_cli):
    p = generate(Params(rows=3, colors=3, border=1), seed=3)
    assert p.border == (1,) and validate(p, p.planted) is None
    text = puzzle_to_yaml(p)
    assert "border: 1\n" in text
    f = tmp_path / "b.yaml"
    f.write_text(text)
    assert load_puzzle(f) == p
    f.write_text(text.replace("border: 1", "border: [1, 2]"))
    assert load_puzzle(f).border == (1, 2)
    out = tmp_path / "b.puz"
    assert run_cli("convert", f, out) == (
        2,
        "",
        cut(f"satedge: error: {out}: .puz has no way to say a border: write a .yaml") + "\n",
    )
    f.write_text(text.replace("border: 1", "border: 1\nframe: 0").replace("frame: null\n", ""))
    assert run_cli("count", f) == (
        2,
        "",
        cut(
            f"satedge: error: {f}: a puzzle has a frame or a border, not both: a frame already says the outside's label"
        )
        + "\n",
    )


def test_generate_makes_bordered_puzzles(run_cli, tmp_path):
    f = tmp_path / "b.yaml"
    assert (
        run_cli("generate", "--rows", "3", "--colors", "3", "--border", "1", "--seed", "3", "-o", f)[0] == 0
    )
    code, out, _ = run_cli("count", f, "--json")
    assert code == 0 and [json.loads(out)[k] for k in ("solutions", "distinct", "unique")] == [832, 52, 13]
    code, out, _ = run_cli("count", f, "--method", "sat", "--json")
    assert code == 0 and [json.loads(out)[k] for k in ("solutions", "distinct", "unique")] == [832, 52, 13]
    assert run_cli("generate", "--rows", "3", "--border", "1", "--frame") == (
        2,
        "",
        "satedge: error: a border rule needs a planted grid board without a frame\n",
    )
    assert run_cli("generate", "--rows", "3", "--colors", "2", "--border", "3") == (
        2,
        "",
        "satedge: error: a border of 3 labels needs as many colors, not 2\n",
    )


def test_the_label_bound_takes_a_border_of_one_label_off_its_outer_sides():
    p = load_puzzle("macmahon/4x6")
    # 24 squares of three colours, 32 sides of each; the border's 20 outer sides pair with nothing
    assert p.border == (1,) and label_bound(p) == min(38, 6 + 16 + 16) == 38


@settings(max_examples=80, deadline=None)
@given(puzzles(max_cells=4, max_colors=3, models=("planted",), topologies=("grid",)))
def test_bordered_puzzles_have_brute_forces_solutions(puzzle):
    assert set(backtrack.solutions(puzzle)) == brute_force(puzzle)


@pytest.mark.slow
def test_macmahons_pictures_up_to_the_rectangles_symmetries_and_the_colour_swap():
    """The README's arithmetic: the 106,624 pictures of MacMahon's 4x6 fall into 13,328 classes of
    8 under the rectangle's half turn and two mirrors and the swap of colours 2 and 3, no picture
    fixed by any of them; 53,312 up to the half turn alone (``unique``); and satedge's own group
    of the puzzle (mode ``classes``) is that one."""
    from itertools import product

    from satedge.puzzle import symmetry
    from satedge.puzzle.symmetry import picture

    p = load_puzzle("macmahon/4x6")
    found = list(backtrack.weighted(p, workers=2))
    pictures = {picture(p, s) for s, _ in found}
    assert len(found) == len(pictures) == 106_624 and sum(n for _, n in found) == 54_591_488
    rows, cols = p.rows, p.cols
    # each symmetry: the cell each cell's labels come from, and what it does to a cell's labels
    geometry = [
        (lambda r, c: (r, c), lambda t: t),
        (lambda r, c: (rows - 1 - r, cols - 1 - c), lambda t: (t[2], t[3], t[0], t[1])),  # half turn
        (lambda r, c: (r, cols - 1 - c), lambda t: (t[0], t[3], t[2], t[1])),  # left to right
        (lambda r, c: (rows - 1 - r, c), lambda t: (t[2], t[1], t[0], t[3])),  # top to bottom
    ]
    looks = list(product((1, 2, 3), repeat=4))
    group = []
    for cell, labels in geometry:
        source = [cell(r, c)[0] * cols + cell(r, c)[1] for r in range(rows) for c in range(cols)]
        for swap in ({1: 1, 2: 2, 3: 3}, {1: 1, 2: 3, 3: 2}):
            shown = {t: tuple(swap[x] for x in labels(t)) for t in looks}
            group.append((source, shown))

    def moved(pic, g):
        source, shown = g
        return tuple(shown[pic[k]] for k in source)

    images = [[moved(pic, g) for g in group] for pic in pictures]
    assert all(image in pictures for row in images[:2000] for image in row)
    assert all(len(set(row)) == 8 for row in images)  # no picture fixed by any of them
    assert len({min(row) for row in images}) == 13_328 == 106_624 // 8
    assert len({min(row[0], row[2]) for row in images}) == 53_312
    # satedge's own group of the puzzle makes the same images, and counts the same classes
    symmetries = symmetry.group(p)
    assert all(
        {symmetry.apply(p, sym, pic) for sym in symmetries} == set(row)
        for pic, row in zip(list(pictures)[:2000], images[:2000])
    )
    assert symmetry.counts_weighted(p, found, symmetry.MODES) == {
        "solutions": 54_591_488,
        "distinct": 106_624,
        "unique": 53_312,
        "classes": 13_328,
    }
