"""The pages of the documentation that are generated from the code.  The reference pages are
committed, so that they can be read on the repository without a build; ``python
docs/build_pages.py`` writes them again, and the build and ``make test`` refuse stale ones:

* ``reference/cli.md``: every command and option, from the parser itself;
* ``reference/rows.md``: the results row schema, from :data:`satedge.experiment.rows.FIELDS`;
* ``reference/errors.md``: the exit statuses and the bounds on input, from the constants the
  code checks against;
* ``reference/engines.md``: the engines, from their declarations
  (:func:`satedge.jobs.registry.engines`);
Before each build (not committed):

* ``_static/layers.svg``: the layers of satedge, from the import-linter contract in
  ``pyproject.toml`` that ``make test`` checks;
* ``_static/pictures/``: the pictures of the seed puzzles' first solutions (``puzzles/pictures``).
"""

from __future__ import annotations

import argparse
import os
import tomllib
from pathlib import Path
from unittest.mock import patch
from xml.sax.saxutils import escape

from satedge.cli import EXIT_STATUSES, build_parser
from satedge.experiment import rows, spec
from satedge.experiment.rows import FIELDS
from satedge.jobs.registry import engines
from satedge.puzzle import model as puzzle
from satedge.sat import binaries
from satedge.system import files, limits, yamlfile

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    text = parser.formatter_class(parser.prog)._get_help_string(action) or ""
    return (text % {"default": action.default, "prog": parser.prog}).replace("%%", "%")


def cli_reference() -> str:
    """The command-line reference: each command's usage, description and options, its usage
    lines wrapped as on an 80-column terminal whatever terminal builds it."""
    with patch.dict(os.environ, {"COLUMNS": "80"}):
        return _cli_reference()


def _cli_reference() -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    lines = [
        "# Command line",
        "",
        "Generated from the parser of `satedge` itself.",
        "",
        "```text",
        parser.format_usage().strip(),
        "```",
        "",
        EXIT_STATUSES[0].upper() + EXIT_STATUSES[1:] + ".",
        "",
    ]
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, p in sub.choices.items():
        lines += [
            f"## satedge {name}",
            "",
            (helps.get(name) or "").capitalize() + ".",
            "",
            "```text",
            p.format_usage().strip(),
            "```",
            "",
        ]
        rows = []
        for action in p._actions:
            if action.dest == "help":
                continue
            names = ", ".join(f"`{o}`" for o in action.option_strings) or f"`{action.metavar or action.dest}`"
            if action.choices and not isinstance(action, argparse._SubParsersAction):
                names += " " + "\\|".join(f"`{c}`" for c in action.choices if c != "")
            meaning = escape(_help(p, action)).replace("|", "\\|")
            rows.append(f"| {names} | {meaning} |")
        lines += ["| argument | meaning |", "|---|---|", *rows, ""]
    return "\n".join(lines)


def rows_reference() -> str:
    """The results row schema."""
    kinds = {str: "string", int: "integer", dict: "mapping"}
    lines = [
        "# Results rows",
        "",
        "Each run of an experiment is one JSON object on a line of `DIR/results.jsonl`, "
        "written and flushed when the run ends. Generated from `satedge.experiment.rows.FIELDS`; a line that "
        "does not have these types is not a row (`satedge report` names the file and the line).",
        "",
        "| field | type | always | meaning |",
        "|---|---|---|---|",
    ]
    for name, (kind, always, meaning) in FIELDS.items():
        lines.append(f"| `{name}` | {kinds.get(kind, 'number')} | {'yes' if always else ''} | {meaning} |")
    return "\n".join(lines) + "\n"


