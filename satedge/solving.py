"""Enumeration through PySAT with blocking clauses, and the counts it gives.

Enumeration blocks each model on the decision variables only, so auxiliary variables never
yield one solution twice.  Three modes:

* ``solutions``: every solution;
* ``distinct``: one solution per picture; each one found blocks its picture: one clause over
  a variable per cell implied by the cell showing its look, where the encoding says what a
  cell shows (:attr:`~satedge.encode.Encoded.shows`: every shipped one), else a clause per
  solution with that picture;
* ``unique``: one per picture up to board turns; the turned pictures are blocked too.

So the number of solutions a mode yields is its count.  With symmetry breaking (an encoding's
:attr:`~satedge.encode.Encoded.orbit` above 1) each solution found stands for its whole
board-turn orbit: ``solutions`` yields one per orbit, and ``distinct`` and ``unique`` one per
orbit of pictures; :func:`count_modes` turns them into the puzzle's own counts.  Every decoded
solution goes through the independent checker; a failure raises
:class:`satedge.errors.EncodingError`.  A solver is a :class:`satedge.solvers.SolverConfig`
or a string it reads (default: CaDiCaL 1.9.5).

That is the default enumeration, ``blocking``.  A solver configured with
``enumeration=subspaces`` adds no clause: it walks a binary tree of disjoint subspaces under
assumptions.  A node is a list of assumed decision literals and, when known, a solution
inside it with the decision literals that block it (those a blocking clause would negate);
propagating the assumptions (PySAT's ``propagate``, always MiniSat's: :data:`PROPAGATOR`) gives
the literals they fix.  When all of the solution's literals are fixed, the node holds what
blocking the solution would remove, and nothing else.  Otherwise the first of them not fixed
splits the node: the side the solution is on keeps it, the other side, when propagation does
not refute it at once, is asked for a model of its own.  The subspaces partition what blocking
removes one solution at a time, so every solution comes once, and the formula stays as it
was; ``distinct`` and ``unique`` keep the first solution of each picture (of each picture up to
turns) of that stream.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Iterator

from pysat.solvers import Solver

from .checker import validate
from .encode import Encoded
from .errors import EncodingError, SatedgeError
from .files import shown
from .puzzle import Solution
from .solvers import SolverConfig, new_solver
from . import symmetry
from .symmetry import MODES, orbit

__all__ = ["PROPAGATOR", "PROGRESS_CONFLICTS", "STAT_KEYS", "Stats", "Enumerator", "solutions", "solve", "count", "count_modes"]

PROPAGATOR = "minisat22"  # whose propagate() the subspaces enumeration and the cube split use
PROGRESS_CONFLICTS = 1000  # the least slice of conflicts after which a solver call reports its statistics
STAT_KEYS = ("conflicts", "decisions", "propagations", "restarts")


@dataclass
class Stats:
    """Accumulated solver statistics (``accum_stats``) and call counts of one enumeration;
    ``reported``: whether the solver gave any (Kissat and solver binaries give none)."""

    calls: int = 0
    models: int = 0
    counters: dict = field(default_factory=lambda: dict.fromkeys(STAT_KEYS, 0))
    reported: bool = False

    def add(self, solver: Solver) -> None:
        try:
            got = solver.accum_stats() or {}
        except NotImplementedError:  # kissat exposes none
            return
        self.merge(got)

    def merge(self, counters: dict) -> None:
        """Add ``counters`` (a solver's ``accum_stats``, or another Stats' counters)."""
        self.reported = True
        for k in STAT_KEYS:
            self.counters[k] = self.counters.get(k, 0) + int(counters.get(k, 0))


class Enumerator:
    """One solver for several enumerations of the same formula.  Each enumeration's blocking
    clauses carry a fresh activation literal, switched off when it ends, so the solver (and what
    it learnt) is reused.  With ``reuse=False`` (one enumeration only) blocking clauses are
    plain and no search runs under an assumption.  Solvers without incremental solving start
    afresh each time."""

    def __init__(self, encoded: Encoded, solver: SolverConfig | str | None = None, stats: Stats | None = None,
                 reuse: bool = True, progress: Callable[[dict], None] | None = None):
        self.encoded = encoded
        self.progress = progress
        self.blocked: list[list[int]] = []  # the blocking clauses of an enumeration without activation literals
        self.reuse = reuse
        self.spent = False
        self.config = SolverConfig.of(solver)
        if not self.config.has_formula:
            raise SatedgeError(f"{self.config} has its own model: it solves no formula")
        self.stats = stats if stats is not None else Stats()
        self.top = encoded.nv
        self.solver: Solver | None = None
        self.propagator: Solver | None = None  # the subspaces enumeration's
        self.valid: set[Solution] = set()  # the solutions the checker has passed (with reuse)
        self.looks: dict[tuple, int] = {}  # (cell, look) -> a variable implied when the cell shows it
        self.defined: list[list[int]] = []  # the clauses that imply them
        if self.config.incremental:
            self.solver = new_solver(self.config, encoded.cnf.clauses, encoded.nv)

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

    def __enter__(self) -> "Enumerator":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def solutions(self, mode: str = "solutions", limit: int | None = None, cube: tuple[int, ...] = ()) -> Iterator[Solution]:
        """The solutions ``mode`` asks for (at most ``limit``); with ``cube`` (literals over the
        decision variables, assumed true) only those of the models inside the cube.  With
        ``reuse=False`` the blocking clauses stay, so a second enumeration is only allowed in mode
        ``solutions`` over cubes disjoint from the earlier ones (cube-and-conquer,
        :mod:`satedge.cubes`): a blocked solution lies in one cube only."""
        if mode not in MODES:
            raise SatedgeError(f"unknown mode {shown(mode)}; choose from {', '.join(MODES)}")
        if limit is not None and limit <= 0:
            return
        encoded, puzzle, stats = self.encoded, self.encoded.puzzle, self.stats
        incremental = self.solver is not None
        if self.config.enumeration == "subspaces":
            turns = mode == "unique" or (mode == "distinct" and encoded.orbit > 1)
            found = self._subspaces(list(cube))
            yield from islice(symmetry.one_per_picture(puzzle, found, "unique" if turns else mode), limit)
            return
        if self.spent:
            raise RuntimeError("an Enumerator made with reuse=False enumerates once, or cube by cube in mode solutions")
        self.spent = not self.reuse and not (cube and mode == "solutions")
        cube = list(cube)
        act = None
        if self.reuse:
            self.top += 1
            act = self.top
        blocks: list[list[int]] = []
        found = 0
        s = self.solver if incremental else None
        # with symmetry breaking only one turn of each picture may be a model: block the turns too
        turns = mode == "unique" or (mode == "distinct" and encoded.orbit > 1)
        try:
            while True:
                stats.calls += 1
                if incremental:
                    # no assumption before the first blocking clause: CaDiCaL searches very
                    # differently under one (25 s instead of 0.07 s on a 7x7 framed puzzle)
                    assume = cube + ([act] if act and found else [])
                    sat = self._solve(s, assume)
                else:
                    s = new_solver(self.config, encoded.cnf.clauses + self.defined + blocks + [[lit] for lit in cube],
                                   self.top)
                    sat = s.solve()
                    stats.add(s)
                if not sat:
                    break
                model = s.get_model()
                if not incremental:
                    s.delete()
                    s = None
                stats.models += 1
                first = self._checked(model, incremental)
                batch = self._valid(encoded.expand(first) if mode == "solutions" else [first])
                if mode == "solutions":
                    new = [[-lit for lit in encoded.literals(first)]]
                elif encoded.shows is not None:  # a clause per picture, whatever its solutions
                    new = self._pictures(first, turns, s if incremental else None)
                else:  # a clause per solution with the picture
                    members = orbit(puzzle, first, turns=turns)
                    new = [[-lit for lit in lits] for lits in
                           {tuple(lits) for lits in map(encoded.literals, members) if lits is not None}]
                for sol in batch:
                    yield sol
                    found += 1
                    if limit is not None and found >= limit:
                        return
                for clause in new:
                    if incremental:
                        s.add_clause(clause + ([-act] if act else []))
                        if not act:
                            self.blocked.append(clause)
                    else:
                        blocks.append(clause)
                        if not self.reuse:
                            self.blocked.append(clause)
        finally:
            if incremental:
                if act:
                    s.add_clause([-act])  # this enumeration's blocking clauses are off from now on
            elif s is not None:
                s.delete()


    def _pictures(self, solution: Solution, turns: bool, s: Solver | None) -> list[list[int]]:
        """Clauses that block every model showing ``solution``'s picture (with ``turns``: each of
        its board turns): one clause of a variable per cell, implied by the encoding's literals
        for the look the cell shows (:attr:`Encoded.shows`; defined once, kept in ``s`` and in
        :attr:`defined`).  A picture of many solutions (identical tiles) is one clause."""
        out = []
        for shown in symmetry.orbit_pictures(self.encoded.puzzle, solution, turns):
            clause = []
            for key in enumerate(shown):
                if key not in self.looks:
                    self.top += 1
                    self.looks[key] = self.top
                    implied = [[-lit for lit in both] + [self.top] for both in self.encoded.shows(*key)]
                    self.defined += implied
                    self.blocked += implied
                    for c in implied if s is not None else ():
                        s.add_clause(c)
                clause.append(-self.looks[key])
            out.append(clause)
        return out

    def _subspaces(self, cube: list[int]) -> Iterator[Solution]:
        """Every solution of the models inside ``cube``, found subspace by subspace (see the
        module's docstring); no clause is added to the solver."""
        encoded, s, stats = self.encoded, self.solver, self.stats
        if self.propagator is None:
            self.propagator = Solver(name=PROPAGATOR, bootstrap_with=encoded.cnf.clauses)
        look = self.propagator
        stack: list[tuple[list[int], list[int] | None]] = [(cube, None)]  # assumptions, a solution's literals
        while stack:
            assume, lits = stack.pop()
            if lits is None:
                stats.calls += 1
                if not self._solve(s, assume):
                    continue
                stats.models += 1
                first = self._checked(s.get_model(), True)
                yield from self._valid(encoded.expand(first))
                lits = encoded.literals(first)
                if lits is None:
                    raise EncodingError(f"{encoded.base} encoding: a model's solution has no model (solver {self.config})")
            ok, implied = look.propagate(assumptions=assume)
            if not ok:  # what the assumptions of a model's subspace imply holds in the model
                raise EncodingError(f"solver {self.config}: propagation refutes a subspace that has a model")
            fixed = set(implied) | set(assume)
            lit = next((x for x in lits if x not in fixed), None)
            if lit is None:  # the subspace holds this solution's models only (blocking it would empty it)
                continue
            if look.propagate(assumptions=assume + [-lit])[0]:
                stack.append((assume + [-lit], None))
            stack.append((assume + [lit], lits))

    def _solve(self, s: Solver, assume: list[int]) -> bool:
        """``s.solve`` under ``assume``; with ``progress``, in slices of about a second's conflicts
        (the solver keeps its state between them), reporting the solver's statistics after each."""
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
            self.progress(self.counters() or {})
            budget = max(PROGRESS_CONFLICTS, int(budget / max(time.monotonic() - t0, 1e-3)))  # a second's worth

    def _valid(self, batch: list[Solution]) -> list[Solution]:
        """``batch``, each solution passed by the independent checker; once per enumerator that
        enumerates again (``reuse``: the distinct and unique counts meet again the solutions that
        ``solutions`` checked), while one that enumerates once keeps none of them."""
        for sol in batch:
            if sol not in self.valid:
                problem = validate(self.encoded.puzzle, sol)
                if problem is not None:
                    raise EncodingError(f"{self.encoded.base} encoding gave an invalid solution: {problem} "
                                        f"(solver {self.config})", sol)
                if self.reuse:
                    self.valid.add(sol)
        return batch

    def _checked(self, model: list[int] | None, trusted: bool) -> Solution:
        """The solution a model stands for.  A model from outside (a solver binary's) must first
        satisfy every clause of the formula; one that does not, or that decodes to no placement
        per cell, is an :class:`EncodingError` that names the solver."""
        encoded = self.encoded
        if not model:
            raise EncodingError(f"solver {self.config} said SAT but gave no model")
        if not trusted:
            true = set(model)
            for i, clause in enumerate(encoded.cnf.clauses, 1):
                if not any(lit in true for lit in clause):
                    raise EncodingError(f"solver {self.config} gave a model that falsifies clause {i} of the formula "
                                        f"({shown(' '.join(map(str, clause)) + ' 0', 60)})")
        try:
            return encoded.decode(model)
        except Exception as e:  # noqa: BLE001 - whatever a malformed model does to a decoder
            raise EncodingError(f"solver {self.config} gave a model that decodes to no solution "
                                f"({e.__class__.__name__})") from None

    def counts(self, modes=MODES) -> dict[str, int]:
        """The puzzle's counts ``modes`` asks for, whatever the encoding; when ``solutions`` is
        among them also ``models``, the formula's own model count (over its decision variables:
        fewer than the solutions where a model stands for several, with symmetry breaking or
        rotations of a self-symmetric tile that an encoding cannot tell apart).

        With symmetry breaking each model stands for a board-turn orbit of ``encoded.orbit``
        solutions, all different; the pictures of an orbit can coincide (a self-symmetric
        picture), so ``distinct`` counts, for each picture up to turns, its different turns."""
        out: dict[str, int] = {}
        per_orbit, puzzle = self.encoded.orbit, self.encoded.puzzle
        if "solutions" in modes:
            before = self.stats.models
            out["solutions"] = per_orbit * sum(1 for _ in self.solutions("solutions"))
            out["models"] = self.stats.models - before
        if per_orbit > 1 and {"distinct", "unique"} & set(modes):  # one solution per orbit of pictures
            c = symmetry.count(puzzle, self.solutions("unique"), per_orbit)
            out.update(distinct=c.distinct, unique=c.unique)
        else:
            out.update({m: sum(1 for _ in self.solutions(m)) for m in modes if m != "solutions"})
        return {m: out[m] for m in modes} | ({"models": out["models"]} if "models" in out else {})


def solutions(encoded: Encoded, solver: SolverConfig | str | None = None, mode: str = "solutions",
              limit: int | None = None, stats: Stats | None = None,
              progress: Callable[[dict], None] | None = None) -> Iterator[Solution]:
    """Stream the solutions of an encoded puzzle (see the module docstring for ``mode``);
    ``progress`` is called with the solver's statistics during long solver calls."""
    with Enumerator(encoded, solver, stats, reuse=False, progress=progress) as e:
        yield from e.solutions(mode, limit)


def solve(encoded: Encoded, solver: SolverConfig | str | None = None, stats: Stats | None = None) -> Solution | None:
    """The first solution, or ``None`` when the formula is unsatisfiable."""
    return next(solutions(encoded, solver, limit=1, stats=stats), None)


def count(encoded: Encoded, solver: SolverConfig | str | None = None, mode: str = "solutions", stats: Stats | None = None) -> int:
    return count_modes(encoded, solver, (mode,), stats)[mode]


def count_modes(encoded: Encoded, solver: SolverConfig | str | None = None, modes=MODES, stats: Stats | None = None,
                progress: Callable[[dict], None] | None = None) -> dict[str, int]:
    """The puzzle's counts ``modes`` asks for, with one solver (:meth:`Enumerator.counts`)."""
    reuse = len(modes) > 1 or (encoded.orbit > 1 and bool({"distinct", "unique"} & set(modes)))
    with Enumerator(encoded, solver, stats, reuse=reuse, progress=progress) as e:
        return e.counts(modes)
