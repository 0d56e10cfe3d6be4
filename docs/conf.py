"""Sphinx's configuration: the docs as a site.

Build it with the ``docs`` extra, every warning an error::

    python -m pip install -e ".[docs]"
    sphinx-build -W --keep-going -b html docs docs/_build/html
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

import scrapy_declutter

project = "scrapy-declutter"
author = "the scrapy-declutter authors"
copyright = f"2026, {author}"
version = release = scrapy_declutter.__version__

extensions = ["sphinx.ext.autodoc", "declutter_docs"]
# The pages outside docs/ that a page includes whole, by the page that includes them.
declutter_included_pages = {"../README.rst": "readme", "../CHANGES.rst": "changes"}
exclude_patterns = ["_build"]
nitpicky = True
# The API reference (api.rst): members in the order the code gives them.
autodoc_member_order = "bysource"

html_theme = "furo"
html_title = f"scrapy-declutter {release}"
