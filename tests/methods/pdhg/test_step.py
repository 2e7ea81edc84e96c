"""One step of MRC-PDHG (:mod:`mrc_pyomo.methods.pdhg.step`): the preconditioner's sums, the operator's
norm against a dense SVD, a step against its formula, the residual's metric, the namespace of the data."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.methods.pdhg import step
from mrc_pyomo.methods.pdhg.saddle import dual_prox
from mrc_pyomo.problem import prepare


def dense_operator(Psi, K):
    """The matrix of ``mu -> Psi mu^T`` (``(K, D)`` to ``(n, K)``, both flattened row-major)."""
    n, D = Psi.shape
    A = np.zeros((n * K, K * D))
    for y in range(K):
        A[y::K, y * D:(y + 1) * D] = Psi
    return A


@pytest.mark.parametrize("sparse", [False, True])
def test_the_preconditioned_norm_is_at_most_one_and_estimated(sparse):
    X, y = random_problem(60, 4, 3, sparse=sparse, seed=2)
    problem = prepare(X, y)
    Psi = problem.data.array
    dense = np.asarray(Psi.todense()) if sp.issparse(Psi) else Psi
    T0, S0 = step.preconditioner(problem)
    assert np.allclose(1 / T0, np.abs(dense).sum(axis=0)) and np.allclose(1 / S0, np.abs(dense).sum(axis=1))
    A = np.sqrt(np.repeat(S0, 3))[:, None] * dense_operator(dense, 3) * np.sqrt(np.tile(T0, 3))[None, :]
    exact = np.linalg.norm(A, 2)
    assert exact <= 1 + 1e-12
    estimate = step.operator_norm(problem, T0, S0, 50, step.data_namespace(problem))
    assert exact <= estimate <= 1.0 and estimate == pytest.approx(min(1.0, 1.01 * exact), rel=1e-3)
    assert step.operator_norm(problem, T0, S0, 0, step.data_namespace(problem)) == 1.0


def test_a_step_is_its_formula_and_the_residual_its_metric():
    X, y = random_problem(50, 3, 3, seed=3)
    problem = prepare(X, y, lambda0=0.05)
    Psi, xp = problem.data.array, step.data_namespace(problem)
    rng = np.random.default_rng(0)
    mu, W = rng.normal(size=problem.tau.shape), rng.dirichlet(np.ones(150)).reshape(50, 3)
    z = step.Iterate(mu, Psi @ mu.T, W, (Psi.T @ W).T)
    T0, S = np.full(problem.tau.shape[1], 0.3), rng.uniform(0.1, 0.5, 50)
    T = np.broadcast_to(T0[None, :], problem.tau.shape)
    arrays = step.Arrays.of(problem, xp)
    new = step.pdhg_step(z, problem, arrays, T, S)
    moved_to = z.mu - T * (z.G - problem.tau)
    expected = np.sign(moved_to) * np.maximum(np.abs(moved_to) - T * problem.lam, 0.0)
    assert np.allclose(new.mu, expected, atol=1e-15) and np.allclose(new.V, Psi @ expected.T, atol=1e-13)
    assert np.allclose(new.W, dual_prox(W + S[:, None] * (2 * new.V - z.V), S)[0], atol=1e-15)
    assert np.allclose(new.G, (Psi.T @ new.W).T, atol=1e-13)
    dmu, dW = (new.mu - mu).ravel(), (new.W - W).ravel()
    A = dense_operator(Psi, 3)
    metric = np.block([[np.diag(1 / T.ravel()), -A.T], [-A, np.diag(np.repeat(1 / S, 3))]])
    v = np.concatenate([dmu, dW])
    moved = step.movement(z, new, (T0, S))   # T = T0 and S = S0: eta = omega = 1
    assert step.residual(moved, 1.0, 1.0) == pytest.approx(np.sqrt(v @ metric @ v), rel=1e-10)
    assert step.residual(moved, 2.0, 0.5) == pytest.approx(np.sqrt(v @ np.block([
        [np.diag(0.25 / T.ravel()), -A.T], [-A, np.diag(np.repeat(1 / S, 3))]]) @ v), rel=1e-10)
    assert step.residual(step.movement(z, z, (T0, S)), 1.0, 1.0) == 0.0
    assert step.step_limit(moved, 1.0) == pytest.approx(
        (np.sum(dmu ** 2 / T.ravel()) + np.sum(dW ** 2 / np.repeat(S, 3))) / (2 * abs(dW @ (A @ dmu))), rel=1e-10)
    both = new.combined(2.0, z, -1.0, z, 0.5)
    assert np.allclose(both.W, 2 * new.W - W + 0.5 * W) and np.allclose(both.G, 2 * new.G - 0.5 * z.G)
