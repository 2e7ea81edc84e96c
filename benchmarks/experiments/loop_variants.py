"""Measure variants of the generation loop against the default, in one process, alternating.

    python -m benchmarks.experiments.loop_variants CASE [CASE ...] [--time-limit S] [--repeat R]
        [--variants default in_out=0.8 stall=none stall=5,eps_1=1e-4 ...]

Variants are settings of the estimator or of the loop's :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`:
``in_out=A`` (rows separated at ``A * best + (1 - A) * (mu^k, nu^k)``), ``stall=F`` (``stall_factor``: the warm
simplex gets ``F`` times the largest solve so far before the interior point method takes over; ``stall=none``: no
budget), ``row_age=A`` (``row_age=none``: rows never leave), ``form=primal|dual`` (the masters' form,
:func:`~mrc_pyomo.methods.ccg.config.master_form`), ``shrink=0|1`` (the master's rule shrunk onto its level
as a candidate for the upper end, :func:`~mrc_pyomo.oracles.incumbent.shrunk_to_level`); ``scale=S`` (HiGHS's
``simplex_scale_strategy`` for every master: 2 is HiGHS's equilibration, the loop alone's, 4 the scaling of
:func:`~mrc_pyomo.methods.ccg.config.certificate_options`); ``n_max=N``, ``eps_1=E``,
``lambda0=L``, ``continuation=0|1`` and ``regime=R`` (the estimator's parameters: text, whose regime ``"auto"`` is
the full LP, needs ``regime=n``); ``prox=KAPPA`` (a stability centre: :class:`ProximalCentre`).  Settings combine
with commas, and ``default`` is the library as it is.  Each fit is :func:`fit_variant`: the estimator's own steps
through the package's public functions, with the loop's settings replaced.  Per fit: seconds, iterations, status,
certified gap, ``upper_``, seconds in the solver, the largest solve, the master's final rows and the rows re-added.
CASES: the synthetic many-class problem with ``K20`` / ``K50`` (8000 samples), ``mnist8000`` (pixels / 255),
``mnist`` (the harness's 56,000 training images), ``satellite_rff``, ``optdigits_rff``, ``pulsar_paper`` (the
paper's 70% of pulsar, 12,528 samples, with 400 random Fourier features) and ``digits_rff``
(scikit-learn's digits, standardised, 400 random Fourier features); sparse text
(:func:`benchmarks.experiments.sparse_text.task`): ``text_top10`` (the ten largest sections of Debian's package
index, 5,000 documents) and ``text_python`` (``python`` against the rest, 10,000 documents).
"""

import argparse
import time
import warnings
from dataclasses import replace

import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from benchmarks.data import read, require
from benchmarks.harness.cases import many_classes, tabular
from mrc_pyomo import MRCClassifier
from mrc_pyomo.estimator.fitted import fitted_attributes, set_fitted
from mrc_pyomo.estimator.fitting import problem_of
from mrc_pyomo.estimator.parameters import check_parameters, settings_of
from mrc_pyomo.formulations.paper import objective_coefficients
from mrc_pyomo.methods import get_method
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.pathwise import fit_steps
from mrc_pyomo.methods.plan import STAGE_EPS, Plan, continuation_stages
from mrc_pyomo.methods.result import finish


def _mnist(n):
    df = read("mnist", nrows=n)
    return df.drop(columns="label").to_numpy(float) / 255.0, df["label"].to_numpy(), {"phi": "linear"}


def _mnist_train():
    """The harness's training split of mnist (56,000 images)."""
    X, y, params = _mnist(None)
    X, _, y, _ = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    return X, y, params


def _paper_split(name):
    """The paper's training set of ``name``: 70% of the data set (stratified, seed 0), standardised, with 400 random
    Fourier features (pulsar: 12,528 samples)."""
    X, y, params = tabular(name, False, 0, fourier=True)
    X, _, y, _ = train_test_split(X, y, train_size=0.7, random_state=0, stratify=y)
    return X, y, params


def _digits_rff():
    X, y = load_digits(return_X_y=True)
    return StandardScaler().fit_transform(X), y, {"phi": "fourier", "random_state": 0}


CASES = {
    "K20": lambda: many_classes(False, n_classes=20, n_samples=8000),
    "K50": lambda: many_classes(False, n_classes=50, n_samples=8000),
    "mnist8000": lambda: _mnist(8000),
    "mnist": _mnist_train,
    "satellite": lambda: tabular("satellite", False, 0, fourier=False),
    "satellite_rff": lambda: tabular("satellite", False, 0, fourier=True),
    "optdigits_rff": lambda: tabular("optdigits", False, 0, fourier=True),
    "pulsar_paper": lambda: _paper_split("pulsar"),
    "digits_rff": _digits_rff,
    "text_top10": lambda: _text("top10", 5000),
    "text_python": lambda: _text("python", 10_000),
}
# the data sets of benchmarks.data each case reads (the others: generated, or scikit-learn's)
DATA_SETS = {"mnist8000": ["mnist"], "mnist": ["mnist"], "satellite": ["satellite"], "satellite_rff": ["satellite"],
             "optdigits_rff": ["optdigits"], "pulsar_paper": ["pulsar"],
             "text_top10": ["debian_packages"], "text_python": ["debian_packages"]}


def _text(name, n):
    from benchmarks.experiments.sparse_text import task
    X, y, _, _ = task(name, n)
    return X, y, {}


