"""``satedge count``: the solutions, distinct pictures and pictures up to board turns of each
puzzle; asked, the pictures up to the puzzle's symmetries, with the symmetries named."""

from __future__ import annotations

import argparse

from ..puzzle.symmetry import MODES, describe, group
from ..system.bigints import digits, json_dumps, many
from .common import answered_by, answers, certificate_words, engine_of, measured
from .options import add_method, add_puzzles

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "count",
        help="count solutions, distinct pictures and pictures up to board turns (or up to the puzzle's symmetries)",
    )
    add_puzzles(p)
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    add_method(p, counting=True)
    p.set_defaults(func=main)


def so_far(at_least: dict[str, int]) -> str:
    """A stopped count's lower bounds in words.

    >>> so_far({"solutions": 14784128}), so_far({"solutions": 12, "distinct": 12})
    ('at least 14784128 solutions', 'at least 12 solutions and 12 distinct pictures')
    """
    words = [many(at_least["solutions"], "solution")] if "solutions" in at_least else []
    words += [f"{digits(at_least['distinct'])} distinct pictures"] if "distinct" in at_least else []
    return "at least " + " and ".join(words)


def main(args: argparse.Namespace) -> int:
    status = 0
    for path, puzzle, job, res, seconds in answers(args, "count"):
        counts = {m: res.counts.get(m) for m in MODES}
        if res.status == "TIMEOUT":
            status = 3
        if args.json:
            obj = {
                "puzzle": path,
                **counts,
                "method": args.method,
                **(answered_by(job, res) if job else {}),
                "shuffle": args.shuffle,
                "seconds": round(seconds, 6),
                **measured(res),
            }
            obj.update(res.search_figures())
            if res.stats.reported:  # what the progress line showed: the solver's own figures
                obj["stats"] = res.stats.counters
            if job is not None and job.encoding is not None:
                obj.update(
                    variables=res.variables or 0, clauses=res.clauses or 0, models=res.counts.get("models")
                )
            if counts["classes"] is not None:
                obj["symmetries"] = [sym.name for sym in group(puzzle)]
            if res.certificate is not None:
                obj["certificate"] = res.certificate.as_dict()
            if res.status in ("TIMEOUT", "INTERRUPTED"):
                obj["status"] = res.status
                if res.stage:
                    obj["stage"] = res.stage
                if res.at_least:  # lower bounds: what it had counted when it was stopped
                    obj["at_least"] = res.at_least
            print(json_dumps(obj), flush=True)
        elif res.status in ("TIMEOUT", "INTERRUPTED"):
            stopped = f"TIMEOUT after {args.timeout:g} s" if res.status == "TIMEOUT" else "interrupted"
            print(
                f"{path}: {stopped}"
                + (f", while {res.stage}" if res.stage else "")
                + (f"; {so_far(res.at_least)} so far, a lower bound" if res.at_least else ""),
                flush=True,
            )
        else:
            shown = ", ".join(
                many(v, "solution")
                if k == "solutions"
                else f"{digits(v)} class{'es' * (v != 1)}"
                if k == "classes"
                else f"{digits(v)} {k}"
                for k, v in counts.items()
                if v is not None
            )
            how = engine_of(job)
            models = res.counts.get("models")
            if models is not None and models != counts["solutions"]:
                how += f", {many(models, 'model')} of the formula"
            if args.shuffle is not None:
                how += f", shuffle {args.shuffle}"
            print(f"{path}: {shown} ({how}, {seconds:.3f} s){certificate_words(res)}", flush=True)
            if counts["classes"] is not None:
                print(f"  classes: pictures up to its {describe(group(puzzle))}", flush=True)
    return status
