"""The backtracker's search loop: the C loop written per cell order (satedge.backtrack.native)
against numba's loop it replaces where a C compiler is found (``CC=`` empty: numba's), side by
side in one run, pairs in shuffled order:

* placements per CPU second of the loop, on Owen's 8x8 (set 1) and board-suite 7x7 and 8x8
  boards, each loop searching the same tree (the count's) for a few seconds;
* the counts of board-suite 7x7 boards, whole ``satedge count`` commands, one worker;
* the speed-up from 1 to 2 workers, the count of a board-suite 8x8 with the C loop (about ten
  seconds on one core), on this machine and on Dask clusters of 1 and 2 single-threaded workers;
* Owen's 8x8 on 2 workers, 10 shuffled tile orders (``--shuffle 1`` to ``10``), time to a first
  solution under a time limit.

    python benchmarks/search/bench-search.py              # writes bench-search-rows.jsonl and .md
    python benchmarks/search/bench-search.py --report     # the report again from the rows
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the harness the benchmarks share
import harness  # noqa: E402

ROOT = HERE.parents[1]
ROWS = HERE / "bench-search-rows.jsonl"
REPORT = HERE / "bench-search.md"
OWEN = "eternity2/8x8"
RATE_BOARDS = [
    OWEN,
    "board-suite/7/8/board_0",
    "board-suite/7/8/board_2",
    "board-suite/8/9/board_0",
    "board-suite/8/11/board_0",
]  # count trees of seconds at least (a 7x7 of 9 or 10 colours: less)
COUNT_BOARDS = [f"board-suite/7/8/board_{k}" for k in (0, 1, 2)]
SPEEDUP_BOARD = "board-suite/8/10/board_0"  # a count of about 10 s on one core: long enough for 2 to pay
SHUFFLES = range(1, 11)
OWEN_TIMEOUT = 240  # seconds per shuffled order: ten of them (40 minutes at most) fit the 45 with the rest
RATE_SECONDS = 6
PAIRS = 2
LOOPS = {"numba": "", "c": "cc"}  # $CC of each loop: empty, no compiler: numba's

# the loop's placements per CPU second: the count's tree (one solution per board-turn orbit) for
# RATE_SECONDS, after the loop is loaded (and the C one compiled)
RATE = """import json, sys, time
from satedge.backtrack import search as backtrack
from satedge.puzzle.formats import load_puzzle

class Enough(Exception):
    pass

