"""Certified answers (:mod:`satedge.sat.certify`): the models found piece by piece, every piece's
proof checked before anything is answered.

A piece is the whole formula, or with ``strategy=cubes`` one of its cubes (:mod:`satedge.sat.cubes`,
on the workers' forked processes): its models are enumerated with blocking clauses, the cube's literals
as unit clauses, by a solver that logs its proof as it goes (the job's, when it is a PySAT
solver that writes proofs: route ``own``), so that no search is repeated for the proof.  A
solver that writes none (a binary, MiniSat, a walk of subspaces) finds the models and a fresh
CaDiCaL proves afterwards that the piece has no other (route ``fresh``).  Each piece is checked
on the process that found it; with several cubes, the cover's proof says they leave no model
out.  A whole formula's proof is checked in parts on the job's workers
(:class:`satedge.sat.certify.FormulaCheck`): measured (``benchmarks/certify/bench-certify.py``), that beats
cubes, whose proofs cost more in all than the one proof of the whole.

A maximisation's optimum is certified after any engine found it (:func:`prove_optimum`): a proof
that the hard clauses of its MaxSAT formula admit no board with one edge more."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Generator

import numpy as np

from ..encode import Encoded
from ..encode import board_turns as turns
from ..encode.maxsat import maxsat_encoding, weighted
from ..errors import SatedgeError
from ..puzzle import symmetry
from ..puzzle.model import Solution
from ..sat import certify, cubes, drat, proofdir, solving
from ..sat.dimacs import to_text
from ..sat.maxsat import beyond
from ..sat.solvers import BINARY_PROOFS, DEFAULT_SOLVER, PROOF_SOLVERS, Stats
from ..sat.solving import Enumerator
from ..system.proctree import forked_map
from .cubes import split as made_cubes
from .formula import encode_and_note, encoding_of, progress_of, sat_solver
from .job import Job
from .result import Note, Result
from .solver import SolverConfig

__all__ = ["own_proofs", "by_pictures", "run", "prove_optimum"]


def _checker(job: Job) -> str:
    """The proof checker of a certified job."""
    if job.certify is None:
        raise ValueError("a certified answer's job names its proof checker")
    return job.certify


def own_proofs(solver: SolverConfig) -> bool:
    """Whether ``solver`` logs the proof of its own enumeration (route ``own``)."""
    return solver.incremental and solver.name in PROOF_SOLVERS and solver.get("enumeration") != "subspaces"


@dataclasses.dataclass(frozen=True)
class _Found:
    """A piece's outcome on its process: the checked piece (None when the limit was reached
    before its end), its solutions (when kept) or their number, and the enumeration's stats."""

    piece: certify.Piece | None
    solutions: tuple[Solution, ...]
    count: int
    stats: Stats
    counts: dict | None = None  # a count by pictures: its counts


def by_pictures(job: Job, formula: Encoded) -> bool:
    """Whether the count comes from one solution per picture, as the plain count's does
    (:func:`satedge.sat.solving.by_pictures`), or counts pictures only (no ``solutions``) where
    the encoding says what a cell shows: one piece, whose blocking clauses block pictures."""
    if job.task != "count" or job.solver.get("enumeration") is not None:
        return False
    if "solutions" in job.modes:
        return solving.by_pictures(formula, None, job.modes)
    return formula.shows is not None


