"""What a run, an encoding, the backtracker and enumeration cost, each beside what it is compared
with in one run (whole commands):

* per-run cost: a 40-run spec (the four seed puzzles x 10, edgecolor-corners, CaDiCaL, one
  worker) against a plain Python loop that loads, encodes and solves the same runs;
* Eternity II with heule2008-all: `satedge encode` against Heule's C encoder (compiled from
  $SATEDGE_BENCHMARKS/heule2008/encoder), CPU seconds and peak memory, and the same bytes;
* the backtracker against the code before its search changed (commit BASE, checked out in a
  temporary worktree): placements per second on the same tree (the row order) on board-suite
  7x7 boards, the tree to a first solution before (row order) and after (the chosen order) on
  7x7 and 8x8 boards, and Owen's 8x8 on 2 workers;
* `satedge crosscheck --examples 300 --seed 7 --workers 2`;
* enumeration rates, blocking against subspaces, 1 and 2 workers, on generated 4x4
  complementary puzzles with 10^3 and 10^4 solutions; and blocking with the board-turn
  symmetry broken (edgecolor-corners-sym: a model per four solutions).

The code before each change was measured beside it when the change was made (the figures the
report's notes quote).

    python benchmarks/speed/bench-speed.py                       # writes bench-speed-rows.jsonl and .md
    python benchmarks/speed/bench-speed.py --report              # the report again from the rows
    python benchmarks/speed/bench-speed.py --only backtrack      # measure one target again, keep the rest
"""

from __future__ import annotations

import hashlib
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
ROWS = HERE / "bench-speed-rows.jsonl"
REPORT = HERE / "bench-speed.md"
SEEDS = ["hunde-spiel", "insects", "one-tough-puzzle", "scramble-squares"]
ENUM_PUZZLES = {"4x4-4800": ["--colors", "4", "--seed", "8"], "4x4-15432": ["--colors", "3", "--seed", "9"]}
BASE = "44d3b6c"  # the backtracker before its search orders, distinct turns and bit-mask loop
SAME_TREE = [f"puzzles/board-suite/7/8/board_{k}.yaml" for k in range(5)] + [
    f"puzzles/board-suite/7/{c}/board_{k}.yaml" for c in (9, 10) for k in (0, 1)
]
FIRST = [f"puzzles/board-suite/7/{c}/board_{k}.yaml" for c in (8, 9, 10) for k in (0, 1)] + [
    f"puzzles/board-suite/8/{c}/board_0.yaml" for c in (10, 11, 12)
]
# the loop's placements per second: every solution of a board, compiled, in the row order, timed
# in the process after the compiled loop is loaded (the code before has no orders: its only one)
RATE = """import json, sys, time
from satedge.backtrack import search as backtrack
from satedge.puzzle.formats import load_puzzle
extra = {"order": "rows"} if "order" in backtrack.solutions.__code__.co_varnames else {}
next(backtrack.solutions(load_puzzle(sys.argv[2]), compiled=True, **extra))
cost, t0 = backtrack.Cost(), time.perf_counter()
n = sum(1 for _ in backtrack.solutions(load_puzzle(sys.argv[1]), compiled=True, cost=cost, **extra))
print(json.dumps({"solutions": n, "nodes": cost.nodes, "seconds": time.perf_counter() - t0}))
"""
OWEN = "puzzles/eternity2/8x8.yaml"
ENUM_ENCODING = "edgecolor-corners"  # count's default
# (solver, workers, encoding); edgecolor-corners-sym breaks the board-turn symmetry: a model
# stands for the four turns of a solution
ENUM_CONFIGS = [
    (solver, workers, ENUM_ENCODING)
    for solver in ("cadical195", "minisat22", "minisat22:enumeration=subspaces")
    for workers in (1, 2)
] + [
    (solver, workers, "edgecolor-corners-sym") for solver in ("cadical195", "minisat22") for workers in (1, 2)
]
SPEC = """name: forty
puzzles: [hunde-spiel, insects, one-tough-puzzle, scramble-squares]
encodings: [edgecolor-corners]
solvers: [cadical195]
task: solve
repeat: 10
"""
LOOP = f"""import sys, time
from pysat.solvers import Solver
from satedge.puzzle.formats import load_puzzle
from satedge.encode import Encoding
for name in {SEEDS!r} * 10:
    e = Encoding.of("edgecolor-corners").encode(load_puzzle(name))
    with Solver(name="cadical195", bootstrap_with=e.cnf.clauses) as s:
        s.solve()
"""


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
    return {
        "wall": round(wall, 3),
        "cpu": round(usage.ru_utime + usage.ru_stime, 3),
        "max_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "exit": p.returncode,
        "stderr": text,
    }


