"""Puzzle and solution formats: canonical YAML, ``.puz`` (+ ``.clue``), Heule's ``.txt``, ``.sol``,
JSON solutions and the ``tile_dict.yaml`` layout of the Scramble Squares seed.

Every reader raises :class:`SatedgeError` naming the file and the problem; files are read and
written through :mod:`satedge.files`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml

from .errors import SatedgeError, cannot_write
from .files import one_line, read_text, read_yaml, shown, write_atomic
from .puzzle import SIDES, Clue, Puzzle, Solution

PUZZLE_KEYS = {"name", "rows", "cols", "matching", "frame", "topology", "edge_order", "tiles", "clues", "planted"}
CLOCKWISE = list(SIDES)


# ---------------------------------------------------------------------------- puzzles
def load_puzzle(path: str | os.PathLike) -> Puzzle:
    """Read a puzzle from canonical YAML, ``.puz``, Heule's ``.txt`` or a ``tile_dict.yaml``."""
    path = Path(path)
    try:
        if path.suffix == ".puz":
            return _parse_puz(read_text(path), path)
        if path.suffix == ".txt":
            return _parse_heule(read_text(path), path)
        data = read_yaml(path)
        if isinstance(data, dict) and data and all(isinstance(k, int) for k in data):
            return _parse_tile_dict(data, path)
        return puzzle_from_dict(data)
    except SatedgeError as e:
        if e.path is None:
            raise SatedgeError(str(e), path) from None
        raise


def _label(x: Any, matching: str, where: str) -> Any:
    if matching == "complementary":
        if isinstance(x, list) and len(x) == 2 and str(x[1]) in ("+", "-"):
            return f"{x[0]}{x[1]}"
        if isinstance(x, str) and len(x) >= 2 and x[-1] in "+-":
            return x
        raise SatedgeError(f"{where}: complementary label {x!r} needs a pattern and a half (+ or -)")
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise SatedgeError(f"{where}: label {x!r} must be an integer or a string")
    return x


def puzzle_from_dict(data: Any) -> Puzzle:
    """Build a puzzle from the canonical YAML mapping (already parsed)."""
    if not isinstance(data, dict):
        raise SatedgeError("a puzzle file must be a mapping with rows, cols, matching and tiles")
    unknown = sorted(set(map(str, data)) - PUZZLE_KEYS)
    if unknown:
        raise SatedgeError(f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(PUZZLE_KEYS))}")
    for key in ("rows", "cols", "tiles"):
        if key not in data:
            raise SatedgeError(f"missing key {key!r}")
    matching = data.get("matching", "identical")
    if matching not in ("complementary", "identical"):
        raise SatedgeError(f"matching must be complementary or identical, not {matching!r}")
    order = data.get("edge_order") or CLOCKWISE
    if not isinstance(order, list) or len(order) != 4:
        raise SatedgeError(f"edge_order must list the four words {', '.join(SIDES)}, found {order!r}")
    for word in order:
        if word not in SIDES:
            raise SatedgeError(f"unknown edge_order word {word!r}; use top, right, bottom, left")
    if len(set(order)) != 4:
        raise SatedgeError(f"edge_order {order!r} repeats a side")
    where = [order.index(s) for s in SIDES]  # position in the file of top, right, bottom, left
    tiles = data["tiles"]
    if not isinstance(tiles, list):
        raise SatedgeError("tiles must be a list of four-edge lists")
    parsed = []
    for i, tile in enumerate(tiles):
        if not isinstance(tile, list) or len(tile) != 4:
            n = len(tile) if isinstance(tile, list) else "not a list"
            raise SatedgeError(f"tile {i} must have four edges, found {n}")
        labels = [_label(x, matching, f"tile {i}") for x in tile]
        parsed.append(tuple(labels[k] for k in where))
    frame = data.get("frame")
    if frame is not None:
        frame = _label(frame, matching, "frame") if matching == "identical" else frame
    clues, given = [], data.get("clues") or []
    if not isinstance(given, list):
        raise SatedgeError("clues must be a list of {row, col, tile, rotation} mappings")
    for k, c in enumerate(given):
        if not isinstance(c, dict) or set(c) != {"row", "col", "tile", "rotation"}:
            raise SatedgeError(f"clue {k} must be a mapping with row, col, tile and rotation")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in c.values()):
            raise SatedgeError(f"clue {k}: row, col, tile and rotation must be integers")
        clues.append(Clue(c["row"], c["col"], c["tile"], c["rotation"]))
    planted = data.get("planted")
    puzzle = Puzzle(
        rows=data["rows"], cols=data["cols"], tiles=tuple(parsed), matching=matching,
        name=str(data.get("name") or ""), frame=frame, topology=data.get("topology") or "grid",
        clues=tuple(clues),
    )
    if planted is not None:
        try:
            puzzle = puzzle.with_(planted=solution_from_json(planted, puzzle))
        except SatedgeError as e:
            raise SatedgeError(f"planted: {e}") from None
    return puzzle


