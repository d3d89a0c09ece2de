"""Self-describing DIMACS: export, header reading, and solver output parsing.

The comment header records the satedge version, the puzzle (name, path, sha256 of its
canonical YAML), the encoding and its options, the meaning of every decision variable
(``c var 17 x 0 1 3``), and the projection set as model counters read it (``c p show ... 0``,
``c ind ... 0``); one ``c satedge {...}`` JSON line, the same for programs.  A file named
``.gz``, ``.xz``, ``.bz2`` or ``.zst`` is compressed (:mod:`satedge.system.compression`);
clauses are written in chunks, never as one big string.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from pysat.formula import CNF

from ..encode import Encoded, Encoding, Options, presets
from ..encode.base import Base, meanings
from ..encode.core import BlockCNF
from ..encode.maxsat import maxsat_encoding, weighted
from ..encode.registry import declared
from ..errors import OutOfMemory, SatedgeError, Unsupported
from ..puzzle.checker import board_problem, score, validate
from ..puzzle.formats import load_puzzle, puzzle_from_dict, puzzle_to_dict, puzzle_to_yaml
from ..puzzle.model import Puzzle, Solution
from ..system.compression import SUFFIXES, can_compress, open_compressed, read_errors
from ..system.files import (
    atomic_output,
    cannot_write,
    check_input,
    one_line,
    open_input,
    quoted,
    write_atomic,
)
from ..system.plugins import load
from ..system.process import Limits, call
from ..system.resources import __version__
from .cnf import MAX_TOKEN, objective, parse_model, wcnf_clauses, write_clauses, write_wcnf

__all__ = [
    "puzzle_hash",
    "header_lines",
    "write_dimacs",
    "export",
    "to_text",
    "open_text",
    "MAX_HEADER_LINE",
    "HEADER_LINES",
    "read_header",
    "decode_file",
    "Decoded",
    "rebuilt",
    "Batch",
    "export_all",
]


def puzzle_hash(puzzle: Puzzle) -> str:
    """sha256 of the puzzle's canonical YAML (its planted solution left out)."""
    return hashlib.sha256(puzzle_to_yaml(puzzle.with_(planted=None)).encode()).hexdigest()


def header_lines(
    encoded: Encoded,
    encoding: Encoding | str | None = None,
    puzzle_path: str | None = None,
    sha256: str | None = None,
    command: str | None = None,
) -> list[str]:
    """The comment lines that make a DIMACS file self-describing (``encoding``: the configuration
    it was encoded with, or its name alone; ``sha256``: the puzzle's :func:`puzzle_hash`, when
    known already; ``command``: the command line that wrote it).  A base encoding of yours is
    named with where it was loaded from and the sha256 of its file."""
    p = encoded.puzzle
    config = encoding if isinstance(encoding, Encoding) else None
    own = config.declared if config is not None and config.declared.own else None
    info: dict[str, Any] = {
        "satedge": __version__,
        "puzzle": {"name": p.name, "path": puzzle_path, "sha256": sha256 or puzzle_hash(p)},
        "encoding": {
            "name": str(encoding or encoded.base),
            "base": encoded.base if config is None else config.base,
            **encoded.options.as_dict(),
            **({"source": own.source, "sha256": own.sha256} if own is not None else {}),
        },
        "variables": encoded.nv,
        "clauses": encoded.clause_count,
        "decision": len(encoded.decision),
        "shuffle": encoded.shuffle,
    }
    if encoded.maxsat:
        info["maxsat"] = {"soft": len(encoded.soft_literals), "weight": 1, "edges": len(p.board.adjacencies)}
    named = meanings(encoded, config.declared if config is not None else None)
    if puzzle_path in (None, "-"):  # no file to read it back from (a pipe, a script): the puzzle itself
        info["puzzle"]["data"] = puzzle_to_dict(p.with_(planted=None))
    lines = [
        f"c satedge {__version__}: edge-matching puzzle in " + ("WCNF (MaxSAT)" if encoded.maxsat else "CNF"),
        *([f"c command: {command}"] if command else []),
        f"c puzzle: {p.name}",
        f"c puzzle path: {puzzle_path or '-'}",
        f"c puzzle sha256: {info['puzzle']['sha256']}",
        f"c encoding: {info['encoding']['name']} (base {info['encoding']['base']}, card {encoded.options.card}, "
        f"symmetry {encoded.options.symmetry}, redundant {str(encoded.options.redundant).lower()}"
        + (f", families {' '.join(encoded.options.families)}" if encoded.options.families else "")
        + (f", counts {' '.join(encoded.options.counts)}" if encoded.options.counts else "")
        + ")",
        *([f"c encoding source: {own.source} (sha256 {own.sha256})"] if own is not None else []),
        f"c shuffle: {'none' if encoded.shuffle is None else encoded.shuffle} (a seed: the puzzle's tiles reordered "
        "and turned, the variables renumbered and the clauses reordered; 'var' lines name the shuffled tiles)",
        "c satedge " + json.dumps(info, separators=(",", ":")),
        f"c decision variables (var id, then its meaning; {named}):",
    ]
    for v in encoded.decision:
        lines.append("c var " + " ".join(map(str, (v, *encoded.pool.obj(v)))))
    if encoded.maxsat:
        lines[-len(encoded.decision) - 1 : -len(encoded.decision) - 1] = [
            f"c maxsat: the MaxSAT Evaluation's WCNF (hard clauses 'h ... 0', no 'p' line) with one soft unit clause "
            f"of weight 1 per inner edge, its match variable ('c var N m K': edge K fits); a model's cost is at least "
            f"the inner edges its board does not fit, and the optimal cost is the fewest that any board does not fit "
            f"(the score is the {len(p.board.adjacencies)} inner edges less it)"
        ]
        lines += ["c var " + " ".join(map(str, (v, *encoded.pool.obj(v)))) for v in encoded.soft_literals]
        return [one_line(line) for line in lines]
    show = " ".join(map(str, encoded.decision))
    lines += [f"c p show {show} 0", f"c ind {show} 0"]
    return [one_line(line) for line in lines]  # a name or a label with a line break stays in its comment


