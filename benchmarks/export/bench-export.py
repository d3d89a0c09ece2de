#!/usr/bin/env python3
"""Benchmark: export the 16x16 Eternity II puzzle as DIMACS (a script, not a unit test).

    .venv/bin/python benchmarks/export/bench-export.py [PRESET]

Prints the encode and write times, the formula size and the peak memory of the process.
"""

import resource
import sys
import tempfile
import time
from pathlib import Path

from satedge.encode import Encoding
from satedge.puzzle.formats import load_puzzle
from satedge.sat.dimacs import write_dimacs


def main() -> None:
    e2 = Path(__file__).resolve().parents[2] / "puzzles" / "eternity2" / "e2.yaml"
    preset = Encoding.parse(sys.argv[1] if len(sys.argv) > 1 else "edgecolor-heule2008")
    puzzle = load_puzzle(e2)
    t0 = time.perf_counter()
    encoded = preset.encode(puzzle)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        n = write_dimacs(encoded, Path(d) / "e2.cnf", preset.name, str(e2))
    t2 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"Eternity II, {preset.name}: {encoded.nv} variables, {len(encoded.cnf.clauses)} clauses, {n / 1e6:.1f} MB; "
        f"encode {t1 - t0:.2f} s + write {t2 - t1:.2f} s = {t2 - t0:.2f} s; peak memory {peak:.0f} MB"
    )


if __name__ == "__main__":
    main()
