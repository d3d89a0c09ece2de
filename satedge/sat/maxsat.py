"""MaxSAT formulas (:func:`satedge.encode.maxsat.weighted`): solved by RC2, PySAT's MaxSAT
solver, over a PySAT SAT solver; by the exact solvers of the MaxSAT Evaluations in-process
(:data:`EVALUATION_SOLVERS`, through hermax, extra ``maxsat``); or by a MaxSAT solver binary on
their WCNF in the MaxSAT Evaluation's format (since 2022: a hard clause ``h 1 -2 0``, a soft one
its weight first, ``1 3 0``; no ``p`` line), whose answer is read from its ``o``, ``s`` and
``v`` lines.  Every model a solver gives must keep every hard clause, and its cost is counted
from the model, never taken from the solver."""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
from pysat.solvers import SolverNames

from ..encode.core import Encoded
from ..errors import EncodingError, SatedgeError
from ..system.extras import Need, require
from ..system.files import quoted, shown
from ..system.proctree import scratch
from .binaries import command_words, run_binary
from .cnf import objective, parse_model, write_wcnf
from .solvers import SatSolver

__all__ = [
    "wcnf_of",
    "optimum",
    "binary_optimum",
    "evaluation_optimum",
    "evaluation_solvers",
    "beyond",
    "MAXSAT_STATUS",
    "EVALUATION_SOLVERS",
]

# the MaxSAT Evaluation's exit statuses and the 's' lines that go with them
MAXSAT_STATUS = {30: "OPTIMUM FOUND", 20: "UNSATISFIABLE", 10: "SATISFIABLE", 0: "UNKNOWN"}


def wcnf_of(encoded: Encoded) -> WCNF:
    """The formula as PySAT's :class:`WCNF`: its clauses hard, its match literals soft, weight 1."""
    w = WCNF()
    w.nv = encoded.nv
    w.hard = [list(c) for c in encoded.cnf.clauses]
    w.soft = [[m] for m in encoded.soft_literals]
    w.wght = [1] * len(encoded.soft_literals)
    w.topw = len(encoded.soft_literals) + 1
    return w


def beyond(encoded: Encoded, score: int) -> list[list[int]]:
    """Clauses that say that the board scores at least ``score + 1``: that many of the formula's
    match variables are true, less the sides a cell touches itself with, which every board
    keeps (a sequential counter, PySAT's, over new variables after the formula's).  With the
    hard clauses they have no model exactly when no board scores more than ``score``."""
    loops = len(encoded.puzzle.board.adjacencies) - len(
        encoded.soft_literals
    )  # a cell's own sides: kept by every board
    if not 0 <= score - loops < len(encoded.soft_literals):
        raise SatedgeError(
            f"a score beyond {score} is no question: the board has {len(encoded.soft_literals)} edges besides "
            f"its {loops} loops"
        )
    return CardEnc.atleast(
        lits=list(encoded.soft_literals),
        bound=score - loops + 1,
        top_id=encoded.nv,
        encoding=EncType.seqcounter,
    ).clauses


# PySAT's solvers that take no assumptions, which RC2 needs (Kissat ignores them, Lingeling refuses)
NO_ASSUMPTIONS = frozenset(SolverNames.kissat404 + SolverNames.lingeling)


def optimum(encoded: Encoded, solver: SatSolver | str) -> tuple[list[int] | None, int]:
    """``(model, cost)``: an optimal model of the MaxSAT formula by RC2 over ``solver`` (its
    PySAT name; RC2's own options ``adapt``, ``exhaust`` and ``minz`` on), and its cost, the soft
    clauses it falsifies; ``(None, 0)`` when the hard clauses have no model."""
    name = solver.name if isinstance(solver, SatSolver) else SatSolver.parse(solver).name
    if name in NO_ASSUMPTIONS:
        raise SatedgeError(
            f"RC2 cannot run over {name}: PySAT's {name} takes no assumptions (it would ignore them and "
            "answer a wrong cost); choose another PySAT solver, such as cadical195"
        )
    with RC2(wcnf_of(encoded), solver=name, adapt=True, exhaust=True, minz=True) as rc2:
        model = rc2.compute()
        return (None, 0) if model is None else (list(model), int(rc2.cost))


# the exact solvers of the MaxSAT Evaluations 2023-2024 that hermax runs in-process: satedge's
# name -> (hermax's module, its class)
EVALUATION_SOLVERS = {
    "uwrmaxsat": ("hermax.incremental", "UWrMaxSAT"),
    "evalmaxsat": ("hermax.non_incremental", "EvalMaxSAT"),
    "cashwmaxsat": ("hermax.non_incremental", "CASHWMaxSAT"),
    "wmaxcdcl": ("hermax.non_incremental", "WMaxCDCL"),
    "cgss": ("hermax.non_incremental", "CGSS"),
    "openwbo": ("hermax.non_incremental", "OpenWBO"),
}
HERMAX = Need(module="hermax", extra="maxsat")
HERMAX_OPTIMUM, HERMAX_UNSAT = 30, 20  # IPAMIR's statuses (hermax.core.ipamir_solver_interface)