def search(seconds):
    cost, cpu0, wall0 = backtrack.Cost(), time.process_time(), time.perf_counter()

    def paused(c=None):  # called between solutions, and about every second without one
        if time.perf_counter() - wall0 >= seconds:
            raise Enough

    try:
        for _ in backtrack.weighted(p, compiled=True, allowed=allowed, cost=cost, paused=paused):
            paused()
    except Enough:
        pass
    return {"nodes": cost.nodes, "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0}

p = load_puzzle(sys.argv[1])
allowed = backtrack.symmetry_broken(p)[0]
search(0)  # the loop loaded (and the C one compiled): a second at most
print(json.dumps(search(float(sys.argv[2]))))
"""


def satedge() -> list[str]:
    return [sys.executable, "-m", "satedge"]


def run(cmd: list[str], cc: str, timeout: float | None = None) -> dict:
    """A whole command with ``$CC`` set: its wall seconds and its JSON answer."""
    env = {**os.environ, "CC": cc, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    out, err = proc.communicate(timeout=timeout)
    wall = time.perf_counter() - t0
    answer = json.loads(out.splitlines()[-1]) if proc.returncode in (0, 1, 3) and out.strip() else {}
    return {
        "wall": round(wall, 3),
        "exit": proc.returncode,
        "answer": answer,
        **({"error": err.strip()[-300:]} if proc.returncode not in (0, 1, 3) else {}),
    }


def measure() -> list[dict]:
    rng, rows = random.Random(70), []
    # satedge's byte code written once, as an installed wheel has it: where the environment says
    # not to write it (PYTHONDONTWRITEBYTECODE), every command would compile the modules it imports
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "satedge")], check=True)
    for board in [
        OWEN,
        *RATE_BOARDS,
        *COUNT_BOARDS,
        SPEEDUP_BOARD,
    ]:  # compile every C loop once, before anything is timed
        run([sys.executable, "-c", RATE, board, "0.1"], "cc")
    for rep in range(PAIRS):
        for board in RATE_BOARDS:
            for loop in sorted(LOOPS, key=lambda _: rng.random()):
                r = run([sys.executable, "-c", RATE, board, str(RATE_SECONDS)], LOOPS[loop])
                rows.append(
                    {
                        "kind": "rate",
                        "puzzle": board,
                        "loop": loop,
                        "rep": rep,
                        **r["answer"],
                        "exit": r["exit"],
                    }
                )
    for rep in range(PAIRS):
        for board in COUNT_BOARDS:
            for loop in sorted(LOOPS, key=lambda _: rng.random()):
                r = run(
                    satedge() + ["count", board, "--method", "backtrack", "--workers", "1", "--json"],
                    LOOPS[loop],
                )
                rows.append(
                    {"kind": "count", "puzzle": board, "loop": loop, "rep": rep, "workers": 1, **_count(r)}
                )
    rows += speedup(rng)
    for seed in SHUFFLES:
        r = run(
            satedge()
            + [
                "solve",
                OWEN,
                "--method",
                "backtrack",
                "--workers",
                "2",
                "--shuffle",
                str(seed),
                "--timeout",
                str(OWEN_TIMEOUT),
                "--json",
            ],
            "cc",
        )
        a = r["answer"]
        rows.append(
            {
                "kind": "owen",
                "puzzle": OWEN,
                "loop": "c",
                "shuffle": seed,
                "workers": 2,
                "wall": r["wall"],
                "exit": r["exit"],
                "status": a.get("status"),
                "seconds": a.get("seconds"),
                "nodes": a.get("nodes"),
                "placements_per_second": a.get("placements_per_second"),
                "solution": a.get("solution"),
            }
        )
    return rows


def speedup(rng: random.Random) -> list[dict]:
    """The count of SPEEDUP_BOARD on 1 and 2 workers, here and on Dask clusters of 1 and of 2
    single-threaded workers, PAIRS rounds, each round's four commands in shuffled order."""
    from dask.distributed import LocalCluster

    rows = []
    base = satedge() + ["count", SPEEDUP_BOARD, "--method", "backtrack", "--json"]
    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as one,
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as two,
    ):
        runs = {
            ("here", 1): [],
            ("here", 2): [],
            ("dask", 1): ["--scheduler", one.scheduler_address],
            ("dask", 2): ["--scheduler", two.scheduler_address],
        }
        for rep in range(PAIRS):
            for where, workers in sorted(runs, key=lambda _: rng.random()):
                r = run(base + ["--workers", str(workers), *runs[where, workers]], "cc")
                rows.append(
                    {
                        "kind": "workers",
                        "puzzle": SPEEDUP_BOARD,
                        "loop": "c",
                        "where": where,
                        "workers": workers,
                        "rep": rep,
                        **_count(r),
                    }
                )
    return rows


def _count(r: dict) -> dict:
    a = r["answer"]
    return {
        "wall": r["wall"],
        "exit": r["exit"],
        "solutions": a.get("solutions"),
        "nodes": a.get("nodes"),
        "seconds": a.get("seconds"),
        "placements_per_second": a.get("placements_per_second"),
    }


# ---------------------------------------------------------------------------- the report
def _ratio(pairs: list[tuple[float, float]]) -> str:
    """The median of the pairs' ratios, and their range."""
    ratios = sorted(b / a for a, b in pairs)
    return f"{statistics.median(ratios):.2f} ({ratios[0]:.2f} to {ratios[-1]:.2f}, {len(ratios)} pairs)"


def _by_loop(rows: list[dict], board: str, value) -> dict[str, list[float]]:
    """``value`` of each row of ``board``, by loop, in the rows' order (so pairs line up)."""
    return {loop: [value(r) for r in rows if r["puzzle"] == board and r["loop"] == loop] for loop in LOOPS}


