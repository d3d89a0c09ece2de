"""One experiment run in its own process: ``python -m satedge.experiment.worker`` reads a JSON
payload on stdin and writes one JSON result on stdout, its last line; a SAT run writes the size
of its formula first, in a line with status ``SOLVING``, so that a run killed at its timeout
still has it.

The process caps its own address space (``RLIMIT_AS``) at the run's memory limit; the runner
kills its whole session at the timeout, and the kernel kills the process when the runner ends.
A run that runs out of memory reports ``MEMOUT``.
"""

from __future__ import annotations

import json
import platform
import resource
import socket
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Callable

SOLVING = "SOLVING"  # the status of the line with the formula's size, written before the solver starts


def environment() -> dict:
    import pysat

    from .. import __version__

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), cpu)
    except OSError:
        pass
    return {"satedge": __version__, "pysat": getattr(pysat, "__version__", "?"), "python": platform.python_version(),
            # the optional extras behind the backtracker's compiled loop and the cpsat solver
            "numba": _installed("numba"), "ortools": _installed("ortools"),
            "host": socket.gethostname(), "cpu": cpu}


def _installed(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def execute(payload: dict, on_encoded: Callable[[dict], None] | None = None) -> dict:
    """Run one payload in this process and return its result fields; ``on_encoded``: called with
    the fields known once a SAT encoding is built (variables, clauses, encode seconds), before
    the solver starts."""
    import yaml

    from ..encode import Options
    from ..encode.presets import Preset, encode_preset
    from ..formats import puzzle_from_dict

    out: dict = {"status": "ERROR", "variables": None, "clauses": None, "encode_seconds": None,
                 "solve_seconds": None, "models": 0, "stats": None}
    puzzle = puzzle_from_dict(yaml.safe_load(payload["puzzle_yaml"]))
    task, mode = payload["task"], payload["mode"]
    t0 = time.perf_counter()
    if task == "encode":
        from ..dimacs import write_dimacs

        class Sink:
            def write(self, text: str) -> None:
                pass

        preset = Preset(payload["encoding"], payload["base"], Options(**payload["options"]))
        encoded = encode_preset(puzzle, preset)
        t1 = time.perf_counter()
        literals = sum(map(len, encoded.cnf.clauses))
        size = write_dimacs(encoded, Sink(), preset.name)
        t2 = time.perf_counter()
        out.update(status="ENCODED", variables=encoded.nv, clauses=len(encoded.cnf.clauses), literals=literals,
                   encode_seconds=t1 - t0, write_seconds=t2 - t1, dimacs_bytes=size, solve_seconds=0.0,
                   literals_per_second=round(literals / max(t1 - t0, 1e-9)))
        return out
    from ..solving import own_solver, run

    own = own_solver(payload["solver"])  # cpsat and backtrack ignore the encoding
    solver, workers = own or (payload["solver"], 1)
    res = run(puzzle, task, method="backtrack" if solver == "backtrack" else "sat",
              preset=None if own else Preset(payload["encoding"], payload["base"], Options(**payload["options"])),
              solver=solver, modes=(mode,), limit=1 if task == "solve" else None, workers=workers,
              on_encoded=None if on_encoded is None else lambda r: on_encoded(
                  {"status": SOLVING, "variables": r.variables, "clauses": r.clauses,
                   "encode_seconds": r.encode_seconds}))
    n = res.counts.get(mode, 0) if task == "count" else len(res.solutions)
    out.update(models=n, encode_seconds=res.encode_seconds, solve_seconds=res.solve_seconds,
               variables=res.variables or None, clauses=res.clauses or None)
    if solver != "backtrack":
        out.update(stats=res.stats.counters if res.stats.reported else None, solver_calls=res.stats.calls)
    out["status"] = "SAT" if n else "UNSAT"
    return out


def main() -> None:
    from ..solving import die_with_parent

    payload = json.loads(sys.stdin.read())
    if "parent" in payload:  # the runner's pid: killed by SIGKILL, it cannot kill its runs; the kernel does
        die_with_parent(payload["parent"])
    limit = int(payload["memory_mb"]) * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass
    sizes: dict = {}  # the SOLVING line's fields, kept for a run that fails while solving

    def solving(fields: dict) -> None:
        sizes.update(fields)
        _print(fields)

    try:
        out = execute(payload, solving)
    except MemoryError:
        out = {**sizes, "status": "MEMOUT"}
    except Exception as e:  # noqa: BLE001 - every failure of a run is a result
        out = {**sizes, "status": "ERROR", "error": f"{e.__class__.__name__}: {e}"}
    # the largest process: this one or a worker process of the backtracker
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    out["peak_memory_mb"] = round(peak / 1024, 1)
    out["env"] = environment()
    _print(out)


def _print(fields: dict) -> None:
    """One line of JSON on stdout; the run's last line is its result, an earlier one (status
    ``SOLVING``) what is known if the run is killed before it ends."""
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
