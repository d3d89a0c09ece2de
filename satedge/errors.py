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


def cannot_write(e: OSError, path: object) -> SatedgeError:
    """The error for an output file that cannot be written, named by the path the user gave.

    >>> str(cannot_write(FileNotFoundError(2, "No such file or directory"), "out/p.yaml"))
    'out/p.yaml: cannot write: No such file or directory'
    """
    return SatedgeError(f"cannot write: {e.strerror or e}", path)