def _grid(solution: list[dict]) -> list[str]:
    """A solution (``--json``'s cells) as a table of ``tile/turns``, a row of the board a row."""
    rows, cols = 1 + max(c["row"] for c in solution), 1 + max(c["col"] for c in solution)
    cell = {(c["row"], c["col"]): f"{c['tile']}/{c['rotation']}" for c in solution}
    return [
        "| row | " + " | ".join(f"col {c}" for c in range(cols)) + " |",
        "|---" * (cols + 1) + "|",
        *(f"| {r} | " + " | ".join(cell[r, c] for c in range(cols)) + " |" for r in range(rows)),
    ]


def _median(times: list[float]) -> str:
    """The median of the sorted ``times`` (``inf``: not solved within :data:`OWEN_TIMEOUT`), or what
    is known of it."""
    if not times:
        return "none"
    median = statistics.median(times)
    if median != float("inf"):
        return f"{median:.0f} s"
    k = len(times) // 2
    if len(times) % 2 or times[k - 1] == float("inf"):
        return f"over {OWEN_TIMEOUT} s (fewer than half solved)"
    low = times[k - 1]  # an even count, exactly half solved: the median is (low + the next) / 2
    return (
        f"over {(low + OWEN_TIMEOUT) / 2:.0f} s and not known: half solved, the last of them in {low:.0f} s; it is "
        f"at most 300 s if the next order would have solved within {600 - low:.0f} s"
    )


