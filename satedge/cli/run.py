"""``satedge run``: every run of an experiment spec, isolated and limited, into a results folder."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..errors import SatedgeError
from ..system.bigints import many
from ..system.process import MAX_WORKERS
from .options import add_cluster, number

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="run an experiment spec: every puzzle x encoding x solver, isolated and limited"
    )
    p.add_argument("spec", metavar="SPEC", help="experiment spec (YAML, see experiments/demo.yaml)")
    p.add_argument("--out", metavar="DIR", help="results folder (default: out/NAME)")
    p.add_argument(
        "--workers",
        type=number(1, MAX_WORKERS),
        default=os.cpu_count() or 1,
        help="runs at a time (default: one per core)",
    )
    p.add_argument(
        "--resume", action="store_true", help="finish an interrupted experiment, running nothing twice"
    )
    p.add_argument(
        "--only",
        action="append",
        metavar="CONFIG",
        help="only the configurations ENCODING/SOLVER that "
        "match this shell pattern, e.g. 'edgecolor-corners-sym/kissat404' or '*/cpsat' (repeatable) (default: "
        "every configuration)",
    )
    p.add_argument(
        "--executor",
        choices=["local", "dask"],
        default="local",
        help="local: processes on this machine; dask: a Dask cluster (--scheduler, extra dist)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address, e.g. tcp://10.0.0.1:8786 (default: none)",
    )
    add_cluster(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from ..experiment.rows import RESULTS
    from ..experiment.runner import run_experiment
    from ..experiment.spec import load_spec, select

    scheduler = args.scheduler
    if args.cluster is not None:
        args.executor = "dask"  # the runs go to the batch queue's workers
    if scheduler and args.executor != "dask":
        raise SatedgeError("--scheduler applies to --executor dask only")
    if args.executor == "dask" and not scheduler:
        raise SatedgeError("--executor dask needs --scheduler ADDRESS (or --cluster slurm)")
    spec = load_spec(args.spec)
    if args.only:
        spec = select(spec, args.only)
    out = Path(args.out or Path("out") / spec.name)
    progress = [0]
    try:
        ran = run_experiment(
            spec,
            out,
            workers=args.workers,
            resume=args.resume,
            executor=args.executor,
            scheduler=scheduler,
            done=lambda k: progress.__setitem__(0, k),
        )
    except (KeyboardInterrupt, SystemExit) as e:
        kept = f" and kept in {out / RESULTS}" if progress[0] else ", nothing written"
        print(
            f"satedge: interrupted: {many(progress[0], 'run')} of {spec.name} done{kept}; "
            f"the same command with --resume finishes it",
            file=sys.stderr,
        )
        setattr(e, "said", True)  # nothing more to say
        raise
    print(f"{ran.describe(spec.name)}; results in {out / RESULTS}", file=sys.stderr)
    for line in ran.error_lines():
        print(f"satedge: error in a run: {line}", file=sys.stderr)
    if ran.all_failed:
        print(f"satedge: every run of {spec.name} ended in an error: nothing was measured", file=sys.stderr)
        return 1
    return 0
