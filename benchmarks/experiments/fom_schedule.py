"""How far the first-order phase gets under a smoothing schedule when nothing but the time stops it.

    python -m benchmarks.experiments.fom_schedule [CASE] [--every 80] [--floor 1e-4] [--start 0.1]
        [--time-limit 60] [--unscaled]

Runs MRC-FOM's first-order phase on the harness's training split of CASE (default mnist_8000), prepared as
``MRCClassifier(method="fom")`` prepares it, with its stall test off and no cap on its iterations, so that it
runs to the time limit; ``beta`` starts at ``--start`` and is halved every ``--every`` iterations down to
``--floor`` (the fields of :class:`mrc_pyomo.methods.fista.FOMConfig`).  ``--unscaled`` runs it on ``Psi``
itself instead of the columns scaled to unit mean square (``R`` is the same function either way).
Prints the iterations, their rate and the best exact ``R`` by 10, 30, 60 and 120 s.
"""

import argparse
from dataclasses import replace

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

import mrc_pyomo.problem.problem as problem_module
from benchmarks.data import require
from benchmarks.harness.cases import CASES, data_sets
from mrc_pyomo import MRCClassifier
from mrc_pyomo.estimator.fitting import problem_of
from mrc_pyomo.estimator.parameters import settings_of
from mrc_pyomo.methods import get_method
from mrc_pyomo.methods.fista import FOMConfig
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.result import finish


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", nargs="?", default="mnist_8000", choices=sorted(CASES))
    parser.add_argument("--every", type=int, default=FOMConfig.beta_every)
    parser.add_argument("--floor", type=float, default=FOMConfig.beta_floor)
    parser.add_argument("--start", type=float, default=FOMConfig.beta_start)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--unscaled", action="store_true", help="the phase on Psi, not on its scaled columns")
    args = parser.parse_args(argv)
    require(data_sets([args.case]))   # before any fit
    X, y, params = CASES[args.case](False)
    X_train, _, y_train, _ = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    if args.unscaled:
        problem_module.column_scales = lambda data: np.ones(data.n_features)
    clf = MRCClassifier(method="fom", **params)
    method = get_method("fom")
    problem, _ = problem_of(clf, X_train, y_train, None, clf.lambda0, method)
    config = replace(method.configure(settings_of(clf), problem), beta_start=args.start, beta_every=args.every,
                     beta_floor=args.floor, tolerance=-1.0, max_iter=10**6, certify=False)
    result = finish(method.steps(problem, config, deadline=Deadline(args.time_limit)))
    h = pd.DataFrame(result.history)
    line = [f"{args.case} every={args.every} floor={args.floor:g} start={args.start:g}"
            + (" unscaled" if args.unscaled else ""),
            f"{len(h)} iterations, {len(h) / h.seconds_elapsed.iloc[-1]:.1f} per s"]
    line += [f"{t} s: {h[h.seconds_elapsed <= t].upper.min():.4f}" for t in (10, 30, 60, 120)
             if t <= args.time_limit and (h.seconds_elapsed <= t).any()]
    print("  ".join(line) + f"  upper {result.upper:.4f}", flush=True)


if __name__ == "__main__":
    main()
