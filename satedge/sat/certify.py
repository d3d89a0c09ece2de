"""Certified answers: proofs that the formula has exactly the models found, in pieces, each
checked by a checker that shares no code with the solver before anything is answered.

A certificate is made of pieces.  A piece is a cube (literals over the decision variables, none
for the whole formula), the blocking clauses of the models found inside it, and a DRAT proof,
logged by the solver that found them as it searched, that the formula with the cube's literals
as unit clauses and those blocking clauses has no model left.  No search is repeated for a
proof.  With one worker there is one piece, the whole formula; with more, the formula is split
into cubes (:mod:`satedge.sat.cubes`), a piece each, and a *cover* piece proves that the formula
with the negation of every cube has no model: the cubes leave no model out.  Then:

* every piece's proof checks, and the cover names exactly the pieces' cubes;
* the blocking clauses of all pieces are distinct: no model is counted twice;

and the formula has exactly those models over its decision variables.  Each of them was decoded
and accepted by satedge's checker as it was found.  ``UNSAT`` is the case of no model.  The
puzzle's counts follow from the models, as far as the encoding is right (the encodings are
cross-checked against the backtracker, not certified).

Checkers: ``dratify`` (the default, extra ``certify``: forward DRAT checking, by its compiled
checker from the package cdclkit-native where that is installed, in Python otherwise) and
``drup`` (extra ``verified``: extracted from a formally verified Why3 checker, much slower; its
package carries the checker compiled for Linux x86-64).  A proof that a checker rejects is an
error, never an answer.  :func:`recheck` checks a certificate written with ``--proof DIR`` again,
with either checker, piece by piece on several processes (``satedge check-proof``).
:mod:`satedge.sat.proofdir` writes certificates to disk and checks them again.
"""

from __future__ import annotations

import importlib
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysat.solvers import Solver

from ..encode import Encoded
from ..errors import SatedgeError
from ..system.extras import require
from ..system.proctree import forked_map
from . import drat
from .cnf import clauses_text
from .drat import internal_clause
from .proofparts import PARTS_PER_WORKER, Tail, check_part, checksum, parts
from .solvers import DEFAULT_SOLVER

__all__ = [
    "CHECKERS",
    "DEFAULT_CHECKER",
    "CHECKED_SOLUTIONS",
    "Piece",
    "Certificate",
    "FormulaCheck",
    "prove",
    "certificate",
]

CHECKERS = ("dratify", "drup")
DEFAULT_CHECKER = "dratify"


@dataclass(frozen=True, eq=False)
class Piece:
    """A checked piece of a certificate: its ``index`` (-1: the cover), ``cube``, the
    ``blocking`` clauses of the models found in it (the cover: the cubes' negations), its
    proof's ``lemmas`` and ``bytes`` (as DRAT text), the seconds the search and the check took,
    and the ``proof`` itself when it is to be written out.  A piece that blocks pictures (a count
    by pictures) has a variable per cell and look its clauses name, ``looks`` ((cell, look) ->
    variable), and the clauses that define them, ``defined``: each implied by the encoding's
    literals for the look (:attr:`satedge.encode.Encoded.shows`).  ``early``: the proof's lemmas
    checked as it was logged, beside the enumeration (:class:`satedge.sat.proofparts.Tail`)."""

    index: int
    cube: tuple[int, ...]
    blocking: list[list[int]]
    lemmas: int
    bytes: int
    seconds: float
    check_seconds: float
    proof: drat.Proof | None = field(default=None, repr=False)
    defined: list[list[int]] = field(default_factory=list, repr=False)
    looks: dict[tuple[int, tuple], int] = field(default_factory=dict, repr=False)
    early: int = 0  # lemmas checked as the proof was logged, beside the enumeration

    def as_dict(self) -> dict:
        out = {
            "index": self.index,
            "cube": list(self.cube),
            "models": len(self.blocking) if self.index >= 0 else 0,
            "proof_lemmas": self.lemmas,
            "proof_bytes": self.bytes,
            "seconds": round(self.seconds, 4),
            "check_seconds": round(self.check_seconds, 4),
            "lemmas_checked_early": self.early,
        }
        if self.looks:
            out |= {
                "defined": len(self.defined),
                "looks": [[v, c, list(look)] for (c, look), v in self.looks.items()],
            }
        return out


