"""The estimator: scikit-learn conventions, SPEC.md's attributes, and clear errors on bad input."""

import pickle

import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.datasets import load_iris, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import check_estimator

from conftest import random_problem
from mrc_pyomo import LinearFeatures, MasterSolveError, MRCClassifier, RandomFourierFeatures
from mrc_pyomo.methods.ccg import HISTORY_COLUMNS
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.estimator.parameters import validate_parameters


@pytest.mark.parametrize("estimator", [MRCClassifier(), MRCClassifier(phi="fourier", regime="nm")],
                         ids=["default", "fourier-nm"])
def test_check_estimator(estimator):
    check_estimator(estimator)


def test_fitted_attributes_follow_the_spec():
    X, y = random_problem(90, 4, 3, seed=2)
    labels = np.array(["cat", "dog", "emu"])[y]
    clf = MRCClassifier(eps_1=0.0).fit(X, labels)
    assert list(clf.classes_) == ["cat", "dog", "emu"]
    assert clf.n_features_in_ == 4
    assert clf.tau_.shape == clf.lambda_.shape == clf.mu_.shape == (3, 5)
    Psi = clf.feature_map_.transform(X)
    assert Psi.shape == (90, 5) and np.all(Psi[:, 0] == 1.0)
    assert clf.upper_ == worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_)
    assert isinstance(clf.history_, pd.DataFrame) and list(clf.history_.columns) == HISTORY_COLUMNS
    assert len(clf.history_) == clf.n_iter_ >= 1
    assert (clf.history_.seconds_solve >= 0).all() and (clf.history_.seconds_update >= 0).all()
    proba = clf.predict_proba(X)
    assert proba.shape == (90, 3) and np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(clf.predict(X), clf.classes_[np.argmax(Psi @ clf.mu_.T, axis=1)])
    assert clf.score(X, labels) > 0.6
    # nu = varphi(mu) + 1 at the master's optimum, up to the master's missing rows: upper_ >= R^k
    assert clf.upper_ >= clf.objective_ - 1e-9


def test_inputs_are_not_modified():
    X, y = random_problem(40, 3, 2, seed=4)
    Xs = sp.csr_matrix(X)
    X0, y0, Xs0 = X.copy(), y.copy(), Xs.copy()
    MRCClassifier().fit(X, y)
    MRCClassifier().fit(Xs, y)
    assert np.array_equal(X, X0) and np.array_equal(y, y0) and (Xs != Xs0).nnz == 0


def test_dense_and_sparse_give_the_same_classifier():
    X, y = random_problem(60, 4, 3, seed=5)
    a = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(X, y)
    b = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(sp.csr_matrix(X), y)
    assert a.upper_ == pytest.approx(b.upper_, abs=1e-9)


@pytest.mark.parametrize("params,value", [
    ({"phi": "polynomial"}, "'polynomial'"),
    ({"phi": 3}, "3"),
    ({"lambda0": -1.0}, "-1.0"),
    ({"lambda0": np.inf}, "inf"),
    ({"lambda0": True}, "True"),
    ({"fit_intercept": "yes"}, "'yes'"),
    ({"eps_1": -0.1}, "-0.1"),
    ({"eps_2": np.nan}, "nan"),
    ({"n_max": 0}, "0"),
    ({"m_max": 2.5}, "2.5"),
    ({"max_iter": 0}, "0"),
    ({"max_iter": True}, "True"),
    ({"method": "simplex"}, "'simplex'"),
    ({"regime": "big"}, "'big'"),
    ({"solver": 3}, "3"),
    ({"time_limit": -1.0}, "-1.0"),
    ({"solver_options": "fast"}, "'fast'"),
    ({"callback": "stop"}, "'stop'"),
    ({"random_state": "seed"}, "'seed'"),
])
def test_bad_parameters(params, value):
    """scikit-learn's parameter validation: the error (a ValueError) names the parameter and the value."""
    X, y = random_problem(20, 2, 2)
    (name,) = params
    with pytest.raises(InvalidParameterError, match=rf"The '{name}' parameter of MRCClassifier .* Got {value} "):
        MRCClassifier(**params).fit(X, y)
    with pytest.raises(InvalidParameterError, match=f"'{name}'"):
        validate_parameters(MRCClassifier(**params))   # what the command line calls before it prints


