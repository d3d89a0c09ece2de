"""Models in bulk (satedge.sat.bulk): a block decodes as Encoded.decode reads each model, weighs each
model as Encoded.expand lists it, and is rejected exactly where the independent checker rejects
a model's solution, models corrupted at random included."""

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from satedge.backtrack import search as backtrack
from satedge.encode import Encoding, bases
from satedge.errors import Unsupported
from satedge.puzzle.checker import validate
from satedge.puzzle.strategies import puzzles, solutions
from satedge.sat.bulk import Checker, Decoder

PRESETS = (
    "edgecolor-corners",
    "edgecolor-corners-sym",
    "direct-pairwise",
    "split-ladder",
    "support-seqcounter",
    "heule2008-all",
    "heule2008-cmp",
)


def _models(encoded, n: int) -> list[list[int]]:
    """Up to ``n`` models of the formula (blocked on every variable: auxiliaries differ too)."""
    out = []
    with Solver(name="minisat22", bootstrap_with=encoded.cnf.clauses) as s:
        while len(out) < n and s.solve():
            m = s.get_model()
            out.append(m)
            s.add_clause([-lit for lit in m])
    return out


def _corrupted(model: list[int], decision: list[int], rng: random.Random) -> list[int]:
    """``model`` with a few decision variables flipped (or every one of them false)."""
    out = list(model)
    if rng.random() < 0.1:
        for v in decision:
            out[v - 1] = -v
        return out
    for v in rng.sample(decision, min(len(decision), rng.randint(1, 3))):
        out[v - 1] = -out[v - 1]
    return out


@settings(max_examples=60, deadline=None)
@given(
    puzzle=puzzles(max_cells=6), preset=st.sampled_from(PRESETS + tuple(bases())), seed=st.integers(0, 2**16)
)
def test_a_block_decodes_weighs_and_checks_as_the_reference_does(puzzle, preset, seed):
    try:
        encoded = Encoding.of(preset).encode(puzzle)
    except Unsupported:
        return
    rng = random.Random(seed)
    models = _models(encoded, 20)
    models += [_corrupted(m, encoded.decision, rng) for m in models for _ in range(3)]
    if not models:  # no model: corrupt the all-false assignment
        models = [
            _corrupted([-v for v in range(1, encoded.nv + 1)], encoded.decision, rng) for _ in range(10)
        ]
    decoder, checker = Decoder(encoded), Checker(puzzle)
    block = decoder.block(len(models))
    for i, m in enumerate(models):
        ordered = rng.random() < 0.5
        decoder.put(block, i, m if ordered else rng.sample(m, len(m)), ordered=ordered)
    decoded = decoder.decode(block)
    ok = checker.check(decoded.tiles, decoded.rots)
    for i, m in enumerate(models):
        solution = encoded.decode(m)
        assert decoded.solution(i) == solution
        assert bool(ok[i]) == (validate(puzzle, solution) is None), (solution, validate(puzzle, solution))
        if ok[i]:
            assert decoded.weights[i] == len(list(encoded.expand(solution))) == encoded.weight(solution)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), puzzle=puzzles(max_cells=6))
def test_the_bulk_check_rejects_exactly_what_the_checker_rejects(data, puzzle):
    """Any assignment of tiles and rotations, valid or not, the valid ones of the backtracker
    among them, and placements out of range."""
    found = list(backtrack.solutions(puzzle, limit=5))
    drawn = [data.draw(solutions(puzzle)) for _ in range(5)]
    checker = Checker(puzzle)
    for sol in found + drawn:
        tiles, rots = np.array([[t for t, _ in sol]]), np.array([[r for _, r in sol]])
        assert bool(checker.check(tiles, rots)[0]) == (validate(puzzle, sol) is None)
    for t, r in (
        (-1, 0),
        (0, -1),
        (len(puzzle.tiles), 0),
        (0, 4),
    ):  # what decoding gives where a model shows nothing
        assert not checker.check(np.array([[t] * puzzle.n]), np.array([[r] * puzzle.n]))[0]


def test_a_placed_tile_in_no_rotation_and_an_empty_cell_decode_as_the_reference_reads_them():
    """A tile's placement literal true but none of its rotations' literals: rotation -1; no
    tile's literal true: tile -1.  The checker rejects both."""
    from satedge.encode import encode
    from satedge.puzzle.formats import load_puzzle

    puzzle = load_puzzle("hunde-spiel")
    encoded = encode(puzzle, "split")
    model = _models(encoded, 1)[0]
    first = encoded.cells()[0]
    rotations = {abs(lit) for _, _, looks in first for _, lits in looks for lit in lits}
    tiles = {abs(v) for v, _, _ in first}
    no_rotation = [-abs(lit) if abs(lit) in rotations else lit for lit in model]
    no_tile = [-abs(lit) if abs(lit) in tiles else lit for lit in model]
    decoder, checker = Decoder(encoded), Checker(puzzle)
    block = decoder.block(2)
    decoder.put(block, 0, no_rotation, ordered=True)
    decoder.put(block, 1, no_tile, ordered=True)
    decoded = decoder.decode(block)
    assert (
        decoded.solution(0) == encoded.decode(no_rotation)
        and decoded.rots[0, 0] == -1
        and decoded.tiles[0, 0] >= 0
    )
    assert decoded.solution(1) == encoded.decode(no_tile) and (decoded.tiles[1, 0], decoded.rots[1, 0]) == (
        -1,
        -1,
    )
    assert not checker.check(decoded.tiles, decoded.rots).any()
