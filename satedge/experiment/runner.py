"""``satedge run``: every run of a spec, isolated, limited, appended to ``DIR/results.jsonl``.

A result line is written and flushed when its run ends, so killing the runner loses at most the
runs in flight; ``resume`` skips every run whose id is already in the file.  One runner at a
time writes to a folder: it holds a lock on ``DIR/.lock`` (released by the kernel however the
runner ends).  A line that does not parse (cut short by a kill, edited, not UTF-8) is named in a
warning; ``resume`` moves it to ``DIR/results.rejected.jsonl`` rather than deleting it.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from ..errors import SatedgeError
from ..files import write_atomic
from ..process import Limits
from ..progress import progress_bar
from ..cluster import connect
from .executors import run_dask, run_local
from .spec import Run, Spec

RESULTS = "results.jsonl"
REJECTED = "results.rejected.jsonl"
LOCK = ".lock"


def row(run: Run, spec: Spec, result: dict) -> dict:
    p = run.puzzle
    out = {"id": run.id, "experiment": spec.name, "puzzle": run.puzzle_path, "puzzle_name": p.name,
           "puzzle_sha256": run.puzzle_sha256, "rows": p.rows, "cols": p.cols, "encoding": run.preset.name,
           "base": run.preset.base, "options": run.preset.options.as_dict(), "solver": run.solver,
           "task": run.task, "mode": run.mode, "repetition": run.repetition, "shuffle": run.shuffle, "timeout": spec.timeout,
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
               "peak_memory_mb": _NUMBER, "cpu_seconds": _NUMBER, "shuffle": int, "started_at": str,
               "finished_at": str, "stats": dict, "workers": int, "parallel": dict}
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


def scan_results(path: str | Path) -> tuple[list[dict], list[tuple[int, bytes, str]]]:
    """The rows of a results file, and the lines that do not parse: ``(line number, the line,
    why)``.  A line that parses but is not a result row of satedge's is an error that names the
    file and the line."""
    path, rows, rejected = Path(path), [], []
    data = path.read_bytes() if path.exists() else b""
    lines = data.split(b"\n")
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            rejected.append((n, raw, "is not UTF-8 text"))
            continue
        except (json.JSONDecodeError, RecursionError):
            cut = n == len(lines)  # no newline after it: the runner was killed while writing it
            rejected.append((n, raw, "is cut short" if cut else "does not parse as JSON"))
            continue
        problem = _row_problem(row)
        if problem:
            raise SatedgeError(f"line {n} {problem}", path)
        rows.append(row)
    return rows, rejected


def config_of(r: dict) -> str:
    """A row's configuration as reports name it: ``ENCODING/SOLVER``."""
    return f"{r['encoding']}/{r['solver']}"


def run_time(r: dict) -> float:
    return (r.get("encode_seconds") or 0.0) + (r.get("solve_seconds") or 0.0)


def unique_runs(rows: list[dict]) -> tuple[list[dict], int]:
    """Each run id once (its first row), and how many rows repeated an id."""
    seen: set = set()
    out = [r for r in rows if not (r["id"] in seen or seen.add(r["id"]))]
    return out, len(rows) - len(out)


def read_results(path: str | Path) -> list[dict]:
    """The rows of a results file (:func:`scan_results` without the lines that do not parse)."""
    return scan_results(path)[0]


def rejected_warnings(path: Path, rejected: list[tuple[int, bytes, str]], where: str) -> list[str]:
    """One warning per line that does not parse: its number and why, and where it went."""
    return [f"{path}: line {n} {why}: {where}" for n, _, why in rejected]


@contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """Hold ``out/.lock`` while the block runs; a second runner on the same folder is refused
    (the kernel drops the lock when its holder ends, even by SIGKILL)."""
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise SatedgeError(f"another satedge run (pid {holder}) is writing its results here; wait for it to "
                               "end, or give another --out", out) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def warn_on_stderr(message: str) -> None:
    print(f"satedge: warning: {message}", file=sys.stderr)


def run_experiment(spec: Spec, out: str | Path, workers: int = 1, resume: bool = False, executor: str = "local",
                   scheduler: str | None = None, client=None, warn: Callable[[str], None] = warn_on_stderr,
                   done: Callable[[int], None] | None = None) -> int:
    """Run what is left of ``spec`` into ``out``; returns the number of runs executed.  With
    ``executor="dask"``, the runs go to ``client``, or to a client of ``scheduler`` made (before
    anything is written) and closed here.  ``warn``: called with each warning (lines of the
    results file that do not parse); ``done``: called with the number of runs done so far after
    each run."""
    if executor not in ("local", "dask"):
        raise SatedgeError(f"unknown executor {executor!r}; choose local or dask")
    if executor == "dask" and client is None:
        client = connect(scheduler)
        try:
            return run_experiment(spec, out, workers, resume, executor, client=client, warn=warn, done=done)
        finally:
            client.close()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with folder_lock(out):
        return _run_locked(spec, out, workers, resume, executor, client, warn, done)


def _run_locked(spec: Spec, out: Path, workers: int, resume: bool, executor: str, client, warn, done) -> int:
    path = out / RESULTS
    done_rows, rejected = scan_results(path)
    if (done_rows or rejected) and not resume:
        raise SatedgeError(f"{len(done_rows)} results already there: use --resume to finish them, or another --out", path)
    if rejected:  # kept aside, not lost; the rest is rewritten as it was, so appends start on a fresh line
        with open(out / REJECTED, "ab") as fh:
            fh.write(b"".join(raw + b"\n" for _, raw, _ in rejected))
            fh.flush()
            os.fsync(fh.fileno())
        kept = {n for n, _, _ in rejected}
        lines = path.read_bytes().split(b"\n")
        write_atomic(path, b"".join(line + b"\n" for n, line in enumerate(lines, 1) if n not in kept and line.strip()))
        for message in rejected_warnings(path, rejected, f"moved to {REJECTED}"):
            warn(message)
    elif path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
        with open(path, "ab") as fh:  # appends start on a fresh line
            fh.write(b"\n")
    finished = {r.get("id") for r in done_rows}
    todo = [r for r in spec.runs if r.id not in finished]
    by_id = {r.id: r for r in todo}
    count = 0
    with open(path, "a", encoding="utf-8") as fh, progress_bar(len(todo), spec.name, "run") as bar:
        def one_done(rid: str, result: dict) -> None:
            nonlocal count
            fh.write(json.dumps(row(by_id[rid], spec, result)) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            bar.update()
            count += 1
            if done is not None:
                done(count)

        limits = Limits(timeout=spec.timeout, memory_mb=spec.memory)
        jobs = [(r.id, r.job(limits)) for r in todo]
        if executor == "dask":
            run_dask(jobs, client, one_done)
        else:
            run_local(jobs, workers, one_done)
    return len(todo)
