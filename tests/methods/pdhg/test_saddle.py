"""The saddle form's pieces (:mod:`mrc_pyomo.methods.pdhg.saddle`): the dual prox against a brute-force QP (its
KKT conditions and its value against every nearby point of the feasible set), the simplex's shift against a
sort, the nested decomposition against the W and h(W) it decomposes, and the namespace of array-api-strict."""

import numpy as np
import pytest
from scipy.optimize import minimize

from mrc_pyomo.methods.pdhg.saddle import (dual_prox, empirical_weights, h, nested_rows, row_thresholds,
                                           simplex_shift)
from mrc_pyomo.problem import prepare

from helpers import random_problem


def prox_objective(W, Z, steps):
    return float(np.sum((W - Z) ** 2 / (2.0 * steps[:, None])) + h(W))


def test_the_dual_prox_is_the_minimiser_of_its_problem():
    """On random rows (blocked labels included): the result is in the simplex, zero on blocked entries, and no
    feasible point found by SciPy's SLSQP from it or from random starts has a lower objective (the problem is
    strongly convex: the minimiser is unique)."""
    rng = np.random.default_rng(3)
    for trial in range(6):
        n, K = rng.integers(1, 5), rng.integers(2, 5)
        Z = rng.normal(scale=0.5, size=(n, K))
        steps = rng.uniform(0.1, 2.0, n)
        blocked = rng.random((n, K)) < 0.3 if trial % 2 else None
        if blocked is not None:
            blocked[:, 0] = False
        W, _ = dual_prox(Z, steps, blocked)
        assert W.min() >= 0 and abs(W.sum() - 1.0) < 1e-12
        if blocked is not None:
            assert not W[blocked].any()
        free = np.ones((n, K), dtype=bool) if blocked is None else ~blocked
        best = prox_objective(W, Z, steps)
        for start in [W[free]] + [rng.dirichlet(np.ones(free.sum())) for _ in range(3)]:
            def objective(v):
                V = np.zeros((n, K))
                V[free] = v
                return prox_objective(V, Z, steps)
            found = minimize(objective, start, method="SLSQP", bounds=[(0, None)] * free.sum(),
                             constraints=[{"type": "eq", "fun": lambda v: v.sum() - 1.0}],
                             options={"ftol": 1e-14, "maxiter": 500})
            assert found.fun >= best - 1e-9


def test_the_row_threshold_and_the_shift_solve_their_equations():
    rng = np.random.default_rng(5)
    Z = rng.normal(size=(40, 7))
    Z[3, 2:] = -np.inf   # a row with blocked labels
    steps = rng.uniform(0.05, 3.0, 40)
    t = row_thresholds(Z, steps)
    finite = np.isfinite(Z)
    assert np.allclose(np.where(finite, np.maximum(Z - t[:, None], 0.0), 0.0).sum(axis=1), steps, atol=1e-12)
    M = np.minimum(Z, t[:, None])
    for iterations in (50, 0):   # Newton's steps, and the sort alone
        nu = simplex_shift(M, steps, iterations)
        assert np.maximum(M - steps[:, None] * nu, 0.0).sum() == pytest.approx(1.0, abs=1e-12)
    root = simplex_shift(M, steps)
    # a search started from a guess (the last step's shift) left of the root, right of it, far on either side,
    # or on a breakpoint, ends on the same root
    breakpoint = np.sort((M / steps[:, None])[np.isfinite(M)])[-3]
    for guess in (root - 1e-3, root + 1e-3, root - 50.0, root + 50.0, breakpoint, root, np.inf, None):
        assert simplex_shift(M, steps, guess=guess) == pytest.approx(root, abs=1e-12)


def test_the_nested_decomposition_gives_back_w_and_h():
    """The rows ``(i, C_k)`` with their weights ``k (w_(k) - w_(k+1))`` (ties included): spread over their labels
    they sum to W, their total weight is sum W and their weights over |C| sum to h(W)."""
    rng = np.random.default_rng(7)
    W = rng.dirichlet(np.ones(30)).reshape(6, 5)
    W[2, 1] = W[2, 3]   # a tie
    W[4] = 0.0          # a row without weight
    samples, subsets = nested_rows(W, floor=0.0)
    order = np.argsort(-W, axis=1, kind="stable")
    ordered = np.take_along_axis(W, order, axis=1)
    gaps = ordered - np.concatenate([ordered[:, 1:], np.zeros((6, 1))], axis=1)
    sizes = subsets.sum(axis=1)
    weights = gaps[samples, sizes - 1] * sizes
    rebuilt = np.zeros_like(W)
    for i, subset, weight in zip(samples, subsets, weights):
        rebuilt[i, subset] += weight / subset.sum()
    assert np.allclose(rebuilt, W, atol=1e-15) and weights.sum() == pytest.approx(W.sum(), abs=1e-15)
    assert (weights / sizes).sum() == pytest.approx(h(W), abs=1e-15)
    assert 4 not in samples and (weights > 0).all()


def test_the_empirical_weights_are_a_distribution_of_mean_tau():
    X, y = random_problem(50, 3, 4, seed=1)
    problem = prepare(X, y)
    W = empirical_weights(problem)
    assert W.sum() == pytest.approx(1.0) and h(W) == pytest.approx(1.0)
    assert np.allclose(np.asarray(problem.data.array).T @ W, problem.tau.T, atol=1e-14)


def test_on_array_api_strict_numpy_s_numbers():
    xps = pytest.importorskip("array_api_strict")
    xps.set_array_api_strict_flags(api_version="2024.12")
    try:
        rng = np.random.default_rng(2)
        Z, steps = rng.normal(size=(30, 6)), rng.uniform(0.1, 1.0, 30)
        blocked = rng.random((30, 6)) < 0.2
        blocked[:, 0] = False
        W, _ = dual_prox(xps.asarray(Z), xps.asarray(steps), xps.asarray(blocked))
        assert np.allclose(np.asarray(W), dual_prox(Z, steps, blocked)[0], atol=1e-15, rtol=0)
        assert h(W) == pytest.approx(h(np.asarray(W)), abs=1e-15)
        assert all(np.array_equal(a, b) for a, b in zip(nested_rows(W), nested_rows(np.asarray(W))))
        # the row thresholds: NumPy's path (prefix_means) gives the standard's numbers, bit for bit, ties and
        # blocked labels included
        Z[:, 4] = Z[:, 1]
        Z = np.where(blocked, -np.inf, Z)
        assert np.array_equal(np.asarray(row_thresholds(xps.asarray(Z), xps.asarray(steps))),
                              row_thresholds(Z, steps))
    finally:
        xps.reset_array_api_strict_flags()


def test_the_nested_size_is_the_labels_of_the_nested_rows_in_any_namespace():
    """``nested_size`` (what the hand-over weighs a master by) is the sum of ``|C_k|`` over the rows that
    ``nested_rows`` gives, above the same floor, on NumPy's and on array-api-strict's arrays."""
    from mrc_pyomo.methods.pdhg.saddle import nested_size
    rng = np.random.default_rng(3)
    W = rng.dirichlet(np.ones(40)).reshape(8, 5)
    W[2, 1:3] = W[2, 0]   # ties
    W[5] = 0.0
    for floor in (0.0, 1e-3):
        samples, subsets = nested_rows(W, floor)
        assert nested_size(W, floor) == subsets.sum()
    xps = pytest.importorskip("array_api_strict")
    assert nested_size(xps.asarray(W), 1e-3) == nested_size(W, 1e-3)
