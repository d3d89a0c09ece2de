"""What the machine is, as results and compiled code name it: the processor's model
(:func:`cpu_model`, a results row's ``env`` and a benchmark's report) and the lines that say what
machine code it runs (:func:`cpu_lines`, the key of the C loop's cache), read from Linux's
``/proc/cpuinfo`` where there is one.
"""

from __future__ import annotations

import os
import platform
from functools import cache
from pathlib import Path

__all__ = ["cpu_lines", "cpu_model", "described"]


@cache
def cpu_lines() -> tuple[str, ...]:
    """The processor's ``model name`` and ``flags`` lines of ``/proc/cpuinfo``, each once, sorted;
    where Linux does not tell, the platform's machine and processor."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return (platform.machine() + platform.processor(),)
    return tuple(sorted({line for line in info.splitlines() if line.startswith(("model name", "flags"))}))


def cpu_model() -> str:
    """The processor's model (``AMD EPYC 7B13``), else the platform's name for it."""
    for line in cpu_lines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def described() -> str:
    """The machine in a few words, as a benchmark's report names it: its processor, its cores
    and the Python that ran (``AMD EPYC 7B13, 2 cores, CPython 3.11.7``)."""
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return f"{cpu_model()}, {os.cpu_count()} cores, {python}"
