"""The job API: a :class:`Job` says what to run, :func:`run` runs it under its limits and returns
a :class:`Result` with a status.

A job is a puzzle, a task (``solve``, ``count``, ``encode``) and a solver configuration
(:class:`satedge.jobs.config.SolverConfig`: the engine, its workers and strategy), with an
encoding (:class:`satedge.encode.Encoding`) for the engines that solve a formula.  The engines
are one module each, whose job functions the engine table holds
(:data:`satedge.jobs.engines.ENGINES`, the whole contract of an engine): :mod:`.sat` (PySAT's
solvers and solver binaries), :mod:`.backtrack`, :mod:`.cpsat`, :mod:`.clasp`; the SAT
method's strategies with several workers beside them: :mod:`.portfolio` and :mod:`.conquer`;
certified answers: :mod:`.certified`; ``--method auto``: :mod:`.auto`.  Layers, top down:
:mod:`.dispatch`; :mod:`.auto` and :mod:`.certified`; :mod:`.job` (the request, checked
against the table); :mod:`.engines` (the table); the engines' and strategies' modules;
:mod:`.shared`; :mod:`.result`.  It imports every package below it: :mod:`satedge.sat`,
:mod:`satedge.backtrack`, :mod:`satedge.encode`, :mod:`satedge.puzzle`,
:mod:`satedge.system`.  Every status (``TIMEOUT``, ``MEMOUT``, ``ERROR``) means the same whoever
started the job: a command, an experiment's run or a script.

>>> from satedge.puzzle import Puzzle
>>> from satedge import Limits
>>> two = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> run(Job(two, task="count", modes=("solutions", "distinct", "unique"))).counts
{'solutions': 2, 'distinct': 1, 'unique': 1, 'models': 2}
>>> run(Job(two, solver="backtrack", limits=Limits(timeout=60))).status
'SAT'
"""

from .config import SolverConfig
from .dispatch import execute, run
from .engines import DEFAULT_STRATEGY, ENGINES, STRATEGIES, TASKS, declared
from .job import Job
from .result import Result

__all__ = [
    "DEFAULT_STRATEGY",
    "ENGINES",
    "STRATEGIES",
    "TASKS",
    "Job",
    "Result",
    "SolverConfig",
    "declared",
    "execute",
    "run",
]
