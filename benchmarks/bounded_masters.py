"""Does the row ``lambda.(mu1 + mu2) <= rho`` in every restricted master help?

    python -m benchmarks.bounded_masters                       # all cases, 3 repetitions
    python -m benchmarks.bounded_masters --cases satellite optdigits --repeat 5
    python -m benchmarks.bounded_masters --repeat-case mnist=1  # fewer repetitions for one slow case

The switch is :data:`mrc_pyomo.ccg.BOUNDED_MASTERS` (read by ``fit_ccg`` at each call): True puts the row in
every master, with ``rho = R(0)`` at first, tightened to the best certified ``R`` found; False leaves it out.
For each case, ``MRCClassifier(**params)`` (default eps_1 = 1e-3) is fitted on all the data of the case with
the row (A) and without (B), alternating A B A B ... in this process, ``--repeat`` times each; the fits are
preceded by one small warm-up fit so that neither setting pays for the first import and solver start.

Reported per case and setting: the median fit seconds, the iterations (``n_iter_``), the status, the final
``upper_ - lower_``, the totals of ``history_`` (solve, oracle and update seconds; the largest and the last
master's rows and features), ``R(mu^k)`` of the first 5 masters and the first iteration whose certified
``upper`` is below ``R(0) = 1 - 1/K``; and per repetition the ratio of seconds bounded / unbounded.
"""

import argparse
import gc
import json
import statistics
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from benchmarks import cases
from mrc_pyomo import MRCClassifier, ccg


def _satellite():
    return cases.satellite(False)


def _dry_bean_linear():
    return cases._tabular("dry_bean", False, 0, fourier=False)


def _optdigits():
    return cases.optdigits(False)


def _pulsar_rff():
    return cases.pulsar(True)   # 3000 samples, random Fourier features


def _many_classes_20():
    return cases.many_classes(False, n_classes=20, n_samples=8000)


def _many_classes_50():
    return cases.many_classes(False, n_classes=50, n_samples=8000)


def _mnist_8000():
    df = pd.read_csv(cases.DATA_DIR / "mnist.csv.gz", nrows=8000)
    X = df.drop(columns="label").to_numpy(dtype=float) / 255.0
    return X, df["label"].to_numpy(), {"phi": "linear", "time_limit": 300.0}


def _digits_rff():
    from sklearn.datasets import load_digits
    from sklearn.preprocessing import StandardScaler
    X, y = load_digits(return_X_y=True)
    return StandardScaler().fit_transform(X), y, {"phi": "fourier", "random_state": 0, "time_limit": 300.0}


CASES = {
    "satellite": _satellite, "dry_bean_linear": _dry_bean_linear, "optdigits": _optdigits,
    "pulsar_rff": _pulsar_rff, "many_classes_20": _many_classes_20, "many_classes_50": _many_classes_50,
    "mnist_8000": _mnist_8000, "digits_rff": _digits_rff,
}
SETTINGS = {"bounded": True, "unbounded": False}
N_EARLY = 5


class RowWatch:
    """A callback that records, for each master ``k``, ``lambda.|mu^k|``, the ``rho`` in force (the certified
    ``upper`` before master ``k``: ``R(0)`` for the first) and the dual ``gamma`` of the row; it never stops."""

    def __init__(self, n_classes):
        self.rho = 1.0 - 1.0 / n_classes
        self.norms, self.rhos, self.gammas = [], [], []

    def __call__(self, state):
        self.norms.append(float((state.master.lam * np.abs(state.mu)).sum()))
        self.rhos.append(self.rho)
        self.gammas.append(float(state.solution.gamma))
        self.rho = min(self.rho, state.upper)
        return False

    def summary(self):
        norms, rhos = np.array(self.norms), np.array(self.rhos)
        slack = rhos - norms
        tol = 1e-9 * np.maximum(1.0, rhos)
        return {"row_binding": int(np.sum(slack <= tol)), "row_violated": int(np.sum(slack < -tol)),
                "gamma_positive": int(np.sum(np.array(self.gammas) > 1e-12)),
                "min_slack": float(slack.min()) if len(slack) else float("nan"),
                "norm_over_rho_early": [float(v) for v in (norms / rhos)[:N_EARLY]]}


