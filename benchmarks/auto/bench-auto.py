"""bench-auto: `--method auto` against the backtracker on two cores and the best SAT configuration,
as whole commands, on two classes of fresh puzzles, each under two shuffles.

* peak: framed two-set puzzles of tunable hardness (7x7 with 8 and 9 colours, 8x8 with 11 and 12,
  3 border colours, seeds 201 and 202), `satedge solve P`, 30 s each;
* count: planted puzzles with 10^3 to 10^5 solutions (3x3 and framed 4x4), `satedge count P`
  (the three counts), 30 s each.

Each class's runs go in an order shuffled with a fixed seed, so that no configuration always
runs on a warmer machine; every run is the whole command, start-up included, as a user meets it.
The rows (one per run, in satedge's result row schema, seconds in `solve_seconds`) go to
`out/bench-auto/CLASS/results.jsonl`; `satedge report out/bench-auto/CLASS --compare A B` gives
the intervals and the paired verdicts.

    python benchmarks/auto/bench-auto.py [peak] [count]     # about 15 minutes on 2 cores, alone on the machine
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from satedge.experiment.executors import environment
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.sat.dimacs import puzzle_hash

OUT = Path("out/bench-auto")
SATEDGE = [sys.executable, "-m", "satedge"]
TIMEOUT = 30
SHUFFLES = (1, 2)
PEAK = [Params(rows=r, colors=c, border_colors=3, frame=True) for r, c in ((7, 8), (7, 9), (8, 11), (8, 12))]
COUNT = [
    (Params(rows=3, colors=3), 101),
    (Params(rows=3, colors=2, matching="complementary"), 101),
    (Params(rows=3, colors=2, matching="complementary"), 105),
    (Params(rows=3, colors=2, matching="complementary"), 103),
    (Params(rows=4, colors=3, border_colors=1, frame=True), 101),
    (Params(rows=4, colors=3, border_colors=1, frame=True), 105),
    (Params(rows=4, colors=3, border_colors=1, frame=True, clues=1), 103),
    (Params(rows=4, colors=3, border_colors=1, frame=True, clues=1), 105),
]
# name: (encoding label, solver label, the command's options) per class
CONFIGS = {
    "peak": [
        ("auto", "auto", []),
        ("backtrack:workers=2", "backtrack:workers=2", ["--method", "backtrack", "--workers", "2"]),
        (
            "edgecolor-corners-sym",
            "cadical195:sat,workers=2,strategy=cubes",
            [
                "--encoding",
                "edgecolor-corners-sym",
                "--solver",
                "cadical195:sat",
                "--workers",
                "2",
                "--strategy",
                "cubes",
            ],
        ),
    ],
    "count": [
        ("auto", "auto", []),
        ("backtrack:workers=2", "backtrack:workers=2", ["--method", "backtrack", "--workers", "2"]),
        (
            "direct-pairwise+symmetry=rotation",
            "cadical195:workers=2",
            ["--encoding", "direct-pairwise", "--symmetry", "rotation", "--workers", "2"],
        ),
    ],
}


def puzzles() -> dict[str, list[tuple[Path, object]]]:
    folder = OUT / "puzzles"
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, list] = {"peak": [], "count": []}
    for params in PEAK:
        for seed in (201, 202):
            p = generate(params, seed)
            save_puzzle(p.with_(planted=None), folder / f"{p.name}.yaml")
            out["peak"].append((folder / f"{p.name}.yaml", p))
    for params, seed in COUNT:
        p = generate(params, seed)
        p = p.with_(
            name=p.name + (f"-k{len(p.clues)}" if p.clues else "")
        )  # a clued puzzle: a file of its own
        save_puzzle(p.with_(planted=None), folder / f"{p.name}.yaml")
        out["count"].append((folder / f"{p.name}.yaml", p))
    return out


def one(kind: str, path: Path, options: list[str], shuffle: int) -> tuple[str, float, dict]:
    command = [
        *SATEDGE,
        "solve" if kind == "peak" else "count",
        str(path),
        "--json",
        "--timeout",
        str(TIMEOUT),
        "--shuffle",
        str(shuffle),
        *options,
    ]
    t0 = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT + 60)
    seconds = time.perf_counter() - t0
    answer = json.loads(proc.stdout) if proc.stdout.strip() else {}
    if proc.returncode == 3 or seconds > TIMEOUT:
        return "TIMEOUT", seconds, answer
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}: {proc.stderr}")
    return "SAT", seconds, answer


def main(kinds: list[str]) -> None:
    env = environment()
    for kind, found in puzzles().items():
        if kind not in kinds:
            continue
        folder = OUT / kind
        folder.mkdir(parents=True, exist_ok=True)
        runs = [
            (path, p, config, shuffle)
            for path, p in found
            for config in CONFIGS[kind]
            for shuffle in SHUFFLES
        ]
        random.Random(2026).shuffle(runs)
        with open(folder / "results.jsonl", "w") as fh:
            for k, (path, p, (encoding, solver, options), shuffle) in enumerate(runs, 1):
                started = datetime.now(UTC)
                status, seconds, answer = one(kind, path, options, shuffle)
                key = json.dumps([puzzle_hash(p), encoding, solver, kind, shuffle])
                row = {
                    "id": hashlib.sha256(key.encode()).hexdigest()[:16],
                    "experiment": f"bench-auto-{kind}",
                    "puzzle": str(path),
                    "puzzle_name": p.name,
                    "puzzle_sha256": puzzle_hash(p),
                    "rows": p.rows,
                    "cols": p.cols,
                    "encoding": encoding,
                    "solver": solver,
                    "task": "solve" if kind == "peak" else "count",
                    "mode": "solutions",
                    "repetition": 0,
                    "shuffle": shuffle,
                    "timeout": float(TIMEOUT),
                    "status": status,
                    "encode_seconds": 0.0,
                    "solve_seconds": round(seconds, 3),
                    "engine": answer.get("solver"),
                    "counts": [answer.get(m) for m in ("solutions", "distinct", "unique")],
                    "started_at": started.isoformat(timespec="milliseconds"),
                    "env": env,
                }
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                print(
                    f"{kind} {k}/{len(runs)}: {p.name} {encoding}/{solver} shuffle {shuffle}: {status} {seconds:.2f} s",
                    file=sys.stderr,
                    flush=True,
                )


if __name__ == "__main__":
    main(sys.argv[1:] or ["peak", "count"])