def puzzle_to_dict(puzzle: Puzzle) -> dict:
    """The canonical mapping: clockwise edge order, complementary labels as ``pattern+`` strings."""
    d: dict[str, Any] = {
        "name": puzzle.name,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "matching": puzzle.matching,
        "frame": puzzle.frame,
        "topology": puzzle.topology,
        "edge_order": CLOCKWISE,
        "tiles": [list(t) for t in puzzle.tiles],
    }
    if puzzle.clues:
        d["clues"] = [{"row": c.row, "col": c.col, "tile": c.tile, "rotation": c.rotation} for c in puzzle.clues]
    if puzzle.planted is not None:
        d["planted"] = solution_to_json(puzzle, puzzle.planted)
    return d


class _Dumper(yaml.SafeDumper):
    pass


def _flow_list(dumper, data):  # short lists (tiles, edge_order) on one line
    flow = all(not isinstance(x, (list, dict)) for x in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _flow_dict(dumper, data):
    flow = set(data) == {"row", "col", "tile", "rotation"}
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


_Dumper.add_representer(list, _flow_list)
_Dumper.add_representer(dict, _flow_dict)


def puzzle_to_yaml(puzzle: Puzzle) -> str:
    return yaml.dump(puzzle_to_dict(puzzle), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def _parse_ints(line: str, path: Path, lineno: int) -> list[int]:
    try:
        return [int(x) for x in line.split()]
    except ValueError:
        raise SatedgeError(f"line {lineno}: expected integers, found {shown(line.strip())}", path) from None


def _parse_puz(text: str, path: Path) -> Puzzle:
    rows = cols = None
    tiles = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        if cols is None:
            words = s.split()
            if words[:2] == ["p", "tile"]:
                words = words[2:]
            nums = _parse_ints(" ".join(words), path, lineno)
            if not 1 <= len(nums) <= 3 or min(nums) < 1:
                raise SatedgeError(f"line {lineno}: expected '<cols> [rows]', found {shown(s)}", path)
            cols = nums[0]
            rows = nums[1] if len(nums) > 1 else cols
            continue
        nums = _parse_ints(s, path, lineno)
        if len(nums) != 4 or min(nums) < 0:
            raise SatedgeError(f"line {lineno}: a tile is four non-negative colours (north east south west), found "
                               f"{shown(s)}", path)
        tiles.append(tuple(nums))
    if cols is None:
        raise SatedgeError("no size line: expected '<cols> [rows]'", path)
    frame = 0 if any(0 in t for t in tiles) else None
    puzzle = Puzzle(rows=rows, cols=cols, tiles=tuple(tiles), matching="identical", name=path.stem, frame=frame)
    clue_path = path.with_suffix(".clue")
    if clue_path.exists():
        clues = tuple(Clue(cell // cols, cell % cols, t, r) for t, cell, r in
                      _sol_lines(read_text(clue_path), clue_path, puzzle))
        try:
            puzzle = puzzle.with_(clues=clues)
        except SatedgeError as e:
            raise SatedgeError(str(e), clue_path) from None
    return puzzle


def _parse_heule(text: str, path: Path) -> Puzzle:
    """Heule's ``.txt`` instances (the SAT Competition 2009 ``em_*`` family): a count of hint
    lines, then ``north east south west`` per piece; colour 0 is the frame.  The board's size is
    not written: ``rows + cols`` follows from the border pieces (one side 0) and ``rows * cols``
    from the number of pieces; the shorter side is taken as the rows."""
    lines = [(n, s.strip()) for n, s in enumerate(text.splitlines(), 1) if s.strip()]
    if not lines:
        raise SatedgeError("empty: expected a hint count, then 'north east south west' per piece", path)
    lineno, first = lines[0]
    hints = _parse_ints(first, path, lineno)
    if len(hints) != 1 or hints[0] < 0:
        raise SatedgeError(f"line {lineno}: expected the number of hint lines, found {shown(first)}", path)
    if hints[0]:
        raise SatedgeError(f"line {lineno}: {hints[0]} hint lines; satedge reads instances without hints (every "
                           "published one has none): give clues in YAML instead", path)
    tiles = []
    for lineno, s in lines[1:]:
        nums = _parse_ints(s, path, lineno)
        if len(nums) != 4 or min(nums) < 0:
            raise SatedgeError(f"line {lineno}: a piece is four non-negative colours (north east south west), found "
                               f"{shown(s)}", path)
        tiles.append(tuple(nums))
    n, border = len(tiles), sum(t.count(0) == 1 for t in tiles)
    half = border // 2 + 4  # rows + cols
    disc = half * half - 4 * n
    root = int(disc ** 0.5) if disc >= 0 else -1
    while root > 0 and root * root > disc:
        root -= 1
    if n < 4 or border % 2 or root < 0 or root * root != disc or (half - root) % 2:
        raise SatedgeError(f"{n} pieces of which {border} border pieces fit no rectangular framed board", path)
    rows, cols = (half - root) // 2, (half + root) // 2
    return Puzzle(rows=rows, cols=cols, tiles=tuple(tiles), matching="identical", name=path.stem, frame=0)


def puzzle_to_puz(puzzle: Puzzle) -> str:
    """``.puz`` text; only identical-matching grid puzzles with integer labels, 0 being the frame."""
    if puzzle.matching != "identical" or puzzle.topology != "grid":
        raise SatedgeError(".puz holds identical-matching grid puzzles only")
    labels = {x for t in puzzle.tiles for x in t}
    if not all(isinstance(x, int) and x >= 0 for x in labels):
        raise SatedgeError(".puz needs non-negative integer labels")
    if (puzzle.frame is None and 0 in labels) or puzzle.frame not in (None, 0):
        raise SatedgeError(".puz reserves colour 0 for the frame")
    lines = [f"c {one_line(puzzle.name)}" if puzzle.name else "c satedge puzzle", f"{puzzle.cols} {puzzle.rows}"]
    lines += [" ".join(map(str, t)) for t in puzzle.tiles]
    return "\n".join(lines) + "\n"


def _parse_tile_dict(data: dict, path: Path) -> Puzzle:
    """Scramble Squares seed layout: keys 1..n, four ``[colour, half]`` pairs right, top, left, bottom."""
    n = len(data)
    side = round(n ** 0.5)
    if side * side != n or sorted(data) != list(range(1, n + 1)):
        raise SatedgeError(f"tile_dict keys must be 1..n for a square n, found {sorted(data)}")
    puzzle = {
        "name": path.parent.parent.name if path.parent.name == "input" else path.stem,
        "rows": side, "cols": side, "matching": "complementary",
        "edge_order": ["right", "top", "left", "bottom"],
        "tiles": [data[k] for k in range(1, n + 1)],
    }
    return puzzle_from_dict(puzzle)


def save_puzzle(puzzle: Puzzle, path: str | os.PathLike) -> None:
    """Write canonical YAML (``.yaml``/``.yml``) or ``.puz`` (with a ``.clue`` sibling for clues; a
    ``.clue`` already there is rewritten, or removed when the puzzle has none)."""
    path = Path(path)
    if path.suffix in (".yaml", ".yml"):
        write_atomic(path, puzzle_to_yaml(puzzle))
    elif path.suffix == ".puz":
        try:
            text = puzzle_to_puz(puzzle)
        except SatedgeError as e:
            raise SatedgeError(str(e), path) from None
        clue_path = path.with_suffix(".clue")
        if puzzle.clues:
            clue = Solution(tuple((c.tile, c.rotation) for c in puzzle.clues))
            cells = [puzzle.board.cell(c.row, c.col) for c in puzzle.clues]
            write_atomic(clue_path, _sol_text(puzzle, clue, cells))
        elif clue_path.is_file():  # a .clue left from an earlier puzzle would clue this one
            try:
                clue_path.unlink()
            except OSError as e:
                raise cannot_write(e, clue_path) from None
        write_atomic(path, text)
    else:
        raise SatedgeError("unknown puzzle format: use .yaml, .yml or .puz", path)


# ---------------------------------------------------------------------------- solutions
def _sol_lines(text: str, path: Path, puzzle: Puzzle) -> list[tuple[int, int, int]]:
    """``(tile, cell, clockwise rotation)`` for each ``tile col row rot`` line (rot anti-clockwise)."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        nums = _parse_ints(s, path, lineno)
        if len(nums) != 4:
            raise SatedgeError(f"line {lineno}: expected 'tile col row rot', found {s!r}", path)
        t, col, row, rot = nums
        if not (0 <= row < puzzle.rows and 0 <= col < puzzle.cols):
            raise SatedgeError(f"line {lineno}: cell col {col}, row {row} is outside the {puzzle.rows}x{puzzle.cols} board", path)
        if not 0 <= t < len(puzzle.tiles) or rot not in range(4):
            raise SatedgeError(f"line {lineno}: tile {t} or rotation {rot} out of range", path)
        out.append((t, puzzle.board.cell(row, col), (-rot) % 4))
    return out


def _sol_text(puzzle: Puzzle, solution: Solution, cells=None) -> str:
    cells = range(len(solution)) if cells is None else cells
    lines = []
    for cell, (t, r) in zip(cells, solution):
        row, col = puzzle.board.position(cell)
        lines.append(f"{t} {col} {row} {(-r) % 4}")
    return "\n".join(lines) + "\n"


def solution_to_json(puzzle: Puzzle, solution: Solution) -> list[dict]:
    return [{"row": cell // puzzle.cols, "col": cell % puzzle.cols, "tile": t, "rotation": r}
            for cell, (t, r) in enumerate(solution)]


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
            raise SatedgeError(f"solution item {k}: cell ({row}, {col}) is outside the {puzzle.rows}x{puzzle.cols} board")
        cell = puzzle.board.cell(row, col)
        if cell in cells:
            raise SatedgeError(f"solution item {k}: cell ({row}, {col}) is placed twice")
        cells[cell] = (t, r)
    if len(cells) != puzzle.n:
        raise SatedgeError(f"the solution places {len(cells)} of {puzzle.n} cells")
    return Solution(tuple(cells[c] for c in range(puzzle.n)))


def load_solution(path: str | os.PathLike, puzzle: Puzzle) -> Solution:
    """Read a ``.sol`` file or a JSON solution (as ``satedge solve --json`` prints it)."""
    path = Path(path)
    text = read_text(path)
    if path.suffix == ".sol":
        placed = _sol_lines(text, path, puzzle)
        cells = {}
        for t, cell, r in placed:
            if cell in cells:
                raise SatedgeError(f"cell {puzzle.board.position(cell)} is placed twice", path)
            cells[cell] = (t, r)
        if len(cells) != puzzle.n:
            raise SatedgeError(f"the solution places {len(cells)} of {puzzle.n} cells", path)
        return Solution(tuple(cells[c] for c in range(puzzle.n)))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SatedgeError(f"not valid JSON: {e.msg} at line {e.lineno}", path) from None
    except RecursionError:
        raise SatedgeError("not valid JSON: nested too deep", path) from None
    try:
        return solution_from_json(data, puzzle)
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None


def save_solution(puzzle: Puzzle, solution: Solution, path: str | os.PathLike) -> None:
    """Write ``.sol`` or JSON (any other suffix)."""
    path = Path(path)
    if path.suffix == ".sol":
        write_atomic(path, _sol_text(puzzle, solution))
    else:
        write_atomic(path, json.dumps(solution_to_json(puzzle, solution)) + "\n")