def pairs(a: list[str], b: list[str], n: int, key: str = "wall", **kw) -> dict:
    """``n`` pairs of the two commands, the order shuffled in each; each pair's ratio a/b."""
    rng, out = random.Random(50), []
    for _ in range(n):
        first = rng.random() < 0.5
        ra, rb = (
            (timed(a, **kw), timed(b, **kw)) if first else tuple(reversed((timed(b, **kw), timed(a, **kw))))
        )
        out.append({"a": ra, "b": rb, "ratio": round(ra[key] / rb[key], 3)})
    ratios = [p["ratio"] for p in out]
    return {
        "pairs": out,
        "key": key,
        "median": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
    }


def satedge(python: str) -> list[str]:
    return [python, "-m", "satedge"]


def env_for(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root)}


TARGETS = ("overhead", "encode", "enumerate", "crosscheck", "backtrack")


def measure(only: list[str]) -> list[dict]:
    py = sys.executable
    bench = Path(os.environ.get("SATEDGE_BENCHMARKS", ROOT.parent / "shared" / "benchmarks"))
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if "overhead" in only:
            rows += _overhead(py, tmp)
        if "encode" in only:
            rows += _encode(py, tmp, bench)
        if "enumerate" in only:
            rows += _enumerate(py, tmp)
        if "crosscheck" in only:
            rows += _crosscheck(py)
        if "backtrack" in only:
            rows += _backtrack(py, tmp)
    return rows


def _overhead(py: str, tmp: Path) -> list[dict]:
    spec, loop = tmp / "forty.yaml", tmp / "loop.py"
    spec.write_text(SPEC)
    loop.write_text(LOOP)
    run = satedge(py) + ["run", str(spec), "--workers", "1", "--out", str(tmp / "o")]
    clean = ["rm", "-rf", str(tmp / "o")]

    def wrap(cmd):
        return ["sh", "-c", " ".join(clean) + " && exec " + " ".join(cmd)]

    return [
        {"target": "overhead", "against": "loop", **pairs(wrap(run), [py, str(loop)], 5, env=env_for(ROOT))}
    ]


def _encode(py: str, tmp: Path, bench: Path) -> list[dict]:
    src = bench / "heule2008" / "encoder" / "em-encode.c"
    if not src.exists() or shutil.which("gcc") is None:
        return [{"target": "encode", "skipped": f"no {src} or no gcc"}]
    exe = tmp / "em-encode-all"
    subprocess.run(
        ["gcc", str(src), "-std=c99", "-O2", "-DPAIRWISE", "-DATMOSTONE", "-DFBCOLORS", "-o", str(exe)],
        check=True,
        capture_output=True,
    )
    import yaml  # Heule's .txt: no hints, then N E S W per tile (frame 0), as e2.yaml lists them

    tiles = yaml.safe_load((ROOT / "puzzles" / "eternity2" / "e2.yaml").read_text())["tiles"]
    txt = tmp / "e2.txt"
    txt.write_text("0\n" + "".join(" ".join(str(x) for x in t) + "\n" for t in tiles))
    ours = satedge(py) + [
        "encode",
        "puzzles/eternity2/e2.yaml",
        "--encoding",
        "heule2008-all",
        "-o",
        str(tmp / "e2.cnf"),
    ]
    c = ["sh", "-c", f"exec {exe} {txt} > {tmp / 'e2-c.cnf'}"]
    row = {
        "target": "encode",
        "against": "heule-c",
        **pairs(ours, c, 5, key="cpu", cwd=ROOT, env=env_for(ROOT)),
    }
    row["sha256"] = hashlib.sha256((tmp / "e2.cnf").read_bytes()).hexdigest()
    row["c_clauses"] = sum(1 for line in open(tmp / "e2-c.cnf") if line[:1] not in ("c", "p"))
    return [row]


