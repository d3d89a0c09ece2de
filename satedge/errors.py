"""The exception types of satedge (the bottom layer: it imports nothing).

* :class:`SatedgeError`: bad input (a file, an option, a spec); the CLI prints its one line as
  ``satedge: error: ...`` and exits with status 2;
* :class:`Unsupported`: an encoding that does not cover the puzzle (bad input too);
* :class:`OutOfMemory`: a job held more than its memory cap and was stopped (bad input too: the
  puzzle or the options ask for more than the cap allows);
* :class:`EncodingError`: an engine gave a solution that the independent checker rejects (a bug in
  an encoding or a solver, never the user's input).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SatedgeError", "Unsupported", "OutOfMemory", "EncodingError"]


class SatedgeError(Exception):
    """Bad input: a file, an option or a spec.  The message is one line.

    Parameters
    ----------
    message : str
        What is wrong.
    path : path-like, optional
        The file it is wrong in; the message then starts with it.

    Examples
    --------
    >>> str(SatedgeError("no tiles", path="p.yaml"))
    'p.yaml: no tiles'
    """

    def __init__(self, message: str, path: object = None):
        self.path = None if path is None else str(path)
        super().__init__(message if path is None else f"{path}: {message}")


class Unsupported(SatedgeError):
    """An encoding does not cover this puzzle (Heule's covers framed boards only): bad input for
    a command, a puzzle to leave out for the cross-check."""


class OutOfMemory(SatedgeError):
    """A job held more than its memory cap and was stopped; ``memory_mb``: the cap."""

    def __init__(self, message: str, memory_mb: float | None = None):
        super().__init__(message)
        self.memory_mb = memory_mb


class EncodingError(RuntimeError):
    """An encoding or engine produced a model that is not a solution: a bug, not bad input.

    Parameters
    ----------
    message : str
        What went wrong, naming the solver or encoding.
    solution : Solution, optional
        The decoded model that the checker rejected (kept as ``.solution``).
    """

    def __init__(self, message: str, solution: Any = None) -> None:
        super().__init__(message)
        self.solution = solution

    def __reduce__(self) -> tuple:  # crosses from a solving process with its solution
        return EncodingError, (str(self), self.solution)
