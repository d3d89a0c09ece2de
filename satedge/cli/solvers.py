"""``satedge solvers``: the PySAT solvers that work here and the solver binaries on PATH."""

from __future__ import annotations

import json

from ..solvers import solver_binaries, solver_names

__all__ = ["add", "main"]


def add(sub) -> None:
    p = sub.add_parser("solvers", help="list the PySAT solvers and the solver binaries on PATH")
    p.add_argument("--json", action="store_true", help='one object {"pysat": [...], "binaries": {name: path}}')
    p.set_defaults(func=main)


def main(args) -> int:
    names, binaries = list(solver_names()), solver_binaries()
    if args.json:
        print(json.dumps({"pysat": names, "binaries": binaries}))
    else:
        print("PySAT solvers: " + ", ".join(names))
        print("solver binaries on PATH: " + (", ".join(f"{k} ({v})" for k, v in binaries.items()) or "none"))
        print("CaDiCaL with options: cadical195:sat, cadical195:unsat,seed=3 (its configurations and seed=N)")
        print("use a binary with --solver-cmd 'cadical -q'")
    return 0