def write_dimacs(
    encoded: Encoded,
    out: Path | str | IO[str],
    encoding: Encoding | str | None = None,
    puzzle_path: str | None = None,
) -> int:
    """Write the formula; ``out`` is a path (``.gz``, ``.xz``, ``.bz2``, ``.zst`` compress; written through a temporary
    file and renamed, so a failure leaves nothing behind) or an open text stream; ``encoding``:
    the configuration the header names (:func:`header_lines`).  Returns bytes written
    (uncompressed)."""
    if not isinstance(out, (str, os.PathLike)):
        return _write(encoded, out, encoding, puzzle_path)
    can_compress(out)
    with atomic_output(out) as tmp, open_compressed(tmp, "wt") as fh:
        return _write(encoded, fh, encoding, puzzle_path)


def export(
    puzzle: Puzzle,
    encoding: Encoding | str,
    out: Path | str,
    puzzle_path: str | None = None,
    memory_mb: float | None = None,
    shuffle: int | None = None,
    maxsat: bool = False,
    command: str | None = None,
) -> tuple[int, int, int]:
    """Encode ``puzzle`` with ``encoding`` (an :class:`satedge.encode.Encoding` or a string it reads) and write the
    formula to ``out`` (as :func:`write_dimacs`); returns variables, clauses and bytes written
    (uncompressed).  With ``memory_mb``, encoding and writing run in a child process that is
    killed once it holds more than that (:mod:`satedge.system.process`): :class:`satedge.errors.OutOfMemory`,
    nothing written.  ``shuffle``: the formula of the puzzle under that shuffle seed, recorded in
    the header.  ``maxsat``: the MaxSAT form of the encoding (:mod:`satedge.encode.maxsat`) as
    WCNF, whose optimal cost is the fewest inner edges a board does not fit (``command``: see
    :func:`header_lines`)."""
    encoding = maxsat_encoding(encoding) if maxsat else Encoding.of(encoding)
    can_compress(out)
    encoding.check_fits(puzzle, memory_mb, shuffle)  # before anything is built
    with atomic_output(out) as tmp:
        args = (puzzle, encoding, tmp, out, puzzle_path, shuffle, maxsat, command)
        if memory_mb is None:
            return _encode_and_write(*args)
        outcome = call(_encode_and_write, args, Limits(memory_mb=memory_mb))
        return outcome.unwrap(f"encoding {encoding.name}")


