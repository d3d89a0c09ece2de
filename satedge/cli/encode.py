"""``satedge encode``: a puzzle as self-describing DIMACS CNF (or every puzzle with every preset)."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

from ..encode import DEFAULT_ENCODING, Encoding, presets
from ..encode.maxsat import DEFAULT_MAXSAT_ENCODING, maxsat_encoding
from ..errors import OutOfMemory, SatedgeError, Unsupported
from ..puzzle.formats import load_puzzle
from ..sat.dimacs import export, export_all
from ..system.compression import SUFFIXES, can_compress
from ..system.files import not_inputs
from ..system.proctree import scratch
from ..system.progress import progress_bar
from .common import encoding_of
from .options import add_encoding, add_memory, add_puzzles, memory_limit

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("encode", help="export a puzzle as self-describing DIMACS CNF (or WCNF: --maxsat)")
    add_puzzles(p)
    add_encoding(p)
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE|DIR",
        help="file (.cnf; with --maxsat .wcnf; either followed by .gz, .xz, .bz2 or .zst to compress it, .zst with "
        "the extra zstd) or - for stdout (default: stdout)",
    )
    p.add_argument(
        "--maxsat",
        action="store_true",
        help="the MaxSAT form of the encoding (any base; default support; +families=colorcount "
        "adds the labels' count bound) as WCNF, the MaxSAT Evaluation's format: one soft clause per inner "
        "edge, so that the optimal cost is the fewest inner edges that do not fit (name the file .wcnf)",
    )
    p.add_argument(
        "--all-presets",
        action="store_true",
        help="every puzzle x every preset into -o DIR, with manifest.csv",
    )
    p.add_argument(
        "--compress",
        choices=["", *SUFFIXES],
        default="",
        metavar="{" + ",".join(SUFFIXES) + "}",
        help="with --all-presets: compress each file (default: no compression)",
    )
    add_memory(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    limit = memory_limit(args.memory)
    not_inputs([args.output], args.puzzles)
    if args.compress and not args.all_presets:
        raise SatedgeError(
            "--compress applies to --all-presets; name the file .cnf.gz (or .xz, .bz2, .zst) instead"
        )
    if args.all_presets:
        given = [
            f"--{k}" for k in ("encoding", "card", "symmetry", "redundant") if getattr(args, k) is not None
        ]
        given += ["--maxsat"] if args.maxsat else []
        if given:
            raise SatedgeError(
                f"{given[0]} does not go with --all-presets, which writes every preset as it is"
            )
        if not args.output or args.output == "-":
            raise SatedgeError("--all-presets needs -o DIR")
        out = Path(args.output)
        with progress_bar(len(args.puzzles) * len(presets()), "encode", "formula") as bar:
            batch = export_all(args.puzzles, out, args.compress, limit, args.shuffle, bar.update)
        if batch.over_memory:
            raise SatedgeError(
                f"beyond --memory {limit} MB, not written: {'; '.join(batch.over_memory)} "
                f"({batch.describe(out)})"
            )
        print(batch.describe(out), file=sys.stderr)
        return 0
    if len(args.puzzles) != 1:
        raise SatedgeError("encode takes one puzzle (or --all-presets with -o DIR)")
    path = args.puzzles[0]
    if args.output not in (None, "-"):
        can_compress(args.output)
    if args.output not in (None, "-") and args.maxsat != (".wcnf" in Path(args.output).suffixes):
        raise SatedgeError(
            "a MaxSAT formula is WCNF: name the file .wcnf (or .wcnf.gz, .xz, .bz2, .zst)"
            if args.maxsat
            else "a .wcnf file holds a MaxSAT formula: give --maxsat, or name the file .cnf",
            args.output,
        )
    encoding = encoding_of(
        SimpleNamespace(**{**vars(args), "default_encoding": DEFAULT_MAXSAT_ENCODING})
        if args.maxsat
        else args
    )
    encoding = maxsat_encoding(encoding) if args.maxsat else encoding or Encoding.parse(DEFAULT_ENCODING)
    puzzle = load_puzzle(path)
    try:
        if args.output not in (None, "-"):
            export(puzzle, encoding, args.output, str(path), limit, args.shuffle, args.maxsat, args.typed)
            return 0
        with scratch() as folder:  # all or nothing on stdout too
            tmp = folder / "formula.cnf"
            export(puzzle, encoding, tmp, str(path), limit, args.shuffle, args.maxsat, args.typed)
            with open(tmp, encoding="utf-8") as fh:
                shutil.copyfileobj(fh, sys.stdout)
    except OutOfMemory as e:  # how much the formula takes, where its size said so before it was built
        raise SatedgeError(f"{e} (--memory MB to allow more)", path) from None
    except Unsupported as e:
        raise SatedgeError(f"encoding {encoding.name}: {e}", path) from None
    return 0
