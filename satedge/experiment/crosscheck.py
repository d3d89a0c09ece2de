"""Solver-equivalence cross-check: every encoding x solver configuration against the backtracker.

For every puzzle hypothesis generates (see :mod:`satedge.puzzle.strategies`), each configuration must
give exactly the backtracker's solution set (with ``symmetry: rotation``: one solution per
board-turn orbit when the symmetry breaking applies), the same ``distinct``, ``unique`` and
``classes`` counts (symmetry breaking or not), only solutions the checker accepts, and a
DIMACS text that PySAT reads back into the same clauses.  A mismatch is shrunk by hypothesis
to a small puzzle.  Every engine of the table (:func:`satedge.jobs.registry.engines`,
satedge's and yours) can be checked: PySAT's solvers and solver binaries through one
enumerator each, the others through their jobs (:func:`satedge.jobs.execute`); the reference
backtracker too, in another cell order say.

Check your own encoding (any callable ``(puzzle, options) -> Encoded``) with one call::

    from satedge.experiment.crosscheck import check_encoding
    report = check_encoding(my_encode, examples=200)
    assert report.ok, report.describe()
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pysat.formula import CNF

from ..backtrack import search as backtrack
from ..encode import CARDS, Base, Encoded, Encoding, Options, bases, presets
from ..errors import EncodingError, SatedgeError, Unsupported
from ..jobs import Job, execute
from ..jobs.engine import Engine
from ..jobs.solver import SolverConfig
from ..puzzle import symmetry
from ..puzzle.formats import puzzle_to_yaml
from ..puzzle.model import Puzzle, Solution
from ..puzzle.solutions import solution_to_json
from ..puzzle.strategies import puzzles
from ..sat import dimacs, solving
from ..system.extras import require
from ..system.proctree import forked_map
from ..system.progress import progress_bar

__all__ = [
    "MAX_SOLUTIONS",
    "Config",
    "checks_of",
    "name",
    "describe",
    "default_configs",
    "Mismatch",
    "check_puzzle",
    "Report",
    "run",
    "check_encoding",
]

MAX_SOLUTIONS = 200  # larger solution sets are skipped: enumerating them through SAT is slow


Config = tuple[
    Encoding | None, SolverConfig
]  # an encoding and a solver; None: an engine with a model of its own


def checks_of(engine: Engine) -> tuple[str, ...]:
    """Which checks apply to ``engine``, from its entry in the table: its whole solution set
    (``solutions``), or where it finds one solution only, that one (``first``); then each count
    it answers (``distinct``, ``unique``, ``classes``; ``solutions`` is the set's size).

    >>> from satedge.jobs.registry import engine
    >>> checks_of(engine("backtrack"))
    ('solutions', 'distinct', 'unique', 'classes')
    """
    count, solve = engine.tasks.get("count"), engine.tasks.get("solve")
    counted = tuple(m for m in symmetry.MODES[1:] if count is not None and m in count.modes)
    return ("solutions" if solve is not None and solve.enumerates else "first",) + counted


def name(config: Config) -> str:
    """A configuration as the results rows name one: ``ENCODING/SOLVER``, or the solver alone
    for an engine with a model of its own.

    >>> from satedge.jobs.solver import SolverConfig
    >>> name((None, SolverConfig.parse("cpsat"))), name((Encoding.parse("support"), SolverConfig()))
    ('cpsat', 'support/cadical195:sat')
    """
    encoding, solver = config
    return str(solver) if encoding is None else f"{encoding.name}/{solver}"


def describe(config: Config) -> str:
    """A configuration in words: ``NAME (card C, symmetry S, redundant R) with SOLVER``."""
    encoding, solver = config
    if encoding is None:
        return f"{solver} (its own model)"
    o = encoding.options
    counts = f", counts {' '.join(o.counts)}" if o.counts else ""
    return (
        f"{encoding.name} (card {o.card}, symmetry {o.symmetry}, redundant {str(o.redundant).lower()}{counts}) "
        f"with {solver}"
    )


def default_configs(encodings: list[str] | None = None, solvers: list[str] | None = None) -> list[Config]:
    """Without ``encodings``: every preset with each solver that solves a formula (default
    cadical195 and minisat22), each base encoding with every exactly-one encoding (every other
    one with redundant clauses), each base with symmetry breaking and each with the count
    families (:mod:`satedge.encode.counts`; the first such solver).
    With ``encodings`` (preset or base names): each with each such solver.  An engine with a
    model of its own among the solvers (``cpsat``, ``backtrack:order=spiral``) is checked once."""
    configs = [SolverConfig.parse(s) for s in solvers or ["cadical195", "minisat22"]]
    for c in configs:
        if c.workers > 1:
            raise SatedgeError(f"the cross-check runs each configuration on one process, not {c}")
        c.check_installed()
    out: list[Config] = [(None, c) for c in configs if not c.has_formula]
    sat = [c for c in configs if c.has_formula]
    if encodings:
        return out + [(Encoding.parse(e), s) for e in encodings for s in sat]
    if not sat:
        return out
    out += [(p, s) for p in presets().values() for s in sat]
    for b in bases():
        plain = Encoding(b)
        out += [(plain.with_options(card=c, redundant=bool(i % 2)), sat[0]) for i, c in enumerate(CARDS)]
        out.append((plain.with_options(symmetry="rotation"), sat[0]))
        out.append((plain.with_options(counts=("sides", "signs", "tiles:seqcounter")), sat[0]))
    return out


@dataclass
class Mismatch:
    """A configuration that does not give the backtracker's answers on ``puzzle``: the
    ``problem``, the solutions only the backtracker has (``missing``), those only the
    configuration gave (``extra``: one the checker rejects among them) and the backtracker's
    (``expected``)."""

    config: Config
    puzzle: Puzzle
    problem: str
    missing: list[Solution] = field(default_factory=list)
    extra: list[Solution] = field(default_factory=list)
    expected: list[Solution] = field(default_factory=list)

    def describe(self) -> str:
        lines = [
            f"configuration: {describe(self.config)}",
            f"problem: {self.problem}",
            "puzzle:",
            puzzle_to_yaml(self.puzzle.with_(planted=None)).rstrip(),
        ]
        for title, sols in (
            ("missing (backtracker has them, the encoding not)", self.missing),
            ("extra (the encoding gives them, the backtracker not)", self.extra),
            ("the backtracker's solutions", [] if self.missing else self.expected),
        ):
            if sols:
                lines.append(f"{title}: {len(sols)}")
                lines += [f"  {solution_to_json(self.puzzle, s)}" for s in sols[:5]]
        return "\n".join(lines)


def check_puzzle(
    puzzle: Puzzle, configs: list[Config], expected: set[Solution] | None = None
) -> tuple[int, Mismatch | None]:
    """Check one puzzle against every configuration: ``(checks made, first mismatch or None)``."""
    if expected is None:
        expected = set(backtrack.solutions(puzzle))
    counts = symmetry.counts(puzzle, expected, symmetry.MODES)
    sha256 = dimacs.puzzle_hash(puzzle)  # once, for every configuration's DIMACS text
    checks = 0
    formulas: dict = {}  # an encoding's formula, made and read back once for all its solvers
    for config in configs:
        encoding, solver = config

        def fail(problem: str, got: list[Solution] | None = None) -> tuple[int, Mismatch]:
            got_set = set(got or [])
            return checks, Mismatch(
                config,
                puzzle,
                problem,
                missing=sorted(expected - got_set, key=repr) if got is not None else [],
                extra=sorted(got_set - expected, key=repr) if got is not None else [],
                expected=sorted(expected, key=repr),
            )

        try:
            orbit = 1
            if encoding is not None:
                if encoding not in formulas:
                    try:
                        formulas[encoding] = encoding.encode(puzzle)
                    except Unsupported:  # an encoding for framed boards only, on a puzzle without a frame
                        formulas[encoding] = None
                    if formulas[encoding] is not None:
                        back = CNF(
                            from_string=dimacs.to_text(formulas[encoding], encoding, sha256=sha256)
                        ).clauses
                        if back != formulas[encoding].cnf.clauses:
                            return fail("the DIMACS text does not read back into the same clauses")
                encoded = formulas[encoding]
                if encoded is None:
                    continue
                checks += 2  # made, and read back
                orbit = encoded.orbit
            apply = checks_of(solver.declared)
            counted = apply[1:]  # the counts beside the solution set
            if encoding is not None and solver.sat is not None:
                with solving.Enumerator(encoded, solver) as enum:
                    got = list(enum.solutions())
                    found = enum.counts(counted) if counted else {}
            else:  # through its job, as a command runs it
                got = execute(
                    Job(
                        puzzle,
                        "solve",
                        solver=solver,
                        encoding=encoding,
                        limit=None if "solutions" in apply else 1,
                    )
                ).solutions
                found = (
                    execute(Job(puzzle, "count", solver=solver, encoding=encoding, modes=counted)).counts
                    if counted
                    else {}
                )
            if len(got) != len(set(got)):
                return fail(f"{len(got) - len(set(got))} solutions found twice", got)
            if "first" in apply:  # an engine that finds one solution: one of the backtracker's, if it has any
                if len(got) != min(1, len(expected)) or not set(got) <= expected:
                    return fail(
                        f"{len(got)} first solutions, the backtracker has {len(expected)} solutions", got
                    )
            elif orbit > 1:  # symmetry breaking: one solution per board-turn orbit
                if not set(got) <= expected or len(got) * orbit != len(expected):
                    return fail(
                        f"{len(got)} solutions with symmetry breaking, expected {len(expected)} / {orbit}",
                        got,
                    )
            elif set(got) != expected:
                return fail(f"{len(got)} solutions, the backtracker has {len(expected)}", got)
            checks += 1
            for mode in counted:  # the puzzle's counts, with symmetry breaking too
                if found[mode] != counts[mode]:
                    return fail(f"{mode} count {found[mode]}, the backtracker's is {counts[mode]}")
                checks += 1
        except EncodingError as e:  # a decoded solution failed the checker
            bad = [] if e.solution is None else [e.solution]  # a model with no solution to show: none
            return checks, Mismatch(config, puzzle, str(e), extra=bad, expected=sorted(expected, key=repr))
    return checks, None


@dataclass
class Report:
    examples: int = 0
    checks: int = 0
    seconds: float = 0.0
    mismatch: Mismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def as_json(self) -> dict:
        return {
            "examples": self.examples,
            "checks": self.checks,
            "mismatches": 0 if self.ok else 1,
            "seconds": round(self.seconds, 3),
        }

    def describe(self) -> str:
        head = f"{self.examples} puzzles, {self.checks} checks, {self.seconds:.1f} s: "
        return head + ("no mismatch" if self.mismatch is None else "MISMATCH\n" + self.mismatch.describe())


def _explore(
    configs: list[Config], examples: int, seed: int, max_cells: int, tick: Callable | None = None
) -> Report:
    hyp = require("hypothesis")
    report = Report()

    @hyp.seed(seed)
    @hyp.settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[hyp.Phase.generate, hyp.Phase.shrink],
        suppress_health_check=list(hyp.HealthCheck),
        report_multiple_bugs=False,
    )
    @hyp.given(puzzles(max_cells=max_cells, max_rows=max_cells, max_cols=max_cells))
    def prop(puzzle: Puzzle) -> None:
        expected = set(backtrack.solutions(puzzle, limit=MAX_SOLUTIONS + 1))
        hyp.assume(len(expected) <= MAX_SOLUTIONS)
        checks, mismatch = check_puzzle(puzzle, configs, expected)
        if report.mismatch is None:  # count the exploration, not the shrinking
            report.examples += 1
            report.checks += checks
            if tick is not None:
                tick()
        if mismatch is not None:
            report.mismatch = mismatch  # the last one hypothesis runs is the shrunk one
            raise AssertionError(mismatch.problem)

    try:
        prop()
    except AssertionError:
        pass
    return report


def run(
    configs: list[Config], examples: int = 100, seed: int = 0, max_cells: int = 6, workers: int = 1
) -> Report:
    """Cross-check ``configs`` on ``examples`` generated puzzles, the configurations spread over
    ``workers`` processes (each sees the same puzzles)."""
    require("hypothesis")  # before any worker starts
    t0 = time.perf_counter()
    workers = max(1, min(workers, len(configs)))
    groups: dict = {}  # the configurations of one encoding stay together: its formula is made once
    for config in configs:
        groups.setdefault(config[0], []).append(config)
    chunks: list[list[Config]] = [[] for _ in range(workers)]
    for group in sorted(groups.values(), key=len, reverse=True):  # the largest first, each to the lightest
        min(chunks, key=len).extend(group)
    chunks = [c for c in chunks if c]
    workers = len(chunks)
    with progress_bar(examples, "crosscheck", "puzzle") as bar:  # each worker sees every puzzle
        if workers == 1:
            reports = [_explore(chunks[0], examples, seed, max_cells, bar.update)]
        else:
            seen = multiprocessing.get_context("fork").RawArray("q", workers)  # puzzles each worker checked

            def explore(k: int) -> tuple[int, Report]:
                def tick() -> None:
                    seen[k] += 1

                return k, _explore(chunks[k], examples, seed, max_cells, tick)

            found = forked_map(
                lambda: explore, list(range(workers)), workers, idle=lambda: bar.update(min(seen) - bar.n)
            )
            reports = [r for _, r in sorted(found)]
    out = Report(examples=max(r.examples for r in reports), checks=sum(r.checks for r in reports))
    out.mismatch = next((r.mismatch for r in reports if r.mismatch is not None), None)
    out.seconds = time.perf_counter() - t0
    return out


def check_encoding(
    encoding: Callable[[Puzzle, Options], Encoded],
    examples: int = 100,
    seed: int = 0,
    solvers: tuple[str, ...] = ("cadical195",),
    options: Options = Options(),
    max_cells: int = 6,
    name: str | None = None,
) -> Report:
    """Cross-check your own encoding callable against the backtracker, in one call."""
    called = str(name or getattr(encoding, "__name__", "custom"))
    mine = Encoding(called, options, declaration=Base(name=called, build=encoding))
    configs: list[Config] = [(mine, SolverConfig.parse(s)) for s in solvers]
    return run(configs, examples=examples, seed=seed, max_cells=max_cells)
