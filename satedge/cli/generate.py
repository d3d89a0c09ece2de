"""``satedge generate``: random puzzles, uniform or with a planted solution."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import SatedgeError
from ..puzzle.formats import puzzle_to_yaml, save_puzzle
from ..puzzle.generate import MAX_COLORS, Params, eternity2_cells, generate
from ..puzzle.model import MAX_CELLS, TURNS
from ..puzzle.shuffle import MAX_SEED
from ..system.compression import not_compressed
from ..system.files import write_atomic
from .common import output_folder
from .options import number

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate random puzzles (uniform, or planted with a known solution)")
    p.add_argument(
        "--model",
        choices=["planted", "uniform"],
        default="planted",
        help="planted: a solution is planted; uniform: every edge at random (usually unsolvable)",
    )
    p.add_argument("--rows", type=number(1, MAX_CELLS), default=4, help="rows of the board")
    p.add_argument(
        "--cols", type=number(1, MAX_CELLS), default=None, help="columns (default: as many as rows)"
    )
    p.add_argument(
        "--colors",
        type=number(1, MAX_COLORS),
        default=4,
        help="labels (identical) or patterns (complementary) inside",
    )
    p.add_argument(
        "--border-colors",
        type=number(0, MAX_COLORS),
        default=0,
        help="a separate label set between border cells (needs --frame) (default: 0, none)",
    )
    p.add_argument(
        "--matching",
        choices=["identical", "complementary"],
        default="identical",
        help="identical: equal labels fit; complementary: a pattern's two halves fit",
    )
    p.add_argument("--frame", action="store_true", help="frame label 0 on the outside (identical, grid)")
    p.add_argument(
        "--topology", choices=["grid", "torus"], default="grid", help="torus: the edges wrap around"
    )
    p.add_argument(
        "--clues",
        type=number(0, MAX_CELLS),
        default=0,
        metavar="N",
        help="clue N planted placements on cells drawn at random (default: 0)",
    )
    p.add_argument(
        "--border",
        type=number(0, MAX_COLORS),
        default=0,
        metavar="N",
        help="a border rule: the outside shows only the first N labels, which also run inside (a planted grid "
        "without a frame) (default: 0, none)",
    )
    p.add_argument(
        "--turns",
        choices=list(TURNS),
        default="all",
        help="the turns the tiles may take: all, half (none or a half turn), none (they lie as written, "
        "as in Tetravex)",
    )
    p.add_argument(
        "--clue-at",
        action="append",
        default=[],
        metavar="R,C|eternity2",
        help="clue the planted placement on row R, column C (from 0; may be repeated); eternity2: on the "
        "cells of Eternity II's five clues (the centre and the squares two in from each corner)",
    )
    p.add_argument(
        "--seed",
        type=number(0, MAX_SEED - 1),
        default=0,
        metavar="S",
        help="first seed (same seed, same file) (default: 0)",
    )
    p.add_argument(
        "--count", type=number(1, 100_000), default=1, metavar="K", help="K puzzles, seeds S..S+K-1"
    )
    p.add_argument(
        "-o", "--output", metavar="DIR|FILE", help="a folder (one YAML per puzzle) or a file; default stdout"
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    params = Params(
        rows=args.rows,
        cols=args.cols,
        colors=args.colors,
        border_colors=args.border_colors,
        matching=args.matching,
        frame=args.frame,
        topology=args.topology,
        clues=args.clues,
        model=args.model,
        clues_at=_cells(args.clue_at, args.rows, args.cols),
        turns=args.turns,
        border=args.border,
    )
    puzzles = [generate(params, seed) for seed in range(args.seed, args.seed + args.count)]
    out = args.output
    if out is None or out == "-":
        sys.stdout.write("---\n".join(puzzle_to_yaml(p) for p in puzzles))
        return 0
    path = Path(out)
    not_compressed(path, "generate writes a .yaml, .yml or .puz file, or a folder")
    if path.suffix in (".yaml", ".yml", ".puz"):
        if args.count > 1:
            raise SatedgeError(
                f"-o names a file, and --count {args.count} makes {args.count} puzzles: give a folder "
                "(one YAML per puzzle) or - for stdout",
                path,
            )
        save_puzzle(puzzles[0], path)
        return 0
    output_folder(path, "when --count is more than 1")
    for p in puzzles:
        write_atomic(path / f"{p.name}.yaml", puzzle_to_yaml(p))
    print(f"{len(puzzles)} puzzles written to {path}/", file=sys.stderr)
    return 0


def _cells(given: list[str], rows: int, cols: int | None) -> tuple[tuple[int, int], ...]:
    """The cells of ``--clue-at``: ``R,C`` pairs, ``eternity2`` the five of :func:`eternity2_cells`."""
    out: list[tuple[int, int]] = []
    for text in given:
        if text == "eternity2":
            out += eternity2_cells(rows, cols)
            continue
        parts = text.split(",")
        if len(parts) != 2 or not all(x.strip().isdigit() and len(x.strip()) <= 9 for x in parts):
            raise SatedgeError(f"--clue-at takes R,C (a row and a column from 0) or eternity2, not {text!r}")
        out.append((int(parts[0]), int(parts[1])))
    return tuple(out)
