"""The claim of docs/architecture.rst ("The formulation seam"): the exact compact LP of (sample, class) pairs
has the paper's R*, and the layer-cake weights of its pair duals are weights on the paper's rows (i, C) whose
Lagrangian bound (mrc_pyomo.oracles.certificate) is R*: the compact formulation needs no certificate of its own."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from mrc_pyomo.oracles.certificate import lower_bound
from mrc_pyomo.problem.estimates import mean_and_confidence

from conftest import random_problem, reference_R_star


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