def fit_variant(X, y, loop=None, **params):
    """An :class:`MRCClassifier` with ``params``, fitted by MRC-CCG as its ``fit`` does but with its
    :class:`~mrc_pyomo.methods.ccg.config.CCGConfig` changed by ``loop`` (``{setting: value}``): the problem
    prepared and the config made as the estimator makes them (:mod:`mrc_pyomo.estimator.fitting`), ``loop``'s
    settings replaced, the fit by the runner (:func:`mrc_pyomo.methods.pathwise.fit_steps`, through the estimator's
    stages when ``continuation=True``, no first-order phase) and its attributes set
    (:func:`~mrc_pyomo.estimator.fitted.fitted_attributes`).  A problem whose regime is ``"full"`` (the full LP,
    no loop) is refused."""
    clf = MRCClassifier(**params)
    check_parameters(clf)
    method = get_method("ccg")
    problem, inputs = problem_of(clf, X, y, None, clf.lambda0, method)
    config = method.configure(settings_of(clf), problem)
    if config.regime == "full":
        raise ValueError("the regime 'auto' chose the full LP, which has no loop to vary: pass regime='n' or 'nm'")
    config = replace(config, **(loop or {}))
    stages = continuation_stages(problem) if clf.continuation else (clf.lambda0,)
    plan = Plan(method, config, stages=stages, stage_eps=STAGE_EPS)
    result = finish(fit_steps(problem, plan, deadline=Deadline(clf.time_limit)), clf.callback)
    return set_fitted(clf, {**inputs, **fitted_attributes(problem, result, config.regime, clf.eps_1)[0]})


class ProximalCentre:
    """A stability centre by an L1 proximal term (variant ``prox=KAPPA``), as a callback of the loop on the
    built-in HiGHS backend: after master ``k`` the next master minimises ``R + kappa_k lambda.|mu - c|_1`` over
    the features where the centre ``c`` (the best rule so far) is 0, that is with the costs of their ``mu1``
    and ``mu2`` raised by ``kappa_k lambda`` (no new row or column: the centre's zero set is where the
    term is linear); ``kappa_k = KAPPA / 2^k``, 0 once under 1e-2, so that the last masters are the LP's own.
    Any ``alpha >= 0`` gives a valid lower bound (weaker while the master is not the LP's); ``R(mu^k)`` is
    exact.  Measured and not adopted (docs/theory.rst, "Churn, stability centres and the solver per master")."""

    def __init__(self, kappa):
        self.kappa = kappa

    def __call__(self, state):
        master = state.master
        kappa = self.kappa / 2 ** state.iteration
        kappa = 0.0 if kappa < 1e-2 else kappa
        features = np.asarray(master.features)
        cost_pos, cost_neg = objective_coefficients(master.tau, master.lam, features)
        zero = state.check.best.mu.ravel()[features] == 0
        extra = kappa * master.lam.ravel()[features] * zero
        columns = np.empty(2 * len(features), dtype=np.int32)
        columns[0::2], columns[1::2] = 1 + 2 * np.arange(len(features)), 2 + 2 * np.arange(len(features))
        costs = np.empty(2 * len(features))
        costs[0::2], costs[1::2] = cost_pos + extra, cost_neg + extra
        master.backend.highs.changeColsCost(len(columns), columns, costs)
        return False


def apply(variant):
    """The fit parameters and the loop settings (:func:`fit_variant`) of ``variant`` (``"default"`` or
    ``"name=value[,name=value...]"``)."""
    params, loop = {}, {}
    for setting in variant.split(","):
        if setting == "default":
            continue
        name, value = setting.split("=")
        if name in ("n_max", "continuation"):
            params[name] = int(value) if name == "n_max" else bool(int(value))
        elif name in ("eps_1", "lambda0"):
            params[name] = float(value)
        elif name == "row_age":
            loop[name] = None if value == "none" else int(value)
        elif name == "regime":
            params[name] = value
        elif name == "in_out":
            loop[name] = float(value)
        elif name == "shrink":
            loop[name] = bool(int(value))
        elif name == "prox":
            params["callback"] = ProximalCentre(float(value))
            loop["form"] = "primal"   # its costs are the primal form's columns
        elif name == "form":
            loop[name] = value
        elif name == "stall":
            loop["stall_factor"] = None if value == "none" else float(value)
        elif name == "scale":
            params["solver_options"] = {"simplex_scale_strategy": int(value)}
        else:
            raise ValueError(f"unknown loop variant setting {name!r} in {variant!r}")
    return params, loop


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="+", choices=sorted(CASES))
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=["default", "in_out=0.8", "stall=none"])
    args = parser.parse_args(argv)
    require([name for case in args.cases for name in DATA_SETS.get(case, [])])   # before any fit
    warnings.simplefilter("ignore", ConvergenceWarning)
    for case in args.cases:
        X, y, params = CASES[case]()
        for repeat in range(args.repeat):
            for variant in args.variants:
                extra, loop = apply(variant)
                start = time.perf_counter()
                clf = fit_variant(X, y, loop, time_limit=args.time_limit, **params, **extra)
                seconds = time.perf_counter() - start
                h = clf.history_
                print(f"{case} {variant:>12s}: {seconds:7.1f} s, {clf.n_iter_:4d} it., {clf.status_:10s} "
                      f"gap {clf.upper_ - clf.lower_:.2e}, upper {clf.upper_:.6f}, "
                      f"solver {h.seconds_solve.sum():6.1f} s, "
                      f"largest solve {h.seconds_solve.max():5.1f} s, rows {h.n_rows.iloc[-1]}, "
                      f"re-added {h.rows_readded.sum()}", flush=True)


if __name__ == "__main__":
    main()
