"""``python -m mrc_pyomo``: fit an MRC by constraint and column generation on scikit-learn's digits data set.

Prints the iteration log (within 100 columns; ``--wide-log``: every column), the certified worst-case error
``upper_`` and where the time went.
"""

import argparse
import time

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from . import MRCClassifier
from .cli.help import PlainFormatter
from .display.log import time_split


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m mrc_pyomo", description=__doc__, formatter_class=PlainFormatter)
    parser.add_argument("--solver", default="highs",
                        help="'highs' (the built-in HiGHS backend, default) or any Pyomo LP solver name")
    parser.add_argument("--eps-1", type=float, default=1e-3, help="target of the certified gap (default 1e-3)")
    parser.add_argument("--wide-log", action="store_true",
                        help="the iteration log with every column (122 characters; the estimator's verbose=3)")
    args = parser.parse_args(argv)

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    scaler = StandardScaler().fit(X_train)
    X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    print(f"digits: {X_train.shape[0]} training samples, {X_train.shape[1]} features, 10 classes")

    start = time.perf_counter()
    clf = MRCClassifier(solver=args.solver, eps_1=args.eps_1, verbose=3 if args.wide_log else 2).fit(X_train, y_train)
    seconds = time.perf_counter() - start

    h = clf.history_
    print(f"\nminimax risk R* in [{clf.lower_:.6f}, {clf.upper_:.6f}] (certified in NumPy)")
    print(f"the rule's worst-case error probability R(mu) = {clf.upper_:.6f}")
    print(f"test error = {1 - clf.score(X_test, y_test):.4f}")
    print(f"fit: {seconds:.2f} s, {clf.n_iter_} iterations; {time_split(h)}")


if __name__ == "__main__":
    main()
