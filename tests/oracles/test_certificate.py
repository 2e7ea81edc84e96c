"""The certificate (:mod:`mrc_pyomo.oracles.certificate`): the lower end of a fit's certified interval is a bound
on R* (an independent full LP: ``helpers.reference_R_star``), and the status never claims more than the
certificate.  End-to-end fits whose promise is the certificate's, and :func:`repair_alpha` on perturbed weights.

The layer-cake weights of the compact formulation's duals, certified by :func:`lower_bound`, are checked in
``tests/formulations/test_compact.py``; the certified interval on the property test's problems in
``tests/estimator/test_property.py``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import R_star_of, assert_exact, random_problem
from mrc_pyomo import MRCClassifier


def test_status_never_claims_more_than_the_certificate():
    X, y = random_problem(300, 5, 4, seed=1)
    for params in ({}, {"regime": "nm"}, {"method": "lp"}, {"eps_1": 0.05}):
        clf = MRCClassifier(**params).fit(X, y)
        assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= clf.eps_1
        assert clf.lower_ <= R_star_of(clf, X, y) + 1e-7 <= clf.upper_ + 2e-7


def test_sparse_text_like_features_absent_from_a_class():
    # a nonnegative feature never seen in one class has lambda = 0 there: the certificate drops the rows that
    # touch it, so that its dual constraint g = tau = 0 holds exactly
    rng = np.random.default_rng(0)
    n, d = 80, 12
    y = rng.integers(0, 3, n)
    X = rng.random((n, d)) * (rng.random((n, d)) < 0.3)
    X[y == 0, :3] = 0.0     # words absent from class 0
    X[y == 1, 3:5] = 0.0    # and from class 1
    X = sp.csr_matrix(X)
    for regime in ("n", "nm"):
        clf = MRCClassifier(regime=regime, eps_1=0.0, eps_2=0.0, n_max=10, m_max=5).fit(X, y)
        assert (clf.lambda_ == 0).any()
        assert_exact(clf, X, y)


def test_certificate_moves_alpha_onto_the_equalities_of_features_with_lambda_zero():
    """A feature never nonzero in its class (tau = lambda = 0) asks g = 0 exactly of the dual; a solver meets it
    to its tolerance only.  Weights perturbed by 1e-9 (relative) still certify R* to 1e-7: the certificate moves
    them back onto the dual constraints by least squares (before: it dropped every row touching the feature,
    a far weaker bound)."""
    from mrc_pyomo.oracles.certificate import lower_bound, repair_alpha
    from mrc_pyomo.oracles.dual import ROUND_OFF, dual_correlations, relative_feature_violations
    X, y = random_problem(60, 3, 3, seed=4)
    X[y == 0, 1] = 0.0
    clf = MRCClassifier(eps_1=0.0, lambda0=0.1).fit(X, y)
    master = clf.master_
    tau, lam, alpha = master.tau, master.lam, master.solution.alpha
    free = lam <= 0
    assert free.any() and np.all(tau[free] == 0)
    rows = master.points, master.samples, master.subsets
    exact = lower_bound(*rows, alpha, tau, lam, rho=clf.upper_)
    assert exact == pytest.approx(clf.upper_, abs=1e-7)
    rng = np.random.default_rng(0)
    noisy = alpha * (1.0 + 1e-9 * rng.standard_normal(len(alpha)))
    noisy /= noisy.sum()
    g = dual_correlations(*rows, noisy)
    assert np.abs(g[free]).max() > ROUND_OFF   # the perturbation breaks g = 0 beyond round-off ...
    moved = repair_alpha(*rows, noisy, g, tau, lam)
    g = dual_correlations(*rows, moved)
    assert np.all(moved >= 0) and moved.sum() == pytest.approx(1.0, abs=1e-14)
    assert np.abs(g[free]).max() <= ROUND_OFF   # ... and the step restores it
    assert relative_feature_violations(g, tau, lam).max() <= 1.0 + 1e-9   # and keeps the others on theirs
    bound = lower_bound(*rows, noisy, tau, lam, rho=clf.upper_)
    assert bound == pytest.approx(clf.upper_, abs=1e-7)
