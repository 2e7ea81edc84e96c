"""Regularisation paths: :func:`mrc_path` fits the MRC at a decreasing sequence of ``lambda0`` values, each stage
warm-started from the one before (:mod:`mrc_pyomo.continuation`), and :class:`MRCClassifierCV` chooses
``lambda0`` by cross-validation over the path, as scikit-learn's ``lasso_path`` and ``LassoCV`` do for the lasso.

Every stage of a path is a complete fit at its ``lambda0``, certified on its own: ``upper = R(mu)`` by one exact
pass over the training samples at that ``lambda0``, ``lower`` from that stage's duals, its status and its
masters.  Only the start differs from a fit of its own: the previous stage's final master (rows and features)
with the new costs, and the previous stages' rules as candidates.
"""

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import ClassifierMixin, BaseEstimator, clone
from sklearn.metrics import check_scoring
from sklearn.model_selection import check_cv
from sklearn.utils.validation import check_is_fitted, validate_data

from .generation import choose_regime, feature_density
from .classifier import MRCClassifier
from .continuation import solve_stages
from .progress import progress_display
from .reduction import complete

#: the default grid of :func:`mrc_path` and :class:`MRCClassifierCV`: 8 values from 1 down to 1e-3
#: (``lambda0 = 1`` puts the uncertainty set's bounds one standard deviation from the means: on most data
#: sets ``mu = 0`` or nearly; the library's default ``lambda0 = 0.01`` lies inside the grid's range)
DEFAULT_LAMBDA0S = tuple(np.geomspace(1.0, 1e-3, 8))

_SCALARS = ["lambda0", "lower", "upper", "gap", "status", "n_iter", "seconds"]


@dataclass
class RegularizationPath:
    """What :func:`mrc_path` returns.

    ``table``: a ``pandas.DataFrame`` with a row per stage (``lambda0``, the certified ``lower`` and ``upper``
    at that ``lambda0``, their ``gap``, ``status``, ``n_iter`` masters and ``seconds``); ``coefs``: the
    stages' ``mu`` in the user's units (shape ``(K, D)`` each); ``estimators``: each stage as a fitted
    :class:`~mrc_pyomo.MRCClassifier` (``predict``, ``score``, its ``history_`` and ``master_``)."""

    table: pd.DataFrame
    coefs: list = field(default_factory=list)
    estimators: list = field(default_factory=list)


def lambda0_grid(lambda0s=None):
    """``lambda0s`` (default :data:`DEFAULT_LAMBDA0S`) as a float array sorted decreasing; ``ValueError`` unless
    they are finite non-negative numbers, at least one."""
    lambda0s = np.sort(np.asarray(DEFAULT_LAMBDA0S if lambda0s is None else lambda0s, dtype=float))[::-1]
    if not len(lambda0s) or not np.all(np.isfinite(lambda0s)) or lambda0s.min() < 0:
        raise ValueError(f"lambda0s must be finite non-negative numbers, got {lambda0s!r}")
    return lambda0s


def mrc_path(X, y, lambda0s=None, **params):
    """Fit the MRC at each ``lambda0`` of ``lambda0s`` (sorted decreasing; default :data:`DEFAULT_LAMBDA0S`),
    each stage warm-started from the one before; ``params`` are :class:`~mrc_pyomo.MRCClassifier`'s (its
    ``lambda0`` and ``continuation`` aside).  ``time_limit`` bounds the whole path and ``max_iter`` the masters
    of all stages: a stage they leave no room for is not fitted; ``verbose`` shows the masters of all stages
    (the iteration log has a ``lambda0`` column in ``history_``).  MRC-CCG only (``method="ccg"``, regimes
    ``"n"`` and ``"nm"``).  Returns a :class:`RegularizationPath`."""
    params.pop("lambda0", None)
    params.pop("continuation", None)
    lambda0s = lambda0_grid(lambda0s)
    template = MRCClassifier(lambda0=float(lambda0s[-1]), continuation=False, **params)
    template._validate_params()
    if template.method != "ccg":
        raise ValueError(f"mrc_path runs MRC-CCG (method='ccg'), not method={template.method!r}")
    X, data, y_idx, tau, std, _, reduction = template._prepare(X, y)
    if template.regime_ == "full":   # a path of full LPs would gain nothing from warm starts of rows: the
        # regime "auto" would pick without the full LP
        template.regime_ = choose_regime(len(template.classes_), data.n_features, None, feature_density(data))
    start = time.perf_counter()
    with progress_display(template.verbose, "ccg") as progress:   # the masters of all stages, as a fit shows them
        stages = solve_stages(data, y_idx, tau, std, lambda0s, template._ccg_config(), reduction=reduction,
                              log=progress)
    ends = [r.history[-1]["seconds_elapsed"] if r.history else 0.0 for _, r in stages]
    seconds = np.diff([0.0] + ends)
    rows, coefs, estimators = [], [], []
    for (lambda0, result), stage_seconds in zip(stages, seconds):
        estimator = clone(template).set_params(lambda0=float(lambda0))
        for name in ("n_features_in_", "feature_names_in_", "classes_", "feature_map_", "column_scale_", "regime_"):
            if hasattr(template, name):
                setattr(estimator, name, getattr(template, name))
        mu = result.mu if reduction is None else complete(reduction, data, result.mu)
        estimator._set_result(X, result, mu, tau, lambda0 * std, template.column_scale_, None)
        rows.append({"lambda0": float(lambda0), "lower": estimator.lower_, "upper": estimator.upper_,
                     "gap": estimator.upper_ - estimator.lower_, "status": estimator.status_,
                     "n_iter": estimator.n_iter_, "seconds": stage_seconds})
        coefs.append(estimator.mu_)
        estimators.append(estimator)
    table = pd.DataFrame(rows, columns=_SCALARS)
    table.attrs["seconds_total"] = time.perf_counter() - start
    return RegularizationPath(table=table, coefs=coefs, estimators=estimators)


