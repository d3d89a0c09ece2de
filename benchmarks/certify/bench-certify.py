"""bench-certify: what a certified answer costs.  For each instance, whole commands as a user types
them (start-up included), in an order shuffled per instance:

* the plain command, `satedge count P --method sat --json --timeout 120` (`solve` for the uniform
  puzzles, which are usually unsolvable);
* the same with `--certify --proof DIR`, on one worker and on two (`--workers 2`: the proof
  checked in parts, those logged during the enumeration beside it, the rest on both workers
  after it), checked by dratify before the answer is printed; only where the plain command
  answered, under 4 times its time (at most 360 s);
* `satedge check-proof DIR --checker drup` (the verified checker) on the one-worker certificate
  of the seed puzzles and the planted 4x4 and 5x5, under 300 s.

Wall and CPU seconds (the command's whole process tree) of each.  Instances: the four seed
puzzles, planted framed puzzles from 4x4 to 7x7 (seed 1, and the 6x6 and 7x7 of seed 2), two
uniform random puzzles and two of Heule's instances.

    python benchmarks/certify/bench-certify.py            # writes bench-certify-rows.jsonl and .md
    python benchmarks/certify/bench-certify.py --report   # the report again from the rows
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
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
ROWS = HERE / "bench-certify-rows.jsonl"
REPORT = HERE / "bench-certify.md"
TIMEOUT, MOST, DRUP_TIMEOUT = 120, 360, 300
PLANTED = (
    (4, 4, 1, 1),
    (5, 5, 2, 1),
    (6, 6, 2, 1),
    (7, 9, 3, 1),
    (6, 6, 2, 2),
    (7, 9, 3, 2),
)  # rows, colours, border, seed
DRUP_ON = (
    "hunde-spiel",
    "insects",
    "scramble-squares",
    "one-tough-puzzle",
    "planted-4x4-c4-b1-s1",
    "planted-5x5-c5-b2-s1",
)


def instances(folder: Path) -> list[tuple[str, Path, str]]:
    """``(class, puzzle file, task)``, the generated ones written into ``folder``."""
    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    out = [("seed", ROOT / "puzzles" / f"{n}.yaml", "count") for n in DRUP_ON[:4]]
    for rows, colors, border, seed in PLANTED:
        p = generate(Params(rows=rows, colors=colors, border_colors=border, frame=True), seed)
        save_puzzle(p.with_(planted=None), folder / f"{p.name}.yaml")
        out.append(("planted", folder / f"{p.name}.yaml", "count"))
    for rows, colors, seed in ((4, 9, 1), (5, 8, 1)):
        p = generate(Params(rows=rows, colors=colors, model="uniform"), seed)
        save_puzzle(p, folder / f"{p.name}.yaml")
        out.append(("uniform", folder / f"{p.name}.yaml", "solve"))
    return out + [
        ("heule", ROOT / "puzzles" / "heule2008" / f"{n}.yaml", "count") for n in ("em_7_3_6", "em_7_4_9")
    ]


def timed(cmd: list[str], timeout: float) -> dict:
    """Wall and CPU seconds of a whole command (its process tree), its exit status and output;
    past ``timeout`` (and 30 s of grace) its process group is killed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )
    try:
        out, err = proc.communicate(timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {
        "wall": round(wall, 3),
        "cpu": round(cpu, 3),
        "exit": proc.returncode,
        "stdout": out[-20000:],
        "stderr": err[-2000:],
    }


def _json(run: dict) -> dict:
    try:
        return json.loads(run["stdout"].strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {}


def measure() -> list[dict]:
    sat = [sys.executable, "-m", "satedge"]
    rng = random.Random(2026)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for kind, path, task in instances(tmp):
            row = {"class": kind, "puzzle": path.stem, "task": task}
            base = [*sat, task, str(path), "--method", "sat", "--json"]
            row["plain"] = timed([*base, "--timeout", str(TIMEOUT)], TIMEOUT)
            if _json(row["plain"]).get("status") != "TIMEOUT" and row["plain"]["exit"] in (0, 1):
                limit = min(MOST, max(60, 4 * row["plain"]["wall"]))
                order = [1, 2]
                rng.shuffle(order)
                for workers in order:
                    proof = tmp / f"{path.stem}-w{workers}"
                    row[f"certified_w{workers}"] = timed(
                        [
                            *base,
                            "--timeout",
                            f"{limit:.0f}",
                            "--certify",
                            "--workers",
                            str(workers),
                            "--proof",
                            str(proof),
                        ],
                        limit,
                    )
                if path.stem in DRUP_ON and (tmp / f"{path.stem}-w1" / "manifest.json").exists():
                    row["drup"] = timed(
                        [*sat, "check-proof", str(tmp / f"{path.stem}-w1"), "--checker", "drup", "--json"],
                        DRUP_TIMEOUT,
                    )
            rows.append(row)
            print(
                json.dumps(
                    {
                        k: (v if not isinstance(v, dict) else {x: v[x] for x in ("wall", "cpu", "exit")})
                        for k, v in row.items()
                    }
                ),
                file=sys.stderr,
                flush=True,
            )
    return rows


# ---------------------------------------------------------------------------- the report
def answer(row: dict) -> str:
    a = _json(row["plain"])
    if a.get("status") == "TIMEOUT" or row["plain"]["exit"] == 3:
        return "no answer in 120 s"
    if row["task"] == "solve":
        return "a solution" if a.get("status") == "SAT" else a.get("status", "?")
    return f"{a['solutions']:,} solutions"


def certified(row: dict, workers: int) -> dict | None:
    """The certificate of the ``workers`` command, None where it gave none (in time)."""
    run = row.get(f"certified_w{workers}")
    return _json(run).get("certificate") if run and run["exit"] in (0, 1) else None


def _time(row: dict, workers: int) -> str:
    """The ``workers`` command's seconds and its wall / CPU ratio to the plain one's."""
    run, c = row.get(f"certified_w{workers}"), certified(row, workers)
    if run is None:
        return ""
    if c is None:
        return f"timed out ({run['wall']:.0f} s)"
    return f"{run['wall']:.2f} ({run['wall'] / row['plain']['wall']:.1f} / {run['cpu'] / row['plain']['cpu']:.1f})"


def certificate_line(row: dict, workers: int) -> str | None:
    """A line of the certificates' table, None where the command gave none."""
    c = certified(row, workers)
    if c is None:
        return None
    if "proof_lemmas" not in c:
        return f"| `{row['puzzle']}` | {workers} | no proof: the solution is checked | | | | | |"
    return (
        f"| `{row['puzzle']}` | {workers} | {c['pieces']} | {c['route']} | {c['proof_lemmas']:,} | "
        f"{c['proof_bytes'] / 1000:,.0f} | {c['check_seconds']:.2f} | {c.get('lemmas_checked_early') or 0:,} |"
    )


def drup_cell(row: dict) -> str:
    run = row.get("drup")
    if run is None:
        return "not run" if row["puzzle"] in DRUP_ON else ""
    if run["exit"] == 0:
        return f"{run['wall']:.1f} s"
    return (
        f"timed out ({DRUP_TIMEOUT} s)"
        if run["exit"] in (-9, None) or run["wall"] > DRUP_TIMEOUT
        else f"refused (exit {run['exit']})"
    )


def line(row: dict) -> str:
    return (
        f"| `{row['puzzle']}` | {row['class']} | {answer(row)} | {row['plain']['wall']:.2f} | {_time(row, 1)} | "
        f"{_time(row, 2)} | {drup_cell(row)} |"
    )


def plot(rows: list[dict], path: Path) -> None:
    """The certified command's wall time over the plain one's per instance, one and two workers,
    beside the target of 3 (matplotlib, a committed SVG the results page leads with)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "bench-certify"  # the same rows draw the same file
    shown = [r for r in rows if certified(r, 1) or certified(r, 2)]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for k, w in enumerate((1, 2)):
        ratios = [r[f"certified_w{w}"]["wall"] / r["plain"]["wall"] if certified(r, w) else 0 for r in shown]
        ax.bar(
            [i + (k - 0.5) * 0.4 for i in range(len(shown))],
            ratios,
            width=0.4,
            label=f"{w} worker{'s' * (w > 1)} (0: no certificate in time)",
        )
    ax.axhline(3, color="grey", linestyle="--", linewidth=1, label="target: 3 times")
    ax.set_xticks(range(len(shown)), [r["puzzle"] for r in shown], rotation=35, ha="right", fontsize=7)
    ax.set_ylabel("certified / plain wall time")
    ax.set_title("What a certified count costs, per instance", fontsize=10)
    ax.legend(fontsize=7)
    fig.savefig(path, bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)


def summary(rows: list[dict]) -> list[str]:
    answered = [r for r in rows if answer(r) != "no answer in 120 s"]
    proved = {w: [r for r in answered if certified(r, w) is not None] for w in (1, 2)}
    out = []
    for w in (1, 2):
        walls = [r[f"certified_w{w}"]["wall"] / r["plain"]["wall"] for r in proved[w]]
        cpus = [r[f"certified_w{w}"]["cpu"] / r["plain"]["cpu"] for r in proved[w]]
        within = sum(1 for x in walls if x <= 3)
        out.append(
            f"* {'One worker' if w == 1 else 'Two workers'}: {len(proved[w])} of the {len(answered)} instances the "
            f"plain command answered got a checked certificate; {within} of them within 3 times its wall "
            f"time. Wall ratio median {statistics.median(walls):.1f} (from {min(walls):.1f} to "
            f"{max(walls):.1f}), CPU ratio median {statistics.median(cpus):.1f} (from {min(cpus):.1f} to "
            f"{max(cpus):.1f})."
        )
    ran = [r for r in rows if r.get("drup")]
    ok = [r for r in ran if r["drup"]["exit"] == 0]
    out.append(
        f"* drup checked {len(ok)} of the {len(ran)} one-worker certificates it was run on within "
        f"{DRUP_TIMEOUT} s" + (f" ({', '.join(drup_cell(r) for r in ok)})" if ok else "") + "."
    )
    return out


def report(rows: list[dict], meta: dict) -> str:
    lines = [
        "# What a certified answer costs",
        "",
        "![The certified command's wall time over the plain one's, per instance, on one and two workers]"
        "(bench-certify.svg)",
        "",
        f"Measured {meta['date']} on {meta['machine']} (2 cores, shared), Python {meta['python']}, in one run of "
        f"`{meta['command']}` ({meta['minutes']:.0f} minutes). Rows: "
        "`benchmarks/certify/bench-certify-rows.jsonl`, one per instance.",
        "",
        "For each instance, whole commands as a user types them (start-up included), the certified ones in an order "
        "shuffled per instance:",
        "",
        "* the plain command, `satedge count P --method sat --json --timeout 120` (`solve` for the uniform puzzles), "
        "with the default encoding (`edgecolor-corners`) and CaDiCaL;",
        "* the same with `--certify --proof DIR`, on one worker and with `--workers 2` (the proof checked in parts: "
        "those the solver logged during the enumeration on the second worker beside it, the rest on both workers "
        "after it), checked by dratify before the answer is printed; only where the plain command answered, under 4 "
        "times its time (at most 360 s);",
        f"* `satedge check-proof DIR --checker drup` (the formally verified checker) on the one-worker certificate of "
        f"the seed puzzles and the planted 4x4 and 5x5, under {DRUP_TIMEOUT} s.",
        "",
        "Instances: the four seed puzzles; planted framed puzzles (`satedge generate --frame`) from 4x4 to 7x7 with "
        "colours 4, 5, 6, 9 and border colours 1, 2, 2, 3 of seed 1, and the 6x6 and 7x7 of seed 2; two uniform "
        "random puzzles (4x4 with 9 colours, 5x5 with 8, seed 1); Heule's `em_7_3_6` and `em_7_4_9`.",
        "",
        "The certified command's seconds, with its ratio to the plain one's in brackets (wall / CPU); `drup`: the "
        "seconds of `check-proof --checker drup`. The plot above draws the wall ratios.",
        "",
        "| puzzle | class | answer | plain s | certified, 1 worker: s (ratio) | 2 workers: s (ratio) | drup |",
        "|---|---|---|---|---|---|---|",
        *[line(r) for r in rows],
        "",
        "The certificates: pieces, route (`own`: the proof the enumerating solver logged), the proofs' lemmas and "
        "size, dratify's seconds after the search, and the lemmas it checked before, as the solver logged them.",
        "",
        "| puzzle | workers | pieces | route | lemmas | kB | dratify s after the search | lemmas checked as logged |",
        "|---|---|---|---|---|---|---|---|",
        *[c for r in rows for w in (1, 2) if (c := certificate_line(r, w)) is not None],
        "",
        "## What it says",
        "",
        *summary(rows),
    ]
    if meta.get("notes"):
        lines += ["", meta["notes"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(
        harness.main(
            __doc__,
            REPORT,
            report,
            lambda args: measure(),
            ROWS,
            after=lambda rows, meta: plot(rows, HERE / "bench-certify.svg"),
        )
    )
