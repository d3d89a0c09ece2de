"""The job layer: a :class:`Job` says what to run, :func:`run` runs it under its limits and
returns a :class:`Result` with a status.

A job is a puzzle, a task (``solve``, ``count``, ``encode``, ``maximize``) and a solver
configuration (:class:`satedge.jobs.solver.SolverConfig`: the engine, its workers and options),
with an encoding (:class:`satedge.encode.Encoding`) for the engines that solve a formula.  An
engine declares itself once (:class:`satedge.jobs.engine.Engine`), in a module of
:mod:`satedge.engines` or of yours, and :mod:`.registry` finds it; this layer names none of
them.  Beside the declaration and the job: what the engines share (:mod:`.formula` and
:mod:`.satmethod` with its strategies :mod:`.portfolio` and :mod:`.cubes`, :mod:`.searching`,
:mod:`.boards`, :mod:`.anytime`, :mod:`.parts` for a Dask cluster), certified answers
(:mod:`.certified`) and the dispatch (:mod:`.dispatch`).  Every status (``TIMEOUT``, ``MEMOUT``,
``ERROR``) means the same whoever started the job: a command, an experiment's run or a script.

>>> from satedge.puzzle import Puzzle
>>> from satedge import Limits
>>> two = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> run(Job(two, task="count", modes=("solutions", "distinct", "unique"))).counts
{'solutions': 2, 'distinct': 1, 'unique': 1, 'models': 2}
>>> run(Job(two, solver="backtrack", limits=Limits(timeout=60))).status
'SAT'
"""

from .dispatch import execute, run
from .engine import TASKS, Auto, Engine, Option, Task
from .job import Job, choose
from .registry import engines
from .result import Note, Result
from .solver import SolverConfig

__all__ = [
    "TASKS",
    "Auto",
    "Engine",
    "Job",
    "Note",
    "Option",
    "Result",
    "SolverConfig",
    "Task",
    "choose",
    "engines",
    "execute",
    "run",
]
