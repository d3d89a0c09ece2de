"""SAT encodings: seed counts for every preset, solver and exactly-one encoding; solution sets
against the backtracker; the sizes stated in each docstring; timeouts that stop."""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest
from conftest import PUZZLES, ROOT, SEEDS, alive, children, covers, small_command_seconds
from hypothesis import assume, given
from hypothesis import strategies as st
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from satedge.backtrack import search as backtrack
from satedge.encode import CARDS, Options, Size, bases, encode, placements
from satedge.encode.cards import card_size
from satedge.encode.presets import presets
from satedge.errors import Unsupported
from satedge.jobs import Job, execute
from satedge.jobs.registry import engines
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle
from satedge.puzzle.strategies import puzzles
from satedge.puzzle.symmetry import symmetry_breaking
from satedge.sat.solving import count, count_modes, solutions

SOLVERS = ("cadical195", "glucose4", "minisat22")
SEED_PUZZLES = {name: load_puzzle(PUZZLES / f"{name}.yaml") for name in SEEDS}
# For encodings of framed boards only (heule): framed puzzles, with the backtracker's counts
# (square, several solutions, no tile that looks the same in two rotations: models = solutions)
FRAMED = {
    "framed-3x3": generate(Params(rows=3, cols=3, colors=3, border_colors=2, frame=True), 1),
    "framed-4x4": generate(Params(rows=4, cols=4, colors=4, border_colors=2, frame=True), 0),
    "board-suite-4-5-0": load_puzzle(PUZZLES / "board-suite" / "4" / "5" / "board_0.yaml"),
}
FRAMED_COUNTS = {
    name: (c.solutions, c.distinct, c.unique)
    for name, c in ((n, symmetry.count(p, set(backtrack.solutions(p)))) for n, p in FRAMED.items())
}


def seed_cases(base: str):
    """The seed puzzles with their counts, or framed puzzles for an encoding of framed boards only."""
    if base == "heule":
        return [(name, FRAMED[name], FRAMED_COUNTS[name]) for name in FRAMED]
    return [(name, SEED_PUZZLES[name], SEEDS[name]) for name in SEEDS]


def test_presets_exist():
    names = set(presets())
    assert {"direct-pairwise", "support-seqcounter", "split-ladder", "edgecolor-heule2008"} <= names
    from satedge.encode.presets import load_preset

    p = load_preset(str(ROOT / "encodings" / "split-ladder.yaml"))  # a str path as well as a Path
    assert (p.name, p.base, p.options.as_dict()) == (
        "split-ladder",
        "split",
        {"card": "ladder", "symmetry": "none", "redundant": False},
    )


def three_counts(encoded, solver):
    return tuple(count(encoded, solver, mode) for mode in ("solutions", "distinct", "unique"))


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(presets()))
def test_seed_counts_presets(preset):
    """Every preset counts the puzzle's own solutions, pictures and pictures up to turns; with the
    board-turn symmetry broken the formula has one model per orbit of 4 (before: the counts were
    the formula's, 4, 2 and 2 on Hunde-Spiel with edgecolor-corners-sym)."""
    broken = presets()[preset].options.symmetry == "rotation"
    for name, puzzle, counts in seed_cases(presets()[preset].base):
        e = presets()[preset].encode(puzzle)
        for solver in SOLVERS:
            assert three_counts(e, solver) == counts, (name, solver)
            models = count_modes(e, solver, ("solutions",))["models"]
            assert models == counts[0] // (4 if broken else 1), (name, solver)


@pytest.mark.slow
@pytest.mark.parametrize("base", sorted(bases()))
@pytest.mark.parametrize("card", CARDS)
def test_seed_counts_every_card(base, card):
    for name, puzzle, counts in seed_cases(base):
        e = encode(puzzle, base, Options(card=card))
        for solver in SOLVERS:
            assert three_counts(e, solver) == counts, (name, solver)