CHECKED_SOLUTIONS = "satedge.checker"  # the checker of a certificate of solutions each checked, with no proof


@dataclass(frozen=True, kw_only=True)
class Certificate:
    """What certifies an answer: the ``checker`` and ``covers``, what it proves, in words; for a
    proof, its ``pieces`` (the cover included), the formula's ``models`` (or, where ``blocks`` is
    ``pictures``, the pictures they show), the proofs' ``lemmas`` and ``bytes`` in all, the
    seconds the checks took in all (after the search), the ``prover`` that logged the proofs,
    the lemmas checked ``early``, as they were logged, the ``route`` (``own``: the
    enumerating solver's proofs; ``fresh``: proved afterwards), and what it ``assumed``
    besides the encoding, in words: the formula's symmetry breaking, whose clauses the proof is
    checked against rather than derives (DRAT cannot derive them: that takes substitution- or
    propagation-redundant steps, which neither checker reads); None when nothing.  ``turned``:
    the pieces whose proofs are another's renamed by a board turn, where the symmetry breaking is
    proved instead (:mod:`satedge.encode.board_turns`).  Of solutions each checked by
    satedge's checker (a solve that found what it was asked for): :meth:`of_solutions`, no proof.

    It becomes JSON at the output edge (:meth:`as_dict`) and reads like it:
    ``certificate["proof_lemmas"]``.
    """

    checker: str
    covers: str
    pieces: int = 0
    models: int = 0
    lemmas: int = 0
    bytes: int = 0
    check_seconds: float = 0.0
    prover: str | None = None
    blocks: str = "models"
    early: int = 0
    route: str | None = None
    assumed: str | None = None
    turned: int = 0

    @classmethod
    def of_solutions(cls) -> Certificate:
        """The certificate of solutions each checked by satedge's independent checker."""
        return cls(
            checker=CHECKED_SOLUTIONS, covers="each solution given, accepted by satedge's independent checker"
        )

    @property
    def proved(self) -> bool:
        """Whether a checked proof stands behind it (else: solutions each checked)."""
        return self.checker != CHECKED_SOLUTIONS

    def as_dict(self) -> dict:
        """Its JSON form, as ``--json``, the rows and a proof folder's manifest give it."""
        if not self.proved:
            return {"certified": True, "checker": self.checker, "covers": self.covers}
        out = {
            "certified": True,
            "checker": self.checker,
            "pieces": self.pieces,
            "models": self.models,
            "proof_lemmas": self.lemmas,
            "proof_bytes": self.bytes,
            "check_seconds": round(self.check_seconds, 4),
            "lemmas_checked_early": self.early,
            "prover": self.prover,
            "covers": self.covers,
            "blocks": self.blocks,
        }
        return (
            out
            | ({"route": self.route} if self.route is not None else {})
            | ({"assumed": self.assumed} if self.assumed is not None else {})
            | ({"turned": self.turned} if self.turned else {})
        )

    def __getitem__(self, key: str) -> Any:
        return self.as_dict()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.as_dict().get(key, default)


