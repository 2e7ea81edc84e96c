"""What every method returns: a FitResult with a str-valued Status, the same for every method."""

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from mrc_pyomo import MRCClassifier, Status, prepare
from mrc_pyomo.methods import METHODS
from mrc_pyomo.estimator.parameters import Settings
from mrc_pyomo.methods.result import FitResult, finish, status_of


def test_a_status_is_its_string():
    assert Status.CONVERGED == "converged" and "time_limit" == Status.TIME_LIMIT
    assert str(Status.MAX_ITER) == "max_iter" and f"{Status.CALLBACK}" == "callback"
    assert f"{Status.SOLVER_ERROR:>14}" == "  solver_error"
    assert Status("converged") is Status.CONVERGED and isinstance(Status.CONVERGED, str)
    assert {s.value for s in Status} == {"converged", "max_iter", "time_limit", "callback", "stalled",
                                          "solver_error", "not_reached"}
    assert pickle.loads(pickle.dumps(Status.CONVERGED)) is Status.CONVERGED
    assert pd.Series([Status.CONVERGED]).eq("converged").all()


@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_method_returns_a_typed_result_on_the_prepared_problem(name):
    """Every registered method: its config from the estimator's settings, its steps run to a FitResult."""
    method = METHODS[name]
    X, y = load_iris(return_X_y=True)
    problem = prepare(X, y, reduce=method.reduces)
    result = finish(method.steps(problem, method.configure(Settings(max_iter=50), problem)))
    assert isinstance(result, FitResult) and isinstance(result.status, Status)
    assert result.mu.shape == problem.tau.shape and 0 <= result.lower <= result.upper
    assert result.gap == result.upper - result.lower
    assert all(set(record) <= set(result.columns) for record in result.history)


def test_the_estimator_s_status_is_a_status():
    X, y = load_iris(return_X_y=True)
    clf = MRCClassifier().fit(X, y)
    assert isinstance(clf.status_, Status) and clf.status_ == "converged"
    assert np.isfinite(clf.objective_)


def test_one_function_decides_converged_from_the_interval_and_what_stopped_the_fit():
    """"converged" exactly when the certified gap is at most eps_1 (or the floor), whatever stopped the fit; a
    method's "converged" the interval does not support is "stalled"; with nothing stopping it, None: go on."""
    assert status_of(0.25, 0.2505, 1e-3, Status.SOLVER_ERROR) == "converged"
    assert status_of(0.25, 0.25, 0.0, Status.TIME_LIMIT) == "converged"
    assert status_of(0.25, 0.25 + 1e-10, 0.0) == "converged"   # eps_1 = 0: to the floor
    assert status_of(0.25, 0.252, 1e-3, Status.CONVERGED) == "stalled"
    for status in (Status.MAX_ITER, Status.TIME_LIMIT, Status.CALLBACK, Status.STALLED, Status.SOLVER_ERROR):
        assert status_of(0.25, 0.252, 1e-3, status) is status
    assert status_of(0.25, 0.252, 1e-3) is None
