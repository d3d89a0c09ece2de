"""MacMahon's 24 squares: their counts, as the 4x6 with a white border and as its ring form,
and the time each count takes on this machine.

Each row of ``bench-macmahon.jsonl`` is one run of its ``command`` (``satedge count ... --json``)
on its ``machine``, on the ``date`` and at the ``commit`` it names: its counts and its status as
the command answered them, and the command's wall-clock ``seconds``.  The report is made from
the rows alone::

    python benchmarks/macmahon/bench-macmahon.py --run     # runs the commands, adds their rows
    python benchmarks/macmahon/bench-macmahon.py           # writes bench-macmahon.md

Rows are added once; they are not run again.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ROWS = HERE / "bench-macmahon.jsonl"
REPORT = HERE / "bench-macmahon.md"

COMMANDS = {  # each a command line after `satedge`
    "4x6, the backtracker": "count macmahon/4x6 --workers 2",
    "ring form, the order the estimate chooses": "count macmahon/ring-6x8 --workers 2",
    "ring form, the row scan (the estimate's choice before)": (
        "count macmahon/ring-6x8 --workers 2 --order rows --timeout 300"
    ),
    "4x6, SAT (distinct pictures)": "count macmahon/4x6 --method sat --mode distinct --timeout 900",
    "4x6, the backtracker, up to its symmetries": "count macmahon/4x6 --workers 2 --mode classes",
    "4x6, SAT, up to its symmetries": "count macmahon/4x6 --method sat --mode classes --timeout 900",
    "4x6, SAT, up to its symmetries, certified": (
        "count macmahon/4x6 --method sat --mode classes --certify --workers 2 --timeout 1800"
    ),
    "4x6, SAT, every count (one class at a time)": "count macmahon/4x6 --method sat --timeout 900",
    "4x6, SAT, every count, certified": "count macmahon/4x6 --method sat --certify --workers 2 --timeout 1800",
}


def run(names: list[str]) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    for name in names:
        cmd = ["satedge", *COMMANDS[name].split(), "--json"]
        t0 = time.monotonic()
        done = subprocess.run([sys.executable, "-m", *cmd], capture_output=True, text=True, cwd=ROOT)
        seconds = time.monotonic() - t0
        answer = json.loads(done.stdout) if done.stdout.strip() else {}
        row = {
            "config": name,
            "command": " ".join(cmd),
            "exit": done.returncode,
            "status": answer.get("status"),
            **{k: answer.get(k) for k in ("solutions", "distinct", "unique", "classes", "at_least")},
            **({"symmetries": len(answer["symmetries"])} if "symmetries" in answer else {}),
            **(
                {
                    "certificate": {
                        k: answer["certificate"][k] for k in ("models", "proof_lemmas", "proof_bytes")
                    }
                }
                if "certificate" in answer
                else {}
            ),
            "seconds": round(seconds, 1),
            "date": datetime.date.today().isoformat(),
            "machine": f"{platform.machine()}, {len(os.sched_getaffinity(0))} cores",
            "commit": commit.stdout.strip(),
        }
        with ROWS.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(name, row["status"], row["distinct"], row["classes"], row["seconds"], file=sys.stderr)


def rows() -> list[dict]:
    return (
        [json.loads(line) for line in ROWS.read_text().splitlines() if line.strip()] if ROWS.exists() else []
    )


def report() -> str:
    got = rows()
    out = [
        "# MacMahon's 24 squares: counts and times",
        "",
        "Made by `python benchmarks/macmahon/bench-macmahon.py` from `bench-macmahon.jsonl`; each run once, "
        f"{len(got)} runs, on {', '.join(sorted({r['date'] for r in got}))}, "
        f"on {', '.join(sorted({r['machine'] for r in got}))}. `seconds` is the command's wall-clock time.",
        "",
        "| configuration | status | solutions | distinct | unique | classes | seconds | certified | command | code |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in got:
        counts = [
            f"{r[k]:,}" if isinstance(r.get(k), int) else "-"
            for k in ("solutions", "distinct", "unique", "classes")
        ]
        cert = r.get("certificate")
        proved = (
            f"{cert['models']:,} pictures blocked, a proof of {cert['proof_lemmas']:,} lemmas checked"
            if cert
            else "-"
        )
        cells = [
            r["config"],
            r["status"] or "done",
            *counts,
            str(r["seconds"]),
            proved,
            f"`{r['command']}`",
            r["commit"],
        ]
        out.append("| " + " | ".join(cells) + " |")
    if any(r.get("symmetries") for r in got):
        out += [
            "",
            "`classes` counts the pictures up to the puzzle's symmetries, which the command finds and "
            "names: here 8 (the rectangle's half turn and two mirrors, each with and without the swap of "
            "colours 2 and 3).",
        ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--run", nargs="*", metavar="CONFIG", help="run these configurations (default: every one)"
    )
    args = parser.parse_args()
    if args.run is not None:
        run(args.run or list(COMMANDS))
    REPORT.write_text(report())