def test_valid_parameter_values_are_accepted():
    from sklearn.preprocessing import StandardScaler
    X, y = random_problem(30, 2, 2)
    clf = MRCClassifier(phi=StandardScaler(), lambda0=0, fit_intercept=np.bool_(False), n_max=np.int64(5),
                        time_limit=30, solver_options={}, random_state=np.random.RandomState(0), verbose=0,
                        callback=lambda state: False).fit(X, y)
    assert clf.status_ == "converged"


@pytest.mark.parametrize("n_classes", [2, 4])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_coef_and_intercept_give_the_estimator_s_scores(n_classes, fit_intercept, sparse):
    X, y = random_problem(120, 5, n_classes, sparse=sparse, seed=3)
    units = np.array([1.0, 10.0, 0.1, 3.0, 1.0])   # the user's units, not the fit's internal ones
    X = sp.csr_matrix(X @ sp.diags(units)) if sparse else X * units + 2.0
    clf = MRCClassifier(fit_intercept=fit_intercept).fit(X, y)
    assert clf.coef_.shape == (n_classes, 5) and clf.intercept_.shape == (n_classes,)
    scores = np.asarray(X @ clf.coef_.T) + clf.intercept_
    expected = scores[:, 1] - scores[:, 0] if n_classes == 2 else scores
    assert np.allclose(clf.decision_function(X), expected, rtol=1e-12, atol=1e-12)
    assert np.array_equal(clf.predict(X), clf.classes_[np.argmax(scores, axis=1)])
    if fit_intercept:
        assert np.array_equal(clf.intercept_, clf.mu_[:, 0]) and np.array_equal(clf.coef_, clf.mu_[:, 1:])
    else:
        assert np.array_equal(clf.intercept_, np.zeros(n_classes)) and np.array_equal(clf.coef_, clf.mu_)
    # derived from mu_, not a second copy, and not writable through
    assert np.shares_memory(clf.coef_, clf.mu_)
    with pytest.raises(ValueError, match="read-only"):
        clf.coef_[0, 0] = 1.0
    with pytest.raises(AttributeError):
        clf.coef_ = np.zeros((n_classes, 5))


def test_coef_follows_the_fitted_map_not_a_later_set_params():
    X, y = random_problem(60, 3, 3, seed=1)
    clf = MRCClassifier(fit_intercept=True).fit(X, y)
    clf.set_params(fit_intercept=False, phi="fourier")
    assert clf.coef_.shape == (3, 3)
    assert np.allclose(X @ clf.coef_.T + clf.intercept_, clf.decision_function(X))


def test_coef_exists_for_the_linear_map_only():
    from sklearn.preprocessing import StandardScaler
    X, y = random_problem(60, 3, 3, seed=1)
    assert not hasattr(MRCClassifier(), "coef_")   # not fitted
    for phi in ["fourier", StandardScaler()]:
        clf = MRCClassifier(phi=phi, random_state=0).fit(X, y)
        assert not hasattr(clf, "coef_") and not hasattr(clf, "intercept_")
        with pytest.raises(AttributeError, match=r"linear map only \(phi='linear'\)"):
            clf.coef_
    clf = MRCClassifier(phi=LinearFeatures()).fit(X, y)   # the identity map given as an object
    assert np.allclose(X @ clf.coef_.T + clf.intercept_, clf.decision_function(X))


def test_pickle_roundtrip_keeps_predictions_and_master():
    X, y = random_problem(200, 5, 3, seed=8)
    clf = MRCClassifier().fit(X, y)
    clone = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(clone.predict(X), clf.predict(X))
    # the master can be solved again after unpickling and gives the same R^k
    assert clone.master_.solve().objective == pytest.approx(clf.objective_, abs=1e-9)
    # the fitted master holds only the samples of its rows, not the training data
    assert clone.master_.data.n_samples <= clone.master_.n_rows


# verbose: tests/test_output.py
