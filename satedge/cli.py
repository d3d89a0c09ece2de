"""The ``satedge`` command: a thin layer that parses arguments, calls the library and prints.

Exit statuses: 0 success, 1 a negative answer (UNSAT, invalid solution, mismatch),
2 bad input (one line ``satedge: error: ...`` on stderr), 3 timeout.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

from . import crosscheck
from .checker import validate
from .dimacs import decode_file, export
from .encode.presets import presets, resolve, size_preset, too_big
from .errors import OutOfMemory, SatedgeError, Unsupported
from .experiment.report import report
from .experiment.stats import compare, load_results
from .experiment.runner import run_experiment
from .experiment.spec import load_spec, select
from .files import quoted, write_atomic
from .formats import load_puzzle, load_solution, puzzle_to_yaml, save_puzzle, save_solution, solution_to_json
from .generate import MAX_COLORS, Params, generate
from .jobs import DEFAULT_ENCODING, STRATEGIES, Job, Result, run
from .puzzle import MAX_CELLS
from .process import MAX_MEMORY_MB, MAX_TIMEOUT, MAX_WORKERS, Limits, default_memory_mb
from .proctree import scratch, sweep
from .progress import progress_bar
from .render import ascii_grid, save_picture, to_svg
from .solvers import DEFAULT_SOLVER, check_solver, solver_binaries, solver_names
from .shuffle import MAX_SEED
from .solving import MODES
from .version import __version__


class _Help(argparse.HelpFormatter):
    """Every option's help ends with its default, unless it has none or says it already."""

    def _get_help_string(self, action) -> str:
        text = action.help or ""
        if action.option_strings and action.default not in (None, False, "", argparse.SUPPRESS) and "default" not in text:
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error and exit status 2, and defaults in the help."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # noqa: D401
        raise SatedgeError(message)


def _many(n: int, thing: str) -> str:
    """'1 solution', '2 solutions': a count and its noun, in the plural unless it is one."""
    return f"{n} {thing}{'s' * (n != 1)}"


def _count(low: int = 1, high: int = 10**9):
    """argparse type of a number of things (workers, solutions, puzzles): an integer from ``low``
    to ``high``."""
    def parse(text: str) -> int:
        try:
            n = int(text) if len(text) <= 30 else None
        except ValueError:
            n = None
        if n is None:
            raise argparse.ArgumentTypeError(f"expected an integer, found {quoted(text, 30)}")
        if n < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {n}")
        if n > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {n:,}")
        return n

    return parse


def _seconds(text: str) -> float:
    """argparse type of a time limit: a positive number of seconds, at most MAX_TIMEOUT."""
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, found {quoted(text, 30)}") from None
    if not 0 < t < float("inf"):
        raise argparse.ArgumentTypeError(f"must be positive and finite, not {quoted(text, 30)[1:-1]}")
    if t > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TIMEOUT:,} seconds, not {quoted(text, 30)[1:-1]}")
    return t


def _add_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--memory", type=_count(1, MAX_MEMORY_MB), metavar="MB", help="stop with an error (exit 2) once the job's whole "
                   "process tree holds more than this; pages forked workers share count once (default: 80%% of "
                   "the memory available at the start)")


def _add_encoding(p: argparse.ArgumentParser, default: str) -> None:
    p.add_argument("--encoding", metavar="PRESET|BASE",
                   help=f"a preset from encodings/, a base encoding or a preset file (default {default}); "
                        "see `satedge encodings`")
    p.add_argument("--card", help="exactly-one encoding: pairwise, seqcounter, ladder, totalizer, bitwise, "
                                  "sortnetwrk, cardnetwrk, mtotalizer, kmtotalizer")
    p.add_argument("--symmetry", choices=["none", "rotation"], help="break the board-rotation symmetry")
    p.add_argument("--redundant", choices=["true", "false"], help="add implied clauses")
    p.add_argument("--shuffle", type=_count(0, MAX_SEED - 1), metavar="SEED", help="work on the puzzle with its "
                   "tiles reordered and turned by this seed (a SAT formula also gets its variables renumbered and "
                   "its clauses reordered); solutions are given in the puzzle's own numbering (default: no shuffle)")