@pytest.mark.slow
@pytest.mark.parametrize("base", sorted(bases()))
def test_symmetry_rotation_quarters_the_models_not_the_counts(base):
    for name, puzzle, counts in seed_cases(base):
        e = encode(puzzle, base, Options(symmetry="rotation"))
        if puzzle.clues:  # a clue breaks the symmetry already
            assert e.orbit == 1
            continue
        assert e.orbit == 4
        assert count_modes(e, "cadical195") == dict(
            zip(("solutions", "distinct", "unique"), counts), models=counts[0] // 4
        )
        assert len(list(solutions(e, "cadical195"))) == counts[0] // 4  # one per board-turn orbit


TORUS_2X3 = Puzzle(
    rows=2,
    cols=3,
    matching="complementary",
    topology="torus",
    tiles=(
        ("p1-", "p1+", "p1+", "p1-"),
        ("p1-", "p1+", "p1+", "p1-"),
        ("p1-", "p1+", "p1+", "p1-"),
        ("p1-", "p1+", "p1+", "p2-"),
        ("p1-", "p1-", "p1+", "p1-"),
        ("p1-", "p2+", "p1+", "p1+"),
    ),
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "solver",
    [
        "cadical195",
        "cadical195:enumeration=subspaces",
        "cadical195:workers=2",
        "cadical195:workers=2,strategy=cubes",
        "clasp",
    ],
)
def test_listed_pictures_with_the_turns_broken(solver):
    """With the board turns broken each model stands for an orbit of pictures; listing mode
    ``distinct`` shows every picture of it (before: one per orbit, 24 of the 48 pictures)."""
    if solver == "clasp":
        pytest.importorskip("clingo", reason="clasp needs the clasp extra (clingo)")
    expected = list(backtrack.solutions(TORUS_2X3))
    assert symmetry.count(TORUS_2X3, expected) == symmetry.Counts(288, 48, 24)
    pictures = {symmetry.picture(TORUS_2X3, s) for s in expected}
    for mode, n in (("distinct", 48), ("unique", 24)):
        got = execute(
            Job(TORUS_2X3, "solve", solver=solver, encoding="edgecolor-corners-sym", modes=(mode,))
        ).solutions
        shown = [symmetry.picture(TORUS_2X3, s) for s in got]
        assert len(got) == n and set(got) <= set(expected) and len(set(shown)) == n
        if mode == "distinct":
            assert set(shown) == pictures


def test_cli_heule_hunde(run_cli):
    code, out, _ = run_cli(
        "count", PUZZLES / "hunde-spiel.yaml", "--encoding", "edgecolor-heule2008", "--json"
    )
    row = json.loads(out)
    assert code == 0 and (row["solutions"], row["distinct"], row["unique"]) == (16, 8, 2)
    assert (
        row["encoding"] == "edgecolor-heule2008"
        and row["solver"] == "cadical195:sat"
        and row["variables"] == 585
    )
    code, out, _ = run_cli(
        "count",
        PUZZLES / "hunde-spiel.yaml",
        "--encoding",
        "edgecolor-heule2008",
        "--symmetry",
        "rotation",
        "--mode",
        "solutions",
        "--json",
    )
    assert (json.loads(out)["solutions"], json.loads(out)["models"]) == (16, 4)  # before: 4 solutions


@pytest.mark.slow
@pytest.mark.parametrize(
    "extra",
    [["--method", "sat"]]
    + [["--encoding", p] for p in sorted(presets()) if presets()[p].base != "heule"]
    + [["--encoding", b, "--symmetry", "rotation"] for b in sorted(bases()) if b != "heule"],
)
def test_count_is_16_8_2_on_hunde_spiel_whatever_the_encoding(run_cli, extra):
    code, out, _ = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--json", *extra)
    row = json.loads(out)
    assert (code, row["solutions"], row["distinct"], row["unique"]) == (0, 16, 8, 2)
    assert row["models"] in (4, 16)


