"""Each backend of the master on the same fits: R*, fit time and its split, one process, solvers in turn.

    python -m benchmarks.experiments.backends [--cases wine digits satellite] [--solvers highs appsi_highs glpk ...]
        [--repeat R]

Cases: scikit-learn's wine (178 x 13, 3 classes) and digits (1,797 x 64, 10 classes), and satellite (6,435 x 36, 6 classes, standardised, from
``../shared/data``), linear features, default parameters (``eps_1 = 1e-3``).  Per fit: the solver, the backend
(built-in HiGHS, a Pyomo persistent interface, or a Pyomo solver handed the model at each solve), the certified
interval, the iterations, the fit time and its split from ``history_``: oracles, model updates, building the
Pyomo model, handing it to the solver, the solver itself; then the fit time over the built-in backend's.  After
the built-in backend's fit: the rows the loop added and their terms in a Pyomo model (:func:`count_terms`).  A
solver that is not installed, or whose size-limited licence refuses the master, is reported and skipped.  With
``--repeat R`` the solvers take turns R times (so that a busy machine slows them alike), and a last line per case
gives each solver's median fit time over the built-in backend's median.
"""

import argparse
import statistics
import time
import warnings

import numpy as np

from sklearn.datasets import load_digits, load_wine
from sklearn.exceptions import ConvergenceWarning

from benchmarks.data import require
from benchmarks.harness.cases import tabular
from mrc_pyomo import MRCClassifier

CASES = {"wine": lambda: load_wine(return_X_y=True), "digits": lambda: load_digits(return_X_y=True),
         "satellite": lambda: tabular("satellite", False, 0, False)[:2]}
DATA_SETS = {"satellite": ["satellite"]}   # the data sets of benchmarks.data each case reads (wine: scikit-learn's)
SOLVERS = ["highs", "appsi_highs", "gurobi_persistent", "appsi_gurobi", "cplex_persistent", "glpk", "cbc"]


def count_terms(counts):
    """A ``callback`` adding to ``counts`` the rows each master added and their terms in a Pyomo model: two per
    nonzero of ``F`` (``mu1`` and ``mu2``), ``nu`` and the items' own columns, what a Pyomo backend builds and
    hands over."""
    def callback(state):
        samples, subsets = state.rows_added
        counts["rows"] += len(samples)
        lp = state.master.block(samples, subsets, state.master.features)
        counts["terms"] += 2 * lp.mu.nnz + np.count_nonzero(lp.nu) + lp.columns.nnz
    return callback


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=sorted(CASES))
    parser.add_argument("--solvers", nargs="+", default=SOLVERS)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    require([name for case in args.cases for name in DATA_SETS.get(case, [])])   # before any fit
    warnings.simplefilter("ignore", ConvergenceWarning)
    print("case       solver             backend            R (upper)    gap       it.   fit s  oracle  update"
          "   build handover   solve  x built-in")
    for case in args.cases:
        X, y = CASES[case]()
        reference, times = None, {}
        for _ in range(args.repeat):
            for solver in args.solvers:
                counts = {"rows": 0, "terms": 0}
                start = time.perf_counter()
                try:
                    clf = MRCClassifier(solver=solver, callback=count_terms(counts)).fit(X, y)
                except Exception as error:  # not installed, or a size-limited licence
                    print(f"{case:10s} {solver:18s} failed: {str(error).splitlines()[0][:90]}")
                    continue
                seconds = time.perf_counter() - start
                times.setdefault(solver, []).append(seconds)
                reference = seconds if solver == "highs" else reference
                h = clf.history_
                split = [h[c].sum() for c in ("seconds_oracle", "seconds_update", "seconds_build",
                                              "seconds_handover", "seconds_solve")]
                ratio = f"{seconds / reference:9.2f}" if reference else "        -"
                print(f"{case:10s} {solver:18s} {type(clf.master_.backend).__name__:18s} {clf.upper_:.6f} "
                      f"{clf.upper_ - clf.lower_:9.2e} {clf.n_iter_:5d} {seconds:7.2f} "
                      + " ".join(f"{v:7.2f}" for v in split) + f" {ratio}  {clf.status_}", flush=True)
                if solver == "highs":
                    print(f"{'':10s} {counts['rows']:,} rows added over {clf.n_iter_} masters for a final master of "
                          f"{clf.master_.n_rows}: {counts['terms']:,} terms for a Pyomo backend to build and hand over",
                          flush=True)
        if "highs" in times:
            base = statistics.median(times["highs"])
            print(f"{case:10s} median fit time over the built-in backend's: " + ", ".join(
                f"{solver} {statistics.median(t) / base:.2f}" for solver, t in times.items() if solver != "highs"),
                flush=True)


if __name__ == "__main__":
    main()
