"""Fit MRC-CCG on the benchmark data sets of ../shared/data (all samples, linear features, standardised).

For each data set it runs MRC-CCG with eps_1 = eps_2 = 0, whose final master value R^k and certified R(mu)
bracket the minimax risk R* (R^k <= R* <= R(mu) in the large-n regime), and with the default eps, and
prints R*, upper_, the fit time, the iterations and the share of time in oracles, model updates and solver.

    python examples/real_data.py satellite dry_bean [--data-dir ../shared/data] [--full-lp]
"""

import argparse
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+")
    parser.add_argument("--data-dir", default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    parser.add_argument("--full-lp", action="store_true", help="also solve the full LP (slow)")
    args = parser.parse_args()
    for name in args.names:
        X, y = load(args.data_dir, name)
        exact, _ = fit(X, y, eps_1=0.0, eps_2=0.0)
        clf, seconds = fit(X, y)
        h = clf.history_
        total = h[["seconds_oracle", "seconds_update", "seconds_solve"]].sum()
        print(f"{name}: n={X.shape[0]} d={X.shape[1]} K={len(clf.classes_)}")
        print(f"  R* in [{exact.objective_:.10f}, {exact.upper_:.10f}] (MRC-CCG, eps = 0)")
        if args.full_lp:
            lp, lp_seconds = fit(X, y, method="lp")
            print(f"  full LP: R* = {lp.objective_:.10f} in {lp_seconds:.1f} s")
        print(f"  default eps: upper_ = {clf.upper_:.10f} (upper_ - R* <= {clf.upper_ - exact.objective_:.2e}), "
              f"R^k = {clf.objective_:.10f}, {clf.n_iter_} iterations, fit {seconds:.2f} s")
        print(f"  time: oracles {total.seconds_oracle:.3f} s ({total.seconds_oracle / seconds:.0%}), "
              f"model updates {total.seconds_update:.3f} s ({total.seconds_update / seconds:.0%}), "
              f"solver {total.seconds_solve:.3f} s ({total.seconds_solve / seconds:.0%})")


if __name__ == "__main__":
    main()