@pytest.mark.slow
@given(puzzles(max_cells=6))
def test_counts_with_symmetry_breaking_are_the_backtrackers(puzzle):
    """Random puzzles (self-symmetric pictures among them): with symmetry breaking every base
    encoding counts what the backtracker counts."""
    expected = bounded_solutions(puzzle)
    counts = symmetry.count(puzzle, expected)
    for base in sorted(b for b in bases() if covers(b, puzzle)):
        e = encode(puzzle, base, Options(symmetry="rotation"))
        got = count_modes(e, "cadical195")
        assert (got["solutions"], got["distinct"], got["unique"]) == (
            counts.solutions,
            counts.distinct,
            counts.unique,
        ), base


def test_cli_unknown_names(run_cli):
    code, out, err = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--encoding", "nope")
    assert code == 2 and err == (
        "satedge: error: unknown encoding 'nope'; choose a preset (satedge encodings lists them), a base "
        f"encoding ({', '.join(bases())}), a preset file or FILE.py:FUNCTION of your own\n"
    )
    code, out, err = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--solver", "nope")
    assert code == 2 and err == (
        "satedge: error: unknown solver 'nope'; choose a PySAT solver (satedge solvers lists those that "
        f"work here), cmd:COMMAND or {', '.join(n for n, e in engines().items() if e.named)}\n"
    )
    for solver, message in (
        ("kissat404:sat", "solver 'kissat404' takes no options; only cadical153, cadical195, cadical300 do"),
        ("cadical195:fast", "solver option 'fast' of cadical195: use sat, unsat or seed=N"),
        ("cadical195:seed=x", "solver option 'seed=x' of cadical195: use sat, unsat or seed=N"),
    ):
        code, out, err = run_cli("solve", PUZZLES / "hunde-spiel.yaml", "--solver", solver)
        assert (code, out, err) == (2, "", f"satedge: error: {message}\n")
    code, out, err = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--card", "nope")
    assert code == 2 and err.startswith(
        "satedge: error: unknown card encoding 'nope'; choose from pairwise, "
    )


