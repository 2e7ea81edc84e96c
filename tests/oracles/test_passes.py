"""The first-order passes (:mod:`mrc_pyomo.oracles.passes`) against their definitions written sample by sample:
``forward`` gives ``V[i, y] = Psi(x_i) . mu_y``, ``backward`` gives ``sum_i Psi(x_i)^T W[i]``, on dense and
sparse data passed over in one block or in several, and ``soft_threshold`` is the proximal map of ``t |.|``."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.data import as_source, source
from mrc_pyomo.oracles.passes import backward, forward, soft_threshold


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("block_rows", [None, 7])
def test_forward_and_backward_against_sums_over_samples(sparse, block_rows, monkeypatch):
    X, _ = random_problem(40, 5, 3, sparse=sparse, seed=3)
    dense = X.toarray() if sparse else X
    rng = np.random.default_rng(0)
    mu, W = rng.normal(size=(3, 5)), rng.normal(size=(40, 3))
    if block_rows is not None:   # six blocks: the map-reduce must join them in order
        monkeypatch.setattr(source, "BLOCK_ROWS", block_rows)
    data = as_source(X)
    V = forward(data, mu)
    expected_V = np.array([[dense[i] @ mu[y] for y in range(3)] for i in range(40)])
    assert V.shape == (40, 3) and np.allclose(V, expected_V, rtol=0, atol=1e-12)
    G = backward(data, W)
    expected_G = sum(np.outer(W[i], dense[i]) for i in range(40))
    assert G.shape == (3, 5) and np.allclose(G, expected_G, rtol=0, atol=1e-12)
    assert not sp.issparse(V) and not sp.issparse(G)


def test_backward_is_the_adjoint_of_forward():
    """``<Psi mu^T, W> = <mu, Psi^T W>`` (the identity the first-order methods' gradients rest on)."""
    X, _ = random_problem(30, 4, 5, seed=1)
    rng = np.random.default_rng(2)
    mu, W = rng.normal(size=(5, 4)), rng.normal(size=(30, 5))
    assert np.sum(forward(X, mu) * W) == pytest.approx(np.sum(mu * backward(X, W)), rel=1e-12)


def test_soft_threshold_is_the_prox_of_the_absolute_value():
    z = np.array([-2.0, -0.5, 0.0, 0.3, 1.0, 4.0])
    assert np.array_equal(soft_threshold(z, 0.5), np.array([-1.5, -0.0, 0.0, 0.0, 0.5, 3.5]))
    # the prox minimises t|m| + (m - z)^2 / 2 coordinate by coordinate: compare with a fine grid
    grid = np.linspace(-5, 5, 200001)
    for value in z:
        best = grid[np.argmin(0.5 * np.abs(grid) + 0.5 * (grid - value) ** 2)]
        assert soft_threshold(np.array([value]), 0.5)[0] == pytest.approx(best, abs=1e-4)
    assert np.array_equal(soft_threshold(z, 0.0), z)
