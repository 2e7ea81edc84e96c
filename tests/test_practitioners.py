"""For optimisation practitioners and teachers: callback, solver failures, plots, CLI, examples, docs."""

import subprocess
import warnings
import sys
from pathlib import Path

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import ConvergenceWarning

from conftest import random_problem
from mrc_pyomo import MRCClassifier

ROOT = Path(__file__).resolve().parents[1]


# -- command line: tests/test_cli.py ------------------------------------------------------------------------


# -- examples and docs --------------------------------------------------------------------------------------

@pytest.mark.parametrize("script", ["quickstart.py", "tutorial.py", "solver_switching.py", "export.py",
                                    "pipeline_grid_search.py"])
def test_examples_run(script, tmp_path):
    args = [] if script == "quickstart.py" else ["--fast"]
    if script == "tutorial.py":
        args += ["--plot", str(tmp_path / "t.png")]
    result = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args], capture_output=True,
                            text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip()
    if script == "tutorial.py":
        assert (tmp_path / "t.png").stat().st_size > 0 and "iteration 1" in result.stdout
        # the same fit with verbose=2: the iteration log's header and a line per master
        log = result.stdout.split("the same fit with verbose=2")[1]
        assert "R_master" in log and "primal_v" in log and "converged: R* in [" in log


def test_docs_build_without_warnings(tmp_path):
    import os
    import re
    import tempfile
    pytest.importorskip("sphinx")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             str(ROOT / "docs"), str(tmp_path / "html")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    # the tutorial shows the output and the figure of examples/tutorial.py, made by this build
    tutorial = (tmp_path / "html" / "tutorial.html").read_text()
    assert "iteration 1: master with" in tutorial and "tutorial.png" in tutorial and "primal_v" in tutorial
    # the benchmark reports are pages of the site, their tables and figures included
    full = (tmp_path / "html" / "_generated" / "benchmarks_full.html").read_text()
    assert "Targets" in full and "<table" in full and "convergence_full.png" in full
    # the tutorial's iteration log comes from verbose=2 (verbose=1 is a live progress line, not a log)
    assert "verbose=2" in tutorial and "verbose=1" in tutorial and "+rows  -rows  again  +feat" in tutorial
    # no page shows where or by whom the site was built, nor a solver's banner (the banner itself, with its
    # version or year: "Running HiGHS 1.16.0 (git hash: ...): Copyright (c) 2026 ..."; a docstring may name it)
    machine = [str(ROOT), str(Path.home()) + "/", tempfile.gettempdir().rstrip("/") + "/",
               os.path.realpath(tempfile.gettempdir()).rstrip("/") + "/"]
    patterns = [re.escape(path) for path in machine] + [r"Running HiGHS \d", r"Copyright \(c\) \d"]
    shown = {}
    for page in sorted((tmp_path / "html").rglob("*.html")):
        for pattern in patterns:
            match = re.search(pattern, page.read_text())
            if match:
                shown.setdefault(match.group(), []).append(str(page.relative_to(tmp_path / "html")))
    assert not shown, f"pages show {shown}"
