"""Sphinx configuration of satedge's documentation site (``make docs``).

Pages are Markdown (MyST); the API reference comes from the docstrings (autodoc with napoleon,
numpy style); the command-line reference, the results row schema, the errors and the engines are generated
from the code and committed (``docs/build_pages.py``; a stale one stops the build), the picture
of the layers before each build.
"""

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# checks the reference pages, draws _static/layers.svg
importlib.import_module("build_pages").build()

project = "satedge"
author = "the satedge developers"
copyright = "2026, the satedge developers"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
# furo: maintained, and it reads well on a laptop and on a phone
html_theme = "furo"
html_title = "satedge"
html_static_path = ["_static"]
html_css_files = ["satedge.css"]
# options and code exactly as typed: no "--" turned into an en dash, no curly quotes
smartquotes = False
suppress_warnings = ["myst.header"]
nitpicky = False
