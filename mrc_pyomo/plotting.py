"""Plots of a fitted MRC's generation loop (needs matplotlib: ``pip install mrc_pyomo[plot]``)."""

import numpy as np


def plot_history(history, axes=None):
    """Three panels along the iterations of ``history`` (an ``MRCClassifier``'s ``history_``, or the classifier).

    1. the master's value ``R^k`` and the certified ``R(mu^k)`` (clipped at 1, the trivial bound): they
       meet at convergence and bracket ``R*`` in the large-n regime;
    2. the active rows and features of each master;
    3. the seconds spent per iteration in the oracles, the model updates and the solver.

    Returns the matplotlib figure.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plot_history needs matplotlib: pip install matplotlib") from exc
    history = getattr(history, "history_", history)
    if len(history) == 0:
        raise ValueError("the history is empty (method='lp' has no iterations)")
    if axes is None:
        fig, axes = plt.subplots(1, 3, figsize=(14, 3.8))
    else:
        fig = axes[0].figure
    it = history["iteration"].to_numpy()

    ax = axes[0]
    ax.plot(it, history["R_master"], "o-", label="$R^k$ (master)")
    ax.plot(it, np.minimum(history["R_mu"], 1.0), "s--", label=r"$R(\mu^k)$ (certified)")
    ax.set_xlabel("iteration")
    ax.set_ylabel("worst-case error probability")
    ax.set_ylim(0, 1.05)
    ax.legend()

    ax = axes[1]
    ax.plot(it, history["n_rows"], "o-", label="rows in $I$")
    ax.plot(it, history["n_features"], "s-", label="features in $J$")
    ax.set_xlabel("iteration")
    ax.set_ylabel("active set size")
    ax.legend()

    ax = axes[2]
    bottom = np.zeros(len(it))
    for column, label in [("seconds_oracle", "oracles"), ("seconds_update", "model updates"),
                          ("seconds_build", "Pyomo model built"), ("seconds_handover", "handed to the solver"),
                          ("seconds_solve", "solver")]:
        ax.bar(it, history[column], bottom=bottom, label=label)
        bottom += history[column].to_numpy()
    ax.set_xlabel("iteration")
    ax.set_ylabel("seconds")
    ax.legend()
    fig.tight_layout()
    return fig
