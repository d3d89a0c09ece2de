"""Certificates on disk: what ``--certify --proof DIR`` writes, and checked again from there
(``satedge check-proof DIR``).

A certificate's folder holds ``formula.cnf`` (the formula, with satedge's header), per piece
``pieces/N.cnf`` (the clauses the piece adds to the formula) and ``pieces/N.drat`` (its DRAT
proof, as text), the cover as ``pieces/cover.cnf`` and ``pieces/cover.drat``, and
``manifest.json``, which says how they fit together (:mod:`satedge.sat.certify`).  :func:`recheck`
trusts none of it: the formula is rebuilt from its puzzle, every model or picture a piece
blocks is checked against the puzzle, every proof is checked again.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from pysat.solvers import Solver

from ..encode import Encoded
from ..errors import SatedgeError
from ..puzzle import symmetry
from ..puzzle.checker import board_problem, score
from ..puzzle.model import Puzzle, Solution
from ..system.files import cannot_write, check_input, read_bytes, write_group
from ..system.proctree import forked_map
from . import drat
from .bulk import Checker, Decoded, Decoder, checked, valid
from .certify import DEFAULT_CHECKER, Certificate, FormulaCheck, Piece, assumed, certificate
from .cnf import formula_text, read_clauses
from .dimacs import rebuilt
from .maxsat import beyond
from .solvers import DEFAULT_SOLVER

__all__ = ["PROOF_FILES", "MAX_MANIFEST", "export", "recheck"]

PROOF_FILES = ("formula.cnf", "manifest.json", "pieces")  # what a certificate's folder holds
MAX_MANIFEST = 2**30  # bytes of a manifest.json read at most


def export(
    folder: str | Path, formula: str, nv: int, clauses: int, pieces: list[Piece], manifest: dict
) -> list[Path]:
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
        added = [[lit] for lit in p.cube] + p.defined + p.blocking
        what = (
            "the cover: clauses added to formula.cnf, the negation of every cube"
            if p.index < 0
            else f"piece {name}: clauses added to formula.cnf, the cube's literals ({len(p.cube)}), then "
            + (
                f"the definitions of a variable per cell and look ({len(p.defined)}: see manifest.json) and a "
                f"clause per picture ({len(p.blocking)})"
                if p.looks
                else f"the blocking clauses of its models ({len(p.blocking)})"
            )
        )
        most = max(
            nv, max((abs(lit) for clause in added for lit in clause), default=0)
        )  # its own variables too
        files[folder / "pieces" / f"{name}.cnf"] = formula_text(added, most, clauses + len(added), what)
        files[folder / "pieces" / f"{name}.drat"] = p.proof.text() if p.proof is not None else b""
        listed.append({**p.as_dict(), "clauses": f"pieces/{name}.cnf", "proof": f"pieces/{name}.drat"})
    head = json.dumps(
        {
            **{k: v for k, v in manifest.items() if k != "pieces"},
            "formula": "formula.cnf",
            "variables": nv,
            "formula_clauses": clauses,
        },
        indent=1,
    )
    rows = ",\n".join("  " + json.dumps(p, separators=(",", ":")) for p in listed)  # a piece per line
    files[folder / "manifest.json"] = f'{head[:-2]},\n "pieces": [\n{rows}\n ]\n}}\n'
    made = [
        d
        for d in (*reversed(folder.absolute().parents), folder.absolute(), folder.absolute() / "pieces")
        if not d.exists()
    ]  # the folders this makes, removed again if the files cannot all be written
    try:
        (folder / "pieces").mkdir(parents=True, exist_ok=True)
        write_group(files)
    except (OSError, SatedgeError) as e:  # write_group says which file failed in a SatedgeError
        for d in reversed(made):
            shutil.rmtree(d, ignore_errors=True)
        if isinstance(e, SatedgeError):
            raise
        raise cannot_write(e, folder) from None
    return list(files)


def _manifest(folder: Path) -> dict:
    path = folder / "manifest.json"
    if not path.is_file():
        raise SatedgeError("no manifest.json: not a certificate written by --proof", folder)
    try:
        check_input(path, MAX_MANIFEST)
        manifest = json.loads(path.read_text())
        pieces = manifest["pieces"]
        assert isinstance(pieces, list) and all(isinstance(p, dict) for p in pieces)
        for p in pieces:
            assert isinstance(p["index"], int) and all(isinstance(x, int) for x in p["cube"])
            assert isinstance(p["clauses"], str) and isinstance(p["proof"], str)
            assert all(
                ".." not in Path(p[k]).parts and not Path(p[k]).is_absolute() for k in ("clauses", "proof")
            )
            assert isinstance(p.get("defined", 0), int) and all(  # a piece by pictures: its look variables
                isinstance(v, int) and isinstance(c, int) and isinstance(look, list)
                for v, c, look in p.get("looks", [])
            )
        assert isinstance(manifest["models"], int)
    except (ValueError, KeyError, TypeError, AssertionError, OSError, RecursionError):
        raise SatedgeError(
            "manifest.json is damaged: it does not list the pieces as --proof writes them", folder
        ) from None
    return manifest


def recheck(
    folder: str | Path,
    checker: str = DEFAULT_CHECKER,
    workers: int = 1,
    note: Callable[[dict], None] = lambda report: None,
) -> tuple[Certificate, int | None]:
    """Check a certificate that ``--proof`` wrote into ``folder`` again: the certificate and the
    puzzle's solutions it proves.  ``formula.cnf`` must be the formula of the puzzle its header
    names (rebuilt and compared); every model a piece blocks must be one of that formula, decoded
    to a solution satedge's checker accepts; every piece's proof is checked by ``checker`` (on
    ``workers`` processes: a piece each, or a single piece's proof in parts), and the pieces must
    fit together (:func:`certificate`).  A piece
    missing, a cube left out of the cover, a model missing, added or invalid, or a proof that
    does not check is a :class:`SatedgeError`, as is a count that differs from the manifest's.
    ``note`` is called with a progress report at each stage and after each proof
    (:func:`satedge.system.progress.describe` words it)."""
    folder = Path(folder)
    note({"stage": "reading"})
    manifest = _manifest(folder)
    puzzle, encoded, clauses = rebuilt(folder / "formula.cnf")
    entries = manifest["pieces"]
    done = {
        "stage": "checking",
        "checked": 0,
        "proofs": len(entries),
        "checker": checker,
        "lemmas": sum(e["proof_lemmas"] for e in entries if isinstance(e.get("proof_lemmas"), int)),
    }
    note(done)
    if manifest.get("task") == "maximize":
        return _maximum(folder, manifest, puzzle, encoded, clauses, checker, workers)
    check = FormulaCheck(clauses, encoded.nv, checker, workers if len(entries) == 1 else 1)

    def one(entry: dict) -> Piece:
        _, _, added = read_clauses(folder / entry["clauses"], f"piece {entry['index']}")
        cube = tuple(entry["cube"])
        if entry["index"] >= 0 and added[: len(cube)] != [[lit] for lit in cube]:
            raise SatedgeError(f"piece {entry['index']} does not start with its cube's literals", folder)
        try:
            proof = drat.read(read_bytes(folder / entry["proof"], MAX_MANIFEST * 16), compiled=compiled)
        except OSError as e:
            raise SatedgeError(
                f"cannot read the proof of piece {entry['index']}: {e.strerror or e}", folder
            ) from None
        try:
            seconds = check(added, proof)
        except SatedgeError as e:
            raise SatedgeError(
                f"{'the cover' if entry['index'] < 0 else 'piece ' + str(entry['index'])}: {e}", folder
            ) from None
        if entry["index"] < 0:
            return Piece(-1, cube, added, proof.lemmas, proof.size, 0.0, seconds)
        k = len(cube) + int(entry.get("defined", 0))
        looks = {(int(c), tuple(look)): int(v) for v, c, look in entry.get("looks", [])}
        return Piece(
            entry["index"],
            cube,
            added[k:],
            proof.lemmas,
            proof.size,
            0.0,
            seconds,
            None,
            added[len(cube) : k],
            looks,
        )

    compiled = sum(e.get("proof_bytes", 0) for e in entries) > drat.SMALL_PROOF
    pieces = []
    for piece in forked_map(lambda: one, entries, workers) if workers > 1 else map(one, entries):
        pieces.append(piece)
        note({**done, "checked": len(pieces)})
    note({"stage": "checking models"})
    pictures = manifest.get("blocks") == "pictures" or any(p.looks for p in pieces)
    why = assumed(encoded)  # what the encoding makes it assume; the manifest may say why
    said = manifest.get("assumed")
    cert = certificate(
        pieces,
        checker,
        str(manifest.get("prover", "")),
        encoded.orbit,
        pictures=pictures,
        assumed=said if why is not None and isinstance(said, str) and said.startswith(why) else why,
    )
    if isinstance(manifest.get("turned"), int):  # its pieces checked alike; the line says how they were made
        cert = dataclasses.replace(cert, turned=manifest["turned"])
    if pictures:
        solutions = encoded.orbit * sum(_pictures(puzzle, encoded, p) for p in pieces if p.index >= 0)
    else:
        solutions = encoded.orbit * sum(sum(d.weights) for d in _models(puzzle, encoded, pieces))
    if (cert.models, solutions) != (manifest["models"], manifest.get("solutions", solutions)):
        raise SatedgeError(
            f"the pieces hold {cert.models:,} models and {solutions:,} solutions, the manifest says "
            f"{manifest['models']:,} and {manifest.get('solutions')}",
            folder,
        )
    return cert, solutions


def _maximum(
    folder: Path,
    manifest: dict,
    puzzle: Puzzle,
    encoded: Encoded,
    clauses: list[list[int]],
    checker: str,
    workers: int,
) -> tuple[Certificate, int | None]:
    """:func:`recheck` of a certified maximum (``satedge maximize --certify --proof``): the board
    the manifest gives keeps every rule but the fit of edges and scores what it says, the one
    piece's clauses are exactly the constraint that the board scores one more
    (:func:`satedge.sat.maxsat.beyond`), and its proof refutes the formula's hard clauses with
    them.  The certificate and the score it proves optimal.  A manifest with no score and no
    board certifies that no board keeps the frame and the clues: its piece adds nothing, and its
    proof refutes the hard clauses alone (the score it gives is ``None``)."""
    best, board = manifest.get("score"), manifest.get("board")
    none = best is None and board is None and "score" in manifest and "board" in manifest
    try:
        solution = None if none else Solution(tuple((int(t), int(r)) for t, r in board or ()))
    except (TypeError, ValueError):
        solution = None
    if (
        not none and (not isinstance(best, int) or isinstance(best, bool) or solution is None)
    ) or not encoded.maxsat:
        raise SatedgeError(
            "manifest.json is damaged: a maximum's certificate gives its score, its board and a WCNF formula",
            folder,
        )
    if solution is not None:
        problem = (
            board_problem(puzzle, solution)
            if len(solution) == puzzle.n
            else "it has the wrong number of cells"
        )
        if problem is not None or score(puzzle, solution) != best:
            raise SatedgeError(
                f"the manifest's board {'breaks a rule: ' + problem if problem else 'does not score ' + str(best)}",
                folder,
            )
    entries = manifest["pieces"]
    if len(entries) != 1:
        raise SatedgeError(f"a maximum's certificate has one piece, not {len(entries)}", folder)
    _, _, added = read_clauses(folder / entries[0]["clauses"], "piece 0")
    if none and added:
        raise SatedgeError(
            "piece 0 of a certificate that no board exists adds clauses to the formula", folder
        )
    if best is not None and added != beyond(encoded, best):
        raise SatedgeError(f"piece 0 is not the constraint that at least {best + 1} edges fit", folder)
    try:
        proof = drat.read(read_bytes(folder / entries[0]["proof"], MAX_MANIFEST * 16))
    except OSError as e:
        raise SatedgeError(f"cannot read the proof of piece 0: {e.strerror or e}", folder) from None
    try:
        seconds = FormulaCheck(clauses, encoded.nv, checker, workers)(added, proof)
    except SatedgeError as e:
        raise SatedgeError(f"piece 0: {e}", folder) from None
    return Certificate(
        checker=checker,
        covers="no board keeps the frame and the clues" if none else f"no board scores more than {best}",
        pieces=1,
        lemmas=proof.lemmas,
        bytes=proof.size,
        check_seconds=seconds,
        prover=str(manifest.get("prover", "")),
        route="fresh",
    ), best


def _pictures(puzzle: Puzzle, encoded: Encoded, piece: Piece) -> int:
    """The solutions of the pictures a piece blocks, each checked: its look variables are new and
    defined as the encoding says what a cell shows, each clause blocks one picture (a look per
    cell), and each picture has a solution satedge's checker accepts.  Counted from
    multiplicities (:meth:`satedge.encode.Encoded.picture_counts`)."""
    where = f"piece {piece.index}"
    expected = [clause for (c, look), v in piece.looks.items() for clause in encoded.implied(c, look, v)]
    var = {v: key for key, v in piece.looks.items()}
    if (
        len(var) != len(piece.looks)
        or min(var, default=encoded.nv + 1) <= encoded.nv
        or expected != piece.defined
    ):
        raise SatedgeError(f"{where}: its look variables are not new or not defined as the encoding says")
    solutions = 0
    for clause in piece.blocking:
        keys = sorted(var.get(-lit, (-1, ())) for lit in clause)
        if [c for c, _ in keys] != list(range(len(puzzle.allowed))):
            raise SatedgeError(f"{where} blocks something that is not a picture (a look per cell)")
        pic = tuple(look for _, look in keys)
        shown = symmetry.solutions_of_picture(puzzle, pic, limit=1)
        if not shown:
            raise SatedgeError(f"{where} blocks a picture that no solution shows")
        valid(puzzle, shown[0], "the certificate's formula")
        solutions += encoded.picture_counts(pic)[0]
    return solutions


def _models(puzzle: Puzzle, encoded: Encoded, pieces: list[Piece]) -> Iterator[Decoded]:
    """The models the pieces block, in blocks, each checked: its true decision variables extend
    to a model of the formula, which decodes to a solution the bulk check accepts."""
    decision, decoder, checker = set(encoded.decision), Decoder(encoded), Checker(puzzle)
    block, n = decoder.block(), 0
    with Solver(name=DEFAULT_SOLVER, bootstrap_with=encoded.cnf.clauses) as s:
        for p in pieces:
            for clause in p.blocking if p.index >= 0 else ():
                true = [-lit for lit in clause]
                if not all(lit in decision for lit in true):
                    raise SatedgeError(
                        f"piece {p.index} blocks something that is not a model's decision variables"
                    )
                chosen = set(true)
                if not s.solve(assumptions=true + [-v for v in encoded.decision if v not in chosen]):
                    raise SatedgeError(
                        f"piece {p.index} blocks an assignment that is no model of the formula"
                    )
                model = s.get_model()
                decoder.put(block, n, model + list(range(-len(model) - 1, -encoded.nv - 1, -1)), ordered=True)
                n += 1
                if n == len(block):
                    yield checked(decoder.decode(block), checker, "the certificate's formula")
                    n = 0
    if n:
        yield checked(decoder.decode(block[:n]), checker, "the certificate's formula")