def test_encodings_json(run_cli):
    code, out, _ = run_cli("encodings", "--puzzle", PUZZLES / "hunde-spiel.yaml", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["direct-pairwise"]["base"] == "direct"
    assert rows["direct-pairwise"]["options"] == {"card": "pairwise", "symmetry": "none", "redundant": False}
    assert (rows["direct-pairwise"]["variables"], rows["direct-pairwise"]["clauses"]) == (324, 23406)
    assert (
        rows["edgecolor-heule2008"]["reference"]
        == "Heule 2008, Solving edge-matching problems with satisfiability solvers"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "how", [[], ["--method", "backtrack"], ["--solver", "cpsat"]], ids=["sat", "backtrack", "cpsat"]
)
def test_solve_modes_and_limit(run_cli, how):
    for mode, n in (("solutions", 16), ("distinct", 8), ("unique", 2)):
        code, out, _ = run_cli("solve", PUZZLES / "hunde-spiel.yaml", "--all", "--mode", mode, "--json", *how)
        assert len(json.loads(out)["solutions"]) == n, mode
    code, out, _ = run_cli("solve", PUZZLES / "hunde-spiel.yaml", "--limit", "3", "--json")
    assert len(json.loads(out)["solutions"]) == 3


# ------------------------------------------------------------------ solution sets
MAX_SOLUTIONS = 200  # whole solution sets through SAT: keep them small


def bounded_solutions(puzzle):
    found = set(backtrack.solutions(puzzle, limit=MAX_SOLUTIONS + 1))
    assume(len(found) <= MAX_SOLUTIONS)
    return found


@given(
    puzzle=puzzles(max_cells=6),
    base=st.sampled_from(sorted(bases())),
    card=st.sampled_from(CARDS),
    redundant=st.booleans(),
)
def test_solution_sets_equal_backtracker(puzzle, base, card, redundant):
    if not covers(base, puzzle):
        with pytest.raises(Unsupported):
            encode(puzzle, base, Options(card=card, redundant=redundant))
        return
    expected = bounded_solutions(puzzle)
    e = encode(puzzle, base, Options(card=card, redundant=redundant))
    got = list(solutions(e, "cadical195"))
    assert len(got) == len(set(got))
    assert set(got) == expected


@given(puzzle=puzzles(max_cells=6, clues=False), base=st.sampled_from(sorted(bases())))
def test_symmetry_breaking_property(puzzle, base):
    if not covers(base, puzzle):  # heule: framed puzzles below
        return
    expected = bounded_solutions(puzzle)
    got = set(solutions(encode(puzzle, base, Options(symmetry="rotation")), "cadical195"))
    assert got <= expected
    if symmetry_breaking(puzzle) is not None:
        assert len(got) * len(puzzle.board_turns) == len(expected)
    else:
        assert got == expected


def test_symmetry_breaking_keeps_a_corner_tile_in_the_top_left_corner():
    puzzle = generate(Params(rows=3, cols=3, colors=2, frame=True), seed=7)
    expected = set(backtrack.solutions(puzzle))
    assert len(expected) == 192
    tile, cells, rotations = symmetry_breaking(puzzle)
    assert (tile, cells, rotations) == (2, (0,), (0, 1, 2, 3)) and puzzle.tiles[2].count(0) == 2
    for base in sorted(bases()):
        got = list(solutions(encode(puzzle, base, Options(symmetry="rotation")), "cadical195"))
        assert len(got) == 48 and set(got) <= expected, base
        assert {s.placements[0][0] for s in got} == {2}, base


# ------------------------------------------------------------------ sizes stated in the docstrings
def pairs(k):
    return 1 + k * (k - 1) // 2


def size_terms(puzzle):
    opts = Options()
    A = placements(puzzle, opts)
    adjs = [a for a in puzzle.board.adjacencies if a.a != a.b]
    P_t = [sum(1 for cell in A for t, _ in cell if t == u) for u in range(len(puzzle.tiles))]
    T = [{t for t, _ in cell} for cell in A]
    Pp_t = [sum(1 for c in T if u in c) for u in range(len(puzzle.tiles))]
    sides = {(a.a, a.side_a) for a in adjs} | {(a.b, a.side_b) for a in adjs}
    L = {(c, d): {puzzle.oriented(t, r)[d] for t, r in A[c]} for c, d in sides}
    return A, adjs, P_t, T, Pp_t, sides, L


SIZE_PUZZLES = [
    SEED_PUZZLES["hunde-spiel"],
    Puzzle(
        rows=2,
        cols=3,
        tiles=((0, 1, 2, 0), (0, 0, 1, 1), (0, 2, 1, 0), (1, 0, 0, 2), (2, 1, 0, 0), (0, 0, 2, 1)),
        frame=0,
    ),
    Puzzle(
        rows=2,
        cols=3,
        tiles=((1, 2, 3, 4), (2, 1, 4, 3), (1, 3, 2, 4), (4, 3, 2, 1), (1, 2, 4, 3), (3, 1, 2, 4)),
        topology="torus",
    ),
]


@pytest.mark.parametrize("puzzle", SIZE_PUZZLES, ids=["hunde", "frame2x3", "torus2x3"])
def test_docstring_sizes(puzzle):
    A, adjs, P_t, T, Pp_t, sides, L = size_terms(puzzle)
    n = puzzle.n
    P = sum(map(len, A))
    cell_eo = sum(pairs(len(c)) for c in A)
    tile_eo = sum(pairs(k) for k in P_t)
    B = sum(
        1
        for a in adjs
        for t1, r1 in A[a.a]
        for t2, r2 in A[a.b]
        if t1 != t2 and not puzzle.fits(puzzle.oriented(t1, r1)[a.side_a], puzzle.oriented(t2, r2)[a.side_b])
    )
    sup = sum(len(A[a.a]) + len(A[a.b]) for a in adjs)
    e = encode(puzzle, "direct")
    assert (e.cnf.nv, len(e.cnf.clauses)) == (P, cell_eo + tile_eo + B)
    e = encode(puzzle, "support")
    assert (e.cnf.nv, len(e.cnf.clauses)) == (P, cell_eo + tile_eo + sup)
    e = encode(puzzle, "direct", Options(redundant=True))
    assert len(e.cnf.clauses) == cell_eo + tile_eo + B + sup

    D = [sum(1 for c, _ in sides if c == cell) for cell in range(n)]
    split_vars = sum(map(len, T)) + 4 * n + sum(map(len, L.values()))
    split_clauses = (
        sum(pairs(len(c)) for c in T)
        + sum(pairs(k) for k in Pp_t)
        + 7 * n
        + sum(4 * len(T[c]) - len(A[c]) for c in range(n))
        + sum(len(A[c]) * D[c] for c in range(n))
        + sum(pairs(len(v)) - 1 for v in L.values())
        + sum(len(L[a.a, a.side_a]) + len(L[a.b, a.side_b]) for a in adjs)
    )
    e = encode(puzzle, "split")
    assert (e.cnf.nv, len(e.cnf.clauses)) == (split_vars, split_clauses)


def test_edgecolor_sizes_distinct_labels():
    """On a torus whose tiles all show four different labels: 20 tile clauses per (cell, tile)."""
    puzzle = SIZE_PUZZLES[2]
    n = puzzle.n
    e = encode(puzzle, "edgecolor")
    edges = len(puzzle.board.adjacencies)  # 2n on a torus
    dom = 4  # every tile shows labels 1..4
    assert e.cnf.nv == n * n + edges * dom
    assert len(e.cnf.clauses) == 2 * n * pairs(n) + edges * pairs(dom) + 20 * n * n


# ------------------------------------------------------------------ timeouts
def hard_puzzle(path):
    """A framed two-set 7x7 with 8 colours: support-seqcounter + CaDiCaL needs well over 30 s."""
    from satedge.puzzle.formats import save_puzzle

    save_puzzle(generate(Params(rows=7, cols=7, colors=8, border_colors=3, frame=True), seed=1), path)
    return path


def blank_torus(path):
    """Every solution of a 7x7 torus of blank tiles: 49! * 4^49 of them."""
    path.write_text(
        "rows: 7\ncols: 7\nmatching: identical\ntopology: torus\ntiles:\n" + "- [1, 1, 1, 1]\n" * 49
    )
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    "make,extra", [(hard_puzzle, ["--method", "sat"]), (blank_torus, ["--all"])], ids=["hard", "enumerate"]
)
def test_timeout_stops_search(tmp_path, make, extra):
    f = make(tmp_path / "p.yaml")
    unit = small_command_seconds()
    before = set(children(os.getpid()))  # earlier tests' (multiprocessing's resource tracker, a cluster)
    t0 = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "satedge", "solve", str(f), *extra, "--timeout", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    elapsed = time.monotonic() - t0
    assert r.returncode == 3 and json.loads(r.stdout)["status"] == "TIMEOUT"
    assert elapsed < 2 + 3 * unit, (
        elapsed,
        unit,
    )  # the timeout, and the start-up of a command, however loaded
    assert [c for c in children(os.getpid()) if alive(c) and c not in before] == []