def _piece(
    formula: Encoded,
    job: Job,
    check: certify.FormulaCheck,
    keep: bool,
    limit: int | None,
    progress: Callable[[dict], None] | None = None,
    keep_proof: bool = False,
) -> Callable[[tuple[int, tuple[int, ...]]], _Found]:
    """What finds, proves and checks one piece ``(index, cube)`` on this process (``keep_proof``:
    its proof kept in the piece, as with ``--proof``)."""
    own, pictures = own_proofs(job.solver), by_pictures(job, formula)
    solver = sat_solver(job)

    def one(task: tuple[int, tuple[int, ...]]) -> _Found:
        index, cube = task
        t0 = time.perf_counter()
        stats, counts, tail, sent = Stats(), None, None, 0

        def tick(stats: dict) -> None:  # about every second of search: the tail gets what was logged
            nonlocal sent
            if tail is not None:
                tail.mark([drat.internal_clause(c) for c in e.blocked[sent:]], drat.logged(e.solver)[1])
                sent = len(e.blocked)
            if progress is not None:
                progress(stats)

        with Enumerator(
            formula,
            solver,
            stats,
            reuse=False,
            progress=tick if own else progress,
            proof=own,
            units=cube,
            images_checked=True,
        ) as e:
            log = drat.logged(e.solver) if own else None
            tail = check.tail(cube, log[0], solver.name in BINARY_PROOFS) if log is not None else None
            try:
                if pictures:
                    counts = e.counts(job.modes)
                    found: tuple[Solution, ...] = ()
                    n = counts.get("solutions", e.pictures)
                else:
                    found = tuple(e.solutions("solutions", limit)) if keep else ()
                    n = len(found) if keep else e.tally()
                if limit is not None and n >= limit:
                    return _Found(None, found, n, stats)
                proof = e.proof() if own else None
            finally:
                verified = tail.end() if tail is not None else (0, 0)
        defined = {tuple(c) for c in e.defined}  # the look variables' definitions, then the pictures' clauses
        blocking = [c for c in e.blocked if tuple(c) not in defined]
        added = [[lit] for lit in cube] + e.defined + blocking
        if proof is None:  # a solver that writes no proof: a fresh one proves the piece's end
            proof = certify.prove(formula.cnf.clauses + added, DEFAULT_SOLVER)
        seconds = time.perf_counter() - t0
        if progress is not None:
            progress({"stage": "certifying", "solutions": e.found})
        checked = check(added, proof, verified)
        early = int((~proof.deleted[: check.accepted(proof, verified)]).sum())
        piece = certify.Piece(
            index,
            cube,
            blocking,
            proof.lemmas,
            proof.size,
            seconds,
            checked,
            proof if job.proof is not None or keep_proof else None,
            e.defined,
            e.looks,
            early,
        )
        return _Found(piece, found, n, stats, counts)

    return one


def _cover(
    formula: Encoded, split: list[tuple[int, ...]], check: certify.FormulaCheck, keep_proof: bool
) -> certify.Piece:
    """The cover: a proof that the formula with every cube's negation has no model, checked."""
    t0 = time.perf_counter()
    added = [[-lit for lit in cube] for cube in split]
    proof = certify.prove(formula.cnf.clauses + added, DEFAULT_SOLVER)
    seconds = time.perf_counter() - t0
    return certify.Piece(
        -1, (), added, proof.lemmas, proof.size, seconds, check(added, proof), proof if keep_proof else None
    )


@dataclasses.dataclass(frozen=True)
class _Turned:
    """The symmetry breaking of ``symmetry: rotation``, proved: the ``formula`` without it, the
    renaming of its variables for each board turn (:func:`satedge.encode.board_turns.turns`), and the
    ``cube`` that keeps what the symmetry breaking keeps."""

    formula: Encoded
    images: dict[int, np.ndarray]
    cube: tuple[int, ...]

    @classmethod
    def of(cls, job: Job, formula: Encoded) -> _Turned | str:
        """The proved form of ``formula``'s symmetry breaking, or why there is none."""
        full = encoding_of(job).with_options(symmetry="none").encode(job.board, job.shuffle)
        images, cube = turns.turns(full), turns.cube(full)
        if cube is None:
            return "its rule keeps turns of a tile that share a variable with the turns it drops"
        if images is None:
            return (
                "no renaming of the formula's variables turns it with the board (a card encoding whose "
                "auxiliaries follow the order of their inputs has none: card=pairwise has)"
            )
        return cls(full, images, cube)

    def cube_of(self, k: int) -> tuple[int, ...]:
        """The cube of turn ``k`` (0: :attr:`cube` itself)."""
        return self.cube if k == 0 else tuple(turns.turned(self.cube, self.images[k]).tolist())

    def piece(
        self, index: int, k: int, first: certify.Piece, check: certify.FormulaCheck, keep: bool
    ) -> certify.Piece:
        """Piece ``index``: ``first``'s cube, blocking clauses and proof renamed by turn ``k``, and
        the proof checked against the formula with the renamed cube and clauses."""
        t0 = time.perf_counter()
        image = self.images[k]
        proof = first.proof
        if proof is None:
            raise ValueError("a turned piece is made from a piece that kept its proof")
        renamed = drat.Proof(
            turns.turned(proof.lits, image).astype(proof.lits.dtype), proof.ends, proof.deleted
        )
        cube = self.cube_of(k)
        blocking = [turns.turned(c, image).tolist() for c in first.blocking]
        seconds = time.perf_counter() - t0
        checked = check([[lit] for lit in cube] + blocking, renamed)
        return certify.Piece(
            index, cube, blocking, renamed.lemmas, renamed.size, seconds, checked, renamed if keep else None
        )


