"""Pictures: SVG structure, and the PNG's colours on both sides of every interior edge."""

import xml.etree.ElementTree as ET

import pytest
from conftest import PUZZLES, SEEDS

import satedge
from satedge.backtrack import search as backtrack
from satedge.puzzle.drawing import PAD, TILE, TILES_TOP, ascii_grid, label_colours, to_svg
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.model import Puzzle, Solution
from satedge.puzzle.render import PNG_SCALE

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_svg_four_polygons_per_tile(run_cli, tmp_path, name):
    out = tmp_path / f"{name}.svg"
    assert run_cli("render", PUZZLES / f"{name}.yaml", "--solve", "-o", out)[0] == 0
    root = ET.parse(out).getroot()
    polygons = root.findall(f"{SVG}polygon")
    assert root.tag == f"{SVG}svg" and len(polygons) == 4 * 9
    texts = [t.text for t in root.findall(f"{SVG}text")]
    assert sorted(t for t in texts if t.isdigit()) == sorted(str(i) for i in range(9))
    assert texts.count("+") + texts.count("\u2212") == 36  # a half mark on every edge of every tile


def test_tile_set_and_clue_marks():
    p = load_puzzle(PUZZLES / "hunde-spiel.yaml")
    root = ET.fromstring(to_svg(p))  # no solution: the tiles in file order
    assert len(root.findall(f"{SVG}polygon")) == 36 and len(root.findall(f"{SVG}rect")) == 1
    from satedge.puzzle.model import Clue

    clued = p.with_(clues=(Clue(0, 0, 0, 1),))
    sol = next(backtrack.solutions(clued))
    rects = ET.fromstring(to_svg(clued, sol)).findall(f"{SVG}rect")
    assert len(rects) == 2 and rects[1].get("stroke") == "black"  # the background and the clue mark


def test_png_edges_show_one_pattern(run_cli, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.image as mpimg

    puzzle = load_puzzle(PUZZLES / "hunde-spiel.yaml")
    out = tmp_path / "h.png"
    assert run_cli("render", PUZZLES / "hunde-spiel.yaml", "--solve", "-o", out)[0] == 0
    solution = satedge.solve(puzzle).solution  # render --solve draws the first solution, as solve finds it
    img = mpimg.imread(out)[:, :, :3] * 255
    colours = {x: tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for x, c in label_colours(puzzle).items()}

    def label_at(x, y):
        px = img[int(y * PNG_SCALE), int(x * PNG_SCALE)]
        return min(colours, key=lambda lab: sum((px[i] - colours[lab][i]) ** 2 for i in range(3)))

    def inside(cell, side):
        """A point in the cell's triangle on that side: 5 units in from the edge, 14 along it."""
        row, col = divmod(cell, puzzle.cols)
        x0, y0 = PAD + col * TILE, TILES_TOP + row * TILE
        mid = TILE / 2
        return [
            (x0 + mid + 14, y0 + 5),
            (x0 + TILE - 5, y0 + mid + 14),
            (x0 + mid + 14, y0 + TILE - 5),
            (x0 + 5, y0 + mid + 14),
        ][side]

    edges = 0
    for adj in puzzle.board.adjacencies:
        a = label_at(*inside(adj.a, adj.side_a))
        b = label_at(*inside(adj.b, adj.side_b))
        assert a == puzzle.oriented(*solution.placements[adj.a])[adj.side_a]
        assert a[:-1] == b[:-1] and a[-1] != b[-1], (adj, a, b)
        edges += 1
    assert edges == 12


def test_ascii_grid_widens_cells_for_two_digit_tiles_and_labels():
    tiles = tuple((i, i + 1, i, i + 1) for i in range(10, 21))  # tiles 0..10, labels 10..21
    p = Puzzle(rows=1, cols=11, tiles=tiles)
    lines = ascii_grid(p, Solution(tuple((t, 0) for t in range(11)))).splitlines()
    assert {len(line) for line in lines} == {1 + 11 * 12}
    middle = lines[2].split("|")[1:-1]
    assert middle[0] == "11  0/0  11" and middle[10] == "21 10/0  21"
    assert lines[1].split("|")[1:-1][10] == "    20     "


@pytest.mark.slow
def test_render_solve_stops_at_its_timeout_and_memory(run_cli, tmp_path):
    """`render --solve` solves as `solve` does, in a child process under --timeout and --memory;
    either ends it without a picture."""
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    hard, out = tmp_path / "hard.yaml", tmp_path / "p.svg"  # framed 8x8 with 9 colours: far beyond a second
    save_puzzle(generate(Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), 1), hard)
    assert run_cli("render", hard, "--solve", "--timeout", "1", "-o", out) == (
        3,
        "",
        f"{hard}: TIMEOUT after 1 s, nothing to draw\n",
    )
    code, printed, err = run_cli("render", hard, "--solve", "--memory", "1", "-o", out)
    assert (code, printed) == (
        2,
        "",
    ) and err in {  # the cap covers the command's own work too: which passes it first
        f"satedge: error: {hard}: {stage} needs more than 1 MB of memory (--memory MB to allow more)\n"
        for stage in ("solving", "reading and preparing its job")
    }  # depends on the machine's load
    assert run_cli("render", hard, "--timeout", "1", "-o", out) == (
        2,
        "",
        "satedge: error: --timeout applies to --solve only\n",
    )
    assert run_cli("render", hard, "--solution", hard, "--memory", "100", "-o", out) == (
        2,
        "",
        "satedge: error: --memory applies to --solve only\n",
    )
    assert list(tmp_path.iterdir()) == [hard]