def model_cost(encoded: Encoded, model: list[int], who: str) -> int:
    """The soft clauses a solver's ``model`` falsifies, once it is checked to keep every hard
    clause (else an error that names ``who`` and the first clause it breaks)."""
    true = set(model)
    for i, clause in enumerate(encoded.cnf.clauses, 1):
        if not any(lit in true for lit in clause):
            raise EncodingError(
                f"{who} gave a model that falsifies hard clause {i:,} ({shown(' '.join(map(str, clause)) + ' 0', 60)})"
            )
    return sum(1 for m in encoded.soft_literals if m not in true)


def evaluation_solvers() -> list[str]:
    """The solvers of :data:`EVALUATION_SOLVERS` that start here (none without hermax)."""
    if not HERMAX.met():
        return []
    works = []
    for name, (module, cls) in EVALUATION_SOLVERS.items():
        try:
            getattr(require(module), cls)().close()
        except Exception:
            continue
        works.append(name)
    return works


def evaluation_optimum(encoded: Encoded, name: str) -> tuple[list[int] | None, int]:
    """``(model, cost)``: an optimal model of the MaxSAT formula by the MaxSAT Evaluation solver
    ``name`` (of :data:`EVALUATION_SOLVERS`) in this process, and its cost, the soft clauses it
    falsifies; ``(None, 0)`` when the hard clauses have no model.  A solver that ends otherwise
    than with an optimum or UNSAT, gives a model that breaks a hard clause or a cost that is not
    its model's, is an error that names it."""
    module, cls = EVALUATION_SOLVERS[name]
    HERMAX.check(f"the MaxSAT solver {name}")
    solver = getattr(require(module), cls)()
    try:
        for clause in encoded.cnf.clauses:
            solver.add_clause(list(clause))
        for m in encoded.soft_literals:
            solver.add_soft_unit(m, 1)
        solver.solve()
        status = int(solver.get_status())
        if status == HERMAX_UNSAT:
            return None, 0
        if status != HERMAX_OPTIMUM:
            raise SatedgeError(
                f"the MaxSAT solver {name} ended with status {status}, neither an optimum nor UNSAT"
            )
        model, claimed = list(solver.get_model() or ()), int(solver.get_cost())
    finally:
        solver.close()
    cost = model_cost(encoded, model, f"the MaxSAT solver {name}")
    if cost != claimed:
        raise EncodingError(
            f"the MaxSAT solver {name} says cost {claimed}, but its model falsifies {cost} soft clauses"
        )
    return model, cost


def binary_optimum(
    encoded: Encoded, command: str, timeout: float | None = None
) -> tuple[list[int] | None, int, bool]:
    """``(model, cost, proved)`` from a MaxSAT solver binary run on the formula's WCNF (its
    command words, then the file): the best model it printed (``v`` line: literals, or one 0 or
    1 per variable), the soft clauses that model falsifies and whether it says the cost is
    optimal (``s OPTIMUM FOUND``, exit 30); ``(None, 0, True)`` for UNSATISFIABLE.  Its model
    must keep every hard clause, and the cost of its last ``o`` line must be the model's."""
    words = command_words(command)
    name = f"MaxSAT solver command {quoted(' '.join(words), 60)}"
    with scratch() as folder:
        path = folder / "formula.wcnf"
        try:
            with open(path, "w", encoding="utf-8") as fh:
                write_wcnf(fh, encoded.cnf.clauses, encoded.soft_literals)
        except OSError as e:
            raise SatedgeError(
                f"cannot write the formula for {name} in the temporary folder {folder.parent} "
                f"({e.strerror or e}; TMPDIR names another)"
            ) from None
        code, answer, last = run_binary(words + [str(path)], folder, timeout)
    text = answer.decode("utf-8", "replace")
    lines = text.splitlines()
    said = next((line[2:].strip() for line in reversed(lines) if line.startswith("s ")), None)
    if code not in MAXSAT_STATUS or (said is not None and said != MAXSAT_STATUS[code]):
        words = last or lines[-1:] or ["no output"]
        exits = {status: exit for exit, status in MAXSAT_STATUS.items()}
        raise SatedgeError(
            f"{name} exited with {code} but said {quoted(said, 24)}, which is exit {exits[said]}"
            if said in exits
            else f"{name} exited with {code}, not a MaxSAT answer (30, 20, 10 or 0): {quoted(words[0], 40)}"
        )
    if code == 20:
        return None, 0, True
    given = [line for line in lines if line.startswith("v ")]
    if not given:
        raise SatedgeError(f"{name} found no model in its time" if code == 0 else f"{name} printed no model")
    model = parse_model(given, f"the output of {name}", encoded.nv)
    if model is None:
        raise SatedgeError(f"{name} printed no model")
    cost = model_cost(encoded, model, name)
    claimed = objective(lines)
    if claimed is not None and claimed != cost:
        raise EncodingError(
            f"{name}'s last 'o' line says cost {claimed}, but its model falsifies {cost} soft clauses"
        )
    return model, cost, code == 30