def _add_method(p: argparse.ArgumentParser, count: bool) -> None:
    p.add_argument("--method", choices=["sat", "backtrack"], default="sat",
                   help="sat: a SAT encoding through PySAT (default); backtrack: the reference backtracker")
    _add_encoding(p, DEFAULT_ENCODING)
    p.add_argument("--solver", help=f"a PySAT solver name (default {DEFAULT_SOLVER}; see `satedge solvers`); CaDiCaL "
                   "takes options after a colon: its configurations sat and unsat, and seed=N (cadical195:sat,seed=2); "
                   "cpsat: the CP-SAT model (extra cp)")
    p.add_argument("--solver-cmd", metavar="COMMAND", help="a DIMACS solver binary instead, e.g. 'cadical -q' "
                   "(run on the exported CNF; enumeration re-runs it with blocking clauses)")
    p.add_argument("--workers", "--cpsat-workers", type=_count(1, MAX_WORKERS), default=1, metavar="N",
                   help="processes: of the SAT method (see --strategy), of --method backtrack (it needs the extra "
                        "fast), or search workers of --solver cpsat (default 1, for fair comparisons)")
    p.add_argument("--strategy", choices=STRATEGIES, help="how the SAT method uses several workers: portfolio (diverse "
                   "solvers and shuffles race, the first answer wins) or cubes (cube-and-conquer: the search split "
                   "into disjoint cubes); default: portfolio for one solution, cubes to count or with --all")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the job's parts on this Dask cluster (extra dist), "
                   "each under --timeout and --memory; --workers N: N parts at a time (default: the cluster's cores)")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS", help="kill the job and every process it started "
                   "after this long: status TIMEOUT, exit 3")
    _add_memory(p)
    if count:
        p.add_argument("--mode", choices=MODES, help="count only this (default: all three)")
    else:
        p.add_argument("--mode", choices=MODES, help="with --all or --limit: every solution (default), one per "
                       "picture, or one per picture up to turns")
        p.add_argument("--limit", type=_count(), metavar="N", help="at most N solutions (implies --all)")


def _with_progress(items: list, what: str):
    """``items`` one by one, with a progress bar on a terminal when there are several."""
    with progress_bar(len(items) if len(items) > 1 else 0, what, "puzzle") as bar:
        for item in items:
            yield item
            bar.update()


def _job_fields(args) -> dict:
    """The fields of the Job that --method, --solver, --solver-cmd, --encoding and its options,
    --shuffle, --workers, --timeout and --memory give (all but the puzzle and the task); checked
    before any puzzle is read."""
    return {**_engine_fields(args), "shuffle": args.shuffle}


def _engine_fields(args) -> dict:
    given = _encoding_options(args)
    if args.solver_cmd is not None and not args.solver_cmd.strip():
        raise SatedgeError("--solver-cmd is empty: give a solver binary and its options, e.g. 'cadical -q'")
    limits = Limits(timeout=args.timeout, memory_mb=_memory_limit(args.memory))  # once: 80% of what is free now
    parallel = {"workers": args.workers, "scheduler": args.scheduler}
    if args.scheduler is not None and not args.scheduler.strip():
        raise SatedgeError("--scheduler is empty: give the Dask scheduler's address, e.g. tcp://10.0.0.1:8786")
    if args.method == "backtrack":
        given += [option for option, value in (("--solver", args.solver), ("--solver-cmd", args.solver_cmd),
                                               ("--strategy", args.strategy)) if value]
        if given:
            raise SatedgeError(f"{given[0]} applies to --method sat only")
        return {"engine": "backtrack", "limits": limits, **parallel}
    if args.solver and args.solver_cmd:
        raise SatedgeError("give --solver or --solver-cmd, not both")
    if args.solver == "cpsat":
        if given:
            raise SatedgeError(f"{given[0]} does not apply to --solver cpsat, which has its own model")
        given = [option for option, value in (("--strategy", args.strategy), ("--scheduler", args.scheduler)) if value]
        if given:
            raise SatedgeError(f"{given[0]} does not apply to --solver cpsat, which has its own workers")
        return {"engine": "cpsat", "limits": limits, "workers": args.workers}
    if args.strategy and args.workers == 1 and args.scheduler is None:
        raise SatedgeError("--strategy applies with --workers N (N at least 2) or --scheduler")
    parallel["strategy"] = args.strategy
    preset = _preset_from_args(args, DEFAULT_ENCODING)
    if args.solver_cmd:
        check_solver(f"cmd:{args.solver_cmd}")
        return {"engine": "cmd", "preset": preset, "solver": args.solver_cmd, "limits": limits, **parallel}
    return {"engine": "sat", "preset": preset, "solver": check_solver(args.solver or DEFAULT_SOLVER), "limits": limits,
            **parallel}


