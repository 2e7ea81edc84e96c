"""Run one (case, method) in this process and print one JSON record on the last line of stdout.

    python -m benchmarks.harness.run_case CASE METHOD [--quick] [--fraction F] [--classes K] [--time-limit S]
                                                     [--cold-time-limit S] [--cold {both,minimal,none}]
                                                     [--formulation {paper,compact}]

METHOD: ccg (MRC-CCG, ours), lp (the full LP solved by HiGHS), subgradient (MRC-SUB), fom (MRC-FOM: the
first-order method, then MRC-CCG from its active rows for the certificate), path (MRC-CCG along
:data:`mrc_pyomo.estimator.path.DEFAULT_LAMBDA0S` with :func:`mrc_pyomo.mrc_path`: the record of its last stage, with
the table of all stages as ``stages``).

After an MRC-CCG fit the record also holds the *limit ratio* (:func:`cold_solves`): the fit time over the
time of one cold solve of the fit's final restricted master with the best of a few HiGHS methods.  It is
what the column generation costs against an oracle that knew the final rows and features from the start.  Beside
it, the *minimal ratio* (:func:`minimal_solves`): the fit time over one cold solve of the smallest master that
certifies, the final master without its rows of zero dual, the floor of any generation method (a loop that keeps
every row a phase named has a flattering limit ratio).  ``--cold minimal`` solves the latter alone, ``--cold none``
neither.

It writes no file.  A case whose data set is missing (:data:`benchmarks.harness.cases.DATA_SETS`) stops it
before any fit, exit status 2, with the way to get the data (:func:`benchmarks.data.require`).
"""

import argparse
import copy
import json
import resource
import sys
import time

import numpy as np
from sklearn.model_selection import train_test_split

from benchmarks.data import require
from benchmarks.harness.cases import CASES, data_sets, many_classes
from benchmarks.harness.environment import versions
from mrc_pyomo import MRCClassifier, mrc_path
from mrc_pyomo.cli.arguments import FIRST_ORDER
from mrc_pyomo.master import MasterSolveError
from mrc_pyomo.master.dual_lp import WarmDualBackend
from mrc_pyomo.master.highs_backend import HighsBackend
from mrc_pyomo.master.solver_backends import make_backend

