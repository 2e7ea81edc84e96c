"""Regularisation paths: :func:`mrc_path` fits the MRC at a decreasing sequence of ``lambda0`` values, each stage
warm-started from the one before (:func:`mrc_pyomo.methods.continuation.solve_path`, the core that every MRC-CCG
fit of :class:`~mrc_pyomo.MRCClassifier` runs too), as scikit-learn's ``lasso_path`` does for the lasso;
:class:`~mrc_pyomo.MRCClassifierCV` (:mod:`mrc_pyomo.estimator.cv`) chooses ``lambda0`` by cross-validation over
it.

Every stage of a path is a complete fit at its ``lambda0``, certified on its own: ``upper = R(mu)`` by one exact
pass over the training samples at that ``lambda0``, ``lower`` from that stage's duals, its status and its
masters.  Only the start differs from a fit of its own: the previous stage's final master (rows and features)
with the new costs, and the previous stages' rules as candidates.
"""

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from ..data.validation import validate_sample_weight, validate_training_data
from ..display.progress import progress_display
from ..master import check_solver
from ..methods.ccg.config import choose_regime, feature_density, problem_regime
from ..methods.continuation import solve_path
from ..methods.result import Status
from ..problem import prepare
from .classifier import MRCClassifier
from .fitted import fitted_attributes, input_attributes, set_fitted
from .parameters import ccg_config, validate_parameters

#: the default grid of :func:`mrc_path` and :class:`MRCClassifierCV`: 8 values from 1 down to 1e-3
#: (``lambda0 = 1`` puts the uncertainty set's bounds one standard deviation from the means: on most data
#: sets ``mu = 0`` or nearly; the library's default ``lambda0 = 0.01`` lies inside the grid's range)
DEFAULT_LAMBDA0S = tuple(np.geomspace(1.0, 1e-3, 8))

_SCALARS = ["lambda0", "lower", "upper", "gap", "status", "n_iter", "seconds"]


@dataclass
class RegularizationPath:
    """What :func:`mrc_path` returns.

    ``table``: a ``pandas.DataFrame`` with a row per ``lambda0`` asked for (``lambda0``, the certified ``lower``
    and ``upper`` at that ``lambda0``, their ``gap``, ``status``, ``n_iter`` masters and ``seconds``; a value the
    path did not reach has the status ``"not_reached"`` and NaN bounds); ``coefs``: the stages' ``mu`` in the
    user's units (shape ``(K, D)`` each; None where not reached); ``estimators``: each stage as a fitted
    :class:`~mrc_pyomo.MRCClassifier` (``predict``, ``score``, its ``history_`` and ``master_``; None where not
    reached)."""

    table: pd.DataFrame
    coefs: list = field(default_factory=list)
    estimators: list = field(default_factory=list)