def _run(path: str, job: Job) -> Result:
    """:func:`satedge.jobs.run` under the job's limits; its errors are one line naming the puzzle
    file, beyond the memory cap ``FILE: solving needs more than N MB of memory``."""
    try:
        res = run(job)  # on a cluster (--scheduler) in this process: its errors raise here
    except OutOfMemory as e:
        raise _beyond_memory(f"{path}: solving", e.memory_mb) from None
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None
    if res.status in ("MEMOUT", "ERROR"):
        try:
            res.outcome.unwrap("solving")
        except OutOfMemory as e:
            raise _beyond_memory(f"{path}: solving", e.memory_mb) from None
        except SatedgeError as e:
            raise SatedgeError(str(e), path) from None
    return res


def _cmd_solve(args) -> int:
    fields = _job_fields(args)
    limit = args.limit if args.limit is not None else (None if args.all else 1)
    want_all = args.all or args.limit is not None
    if args.mode and not want_all:
        raise SatedgeError("--mode applies with --all or --limit")
    if args.output is not None:
        if len(args.puzzles) != 1:
            raise SatedgeError("-o writes the solution of one puzzle; give one")
        if Path(args.output).suffix not in (".sol", ".json"):
            raise SatedgeError("-o names a .sol or a .json file", args.output)
        if want_all and Path(args.output).suffix == ".sol":
            raise SatedgeError("a .sol file holds one solution; with --all or --limit give a .json file", args.output)
    color = sys.stdout.isatty() and not args.json
    status = 0
    for path in _with_progress(args.puzzles, "solve"):
        puzzle = load_puzzle(path)
        res = _run(path, Job(puzzle, "solve", modes=(args.mode or "solutions",), limit=limit, **fields))
        if args.output is not None and res.solutions:
            if want_all:
                write_atomic(args.output, json.dumps([solution_to_json(puzzle, x) for x in res.solutions]) + "\n")
            else:
                save_solution(puzzle, res.solutions[0], args.output)
        if res.status == "TIMEOUT":
            status = 3
        elif res.status == "UNSAT":
            status = max(status, 1)
        if args.json:
            obj = {"puzzle": path, "status": res.status}
            if want_all:
                obj["solutions"] = [solution_to_json(puzzle, s) for s in res.solutions]
                if res.orbit > 1:  # symmetry breaking: each stands for its board-turn orbit
                    obj["orbit"] = res.orbit
            elif res.solutions:
                obj["solution"] = solution_to_json(puzzle, res.solutions[0])
            print(json.dumps(obj), flush=True)
        else:
            found = f", {_many(len(res.solutions), 'solution')}" if want_all and res.status != "TIMEOUT" else ""
            if found and res.orbit > 1:
                found += f" (symmetry breaking: one per board-turn orbit of {res.orbit})"
            print(f"{path}: {res.status}{found}")
            for s in res.solutions:
                print(ascii_grid(puzzle, s, color=color))
    return status


def _cmd_count(args) -> int:
    fields = _job_fields(args)
    modes = (args.mode,) if args.mode else MODES
    status = 0
    for path in _with_progress(args.puzzles, "count"):
        puzzle = load_puzzle(path)
        t0 = time.perf_counter()
        job = Job(puzzle, "count", modes=modes, **fields)
        res = _run(path, job)
        seconds = time.perf_counter() - t0
        counts = {m: res.counts.get(m) for m in MODES}
        encoding = {"backtrack": None, "cpsat": "cpsat"}.get(job.engine, job.preset and job.preset.name)
        if res.status == "TIMEOUT":
            status = 3
        if args.json:
            obj = {"puzzle": path, **counts, "method": args.method, "shuffle": args.shuffle, "seconds": round(seconds, 6)}
            if args.method == "sat":
                obj.update(encoding=encoding, solver=job.sat_solver if job.engine != "cpsat" else "cpsat",
                           variables=res.variables or 0, clauses=res.clauses or 0, models=res.counts.get("models"))
            if res.status == "TIMEOUT":
                obj["status"] = "TIMEOUT"
            print(json.dumps(obj), flush=True)
        elif res.status == "TIMEOUT":
            print(f"{path}: TIMEOUT after {args.timeout:g} s")
        else:
            shown = ", ".join(_many(v, "solution") if k == "solutions" else f"{v} {k}"
                              for k, v in counts.items() if v is not None)
            how = args.method if encoding is None else encoding if encoding == "cpsat" else f"{encoding}, {job.sat_solver}"
            models = res.counts.get("models")
            if models is not None and models != counts["solutions"]:
                how += f", {_many(models, 'model')} of the formula"
            if args.shuffle is not None:
                how += f", shuffle {args.shuffle}"
            print(f"{path}: {shown} ({how}, {seconds:.3f} s)", flush=True)
    return status


