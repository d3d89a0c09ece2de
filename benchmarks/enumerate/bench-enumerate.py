"""Enumeration at the field's speed: satedge's model enumeration against the tools its users know,
on the same formulas, whole commands side by side.

Three generated framed 4x4 puzzles (satedge generate), with 27,648, 221,184 and 1,382,400 models
of their edgecolor-corners formula (the count's default encoding), exported to DIMACS. On each,
in pairs of whole commands (the order shuffled in each pair), CPU seconds of the command's whole
process tree:

* satedge's blocking-clause enumeration (`count --method sat --enumeration blocking --mode
  solutions`, CaDiCaL 1.9.5), one worker, against a plain PySAT loop on the exported CNF (the
  same solver, a blocking clause per model on the `c p show` variables);
* the same with two workers (cube-and-conquer), against one worker;
* the clasp engine (`count --solver clasp:enumeration=blocking --mode solutions`) against the
  clasp binary on the exported CNF (`clasp -n 0 -q`);
* `picosat --all` on the smallest formula (on the others it takes minutes), against satedge;
* start-up: `satedge count hunde-spiel` against the bare imports of PySAT, numpy and PyYAML,
  and the same command of the code before (commit BASE, in a temporary worktree);
* the cross-check of 300 examples on two workers, now and before (BASE).

    python benchmarks/enumerate/bench-enumerate.py            # writes bench-enumerate-rows.jsonl and .md
    python benchmarks/enumerate/bench-enumerate.py --report   # the report again from the rows
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the harness the benchmarks share
import harness  # noqa: E402

ROOT = HERE.parents[1]
ROWS = HERE / "bench-enumerate-rows.jsonl"
REPORT = HERE / "bench-enumerate.md"
BASE = "f2aab1b"  # the code before the bulk checks, the engine table and the clasp engine
PUZZLES = {  # name: the generator's arguments (a framed 4x4 of 3 or 2 colours, one border colour)
    "4x4-27648": ["--colors", "3", "--seed", "5"],
    "4x4-221184": ["--colors", "3", "--seed", "2"],
    "4x4-1382400": ["--colors", "2", "--seed", "1"],
}
# pairs per puzzle of the blocking and workers rows, and of the clasp rows: a PySAT enumeration
# of the 1,382,400 models takes about 4 minutes a command, which this run has no room for
PAIRS = {"4x4-27648": (5, 5), "4x4-221184": (3, 3), "4x4-1382400": (0, 3)}
LOOP = """import sys
from pysat.formula import CNF
from pysat.solvers import Solver
path = sys.argv[1]
show = next([int(x) for x in line.split()[3:-1]] for line in open(path) if line.startswith("c p show"))
n = 0
with Solver(name="cadical195", bootstrap_with=CNF(from_file=path).clauses) as s:
    while s.solve():
        m = s.get_model()
        n += 1
        s.add_clause([-m[v - 1] for v in show])
print(n)
"""
IMPORTS = "import pysat.solvers, numpy, yaml"


def timed(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> dict:
    """Wall and CPU seconds of ``cmd``'s whole process tree (what it waited for), and its stdout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        return {
            "wall": round(wall, 3),
            "cpu": round(usage.ru_utime + usage.ru_stime, 3),
            "exit": os.waitstatus_to_exitcode(status),
            "stdout": out.read().decode(errors="replace")[-400:],
            "stderr": err.read().decode(errors="replace")[-300:],
        }


def pairs(
    a: list[str],
    b: list[str],
    n: int,
    seed: int,
    env: dict | None = None,
    cwd: Path | None = None,
    env_b: dict | None = None,
) -> dict:
    """``n`` pairs of the two commands (``b`` under ``env_b`` if given), the order shuffled in
    each; each pair's CPU ratio a/b."""
    rng, out = random.Random(seed), []
    for _ in range(n):
        if rng.random() < 0.5:
            ra, rb = timed(a, env, cwd), timed(b, env_b or env, cwd)
        else:
            rb, ra = timed(b, env_b or env, cwd), timed(a, env, cwd)
        out.append({"a": ra, "b": rb, "ratio": round(ra["cpu"] / max(rb["cpu"], 1e-6), 3)})
    return {"pairs": out}


def ratio(row: dict) -> tuple[float, float, float]:
    """The median CPU ratio of a row's pairs, and the least and the largest."""
    r = [p["ratio"] for p in row["pairs"]]
    return statistics.median(r), min(r), max(r)


