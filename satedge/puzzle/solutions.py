"""Solution formats: ``.sol`` (``tile col row rot``, the rotation anti-clockwise, as the board
suite writes it), JSON ``{row, col, tile, rotation}`` lists, and every form ``satedge solve``
writes (one solution, a list of them, JSON lines of ``--json``).  Files are read and written
through :mod:`satedge.system.files`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import SatedgeError
from ..system.files import parse_ints, parse_json, read_text, shown, write_atomic
from .checker import board_problem
from .model import Puzzle, Solution

__all__ = [
    "sol_lines",
    "sol_text",
    "solution_to_json",
    "solution_from_json",
    "load_solutions",
    "load_solution",
    "load_board",
    "save_solution",
    "solution_text",
]


def sol_lines(text: str, path: Path, puzzle: Puzzle) -> list[tuple[int, int, int]]:
    """``(tile, cell, clockwise rotation)`` for each ``tile col row rot`` line (rot anti-clockwise)."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        nums = parse_ints(s, path, lineno)
        if len(nums) != 4:
            raise SatedgeError(f"line {lineno}: expected 'tile col row rot', found {shown(s)}", path)
        t, col, row, rot = nums
        if not (0 <= row < puzzle.rows and 0 <= col < puzzle.cols):
            raise SatedgeError(
                f"line {lineno}: cell col {col}, row {row} is outside the {puzzle.rows}x{puzzle.cols} board",
                path,
            )
        if not 0 <= t < len(puzzle.tiles) or rot not in range(4):
            raise SatedgeError(f"line {lineno}: tile {t} or rotation {rot} out of range", path)
        out.append((t, puzzle.board.cell(row, col), (-rot) % 4))
    return out


def sol_text(puzzle: Puzzle, solution: Solution, cells: Iterable[int] | None = None) -> str:
    cells = range(len(solution)) if cells is None else cells
    lines = []
    for cell, (t, r) in zip(cells, solution):
        row, col = puzzle.board.position(cell)
        lines.append(f"{t} {col} {row} {(-r) % 4}")
    return "\n".join(lines) + "\n"