class MRCClassifierCV(ClassifierMixin, BaseEstimator):
    """An :class:`~mrc_pyomo.MRCClassifier` whose ``lambda0`` is chosen by cross-validation over a regularisation
    path (:func:`mrc_path` on each training fold), then refitted on all the data at the chosen value (MRC-CCG).

    Parameters
    ----------
    lambda0s : array-like, optional
        The candidate values (default :data:`DEFAULT_LAMBDA0S`).
    cv : int, cross-validation generator or iterable, default=5
        As scikit-learn's ``check_cv`` takes it (stratified folds for an integer).
    scoring : str or callable, optional
        As scikit-learn's ``check_scoring`` takes it; default the accuracy.
    phi, fit_intercept, solver, eps_1, eps_2, n_max, m_max, max_iter, regime, time_limit, solver_options, \
random_state, verbose, formulation
        As :class:`~mrc_pyomo.MRCClassifier`'s, for the paths of the folds and the refit (``time_limit`` bounds
        each path and the refit).

    Attributes
    ----------
    lambda0_ : float
        The value with the best mean validation score (the largest of equal ones: the simpler rule).
    cv_results_ : dict of arrays
        ``lambda0``, ``mean_test_score``, ``std_test_score`` and ``split<k>_test_score``, a value per candidate.
    best_estimator_ : MRCClassifier
        Fitted on all the data at ``lambda0_``; ``predict``, ``predict_proba``, ``decision_function`` and the
        fitted attributes (``classes_``, ``mu_``, ``upper_``, ``lower_``, ``status_``, ...) are its.
    """

    _parameter_constraints = {
        **{name: constraint for name, constraint in MRCClassifier._parameter_constraints.items()
           if name in ("phi", "fit_intercept", "solver", "eps_1", "eps_2", "n_max", "m_max", "max_iter",
                       "regime", "time_limit", "solver_options", "random_state", "verbose", "formulation")},
        "lambda0s": ["array-like", None], "cv": ["cv_object"], "scoring": [str, callable, None]}

    def __init__(self, lambda0s=None, cv=5, scoring=None, phi="linear", fit_intercept=True, solver="highs",
                 eps_1=1e-3, eps_2=1e-5, n_max=400, m_max=400, max_iter=1000, regime="auto", time_limit=None,
                 solver_options=None, random_state=None, verbose=False, formulation="paper"):
        self.lambda0s = lambda0s
        self.cv = cv
        self.scoring = scoring
        self.phi = phi
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.eps_1 = eps_1
        self.eps_2 = eps_2
        self.n_max = n_max
        self.m_max = m_max
        self.max_iter = max_iter
        self.regime = regime
        self.time_limit = time_limit
        self.solver_options = solver_options
        self.random_state = random_state
        self.verbose = verbose
        self.formulation = formulation

    def _estimator_params(self):
        """The :class:`~mrc_pyomo.MRCClassifier` parameters of the folds and the refit."""
        names = set(self.get_params()) - {"lambda0s", "cv", "scoring"}
        return {name: getattr(self, name) for name in names}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def fit(self, X, y):
        """Score every ``lambda0`` on each fold, choose ``lambda0_``, refit on ``(X, y)``."""
        self._validate_params()
        params = self._estimator_params()
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, reset=True)
        lambda0s = lambda0_grid(self.lambda0s)
        cv = check_cv(self.cv, y, classifier=True)
        folds = []
        for train, test in cv.split(X, y):
            path = mrc_path(X[train], y[train], lambda0s, **{**params, "verbose": False})
            scorer = check_scoring(path.estimators[0], scoring=self.scoring)
            scores = [scorer(estimator, X[test], y[test]) for estimator in path.estimators]
            folds.append(scores + [np.nan] * (len(lambda0s) - len(scores)))   # stages a time limit left out
        folds = np.asarray(folds, dtype=float)
        mean = np.nanmean(folds, axis=0)
        self.cv_results_ = {"lambda0": lambda0s, "mean_test_score": mean, "std_test_score": np.nanstd(folds, axis=0),
                            **{f"split{k}_test_score": folds[k] for k in range(len(folds))}}
        self.lambda0_ = float(lambda0s[int(np.nanargmax(mean))])   # the first (largest) of the best
        self.best_estimator_ = MRCClassifier(lambda0=self.lambda0_, **params).fit(X, y)
        self.classes_ = self.best_estimator_.classes_
        return self

    def __getattr__(self, name):
        # the fitted attributes of the refitted classifier (mu_, upper_, lower_, history_, ...)
        if name.endswith("_") and not name.startswith("__") and "best_estimator_" in self.__dict__:
            return getattr(self.__dict__["best_estimator_"], name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def predict_proba(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    def decision_function(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)
