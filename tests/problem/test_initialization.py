"""The initial rows and features of MRC-CCG (:mod:`mrc_pyomo.problem.initialization`): the class centroids against a
direct (weighted) mean, ``tau^k = p_k xhat_k``; a centroid's row is the average of its class's rows, so adding it
leaves ``R*`` of an independent full LP unchanged; the initial master (every subset of every centroid for few
classes, own class and all classes plus ``objective >= 0`` for many) is bounded even at ``lambda0 = 0``, where a
sample's rows alone are not; the initial features of each regime."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from helpers import explicit_F, random_problem, reference_R_star
from mrc_pyomo.data import InMemorySource
from mrc_pyomo.oracles.rows import all_subsets, constraint_block, right_hand_sides
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.initialization import (MAX_CLASSES_ALL_SUBSETS, class_centroids, initial_features,
                                              initial_rows)


@pytest.mark.parametrize("sparse", [False, True])
def test_class_centroids_are_the_class_means(sparse):
    X, y = random_problem(30, 4, 3, sparse=sparse, seed=1)
    dense = X.toarray() if sparse else X
    centroids = class_centroids(X, y, 3)
    assert centroids.shape == (3, 4)
    for k in range(3):
        np.testing.assert_allclose(centroids[k], dense[y == k].mean(axis=0), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(class_centroids(InMemorySource(X), y, 3), centroids, rtol=0, atol=0)


def test_weighted_centroids_make_tau_the_class_share_times_the_centroid():
    """With weights: ``xhat_k`` the weighted mean of class ``k`` and ``tau^k = p_k xhat_k``, ``p_k`` the weight
    share of class ``k``; integer weights are copies of the samples."""
    X, y = random_problem(24, 3, 3, seed=2)
    w = np.random.default_rng(2).integers(1, 4, len(y)).astype(float)
    centroids = class_centroids(X, y, 3, weights=w)
    for k in range(3):
        np.testing.assert_allclose(centroids[k], np.average(X[y == k], axis=0, weights=w[y == k]), rtol=1e-13)
    tau, _ = mean_and_confidence(X, y, 3, 0.0, weights=w)
    share = np.bincount(y, w, minlength=3) / w.sum()
    np.testing.assert_allclose(tau, share[:, None] * centroids, rtol=1e-12, atol=1e-15)
    copies = np.repeat(np.arange(len(y)), w.astype(int))
    np.testing.assert_allclose(class_centroids(X[copies], y[copies], 3), centroids, rtol=1e-12)


def test_centroids_need_the_labels():
    with pytest.raises(ValueError, match="need the labels"):
        class_centroids(np.zeros((3, 2)), None, 2)


@pytest.mark.parametrize("n_classes", [2, 3, MAX_CLASSES_ALL_SUBSETS])
def test_few_classes_start_from_every_subset_of_every_centroid(n_classes):
    samples, subsets, floor = initial_rows(10, n_classes)
    every = all_subsets(n_classes)
    assert floor is False and len(samples) == n_classes * (2 ** n_classes - 1)
    for k in range(n_classes):
        mine = samples == 10 + k
        assert np.array_equal(subsets[mine], every)
    assert set(samples.tolist()) == set(range(10, 10 + n_classes))


@pytest.mark.parametrize("n_classes", [MAX_CLASSES_ALL_SUBSETS + 1, 12])
def test_many_classes_start_from_own_class_and_all_classes_with_the_floor(n_classes):
    samples, subsets, floor = initial_rows(5, n_classes)
    assert floor is True and len(samples) == 2 * n_classes
    pairs = {(int(i), tuple(np.flatnonzero(c))) for i, c in zip(samples, subsets)}
    expected = {(5 + k, (k,)) for k in range(n_classes)} | {(5 + k, tuple(range(n_classes))) for k in range(n_classes)}
    assert pairs == expected


def test_initial_features_of_each_regime():
    assert np.array_equal(initial_features(3, 4, "n", True), np.arange(12))
    assert np.array_equal(initial_features(3, 4, "n", False), np.arange(12))
    # the intercept is the first column of Psi: feature (y, 0) has flat id y * D
    assert np.array_equal(initial_features(3, 4, "nm", True), [0, 4, 8])
    empty = initial_features(3, 4, "nm", False)
    assert len(empty) == 0 and empty.dtype == np.int64


def lp_of_rows(F, b, tau, lam, floor=False):
    """The LP ``min -(tau - lam).mu1 + (tau + lam).mu2 + nu`` over the rows ``F (mu1 - mu2) - nu <= b`` (and
    ``objective >= 0`` if ``floor``), by SciPy's HiGHS: its result."""
    m = F.shape[1]
    c = np.concatenate([-(tau - lam).ravel(), (tau + lam).ravel(), [1.0]])
    A = np.hstack([F, -F, -np.ones((F.shape[0], 1))])
    if floor:
        A, b = np.vstack([A, -c]), np.append(b, 0.0)
    return linprog(c, A_ub=A, b_ub=b, bounds=[(0, None)] * (2 * m) + [(None, None)], method="highs")


