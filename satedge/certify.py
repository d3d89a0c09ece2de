"""Certified answers: a DRUP proof that a formula (with the blocking clauses of the solutions
found) has no further model, checked by a checker that shares no code with the solver.

* ``UNSAT``: the proof refutes the formula itself: the puzzle has no solution, as far as the
  encoding is right (the encodings are cross-checked against the backtracker, not certified);
* a count: the models found, each decoded and accepted by the independent checker, and a proof
  that the formula plus one blocking clause per model (over the decision variables) has no
  model: the formula has exactly those models.  The puzzle's counts follow from them: with
  symmetry breaking each model stands for its board-turn orbit.

Checkers: ``dratify`` (the default, extra ``certify``: forward DRAT checking in Python) and
``drup`` (extra ``verified``: extracted from a formally verified Why3 checker, slower; its
package carries the checker compiled for Linux x86-64).  A proof that a checker rejects is an
error, never an answer.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from pysat.solvers import Solver

from .errors import EncodingError, SatedgeError, cannot_write
from .extras import require
from .files import write_group

__all__ = ["CHECKERS", "DEFAULT_CHECKER", "PROOF_FILES", "Certificate", "prove", "check", "check_folder", "export"]

CHECKERS = ("dratify", "drup")
DEFAULT_CHECKER = "dratify"


@dataclass(frozen=True)
class Certificate:
    """A checked proof: the ``checker`` that accepted it, the formula it refutes (``clauses``, the
    blocking clauses of the ``models`` found among them), the proof's ``lemmas`` and ``bytes``,
    and the seconds the check took.  ``covers`` says in words what it proves."""

    checker: str
    clauses: int
    models: int
    lemmas: int
    bytes: int
    check_seconds: float
    covers: str

    def as_dict(self) -> dict:
        return {"certified": True, "checker": self.checker, "clauses": self.clauses, "models": self.models,
                "proof_lemmas": self.lemmas, "proof_bytes": self.bytes, "check_seconds": round(self.check_seconds, 4),
                "covers": self.covers}


def prove(clauses: list[list[int]], solver: str = "cadical195") -> list[str]:
    """A DRUP proof that ``clauses`` have no model, from a fresh solver that logs one (PySAT's
    ``with_proof``); the lines of the proof.  A fresh solve, not the enumeration's own: a solver
    that was given clauses between its calls (the blocking clauses) can restore clauses it had
    deleted without a proof line for them, and such a proof does not check.  If the clauses do
    have a model, the enumeration missed it: an :class:`EncodingError`."""
    s = Solver(name=solver, bootstrap_with=clauses, with_proof=True)
    try:
        if s.solve():
            raise EncodingError(f"{solver} found a model of the formula with its blocking clauses: the enumeration "
                                "missed a solution")
        return list(s.get_proof() or [])
    finally:
        s.delete()


def check(clauses: list[list[int]], nv: int, proof: list[str], checker: str = DEFAULT_CHECKER) -> float:
    """Check the DRUP ``proof`` (its lines) of ``clauses`` (over ``nv`` variables) with ``checker``;
    the seconds it took.  A proof the checker rejects is a :class:`SatedgeError`."""
    if checker not in CHECKERS:
        raise SatedgeError(f"unknown proof checker {checker!r}; choose from {', '.join(CHECKERS)}")
    t0 = time.perf_counter()
    ok, why = (_dratify if checker == "dratify" else _drup)(clauses, nv, "\n".join(proof) + "\n")
    if not ok:
        raise SatedgeError(f"the proof does not check ({checker}: {why})")
    return time.perf_counter() - t0


def _dratify(clauses: list[list[int]], nv: int, proof: str) -> tuple[bool, str]:
    dratify = require("dratify")
    formula = dratify.parse_dimacs(_dimacs(clauses, nv))
    result = dratify.check_proof(formula, proof, engine="python")
    return bool(result.ok and result.reached_empty), result.reason or "no empty clause"


def _drup(clauses: list[list[int]], nv: int, proof: str) -> tuple[bool, str]:
    drup = require("drup")
    result = drup.check_proof_from_strings(_dimacs(clauses, nv), proof)
    return result.outcome == drup.Outcome.VALID, "the proof is not a valid DRUP refutation of the formula"


def _dimacs(clauses: list[list[int]], nv: int) -> str:
    return f"p cnf {nv} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)


PROOF_FILES = ("formula.cnf", "proof.drup", "manifest.json")


def check_folder(folder: str | Path) -> Path:
    """The folder a certified answer's files go to, checked before anything is solved: a name
    that is no folder (an empty one, a file, a device, a dangling symlink), a folder that cannot
    be written, or one that holds a proof already (it would be replaced) is a one-line error."""
    if not str(folder).strip():
        raise SatedgeError("--proof names no folder: give one, e.g. --proof proof")
    path = Path(folder)
    if path.is_symlink() and not path.exists():
        raise SatedgeError("--proof names a dangling symlink: give a folder", path)
    if path.exists() and not path.is_dir():
        raise SatedgeError("--proof names a file, not a folder", path)
    held = [f for f in PROOF_FILES if (path / f).exists() or (path / f).is_symlink()]
    if held:
        raise SatedgeError(f"--proof names a folder that holds a proof already ({held[0]}): give another, or remove "
                           "it first", path)
    existing = next(p for p in (path, *path.absolute().parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise SatedgeError(f"--proof: cannot write in {existing}", path)
    return path


def export(folder: str | Path, clauses: list[list[int]], nv: int, proof: list[str], manifest: dict,
           header: list[str] = ()) -> list[Path]:
    """Write ``formula.cnf`` (the formula as checked, its blocking clauses included, after the
    comment lines of ``header``: satedge's, so that ``satedge decode`` reads it), ``proof.drup``
    and ``manifest.json`` into ``folder``, all or none, so that anyone can check them again
    (``drat-trim formula.cnf proof.drup``, ``dratify``, ``drup``, ``cake_lpr``)."""
    folder = Path(folder)
    files = {folder / "formula.cnf": "".join(line + "\n" for line in header) + _dimacs(clauses, nv),
             folder / "proof.drup": "\n".join(proof) + "\n",
             folder / "manifest.json": json.dumps(manifest, indent=2) + "\n"}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_group(files)
    except OSError as e:
        raise cannot_write(e, folder) from None
    return list(files)
