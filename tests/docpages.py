"""The pages users read: the README and the hand-written pages of the documentation site (the
pages generated from the code at build time are left out: they cannot drift), and the committed
study reports that the results pages include."""

import re
import shlex
from pathlib import Path

from conftest import ROOT

GENERATED = {"reference/cli.md", "reference/rows.md", "reference/errors.md", "reference/heule.md"}
PAGES = [ROOT / "README.md"] + sorted(
    p
    for p in (ROOT / "docs").rglob("*.md")
    if "_build" not in p.parts and p.relative_to(ROOT / "docs").as_posix() not in GENERATED
)
INCLUDED = sorted(
    {
        (page.parent / m).resolve()
        for page in PAGES
        for m in re.findall(r"^```\{include\} (\S+)", page.read_text(encoding="utf-8"), re.M)
    }
)


def text(pages=PAGES) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in pages)


def blocks(kind: str, pages=PAGES) -> list[tuple[Path, str]]:
    """``(page, code)`` of every fenced block of ``kind`` (``sh``, ``python``)."""
    return [
        (p, code)
        for p in pages
        for code in re.findall(rf"^```{kind}\n(.*?)^```", p.read_text(encoding="utf-8"), re.S | re.M)
    ]


def shell_lines(pages=PAGES) -> list[str]:
    """Every line of the ```sh blocks, continuation lines joined."""
    return [
        line
        for _, block in blocks("sh", pages)
        for line in block.replace("\\\n", " ").splitlines()
        if line.strip()
    ]


def satedge_commands(pages=PAGES) -> list[str]:
    """The `satedge ...` commands of the ```sh blocks, comments, redirections and pipes cut off."""
    commands = []
    for line in shell_lines(pages):
        for part in re.split(r"&&|\||;", line.split(" #")[0]):
            words = shlex.split(part.split(">")[0])
            if words[:1] == ["satedge"]:
                commands.append(shlex.join(words))
    return commands
