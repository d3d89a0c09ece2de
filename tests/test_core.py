"""Core: model, counts, formats, checker and the backtracker against a brute-force oracle."""

import json
import multiprocessing
import os
import pickle
import re
import shutil
import subprocess
import sys
from itertools import chain, islice
from unittest.mock import patch

import numpy as np
import pytest
from conftest import PUZZLES, SEEDS
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

from satedge.backtrack import loop as driver
from satedge.backtrack import search as backtrack
from satedge.backtrack import split
from satedge.backtrack.kernels import Step
from satedge.errors import SatedgeError
from satedge.puzzle import symmetry
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import load_puzzle, puzzle_to_yaml, save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Clue, Puzzle, Solution, rotate
from satedge.puzzle.solutions import load_solution, save_solution
from satedge.puzzle.strategies import puzzles
from satedge.sat.dimacs import puzzle_hash


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_counts(name):
    puzzle = load_puzzle(PUZZLES / f"{name}.yaml")
    counts = symmetry.count(puzzle, backtrack.solutions(puzzle))
    assert (counts.solutions, counts.distinct, counts.unique) == SEEDS[name]
    for s in backtrack.solutions(puzzle):
        assert validate(puzzle, s) is None


@pytest.mark.slow
def test_count_cli_json(run_cli):
    code, out, err = run_cli(
        "count", PUZZLES / "hunde-spiel.yaml", PUZZLES / "insects.yaml", "--method", "backtrack", "--json"
    )
    assert code == 0 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["solutions"], r["distinct"], r["unique"], r["method"]) for r in rows] == [
        (16, 8, 2, "backtrack"),
        (4, 4, 1, "backtrack"),
    ]
    assert set(rows[0]) == {
        "puzzle",
        "solutions",
        "distinct",
        "unique",
        "classes",  # null: not asked for
        "method",
        "encoding",
        "solver",
        "shuffle",
        "seconds",
        "solve_seconds",  # the search's own, apart from reading the file (no compile: the Python loop)
        "nodes",
        "candidates",
        "loop",
        "placements_per_second",
        "nodes_per_solution",
    }
    assert rows[0]["loop"] == "python"  # 9 cells: auto takes the pure-Python loop
    assert rows[0]["nodes_per_solution"] == round(
        rows[0]["nodes"] / 16, 1
    )  # the search's placements per solution
    # one solution per board-turn orbit (4,284 nodes before), in the order of the smallest estimated
    # tree (2,911), its two identical tiles in one order
    assert (rows[0]["solver"], rows[0]["nodes"]) == ("backtrack", 1749)
    for order, nodes in (("rows", 1770), ("spiral", 8306)):
        code, out, _ = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--order", order, "--json")
        row = json.loads(out)
        assert (code, row["solutions"], row["unique"], row["solver"], row["nodes"]) == (
            0,
            16,
            2,
            f"backtrack:order={order}",
            nodes,
        )
    for mode, expected in (("solutions", 16), ("distinct", 8), ("unique", 2)):  # one mode: only that count
        code, out, _ = run_cli(
            "count", PUZZLES / "hunde-spiel.yaml", "--method", "backtrack", "--mode", mode, "--json"
        )
        row = json.loads(out)
        assert code == 0 and {k: row[k] for k in ("solutions", "distinct", "unique")} == {
            m: expected if m == mode else None for m in ("solutions", "distinct", "unique")
        }
    code, out, _ = run_cli(
        "count", PUZZLES / "hunde-spiel.yaml", "--method", "backtrack", "--workers", "2", "--json"
    )
    assert code == 0 and [json.loads(out)[m] for m in ("solutions", "distinct", "unique")] == [16, 8, 2]
    code, out, _ = run_cli(
        "solve",
        PUZZLES / "hunde-spiel.yaml",
        "--method",
        "backtrack",
        "--workers",
        "2",
        "--mode",
        "unique",
        "--all",
        "--timeout",
        "60",
        "--json",
    )
    assert code == 0 and len(json.loads(out)["solutions"]) == 2
    hunde = PUZZLES / "hunde-spiel.yaml"
    for args, head in (
        (["--all", "--mode", "unique"], "SAT, 2 solutions"),
        (["--limit", "1"], "SAT, 1 solution"),
    ):
        code, out, _ = run_cli("solve", hunde, "--method", "backtrack", *args)
        assert code == 0 and out.splitlines()[0] == f"{hunde}: {head} (backtrack)"


