"""The formulation seam (mrc_pyomo.formulations): the compact form of (sample, class) pairs against the paper's
rows, piece by piece against brute force, and whole fits against each other and an independent full LP."""

import itertools
import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from sklearn.datasets import load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from mrc_pyomo import MRCClassifier, RestrictedMaster
from mrc_pyomo.oracles.dual import dual_correlations
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.formulations import CompactFormulation, LPBlock, PaperFormulation, get_formulation
from mrc_pyomo.master.dual_lp import DualLPBackend

from conftest import random_problem, reference_R_star
from test_backends import _needs
from test_layer_cake_certificate import compact_lp, layer_cake
from test_property import problems

COMPACT, PAPER = CompactFormulation(), PaperFormulation()


def _subsets_of(mask):
    """Every non-empty subset of the classes of ``mask``, as boolean rows."""
    classes = np.flatnonzero(mask)
    for size in range(1, len(classes) + 1):
        for combo in itertools.combinations(classes, size):
            row = np.zeros(len(mask), dtype=bool)
            row[list(combo)] = True
            yield row


def _random_sets(rng, n, K):
    sets = rng.random((n, K)) < 0.5
    sets[np.arange(n), rng.integers(0, K, n)] = True
    return sets


def test_a_compact_item_enforces_exactly_the_paper_rows_of_its_set():
    """item_values is the largest paper-row value over the subsets of the item's set (enumerated), and covers
    says a row (i, C) is enforced exactly when C is within the set of i's item."""
    rng = np.random.default_rng(0)
    K = 5
    sets = _random_sets(rng, 30, K)
    scores = rng.normal(size=(30, K))
    brute = [max((s[C].sum() - 1) / C.sum() for C in _subsets_of(P)) for s, P in zip(scores, sets)]
    np.testing.assert_allclose(COMPACT.item_values(scores, sets), brute, rtol=0, atol=1e-12)
    np.testing.assert_allclose(PAPER.item_values(scores, sets), (np.sum(scores * sets, 1) - 1) / sets.sum(1))

    samples = rng.permutation(100)[:30]
    ids = rng.choice(np.concatenate([samples, [200, 201]]), 80)
    queries = _random_sets(rng, 80, K)
    held = dict(zip(samples, sets))
    expected = [i in held and not (C & ~held[i]).any() for i, C in zip(ids, queries)]
    np.testing.assert_array_equal(COMPACT.covers(samples, sets)(ids, queries), expected)
    exact = [i in held and (C == held[i]).all() for i, C in zip(ids, queries)]
    np.testing.assert_array_equal(PAPER.covers(samples, sets)(ids, queries), exact)


def test_merging_rows_into_compact_items_takes_unions_per_sample():
    held_samples = np.array([4, 7, 9])
    held_sets = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 1]], dtype=bool)
    new_samples = np.array([7, 2, 4, 2, 9, 7])
    new_sets = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0], [1, 0, 0]], dtype=bool)
    replaced, (samples, sets) = COMPACT.merge(held_samples, held_sets, new_samples, new_sets)
    np.testing.assert_array_equal(replaced, [True, True, False])   # 9 holds every class already
    np.testing.assert_array_equal(samples, [2, 4, 7])
    np.testing.assert_array_equal(sets, [[1, 1, 0], [1, 0, 1], [1, 1, 1]])
    replaced, (samples, sets) = PAPER.merge(held_samples, held_sets, new_samples, new_sets)
    assert not replaced.any() and len(samples) == 6                 # no new row is held: all kept, in order
    replaced, (samples, _) = PAPER.merge(held_samples, held_sets, np.array([7, 7, 4]),
                                         np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=bool))
    np.testing.assert_array_equal(samples, [7])


