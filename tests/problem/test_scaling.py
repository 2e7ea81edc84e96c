"""Scaling and centring (:mod:`mrc_pyomo.problem.scaling`): badly scaled columns, tiny features and data shifted far
from the origin give the right answer, certified, on every path (the regime "n", the regime "nm", the full LP).

End-to-end fits, each a case a careful user met (the comment of each test says what happened before); every
answer is checked against an independent full LP (``helpers.reference_R_star``, through ``assert_exact``).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from helpers import R_star_of, assert_exact, standard_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.data import ArraySource
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem.scaling import column_peaks


def scaled(X, factor, column=None):
    X = X.copy()
    if column is None:
        X *= factor
    else:
        X[:, column] *= factor
    return X


@pytest.mark.parametrize("factor,column", [(1e-6, 1), (1e-5, None), (1e-10, None), (1e-300, None), (1e6, 2),
                                           (1e150, None)])
def test_badly_scaled_columns_give_R_star(factor, column):
    # before: a column * 1e-6 made the first master "Unbounded" (costs below HiGHS's tolerances);
    # X * 1e-10 returned mu = 0 with upper_ = 0.667 against R* = 0.441, "converged"
    X, y = standard_problem()
    Xs = scaled(X, factor, column)
    clf = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(Xs, y)
    assert_exact(clf, Xs, y)
    reference = MRCClassifier(eps_1=0.0).fit(X, y)
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-6)  # R is invariant under column scaling
    assert np.array_equal(clf.predict(Xs), reference.predict(X))


def test_full_lp_on_tiny_features_is_certified():
    # before: method="lp" at X * 1e-9 returned upper_ = 0.744, worse than R(0), status "optimal"
    X, y = standard_problem()
    Xs = scaled(X, 1e-9)
    clf = MRCClassifier(method="lp", eps_1=0.0).fit(Xs, y)
    assert_exact(clf, Xs, y)


def test_regime_nm_closes_the_certified_gap_on_a_tiny_column():
    # before: with eps_1 = eps_2 = 0 and one column * 1e-5 it stopped "converged" 0.028 above R*
    X, y = standard_problem()
    Xs = scaled(X, 1e-5, 2)
    clf = MRCClassifier(regime="nm", eps_1=0.0, eps_2=0.0, n_max=5, m_max=2).fit(Xs, y)
    assert_exact(clf, Xs, y)


def test_no_regularisation_on_shifted_data():
    # before: lambda0 = 0, eps_1 = 0 on X + 1e6 ended 7e-3 above R* (HiGHS called an ill-conditioned master
    # optimal); without lambda, R is invariant under the shift (the columns are centred internally)
    # The scores of the rule in the user's units cancel to about 5e-9 at this shift: the certified gap reported
    # (each end moved outward by the bound on its rounding) is that, above eps_1 = 0, and the fit says so: the
    # loop converged in its rescaled, centred columns, but the arithmetic in the user's units cannot certify
    # eps_1 = 0 ("stalled", not "converged": "converged" only for a certified gap <= eps_1)
    X, y = standard_problem()
    with pytest.warns(ConvergenceWarning, match=r"stalled.*certified gap"):
        clf = MRCClassifier(lambda0=0.0, eps_1=0.0).fit(X + 1e6, y)
    R_star = R_star_of(clf, X, y)  # the independent reference on the unshifted data: the same R*
    assert clf.status_ == "stalled" and clf.lower_ - 1e-7 <= R_star <= clf.upper_ + 1e-7
    assert clf.upper_ - clf.lower_ <= 1e-6 and clf.upper_ - R_star <= 1e-6
    Psi = clf.feature_map_.transform(X + 1e6)
    R = worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_)
    assert R < clf.upper_ <= R + 1e-8   # raised by the bound on the rounding of R(mu_): 2.2e-9 here


def test_the_column_peaks_of_every_kind_of_block():
    """``max_i |Psi_ij|`` per column from dense, sparse (an empty column: 0) and array-api-strict data, and over
    several blocks of a source."""
    X = np.array([[1.0, -3.0, 0.0], [-2.0, 0.5, 0.0]])
    expected = np.array([2.0, 3.0, 0.0])
    assert np.array_equal(column_peaks(X), expected) and np.array_equal(column_peaks(sp.csr_matrix(X)), expected)
    tall = np.random.default_rng(0).normal(size=(2500, 3))
    assert np.array_equal(column_peaks(tall), np.abs(tall).max(axis=0))
    xps = pytest.importorskip("array_api_strict")
    source = ArraySource(xps.asarray(tall))
    source.block_rows = 1000
    assert np.array_equal(column_peaks(source), np.abs(tall).max(axis=0))