def lambda0_grid(lambda0s=None):
    """``lambda0s`` (default :data:`DEFAULT_LAMBDA0S`) as a float array sorted decreasing; ``ValueError`` naming
    ``lambda0s`` unless it is a one-dimensional sequence of finite non-negative numbers, at least one."""
    given = DEFAULT_LAMBDA0S if lambda0s is None else lambda0s
    message = f"lambda0s must be a one-dimensional sequence of finite non-negative numbers, got {given!r}"
    if isinstance(given, (str, bytes)) or np.ndim(given) != 1:
        raise ValueError(message)
    try:
        values = np.asarray(given, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if not len(values) or not np.all(np.isfinite(values)) or values.min() < 0:
        raise ValueError(message)
    return np.sort(values)[::-1]


def mrc_path(X, y, lambda0s=None, *, sample_weight=None, **params):
    """Fit the MRC at each ``lambda0`` of ``lambda0s`` (sorted decreasing; default :data:`DEFAULT_LAMBDA0S`),
    each stage warm-started from the one before; ``params`` are :class:`~mrc_pyomo.MRCClassifier`'s (its
    ``lambda0`` and ``continuation`` aside).  ``time_limit`` bounds the whole path and ``max_iter`` the masters
    of all stages: a stage they leave no room for is not fitted; ``verbose`` shows the masters of all stages
    (the iteration log has a ``lambda0`` column in ``history_``); ``callback`` is called after every master of
    every stage, as in a fit, and a true return value stops the path.  MRC-CCG only (``method="ccg"``, regimes
    ``"n"`` and ``"nm"``), without a first-order phase (``first_order`` is not used: each stage starts from the
    one before).  ``sample_weight``: as in :meth:`MRCClassifier.fit <mrc_pyomo.MRCClassifier.fit>`.  The
    problem is prepared once (:func:`mrc_pyomo.problem.prepare`) and solved by
    :func:`mrc_pyomo.methods.continuation.solve_path`.  Returns a :class:`RegularizationPath` with a row for every
    ``lambda0`` asked for: a path stopped before its last value (``time_limit``, ``max_iter``, the callback) marks
    the values it did not reach with the status ``"not_reached"``, NaN bounds and None in ``coefs`` and
    ``estimators``, and warns (``ConvergenceWarning``)."""
    params.pop("lambda0", None)
    params.pop("continuation", None)
    lambda0s = lambda0_grid(lambda0s)
    template = MRCClassifier(lambda0=float(lambda0s[-1]), continuation=False, **params)
    validate_parameters(template)
    if template.method != "ccg":
        raise ValueError(f"mrc_path runs MRC-CCG (method='ccg'), not method={template.method!r}")
    check_solver(template.solver)
    X, y = validate_training_data(template, X, y)
    X, y, weights = validate_sample_weight(X, y, sample_weight)
    problem = prepare(X, y, template.phi, template.fit_intercept, template.random_state, lambda0s[-1], centre=False,
                      weights=weights)
    regime = problem_regime(problem, template.regime, template.formulation)
    if regime == "full":   # a path of full LPs would gain nothing from warm starts of rows: the regime "auto"
        # would pick without the full LP
        regime = choose_regime(problem.n_classes, problem.n_features, None, feature_density(problem))
    start = time.perf_counter()
    # the masters of all stages, as a fit shows them, each stage's start marked
    with progress_display(template.verbose, "ccg", stages=True) as progress:
        stages = solve_path(problem, lambda0s, ccg_config(template, regime), log=progress, callback=template.callback)
    ends = [r.history[-1]["seconds_elapsed"] if r.history else 0.0 for _, r in stages]
    seconds = np.diff([0.0] + ends)
    rows, coefs, estimators = [], [], []
    for (lambda0, result), stage_seconds in zip(stages, seconds):
        attributes = {**input_attributes(template), **fitted_attributes(problem.at(lambda0), result, regime,
                                                                         template.eps_1)[0]}
        estimator = set_fitted(clone(template).set_params(lambda0=float(lambda0)), attributes)
        rows.append({"lambda0": float(lambda0), "lower": estimator.lower_, "upper": estimator.upper_,
                     "gap": estimator.upper_ - estimator.lower_, "status": estimator.status_,
                     "n_iter": estimator.n_iter_, "seconds": stage_seconds})
        coefs.append(estimator.mu_)
        estimators.append(estimator)
    for lambda0 in lambda0s[len(stages):]:
        rows.append({"lambda0": float(lambda0), "lower": np.nan, "upper": np.nan, "gap": np.nan,
                     "status": Status.NOT_REACHED, "n_iter": 0, "seconds": 0.0})
        coefs.append(None)
        estimators.append(None)
    if len(stages) < len(lambda0s):
        config = ccg_config(template, regime)
        stop = (Status.CALLBACK if stages[-1][1].status == Status.CALLBACK else Status.TIME_LIMIT
                if config.time_limit is not None and time.perf_counter() - start >= config.time_limit
                else Status.MAX_ITER)
        warnings.warn(f"the path stopped ({stop}) after {len(stages)} of {len(lambda0s)} values of "
                      f"lambda0: those below {stages[-1][0]:g} were not fitted (status 'not_reached', NaN bounds)",
                      ConvergenceWarning, stacklevel=2)
    table = pd.DataFrame(rows, columns=_SCALARS)
    table.attrs["seconds_total"] = time.perf_counter() - start
    return RegularizationPath(table=table, coefs=coefs, estimators=estimators)
