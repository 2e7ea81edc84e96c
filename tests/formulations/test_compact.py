"""The compact formulation (:mod:`mrc_pyomo.formulations.compact`) of (sample, class) pairs against the paper's rows.

Piece by piece against brute force: the value of an item, which paper rows it enforces, merging rows into
items, its LP block, the certificate's rows.  Its exact LP, solved by SciPy, has the paper's R*, and the
layer-cake weights of its pair duals are weights on the paper's rows ``(i, C)`` whose Lagrangian bound
(:mod:`mrc_pyomo.oracles.certificate`) is R*: the compact formulation needs no certificate of its own (the claim
of docs/architecture.rst, "The formulation seam").  Whole fits: every backend, the regime "nm", continuation,
the master inspected, written and pickled.  The two formulations against each other:
``tests/formulations/test_formulations.py``.
"""

import itertools
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.datasets import load_wine

from helpers import needs_solver, random_problem, reference_R_star
from mrc_pyomo import MRCClassifier
from mrc_pyomo.formulations import CompactFormulation, LPBlock, PaperFormulation, get_formulation
from mrc_pyomo.oracles.certificate import lower_bound
from mrc_pyomo.oracles.dual import dual_correlations
from mrc_pyomo.problem.estimates import mean_and_confidence


COMPACT, PAPER = CompactFormulation(), PaperFormulation()


def compact_lp(Psi, tau, lam):
    """The compact LP solved by SciPy: ``(R*, beta (n, K), gamma (n,))``, the duals of the pair rows
    ``Psi_i.mu_y - u_iy - nu <= -1`` and of the sample rows ``sum_y u_iy <= 1``, both >= 0."""
    n, D = Psi.shape
    K = tau.shape[0]
    m = K * D
    pair = np.arange(n * K)
    i, k = np.divmod(pair, K)
    block = sp.csr_matrix((Psi[i].ravel(), (np.repeat(pair, D), (k[:, None] * D + np.arange(D)).ravel())),
                          shape=(n * K, m))
    pairs = sp.hstack([block, -block, -np.ones((n * K, 1)), -sp.identity(n * K)])
    samples = sp.hstack([sp.csr_matrix((n, 2 * m + 1)), sp.kron(sp.identity(n), np.ones((1, K)))])
    cost = np.concatenate([-(tau - lam).ravel(), (tau + lam).ravel(), [1.0], np.zeros(n * K)])
    bounds = [(0, None)] * (2 * m) + [(None, None)] + [(0, None)] * (n * K)
    result = linprog(cost, A_ub=sp.vstack([pairs, samples]).tocsr(),
                     b_ub=np.concatenate([-np.ones(n * K), np.ones(n)]), bounds=bounds, method="highs")
    assert result.status == 0
    duals = -result.ineqlin.marginals
    return result.fun, duals[:n * K].reshape(n, K), duals[n * K:]


def layer_cake(beta):
    """Rows ``(i, C_k)`` and weights ``k (beta_(k) - beta_(k+1))`` over the prefixes ``C_k`` of each sample's
    classes sorted by decreasing ``beta_i``: ``sum_k weight_k 1_{C_k} / k = beta_i``."""
    samples, subsets, weights = [], [], []
    n, K = beta.shape
    for i in range(n):
        order = np.argsort(-beta[i])
        sorted_beta = np.append(beta[i][order], 0.0)
        for k in range(1, K + 1):
            weight = k * (sorted_beta[k - 1] - sorted_beta[k])
            if weight > 0:
                subset = np.zeros(K, dtype=bool)
                subset[order[:k]] = True
                samples.append(i), subsets.append(subset), weights.append(weight)
    return np.array(samples), np.array(subsets), np.array(weights)


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


@pytest.mark.parametrize("K,seed", [(3, 1), (4, 2), (5, 3)])
def test_compact_duals_certify_R_star_through_layer_cake_weights(K, seed):
    X, y = random_problem(50, 3, K, seed=seed)
    y_idx = np.unique(y, return_inverse=True)[1]
    Psi = np.hstack([np.ones((len(X), 1)), X])
    tau, lam = mean_and_confidence(Psi, y_idx, K, 0.05)
    value, beta, gamma = compact_lp(Psi, tau, lam)
    assert value == pytest.approx(reference_R_star(Psi, y_idx, K, 0.05), abs=1e-7)   # the paper's R*
    samples, subsets, alpha = layer_cake(beta)
    # the same total and the same g = F^T alpha as the pair duals
    assert alpha.sum() == pytest.approx(beta.sum(), abs=1e-12) == pytest.approx(1.0, abs=1e-9)
    minus_b_alpha = float(alpha @ (1.0 - 1.0 / subsets.sum(axis=1)))
    assert minus_b_alpha == pytest.approx(1.0 - beta.max(axis=1).sum(), abs=1e-12)
    assert minus_b_alpha >= 1.0 - gamma.sum() - 1e-9
    points = lambda ids, columns=None: Psi[ids] if columns is None else Psi[np.ix_(ids, columns)]  # noqa: E731
    bound = lower_bound(points, samples, subsets, alpha, tau, lam, rho=value + 1.0)
    assert bound == pytest.approx(value, abs=1e-8)


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


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return X, y, MRCClassifier(method="lp", eps_1=0.0).fit(X, y)


@pytest.mark.parametrize("solver", ["highs", "appsi_highs", "gurobi_persistent", "cplex_persistent", "glpk", "cbc"])
def test_the_compact_formulation_reaches_R_star_on_every_backend(wine, solver):
    """MRC-CCG in the compact formulation, regime "n" (items added and removed) with each kind of backend: the
    paper's R* (the full LP's), certified, and the master's items hold one item per sample."""
    needs_solver(solver)
    X, y, reference = wine
    clf = MRCClassifier(solver=solver, formulation="compact", eps_1=1e-7).fit(X, y)
    assert clf.status_ == "converged"
    assert clf.lower_ - 1e-9 <= reference.upper_ <= clf.upper_ + 1e-9
    assert clf.upper_ - clf.lower_ <= 1e-7
    master = clf.master_
    assert len(np.unique(master.samples)) == master.n_rows
    assert master.pyomo_model.upper.shape == (master.n_rows + master.subsets.sum(),)


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
