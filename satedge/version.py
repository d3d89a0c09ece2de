"""satedge's version, for the modules that record it (DIMACS headers, experiment rows)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("satedge")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.1.0"

__all__ = ["__version__"]
