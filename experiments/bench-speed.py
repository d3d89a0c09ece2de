"""Issue 50's speed targets, each beside what it is compared with in one run (whole commands):

* per-run cost: a 40-run spec (the four seed puzzles x 10, edgecolor-corners, CaDiCaL, one
  worker) against a plain Python loop that loads, encodes and solves the same runs;
* Eternity II with heule2008-all: `satedge encode` against Heule's C encoder (compiled from
  $SATEDGE_BENCHMARKS/heule2008/encoder), CPU seconds and peak memory, and the same bytes;
* the backtracker's nodes per second on board-suite 7x7 boards and on Owen's 8x8;
* `satedge crosscheck --examples 300 --seed 7 --workers 2`;
* enumeration rates, blocking against subspaces, 1 and 2 workers, on generated 4x4
  complementary puzzles with 10^3 and 10^4 solutions.

The code before each change was measured beside it when the change was made (the figures the
report's notes quote).

    python experiments/bench-speed.py                       # writes bench-speed-rows.jsonl and .md
    python experiments/bench-speed.py --report              # the report again from the rows
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ROWS = HERE / "bench-speed-rows.jsonl"
REPORT = HERE / "bench-speed.md"
SEEDS = ["hunde-spiel", "insects", "one-tough-puzzle", "scramble-squares"]
ENUM_PUZZLES = {"4x4-4800": ["--colors", "4", "--seed", "8"], "4x4-15432": ["--colors", "3", "--seed", "9"]}
ENUM_CONFIGS = [("cadical195", 1), ("cadical195", 2), ("minisat22", 1), ("minisat22", 2),
                ("minisat22:enumeration=subspaces", 1), ("minisat22:enumeration=subspaces", 2)]
SPEC = """name: forty
puzzles: [hunde-spiel, insects, one-tough-puzzle, scramble-squares]
encodings: [edgecolor-corners]
solvers: [cadical195]
task: solve
repeat: 10
"""
LOOP = """import sys, time
from pysat.solvers import Solver
from satedge import resources
from satedge.formats import load_puzzle
from satedge.encode import Encoding
for name in %r * 10:
    e = Encoding.of("edgecolor-corners").encode(load_puzzle(resources.shipped(name)))
    with Solver(name="cadical195", bootstrap_with=e.cnf.clauses) as s:
        s.solve()
""" % (SEEDS,)


def timed(cmd: list[str], cwd: Path | None = None, env: dict | None = None, out=subprocess.DEVNULL) -> dict:
    """Wall and CPU seconds (the command's whole process tree that it waited for) and peak memory."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")[-300:]
    return {"wall": round(wall, 3), "cpu": round(usage.ru_utime + usage.ru_stime, 3),
            "max_rss_mb": round(usage.ru_maxrss / 1024, 1), "exit": p.returncode, "stderr": text}


def pairs(a: list[str], b: list[str], n: int, key: str = "wall", **kw) -> dict:
    """``n`` pairs of the two commands, the order shuffled in each; each pair's ratio a/b."""
    rng, out = random.Random(50), []
    for _ in range(n):
        first = rng.random() < 0.5
        ra, rb = (timed(a, **kw), timed(b, **kw)) if first else tuple(reversed((timed(b, **kw), timed(a, **kw))))
        out.append({"a": ra, "b": rb, "ratio": round(ra[key] / rb[key], 3)})
    ratios = [p["ratio"] for p in out]
    return {"pairs": out, "key": key, "median": statistics.median(ratios), "low": min(ratios), "high": max(ratios)}


def satedge(python: str) -> list[str]:
    return [python, "-m", "satedge"]


def env_for(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root)}


def measure() -> list[dict]:
    py = sys.executable
    bench = Path(os.environ.get("SATEDGE_BENCHMARKS", ROOT.parent / "shared" / "benchmarks"))
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rows += _overhead(py, tmp)
        rows += _encode(py, tmp, bench)
        rows += _enumerate(py, tmp)
        rows += _crosscheck(py)
        rows += _backtrack(py)
    return rows


def _overhead(py: str, tmp: Path) -> list[dict]:
    spec, loop = tmp / "forty.yaml", tmp / "loop.py"
    spec.write_text(SPEC)
    loop.write_text(LOOP)
    run = satedge(py) + ["run", str(spec), "--workers", "1", "--out", str(tmp / "o")]
    clean = ["rm", "-rf", str(tmp / "o")]
    wrap = lambda cmd: ["sh", "-c", " ".join(clean) + " && exec " + " ".join(cmd)]  # noqa: E731
    return [{"target": "overhead", "against": "loop", **pairs(wrap(run), [py, str(loop)], 5, env=env_for(ROOT))}]


