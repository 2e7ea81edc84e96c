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


@pytest.mark.parametrize("method", ["ccg", "lp", "subgradient"])
def test_plot_history(method):
    """Every method: the certified gap on a log scale (nothing clipped), the interval with R^k and R(mu^k),
    integer iteration ticks."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.ticker import MaxNLocator
    from mrc_pyomo.display.plotting import plot_history
    X, y = random_problem(80, 3, 3)
    clf = MRCClassifier(method=method, n_max=10, max_iter=200, eps_1=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # MRC-SUB may stop at max_iter
        clf.fit(X, y)
    fig = plot_history(clf)
    gap_ax, interval_ax, sets_ax, time_ax = fig.axes
    assert gap_ax.get_yscale() == "log"
    assert_legends_hide_no_data(fig)
    assert all(isinstance(ax.xaxis.get_major_locator(), MaxNLocator) for ax in fig.axes)
    assert all(ax.xaxis.get_major_locator()._integer for ax in fig.axes)
    h = clf.history_
    if method == "lp":
        assert len(h) == 0 and np.allclose(interval_ax.lines[0].get_ydata(), [clf.upper_])
        with pytest.raises(ValueError, match="empty"):
            plot_history(h)
        return
    gap = (h.upper - h.lower).to_numpy()
    plotted = [line for line in gap_ax.lines if line.get_label().startswith("certified gap")][0]
    zeros = [line for line in gap_ax.lines if line.get_label().startswith("gap 0")]
    # every iteration is shown: positive gaps on the log axis, zero gaps as markers
    assert len(plotted.get_ydata()) + sum(len(z.get_ydata()) for z in zeros) == len(h)
    assert np.allclose(plotted.get_ydata(), gap[gap > 0])
    r_mu = [line for line in interval_ax.lines if "R(\\mu^k)" in line.get_label()]
    assert sum(len(line.get_ydata()) for line in r_mu) == len(h)   # above the panel: markers, not dropped
    if method == "ccg":
        r_master = [line for line in interval_ax.lines if "master" in line.get_label()][0]
        assert np.allclose(r_master.get_ydata(), h.R_master)
        assert np.allclose(sets_ax.lines[0].get_ydata(), h.n_rows)
        assert "eps_1 = 1e-06" in [line.get_label() for line in gap_ax.lines]


def assert_legends_hide_no_data(fig):
    """No plotted data point (a line's vertices, a bar) lies in a legend's box, and every legend lies in the
    figure (nothing cut when it is saved), all in display coordinates after drawing."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    figure = fig.bbox
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        assert (box.x0 >= figure.x0 - 1 and box.y0 >= figure.y0 - 1 and box.x1 <= figure.x1 + 1
                and box.y1 <= figure.y1 + 1), f"the legend of {ax.get_ylabel()!r} is cut: {box} in {figure}"
        for line in ax.lines:
            xy = line.get_transform().transform(line.get_xydata())
            inside = ((xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1))
            assert not inside.any(), (f"the legend of {ax.get_ylabel()!r} hides {inside.sum()} points of "
                                      f"{line.get_label()!r}")
        for patch in ax.patches:
            assert not box.overlaps(patch.get_window_extent(renderer)), \
                f"the legend of {ax.get_ylabel()!r} hides a bar of {patch.get_label()!r}"


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
