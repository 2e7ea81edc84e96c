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


def tick_texts(fig):
    """The texts of every labelled tick of every axis of ``fig``, once drawn."""
    fig.canvas.draw()
    return [tick.label1.get_text() for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks() if tick.label1.get_text()]


def test_log_ticks_read_as_plain_numbers():
    """plain_log_ticks: the ticks matplotlib labels, as "6", "20", "0.5" (matplotlib wrote "6x10^0",
    mathtext), major and minor, on every log axis; a linear axis keeps its own labels."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mrc_pyomo.display.plotting import plain_log_ticks
    fig, (ax, small) = plt.subplots(1, 2)
    ax.loglog([5, 10, 20], [2.0, 4.0, 9.0])   # K and seconds
    small.semilogy([1, 2, 3], [0.3, 0.5, 0.9])
    assert any("times" in text for text in tick_texts(fig))   # matplotlib's own: $\mathdefault{6\times10^{0}}$
    assert plain_log_ticks(ax) is ax and plain_log_ticks(small) is small
    texts = tick_texts(fig)
    assert not [text for text in texts if "10^" in text or "times" in text or "$" in text]
    assert {"1", "2", "6", "10", "20", "0.5"} <= set(texts) and small.xaxis.get_scale() == "linear"
    plt.close(fig)


def test_the_gap_panel_s_log_ticks_are_plain_numbers():
    """A gap within a decade (a fit of a few masters) had minor ticks labelled "6x10^-2": plain numbers now."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    from mrc_pyomo.display.plotting import plot_history
    history = pd.DataFrame({"iteration": [1, 2, 3], "lower": [0.1, 0.12, 0.13], "upper": [0.4, 0.3, 0.2],
                            "seconds_elapsed": [0.1, 0.2, 0.3]})
    fig = plot_history(history)
    texts = tick_texts(fig)
    assert texts and not [text for text in texts if "10^" in text or "times" in text]
    assert {"0.1", "0.2"} <= set(texts)
    plt.close(fig)


def test_plot_steps_draws_the_interval_closing_and_the_active_set_changing():
    """``plot_steps``, from the states of a stepped fit or from the fitted classifier (the same picture): the
    certified interval with ``R^k``, the rows and features of each master, and the rows added (up), removed
    (down) and features added of each master; a first-order phase's iterations in the interval panel only; a
    fit without iterations refused."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mrc_pyomo.display.plotting import history_of, plot_steps
    X, y = random_problem(150, 2, 3, seed=3)
    clf = MRCClassifier(regime="n", n_max=4, eps_1=0.0)
    states = list(clf.steps(X, y))
    h = clf.history_
    assert history_of(states)[list(h.columns)].equals(h) and history_of(clf) is h
    assert (h.rows_removed > 0).any() and (h.rows_added > 0).any()
    for source in (states, clf):
        fig = plot_steps(source)
        interval_ax, sets_ax, changes_ax = fig.axes
        lines = {line.get_label(): line for ax in fig.axes for line in ax.lines}
        assert np.allclose(lines["upper = R(best rule)"].get_ydata(), h.upper)
        assert np.allclose(lines["lower (Lagrangian bound)"].get_ydata(), h.lower)
        assert np.allclose(lines["$R^k$ (master)"].get_ydata(), h.R_master)
        assert np.allclose(lines["rows in $I$"].get_ydata(), h.n_rows)
        assert np.allclose(lines["features in $J$"].get_ydata(), h.n_features)
        bars = {bars.get_label(): [patch.get_height() for patch in bars] for bars in changes_ax.containers}
        assert np.allclose(bars["rows added"], h.rows_added) and np.allclose(bars["rows removed"], -h.rows_removed)
        assert np.allclose(bars["features added"], h.features_added)
        assert_legends_hide_no_data(fig)
        plt.close(fig)
    fom = MRCClassifier(method="fom").fit(X, y)
    phases = fom.history_.phase
    assert (phases == "first-order").any()
    fig = plot_steps(fom)
    lines = {line.get_label(): line for ax in fig.axes for line in ax.lines}
    assert len(lines["upper = R(best rule)"].get_ydata()) == len(phases)
    assert len(lines["rows in $I$"].get_ydata()) == (phases == "generation").sum()
    plt.close(fig)
    with pytest.raises(ValueError, match="empty"):
        plot_steps(MRCClassifier(method="lp").fit(X, y))


def test_what_has_nothing_to_plot_is_refused_with_what_to_pass():
    """An unfitted classifier and a path have no history_: both plots say what to pass (they raised "object is
    not iterable" / "has no len()")."""
    pytest.importorskip("matplotlib")
    from mrc_pyomo import MRCClassifier, mrc_path, plot_history, plot_steps
    X, y = random_problem(40, 2, 2, seed=0)
    for plot in (plot_history, plot_steps):
        with pytest.raises(TypeError, match="fit it first"):
            plot(MRCClassifier())
        with pytest.raises(TypeError, match=r"path.estimators\[k\]"):
            plot(mrc_path(X, y, lambda0s=[0.1]))
