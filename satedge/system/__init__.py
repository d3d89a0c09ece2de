"""What satedge stands on: processes and their limits, files, the terminal, optional libraries.

Processes: a job's process under its limits (:mod:`.process`, the one limits layer, with the
limits as values in :mod:`.limits`), process trees (:mod:`.proctree`), a warm process that
starts runs (:mod:`.forkserver`), a Dask cluster as more processes (:mod:`.cluster`).  Files:
bounded reading and atomic writing (:mod:`.files`), YAML within bounds (:mod:`.yamlfile`), the
data an install ships and its version (:mod:`.resources`).  The terminal's progress lines
(:mod:`.progress`) and the optional libraries with the extras that bring them
(:mod:`.extras`).

It imports :mod:`satedge.errors` only: nothing here knows of puzzles.
"""

__all__ = []  # its modules are imported by name
