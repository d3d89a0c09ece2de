"""Boards unlike Eternity II: generated 12x12 to 16x16 boards, the plain ``satedge maximize``
against CP-SAT's model of the best board (``--solver cpsat``) on the same board and cores.

The boards (``BOARDS``) are made by ``satedge generate``: planted framed boards of 22 colours
(17 inside, 5 on the border) with five clues on Eternity II's cells (``--clue-at eternity2``),
whose planted board matches every edge, and a uniform board with no frame (every edge drawn at
random), where the full score is only a bound.  Each run is the job the plain command makes
(``satedge.api.job``: the command's defaults, 2 workers, a 600 s limit), with every better board
the engine reports kept as ``[seconds, score]``: the score at 60 s is read from that curve (the
engine's own clock, from its start), the score at 600 s is the run's answer.  The two engines of a
board run one after the other, in an order drawn per board.

    python benchmarks/planted/bench-planted.py --run SLICE   # runs a slice, adds its rows
    python benchmarks/planted/bench-planted.py              # writes bench-planted.md from the rows

Rows are added once, with their date, machine and commit; they are not run again.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ROWS = HERE / "bench-planted.jsonl"
REPORT = HERE / "bench-planted.md"

E2LIKE = ["--colors", "17", "--border-colors", "5", "--frame", "--clue-at", "eternity2", "--seed", "1"]
BOARDS = {
    "e2like-16": ["--rows", "16", *E2LIKE],
    "e2like-14": ["--rows", "14", *E2LIKE],
    "e2like-12": ["--rows", "12", *E2LIKE],
    "uniform-16": ["--rows", "16", "--model", "uniform", "--colors", "8", "--seed", "1"],
}
SLICES = {
    "16": ["e2like-16", "uniform-16"],
    "12-14": ["e2like-12", "e2like-14"],
    "rules-16": ["e2like-16"],
    "rules-12-14": ["e2like-12", "e2like-14"],
    "capped": ["e2like-12", "e2like-14", "e2like-16"],
}
# a slice that runs some engines only (the others' rows stand): the field's rules of 2026-12-07
SLICE_ENGINES = {"rules-16": ["satedge"], "rules-12-14": ["satedge"], "capped": ["satedge"]}
ENGINES = {"satedge": {}, "cpsat": {"solver": "cpsat"}}
TIMEOUT, EARLY, WORKERS = 600, 60, 2


def board(name: str, folder: Path) -> Path:
    """The board ``name``, made by ``satedge generate`` into ``folder``."""
    path = folder / f"{name}.yaml"
    if not path.exists():
        cmd = [sys.executable, "-m", "satedge", "generate", *BOARDS[name], "-o", str(path)]
        subprocess.run(cmd, check=True)
    return path


def one(path: Path, engine: str, tag: str = "") -> dict:
    """One run of the plain command's job on ``path`` (``engine``: ``satedge`` or ``cpsat``), its
    board kept as ``boards/BOARD-ENGINE{tag}.sol``."""
    from satedge import api
    from satedge.jobs.dispatch import run

    curve: list[list[float]] = []

    def seen(progress: dict) -> None:
        if "score" in progress and (not curve or progress["score"] > curve[-1][1]):
            curve.append([progress["seconds"], progress["score"]])

    job = api.job(path, "maximize", workers=WORKERS, timeout=TIMEOUT, progress=True, **ENGINES[engine])
    res = run(job, progress=seen)
    kept = {}
    if res.solutions:  # the answer's board, for satedge check to rescore
        from satedge.puzzle.solutions import save_solution

        sol = HERE / "boards" / f"{path.stem}-{engine}{tag}.sol"
        save_solution(job.board, res.solutions[0], sol)
        kept = {"board_file": f"boards/{sol.name}"}
    return {
        **kept,
        "engine": engine,
        "method": str(job.solver),
        "status": res.status,
        "score": res.score,
        "bound": res.bound,
        "early": max([s for t, s in curve if t <= EARLY], default=None),
        "curve": curve,
    }


def runs(names: list[str], only: list[str] | None = None, tag: str = "") -> None:
    folder = HERE / "boards"
    folder.mkdir(exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    order = random.Random(2026)
    for name in names:
        path = board(name, folder)
        engines = list(ENGINES)
        order.shuffle(engines)
        engines = [e for e in engines if only is None or e in only]
        for engine in engines:
            from satedge.puzzle.formats import load_puzzle

            edges = len(load_puzzle(path).board.adjacencies)
            row = {
                "board": name,
                "generate": "satedge generate " + " ".join(BOARDS[name]),
                "edges": edges,
                **one(path, engine, tag),
                "timeout": TIMEOUT,
                "workers": WORKERS,
                "date": datetime.date.today().isoformat(),
                "machine": f"{platform.machine()}, {_cores()} cores",
                "commit": commit.stdout.strip(),
            }
            with ROWS.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(name, engine, row["early"], row["score"], file=sys.stderr)


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0))


def rows() -> list[dict]:
    return (
        [json.loads(line) for line in ROWS.read_text().splitlines() if line.strip()] if ROWS.exists() else []
    )


def report() -> str:
    """The report's text, from the rows alone."""
    got = rows()
    out = [
        "# Boards unlike Eternity II: the plain command against CP-SAT",
        "",
        "Made by `python benchmarks/planted/bench-planted.py` from `bench-planted.jsonl`; each run once, "
        f"{len(got)} runs, on {', '.join(sorted({r['date'] for r in got}))}, "
        f"on {', '.join(sorted({r['machine'] for r in got}))}. Each run is the job of the plain command "
        f"`satedge maximize BOARD --workers {WORKERS} --timeout {TIMEOUT}` (satedge's engine as `--method "
        f"auto` picks it) or the same with `--solver cpsat` (CP-SAT's model of the best board, "
        f"{WORKERS} search workers). The score at {EARLY} s is the best board the run had reported by "
        "then (the engine's clock); at 600 s, its answer. A planted board's full score matches every "
        "edge; a uniform board's full score is only a bound. A single run each.",
        "",
        "| board | edges | engine | at 60 s | at 600 s | gap at 600 s | last better board (s) | code |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in got:
        gap = r["edges"] - r["score"] if r["score"] is not None else "-"
        last = r["curve"][-1][0] if r["curve"] else "-"
        out.append(
            f"| {r['board']} | {r['edges']} | {r['engine']} (`{r['method']}`) | {r['early']} | {r['score']} | "
            f"{gap} | {last} | {r['commit']} |"
        )
    out += ["", "The boards, each made by `satedge generate` (the files are in `boards/`):", ""]
    out += [f"- {b}: `{c}`" for b, c in dict((r["board"], r["generate"]) for r in got).items()]
    notes = [r for r in got if r.get("note")]
    if notes:
        out += ["", "Notes:", ""] + [f"- {r['board']}, {r['engine']}: {r['note']}." for r in notes]
    out += ["", "## What the rows say", ""] + _says(got)
    return "\n".join(out) + "\n"


def _says(got: list[dict]) -> list[str]:
    """The gaps, from the rows: satedge's against the full score and against CP-SAT's."""
    by = {(r["board"], r["engine"]): r for r in got}
    out = []
    for name in dict.fromkeys(r["board"] for r in got):
        ours, theirs = by.get((name, "satedge")), by.get((name, "cpsat"))
        if ours is None or theirs is None:
            continue
        full = "the planted board's" if name.startswith("e2like") else "the bound of"
        out.append(
            f"- {name}: satedge {ours['early']} at 60 s and {ours['score']} at 600 s, {ours['edges'] - ours['score']} "
            f"short of {full} {ours['edges']}; CP-SAT {theirs['early']} and {theirs['score']}: satedge "
            f"{ours['score'] - theirs['score']} edges ahead at 600 s. satedge's last better board came at "
            f"{ours['curve'][-1][0]:.0f} s."
        )
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--run", choices=sorted(SLICES))
    args = parser.parse_args()
    if args.run:
        # a slice's boards beside those of the rows before it (rules-12-14: e2like-12-satedge-rules.sol)
        tag = {"rules-12-14": "-rules", "capped": "-capped"}.get(args.run, "")
        runs(SLICES[args.run], SLICE_ENGINES.get(args.run), tag)
    REPORT.write_text(report())
