"""``satedge puzzles``: the puzzles and the experiment specs that ship with satedge, by name."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..puzzle.formats import load_puzzle
from ..system.resources import shipped_puzzles, shipped_specs

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "puzzles", help="list the puzzles and example specs that ship with satedge (use them by name)"
    )
    p.add_argument("--json", action="store_true", help='one object {"puzzles": [...], "specs": {name: path}}')
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name, path in shipped_puzzles().items():
        p = load_puzzle(path)
        rows.append(
            {
                "name": name,
                "rows": p.rows,
                "cols": p.cols,
                "matching": p.matching,
                "frame": p.frame,
                "topology": p.topology,
                "clues": len(p.clues),
                "title": p.name,
                "path": str(path),
            }
        )
    specs = {name: str(path) for name, path in shipped_specs().items()}
    if args.json:
        print(json.dumps({"puzzles": rows, "specs": specs}))
        return 0
    for r in rows:
        kind = (
            r["matching"]
            + (", framed" if r["frame"] is not None else "")
            + (", torus" if r["topology"] == "torus" else "")
        )
        print(
            f"{r['name']}: {r['rows']}x{r['cols']}, {kind}" + (f", {r['clues']} clues" if r["clues"] else "")
        )
    print("example specs (satedge run NAME): " + ", ".join(specs))
    return 0