def test_the_compact_lp_block_is_the_pairs_rows_and_columns():
    """The LP block of two items written out by hand: pair rows Psi_i.mu_y - u_iy - nu <= -1, sample rows
    sum_y u_iy <= 1, in item order, with their names."""
    Psi = np.array([[1.0, 2.0], [3.0, 0.0]])
    points = lambda ids, columns=None: Psi[ids] if columns is None else Psi[np.ix_(ids, columns)]  # noqa: E731
    samples, sets = np.array([1, 0]), np.array([[1, 0, 1], [0, 1, 0]], dtype=bool)
    features = np.array([0, 1, 4, 5, 2])             # (y, j) = (0,0), (0,1), (2,0), (2,1), (1,0)
    lp = COMPACT.block(points, samples, sets, features, 2)
    assert isinstance(lp, LPBlock)
    mu = [[3, 0, 0, 0, 0], [0, 0, 3, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]]
    np.testing.assert_array_equal(lp.mu.toarray(), mu)
    np.testing.assert_array_equal(lp.nu, [-1, -1, 0, -1, 0])
    np.testing.assert_array_equal(lp.columns.toarray(), [[-1, 0, 0], [0, -1, 0], [1, 1, 0], [0, 0, -1], [0, 0, 1]])
    np.testing.assert_array_equal(COMPACT.upper(sets), [-1, -1, 1, -1, 1])
    row_names, column_names = COMPACT.names(samples, sets, n_samples=2)
    assert row_names == [("x1", "y0"), ("x1", "y2"), ("x1", "sum"), ("x0", "y1"), ("x0", "sum")]
    assert column_names == [("x1", "y0"), ("x1", "y2"), ("x0", "y1")]
    assert COMPACT.names(np.array([3]), sets[:1], n_samples=2) == (
        [("centroid1", "y0"), ("centroid1", "y2"), ("centroid1", "sum")], [("centroid1", "y0"), ("centroid1", "y2")])
    rows, columns = COMPACT.shape(sets)
    np.testing.assert_array_equal(rows, [3, 2]), np.testing.assert_array_equal(columns, [2, 1])


