"""Counts up to the puzzle's own symmetries (mode ``classes``): the group of board turns and
mirrors, each with a relabelling, that maps the puzzle onto itself, named, and the pictures
counted up to it by every engine."""

from collections import Counter
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

from satedge import count
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.model import Puzzle, partner
from satedge.puzzle.strategies import puzzles
from satedge.puzzle.symmetry import MODES, Counts, apply, counts, describe, group, picture

MACMAHON = (
    "8 symmetries: identity; labels (2 3); half turn; half turn, labels (2 3); left-right mirror; "
    "left-right mirror, labels (2 3); top-bottom mirror; top-bottom mirror, labels (2 3)"
)


def squares(colours: int) -> tuple[tuple[int, ...], ...]:
    """Every square whose edges take ``colours`` colours, one per class of turns (MacMahon's sets)."""
    return tuple(
        sorted({min(t[i:] + t[:i] for i in range(4)) for t in product(range(1, colours + 1), repeat=4)})
    )


TWO = Puzzle(rows=2, cols=3, tiles=squares(2), name="two")  # MacMahon's six squares of two colours


def test_macmahons_squares_have_the_rectangles_symmetries_with_the_colour_swap():
    assert describe(group(load_puzzle("macmahon/4x6"))) == MACMAHON
    assert describe(group(load_puzzle("macmahon/ring-6x8"))) == MACMAHON  # the ring's label 4 stays
    assert describe(group(TWO)) == MACMAHON.replace("(2 3)", "(1 2)")
    # the border keeps white: no swap with it; tiles that may not turn lose the half turn
    assert describe(group(TWO.with_(border=(1,)))) == (
        "4 symmetries: identity; half turn; left-right mirror; top-bottom mirror"
    )
    assert describe(group(TWO.with_(turns="none"))) == "1 symmetry: identity"
    # a square board turns a quarter; the physical seed puzzles have no mirrors
    assert describe(group(load_puzzle("hunde-spiel"))) == (
        "4 symmetries: identity; quarter turn; half turn; three-quarter turn"
    )
    assert describe(group(load_puzzle("eternity2/e2-starter"))) == "1 symmetry: identity"


def test_a_clue_keeps_only_the_symmetries_that_map_it_onto_a_clue():
    from satedge.puzzle.model import Clue

    # tile 5 (all colour 2) in the top row's middle: the left-right mirror keeps it there; the
    # half turn takes it to the bottom row, the colour swap makes it all colour 1
    assert (
        describe(group(TWO.with_(clues=(Clue(0, 1, 5, 0),)))) == "2 symmetries: identity; left-right mirror"
    )
    assert describe(group(TWO.with_(clues=(Clue(1, 0, 5, 0),)))) == "1 symmetry: identity"