def engines_reference() -> str:
    """The engines, one row each, as they declare themselves."""
    lines = [
        "# Engines",
        "",
        "Generated from the engines' declarations (each module of `satedge/engines/` declares its `ENGINE`; "
        "`satedge.jobs.registry.engines()` finds them and yours), which the parser, `satedge solvers` and the "
        "cross-check read too. Name one with `--solver NAME` (a PySAT solver by its own name, a binary with "
        "`--solver-cmd COMMAND`).",
        "",
        "| engine | what it is | takes an encoding | options | answers | certifies | Dask cluster | needs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in engines().values():
        solve = e.tasks.get("solve")
        answers = [t for t in e.tasks if t != "encode"] + (
            ["several solutions"] if solve and solve.enumerates else []
        )
        certifies = [t for t, does in e.tasks.items() if does.certifies]
        cluster = [t for t, does in e.tasks.items() if does.cluster]
        needs = (
            ""
            if e.needs is None
            else (
                f"`{e.needs.module}` (extra `{e.needs.extra}`)"
                if e.needs.module
                else f"the program `{e.needs.binary}`"
            )
        )
        summary = escape(e.summary).replace("|", "\\|")
        lines.append(
            f"| `{e.name}` | {summary} | {'yes' if e.solves_formula else 'no'} | "
            f"{', '.join(f'`{o}`' for o in e.settings) or 'none'} | {', '.join(answers)} | "
            f"{', '.join(certifies) or 'no'} | {', '.join(cluster) or 'no'} | {needs or 'the core'} |"
        )
    return "\n".join(lines) + "\n"


def bounds() -> list[tuple[str, str]]:
    """What satedge refuses before reading it, each with the constant it is checked against."""
    return [
        (
            "puzzle, spec, preset and solution files",
            f"regular files (not a device or a FIFO) of at most {files.MAX_INPUT_BYTES // 2**20} MB",
        ),
        (
            "YAML",
            f"nested at most {yamlfile.MAX_YAML_DEPTH} deep, at most {yamlfile.MAX_YAML_NODES:,} values with "
            "aliases expanded; duplicate keys are refused (JSON too)",
        ),
        ("boards", f"at most {puzzle.MAX_CELLS:,} cells"),
        ("names", f"at most {puzzle.MAX_NAME} characters"),
        ("timeouts", f"at most {limits.MAX_TIMEOUT:,} s"),
        ("memory caps", f"at most {limits.MAX_MEMORY_MB:,} MB"),
        ("workers", f"at most {limits.MAX_WORKERS:,}"),
        (
            "a spec",
            f"`repeat` at most {spec.MAX_REPEAT:,}, `shuffles` at most {spec.MAX_SHUFFLES:,}, "
            f"at most {spec.MAX_RUNS:,} runs",
        ),
        ("results files", f"at most {rows.MAX_RESULTS_BYTES // 2**30} GB"),
        (
            "a solver's answer",
            f"at most {binaries.MAX_ANSWER_BYTES // 2**30} GB; a model file is read line by line "
            "and may not hold more literals than the formula has variables",
        ),
        ("error lines", f"at most {files.MAX_LINE} characters; an echo of your input is cut to a few dozen"),
    ]


def errors_reference() -> str:
    """Exit statuses and the bounds on input."""
    lines = [
        "# Exit statuses and bounds",
        "",
        "Generated from the code.",
        "",
        "## Exit statuses",
        "",
        EXIT_STATUSES[0].upper() + EXIT_STATUSES[1:] + ".",
        "",
        "Bad input ends with one line on standard error, `satedge: error: FILE: problem`, never a "
        "traceback; nothing is half-written, replaced or clobbered, and no process is left behind. "
        "A model that an encoding decodes to something the checker rejects is a bug, not bad input: "
        "one line naming the solver and the encoding, exit status 2.",
        "",
        "## Bounds on input",
        "",
        "Checked before anything is read or built:",
        "",
        "| what | bound |",
        "|---|---|",
        *(f"| {w} | {b} |" for w, b in bounds()),
        "",
    ]
    return "\n".join(lines)


def layers() -> list[list[str]]:
    """The layers of the first import-linter contract, top to bottom, each a list of modules."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return [
        [m.strip().removeprefix("satedge.") for m in layer.split("|")] for layer in contracts[0]["layers"]
    ]


def layers_svg() -> str:
    """The layers as a picture: a row of boxes per layer, top to bottom, imports only downward."""
    rows = layers()
    box_w, box_h, gap, pad = 150, 30, 10, 20
    width = pad * 2 + max(len(r) for r in rows) * (box_w + gap)
    height = pad * 2 + len(rows) * (box_h + gap) + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{pad}" y="{pad - 6}" font-family="sans-serif" font-size="12">imports go downward only</text>',
    ]
    for i, row in enumerate(rows):
        y = pad + i * (box_h + gap) + 10
        x0 = (width - len(row) * (box_w + gap) + gap) / 2
        for j, name in enumerate(row):
            x = x0 + j * (box_w + gap)
            out.append(
                f'<rect x="{x:g}" y="{y}" width="{box_w}" height="{box_h}" rx="5" fill="#DDEEFF" stroke="#335577"/>'
            )
            out.append(
                f'<text x="{x + box_w / 2:g}" y="{y + box_h / 2 + 4}" font-family="monospace" font-size="12" '
                f'text-anchor="middle">{escape(name)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def heule_table() -> dict[str, tuple[int, ...]]:
    """Heule's sizes (``puzzles/heule2008/README.md``): per instance, the variables and the clauses of
    each variant."""
    text = (ROOT / "puzzles" / "heule2008" / "README.md").read_text()
    rows = [
        line.strip("|").split("|")
        for line in text.split("## The sizes of Heule's formulas")[1].splitlines()
        if line.startswith("| ") and not line.startswith("| instance")
    ]
    return {cells[0].strip(): tuple(int(x) for x in cells[1:]) for cells in rows}


def heule_reference() -> str:
    """Every instance of Heule's, every variant: the size of satedge's formula (counted from the
    code, without building it) beside the size of his."""
    from satedge.encode.presets import presets
    from satedge.puzzle.formats import load_puzzle

    lines = [
        "# Heule's formulas, satedge's sizes",
        "",
        "Generated from the code: for each of Heule's instances (`puzzles/heule2008`, and Eternity II) and "
        "each of his SAT Competition 2009 variants, the variables and clauses of satedge's `heule2008-*` "
        "preset, counted from its clause families without building the formula, beside those his C "
        "encoder writes (`puzzles/heule2008/README.md`). `cmp`: neither optional family; `exp`: at most one "
        "cell per piece; `fbc`: forbidden colours; `all`: both.",
        "",
        "| instance | variables | cmp | exp | fbc | all | his |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, (variables, *clauses) in heule_table().items():
        puzzle = load_puzzle(ROOT / "puzzles" / (f"{name}.yaml" if "/" in name else f"heule2008/{name}.yaml"))
        sizes = [presets()[f"heule2008-{v}"].size(puzzle) for v in ("cmp", "exp", "fbc", "all")]
        same = all((s.variables, s.clauses) == (variables, c) for s, c in zip(sizes, clauses))
        lines.append(
            f"| {name} | {sizes[0].variables:,} | "
            + " | ".join(f"{s.clauses:,}" for s in sizes)
            + f" | {'the same' if same else 'DIFFERENT: ' + ', '.join(f'{c:,}' for c in clauses)} |"
        )
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)  # a fresh clone has no generated folders
    if not path.exists() or path.read_text() != text:  # unchanged files keep their times: no rebuild
        path.write_text(text)


def committed_pages() -> dict[Path, str]:
    """The reference pages kept in the repository, each with what the code makes of it now."""
    return {
        HERE / "reference" / "cli.md": cli_reference(),
        HERE / "reference" / "rows.md": rows_reference(),
        HERE / "reference" / "errors.md": errors_reference(),
        HERE / "reference" / "engines.md": engines_reference(),
        HERE / "reference" / "heule.md": heule_reference(),
    }


def stale_pages() -> list[str]:
    """The committed reference pages that differ from what the code makes of them."""
    return [
        str(path.relative_to(ROOT))
        for path, text in committed_pages().items()
        if not path.exists() or path.read_text() != text
    ]


def build() -> None:
    """What a build needs beside the committed pages: the layers and the pictures; a stale
    committed page stops the build."""
    stale = stale_pages()
    if stale:
        raise SystemExit(f"{', '.join(stale)}: stale; write them again with python docs/build_pages.py")
    _write(HERE / "_static" / "layers.svg", layers_svg())
    for picture in sorted((ROOT / "puzzles" / "pictures").glob("*.svg")):
        _write(HERE / "_static" / "pictures" / picture.name, picture.read_text())


def main() -> None:
    """Write the committed reference pages again from the code."""
    for path, text in committed_pages().items():
        _write(path, text)


if __name__ == "__main__":
    main()
