"""The ``clasp`` engine: the job's formula solved by clasp through clingo's Python API (extra
``asp``), every model enumerated by clasp itself, with no blocking clause.

The clauses go to clasp through clingo's backend, with no program text: every variable an atom
of one choice rule, every clause an integrity constraint.  Models are projected (clasp's
``--project``) on the decision variables, so that each assignment of them comes once, whatever
the auxiliaries; in modes ``distinct`` and ``unique``, and for a count whose pictures have many
models (identical tiles, as :func:`satedge.sat.solving.by_pictures` has it), on an atom per cell and
look instead, defined by the encoding's :attr:`~satedge.encode.Encoded.shows`: each picture
comes once, and its models are counted from multiplicities.  The atoms of the variables that
decoding reads carry a symbol; each model's true ones are read in blocks, decoded and checked
against the puzzle in one vectorised pass (:mod:`satedge.sat.bulk`).  The number of models clasp
reports must be the number read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import islice
from typing import Any

import numpy as np

from ..encode import Encoded
from ..errors import EncodingError
from ..jobs.engine import Engine, Task
from ..jobs.formula import encode_and_note, encode_only
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..jobs.satmethod import ENUMERATION
from ..puzzle import symmetry
from ..puzzle.model import Solution
from ..sat.bulk import Checker, Decoded, Decoder, checked
from ..sat.solving import by_pictures
from ..system.extras import Need, require
from ..system.progress import REPORT_SECONDS

__all__ = ["needs", "run", "models", "ENGINE"]

needs = Need(module="clingo", extra="asp")  # what the engine needs beyond the core


class _Reader:
    """The true symbols of each model, kept as bytes and turned into the decoder's columns block
    by block.  Through clingo's own C functions where its Python API exposes them (a model's
    symbols copied into one buffer: no Python object per symbol), else through
    :meth:`clingo.Model.symbols`."""

    def __init__(self, decoder: Decoder, on_block: Callable[[Decoded], bool]):
        self.decoder, self.on_block = decoder, on_block
        self.checker = Checker(decoder.encoded.puzzle)
        self.width = len(decoder.read)  # true symbols of a model at most (look atoms have none)
        self.chunks: list[bytes] = []  # each model's symbols, 8 bytes each
        self.lengths: list[int] = []
        self.models = 0
        self.stopped = False
        self.keys = np.zeros(0, np.uint64)  # the symbols' numbers, sorted, and the column of each
        self.columns = np.zeros(0, np.int64)
        try:
            solving = require("clingo.solving", needs, "the clasp engine")
            self._lib, self._show, self._bytes = (
                solving._lib,
                solving._lib.clingo_show_type_atoms,
                solving._ffi.buffer,
            )
            self._size = solving._ffi.new("size_t*")
            self._buffer = solving._ffi.new("clingo_symbol_t[]", max(1, self.width))
        except AttributeError:  # a clingo whose API no longer has them
            self._lib = None

    def symbols(self, symbols: dict[int, object]) -> None:
        """The symbol of each column (``k`` -> the symbol of the ``k``-th variable decoding reads)."""
        reps = np.array([self._number(s) for s in symbols.values()], np.uint64)
        order = np.argsort(reps)
        self.keys, self.columns = reps[order], np.array(list(symbols), np.int64)[order]

    def _number(self, symbol: Any) -> int:
        return symbol._rep if self._lib is not None else symbol.arguments[0].number

    def on_model(self, model: Any) -> bool:
        """Keep ``model``'s true symbols (every model: the hot path, kept short)."""
        lib, rep, size = self._lib, model._rep, self._size
        if (
            lib is not None
            and lib.clingo_model_symbols_size(rep, self._show, size)
            and size[0] <= self.width
            and lib.clingo_model_symbols(rep, self._show, self._buffer, size[0])
        ):
            self.chunks.append(self._bytes(self._buffer, 8 * size[0])[:])
            self.lengths.append(size[0])
        else:
            got = [self._number(s) for s in model.symbols(atoms=True) if s.name == "v"]
            self.chunks.append(np.array(got, np.uint64).tobytes())
            self.lengths.append(len(got))
        self.models += 1
        if len(self.lengths) == self.decoder.size:
            self.flush()
        return not self.stopped

    def flush(self) -> None:
        if not self.lengths:
            return
        got = np.frombuffer(b"".join(self.chunks), np.uint64)
        n, rows = len(self.lengths), np.repeat(np.arange(len(self.lengths)), self.lengths)
        self.chunks, self.lengths = [], []
        at = np.searchsorted(self.keys, got)
        at[at >= len(self.keys)] = 0
        known = self.keys[at] == got
        if not known.all():
            raise EncodingError("clasp gave a model with an atom satedge did not give it")
        block = self.decoder.block(n)
        self.decoder.fill(block, n, rows, self.columns[at])
        done = checked(
            self.decoder.decode(block), self.checker, f"{self.decoder.encoded.base} encoding", " (clasp)"
        )
        self.stopped = not self.on_block(done) or self.stopped