def _encode(py: str, tmp: Path, bench: Path) -> list[dict]:
    src = bench / "heule2008" / "encoder" / "em-encode.c"
    if not src.exists() or shutil.which("gcc") is None:
        return [{"target": "encode", "skipped": f"no {src} or no gcc"}]
    exe = tmp / "em-encode-all"
    subprocess.run(["gcc", str(src), "-std=c99", "-O2", "-DPAIRWISE", "-DATMOSTONE", "-DFBCOLORS", "-o", str(exe)],
                   check=True, capture_output=True)
    import yaml  # Heule's .txt: no hints, then N E S W per tile (frame 0), as e2.yaml lists them

    tiles = yaml.safe_load((ROOT / "puzzles" / "eternity2" / "e2.yaml").read_text())["tiles"]
    txt = tmp / "e2.txt"
    txt.write_text("0\n" + "".join(" ".join(str(x) for x in t) + "\n" for t in tiles))
    ours = satedge(py) + ["encode", "puzzles/eternity2/e2.yaml", "--encoding", "heule2008-all", "-o", str(tmp / "e2.cnf")]
    c = ["sh", "-c", f"exec {exe} {txt} > {tmp / 'e2-c.cnf'}"]
    row = {"target": "encode", "against": "heule-c", **pairs(ours, c, 5, key="cpu", cwd=ROOT, env=env_for(ROOT))}
    row["sha256"] = hashlib.sha256((tmp / "e2.cnf").read_bytes()).hexdigest()
    row["c_clauses"] = sum(1 for line in open(tmp / "e2-c.cnf") if line[:1] not in ("c", "p"))
    return [row]


def _enumerate(py: str, tmp: Path) -> list[dict]:
    rows = []
    for name, args in ENUM_PUZZLES.items():
        f = tmp / f"{name}.yaml"
        subprocess.run(satedge(py) + ["generate", "--rows", "4", "--matching", "complementary", *args, "-o", str(f)],
                       check=True, capture_output=True, env=env_for(ROOT))
        configs = ENUM_CONFIGS[:]
        random.Random(len(rows)).shuffle(configs)
        for solver, workers in configs:
            cmd = satedge(py) + ["count", str(f), "--method", "sat", "--mode", "solutions", "--solver", solver,
                                 "--workers", str(workers), "--json", "--timeout", "300"]
            t0 = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, env=env_for(ROOT))
            wall = time.perf_counter() - t0
            answer = json.loads(out.stdout) if out.returncode == 0 else {}
            rows.append({"target": "enumerate", "puzzle": name, "solver": solver, "workers": workers,
                         "wall": round(wall, 3), "solutions": answer.get("solutions"), "exit": out.returncode})
    return rows


