"""Sphinx configuration of the mrc_pyomo user guide (built in CI with warnings as errors)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))   # autodoc documents this source tree
from generate import generate  # noqa: E402  (the tutorial's output and the benchmark pages, made at build time)

project = "mrc_pyomo"
author = "the mrc_pyomo developers"
release = "0.2.0.dev0"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax", "sphinx.ext.viewcode",
              "sphinx_gallery.gen_gallery"]
# the gallery of examples/: each page the script's code, what it prints and its figures; the examples that run in
# seconds on scikit-learn's data are run when the pages are built (the others need data files, solvers or minutes:
# their pages show their code)
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/(tutorial|teaching|quickstart|standardize|new_method)\.py$",
    "within_subsection_order": "FileNameSortKey",
    "write_computation_times": False,
    "download_all_examples": False,
    "abort_on_example_error": True,
}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
autodoc_member_order = "bysource"
autodoc_default_options = {
    "members": True,
    # scikit-learn's generated metadata-routing methods: their docstrings link to sklearn's own docs
    "exclude-members": "set_fit_request, set_score_request, set_transform_request, set_predict_request, "
                       "set_output",
}
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip"]
html_theme = "alabaster"
nitpicky = False


def setup(app):
    app.connect("builder-inited", generate)
