"""The rows a restricted master reads (:mod:`mrc_pyomo.master.points`): ``points(ids, columns)`` is
``[Psi; centroids][ids][:, columns]`` for training ids, centroid ids ``n + k`` and both mixed in any order, dense
(a NumPy array) and sparse (CSR); after :meth:`Points.compacted` the same rows come from memory, for the training
samples kept only, and a compacted master refuses the others."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.data import InMemorySource
from mrc_pyomo.master.points import Points

N, D, K = 12, 4, 3


def make_points(sparse, seed=0):
    """``(points, stacked)``: the points of random data and class centroids, and ``[Psi; centroids]`` dense."""
    X, _ = random_problem(N, D, K, sparse=sparse, seed=seed)
    centroids = np.random.default_rng(seed).normal(size=(K, D))
    dense = X.toarray() if sparse else X
    return Points(InMemorySource(X), centroids), np.vstack([dense, centroids])


def as_dense(rows, sparse):
    """The rows as a dense array, after checking their kind follows the data's."""
    if sparse:
        assert sp.issparse(rows) and rows.format == "csr"
        return rows.toarray()
    assert isinstance(rows, np.ndarray)
    return rows


IDS = {
    "training": np.array([3, 0, 7, 7, 11]),
    "centroids": np.array([N + 2, N, N + 2]),
    "mixed": np.array([N + 1, 4, N, 0, N + 2, 9, 4]),
    "none": np.zeros(0, dtype=np.int64),
}


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("ids", list(IDS))
@pytest.mark.parametrize("columns", [None, [3, 0, 2]])
def test_rows_are_those_of_the_data_and_the_centroids(sparse, ids, columns):
    points, stacked = make_points(sparse)
    ids = IDS[ids]
    rows = points(ids) if columns is None else points(ids, columns)
    expected = stacked[ids] if columns is None else stacked[ids][:, columns]
    got = as_dense(rows, sparse)
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)


def test_the_number_of_samples_is_the_data_s_unless_given():
    points, _ = make_points(False)
    assert points.n_samples == N and points.stored_ids is None
    assert Points(InMemorySource(np.zeros((2, D))), np.zeros((K, D)), n_samples=7).n_samples == 7


@pytest.mark.parametrize("sparse", [False, True])
def test_compacted_points_hold_the_rows_of_the_items_only(sparse):
    """``compacted(samples)`` (items' samples, centroids and repeats among them): the distinct training ids, in
    memory; every id it holds gives the same row as before, centroids too; a training id it dropped is refused."""
    points, stacked = make_points(sparse)
    samples = np.array([7, N + 1, 2, 7, N, 9, 2])
    compact = points.compacted(samples)
    assert np.array_equal(compact.stored_ids, [2, 7, 9])
    assert compact.n_samples == N and compact.data.n_samples == 3
    assert isinstance(compact.data, InMemorySource) and compact.data.sparse == sparse
    assert np.array_equal(compact.centroids, points.centroids)
    ids = np.array([N + 2, 9, 2, N, 7, 9])
    assert np.array_equal(as_dense(compact(ids), sparse), stacked[ids])
    assert np.array_equal(as_dense(compact(ids, [1, 3]), sparse), stacked[ids][:, [1, 3]])
    for dropped in ([0], [2, 5], [N - 1]):
        with pytest.raises(ValueError, match="only holds the samples of its rows"):
            compact(dropped)


def test_compacting_again_keeps_a_subset_of_the_stored_rows():
    points, stacked = make_points(False)
    compact = points.compacted(np.array([1, 5, 8, N]))
    again = compact.compacted(np.array([8, 1, N + 2]))
    assert np.array_equal(again.stored_ids, [1, 8])
    assert np.array_equal(again([8, N + 2, 1]), stacked[[8, N + 2, 1]])
    with pytest.raises(ValueError):
        again([5])


def test_points_compacted_to_centroids_only_still_give_the_centroids():
    points, stacked = make_points(True)
    compact = points.compacted(np.array([N, N + 2]))
    assert len(compact.stored_ids) == 0 and compact.data.n_samples == 0
    assert np.array_equal(as_dense(compact([N + 2, N]), True), stacked[[N + 2, N]])


def test_points_compacted_to_centroids_only_refuse_a_training_id_as_the_others_do():
    """A master that holds only centroid rows (a fit at a large lambda0) refuses a training id with the
    ValueError of any other id it does not hold (it raised IndexError, indexing stored_ids[-1])."""
    points, _ = make_points(False)
    compact = points.compacted(np.array([N, N + 1]))
    with pytest.raises(ValueError, match="only holds the samples of its rows"):
        compact([0])
