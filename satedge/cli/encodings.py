"""``satedge encodings``: the presets, their sources and (for a puzzle) their formulas' sizes."""

from __future__ import annotations

import argparse
import json
from difflib import get_close_matches

from ..encode import Encoding, bases
from ..encode.counts import COUNT_FAMILIES
from ..encode.presets import catalogue, presets
from ..errors import SatedgeError
from ..puzzle.formats import load_puzzle
from ..system.files import shown
from ..system.plugins import is_reference
from ..system.progress import progress_bar
from .common import needs_more_memory
from .options import add_memory, memory_limit

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("encodings", help="list the encoding presets (with --puzzle: a table of their sizes)")
    p.add_argument(
        "names",
        nargs="*",
        metavar="ENCODING",
        help="only these presets, or any encoding: a base, a preset with options, one of yours (FILE.py:FUNCTION) "
        "(default: every preset)",
    )
    p.add_argument(
        "--puzzle",
        metavar="PUZZLE",
        help="also give each formula's variables, clauses and literals for "
        "this puzzle, counted without building it (default: none)",
    )
    p.add_argument("--json", action="store_true", help="a JSON list of objects")
    add_memory(p)
    p.set_defaults(func=main)


def _named(name: str) -> Encoding:
    """The preset ``name`` names, or any encoding it names (a base, one of yours, options after
    ``+``); a word that names none is an error that suggests the closest preset."""
    if name in presets():
        return presets()[name]
    if is_reference(name) or "+" in name or name.endswith((".yaml", ".yml")) or name in bases():
        return Encoding.parse(name)
    close = get_close_matches(name, presets(), 1, 0.8)
    raise SatedgeError(
        f"no preset {shown(name)}"
        + (f" (did you mean {close[0]}?)" if close else "")
        + "; satedge encodings lists them"
    )


def main(args: argparse.Namespace) -> int:
    if args.memory is not None and not args.puzzle:
        raise SatedgeError("--memory applies with --puzzle (it says which formulas fit)")
    chosen = [_named(name) for name in args.names] or None
    puzzle = load_puzzle(args.puzzle) if args.puzzle else None
    limit = memory_limit(args.memory)
    with progress_bar(len(chosen or presets()) if puzzle else 0, "encodings", "preset") as bar:
        rows = catalogue(puzzle, limit, bar.update, chosen)
    if args.json:
        print(json.dumps(rows))
        return 0
    if puzzle is not None:  # a table: one preset a row, its sizes side by side
        table = [("preset", "variables", "clauses", "literals", "note")]
        for r in rows:
            more = "at least " if r.get("at_least") else ""
            sizes = (
                (f"{more}{r['variables']:,}", f"{more}{r['clauses']:,}", f"{more}{r['literals']:,}")
                if r["covers"]
                else ("-", "-", "-")
            )
            note = (
                "does not cover it: " + r["problem"]
                if not r["covers"]
                else needs_more_memory(limit or 0)
                if not r["fits"]
                else ""
            )
            table.append((r["name"], *sizes, note))
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        for row in table:
            print(
                "  ".join(
                    [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:4], widths[1:])), row[4]]
                ).rstrip()
            )
        return 0
    for r in rows:
        size = ""
        if puzzle is not None and not r["covers"]:
            size = f"  does not cover this puzzle: {r['problem']}"
        elif puzzle is not None:
            more = "at least " if r["at_least"] else ""
            size = (
                f"  {more}{r['variables']:,} variables, {r['clauses']:,} clauses, {r['literals']:,} literals"
            )
            if not r["fits"]:
                size += f": {needs_more_memory(limit)}"
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        print(f"{r['name']}: {r['base']} ({opts}){size}\n    {r['description']}")
        if r["reference"]:
            print(f"    source: {r['reference']}")
    if not chosen and puzzle is None:
        print("count families, for every base (+counts=FAMILY,... or --counts FAMILY,...):")
        for name, (summary, source) in COUNT_FAMILIES.items():
            print(f"  {name}: {summary}\n    source: {source}")
    return 0
