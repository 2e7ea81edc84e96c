"""The primal oracles (:mod:`mrc_pyomo.oracles.primal`) against brute-force enumeration of all label subsets and
explicit F matrices: the most violated subset of each sample, ``R(mu)``, and the class probabilities."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import all_subsets, explicit_F, random_problem
from mrc_pyomo.oracles.primal import (class_probabilities, class_scores, most_violated_subsets, psi_values,
                                     subset_values, worst_case_risk)


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


def test_ties_at_the_threshold_go_to_the_first_labels():
    """The subset is the stable order's prefix (the largest scores, equal ones in label order) of the best size: the
    labels above the threshold, then as many of those equal to it as the size leaves room for, first ones first."""
    # in exact arithmetic the best size never splits equal scores; in floating point it can: here the means of the
    # three and of the four largest are 1.4590000000000003 and 1.459, so three of the four labels ending at 1.459
    scores = np.array([[2.459, 1.459, 1.459, 1.459], [1.459, 1.459, 2.459, 1.459]])
    psi, subsets = most_violated_subsets(scores)
    assert subsets.tolist() == [[True, True, True, False], [True, True, True, False]]
    assert np.array_equal(psi, (scores[0, :3].sum() - 1.0) / 3 * np.ones(2))
    rng = np.random.default_rng(7)
    for n_classes in (1, 2, 3, 7, 30):
        scores = np.round(rng.normal(scale=0.4, size=(500, n_classes)), 1)   # many ties
        blocked = rng.random(scores.shape) < 0.3
        blocked[np.arange(500), rng.integers(0, n_classes, 500)] = False   # every sample keeps a label
        for block in (None, blocked):
            shown = scores if block is None else np.where(block, -np.inf, scores)
            order = np.argsort(-shown, axis=1, kind="stable")
            means = (np.cumsum(np.take_along_axis(shown, order, axis=1), axis=1) - 1.0) / np.arange(1, n_classes + 1)
            size = means.argmax(axis=1)
            expected = np.zeros(scores.shape, dtype=bool)
            np.put_along_axis(expected, order, np.arange(n_classes) <= size[:, None], axis=1)
            psi, subsets = most_violated_subsets(scores, block)
            assert np.array_equal(psi, means.max(axis=1)) and np.array_equal(subsets, expected)
            assert np.array_equal(psi_values(scores, block), psi)


def test_worst_case_risk_by_enumeration():
    rng = np.random.default_rng(1)
    Psi, y = random_problem(30, 4, 3, seed=1)
    mu, tau, lam = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.random((3, 4))
    F, b = explicit_F(Psi, 3)
    # row (i, C): F_r.mu - b_r = (sum_{y in C} v_iy - 1) / |C| + 1, so varphi(mu) = max_r (F_r.mu - b_r) - 1
    varphi = np.max(F @ mu.ravel() - b) - 1.0
    expected = 1.0 - np.sum(tau * mu) + varphi + np.sum(lam * np.abs(mu))
    assert worst_case_risk(Psi, mu, tau, lam) == pytest.approx(expected, abs=1e-12)


def test_probabilities_sum_to_one_and_follow_scores():
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(50, 5))
    proba = class_probabilities(scores)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert np.all(proba >= 0)
    assert np.all(np.argmax(proba, axis=1) == np.argmax(scores, axis=1))
    psi, _ = most_violated_subsets(scores)
    assert np.allclose(proba, np.maximum(scores - psi[:, None], 0.0))
