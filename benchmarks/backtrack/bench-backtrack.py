#!/usr/bin/env python3
"""Benchmark of the reference backtracker (a script, not a unit test).

    .venv/bin/python benchmarks/backtrack/bench-backtrack.py

1. counts all of Hunde-Spiel (16 / 8 / 2), best of 20 runs, puzzle tables built afresh each run;
2. the seed-001 experiment: 100 random 3x3 puzzles whose 36 edges are drawn uniformly from
   4 patterns x 2 halves, every solution counted, in one process;
both with the pure-Python loop and, when numba is installed, compiled (after one warm-up call
that compiles or loads the cached machine code).
The seeds' own programs: 300 ms for Hunde-Spiel (compiled), 146 s for the 100 random puzzles.
"""

import time
from pathlib import Path

from satedge.backtrack import search as backtrack
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.generate import Params, generate

ROOT = Path(__file__).resolve().parents[2]


def main(compiled: bool) -> None:
    hunde = load_puzzle(ROOT / "puzzles" / "hunde-spiel.yaml")
    print("compiled (numba):" if compiled else "pure Python:")
    backtrack.solve(hunde.with_(), compiled=compiled)  # warm-up
    best = float("inf")
    for _ in range(20):
        fresh = hunde.with_()  # no cached tables
        t0 = time.perf_counter()
        c = symmetry.count(fresh, backtrack.solutions(fresh, compiled=compiled))
        best = min(best, time.perf_counter() - t0)
    assert (c.solutions, c.distinct, c.unique) == (16, 8, 2)
    print(f"  Hunde-Spiel: {c.solutions} / {c.distinct} / {c.unique} in {best * 1e3:.2f} ms (best of 20)")

    params = Params(rows=3, cols=3, colors=4, matching="complementary", model="uniform")
    t0 = time.perf_counter()
    total = solvable = 0
    for seed in range(1, 101):
        n = sum(1 for _ in backtrack.solutions(generate(params, seed), compiled=compiled))
        total += n
        solvable += n > 0
    dt = time.perf_counter() - t0
    print(
        f"  seed-001 experiment: 100 uniform 3x3 puzzles (seeds 1..100), {total} solutions, "
        f"{solvable}% solvable, in {dt:.3f} s"
    )


if __name__ == "__main__":
    for compiled in (
        (False, True)
        if backtrack.compiled_available(load_puzzle(ROOT / "puzzles" / "hunde-spiel.yaml"))
        else (False,)
    ):
        main(compiled)
