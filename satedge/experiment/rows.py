"""The results row: one JSON object per run in ``DIR/results.jsonl``, defined here once, with
what a run's time and score are.

:data:`FIELDS` lists every field, its type and its meaning; :func:`row` writes one, and
:func:`scan_results` reads a results file back (a line that does not parse is set aside, a line
that parses but is not a row is an error naming the file and the line).  A run is ``solved``
when its status is one of :data:`SOLVED`; its time is encode plus solve seconds, and its PAR-2
score that time when solved and twice its time limit otherwise, as the SAT competitions rank.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from datetime import datetime
from pathlib import Path
from typing import Any

from ..encode import Options
from ..errors import SatedgeError
from ..jobs import Job, Result
from ..system.files import parse_json, read_bytes

__all__ = [
    "RESULTS",
    "MAX_RESULTS_BYTES",
    "REJECTED",
    "STATUSES",
    "SOLVED",
    "FIELDS",
    "ENCODED_KEYS",
    "run_time",
    "PER",
    "par2",
    "config_of",
    "result_fields",
    "row",
    "row_problem",
    "scan_results",
    "read_results",
    "unique_runs",
    "rejected_warnings",
]

RESULTS = "results.jsonl"
MAX_RESULTS_BYTES = 2**31  # 2 GB: a row takes about 1.5 kB, a spec has at most 100,000 runs
REJECTED = "results.rejected.jsonl"
STATUSES = ("SAT", "UNSAT", "OPTIMUM", "ENCODED", "TIMEOUT", "MEMOUT", "ERROR")
SOLVED = ("SAT", "UNSAT", "OPTIMUM", "ENCODED")  # OPTIMUM: a maximum proved
_NUMBER = (int, float)

# every field: its name, its type, whether every row has it (the others are null or absent where
# they do not apply) and its meaning (indented lines go on with it), as the documentation gives them
_TABLE = """
id                  string   always  a digest of what the run computes: the puzzle's sha256, base encoding and
                                     options (of one of yours, its file's sha256 too), solver, task, mode,
                                     repetition and shuffle (the key of --resume)
experiment          string   -       the spec's name
puzzle              string   always  the puzzle file as the spec found it, or generated:NAME
puzzle_name         string   always  the puzzle's name
puzzle_sha256       string   always  sha256 of the puzzle's canonical YAML: the instance, whatever its file
rows                integer  always  the board's rows
cols                integer  always  the board's columns
encoding            string   always  the encoding's name (an engine with a model of its own names itself)
base                string   -       the base encoding (the engine's name for one with a model of its own)
options             mapping  -       the encoding's options: card, symmetry, redundant (and families, counts)
encoding_sha256     string   -       of a base encoding of yours (FILE.py:NAME, a module, an entry point): the
                                     sha256 of its source file
solver              string   always  the solver configuration's string form; - for an encode task
task                string   always  solve, count, maximize or encode
mode                string   -       solutions, distinct, unique or classes
repetition          integer  always  0, 1, ...: the spec's repeat
shuffle             integer  -       the shuffle seed, or null for the puzzle as it is
timeout             number   always  the run's time limit, seconds
memory_mb           number   -       the run's memory cap, MB
status              string   always  SAT, UNSAT, OPTIMUM (maximize: the score proved best), ENCODED, TIMEOUT,
                                     MEMOUT or ERROR
error               string   -       the error in one line (ERROR, MEMOUT)
variables           integer  -       the formula's variables
clauses             integer  -       the formula's clauses
literals            integer  -       the formula's literals (encode task)
literals_per_second integer  -       literals encoded per second (encode task)
dimacs_bytes        integer  -       the DIMACS text's size (encode task)
encode_seconds      number   -       seconds spent encoding
solve_seconds       number   -       seconds spent solving (a compiled loop's compile apart: compile_seconds)
compile_seconds     number   -       the seconds the backtracker's compiled loop (C or numba) took to compile, or to
                                     load from the cache, before the search: in no other time
write_seconds       number   -       seconds spent writing DIMACS (encode task)
models              integer  -       solutions found (solve) or the count of the mode (count)
stats               mapping  -       solver statistics: conflicts, decisions, propagations, restarts
solver_calls        integer  -       calls of the SAT solver
nodes               integer  -       the backtracker's search tree: placements made
certify             string   -       the proof checker a certified run asked for (dratify, drup)
certified           string   -       what certified the answer: a proof checker (dratify, drup), or satedge.checker
                                     for solutions it accepted
proof_lemmas        integer  -       the checked proof's lemmas
proof_bytes         integer  -       the checked proof's size in DRUP text
check_seconds       number   -       seconds the proof checker took
checked             boolean  -       false where the answer rests on a solver binary's word that nothing checked
                                     (its UNSAT, or a MaxSAT binary's optimum); absent where it was checked
candidates          integer  -       the backtracker's candidates looked at
loop                string   -       the backtracker's search loop that ran the run: python, numba or c
placements_per_second integer -      the backtracker's nodes per second of its search
nodes_per_solution  number   -       the backtracker's nodes per solution found (solve) or counted (count)
score               integer  -       maximize: the best board's inner edges that fit (at the deadline, TIMEOUT)
bound               integer  -       maximize: no board scores more (the score, OPTIMUM; else the edges)
workers             integer  -       the cores the run used
parallel            mapping  -       how several workers shared the run: strategy, winner or cubes and their seconds
started_at          string   -       when the run started (ISO 8601, UTC)
finished_at         string   -       when it ended
wall_seconds        number   -       the run's wall-clock seconds, process start included
cpu_seconds         number   -       user plus system seconds of the run's whole process tree
peak_memory_mb      number   -       the most memory the run's process tree held, MB
env                 mapping  -       versions and the machine: satedge, pysat, python, numba, scipy, the C compiler
                                     (cc: its path and version), each engine's library (ortools, clingo), host, cpu
"""
_KINDS = {"string": str, "integer": int, "number": _NUMBER, "mapping": dict, "boolean": bool}


def _fields(table: str) -> dict[str, tuple[Any, bool, str]]:
    out: dict[str, tuple[Any, bool, str]] = {}
    for line in table.strip("\n").splitlines():
        if line.startswith(" "):
            name = next(reversed(out))
            kind, always, meaning = out[name]
            out[name] = (kind, always, f"{meaning} {line.strip()}")
        else:
            name, kind, need, meaning = line.split(maxsplit=3)
            out[name] = (_KINDS[kind], need == "always", meaning)
    return out


FIELDS = _fields(_TABLE)
ENCODED_KEYS = ("encode_seconds", "write_seconds", "dimacs_bytes")  # what an encode task's report needs
_KIND_NAMES = {str: "a string", int: "an integer", _NUMBER: "a number", dict: "a mapping", bool: "a boolean"}


def run_time(r: dict) -> float:
    """A run's time: encode plus solve seconds."""
    return (r.get("encode_seconds") or 0.0) + (r.get("solve_seconds") or 0.0)


PER = ("run", "instance")  # what par2 averages over


def par2(rows: list[dict], per: str = "run") -> float:
    """The PAR-2 of ``rows``, the one way satedge scores runs: a run scores its time when solved
    and twice its time limit when it ran out of time or memory (as the SAT competitions rank);
    a run that ended in an error (the engine's failure) has no time and is left out, as the
    competitions leave it out.  ``per="run"`` is the mean over the runs, ``per="instance"`` the
    mean over the instances (puzzles, by sha256) of each one's median over its runs (shuffles,
    repetitions), so that one lucky presentation does not decide; ``nan`` where no run counts.

    >>> runs = [{"status": "SAT", "solve_seconds": 1, "timeout": 10, "puzzle_sha256": "a"},
    ...         {"status": "TIMEOUT", "timeout": 10, "puzzle_sha256": "a"},
    ...         {"status": "SAT", "solve_seconds": 3, "timeout": 10, "puzzle_sha256": "b"},
    ...         {"status": "ERROR", "timeout": 10, "puzzle_sha256": "b"}]
    >>> par2(runs), par2(runs, per="instance")
    (8.0, 6.75)
    """
    if per not in PER:
        raise SatedgeError(f"PAR-2 is per run or per instance, not {per!r}")
    scored = [r for r in rows if r["status"] != "ERROR"]
    scores = [run_time(r) if r["status"] in SOLVED else 2.0 * r["timeout"] for r in scored]
    if per == "run":
        return statistics.fmean(scores) if scores else math.nan
    by: dict[str, list[float]] = {}
    for r, s in zip(scored, scores):
        by.setdefault(r["puzzle_sha256"], []).append(s)
    medians = [statistics.median(v) for v in by.values()]
    return statistics.fmean(medians) if medians else math.nan


def config_of(r: dict) -> str:
    """A row's configuration as reports name it: ``ENCODING/SOLVER``, and ``+certify=CHECKER`` for
    a run that asked for a certified answer."""
    return f"{r['encoding']}/{r['solver']}" + (f"+certify={r['certify']}" if r.get("certify") else "")


def result_fields(job: Job, res: Result, started: datetime, finished: datetime, env: dict) -> dict:
    """What a run found and cost, as row fields; a run that finished past its time limit is a
    ``TIMEOUT`` too."""
    out: dict = {
        "status": res.status,
        "variables": res.variables,
        "clauses": res.clauses,
        "encode_seconds": res.encode_seconds,
        "solve_seconds": res.solve_seconds,
        "models": 0,
        "stats": None,
    }
    if res.error:
        out["error"] = res.error
    if res.status == "ENCODED":
        out.update(
            literals=res.literals,
            write_seconds=res.write_seconds,
            dimacs_bytes=res.dimacs_bytes,
            literals_per_second=round((res.literals or 0) / max(res.encode_seconds or 0.0, 1e-9)),
        )
    if job.task == "maximize":
        out.update(score=res.score, bound=res.bound)
        out.update(res.search_figures())
    elif res.status in ("SAT", "UNSAT"):
        out["models"] = res.counts.get(job.modes[0], 0) if job.task == "count" else len(res.solutions)
        if res.nodes is None:  # the backtracker counts its nodes, the others their solver calls
            out.update(stats=res.stats.counters if res.stats.reported else None, solver_calls=res.stats.calls)
        else:
            out.update(res.search_figures())
        spent = (res.encode_seconds or 0.0) + (res.solve_seconds or 0.0)
        if job.limits.timeout is not None and spent > job.limits.timeout:
            out["status"] = "TIMEOUT"  # finished, but past the limit
    if res.certificate is not None:
        c = res.certificate.as_dict()
        out.update(
            certified=c["checker"],
            proof_lemmas=c.get("proof_lemmas"),
            proof_bytes=c.get("proof_bytes"),
            check_seconds=c.get("check_seconds"),
        )
    if not res.checked:
        out["checked"] = False
    if res.loop is not None:
        out["loop"] = res.loop
    out["workers"] = job.solver.workers  # the cores the run used
    if res.parallel:
        out["parallel"] = res.parallel
    out.update(
        started_at=started.isoformat(timespec="milliseconds"),
        finished_at=finished.isoformat(timespec="milliseconds"),
        wall_seconds=round(res.wall_seconds or 0.0, 3),
        cpu_seconds=round(res.cpu_seconds or 0.0, 3),
        peak_memory_mb=None if res.peak_memory_mb is None else round(res.peak_memory_mb, 1),
        env=env,
    )
    return out


def row(run: Any, experiment: str, fields: dict) -> dict:
    """The row of ``run`` (a :class:`satedge.experiment.spec.Run`) of ``experiment``: what it is,
    then ``fields`` (:func:`result_fields`)."""
    p, job = run.puzzle, run.job
    encoding = job.encoding
    out = {
        "id": run.id,
        "experiment": experiment,
        "puzzle": run.puzzle_path,
        "puzzle_name": p.name,
        "puzzle_sha256": run.puzzle_sha256,
        "rows": p.rows,
        "cols": p.cols,
        "encoding": run.encoding,
        "base": encoding.base if encoding is not None else run.encoding,
        "options": (encoding.options if encoding is not None else Options()).as_dict(),
        **({"encoding_sha256": encoding.sha256} if encoding is not None and encoding.sha256 else {}),
        "solver": run.solver,
        "task": job.task,
        "mode": job.modes[0],
        "repetition": run.repetition,
        "shuffle": job.shuffle,
        "timeout": job.limits.timeout,
        "memory_mb": job.limits.memory_mb,
    }
    if job.certify is not None:
        out["certify"] = job.certify
    out.update(fields)
    return out


# ---------------------------------------------------------------------------- reading
def _is(value: Any, kind: Any) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    return isinstance(value, kind) and not isinstance(value, bool)  # JSON's true is no number


def row_problem(r: Any) -> str | None:
    """Why ``r`` (a parsed line) is not a result row of satedge's, or ``None``."""
    always = [k for k, (_, required, _) in FIELDS.items() if required]
    if not isinstance(r, dict) or any(k not in r for k in always):
        return f"is not a result row (one JSON object with {', '.join(always)})"
    for key, (kind, required, _) in FIELDS.items():
        value = r.get(key)
        if (value is not None or required) and not _is(value, kind):
            return f"has {key} {json.dumps(value)[:40]}, not {_KIND_NAMES[kind]}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"has {key} {value}, not a finite number"
    if r["status"] not in STATUSES:
        return f"has status {json.dumps(r['status'])[:40]}, not one of {', '.join(STATUSES)}"
    missing = [k for k in ENCODED_KEYS if r.get(k) is None]
    if r["status"] == "ENCODED" and missing:
        return f"has status ENCODED but no {' and no '.join(missing)}"
    stats = r.get("stats")
    if stats is not None and not _is(stats.get("conflicts"), int):
        return "has stats without a number of conflicts"
    return None


def scan_results(path: str | Path) -> tuple[list[dict], list[tuple[int, bytes, str]]]:
    """The rows of a results file, and the lines that do not parse: ``(line number, the line,
    why)``.  A line that parses but is not a result row of satedge's is an error that names the
    file and the line."""
    path, rows, rejected = Path(path), [], []
    data = read_bytes(path, MAX_RESULTS_BYTES) if os.path.lexists(path) else b""
    lines = data.split(b"\n")
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            r = parse_json(raw.decode("utf-8"))
        except UnicodeDecodeError:
            rejected.append((n, raw, "is not UTF-8 text"))
            continue
        except ValueError:  # JSON's own errors, duplicate keys, numbers of thousands of digits
            cut = n == len(lines)  # no newline after it: the runner was killed while writing it
            rejected.append((n, raw, "is cut short" if cut else "does not parse as JSON"))
            continue
        problem = row_problem(r)
        if problem:
            raise SatedgeError(f"line {n} {problem}", path)
        rows.append(r)
    return rows, rejected


def read_results(path: str | Path) -> list[dict]:
    """The rows of a results file (:func:`scan_results` without the lines that do not parse)."""
    return scan_results(path)[0]


def unique_runs(rows: list[dict]) -> tuple[list[dict], int]:
    """Each run id once (its first row), and how many rows repeated an id."""
    seen: set = set()
    out = []
    for r in rows:
        if r["id"] not in seen:
            seen.add(r["id"])
            out.append(r)
    return out, len(rows) - len(out)


def rejected_warnings(path: Path, rejected: list[tuple[int, bytes, str]], where: str) -> list[str]:
    """One warning per line that does not parse: its number and why, and where it went."""
    return [f"{path}: line {n} {why}: {where}" for n, _, why in rejected]
