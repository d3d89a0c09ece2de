"""Experiment specs: YAML files that say which puzzles, encodings, solvers and limits to run.

.. code-block:: yaml

    name: demo
    puzzles:                       # paths are relative to the spec file
      - ../puzzles/*.yaml          # globs of any supported format
      - hunde-spiel                # or a shipped puzzle's name
      - optional: $SATEDGE_BENCHMARKS/eternity2/e2.puz   # skipped when absent
      - generate: {rows: 5, colors: 6, border_colors: 2, frame: true, seeds: [1, 2, 3]}
    encodings:                     # preset names, base names, or inline base + options
      - edgecolor-heule2008
      - {base: support, card: totalizer, symmetry: rotation}
      - mine.py:encode             # a base encoding of yours: FILE.py:NAME (from the spec's folder)
    solvers: [cadical195, glucose4, "cmd:cadical -q", cpsat, backtrack]   # cpsat and backtrack
                                   # ignore the encodings; "backtrack:workers=2": two processes;
                                   # "kissat404:workers=2,strategy=cubes": the SAT method on two
    task: solve                    # maximize, encode (no solver), or {count: solutions | distinct | unique}
    timeout: 60                    # seconds per run
    memory: 4096                   # MB per run
    repeat: 1
    shuffles: 5                    # seeds 1..5 (or a list of seeds): each run under each shuffle

Everything is checked before any run starts; every problem is listed in one error.
"""

from __future__ import annotations

import fnmatch
import glob
import hashlib
import json
import os
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from ..encode import Encoding, Options
from ..encode.presets import OPTION_KEYS
from ..errors import SatedgeError
from ..jobs import Job
from ..jobs.solver import SolverConfig
from ..puzzle.formats import load_puzzle
from ..puzzle.generate import Params, generate
from ..puzzle.model import Puzzle
from ..puzzle.shuffle import MAX_SEED
from ..sat.certify import CHECKERS, DEFAULT_CHECKER
from ..sat.dimacs import puzzle_hash
from ..sat.solving import MODES
from ..system.files import named, shown
from ..system.files import problems as problems_line
from ..system.process import MAX_MEMORY_MB, MAX_TIMEOUT, Limits
from ..system.resources import PUZZLE_SUFFIXES, shipped_puzzles, shipped_specs
from ..system.yamlfile import read_yaml

__all__ = [
    "SPEC_KEYS",
    "MAX_SHUFFLES",
    "NAME",
    "MAX_REPEAT",
    "MAX_RUNS",
    "GEN_KEYS",
    "Run",
    "Spec",
    "benchmarks",
    "load_spec",
    "select",
]

SPEC_KEYS = {
    "name",
    "puzzles",
    "encodings",
    "solvers",
    "task",
    "timeout",
    "memory",
    "repeat",
    "shuffles",
    "certify",
}
MAX_SHUFFLES = 1000
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")  # a folder name under out/: no path separators
MAX_REPEAT = 1000
MAX_RUNS = 100_000
GEN_KEYS = {
    "rows",
    "cols",
    "colors",
    "border_colors",
    "matching",
    "frame",
    "topology",
    "clues",
    "model",
    "seeds",
}


@dataclass(frozen=True)
class Run:
    """One run of a spec: its job (puzzle, task, solver, encoding, limits, shuffle), the file its
    puzzle came from (``generated:NAME`` for a generated one) and its repetition."""

    puzzle_path: str
    job: Job
    repetition: int = 0
    puzzle_sha256: str = ""  # the puzzle's hash (satedge.sat.dimacs.puzzle_hash): computed when not given

    def __post_init__(self) -> None:
        if not self.puzzle_sha256:
            object.__setattr__(self, "puzzle_sha256", puzzle_hash(self.puzzle))

    @property
    def puzzle(self) -> Puzzle:
        return self.job.board

    @property
    def shuffle(self) -> int | None:
        return self.job.shuffle

    @property
    def solver(self) -> str:
        """The solver as rows and reports name it: its string form, ``-`` for an encode task."""
        return "-" if self.job.task == "encode" else str(self.job.solver)

    @property
    def encoding(self) -> str:
        """The encoding as rows and reports name it; an engine with a model of its own names itself
        (``backtrack:workers=2``), as rows always have."""
        return str(self.job.encoding) if self.job.encoding is not None else str(self.job.solver)

    @property
    def config(self) -> str:
        """``ENCODING/SOLVER`` (``+certify=CHECKER`` for a certified run), the configuration as reports
        name it."""
        return f"{self.encoding}/{self.solver}" + (f"+certify={self.job.certify}" if self.job.certify else "")

    @cached_property
    def id(self) -> str:
        """A digest of what the run computes (the same as ever for the runs of committed rows)."""
        e = self.job.encoding
        base, options = (
            (e.base, e.options.as_dict()) if e is not None else (self.encoding, Options().as_dict())
        )
        key = [
            self.puzzle_sha256,
            base,
            options,
            self.solver,
            self.job.task,
            self.job.modes[0],
            self.repetition,
        ]
        if self.shuffle is not None:  # runs without a shuffle keep the ids they had
            key.append({"shuffle": self.shuffle})
        if self.job.certify is not None:  # and so do runs without a certificate
            key.append({"certify": self.job.certify})
        if e is not None and e.sha256:  # a base encoding of yours: another file, another run
            key.append({"encoding_sha256": e.sha256})
        return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class Spec:
    name: str
    path: Path
    runs: list[Run] = field(default_factory=list)
    timeout: float = 60.0
    memory: int = 4096
    task: str = "solve"
    mode: str = "solutions"


