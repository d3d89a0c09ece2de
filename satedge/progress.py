"""Progress bars (tqdm) on stderr, shown only when stderr is a terminal."""

from __future__ import annotations

import sys

from tqdm import tqdm


def progress_bar(total: int | None, what: str, unit: str) -> tqdm:
    """A bar of ``total`` steps named ``what`` (a context manager; ``update()`` per step); silent
    when stderr is not a terminal, so pipes and logs get no bar."""
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=not sys.stderr.isatty(),
                dynamic_ncols=True, leave=False)
