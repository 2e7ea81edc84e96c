"""Run one (case, method) in this process and print one JSON record on the last line of stdout.

    python -m benchmarks.run_case CASE METHOD [--quick] [--fraction F] [--classes K] [--time-limit S]

METHOD: ccg (MRC-CCG, ours), lp (the full LP solved by HiGHS), subgradient (MRC-SUB).
"""

import argparse
import json
import resource
import sys
import time

import numpy as np
from sklearn.model_selection import train_test_split

from benchmarks.cases import CASES, many_classes
from mrc_pyomo import MRCClassifier


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("method", choices=["ccg", "lp", "subgradient"])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--fraction", type=float, default=1.0, help="fraction of the training samples used")
    parser.add_argument("--classes", type=int, help="number of classes (many_classes only)")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    parser.add_argument("--eps-1", type=float, default=1e-3, help="the library's default")
    parser.add_argument("--subgradient-iterations", type=int, default=10_000)
    args = parser.parse_args(argv)

    if args.case == "many_classes" and args.classes:
        X, y, params = many_classes(args.quick, n_classes=args.classes)
    else:
        X, y, params = CASES[args.case](args.quick)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    if args.fraction < 1.0:
        X_train, _, y_train, _ = train_test_split(X_train, y_train, train_size=args.fraction, random_state=0,
                                                  stratify=y_train)
    rss_data = peak_rss_mb()

    if args.method == "ccg":
        clf = MRCClassifier(eps_1=args.eps_1, time_limit=args.time_limit, **params)
    elif args.method == "lp":
        clf = MRCClassifier(method="lp", **params)
    else:
        clf = MRCClassifier(method="subgradient", max_iter=args.subgradient_iterations,
                            time_limit=args.time_limit, **params)
    start = time.perf_counter()
    clf.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    h = clf.history_
    record = {
        "case": args.case, "method": args.method, "quick": args.quick, "fraction": args.fraction,
        "n": int(X_train.shape[0]), "d": int(X_train.shape[1]), "K": len(clf.classes_),
        "m": int(clf.mu_.size), "seconds": seconds, "R": clf.upper_, "lower": clf.lower_,
        "R_master": clf.objective_,
        "test_error": float(np.mean(clf.predict(X_test) != y_test)), "iterations": int(clf.n_iter_),
        "status": clf.status_, "peak_mb": peak_rss_mb(), "data_mb": rss_data,
        "eps_1": args.eps_1 if args.method == "ccg" else None, "regime": getattr(clf, "regime_", None),
    }
    if args.method == "ccg":
        record.update(seconds_oracle=float(h.seconds_oracle.sum()), seconds_update=float(h.seconds_update.sum()),
                      seconds_solve=float(h.seconds_solve.sum()),
                      trace=[[float(t), float(r)] for t, r in zip(h.seconds_elapsed, h.R_mu)],
                      trace_master=[[float(t), float(r)] for t, r in zip(h.seconds_elapsed, h.R_master)])
    elif args.method == "subgradient":
        step = max(1, len(h) // 400)
        record["trace"] = [[float(t), float(r)] for t, r in zip(h.seconds_elapsed[::step], h.upper[::step])]
    print(json.dumps(record))


if __name__ == "__main__":
    sys.exit(main())