def _encode_and_write(
    puzzle: Puzzle,
    encoding: Encoding,
    tmp: Path,
    out: Path | str,
    puzzle_path: str | None,
    shuffle: int | None = None,
    maxsat: bool = False,
    command: str | None = None,
) -> tuple[int, int, int]:
    encoded = weighted(puzzle, encoding, shuffle) if maxsat else encoding.encode(puzzle, shuffle)
    try:
        with open_compressed(tmp, "wt") as fh:
            n = _write(encoded, fh, encoding, puzzle_path, command=command)
    except OSError as e:
        raise cannot_write(e, out) from None
    return encoded.nv, encoded.clause_count, n


def _write(
    encoded: Encoded,
    fh: IO[str],
    encoding: Encoding | str | None,
    puzzle_path: str | None,
    sha256: str | None = None,
    command: str | None = None,
) -> int:
    head = "\n".join(header_lines(encoded, encoding, puzzle_path, sha256, command)) + "\n"
    if encoded.maxsat:
        fh.write(head)
        return len(head) + write_wcnf(fh, encoded.cnf.clauses, encoded.soft_literals)
    head += f"p cnf {encoded.nv} {encoded.clause_count}\n"
    fh.write(head)
    cnf = encoded.cnf
    return len(head) + write_clauses(
        fh, cnf.blocks if isinstance(cnf, BlockCNF) else [cnf.clauses], encoded.nv
    )


def to_text(
    encoded: Encoded,
    encoding: Encoding | str | None = None,
    puzzle_path: str | None = None,
    sha256: str | None = None,
) -> str:
    """The DIMACS text :func:`write_dimacs` writes, as a string."""
    buf = io.StringIO()
    _write(encoded, buf, encoding, puzzle_path, sha256)
    return buf.getvalue()


# ---------------------------------------------------------------------------- reading
def open_text(path: Path | str) -> IO[str]:
    try:
        return open_compressed(path, "rt")
    except FileNotFoundError:
        raise SatedgeError("no such file", path) from None


MAX_HEADER_LINE = 64 * 2**20  # the 'c p show' line of Eternity II's largest formula is 1 MB
HEADER_LINES = 64  # comment lines a header has beside one per decision variable (its 'c var' lines)