def test_count_text_line(run_cli, tmp_path):
    f = tmp_path / "g.yaml"  # 4 solutions, the turns of one picture: 1 model with the board's turns broken
    save_puzzle(generate(Params(rows=2, cols=2, colors=6), seed=1), f)
    code, out, _ = run_cli("count", f, "--symmetry", "rotation")
    assert code == 0 and out.startswith(
        f"{f}: 4 solutions, 4 distinct, 1 unique (edgecolor-corners+symmetry=rotation, "
        "cadical195:sat, 1 model of the formula, "
    )
    code, out, _ = run_cli("count", f, "--method", "backtrack")
    assert code == 0 and out.startswith(f"{f}: 4 solutions, 4 distinct, 1 unique (backtrack, ")


def test_one_tough_puzzle_partial_grids():
    """The seed's search keeps 36, 138, 470, 1350, 474, 144, 175, 28, 4 partial grids."""
    puzzle = load_puzzle(PUZZLES / "one-tough-puzzle.yaml")

    kept = []
    for k in range(1, 10):
        n = 0

        # count partial row-major grids of k cells whose placed neighbours fit
        def extend(cells, used):
            nonlocal n
            if len(cells) == k:
                n += 1
                return
            i = len(cells)
            r, c = divmod(i, 3)
            for t in range(9):
                if t in used:
                    continue
                for rot in range(4):
                    lab = puzzle.oriented(t, rot)
                    if c and not puzzle.fits(puzzle.oriented(*cells[i - 1])[1], lab[3]):
                        continue
                    if r and not puzzle.fits(puzzle.oriented(*cells[i - 3])[2], lab[0]):
                        continue
                    extend(cells + [(t, rot)], used | {t})

        extend([], frozenset())
        kept.append(n)
    assert kept == [36, 138, 470, 1350, 474, 144, 175, 28, 4]