def _cmd_encodings(args) -> int:
    if args.memory is not None and not args.puzzle:
        raise SatedgeError("--memory applies with --puzzle (it says which formulas fit)")
    puzzle = load_puzzle(args.puzzle) if args.puzzle else None
    limit = _memory_limit(args.memory)
    rows = []
    with progress_bar(len(presets()) if puzzle else 0, "encodings", "preset") as bar:
        for p in presets().values():
            row = {"name": p.name, "base": p.base, "options": p.options.as_dict(), "description": p.description,
                   "reference": p.reference}
            if puzzle is not None:  # counted from the clause families, without building the formula
                try:
                    size = size_preset(puzzle, p)
                    row.update(covers=True, variables=size.variables, clauses=size.clauses, literals=size.literals,
                               memory_mb=round(size.memory_mb()), fits=too_big(p, size, limit) is None)
                except Unsupported as e:
                    row.update(covers=False, variables=None, clauses=None, literals=None, memory_mb=None, fits=False,
                               problem=str(e))
                bar.update()
            rows.append(row)
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        size = ""
        if puzzle is not None and not r["covers"]:
            size = f"  does not cover this puzzle: {r['problem']}"
        elif puzzle is not None:
            size = f"  {r['variables']:,} variables, {r['clauses']:,} clauses, {r['literals']:,} literals"
            if not r["fits"]:
                size += f": {_too_big(limit)}"
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        print(f"{r['name']}: {r['base']} ({opts}){size}\n    {r['description']}")
        if r["reference"]:
            print(f"    source: {r['reference']}")
    return 0


def _cmd_check(args) -> int:
    puzzle = load_puzzle(args.puzzle)
    solution = load_solution(args.solution, puzzle)
    problem = validate(puzzle, solution)
    if problem is None:
        print(f"{args.solution}: valid")
        return 0
    print(f"{args.solution}: invalid: {problem}")
    return 1


def _cmd_convert(args) -> int:
    puzzle = load_puzzle(args.input)
    if args.planted is not None:
        solution = load_solution(args.planted, puzzle)
        problem = validate(puzzle, solution)
        if problem is not None:
            raise SatedgeError(f"not a solution of {args.input}: {problem}", args.planted)
        puzzle = puzzle.with_(planted=solution)
    if args.output == "-":
        sys.stdout.write(puzzle_to_yaml(puzzle))
    else:
        save_puzzle(puzzle, args.output)
    return 0


def _cmd_generate(args) -> int:
    params = Params(rows=args.rows, cols=args.cols, colors=args.colors, border_colors=args.border_colors,
                    matching=args.matching, frame=args.frame, topology=args.topology, clues=args.clues, model=args.model)
    puzzles = [generate(params, seed) for seed in range(args.seed, args.seed + args.count)]
    out = args.output
    if out is None or out == "-":
        sys.stdout.write("---\n".join(puzzle_to_yaml(p) for p in puzzles))
        return 0
    path = Path(out)
    if args.count == 1 and path.suffix in (".yaml", ".yml", ".puz"):
        save_puzzle(puzzles[0], path)
        return 0
    _output_folder(path, "when --count is more than 1")
    for p in puzzles:
        write_atomic(path / f"{p.name}.yaml", puzzle_to_yaml(p))
    print(f"{len(puzzles)} puzzles written to {path}/", file=sys.stderr)
    return 0


def _cmd_crosscheck(args) -> int:
    configs = crosscheck.default_configs(args.encodings, args.solvers)
    report = crosscheck.run(configs, examples=args.examples, seed=args.seed, max_cells=args.max_cells,
                            workers=args.workers)
    if args.json:
        print(json.dumps(report.as_json()))
        if not report.ok:
            print(report.mismatch.describe(), file=sys.stderr)
    else:
        print(f"{len(configs)} configurations; " + report.describe())
    return 0 if report.ok else 1


def _encoding_options(args) -> list[str]:
    """Which of --encoding, --card, --symmetry and --redundant were given."""
    return [f"--{k}" for k in ("encoding", "card", "symmetry", "redundant") if getattr(args, k) is not None]


