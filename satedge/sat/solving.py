"""Enumeration through PySAT with blocking clauses, and the counts it gives.

Enumeration blocks each model on the decision variables only, so auxiliary variables never
yield one solution twice.  Four modes:

* ``solutions``: every solution;
* ``distinct``: one solution per picture; each one found blocks its picture: one clause over
  a variable per cell implied by the cell showing its look, where the encoding says what a
  cell shows (:attr:`~satedge.encode.Encoded.shows`: every shipped one), else a clause per
  solution with that picture;
* ``unique``: one per picture up to board turns; the turned pictures are blocked too;
* ``classes``: one per picture up to the puzzle's symmetries
  (:func:`satedge.puzzle.symmetry.group`); every image of the picture is blocked too.

So the number of solutions a mode yields is its count.  With symmetry breaking (an encoding's
:attr:`~satedge.encode.Encoded.orbit` above 1) each model stands for its board-turn orbit:
``solutions`` yields one per orbit, ``unique`` one per orbit of pictures, ``distinct`` each
picture of it; :func:`count_modes` turns them into the puzzle's counts.  Where a picture has many models
(:attr:`Encoded.many_per_picture`), the counts come from the pictures, each counted from
multiplicities (:meth:`Encoded.picture_counts`).  A solver is a
:class:`satedge.sat.solvers.SatSolver`, a string it reads or an engine's configuration whose
SAT solver it is (default: CaDiCaL 1.9.5).

Models are read in blocks (:mod:`satedge.sat.bulk`), every one checked against the puzzle in one
vectorised pass (a solution rejected: :class:`satedge.errors.EncodingError`, in the checker's
words).  A block fills while the solver goes on, from one model doubling, so that a first
solution is not kept waiting.  With ``enumeration=subspaces`` no clause is added
(:mod:`satedge.sat.subspaces`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from pysat.solvers import Solver

from ..encode import Encoded
from ..errors import EncodingError, SatedgeError
from ..puzzle import symmetry
from ..puzzle.model import Solution
from ..puzzle.symmetry import DEFAULT_MODES, MODES, orbit
from ..system.files import shown
from ..system.progress import REPORT_SECONDS
from . import subspaces
from .bulk import Checker, Decoded, Decoder, checked, valid
from .decide import FillOrder, attach
from .drat import Proof, of_solver
from .solvers import BINARY_PROOFS, PROOF_SOLVERS, STAT_KEYS, SatSolver, Solverish, Stats, new_solver

__all__ = [
    "PROGRESS_CONFLICTS",
    "STAT_KEYS",
    "Stats",
    "Enumerator",
    "by_pictures",
    "solutions",
    "solve",
    "count",
    "count_modes",
]

PROGRESS_CONFLICTS = 1000  # the least slice of conflicts after which a solver call reports its statistics


class Enumerator:
    """One solver for several enumerations of the same formula.  Each enumeration's blocking
    clauses carry a fresh activation literal, switched off when it ends, so the solver (and what
    it learnt) is reused.  With ``reuse=False`` (one enumeration only) blocking clauses are
    plain and no search runs under an assumption; they are kept in :attr:`blocked`.  Solvers
    without incremental solving start afresh each time, with every clause so far.  A certificate's
    piece: ``units``, literals added as unit clauses (its cube), and ``proof``, a solver that logs
    its DRAT proof as it enumerates (:meth:`proof`)."""

    def __init__(
        self,
        encoded: Encoded,
        solver: Solverish = None,
        stats: Stats | None = None,
        reuse: bool = True,
        progress: Callable[[dict], None] | None = None,
        proof: bool = False,
        units: tuple[int, ...] = (),
        images_checked: bool = False,
    ):
        self.encoded, self.progress, self.reuse, self.spent, self.units = (
            encoded,
            progress,
            reuse,
            False,
            units,
        )
        self.images_checked = images_checked  # mode classes: each image a solution the checker accepts
        self.blocked: list[
            list[int]
        ] = []  # the blocking clauses of an enumeration without activation literals
        self.config = SatSolver.of(solver)
        self.stats = stats if stats is not None else Stats()
        self.top = encoded.nv
        self.solver: Solver | None = None
        self.propagator: Solver | None = None  # the subspaces walk's (satedge.sat.subspaces)
        self.looks: dict[tuple, int] = {}  # (cell, look) -> a variable implied when the cell shows it
        self.defined: list[list[int]] = []  # the clauses that imply them
        self._reader: tuple[Decoder, Checker] | None = None
        self.found = self.pictures = 0  # solutions (each model's weight) and pictures found so far: progress
        self.reported = time.monotonic()
        if proof and (not self.config.incremental or self.config.name not in PROOF_SOLVERS):
            raise SatedgeError(f"{self.config} logs no proof: choose one of {', '.join(PROOF_SOLVERS)}")
        self.decider: FillOrder | None = None  # the backtracker's decisions (the solver's order)
        if self.config.incremental:
            self.solver = new_solver(
                self.config, encoded.cnf.clauses + [[lit] for lit in units], encoded.nv, proof
            )
            if self.config.order is not None:
                self.decider = attach(self.solver, encoded, self.config.order)

    def proof(self) -> Proof:
        """After an enumeration that ended, the proof that the formula with the unit clauses and
        the blocking clauses has no model (up to its empty clause)."""
        return of_solver(self.solver, self.config.name in BINARY_PROOFS).refutation()

    def counters(self) -> dict | None:
        """The solver statistics spent so far (those of the solver in use included); None when the
        solver gives none."""
        out = Stats(counters=dict(self.stats.counters), reported=self.stats.reported)
        if self.solver is not None:
            out.add(self.solver)
        return out.counters if out.reported else None

    def close(self) -> None:
        if self.propagator is not None:
            self.propagator.delete()
            self.propagator = None
        if self.solver is not None:
            self.stats.add(self.solver)
            self.solver.delete()
            self.solver = None

    def __enter__(self) -> Enumerator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------ reading models
    @property
    def reader(self) -> tuple[Decoder, Checker]:
        """The bulk decoder and checker, made at the first model."""
        if self._reader is None:
            self._reader = (Decoder(self.encoded), Checker(self.encoded.puzzle))
        return self._reader

    def _checked(self, block: Any, n: int) -> Decoded:
        """The first ``n`` models of ``block`` decoded, each solution checked against the puzzle."""
        decoder, checker = self.reader
        return checked(
            decoder.decode(block[:n]), checker, f"{self.encoded.base} encoding", f" (solver {self.config})"
        )

    def read(self, model: list[int]) -> Solution:
        """A model decoded and checked alone (a picture's, whose clause waits for it): by the
        reference decoder and checker, cheaper than a block of one."""
        return valid(
            self.encoded.puzzle,
            self.encoded.decode(self._model(model)),
            f"{self.encoded.base} encoding",
            f" (solver {self.config})",
        )

    def _model(self, model: list[int] | None) -> list[int]:
        """A model the solver gave, counted; with ``progress``, a report at least every second."""
        if not model:
            raise EncodingError(f"solver {self.config} said SAT but gave no model")
        self.stats.models += 1
        if self.progress is not None and time.monotonic() - self.reported > REPORT_SECONDS:
            self.report()
        return model

    # ------------------------------------------------------------------------ enumerations
    def solutions(
        self, mode: str = "solutions", limit: int | None = None, cube: tuple[int, ...] = ()
    ) -> Iterator[Solution]:
        """The solutions ``mode`` asks for (at most ``limit``); with ``cube`` (literals over the
        decision variables, assumed true) only those of the models inside the cube.  With
        ``reuse=False`` the blocking clauses stay, so a second enumeration is only allowed in mode
        ``solutions`` over cubes disjoint from the earlier ones (cube-and-conquer,
        :mod:`satedge.sat.cubes`): a blocked solution lies in one cube only."""
        if mode not in MODES:
            raise SatedgeError(f"unknown mode {shown(mode)}; choose from {', '.join(MODES)}")
        if limit is not None and limit <= 0:
            return
        encoded, puzzle = self.encoded, self.encoded.puzzle
        if self.config.enumeration == "subspaces":
            found = (s for sol in subspaces.walk(self, list(cube)) for s in encoded.expand(sol))
            yield from islice(symmetry.one_per_picture(puzzle, found, mode, encoded.orbit), limit)
            return
        if mode == "solutions":
            found = (
                s for block in self._blocks(cube, 1) for sol in block.solutions() for s in encoded.expand(sol)
            )
            yield from islice(found, limit)
            return
        yield from islice(self._pictures(mode, cube), limit)

    def tally(self, cube: tuple[int, ...] = ()) -> int:
        """The number of solutions of the models (inside ``cube``), each model weighed by the
        solutions it stands for: mode ``solutions`` counted without a solution made."""
        if self.config.enumeration == "subspaces":
            return sum(self.encoded.weight(sol) for sol in subspaces.walk(self, list(cube)))
        return sum(sum(block.weights) for block in self._blocks(cube, self.reader[0].size))

    def _start(self, cube: Sequence[int]) -> int | None:
        """Checks that this enumeration may run; its activation literal (with ``reuse``)."""
        if self.spent:
            raise RuntimeError(
                "an Enumerator made with reuse=False enumerates once, or cube by cube in mode solutions"
            )
        self.spent = not self.reuse and not cube
        if self.reuse:
            self.top += 1
            return self.top
        return None

    def _models(
        self, cube: Sequence[int], act: int | None, blocks: list[list[int]]
    ) -> Iterator[tuple[list[int], Solver | None]]:
        """Each model of the formula (with the clauses of :attr:`defined` and ``blocks``, inside
        ``cube``), and the solver that gave it while it may still take clauses (an incremental
        one); the caller blocks it before asking for the next.  ``act`` switches this
        enumeration's clauses off at its end."""
        encoded, stats = self.encoded, self.stats
        s = self.solver
        first = True
        try:
            while True:
                stats.calls += 1
                if s is not None:
                    # no assumption before the first blocking clause: CaDiCaL searches very
                    # differently under one (25 s instead of 0.07 s on a 7x7 framed puzzle)
                    if not self.search(s, list(cube) + ([act] if act and not first else [])):
                        return
                    model = s.get_model()
                    first = False
                    yield self._model(model), s
                    continue
                one = new_solver(
                    self.config,
                    encoded.cnf.clauses + self.defined + blocks + [[lit] for lit in (*cube, *self.units)],
                    self.top,
                    formula=len(encoded.cnf.clauses),
                )
                try:
                    sat = one.solve()
                    stats.add(one)
                    model = one.get_model() if sat else None
                finally:
                    one.delete()
                if not sat:
                    return
                yield self._model(model), None
        finally:
            if s is not None and act:
                s.add_clause([-act])  # this enumeration's blocking clauses are off from now on

    def _block(self, clause: list[int], s: Solver | None, act: int | None, blocks: list[list[int]]) -> None:
        """Add a clause that blocks models: to the solver (under ``act``), or to ``blocks`` for the
        next fresh solver; kept in :attr:`blocked` unless it is switched off at the end."""
        if s is not None:
            s.add_clause(clause + [-act] if act else clause)
        else:
            blocks.append(clause)
        if not act:
            self.blocked.append(clause)

    def _blocks(self, cube: Sequence[int], first: int) -> Iterator[Decoded]:
        """Mode ``solutions``: the models in blocks, decoded and checked, the first of ``first``
        models, each next twice as large (at most the decoder's block size)."""
        act = self._start(cube)
        decoder, _ = self.reader
        size = min(first, decoder.size)
        block, n = decoder.block(size), 0
        blocks: list[list[int]] = []
        ordered = self.config.incremental  # PySAT's models list every variable in order
        for model, s in self._models(cube, act, blocks):
            clause = decoder.put(block, n, model, ordered)
            if not clause:
                raise EncodingError(f"solver {self.config} gave a model with no decision variable true")
            self._block(clause, s, act, blocks)
            n += 1
            if n == size:
                done = self._checked(block, n)
                self.found += sum(done.weights)
                yield done
                size = min(2 * size, decoder.size)
                block, n = (decoder.block(size) if len(block) < size else block), 0
        if n:
            done = self._checked(block, n)
            self.found += sum(done.weights)
            yield done

    def _pictures(
        self, mode: str, cube: Sequence[int], images: tuple[symmetry.Symmetry, ...] | None = None
    ) -> Iterator[Solution]:
        """Modes ``distinct``, ``unique`` and ``classes``: one solution per picture (per picture
        up to turns, up to the puzzle's symmetries), each found blocking its picture (with its
        images) before the next search; ``images``: the symmetries of a class, when not the
        puzzle's group."""
        encoded, puzzle = self.encoded, self.encoded.puzzle
        act = self._start(cube)
        blocks: list[list[int]] = []
        # with symmetry breaking only one turn of each picture may be a model: block the turns too
        if images is None and mode == "classes":
            images = symmetry.group(puzzle)
        elif images is None:
            images = symmetry.turns_of(puzzle) if mode == "unique" or encoded.orbit > 1 else ()
        for model, s in self._models(cube, act, blocks):
            first = self.read(model)
            if self.images_checked and mode == "classes":
                for image in symmetry.orbit_pictures(puzzle, first, images):
                    shows = symmetry.solutions_of_picture(puzzle, image, 1)
                    if not shows:
                        raise EncodingError(
                            "a symmetry of the puzzle made a picture that no placement of its tiles shows",
                            first,
                        )
                    valid(puzzle, shows[0], "a symmetry of the puzzle")
            if encoded.shows is not None:  # a clause per picture, whatever its solutions
                new = self._picture_clauses(first, images, s)
            else:  # a clause per solution with the picture
                members = orbit(puzzle, first, images)
                new = [
                    [-lit for lit in lits]
                    for lits in {tuple(lits) for lits in map(encoded.literals, members) if lits is not None}
                ]
            for picture in (
                symmetry.turned(puzzle, first) if mode == "distinct" and encoded.orbit > 1 else [first]
            ):
                self.pictures += 1
                yield picture
            for clause in new:
                self._block(clause, s, act, blocks)

    def _picture_clauses(
        self, solution: Solution, images: tuple[symmetry.Symmetry, ...], s: Solver | None
    ) -> list[list[int]]:
        """Clauses that block every model showing ``solution``'s picture (and each of its
        ``images``): one clause of a variable per cell, implied by the encoding's literals
        for the look the cell shows (:attr:`Encoded.shows`; defined once, kept in ``s`` and in
        :attr:`defined`).  A picture of many solutions (identical tiles) is one clause."""
        out = []
        for seen in symmetry.orbit_pictures(self.encoded.puzzle, solution, images):
            clause = []
            for key in enumerate(seen):
                if key not in self.looks:
                    self.top += 1
                    self.looks[key] = self.top
                    implied = self.encoded.implied(*key, self.top)
                    self.defined += implied
                    self.blocked += implied
                    if s is not None:
                        for c in implied:
                            s.add_clause(c)
                clause.append(-self.looks[key])
            out.append(clause)
        return out

    def search(self, s: Solver, assume: list[int]) -> bool:
        """``s.solve`` under ``assume``; with ``progress``, in slices of about a second's conflicts
        (the solver keeps its state between them), reporting the solver's statistics and the
        solutions found so far after each."""
        if self.progress is None:
            return s.solve(assumptions=assume) if assume else s.solve()
        budget = PROGRESS_CONFLICTS
        while True:
            t0 = time.monotonic()
            try:
                s.conf_budget(budget)
                answer = s.solve_limited(assumptions=assume)
            except NotImplementedError:  # a solver without budgets: in one go
                return s.solve(assumptions=assume) if assume else s.solve()
            if answer is not None:
                return answer
            self.report()
            budget = max(
                PROGRESS_CONFLICTS, int(budget / max(time.monotonic() - t0, 1e-3))
            )  # a second's worth

    def report(self) -> None:
        """Tell ``progress`` the solver's statistics and the solutions found so far."""
        if self.progress is not None:
            self.reported = time.monotonic()
            found = (
                {"solutions": self.found * self.encoded.orbit}
                if self.found or not self.pictures
                else {"pictures": self.pictures}
            )
            self.progress({**(self.counters() or {}), **found})

    # ------------------------------------------------------------------------ counts
    def counts(self, modes: Sequence[str] = DEFAULT_MODES) -> dict[str, int]:
        """The puzzle's counts ``modes`` asks for, whatever the encoding; when ``solutions`` is
        among them also ``models``, the formula's own model count (over its decision variables:
        fewer than the solutions where a model stands for several, with symmetry breaking or
        rotations of a self-symmetric tile that an encoding cannot tell apart).

        With symmetry breaking each model stands for a board-turn orbit of ``encoded.orbit``
        solutions, all different; the pictures of an orbit can coincide (a self-symmetric
        picture), so ``distinct`` counts, for each picture up to turns, its different turns.
        Where a picture has many models and the encoding says what a cell shows, every count
        comes from one solution per picture (:meth:`_by_pictures`)."""
        out: dict[str, int] = {}
        per_orbit, puzzle = self.encoded.orbit, self.encoded.puzzle
        if "solutions" in modes and by_pictures(self.encoded, self.config.enumeration, modes):
            out = self._by_pictures(modes)
        elif "solutions" in modes:
            before = self.stats.models
            out["solutions"] = per_orbit * self.tally()
            out["models"] = self.stats.models - before
        rest = tuple(m for m in modes if m not in out)
        if rest == ("classes",):  # one solution per class
            out["classes"] = sum(1 for _ in self.solutions("classes"))
        elif rest:
            if per_orbit > 1:  # one solution per orbit of pictures
                out.update(symmetry.counts(puzzle, self.solutions("unique"), rest, per_orbit))
            else:
                out.update({m: sum(1 for _ in self.solutions(m)) for m in modes if m not in out})
        return {m: out[m] for m in modes} | ({"models": out["models"]} if "models" in out else {})

    def _by_pictures(self, modes: Sequence[str] = DEFAULT_MODES) -> dict[str, int]:
        """The counts ``modes`` asks for and the formula's model count from one solution per
        class of pictures (:func:`satedge.puzzle.symmetry.group`; where it has too many
        relabellings to search, per picture up to board turns), each class's pictures its
        images, each picture's solutions and models counted from multiplicities
        (:meth:`Encoded.picture_counts`), not listed."""
        encoded, puzzle, per_orbit = self.encoded, self.encoded.puzzle, self.encoded.orbit
        turns = symmetry.turns_of(puzzle)
        try:
            images = symmetry.group(puzzle)
        except SatedgeError:  # the board's turns are symmetries all the same, where no clue is
            if "classes" in modes:
                raise
            images = turns if not puzzle.clues else (symmetry.Symmetry(),)
        found = list(self._pictures("classes", (), images))
        pictures = {symmetry.apply(puzzle, sym, symmetry.picture(puzzle, s)) for s in found for sym in images}
        tallies = [encoded.picture_counts(pic) for pic in pictures]
        if per_orbit == 1 and any(n == 0 for n, _ in tallies):  # an image no placement shows
            # (with symmetry breaking, the turns of a picture that the broken placements forbid show none)
            raise EncodingError(
                "a symmetry of the puzzle made a picture that no placement of its tiles shows"
            )
        solutions, models = sum(s for s, _ in tallies), sum(m for _, m in tallies)
        out = {"solutions": per_orbit * solutions, "distinct": len(pictures)}
        if "unique" in modes:
            out["unique"] = len(symmetry.orbits(puzzle, pictures, turns, closed=False))
        if "classes" in modes:
            out["classes"] = len(symmetry.orbits(puzzle, pictures, images))
        return {m: out[m] for m in modes} | {"models": models}


def by_pictures(encoded: Encoded, enumeration: str | None, modes: Sequence[str] = DEFAULT_MODES) -> bool:
    """Whether a count of ``modes`` of ``encoded`` with the solver's ``enumeration`` comes from
    one solution per class of pictures (:meth:`Enumerator._by_pictures`): with
    ``enumeration=auto`` (``None``, the default), where the encoding says what a cell shows
    (:attr:`Encoded.shows`) and a picture has many models (identical tiles), or where pictures
    are counted too and the puzzle has a symmetry (one class stands for several pictures)."""
    if enumeration is not None or encoded.shows is None:
        return False
    if encoded.many_per_picture or (set(modes) > {"solutions"} and len(encoded.puzzle.board_turns) > 1):
        return True
    if set(modes) <= {"solutions"}:
        return False
    try:
        return len(symmetry.group(encoded.puzzle)) > 1
    except SatedgeError:  # too many to search: there are symmetries
        return True


def solutions(
    encoded: Encoded,
    solver: Solverish = None,
    mode: str = "solutions",
    limit: int | None = None,
    stats: Stats | None = None,
    progress: Callable[[dict], None] | None = None,
) -> Iterator[Solution]:
    """Stream the solutions of an encoded puzzle (see the module docstring for ``mode``);
    ``progress`` is called with the solver's statistics during long solver calls."""
    with Enumerator(encoded, solver, stats, reuse=False, progress=progress) as e:
        yield from e.solutions(mode, limit)


def solve(encoded: Encoded, solver: Solverish = None, stats: Stats | None = None) -> Solution | None:
    """The first solution, or ``None`` when the formula is unsatisfiable."""
    return next(solutions(encoded, solver, limit=1, stats=stats), None)


def count(
    encoded: Encoded,
    solver: Solverish = None,
    mode: str = "solutions",
    stats: Stats | None = None,
) -> int:
    return count_modes(encoded, solver, (mode,), stats)[mode]


def count_modes(
    encoded: Encoded,
    solver: Solverish = None,
    modes: Sequence[str] = DEFAULT_MODES,
    stats: Stats | None = None,
    progress: Callable[[dict], None] | None = None,
) -> dict[str, int]:
    """The puzzle's counts ``modes`` asks for, with one solver (:meth:`Enumerator.counts`)."""
    pictures = "solutions" in modes and by_pictures(encoded, SatSolver.of(solver).enumeration, modes)
    reuse = not pictures and (
        len(modes) > 1 or (encoded.orbit > 1 and bool({"distinct", "unique", "classes"} & set(modes)))
    )
    with Enumerator(encoded, solver, stats, reuse=reuse, progress=progress) as e:
        return e.counts(modes)
