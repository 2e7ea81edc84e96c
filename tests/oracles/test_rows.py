"""The paper's rows ``(i, C)`` (:mod:`mrc_pyomo.oracles.rows`): the label subsets (every non-empty one, by
increasing size), the right-hand sides ``b_(i,C) = 1/|C| - 1`` and the block ``F_{I,J}`` against brute force:
every label subset enumerated and ``F_(i,C),(y,j) = [y in C] Psi_ij / |C|`` written entry by entry, for dense and
sparse ``Psi``, any rows and any features in any order."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.data import InMemorySource
from mrc_pyomo.oracles.rows import all_subsets, constraint_block, right_hand_sides


# Psi_ij / |C| is computed as Psi_ij * (1 / |C|): the two differ by the rounding of 1 / |C| and of the product
ROUNDING = 4 * np.finfo(float).eps


def brute_force_row(psi, subset, n_classes):
    """The row ``(i, C)`` of ``F`` over all ``K D`` features, entry by entry."""
    D = len(psi)
    row = np.zeros(n_classes * D)
    for y in range(n_classes):
        for j in range(D):
            if y in subset:
                row[y * D + j] = psi[j] / len(subset)
    return row


@pytest.mark.parametrize("n_classes", [1, 2, 3, 4, 6])
def test_all_subsets_are_every_non_empty_label_set_by_increasing_size(n_classes):
    subsets = all_subsets(n_classes)
    assert subsets.dtype == bool and subsets.shape == (2 ** n_classes - 1, n_classes)
    enumerated = {c for size in range(1, n_classes + 1) for c in itertools.combinations(range(n_classes), size)}
    found = [tuple(np.flatnonzero(row)) for row in subsets]
    assert set(found) == enumerated and len(set(found)) == len(found)
    assert np.all(np.diff(subsets.sum(axis=1)) >= 0)


def test_right_hand_sides_are_one_over_the_size_minus_one():
    subsets = all_subsets(4)
    expected = [1.0 / len(np.flatnonzero(c)) - 1.0 for c in subsets]
    assert np.array_equal(right_hand_sides(subsets), expected)
    assert right_hand_sides(subsets[:4]).tolist() == [0.0] * 4   # singletons: b = 0
    assert right_hand_sides(subsets[-1:])[0] == pytest.approx(1 / 4 - 1)


def points_of(Psi):
    """``points(ids, columns)``: ``Psi[ids][:, columns]``, as a master's points give them."""
    return InMemorySource(Psi).rows


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_constraint_block_is_F_restricted_to_the_rows_and_features(sparse, n_classes):
    """Random rows (repeats too) and a random subset of features in random order: the block equals the brute
    force rows restricted to those columns, in that order, as CSR without explicit zeros."""
    X, _ = random_problem(12, 4, n_classes, sparse=sparse, seed=n_classes)
    Psi = X
    dense = Psi.toarray() if sparse else Psi
    D = dense.shape[1]
    rng = np.random.default_rng(n_classes)
    subsets = all_subsets(n_classes)
    picks = rng.integers(0, len(subsets), 25)
    samples = rng.integers(0, dense.shape[0], 25)
    features = rng.permutation(n_classes * D)[: n_classes * D - 2]
    block = constraint_block(points_of(Psi), samples, subsets[picks], features, D)
    assert sp.issparse(block) and block.format == "csr"
    assert block.shape == (25, len(features))
    expected = np.array([brute_force_row(dense[i], tuple(np.flatnonzero(subsets[c])), n_classes)[features]
                         for i, c in zip(samples, picks)])
    np.testing.assert_allclose(block.toarray(), expected, rtol=ROUNDING, atol=0)
    assert block.nnz == np.count_nonzero(expected)   # explicit zeros of Psi dropped


@pytest.mark.parametrize("sparse", [False, True])
def test_every_row_of_every_sample_over_all_features(sparse):
    """The whole ``F`` (rows ``(i, C)`` for every sample and label subset, features ``0 .. K D - 1``) against
    enumeration; each row's entries of class ``y`` are ``Psi_i / |C|`` for ``y in C`` and 0 otherwise."""
    n_classes = 3
    X, _ = random_problem(8, 3, n_classes, sparse=sparse, seed=5)
    dense = X.toarray() if sparse else X
    n, D = dense.shape
    subsets = all_subsets(n_classes)
    samples = np.repeat(np.arange(n), len(subsets))
    block = constraint_block(points_of(X), samples, np.tile(subsets, (n, 1)), np.arange(n_classes * D), D)
    F = block.toarray().reshape(n, len(subsets), n_classes, D)
    for i in range(n):
        for c, subset in enumerate(subsets):
            for y in range(n_classes):
                expected = dense[i] / subset.sum() if subset[y] else np.zeros(D)
                np.testing.assert_allclose(F[i, c, y], expected, rtol=ROUNDING, atol=0)


def test_features_of_one_class_only_and_no_rows():
    """Features of class 2 only: the rows whose subset avoids class 2 are empty; no rows: an empty block."""
    Psi = np.arange(1.0, 13.0).reshape(4, 3)
    subsets = all_subsets(3)
    features = np.array([2 * 3 + 1, 2 * 3 + 0])
    block = constraint_block(points_of(Psi), np.zeros(len(subsets), dtype=int), subsets, features, 3).toarray()
    for row, subset in zip(block, subsets):
        expected = Psi[0, [1, 0]] / subset.sum() if subset[2] else np.zeros(2)
        np.testing.assert_allclose(row, expected, rtol=ROUNDING, atol=0)
    empty = constraint_block(points_of(Psi), np.zeros(0, dtype=int), subsets[:0], features, 3)
    assert empty.shape == (0, 2) and empty.nnz == 0


def test_zeros_of_psi_leave_no_entry():
    """A sample with a zero feature: no stored entry in that feature's columns (dense data too)."""
    Psi = np.array([[1.0, 0.0], [0.0, 2.0]])
    subsets = all_subsets(2)
    samples, picks = np.array([0, 0, 0, 1]), np.array([0, 1, 2, 2])
    block = constraint_block(points_of(Psi), samples, subsets[picks], np.arange(4), 2)
    expected = np.array([brute_force_row(Psi[i], tuple(np.flatnonzero(subsets[c])), 2) for i, c in zip(samples, picks)])
    np.testing.assert_allclose(block.toarray(), expected, rtol=ROUNDING, atol=0)
    assert block.nnz == np.count_nonzero(expected) < expected.size
