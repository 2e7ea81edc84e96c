"""The default fit against each fixed route on a grid of small image problems and time limits: what the planner's
time limit buys (``mrc_pyomo/methods/plan.py``: a route of the loop alone gives way to MRC-PDHG's iterations at
``LOOP_SHARE`` of the limit).

    python -m benchmarks.experiments.route_grid [--sizes 500 1500 3000] [--limits 10 60 0] [--cap 300]
        [--routes default loop phases pdhg] [--record]

The first ``n`` images of mnist (pixels over 255, ten classes) for each size; each route fits them with each time
limit (0: none, the fit capped at ``--cap`` seconds), one fit after the other in this process (one core: run it with
single-threaded BLAS).  The routes: ``default`` (``first_order="auto"``), ``loop`` (``first_order=False``),
``phases`` (``first_order=True``: the route's phases, FISTA's then MRC-PDHG's on images) and ``pdhg``
(``method="pdhg"``).  Prints, per size and limit, each route's certified interval and seconds; ``--record`` appends
the rows to ``benchmarks/results/experiments.jsonl`` (experiment ``route_grid``; else ``benchmarks/runs/``), each
with the trace of its certified interval (seconds, lower, upper; at most about 200 points), from which the rule of
a route at any earlier time can be read.
"""

import argparse
import time
import warnings

from benchmarks.data import read, require
from benchmarks.harness.environment import versions
from benchmarks.harness.record_files import append, measured, records_file
from mrc_pyomo import MRCClassifier

#: the routes: name -> the estimator's parameters that fix it
ROUTES = {"default": {}, "loop": {"first_order": False}, "phases": {"first_order": True}, "pdhg": {"method": "pdhg"}}


def images(n):
    """``(X, y)``: the first ``n`` images of mnist, pixels in [0, 1]."""
    frame = read("mnist", nrows=n)
    return frame.drop(columns="label").to_numpy(dtype=float) / 255.0, frame["label"].to_numpy()


def fit(X, y, route, limit, cap):
    """One fit of ``route`` with the time limit ``limit`` (0: none, capped at ``cap``): its row of the table."""
    clf = MRCClassifier(time_limit=limit or cap, **ROUTES[route])
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y)
    history = clf.history_
    step = max(1, len(history) // 200)
    trace = [[float(t), float(lower), float(upper)] for t, lower, upper in
             zip(history.seconds_elapsed[::step], history.lower[::step], history.upper[::step])]
    return {"route": route, "limit": limit, "cap": cap, "seconds": time.perf_counter() - started,
            "status": str(clf.status_), "lower": float(clf.lower_), "upper": float(clf.upper_),
            "n_iter": int(clf.n_iter_), "phases": sorted(set(clf.history_.phase)), "trace": trace}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1500, 3000])
    parser.add_argument("--limits", type=float, nargs="+", default=[10.0, 60.0, 0.0])
    parser.add_argument("--cap", type=float, default=300.0)
    parser.add_argument("--routes", nargs="+", choices=list(ROUTES), default=list(ROUTES))
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    require(["mnist"])
    path, environment, rows = records_file("experiments.jsonl", args.record), versions(), 0
    for n in args.sizes:
        X, y = images(n)
        for limit in args.limits:
            for route in args.routes:   # each row appended as its fit ends: a run stopped keeps the fits it made
                row = {"experiment": "route_grid", "n": n, **fit(X, y, route, limit, args.cap)}
                append(path, measured(row, environment))
                rows += 1
                print(f"n={n:5d} limit={limit or 'none':>5} {route:8s} {row['status']:10s} "
                      f"[{row['lower']:.4f}, {row['upper']:.4f}] {row['seconds']:7.1f} s {row['n_iter']:6d} it. "
                      f"{'+'.join(row['phases'])}", flush=True)
    print(f"{rows} rows -> {path}")


if __name__ == "__main__":
    main()