@pytest.mark.parametrize(
    "options",
    [
        {"method": "backtrack"},
        {"method": "backtrack", "workers": 2},
        {"method": "sat"},
        {"method": "sat", "encoding": "direct+symmetry=rotation"},
        {"method": "sat", "encoding": "support"},
        {"method": "sat", "encoding": "split"},
        {"method": "sat", "strategy": "cubes", "workers": 2},
        {"solver": "clasp"},
        {"solver": "cpsat"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_every_engine_counts_the_two_colour_squares_up_to_their_eight_symmetries(options):
    if options.get("solver") == "clasp":
        pytest.importorskip("clingo", reason="clasp needs the clasp extra (clingo)")
    if options.get("solver") == "cpsat":
        pytest.importorskip("ortools", reason="CP-SAT needs OR-Tools (extra cp)")
    # 416 pictures, no picture its own image: 416 / 8 classes
    assert count(TWO, classes=True, **options) == Counts(13_312, 416, 208, 52)
    assert count(TWO, **options) == Counts(13_312, 416, 208)


def test_count_names_the_group_it_counted_up_to(run_cli, tmp_path):
    from satedge.puzzle.formats import puzzle_to_yaml

    f = tmp_path / "two.yaml"
    f.write_text(puzzle_to_yaml(TWO))
    code, out, _ = run_cli("count", f, "--mode", "classes", "--method", "sat", "--certify")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{f}: 52 classes (edgecolor-corners, cadical195:sat, ")
    assert "certified by dratify (a proof of " in lines[0]
    assert lines[1:] == ["  classes: pictures up to its " + MACMAHON.replace("(2 3)", "(1 2)")]
    code, out, _ = run_cli("count", f, "--mode", "classes", "--json")
    import json

    got = json.loads(out)
    assert code == 0 and (got["classes"], got["distinct"], len(got["symmetries"])) == (52, None, 8)
    assert got["symmetries"][:2] == ["identity", "labels (1 2)"]
    code, out, _ = run_cli("solve", f, "--all", "--mode", "classes", "--method", "sat", "--json")
    sols = json.loads(out)["solutions"]
    assert code == 0 and len(sols) == 52


# ---------------------------------------------------------------- the group against its definition
def _look(labels: tuple, turn: int, mirror: bool, relabel: dict) -> tuple:
    """What a cell showing ``labels`` shows after the board is mirrored, turned and relabelled:
    written out here side by side, apart from satedge's."""
    t = (labels[0], labels[3], labels[2], labels[1]) if mirror else tuple(labels)
    t = tuple(relabel[x] for x in t)
    return tuple(t[(s - turn) % 4] for s in range(4))


def _cell(p: Puzzle, cell: int, turn: int, mirror: bool) -> int:
    r, c = divmod(cell, p.cols)
    if mirror:
        c = p.cols - 1 - c
    n, m = p.rows - 1, p.cols - 1
    for _ in range(turn):  # a clockwise quarter turn of a square board
        r, c = c, n - r
        n, m = m, n
    return r * p.cols + c


def oracle_group(p: Puzzle) -> set[tuple]:
    """Every (turn, mirror, relabelling) that maps the puzzle onto itself, by trying every
    permutation of the labels against the definition."""
    looks = Counter(frozenset(p.oriented(t, r) for r in p.rotations) for t in range(len(p.tiles)))
    clues = sorted((p.board.cell(c.row, c.col), p.oriented(c.tile, c.rotation)) for c in p.clues)
    out = set()
    for turn, mirror, perm in product(p.board.turns(), (False, True), permutations(p.labels)):
        relabel = dict(zip(p.labels, perm))
        if any(relabel[partner(p.matching, x)] != partner(p.matching, relabel[x]) for x in p.labels):
            continue
        if p.frame is not None and relabel[p.frame] != p.frame:
            continue
        if {relabel[x] for x in p.border} != set(p.border):
            continue
        image = Counter(frozenset(_look(x, turn, mirror, relabel) for x in s) for s in looks.elements())
        moved = sorted((_cell(p, c, turn, mirror), _look(x, turn, mirror, relabel)) for c, x in clues)
        if image == looks and moved == clues:
            out.add((turn, mirror, tuple(sorted((x, y) for x, y in relabel.items() if x != y))))
    return out


@st.composite
def symmetric_puzzles(draw):
    """A small puzzle, or one made of a puzzle's tiles and their mirror images relabelled: so
    that mirrors and relabellings occur."""
    p = draw(puzzles(max_cells=4, max_colors=3))
    if p.topology != "grid" or p.frame is not None or not draw(st.booleans()) or len(p.labels) < 2:
        return p
    a, b = p.labels[0], p.labels[1]
    swap = {a: b, b: a} if p.matching == "identical" else {}
    mirrored = tuple(tuple(swap.get(x, x) for x in (t[0], t[3], t[2], t[1])) for t in p.tiles)
    return Puzzle(rows=p.rows, cols=2 * p.cols, tiles=p.tiles + mirrored, matching=p.matching, turns=p.turns)


@settings(max_examples=120, deadline=None)
@given(symmetric_puzzles())
def test_the_group_is_every_relabelled_turn_and_mirror_that_keeps_the_puzzle(p):
    got = {(s.turn, s.mirror, tuple(sorted(s.relabel))) for s in group(p)}
    assert got == oracle_group(p)
    assert group(p)[0].name == "identity"


@settings(max_examples=80, deadline=None)
@given(puzzles(max_cells=4, max_colors=3))
def test_every_symmetry_maps_solutions_onto_solutions_and_classes_are_its_orbits(p):
    found = brute_force(p)
    pictures = {picture(p, s) for s in found}
    symmetries = group(p)
    assert all(apply(p, sym, pic) in pictures for sym in symmetries for pic in pictures)
    orbits, seen = 0, set()
    for pic in pictures:
        if pic not in seen:
            orbits += 1
            seen |= {apply(p, sym, pic) for sym in symmetries}
    assert counts(p, found, MODES)["classes"] == orbits


def test_the_two_colour_squares_classes_are_their_pictures_orbits():
    from satedge.backtrack import search as backtrack

    found = set(backtrack.solutions(TWO))
    pictures = {picture(TWO, s) for s in found}
    images = [{apply(TWO, sym, pic) for sym in group(TWO)} for pic in pictures]
    assert all(len(row) == 8 and row <= pictures for row in images)  # no picture its own image
    assert counts(TWO, found, MODES) == {"solutions": 13_312, "distinct": 416, "unique": 208, "classes": 52}


def test_a_count_of_classes_checks_each_image(monkeypatch, run_cli, tmp_path):
    from satedge.errors import EncodingError
    from satedge.puzzle import symmetry
    from satedge.puzzle.formats import puzzle_to_yaml

    white = TWO.with_(border=(1,), rows=1, cols=6)  # a border of 1: swapping 1 and 2 is no symmetry
    assert count(white, classes=True, method="sat", certify="dratify") == Counts(0, 0, 0, 0)
    rows = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (1, 1, 1, 2)), border=(1,))
    f = tmp_path / "rows.yaml"
    f.write_text(puzzle_to_yaml(rows))
    assert count(rows, classes=True, method="sat", certify="dratify") == Counts(2, 1, 1, 1)
    wrong = symmetry.Symmetry(0, False, ((1, 2), (2, 1)))
    monkeypatch.setattr(symmetry, "group", lambda p: (symmetry.Symmetry(), wrong))
    with pytest.raises(
        EncodingError,
        match=r"^the puzzle's symmetry labels \(1 2\) maps a solution's picture onto no solution's$",
    ):
        count(rows, classes=True, method="backtrack")
    with pytest.raises(
        EncodingError, match="^a symmetry of the puzzle made a picture that no placement of its"
    ):
        count(rows, classes=True, method="sat", certify="dratify")
    # one model per class, each image blocked: checked when certified
    code, out, err = run_cli("count", f, "--mode", "classes", "--method", "sat", "--certify")
    assert code == 2 and err.startswith(
        "satedge: error: a symmetry of the puzzle made a picture that no placement"
    )


def test_a_group_too_large_to_search_ends_in_one_line(run_cli, tmp_path):
    from satedge.puzzle.formats import puzzle_to_yaml
    from satedge.system.files import cut

    # nine one-colour tiles in a row: every relabelling of the nine colours maps it onto itself
    f = tmp_path / "plain.yaml"
    f.write_text(puzzle_to_yaml(Puzzle(rows=1, cols=9, tiles=tuple((x, x, x, x) for x in range(1, 10)))))
    assert run_cli("count", f, "--mode", "classes") == (
        2,
        "",
        cut(
            f"satedge: error: {f}: the puzzle's symmetries are too many to search (200,000 relabellings "
            "tried): count distinct or unique pictures instead"
        )
        + "\n",
    )
    code, out, _ = run_cli("count", f, "--method", "sat")  # the plain count goes on by the board's turns
    assert code == 0 and out.startswith(f"{f}: 0 solutions, 0 distinct, 0 unique (")
