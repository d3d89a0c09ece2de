"""A job's limits: wall-clock time and memory for its whole process tree, with their bounds and
the commands' default memory cap.  :mod:`satedge.process` enforces them."""

from __future__ import annotations

from dataclasses import dataclass

import psutil

from .errors import SatedgeError
from .files import shown

__all__ = ["MAX_TIMEOUT", "MAX_MEMORY_MB", "MAX_WORKERS", "Limits", "default_memory_mb"]

MAX_TIMEOUT = 10_000_000  # seconds: 116 days
MAX_MEMORY_MB = 10_000_000  # 10 TB
MAX_WORKERS = 1024


@dataclass(frozen=True)
class Limits:
    """A job's limits.

    Attributes
    ----------
    timeout : float or None
        Seconds of wall-clock time; then the job's whole process tree is killed (``TIMEOUT``).
    memory_mb : float or None
        MB for the job's whole process tree; past it the tree is killed (``MEMOUT``).

    ``None`` is no limit.  Values out of range raise :class:`SatedgeError`.
    """

    timeout: float | None = None
    memory_mb: float | None = None

    def __post_init__(self) -> None:
        for name, high in (("timeout", MAX_TIMEOUT), ("memory_mb", MAX_MEMORY_MB)):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < float("inf")):
                raise SatedgeError(f"{name} must be a positive finite number, not {shown(v)}")
            if v is not None and v > high:
                raise SatedgeError(f"{name} must be at most {high:,}, not {v:,}")

    @property
    def unlimited(self) -> bool:
        return self.timeout is None and self.memory_mb is None


def default_memory_mb() -> int | None:
    """80% of the memory available now (the CLI's default cap), or ``None`` where psutil cannot tell."""
    try:
        return int(psutil.virtual_memory().available / 2**20 * 0.8)
    except (OSError, AttributeError, psutil.Error):
        return None
