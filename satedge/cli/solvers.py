"""``satedge solvers``: the engines (:func:`satedge.jobs.registry.engines`: satedge's and yours),
whether each can run here, the PySAT solvers that work here and the solver binaries on PATH."""

from __future__ import annotations

import argparse
import json

from ..jobs.engine import Engine
from ..jobs.registry import engines as declared
from ..sat.binaries import solver_binaries
from ..sat.maxsat import evaluation_solvers
from ..sat.solvers import solver_names

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solvers", help="list the engines, the PySAT solvers and the solver binaries on PATH")
    p.add_argument(
        "--json",
        action="store_true",
        help='one object {"engines": {name: {...}}, "pysat": [...], "maxsat": [...], "binaries": {name: path}}',
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    names, binaries, maxsat = list(solver_names()), solver_binaries(), evaluation_solvers()
    engines = {
        e.name: {
            "formula": e.solves_formula,
            "installed": e.installed(),
            "extra": e.needs and e.needs.extra,
            "needs": e.needs and (e.needs.module or e.needs.binary),
            "options": list(e.settings),
            "tasks": _tasks(e),
            "certify": "count" in e.tasks and e.tasks["count"].certifies,
            "summary": e.summary,
        }
        for e in declared().values()
    }
    if args.json:
        print(json.dumps({"engines": engines, "pysat": names, "maxsat": maxsat, "binaries": binaries}))
        return 0
    width = max(map(len, engines))
    for name, e in engines.items():
        how = f"pip install 'satedge[{e['extra']}]'" if e["extra"] else f"{e['needs']} on PATH"
        here = "" if e["installed"] else f" [not installed: {how}]"
        print(f"{name:<{width}}  {e['summary']}{here}")
    print()
    print("PySAT solvers: " + ", ".join(names))
    print(
        "MaxSAT Evaluation solvers (maximize): "
        + (", ".join(maxsat) or "none (pip install 'satedge[maxsat]')")
    )
    print("solver binaries on PATH: " + (", ".join(f"{k} ({v})" for k, v in binaries.items()) or "none"))
    print("CaDiCaL with options: cadical195:sat, cadical195:unsat,seed=3 (its configurations and seed=N)")
    print("use a binary with --solver-cmd 'cadical -q', the others with --solver NAME")
    return 0


def _tasks(e: Engine) -> list[str]:
    """What an engine answers, as this listing names it: solve, enumerate (several solutions),
    count, maximize."""
    return [
        t
        for t in ("solve", "enumerate", "count", "maximize")
        if t in e.tasks or (t == "enumerate" and "solve" in e.tasks and e.tasks["solve"].enumerates)
    ]