# HiGHS methods for the cold solves of the final master: name -> options set on a fresh copy
COLD_METHODS = {
    "dual_simplex": {"solver": "simplex", "simplex_strategy": 1},   # HiGHS's default for LPs
    "ipm": {"solver": "ipm"},                                       # IPX, then crossover to a basis
    "ipm_no_crossover": {"solver": "ipm", "run_crossover": "off"},
}


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cold_solves(master, fit_seconds, time_limit=None):
    """Solve fresh copies of the fitted ``master`` (a :class:`~mrc_pyomo.master.RestrictedMaster`) with each
    method of :data:`COLD_METHODS`, in this process, and return the record's fields for the limit ratio.

    Each copy is ``copy.deepcopy(master)``: a new HiGHS instance loaded from the master's arrays, so nothing
    of the fit's basis is left (the copy is built before the clock starts; only ``solve()`` is timed).  It
    runs with the fit's own solver options plus the method's; the feasibility tolerances that ``refine()``
    may have tightened on the fit's instance are not carried over (they are not among the master's
    options), so every method solves at HiGHS's default tolerances.  A solve well under a second is repeated
    on fresh copies (up to five times, about a second in all) and the fastest kept.  Each solve is capped at
    ``time_limit`` seconds (default: the fit time), so that a pathological one cannot hang the harness: a
    solve stopped without an optimum has ``cold_objective`` None, its ``cold_status`` says why and its
    ``cold_seconds`` are only a lower bound.  ``limit_ratio = fit_seconds / cold_best_seconds``, the best over
    the methods that reached an optimum; if none did it is None and ``limit_ratio_bound = fit_seconds /
    time_limit`` bounds it from above.  The copies are in the primal form (eq. 7) and, for a master the fit solved in
    its dual form (:class:`~mrc_pyomo.master.dual_lp.WarmDualBackend`), in that form too (methods prefixed
    ``dual_lp_``): the floor is the faster form's.
    """
    cap = fit_seconds if time_limit is None else time_limit
    seconds, status, objective, repeats = {}, {}, {}, {}
    forms = [("", HighsBackend)] + ([("dual_lp_", type(master.backend))]
                                    if isinstance(master.backend, WarmDualBackend) else [])
    methods = [(prefix + name, backend, options) for prefix, backend in forms for name, options in COLD_METHODS.items()]
    for name, backend, options in methods:
        times = []
        while not times or (sum(times) < 1.0 and len(times) < 5):
            cold = in_form(master, backend)
            for option, value in options.items():
                cold.set_solver_option(option, value)
            tic = time.perf_counter()
            try:
                solution = cold.solve(time_limit=cap)
            except MasterSolveError:
                solution = None
            elapsed = time.perf_counter() - tic
            status[name] = cold.solver_status
            del cold
            if solution is None:   # the cap (or a failure): this time bounds the method's from below
                times, objective[name] = [elapsed], None
                break
            times.append(elapsed)
            objective[name] = float(solution.objective)
        seconds[name], repeats[name] = min(times), len(times)
    solved = {name: t for name, t in seconds.items() if objective[name] is not None}
    best = min(solved, key=solved.get) if solved else None
    fields = {"cold_seconds": seconds, "cold_status": status, "cold_objective": objective,
              "cold_repeats": repeats, "cold_time_limit": cap, "cold_best": best,
              "cold_best_seconds": solved.get(best), "limit_ratio": fit_seconds / solved[best] if best else None}
    if best is None:
        fields["limit_ratio_bound"] = fit_seconds / cap
    return fields


def in_form(master, backend):
    """A fresh copy of ``master`` (``copy.deepcopy``: a new solver instance loaded from its arrays) whose solver takes
    it by the backend class ``backend`` (the built-in solver's forms; another solver's master: its own)."""
    cold = copy.deepcopy(master)
    if isinstance(cold.backend, (HighsBackend, WarmDualBackend)) and type(cold.backend) is not backend:
        cold.backend = make_backend(cold.solver, cold.objective_floor, cold.solver_options, backend)
        cold.backend.load(cold)
    return cold


#: an item whose dual is at most this (relative to the largest) is slack at the fit's final master
ZERO_DUAL = 1e-9


def minimal_master(master):
    """The smallest master that certifies, as far as the fit tells: a copy of its final ``master`` without the items
    of zero dual (at most :data:`ZERO_DUAL` of the largest).  An LP keeps its optimum when rows slack at it are
    dropped (the optimal duals stay feasible, and the primal optimum too), so no generation method can end with a
    master cheaper to solve than this one: it is the floor that every certificate is measured against."""
    alpha = np.asarray(master.solution.alpha)
    minimal = copy.deepcopy(master)
    minimal.remove_rows(alpha <= ZERO_DUAL * alpha.max(initial=0.0))
    return minimal


def minimal_solves(master, fit_seconds, time_limit=None):
    """The record's fields of the minimal master (:func:`minimal_master`): its items, its cold solves by each method of
    :data:`COLD_METHODS` (:func:`cold_solves`, same caps and repeats, fields prefixed ``minimal_``), whether its value
    is the final master's (``minimal_objective_matches``, to 1e-7 relative) and ``minimal_ratio`` = fit seconds over
    its best cold solve (None if no method solved it within the cap: ``minimal_ratio_bound`` then bounds it)."""
    minimal = minimal_master(master)
    fields = cold_solves(minimal, fit_seconds, time_limit)
    final = float(master.solution.objective)
    values = [value for value in fields["cold_objective"].values() if value is not None]
    record = {f"minimal_{name.removeprefix('cold_')}": value for name, value in fields.items()
              if name.startswith("cold_")}
    record.update(minimal_rows=int(minimal.n_rows), final_rows=int(master.n_rows),
                  minimal_ratio=fields["limit_ratio"], minimal_objective_matches=bool(values) and all(
                      abs(value - final) <= 1e-7 * max(1.0, abs(final)) for value in values))
    if "limit_ratio_bound" in fields:
        record["minimal_ratio_bound"] = fields["limit_ratio_bound"]
    return record