def read_header(path: Path | str) -> dict:
    """The ``c satedge {...}`` facts and the ``p cnf`` line of an exported file."""
    check_input(path, 2**40)  # a regular file: a device or a FIFO would be read forever
    info: dict | None = None
    lines, most = (
        0,
        HEADER_LINES,
    )  # a header's lines, bounded by what it says (a compressed file may expand to any)
    try:
        with open_text(path) as fh:
            while line := fh.readline(MAX_HEADER_LINE + 1):
                lines += 1
                if len(line) > MAX_HEADER_LINE or lines > most:
                    raise SatedgeError(
                        (
                            f"a header line of more than {MAX_HEADER_LINE:,} characters"
                            if lines <= most
                            else f"more than the {most:,} comment lines a satedge header has here before its "
                            "'p cnf' line"
                        )
                        + ": not a CNF file of satedge's",
                        path,
                    )
                if line.startswith("c satedge {"):
                    info = json.loads(line[len("c satedge ") :])
                    puzzle = info.get("puzzle") if isinstance(info, dict) else None
                    if not (
                        isinstance(puzzle, dict)
                        and isinstance(puzzle.get("sha256"), str)
                        and isinstance(puzzle.get("path") or "", str)
                        and isinstance(info.get("encoding"), dict)
                    ):
                        raise SatedgeError(
                            "the 'c satedge' header line lacks the puzzle's sha256 or the encoding: "
                            "edited or damaged",
                            path,
                        )
                    decision, soft = info.get("decision"), (info.get("maxsat") or {}).get("soft")
                    most = (
                        lines
                        + HEADER_LINES
                        + sum(x for x in (decision, soft) if isinstance(x, int) and x >= 0)
                    )
                elif line.startswith("p cnf"):
                    parts = line.split()
                    if len(parts) != 4 or not all(x.isdigit() and len(x) <= 12 for x in parts[2:]):
                        raise SatedgeError(f"bad problem line {quoted(line.strip(), MAX_TOKEN)}", path)
                    if info is None:
                        raise SatedgeError(
                            "no satedge header: this file was not written by satedge encode", path
                        )
                    info["p"] = (int(parts[2]), int(parts[3]))
                    return info
                elif not line.startswith("c") and line.strip():
                    if info is not None and "maxsat" in info:  # WCNF: no 'p' line, the clauses come
                        if not (
                            isinstance(info.get("variables"), int) and isinstance(info.get("clauses"), int)
                        ):
                            raise SatedgeError(
                                "the 'c satedge' header line lacks the formula's size: edited or damaged",
                                path,
                            )
                        info["p"] = (info["variables"], info["clauses"])
                        return info
                    break
    except read_errors(UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as e:
        raise SatedgeError(f"not a readable CNF file ({e.__class__.__name__})", path) from None
    raise SatedgeError("no 'p cnf' line: truncated or not a CNF file", path)


def _model_lines(path: Path | str, nv: int) -> Iterator[str]:
    """The lines of a model file (``-``: stdin), streamed; a file that is not a regular one, or
    larger than a model of ``nv`` variables can be with generous comments, is refused first."""
    limit = 2**20 + 24 * nv  # a literal takes at most 8 characters and a space; the rest for comments
    fh = sys.stdin if str(path) == "-" else io.TextIOWrapper(open_input(path, limit), encoding="utf-8")
    read = 0
    try:
        while line := fh.readline(limit + 1):
            read += len(line)
            if read > limit:
                raise SatedgeError(
                    f"cannot read: more than the {limit:,} characters a model of {nv:,} variables may have",
                    path,
                )
            yield line
    except UnicodeDecodeError:
        raise SatedgeError("cannot read the model: not UTF-8 text", path) from None
    finally:
        if fh is not sys.stdin:
            fh.close()


def rebuilt(
    cnf_path: Path | str, puzzle_path: Path | str | None = None, info: dict | None = None
) -> tuple[Puzzle, Encoded, list[list[int]]]:
    """The puzzle, its formula rebuilt and the file's clauses, for a file satedge exported: the puzzle
    (from the header, or ``puzzle_path``) must have the recorded hash, the clauses must be the
    rebuilt formula's.  ``info``: the header, when read already."""
    info = info if info is not None else read_header(cnf_path)
    where = puzzle_path or info["puzzle"].get("path")
    data = info["puzzle"].get("data")
    if puzzle_path is None and isinstance(data, dict):  # the header carries the puzzle
        try:
            where, puzzle = "in the header", puzzle_from_dict(data)
        except SatedgeError as e:
            raise SatedgeError(f"the puzzle in the header: {e}", cnf_path) from None
    elif not where or where == "-":
        raise SatedgeError("the header names no puzzle file: give --puzzle", cnf_path)
    else:
        try:
            puzzle = load_puzzle(where)
        except SatedgeError as e:  # the path as the header has it, from wherever encode ran
            if puzzle_path is not None:  # the user's own: its error as it is
                raise
            raise SatedgeError(
                f"the puzzle file its header names cannot be read ({e}): give the puzzle with --puzzle FILE",
                cnf_path,
            ) from None
    if puzzle_hash(puzzle) != info["puzzle"]["sha256"]:
        raise SatedgeError(
            f"puzzle {where} does not match the formula (sha256 differs from the header's)", cnf_path
        )
    enc = info["encoding"]
    own: Base | None = None
    if isinstance(enc.get("sha256"), str):  # a base encoding of yours: the same file, loaded again
        found = load(str(enc.get("source")), "the header's encoding")
        if found.sha256 != enc["sha256"]:
            raise SatedgeError(
                f"the header's encoding {enc.get('base')} was written by {enc.get('source')} with sha256 "
                f"{enc['sha256'][:12]}..., which has changed since",
                cnf_path,
            )
        own = declared(replace(found, name=str(enc.get("base"))))
    try:
        options = Options(
            card=enc["card"],
            symmetry=enc["symmetry"],
            redundant=enc["redundant"],
            families=tuple(enc.get("families", ())),
            counts=tuple(enc.get("counts", ())),
        )
        encoding = Encoding(enc["base"], options, declaration=own)
        maxsat = "maxsat" in info
        encoded = (
            weighted(puzzle, encoding, info.get("shuffle"))
            if maxsat
            else encoding.encode(puzzle, info.get("shuffle"))
        )
    except (KeyError, TypeError, SatedgeError):
        raise SatedgeError("the header's encoding is not one satedge knows", cnf_path) from None
    if (encoded.nv, encoded.clause_count) != info["p"]:
        raise SatedgeError(
            f"the formula has {info['p'][0]} variables and {info['p'][1]} clauses, "
            f"re-encoding gives {encoded.nv} and {encoded.clause_count}",
            cnf_path,
        )
    most = (
        len(to_text(encoded, str(enc.get("name") or encoding.name), info["puzzle"].get("path"))) + 2**20
    )  # the file as written
    try:
        with open_text(cnf_path) as fh:  # at most what the formula takes: a compressed file may expand to any
            text = fh.read(most + 1)
        if len(text) > most:
            raise SatedgeError(
                "more text than the formula it names takes: not the file satedge wrote", cnf_path
            )
        if maxsat:
            clauses, soft = wcnf_clauses(text, cnf_path)
        else:
            clauses = CNF(from_string=text).clauses
    except read_errors(ValueError) as e:
        raise SatedgeError(f"cannot read the clauses (truncated or not DIMACS): {e}", cnf_path) from None
    if maxsat and clauses == encoded.cnf.clauses and soft != [(1, [m]) for m in encoded.soft_literals]:
        raise SatedgeError(
            f"the soft clauses differ from the re-encoded formula's {len(encoded.soft_literals)} match "
            "variables of weight 1: truncated or edited file",
            cnf_path,
        )
    if clauses != encoded.cnf.clauses:  # fewer than the 'p cnf' line counts: cut off
        raise SatedgeError(
            f"cannot read the clauses (truncated or not DIMACS): {len(clauses):,} of the {info['p'][1]:,} "
            "its 'p cnf' line counts"
            if len(clauses) != info["p"][1]
            else "the clauses differ from the re-encoded formula: truncated or edited file",
            cnf_path,
        )
    return puzzle, encoded, clauses


@dataclass(frozen=True)
class Decoded:
    """A model of an exported formula read back: the ``puzzle``, its board (``None``: the solver
    found no model), what the checker says is wrong with the board (``None``: nothing); of a
    WCNF, the model's ``cost`` (soft clauses it falsifies), the board's ``score`` and whether
    the solver said that cost is optimal (``s OPTIMUM FOUND``: ``optimal``, its word, not
    proved here)."""

    puzzle: Puzzle
    solution: Solution | None
    problem: str | None = None
    cost: int | None = None
    score: int | None = None
    optimal: bool = False


def decode_file(
    cnf_path: Path | str, model_path: Path | str, puzzle_path: Path | str | None = None
) -> Decoded:
    """A model of an exported formula (:func:`rebuilt`), which must satisfy it (of a WCNF: its
    hard clauses; the cost of a MaxSAT solver's last ``o`` line must be the model's), turned
    back into a board and checked: of a CNF, against every rule; of a WCNF, against every rule
    but the fit of inner edges, and scored."""
    info = read_header(cnf_path)
    if str(model_path) != "-":
        check_input(model_path, 2**20 + 24 * info["p"][0])  # before the formula is rebuilt
    puzzle, encoded, clauses = rebuilt(cnf_path, puzzle_path, info)
    lines = list(_model_lines(model_path, encoded.nv))
    model = parse_model(lines, model_path, encoded.nv)
    if model is None:
        return Decoded(puzzle, None)
    true = {lit for lit in model}
    both = sorted(v for v in true if v > 0 and -v in true)
    if both:
        raise SatedgeError(
            f"the model sets {len(both):,} variables both true and false (the first: {both[0]} and "
            f"-{both[0]}): a model gives each variable one value",
            model_path,
        )
    named = [*encoded.decision, *(encoded.soft or ())]
    missing = [v for v in named if v not in true and -v not in true]
    if missing:  # before: a model assigning 3 of 585 variables was printed as a grid with rotation -1
        raise SatedgeError(
            f"the model leaves {len(missing):,} of the formula's {len(named):,} decision "
            f"{'and match ' if encoded.maxsat else ''}variables unassigned (the first: {missing[0]}): is "
            "it cut short?",
            model_path,
        )
    for i, clause in enumerate(clauses, 1):
        if not any(lit in true for lit in clause) and all(-lit in true for lit in clause):
            raise SatedgeError(
                f"the model falsifies {'hard ' if encoded.maxsat else ''}clause {i} "
                f"({' '.join(map(str, clause))} 0): is it a model of another formula?",
                model_path,
            )
    solution = encoded.decode(model)
    if not encoded.maxsat:
        return Decoded(puzzle, solution, validate(puzzle, solution))
    cost = sum(1 for m in encoded.soft_literals if m not in true)
    said = objective(lines)
    if said is not None and said != cost:
        raise SatedgeError(
            f"the solver's last 'o' line says cost {said}, but its model falsifies {cost} soft clauses",
            model_path,
        )
    problem = board_problem(puzzle, solution)
    optimal = any(line.split()[1:] == ["OPTIMUM", "FOUND"] for line in lines if line.startswith("s "))
    return Decoded(
        puzzle, solution, problem, cost, None if problem is not None else score(puzzle, solution), optimal
    )


@dataclass
class Batch:
    """What :func:`export_all` did: the files written (with ``manifest.csv``), the formulas left
    out because their preset does not cover the puzzle, and those beyond the memory cap."""

    written: int = 0
    uncovered: list[str] = field(default_factory=list)
    over_memory: list[str] = field(default_factory=list)

    def describe(self, out: Path) -> str:
        text = f"{self.written} formulas and manifest.csv written to {out}/"
        if self.uncovered:
            names = sorted(set(self.uncovered))
            text += f"; {len(self.uncovered)} left out, of presets that do not cover the puzzle: {', '.join(names)}"
        return text


def export_all(
    files: list[str],
    out: Path | str,
    compress: str = "",
    memory_mb: float | None = None,
    shuffle: int | None = None,
    tick: Callable[[], None] = lambda: None,
) -> Batch:
    """Every puzzle file of ``files`` with every preset into the folder ``out``
    (``STEM.PRESET.cnf`` plus ``compress``: ``.gz``, ``.xz``, ``.bz2`` or ``.zst``), and ``out/manifest.csv`` listing
    them.  Every puzzle is read before anything is written; two files of one stem would write the
    same files and are refused first.  A formula beyond ``memory_mb`` or of a preset that does not
    cover its puzzle is left out and named in the result.  ``tick`` is called after each formula."""
    if compress not in ("", *SUFFIXES):
        raise SatedgeError(f"compress is '' or one of {', '.join(SUFFIXES)}, not {quoted(compress, 10)}")
    can_compress(f"formula.cnf{compress}")
    stems: dict[str, str] = {}
    for path in files:  # each output's name comes from its puzzle file's: they must differ
        other = stems.setdefault(Path(path).stem, path)
        if other != path:
            raise SatedgeError(
                f"{other} and {path} would write the same files ({Path(path).stem}.PRESET.cnf): "
                "give puzzle files of different names"
            )
    puzzles = [(path, load_puzzle(path)) for path in files]
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SatedgeError("the output of every preset must be a folder", out)
    out.mkdir(parents=True, exist_ok=True)
    batch, manifest = Batch(), io.StringIO()
    rows = csv.writer(manifest, lineterminator="\n")
    rows.writerow(["file", "puzzle", "encoding", "variables", "clauses", "bytes"])
    for path, puzzle in puzzles:
        for p in presets().values():
            f = out / f"{Path(path).stem}.{p.name}.cnf{compress}"
            tick()
            try:
                nv, nc, n = export(puzzle, p, f, str(path), memory_mb, shuffle)
            except OutOfMemory:  # go on with the others, say so at the end
                batch.over_memory.append(f"{path} with {p.name}")
                continue
            except Unsupported:  # a preset for framed boards only: not a formula of this puzzle
                batch.uncovered.append(p.name)
                continue
            rows.writerow([f.name, path, p.name, nv, nc, f.stat().st_size if compress else n])
            batch.written += 1
    write_atomic(out / "manifest.csv", manifest.getvalue())
    return batch
