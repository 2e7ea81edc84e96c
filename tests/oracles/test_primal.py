"""The primal oracles (:mod:`mrc_pyomo.oracles.primal`) against brute-force enumeration of all label subsets and
explicit F matrices: the most violated subset of each sample, ``R(mu)``, and the class probabilities."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import all_subsets, explicit_F, random_problem
from mrc_pyomo.estimator.rule import class_probabilities
from mrc_pyomo.oracles.primal import (class_scores, most_violated_subsets, near_active_rows, psi_values, subset_values,
                                     worst_case_risk)


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


@pytest.mark.parametrize("n_classes", [1, 2, 3, 5])
@pytest.mark.parametrize("blocking", [False, True])
def test_the_chain_of_near_rows_matches_enumeration(n_classes, blocking):
    """``near_active_rows(chain=True)`` names exactly the rows ``(i, C)`` within ``delta`` of ``varphi`` whose ``C`` is
    the ``k`` largest unblocked scores of sample ``i`` for some ``k``, by enumeration of every subset; each sample's
    most violated row (``chain=False``) among them.  2,500 samples: three blocks of the pass."""
    rng = np.random.default_rng(n_classes)
    Psi, _ = random_problem(2500, 4, n_classes, seed=n_classes)
    mu = 0.05 * rng.normal(size=(n_classes, Psi.shape[1]))   # scores close enough for chains within delta
    blocked = None
    if blocking:
        blocked = rng.random((len(Psi), n_classes)) < 0.3
        blocked[np.arange(len(Psi)), rng.integers(0, n_classes, len(Psi))] = False   # every sample keeps a label
    delta = 0.3
    samples, subsets = near_active_rows(Psi, mu, delta, blocked, chain=True)
    got = {(i, tuple(np.flatnonzero(C))) for i, C in zip(samples, subsets)}
    assert len(got) == len(samples)   # no row twice
    scores = class_scores(Psi, mu)
    allowed = np.ones_like(scores, dtype=bool) if blocked is None else ~blocked
    top = psi_values(scores, blocked).max()
    expected = set()
    for i in range(len(Psi)):
        for C in all_subsets(n_classes):
            inside = np.zeros(n_classes, dtype=bool)
            inside[list(C)] = True
            outside = scores[i][allowed[i] & ~inside]
            if (inside & ~allowed[i]).any() or (outside.size and outside.max() > scores[i][inside].min()):
                continue   # a blocked label, or not the k largest
            if (scores[i][inside].sum() - 1.0) / len(C) >= top - delta:
                expected.add((i, C))
    assert got == expected
    assert len({i for i, _ in got}) < len(got) or n_classes == 1   # some samples give several rows
    single = near_active_rows(Psi, mu, delta, blocked)
    assert {(i, tuple(np.flatnonzero(C))) for i, C in zip(*single)} <= got


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
