"""The paper's formulation (:mod:`mrc_pyomo.formulations.paper`), one LP row per item ``(i, C)``, piece by piece
against eq. 4 and brute force: the costs ``-(tau - lambda)`` and ``tau + lambda``, the names of rows, one row
``F_(i,C).mu - nu <= 1/|C| - 1`` per item and no column of its own, merging (repeats and held rows add
nothing, nothing is replaced), what the items cover, their values ``(sum_{y in C} v_y - 1)/|C|``, the duals
passed on as they are, the full LP's items (and those of a reduction) and its exact size."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.data import InMemorySource
from mrc_pyomo.formulations.paper import PaperFormulation, objective_coefficients, sample_label, subset_label
from mrc_pyomo.oracles.rows import all_subsets
from mrc_pyomo.problem.reduction import Reduction

PAPER = PaperFormulation()


def brute_force_F(Psi, samples, subsets, features, n_classes):
    """``F_(i,C),(y,j) = [y in C] Psi_ij / |C|`` for the rows and features asked for, entry by entry."""
    D = Psi.shape[1]
    F = np.zeros((len(samples), len(features)))
    for r, (i, subset) in enumerate(zip(samples, subsets)):
        for c, f in enumerate(features):
            y, j = divmod(int(f), D)
            F[r, c] = Psi[i, j] / subset.sum() if subset[y] else 0.0
    return F


def test_objective_coefficients_are_the_costs_of_mu1_and_mu2():
    rng = np.random.default_rng(0)
    tau, lam = rng.normal(size=(3, 4)), rng.random((3, 4))
    features = np.array([11, 0, 5])
    cost1, cost2 = objective_coefficients(tau, lam, features)
    for c, f in enumerate(features):
        y, j = divmod(f, 4)
        assert cost1[c] == -(tau[y, j] - lam[y, j]) and cost2[c] == tau[y, j] + lam[y, j]


def test_names_say_which_sample_or_centroid_and_which_labels():
    assert sample_label(17, 20) == "x17" and sample_label(23, 20) == "centroid3"
    assert subset_label(np.array([True, False, True])) == "C0_2" and subset_label(np.array([False, True])) == "C1"
    subsets = all_subsets(3)
    rows, columns = PAPER.names(np.array([2, 5]), subsets[[3, 6]], 5)
    assert rows == [("x2", "C0_1"), ("centroid0", "C0_1_2")] and columns == []


def test_an_item_is_one_row_with_no_column_of_its_own():
    subsets = all_subsets(4)
    rows, columns = PAPER.shape(subsets)
    assert rows.tolist() == [1] * 15 and columns.tolist() == [0] * 15
    assert np.array_equal(PAPER.upper(subsets), 1.0 / subsets.sum(axis=1) - 1.0)
    assert PAPER.has_columns is False and PAPER.name == "paper"


@pytest.mark.parametrize("sparse", [False, True])
def test_the_block_is_F_with_minus_one_for_nu(sparse):
    X, _ = random_problem(10, 3, 3, sparse=sparse, seed=1)
    dense = X.toarray() if sparse else X
    rng = np.random.default_rng(1)
    subsets = all_subsets(3)[rng.integers(0, 7, 12)]
    samples = rng.integers(0, 10, 12)
    features = np.array([8, 0, 4, 3, 6])
    block = PAPER.block(InMemorySource(X).rows, samples, subsets, features, 3)
    np.testing.assert_allclose(block.mu.toarray(), brute_force_F(dense, samples, subsets, features, 3),
                               rtol=4 * np.finfo(float).eps, atol=0)
    assert block.nu.tolist() == [-1.0] * 12
    assert sp.issparse(block.columns) and block.columns.shape == (12, 0)


def test_merge_adds_each_new_row_once_in_order_and_replaces_nothing():
    subsets = all_subsets(3)
    held_samples, held_subsets = np.array([0, 1, 2]), subsets[[0, 1, 6]]
    new_samples = np.array([1, 3, 0, 3, 2, 4, 0])
    new_subsets = subsets[[1, 2, 5, 2, 6, 0, 0]]
    replaced, (samples, chosen) = PAPER.merge(held_samples, held_subsets, new_samples, new_subsets)
    assert replaced.dtype == bool and not replaced.any() and len(replaced) == 3
    # (1, C1) and (2, C0_1_2) and (0, C0) are held, the second (3, C2) repeats the first
    assert samples.tolist() == [3, 0, 4]
    assert np.array_equal(chosen, subsets[[2, 5, 0]])


def test_the_items_cover_exactly_the_rows_they_are_and_travel_by_pickle():
    subsets = all_subsets(3)
    covers = pickle.loads(pickle.dumps(PAPER.covers(np.array([0, 5]), subsets[[2, 4]])))
    ids = np.array([0, 0, 5, 5, 1])
    sets = subsets[[2, 4, 4, 2, 2]]
    assert covers(ids, sets).tolist() == [True, False, True, False, False]


def test_item_values_are_the_paper_rows_values():
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(9, 4))
    subsets = all_subsets(4)[rng.integers(0, 15, 9)]
    expected = [(scores[r][subsets[r]].sum() - 1.0) / subsets[r].sum() for r in range(9)]
    np.testing.assert_allclose(PAPER.item_values(scores, subsets), expected, rtol=1e-15, atol=1e-15)


def test_the_duals_are_the_certificate_s_weights_as_they_are():
    subsets = all_subsets(2)
    duals = np.array([0.25, 0.0, 0.75])
    samples = np.array([3, 4, 3])
    assert PAPER.item_duals(subsets, duals) is duals
    got = PAPER.certificate_rows(samples, subsets, duals)
    assert got[0] is samples and got[1] is subsets and got[2] is duals


def test_the_full_lp_has_every_subset_of_every_sample():
    samples, subsets = PAPER.full_items(np.array([4, 1]), 3)
    assert samples.tolist() == [4] * 7 + [1] * 7
    assert np.array_equal(subsets, np.tile(all_subsets(3), (2, 1)))


def test_the_reduced_full_lp_has_no_blocked_label():
    """A reduction that blocks label 2 for sample 1: its rows with label 2 leave, all others stay."""
    blocked = np.zeros((3, 3), dtype=bool)
    blocked[1, 2] = True
    reduction = Reduction(fixed=np.zeros((3, 2), dtype=bool), direction=np.zeros((3, 2)), blocked=blocked,
                          centroid_blocked=np.zeros((3, 3), dtype=bool))
    samples, subsets = PAPER.full_items(np.arange(3), 3, reduction)
    full = {(int(i), tuple(np.flatnonzero(c))) for i, c in zip(*PAPER.full_items(np.arange(3), 3))}
    kept = {(int(i), tuple(np.flatnonzero(c))) for i, c in zip(samples, subsets)}
    assert kept == {(i, c) for i, c in full if not (i == 1 and 2 in c)}
    assert len(samples) == len(kept) == 3 * 7 - 4


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_the_full_lp_size_counts_its_rows_and_nonzeros(n_classes):
    """Without a reduction: the rows and nonzeros of ``[F, -F, -1]`` built from the full items; with ``k_i``
    labels kept, ``sum_i (2^k_i - 1)`` rows and ``sum_i 2 nnz(Psi_i) k_i 2^(k_i - 1)`` entries of ``F``."""
    X, _ = random_problem(6, 3, n_classes, sparse=True, seed=n_classes, density=0.5)
    n = X.shape[0]
    samples, subsets = PAPER.full_items(np.arange(n), n_classes)
    F = PAPER.block(InMemorySource(X).rows, samples, subsets, np.arange(n_classes * 3), 3).mu
    rows, nonzeros = PAPER.full_lp_size(np.full(n, n_classes), n_classes, X.getnnz(axis=1))
    assert rows == len(samples) == n * (2 ** n_classes - 1)
    assert nonzeros == 2 * F.nnz + len(samples)
    assert type(rows) is int and type(nonzeros) is int
    labels = np.full(n, n_classes)
    labels[:2] -= 1
    rows, nonzeros = PAPER.full_lp_size(labels, n_classes, X.getnnz(axis=1))
    assert rows == (n - 2) * (2 ** n_classes - 1) + 2 * (2 ** (n_classes - 1) - 1)
    lost = X[:2].nnz * n_classes * 2 ** (n_classes - 1) - X[:2].nnz * (n_classes - 1) * 2 ** (n_classes - 2)
    assert nonzeros == 2 * (F.nnz - lost) + rows
