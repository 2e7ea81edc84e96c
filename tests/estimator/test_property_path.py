"""Property test of the paths and of continuation: on the property test's small problems (``helpers.problems``:
K in 2..6, dense or sparse, linear or Fourier features, degenerate data, columns rescaled by 10^-6..10^6), every
stage of ``mrc_path`` and a fit through the continuation stages hold the R* of an independent full LP at their own
lambda0 (``helpers.reference_R_star``), at eps = 0.  Derandomised, so that CI runs the same examples every time."""

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import REFERENCE_TOL, problems, reference_R_star
from mrc_pyomo import MRCClassifier, mrc_path


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_every_stage_of_a_path_and_a_continued_fit_hold_R_star(problem):
    X, y, params = problem
    lambda0s = sorted({1.0, 0.1, params.pop("lambda0")}, reverse=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # eps = 0 may end at round-off, checked below
        path = mrc_path(X, y, lambda0s, eps_1=0.0, eps_2=0.0, **params)
        continued = MRCClassifier(lambda0=lambda0s[-1], continuation=True, eps_1=0.0, eps_2=0.0, **params).fit(X, y)
    classes, y_idx = np.unique(y, return_inverse=True)
    Psi = continued.feature_map_.transform(X)
    assert list(path.table.lambda0) == lambda0s and "not_reached" not in set(path.table.status)
    for (_, stage), estimator in zip(path.table.iterrows(), path.estimators):
        R_star = reference_R_star(Psi, y_idx, len(classes), stage.lambda0)
        assert stage.lower - REFERENCE_TOL <= R_star <= stage.upper + REFERENCE_TOL
        assert stage.upper - stage.lower <= 1e-6
        assert estimator.upper_ == stage.upper and estimator.lambda0 == stage.lambda0
    R_star = reference_R_star(Psi, y_idx, len(classes), lambda0s[-1])
    assert continued.lower_ - REFERENCE_TOL <= R_star <= continued.upper_ + REFERENCE_TOL
    assert continued.upper_ - continued.lower_ <= 1e-6
