"""``satedge check-proof``: check a certificate that ``--certify --proof DIR`` wrote, again."""

from __future__ import annotations

import argparse
import json

from ..sat.certify import CHECKERS, DEFAULT_CHECKER
from ..sat.proofdir import recheck
from ..system.bigints import many
from ..system.process import MAX_WORKERS
from ..system.progress import status_line
from .common import assumption_words
from .options import number

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check-proof",
        help="check a certificate written by --certify --proof DIR again: the formula "
        "rebuilt from its puzzle, every model, every piece's proof",
        description="Check a certificate "
        "written by --certify --proof DIR again, with either checker: formula.cnf must be the formula "
        "of the puzzle its header names, every model a piece blocks must decode to a valid solution, "
        "every piece's proof must check, and the cover must name every cube.",
    )
    p.add_argument("folder", metavar="DIR", help="the folder --proof DIR wrote")
    p.add_argument(
        "--checker",
        choices=list(CHECKERS),
        default=DEFAULT_CHECKER,
        help=f"dratify (fast) or drup (formally verified, slow) (default: {DEFAULT_CHECKER})",
    )
    p.add_argument(
        "--workers",
        type=number(1, MAX_WORKERS),
        default=1,
        metavar="N",
        help="check N pieces at a time, or one piece's proof in parts, on N processes (default: 1)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object: the certificate as checked")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    with status_line(f"check-proof {args.folder}") as show:  # on a terminal: the stage, the proofs checked
        cert, solutions = recheck(args.folder, args.checker, args.workers, note=show)
    maximum = cert.covers.startswith(("no board scores more", "no board keeps"))
    if args.json:
        print(
            json.dumps(
                {"folder": args.folder, **cert.as_dict(), ("score" if maximum else "solutions"): solutions}
            )
        )
    elif maximum:
        print(
            f"{args.folder}: certified by {cert.checker}: {cert.covers} ({cert.lemmas:,} lemmas, "
            f"{cert.bytes / 1000:,.0f} kB, checked in {cert.check_seconds:.2f} s)"
        )
    else:
        print(
            f"{args.folder}: certified by {cert.checker}: {many(cert.models, cert.blocks[:-1])}, "
            f"{many(solutions or 0, 'solution')} ({many(cert.pieces, 'piece')}, {cert.lemmas:,} lemmas, "
            f"{cert.bytes / 1000:,.0f} kB, checked in {cert.check_seconds:.2f} s"
            f"{assumption_words(cert)})"
        )
    return 0
