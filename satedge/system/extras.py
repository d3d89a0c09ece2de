"""The optional dependencies, each imported here and nowhere else.

satedge's core needs PySAT, numpy, numba, networkx, PyYAML, psutil and tqdm.  The rest comes with an
extra (``pip install 'satedge[EXTRA]'``), the smallest that brings it; a feature whose extra is
missing ends with one line naming it, as bad input does (exit status 2 from the CLI):

>>> require("no_such_module_of_satedge")
Traceback (most recent call last):
...
satedge.errors.SatedgeError: no_such_module_of_satedge is not installed
"""

from __future__ import annotations

import importlib
import shutil
from dataclasses import dataclass
from importlib.util import find_spec
from types import ModuleType

from ..errors import SatedgeError

__all__ = ["EXTRAS", "Need", "available", "require"]

# top-level module: (the extra that brings it, what needs it); an engine's library is its entry's
# Need (satedge.jobs.engine.Engine.needs)
EXTRAS = {
    "hypothesis": ("crosscheck", "crosscheck and the hypothesis strategies need"),
    "matplotlib": ("plot", "PNG pictures and plots need"),
    "dask": ("dist", "Dask clusters need"),
    "distributed": ("dist", "Dask clusters need"),
    "pandas": ("stats", "results as a DataFrame and the report's statistics need"),
    "scikit_posthocs": ("stats", "the comparison of several configurations needs"),
    "dratify": ("certify", "certified answers need the proof checker"),
    "drup": ("verified", "the verified proof checker needs"),
    "zstandard": ("zstd", ".zst files need"),
}


def available(module: str) -> bool:
    """Whether ``module`` (a dotted name) can be imported, without importing it."""
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


@dataclass(frozen=True, kw_only=True)
class Need:
    """What a feature needs beyond the core: a Python ``module`` and the ``extra`` that brings
    it, or a ``binary`` on PATH (looked up when asked, never at import).

    >>> Need(module="no_such_module_of_satedge", extra="cp").met()
    False
    """

    module: str | None = None
    extra: str | None = None
    binary: str | None = None

    def met(self) -> bool:
        """Whether it is here."""
        return (self.module is None or available(self.module)) and (
            self.binary is None or shutil.which(self.binary) is not None
        )

    def check(self, who: str) -> None:
        """Nothing when it is here; else the one-line error that says what ``who`` needs."""
        if self.module is not None:
            require(self.module, self, who)
        if self.binary is not None and shutil.which(self.binary) is None:
            raise SatedgeError(f"{who} needs the program {self.binary} on PATH")


def require(module: str, need: Need | None = None, who: str | None = None) -> ModuleType:
    """``module`` imported, or a :class:`SatedgeError` that names the extra to install: the
    ``need`` of ``who`` (an engine's), or the module's entry in :data:`EXTRAS`."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        known = need is not None and need.module == top and need.extra is not None
        if not (known or top in EXTRAS) or (e.name or "").split(".")[0] != top:
            if known or top in EXTRAS:  # installed but broken: say what the import said
                raise SatedgeError(f"{module} is installed but does not import: {e}") from None
            raise SatedgeError(f"{module} is not installed") from None
        extra, needs = (need.extra, f"{who} needs") if known and need is not None else EXTRAS[top]
        raise SatedgeError(f"{needs} {top}: pip install 'satedge[{extra}]'") from None
