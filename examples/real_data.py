"""
Fit MRC-CCG on data sets stored as ``<name>.csv.gz`` (a ``label`` column, the rest features) in a folder (all samples, standardised) with the defaults
======================================================================================================================================================

For each data set it prints the certified interval ``lower_ <= R* <= upper_`` that the fit proves in NumPy,
its gap, the fit time, the iterations and the share of time in oracles, model updates and solver.  A name
ending in ``+rff`` adds 400 random Fourier features (the paper's setting for tabular data); ``--exact`` also
runs eps_1 = eps_2 = 0 and ``--full-lp`` the full LP.

    python examples/real_data.py satellite dry_bean optdigits pulsar+rff --data-dir DIR

(``DIR``, or the environment variable ``MRC_DATA_DIR``: the folder of the files, e.g. the benchmark data
sets the harness reads.)
"""

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mrc_pyomo import MRCClassifier


def load(data_dir, name):
    df = pd.read_csv(Path(data_dir) / f"{name}.csv.gz")
    X = df.drop(columns="label").to_numpy(dtype=float)
    std = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0), df["label"].to_numpy()


def fit(X, y, **params):
    start = time.perf_counter()
    clf = MRCClassifier(**params).fit(X, y)
    return clf, time.perf_counter() - start


def interval(clf):
    return f"R* in [{clf.lower_:.10f}, {clf.upper_:.10f}], certified gap {clf.upper_ - clf.lower_:.2e}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+")
    parser.add_argument("--data-dir", default=os.environ.get("MRC_DATA_DIR"), required="MRC_DATA_DIR" not in os.environ,
                        help="the folder of the <name>.csv.gz files (default: $MRC_DATA_DIR)")
    parser.add_argument("--exact", action="store_true", help="also fit with eps_1 = eps_2 = 0")
    parser.add_argument("--full-lp", action="store_true", help="also solve the full LP (slow)")
    args = parser.parse_args()
    for name in args.names:
        data, _, rff = name.partition("+")
        X, y = load(args.data_dir, data)
        params = {"phi": "fourier", "random_state": 0} if rff else {}
        clf, seconds = fit(X, y, **params)
        h = clf.history_
        total = h[["seconds_oracle", "seconds_update", "seconds_solve"]].sum()
        print(f"{name}: n={X.shape[0]} d={X.shape[1]} K={len(clf.classes_)} D={clf.mu_.shape[1]}")
        print(f"  defaults (eps_1 = {clf.eps_1:g}): {clf.status_}, {interval(clf)}, {clf.n_iter_} iterations, "
              f"fit {seconds:.2f} s")
        print(f"  time: oracles {total.seconds_oracle:.3f} s ({total.seconds_oracle / seconds:.0%}), "
              f"model updates {total.seconds_update:.3f} s ({total.seconds_update / seconds:.0%}), "
              f"solver {total.seconds_solve:.3f} s ({total.seconds_solve / seconds:.0%})")
        if args.exact:
            exact, exact_seconds = fit(X, y, eps_1=0.0, eps_2=0.0, **params)
            print(f"  eps = 0: {exact.status_}, {interval(exact)}, {exact.n_iter_} iterations, "
                  f"fit {exact_seconds:.2f} s")
        if args.full_lp:
            lp, lp_seconds = fit(X, y, method="lp", **params)
            print(f"  full LP: {lp.status_}, {interval(lp)}, {lp_seconds:.1f} s")


if __name__ == "__main__":
    main()
