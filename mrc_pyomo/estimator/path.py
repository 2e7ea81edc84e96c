"""Regularisation paths: :func:`mrc_path` fits the MRC at a decreasing sequence of ``lambda0`` values, each stage
warm-started from the one before, as scikit-learn's ``lasso_path`` does for the lasso.  It runs the path at the core
(:func:`mrc_pyomo.methods.pathwise.path_steps`, which every fit of :class:`~mrc_pyomo.MRCClassifier` runs too) behind
the estimator's validation (:mod:`mrc_pyomo.estimator.fitting`); :class:`~mrc_pyomo.MRCClassifierCV` cross-validates
over it.

Every stage is a complete fit at its ``lambda0``, certified on its own (``upper = R(mu)`` at that ``lambda0``, ``lower``
from that stage's duals); only its start differs: the previous stage's final master with the new costs, and the previous
rules as candidates.  Each stage is a :class:`PathStage`, which predicts and scores as a fitted classifier does.
"""

import warnings
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning

from ..display.progress import progress_display
from ..methods import get_method
from ..methods.deadline import Deadline, caller_time_left_out
from ..methods.pathwise import path_steps
from ..methods.result import Status, finish
from .fitted import FittedStateMixin, fitted_attributes, set_fitted
from .fitting import plan_of, problem_of
from .parameters import (PARAMETER_CONSTRAINTS, PARAMETERS, DocLinkMixin, SolverCloneMixin, make_init,
                         validate_parameters)
from .rule import RuleMixin

#: the default grid of :func:`mrc_path` and :class:`MRCClassifierCV`: 8 values from 1 down to 1e-3 (at ``lambda0 = 1``,
#: ``mu = 0`` or nearly on most data sets; the default ``lambda0 = 0.01`` lies inside)
DEFAULT_LAMBDA0S = tuple(np.geomspace(1.0, 1e-3, 8))
#: the range of the default grid, largest first, over which ``lambda0s=n`` spaces its ``n`` values
LAMBDA0_RANGE = (DEFAULT_LAMBDA0S[0], DEFAULT_LAMBDA0S[-1])

_SCALARS = ["lambda0", "lower", "upper", "gap", "status", "n_iter", "seconds"]


@dataclass
class RegularizationPath:
    """What :func:`mrc_path` returns: ``table``, a ``pandas.DataFrame`` with a row per ``lambda0`` asked for
    (``lambda0``, the certified ``lower`` and ``upper``, ``gap``, ``status``, ``n_iter`` masters and ``seconds``; status
    ``"not_reached"`` and NaN bounds where the path did not reach); ``coefs``, the stages' ``mu`` in the user's units
    (``(K, D)`` each); ``estimators``, the stages as :class:`PathStage` (both None where not reached)."""

    table: pd.DataFrame
    coefs: list = field(default_factory=list)
    estimators: list = field(default_factory=list)


