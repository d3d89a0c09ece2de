"""DIMACS solver binaries (the ``cmd`` engine): a command line's words, the binaries that work
here, and :class:`ExternalSolver`, a binary behind PySAT's interface that takes nothing it says
on trust."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import IO

from ..errors import EncodingError, SatedgeError
from ..system.files import quoted, shown
from ..system.proctree import kill_tree, popen, scratch
from .cnf import answer_status, parse_model, write_plain

__all__ = [
    "PROBE",
    "KNOWN_BINARIES",
    "RESULT_FILE",
    "MAX_ANSWER_BYTES",
    "command_words",
    "solver_binaries",
    "ExternalSolver",
    "run_binary",
]

KNOWN_BINARIES = (
    "cadical",
    "kissat",
    "minisat",
    "glucose",
    "glucose-syrup",
    "cryptominisat5",
    "lingeling",
    "plingeling",
    "picosat",
    "clasp",
    "varisat",
    "mergesat",
)  # programs `satedge solvers` looks for
RESULT_FILE = ("minisat",)  # binaries that write their model to a file named after the formula, not to stdout
MAX_ANSWER_BYTES = 2**30  # a model of millions of variables takes tens of MB
PROBE = [[1, 2], [-1, 2], [-2, 3]]  # (x1 or x2), (not x1 or x2), (not x2 or x3): x2 and x3 in every model


def command_words(command: str, look_up: bool = True) -> list[str]:
    """The words of a solver command line; an empty one, one that does not parse or (with
    ``look_up``) one that names no program on PATH is bad input."""
    if not isinstance(command, str) or not command.strip():
        raise SatedgeError(
            "the solver command is empty: give a solver binary and its options, e.g. 'cadical -q'"
        )
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise SatedgeError(f"solver command {quoted(command, 60)}: {e}") from None
    if look_up and shutil.which(words[0]) is None:
        raise SatedgeError(f"solver command {quoted(command, 60)} not found on PATH")
    return words


def _binary_works(path: str) -> bool:
    """Whether a binary solves a small formula as satedge runs it (:class:`ExternalSolver`: a
    model on stdout, or in the result file of :data:`RESULT_FILE`'s binaries)."""
    try:
        s = ExternalSolver(path, PROBE, 3, timeout=10)
        return s.solve() and set(s.get_model() or ()) >= {2, 3}
    except (SatedgeError, EncodingError):
        return False


def solver_binaries() -> dict[str, str]:
    """Well-known DIMACS solver binaries on PATH that work as ``cmd:NAME``, with their paths."""
    found = {b: shutil.which(b) for b in KNOWN_BINARIES}
    return {b: path for b, path in found.items() if path and _binary_works(path)}


class ExternalSolver:
    """A DIMACS solver binary behind PySAT's interface (non-incremental: each ``solve`` writes the
    formula to a temporary file and runs the command on it; exit 10 SAT, 20 UNSAT).

    Its output goes to files, not pipes, and its answer is taken when it exits, whatever its own
    children still hold open; they are killed then.  The model is read from SAT-competition
    output (``s``/``v`` lines) or, for the binaries of :data:`RESULT_FILE`, from the result file
    they are given after the formula (MiniSat's ``SAT`` then literals).  Nothing it says is
    taken on trust: its exit status and its status line must agree, and its model must satisfy
    every clause it was given (the first ``formula`` of them the formula's, the rest blocking
    clauses, definitions and assumptions), so that a binary that repeats a model, ignores a
    clause or contradicts itself is an error that names it, never an answer."""

    def __init__(
        self,
        command: str,
        bootstrap_with: list[list[int]],
        nv: int,
        formula: int | None = None,
        timeout: float | None = None,
    ):
        self.command = command_words(command)
        self.name = f"cmd:{command}"
        self.clauses = bootstrap_with
        self.formula = len(bootstrap_with) if formula is None else formula
        self.nv = nv  # the formula's variables; blocking clauses use no others
        self.timeout = timeout
        self.model: list[int] | None = None

    def solve(self) -> bool:
        name = f"solver command {quoted(' '.join(self.command), 60)}"
        with scratch() as folder:
            cnf, result = folder / "formula.cnf", folder / "result.txt"
            try:
                with open(cnf, "w") as fh:
                    write_plain(self.clauses, self.nv, fh)
            except OSError as e:
                raise SatedgeError(
                    f"cannot write the formula for {name} in the temporary folder {folder.parent} "
                    f"({e.strerror or e}; TMPDIR names another)"
                ) from None
            words = (
                self.command
                + [str(cnf)]
                + ([str(result)] if Path(self.command[0]).name in RESULT_FILE else [])
            )
            code, answer, last = run_binary(words, folder, self.timeout)
            text = (
                result.read_bytes()[:MAX_ANSWER_BYTES]
                if result.is_file() and result.stat().st_size
                else answer
            ).decode("utf-8", "replace")
        said = answer_status(text)
        if code == 20:
            if said not in (None, "UNSAT"):
                raise SatedgeError(
                    f"{name} exited with 20 (UNSAT) but printed status {said}: a contradictory answer"
                )
            return False
        if code != 10:
            words = last or answer.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise SatedgeError(f"{name} exited with {code}: {quoted(words[0], 120)}")
        if said not in (None, "SAT"):
            raise SatedgeError(
                f"{name} exited with 10 (SAT) but printed status {said}: a contradictory answer"
            )
        self.model = parse_model(text, f"the output of {name}", self.nv)
        if self.model is None:
            raise SatedgeError(f"{name} exited with 10 (SAT) but printed no model")
        self._check(self.model)
        return True

    def _check(self, model: list[int]) -> None:
        """The model satisfies every clause the binary was given; else an :class:`EncodingError`."""
        true = set(model)
        for i, clause in enumerate(self.clauses, 1):
            if not any(lit in true for lit in clause):
                which = (
                    "of the formula"
                    if i <= self.formula
                    else "given after the formula's (blocking a model, "
                    "or an assumption): it repeats a model or ignores a clause"
                )
                raise EncodingError(
                    f"solver {self.name} gave a model that falsifies clause {i:,} {which} "
                    f"({shown(' '.join(map(str, clause)) + ' 0', 60)})"
                )

    def get_model(self) -> list[int] | None:
        return self.model

    def accum_stats(self) -> dict:
        raise NotImplementedError("an external binary reports no statistics")

    def delete(self) -> None:
        self.model = None


def run_binary(words: list[str], folder: Path, timeout: float | None) -> tuple[int | None, bytes, list[str]]:
    """Run a binary (its output to files in ``folder``, not pipes) until it exits or ``timeout``
    seconds, then kill what it left running: its exit status (``None``: stopped at the
    timeout), the last :data:`MAX_ANSWER_BYTES` of its output and its last line on stderr."""
    with open(folder / "stdout.txt", "w+b") as out, open(folder / "stderr.txt", "w+b") as err:
        proc = popen(words, stdout=out, stderr=err, start_new_session=True)
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            kill_tree(proc.pid)  # what it left running, its own process group too
            proc.wait()
        return (
            code,
            _tail(out, MAX_ANSWER_BYTES),
            _tail(err, 4096).decode("utf-8", "replace").strip().splitlines()[-1:],
        )


def _tail(fh: IO[bytes], limit: int) -> bytes:
    """What a binary wrote to the file ``fh``: all of it up to ``limit`` bytes (a model), else its end."""
    size = fh.seek(0, os.SEEK_END)
    fh.seek(max(0, size - limit))
    return fh.read(limit)
