"""The puzzle's global counts: side classes whose label counts every solution keeps, and the
count families (``+counts=sides,tiles``) that put them into every base encoding."""

import json
from collections import Counter

import pytest
from conftest import PUZZLES, ROOT, covers
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pysat.card import CardEnc, EncType

from satedge.backtrack import search as backtrack
from satedge.encode import Encoding, Options, bases, encode
from satedge.encode.maxsat import weighted
from satedge.errors import SatedgeError, Unsupported
from satedge.puzzle.balance import groups, side_counts
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle
from satedge.puzzle.strategies import puzzles
from satedge.sat.dimacs import read_header, rebuilt, write_dimacs
from satedge.sat.solving import count, solutions

MAX_SOLUTIONS = 60
FAMILIES = (("sides",), ("signs",), ("tiles",), ("sides:seqcounter", "signs:kmtotalizer", "tiles:ladder"))


def shown_counts(puzzle: Puzzle, solution, sides) -> dict:
    out: dict = {}
    for c, d in sides:
        t, r = solution.placements[c]
        label = puzzle.oriented(t, r)[d]
        out[label] = out.get(label, 0) + 1
    return out


@settings(max_examples=60, deadline=None)
@given(puzzles(max_rows=3, max_cols=3, max_cells=9))
def test_every_solution_shows_each_class_its_counts(puzzle):
    """Each side class's label counts are what every solution shows there (the backtracker's
    solutions, up to 60 of them); a puzzle with a count that cannot be met has none."""
    found = set(backtrack.solutions(puzzle, limit=MAX_SOLUTIONS))
    classes = side_counts(puzzle)
    for solution in found:
        for group in classes:
            assert shown_counts(puzzle, solution, group.sides) == dict(group.labels), group.name
    if any(n < 0 for g in classes for n in g.labels.values()):
        assert not found


def test_the_classes_of_eternity2():
    """Eternity II's classes: the frame ring, the border and the centre toward each other, and
    the five clue cells on their own."""
    e2 = load_puzzle(PUZZLES / "eternity2" / "e2-clues.yaml")
    got = [(g.name, g.how, len(g.sides), sum(g.labels.values()), len(g.labels)) for g in side_counts(e2)]
    assert got[:8] == [
        ("corners toward the outside", "tiles", 8, 8, 1),
        ("corners toward the border", "tiles", 8, 8, 4),
        ("border toward the outside", "tiles", 56, 56, 1),
        ("border toward the corners", "seam", 8, 8, 4),
        ("border toward itself", "rest", 104, 104, 5),
        ("border toward the centre", "tiles", 56, 56, 17),
        ("centre toward the border", "seam", 56, 56, 17),
        ("centre toward itself", "rest", 688, 688, 17),
    ]
    assert [name for name, *_ in got[8:]] == [
        *(f"centre toward cell {rc}" for rc in ("(2, 2)", "(2, 13)", "(8, 7)", "(13, 2)", "(13, 13)")),
        *(f"cell {rc} toward the centre" for rc in ("(2, 2)", "(2, 13)", "(8, 7)", "(13, 2)", "(13, 13)")),
    ]
    centre = dict(side_counts(e2)[7].labels)
    assert all(n % 2 == 0 for n in centre.values())  # identical matching: two sides per edge
    assert [len(cells) for cells, _ in groups(e2)] == [4, 56, 191, 1, 1, 1, 1, 1]


def test_a_torus_has_no_fixed_class_but_its_whole():
    """On a torus every cell takes every tile: one group, whose one class (the sides among
    themselves) shows every label of the tiles, each tile all four wherever it lies."""
    p = generate(Params(rows=3, cols=3, colors=3, topology="torus"), 1)
    (whole,) = side_counts(p)
    assert (whole.name, whole.how, len(whole.sides)) == ("board toward itself", "tiles", 36)