def lambda0_grid(lambda0s=None):
    """``lambda0s`` (default :data:`DEFAULT_LAMBDA0S`) as a float array sorted decreasing; an int ``n >= 1``: ``n``
    values log-spaced over :data:`LAMBDA0_RANGE`.  ``ValueError`` naming ``lambda0s`` for anything but these or a
    non-empty one-dimensional sequence of finite non-negative numbers."""
    if isinstance(lambda0s, (Integral, np.integer)) and not isinstance(lambda0s, (bool, np.bool_)):
        if lambda0s < 1:
            raise ValueError(f"lambda0s as a number of values must be at least 1, got {lambda0s!r}")
        return np.geomspace(*LAMBDA0_RANGE, int(lambda0s))
    given = DEFAULT_LAMBDA0S if lambda0s is None else lambda0s
    message = (f"lambda0s must be a one-dimensional sequence of finite non-negative numbers or a number of values, "
               f"got {given!r}")
    if isinstance(given, (str, bytes)) or np.ndim(given) != 1:
        raise ValueError(message)
    try:
        values = np.asarray(given, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if not len(values) or not np.all(np.isfinite(values)) or values.min() < 0:
        raise ValueError(message)
    return np.sort(values)[::-1]


class PathStage(FittedStateMixin, DocLinkMixin, SolverCloneMixin, RuleMixin, ClassifierMixin, BaseEstimator):
    """A stage of a regularisation path (:func:`mrc_path`): the rule fitted at its ``lambda0``, with the fitted
    attributes and parameters of :class:`~mrc_pyomo.MRCClassifier`; it predicts and scores as a fitted classifier does,
    and ``MRCClassifier(**stage.get_params())`` fits it on its own.  Its ``fit`` raises."""

    __init__ = make_init(PARAMETERS)
    _parameter_constraints = PARAMETER_CONSTRAINTS

    def fit(self, X, y, sample_weight=None):
        """``TypeError``: :func:`mrc_path` makes stages, ``MRCClassifier(**stage.get_params()).fit(X, y)`` fits one."""
        raise TypeError("a PathStage is made by mrc_path; MRCClassifier(**stage.get_params()).fit(X, y) fits one "
                        "stage on its own")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


#: why a path's parameters are not those of a single fit
_NOT_PATH_PARAMETERS = {
    "lambda0": "a path fits every value of lambda0s: give lambda0s, not lambda0",
    "continuation": "a path is its own continuation (each stage starts from the one before): continuation is not "
                    "a parameter of mrc_path",
    "warm_start": "each stage of a path starts from the one before, the first from scratch: warm_start is not a "
                  "parameter of mrc_path",
}


def path_template(lambda0s, params):
    """The :class:`PathStage` of the path's parameters ``params`` at its last ``lambda0``, checked; ``TypeError`` for
    ``lambda0``, ``continuation`` or ``warm_start``, ``ValueError`` for ``first_order=True``."""
    for name, why in _NOT_PATH_PARAMETERS.items():
        if name in params:
            raise TypeError(f"mrc_path() got {name}={params[name]!r}: {why}")
    if params.get("first_order") is True:
        raise ValueError("mrc_path runs no first-order phase (each stage starts from the one before): "
                         "first_order=True is not available")
    template = PathStage(lambda0=float(lambda0s[-1]), **params)
    validate_parameters(template)
    return template


def mrc_path(X, y, lambda0s=None, *, sample_weight=None, **params):
    """Fit the MRC at each ``lambda0`` of ``lambda0s`` (:func:`lambda0_grid`), each stage warm-started from the one
    before; ``params`` are :class:`~mrc_pyomo.MRCClassifier`'s but for ``lambda0``, ``continuation`` and ``warm_start``
    (``TypeError``), and a path runs no first-order phase (``first_order=True`` is a ``ValueError``).  ``time_limit``
    bounds the whole path and ``max_iter`` each stage's iterations, as scikit-learn's ``LogisticRegressionCV``
    applies ``max_iter`` to each ``C`` (a stage it stops has status ``"max_iter"``, and the next one starts from it);
    ``verbose`` and ``callback`` see every iteration of every stage, and a callback's true value stops the path.
    ``regime="auto"`` does not choose the full LP, which would gain nothing from the warm starts.  ``sample_weight``:
    as in :meth:`MRCClassifier.fit <mrc_pyomo.MRCClassifier.fit>`.  Returns a :class:`RegularizationPath`; a path
    stopped before its last value marks the rest ``"not_reached"`` and warns (``ConvergenceWarning``)."""
    lambda0s = lambda0_grid(lambda0s)
    template = path_template(lambda0s, params)
    deadline = Deadline(template.time_limit)
    method = get_method(template.method)
    problem, inputs = problem_of(template, X, y, sample_weight, lambda0s[-1], method, centre=False)
    plan = plan_of(template, method, problem, stages=lambda0s)   # each stage starts from the one before
    config = plan.config
    # the iterations of all stages, as a fit shows them, each stage's start marked
    with progress_display(template.verbose, method, stages=True) as progress:
        stages = finish(caller_time_left_out(path_steps(problem, lambda0s, method, config, deadline=deadline,
                                                        log=progress), deadline), template.callback)
    ends = [r.history[-1]["seconds_elapsed"] if r.history else 0.0 for _, r in stages]
    seconds = np.diff([0.0] + ends)
    rows, coefs, estimators = [], [], []
    for (lambda0, result), stage_seconds in zip(stages, seconds):
        attributes = {**inputs, **fitted_attributes(problem.at(lambda0), result, config.regime, template.eps_1)[0]}
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
    if len(stages) < len(lambda0s):   # only the time limit and a callback stop a path: max_iter stops a stage
        stop = Status.CALLBACK if stages[-1][1].status == Status.CALLBACK else Status.TIME_LIMIT
        warnings.warn(f"the path stopped ({stop}) after {len(stages)} of {len(lambda0s)} values of "
                      f"lambda0: those below {stages[-1][0]:g} were not fitted (status 'not_reached', NaN bounds)",
                      ConvergenceWarning, stacklevel=2)
    table = pd.DataFrame(rows, columns=_SCALARS)
    table.attrs["seconds_total"] = deadline.elapsed()
    return RegularizationPath(table=table, coefs=coefs, estimators=estimators)