class FormulaCheck:
    """A formula (``clauses`` over ``nv`` variables) made ready once for ``checker``; called with
    the clauses a piece adds to it and the piece's proof, it checks that the proof refutes the
    formula with those clauses, and gives the seconds the check took.  A proof the checker
    rejects is a :class:`SatedgeError`.

    Every check runs in a process of its own, which a signal or a time limit ends at once (a
    compiled check gives Python's signal handlers no turn).  With ``workers`` above one, a long
    proof checked by dratify's compiled checker is cut into parts (:mod:`satedge.sat.proofparts`),
    checked at once on that many processes, the first ones possibly as the proof was logged
    (:meth:`tail`); should a part fail, the whole proof is checked in one go and that verdict
    is the answer."""

    def __init__(self, clauses: list[list[int]], nv: int, checker: str = DEFAULT_CHECKER, workers: int = 1):
        if checker not in CHECKERS:
            raise SatedgeError(f"unknown proof checker {checker!r}; choose from {', '.join(CHECKERS)}")
        self.checker, self.nv, self.count, self.workers = checker, nv, len(clauses), max(1, workers)
        require(checker)
        self.native = _native() if checker == "dratify" else None
        if self.native is not None:
            self.base = [internal_clause(c) for c in clauses]
        else:
            self.text = clauses_text(clauses)

    def tail(self, units: tuple[int, ...], fd: int, binary: bool) -> Tail | None:
        """A :class:`~satedge.sat.proofparts.Tail` that checks parts of the proof a solver logs to
        ``fd`` as it goes, from the formula with the ``units``; None where parts are not checked."""
        if self.native is None or self.workers < 2 or multiprocessing.current_process().daemon:
            return None
        return Tail(self.native, self.nv, self.base + [internal_clause([u]) for u in units], fd, binary)

    @staticmethod
    def accepted(proof: drat.Proof, verified: tuple[int, int]) -> int:
        """The steps a tail ``verified`` (their number and checksum) that ``proof`` holds: all of
        them, or none."""
        return (
            verified[0]
            if 0 < verified[0] <= proof.steps and checksum(proof, verified[0]) == verified[1]
            else 0
        )

    def __call__(
        self, added: list[list[int]], proof: drat.Proof, verified: tuple[int, int] = (0, 0)
    ) -> float:
        """``verified``: the steps a :meth:`tail` verified, and their checksum."""
        t0 = time.perf_counter()
        nv = max(self.nv, proof.nv, max((abs(lit) for c in added for lit in c), default=0))
        if self.native is not None:
            base = self.base + [internal_clause(c) for c in added]
            first = self.accepted(proof, verified)
            cut = parts(base, proof, self.workers * PARTS_PER_WORKER, first) if self.workers > 1 else []
            if not cut or not all(
                _forked(lambda part: check_part(self.native, nv, base, proof, part), cut, self.workers)
            ):
                ok, why = _forked(lambda _: _native_whole(self.native, nv, base, proof), [None], 1)[0]
            else:
                ok, why = True, ""
        else:
            text = f"p cnf {nv} {self.count + len(added)}\n" + self.text + clauses_text(added)
            check = _dratify if self.checker == "dratify" else _drup
            ok, why = _forked(lambda _: check(text, proof), [None], 1)[0]
        if not ok:
            raise SatedgeError(f"the proof does not check ({self.checker}: {why})")
        return time.perf_counter() - t0


def _forked(fn: Callable[..., Any], tasks: list, workers: int) -> list:
    """``fn`` on each task, on forked processes that end with this one (here, one after the other,
    in a worker of :func:`~satedge.system.proctree.forked_map`, which ends with its parent and may have
    no process of its own); their results in the tasks' order."""
    if multiprocessing.current_process().daemon:
        return [fn(task) for task in tasks]
    out = list(forked_map(lambda: lambda task: (task[0], fn(task[1])), list(enumerate(tasks)), workers))
    return [value for _, value in sorted(out, key=lambda x: x[0])]


def _native_whole(native: Any, nv: int, base: list[list[int]], proof: drat.Proof) -> tuple[bool, str]:
    raw = tuple(native.check_proof(nv, base, proof.packed(), True, True))
    return bool(raw[0]) and bool(raw[9]), str(raw[1] or "no empty clause")


def _native() -> Any:
    """dratify's compiled checker: the one registered with dratify, or cdclkit-native's; None
    where neither is installed."""
    dratify = require("dratify")
    native = dratify.native_implementation()
    if native is None:
        try:
            native = importlib.import_module("cdclkit_native")
        except ImportError:
            return None
    return native if hasattr(native, "check_proof") else None


def _dratify(text: str, proof: drat.Proof) -> tuple[bool, str]:
    dratify = require("dratify")
    steps = [("d" if d else "a", tuple(lits)) for d, lits in proof.packed()]
    result = dratify.check_proof(dratify.parse_dimacs(text), steps, engine="python")
    return bool(result.ok and result.reached_empty), result.reason or "no empty clause"


def _drup(text: str, proof: drat.Proof) -> tuple[bool, str]:
    drup = require("drup")
    try:
        result = drup.check_proof_from_strings(text, proof.text().decode())
    except ValueError as e:  # what drup cannot parse
        return False, f"{e}".rstrip(".")
    return result.outcome == drup.Outcome.VALID, "the proof is not a valid DRUP refutation of the formula"


