"""The one exception type that the CLI turns into ``satedge: error: ...`` and exit status 2."""

from __future__ import annotations


class SatedgeError(Exception):
    """Bad input: a file, an option or a spec.  The message is one line.

    >>> str(SatedgeError("no tiles", path="p.yaml"))
    'p.yaml: no tiles'
    """

    def __init__(self, message: str, path: object = None):
        self.path = None if path is None else str(path)
        super().__init__(message if path is None else f"{path}: {message}")
