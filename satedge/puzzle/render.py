"""Boards in files: pictures, SVG (:mod:`satedge.puzzle.drawing`) written directly and PNG
through matplotlib, and a board's files of every kind written together (:func:`save_board`)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ..errors import SatedgeError
from ..system.extras import require
from ..system.files import write_atomic, write_group
from .checker import mismatches
from .drawing import layout, to_svg
from .model import Puzzle, Solution
from .solutions import solution_text

__all__ = [
    "PNG_SCALE",
    "PICTURES",
    "BOARD_FILES",
    "pyplot",
    "to_png",
    "picture",
    "save_picture",
    "save_board",
]

PICTURES = (".svg", ".png")
BOARD_FILES = (".sol", ".json", *PICTURES)  # what save_board writes

PNG_SCALE = 2  # PNG pixels per layout unit


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, which needs no screen (extra ``plot``); SVGs keep
    their text as text (searchable, copyable)."""
    matplotlib = require("matplotlib")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"
    return require("matplotlib.pyplot")


def to_png(puzzle: Puzzle, solution: Solution | None, path: Any, mismatched: Any = ()) -> None:
    """The same picture as a PNG through matplotlib (extra ``plot``), two pixels per layout unit,
    written to ``path`` (a file's path, or a binary file object)."""
    plt = pyplot()
    patches, pe = require("matplotlib.patches"), require("matplotlib.patheffects")
    Polygon, Rectangle = patches.Polygon, patches.Rectangle
    w, h, polygons, texts, marks, lines = layout(puzzle, solution, mismatched)
    dpi = 100 * PNG_SCALE
    fig = plt.figure(figsize=(w / 100, h / 100), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.axis("off")
    for pts, fill in polygons:
        ax.add_patch(
            Polygon(pts, closed=True, facecolor=fill, edgecolor="#404040", linewidth=0.4, antialiased=False)
        )
    for x, y, size in marks:
        ax.add_patch(Rectangle((x, y), size, size, fill=False, edgecolor="black", linewidth=2))
    for x1, y1, x2, y2 in lines:
        ax.plot([x1, x2], [y1, y2], color="#D00000", linewidth=3.5, solid_capstyle="round")
    for x, y, text, size in texts:
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=size * 0.72,
            family="sans-serif",
            path_effects=[pe.withStroke(linewidth=2, foreground="white")],
        )
    fig.savefig(path, dpi=dpi, facecolor="white", format="png")
    plt.close(fig)


def picture(puzzle: Puzzle, solution: Solution | None, suffix: str, mismatched: Any = ()) -> str | bytes:
    """The picture of a board as a file of ``suffix`` holds it: ``.svg`` text, or ``.png`` bytes
    through matplotlib; ``mismatched``: adjacencies whose sides do not fit, marked in red."""
    if suffix == ".svg":
        return to_svg(puzzle, solution, mismatched)
    if suffix == ".png":
        out = io.BytesIO()
        to_png(puzzle, solution, out, mismatched)
        return out.getvalue()
    raise SatedgeError("pictures are .svg or .png")


def save_picture(puzzle: Puzzle, solution: Solution | None, path: Any, mismatched: Any = ()) -> None:
    """``.svg`` written directly, ``.png`` through matplotlib (:func:`picture`); nothing
    half-written on failure."""
    suffix = Path(path).suffix
    if suffix not in PICTURES:
        raise SatedgeError("pictures are .svg or .png", path)
    write_atomic(path, picture(puzzle, solution, suffix, mismatched))


def save_board(puzzle: Puzzle, board: Solution, paths: list) -> None:
    """A board written to each of ``paths`` as its suffix says, all of them or none: a solution
    file (``.sol``, ``.json``: :func:`satedge.puzzle.solutions.save_solution`'s text) or a
    picture (``.svg``, ``.png``: :func:`picture`), whose sides that do not fit are red."""
    wrong = mismatches(puzzle, board)
    files: dict = {}
    for path in paths:
        suffix = Path(path).suffix
        if suffix not in BOARD_FILES:
            raise SatedgeError(f"a board's file is {', '.join(BOARD_FILES[:-1])} or {BOARD_FILES[-1]}", path)
        files[path] = (
            picture(puzzle, board, suffix, wrong)
            if suffix in PICTURES
            else solution_text(puzzle, board, suffix)
        )
    write_group(files)
