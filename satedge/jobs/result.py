"""What a job function gives: what it reports before it ends (:data:`Note`), and what it found and
what that cost (:class:`Result`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from ..puzzle.model import Solution
from ..sat.certify import Certificate
from ..sat.solvers import Stats
from ..system.process import Outcome

__all__ = ["Note", "Result"]

Note = Callable[[dict], None]  # what a job reports before it ends: a formula's size


@dataclass
class Result:
    """What a job found and what it cost.

    Attributes
    ----------
    status : str
        ``SAT``, ``UNSAT``, ``ENCODED`` (task ``encode``), ``TIMEOUT``, ``MEMOUT`` or ``ERROR``;
        :meth:`raise_error` turns the last two into exceptions, for callers who want them.
    solutions : list of Solution
        What task ``solve`` found.
    counts : dict
        Task ``count``: the counts of the job's modes, and for a formula ``models``, its own
        model count.
    at_least : dict
        Of a count stopped before its end (``TIMEOUT``, ``INTERRUPTED``): what it had counted by its
        last report (about every second), lower bounds: ``solutions``, and ``distinct`` where it
        counted by pictures; empty where it had reported nothing.
    orbit : int
        How many solutions each of ``solutions`` stands for (its board-turn orbit, with
        symmetry breaking).
    variables, clauses, literals, dimacs_bytes : int or None
        The formula's size, known once it is encoded, even when the job is stopped later.
    encode_seconds, write_seconds, solve_seconds : float
        Seconds spent encoding, writing and solving.
    compile_seconds : float or None
        Of an engine with a compiled loop (the backtracker's, C or numba): the seconds its compile
        took, or its load from the cache, which ``solve_seconds`` leaves out; ``None`` for the
        others.
    score, bound : int or None
        Of a maximisation: the score of the best board found (``solutions[0]``: its inner
        edges that fit, :func:`satedge.puzzle.checker.score`) and the highest score it is known
        that no board beats; equal when the score is proved optimal.
    stats : dict or None
        The solver's statistics (conflicts, decisions, propagations, restarts).
    wall_seconds, cpu_seconds, peak_memory_mb : float or None
        What the whole job cost.
    nodes, candidates : int or None
        The backtracker's search tree: its nodes, the placements it made (a tile put in a cell
        in one turn that fits its placed neighbours), and the candidates it looked at
        (:meth:`search_figures`).
    certificate : Certificate or None
        What certifies the answer (:class:`satedge.sat.certify.Certificate`; its JSON form:
        ``as_dict()``).
    parallel : dict or None
        How several workers shared the job (the strategy, the winning portfolio member, the
        cubes and the seconds each took).
    outcome : str or None
        How its process ended.
    stage : str or None
        What a stopped job was doing when it was stopped, when it said (``certifying (a proof by
        cadical195, checked by drup)``).
    loop : str or None
        The backtracker's search loop that ran the job (``python``, ``numba`` or ``c``:
        :data:`satedge.backtrack.loop.LOOPS`); ``None`` for an engine without one.
    checked : bool
        ``False`` where the answer rests on a solver binary's word that nothing checked: its
        UNSAT (no solution, the end of a count or of an enumeration) or, of a MaxSAT binary, its
        claim that a cost is optimal; a certificate (``--certify``) checks it.
    """

    status: str
    _: KW_ONLY
    solutions: list[Solution] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    at_least: dict[str, int] = field(default_factory=dict)
    variables: int | None = None
    clauses: int | None = None
    literals: int | None = None
    dimacs_bytes: int | None = None
    orbit: int = 1
    score: int | None = None
    bound: int | None = None
    encode_seconds: float | None = None
    write_seconds: float | None = None
    solve_seconds: float | None = None
    compile_seconds: float | None = None
    stats: Stats = field(default_factory=Stats)
    nodes: int | None = None
    candidates: int | None = None
    certificate: Certificate | None = None
    parallel: dict = field(default_factory=dict)
    wall_seconds: float | None = None
    cpu_seconds: float | None = None
    peak_memory_mb: float | None = None
    outcome: Outcome | None = None
    stage: str | None = None
    loop: str | None = None
    checked: bool = True

    def __repr__(self) -> str:
        """Short: the status, what was found and what it cost."""
        found = [f"{len(self.solutions)} solutions"] if self.solutions else []
        found += [f"counts {self.counts}"] if self.counts else []
        found += (
            [f"{self.variables:,} variables, {self.clauses:,} clauses"]
            if self.variables and self.clauses
            else []
        )
        found += [f"{self.wall_seconds:.3f} s"] if self.wall_seconds is not None else []
        found += [f"error {self.error!r}"] if self.error else []
        return f"Result({self.status!r}" + "".join(", " + f for f in found) + ")"

    def search_figures(self) -> dict:
        """The backtracker's figures as ``--json`` and the result rows give them: the ``loop`` that
        ran and its ``compile_seconds``, ``nodes`` and ``candidates``, ``placements_per_second``
        over the search and ``nodes_per_solution`` (per solution found, or counted); empty for
        another engine."""
        loop: dict[str, Any] = {"loop": self.loop} if self.loop else {}
        if self.compile_seconds is not None:
            loop["compile_seconds"] = round(self.compile_seconds, 6)
        if self.nodes is None:
            return loop
        out: dict[str, Any] = {"nodes": self.nodes, "candidates": self.candidates} | loop
        if self.solve_seconds:
            out["placements_per_second"] = round(self.nodes / self.solve_seconds)
        found = self.counts.get("solutions") if self.counts else len(self.solutions)
        if found:
            out["nodes_per_solution"] = round(self.nodes / found, 1)
        return out

    @classmethod
    def stopped(cls, outcome: Outcome) -> Result:
        """The result of a job one of whose parts ended without an answer; its error raises."""
        if outcome.status == "ERROR":
            outcome.unwrap("a part of the job")
        return cls(outcome.status, outcome=outcome)

    def settled(self) -> Result:
        """This result with its status: SAT when it found or counted anything, else UNSAT."""
        found = any(self.counts.values()) if self.counts else self.solutions
        self.status = "SAT" if found else "UNSAT"
        return self

    @property
    def error(self) -> str | None:
        return self.outcome.error if self.outcome is not None and self.status in ("MEMOUT", "ERROR") else None

    def raise_error(self, what: str = "solving") -> Result:
        """This result, unless it is ``MEMOUT`` (:class:`satedge.errors.OutOfMemory`, "``what``
        needs more than N MB of memory") or ``ERROR`` (:meth:`satedge.system.process.Outcome.unwrap`:
        bad input a :class:`SatedgeError`, a solution the checker rejects an
        :class:`satedge.errors.EncodingError`, any other failure a :class:`RuntimeError` with its
        traceback)."""
        if self.status in ("MEMOUT", "ERROR") and self.outcome is not None:
            self.outcome.unwrap(what)
        return self