def unbalanced() -> Puzzle:
    """A framed 4x4 whose centre tiles show one side of a colour the border never shows
    toward it: its centre's counts cannot be met."""
    p = generate(Params(rows=4, cols=4, colors=3, border_colors=2, frame=True), 0)
    centre = [t for t, tile in enumerate(p.tiles) if p.frame not in tile]
    tiles = list(p.tiles)
    first = tiles[centre[0]]
    tiles[centre[0]] = (first[0], first[1], first[2], 99)
    return p.with_(tiles=tuple(tiles), planted=None)


def test_counts_that_cannot_be_met_make_the_formula_unsatisfiable_at_once():
    p = unbalanced()
    assert not list(backtrack.solutions(p))
    (bad,) = [g for g in side_counts(p) if any(n < 0 for n in g.labels.values())]
    assert bad.name == "centre toward itself"
    for family in ("sides", "signs"):  # the centre's sides, and label 99 shown once: odd
        f = encode(p, f"direct+counts={family}")
        assert [] in f.cnf.clauses
        assert count(f, "cadical195", "solutions") == 0


def test_signs_on_a_board_whose_edges_join_cells_of_one_colour_count_the_tiles_alone():
    """On a 3x3 torus an edge wraps from a black cell to a black one: the labels' weighted counts
    do not hold, and the family is each tile's b[t] and the five tiles on black cells."""
    p = generate(Params(rows=3, cols=3, colors=3, topology="torus"), 1)
    plain, f = encode(p, "direct"), encode(p, "direct+counts=signs")
    b = [f.pool.id(("b", t)) for t in range(9)]
    definitions = 9 + sum(len(cell) for cell in plain.cells())  # b[t] -> a black cell; each placement
    cards = CardEnc.equals(lits=b, bound=5, top_id=max(b), encoding=EncType.totalizer).clauses
    assert f.clause_count - plain.clause_count == definitions + len(cards)
    assert count(f, "cadical195", "solutions") == count(plain, "cadical195", "solutions")


def test_signs_weigh_each_tile_by_the_sides_it_shows_of_each_label():
    """A framed 4x4 (identical matching): per inner label, the b[t] of the tiles showing it, each
    as often as it shows it, half of the label's sides."""
    p = generate(Params(rows=4, cols=4, colors=3, border_colors=2, frame=True), 2)
    total = Counter(x for tile in p.tiles for x in tile)
    f = encode(p, "direct+counts=signs")
    solution = next(iter(backtrack.solutions(p)))
    on_black = [t for c, (t, _) in enumerate(solution.placements) if sum(p.board.position(c)) % 2 == 0]
    for label, n in total.items():
        if label != p.frame:
            assert sum(p.tiles[t].count(label) for t in on_black) == n // 2
    assert count(f, "cadical195", "solutions") == 2304


def bounded(puzzle):
    found = set(backtrack.solutions(puzzle, limit=MAX_SOLUTIONS + 1))
    assume(len(found) <= MAX_SOLUTIONS)
    return found


@settings(max_examples=60, deadline=None)
@given(
    puzzle=puzzles(max_rows=3, max_cols=3, max_cells=9),
    base=st.sampled_from(sorted(bases())),
    families=st.sampled_from(FAMILIES),
    symmetry=st.sampled_from(["none", "rotation"]),
)
def test_the_count_families_keep_every_solution_of_every_base(puzzle, base, families, symmetry):
    """Every base with each count family has exactly the solutions it has without it: the
    backtracker's, or with symmetry breaking the same ones as the base alone."""
    if not covers(base, puzzle):
        with pytest.raises(Unsupported):
            encode(puzzle, base, Options(counts=families))
        return
    expected = bounded(puzzle)
    plain = set(solutions(encode(puzzle, base, Options(symmetry=symmetry)), "cadical195"))
    counted = list(solutions(encode(puzzle, base, Options(symmetry=symmetry, counts=families)), "cadical195"))
    assert len(counted) == len(set(counted))
    assert set(counted) == plain
    if symmetry == "none":
        assert plain == expected


@pytest.mark.parametrize("base", ["direct", "support", "split", "edgecolor", "heule"])
def test_seed_and_framed_counts_with_the_families(base):
    """The three counts of a framed 4x4 with the three families, by every base, are the backtracker's."""
    p = generate(Params(rows=4, cols=4, colors=3, border_colors=2, frame=True), 2)
    f = encode(p, f"{base}+counts=sides,signs,tiles")
    assert tuple(count(f, "cadical195", m) for m in ("solutions", "distinct", "unique")) == (2304, 144, 36)


