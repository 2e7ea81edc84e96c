"""Sphinx configuration of the mrc_pyomo user guide (built in CI with warnings as errors)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))   # autodoc documents this source tree
from generate import generate  # noqa: E402  (the tutorial's output and the benchmark pages, made at build time)

project = "mrc_pyomo"
author = "the mrc_pyomo developers"
release = "0.2.0.dev0"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.mathjax", "sphinx.ext.viewcode"]
napoleon_numpy_docstring = True
napoleon_google_docstring = False
autodoc_member_order = "bysource"
autodoc_default_options = {
    "members": True,
    # scikit-learn's generated metadata-routing methods: their docstrings link to sklearn's own docs
    "exclude-members": "set_fit_request, set_score_request, set_transform_request, set_predict_request, "
                       "set_output",
}
exclude_patterns = ["_build"]
html_theme = "alabaster"
nitpicky = False


def setup(app):
    app.connect("builder-inited", generate)
