"""The incumbent (:mod:`mrc_pyomo.oracles.incumbent`), the best certified rule a fit has seen: a fit stopped
before its certified gap closes returns it (improved on the segment to the last master's ``mu``), with a
warning, never a worse rule nor ``mu = 0``.  End-to-end fits stopped by ``max_iter``."""

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.exceptions import ConvergenceWarning

from helpers import R_star_of, random_problem
from mrc_pyomo import MRCClassifier


def test_an_early_stop_warns_and_returns_a_useful_certified_rule():
    # before: max_iter = 2 on wine returned mu = 0, a trivial classifier, without a warning
    X, y = load_wine(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    with pytest.warns(ConvergenceWarning, match=r"certified gap upper_ - lower_ = [0-9.e-]+ above eps_1"):
        clf = MRCClassifier(max_iter=2).fit(X, y)
    assert clf.status_ == "max_iter" and clf.upper_ - clf.lower_ > clf.eps_1
    R_zero = 1.0 - 1.0 / 3
    assert clf.upper_ < R_zero and clf.lower_ <= R_star_of(clf, X, y) + 1e-7 <= clf.upper_ + 2e-7
    # the last master's predictions (its mu centred over the classes, on a certified segment), not mu = 0
    assert clf.score(X, y) > 0.65 and np.any(clf.mu_ != 0)


def test_an_interrupted_fit_returns_the_best_rule_seen():
    X, y = random_problem(300, 4, 4, seed=6)
    with pytest.warns(ConvergenceWarning, match="certified gap"):
        clf = MRCClassifier(eps_1=0.0, n_max=3, max_iter=6, continuation=False).fit(X, y)
    h = clf.history_
    R_zero = 1.0 - 1.0 / 4  # R(0): the rule before the first master
    assert np.allclose(h.upper, np.minimum.accumulate(np.minimum(h.R_mu, R_zero)), atol=0)
    # the segment between the best rule and the last master's mu can only improve on both
    assert clf.upper_ <= h.upper.iloc[-1] + 1e-12 and clf.upper_ <= h.R_mu.iloc[-1] + 1e-12
    assert np.all(np.diff(h.lower) >= 0) and h.lower.iloc[-1] - 1e-12 <= clf.lower_ <= h.lower.iloc[-1]
    assert clf.lower_ <= clf.upper_


def _shrink_case(sparse, seed):
    """A problem, a rule ``mu`` of mixed signs and a level ``nu`` that about a fifth of the samples exceed, with each
    violated sample's most violated subset and excess, by brute force over every label subset."""
    import scipy.sparse as sp

    from mrc_pyomo.oracles.rows import all_subsets
    from mrc_pyomo.problem import MRCProblem

    rng = np.random.default_rng(seed)
    n, d, K = 60, 25, 4
    Psi = rng.random((n, d)) * (rng.random((n, d)) < 0.2) if sparse else rng.normal(size=(n, d))
    Psi = sp.csr_matrix(Psi) if sparse else Psi
    y = np.arange(n) % K
    tau, lam = rng.random((K, d)) * 0.05, rng.random((K, d)) * 0.01
    problem = MRCProblem.from_arrays(Psi, y, tau, lam)
    mu = rng.normal(size=(K, d))
    dense = Psi.toarray() if sparse else Psi

    def brute(mu):
        subsets = all_subsets(K)
        values = (dense @ mu.T) @ subsets.T.astype(float)
        values = (values - 1.0) / subsets.sum(axis=1)
        return values.max(axis=1), subsets[values.argmax(axis=1)]

    psi, subsets = brute(mu)
    nu = float(np.quantile(psi, 0.8)) + 1.0
    violated = np.flatnonzero(psi + 1.0 - nu > 1e-9)
    points = (lambda ids: Psi[np.asarray(ids)])
    return problem, points, mu, nu, violated, subsets[violated], psi[violated] + 1.0 - nu, brute


@pytest.mark.parametrize("sparse", [True, False])
def test_a_rule_shrunk_onto_its_level(sparse):
    """``shrunk_to_level`` moves entries of ``mu`` towards 0, never past it, and only those that raise a violated
    sample's score; on nonnegative (text-like) features every sample ends at the level ``nu - 1``; its ``varphi`` is
    the brute-force maximum over every label subset at the rule it returns, whatever the signs of the features; more
    violated samples than ``limit``: no candidate."""
    from mrc_pyomo.oracles.incumbent import shrunk_to_level

    problem, points, mu, nu, samples, subsets, excess, brute = _shrink_case(sparse, seed=3)
    assert 0 < len(samples) < 60
    shrunk, varphi = shrunk_to_level(problem, points, mu, nu, samples, subsets, excess, limit=60, rounds=20)
    assert np.all(np.abs(shrunk) <= np.abs(mu)) and np.all(shrunk * mu >= 0)
    assert np.any(shrunk != mu)
    psi, _ = brute(shrunk)
    assert varphi == pytest.approx(psi.max(), abs=1e-12)
    if sparse:   # scores only fall: every sample at the level, the entries no violated sample holds unchanged
        assert psi.max() <= nu - 1.0 + 1e-9
        held = (problem.data.array[samples] != 0).toarray().any(axis=0)
        assert np.array_equal(shrunk[:, ~held], mu[:, ~held])
    assert np.all(mu == _shrink_case(sparse, seed=3)[2])   # the rule passed in is not modified
    assert shrunk_to_level(problem, points, mu, nu, samples, subsets, excess, limit=len(samples) - 1) is None
