"""Hypothesis strategies for edge-matching puzzles, for satedge's tests and yours.

>>> from hypothesis import given
>>> from satedge.puzzle.strategies import puzzles
>>> @given(puzzles(max_cells=4))
... def test_small(puzzle):
...     assert puzzle.n <= 4
>>> test_small()

Every choice is a hypothesis draw that shrinks towards 0, so failing examples shrink towards
small boards, few labels, unshuffled tiles and no turns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..system.extras import require
from .formats import puzzle_to_yaml
from .generate import Params, build
from .model import Puzzle, Solution

__all__ = ["puzzles", "solved_puzzles", "solutions", "malformed_puzzle_files"]


def _st() -> Any:
    """hypothesis's strategies (extra ``test``)."""
    return require("hypothesis.strategies")


def puzzles(
    max_rows: int = 3,
    max_cols: int = 3,
    max_cells: int = 6,
    max_colors: int = 3,
    matchings: tuple[str, ...] = ("complementary", "identical"),
    topologies: tuple[str, ...] = ("grid", "torus"),
    models: tuple[str, ...] = ("planted", "uniform"),
    clues: bool = True,
    turns: tuple[str, ...] = ("all", "half", "none"),
    borders: bool = True,
) -> Any:
    """Puzzles from 1x1 up to ``max_rows x max_cols`` (at most ``max_cells`` cells): grid or torus,
    framed or not, both matching rules, planted or uniform, duplicate tiles, clues, tiles that
    may take every turn, half turns or none (``turns``), and a border rule on planted grids
    without a frame (``borders``: the outside shows one or two of the labels, which also run
    inside)."""
    return _st().composite(_puzzle)(
        max_rows, max_cols, max_cells, max_colors, matchings, topologies, models, clues, turns, borders
    )


def _puzzle(
    draw: Callable[[Any], Any],
    max_rows: int,
    max_cols: int,
    max_cells: int,
    max_colors: int,
    matchings: tuple[str, ...],
    topologies: tuple[str, ...],
    models: tuple[str, ...],
    clues: bool,
    turns: tuple[str, ...],
    borders: bool,
) -> Puzzle:
    st = _st()
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max(1, min(max_cols, max_cells // rows))))
    matching = draw(st.sampled_from(matchings))
    topology = draw(st.sampled_from(topologies))
    model = draw(st.sampled_from(models))
    framed = model == "planted" and matching == "identical" and topology == "grid" and draw(st.booleans())
    border = draw(st.integers(0, 2)) if framed and rows > 2 and cols > 2 else 0
    colors = draw(st.integers(1, max_colors))
    n_clues = draw(st.integers(0, min(2, rows * cols))) if clues and model == "planted" else 0
    turn = draw(st.sampled_from(turns))
    bordered = model == "planted" and topology == "grid" and not framed and borders
    rule = draw(st.integers(0, min(2, colors))) if bordered else 0
    params = Params(
        rows=rows,
        cols=cols,
        colors=colors,
        border_colors=border,
        matching=matching,
        frame=framed,
        topology=topology,
        clues=n_clues,
        model=model,
        turns=turn,
        border=rule,
    )
    name = f"hypothesis-{model}-{rows}x{cols}"
    return build(params, lambda k: draw(st.integers(0, k - 1)), name)


def solved_puzzles(**kwargs: Any) -> Any:
    """A planted puzzle and its planted solution."""
    return puzzles(models=("planted",), **kwargs).map(lambda p: (p, p.planted))


def solutions(puzzle: Puzzle) -> Any:
    """Any assignment of ``(tile, rotation)`` to the cells, valid or not (each tile once)."""
    n = puzzle.n
    st = _st()
    return st.builds(
        lambda perm, rots: Solution(tuple(zip(perm, rots))),
        st.permutations(range(n)),
        st.lists(st.integers(0, 3), min_size=n, max_size=n),
    )  # turns a puzzle forbids among them: the checker must refuse those


# (what is broken, how to break the canonical YAML text, the message satedge gives)
_BREAKS = [
    ("tile count", lambda y: y.replace("rows: ", "rows: 1", 1), "board needs"),
    ("three edges", lambda y: _first_tile(y, lambda t: t[: t.rindex(",")] + "]"), "must have four edges"),
    ("bad YAML", lambda y: y.replace("tiles:", "tiles: [", 1), "not valid YAML"),
    (
        "unknown edge word",
        lambda y: y.replace("edge_order: [top,", "edge_order: [up,", 1),
        "unknown edge_order word",
    ),
    ("missing tiles", lambda y: y[: y.index("tiles:")], "missing key 'tiles'"),
    ("bad clue", lambda y: y + "clues:\n- {row: 99, col: 0, tile: 0, rotation: 0}\n", "outside the"),
]


def _first_tile(text: str, change: Callable[[str], str]) -> str:
    start = text.index("tiles:\n- ") + len("tiles:\n- ")
    end = text.index("\n", start)
    return text[:start] + change(text[start:end]) + text[end:]


def malformed_puzzle_files() -> Any:
    """``(YAML text, part of the expected error message)`` for a puzzle file broken in one way."""
    st = _st()

    def broken(pair: tuple[Puzzle, tuple[str, Callable[[str], str], str]]) -> tuple[str, str]:
        p, (what, change, message) = pair
        return change(puzzle_to_yaml(p.with_(planted=None))), message

    return st.tuples(puzzles(models=("planted",), clues=False), st.sampled_from(_BREAKS)).map(broken)