def _preset_from_args(args, default: str):
    """The preset that --encoding, --card, --symmetry and --redundant name; without --encoding,
    ``default``."""
    redundant = None if args.redundant is None else args.redundant == "true"
    return resolve(args.encoding or default, card=args.card, symmetry=args.symmetry, redundant=redundant)


def _output_folder(path: Path, when: str) -> None:
    """Make the folder ``-o`` names (and its parents); a file there is an error."""
    if path.exists() and not path.is_dir():
        raise SatedgeError(f"-o must be a folder {when}", path)
    path.mkdir(parents=True, exist_ok=True)


def _memory_limit(limit_mb: int | None) -> int | None:
    """``--memory``, by default 80% of the memory available now."""
    return default_memory_mb() if limit_mb is None else limit_mb


def _too_big(limit_mb: int) -> str:
    return f"needs more than {limit_mb} MB of memory (--memory MB to allow more)"


def _beyond_memory(what: str, limit_mb: float) -> SatedgeError:
    return SatedgeError(f"{what} {_too_big(int(limit_mb))}")


def _cmd_encode(args) -> int:
    limit = _memory_limit(args.memory)
    if args.compress and not args.all_presets:
        raise SatedgeError("--compress applies to --all-presets; name the file .cnf.gz or .cnf.xz instead")
    if args.all_presets:
        given = _encoding_options(args)
        if given:
            raise SatedgeError(f"{given[0]} does not go with --all-presets, which writes every preset as it is")
        if not args.output or args.output == "-":
            raise SatedgeError("--all-presets needs -o DIR")
        out = Path(args.output)
        stems: dict[str, str] = {}
        for path in args.puzzles:  # each output's name comes from its puzzle file's: they must differ
            other = stems.setdefault(Path(path).stem, path)
            if other != path:
                raise SatedgeError(f"{other} and {path} would write the same files ({Path(path).stem}.PRESET.cnf): "
                                   "give puzzle files of different names")
        _output_folder(out, "with --all-presets")
        manifest, too_big, uncovered = io.StringIO(), [], []
        rows = csv.writer(manifest, lineterminator="\n")
        rows.writerow(["file", "puzzle", "encoding", "variables", "clauses", "bytes"])
        written = 0
        with progress_bar(len(args.puzzles) * len(presets()), "encode", "formula") as bar:
            for path in args.puzzles:
                puzzle = load_puzzle(path)
                for p in presets().values():
                    f = out / f"{Path(path).stem}.{p.name}.cnf{args.compress}"
                    bar.update()
                    try:
                        nv, nc, n = export(puzzle, p, f, str(path), limit, args.shuffle)
                    except OutOfMemory:  # go on with the others, say so at the end
                        too_big.append(f"{path} with {p.name}")
                        continue
                    except Unsupported:  # a preset for framed boards only: not a formula of this puzzle
                        uncovered.append(p.name)
                        continue
                    rows.writerow([f.name, path, p.name, nv, nc, f.stat().st_size if args.compress else n])
                    written += 1
        write_atomic(out / "manifest.csv", manifest.getvalue())
        written = f"{written} formulas and manifest.csv written to {out}/"
        if uncovered:
            names = sorted(set(uncovered))
            written += (f"; {len(uncovered)} left out, of presets that do not cover the puzzle: {', '.join(names)}")
        if too_big:
            raise SatedgeError(f"beyond --memory {limit} MB, not written: {'; '.join(too_big)} ({written})")
        print(written, file=sys.stderr)
        return 0
    if len(args.puzzles) != 1:
        raise SatedgeError("encode takes one puzzle (or --all-presets with -o DIR)")
    path = args.puzzles[0]
    preset = _preset_from_args(args, DEFAULT_ENCODING)
    puzzle = load_puzzle(path)
    try:
        if args.output not in (None, "-"):
            export(puzzle, preset, args.output, str(path), limit, args.shuffle)
            return 0
        with scratch() as folder:  # all or nothing on stdout too
            tmp = folder / "formula.cnf"
            export(puzzle, preset, tmp, str(path), limit, args.shuffle)
            with open(tmp, encoding="utf-8") as fh:
                shutil.copyfileobj(fh, sys.stdout)
    except OutOfMemory:
        raise _beyond_memory(f"{path}: encoding {preset.name}", limit) from None
    except Unsupported as e:
        raise SatedgeError(f"encoding {preset.name}: {e}", path) from None
    return 0


