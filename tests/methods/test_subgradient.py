"""MRC-SUB (``method="subgradient"``, :mod:`mrc_pyomo.methods.subgradient`): the baseline of the paper's comparisons."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem, standard_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.oracles.primal import worst_case_risk


@pytest.mark.parametrize("K,sparse", [(2, False), (4, True)])
def test_subgradient_approaches_R_star(K, sparse):
    X, y = random_problem(200, 4, K, sparse=sparse, seed=K)
    lp = MRCClassifier(method="lp").fit(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        sub = MRCClassifier(method="subgradient", max_iter=5000).fit(X, y)
    # a warning exactly when the certified gap is still above eps_1
    assert (sub.status_ != "converged") == any(w.category is ConvergenceWarning for w in caught)
    assert sub.status_ in ("max_iter", "converged") and sub.n_iter_ <= 5000 and sub.master_ is None
    assert lp.upper_ - 1e-9 <= sub.upper_ <= lp.upper_ + 5e-3
    Psi = sub.feature_map_.transform(X)
    assert sub.upper_ == pytest.approx(worst_case_risk(Psi, sub.mu_, sub.tau_, sub.lambda_), abs=1e-12)
    best = sub.history_.upper.to_numpy()
    assert np.all(np.diff(best) <= 0) and best[-1] == pytest.approx(sub.upper_, abs=1e-12)
    lower = sub.history_.lower.to_numpy()
    # the reported lower end is the last one lowered by the bound on its rounding (safe in floating point)
    assert np.all(np.diff(lower) >= 0) and 0 <= lower[-1] - 1e-12 <= sub.lower_ <= lower[-1] <= lp.upper_ + 1e-9
    assert list(sub.history_.columns) == ["iteration", "lambda0", "R_mu", "lower", "upper", "seconds_elapsed"]


def test_subgradient_time_limit():
    X, y = random_problem(100, 3, 3)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        sub = MRCClassifier(method="subgradient", max_iter=10**7, time_limit=0.2).fit(X, y)
    assert sub.status_ == "time_limit" and sub.n_iter_ < 10**7


@pytest.mark.parametrize("max_iter", [1, 2, 3, 5, 40])
def test_subgradient_history_ends_at_upper(max_iter):
    # before: when the last point was the best, history_.R_best at the end differed from upper_
    X, y = standard_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MRCClassifier(method="subgradient", max_iter=max_iter).fit(X, y)
    assert clf.history_.upper.iloc[-1] == pytest.approx(clf.upper_, abs=1e-12)
    assert clf.history_.lower.iloc[-1] == clf.lower_ <= clf.upper_