def solution_to_json(puzzle: Puzzle, solution: Solution) -> list[dict]:
    return [
        {"row": cell // puzzle.cols, "col": cell % puzzle.cols, "tile": t, "rotation": r}
        for cell, (t, r) in enumerate(solution)
    ]


def solution_from_json(data: Any, puzzle: Puzzle) -> Solution:
    """A solution from a list of ``{row, col, tile, rotation}`` (or an object with ``solution``)."""
    if isinstance(data, dict) and "solution" in data:
        data = data["solution"]
    if not isinstance(data, list):
        raise SatedgeError("a solution is a list of {row, col, tile, rotation} objects")
    cells: dict[int, tuple[int, int]] = {}
    for k, item in enumerate(data):
        if not isinstance(item, dict) or not {"row", "col", "tile", "rotation"} <= set(item):
            raise SatedgeError(f"solution item {k} must have row, col, tile and rotation")
        vals = [item[key] for key in ("row", "col", "tile", "rotation")]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            raise SatedgeError(f"solution item {k}: row, col, tile and rotation must be integers")
        row, col, t, r = vals
        if not (0 <= row < puzzle.rows and 0 <= col < puzzle.cols):
            raise SatedgeError(
                f"solution item {k}: cell ({row}, {col}) is outside the {puzzle.rows}x{puzzle.cols} board"
            )
        cell = puzzle.board.cell(row, col)
        if cell in cells:
            raise SatedgeError(f"solution item {k}: cell ({row}, {col}) is placed twice")
        cells[cell] = (t, r)
    if len(cells) != puzzle.n:
        raise SatedgeError(f"the solution places {len(cells)} of {puzzle.n} cells")
    return Solution(tuple(cells[c] for c in range(puzzle.n)))


def load_solutions(path: str | os.PathLike, puzzle: Puzzle) -> list[Solution]:
    """Every solution in a file.

    Parameters
    ----------
    path : str or path-like
        In each form satedge writes: a ``.sol`` file (one solution), a JSON list of ``{row,
        col, tile, rotation}`` (``solve -o x.json``), a JSON list of such lists (``solve --all
        -o x.json``), an object with ``solution`` or ``solutions``, or JSON lines of such
        objects (``solve --json``, with or without ``--all``).
    puzzle : Puzzle
        The puzzle they are of (its size and tiles are checked).

    Returns
    -------
    list of Solution
    """
    path = Path(path)
    text = read_text(path)
    try:
        if path.suffix == ".sol":
            return [_sol_solution(text, path, puzzle)]
        try:
            documents = [parse_json(text)]
        except ValueError as first:  # JSON lines: one document per line
            lines = [line for line in text.splitlines() if line.strip()]
            if len(lines) < 2:
                raise SatedgeError(f"not valid JSON: {first}") from None
            documents = []
            for n, line in enumerate(lines, 1):
                try:
                    documents.append(parse_json(line))
                except ValueError as e:
                    raise SatedgeError(f"line {n}: not valid JSON: {e}") from None
        found = [s for doc in documents for s in _solutions_in(doc, puzzle)]
        if not found:
            raise SatedgeError("no solution in it (an UNSAT answer?)")
        return found
    except SatedgeError as e:
        if e.path is None:
            raise SatedgeError(str(e), path) from None
        raise


def _solutions_in(doc: Any, puzzle: Puzzle) -> list[Solution]:
    if isinstance(doc, dict) and "solutions" in doc:
        doc = doc["solutions"]
        if not isinstance(doc, list):
            raise SatedgeError("solutions must be a list of solutions")
        return [solution_from_json(s, puzzle) for s in doc]
    if isinstance(doc, list) and doc and all(isinstance(s, list) for s in doc):
        return [solution_from_json(s, puzzle) for s in doc]
    if isinstance(doc, dict) and "solution" not in doc and doc.get("status") in ("UNSAT", "TIMEOUT"):
        return []
    return [solution_from_json(doc, puzzle)]


def load_solution(path: str | os.PathLike, puzzle: Puzzle) -> Solution:
    """The one solution in a file.

    Parameters
    ----------
    path : str or path-like
        As :func:`load_solutions` reads it; a file with several solutions is an error.
    puzzle : Puzzle

    Returns
    -------
    Solution
    """
    found = load_solutions(path, puzzle)
    if len(found) > 1:
        raise SatedgeError(f"{len(found)} solutions in it, where one is wanted", path)
    return found[0]


def _sol_solution(text: str, path: Path, puzzle: Puzzle) -> Solution:
    cells = {}
    for t, cell, r in sol_lines(text, path, puzzle):
        if cell in cells:
            raise SatedgeError(f"cell {puzzle.board.position(cell)} is placed twice", path)
        cells[cell] = (t, r)
    if len(cells) != puzzle.n:
        raise SatedgeError(f"the solution places {len(cells)} of {puzzle.n} cells", path)
    return Solution(tuple(cells[c] for c in range(puzzle.n)))


def save_solution(puzzle: Puzzle, solution: Solution | list[Solution], path: str | os.PathLike) -> None:
    """Write a solution, or a list of them, whole or not at all.

    Parameters
    ----------
    puzzle : Puzzle
    solution : Solution or list of Solution
    path : str or path-like
        ``.sol`` (``tile col row rot`` per line; one solution), or JSON for any other suffix
        (a list: a JSON array).
    """
    text = solution_text(puzzle, solution, Path(path).suffix)
    write_atomic(path, text)


def solution_text(puzzle: Puzzle, solution: Solution | list[Solution], suffix: str) -> str:
    """The text of a solution file of ``suffix``, as :func:`save_solution` writes it: ``.sol``
    for one solution, JSON for any other suffix (a list of solutions: a JSON array)."""
    if isinstance(solution, list):
        return json.dumps([solution_to_json(puzzle, s) for s in solution]) + "\n"
    if suffix == ".sol":
        return sol_text(puzzle, solution)
    return json.dumps(solution_to_json(puzzle, solution)) + "\n"


def load_board(path: str | os.PathLike, puzzle: Puzzle) -> Solution:
    """The board in a solution file (one that ``maximize -o`` writes), which must keep
    ``puzzle``'s hard rules (its sides need not all fit); else a one-line error naming the file."""
    board = load_solution(path, puzzle)
    problem = board_problem(puzzle, board)
    if problem is not None:
        raise SatedgeError(f"not a board of this puzzle: {problem}", path)
    return board
