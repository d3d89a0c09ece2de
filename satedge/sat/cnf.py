"""DIMACS text: satedge's one writer and one reader of clauses, and a solver's answer read back.

Clause lines are written in large blocks: from lists of clauses, or from numpy arrays of one
clause per row (shorter clauses padded with 0) turned into text all at once through a table of
every literal's text.  Self-describing files (a header that names the puzzle and the encoding)
are :mod:`satedge.sat.dimacs`'s."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..errors import SatedgeError
from ..system.files import check_input, quoted

__all__ = [
    "CHUNK",
    "MAX_TOKEN",
    "MINISAT_STATUS",
    "clauses_text",
    "formula_text",
    "write_clauses",
    "write_plain",
    "read_clauses",
    "literal_table",
    "rows_text",
    "answer_status",
    "parse_model",
    "wcnf_clauses",
    "objective",
    "write_wcnf",
]

CHUNK = 20000  # clauses of a list formatted into one string


def clauses_text(clauses: Iterable[list[int]]) -> str:
    r"""Clauses as DIMACS lines: ``1 -2 0``.

    >>> clauses_text([[1, -2], [3]])
    '1 -2 0\n3 0\n'
    """
    return "".join([" ".join(map(str, c)) + " 0\n" for c in clauses])


def formula_text(
    clauses: list[list[int]], nv: int, count: int | None = None, comment: str | None = None
) -> str:
    """A DIMACS formula of ``nv`` variables: a comment line, the ``p cnf`` line (counting
    ``count`` clauses, by default those given) and the clauses."""
    head = f"c {comment}\n" if comment is not None else ""
    return f"{head}p cnf {nv} {len(clauses) if count is None else count}\n" + clauses_text(clauses)


def write_clauses(fh: IO[str], blocks: list, nv: int) -> int:
    """Write the clauses of ``blocks`` (lists of clauses or arrays, in order) as DIMACS lines of a
    formula of ``nv`` variables; returns the characters written.  The lines of an array go
    to the text file's bytes underneath when it has them (they are ASCII)."""
    total, table = 0, None
    for block in blocks:
        if isinstance(block, list):
            for i in range(0, len(block), CHUNK):
                text = clauses_text(block[i : i + CHUNK])
                fh.write(text)
                total += len(text)
            continue
        if table is None:
            table = literal_table(nv)
        raw = getattr(fh, "buffer", None)
        if raw is not None:
            fh.flush()  # what the text layer holds goes first
        rows = max(1, 16 * CHUNK // max(1, block.shape[1]))
        for i in range(0, len(block), rows):
            data = rows_text(block[i : i + rows], table, nv)
            if raw is None:
                fh.write(data.decode("ascii"))
            else:
                raw.write(data)
            total += len(data)
    return total


def literal_table(nv: int) -> np.ndarray:
    """The text of every literal and a space (``-17 ``), NUL-padded in front to a multiple of 8
    bytes and seen as ``uint64`` words: row ``lit + nv``; row ``nv`` (0, the padding of short
    clauses) is empty.  The NULs are dropped as the lines are made (:func:`rows_text`).  Made
    digit by digit from the right, a pass over the variables for each.

    >>> literal_table(12).view(np.uint8)[[0, 11, 12, 13, 24]].tobytes().replace(b"\\0", b"")
    b'-12 -1 1 12 '
    """
    digits = len(str(nv))
    width = 8 * -(-(digits + 2) // 8)
    table = np.zeros((2 * nv + 1, width), dtype=np.uint8)
    positive = table[nv + 1 :]
    positive[:, -1] = 32
    rest: Any = np.arange(1, nv + 1, dtype=np.int32 if nv < 2**31 else np.int64)  # the digits not yet made
    for k in range(digits):  # the k-th digit from the right, of the numbers from 10^k on
        tail = rest[10**k - 1 :]  # divided by 10^k before
        positive[10**k - 1 :, width - 2 - k] = 48 + tail % 10
        tail //= 10
    table[:nv] = positive[::-1]
    for n in range(1, digits + 1):  # the minus sign before the numbers of n digits
        table[nv - min(10**n - 1, nv) : nv - 10 ** (n - 1) + 1, width - 2 - n] = 45
    return table.view(np.uint64)


def rows_text(rows: np.ndarray, table: np.ndarray, nv: int) -> bytes:
    """DIMACS lines (ASCII) of an array of clauses, one per row (0: padding).

    >>> rows_text(np.array([[1, -2], [3, 0]], dtype=np.int32), literal_table(3), 3)
    b'1 -2 0\\n3 0\\n'
    """
    words = np.take(table, rows + np.int32(nv), axis=0).view(np.uint8).reshape(len(rows), -1)
    out = np.empty((len(rows), words.shape[1] + 2), dtype=np.uint8)
    out[:, :-2] = words
    out[:, -2], out[:, -1] = 48, 10  # "0\n"
    return out.tobytes().translate(None, b"\0")


MAX_TOKEN = 20  # characters of a token that an error message echoes
MINISAT_STATUS = ("SAT", "UNSAT", "INDET")  # the first line of MiniSat's result file


def answer_status(text: str) -> str | None:
    """The status a solver's answer states, ``SAT``, ``UNSAT`` or another word (``UNKNOWN``,
    ``INDET``): its first ``s`` line, or MiniSat's result file's first line; ``None`` when it
    states none.

    >>> answer_status("c hi\\ns SATISFIABLE\\nv 1 0\\n"), answer_status("UNSAT\\n"), answer_status("v 1 0")
    ('SAT', 'UNSAT', None)
    """
    for line in text.splitlines():
        s = line.strip()
        said = s[2:].strip() if s.startswith("s ") else s if s in MINISAT_STATUS else None
        if said is not None:
            return {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT"}.get(said, said)[:MAX_TOKEN]
    return None


def parse_model(lines: Iterable[str] | str, path: Path | str, nv: int) -> list[int] | None:
    """Literals from a solver's answer, read line by line: SAT-competition output (``s`` and ``v``
    lines, ``c`` comments), a MaxSAT solver's (``o`` lines skipped, ``s OPTIMUM FOUND``, a ``v``
    line of literals or of one 0 or 1 per variable), MiniSat's result file (``SAT``, ``UNSAT`` or ``INDET``, then the
    literals) or a bare list of literals; ``None`` for UNSAT.  More literals than the formula has
    variables, a literal out of range or a token that is no literal is an error that echoes at
    most the token's first characters."""
    lits: list[int] = []
    for lineno, line in enumerate(lines.splitlines() if isinstance(lines, str) else lines, 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        status = s[2:].strip() if s.startswith("s ") else s if s in MINISAT_STATUS else None
        if status in ("UNSATISFIABLE", "UNSAT"):
            return None
        if s.startswith("o ") or s == "o":  # a MaxSAT solver's cost so far (satedge.sat.dimacs.objective)
            continue
        if status is not None and status not in ("SATISFIABLE", "SAT", "OPTIMUM FOUND"):
            raise SatedgeError(f"line {lineno}: solver status {quoted(status, MAX_TOKEN)}, no model", path)
        if status is not None:
            continue
        words = s[2:].split() if s.startswith("v ") else s.split()
        if s.startswith("v ") and len(words) == 1 and len(words[0]) == nv > 1 and not words[0].strip("01"):
            # the MaxSAT Evaluation's model line since 2020: one 0 or 1 per variable, in order
            lits.extend(v if bit == "1" else -v for v, bit in enumerate(words[0], 1))
            continue
        if s.startswith("v ") and len(words) == 1 and len(words[0]) > 1 and words[0][0] == "0":
            if not words[0].strip("01"):  # no literal starts with 0: values, too few or too many
                raise SatedgeError(
                    f"line {lineno}: a model line of {len(words[0]):,} values 0 or 1, where the formula has "
                    f"{nv:,} variables: is it cut short?",
                    path,
                )
        for w in words:
            lit = int(w) if len(w) <= MAX_TOKEN and w.removeprefix("-").isdigit() and w.isascii() else None
            if lit is None:
                raise SatedgeError(f"line {lineno}: {quoted(w, MAX_TOKEN)} is not a literal", path) from None
            if abs(lit) > nv:
                raise SatedgeError(
                    f"line {lineno}: literal {lit} out of range: the formula has {nv} variables", path
                )
            if lit:
                lits.append(lit)
                if len(lits) > nv:
                    raise SatedgeError(
                        f"line {lineno}: more literals than the formula's {nv} variables", path
                    )
    if not lits:
        raise SatedgeError(
            "no model: expected 's SATISFIABLE' and 'v ... 0' lines, MiniSat's 'SAT' and literals, or "
            "a list of literals",
            path,
        )
    return lits


def write_wcnf(fh: IO[str], hard: list[list[int]], soft: Iterable[int]) -> int:
    """Write WCNF in the MaxSAT Evaluation's format of 2022 on: the ``hard`` clauses marked
    ``h``, then a soft unit clause of weight 1 for each literal of ``soft``; no ``p`` line.
    Returns the characters written."""
    total = 0
    for i in range(0, len(hard), CHUNK):
        text = "".join("h " + line for line in clauses_text(hard[i : i + CHUNK]).splitlines(True))
        fh.write(text)
        total += len(text)
    text = "".join(f"1 {m} 0\n" for m in soft)
    fh.write(text)
    return total + len(text)


def write_plain(clauses: Iterable[list[int]], nv: int, fh: IO[str]) -> None:
    """A bare DIMACS formula (for external solvers)."""
    clauses = list(clauses)
    fh.write(f"p cnf {nv} {len(clauses)}\n")
    write_clauses(fh, [clauses], nv)


def read_clauses(path: Path, what: str) -> tuple[int, int, list[list[int]]]:
    """A DIMACS file's ``p`` line and its clauses, each a one-line error when damaged."""
    check_input(path, 2**34)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SatedgeError(f"cannot read the {what}: {e.strerror or e}", path) from None
    head = next((line.split() for line in data[: 1 << 20].splitlines() if line.startswith(b"p ")), None)
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


def wcnf_clauses(text: str, path: Path | str) -> tuple[list[list[int]], list[tuple[int, list[int]]]]:
    """The hard clauses and the weighted soft ones of a WCNF text in the MaxSAT Evaluation's
    format (``h`` marks a hard clause, a soft one starts with its weight, a positive integer);
    anything else on a line is a one-line error that names it."""
    hard: list[list[int]] = []
    soft: list[tuple[int, list[int]]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("c"):
            continue
        if words[0] == "p":
            raise SatedgeError(f"line {lineno}: a 'p' line, which the WCNF format of 2022 on has not", path)
        head, rest = words[0], words[1:]
        if head != "h" and not (head.isdigit() and head.isascii() and len(head) <= 19 and int(head) > 0):
            raise SatedgeError(
                f"line {lineno}: weight {quoted(head, MAX_TOKEN)}: a soft clause's weight is a positive "
                "integer, a hard clause starts with h",
                path,
            )
        if not rest or rest[-1] != "0":
            raise SatedgeError(f"line {lineno}: the clause does not end with 0", path)
        lits = []
        for w in rest[:-1]:
            if (
                not (w.removeprefix("-").isdigit() and w.isascii() and len(w) <= MAX_TOKEN)
                or w.removeprefix("-") == "0"
            ):
                raise SatedgeError(f"line {lineno}: {quoted(w, MAX_TOKEN)} is not a literal", path)
            lits.append(int(w))
        if head == "h":
            hard.append(lits)
        else:
            soft.append((int(head), lits))
    return hard, soft


def objective(lines: list[str]) -> int | None:
    """The cost a MaxSAT solver's last ``o`` line gives, or ``None``."""
    said = None
    for line in lines:
        words = line.split()
        if len(words) == 2 and words[0] == "o" and words[1].isdigit() and words[1].isascii():
            said = int(words[1])
    return said
