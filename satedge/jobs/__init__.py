"""The job API: a :class:`Job` says what to run, :func:`run` runs it under its limits and returns
a :class:`Result` with a status.

A job is a puzzle, a task (``solve``, ``count``, ``encode``) and a solver configuration
(:class:`satedge.solvers.SolverConfig`: the engine, its workers and strategy), with an
encoding (:class:`satedge.encode.Encoding`) for the engines that solve a formula.  The engines
are one module each, named by the engine table (:data:`satedge.engines.ENGINES`): :mod:`.sat`
(PySAT's solvers and solver binaries), :mod:`.backtrack`, :mod:`.cpsat`, :mod:`.clasp`; the
SAT method's strategies with several workers beside them: :mod:`.portfolio` and
:mod:`.conquer`.  Every status (``TIMEOUT``, ``MEMOUT``, ``ERROR``) means the same whoever
started the job: a command, an experiment's run or a script.

>>> from satedge.puzzle import Puzzle
>>> from satedge.process import Limits
>>> two = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> run(Job(two, task="count", modes=("solutions", "distinct", "unique"))).counts
{'solutions': 2, 'distinct': 1, 'unique': 1, 'models': 2}
>>> run(Job(two, solver="backtrack", limits=Limits(timeout=60))).status
'SAT'
"""

from .job import TASKS, Job, Result
from .dispatch import DEFAULT_STRATEGY, STRATEGIES, execute, run

__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "TASKS", "Job", "Result", "execute", "run"]
