"""Sphinx configuration for clubwhist's docs site (MyST Markdown pages, the Furo theme).

Built strictly, warnings as errors, so a broken link or a page left out of every toctree fails
the build: `make docs` runs `sphinx-build -W --keep-going -n -q -b html docs build/docs`.
"""

project = "clubwhist"
author = "clubwhist contributors"
copyright = "clubwhist contributors"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"

# Not pages: the script that renders the print samples, and the images the pages link to.
exclude_patterns = ["print/*.py", "screens/*", "print/*.png", "_build", "**/__pycache__"]

# `page.md#a-section` links resolve to headings down to ###.
myst_heading_anchors = 3

html_theme = "furo"
html_title = "clubwhist"