def test_sides_read_the_formulas_own_side_variables_where_it_names_them():
    """edgecolor's edge colours and split's side labels are counted as they are; direct gets a
    new variable per side and label, defined both ways."""
    p = generate(Params(rows=4, cols=4, colors=3, border_colors=2, frame=True), 2)
    for base, fresh in (("edgecolor", 0), ("split", 0), ("heule", 0)):
        plain, counted = encode(p, base), encode(p, f"{base}+counts=sides")
        new = [counted.pool.obj(v) for v in range(plain.pool.top + 1, counted.pool.top + 1)]
        assert sum(1 for o in new if o is not None and o[0] == "s") == fresh, base
    plain, counted = encode(p, "direct"), encode(p, "direct+counts=sides")
    new = [counted.pool.obj(v) for v in range(plain.pool.top + 1, counted.pool.top + 1)]
    sides = [o for o in new if o is not None and o[0] == "s"]
    # every inner side (the frame's are fixed) with each label a placement shows there
    inner = {(a.a, a.side_a) for a in p.board.adjacencies} | {(a.b, a.side_b) for a in p.board.adjacencies}
    can = {(c, d, p.oriented(t, r)[d]) for c, d in inner for t, r in p.allowed[c]}
    assert {o[1:] for o in sides} == can and len(sides) == len(can) == 112


def test_names_options_and_errors():
    e = Encoding.parse("edgecolor-corners+counts=sides,tiles:ladder")
    assert (e.name, e.options.counts) == (
        "edgecolor-corners+counts=sides,tiles:ladder",
        ("sides", "tiles:ladder"),
    )
    assert Encoding.parse(e.name) == e
    assert e.options.as_dict()["counts"] == ["sides", "tiles:ladder"]
    assert "counts" not in Options().as_dict()
    p = generate(Params(rows=3, cols=3, colors=3, border_colors=2, frame=True), 1)
    assert e.size(p) is None and e.floor(p) is not None
    for text, message in (
        ("direct+counts=colours", "unknown count family 'colours'; choose from sides, signs, tiles"),
        (
            "direct+counts=sides:pairwise",
            "count family sides: unknown card encoding 'pairwise'; choose from seqcounter, sortnetwrk, "
            "cardnetwrk, totalizer, mtotalizer, kmtotalizer",
        ),
        ("direct+counts=sides,sides:seqcounter", "counts names a family twice: sides, sides:seqcounter"),
    ):
        with pytest.raises(SatedgeError) as err:
            Encoding.parse(text)
        assert str(err.value) == message
    with pytest.raises(SatedgeError) as err:
        weighted(p, "support+counts=sides")
    assert str(err.value) == (
        "the count families (sides) hold on solutions, not on the best boards: a MaxSAT form takes none"
    )


def test_the_dimacs_header_names_the_families_and_reads_back(tmp_path):
    p = generate(Params(rows=3, cols=3, colors=3, border_colors=2, frame=True), 1)
    path = tmp_path / "p.cnf"
    enc = Encoding.parse("edgecolor-corners+counts=sides")
    f = enc.encode(p)
    write_dimacs(f, path, enc)
    head = path.read_text().splitlines()
    (line,) = [x for x in head if x.startswith("c encoding: ")]
    assert line == (
        "c encoding: edgecolor-corners+counts=sides (base edgecolor, card seqcounter, symmetry none, "
        "redundant true, counts sides)"
    )
    info = read_header(path)
    assert info["encoding"]["counts"] == ["sides"]
    _, again, _ = rebuilt(path)  # the formula made again from the header is the same
    assert (again.options.counts, again.nv, again.clause_count) == (("sides",), f.nv, f.clause_count)


