"""The public plotting helper (:mod:`mrc_pyomo.display.plotting`, ``plot_history``): every method's history plotted,
nothing hidden by a legend; importable from the package without matplotlib being required."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem
from mrc_pyomo import MRCClassifier


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
        # one colour per quantity across the panels: no two quantities share one
        from matplotlib.colors import to_hex
        colour_of = {}
        for ax in fig.axes:
            drawn = [(line.get_label(), line.get_color()) for line in ax.lines]
            drawn += [(bars.get_label(), patch.get_facecolor()) for bars in ax.containers for patch in bars]
            for label, colour in drawn:
                name = label.split(" (")[0].split(" >")[0].replace("gap 0", "certified gap upper - lower")
                if not name.startswith(("_", "eps_1")):
                    colour_of.setdefault(name, set()).add(to_hex(colour))
        assert {"oracles", "solver", "rows in $I$", "$R^k$"} <= set(colour_of)
        assert all(len(colours) == 1 for colours in colour_of.values()), colour_of
        assert len({c for colours in colour_of.values() for c in colours}) == len(colour_of), colour_of


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


def test_plot_history_is_public_and_matplotlib_optional(tmp_path):
    import mrc_pyomo
    from mrc_pyomo import plot_history
    from mrc_pyomo.display.plotting import plot_history as in_its_module
    assert plot_history is in_its_module and "plot_history" in mrc_pyomo.__all__
    # in a fresh interpreter (of the installed package: not run from the repository's root)
    code = (
        "import sys\n"
        "import mrc_pyomo\n"
        "from mrc_pyomo import plot_history\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'matplotlib'], 'importing mrc_pyomo imported matplotlib'\n"
        "sys.modules['matplotlib'] = None   # as if matplotlib were not installed\n"
        "try:\n"
        "    plot_history(None)\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert 'pip install -c constraints.txt ".[plot]"' in result.stdout