def measure() -> list[dict]:
    py = sys.executable
    satedge = [py, "-m", "satedge"]
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(ROOT)}
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        loop = tmp / "loop.py"
        loop.write_text(LOOP)
        for k, (name, args) in enumerate(PUZZLES.items()):
            f, cnf = tmp / f"{name}.yaml", tmp / f"{name}.cnf"
            subprocess.run(
                satedge + ["generate", "--rows", "4", "--border-colors", "1", "--frame", *args, "-o", str(f)],
                check=True,
                env=env,
                capture_output=True,
            )
            subprocess.run(
                satedge + ["encode", str(f), "-o", str(cnf)], check=True, env=env, capture_output=True
            )
            count = satedge + [
                "count",
                str(f),
                "--method",
                "sat",
                "--enumeration",
                "blocking",
                "--mode",
                "solutions",
                "--json",
            ]
            n, n_clasp = PAIRS[name]
            if k == 0:  # the bytecode written once, not in the first pair
                timed(count, env)
            if n:
                rows.append(
                    {
                        "target": "blocking",
                        "puzzle": name,
                        "against": "pysat-loop",
                        **pairs(count + ["--workers", "1"], [py, str(loop), str(cnf)], n, k, env=env),
                    }
                )
                rows.append(
                    {
                        "target": "workers",
                        "puzzle": name,
                        "against": "one-worker",
                        **pairs(count + ["--workers", "2"], count + ["--workers", "1"], n, 10 + k, env=env),
                    }
                )
            if shutil.which("clasp"):
                clasp = satedge + [
                    "count",
                    str(f),
                    "--solver",
                    "clasp:enumeration=blocking",
                    "--mode",
                    "solutions",
                    "--json",
                ]
                rows.append(
                    {
                        "target": "clasp",
                        "puzzle": name,
                        "against": "clasp-binary",
                        **pairs(clasp, ["clasp", "-n", "0", "-q", str(cnf)], n_clasp, 20 + k, env=env),
                    }
                )
            if shutil.which("picosat") and k == 0:
                pico = ["sh", "-c", f"exec picosat --all {cnf} > /dev/null"]
                rows.append(
                    {
                        "target": "picosat",
                        "puzzle": name,
                        "against": "picosat-all",
                        **pairs(count + ["--workers", "1"], pico, 2, 30, env=env),
                    }
                )
        before = tmp / "before"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(before), BASE],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            env_before = {**env, "PYTHONPATH": str(before)}
            hunde = ["count", "hunde-spiel"]
            timed(satedge + hunde, env_before, tmp)  # the bytecode of the code before, written once
            rows.append(
                {
                    "target": "startup",
                    "against": "imports",
                    **pairs(satedge + hunde, [py, "-c", IMPORTS], 10, 40, env=env, cwd=tmp),
                }
            )
            rows.append(
                {
                    "target": "startup",
                    "against": "before",
                    **pairs(satedge + hunde, satedge + hunde, 10, 41, env, tmp, env_before),
                }
            )
            cross = satedge + ["crosscheck", "--examples", "300", "--seed", "7", "--workers", "2", "--json"]
            rows.append(
                {
                    "target": "crosscheck",
                    "against": "before",
                    **pairs(cross, cross, 2, 42, env, tmp, env_before),
                }
            )
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, capture_output=True
            )
    return rows


def _models(run: dict) -> int | None:
    """The model count a command printed: satedge's JSON line, the loop's number, clasp's statistics."""
    text = run["stdout"]
    try:
        return json.loads(text.strip().splitlines()[-1])["models"]
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    for line in text.splitlines():
        if line.startswith("c Models"):
            return int(line.split(":")[1].split()[0].rstrip("+"))
    return int(text) if text.strip().isdigit() else None


def _cpu(row: dict, side: str) -> float:
    return statistics.median(p[side]["cpu"] for p in row["pairs"])


def _wall(row: dict, side: str) -> float:
    return statistics.median(p[side]["wall"] for p in row["pairs"])


def _model_rows(by: dict, kind: str) -> list[str]:
    """A table's rows: per puzzle, models, pairs, both CPU times, the ratio and satedge's rate."""
    out = []
    for name in PUZZLES:
        r = by.get((kind, name))
        if r is not None:
            m, lo, hi = ratio(r)
            models = _models(r["pairs"][0]["a"])
            out.append(
                f"| {name} | {models:,} | {len(r['pairs'])} | {_cpu(r, 'a'):.2f} | {_cpu(r, 'b'):.2f} | "
                f"{m:.2f} ({lo:.2f} to {hi:.2f}) | {models / _wall(r, 'a'):,.0f} |"
            )
    return out