def test_first_solve_has_no_assumption():
    """The first search of an enumeration runs without the activation literal: CaDiCaL searches
    differently under an assumption (1,397 conflicts plain, about 170,000 under one, here)."""
    from pysat.solvers import Solver

    from satedge.sat.solving import Stats, solve

    puzzle = generate(Params(rows=7, cols=7, colors=10, border_colors=3, frame=True), 2)
    encoded = encode(puzzle, "edgecolor", Options(card="seqcounter"))
    plain = Solver(name="cadical195", bootstrap_with=encoded.cnf.clauses)
    assert plain.solve()
    stats = Stats()
    assert solve(encoded, "cadical195", stats=stats) is not None
    assert stats.counters["conflicts"] == plain.accum_stats()["conflicts"]
    plain.delete()


@pytest.mark.slow
def test_stats_reported_only_by_solvers_that_give_them():
    """Kissat exposes no statistics: its runs say so instead of claiming 0 conflicts."""
    from satedge.jobs import Job, run

    puzzle = SEED_PUZZLES["hunde-spiel"]
    cadical, kissat = run(Job(puzzle, solver="cadical195")), run(Job(puzzle, solver="kissat404"))
    assert (cadical.status, kissat.status) == ("SAT", "SAT")
    assert cadical.stats.reported and cadical.stats.counters["decisions"] > 0
    assert not kissat.stats.reported and kissat.stats.counters == dict.fromkeys(
        ("conflicts", "decisions", "propagations", "restarts"), 0
    )


