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
from importlib.util import find_spec
from types import ModuleType

from .errors import SatedgeError

__all__ = ["EXTRAS", "available", "require"]

# top-level module: (the extra that brings it, what needs it)
EXTRAS = {
    "hypothesis": ("crosscheck", "crosscheck and the hypothesis strategies need"),
    "ortools": ("cp", "the cpsat solver needs"),
    "clingo": ("asp", "the clasp engine needs"),
    "matplotlib": ("plot", "PNG pictures and plots need"),
    "dask": ("dist", "Dask clusters need"),
    "distributed": ("dist", "Dask clusters need"),
    "pandas": ("stats", "results as a DataFrame and the report's statistics need"),
    "scipy": ("stats", "the report's statistics need"),
    "dratify": ("certify", "certified answers need the proof checker"),
    "drup": ("verified", "the verified proof checker needs"),
}


def available(module: str) -> bool:
    """Whether ``module`` (a dotted name) can be imported, without importing it."""
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


def require(module: str) -> ModuleType:
    """``module`` imported, or a :class:`SatedgeError` that names the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        top = module.split(".")[0]
        if top not in EXTRAS or (e.name or "").split(".")[0] != top:
            if top in EXTRAS:  # installed but broken: say what the import said
                raise SatedgeError(f"{module} is installed but does not import: {e}") from None
            raise SatedgeError(f"{module} is not installed") from None
        extra, needs = EXTRAS[top]
        raise SatedgeError(f"{needs} {top}: pip install 'satedge[{extra}]'") from None