def waste(history, final_rows, cold_best_seconds=None):
    """The waste decomposition of an MRC-CCG fit (``history``: its ``history_``): where the time went beyond one
    cold solve of its final master (``final_rows`` rows; ``cold_best_seconds``, None if not measured).

    ``masters``; the rows added, dropped (removed again) and re-added (added after this fit had removed them:
    the churn, work done twice) over the fit, against the final master's rows; the solver's seconds in all and
    per phase (the first master; then per stage ``lambda0`` and loop phase: ``"ccg"``, or ``"features"`` for the
    first column-generation rounds of the regime ``"nm"``, ``features_only``), the oracles' and updates' seconds;
    and the masters whose solve alone took longer than the cold solve of the final master, with their seconds."""
    solve = history.seconds_solve.to_numpy()
    phases = {"first master": float(solve[0])} if len(solve) else {}
    rest = history.iloc[1:]
    loop_phase = rest.features_only.map({True: "features", False: "ccg"}) if "features_only" in rest else "ccg"
    for (lambda0, phase), group in rest.assign(loop_phase=loop_phase).groupby(["lambda0", "loop_phase"], sort=False):
        name = phase if rest.lambda0.nunique() == 1 else f"lambda0={lambda0:.3g} {phase}"
        phases[name] = float(group.seconds_solve.sum())
    fields = {"masters": len(history), "rows_added": int(history.rows_added.sum()),
              "rows_dropped": int(history.rows_removed.sum()), "rows_readded": int(history.rows_readded.sum()),
              "final_rows": int(final_rows), "seconds_solve": float(solve.sum()),
              "seconds_other": float(history.seconds_oracle.sum() + history.seconds_update.sum()),
              "solve_by_phase": phases}
    if cold_best_seconds:
        slow = solve[solve > cold_best_seconds]
        fields.update(slower_than_cold=int(len(slow)), seconds_slower_than_cold=float(slow.sum()))
    return fields


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("method", choices=["ccg", "lp", "subgradient", "fom", "pdhg", "path"])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--fraction", type=float, default=1.0, help="fraction of the training samples used")
    parser.add_argument("--classes", type=int, help="number of classes (many_classes only)")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    parser.add_argument("--eps-1", type=float, default=1e-3, help="the library's default")
    parser.add_argument("--subgradient-iterations", type=int, default=10_000)
    parser.add_argument("--continuation", action="store_true", help="MRC-CCG through larger lambda0 first")
    parser.add_argument("--regime", choices=["auto", "n", "nm"], default="auto", help="MRC-CCG's regime")
    parser.add_argument("--first-order", choices=list(FIRST_ORDER), default="auto",
                        help="MRC-CCG's first-order phase (the estimator's first_order: 'auto', True, False)")
    parser.add_argument("--formulation", choices=["paper", "compact"], default="paper",
                        help="the master's formulation (MRC-CCG, the full LP and the path)")
    parser.add_argument("--cold-time-limit", type=float,
                        help="cap on each cold solve of the final master (MRC-CCG; default: the fit time)")
    parser.add_argument("--cold", choices=["both", "minimal", "none"], default="both",
                        help="which masters are solved cold after the fit: the final and the minimal, the minimal "
                             "alone (the floor, without the limit ratio), or none")
    args = parser.parse_args(argv)
    require(data_sets([args.case]))   # run alone, a missing data set stops it here (the harness checked before)

    if args.case == "many_classes" and args.classes:
        X, y, params = many_classes(args.quick, n_classes=args.classes)
    else:
        X, y, params = CASES[args.case](args.quick)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    if args.fraction < 1.0:
        X_train, _, y_train, _ = train_test_split(X_train, y_train, train_size=args.fraction, random_state=0,
                                                  stratify=y_train)
    rss_data = peak_rss_mb()

    stages = None
    if args.method == "path":
        start = time.perf_counter()
        path = mrc_path(X_train, y_train, eps_1=args.eps_1, time_limit=args.time_limit,
                        formulation=args.formulation, **params)
        seconds = time.perf_counter() - start
        clf = [estimator for estimator in path.estimators if estimator is not None][-1]   # the last reached
        stages = path.table.to_dict(orient="records")
    elif args.method == "ccg":
        clf = MRCClassifier(eps_1=args.eps_1, time_limit=args.time_limit, continuation=args.continuation,
                            regime=args.regime, formulation=args.formulation,
                            first_order=FIRST_ORDER[args.first_order], **params)
    elif args.method in ("fom", "pdhg"):
        clf = MRCClassifier(method=args.method, eps_1=args.eps_1, time_limit=args.time_limit, regime=args.regime,
                            formulation=args.formulation, **params)
    elif args.method == "lp":
        clf = MRCClassifier(method="lp", formulation=args.formulation, time_limit=args.time_limit, **params)
    else:
        clf = MRCClassifier(method="subgradient", max_iter=args.subgradient_iterations,
                            time_limit=args.time_limit, **params)
    if stages is None:
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
        "eps_1": args.eps_1 if args.method in ("ccg", "fom", "pdhg", "path") else None,
        "regime": getattr(clf, "regime_", None),
        "continuation": args.continuation, "time_limit": args.time_limit, "formulation": args.formulation,
        "first_order": args.first_order if args.method == "ccg" else None,
        "versions": versions(),
    }
    if stages is not None:
        record["stages"] = stages
    elif args.method in ("ccg", "fom", "pdhg"):
        record.update(seconds_oracle=float(h.seconds_oracle.sum()), seconds_update=float(h.seconds_update.sum()),
                      seconds_solve=float(h.seconds_solve.sum()),
                      trace=[[float(t), float(r)] for t, r in zip(h.seconds_elapsed, h.R_mu)],
                      trace_master=[[float(t), float(r)] for t, r in zip(h.seconds_elapsed, h.R_master)
                                    if r == r])
        first = h[h.phase == "first-order"]
        if len(first):   # the phases: first-order iterations, then the masters
            record["route"] = [name for name, column in (("FISTA", "beta"), ("PDHG", "omega"))
                               if column in first and first[column].notna().any()]
            record.update(first_order_iterations=len(first),
                          first_order_seconds=float(first.seconds_elapsed.iloc[-1]),
                          first_order_R=float(first.upper.iloc[-1]),
                          trace_best=[[float(t), float(r)] for t, r in zip(h.seconds_elapsed, h.upper)])
        if args.cold != "none" and clf.master_ is not None and clf.master_.capabilities.limits_inside_solve:
            cap = seconds if args.cold_time_limit is None else min(seconds, args.cold_time_limit)
            if args.cold == "both":
                record.update(cold_solves(clf.master_, seconds, cap))
            if clf.master_.solution is not None:
                record.update(minimal_solves(clf.master_, seconds, cap))
            record["peak_mb_cold"] = peak_rss_mb()   # peak_mb stays the fit's
        loop = h[h.phase != "first-order"]   # the masters' records
        record["waste"] = waste(loop, clf.master_.n_rows if clf.master_ is not None else 0,
                                record.get("cold_best_seconds"))
    elif args.method == "subgradient":
        step = max(1, len(h) // 400)
        record["trace"] = [[float(t), float(r)] for t, r in zip(h.seconds_elapsed[::step], h.upper[::step])]
    print(json.dumps(record))


if __name__ == "__main__":
    sys.exit(main())