def test_edgecolor_redundant_sizes():
    """Side supports (two per edge value) and corner supports (16 per corner: every side of every
    cell can show the four labels) on the 2x3 torus."""
    puzzle = SIZE_PUZZLES[2]
    n = puzzle.n
    plain = encode(puzzle, "edgecolor")
    e = encode(puzzle, "edgecolor", Options(redundant=True))
    edges = len(puzzle.board.adjacencies)
    assert len(e.cnf.clauses) - len(plain.cnf.clauses) == 2 * edges * 4 + n * 4 * 16


def test_enumerator_reuse():
    """A reusable enumerator counts twice with one solver; a one-shot one refuses a second run."""
    from satedge.sat.solving import Enumerator

    e = encode(SEED_PUZZLES["hunde-spiel"], "support")
    with Enumerator(e) as en:
        assert [sum(1 for _ in en.solutions(m)) for m in ("solutions", "distinct", "solutions")] == [
            16,
            8,
            16,
        ]
    with Enumerator(e, reuse=False) as en:
        assert sum(1 for _ in en.solutions("distinct")) == 8
        with pytest.raises(RuntimeError, match="reuse=False enumerates once"):
            next(en.solutions())


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["cadical195", "minisat22", "cmd:cadical -q"])
def test_a_picture_of_many_identical_tiles_is_blocked_in_one_clause(solver):
    """A generated framed 4x4 with three classes of copies: 11,612,160 solutions but 8 pictures,
    each shown by 1,451,520 solutions.  Every encoding blocks a picture in one clause (over a
    variable per cell and look), not one per solution: the counts in 8 and 2 solver calls."""
    from satedge.jobs.solver import SolverConfig
    from satedge.sat.solving import Enumerator

    p = generate(Params(rows=4, colors=2, border_colors=1, frame=True), seed=2)
    allowed, orbit = backtrack.symmetry_broken(p)
    assert symmetry.count_weighted(p, backtrack.weighted(p, allowed=allowed), orbit) == symmetry.Counts(
        11612160, 8, 2
    )
    if solver.startswith("cmd") and shutil.which("cadical") is None:
        pytest.skip("Debian's cadical binary is not installed (.ci/run installs it)")
    config = SolverConfig.parse(solver)  # the binary: a new solver for each call, with the definitions
    for base in bases() if solver == "cadical195" else ["edgecolor", "direct"]:
        e = encode(p, base)
        assert e.shows is not None
        for mode, want in (("distinct", 8), ("unique", 2)):
            with Enumerator(e, config, reuse=False) as en:
                assert sum(1 for _ in en.solutions(mode)) == want, (base, mode)
                picture_clauses = [c for c in en.blocked if all(-lit in en.looks.values() for lit in c)]
                assert len(picture_clauses) == want * (len(p.board_turns) if mode == "unique" else 1), (
                    base,
                    mode,
                )
                assert len(en.looks) <= p.n * want * 4 and en.stats.calls == want + 1


