"""The prepared problem (mrc_pyomo.problem): made once, the same at another lambda0 without a pass over the data,
one count of the full LP's size for every caller, a rule certified in the user's units."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, load_wine

from helpers import random_problem
from mrc_pyomo import MRCClassifier, MRCProblem, prepare
from mrc_pyomo.data import InMemorySource
from mrc_pyomo.formulations import get_formulation
from mrc_pyomo.methods import ccg, full_lp
from mrc_pyomo.methods.ccg import CCGConfig
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.methods.result import finish


class CountingSource(InMemorySource):
    """An in-memory source that counts its passes."""

    passes = 0

    def map_reduce(self, fn, combine, *per_sample):
        CountingSource.passes += 1
        return super().map_reduce(fn, combine, *per_sample)

    def map_blocks(self, fn):
        return CountingSource(fn(self.array))


def test_prepare_gives_the_estimator_s_problem():
    X, y = load_wine(return_X_y=True)
    problem = prepare(X, y, lambda0=0.05)
    clf = MRCClassifier(lambda0=0.05).fit(X, y)
    assert problem.classes.tolist() == clf.classes_.tolist() and problem.n_classes == 3
    assert np.array_equal(problem.scale, clf.column_scale_)
    np.testing.assert_allclose(problem.tau / problem.scale, clf.tau_, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(problem.lam / problem.scale, clf.lambda_, rtol=1e-12, atol=1e-15)
    assert problem.lam == pytest.approx(0.05 * problem.std) and problem.centre is None
    result = finish(ccg.steps(problem, CCGConfig()))
    rule = problem.rule(result.mu)
    assert rule.upper == pytest.approx(clf.upper_, abs=1e-12) and rule.upper == pytest.approx(result.upper, abs=1e-9)
    Psi = clf.feature_map_.transform(X)
    assert rule.upper == pytest.approx(worst_case_risk(Psi, rule.mu, rule.tau, rule.lam), abs=1e-12)


def test_the_problem_at_another_lambda0_makes_no_pass_over_the_data():
    X, y = load_iris(return_X_y=True)
    problem = prepare(CountingSource(X), y, lambda0=0.1)
    before = CountingSource.passes
    other = problem.at(0.01)
    assert CountingSource.passes == before
    assert other.lambda0 == 0.01 and problem.lambda0 == 0.1     # the problem is frozen: a new one
    assert other.data is problem.data and other.tau is problem.tau and other.std is problem.std
    np.testing.assert_allclose(other.lam, 0.01 * problem.std)
    with pytest.raises(AttributeError):
        problem.lambda0 = 0.5
    # its fit equals the fit of a problem prepared at that lambda0 from scratch
    direct = prepare(X, y, lambda0=0.01)
    config = CCGConfig(eps_1=1e-9)
    assert finish(ccg.steps(other, config)).upper == pytest.approx(finish(ccg.steps(direct, config)).upper, abs=1e-9)


def test_centring_is_for_lambda0_0_and_its_rules_are_refused_elsewhere():
    X, y = load_iris(return_X_y=True)
    X = X + 1e6
    problem = prepare(X, y, lambda0=0.0)
    assert problem.centre is not None and prepare(X, y, lambda0=0.1).centre is None
    result = finish(ccg.steps(problem, CCGConfig(regime="n", row_age=3)))
    rule = problem.rule(result.mu)
    assert rule.upper == pytest.approx(result.upper, abs=1e-6)
    with pytest.raises(ValueError, match="lambda0 = 0"):
        problem.at(0.1).rule(result.mu)


@pytest.mark.parametrize("formulation", ["paper", "compact"])
def test_one_count_of_the_full_lp_s_rows_for_every_caller(formulation):
    """problem.full_lp_size counts the rows of the reduced full LP in the formulation: the rows the full LP's
    master holds, which the regime "auto" and the size limits use alike."""
    rng = np.random.default_rng(0)
    n, d = 40, 12
    y = rng.integers(0, 3, n)
    X = sp.random(n, d, density=0.3, random_state=1, format="lil")
    X[np.flatnonzero(y == 0)[:, None], np.arange(6, 12)[None, :]] = 0.0   # words never seen in class 0
    X[np.arange(n), rng.integers(0, 6, n)] = 1.0
    problem = prepare(X.tocsr(), y)
    assert problem.reduction is not None and problem.reduction.blocked.any()
    rows, nonzeros = problem.full_lp_size(formulation)
    kept = 3 - problem.reduction.blocked.sum(axis=1)
    expected = {"paper": int(np.sum(2 ** kept - 1)), "compact": int(np.sum(kept + 1))}[formulation]
    assert rows == expected and rows < get_formulation(formulation).full_lp_size(np.full(n, 3), 3, np.zeros(n))[0]
    master = finish(full_lp.steps(problem, full_lp.LPConfig(eps_1=0.0, formulation=formulation))).master
    lp_rows = int(get_formulation(formulation).shape(master.subsets)[0].sum())
    assert lp_rows == rows
    assert nonzeros >= 2 * problem.nonzeros and problem.nonzeros == X.tocsr().count_nonzero() + n
    if formulation == "paper":   # the entries of the reduced LP exactly: F on the rows kept, twice, and nu's
        block = master.block(master.samples, master.subsets, master.features)
        assert nonzeros == 2 * block.mu.nnz + master.n_rows


def test_a_problem_of_arrays_is_the_lp_as_given():
    X, y = load_iris(return_X_y=True)
    Psi = np.hstack([np.ones((len(X), 1)), X])
    tau, lam = mean_and_confidence(Psi, y, 3, 0.01)
    problem = MRCProblem.from_arrays(Psi, y, tau, lam)
    assert problem.lambda0 == 1.0 and np.array_equal(problem.lam, lam) and problem.reduction is None
    result = finish(ccg.steps(problem, CCGConfig(eps_1=1e-9)))
    rule = problem.rule(result.mu)
    assert np.array_equal(rule.mu, result.mu) and rule.upper == pytest.approx(result.upper, abs=1e-12)


def test_prepare_refuses_a_single_class():
    with pytest.raises(ValueError, match="at least two classes"):
        prepare(np.ones((5, 2)), np.zeros(5))


def test_estimator_shows_a_single_class_plainly():
    X, _ = random_problem(20, 2, 2)
    with pytest.raises(ValueError, match=r"got 1 class \(1\)$"):
        MRCClassifier().fit(X, np.ones(20, dtype=np.int64))
    with pytest.raises(ValueError, match=r"got 1 class \('a'\)$"):
        MRCClassifier().fit(X, np.array(["a"] * 20))


def test_a_problem_without_labels_says_what_needs_them():
    """``from_arrays(..., y=None)``: the full LP solves it; MRC-CCG's first master and the rule in the user's
    units need the labels, and say so (the rule pass no longer handles None)."""
    from mrc_pyomo.methods.ccg import initial_master
    from helpers import scaled_problem
    Psi, _, tau, lam = scaled_problem(30, 3, 3, False, seed=1)
    problem = MRCProblem.from_arrays(Psi, None, tau, lam)
    assert finish(full_lp.steps(problem, full_lp.LPConfig())).status == "converged"
    with pytest.raises(ValueError, match="without labels"):
        problem.rule(np.zeros_like(tau))
    with pytest.raises(ValueError, match="need the labels"):
        initial_master(problem, CCGConfig())


def test_features_mostly_zeros_are_passed_over_as_a_sparse_matrix():
    """Dense features in memory with at most 30% of nonzeros (raw pixels) are kept as a CSR matrix of the same
    values, whose passes cost their nonzeros: the fit is the one of the same data given as a CSR matrix (to the
    rounding of the column scales, which a dense and a sparse pass sum in other orders); denser features stay
    dense."""
    import scipy.sparse as sp
    from mrc_pyomo import MRCClassifier
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 12)) * (rng.random((400, 12)) < 0.2)
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 0.5)
    assert prepare(X, y).data.sparse and not prepare(X + 1.0, y).data.sparse
    assert np.allclose(prepare(X, y).data.array.toarray(), prepare(sp.csr_matrix(X), y).data.array.toarray(),
                       rtol=1e-14, atol=0)
    dense, sparse = MRCClassifier(eps_1=0.0).fit(X, y), MRCClassifier(eps_1=0.0).fit(sp.csr_matrix(X), y)
    assert dense.upper_ == pytest.approx(sparse.upper_, abs=1e-9) and dense.lower_ == pytest.approx(sparse.lower_,
                                                                                                    abs=1e-9)
