"""MRC-PDHG's iterations, and optionally its certificate, on a harness case, with any of its settings changed.

    python -m benchmarks.experiments.pdhg_phase [CASE] [--time-limit 30] [--set NAME=VALUE ...] [--hand-over]
        [--certify]

Runs MRC-PDHG (:mod:`mrc_pyomo.methods.pdhg`) on the harness's training split of CASE (default mnist_8000),
prepared as ``MRCClassifier(method="pdhg")`` prepares it, with the fields of
:class:`~mrc_pyomo.methods.pdhg.config.PDHGConfig` given by ``--set`` (Python literals: ``--set adaptive=False
--set weight_scale=1.0``).  By default only the iterations run, with neither the support's settling, their work nor the
stall ending them, so that the time limit does: prints the iterations, their rate, and the best exact ``R`` and
the certified lower end by 5, 10, 20, 30, 60 and 120 s (the measurements of ``PDHGConfig``'s docstring).
``--hand-over`` keeps the hand-over rules and prints where they end the iterations; ``--certify`` runs the
whole method and prints each master of its certificate (rows, solve seconds, value, lower end) and the total.
"""

import argparse
import ast
import time
from dataclasses import replace

from sklearn.model_selection import train_test_split

from benchmarks.data import require
from benchmarks.harness.cases import CASES, data_sets
from mrc_pyomo import MRCClassifier
from mrc_pyomo.estimator.fitting import problem_of
from mrc_pyomo.estimator.parameters import settings_of
from mrc_pyomo.methods import get_method
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.result import finish

MARKS = (5, 10, 20, 30, 60, 120)


def settings(pairs):
    """``{name: value}`` of ``--set NAME=VALUE`` (values read as Python literals)."""
    return {name: ast.literal_eval(value) for name, value in (pair.split("=", 1) for pair in pairs)}


def iterations(problem, config, time_limit, hand_over):
    """Run the iterations alone and print their rate and ends by the marks (or where the hand-over stopped)."""
    if not hand_over:
        config = replace(config, settled=2.0, stall_window=10**9, handover=float("inf"))
    best, history, status = finish(get_method("pdhg").iterations(problem, config, deadline=Deadline(time_limit)))
    seconds = history[-1]["seconds_elapsed"]
    line = [f"{len(history)} iterations, {len(history) / seconds:.1f} per s"]
    line += [f"{t} s: {min(r['upper'] for r in history if r['seconds_elapsed'] <= t):.4f} / "
             f"{max(r['lower'] for r in history if r['seconds_elapsed'] <= t):.4f}"
             for t in MARKS if t < seconds + 1.0 and any(r["seconds_elapsed"] <= t for r in history)]
    if hand_over:
        line.append(f"stopped ({status}) at {len(history)} after {seconds:.1f} s")
    print("  ".join(line) + f"  upper {best.risk:.4f} lower {best.lower:.4f}", flush=True)


def certified(problem, config, time_limit):
    """Run the whole method and print each master of its certificate and the total."""
    def show(record):
        if record.get("phase") == "first-order" and record["iteration"] % config.window == 0:
            print(f"iteration {record['iteration']}: R {record['upper']:.5f}, lower {record['lower']:.5f}, work "
                  f"{record['work']:.3g} at {record['seconds_elapsed']:.1f} s", flush=True)
        if record.get("phase") != "first-order":
            print(f"master {record['iteration']}: {record['n_rows']} rows, {record['seconds_solve']:.2f} s, "
                  f"value {record['R_master']:.5f}, R(mu_k) {record['R_mu']:.5f}, "
                  f"[{record['lower']:.5f}, {record['upper']:.5f}] at {record['seconds_elapsed']:.1f} s", flush=True)
    started = time.perf_counter()
    result = finish(get_method("pdhg").steps(problem, config, deadline=Deadline(time_limit), log=show))
    print(f"{result.status}: [{result.lower:.5f}, {result.upper:.5f}] in {time.perf_counter() - started:.1f} s",
          flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", nargs="?", default="mnist_8000", choices=sorted(CASES))
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--hand-over", action="store_true", help="keep the rules that end the iterations")
    parser.add_argument("--certify", action="store_true", help="run the certificate too, showing its masters")
    args = parser.parse_args(argv)
    require(data_sets([args.case]))   # before any fit
    X, y, params = CASES[args.case](False)
    X_train, _, y_train, _ = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    clf = MRCClassifier(method="pdhg", **params)
    method = get_method("pdhg")
    problem, _ = problem_of(clf, X_train, y_train, None, clf.lambda0, method)
    config = replace(method.configure(settings_of(clf), problem), **settings(args.set))
    print(f"{args.case} {' '.join(args.set)}", flush=True)
    if args.certify:
        certified(problem, config, args.time_limit)
    else:
        iterations(problem, config, args.time_limit, args.hand_over)


if __name__ == "__main__":
    main()
