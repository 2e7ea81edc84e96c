"""The loop's configuration (:mod:`mrc_pyomo.methods.ccg.config`): the simplex's time budget, and the regime "auto"
(the full LP for sparse text that the exact reduction makes small, the regime "n" for dense features with many
classes)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from helpers import R_star_of
from mrc_pyomo import MRCClassifier
from mrc_pyomo.problem.reduction import find_reduction


def test_simplex_budget_is_relative_to_the_largest_solve():
    """Stall protection is on by default: the warm simplex gets stall_factor (3) times the largest solve so
    far, at least stall_floor (1 s), and nothing on the first master; a config without a factor has none."""
    from mrc_pyomo.methods.ccg import CCGConfig, simplex_budget
    assert simplex_budget([]) is None
    assert simplex_budget([2.0, 5.0, 1.0]) == pytest.approx(15.0)
    assert simplex_budget([0.01, 0.02]) == pytest.approx(1.0)
    assert simplex_budget([2.0], CCGConfig(stall_factor=2.0, stall_floor=0.0)) == pytest.approx(4.0)
    assert simplex_budget([2.0], CCGConfig(stall_factor=None)) is None


def many_words(n=200, d=6000, seed=0):
    """Two classes of sparse nonnegative 'documents' with more than LARGE_M features and class-specific words."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = sp.random(n, d, density=0.003, random_state=seed, format="lil")
    X[np.flatnonzero(y == 0)[:, None], np.arange(3000, 6000)[None, :]] = 0.0   # words of class 1 only
    X[np.arange(n), rng.integers(0, 6000, n)] = 1.0
    return X.tocsr(), y


def test_auto_solves_the_full_lp_of_sparse_text():
    from mrc_pyomo.methods import ccg, full_lp
    from mrc_pyomo.problem import prepare

    X, y = many_words()
    reduction = find_reduction(sp.hstack([np.ones((X.shape[0], 1)), X]).tocsr(), y, 2)
    problem = prepare(X, y)
    assert problem.reduction.blocked.tolist() == reduction.blocked.tolist()
    rows, nonzeros = problem.full_lp_size()
    assert rows == int(np.sum(2 ** (2 - reduction.blocked.sum(axis=1)) - 1))
    assert rows < 3 * X.shape[0]   # samples of class 0 with a word of class 1 keep a single row
    assert ccg.choose_regime(2, 6001, (rows, nonzeros)) == "full"
    # the full LP while it is within its limits, of rows and of nonzeros (exact, with the reduction)
    assert ccg.choose_regime(2, 6001, (full_lp.MAX_ROWS, full_lp.MAX_NONZEROS)) == "full"
    assert ccg.choose_regime(2, 6001, (full_lp.MAX_ROWS + 1, nonzeros)) == "nm"
    assert ccg.choose_regime(2, 6001, (rows, full_lp.MAX_NONZEROS + 1)) == "nm"
    assert ccg.choose_regime(2, 100, (10, 100)) == "n"
    # many classes: the full LP is out of reach; column generation for sparse features only
    assert ccg.feature_density(problem) < 0.01
    assert ccg.feature_density(prepare(np.ones((3, 2)), [0, 1, 1], fit_intercept=False)) == 1.0
    assert ccg.choose_regime(26, 417, None, density=1.0) == "n"
    assert ccg.choose_regime(26, 6001, None, density=ccg.feature_density(problem)) == "nm"
    assert full_lp.choose_method(2, 6001, problem.nonzeros, int(rows)) == "primal_ipm"
    clf = MRCClassifier(eps_1=0.0).fit(X, y)
    assert clf.regime_ == "full" and clf.master_.full_lp_method == "primal_ipm" and clf.n_iter_ == 0
    assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= 1e-8
    ccg_fit = MRCClassifier(regime="nm", eps_1=0.0).fit(X, y)
    assert ccg_fit.status_ == "converged"
    R_star = R_star_of(clf, X, y)
    assert clf.upper_ == pytest.approx(R_star, abs=1e-7) and ccg_fit.upper_ == pytest.approx(R_star, abs=1e-7)


def test_auto_keeps_dense_features_with_many_classes_in_the_regime_n():
    """26 classes and 400 random Fourier features (K D > LARGE_M, every feature nonzero): "auto" gives the
    regime "n", whose certificate moves (the regime "nm" cannot close while dense features lie outside J)."""
    rng = np.random.default_rng(26)
    y = np.repeat(np.arange(26), 4)
    X = rng.normal(size=(26, 5))[y] + rng.normal(size=(len(y), 5))
    with pytest.warns(ConvergenceWarning):
        clf = MRCClassifier(phi="fourier", max_iter=2, random_state=0).fit(X, y)
    assert clf.tau_.size > 10_000 and clf.regime_ == "n"
