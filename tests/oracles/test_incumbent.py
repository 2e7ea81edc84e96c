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
