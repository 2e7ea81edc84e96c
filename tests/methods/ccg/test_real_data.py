"""MRC-CCG on real benchmark data (../shared/data), subsampled so that the full LP stays affordable.

With eps_1 = eps_2 = 0 the certified ``upper_`` equals the full LP's R* to 1e-6.  With the default
eps_1 = 1e-2 the bounds of Theorem 1 hold: ``R* - eps_1 <= R^k <= R*`` and, since ``R(mu^k) - R^k`` is the
largest primal violation, ``R* <= upper_ <= R* + eps_1``; the master's value ``R^k`` is within 1e-3 of R*
(the paper's accuracy measure), and ``upper_`` is within 1e-3 once eps_1 = 1e-3.
"""

import numpy as np
import pytest

from helpers import load_dataset
from mrc_pyomo import MRCClassifier


CASES = [("satellite", 200), ("dry_bean", 200), ("pulsar", 2000)]


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def problem(request):
    name, n = request.param
    X, y = load_dataset(name, n=n, seed=0)
    lp = MRCClassifier(method="lp").fit(X, y)
    return X, y, lp.objective_, lp.upper_


def test_exact_ccg_reaches_R_star(problem):
    X, y, R_star, lp_upper = problem
    assert lp_upper == pytest.approx(R_star, abs=1e-7)
    clf = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(X, y)
    assert clf.status_ == "converged"
    assert abs(clf.upper_ - R_star) <= 1e-6


def test_default_eps_meets_theorem_1(problem):
    X, y, R_star, _ = problem
    clf = MRCClassifier().fit(X, y)
    assert clf.status_ == "converged"
    for _, stage in clf.history_.groupby("lambda0", sort=False):   # Theorem 1 at each stage's lambda0
        assert np.all(np.diff(stage.R_master.to_numpy()) >= -1e-9)
    R_k = clf.history_.R_master.to_numpy()
    assert R_star - clf.eps_1 - 1e-9 <= R_k[-1] <= R_star + 1e-9
    assert R_star - 1e-9 <= clf.upper_ <= R_star + clf.eps_1
    assert abs(R_k[-1] - R_star) <= 1e-3
    assert clf.score(X, y) > 0.7


def test_eps_1e3_gives_upper_within_1e3(problem):
    X, y, R_star, _ = problem
    clf = MRCClassifier(eps_1=1e-3).fit(X, y)
    assert R_star - 1e-9 <= clf.upper_ <= R_star + 1e-3


def test_the_unregularised_mrc_converges():
    """lambda0 = 0 on satellite (2000 samples): removing rows at their first zero dual made the loop zigzag
    until max_iter (certified gap 0.47 after 1,000 masters on all samples); with row ageing it converges."""
    from mrc_pyomo.methods.ccg import row_age
    X, y = load_dataset("satellite", n=2000, seed=0)
    clf = MRCClassifier(lambda0=0.0, time_limit=60).fit(X, y)
    assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= clf.eps_1
    assert clf.n_iter_ < 100 and row_age(0.0) > 1 and row_age(0.01) == 1