def test_the_command_line_takes_the_families_and_certifies_them(run_cli):
    """`--counts` on the command line, certified: the proof is checked against the formula with
    its count families."""
    code, out, err = run_cli(
        "count",
        PUZZLES / "board-suite" / "4" / "5" / "board_0.yaml",
        "--method",
        "sat",
        "--counts",
        "sides,signs,tiles",
        "--certify",
        "--json",
    )
    row = json.loads(out)
    assert code == 0, err
    assert (row["solutions"], row["distinct"], row["unique"]) == (1, 1, 1)
    assert row["encoding"] == "edgecolor-corners+counts=sides,signs,tiles"
    assert row["certificate"]["checker"] == "dratify"
    code, _, err = run_cli("count", "hunde-spiel", "--counts", "sides,colours")
    assert (code, err.strip()) == (
        2,
        "satedge: error: unknown count family 'colours'; choose from sides, signs, tiles",
    )


def test_encodings_lists_the_families_with_their_sources(run_cli):
    from satedge.encode.counts import COUNT_FAMILIES

    code, out, _ = run_cli("encodings")
    tail = out.splitlines()[-7:]
    assert (
        code == 0 and tail[0] == "count families, for every base (+counts=FAMILY,... or --counts FAMILY,...):"
    )
    assert tail[1:] == [
        line
        for name, (what, source) in COUNT_FAMILIES.items()
        for line in (f"  {name}: {what}", f"    source: {source}")
    ]
    assert "Gallicchio" in COUNT_FAMILIES["signs"][1]


@pytest.mark.slow
def test_the_committed_study_says_what_its_rows_say(tmp_path, run_cli):
    """experiments/bench-counts.md quotes `report --compare` on its committed rows: the Friedman
    test, the pairs, and each configuration's instances solved and PAR-2."""
    (tmp_path / "results.jsonl").write_bytes(
        (ROOT / "experiments" / "bench-counts-results.jsonl").read_bytes()
    )
    sat = [
        f"edgecolor-corners-sym{c}/cadical195:sat"
        for c in ("", "+counts=sides", "+counts=signs", "+counts=sides,signs")
    ]
    code, out, err = run_cli("report", tmp_path, "--no-plots", "--compare", *sat)
    assert code == 0, err
    page = (ROOT / "experiments" / "bench-counts.md").read_text()
    quoted = [line.removeprefix("> ") for line in page.splitlines() if line.startswith("> ")]
    assert len(quoted) == 3
    for line in quoted:
        assert line in out, line
    assert (
        "Average ranks (1 is the lowest PAR-2): edgecolor-corners-sym+counts=sides/cadical195:sat 1.93, "
        "edgecolor-corners-sym/cadical195:sat 2.17, edgecolor-corners-sym+counts=sides,signs/cadical195:sat 2.90, "
        "edgecolor-corners-sym+counts=signs/cadical195:sat 3.00."
    ) in out
    for config, solved, par2 in (
        ("backtrack/backtrack", "19 of 20", "14.9 (0.6 to 40.3)"),
        (sat[1], "13 of 20", "106.2 (62.2 to 152.3)"),
        (sat[0], "14 of 20", "106.2 (67.9 to 147.6)"),
        (sat[3], "9 of 20", "151.5 (107.6 to 193.3)"),
        (sat[2], "9 of 20", "151.5 (107.7 to 193.5)"),
    ):
        assert f"| {config} | 20 | {solved} (" in out and f") | {par2} |" in out
        name = (
            "backtracker" if config.startswith("backtrack") else f"`{config.removesuffix('/cadical195:sat')}`"
        )
        assert f"| {name} | {solved} | {par2} |" in page
    guide = " ".join((ROOT / "docs" / "guides" / "encodings.md").read_text().split())
    changes = " ".join((ROOT / "CHANGELOG.md").read_text().split())
    assert "ratio 1.43 (family 95% interval 1.02 to 2.28), p = 0.1108" in out
    assert "`sides` left the best preset's PAR-2 as it was and `signs` made it 1.43 times worse" in guide
    assert (
        "`sides` gives the same PAR-2 (ratio 1.00, interval 0.69 to 1.43), `signs` a worse one (1.43, 1.02 to "
        "2.28, p = 0.1108); the backtracker's PAR-2 is 7.1 times lower"
    ) in changes