def models(
    formula: Encoded,
    on_block: Callable[[Decoded], bool],
    limit: int | None = None,
    pictures: bool = False,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Enumerate the formula's models with clasp, projected on its decision variables (with
    ``pictures``: on its pictures), at most ``limit``; ``on_block`` gets them decoded and
    checked, block by block, and returns False to stop.  ``progress`` is called with the
    number of models read, about every second.  The number of models read."""
    clingo = require("clingo", needs, "the clasp engine")
    decoder = Decoder(formula)
    reader = _Reader(decoder, on_block)
    ctl = clingo.Control([f"--models={limit or 0}", "--project=project"])
    nv, read = formula.nv, {v: k for k, v in enumerate(decoder.read, 1)}
    with ctl.backend() as b:
        symbols = {}
        atom = [0]
        for v in range(1, nv + 1):
            if v in read:
                symbols[read[v]] = clingo.Function("v", [clingo.Number(read[v])])
                atom.append(b.add_atom(symbols[read[v]]))
            else:
                atom.append(b.add_atom())
        b.add_rule(atom[1:], choice=True)
        for clause in formula.cnf.clauses:
            b.add_rule([], [-atom[lit] if lit > 0 else atom[-lit] for lit in clause])
        if pictures and formula.shows is not None:
            looks = {
                (c, formula.puzzle.oriented(t, r))
                for c, cell in enumerate(formula.cells())
                for _, t, rotations in cell
                for r, _ in rotations
            }
            shown = []
            for c, look in sorted(looks, key=repr):
                a = b.add_atom()
                for both in formula.shows(c, look):
                    b.add_rule([a], [atom[lit] if lit > 0 else -atom[-lit] for lit in both])
                shown.append(a)
            b.add_project(shown)
        else:
            b.add_project([atom[v] for v in formula.decision])
    reader.symbols(symbols)
    ctl.ground([("base", [])])
    with ctl.solve(on_model=reader.on_model, async_=True) as handle:
        while not handle.wait(REPORT_SECONDS):
            if progress is not None:
                progress(reader.models)
        handle.get()
    reader.flush()
    said = int(ctl.statistics["summary"]["models"]["enumerated"])
    if said != reader.models:
        raise EncodingError(f"clasp reported {said:,} models but gave {reader.models:,}")
    return reader.models


def run(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with clasp."""
    res = Result("UNSAT")
    formula = encode_and_note(job, res, note)
    t1 = time.perf_counter()
    found: list[int] = [0]

    def progress(n: int, pictures: bool = False) -> None:
        """The models read so far: each a solution at least, or a picture (``pictures``)."""
        if job.reporting and note is not None:
            found_so_far = (
                {"pictures": n, "solutions": found[0]} if pictures else {"solutions": max(found[0], n)}
            )
            note({"progress": {"models": n, **found_so_far, "seconds": round(time.perf_counter() - t1, 3)}})

    if job.task == "count":
        res.counts = _counts(job, formula, res, found, progress)
    else:
        res.solutions = _solutions(job, formula, res, found, progress)
    res.solve_seconds = time.perf_counter() - t1
    return res.settled()


def _solutions(
    job: Job, formula: Encoded, res: Result, found: list[int], progress: Callable[..., None]
) -> list[Solution]:
    mode, limit, puzzle = job.modes[0], job.limit, job.board
    out: list[Solution] = []
    if mode == "solutions":

        def take(block: Decoded) -> bool:
            out.extend(
                islice(
                    (s for sol in block.solutions() for s in formula.expand(sol)),
                    None if limit is None else limit - len(out),
                )
            )
            found[0] = len(out)
            return limit is None or len(out) < limit

        res.stats.models = models(formula, take, limit, progress=progress)
        return out
    witnesses: list[Solution] = []

    def witness(block: Decoded) -> bool:
        witnesses.extend(block.solutions())
        return True

    res.stats.models = models(
        formula,
        witness,
        pictures=formula.shows is not None,
        progress=progress,
    )
    return list(islice(symmetry.one_per_picture(puzzle, witnesses, mode, formula.orbit), limit))


def _counts(
    job: Job, formula: Encoded, res: Result, found: list[int], progress: Callable[..., None]
) -> dict[str, int]:
    puzzle, per_orbit = job.board, formula.orbit
    out: dict[str, int] = {}
    if "solutions" in job.modes and not by_pictures(formula, job.solver.get("enumeration"), job.modes):

        def tally(block: Decoded) -> bool:
            found[0] += sum(block.weights)
            return True

        out["models"] = res.stats.models = models(formula, tally, progress=progress)
        out["solutions"] = per_orbit * found[0]
    if set(job.modes) - set(out):  # every picture once, counted from multiplicities where asked
        witnesses: list[Solution] = []

        def witness(block: Decoded) -> bool:
            witnesses.extend(block.solutions())
            return True

        n = models(
            formula,
            witness,
            pictures=formula.shows is not None,
            progress=lambda n: progress(n, pictures=formula.shows is not None),
        )
        pictures = {symmetry.picture(puzzle, s) for s in witnesses}
        if per_orbit > 1:
            pictures = {symmetry.turn_picture(puzzle, p, k) for p in pictures for k in puzzle.board_turns}
        if "solutions" not in out and "solutions" in job.modes:
            tallies = [formula.picture_counts(p) for p in pictures]
            out["solutions"] = per_orbit * sum(s for s, _ in tallies)
            out["models"] = sum(m for _, m in tallies)
            res.stats.models = n
        out.update(symmetry.counts(puzzle, witnesses, tuple(m for m in job.modes if m not in out), per_orbit))
    return {m: out[m] for m in job.modes} | ({"models": out["models"]} if "models" in out else {})


ENGINE = Engine(
    name="clasp",
    solves_formula=True,
    options=(ENUMERATION,),
    needs=needs,
    tasks={
        **dict.fromkeys(("solve", "count"), Task(run=run)),
        "encode": Task(run=encode_only),
    },
    summary="clasp (clingo) on the formula: every model enumerated natively, projected on the decision "
    "variables, with no blocking clause",
)