def _crosscheck(py: str) -> list[dict]:
    cmd = satedge(py) + ["crosscheck", "--examples", "300", "--seed", "7", "--workers", "2", "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env_for(ROOT))
    wall = time.perf_counter() - t0
    last = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else {}
    return [{"target": "crosscheck", "code": "now", "wall": round(wall, 3), "exit": out.returncode,
             "checks": last.get("checks"), "mismatches": last.get("mismatches")}]


def _backtrack(py: str) -> list[dict]:
    rows = []
    boards = [f"puzzles/board-suite/7/{k}/board_0.yaml" for k in (8, 9)] + ["puzzles/eternity2/8x8.yaml"]
    for board in boards:
        timeout = "60"
        t0 = time.perf_counter()
        out = subprocess.run(satedge(py) + ["solve", board, "--method", "backtrack", "--workers", "1", "--json",
                                            "--timeout", timeout], capture_output=True, text=True, cwd=ROOT,
                             env=env_for(ROOT))
        wall = time.perf_counter() - t0
        answer = json.loads(out.stdout) if out.stdout.strip() else {}
        rows.append({"target": "backtrack", "puzzle": board, "status": answer.get("status"), "wall": round(wall, 3),
                     "nodes": answer.get("nodes"), "candidates": answer.get("candidates")})
    return rows


# ---------------------------------------------------------------------------- the report
def report(rows: list[dict], meta: dict) -> str:
    by = lambda target: [r for r in rows if r.get("target") == target]  # noqa: E731
    out = ["# Speed: issue 50's targets, each beside what it is compared with", "",
           f"Measured {meta['date']} on {meta['machine']} (2 cores, shared), one run of",
           f"`{meta['command']}` ({meta['minutes']:.0f} minutes); rows in `bench-speed-rows.jsonl`.",
           "Whole commands; a ratio is the median of pairs run in shuffled order (lowest to highest pair).", ""]
    out += ["## Per-run cost (target: a 40-run spec within 3 times a plain loop)", "",
            "| against | pairs | median ratio | range | satedge run (s) | other (s) |", "|---|---|---|---|---|---|"]
    for r in by("overhead"):
        a = statistics.median(p["a"]["wall"] for p in r["pairs"])
        b = statistics.median(p["b"]["wall"] for p in r["pairs"])
        out.append(f"| {r['against']} | {len(r['pairs'])} | {r['median']:.2f} | {r['low']:.2f} to {r['high']:.2f} "
                   f"| {a:.2f} | {b:.2f} |")
    out += ["", "## Eternity II, heule2008-all (target: within 3 times the C encoder's CPU, under 300 MB, same bytes)",
            ""]
    for r in by("encode"):
        if "skipped" in r:
            out.append(f"Skipped: {r['skipped']}.")
        elif r["against"] == "heule-c":
            cpu_a = statistics.median(p["a"]["cpu"] for p in r["pairs"])
            cpu_b = statistics.median(p["b"]["cpu"] for p in r["pairs"])
            rss = max(p["a"]["max_rss_mb"] for p in r["pairs"])
            out.append(f"satedge encode: {cpu_a:.2f} s CPU (median of {len(r['pairs'])}), at most {rss:.0f} MB; "
                       f"Heule's C encoder: {cpu_b:.2f} s. Ratio {r['median']:.2f} ({r['low']:.2f} to "
                       f"{r['high']:.2f}). The file's sha256 `{r['sha256'][:16]}...`; the C encoder wrote "
                       f"{r['c_clauses']:,} clauses.")
    out += ["", "## Enumeration (target: 15,432 solutions at 3,000/s or more on 2 workers, 1.6 times 1 worker)", "",
            "| puzzle | solver | workers | solutions | seconds | solutions/s |", "|---|---|---|---|---|---|"]
    for r in sorted(by("enumerate"), key=lambda r: (r["puzzle"], r["solver"], r["workers"])):
        rate = f"{r['solutions'] / r['wall']:,.0f}" if r["solutions"] else "-"
        out.append(f"| {r['puzzle']} | `{r['solver']}` | {r['workers']} | {r['solutions'] or '-'} | {r['wall']:.1f} "
                   f"| {rate} |")
    out += ["", "## Cross-check (target: 300 examples in under 20 s on 2 workers)", "",
            "| code | seconds | checks | mismatches |", "|---|---|---|---|"]
    for r in by("crosscheck"):
        out.append(f"| {r['code']} | {r['wall']:.1f} | {r['checks']} | {r['mismatches']} |")
    out += ["", "## Backtracker (one core; target: Owen's 8x8 under 5 minutes on 2 cores, 1.5 times the "
            "placements per second)", "", "| board | status | seconds | nodes | nodes/s |", "|---|---|---|---|---|"]
    for r in by("backtrack"):
        rate = f"{r['nodes'] / r['wall'] / 1e6:.1f} M" if r["nodes"] else "-"
        out.append(f"| `{r['puzzle']}` | {r['status']} | {r['wall']:.1f} | {r['nodes'] or 0:,} | {rate} |")
    out += ["", meta.get("notes", "").rstrip(), ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--report", action="store_true", help="write the report from the committed rows")
    args = ap.parse_args()
    if args.report:
        lines = ROWS.read_text().splitlines()
        meta, rows = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    else:
        t0 = time.time()
        rows = measure()
        meta = {"meta": True, "date": str(date.today()), "machine": f"{platform.machine()} {os.cpu_count()} cores",
                "command": "python experiments/bench-speed.py",
                "minutes": (time.time() - t0) / 60, "notes": ""}
        ROWS.write_text("\n".join(json.dumps(x) for x in [meta] + rows) + "\n")
    REPORT.write_text(report(rows, meta))


if __name__ == "__main__":
    main()