def test_solver_options_configure_cadical():
    """``cadical195:sat,seed=2`` is CaDiCaL configured as its --sat option and seed 2 say: the
    same first search as a PySAT solver configured by hand, and another than the default's."""
    from pysat.solvers import Solver

    from satedge.sat.solvers import CADICAL_CONFIGS
    from satedge.sat.solving import Stats, solve

    puzzle = generate(Params(rows=7, cols=7, colors=10, border_colors=3, frame=True), 2)
    encoded = encode(puzzle, "edgecolor", Options(card="seqcounter"))
    by_hand = Solver(name="cadical195", bootstrap_with=encoded.cnf.clauses)
    by_hand.configure(dict(CADICAL_CONFIGS["sat"], seed=2))
    assert by_hand.solve()
    conflicts = {}
    for name in ("cadical195", "cadical195:sat,seed=2"):
        stats = Stats()
        assert solve(encoded, name, stats=stats) is not None
        conflicts[name] = stats.counters["conflicts"]
    assert conflicts["cadical195:sat,seed=2"] == by_hand.accum_stats()["conflicts"] != conflicts["cadical195"]
    by_hand.delete()
    assert three_counts(encode(SEED_PUZZLES["hunde-spiel"], "edgecolor"), "cadical195:unsat,seed=7") == (
        16,
        8,
        2,
    )


@given(
    puzzle=puzzles(max_cells=6),
    base=st.sampled_from(sorted(bases())),
    card=st.sampled_from(CARDS),
    symmetry=st.sampled_from(["none", "rotation"]),
    redundant=st.booleans(),
)
def test_sizes_are_counted_exactly_without_building_the_formula(puzzle, base, card, symmetry, redundant):
    """Each base encoding's size function counts its clause families as its docstring states them."""
    options = Options(card=card, symmetry=symmetry, redundant=redundant)
    if not covers(base, puzzle):
        with pytest.raises(Unsupported):
            bases()[base].size(puzzle, options)
        with pytest.raises(Unsupported):
            bases()[base].floor(puzzle, options)
        return
    e = encode(puzzle, base, options)
    size = Size(e.nv, len(e.cnf.clauses), sum(map(len, e.cnf.clauses)))
    assert bases()[base].size(puzzle, options) == size
    low = bases()[base].floor(puzzle, options)  # a low bound, of every count
    assert low.variables <= size.variables and low.clauses <= size.clauses and low.literals <= size.literals


@pytest.mark.slow
def test_sizes_of_the_presets_on_eternity2(run_cli):
    """Every preset's size on Eternity II, direct-pairwise's 332 million clauses among them, without
    building it (before: `encodings --puzzle` built each formula, 41 s, and gave up on that one)."""
    e2 = load_puzzle(PUZZLES / "eternity2" / "e2.yaml")
    heule = presets()["edgecolor-heule2008"]
    e = heule.encode(e2)
    assert heule.size(e2) == Size(e.nv, len(e.cnf.clauses), sum(map(len, e.cnf.clauses)))
    code, out, _ = run_cli(
        "encodings", "--puzzle", PUZZLES / "eternity2" / "e2.yaml", "--memory", "4000", "--json"
    )
    rows = {r["name"]: r for r in json.loads(out)}
    assert (rows["edgecolor-heule2008"]["variables"], rows["edgecolor-heule2008"]["clauses"]) == (
        138560,
        1201696,
    )
    direct = rows["direct-pairwise"]  # beyond 4,000 MB by its low bound alone: that bound, at once
    assert (
        direct["variables"],
        direct["clauses"],
        direct["literals"],
        direct["fits"],
        direct["at_least"],
    ) == (156816, 60245976, 120648256, False, True)
    assert all(r["fits"] and not r["at_least"] for name, r in rows.items() if name != "direct-pairwise")
    code, out, _ = run_cli(
        "encodings", "--puzzle", PUZZLES / "eternity2" / "e2.yaml", "--memory", "80000", "--json"
    )
    direct = {r["name"]: r for r in json.loads(out)}["direct-pairwise"]
    assert (
        direct["variables"],
        direct["clauses"],
        direct["literals"],
        direct["fits"],
        direct["at_least"],
    ) == (156816, 332688964, 665690536, True, False)


