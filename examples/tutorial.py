"""
Constraint and column generation, step by step, on a small MRC
==============================================================

Each iteration solves the restricted master P_IJ, then the oracles find the most violated rows (a sample and
a label subset) and, in the "nm" regime, the most violated features.  The fit is stepped
(``clf.steps(X, y)``: one iteration per step, as a notebook cell would take it) and each step printed from the
state's readable forms: its one-line ``repr`` (the master's size and value, the certified interval, the
changes), ``describe()`` (the changes that made the master, in the class labels), ``summary()`` (the most
violated row and feature) and ``next_changes()`` (what the oracles chose next, with the violations that chose
it); the first master is also printed as an LP.  The history is plotted (saved with ``--plot``), and the steps'
picture (``--steps-plot``: the certified interval closing, the active set changing).  Then the same fit runs with
``verbose=2``, which prints the iteration log (``verbose=1`` shows a live progress line instead).

    python examples/tutorial.py [--fast] [--plot tutorial.png] [--steps-plot steps.png] [--state-html state.html]
"""

import argparse
import tempfile
from pathlib import Path

import numpy as np
from sklearn.datasets import make_blobs

from mrc_pyomo import MRCClassifier
from mrc_pyomo.methods.ccg.readable import plain_number   # "0.1235", and no "-0.0000" for the solver's rounding


def show(state):
    print(f"\n{state!r}")
    if state.iteration == 1:
        print(f"  {state.master!r}")
        with tempfile.TemporaryDirectory() as tmp:
            path = state.master.write(Path(tmp) / "master.lp")
            lines = Path(path).read_text().splitlines()
        first_row = lines.index("s.t.") + 2
        print("  the first master, as written to an .lp file (objective and first row):")
        print("\n".join("    " + line for line in lines[2:first_row] + lines[first_row:first_row + 9]))
    print_changes("what made this master", state.describe())
    s = state.summary()
    (sample, labels), (label, feature) = s["most_violated_row"], s["most_violated_feature"]
    print(f"  most violated row: sample {sample}, labels {labels}, by {s['max_primal_violation']:.4f}; "
          f"feature: class {label}, feature {feature}, by {s['max_dual_violation']:.4f}")
    print_changes("what the oracles chose for the next master", state.next_changes())


def print_changes(title, changes, shown=4):
    """A table of changes (``state.describe()``), its first lines, the columns that apply to them."""
    if not len(changes):
        print(f"  {title}: nothing")
        return
    print(f"  {title} ({len(changes)} change{'s' if len(changes) > 1 else ''}):")
    table = changes.head(shown).dropna(axis=1, how="all").to_string(index=False, float_format=plain_number)
    print("\n".join("    " + line for line in table.splitlines()))
    if len(changes) > shown:
        print(f"    ... {len(changes) - shown} more")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true", help="fewer samples")
    parser.add_argument("--plot", help="save the history plot to this PNG file")
    parser.add_argument("--steps-plot", help="save the steps' picture (plot_steps) to this PNG file")
    parser.add_argument("--state-html", help="save how a notebook shows the fifth state to this HTML file")
    args = parser.parse_args()

    X, y = make_blobs(n_samples=60 if args.fast else 300, centers=3, cluster_std=2.5, random_state=0)
    y = np.array(["blue", "green", "red"])[y]   # the class labels the tables show
    clf = MRCClassifier(regime="nm", n_max=5, m_max=2, eps_1=0.0, eps_2=0.0)
    states = []
    for state in clf.steps(X, y):   # in a notebook: steps = clf.steps(X, y), then next(steps) per cell
        show(state)
        states.append(state)
        if args.state_html and state.iteration == 5:
            Path(args.state_html).write_text(state._repr_html_())
    print("\nthe steps, a line each (repr(state)):")
    print("\n".join(repr(state) for state in states))
    print(f"the last master: {clf.master_!r}")
    print(f"\n{clf.status_} after {clf.n_iter_} iterations: R* = {clf.upper_:.6f}")
    print(f"mu (rows: classes {clf.classes_.tolist()}, columns: intercept, x0, x1):")
    print(np.array2string(clf.mu_, precision=4))
    try:   # the two pictures (the gallery of the guide shows them; --plot and --steps-plot save them)
        import matplotlib
    except ImportError:
        matplotlib = None
    if matplotlib is not None:
        if args.plot or args.steps_plot:
            matplotlib.use("Agg")
        from mrc_pyomo import plot_history, plot_steps
        for path, plot, source in ((args.plot, plot_history, clf), (args.steps_plot, plot_steps, states)):
            figure = plot(source)
            if path:
                figure.savefig(path, dpi=100)
                print(f"{plot.__name__} saved to {path}")

    print("\nthe same fit with verbose=2 prints the iteration log, a line per master:")
    MRCClassifier(regime="nm", n_max=5, m_max=2, eps_1=0.0, eps_2=0.0, verbose=2).fit(X, y)


if __name__ == "__main__":
    main()
