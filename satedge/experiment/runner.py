"""``satedge run``: every run of a spec, isolated, limited, appended to ``DIR/results.jsonl``.

A result line is written and flushed when its run ends, so killing the runner loses at most the
runs in flight; ``resume`` skips every run whose id is already in the file, and refuses to go on
when the spec's settings, its name or a puzzle file differ from what the folder records
(``DIR/spec.json``): old and new rows would mix.  One runner at a
time writes to a folder: it holds a lock on ``DIR/.lock`` (released by the kernel however the
runner ends).  A line that does not parse (cut short by a kill, edited, not UTF-8) is named in a
warning; ``resume`` moves it to ``DIR/results.rejected.jsonl`` rather than deleting it.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SatedgeError
from ..system.bigints import json_dumps, many
from ..system.cluster import connect, disconnect
from ..system.files import cannot_write, read_bytes, read_json, shown, write_atomic
from ..system.progress import progress_bar
from .executors import run_dask, run_local
from .rows import MAX_RESULTS_BYTES, REJECTED, RESULTS, config_of, rejected_warnings, row, scan_results
from .spec import Spec

__all__ = ["LOCK", "RECORD", "Ran", "folder_lock", "warn_on_stderr", "record", "run_experiment"]

LOCK = ".lock"
RECORD = "spec.json"  # what the folder's results come from: --resume refuses to mix in another spec's


@contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """Hold ``out/.lock`` while the block runs; a second runner on the same folder is refused
    (the kernel drops the lock when its holder ends, even by SIGKILL)."""
    try:
        fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as e:  # a symlink (ELOOP) is never followed: its target would be overwritten
        raise SatedgeError(
            f"cannot hold the folder's lock {LOCK}: {'it is a symlink' if os.path.islink(out / LOCK) else e.strerror}",
            out,
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise SatedgeError(
                f"another satedge run (pid {holder}) is writing its results here; wait for it to "
                "end, or give another --out",
                out,
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def _append(path: Path, data: bytes) -> None:
    """Append ``data`` to ``path`` and flush it to disk; a failed write names the file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as e:
        raise cannot_write(e, path) from None


def warn_on_stderr(message: str) -> None:
    print(f"satedge: warning: {message}", file=sys.stderr)


@dataclass
class Ran:
    """What :func:`run_experiment` did: the ``runs`` it ran now, those ``kept`` from before
    (``--resume``), how its runs ended (``statuses``: how many of each) and the rows of those that
    ended in ``ERROR`` (an engine's failure, never a time or memory limit)."""

    runs: int = 0
    kept: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)

    @property
    def all_failed(self) -> bool:
        """Whether every run it ran ended in an error."""
        return self.runs > 0 and self.statuses.get("ERROR", 0) == self.runs

    def describe(self, name: str) -> str:
        """One line: the runs done, how they ended, and how many were there already."""
        ended = ", ".join(f"{n} {status}" for status, n in sorted(self.statuses.items()))
        return (
            f"{name}: {many(self.runs, 'run')} done"
            + (f" ({ended})" if ended else "")
            + (f", {self.kept} were there already")
        )

    def error_lines(self, most: int = 5) -> list[str]:
        """The first line of each error (the first ``most``, by configuration and puzzle, whatever
        order they ended in), with the configuration and puzzle it ran."""
        errors = sorted(self.errors, key=lambda r: (config_of(r), r["puzzle"], r.get("shuffle") or 0))
        lines = [
            f"{config_of(r)} on {r['puzzle']}: {(r.get('error') or 'no message').splitlines()[0]}"
            for r in errors[:most]
        ]
        return lines + ([f"and {len(self.errors) - most} more"] if len(self.errors) > most else [])


def run_experiment(
    spec: Spec,
    out: str | Path,
    workers: int = 1,
    resume: bool = False,
    executor: str = "local",
    scheduler: str | None = None,
    client: Any = None,
    warn: Callable[[str], None] = warn_on_stderr,
    done: Callable[[int], None] | None = None,
) -> Ran:
    """Run what is left of ``spec`` into ``out``; returns what it ran and how that ended
    (:class:`Ran`).  With
    ``executor="dask"``, the runs go to ``client``, or to a client of ``scheduler`` made (before
    anything is written) and closed here.  ``warn``: called with each warning (lines of the
    results file that do not parse); ``done``: called with the number of runs done so far after
    each run."""
    if executor not in ("local", "dask"):
        raise SatedgeError(f"unknown executor {shown(executor)}; choose local or dask")
    if executor == "dask" and client is None:
        client = connect(scheduler)
        try:
            return run_experiment(spec, out, workers, resume, executor, client=client, warn=warn, done=done)
        finally:
            disconnect(client)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with folder_lock(out):
        return _run_locked(spec, out, workers, resume, executor, client, warn, done)