def _cmd_decode(args) -> int:
    puzzle, solution, problem = decode_file(args.cnf, args.model, args.puzzle)
    if solution is None:
        print("UNSATISFIABLE")
        return 1
    if args.json:
        print(json.dumps({"puzzle": str(args.puzzle or puzzle.name), "status": "SAT" if problem is None else "INVALID",
                          "solution": solution_to_json(puzzle, solution)}))
    else:
        print(ascii_grid(puzzle, solution, color=sys.stdout.isatty()))
    if problem is not None:
        print(f"invalid: {problem}", file=sys.stderr)
        return 1
    return 0


def _cmd_solvers(args) -> int:
    names, binaries = solver_names(), solver_binaries()
    if args.json:
        print(json.dumps({"pysat": names, "binaries": binaries}))
    else:
        print("PySAT solvers: " + ", ".join(names))
        print("solver binaries on PATH: " + (", ".join(f"{k} ({v})" for k, v in binaries.items()) or "none"))
        print("CaDiCaL with options: cadical195:sat, cadical195:unsat,seed=3 (its configurations and seed=N)")
        print("use a binary with --solver-cmd 'cadical -q'")
    return 0


def _cmd_run(args) -> int:
    if args.scheduler and args.executor != "dask":
        raise SatedgeError("--scheduler applies to --executor dask only")
    spec = load_spec(args.spec)
    if args.only:
        spec = select(spec, args.only)
    out = Path(args.out or Path("out") / spec.name)
    progress = [0]
    try:
        n = run_experiment(spec, out, workers=args.workers, resume=args.resume, executor=args.executor,
                           scheduler=args.scheduler, done=lambda k: progress.__setitem__(0, k))
    except (KeyboardInterrupt, SystemExit):
        print(f"satedge: interrupted: {_many(progress[0], 'run')} of {spec.name} done and kept in {out}/results.jsonl; "
              f"the same command with --resume finishes it", file=sys.stderr)
        raise
    print(f"{spec.name}: {_many(n, 'run')} done, {len(spec.runs) - n} were there already; results in {out}/results.jsonl",
          file=sys.stderr)
    return 0


def _cmd_report(args) -> int:
    if args.json:
        if not args.compare:
            raise SatedgeError("--json prints the comparison of two configurations: give --compare A B")
        df = load_results(args.dir)
        if df.empty:
            raise SatedgeError(f"no results in {Path(args.dir) / 'results.jsonl'}")
        print(json.dumps(compare(df, *args.compare)))
        return 0
    table, files = report(Path(args.dir), tuple(args.compare) if args.compare else None, with_plots=not args.no_plots)
    print(table)
    print(f"\nsummary.csv and {len(files)} plot and picture files in {args.dir}/", file=sys.stderr)
    return 0