def run(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with a certificate."""
    res = Result("UNSAT")
    t1 = time.perf_counter()
    report = progress_of(job, note)
    if report is not None:
        report({"stage": "encoding"})
    formula = encode_and_note(job, res, note)
    t1 = time.perf_counter()
    prover = job.solver.name if own_proofs(job.solver) else DEFAULT_SOLVER
    if note is not None:  # kept if the job is stopped: it was certifying all along
        note({"stage": f"certifying (proofs by {prover}, checked by {job.certify})"})
    workers, pictures = job.solver.workers, by_pictures(job, formula)
    in_cubes = (
        workers > 1 and job.solver.get("strategy") == "cubes" or job.solver.get("cubes") is not None
    ) and not pictures
    split = made_cubes(job, formula, cubes.CUBES_PER_WORKER * workers).cubes if in_cubes else []
    split = split if len(split) > 1 else [()]
    orbit, assumed = formula.orbit, certify.assumed(formula)
    turned: _Turned | str | None = None
    if assumed is not None:
        turned = (
            "a count by pictures is not turned (with the solver's enumeration=blocking it counts models, and the "
            "symmetry breaking is proved where the formula turns)"
            if pictures
            else "cube-and-conquer's cubes are not turned"
            if len(split) > 1
            else _Turned.of(job, formula)
        )
        if isinstance(turned, _Turned):  # the formula without symmetry breaking, in a cube per turn
            formula, split, assumed = turned.formula, [turned.cube], None
        else:
            assumed = f"{assumed}: {turned}"
    check = certify.FormulaCheck(
        formula.cnf.clauses, formula.nv, _checker(job), workers if len(split) == 1 else 1
    )
    limit = job.limit if job.task == "solve" else None
    keep = job.task == "solve" or set(job.modes) != {"solutions"}
    pieces = [_cover(formula, split, check, job.proof is not None)] if len(split) > 1 else []
    if isinstance(turned, _Turned):
        every = [turned.cube_of(k) for k in (0, *sorted(turned.images))]
        pieces = [_cover(formula, every, check, job.proof is not None)]
    found: list[Solution] = []
    total, complete, counts = 0, True, None
    if report is not None:
        report({"stage": "solving"})

    def outcomes() -> Generator[_Found, None, None]:
        tasks = list(enumerate(split))
        if len(tasks) == 1:  # the whole formula: its proof is checked in parts on the workers
            one = _piece(formula, job, check, keep, limit, report, isinstance(turned, _Turned))
            yield from map(one, tasks)
        else:
            yield from forked_map(
                lambda: _piece(formula, job, check, keep, limit),
                tasks,
                workers,
                idle=None
                if report is None
                else lambda: report({"stage": "certifying", "solutions": total, "pieces": len(pieces)}),
            )

    stream = outcomes()
    try:
        for out in stream:
            res.stats.calls += out.stats.calls
            res.stats.models += out.stats.models
            if out.stats.reported:
                res.stats.merge(out.stats.counters)
            found += out.solutions
            total, counts = total + out.count, out.counts
            if out.piece is None or (limit is not None and total >= limit):
                complete = False
                break
            pieces.append(out.piece)
    finally:
        stream.close()
    res.solve_seconds = time.perf_counter() - t1
    if not complete:  # a solve that found what it was asked for: each solution checked, nothing to prove
        res.solutions = found[:limit]
        res.certificate = certify.Certificate.of_solutions()
        return res.settled()
    models = blocked = res.stats.models
    if isinstance(turned, _Turned):  # the other turns' pieces: the first's, renamed, checked again
        first = pieces[-1]
        pieces += [
            turned.piece(i, k, first, check, job.proof is not None)
            for i, k in enumerate(sorted(turned.images), 1)
        ]
        if job.proof is None:
            pieces[-len(turned.images) - 1] = dataclasses.replace(first, proof=None)
        blocked *= len(turned.images) + 1
    cert = certify.certificate(
        pieces,
        _checker(job),
        str(prover),
        1 if isinstance(turned, _Turned) else orbit,
        weights_differ=total != models,
        pictures=pictures,
        multiplicities="solutions" in job.modes,
        assumed=assumed,
    )
    if isinstance(turned, _Turned):
        cert = dataclasses.replace(
            cert,
            covers=f"{cert.covers}; the symmetry breaking proved: a cube keeps what it keeps, and each other "
            "turn's cube, its proof and its models are the first's, their variables renamed by the board turn (a "
            "renaming that maps the formula's clauses onto themselves)",
            turned=len(turned.images),
        )
    if cert.models != blocked and not pictures:  # by pictures: a model per orbit, a clause per picture of it
        raise SatedgeError(f"the pieces block {cert.models:,} models, the enumeration found {blocked:,}")
    res.certificate = dataclasses.replace(cert, route="own" if own_proofs(job.solver) else "fresh")
    if counts is not None:
        res.counts = counts
    elif job.task == "count":
        res.counts = (
            {**symmetry.counts(job.board, found, job.modes, orbit), "models": models}
            if keep
            else {"solutions": orbit * total, "models": models}
        )
    else:
        res.solutions = found
    if job.proof is not None:
        written = (
            encoding_of(job).with_options(symmetry="none")
            if isinstance(turned, _Turned)
            else encoding_of(job)
        )
        proofdir.export(
            job.proof,
            to_text(formula, written),
            formula.nv,
            len(formula.cnf.clauses),
            pieces,
            {
                **res.certificate.as_dict(),
                "puzzle": job.board.name,
                "encoding": written.name,
                "solver": str(job.solver),
                "solutions": total if pictures else orbit * total,
            },
        )
    return res.settled()


def prove_optimum(job: Job, res: Result) -> Result:
    """``res``, an optimum, with a certificate that no board scores more: a DRAT proof, by
    PySAT's default solver, that the hard clauses of the MaxSAT formula (the job's encoding, or
    the default MaxSAT encoding for an engine without one) with :func:`satedge.sat.maxsat.beyond`
    (at least one edge more) have no model, checked by ``job.certify``; with ``job.proof``, the
    formula, the constraint, the proof and the board written there (``satedge check-proof``).
    A board where every edge fits needs no proof.  An answer that no board keeps the frame and the
    clues (``UNSAT``) is certified the same way: the hard clauses alone have no model.  A search
    stopped at its time limit is answered uncertified."""
    if res.status not in ("OPTIMUM", "UNSAT"):
        return res
    formula = weighted(job.board, job.encoding if job.solver.has_formula else None, job.shuffle)
    best = res.score
    if res.status == "OPTIMUM" and best == len(job.board.board.adjacencies):
        res.certificate = certify.Certificate(
            checker=_checker(job),
            covers="every edge of the board fits, which the checker confirmed: no board scores more",
            route="fresh",
        )
        return res
    if res.status == "UNSAT" or best is None:
        added: list[list[int]] = []
        wrong = f"{job.solver} said no board keeps the frame and the clues, but one does"
        covers = "no board keeps the frame and the clues: the MaxSAT formula's hard clauses have no model"
    else:
        added = beyond(formula, best)
        wrong = f"{job.solver} said {best} edges that fit is the most, but a board with {best + 1} exists"
        covers = (
            f"no board scores more than {best}: the MaxSAT formula's hard clauses with at "
            f"least {best + 1} edges that fit have no model"
        )
    t0 = time.perf_counter()
    proof = certify.prove(formula.cnf.clauses + added, wrong=wrong)
    t1 = time.perf_counter()
    seconds = certify.FormulaCheck(formula.cnf.clauses, formula.nv, _checker(job))(added, proof)
    res.certificate = certify.Certificate(
        checker=_checker(job),
        covers=covers,
        pieces=1,
        lemmas=proof.lemmas,
        bytes=proof.size,
        check_seconds=seconds,
        prover=DEFAULT_SOLVER,
        route="fresh",
    )
    if job.proof is not None:
        piece = certify.Piece(0, (), added, proof.lemmas, proof.size, t1 - t0, seconds, proof)
        name = maxsat_encoding(job.encoding if job.solver.has_formula else None).name
        proofdir.export(
            job.proof,
            to_text(formula, name),
            formula.nv,
            len(formula.cnf.clauses),
            [piece],
            {
                **res.certificate.as_dict(),
                "task": "maximize",
                "puzzle": job.board.name,
                "encoding": name,
                "solver": str(job.solver),
                "score": best,
                "board": [list(p) for p in res.solutions[0]] if res.solutions else None,
            },
        )
    return res
