"""Toy engines for the tests, each declared here and nowhere else: the tests bring them in as a
user brings in an engine of their own, by ``$SATEDGE_ENGINES`` (the fixture ``engines_of``)."""

from __future__ import annotations

import time
from itertools import islice, permutations, product

from satedge.errors import SatedgeError
from satedge.jobs.boards import set_best_board
from satedge.jobs.engine import Engine, Option, Task, whole
from satedge.jobs.job import Job
from satedge.jobs.result import Note, Result
from satedge.puzzle import symmetry
from satedge.puzzle.checker import board_problem, score, validate
from satedge.puzzle.model import Solution
from satedge.system.extras import Need


def arrangements(job: Job):
    """Every tile in every cell in every turn: boards of at most 4 cells."""
    p = job.board
    if p.n > 4:
        raise SatedgeError(f"brute force takes boards of at most 4 cells, not {p.n}")
    return (
        Solution(tuple(zip(o, t)))
        for o in permutations(range(len(p.tiles)))
        for t in product(range(4), repeat=p.n)
    )


def brute(job: Job, note: Note | None = None) -> Result:
    """Every arrangement checked."""
    p = job.board
    found = [s for s in arrangements(job) if validate(p, s) is None]
    res = Result("UNSAT")
    if job.task == "count":
        res.counts = symmetry.counts(p, found, job.modes)
    else:
        res.solutions = list(islice(symmetry.one_per_picture(p, found, job.modes[0]), job.limit))
    return res.settled()


BRUTE = Engine(
    name="brute",
    summary="brute force, every arrangement checked, for boards of at most 4 cells",
    tasks=dict.fromkeys(("solve", "count"), Task(run=brute, modes=("solutions", "distinct"))),
)

FIRST = Engine(
    name="first",
    summary="one solution",
    tasks={"solve": Task(run=brute, enumerates=False), "count": Task(run=brute)},
)

NEEDY = Engine(
    name="needy",
    tasks=BRUTE.tasks,
    summary="needs what is not here",
    needs=Need(module="no_such_module_of_satedge", extra="brute"),
)

PROG = Engine(
    name="prog", tasks=BRUTE.tasks, summary="a program", needs=Need(binary="no-such-program-of-satedge")
)


def best_of_all(job: Job, note: Note | None = None) -> Result:
    """The best board of every arrangement that keeps the hard rules (proved: all are scored)."""
    p = job.board
    boards = [b for b in arrangements(job) if board_problem(p, b) is None]
    best = max(boards, key=lambda b: score(p, b), default=None)
    return set_best_board(job, Result("UNSAT"), best, score(p, best) if best else 0, "the toy")


TOYMAX = Engine(
    name="toymax",
    method=True,
    summary="every arrangement of a board of at most 4 cells scored: the best board",
    tasks={"maximize": Task(run=best_of_all, summary="every arrangement scored, the best board proved")},
)

TRIES = Option(
    name="tries",
    what="a number of tries",
    convert=whole,
    wrong="tries must be a positive whole number, not {value}",
    written="tries=N takes a positive whole number",
    metavar="N",
    help="--method sampler: how many arrangements it tries (default: 24)",
)


def sampled(job: Job, note: Note | None = None) -> Result:
    """The first arrangement that keeps every rule among the first ``tries`` (default 24)."""
    p, tries = job.board, job.solver.get("tries") or 24
    found = [s for s in islice(arrangements(job), tries) if validate(p, s) is None][:1]
    return Result("SAT" if found else "UNSAT", solutions=found)


SAMPLER = Engine(
    name="sampler",
    method=True,
    options=(TRIES,),
    summary="the first arrangement that keeps every rule among a few tried",
    tasks={
        "solve": Task(run=sampled, enumerates=False, modes=("solutions",), summary="a few arrangements tried")
    },
)


def better_then_worse(job: Job, note: Note | None = None) -> Result:
    """Notes the board that scores 2, then the one that scores 0, then runs past its time limit."""
    p = job.board
    for board in (Solution(((2, 3), (1, 0), (0, 3))), Solution(((0, 0), (1, 0), (2, 0)))):
        if note is not None:
            got = score(p, board)
            note(
                {
                    "board": [list(x) for x in board],
                    "score": got,
                    "bound": 2,
                    "progress": {"score": got, "bound": 2},
                }
            )
    time.sleep(60)
    raise AssertionError("the job is stopped before")


# an engine that notes a board of 2, then one of 0, then runs past its time limit
NOTER = Engine(
    name="noter",
    method=True,
    summary="notes two boards",
    tasks={"maximize": Task(run=better_then_worse, timeout=True)},
)


def out_of_memory(job: Job, note: Note | None = None) -> Result:
    """Notes a formula's size, then runs out of memory."""
    if note is not None:
        note({"variables": 7, "clauses": 11, "encode_seconds": 0.5})
    raise MemoryError


MEMOUT = Engine(name="memout", summary="runs out of memory", tasks={"solve": Task(run=out_of_memory)})


def one_short(job: Job, note: Note | None = None) -> Result:
    """Brute force, one solution short: a wrong engine."""
    res = brute(job, note)
    res.solutions = res.solutions[1:]
    return res


WRONG = Engine(name="wrong", summary="one solution short", tasks={"solve": Task(run=one_short)})