def _cmd_render(args) -> int:
    if not args.solve and (args.timeout is not None or args.memory is not None):
        raise SatedgeError(f"{'--timeout' if args.timeout is not None else '--memory'} applies to --solve only")
    puzzle = load_puzzle(args.puzzle)
    solution = None
    if args.solution:
        solution = load_solution(args.solution, puzzle)
        problem = validate(puzzle, solution)
        if problem is not None:
            raise SatedgeError(f"not a solution: {problem}", args.solution)
    elif args.solve:
        limits = Limits(timeout=args.timeout, memory_mb=_memory_limit(args.memory))
        res = _run(args.puzzle, Job(puzzle, engine="backtrack" if puzzle.n <= 16 else "sat", limit=1, limits=limits))
        if res.status == "TIMEOUT":
            print(f"{args.puzzle}: TIMEOUT after {args.timeout:g} s, nothing to draw", file=sys.stderr)
            return 3
        if not res.solutions:
            print(f"{args.puzzle}: UNSAT, nothing to draw", file=sys.stderr)
            return 1
        solution = res.solutions[0]
    if args.output in (None, "-"):
        sys.stdout.write(to_svg(puzzle, solution))
    else:
        save_picture(puzzle, solution, args.output)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="satedge", description="Edge-matching puzzles and their SAT encodings.")
    parser.add_argument("--version", action="version", version=f"satedge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("solve", help="find a solution (or all) and print it")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files (.yaml, .puz, .txt, tile_dict.yaml)")
    p.add_argument("--all", action="store_true", help="every solution, not only the first")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    p.add_argument("-o", "--output", metavar="FILE", help="also write the solution to FILE: .sol (tile col row rot, as "
                   "the board suite has it) or .json; with --all or --limit, every solution to a .json file")
    _add_method(p, count=False)
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("count", help="count solutions, distinct pictures and pictures up to board turns")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files (.yaml, .puz, .txt, tile_dict.yaml)")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    _add_method(p, count=True)
    p.set_defaults(func=_cmd_count)

    p = sub.add_parser("encodings", help="list the encoding presets (with --puzzle: their sizes)")
    p.add_argument("--puzzle", metavar="PUZZLE", help="also give each formula's variables, clauses and literals for "
                   "this puzzle, counted without building it")
    p.add_argument("--json", action="store_true", help="a JSON list of objects")
    _add_memory(p)
    p.set_defaults(func=_cmd_encodings)

    p = sub.add_parser("encode", help="export a puzzle as self-describing DIMACS CNF")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files (.yaml, .puz, .txt, tile_dict.yaml)")
    _add_encoding(p, DEFAULT_ENCODING)
    p.add_argument("-o", "--output", metavar="FILE|DIR", help="file (.cnf, .cnf.gz, .cnf.xz) or - for stdout (default)")
    p.add_argument("--all-presets", action="store_true", help="every puzzle x every preset into -o DIR, with manifest.csv")
    p.add_argument("--compress", choices=["", ".gz", ".xz"], default="", help="with --all-presets: compress each file "
                   "(default: no compression)")
    _add_memory(p)
    p.set_defaults(func=_cmd_encode)

    p = sub.add_parser("decode", help="turn a solver's model of an exported CNF back into a checked solution")
    p.add_argument("cnf", metavar="FILE.cnf", help="a formula satedge encode wrote (.cnf, .cnf.gz, .cnf.xz)")
    p.add_argument("model", metavar="MODEL", help="solver output (s/v lines) or a list of literals; - for stdin")
    p.add_argument("--puzzle", metavar="PUZZLE", help="the puzzle, when not at the path in the header")
    p.add_argument("--json", action="store_true", help="the solution as solve --json prints it")
    p.set_defaults(func=_cmd_decode)

    p = sub.add_parser("solvers", help="list the PySAT solvers and the solver binaries on PATH")
    p.add_argument("--json", action="store_true", help='one object {"pysat": [...], "binaries": {name: path}}')
    p.set_defaults(func=_cmd_solvers)

    p = sub.add_parser("generate", help="generate random puzzles (uniform, or planted with a known solution)")
    p.add_argument("--model", choices=["planted", "uniform"], default="planted",
                   help="planted: a solution is planted; uniform: every edge at random (usually unsolvable)")
    p.add_argument("--rows", type=_count(1, MAX_CELLS), default=4, help="rows of the board")
    p.add_argument("--cols", type=_count(1, MAX_CELLS), default=None, help="default: as many as rows")
    p.add_argument("--colors", type=_count(1, MAX_COLORS), default=4, help="labels (identical) or patterns (complementary) inside")
    p.add_argument("--border-colors", type=_count(0, MAX_COLORS), default=0, help="a separate label set between border cells (needs --frame)")
    p.add_argument("--matching", choices=["identical", "complementary"], default="identical",
                   help="identical: equal labels fit; complementary: a pattern's two halves fit")
    p.add_argument("--frame", action="store_true", help="frame label 0 on the outside (identical, grid)")
    p.add_argument("--topology", choices=["grid", "torus"], default="grid", help="torus: the edges wrap around")
    p.add_argument("--clues", type=_count(0, MAX_CELLS), default=0, metavar="N", help="clue N planted placements")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (same seed, same file)")
    p.add_argument("--count", type=_count(1, 100_000), default=1, metavar="K", help="K puzzles, seeds S..S+K-1")
    p.add_argument("-o", "--output", metavar="DIR|FILE", help="a folder (one YAML per puzzle) or a file; default stdout")
    p.set_defaults(func=_cmd_generate)

    p = sub.add_parser("crosscheck", help="cross-check encodings x solvers against the backtracker on generated puzzles "
                       "(extra test: hypothesis)")
    p.add_argument("--examples", type=_count(1, 1_000_000), default=100, metavar="N", help="generated puzzles (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="hypothesis's seed: the same seed, the same puzzles")
    p.add_argument("--encodings", nargs="+", metavar="E", help="presets or base encodings (default: every preset, "
                   "and every base with every exactly-one encoding, symmetry breaking and redundant clauses)")
    p.add_argument("--solvers", nargs="+", metavar="S", help="PySAT solvers (default cadical195 minisat22)")
    p.add_argument("--max-cells", type=_count(1, 16), default=6, metavar="M", help="largest board, in cells (default 6)")
    p.add_argument("--workers", type=_count(1, MAX_WORKERS), default=os.cpu_count() or 1, help="processes (default: one per core)")
    p.add_argument("--json", action="store_true", help='one object {"examples", "checks", "mismatches", "seconds"}')
    p.set_defaults(func=_cmd_crosscheck)

    p = sub.add_parser("run", help="run an experiment spec: every puzzle x encoding x solver, isolated and limited")
    p.add_argument("spec", metavar="SPEC", help="experiment spec (YAML, see experiments/demo.yaml)")
    p.add_argument("--out", metavar="DIR", help="results folder (default out/NAME)")
    p.add_argument("--workers", type=_count(1, MAX_WORKERS), default=os.cpu_count() or 1, help="runs at a time (default: one per core)")
    p.add_argument("--resume", action="store_true", help="finish an interrupted experiment, running nothing twice")
    p.add_argument("--only", action="append", metavar="CONFIG", help="only the configurations ENCODING/SOLVER that "
                   "match this shell pattern, e.g. 'edgecolor-corners-sym/kissat404' or '*/cpsat' (repeatable)")
    p.add_argument("--executor", choices=["local", "dask"], default="local",
                   help="local: processes on this machine; dask: a Dask cluster (--scheduler, extra dist)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://10.0.0.1:8786")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("report", help="tables and plots of an experiment's results")
    p.add_argument("dir", metavar="DIR", help="an experiment's results folder (with results.jsonl)")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two configurations ENCODING/SOLVER: the "
                   "ratio of B's PAR-2 to A's with a paired bootstrap 95%% interval, a Wilcoxon signed-rank test over "
                   "the instances and a verdict (extra stats), and a scatter plot")
    p.add_argument("--json", action="store_true", help="with --compare: only the comparison, one JSON object with a, "
                   "b, instances, ratio, ci, p_value and better")
    p.add_argument("--no-plots", action="store_true", help="only the tables and summary.csv")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("render", help="draw a puzzle (its tiles) or a solution as SVG or PNG")
    p.add_argument("puzzle", metavar="PUZZLE", help="a puzzle file")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--solution", metavar="FILE", help="a JSON or .sol solution to draw")
    g.add_argument("--solve", action="store_true", help="solve the puzzle and draw the first solution")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS", help="with --solve: give up after this long, exit 3")
    _add_memory(p)
    p.add_argument("-o", "--output", metavar="OUT", help="OUT.svg or OUT.png (matplotlib); default: SVG on stdout")
    p.set_defaults(func=_cmd_render)

    p = sub.add_parser("check", help="validate a solution (JSON as solve --json prints it, or .sol)")
    p.add_argument("puzzle", metavar="PUZZLE", help="a puzzle file")
    p.add_argument("solution", metavar="SOLUTION", help="a JSON solution (as solve --json prints it) or a .sol file")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("convert", help="convert a puzzle between formats (.yaml, .puz; read also tile_dict.yaml)")
    p.add_argument("input", metavar="IN", help="a puzzle file (.yaml, .puz, .txt, tile_dict.yaml)")
    p.add_argument("output", metavar="OUT", help="output file (.yaml, .yml or .puz), or - for YAML on stdout")
    p.add_argument("--planted", metavar="SOLUTION", help="record this solution (.sol or JSON, checked first) as the "
                   "puzzle's known one, the YAML key planted")
    p.set_defaults(func=_cmd_convert)
    return parser


def _stop(signum, frame):
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    """Run one command; ``kill`` (SIGTERM) and a closed terminal (SIGHUP) stop it as Ctrl-C does,
    so that it leaves no child process (a solving job, an experiment's runs) and no temporary
    file behind."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    sweep()  # the scratch folders of satedge processes that were killed before they could remove them
    try:
        return _main(argv)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "cols", 0) is None:
            args.cols = args.rows
        if args.command is None:
            parser.print_help()
            return 2
        return args.func(args)
    except SatedgeError as e:
        print(f"satedge: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as e:  # a folder that cannot be made, a disk that is full: the file system's word for it
        where = f"{e.filename}: " if e.filename else ""
        print(f"satedge: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