def _sources(entries: Any, base: Path, problems: list[str]) -> list[tuple[str, Any]]:
    """What the ``puzzles`` entries name, before anything is read or generated: ``("file", path)``
    per file a glob matches, ``("generate", (params, seed))`` per seed."""
    out: list[tuple[str, Any]] = []
    if entries in ([], None):
        problems.append(
            "puzzles names none: give a file, a glob, a shipped puzzle's name or {generate: {...}}"
        )
    for entry in entries if isinstance(entries, list) else [entries]:
        optional = isinstance(entry, dict) and set(entry) == {"optional"}
        if optional:
            entry = entry["optional"]
        if isinstance(entry, str):
            expanded = os.path.expandvars(entry.replace("$SATEDGE_BENCHMARKS", benchmarks()))
            pattern = expanded if Path(expanded).is_absolute() else str(base / expanded)
            files = sorted(glob.glob(pattern))
            if (
                not files and (found := named(expanded, shipped_puzzles(), PUZZLE_SUFFIXES)) is not None
            ):  # a shipped puzzle's name
                files = [str(found)]
            if not files and not optional:
                problems.append(f"no file matches {shown(entry)}")
            out += [("file", f) for f in files]
        elif isinstance(entry, dict) and set(entry) == {"generate"} and isinstance(entry["generate"], dict):
            g = dict(entry["generate"])
            unknown = sorted(map(shown, set(g) - GEN_KEYS))
            if unknown:
                problems.append(f"unknown generate key(s) {', '.join(unknown)}")
                continue
            seeds = g.pop("seeds", [0])
            seeds = seeds if isinstance(seeds, list) else [seeds]
            if (
                not seeds
                or len(seeds) > MAX_RUNS
                or not all(
                    isinstance(s, int) and not isinstance(s, bool) and abs(s) < MAX_SEED for s in seeds
                )
            ):
                problems.append(
                    f"generate: seeds must be a list of 1 to {MAX_RUNS:,} integers below 2**63 in size, "
                    f"not {shown(seeds)}"
                )
                continue
            if len(set(seeds)) < len(seeds):
                problems.append(
                    f"generate: seed {next(s for s in seeds if seeds.count(s) > 1)} is given twice: each seed "
                    "is one puzzle"
                )
                continue
            try:
                params = Params(**g)
                generate(params, seeds[0])  # checks the parameters
            except (SatedgeError, TypeError) as e:
                problems.append(f"generate: {shown(str(e), 200)[1:-1]}")
                continue
            out += [("generate", (params, s)) for s in seeds]
        else:
            problems.append(
                f"a puzzles entry is a glob, {{optional: GLOB}} or {{generate: {{...}}}}, not {shown(entry)}"
            )
    return out


def _puzzles(sources: list[tuple[str, Any]], problems: list[str]) -> list[tuple[str, Puzzle]]:
    """The puzzles of :func:`_sources`, read or generated."""
    out: list[tuple[str, Puzzle]] = []
    for kind, what in sources:
        if kind == "file":
            try:
                out.append((str(Path(what)), load_puzzle(what)))
            except SatedgeError as e:
                problems.append(str(e))
        else:
            p = generate(*what)
            out.append((f"generated:{p.name}", p))
    return out


