"""``satedge count``: the solutions, distinct pictures and pictures up to board turns of each puzzle."""

from __future__ import annotations

import json
import time

from ..formats import load_puzzle
from ..jobs import Job
from ..symmetry import MODES
from .common import add_method, job_settings, many, run_job, with_progress


def add(sub) -> None:
    p = sub.add_parser("count", help="count solutions, distinct pictures and pictures up to board turns")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files (.yaml, .puz, .txt, tile_dict.yaml)")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    add_method(p, counting=True)
    p.set_defaults(func=main)


def main(args) -> int:
    settings = job_settings(args, "count")
    modes = (args.mode,) if args.mode else MODES
    status = 0
    for path in with_progress(args.puzzles, "count"):
        puzzle = load_puzzle(path)
        t0 = time.perf_counter()
        job = Job(puzzle, "count", modes=modes, **settings)
        res = run_job(path, job)
        seconds = time.perf_counter() - t0
        counts = {m: res.counts.get(m) for m in MODES}
        solver = job.solver
        encoding = "cpsat" if solver.engine == "cpsat" else job.encoding and job.encoding.name
        if res.status == "TIMEOUT":
            status = 3
        if args.json:
            obj = {"puzzle": path, **counts, "method": args.method, "shuffle": args.shuffle, "seconds": round(seconds, 6)}
            if args.method == "sat":
                obj.update(encoding=encoding, solver=str(solver), variables=res.variables or 0, clauses=res.clauses or 0,
                           models=res.counts.get("models"))
            if res.status == "TIMEOUT":
                obj["status"] = "TIMEOUT"
            print(json.dumps(obj), flush=True)
        elif res.status == "TIMEOUT":
            print(f"{path}: TIMEOUT after {args.timeout:g} s")
        else:
            shown = ", ".join(many(v, "solution") if k == "solutions" else f"{v} {k}"
                              for k, v in counts.items() if v is not None)
            how = args.method if encoding is None else encoding if encoding == "cpsat" else f"{encoding}, {solver}"
            models = res.counts.get("models")
            if models is not None and models != counts["solutions"]:
                how += f", {many(models, 'model')} of the formula"
            if args.shuffle is not None:
                how += f", shuffle {args.shuffle}"
            print(f"{path}: {shown} ({how}, {seconds:.3f} s)", flush=True)
    return status