def record(spec: Spec) -> dict:
    """What a results folder keeps of the spec it was made from (``DIR/spec.json``): its name,
    the settings every run shares, and each puzzle file's sha256."""
    return {
        "spec": spec.name,
        "task": spec.task,
        "mode": spec.mode,
        "timeout": spec.timeout,
        "memory": spec.memory,
        "certify": next((r.job.certify for r in spec.runs), None),
        "puzzles": dict(sorted({r.puzzle_path: r.puzzle_sha256 for r in spec.runs}.items())),
    }


def _differs(kept: dict, now: dict) -> str | None:
    """What differs between the record of a results folder and the spec run now, in words."""
    if kept.get("spec") != now["spec"]:
        return f"they come from the spec {shown(kept.get('spec'))}, not {shown(now['spec'])}"
    for key, what in (
        ("task", "task"),
        ("mode", "count mode"),
        ("timeout", "timeout"),
        ("memory", "memory"),
        ("certify", "certify"),
    ):
        if kept.get(key) != now[key]:
            return f"the spec's {what} was {shown(kept.get(key))}, it is {shown(now[key])} now"
    for puzzle, sha in now["puzzles"].items():
        if kept.get("puzzles", {}).get(puzzle, sha) != sha:
            return f"the puzzle {puzzle} has changed since (its sha256 differs)"
    return None


def _run_locked(
    spec: Spec,
    out: Path,
    workers: int,
    resume: bool,
    executor: str,
    client: Any,
    warn: Callable[[str], None],
    done: Callable[[int], None] | None,
) -> Ran:
    path = out / RESULTS
    done_rows, rejected = scan_results(path)
    if (done_rows or rejected) and not resume:
        raise SatedgeError(
            f"{len(done_rows)} results already there: use --resume to finish them, or another --out", path
        )
    now, kept_path = record(spec), out / RECORD
    if done_rows or rejected:
        kept = read_json(kept_path) if kept_path.exists() else None
        problem = _differs(kept, now) if isinstance(kept, dict) else None
        if problem is not None:
            raise SatedgeError(
                f"--resume cannot finish these results: {problem}; give another --out for a fresh folder", out
            )
        if isinstance(kept, dict):  # the puzzles of earlier slices (--only) stay recorded
            now["puzzles"] = dict(sorted({**kept.get("puzzles", {}), **now["puzzles"]}.items()))
    write_atomic(kept_path, json.dumps(now, indent=1) + "\n")
    data = read_bytes(path, MAX_RESULTS_BYTES) if done_rows or rejected else b""
    if rejected:  # kept aside, not lost; the rest is rewritten as it was, so appends start on a fresh line
        _append(out / REJECTED, b"".join(raw + b"\n" for _, raw, _ in rejected))
        kept = {n for n, _, _ in rejected}
        lines = data.split(b"\n")
        write_atomic(
            path, b"".join(line + b"\n" for n, line in enumerate(lines, 1) if n not in kept and line.strip())
        )
        for message in rejected_warnings(path, rejected, f"moved to {REJECTED}"):
            warn(message)
    elif data and not data.endswith(b"\n"):
        _append(path, b"\n")  # appends start on a fresh line
    finished = {r.get("id") for r in done_rows}
    todo = [r for r in spec.runs if r.id not in finished]
    by_id = {r.id: r for r in todo}
    ran = Ran(kept=len(spec.runs) - len(todo))
    with progress_bar(len(spec.runs), spec.name, "run", initial=len(spec.runs) - len(todo)) as bar:

        def one_done(rid: str, result: dict) -> None:
            made = row(by_id[rid], spec.name, result)
            _append(path, (json_dumps(made, allow_nan=False) + "\n").encode())
            bar.update()
            ran.runs += 1
            ran.statuses[made["status"]] = ran.statuses.get(made["status"], 0) + 1
            if made["status"] == "ERROR":
                ran.errors.append(made)
            if done is not None:
                done(ran.runs)

        jobs = [(r.id, r.job) for r in todo]
        if executor == "dask":
            run_dask(jobs, client, one_done)
        else:
            run_local(jobs, workers, one_done)
    return ran