def test_the_shipped_pictures_show_the_first_solution(run_cli, tmp_path):
    """puzzles/pictures (the README's picture among them) are what `render NAME --solve` draws: the
    first solution `satedge solve NAME` gives (before: the README's showed another one)."""
    from conftest import PUZZLES

    for picture in sorted((PUZZLES / "pictures").glob("*.svg")):
        out = tmp_path / picture.name
        assert run_cli("render", picture.stem, "--solve", "-o", out)[0] == 0
        assert out.read_text() == picture.read_text(), picture.name


def test_a_saved_partial_board_is_drawn_with_its_misfits_in_red_under_its_score(run_cli, tmp_path):
    """Before: render refused maximize's best board (not a solution), and pictures had no title."""
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    p = generate(Params(rows=3, colors=9, model="uniform"), seed=2)
    path, board = tmp_path / "u.yaml", tmp_path / "best.sol"
    save_puzzle(p, path)
    assert run_cli("maximize", path, "--method", "budget", "--workers", "1", "-o", board)[0] == 0
    code, out, err = run_cli("check", path, board)
    missed = 12 - int(out.split("scores ")[1].split(" of")[0])
    assert code == 1 and missed > 0
    code, svg, err = run_cli("render", path, "--solution", board)
    assert (code, err) == (0, "") and svg.count('stroke="#D00000"') == missed
    # its title and score, in the picture (before: no caption)
    assert f">score {12 - missed} of 12 edges</text>" in svg and f"<title>{p.name}: score" in svg
    framed = generate(Params(rows=3, colors=4, frame=True), seed=1)  # a board that breaks the frame
    save_puzzle(framed, tmp_path / "f.yaml")
    code, out, err = run_cli("render", tmp_path / "f.yaml", "--solution", board)
    assert (code, out) == (2, "") and err.startswith(f"satedge: error: {board}: not a board of this puzzle: ")


def test_a_board_wider_than_the_output_is_printed_compact(run_cli, tmp_path):
    """Before: Eternity II's 16x16 grid took 193 columns; in a pipe a grid now keeps within 120,
    one line per row of tiles, and a narrow board keeps its labels."""
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    wide = generate(Params(rows=2, cols=16, colors=30), seed=1)
    save_puzzle(wide, tmp_path / "w.yaml")
    code, out, _ = run_cli("solve", tmp_path / "w.yaml", "--method", "backtrack")
    grid = out.splitlines()[1:]
    assert code == 0 and {len(line) for line in grid} == {1 + 16 * 5} and len(grid) == 5
    full = ascii_grid(wide, satedge.solve(wide, method="backtrack").solution).splitlines()
    assert {len(line) for line in full} == {1 + 16 * 12} and len(full) == 9
    code, out, _ = run_cli("solve", "hunde-spiel")
    assert code == 0 and len(out.splitlines()) == 1 + 13