def _enumerate(py: str, tmp: Path) -> list[dict]:
    rows = []
    for name, args in ENUM_PUZZLES.items():
        f = tmp / f"{name}.yaml"
        subprocess.run(
            satedge(py) + ["generate", "--rows", "4", "--matching", "complementary", *args, "-o", str(f)],
            check=True,
            capture_output=True,
            env=env_for(ROOT),
        )
        configs = ENUM_CONFIGS[:]
        random.Random(len(rows)).shuffle(configs)
        for solver, workers, encoding in configs:
            cmd = satedge(py) + [
                "count",
                str(f),
                "--method",
                "sat",
                "--mode",
                "solutions",
                "--solver",
                solver,
                "--encoding",
                encoding,
                "--workers",
                str(workers),
                "--json",
                "--timeout",
                "300",
            ]
            t0 = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, env=env_for(ROOT))
            wall = time.perf_counter() - t0
            answer = json.loads(out.stdout) if out.returncode == 0 else {}
            rows.append(
                {
                    "target": "enumerate",
                    "puzzle": name,
                    "encoding": encoding,
                    "solver": solver,
                    "workers": workers,
                    "wall": round(wall, 3),
                    "solutions": answer.get("solutions"),
                    "models": answer.get("models"),
                    "exit": out.returncode,
                }
            )
    return rows


def _crosscheck(py: str) -> list[dict]:
    cmd = satedge(py) + ["crosscheck", "--examples", "300", "--seed", "7", "--workers", "2", "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env_for(ROOT))
    wall = time.perf_counter() - t0
    last = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else {}
    return [
        {
            "target": "crosscheck",
            "code": "now",
            "wall": round(wall, 3),
            "exit": out.returncode,
            "checks": last.get("checks"),
            "mismatches": last.get("mismatches"),
        }
    ]


def _answer(cmd: list[str], root: Path) -> dict:
    """A satedge command's JSON answer and its wall seconds, run from the code at ``root``."""
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=root, env=env_for(root))
    wall = time.perf_counter() - t0
    answer = json.loads(out.stdout) if out.stdout.strip() else {"status": f"exit {out.returncode}"}
    return {
        "status": answer.get("status", "counted" if "solutions" in answer else None),
        "wall": round(wall, 3),
        "seconds": answer.get("seconds"),
        "nodes": answer.get("nodes"),
        "solutions": answer.get("solutions"),
        "solver": answer.get("solver"),
    }


def _backtrack(py: str, tmp: Path) -> list[dict]:
    """The code before (``BASE``) and now, side by side, each pair in shuffled order."""
    base = tmp / "base"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(base), BASE], cwd=ROOT, check=True, capture_output=True
    )
    try:
        return _backtrack_pairs(py, base)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)


def _backtrack_pairs(py: str, base: Path) -> list[dict]:
    rng, rows = random.Random(3), []
    codes = {"before": base, "now": ROOT}
    for root in codes.values():  # numba compiles each loop once, into the tree's cache
        _answer(
            satedge(py)
            + ["count", str(ROOT / "puzzles/hunde-spiel.yaml"), "--method", "backtrack", "--json"],
            root,
        )
        _answer(satedge(py) + ["solve", str(ROOT / SAME_TREE[0]), "--method", "backtrack", "--json"], root)
    for board in SAME_TREE:  # the whole tree of the row order: placements per second of the loop
        for rep in range(3):
            for code in sorted(codes, key=lambda _: rng.random()):
                cmd = [py, "-c", RATE, str(ROOT / board), str(ROOT / SAME_TREE[-1])]
                rows.append(
                    {
                        "target": "backtrack",
                        "kind": "same-tree",
                        "puzzle": board,
                        "code": code,
                        "rep": rep,
                        **_answer(cmd, codes[code]),
                    }
                )
    for board in FIRST:  # the first solution: the tree before (row order) and now (the chosen order)
        for code in sorted(codes, key=lambda _: rng.random()):
            root = codes[code]
            cmd = satedge(py) + [
                "solve",
                str(ROOT / board),
                "--method",
                "backtrack",
                "--workers",
                "1",
                "--json",
                "--timeout",
                "60",
            ]
            rows.append(
                {"target": "backtrack", "kind": "first", "puzzle": board, "code": code, **_answer(cmd, root)}
            )
    for code in sorted(codes, key=lambda _: rng.random()):  # Owen's 8x8 on 2 workers
        root = codes[code]
        cmd = satedge(py) + [
            "solve",
            str(ROOT / OWEN),
            "--method",
            "backtrack",
            "--workers",
            "2",
            "--json",
            "--timeout",
            "300",
        ]
        rows.append(
            {"target": "backtrack", "kind": "owen", "puzzle": OWEN, "code": code, **_answer(cmd, root)}
        )
    return rows


