"""Every master of a fit, against a cold solve of that same master: where the certificate's time goes.

    python -m benchmarks.experiments.certificate_masters CASE [--method ccg|pdhg|fom] [--first-order auto|on|off]
        [--time-limit S] [--cold-time-limit S] [--record]

Fits the harness's training split of CASE (:mod:`benchmarks.harness.cases`) one master at a time
(``MRCClassifier.steps``) and, after each master, solves fresh copies of it cold (no basis: a new HiGHS instance
loaded from the master's arrays) by HiGHS's dual simplex and by its interior point method
(:func:`benchmarks.harness.run_case.cold_solves`), so that each warm solve of the fit is set against what the same
master costs from scratch.  Prints, per master: its rows, the rows added, removed and added back (removed earlier by
the fit), the simplex iterations of its solve, its solve's seconds, the two cold solves' seconds, and the certified
interval; then the phase's seconds and the totals.  ``--record`` appends the table to
``benchmarks/results/experiments.jsonl`` (experiment ``certificate_masters``).  The cold solves are not part of the
fit's time (the clock of ``steps`` leaves out the time between two steps).
"""

import argparse
import copy
import json
import time

from sklearn.model_selection import train_test_split

from benchmarks.data import require
from benchmarks.harness.cases import CASES, data_sets
from benchmarks.harness.environment import versions
from benchmarks.harness.record_files import append, measured, records_file
from benchmarks.harness.run_case import COLD_METHODS, cold_solves
from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli.arguments import FIRST_ORDER


def cold(master, cap):
    """Seconds of a cold solve of a copy of ``master`` by the dual simplex and by the interior point method."""
    fields = cold_solves(copy.deepcopy(master), cap, cap)
    return {name: fields["cold_seconds"][name] for name in ("dual_simplex", "ipm")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--method", default="ccg", choices=["ccg", "pdhg", "fom"])
    parser.add_argument("--first-order", choices=list(FIRST_ORDER), default="auto")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--cold-time-limit", type=float, default=120.0)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    require(data_sets([args.case]))
    X, y, params = CASES[args.case](False)
    X_train, _, y_train, _ = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    options = {"first_order": FIRST_ORDER[args.first_order]} if args.method == "ccg" else {}
    clf = MRCClassifier(method=args.method, time_limit=args.time_limit, **options, **params)
    masters, phase, started = [], None, time.perf_counter()
    print(f"{args.case} {args.method} first_order={args.first_order}", flush=True)
    print("master   rows  +rows  -rows  again  simplex it.  solve s  cold dual s  cold IPM s  interval", flush=True)
    for state in clf.steps(X_train, y_train):
        if isinstance(state, dict):   # a first-order iteration
            phase = state
            continue
        record = state.record
        iterations = state.master.backend.highs.getInfo().simplex_iteration_count \
            if hasattr(state.master.backend, "highs") else None
        seconds = cold(state.master, args.cold_time_limit)
        row = {"iteration": int(record["iteration"]), "rows": int(record["n_rows"]),
               "added": int(record["rows_added"]), "removed": int(record["rows_removed"]),
               "readded": int(record["rows_readded"]), "simplex_iterations": iterations,
               "seconds_solve": float(record["seconds_solve"]), "cold_dual_simplex": seconds["dual_simplex"],
               "cold_ipm": seconds["ipm"], "lower": float(record["lower"]), "upper": float(record["upper"]),
               "status": record["solver_status"]}
        masters.append(row)
        print(f"{row['iteration']:6d} {row['rows']:6d} {row['added']:6d} {row['removed']:6d} {row['readded']:6d} "
              f"{iterations if iterations is not None else '-':>12} {row['seconds_solve']:8.2f} "
              f"{row['cold_dual_simplex']:12.2f} {row['cold_ipm']:11.2f}  [{row['lower']:.5f}, {row['upper']:.5f}]",
              flush=True)
    summary = {"experiment": "certificate_masters", "case": args.case, "method": args.method,
               "first_order": args.first_order, "status": str(clf.status_), "lower": clf.lower_,
               "upper": clf.upper_, "fit_seconds": float(clf.history_.seconds_elapsed.iloc[-1]),
               "phase_seconds": None if phase is None else float(phase["seconds_elapsed"]),
               "phase_iterations": 0 if phase is None else int(phase["iteration"]), "masters": masters,
               "methods": list(COLD_METHODS)[:2], "wall_seconds": time.perf_counter() - started}
    solve = sum(row["seconds_solve"] for row in masters)
    print(f"{clf.status_}: [{clf.lower_:.5f}, {clf.upper_:.5f}] in {summary['fit_seconds']:.1f} s: phase "
          f"{summary['phase_seconds'] or 0:.1f} s ({summary['phase_iterations']} iterations), {len(masters)} masters "
          f"{solve:.1f} s; the last master cold: dual simplex {masters[-1]['cold_dual_simplex']:.2f} s, IPM "
          f"{masters[-1]['cold_ipm']:.2f} s" if masters else f"{clf.status_}: no master", flush=True)
    summary = measured(summary, versions())
    append(records_file("experiments.jsonl", args.record), summary)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