def prove(clauses: list[list[int]], solver: str = DEFAULT_SOLVER, wrong: str | None = None) -> drat.Proof:
    """A proof that ``clauses`` have no model, from a fresh solver that logs one: the cover's (a
    search of the cubes' tree, no more), or that of models a solver binary found.  Clauses that
    do have a model are an error: the cubes or the enumeration left one out, or (``wrong``) what
    the claim they check got wrong."""
    s = Solver(name=solver, bootstrap_with=clauses, with_proof=True)
    try:
        if s.solve():
            raise SatedgeError(
                wrong
                or f"{solver} found a model of what should have none: the enumeration or the cubes left "
                "a model out"
            )
        return drat.of_solver(s, solver.startswith("cadical")).refutation()
    finally:
        s.delete()


def assumed(formula: Encoded) -> str | None:
    """What a certificate of ``formula`` takes on trust besides the encoding: its symmetry
    breaking (:attr:`Certificate.assumed`), or None (none, or no rule of it applies)."""
    if formula.options.symmetry == "none" or formula.orbit == 1:
        return None
    return (
        f"the encoding's symmetry breaking ({formula.options.symmetry}): its clauses are in the formula the "
        "proof is checked against, not derived in it; that the formula keeps a solution of every board-turn "
        "orbit is not proved"
    )


def certificate(
    pieces: list[Piece],
    checker: str,
    prover: str,
    orbit: int = 1,
    weights_differ: bool = False,
    pictures: bool = False,
    multiplicities: bool = True,
    assumed: str | None = None,
) -> Certificate:
    """The certificate the checked ``pieces`` make together, after the checks that bind them: the
    cover (index -1) is there exactly when there are several cubes and names each of them, a
    single piece is the whole formula, and no model is in two pieces.  ``multiplicities``: a
    count by pictures that counts each picture's solutions too; ``assumed``: what it takes on
    trust (:func:`assumed`)."""
    cubes = [p for p in pieces if p.index >= 0]
    cover = [p for p in pieces if p.index < 0]
    if sorted(p.index for p in cubes) != list(range(len(cubes))) or not cubes:
        raise SatedgeError("a certificate's pieces are missing or doubled")
    if len(cubes) == 1 and not cover:
        if cubes[0].cube:
            raise SatedgeError("a certificate of one piece must cover the whole formula, not a cube of it")
    elif (
        len(cover) != 1
        or len(cover[0].blocking) != len(cubes)
        or {tuple(sorted(c)) for c in cover[0].blocking}
        != {tuple(sorted(-lit for lit in p.cube)) for p in cubes}
    ):
        raise SatedgeError("the cover of a certificate's cubes does not name exactly its pieces' cubes")
    seen: set[frozenset] = set()
    for p in cubes:
        for clause in p.blocking:
            key = frozenset(clause)
            if key in seen:
                raise SatedgeError(f"a model is blocked twice (piece {p.index}): it would be counted twice")
            seen.add(key)
    models = len(seen)
    covers = (
        "the formula has no model: the puzzle has no solution"
        if not models
        else f"the formula's models show exactly these {models:,} pictures, each the picture of a solution "
        "satedge's checker accepts"
        + ("; each picture's solutions and models are counted from multiplicities" if multiplicities else "")
        + (f", each model standing for its board-turn orbit of {orbit} solutions" if orbit > 1 else "")
        if pictures
        # a clause per picture
        else f"the formula has exactly these {models:,} models over its decision variables, each decoded to a "
        "solution satedge's checker accepts"
        + (f"; each stands for its board-turn orbit of {orbit} solutions" if orbit > 1 else "")
        + (
            "; some stand for several solutions, the turns of a tile that looks the same turned, which the "
            "encoding does not tell apart"
            if weights_differ
            else ""
        )
    )
    if len(cubes) > 1:
        covers += f" (in {len(cubes)} cubes, and a proof that they leave no model out)"
    return Certificate(
        checker=checker,
        pieces=len(pieces),
        models=models,
        lemmas=sum(p.lemmas for p in pieces),
        bytes=sum(p.bytes for p in pieces),
        check_seconds=sum(p.check_seconds for p in pieces),
        prover=prover,
        covers=covers,
        blocks="pictures" if pictures else "models",
        early=sum(p.early for p in pieces),
        assumed=assumed,
    )