def report(rows: list[dict], meta: dict) -> str:
    out = [
        "# The backtracker's search loop: C written per cell order against numba's",
        "",
        f"Measured {meta['date']} on {meta['machine']} (2 cores, shared), one run of `{meta['command']}` "
        f"({meta['minutes']:.0f} minutes); rows in `bench-search-rows.jsonl`. A placement is a tile put in a "
        "cell in one turn that fits its placed neighbours (the search tree's nodes, as `--json` gives them). "
        "Ratios are medians of pairs run in shuffled order, with their range.",
        "",
    ]
    rate = [r for r in rows if r["kind"] == "rate"]
    out += [
        "## Placements per CPU second (target: 100 million on Owen's 8x8)",
        "",
        f"Each loop searches the count's tree of the board for {RATE_SECONDS} s (or the whole tree, where it "
        "ends sooner), in one process, after it is loaded (and the C one compiled).",
        "",
        "| board | numba (M/s) | C (M/s) | C / numba |",
        "|---|---|---|---|",
    ]
    for board in dict.fromkeys(r["puzzle"] for r in rate):
        speed = _by_loop(rate, board, lambda r: r["nodes"] / r["cpu"])
        out.append(
            f"| `{board}` | {statistics.median(speed['numba']) / 1e6:.1f} | "
            f"{statistics.median(speed['c']) / 1e6:.1f} | {_ratio(list(zip(speed['numba'], speed['c'])))} |"
        )
    count = [r for r in rows if r["kind"] == "count"]
    out += [
        "",
        "## Counts of board-suite 7x7 boards, one worker (target: 2.5 times faster)",
        "",
        "Whole `satedge count BOARD --method backtrack --workers 1 --json` commands (satedge's byte code "
        "compiled first, as an installed wheel has it).",
        "",
        "| board | solutions | placements | numba (s) | C (s) | numba / C |",
        "|---|---|---|---|---|---|",
    ]
    for board in dict.fromkeys(r["puzzle"] for r in count):
        wall = _by_loop(count, board, lambda r: r["wall"])
        first = next(r for r in count if r["puzzle"] == board and r["loop"] == "c")
        out.append(
            f"| `{board}` | {first['solutions']:,} | {first['nodes']:,} | {statistics.median(wall['numba']):.2f} "
            f"| {statistics.median(wall['c']):.2f} | {_ratio(list(zip(wall['c'], wall['numba'])))} |"
        )
    workers = [r for r in rows if r["kind"] == "workers"]
    counted = next((r for r in workers if r["nodes"]), None)
    out += [
        "",
        "## From 1 to 2 workers (the C loop)",
        "",
        f"`satedge count {SPEEDUP_BOARD} --method backtrack --workers N --json`, whole commands, here (the tree "
        "cut where it has 256 subtrees per worker, each handed to whichever worker is idle; once none is left, a "
        "busy worker hands back the rest of its subtree split for the idle one) and with `--scheduler` on Dask "
        "clusters of N single-threaded worker processes on this machine (a share of subtrees per core, each task "
        "a process of its own that hands back what is left after 8 s of search, split for the cores that wait)"
        + (
            f"; {counted['solutions']:,} solution{'s' * (counted['solutions'] != 1)}, {counted['nodes']:,} "
            "placements"
            if counted
            else ""
        )
        + ". Speed-up: the median of the rounds' ratios, with their range.",
        "",
        "| where | 1 worker (s) | 2 workers (s) | speed-up |",
        "|---|---|---|---|",
    ]
    for where in dict.fromkeys(r["where"] for r in workers):
        wall = {k: [r["wall"] for r in workers if r["where"] == where and r["workers"] == k] for k in (1, 2)}
        out.append(
            f"| {where} | {statistics.median(wall[1]):.2f} | {statistics.median(wall[2]):.2f} | "
            f"{_ratio(list(zip(wall[2], wall[1])))} |"
        )
    owen = [r for r in rows if r["kind"] == "owen"]
    solved = sorted(r["wall"] for r in owen if r["status"] == "SAT")
    times = sorted(r["wall"] if r["status"] == "SAT" else float("inf") for r in owen)
    said = _median(times)
    out += [
        "",
        "## Owen's 8x8 on 2 workers, 10 shuffled tile orders (target: median first solution at most 300 s)",
        "",
        f"`satedge solve {OWEN} --method backtrack --workers 2 --shuffle S --timeout {OWEN_TIMEOUT} --json`: "
        f"{len(solved)} of {len(owen)} solved within {OWEN_TIMEOUT} s; median time to a first solution: {said}.",
        "",
        "| shuffle | status | seconds | placements | placements/s |",
        "|---|---|---|---|---|",
    ]
    for r in owen:
        out.append(
            f"| {r['shuffle']} | {r['status']} | {r['wall']:.1f} | {r['nodes'] or 0:,} | "
            f"{(r['placements_per_second'] or 0) / 1e6:.1f} M |"
        )
    again = [r for r in rows if r["kind"] == "owen-again"]
    if again:
        first = {r["shuffle"]: r["wall"] for r in owen if r["status"] == "SAT"}
        first.update({r["shuffle"]: r["wall"] for r in again if r["status"] == "SAT"})
        both = sorted(first.get(r["shuffle"], float("inf")) for r in owen)
        out += [
            "",
            f"The orders not solved within {OWEN_TIMEOUT} s, run again after this run (the same code, the same "
            f"day, the same command with `--timeout {again[0]['timeout']}`, the time that decides whether the "
            "median is at most 300 s), one after another until one solved (two workers share the tree as they "
            "become idle, so a run again is a draw of its own):",
            "",
            "| shuffle | status | seconds | placements | placements/s |",
            "|---|---|---|---|---|",
        ]
        out += [
            f"| {r['shuffle']} | {r['status']} | {r['wall']:.1f} | {r['nodes'] or 0:,} | "
            f"{(r['placements_per_second'] or 0) / 1e6:.1f} M |"
            for r in again
        ]
        out += [
            "",
            f"With these, {len(first)} of {len(owen)} orders found a first solution, and the median over the "
            f"{len(owen)} is **{_median(both)}** (the {len(owen) // 2}th and {len(owen) // 2 + 1}th fastest: "
            f"{both[len(owen) // 2 - 1]:.1f} and {both[len(owen) // 2]:.1f} s; the orders not run again could "
            "only make it smaller).",
        ]
    for r in [*owen, *again]:
        if r["status"] == "SAT":
            out += [
                "",
                f"The first solution of shuffle {r['shuffle']}, tile/quarter turns per cell (the tiles and "
                "turns of `--json`; row 0 on top; `tests/test_bench_search.py` checks it against the puzzle):",
                "",
                *_grid(r["solution"]),
            ]
    if meta.get("notes"):
        out += ["", "## Notes", "", meta["notes"]]
    return "\n".join(out) + "\n"


def _measured(args) -> list[dict]:
    if shutil.which(os.environ.get("CC") or "cc") is None:
        sys.exit("bench-search: no C compiler (cc or $CC): nothing to compare")
    return measure()


if __name__ == "__main__":
    sys.exit(harness.main(__doc__, REPORT, report, _measured, ROWS))
