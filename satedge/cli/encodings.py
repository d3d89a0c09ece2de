"""``satedge encodings``: the presets, their sources and (for a puzzle) their formulas' sizes."""

from __future__ import annotations

import json

from ..encode.presets import catalogue, presets
from ..errors import SatedgeError
from ..puzzle.formats import load_puzzle
from ..system.progress import progress_bar
from .common import needs_more_memory
from .options import add_memory, memory_limit

__all__ = ["add", "main"]


def add(sub) -> None:
    p = sub.add_parser("encodings", help="list the encoding presets (with --puzzle: their sizes)")
    p.add_argument("--puzzle", metavar="PUZZLE", help="also give each formula's variables, clauses and literals for "
                   "this puzzle, counted without building it (default: none)")
    p.add_argument("--json", action="store_true", help="a JSON list of objects")
    add_memory(p)
    p.set_defaults(func=main)


def main(args) -> int:
    if args.memory is not None and not args.puzzle:
        raise SatedgeError("--memory applies with --puzzle (it says which formulas fit)")
    puzzle = load_puzzle(args.puzzle) if args.puzzle else None
    limit = memory_limit(args.memory)
    with progress_bar(len(presets()) if puzzle else 0, "encodings", "preset") as bar:
        rows = catalogue(puzzle, limit, bar.update)
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        size = ""
        if puzzle is not None and not r["covers"]:
            size = f"  does not cover this puzzle: {r['problem']}"
        elif puzzle is not None:
            more = "at least " if r["at_least"] else ""
            size = f"  {more}{r['variables']:,} variables, {r['clauses']:,} clauses, {r['literals']:,} literals"
            if not r["fits"]:
                size += f": {needs_more_memory(limit)}"
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        print(f"{r['name']}: {r['base']} ({opts}){size}\n    {r['description']}")
        if r["reference"]:
            print(f"    source: {r['reference']}")
    return 0