def fit_once(X, y, params, bounded):
    """One fit with ``BOUNDED_MASTERS = bounded``; a dict of what is measured."""
    saved = ccg.BOUNDED_MASTERS
    ccg.BOUNDED_MASTERS = bounded
    watch = RowWatch(len(np.unique(y)))
    gc.collect()
    try:
        clf = MRCClassifier(callback=watch, **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            start = time.perf_counter()
            clf.fit(X, y)
            seconds = time.perf_counter() - start
    finally:
        ccg.BOUNDED_MASTERS = saved
    h = clf.history_
    K = len(clf.classes_)
    R0 = 1.0 - 1.0 / K
    below = h.iteration[h.upper < R0 - 1e-12]
    rho = clf.master_.norm_bound if clf.master_ is not None else None
    return {
        "seconds": seconds, "iterations": int(clf.n_iter_), "status": clf.status_,
        "gap": float(clf.upper_ - clf.lower_), "upper": float(clf.upper_), "lower": float(clf.lower_),
        "K": K, "R0": R0, "regime": clf.regime_,
        "seconds_solve": float(h.seconds_solve.sum()), "seconds_oracle": float(h.seconds_oracle.sum()),
        "seconds_update": float(h.seconds_update.sum()),
        "max_rows": int(h.n_rows.max()), "last_rows": int(h.n_rows.iloc[-1]),
        "last_features": int(h.n_features.iloc[-1]), "rows_added": int(h.rows_added.sum()),
        "R_mu_early": [float(v) for v in h.R_mu.iloc[:N_EARLY]],
        "R_master_early": [float(v) for v in h.R_master.iloc[:N_EARLY]],
        "first_below_R0": int(below.iloc[0]) if len(below) else None,
        "final_rho": None if rho is None else float(rho),
        **watch.summary(),
    }


def run_case(name, repeat, slow_pair_seconds=None, out=print):
    """``repeat`` pairs A (bounded) B (unbounded); only one pair if the first took over ``slow_pair_seconds``."""
    X, y, params = CASES[name]()
    out(f"\n== {name}: n = {X.shape[0]}, d = {X.shape[1]}, K = {len(np.unique(y))}, params = {params}, "
        f"{repeat} repetition(s)", flush=True)
    runs = {setting: [] for setting in SETTINGS}
    note = ""
    for r in range(repeat):
        for setting, bounded in SETTINGS.items():   # A B A B ...
            rec = fit_once(X, y, params, bounded)
            runs[setting].append(rec)
            out(f"  rep {r + 1} {setting:9s}: {rec['seconds']:8.2f} s, {rec['iterations']:4d} it., "
                f"{rec['status']}, gap {rec['gap']:.3e}, R = {rec['upper']:.8f}, solve {rec['seconds_solve']:.2f} s, "
                f"first upper < R(0) at it. {rec['first_below_R0']}, final rho {rec['final_rho']}; "
                f"row lambda.|mu^k| <= rho binding in {rec['row_binding']}, violated in {rec['row_violated']} "
                f"masters, gamma > 0 in {rec['gamma_positive']}, min slack {rec['min_slack']:.4g}", flush=True)
        pair = runs["bounded"][-1]["seconds"] + runs["unbounded"][-1]["seconds"]
        ratio = runs["bounded"][-1]["seconds"] / runs["unbounded"][-1]["seconds"]
        out(f"  rep {r + 1} ratio bounded / unbounded seconds = {ratio:.3f}", flush=True)
        if r == 0 and repeat > 1 and slow_pair_seconds is not None and pair > slow_pair_seconds:
            note = f"reduced from {repeat} to 1 repetition: the first pair took {pair:.0f} s"
            out(f"  {note}", flush=True)
            break
    return {"case": name, "n": int(X.shape[0]), "d": int(X.shape[1]), "repeat": len(runs["bounded"]),
            "note": note, "runs": runs}


def summarize(result):
    runs = result["runs"]
    ratios = [b["seconds"] / u["seconds"] for b, u in zip(runs["bounded"], runs["unbounded"])]
    rows = {}
    for setting, recs in runs.items():
        def med(key):
            return statistics.median(r[key] for r in recs)
        statuses = sorted({r["status"] for r in recs})
        iters = sorted({r["iterations"] for r in recs})
        early = recs[0]["R_mu_early"]
        deterministic = all(np.allclose(r["R_mu_early"], early, rtol=0, atol=1e-12) for r in recs)
        rows[setting] = {
            "seconds": med("seconds"), "iterations": iters, "status": statuses, "gap": med("gap"),
            "upper": med("upper"), "solve": med("seconds_solve"), "oracle": med("seconds_oracle"),
            "update": med("seconds_update"), "max_rows": med("max_rows"), "last_rows": med("last_rows"),
            "last_features": med("last_features"), "R_mu_early": early, "early_same": deterministic,
            "first_below_R0": sorted({r["first_below_R0"] for r in recs}, key=lambda v: (v is None, v)),
            "R0": recs[0]["R0"], "row_binding": sorted({r["row_binding"] for r in recs}),
            "row_violated": sorted({r["row_violated"] for r in recs}),
            "gamma_positive": sorted({r["gamma_positive"] for r in recs}),
            "min_slack": min(r["min_slack"] for r in recs),
        }
    return rows, ratios


def _fmt_list(values):
    return "/".join("never" if v is None else str(v) for v in values)


def print_tables(results, out=print):
    out("\n## Bounded masters (row lambda.(mu1 + mu2) <= rho) vs unbounded: medians over repetitions\n")
    out("Iterations, status and first iteration are the set of values over the repetitions (a/b when they "
        "differ); seconds, gap, R and the history totals are medians.\n")
    out("| case | reps | setting | median s | iters | status | gap | R = upper_ | solve s | oracle s | "
        "update s | max rows | last rows | last feats | first it. upper < R(0) |")
    out("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for result in results:
        rows, _ = summarize(result)
        for setting, s in rows.items():
            out(f"| {result['case']} | {result['repeat']} | {setting} | {s['seconds']:.3f} | "
                f"{_fmt_list(s['iterations'])} | {'/'.join(s['status'])} | {s['gap']:.3e} | {s['upper']:.8f} | "
                f"{s['solve']:.3f} | {s['oracle']:.3f} | {s['update']:.3f} | {s['max_rows']:.0f} | "
                f"{s['last_rows']:.0f} | {s['last_features']:.0f} | {_fmt_list(s['first_below_R0'])} |")

    out(f"\n## R(mu^k) of the first {N_EARLY} masters (repetition 1; * = differs in a later repetition)\n")
    out("| case | R(0) | setting | " + " | ".join(f"R(mu^{k})" for k in range(1, N_EARLY + 1)) + " |")
    out("|---|---|---|" + "---|" * N_EARLY)
    for result in results:
        rows, _ = summarize(result)
        for setting, s in rows.items():
            cells = [f"{v:.6f}" for v in s["R_mu_early"]] + [""] * (N_EARLY - len(s["R_mu_early"]))
            flag = "" if s["early_same"] else " *"
            out(f"| {result['case']} | {s['R0']:.6f} | {setting}{flag} | " + " | ".join(cells) + " |")

    out("\n## The row itself: masters where lambda.|mu^k| = rho (binding) or > rho (violated: only possible "
        "unbounded), masters with dual gamma > 0, min over masters of rho - lambda.|mu^k|\n")
    out("| case | setting | binding | violated | gamma > 0 | min slack |")
    out("|---|---|---|---|---|---|")
    for result in results:
        rows, _ = summarize(result)
        for setting, s in rows.items():
            out(f"| {result['case']} | {setting} | {_fmt_list(s['row_binding'])} | {_fmt_list(s['row_violated'])} | "
                f"{_fmt_list(s['gamma_positive'])} | {s['min_slack']:.6g} |")

    out("\n## Seconds ratio bounded / unbounded, per repetition (A B alternating in one process)\n")
    out("| case | ratios | median ratio | note |")
    out("|---|---|---|---|")
    for result in results:
        _, ratios = summarize(result)
        out(f"| {result['case']} | {', '.join(f'{r:.3f}' for r in ratios)} | {statistics.median(ratios):.3f} | "
            f"{result['note']} |")


def warm_up():
    """One small fit in each setting, so that imports and the first solver start are paid before timing."""
    X, y, params = cases.many_classes(True, n_classes=5, n_samples=500)
    for bounded in (True, False):
        fit_once(X, y, params, bounded)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repeat-case", nargs="*", default=[], metavar="CASE=N",
                        help="a different number of repetitions for some cases (e.g. mnist_8000=1)")
    parser.add_argument("--slow-pair-seconds", type=float, default=300.0,
                        help="run one repetition only of a case whose first pair (A + B) took longer (0: never)")
    parser.add_argument("--json", help="also write the raw records to this file")
    args = parser.parse_args(argv)
    per_case = {}
    for item in args.repeat_case:
        name, _, n = item.partition("=")
        if name not in CASES:
            parser.error(f"unknown case {name!r} in --repeat-case")
        per_case[name] = int(n)

    start = time.perf_counter()
    warm_up()
    results = []
    for name in args.cases:
        results.append(run_case(name, per_case.get(name, args.repeat), args.slow_pair_seconds or None))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f)
    print(f"\ntotal {time.perf_counter() - start:.0f} s")
    print_tables(results)


if __name__ == "__main__":
    sys.exit(main())