def benchmarks() -> str:
    """``$SATEDGE_BENCHMARKS``, default ``../shared/benchmarks``; a relative path is taken from the
    working directory, where the user typed it, not from the spec's folder."""
    return str(Path(os.environ.get("SATEDGE_BENCHMARKS") or "../shared/benchmarks").resolve())


def _encodings(entries: Any, problems: list[str], folder: Path) -> list[Encoding]:
    """The encodings a spec names (a file of yours, ``FILE.py:NAME``, from the spec's ``folder``)."""
    out = []
    for entry in entries if isinstance(entries, list) else [entries]:
        try:
            if isinstance(entry, str):
                out.append(Encoding.parse(entry, folder))
            elif isinstance(entry, dict) and isinstance(entry.get("base"), str):
                opts = {k: v for k, v in entry.items() if k not in ("base", "name")}
                unknown = sorted(map(str, set(opts) - set(OPTION_KEYS)))
                if unknown:
                    problems.append(
                        f"unknown encoding option(s) {', '.join(unknown)}; choose from {', '.join(OPTION_KEYS)}"
                    )
                    continue
                encoding = Encoding.parse(entry["base"], folder).with_options(**opts)
                if "name" in entry and not (isinstance(entry["name"], str) and NAME.fullmatch(entry["name"])):
                    problems.append(
                        f"an encoding's name is letters, digits, '.', '_' and '-', at most 100 characters, "
                        f"not {shown(entry['name'])}"
                    )
                    continue
                out.append(replace(encoding, name=entry["name"]) if "name" in entry else encoding)
            else:
                problems.append(f"an encoding is a name or {{base: ..., card: ...}}, not {shown(entry)}")
        except SatedgeError as e:
            problems.append(str(e))
    names = [e.name for e in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        problems.append(f"two encodings have the name {shown(twice[0])}: give each its own")
    return out


def load_spec(path: str | Path) -> Spec:
    """The spec in ``path`` (or the shipped spec of that name: ``demo``), checked whole: every
    problem found before anything runs, in one error."""
    path = named(path, shipped_specs(), PUZZLE_SUFFIXES) or Path(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise SatedgeError("a spec is a mapping with name, puzzles, encodings, solvers, task, timeout", path)
    problems: list[str] = []
    unknown = sorted(set(map(str, data)) - SPEC_KEYS)
    if unknown:
        problems.append(f"unknown key(s) {', '.join(unknown)}")
    for key in ("name", "puzzles", "encodings") + (() if data.get("task") == "encode" else ("solvers",)):
        if key not in data:
            problems.append(f"missing key {shown(key)}")
    sources = _sources(data.get("puzzles") or [], path.parent, problems)
    encodings = _encodings(data.get("encodings") or [], problems, path.parent)
    solvers: list[SolverConfig | None] = []
    entries = data.get("solvers") or []
    for s in entries if isinstance(entries, list) else [entries]:
        try:
            solvers.append(SolverConfig.parse(str(s)))
        except SatedgeError as e:
            problems.append(str(e))
    task: Any = data.get("task", "solve")
    mode = "solutions"
    if task == "encode":
        solvers = [None]  # encoding only: no solver runs
    elif isinstance(task, dict) and set(task) == {"count"}:
        task, mode = "count", task["count"]
        if mode not in MODES:
            problems.append(f"count mode must be one of {', '.join(MODES)}, not {shown(mode)}")
    elif task not in ("solve", "maximize"):
        problems.append(f"task must be solve, maximize, encode or {{count: MODE}}, not {shown(task)}")
    name = data.get("name")
    if "name" in data and not (isinstance(name, str) and NAME.fullmatch(name)):
        problems.append(
            f"name must be letters, digits, '.', '_' and '-' (a folder name under out/, at most 100 "
            f"characters), not {shown(name)}"
        )
    certify = data.get("certify", False)
    certify = DEFAULT_CHECKER if certify is True else None if certify is False else certify
    if certify is not None and certify not in CHECKERS:
        problems.append(
            f"certify is true, false or a proof checker ({', '.join(CHECKERS)}), not {shown(certify)}"
        )
    timeout, memory, repeat = data.get("timeout", 60), data.get("memory", 4096), data.get("repeat", 1)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= MAX_TIMEOUT:
        problems.append(
            f"timeout must be a positive number of seconds, at most {MAX_TIMEOUT:,}, not {shown(timeout)}"
        )
    for key, v, high in (("memory", memory, MAX_MEMORY_MB), ("repeat", repeat, MAX_REPEAT)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 < v <= high:
            problems.append(f"{key} must be a positive integer, at most {high:,}, not {shown(v)}")
    shuffles = data.get("shuffles")
    seeds: list[int | None] = [None]
    if isinstance(shuffles, int) and not isinstance(shuffles, bool) and 0 < shuffles <= MAX_SHUFFLES:
        seeds = list(range(1, shuffles + 1))
    elif (
        isinstance(shuffles, list)
        and 0 < len(shuffles) <= MAX_SHUFFLES
        and len(set(map(repr, shuffles))) == len(shuffles)
        and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < MAX_SEED for x in shuffles)
    ):
        seeds = list(shuffles)
    elif shuffles is not None:
        problems.append(
            f"shuffles must be a number of shuffles from 1 to {MAX_SHUFFLES:,} (seeds 1..N) or a list of "
            f"distinct seeds from 0 to 2**63 - 1, not {shown(shuffles)}"
        )
    if not problems:  # the spec's size, before anything is read or generated
        own = sum(1 for s in solvers if s is not None and not s.has_formula)
        total = len(seeds) * repeat * len(sources) * (own + (len(solvers) - own) * len(encodings))
        if total > MAX_RUNS:
            problems.append(f"{total:,} runs, more than the {MAX_RUNS:,} a spec may have")
    puzzles = _puzzles(sources, problems) if not problems else []
    if problems:
        raise SatedgeError(problems_line(problems), path)
    limits = Limits(timeout=float(timeout), memory_mb=int(memory))
    refused = []  # every solver the task cannot take, not only the first

    def job_of(
        puzzle: Puzzle | None, solver: SolverConfig | None, encoding: Encoding | None, seed: int | None
    ) -> Job:
        return Job(
            puzzle,
            task,
            solver or SolverConfig(),
            encoding,
            (mode,),
            limit=1 if task == "solve" else None,
            limits=limits,
            shuffle=seed,
            certify=certify if task != "encode" else None,
        )

    for solver in solvers:
        try:
            job_of(None, solver, None, None)
        except SatedgeError as e:
            refused.append(f"solver {solver}: {e}")
    if refused:
        raise SatedgeError(problems_line(refused), path)
    spec = Spec(str(data["name"]), path, timeout=float(timeout), memory=int(memory), task=task, mode=mode)
    seen = set()
    hashed = [
        (ppath, bare, puzzle_hash(bare)) for ppath, bare in ((p, q.with_(planted=None)) for p, q in puzzles)
    ]
    first: dict[str, int] = {}  # a puzzle's sha256: the first of the spec's puzzles that is it
    for k, (ppath, _, sha) in enumerate(hashed):  # before: the second was silently left out
        if (at := first.setdefault(sha, k)) != k:
            other = hashed[at][0]
            raise SatedgeError(
                (
                    f"puzzles: {other} is listed twice"
                    if other == ppath
                    else f"puzzles: {other} and {ppath} are the same puzzle"
                )
                + ": list each puzzle once (repeat: N runs every puzzle N times)",
                path,
            )
    for rep in range(int(repeat)):
        for seed in seeds:
            for ppath, bare, sha in hashed:
                for solver in solvers:
                    own = solver is not None and not solver.has_formula  # no encoding: one run per puzzle
                    for encoding in [None] if own else encodings:
                        try:
                            job = job_of(bare, solver, encoding, seed)
                        except SatedgeError as e:  # a solver or an encoding that the task does not take
                            raise SatedgeError(f"solver {solver}: {e}", path) from None
                        run = Run(ppath, job, rep, sha)
                        if run.id not in seen:
                            seen.add(run.id)
                            spec.runs.append(run)
    return spec


def select(spec: Spec, patterns: list[str]) -> Spec:
    """The runs of ``spec`` whose configuration ``ENCODING/SOLVER`` matches one of the shell-style
    ``patterns`` (``edgecolor-corners-sym/kissat404``, ``*/cpsat``): a slice of a large matrix to
    run now, the rest later into the same results."""
    configs = list(dict.fromkeys(r.config for r in spec.runs))
    unmatched = [p for p in patterns if not any(fnmatch.fnmatchcase(c, p) for c in configs)]
    if unmatched:
        verb = "matches" if len(unmatched) == 1 else "match"
        raise SatedgeError(
            f"{', '.join(map(repr, unmatched))} {verb} no configuration of the spec; "
            f"it has {', '.join(configs)}",
            spec.path,
        )
    return replace(
        spec, runs=[r for r in spec.runs if any(fnmatch.fnmatchcase(r.config, p) for p in patterns)]
    )
