"""What every benchmark script shares.  A benchmark is a folder, ``benchmarks/NAME/``: its
script ``bench-NAME.py``, which imports this file, its specs, rows, report and figures.  Shared
here: the rows file with its run's metadata on the first line (:func:`read_rows`,
:func:`write_rows`), that metadata (:func:`metadata`: the command, the date, the machine and the
minutes it took), and the command line (:func:`main`): ``--report`` writes the report again from
the committed files alone, as the tests do; without it the script measures, keeps its rows and
then writes the report.  A script finds this file beside its own folder::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import harness

A script gives :func:`main` what is its own::

    def measure(args) -> list[dict]: ...            # the rows of one run
    def report(rows: list[dict], meta: dict) -> str: ...  # the Markdown report, from them alone

    if __name__ == "__main__":
        sys.exit(harness.main(__doc__, HERE / "bench-x.md", report, measure, HERE / "bench-x-rows.jsonl"))
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from satedge.system.files import write_atomic
from satedge.system.machine import described

__all__ = ["read_rows", "write_rows", "metadata", "main"]


def read_rows(path: Path) -> tuple[dict, list[dict]]:
    """A benchmark's committed rows: its run's metadata (the first line) and the rows after it."""
    lines = path.read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def write_rows(path: Path, meta: dict, rows: list[dict]) -> None:
    """The rows with their metadata first, one JSON object a line, replacing the file whole."""
    write_atomic(path, "\n".join(json.dumps(x) for x in [meta, *rows]) + "\n")


def metadata(command: str, started: float, **more) -> dict:
    """A run's metadata: the ``command`` that ran it, today's date, the machine
    (:func:`satedge.system.machine.described`), the Python version, the minutes since the
    ``time.time()`` ``started``, and ``more``."""
    return {
        "date": date.today().isoformat(),
        "machine": described(),
        "python": platform.python_version(),
        "minutes": (time.time() - started) / 60,
        "command": command,
        **more,
    }


def main(
    doc: str | None,
    report_path: Path,
    report: Callable[..., str],
    measure: Callable[[argparse.Namespace], list[dict] | None],
    rows: Path | None = None,
    options: Callable[[argparse.ArgumentParser], None] | None = None,
    after: Callable[..., None] | None = None,
    merge: Callable[[argparse.Namespace, dict, list[dict], list[dict], dict], tuple[dict, list[dict]]]
    | None = None,
    argv: list[str] | None = None,
) -> int:
    """A benchmark's command line: ``--report`` writes the report (and ``after`` its figures) from
    the committed files alone; else ``measure(args)`` runs the benchmark first.

    With ``rows`` (a file of rows behind one line of metadata), ``measure`` gives a run's rows,
    kept there with the run's :func:`metadata` (the command: the script's, with its arguments),
    and ``report(rows, meta)`` and ``after(rows, meta)`` read them; ``merge(args, meta, committed,
    fresh, when)``, where given, makes the rows and metadata to keep from the committed ones and
    the fresh run's (``when``: its metadata), for a script that measures a part again.  Without
    ``rows`` (a benchmark of specs, whose runs write their own rows), ``measure`` writes what it
    measures and ``report()`` and ``after()`` read the committed files.  ``options`` adds the
    script's own arguments."""
    parser = argparse.ArgumentParser(description=doc.strip().splitlines()[0] if doc else None)
    parser.add_argument(
        "--report", action="store_true", help="only write the report again from the committed files"
    )
    if options is not None:
        options(parser)
    args = parser.parse_args(argv)
    if rows is None:
        if not args.report:
            measure(args)
        if after is not None:
            after()
        write_atomic(report_path, report())
        return 0
    if args.report:
        meta, kept = read_rows(rows)
    else:
        started = time.time()
        fresh = measure(args) or []
        given = " ".join(argv if argv is not None else sys.argv[1:])
        when = metadata(f"python {_shown(Path(sys.argv[0]))}" + (f" {given}" if given else ""), started)
        if merge is not None and rows.exists():
            meta, kept = merge(args, *read_rows(rows), fresh, when)
        else:
            meta, kept = when, fresh
        write_rows(rows, meta, kept)
    write_atomic(report_path, report(kept, meta))
    if after is not None:
        after(kept, meta)
    return 0


def _shown(script: Path) -> Path:
    """The script as a clone's root names it (``benchmarks/NAME/bench-NAME.py``)."""
    script = script.resolve()
    for parent in script.parents:
        if (parent / "pyproject.toml").is_file():
            return script.relative_to(parent)
    return Path(script.name)
