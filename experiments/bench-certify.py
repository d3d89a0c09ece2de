"""bench-certify: what a certified answer costs.  For each instance, side by side in one run:

* `satedge count P --method sat --json` (or `solve` for a puzzle without solution): the answer;
* the same with `--certify --proof DIR`: enumeration, a fresh proof-logging solve of the formula
  with its blocking clauses, and the proof checked by dratify;
* drup (the verified checker) on the proof that was written, under its own time limit.

Instances: the four seed puzzles, planted framed puzzles from 4x4 to 7x7, two uniform random
puzzles without solution and two of Heule's instances.  Rows (one per instance) go to
out/bench-certify/rows.jsonl.

    python experiments/bench-certify.py        # about 25 minutes on 2 cores
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from satedge.experiment.executors import environment
from satedge.formats import save_puzzle
from satedge.generate import Params, generate

ROOT = Path(__file__).resolve().parent.parent
OUT = Path("out/bench-certify")
SATEDGE = [sys.executable, "-m", "satedge"]
TIMEOUT, DRUP_TIMEOUT = 120, 90
DRUP = ("import sys, time, drup; t = time.perf_counter(); r = drup.check_proof_from_files(sys.argv[1], sys.argv[2]); "
        "print(r.outcome.name, time.perf_counter() - t)")


def instances() -> list[tuple[str, Path, str]]:
    """``(class, puzzle file, task)``."""
    folder = OUT / "puzzles"
    folder.mkdir(parents=True, exist_ok=True)
    out = [("seed", ROOT / "puzzles" / f"{n}.yaml", "count") for n in ("hunde-spiel", "insects", "scramble-squares",
                                                                          "one-tough-puzzle")]
    for rows, colors, border, seed in ((4, 4, 1, 1), (5, 5, 2, 1), (6, 6, 2, 1), (7, 9, 3, 1)):
        p = generate(Params(rows=rows, colors=colors, border_colors=border, frame=True), seed)
        save_puzzle(p.with_(planted=None), folder / f"{p.name}.yaml")
        out.append(("planted", folder / f"{p.name}.yaml", "count"))
    for rows, colors, seed in ((4, 9, 1), (5, 8, 1)):
        p = generate(Params(rows=rows, colors=colors, model="uniform"), seed)
        save_puzzle(p, folder / f"{p.name}.yaml")
        out.append(("uniform", folder / f"{p.name}.yaml", "solve"))
    out += [("heule", ROOT / "puzzles" / "heule2008" / f"{n}.yaml", "count") for n in ("em_7_3_6", "em_7_4_9")]
    return out


def timed(command: list[str], timeout: float) -> tuple[float, dict | None, int]:
    t0 = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout + 60)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1, 3):
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}: {proc.stderr}")
    return seconds, json.loads(proc.stdout) if proc.stdout.strip() else None, proc.returncode


def main() -> None:
    env = environment()
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "rows.jsonl", "w") as fh:
        for kind, path, task in instances():
            base = [*SATEDGE, task, str(path), "--method", "sat", "--json", "--timeout", str(TIMEOUT)]
            plain_s, plain, _ = timed(base, TIMEOUT)
            proof = OUT / "proofs" / path.stem
            cert_s, cert, code = timed([*base, "--certify", "--proof", str(proof)], TIMEOUT)
            row = {"class": kind, "puzzle": path.stem, "task": task, "seconds": round(plain_s, 3),
                   "certified_seconds": round(cert_s, 3), "timed_out": code == 3 or cert is None,
                   "answer": {k: (plain or {}).get(k) for k in ("status", "solutions", "distinct", "unique")},
                   "certificate": (cert or {}).get("certificate"), "env": env}
            if (proof / "proof.drup").exists():
                try:
                    r = subprocess.run([sys.executable, "-c", DRUP, str(proof / "formula.cnf"), str(proof / "proof.drup")],
                                       capture_output=True, text=True, timeout=DRUP_TIMEOUT)
                    outcome, seconds = r.stdout.split()
                    row["drup"] = {"outcome": outcome, "seconds": round(float(seconds), 3)}
                except subprocess.TimeoutExpired:
                    row["drup"] = {"outcome": "TIMEOUT", "seconds": None}
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            print(json.dumps({k: row[k] for k in row if k != "env"}), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