def test_solution_json_round_trip(run_cli, tmp_path):
    puzzle = load_puzzle(PUZZLES / "hunde-spiel.yaml")
    code, out, _ = run_cli("solve", PUZZLES / "hunde-spiel.yaml", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "SAT" and len(obj["solution"]) == 9
    f = tmp_path / "s.json"
    f.write_text(out)
    assert run_cli("check", PUZZLES / "hunde-spiel.yaml", f)[:2] == (0, f"{f}: valid\n")
    sol = load_solution(f, puzzle)
    save_solution(puzzle, sol, tmp_path / "s.sol")
    assert load_solution(tmp_path / "s.sol", puzzle) == sol
    copy = pickle.loads(pickle.dumps(sol))  # as solutions come back from a solving process
    assert (type(copy), copy, validate(puzzle, copy)) == (Solution, sol, None)


def test_the_default_configuration(run_cli):
    """solve and count name what they used; the default engine is the backtracker (--method auto),
    and the default SAT configuration the preset that did best in bench-solve without symmetry
    breaking, with CaDiCaL 1.9.5 in its sat configuration; a solver named is as named."""
    hunde = PUZZLES / "hunde-spiel.yaml"
    code, out, _ = run_cli("count", hunde)
    assert (code, out) == (
        0,
        f"{hunde}: 16 solutions, 8 distinct, 2 unique (backtrack, " + out.rsplit(", ", 1)[1],
    )
    code, out, _ = run_cli("count", hunde, "--method", "sat")
    assert (code, out) == (
        0,
        f"{hunde}: 16 solutions, 8 distinct, 2 unique (edgecolor-corners, cadical195:sat, "
        + out.rsplit(", ", 1)[1],
    )
    assert out.endswith(" s)\n")
    code, out, _ = run_cli("count", hunde, "--solver", "cadical195")
    assert code == 0 and "(edgecolor-corners, cadical195, " in out


def test_solve_all_json(run_cli):
    code, out, _ = run_cli("solve", PUZZLES / "insects.yaml", "--all", "--json")
    assert code == 0 and len(json.loads(out)["solutions"]) == 4


def test_check_reports_violation(run_cli, tmp_path):
    f = tmp_path / "bad.json"
    sol = [{"row": c // 3, "col": c % 3, "tile": c, "rotation": 0} for c in range(9)]
    f.write_text(json.dumps(sol))
    code, out, _ = run_cli("check", PUZZLES / "hunde-spiel.yaml", f)
    assert code == 1
    assert out == (
        f"{f}: invalid: cell (0, 0) right shows 'grey+' but cell (0, 1) left shows 'umber-': they do not fit "
        "(a board that scores 5 of 12 inner edges)\n"
    )


# ------------------------------------------------------------------ hand-checked small puzzles
def counts(p):
    c = symmetry.count(p, backtrack.solutions(p))
    return c.solutions, c.distinct, c.unique


def test_torus_one_cell():
    # self-loops: right meets left, bottom meets top; (a,b,a,b) fits in every rotation
    assert counts(Puzzle(rows=1, cols=1, tiles=(("a", "b", "a", "b"),), topology="torus")) == (4, 2, 1)
    assert counts(Puzzle(rows=1, cols=1, tiles=((1, 2, 3, 4),), topology="torus")) == (0, 0, 0)
    assert counts(Puzzle(rows=1, cols=1, tiles=((1, 2, 3, 4),))) == (4, 4, 1)


def test_torus_uniform_tiles():
    # 2x2 torus of four blank tiles: 4! placements x 4^4 rotations, one picture
    assert counts(Puzzle(rows=2, cols=2, tiles=((1, 1, 1, 1),) * 4, topology="torus")) == (6144, 1, 1)
    # the board graph has parallel edges: 8 adjacencies, every cell with four neighbours
    b = Puzzle(rows=2, cols=2, tiles=((1, 1, 1, 1),) * 4, topology="torus").board
    assert len(b.adjacencies) == 8 and all(d == 4 for _, d in b.graph.degree())


def test_frame_corners_and_clue():
    corner = (0, 1, 1, 0)
    p = Puzzle(rows=2, cols=2, tiles=(corner,) * 4, frame=0)
    assert counts(p) == (24, 1, 1)  # each cell admits one rotation; 4! arrangements
    clued = p.with_(clues=(Clue(0, 0, 2, 0),))
    assert counts(clued) == (6, 1, 1)
    assert all(s.placements[0] == (2, 0) for s in backtrack.solutions(clued))
    # a clue with the wrong rotation leaves nothing
    assert counts(p.with_(clues=(Clue(0, 0, 2, 1),))) == (0, 0, 0)


def test_frame_forbids_frame_label_inside():
    # 1x2 framed: the shared edge must not carry the frame label
    p = Puzzle(rows=1, cols=2, tiles=((0, 0, 0, 0), (0, 0, 0, 0)), frame=0)
    assert counts(p) == (0, 0, 0)
    assert counts(p.with_(frame=None)) == (2 * 16, 1, 1)


def test_non_square_turns():
    # 1x2 complementary, both tiles of period 2: either tile on the left in any of 4 rotations,
    # the right tile then in 2 -> 2 * 4 * 2 = 16 solutions; 2 pictures per arrangement -> 4 distinct;
    # a half turn swaps the two arrangements -> 2 unique
    p = Puzzle(
        rows=1, cols=2, matching="complementary", tiles=(("a+", "b+", "a+", "b+"), ("a-", "b-", "a-", "b-"))
    )
    sols = set(backtrack.solutions(p))
    assert sols == brute_force(p)
    assert counts(p) == (16, 4, 2)


SMALL = [
    Puzzle(
        rows=2,
        cols=2,
        matching="complementary",
        tiles=(
            ("a+", "b+", "a-", "b-"),
            ("a+", "a-", "b+", "b-"),
            ("b+", "a+", "a-", "b-"),
            ("a+", "b+", "a-", "b-"),
        ),
    ),
    Puzzle(rows=2, cols=2, tiles=((1, 2, 1, 2), (2, 1, 1, 2), (1, 1, 2, 2), (2, 2, 1, 1)), topology="torus"),
    Puzzle(rows=2, cols=2, tiles=((0, 1, 2, 0), (0, 0, 1, 1), (2, 1, 0, 0), (1, 0, 0, 2)), frame=0),
    Puzzle(rows=1, cols=3, tiles=((1, 2, 1, 2), (2, 2, 2, 2), (1, 1, 1, 1)), topology="torus"),
]


@pytest.mark.parametrize("loop", ["python", "numba"])
@pytest.mark.parametrize("puzzle", SMALL, ids=["comp2x2", "torus2x2", "frame2x2", "torus1x3"])
def test_backtracker_equals_brute_force(puzzle, loop):
    assert set(backtrack.solutions(puzzle, loop=loop)) == brute_force(puzzle)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(puzzles(max_rows=4, max_cols=4, max_cells=9, max_colors=3))
def test_compiled_search_gives_the_same_solutions_in_the_same_order(puzzle):
    # uniform tile sets on a torus can have millions of solutions: the first 5,000 in order
    first = list(backtrack.solutions(puzzle, limit=5000, loop="python"))
    assert list(backtrack.solutions(puzzle, limit=5000, loop="numba")) == first


def test_compiled_search_on_a_3x4_torus_checks_third_and_fourth_neighbours(monkeypatch):
    # on a 3x4 torus the last column's cells have three placed neighbours and the last cell four:
    # two keyed, the others checked one by one
    p = generate(Params(rows=3, cols=4, colors=4, topology="torus"), seed=1)
    py = list(backtrack.solutions(p, loop="python"))
    assert len(py) == 4224
    assert list(backtrack.solutions(p, loop="numba")) == py
    monkeypatch.setattr(driver, "CALL_BUDGET", 7)  # pause and resume every 7 candidates
    assert list(backtrack.solutions(p, loop="numba")) == py
    assert backtrack.compiled_available(p)  # 12 cells x 4 x 4 labels = 192 table entries
    monkeypatch.setattr(backtrack, "MAX_TABLE", 191)
    assert not backtrack.compiled_available(p)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(puzzles(max_rows=4, max_cols=4, max_cells=9, max_colors=3), st.integers(1, 3))
def test_subtrees_of_the_cut_give_the_whole_search_in_order(puzzle, workers):
    # the parallel search's unit of work: searched one after another in the cut's order, the
    # subtrees give exactly the sequential search
    t = backtrack.tables(puzzle)
    depth, prefixes = split.cut(t, workers)
    assert all(len(p) == depth for p in prefixes)
    joined = (s for p in prefixes for s in driver.run(t, p, puzzle.n - 1))
    assert list(islice(joined, 5000)) == list(islice(driver.search(t), 5000))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(puzzles(max_rows=4, max_cols=4, max_cells=9, max_colors=3), st.integers(1, 60))
def test_the_branches_of_a_paused_search_are_the_rest_of_it_in_order(puzzle, budget):
    # what a busy worker hands back: searched deepest first, the branches go on exactly as the
    # paused search would have, on the C loop (where a compiler is found) and on numba's
    for cc in (os.environ.get("CC", "cc"), ""):
        with patch.dict(os.environ, {"CC": cc}):
            branches_go_on(puzzle, budget)


def branches_go_on(puzzle, budget):
    t = backtrack.tables(puzzle)
    last = puzzle.n - 1
    whole = list(islice(driver.search(t), 3000))
    state = driver.at_root(t)
    before, outcome = [], Step.FOUND
    while outcome == Step.FOUND:
        outcome = state.step(0, last, budget)
        if outcome == Step.FOUND:
            before.append(state.placed[: last + 1].tolist())
    rest = split.branches(t, state, 0) if outcome == Step.PAUSED else []
    assert outcome == Step.PAUSED or before == list(driver.search(t))
    assert all(len(prefix) <= last for prefix, _, _ in rest)
    after = (s for prefix, w, m in reversed(rest) for s in driver.run(t, prefix, last, start=(w, m)))
    assert list(islice(chain(before, after), 3000)) == whole


@pytest.mark.slow
def test_a_busy_worker_splits_its_subtree_for_an_idle_one(monkeypatch):
    """A subtree split and handed back is searched by the workers, every solution once and every
    node once.  Whether a worker waits while another is busy depends on how the machine schedules
    them (on a loaded one the last subtree can end before the idle worker asks), so a worker asks
    for a split at every pause until the first one is made."""
    p = generate(Params(rows=3, cols=4, colors=4, topology="torus"), seed=1)
    t = backtrack.tables(p, backtrack.plan(p, order="rows", distinct=False))
    monkeypatch.setattr(split, "SUBTREES_PER_WORKER", 1)  # 48 subtrees of the first cell
    splits = multiprocessing.get_context("fork").Value("i", 0)  # counted in the workers
    branches, explore = split.branches, split.explore

    def counted(*args):
        with splits.get_lock():
            splits.value += 1
        return branches(*args)

    def asking(t, state, share, limit=None, hand_back=lambda: False, parent=None, budget=None, pending=None):
        return explore(
            t, state, share, limit, lambda: splits.value == 0 or hand_back(), parent, budget, pending
        )

    monkeypatch.setattr(split, "branches", counted)
    monkeypatch.setattr(split, "explore", asking)
    counts = np.zeros(2, np.int64)
    found = [tuple(s) for s in split.parallel_search(t, 2, counts=counts, budget=5)]
    alone = np.zeros(2, np.int64)
    assert sorted(found) == sorted(tuple(s) for s in driver.search(t, alone))
    assert len(found) == len(set(found)) == 4224 and splits.value > 0
    assert counts.tolist() == alone.tolist()  # the same tree: every node once, whoever placed it


def test_the_solutions_a_worker_holds_are_counted_once(monkeypatch):
    """A stopped parallel count reports the solutions handed over and those the workers hold
    (``pending``): a worker clears its share before it hands its solutions over, so that no report
    counts one twice.  Every report here is at most the count, and at the end nothing is held."""
    p = generate(Params(rows=3, cols=4, colors=4, topology="torus"), seed=1)
    t = backtrack.tables(p, backtrack.plan(p, order="rows", distinct=False))
    monkeypatch.setattr(split, "REPORT_SECONDS", 0.0)  # a report at every batch handed over
    counts, pending = np.zeros(2, np.int64), np.zeros(1, np.int64)
    got, seen = [0], []
    for _ in split.parallel_search(
        t, 2, counts=counts, paused=lambda *_: seen.append(got[0] + int(pending[0])), pending=pending
    ):
        got[0] += 1
    assert got[0] == 4224 and pending.tolist() == [0] and len(seen) > 1 and max(seen) <= 4224


@pytest.mark.slow
def test_workers_find_every_solution_once(monkeypatch):
    p = generate(Params(rows=3, cols=4, colors=4, topology="torus"), seed=1)
    monkeypatch.setattr(split, "SUBTREES_PER_WORKER", 30)
    depth, prefixes = split.cut(backtrack.tables(p, backtrack.plan(p, order="rows", distinct=False)), 2)
    assert (depth, len(prefixes)) == (2, 630)  # 48 placements of the first cell are too few
    found = list(backtrack.solutions(p, workers=2))
    assert len(found) == 4224 and set(found) == set(backtrack.solutions(p))
    first = list(backtrack.solutions(p, limit=10, workers=3))
    assert len(set(first)) == 10 and all(validate(p, s) is None for s in first)
    assert multiprocessing.active_children() == []  # closed early: the workers are gone
    assert backtrack.solve(p, workers=2) in set(found)
    with pytest.raises(
        SatedgeError, match=r"several workers needs a compiled loop \(numba or c\), not python$"
    ):
        backtrack.solutions(p, workers=2, loop="python")


def test_limit_streams():
    p = Puzzle(rows=2, cols=2, tiles=((1, 1, 1, 1),) * 4, topology="torus")
    assert len(list(backtrack.solutions(p, limit=5))) == 5


# ------------------------------------------------------------------ formats
def test_yaml_round_trip_and_edge_order(tmp_path):
    p = load_puzzle(PUZZLES / "insects.yaml")
    assert p.tiles[0] == ("beetle+", "dragonfly-", "dragonfly+", "mantis+")  # top, right, bottom, left
    out = tmp_path / "p.yaml"
    save_puzzle(p, out)
    assert load_puzzle(out) == p
    assert "edge_order: [top, right, bottom, left]" in puzzle_to_yaml(p)


def test_tile_dict_reader(tmp_path):
    src = (PUZZLES / "scramble-squares.yaml").read_text()
    d = tmp_path / "3x3-original" / "input"
    d.mkdir(parents=True)
    lines = [line for line in src.splitlines() if line.startswith("  - [[")]
    (d / "tile_dict.yaml").write_text(
        "".join(
            f"{i + 1}:\n{line}\n".replace("  - [[", "- [").replace("]]", "]").replace("], [", "]\n- [")
            for i, line in enumerate(lines)
        )
    )
    p = load_puzzle(d / "tile_dict.yaml")
    ref = load_puzzle(PUZZLES / "scramble-squares.yaml")
    assert p.tiles == ref.tiles and p.name == "3x3-original"
    assert ref.tiles[0] == ("red-", "ylw+", "blu+", "grn+")


def test_puz_round_trip_with_clues(tmp_path):
    p = Puzzle(rows=2, cols=2, tiles=SMALL[2].tiles, frame=0, clues=(Clue(1, 0, 3, 1),), name="p")
    save_puzzle(p, tmp_path / "p.puz")
    assert (tmp_path / "p.clue").read_text() == "3 0 1 3\n"  # tile col row anti-clockwise rotation
    assert load_puzzle(tmp_path / "p.puz") == p


def test_convert_cli(run_cli, tmp_path):
    out = tmp_path / "x.yaml"
    assert run_cli("convert", PUZZLES / "hunde-spiel.yaml", out)[0] == 0
    assert load_puzzle(out) == load_puzzle(PUZZLES / "hunde-spiel.yaml")
    code, text, _ = run_cli("convert", PUZZLES / "hunde-spiel.yaml", "-")
    assert code == 0 and text == out.read_text()


@pytest.mark.slow
def test_board_suite_solutions_validate(benchmarks, run_cli):
    sols = sorted((benchmarks / "board-suite").glob("*/*/board_*/default_sol.sol"))
    assert len(sols) == 1237  # every board of the suite has its planted solution
    for sol in sols:
        puz = sol.with_name("puzzle.puz")
        puzzle = load_puzzle(puz)
        assert puzzle.clues and puzzle.frame == 0
        assert validate(puzzle, load_solution(sol, puzzle)) is None, sol
    # and through the CLI, for one of them
    assert run_cli("check", sols[0].with_name("puzzle.puz"), sols[0])[0] == 0


def test_eternity2_reads(benchmarks):
    p = load_puzzle(benchmarks / "eternity2" / "e2.puz")
    assert (p.rows, p.cols, p.frame, len(p.labels)) == (16, 16, 0, 23)


@pytest.mark.slow
def test_the_shipped_outside_instances_load_without_shared():
    """Eternity II, Owen's boards, Heule's instances and the board suite ship under puzzles/."""
    sizes = {
        name: (p.rows, p.cols, p.frame, len(p.tiles))
        for name, p in ((f.relative_to(PUZZLES).as_posix(), load_puzzle(f)) for f in PUZZLES.glob("*/*.yaml"))
    }
    assert {k: v for k, v in sizes.items() if k.startswith("eternity2/")} == {
        "eternity2/e2.yaml": (16, 16, 0, 256),
        "eternity2/e2-starter.yaml": (16, 16, 0, 256),
        "eternity2/e2-clues.yaml": (16, 16, 0, 256),
        "eternity2/8x8.yaml": (8, 8, 0, 64),
        "eternity2/9x9.yaml": (9, 9, 0, 81),
    }
    heule = {k[len("heule2008/") : -5]: v[:2] for k, v in sizes.items() if k.startswith("heule2008/")}
    assert heule == {
        "em_7_3_6": (7, 7),
        "em_7_4_8": (7, 7),
        "em_7_4_9": (7, 7),
        "em_8_4_5": (8, 8),
        "em_9_3_5": (9, 9),
        "em_11_3_4": (11, 11),
        "em_12_2_4": (12, 12),
        "em_14_7_3": (14, 14),
        "clue1": (6, 6),
        "clue2": (6, 12),
        "clue3": (6, 6),
        "clue4": (6, 12),
    }
    em = load_puzzle(PUZZLES / "heule2008" / "em_9_3_5.yaml")  # pieces in solution order, unturned
    assert validate(em, Solution(tuple((t, 0) for t in range(81)))) is None
    boards = sorted(PUZZLES.glob("board-suite/*/*/board_*.yaml"))
    assert len(boards) == 45
    for f in boards:
        p = load_puzzle(f)
        assert len(p.clues) == 1 and p.planted is not None and validate(p, p.planted) is None, f


@pytest.mark.slow
def test_the_shipped_instances_are_their_sources(benchmarks):
    """Each shipped puzzle has the sha256 of the file it was converted from (so run ids match),
    the board suite's as converted with the name of its place (`convert --name`)."""
    pairs = [
        (PUZZLES / "eternity2" / f"{n}.yaml", benchmarks / "eternity2" / f"{n}.puz")
        for n in ("e2", "8x8", "9x9")
    ]
    pairs += [(f, benchmarks / "heule2008" / f"{f.stem}.txt") for f in PUZZLES.glob("heule2008/*.yaml")]
    pairs += [
        (
            f,
            benchmarks
            / "board-suite"
            / f.relative_to(PUZZLES / "board-suite").with_suffix("")
            / "puzzle.puz",
        )
        for f in PUZZLES.glob("board-suite/*/*/*.yaml")
    ]
    assert len(pairs) == 60
    for shipped, source in pairs:
        converted = load_puzzle(source)
        if "board-suite" in shipped.parts:
            converted = converted.with_(name=shipped.relative_to(PUZZLES).with_suffix("").as_posix())
        assert puzzle_hash(load_puzzle(shipped)) == puzzle_hash(converted), shipped


def _clue_table() -> list[dict]:
    """The five clue pieces as the Eternity II README quotes the official piece list."""
    text = (PUZZLES / "eternity2" / "README.md").read_text()
    rows = [
        line.strip("|").split("|")
        for line in text.splitlines()
        if line.startswith("| ") and "|---" not in line
    ]
    head = [h.strip() for h in rows[0]]
    return [dict(zip(head, (c.strip() for c in row))) for row in rows[1:]]


def test_eternity_ii_five_clues_are_the_official_pieces_squares_and_turns():
    """e2-clues holds the official list's five clues: piece N is tile N-1, its square's letter the
    row, and the list's pieces are ours turned half way under one relabelling of the colours."""
    table = _clue_table()
    assert [(r["piece"], r["square"]) for r in table] == [
        ("139", "I8"),
        ("208", "C3"),
        ("255", "C14"),
        ("181", "N3"),
        ("249", "N14"),
    ]
    p = load_puzzle("eternity2/e2-clues")
    clues = {(c.row, c.col): (c.tile, c.rotation) for c in p.clues}
    relabel: dict = {}
    for r in table:
        row, col = ord(r["square"][0]) - ord("A"), int(r["square"][1:]) - 1
        assert (row, col) == (int(r["y (row)"]), int(r["x (column)"]))
        tile, turns = int(r["piece"]) - 1, (int(r["turns in the list"]) + 2) % 4
        assert clues.pop((row, col)) == (tile, turns) == (int(r["tile here"]), int(r["turns here"]))
        listed = [int(x) for x in r["edges in the list"].split(",")]
        for ours, theirs in zip(rotate(p.tiles[tile], 2), listed, strict=True):
            assert relabel.setdefault(ours, theirs) == theirs, r["piece"]
    assert clues == {}
    assert len(set(relabel.values())) == len(relabel) == 12  # one relabelling, one to one
    starter = load_puzzle("eternity2/e2-starter")
    assert (starter.tiles, starter.clues) == (p.tiles, p.clues[:1])


def test_eternity_ii_five_clues_convert_as_the_readme_says(benchmarks, tmp_path, run_cli):
    """The README's commands make e2-clues from the .puz file (the same sha256)."""
    text = (PUZZLES / "eternity2" / "README.md").read_text()
    clue = re.search(r"printf '(.*)' > e2-clues.clue", text).group(1).replace("\\n", "\n")
    shutil.copy(benchmarks / "eternity2" / "e2.puz", tmp_path / "e2-clues.puz")
    (tmp_path / "e2-clues.clue").write_text(clue)
    assert run_cli("convert", tmp_path / "e2-clues.puz", tmp_path / "out.yaml")[0] == 0
    assert (tmp_path / "out.yaml").read_bytes() == (PUZZLES / "eternity2" / "e2-clues.yaml").read_bytes()


def test_small_boards_skip_loading_the_compiled_search():
    """Up to 9 cells the pure-Python loop runs by default (loading numba costs more than the search)."""
    code = (
        "import sys; from satedge import backtrack; from satedge.puzzle.formats import load_puzzle; "
        f"n = sum(1 for _ in backtrack.solutions(load_puzzle({str(PUZZLES / 'hunde-spiel.yaml')!r}))); "
        "print(n, 'numba' in sys.modules)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "16 False\n")


def test_an_engine_of_its_own_model_names_itself_as_the_encoding(run_cli):
    """Before: `"encoding": "backtrack:workers=2"`, the solver's options in the encoding's name."""
    code, out, _ = run_cli("solve", PUZZLES / "hunde-spiel.yaml", "--solver", "backtrack:workers=2", "--json")
    row = json.loads(out)
    assert (code, row["encoding"], row["solver"]) == (0, "backtrack", "backtrack:workers=2")