def test_compact_duals_become_layer_cake_weights_on_the_paper_rows():
    """certificate_rows of the compact LP's optimal pair duals (SciPy) against the independent layer cake: the
    same rows and weights, the same g = F^T alpha as the pair duals, and the same total."""
    X, y = random_problem(40, 3, 4, seed=5)
    y_idx = np.unique(y, return_inverse=True)[1]
    Psi = np.hstack([np.ones((len(X), 1)), X])
    tau, lam = mean_and_confidence(Psi, y_idx, 4, 0.05)
    _, beta, _ = compact_lp(Psi, tau, lam)
    sets = np.ones_like(beta, dtype=bool)
    sets[beta == 0] = False
    sets[np.arange(len(sets)), np.argmax(beta, axis=1)] = True      # every sample an item, its set the support
    row_duals = np.concatenate([np.append(b[s], 0.0) for b, s in zip(beta, sets)])
    samples, subsets, alpha = COMPACT.certificate_rows(np.arange(len(X)), sets, row_duals)
    ref_samples, ref_subsets, ref_alpha = layer_cake(beta)
    order = np.lexsort((np.packbits(subsets, axis=1)[:, 0], samples))
    ref_order = np.lexsort((np.packbits(ref_subsets, axis=1)[:, 0], ref_samples))
    np.testing.assert_array_equal(samples[order], ref_samples[ref_order])
    np.testing.assert_array_equal(subsets[order], ref_subsets[ref_order])
    np.testing.assert_allclose(alpha[order], ref_alpha[ref_order], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(COMPACT.item_duals(sets, row_duals), beta.sum(axis=1), atol=1e-15)
    points = lambda ids, columns=None: Psi[ids] if columns is None else Psi[np.ix_(ids, columns)]  # noqa: E731
    np.testing.assert_allclose(dual_correlations(points, samples, subsets, alpha), (beta.T @ Psi).reshape(4, -1),
                               atol=1e-12)


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_both_formulations_certify_one_R_star_on_the_property_problems(problem):
    """The property test's random, badly scaled, sparse and degenerate problems (tests/test_property.py), fitted
    to a gap of round-off in each formulation: the two certified intervals meet and their upper ends agree to
    1e-9 (measured: 1.5e-12 at most over these 120); a compact fit at the defaults holds R* as well."""
    X, y, params = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        paper = MRCClassifier(eps_1=0.0, eps_2=0.0, **params).fit(X, y)
        compact = MRCClassifier(eps_1=0.0, eps_2=0.0, formulation="compact", **params).fit(X, y)
    assert compact.status_ == "converged"
    assert max(paper.lower_, compact.lower_) <= min(paper.upper_, compact.upper_) + 1e-12
    assert abs(compact.upper_ - paper.upper_) <= 1e-9
    # at the defaults (eps_1 = 1e-3) the compact fit's certified interval holds R* too, within eps_1 of it
    default = MRCClassifier(formulation="compact", **params).fit(X, y)
    assert default.status_ == "converged"
    assert default.lower_ - 1e-9 <= paper.upper_ and paper.lower_ <= default.upper_ + 1e-9
    assert default.upper_ - paper.lower_ <= default.eps_1 + 1e-9


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return X, y, MRCClassifier(method="lp", eps_1=0.0).fit(X, y)


@pytest.mark.parametrize("solver", ["highs", "appsi_highs", "gurobi_persistent", "cplex_persistent", "glpk", "cbc"])
def test_the_compact_formulation_reaches_R_star_on_every_backend(wine, solver):
    """MRC-CCG in the compact formulation, regime "n" (items added and removed) with each kind of backend: the
    paper's R* (the full LP's), certified, and the master's items hold one item per sample."""
    _needs(solver)
    X, y, reference = wine
    clf = MRCClassifier(solver=solver, formulation="compact", eps_1=1e-7).fit(X, y)
    assert clf.status_ == "converged"
    assert clf.lower_ - 1e-9 <= reference.upper_ <= clf.upper_ + 1e-9
    assert clf.upper_ - clf.lower_ <= 1e-7
    master = clf.master_
    assert len(np.unique(master.samples)) == master.n_rows
    assert master.pyomo_model.upper.shape == (master.n_rows + master.subsets.sum(),)


def test_the_full_lp_in_both_formulations_has_one_R_star():
    X, y = random_problem(60, 3, 4, seed=11)
    paper = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    compact = MRCClassifier(method="lp", formulation="compact", eps_1=0.0).fit(X, y)
    assert compact.status_ == paper.status_ == "converged"
    assert compact.master_.n_rows == 60 and paper.master_.n_rows == 60 * 15
    assert abs(compact.upper_ - paper.upper_) <= 1e-9 and abs(compact.lower_ - paper.lower_) <= 1e-9
    Psi = np.hstack([np.ones((60, 1)), X])
    R_star = reference_R_star(Psi, np.unique(y, return_inverse=True)[1], 4, 0.01)
    assert compact.lower_ - 1e-7 <= R_star <= compact.upper_ + 1e-7


@pytest.mark.parametrize("sparse", [False, True])
def test_compact_regime_nm_and_continuation_certify_the_same_R_star(sparse):
    X, y = random_problem(150, 12, 3, sparse=sparse, seed=3)
    paper = MRCClassifier(regime="nm", eps_1=1e-7, lambda0=0.003).fit(X, y)
    for params in ({"regime": "nm"}, {"regime": "n", "continuation": True}):
        compact = MRCClassifier(formulation="compact", eps_1=1e-7, lambda0=0.003, **params).fit(X, y)
        assert compact.status_ == "converged"
        assert max(paper.lower_, compact.lower_) <= min(paper.upper_, compact.upper_) + 1e-9
        assert abs(compact.upper_ - paper.upper_) <= 2e-7


def test_a_compact_master_is_inspected_written_and_pickled(wine, tmp_path):
    X, y, _ = wine
    clf = MRCClassifier(formulation="compact", eps_1=1e-6).fit(X, y)
    m = clf.master_.model
    u = [v for block in clf.master_.pyomo_model.batches for v in block.u.values()]
    assert len(u) == clf.master_.subsets.sum() and all(v.value is not None and v.value >= -1e-9 for v in u)
    text = clf.master_.write(tmp_path / "master.lp").read_text()
    assert "sum" in text and "u(" in text
    assert len(m.dual) == len(clf.master_.pyomo_model.row_constraints())
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict(X), clf.predict(X))
    assert again.master_.formulation == get_formulation("compact")
    solution = again.master_.solve()
    assert solution.objective == pytest.approx(clf.objective_, abs=1e-8)


def test_a_formulation_a_backend_cannot_solve_is_refused_by_name():
    X, y = random_problem(20, 2, 3)
    tau, lam = mean_and_confidence(np.hstack([np.ones((20, 1)), X]), y, 3, 0.1)
    with pytest.raises(ValueError, match="DualLPBackend cannot solve the formulation 'compact'"):
        RestrictedMaster(np.hstack([np.ones((20, 1)), X]), tau, lam, backend=DualLPBackend, formulation="compact")
    with pytest.raises(InvalidParameterError, match="formulation"):
        MRCClassifier(formulation="pairs").fit(X, y)
    with pytest.raises(ValueError, match="formulation must be one of"):
        get_formulation("pairs")
    assert MRCClassifier(formulation=CompactFormulation()).fit(X, y).status_ == "converged"
    assert sp.issparse(PAPER.block(lambda i, c=None: X[np.ix_(i, c)], np.array([0]), np.ones((1, 3), bool),
                                   np.arange(2), 2).mu)
