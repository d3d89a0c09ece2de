"""Pictures in files: SVG (:mod:`satedge.puzzle.drawing`) written directly, PNG through matplotlib."""

from __future__ import annotations

from pathlib import Path

from ..errors import SatedgeError
from ..system.extras import require
from ..system.files import atomic_output, write_atomic
from .drawing import layout, to_svg
from .model import Puzzle, Solution

__all__ = ["PNG_SCALE", "pyplot", "to_png", "save_picture"]

PNG_SCALE = 2  # PNG pixels per layout unit


def pyplot():
    """matplotlib's pyplot on the Agg backend, which needs no screen (extra ``plot``); SVGs keep
    their text as text (searchable, copyable)."""
    matplotlib = require("matplotlib")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"
    return require("matplotlib.pyplot")


def to_png(puzzle: Puzzle, solution: Solution | None, path, mismatched=()) -> None:
    """The same picture as a PNG through matplotlib (extra ``plot``), two pixels per layout unit."""
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
    fig.savefig(path, dpi=dpi, facecolor="white")
    plt.close(fig)


def save_picture(puzzle: Puzzle, solution: Solution | None, path, mismatched=()) -> None:
    """``.svg`` written directly, ``.png`` through matplotlib; nothing half-written on failure;
    ``mismatched``: adjacencies whose sides do not fit, marked in red."""
    path = Path(path)
    if path.suffix == ".svg":
        write_atomic(path, to_svg(puzzle, solution, mismatched))
    elif path.suffix == ".png":
        with atomic_output(path) as tmp:
            to_png(puzzle, solution, tmp, mismatched)
    else:
        raise SatedgeError("pictures are .svg or .png", path)
