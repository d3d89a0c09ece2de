"""``satedge run``: every run of a spec, isolated, limited, appended to ``DIR/results.jsonl``.

A result line is written and flushed when its run ends, so killing the runner loses at most the
runs in flight; ``resume`` skips every run whose id is already in the file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import SatedgeError
from ..formats import write_atomic
from ..process import Limits
from ..progress import progress_bar
from .executors import connect, run_dask, run_local
from .spec import Run, Spec

RESULTS = "results.jsonl"


def row(run: Run, spec: Spec, result: dict) -> dict:
    p = run.puzzle
    out = {"id": run.id, "experiment": spec.name, "puzzle": run.puzzle_path, "puzzle_name": p.name,
           "puzzle_sha256": run.puzzle_sha256, "rows": p.rows, "cols": p.cols, "encoding": run.preset.name,
           "base": run.preset.base, "options": run.preset.options.as_dict(), "solver": run.solver,
           "task": run.task, "mode": run.mode, "repetition": run.repetition, "timeout": spec.timeout,
           "memory_mb": spec.memory}
    out.update(result)
    return out


ROW_KEYS = ("id", "puzzle", "puzzle_name", "puzzle_sha256", "rows", "cols", "encoding", "solver", "task", "repetition",
            "timeout", "status")
STATUSES = ("SAT", "UNSAT", "ENCODED", "TIMEOUT", "MEMOUT", "ERROR")
ENCODED_KEYS = ("encode_seconds", "write_seconds", "dimacs_bytes")  # what an encode task's report needs
_NUMBER = (int, float)
# the type of every field that resume and report read: those of ROW_KEYS always, the others null or absent
FIELD_TYPES = {"id": str, "puzzle": str, "puzzle_name": str, "puzzle_sha256": str, "rows": int, "cols": int,
               "encoding": str, "solver": str, "task": str, "repetition": int, "timeout": _NUMBER, "status": str,
               "variables": int, "clauses": int, "literals": int, "literals_per_second": int, "dimacs_bytes": int,
               "encode_seconds": _NUMBER, "solve_seconds": _NUMBER, "write_seconds": _NUMBER,
               "peak_memory_mb": _NUMBER, "stats": dict}
_KIND_NAMES = {str: "a string", int: "an integer", _NUMBER: "a number", dict: "a mapping"}


def _is(value, kind) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)  # JSON's true is no number


def _row_problem(row) -> str | None:
    """Why ``row`` (a parsed line) is not a result row of satedge's, or ``None``."""
    if not isinstance(row, dict) or any(k not in row for k in ROW_KEYS):
        return f"is not a result row (one JSON object with {', '.join(ROW_KEYS)})"
    for key, kind in FIELD_TYPES.items():
        value = row.get(key)
        if (value is not None or key in ROW_KEYS) and not _is(value, kind):
            return f"has {key} {json.dumps(value)}, not {_KIND_NAMES[kind]}"
    if row["status"] not in STATUSES:
        return f"has status {json.dumps(row['status'])}, not one of {', '.join(STATUSES)}"
    missing = [k for k in ENCODED_KEYS if row.get(k) is None]
    if row["status"] == "ENCODED" and missing:
        return f"has status ENCODED but no {' and no '.join(missing)}"
    stats = row.get("stats")
    if stats is not None and not _is(stats.get("conflicts"), int):
        return "has stats without a number of conflicts"
    return None


def read_results(path: str | Path) -> list[dict]:
    """The complete lines of a results file (a line cut short by a kill is dropped); a line that is
    not a result row of satedge's is an error that names the file and the line."""
    path, rows = Path(path), []
    if path.exists():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            problem = _row_problem(row)
            if problem:
                raise SatedgeError(f"line {n} {problem}", path)
            rows.append(row)
    return rows


def run_experiment(spec: Spec, out: str | Path, workers: int = 1, resume: bool = False, executor: str = "local",
                   scheduler: str | None = None, client=None) -> int:
    """Run what is left of ``spec`` into ``out``; returns the number of runs executed.  With
    ``executor="dask"``, the runs go to ``client``, or to a client of ``scheduler`` made (before
    anything is written) and closed here."""
    if executor not in ("local", "dask"):
        raise SatedgeError(f"unknown executor {executor!r}; choose local or dask")
    if executor == "dask" and client is None:
        client = connect(scheduler)
        try:
            return run_experiment(spec, out, workers, resume, executor, client=client)
        finally:
            client.close()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / RESULTS
    done_rows = read_results(path)
    if done_rows and not resume:
        raise SatedgeError(f"{len(done_rows)} results already there: use --resume to finish them, or another --out", path)
    if done_rows:  # rewrite without a torn last line, so appends start on a fresh line
        text = "".join(json.dumps(r) + "\n" for r in done_rows)
        if text != path.read_text(encoding="utf-8"):
            write_atomic(path, text)
    finished = {r.get("id") for r in done_rows}
    todo = [r for r in spec.runs if r.id not in finished]
    by_id = {r.id: r for r in todo}
    with open(path, "a", encoding="utf-8") as fh, progress_bar(len(todo), spec.name, "run") as bar:
        def done(rid: str, result: dict) -> None:
            fh.write(json.dumps(row(by_id[rid], spec, result)) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            bar.update()

        limits = Limits(timeout=spec.timeout, memory_mb=spec.memory)
        jobs = [(r.id, r.job(limits)) for r in todo]
        if executor == "dask":
            run_dask(jobs, client, done)
        else:
            run_local(jobs, workers, done)
    return len(todo)
