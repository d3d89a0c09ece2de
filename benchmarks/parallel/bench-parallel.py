"""bench-parallel, the parts a spec cannot hold (benchmarks/parallel/bench-parallel.yaml has the solving):

* enumeration: every solution of two framed 4x4 puzzles (18,432 and 55,296), whole `satedge
  count` commands with the SAT method and the backtracker on 1 worker, 2 local workers and a
  2-worker Dask LocalCluster, three rounds, the configurations interleaved;
* a simulation, labelled as one: the measured times of 512 cubes of each enumeration (one
  worker, one after the other) scheduled greedily on 1 to 128 workers;
* Owen's 8x8 with the best parallel SAT configuration on 2 cores, at most 300 s.

    .venv/bin/python benchmarks/parallel/bench-parallel.py            # about 9 minutes
    .venv/bin/python benchmarks/parallel/bench-parallel.py --skip-owen

It prints a JSON object; benchmarks/parallel/bench-parallel-extra.json is the committed one, and
benchmarks/parallel/bench-parallel.md the report.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from satedge.encode import DEFAULT_ENCODING, Encoding
from satedge.experiment.executors import environment
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.sat import cubes

ROOT = Path(__file__).resolve().parents[2]
SATEDGE = [sys.executable, "-m", "satedge"]
# (name, parameters, seed): framed 4x4 puzzles with 18,432 and 55,296 solutions
ENUMERATE = [
    ("4x4-18432", Params(rows=4, cols=4, colors=3, border_colors=1, frame=True, clues=1), 4),
    ("4x4-55296", Params(rows=4, cols=4, colors=3, border_colors=1, frame=True), 5),
]


def timed(command: list[str], cwd: Path | None = None) -> tuple[float, str, int]:
    t0 = time.perf_counter()
    r = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    return time.perf_counter() - t0, r.stdout, r.returncode


def enumeration(puzzle: Path, rounds: int) -> list[dict]:
    from dask.distributed import LocalCluster

    out = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        base = [*SATEDGE, "count", str(puzzle), "--mode", "solutions", "--json"]
        configs = {
            "sat, 1 worker": base,
            "sat, cubes on 2 local workers": [*base, "--workers", "2"],
            "sat, cubes on a 2-worker Dask LocalCluster": [*base, "--scheduler", lc.scheduler_address],
            "backtrack, 1 worker": [*base, "--method", "backtrack"],
            "backtrack, 2 local workers": [*base, "--method", "backtrack", "--workers", "2"],
            "backtrack, 2-worker Dask LocalCluster": [
                *base,
                "--method",
                "backtrack",
                "--scheduler",
                lc.scheduler_address,
            ],
        }
        for k in range(rounds):
            for name, command in configs.items():
                seconds, stdout, code = timed(command)
                solutions = json.loads(stdout)["solutions"] if code == 0 else None
                out.append({"config": name, "round": k, "seconds": round(seconds, 3), "solutions": solutions})
                print(out[-1], file=sys.stderr, flush=True)
    return out


def simulation(puzzle, n_cubes: int) -> dict:
    encoded = Encoding.parse(DEFAULT_ENCODING).encode(puzzle)
    split = cubes.split(encoded, n_cubes)
    done = cubes.solve_cubes(encoded, "cadical195", split.cubes)
    times = [c.seconds for c in done]
    total = sum(times)
    return {
        "encoding": DEFAULT_ENCODING,
        "solver": "cadical195",
        "cubes": len(split.cubes),
        "refuted": split.refuted,
        "split_seconds": round(split.seconds, 3),
        "solutions": sum(len(c.solutions) for c in done),
        "cube_seconds_total": round(total, 3),
        "cube_seconds_max": round(max(times), 4),
        "cube_seconds_median": round(statistics.median(times), 5),
        "makespan": {w: round(cubes.makespan(times, w), 4) for w in (1, 2, 8, 32, 128)},
        "speedup": {w: round(total / cubes.makespan(times, w), 2) for w in (1, 2, 8, 32, 128)},
    }


def owen(strategy: str, timeout: int) -> dict:
    command = [
        *SATEDGE,
        "solve",
        "puzzles/eternity2/8x8.yaml",
        "--encoding",
        "edgecolor-corners-sym",
        "--solver",
        "cadical195:sat",
        "--workers",
        "2",
        "--strategy",
        strategy,
        "--timeout",
        str(timeout),
        "--json",
    ]
    seconds, stdout, code = timed(command, cwd=ROOT)
    status = json.loads(stdout)["status"] if stdout else f"exit {code}"
    return {"command": " ".join(["satedge", *command[3:]]), "status": status, "seconds": round(seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cubes", type=int, default=512)
    ap.add_argument("--strategy", default="cubes", help="the parallel SAT strategy for Owen's 8x8")
    ap.add_argument("--owen-timeout", type=int, default=300)
    ap.add_argument("--skip-owen", action="store_true")
    args = ap.parse_args()
    folder = ROOT / "out" / "bench-parallel-extra"
    folder.mkdir(parents=True, exist_ok=True)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    result = {
        "started_at": started,
        "machine": {**environment(), "cores": os.cpu_count(), "platform": platform.platform()},
        "puzzles": {},
        "enumerate": {},
        "simulation": {},
    }
    for name, params, seed in ENUMERATE:
        puzzle = generate(params, seed).with_(planted=None)
        save_puzzle(puzzle, folder / f"{name}.yaml")
        result["puzzles"][name] = (
            f"satedge generate --rows 4 --colors 3 --border-colors 1 --frame --clues {params.clues} "
            f"--seed {seed}"
        )
        result["enumerate"][name] = enumeration(folder / f"{name}.yaml", args.rounds)
        result["simulation"][name] = simulation(puzzle, args.cubes)
    if not args.skip_owen:
        result["owen_8x8"] = owen(args.strategy, args.owen_timeout)
    result["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