def report(rows: list[dict], meta: dict) -> str:
    by = {(r["target"], r.get("puzzle")): r for r in rows}
    lines = [
        "# Enumeration at the field's speed",
        "",
        f"Measured {meta['date']} on {meta['machine']} (2 cores, shared), Python {meta['python']}, in one run of "
        f"`python benchmarks/enumerate/bench-enumerate.py` ({meta['minutes']:.0f} minutes). Whole commands in "
        "pairs, the "
        "order shuffled in each pair; a ratio is satedge's CPU seconds (its whole process tree) over the other's, "
        "the median of the pairs with the least and the largest in brackets.",
        "",
        "The formulas: the `edgecolor-corners` formula of generated framed 4x4 puzzles (`satedge generate --rows 4 "
        "--border-colors 1 --frame` with the colours and seed of each row), exported with `satedge encode`; every tool "
        "gives the same number of models (the models column, from each command's own output).",
        "",
        "## Blocking clauses through PySAT, against a plain PySAT loop",
        "",
        "satedge: `count --method sat --enumeration blocking --mode solutions --workers 1` (CaDiCaL 1.9.5, every "
        "model decoded and checked in blocks); the loop: the same solver on the exported CNF, a blocking clause per "
        "model on its `c p show` variables. Target: within 1.5 times the loop's CPU.",
        "",
        "| puzzle | models | pairs | satedge CPU s | loop CPU s | ratio | satedge models/s |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += _model_rows(by, "blocking")
    lines += [
        "",
        "## Two workers against one",
        "",
        "The same command with `--workers 2` (cube-and-conquer: 64 cubes per worker) over `--workers 1`: the "
        "CPU ratio says what the split costs, the wall ratio what it gains.",
        "",
        "| puzzle | pairs | CPU ratio | wall, 2 workers | wall, 1 worker | models/s, 2 workers |",
        "|---|---|---|---|---|---|",
    ]
    for name in PUZZLES:
        r = by.get(("workers", name))
        if r is None:
            continue
        m, lo, hi = ratio(r)
        models = _models(r["pairs"][0]["a"])
        lines.append(
            f"| {name} | {len(r['pairs'])} | {m:.2f} ({lo:.2f} to {hi:.2f}) | {_wall(r, 'a'):.2f} s | "
            f"{_wall(r, 'b'):.2f} s | {models / _wall(r, 'a'):,.0f} |"
        )
    lines += [
        "",
        "## The clasp engine against the clasp binary",
        "",
        "satedge: `count --solver clasp:enumeration=blocking --mode solutions` (clingo's clasp, the clauses "
        "through its backend, models projected on the decision variables, read and checked in blocks); the "
        "binary: Debian's `clasp -n 0 -q` on the exported CNF. Target: within 3 times the binary's CPU on "
        "the puzzle with 10^6 models.",
        "",
        "| puzzle | models | pairs | satedge CPU s | clasp CPU s | ratio | satedge models/s |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += _model_rows(by, "clasp")
    r = by.get(("picosat", "4x4-27648"))
    if r is not None:
        m, lo, hi = ratio(r)
        lines += [
            "",
            f"`picosat --all` on the 4x4-27648 formula: {_cpu(r, 'b'):.1f} s of CPU against satedge's "
            f"{_cpu(r, 'a'):.1f} s ({len(r['pairs'])} pairs; satedge over picosat {m:.2f}, {lo:.2f} to "
            f"{hi:.2f}); on the larger formulas it takes minutes.",
        ]
    lines += [
        "",
        "## The cost of one call",
        "",
        "`satedge count hunde-spiel` (the backtracker in Python: 16, 8 and 2), whole command, against "
        f'`python -c "{IMPORTS}"` and against the same command of the code before (commit {BASE}). '
        "Target: within 2 times the bare imports' CPU.",
        "",
        "| against | pairs | satedge CPU s | other CPU s | ratio |",
        "|---|---|---|---|---|",
    ]
    for against in ("imports", "before"):
        r = next((x for x in rows if x["target"] == "startup" and x["against"] == against), None)
        if r is not None:
            m, lo, hi = ratio(r)
            lines.append(
                f"| {against} | {len(r['pairs'])} | {_cpu(r, 'a'):.3f} | {_cpu(r, 'b'):.3f} | "
                f"{m:.2f} ({lo:.2f} to {hi:.2f}) |"
            )
    r = by.get(("crosscheck", None))
    if r is not None:
        m, lo, hi = ratio(r)
        lines += [
            "",
            "## The cross-check",
            "",
            "`satedge crosscheck --examples 300 --seed 7 --workers 2`, now and before (commit "
            f"{BASE}): {_wall(r, 'a'):.1f} s of wall time now, {_wall(r, 'b'):.1f} s before "
            f"({len(r['pairs'])} pairs; CPU ratio {m:.2f}, {lo:.2f} to {hi:.2f}). Target: under 20 s.",
        ]
    notes = meta.get("notes")
    if notes:
        lines += ["", "## Notes", "", notes]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(harness.main(__doc__, REPORT, report, lambda args: measure(), ROWS))
