"""Plots of a fitted MRC's iterations.  matplotlib, an optional dependency (the extra ``plot``: ``pip install -c
constraints.txt ".[plot]"`` in the checkout), is imported when a plot is drawn, never with ``mrc_pyomo``."""

import numpy as np
import pandas as pd

from .log import TIME_PARTS

#: one colour per quantity, the same in every panel, none shared by two quantities
COLOURS = {"gap": "C3", "upper": "C0", "lower": "C2", "R_master": "C1", "R_mu": "C4", "n_rows": "C5",
           "n_features": "C6", "seconds_oracle": "C7", "seconds_update": "C8", "seconds_build": "C9",
           "seconds_handover": "gold", "seconds_solve": "black", "rows_added": "darkcyan",
           "rows_removed": "lightcoral", "features_added": "indigo"}


def plot_history(fitted, axes=None):
    """Four panels along the iterations of a fit: an ``MRCClassifier`` (any ``method``) or its ``history_``.

    1. the certified gap ``upper - lower`` on a log scale, with ``eps_1`` when the classifier is given: how far
       the rule can be from ``R*``; a gap of 0 is a triangle on the bottom edge;
    2. the certified interval with the master's value ``R^k`` and ``R(mu^k)`` (MRC-CCG; MRC-SUB: ``R`` at its
       extrapolated point), those above the panel as triangles on its top edge, counted in the legend;
    3. the active rows and features of each master (MRC-CCG);
    4. the seconds of each iteration by part (MRC-CCG); MRC-SUB: the seconds per step.

    Each quantity has its own colour (:data:`COLOURS`).  ``method="lp"`` has no iterations: given the classifier,
    panel 2 shows its certified interval alone.  Each legend sits above its panel, outside the axes.  Returns the
    matplotlib figure; ``ImportError`` without matplotlib.
    """
    try:
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError as exc:
        raise ImportError('plot_history needs matplotlib: pip install -c constraints.txt ".[plot]" in the '
                          'checkout of mrc_pyomo (or pip install matplotlib)') from exc
    history = history_of(fitted)
    eps_1 = getattr(fitted, "eps_1", None)
    if len(history) == 0 and not hasattr(fitted, "upper_"):
        raise ValueError("the history is empty (method='lp' has no iterations): pass the fitted classifier to "
                         "plot its certified interval")
    if axes is None:
        fig, axes = plt.subplots(1, 4, figsize=(18, 4.6))
    else:
        axes = np.ravel(axes)
        fig = axes[0].figure
    it = history["iteration"].to_numpy() if len(history) else np.zeros(0, dtype=int)
    lower = history["lower"].to_numpy() if len(history) else np.array([fitted.lower_])
    upper = history["upper"].to_numpy() if len(history) else np.array([fitted.upper_])
    x = it if len(history) else np.array([0])
    gap_panel(axes[0], x, upper - lower, eps_1)
    interval_panel(axes[1], history, it, x, lower, upper)
    size_panel(axes[2], history, it)
    seconds_panel(axes[3], history, it)
    for ax in axes:
        ax.set_xlabel("iteration")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    return fig


def gap_panel(ax, x, gap, eps_1):
    """Panel 1 of :func:`plot_history`: the certified gap on a log scale (0 as triangles on the bottom edge)."""
    positive = gap > 0
    ax.semilogy(x[positive], gap[positive], "o-", color=COLOURS["gap"], label="certified gap upper - lower")
    if (~positive).any():
        ax.plot(x[~positive], np.zeros((~positive).sum()), "v", color=COLOURS["gap"], clip_on=False,
                transform=ax.get_xaxis_transform(), label=f"gap 0 ({(~positive).sum()} iterations)")
    if eps_1:
        ax.axhline(eps_1, color="gray", linestyle=":", label=f"eps_1 = {eps_1:g}")
    ax.set_ylabel("certified gap (log scale)")
    plain_log_ticks(ax)
    _legend(ax)


def interval_panel(ax, history, it, x, lower, upper):
    """Panel 2 of :func:`plot_history`: the certified interval, ``R^k`` and ``R(mu^k)``."""
    ax.fill_between(x, lower, upper, alpha=0.25, color=COLOURS["upper"], step=None,
                    label="certified interval (holds $R^*$)")
    ax.plot(x, upper, "-", color=COLOURS["upper"], label="upper = R(best rule)")
    ax.plot(x, lower, "-", color=COLOURS["lower"], label="lower (Lagrangian bound)")
    top = 1.05 * max(float(np.max(upper)), 1e-12)
    if "R_master" in history and len(history):
        ax.plot(it, history["R_master"], ".", color=COLOURS["R_master"], label="$R^k$ (master)")
    if "R_mu" in history and len(history):
        r_mu = history["R_mu"].to_numpy()
        inside = r_mu <= top
        ax.plot(it[inside], r_mu[inside], "x", color=COLOURS["R_mu"], label=r"$R(\mu^k)$")
        if (~inside).any():
            ax.plot(it[~inside], np.ones((~inside).sum()), "^", color=COLOURS["R_mu"], clip_on=False,
                    transform=ax.get_xaxis_transform(), label=rf"$R(\mu^k)$ > {top:.3g} ({(~inside).sum()})")
    ax.set_ylim(min(0.0, float(np.min(lower))), top)
    ax.set_ylabel("worst-case error probability")
    _legend(ax)


