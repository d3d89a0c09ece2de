"""Certified answers: proofs that the formula has exactly the models found, in pieces, each
checked by a checker that shares no code with the solver before anything is answered.

A certificate is made of pieces.  A piece is a cube (literals over the decision variables, none
for the whole formula), the blocking clauses of the models found inside it, and a DRAT proof,
logged by the solver that found them as it searched, that the formula with the cube's literals
as unit clauses and those blocking clauses has no model left.  No search is repeated for a
proof.  With one worker there is one piece, the whole formula; with more, the formula is split
into cubes (:mod:`satedge.cubes`), a piece each, and a *cover* piece proves that the formula
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
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pysat.solvers import Solver

from . import drat
from .bulk import Checker, Decoded, Decoder, checked
from .dimacs import rebuilt
from .errors import SatedgeError, cannot_write
from .extras import require
from .files import check_input, write_group
from .proctree import forked_map

__all__ = ["CHECKERS", "DEFAULT_CHECKER", "PROOF_FILES", "Piece", "Certificate", "FormulaCheck", "prove", "certificate",
           "check_folder", "export", "recheck"]

CHECKERS = ("dratify", "drup")
DEFAULT_CHECKER = "dratify"
PROOF_FILES = ("formula.cnf", "manifest.json", "pieces")  # what a certificate's folder holds


@dataclass(frozen=True, eq=False)
class Piece:
    """A checked piece of a certificate: its ``index`` (-1: the cover), ``cube``, the
    ``blocking`` clauses of the models found in it (the cover: the cubes' negations), its
    proof's ``lemmas`` and ``bytes`` (as DRAT text), the seconds the search and the check took,
    and the ``proof`` itself when it is to be written out."""

    index: int
    cube: tuple[int, ...]
    blocking: list[list[int]]
    lemmas: int
    bytes: int
    seconds: float
    check_seconds: float
    proof: drat.Proof | None = field(default=None, repr=False)

    def as_dict(self) -> dict:
        return {"index": self.index, "cube": list(self.cube), "models": len(self.blocking) if self.index >= 0 else 0,
                "proof_lemmas": self.lemmas, "proof_bytes": self.bytes, "seconds": round(self.seconds, 4),
                "check_seconds": round(self.check_seconds, 4)}


@dataclass(frozen=True)
class Certificate:
    """A checked certificate: the ``checker``, its ``pieces`` (the cover included), the formula's
    ``models``, the proofs' ``lemmas`` and ``bytes`` in all, the seconds the checks took in
    all, the ``prover`` that logged the proofs and ``covers``: what it proves, in words."""

    checker: str
    pieces: int
    models: int
    lemmas: int
    bytes: int
    check_seconds: float
    prover: str
    covers: str

    def as_dict(self) -> dict:
        return {"certified": True, "checker": self.checker, "pieces": self.pieces, "models": self.models,
                "proof_lemmas": self.lemmas, "proof_bytes": self.bytes, "check_seconds": round(self.check_seconds, 4),
                "prover": self.prover, "covers": self.covers}


class FormulaCheck:
    """A formula (``clauses`` over ``nv`` variables) made ready once for ``checker``; called with
    the clauses a piece adds to it and the piece's proof, it checks that the proof refutes the
    formula with those clauses, and gives the seconds the check took.  A proof the checker
    rejects is a :class:`SatedgeError`."""

    def __init__(self, clauses: list[list[int]], nv: int, checker: str = DEFAULT_CHECKER):
        if checker not in CHECKERS:
            raise SatedgeError(f"unknown proof checker {checker!r}; choose from {', '.join(CHECKERS)}")
        self.checker, self.nv, self.count = checker, nv, len(clauses)
        require(checker)
        self.native = _native() if checker == "dratify" else None
        if self.native is not None:
            self.base = [_internal(c) for c in clauses]
        else:
            self.text = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)

    def __call__(self, added: list[list[int]], proof: drat.Proof) -> float:
        t0 = time.perf_counter()
        nv = max(self.nv, proof.nv, max((abs(lit) for c in added for lit in c), default=0))
        if self.native is not None:
            raw = tuple(self.native.check_proof(nv, self.base + [_internal(c) for c in added], proof.packed(), True, True))
            ok, why = bool(raw[0]) and bool(raw[9]), str(raw[1] or "no empty clause")
        else:
            text = (f"p cnf {nv} {self.count + len(added)}\n" + self.text
                    + "".join(" ".join(map(str, c)) + " 0\n" for c in added))
            ok, why = (_dratify if self.checker == "dratify" else _drup)(text, proof)
        if not ok:
            raise SatedgeError(f"the proof does not check ({self.checker}: {why})")
        return time.perf_counter() - t0


def _internal(clause) -> list[int]:
    return [2 * lit - 2 if lit > 0 else -2 * lit - 1 for lit in clause]


def _native():
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


def prove(clauses: list[list[int]], solver: str = "cadical195") -> drat.Proof:
    """A proof that ``clauses`` have no model, from a fresh solver that logs one: the cover's (a
    search of the cubes' tree, no more), or that of models a solver binary found.  Clauses that
    do have a model are an error: the cubes or the enumeration left one out."""
    s = Solver(name=solver, bootstrap_with=clauses, with_proof=True)
    try:
        if s.solve():
            raise SatedgeError(f"{solver} found a model of what should have none: the enumeration or the cubes left "
                               "a model out")
        return drat.of_solver(s, solver.startswith("cadical")).refutation()
    finally:
        s.delete()


def certificate(pieces: list[Piece], checker: str, prover: str, orbit: int = 1, weights_differ: bool = False) -> Certificate:
    """The certificate the checked ``pieces`` make together, after the checks that bind them: the
    cover (index -1) is there exactly when there are several cubes and names each of them, a
    single piece is the whole formula, and no model is in two pieces."""
    cubes = [p for p in pieces if p.index >= 0]
    cover = [p for p in pieces if p.index < 0]
    if sorted(p.index for p in cubes) != list(range(len(cubes))) or not cubes:
        raise SatedgeError("a certificate's pieces are missing or doubled")
    if len(cubes) == 1 and not cover:
        if cubes[0].cube:
            raise SatedgeError("a certificate of one piece must cover the whole formula, not a cube of it")
    elif len(cover) != 1 or {tuple(sorted(c)) for c in cover[0].blocking} != {tuple(sorted(-lit for lit in p.cube))
                                                                               for p in cubes} \
            or len(cover[0].blocking) != len(cubes):
        raise SatedgeError("the cover of a certificate's cubes does not name exactly its pieces' cubes")
    seen: set[frozenset] = set()
    for p in cubes:
        for clause in p.blocking:
            key = frozenset(clause)
            if key in seen:
                raise SatedgeError(f"a model is blocked twice (piece {p.index}): it would be counted twice")
            seen.add(key)
    models = len(seen)
    covers = ("the formula has no model: the puzzle has no solution" if not models else
              f"the formula has exactly these {models:,} models over its decision variables, each decoded to a "
              "solution satedge's checker accepts"
              + (f"; each stands for its board-turn orbit of {orbit} solutions" if orbit > 1 else "")
              + ("; some stand for several solutions, the turns of a tile that looks the same turned, which the "
                 "encoding does not tell apart" if weights_differ else ""))
    if len(cubes) > 1:
        covers += f" (in {len(cubes)} cubes, and a proof that they leave no model out)"
    return Certificate(checker, len(pieces), models, sum(p.lemmas for p in pieces), sum(p.bytes for p in pieces),
                       sum(p.check_seconds for p in pieces), prover, covers)


# ---------------------------------------------------------------------------- certificates on disk
def check_folder(folder: str | Path) -> Path:
    """The folder a certified answer's files go to, checked before anything is solved: a name
    that is no folder (an empty one, a file, a device, a dangling symlink), a folder that cannot
    be written, or one that holds a certificate already (it would be replaced) is a one-line error."""
    if not str(folder).strip():
        raise SatedgeError("--proof names no folder: give one, e.g. --proof proof")
    path = Path(folder)
    if path.is_symlink() and not path.exists():
        raise SatedgeError("--proof names a dangling symlink: give a folder", path)
    if path.exists() and not path.is_dir():
        raise SatedgeError("--proof names a file, not a folder", path)
    held = [f for f in PROOF_FILES if (path / f).exists() or (path / f).is_symlink()]
    if held:
        raise SatedgeError(f"--proof names a folder that holds a certificate already ({held[0]}): give another, or "
                           "remove it first", path)
    existing = next(p for p in (path, *path.absolute().parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise SatedgeError(f"--proof: cannot write in {existing}", path)
    return path


def _clauses_text(clauses, nv: int, count: int, comment: str) -> str:
    return f"c {comment}\np cnf {nv} {count}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)


def export(folder: str | Path, formula: str, nv: int, clauses: int, pieces: list[Piece], manifest: dict) -> list[Path]:
    """Write a certificate into ``folder``, all or none: ``formula.cnf`` (``formula``: the
    formula's DIMACS text, with satedge's header, so that ``satedge decode`` reads it), per
    piece ``pieces/N.cnf`` (the clauses the piece adds to the formula: its cube's literals, then
    its blocking clauses; its ``p`` line counts the formula's clauses and these) and
    ``pieces/N.drat`` (its proof, DRAT text), the cover as ``pieces/cover.cnf`` and
    ``pieces/cover.drat``, and ``manifest.json``, which says how they fit together."""
    folder = Path(folder)
    files: dict[Path, str | bytes] = {folder / "formula.cnf": formula}
    listed = []
    for p in sorted(pieces, key=lambda p: p.index if p.index >= 0 else 1 << 40):
        name = str(p.index) if p.index >= 0 else "cover"
        added = [[lit] for lit in p.cube] + p.blocking
        what = (f"piece {name}: clauses added to formula.cnf, the cube's literals ({len(p.cube)}) then the blocking "
                f"clauses of its models ({len(p.blocking)})" if p.index >= 0 else
                "the cover: clauses added to formula.cnf, the negation of every cube")
        files[folder / "pieces" / f"{name}.cnf"] = _clauses_text(added, nv, clauses + len(added), what)
        files[folder / "pieces" / f"{name}.drat"] = p.proof.text() if p.proof is not None else b""
        listed.append({**p.as_dict(), "clauses": f"pieces/{name}.cnf", "proof": f"pieces/{name}.drat"})
    head = json.dumps({**{k: v for k, v in manifest.items() if k != "pieces"}, "formula": "formula.cnf", "variables": nv, "formula_clauses": clauses}, indent=1)
    rows = ",\n".join("  " + json.dumps(p, separators=(",", ":")) for p in listed)  # a piece per line
    files[folder / "manifest.json"] = f'{head[:-2]},\n "pieces": [\n{rows}\n ]\n}}\n'
    try:
        (folder / "pieces").mkdir(parents=True, exist_ok=True)
        write_group(files)
    except OSError as e:
        raise cannot_write(e, folder) from None
    return list(files)


def _read_clauses(path: Path, what: str) -> tuple[int, int, list[list[int]]]:
    """A DIMACS file's ``p`` line and its clauses, each a one-line error when damaged."""
    check_input(path, 2**34)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SatedgeError(f"cannot read the {what}: {e.strerror or e}", path) from None
    head = next((line.split() for line in data[:1 << 20].splitlines() if line.startswith(b"p ")), None)
    if head is None or len(head) != 4 or not all(x.isdigit() for x in head[2:]):
        raise SatedgeError(f"the {what} has no 'p cnf' line", path)
    body = b"\n".join(line for line in data.splitlines() if line[:1] not in (b"c", b"p"))
    try:
        nums = np.array(body.split(), dtype=np.int64)
    except ValueError:
        raise SatedgeError(f"the {what} holds something that is not a literal", path) from None
    if len(nums) and nums[-1] != 0:
        raise SatedgeError(f"the {what} ends inside a clause", path)
    ends = np.flatnonzero(nums == 0).tolist()
    flat, out, start = nums.tolist(), [], 0
    for end in ends:
        out.append(flat[start:end])
        start = end + 1
    return int(head[2]), int(head[3]), out


def _manifest(folder: Path) -> dict:
    path = folder / "manifest.json"
    if not path.is_file():
        raise SatedgeError("no manifest.json: not a certificate written by --proof", folder)
    try:
        manifest = json.loads(path.read_text())
        pieces = manifest["pieces"]
        assert isinstance(pieces, list) and all(isinstance(p, dict) for p in pieces)
        for p in pieces:
            assert isinstance(p["index"], int) and all(isinstance(x, int) for x in p["cube"])
            assert isinstance(p["clauses"], str) and isinstance(p["proof"], str)
            assert ".." not in Path(p["clauses"]).parts + Path(p["proof"]).parts
        assert isinstance(manifest["models"], int)
    except (ValueError, KeyError, TypeError, AssertionError, OSError):
        raise SatedgeError("manifest.json is damaged: it does not list the pieces as --proof writes them", folder) \
            from None
    return manifest


def recheck(folder: str | Path, checker: str = DEFAULT_CHECKER, workers: int = 1) -> tuple[Certificate, int]:
    """Check a certificate that ``--proof`` wrote into ``folder`` again: the certificate and the
    puzzle's solutions it proves.  ``formula.cnf`` must be the formula of the puzzle its header
    names (rebuilt and compared); every model a piece blocks must be one of that formula, decoded
    to a solution satedge's checker accepts; every piece's proof is checked by ``checker`` (on
    ``workers`` processes), and the pieces must fit together (:func:`certificate`).  A piece
    missing, a cube left out of the cover, a model missing, added or invalid, or a proof that
    does not check is a :class:`SatedgeError`, as is a count that differs from the manifest's."""
    folder = Path(folder)
    manifest = _manifest(folder)
    puzzle, encoded, clauses = rebuilt(folder / "formula.cnf")
    check = FormulaCheck(clauses, encoded.nv, checker)

    def one(entry: dict) -> Piece:
        _, _, added = _read_clauses(folder / entry["clauses"], f"piece {entry['index']}")
        cube = tuple(entry["cube"])
        if entry["index"] >= 0 and added[:len(cube)] != [[lit] for lit in cube]:
            raise SatedgeError(f"piece {entry['index']} does not start with its cube's literals", folder)
        try:
            proof = drat.read((folder / entry["proof"]).read_bytes(), compiled=compiled)
        except OSError as e:
            raise SatedgeError(f"cannot read the proof of piece {entry['index']}: {e.strerror or e}", folder) from None
        try:
            seconds = check(added, proof)
        except SatedgeError as e:
            raise SatedgeError(f"{'the cover' if entry['index'] < 0 else 'piece ' + str(entry['index'])}: {e}",
                               folder) from None
        return Piece(entry["index"], cube, added[len(cube):] if entry["index"] >= 0 else added, proof.lemmas,
                     proof.size, 0.0, seconds)

    entries = manifest["pieces"]
    compiled = sum(e.get("proof_bytes", 0) for e in entries) > drat.SMALL
    pieces = list(forked_map(lambda: one, entries, workers)) if workers > 1 else [one(e) for e in entries]
    cert = certificate(pieces, checker, str(manifest.get("prover", "")), encoded.orbit)
    solutions = encoded.orbit * sum(sum(d.weights) for d in _models(puzzle, encoded, pieces))
    if (cert.models, solutions) != (manifest["models"], manifest.get("solutions", solutions)):
        raise SatedgeError(f"the pieces hold {cert.models:,} models and {solutions:,} solutions, the manifest says "
                           f"{manifest['models']:,} and {manifest.get('solutions')}", folder)
    return cert, solutions


def _models(puzzle, encoded, pieces: list[Piece]) -> Iterator[Decoded]:
    """The models the pieces block, in blocks, each checked: its true decision variables extend
    to a model of the formula, which decodes to a solution the bulk check accepts."""
    decision, decoder, checker = set(encoded.decision), Decoder(encoded), Checker(puzzle)
    block, n = decoder.block(), 0
    with Solver(name="cadical195", bootstrap_with=encoded.cnf.clauses) as s:
        for p in pieces:
            for clause in p.blocking if p.index >= 0 else ():
                true = [-lit for lit in clause]
                if not all(lit in decision for lit in true):
                    raise SatedgeError(f"piece {p.index} blocks something that is not a model's decision variables")
                chosen = set(true)
                if not s.solve(assumptions=true + [-v for v in encoded.decision if v not in chosen]):
                    raise SatedgeError(f"piece {p.index} blocks an assignment that is no model of the formula")
                model = s.get_model()
                decoder.put(block, n, model + list(range(-len(model) - 1, -encoded.nv - 1, -1)), ordered=True)
                n += 1
                if n == len(block):
                    yield checked(decoder.decode(block), checker, "the certificate's formula")
                    n = 0
    if n:
        yield checked(decoder.decode(block[:n]), checker, "the certificate's formula")