@pytest.mark.slow
def test_the_closed_forms_of_the_card_encodings_are_pysats():
    """The linear at-most-one encodings' sizes in closed form equal what PySAT builds; the others
    have a clause per literal but one at least (the low bound of a large cell)."""
    from satedge.encode.cards import COUNTED, LINEAR, card_floor
    from satedge.encode.core import clauses_size

    for n in [*range(1, 70), 97, 128, 255]:
        for card in CARDS:
            for exactly in (True, False):
                pool = IDPool(start_from=n + 1)
                make = CardEnc.equals if exactly else CardEnc.atmost
                built = (
                    make(lits=list(range(1, n + 1)), bound=1, vpool=pool, encoding=getattr(EncType, card))
                    if n > 1
                    else None
                )
                want = (
                    Size(pool.top - n, 0, 0) + clauses_size(built.clauses)
                    if built is not None
                    else Size(0, 1, n)
                    if exactly
                    else Size()
                )
                assert card_size(n, card, exactly) == want, (n, card, exactly)
                assert card_floor(n, card, exactly) == want
                if card not in LINEAR and card != "pairwise" and n > 1:
                    assert want.clauses - exactly >= n - 1 and want.literals - n * exactly >= 2 * (n - 1)
    big = card_floor(COUNTED + 1, "totalizer")
    assert big == Size(0, COUNTED + 1, 3 * COUNTED + 1)


def test_two_presets_sizes_side_by_side(run_cli):
    """Before: presets could not be named, and each size was three lines of prose."""
    code, out, err = run_cli(
        "encodings", "edgecolor-heule2008", "support-seqcounter", "--puzzle", "hunde-spiel"
    )
    assert (code, err) == (0, "") and [line.split() for line in out.splitlines()] == [
        ["preset", "variables", "clauses", "literals", "note"],
        ["edgecolor-heule2008", "585", "2,556", "7,650"],
        ["support-seqcounter", "954", "2,754", "8,808"],
    ]
    assert run_cli("encodings", "suport-seqcounter") == (
        2,
        "",
        "satedge: error: no preset 'suport-seqcounter' (did you "
        "mean support-seqcounter?); satedge encodings lists them\n",
    )


def test_a_count_of_identical_tiles_blocks_a_picture_at_a_time_by_default():
    """The documented default enumeration (auto): where a picture has several models (the
    Hunde-Spiel's two identical tiles), a count blocks a clause per picture and counts its models
    from multiplicities: a solver call per class of pictures (2, each of 4 board turns, all
    blocked at once) and one that finds no more.  Before, a call per picture (9), and before that
    the count passed a solver where its enumeration was asked and blocked every model, 29 calls."""
    from satedge.sat.solvers import Stats

    e = encode(load_puzzle(PUZZLES / "hunde-spiel.yaml"), "edgecolor-corners")
    calls = {}
    for solver in ("cadical195", "cadical195:enumeration=blocking"):
        stats = Stats()
        assert count_modes(e, solver, stats=stats) == {
            "solutions": 16,
            "distinct": 8,
            "unique": 2,
            "models": 16,
        }
        calls[solver] = stats.calls
    assert calls == {"cadical195": 3, "cadical195:enumeration=blocking": 29}
