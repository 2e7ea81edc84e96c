"""Where a fit's time goes with Pyomo's persistent ``appsi_highs``: Pyomo's own calls timed inside the fit.

    python -m benchmarks.experiments.pyomo_share [--cases digits satellite] [--repeat R]

Per case and repeat, in one process: a default fit with the built-in HiGHS backend, then one with
``solver="appsi_highs"``, their wall times and ratio, and the seconds inside each of Pyomo's calls during the
APPSI fit (each wrapped with a timer; an indented line is part of the line above): ``add_constraints`` (of
which APPSI-HiGHS's ``_add_constraints``, of which ``generate_standard_repn``), ``remove_constraints``,
``set_instance``, ``solve`` (of which HiGHS's own ``run``), and the library's building of the rows as
``LinearExpression`` objects.  What these calls take beyond the whole built-in fit is the part of the ratio no
backend built on Pyomo's expressions can remove (docs/solvers.rst, "What each backend costs").
"""

import argparse
import collections
import functools
import time
import warnings

import highspy
import pyomo.contrib.appsi.base as appsi_base
import pyomo.contrib.appsi.solvers.highs as appsi_highs
from sklearn.datasets import load_digits, load_wine
from sklearn.exceptions import ConvergenceWarning

from benchmarks.data import require
from benchmarks.harness.cases import tabular
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import model

CASES = {"wine": lambda: load_wine(return_X_y=True), "digits": lambda: load_digits(return_X_y=True),
         "satellite": lambda: tabular("satellite", False, 0, False)[:2]}
DATA_SETS = {"satellite": ["satellite"]}
RUN = "    of which HiGHS's run"
#: the calls timed: (owner, attribute, label)
CALLS = [(appsi_base.PersistentBase, "add_constraints", "add_constraints"),
         (appsi_highs.Highs, "_add_constraints", "  of which APPSI-HiGHS's _add_constraints"),
         (appsi_highs, "generate_standard_repn", "    of which generate_standard_repn"),
         (appsi_base.PersistentBase, "remove_constraints", "remove_constraints"),
         (appsi_highs.Highs, "set_instance", "set_instance"),
         (appsi_highs.Highs, "solve", "solve"),
         (highspy.Highs, "run", RUN),
         (model.MasterModel, "materialise", "the library: building the rows (LinearExpression)")]


def timed(seconds):
    """Wrap each call of :data:`CALLS` so that its seconds add up in ``seconds`` (a Counter) under its label."""
    for owner, name, label in CALLS:
        function = getattr(owner, name)

        @functools.wraps(function)
        def wrapper(*args, _function=function, _label=label, **kwargs):
            start = time.perf_counter()
            try:
                return _function(*args, **kwargs)
            finally:
                seconds[_label] += time.perf_counter() - start
        setattr(owner, name, wrapper)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="+", default=["digits", "satellite"], choices=sorted(CASES))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    require([name for case in args.cases for name in DATA_SETS.get(case, [])])   # before any fit
    warnings.simplefilter("ignore", ConvergenceWarning)
    warnings.simplefilter("ignore", UserWarning)   # a poor feature map's warning: not what is measured
    seconds = collections.Counter()
    timed(seconds)
    for case in args.cases:
        X, y = CASES[case]()
        for _ in range(args.repeat):
            wall = {}
            for solver in ("highs", "appsi_highs"):
                seconds.clear()
                start = time.perf_counter()
                MRCClassifier(solver=solver).fit(X, y)
                wall[solver] = time.perf_counter() - start
            print(f"{case}: built-in {wall['highs']:.2f} s, appsi_highs {wall['appsi_highs']:.2f} s, ratio "
                  f"{wall['appsi_highs'] / wall['highs']:.2f}", flush=True)
            for _, _, label in CALLS:
                print(f"  {label:52s} {seconds[label]:6.2f} s", flush=True)


if __name__ == "__main__":
    main()
