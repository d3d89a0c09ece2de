"""satedge's version, for the modules that record it (DIMACS headers, experiment rows), and
the package's own (``pyproject.toml`` reads it from here)."""

__version__ = "0.1.0"

__all__ = ["__version__"]
