"""What three of the estimator's conveniences cost or save, measured from outside.

    python -m benchmarks.experiments.estimator_costs [--repeat R] [--part {cv,warm,continuation,all}]

1. ``MRCClassifierCV(n_jobs=...)`` on small data (scikit-learn's iris, ``cv=5``, the default grid): each fit in a
   fresh interpreter (``python -c``), so that joblib's workers start as a user's would, ``n_jobs=1`` and
   ``n_jobs=2`` taking turns ``R`` times; the wall seconds of each and their medians.
2. ``MRCClassifier(warm_start=True)``: the masters of a fit at ``lambda0 = 0.01`` from scratch and warm-started
   from a fit at ``0.02``, on scikit-learn's digits (standardised) and on 2,000 generated samples of 4 classes
   (``make_classification``, 20 features), with both fits' certified intervals.
3. ``MRCClassifier(continuation=True)`` with the route's first-order phases (which replace continuation's stages)
   and without them (``first_order=False``: the loop through the stages), taking turns ``R`` times in this process,
   on 30 Gaussian classes (the harness's ``many_classes``, 2,500 samples), ``eps_1 = 1e-6``; each fit's seconds and
   interval, then the medians.
"""

import argparse
import statistics
import subprocess
import sys
import time
import warnings

from sklearn.datasets import load_digits, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier

#: one cross-validation, run in a fresh interpreter
CV_SCRIPT = ("import warnings; warnings.simplefilter('ignore'); from sklearn.datasets import load_iris; "
             "from mrc_pyomo import MRCClassifierCV; X, y = load_iris(return_X_y=True); "
             "MRCClassifierCV(cv=5, n_jobs={n_jobs}).fit(X, y)")


def cross_validation(repeat):
    """Part 1 (module docstring): a line per run, then the medians."""
    seconds = {1: [], 2: []}
    for _ in range(repeat):
        for n_jobs in seconds:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", CV_SCRIPT.format(n_jobs=n_jobs)], check=True)
            seconds[n_jobs].append(time.perf_counter() - start)
            print(f"iris, cv=5, n_jobs={n_jobs}: {seconds[n_jobs][-1]:.2f} s", flush=True)
    print("medians: " + ", ".join(f"n_jobs={n} {statistics.median(s):.2f} s" for n, s in seconds.items()), flush=True)


def warm_start():
    """Part 2 (module docstring): a line per data set."""
    digits_X, digits_y = load_digits(return_X_y=True)
    cases = {"digits": (StandardScaler().fit_transform(digits_X), digits_y),
             "2,000 x 20, 4 classes": make_classification(2000, 20, n_informative=10, n_classes=4, random_state=0)}
    for name, (X, y) in cases.items():
        cold = MRCClassifier(lambda0=0.01, first_order=False).fit(X, y)
        warm = MRCClassifier(lambda0=0.02, warm_start=True).fit(X, y).set_params(lambda0=0.01).fit(X, y)
        print(f"{name}: masters cold {cold.n_iter_}, warm {warm.n_iter_}; R* in [{cold.lower_:.6f}, "
              f"{cold.upper_:.6f}] cold, [{warm.lower_:.6f}, {warm.upper_:.6f}] warm", flush=True)


def continuation(repeat):
    """Part 3 (module docstring): a line per fit, then the medians."""
    from benchmarks.harness.cases import many_classes
    X, y, params = many_classes(True, n_classes=30, n_samples=2500)
    seconds = {"with the phases": [], "the loop alone": []}
    for _ in range(repeat):
        for name, extra in zip(seconds, ({}, {"first_order": False})):
            start = time.perf_counter()
            clf = MRCClassifier(continuation=True, eps_1=1e-6, **extra, **params).fit(X, y)
            seconds[name].append(time.perf_counter() - start)
            print(f"continuation, {name}: {seconds[name][-1]:.2f} s, {clf.status_} [{clf.lower_:.8f}, "
                  f"{clf.upper_:.8f}], {clf.n_iter_} iterations", flush=True)
    print("medians: " + ", ".join(f"{n} {statistics.median(s):.2f} s" for n, s in seconds.items()), flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--part", choices=["cv", "warm", "continuation", "all"], default="all")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", ConvergenceWarning)
    if args.part in ("cv", "all"):
        cross_validation(args.repeat)
    if args.part in ("warm", "all"):
        warm_start()
    if args.part in ("continuation", "all"):
        continuation(args.repeat)


if __name__ == "__main__":
    main()
