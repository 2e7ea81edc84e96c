"""
The same MRC with three LP solvers: HiGHS (bulk default path), GLPK and CBC (through Pyomo)
===========================================================================================

Each solves every restricted master of MRC-CCG to a certified gap of 1e-6 (eps_1; eps_2 = 0), so each
reaches the minimax risk R* to that precision: CBC writes its solution with 8 digits, and asked for less it
would say so (status "stalled").  The script prints R* and the fit time per solver and checks that they agree
to 1e-6.  Solvers that are not installed are skipped (GLPK and CBC: apt-get install glpk-utils coinor-cbc).
Licensed solvers ("gurobi", "cplex", "xpress", or their "_direct" / "_persistent" interfaces) work the same way
when present.

    python examples/solver_switching.py [--fast]
"""

import argparse
import time

import pyomo.environ as pyo
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier

SOLVERS = ["highs", "appsi_highs", "glpk", "cbc"]
#: the certified gap each fit reaches
EPS_1 = 1e-6


def available(solver):
    return solver == "highs" or pyo.SolverFactory(solver).available(exception_flag=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true", help="subsample the data sets")
    args = parser.parse_args()
    datasets = {"breast_cancer": load_breast_cancer(return_X_y=True), "wine": load_wine(return_X_y=True)}
    for name, (X, y) in datasets.items():
        if args.fast:
            X, y = X[::4], y[::4]
        X = StandardScaler().fit_transform(X)
        print(f"{name}: {X.shape[0]} samples, {X.shape[1]} features, {len(set(y))} classes")
        values = {}
        for solver in SOLVERS:
            if not available(solver):
                print(f"  {solver:12s} not installed: skipped")
                continue
            start = time.perf_counter()
            clf = MRCClassifier(solver=solver, eps_1=EPS_1, eps_2=0.0).fit(X, y)
            values[solver] = clf.upper_
            print(f"  {solver:12s} R* = {clf.upper_:.10f}   {time.perf_counter() - start:6.2f} s   "
                  f"{clf.n_iter_} iterations   {clf.status_}")
            assert clf.status_ == "converged", f"{solver}: {clf.status_}"
        spread = max(values.values()) - min(values.values())
        print(f"  largest difference between solvers: {spread:.1e}")
        assert spread <= 1e-6, "the solvers disagree"


if __name__ == "__main__":
    main()
