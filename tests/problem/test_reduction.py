"""The exact reduction of :mod:`mrc_pyomo.problem.reduction`: features never seen in their class and the labels they block.

The reduced LP must have the value ``R*`` of the full LP (computed independently, without the reduction), and
:func:`~mrc_pyomo.problem.reduction.complete` must give a ``mu`` of the full problem whose exact ``R`` is that value.
How the regime "auto" counts the reduced LP's rows: ``tests/methods/ccg/test_config.py``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import R_star_of, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.reduction import complete, find_reduction


def text_like(n=60, d=10, K=3, seed=0, sparse=True):
    """Nonnegative sparse data where the first columns never occur in class 0 and column 2 never in class 1."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    X = rng.random((n, d)) * (rng.random((n, d)) < 0.4)
    X[y == 0, :2] = 0.0
    X[y == 1, 2] = 0.0
    X[np.flatnonzero(y != 0)[:3], 0] = 1.0   # some samples of other classes have word 0
    return (sp.csr_matrix(X) if sparse else X), y


def test_fixed_features_and_blocked_labels():
    X, y = text_like()
    reduction = find_reduction(X, y, 3)
    # the columns of features (0, 0), (0, 1) and (1, 2) are zero and the other classes' entries are >= 0
    expected = np.zeros((3, 10), dtype=bool)
    expected[0, :2] = expected[1, 2] = True
    assert np.array_equal(reduction.fixed, expected)
    assert np.all(reduction.direction[expected] == -1.0) and np.all(reduction.direction[~expected] == 0.0)
    dense = X.toarray()
    assert np.array_equal(reduction.blocked[:, 0], (dense[:, :2] != 0).any(axis=1))
    assert np.array_equal(reduction.blocked[:, 1], dense[:, 2] != 0)
    assert not reduction.blocked[:, 2].any()
    assert not reduction.blocked[np.arange(len(y)), y].any()   # a sample's own label is never blocked
    # the centroid of class k is blocked where some sample of class k is
    for k in range(3):
        assert np.array_equal(reduction.centroid_blocked[k], reduction.blocked[y == k].any(axis=0))
    # rows with a blocked label are left out, centroid ids (>= n) included
    samples = np.array([0, 0, len(y) + 1])
    subsets = np.array([[True, False, False], [False, True, True], [False, False, True]])
    kept = reduction.kept_rows(samples, subsets)
    assert kept[2] and kept[0] == (not reduction.blocked[0, 0])


def test_nothing_to_reduce():
    X, y = random_problem(40, 4, 3, seed=1)   # dense Gaussian data: no zero column
    assert find_reduction(X, y, 3) is None
    # a zero column for a class whose entries in the other classes change sign is not fixed
    X = np.abs(X)
    X[y == 0, 1] = 0.0
    X[np.flatnonzero(y != 0)[0], 1] = -1.0
    assert find_reduction(X, y, 3) is None


@pytest.mark.parametrize("method,regime", [("ccg", "n"), ("ccg", "nm"), ("lp", "n")])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("formulation", ["paper", "compact"])
def test_reduced_fit_reaches_R_star(method, regime, sparse, formulation):
    """The reduced LP (blocked labels left out of the items, in either formulation) has the full LP's R*."""
    X, y = text_like(sparse=sparse, seed=3)
    clf = MRCClassifier(method=method, regime=regime, eps_1=0.0, formulation=formulation).fit(X, y)
    R_star = R_star_of(clf, X, y)
    assert clf.status_ == "converged"
    assert clf.lower_ - 1e-7 <= R_star <= clf.upper_ + 1e-7 and clf.upper_ - clf.lower_ <= 1e-8
    # the fixed features got finite values that keep R at R* (the classifier's upper_ is R(mu_) on X)
    assert np.all(np.isfinite(clf.mu_)) and np.all(clf.mu_[0, 1:3] < 0)


def test_complete_keeps_R_and_pushes_blocked_scores_down():
    X, y = text_like(seed=5)
    Psi = sp.hstack([np.ones((X.shape[0], 1)), X]).tocsr()
    reduction = find_reduction(Psi, y, 3)
    tau, lam = mean_and_confidence(Psi, y, 3, 0.01)
    rng = np.random.default_rng(0)
    mu = np.where(reduction.fixed, 0.0, rng.normal(size=tau.shape))
    reduced = worst_case_risk(Psi, mu, tau, lam, reduction.blocked)
    assert worst_case_risk(Psi, mu, tau, lam) > reduced   # the blocked labels matter at this mu
    full = complete(reduction, Psi, mu)
    assert np.array_equal(full[~reduction.fixed], mu[~reduction.fixed])
    assert worst_case_risk(Psi, full, tau, lam) == pytest.approx(reduced, abs=1e-12)
    # an input with values on the fixed features is not modified, and those values are ignored
    before = mu.copy()
    mu[reduction.fixed] = 5.0
    mu_copy = mu.copy()
    assert np.array_equal(complete(reduction, Psi, mu), full)
    assert np.array_equal(mu, mu_copy) and np.array_equal(before[~reduction.fixed], mu[~reduction.fixed])