# ---------------------------------------------------------------------------- the report
def report(rows: list[dict], meta: dict) -> str:
    def by(target):
        return [r for r in rows if r.get("target") == target and "superseded" not in r]

    out = [
        "# What a run, an encoding, the backtracker and enumeration cost",
        "",
        f"Measured {meta['date']} on {meta['machine']} (2 cores, shared), one run of",
        f"`{meta['command']}` ({meta['minutes']:.0f} minutes); rows in `bench-speed-rows.jsonl`.",
        "Whole commands; a ratio is the median of pairs run in shuffled order (lowest to highest pair).",
        "",
    ]
    out += ["## Per-run cost (target: a 40-run spec within 3 times a plain loop)", ""]
    if "overhead" in meta:  # measured again alone, after the run above
        when = meta["overhead"]
        out += [
            f"Measured {when['date']}, `{when['command']}` ({when['minutes']:.0f} minutes); the row of "
            "an earlier run of the same measure, on the code of its day, below it.",
            "",
        ]
    out += [
        "| measured | against | pairs | median ratio | range | satedge run (s) | other (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    earlier = [r for r in rows if r.get("target") == "overhead" and "superseded" in r]
    for r in by("overhead") + earlier:
        a = statistics.median(p["a"]["wall"] for p in r["pairs"])
        b = statistics.median(p["b"]["wall"] for p in r["pairs"])
        day = r.get("superseded") or meta.get("overhead", meta)["date"]
        out.append(
            f"| {day} | {r['against']} | {len(r['pairs'])} | {r['median']:.2f} | {r['low']:.2f} to "
            f"{r['high']:.2f} | {a:.2f} | {b:.2f} |"
        )
    out += [
        "",
        "## Eternity II, heule2008-all (target: within 3 times the C encoder's CPU, under 300 MB, same bytes)",
        "",
    ]
    for r in by("encode"):
        if "skipped" in r:
            out.append(f"Skipped: {r['skipped']}.")
        elif r["against"] == "heule-c":
            cpu_a = statistics.median(p["a"]["cpu"] for p in r["pairs"])
            cpu_b = statistics.median(p["b"]["cpu"] for p in r["pairs"])
            rss = max(p["a"]["max_rss_mb"] for p in r["pairs"])
            out.append(
                f"satedge encode: {cpu_a:.2f} s CPU (median of {len(r['pairs'])}), at most {rss:.0f} MB; "
                f"Heule's C encoder: {cpu_b:.2f} s. Ratio {r['median']:.2f} ({r['low']:.2f} to "
                f"{r['high']:.2f}). The file's sha256 `{r['sha256'][:16]}...`; the C encoder wrote "
                f"{r['c_clauses']:,} clauses."
            )
    out += [
        "",
        "## Enumeration (target: 15,432 solutions at 3,000/s or more on 2 workers, 1.6 times 1 worker)",
        "",
    ]
    if "enumerate" in meta:  # measured again alone, after the run above
        when = meta["enumerate"]
        out += [f"Measured {when['date']}, `{when['command']}` ({when['minutes']:.0f} minutes).", ""]
    out += [
        "| puzzle | encoding | solver | workers | solutions | models | seconds | solutions/s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(by("enumerate"), key=lambda r: (r["puzzle"], r["encoding"], r["solver"], r["workers"])):
        rate = f"{r['solutions'] / r['wall']:,.0f}" if r["solutions"] else "-"
        out.append(
            f"| {r['puzzle']} | {r['encoding']} | `{r['solver']}` | {r['workers']} | {r['solutions'] or '-'} "
            f"| {r['models'] or '-'} | {r['wall']:.1f} | {rate} |"
        )
    out += [
        "",
        "## Cross-check (target: 300 examples in under 20 s on 2 workers)",
        "",
        "| code | seconds | checks | mismatches |",
        "|---|---|---|---|",
    ]
    for r in by("crosscheck"):
        out.append(f"| {r['code']} | {r['wall']:.1f} | {r['checks']} | {r['mismatches']} |")
    out += _backtrack_report(by("backtrack"), meta)
    out += ["", meta.get("notes", "").rstrip(), ""]
    return "\n".join(out)


def _backtrack_report(rows: list[dict], meta: dict) -> list[str]:
    when = meta.get("backtrack", meta)
    out = [
        "",
        "## Backtracker (target: Owen's 8x8 under 5 minutes on 2 cores, 1.5 times the placements per second)",
        "",
        f"Measured {when['date']}, `{when['command']}` ({when['minutes']:.0f} minutes), against the code "
        f"before the new search (commit `{BASE}`) in the same run.",
        "",
        "Placements per second on the row order's whole tree (every solution, one core, compiled, timed in "
        "the process once the compiled loop is loaded; median of 3, before and now in shuffled order). The "
        "tree is the same but where a tile looks the same under two turns: now it is tried in one.",
        "",
        "| board | nodes before | nodes now | before (M/s) | now (M/s) | now / before |",
        "|---|---|---|---|---|---|",
    ]
    same = [r for r in rows if r.get("kind") == "same-tree"]
    ratios = []
    for board in dict.fromkeys(r["puzzle"] for r in same):
        mine = {
            code: [r for r in same if r["puzzle"] == board and r["code"] == code]
            for code in ("before", "now")
        }
        rate = {
            code: statistics.median(r["nodes"] / r["seconds"] for r in runs) for code, runs in mine.items()
        }
        ratios.append(rate["now"] / rate["before"])
        out.append(
            f"| `{board}` | {mine['before'][0]['nodes']:,} | {mine['now'][0]['nodes']:,} | "
            f"{rate['before'] / 1e6:.1f} | {rate['now'] / 1e6:.1f} | {ratios[-1]:.2f} |"
        )
    if ratios:
        out += ["", f"Median ratio {statistics.median(ratios):.2f} ({min(ratios):.2f} to {max(ratios):.2f})."]
    out += [
        "",
        "The first solution, one core: the tree before (row order) and now (the order `auto` chooses, "
        "tiles' look-alike turns tried once):",
        "",
        "| board | before: nodes | seconds | now: nodes | seconds | nodes now / before |",
        "|---|---|---|---|---|---|",
    ]
    first = [r for r in rows if r.get("kind") == "first"]
    for board in dict.fromkeys(r["puzzle"] for r in first):
        b, n = ({r["code"]: r for r in first if r["puzzle"] == board}[c] for c in ("before", "now"))
        shrink = f"{n['nodes'] / b['nodes']:.3f}" if b["nodes"] and b["status"] == "SAT" else "-"
        out.append(
            f"| `{board}` | {b['nodes'] or 0:,} ({b['status']}) | {b['wall']:.1f} | {n['nodes'] or 0:,} "
            f"({n['status']}) | {n['wall']:.1f} | {shrink} |"
        )
    out += [
        "",
        "Owen's 8x8, 2 workers, 300 s:",
        "",
        "| code | status | seconds | nodes | nodes/s |",
        "|---|---|---|---|---|",
    ]
    for r in (r for r in rows if r.get("kind") == "owen"):
        out.append(
            f"| {r['code']} | {r['status']} | {r['wall']:.1f} | {r['nodes'] or 0:,} | "
            f"{(r['nodes'] or 0) / r['wall'] / 1e6:.1f} M |"
        )
    return out


def _options(parser) -> None:
    parser.add_argument(
        "--only",
        choices=TARGETS,
        action="append",
        help="measure this target again and keep the committed rows of the others",
    )


def _merge(args, meta: dict, committed: list[dict], fresh: list[dict], when: dict) -> tuple[dict, list[dict]]:
    """With ``--only``, the other targets keep their rows and the run that measured them; the
    target's own rows stay, marked with the day they were measured."""
    if not args.only:
        return {"meta": True, **when, "notes": ""}, fresh
    rows = [
        r
        if r.get("target") not in args.only or "superseded" in r
        else {**r, "superseded": meta.get(r["target"], meta)["date"]}
        for r in committed
    ] + fresh
    return {**meta, **{t: when for t in args.only}}, rows


if __name__ == "__main__":
    sys.exit(
        harness.main(
            __doc__,
            REPORT,
            report,
            lambda args: measure(args.only or list(TARGETS)),
            ROWS,
            _options,
            merge=_merge,
        )
    )