def centroid_lp(X, y, n_classes, lambda0):
    """The initial master's LP, built here from the centroids and the rows of :func:`initial_rows`."""
    Psi = np.hstack([np.ones((len(y), 1)), X])
    tau, lam = mean_and_confidence(Psi, y, n_classes, lambda0)
    points = np.vstack([Psi, class_centroids(Psi, y, n_classes)])
    samples, subsets, floor = initial_rows(len(y), n_classes)
    F = constraint_block(InMemorySource(points).rows, samples, subsets, np.arange(tau.size), Psi.shape[1])
    return lp_of_rows(F.toarray(), right_hand_sides(subsets), tau, lam, floor), Psi, tau, lam


@pytest.mark.parametrize("n_classes", [2, 4, 8])
def test_the_initial_master_is_bounded_where_a_sample_s_rows_are_not(n_classes):
    """At ``lambda0 = 0`` (no penalty to bound ``mu``) the LP of the initial rows has an optimum, at most the full
    LP's ``R*`` (it has fewer rows) and at least 0; the rows of one sample alone leave the LP unbounded."""
    X, y = random_problem(20 + 3 * n_classes, 2, n_classes, seed=n_classes)
    result, Psi, tau, lam = centroid_lp(X, y, n_classes, 0.0)
    assert result.status == 0, result.message
    R_star = reference_R_star(Psi, y, n_classes, 0.0)
    assert -1e-9 <= result.fun <= R_star + 1e-7
    F, b = explicit_F(Psi[:1], n_classes)
    assert lp_of_rows(F, b, tau, lam).status == 3   # unbounded


@pytest.mark.parametrize("sparse", [False, True])
def test_a_centroid_row_is_the_average_of_its_class_s_rows_and_changes_no_optimum(sparse):
    """``F_(xhat_k, C)`` is the mean of ``F_(x_i, C)`` over the samples of class ``k`` (same ``b``), so the full
    LP with the centroid rows added has the full LP's ``R*``."""
    n_classes = 3
    X, y = random_problem(15, 2, n_classes, sparse=sparse, seed=4)
    Psi = sp.hstack([np.ones((15, 1)), X]).tocsr() if sparse else np.hstack([np.ones((15, 1)), X])
    dense = Psi.toarray() if sparse else Psi
    centroids = class_centroids(Psi, y, n_classes)
    F, b = explicit_F(dense, n_classes)
    F_centroids, b_centroids = explicit_F(centroids, n_classes)
    per_sample = F.reshape(15, 2 ** n_classes - 1, -1)
    for k in range(n_classes):
        np.testing.assert_allclose(F_centroids.reshape(n_classes, 2 ** n_classes - 1, -1)[k],
                                   per_sample[y == k].mean(axis=0), rtol=1e-12, atol=1e-15)
    assert np.array_equal(b_centroids, b[:len(b_centroids)])
    tau, lam = mean_and_confidence(dense, y, n_classes, 0.01)
    with_centroids = lp_of_rows(np.vstack([F, F_centroids]), np.concatenate([b, b_centroids]), tau, lam)
    assert with_centroids.status == 0
    assert with_centroids.fun == pytest.approx(reference_R_star(dense, y, n_classes, 0.01), abs=1e-7)
