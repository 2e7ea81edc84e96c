"""Constraint and column generation, step by step, on a small MRC.

Each iteration solves the restricted master P_IJ, then the oracles find the most violated rows (a sample and
a label subset) and, in the "nm" regime, the most violated features.  The fit is stepped
(``clf.steps(X, y)``: one iteration per step, as a notebook cell would take it) and each step printed: the
first master as an LP, then the master's size, values, violations and what changes next.  The history is
plotted.  Then the same fit runs with ``verbose=2``,
which prints the iteration log (``verbose=1`` shows a live progress line instead).

    python examples/tutorial.py [--fast] [--plot tutorial.png]
"""

import argparse
import tempfile
from pathlib import Path

import numpy as np
from sklearn.datasets import make_blobs

from mrc_pyomo import MRCClassifier
from mrc_pyomo.formulations.paper import subset_label


def show(state):
    r = state.record
    print(f"\n--- iteration {state.iteration}: master with {r['n_rows']} rows, {r['n_features']} features")
    print(f"    R^k = {r['R_master']:.6f} (master), R(mu^k) = {r['R_mu']:.6f} (certified), nu = {state.nu:.4f}")
    if state.iteration == 1:
        with tempfile.TemporaryDirectory() as tmp:
            path = state.master.write(Path(tmp) / "master.lp")
            lines = Path(path).read_text().splitlines()
        first_row = lines.index("s.t.") + 2
        print("    the first master, as written to an .lp file (objective and first row):")
        print("\n".join("      " + line for line in lines[2:first_row] + lines[first_row:first_row + 9]))
    samples, subsets = state.next_rows
    v = state.primal_violations
    print(f"    largest row violation psi(x_i) + 1 - nu: {v.max():.4f}; "
          f"samples violated: {(v > 1e-9).sum()}")
    for i, C in list(zip(samples, subsets))[:3]:
        print(f"      next row: sample x{i}, subset {subset_label(C)}, violation {v[i]:.4f}")
    if len(samples) > 3:
        print(f"      ... {len(samples)} rows in all")
    if len(state.next_features):
        print(f"    next features (flat ids y*D+j): {state.next_features[:6]}")
    if state.next_removed.any():
        print(f"    rows to remove (negative violation, zero dual): {int(state.next_removed.sum())}")
    print(f"    certified interval: R* in [{state.lower:.6f}, {state.upper:.6f}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true", help="fewer samples")
    parser.add_argument("--plot", help="save the history plot to this PNG file")
    args = parser.parse_args()

    X, y = make_blobs(n_samples=60 if args.fast else 300, centers=3, cluster_std=2.5, random_state=0)
    clf = MRCClassifier(regime="nm", n_max=5, m_max=2, eps_1=0.0, eps_2=0.0)
    for state in clf.steps(X, y):   # in a notebook: steps = clf.steps(X, y), then show(next(steps)) per cell
        show(state)
    print(f"\n{clf.status_} after {clf.n_iter_} iterations: R* = {clf.upper_:.6f}")
    print("mu (rows: classes, columns: intercept, x1, x2):")
    print(np.array2string(clf.mu_, precision=4))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        from mrc_pyomo import plot_history
        plot_history(clf).savefig(args.plot, dpi=100)
        print(f"history plot saved to {args.plot}")

    print("\nthe same fit with verbose=2 prints the iteration log, a line per master:")
    MRCClassifier(regime="nm", n_max=5, m_max=2, eps_1=0.0, eps_2=0.0, verbose=2).fit(X, y)


if __name__ == "__main__":
    main()
