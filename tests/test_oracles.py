"""The NumPy oracles against brute-force enumeration of all label subsets and explicit F matrices."""

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import all_subsets, explicit_F, random_problem
from mrc_pyomo.oracles.dual import dual_correlations, feature_violations
from mrc_pyomo.oracles.primal import (class_probabilities, class_scores, most_violated_subsets, subset_values,
                                     worst_case_risk)
from mrc_pyomo.oracles.selection import most_violated, over_satisfied


@pytest.mark.parametrize("n_classes", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sparse", [False, True])
def test_most_violated_subset_matches_enumeration(n_classes, sparse):
    rng = np.random.default_rng(n_classes)
    Psi, _ = random_problem(40, 5, n_classes, sparse=sparse, seed=n_classes)
    mu = rng.normal(size=(n_classes, Psi.shape[1]))
    scores = class_scores(Psi, mu)
    psi, subsets = most_violated_subsets(scores)
    dense = Psi.toarray() if sp.issparse(Psi) else Psi
    for i in range(Psi.shape[0]):
        values = [(dense[i] @ mu[list(C)].T).sum() / len(C) - 1.0 / len(C) for C in all_subsets(n_classes)]
        assert psi[i] == pytest.approx(max(values), abs=1e-12)
        C = np.flatnonzero(subsets[i])
        assert len(C) >= 1
        assert ((dense[i] @ mu[C].T).sum() - 1.0) / len(C) == pytest.approx(max(values), abs=1e-12)
    assert np.allclose(subset_values(scores, subsets), psi, atol=1e-12)


def test_ties_pick_a_maximiser():
    scores = np.array([[0.5, 0.5, 0.5], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    psi, subsets = most_violated_subsets(scores)
    for i in range(3):
        values = [(scores[i, list(C)].sum() - 1) / len(C) for C in all_subsets(3)]
        assert psi[i] == pytest.approx(max(values))
        assert subset_values(scores[i:i + 1], subsets[i:i + 1])[0] == pytest.approx(max(values))


def test_worst_case_risk_by_enumeration():
    rng = np.random.default_rng(1)
    Psi, y = random_problem(30, 4, 3, seed=1)
    mu, tau, lam = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.random((3, 4))
    F, b = explicit_F(Psi, 3)
    # row (i, C): F_r.mu - b_r = (sum_{y in C} v_iy - 1) / |C| + 1, so varphi(mu) = max_r (F_r.mu - b_r) - 1
    varphi = np.max(F @ mu.ravel() - b) - 1.0
    expected = 1.0 - np.sum(tau * mu) + varphi + np.sum(lam * np.abs(mu))
    assert worst_case_risk(Psi, mu, tau, lam) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
def test_dual_correlations_equal_F_transpose_alpha(sparse):
    rng = np.random.default_rng(2)
    n_classes = 4
    Psi, _ = random_problem(12, 3, n_classes, sparse=sparse, seed=2)
    F, _ = explicit_F(Psi, n_classes)
    subsets_list = all_subsets(n_classes)
    n_sub = len(subsets_list)
    chosen = rng.choice(F.shape[0], size=25, replace=False)
    samples = chosen // n_sub
    subsets = np.zeros((25, n_classes), dtype=bool)
    for r, c in enumerate(chosen % n_sub):
        subsets[r, list(subsets_list[c])] = True
    alpha = rng.random(25)
    alpha[rng.random(25) < 0.3] = 0.0
    g = dual_correlations(lambda ids: Psi[ids], samples, subsets, alpha)
    assert np.allclose(g.ravel(), F[chosen].T @ alpha, atol=1e-12)
    tau, lam = rng.normal(size=g.shape), rng.random(g.shape)
    v = feature_violations(g, tau, lam)
    assert np.allclose(v, np.abs(F[chosen].T @ alpha - tau.ravel()).reshape(g.shape) - lam)
    beta = 0.25
    v = feature_violations(g, tau, lam, beta)
    # the dual constraints (1 - beta)(tau - lam) <= g <= (1 - beta)(tau + lam)
    lower, upper = (1 - beta) * (tau - lam) - g, g - (1 - beta) * (tau + lam)
    assert np.allclose(v, np.maximum(lower, upper))


def test_selection():
    v = np.array([0.5, -1.0, 2.0, 1e-12, 0.3, 3.0])
    assert list(most_violated(v, 0.0, 10)) == [5, 2, 0, 4]
    assert list(most_violated(v, 0.4, 2)) == [5, 2]
    eligible = np.array([True, True, False, True, True, False])
    assert list(most_violated(v, 0.0, 2, eligible)) == [0, 4]
    mask = over_satisfied(np.array([-1.0, -1.0, 0.0, -1e-12]), np.array([0.0, 0.5, 0.0, 0.0]))
    assert list(mask) == [True, False, False, False]


def test_probabilities_sum_to_one_and_follow_scores():
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(50, 5))
    proba = class_probabilities(scores)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert np.all(proba >= 0)
    assert np.all(np.argmax(proba, axis=1) == np.argmax(scores, axis=1))
    psi, _ = most_violated_subsets(scores)
    assert np.allclose(proba, np.maximum(scores - psi[:, None], 0.0))