def size_panel(ax, history, it):
    """Panel 3 of :func:`plot_history`: the rows and features of each master (MRC-CCG)."""
    if "n_rows" in history and len(history):
        ax.plot(it, history["n_rows"], "o-", color=COLOURS["n_rows"], label="rows in $I$")
        if "n_features" in history:
            ax.plot(it, history["n_features"], "s-", color=COLOURS["n_features"], label="features in $J$")
        _legend(ax)
    else:
        ax.text(0.5, 0.5, "no master along the iterations\n(MRC-SUB solves no LP; the full LP is one)",
                ha="center", va="center", transform=ax.transAxes)
    ax.set_ylabel("active set size")


def seconds_panel(ax, history, it):
    """Panel 4 of :func:`plot_history`: each iteration's seconds by part (MRC-CCG), or per step."""
    if "seconds_solve" in history and len(history):
        bottom = np.zeros(len(it))
        for column, label in TIME_PARTS:
            if history[column].any():
                ax.bar(it, history[column], bottom=bottom, color=COLOURS[column], label=label)
                bottom += history[column].to_numpy()
        _legend(ax)
    elif len(history):
        ax.plot(it, np.diff(np.concatenate([[0.0], history["seconds_elapsed"].to_numpy()])), ".",
                color=COLOURS["seconds_solve"], label="seconds per step")
        _legend(ax)
    ax.set_ylabel("seconds")


def history_of(fitted):
    """The records a plot draws, as a ``pandas.DataFrame``: a fitted classifier's ``history_``, a history, or the
    iterations of ``list(clf.steps(X, y))`` (MRC-CCG states' ``record``, a first-order phase's dicts)."""
    history = getattr(fitted, "history_", fitted)
    if isinstance(history, pd.DataFrame):
        return history
    if not isinstance(history, (list, tuple)):
        what = type(fitted).__name__
        hint = (" (a path: pass one of its stages, path.estimators[k])" if hasattr(fitted, "estimators") else
                " (fit it first)" if hasattr(fitted, "get_params") else "")
        raise TypeError(f"nothing to plot in a {what}{hint}: pass a fitted classifier, its history_, or the list "
                        f"of the states of clf.steps(X, y)")
    return pd.DataFrame([getattr(item, "record", item) for item in history])


def plot_steps(fitted, axes=None):
    """The picture of a stepped fit, for teaching: three panels along the iterations of MRC-CCG, from a fitted
    ``MRCClassifier``, its ``history_``, or the states of ``clf.steps(X, y)`` (:func:`history_of`).

    1. the certified interval closing, as panel 2 of :func:`plot_history`;
    2. the active set: the rows of ``I`` and the features of ``J`` of each master;
    3. the rows added (up) and removed (down) and the features added to make each master.

    A first-order phase's iterations show in panel 1 only.  Returns the matplotlib figure; ``ImportError`` without
    matplotlib, ``ValueError`` for a fit without iterations (``method="lp"``).
    """
    try:
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError as exc:
        raise ImportError('plot_steps needs matplotlib: pip install -c constraints.txt ".[plot]" in the '
                          'checkout of mrc_pyomo (or pip install matplotlib)') from exc
    history = history_of(fitted)
    if len(history) == 0:
        raise ValueError("the history is empty: a fit with no iterations (method='lp') has no steps to draw")
    if axes is None:
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    else:
        axes = np.ravel(axes)
        fig = axes[0].figure
    it = history["iteration"].to_numpy()
    interval_panel(axes[0], history, it, it, history["lower"].to_numpy(), history["upper"].to_numpy())
    masters = history.dropna(subset=["n_rows"]) if "n_rows" in history else history.iloc[:0]
    size_panel(axes[1], masters, masters["iteration"].to_numpy())
    changes_panel(axes[2], masters)
    for ax in axes:
        ax.set_xlabel("iteration")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    return fig


def changes_panel(ax, history):
    """Panel 3 of :func:`plot_steps`: the rows added (up) and removed (down), the features added, per master."""
    from matplotlib.ticker import MaxNLocator
    it = history["iteration"].to_numpy() if len(history) else np.zeros(0)
    for column, sign, shift, label in (("rows_added", 1, -0.2, "rows added"), ("rows_removed", -1, -0.2,
                                       "rows removed"), ("features_added", 1, 0.2, "features added")):
        if column in history and history[column].any():
            ax.bar(it + shift, sign * history[column].to_numpy(dtype=float), width=0.4, color=COLOURS[column],
                   label=label)
    ax.axhline(0.0, color="gray", linewidth=0.8)
    ax.set_ylabel("changes to the master (removed: below 0)")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if ax.get_legend_handles_labels()[1]:
        _legend(ax)


def plain_log_ticks(ax):
    """Label the log-scale axes of ``ax``, major and minor ticks, with plain numbers ``f"{value:g}"`` ("6",
    "1e-08") where matplotlib writes mathtext ("6x10^0"); the same ticks are labelled.  Returns ``ax``."""
    from matplotlib.ticker import LogFormatter

    class PlainLogFormatter(LogFormatter):
        """matplotlib's choice of the log ticks to label, each label a plain number."""

        def __call__(self, x, pos=None):
            return f"{x:g}" if super().__call__(x, pos) else ""

    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_scale() == "log":
            axis.set_major_formatter(PlainLogFormatter(labelOnlyBase=False))
            axis.set_minor_formatter(PlainLogFormatter(labelOnlyBase=False))
    return ax


def _legend(ax):
    """The panel's legend above the axes, in the space ``tight_layout`` keeps: it hides no data point."""
    n = len(ax.get_legend_handles_labels()[1])
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.02), borderaxespad=0.0, ncol=1 if n <= 2 else 2,
              fontsize="small", frameon=False)
