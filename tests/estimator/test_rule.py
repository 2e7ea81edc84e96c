"""The fitted rule (:mod:`mrc_pyomo.estimator.rule`): ``coef_`` and ``intercept_`` in the user's units, for the
linear map only, read-only views of ``mu_``; ``predict_proba`` finite and normalised at any score."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem, standard_problem
from mrc_pyomo import LinearFeatures, MRCClassifier


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


def test_predict_proba_with_huge_scores():
    # before: NaN for scores above about 1e17 (the prefix means of psi cancelled to 0 / 0)
    X, y = standard_problem()
    clf = MRCClassifier().fit(X, y)
    for factor in (1e17, 1e100, -1e200):
        proba = clf.predict_proba(X * factor)
        assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)
        assert np.array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X * factor))


def test_a_binary_coef_has_a_row_per_class_and_says_why():
    """Two classes: ``coef_`` is ``(2, d)`` and ``intercept_`` ``(2,)``, the rows of ``mu_``, whose difference is the
    decision function (scikit-learn's ``(1, d)`` row) and whose shift by a common vector leaves the probabilities
    as they are but not the certified risk; the class docstring and the API page say which shape and why."""
    from sklearn.datasets import load_breast_cancer
    from helpers import ROOT
    X, y = load_breast_cancer(return_X_y=True)
    X = (X[:120] - X[:120].mean(axis=0)) / X[:120].std(axis=0)
    clf = MRCClassifier().fit(X, y[:120])
    assert clf.coef_.shape == (2, 30) and clf.intercept_.shape == (2,)
    assert np.allclose(clf.decision_function(X),
                       X @ (clf.coef_[1] - clf.coef_[0]) + clf.intercept_[1] - clf.intercept_[0])
    shifted = MRCClassifier().fit(X, y[:120])
    shifted.mu_ = clf.mu_ + np.linspace(-1.0, 1.0, clf.mu_.shape[1])
    assert np.allclose(shifted.predict_proba(X), clf.predict_proba(X))
    assert np.sum(clf.lambda_ * np.abs(shifted.mu_)) > np.sum(clf.lambda_ * np.abs(clf.mu_))
    docstring = " ".join(MRCClassifier.__doc__.split())
    assert "A row per class for two classes too, not scikit-learn's ``(1, n_features)``" in docstring
    api = " ".join((ROOT / "docs" / "api.rst").read_text().split())
    assert "``coef_`` has a row per class for two classes too" in api
