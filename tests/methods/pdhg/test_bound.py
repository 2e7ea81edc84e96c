"""The certified lower bound of a dual iterate (:mod:`mrc_pyomo.methods.pdhg.bound`): below the R* of an
independent full LP for any W in the simplex, its rescue the larger where W's own bound is poor, its rounding
bounds proportional to the data's peaks."""

import numpy as np
import pytest

from helpers import random_problem, reference_R_star
from mrc_pyomo.oracles.passes import backward
from mrc_pyomo.methods.pdhg import bound
from mrc_pyomo.methods.pdhg.saddle import empirical_weights, h
from mrc_pyomo.oracles.certificate import lagrangian_bound
from mrc_pyomo.problem import prepare
from mrc_pyomo.problem.scaling import column_peaks


def prepared(seed, n=40, d=3, K=3, lambda0=0.01):
    X, y = random_problem(n, d, K, seed=seed)
    problem = prepare(X, y, lambda0=lambda0)
    Psi = np.asarray(problem.data.array)
    return problem, reference_R_star(Psi, problem.y, K, lambda0)


@pytest.mark.parametrize("seed", range(4))
def test_every_w_bounds_r_star_from_below(seed):
    """Random W in the simplex, mixtures with the empirical W_0 and W_0 itself: every bound is at most R*
    (rho = R(0) = 1 - 1/K, valid: R* <= R(0))."""
    problem, R_star = prepared(seed)
    peaks = column_peaks(problem.data)
    rng = np.random.default_rng(seed)
    W0 = empirical_weights(problem)
    for share in (0.0, 0.5, 0.9, 0.99, 1.0):
        W = share * W0 + (1 - share) * rng.dirichlet(np.ones(W0.size)).reshape(W0.shape)
        value = bound.dual_bound(W, backward(problem.data, W), problem, 1.0 - 1.0 / 3, peaks)
        assert 0.0 <= value <= R_star + 1e-12
    assert bound.dual_bound(W0, backward(problem.data, W0), problem, 1.0, peaks) == 0.0


def test_the_rescue_is_the_mixture_s_bound():
    """For a W whose own bound is far below 0, the bound is ``(1 - h(W)) / max_j r_j`` (the mixture with W_0 at
    that weight), to its rounding; a scaled W (not summing to 1) gives the same bound."""
    problem, R_star = prepared(1, lambda0=0.1)
    peaks = column_peaks(problem.data)
    W = np.random.default_rng(0).dirichlet(np.ones(problem.n_samples * 3)).reshape(-1, 3)
    G = backward(problem.data, W)
    ratio = (np.abs(G - problem.tau) / problem.lam).max()
    assert ratio > 1 and lagrangian_bound(G, 1 - h(W), problem.tau, problem.lam, 1.0) < 0
    value = bound.dual_bound(W, G, problem, 1.0, peaks)
    assert value == pytest.approx(max(0.0, (1 - h(W)) / ratio), abs=1e-9) and value <= R_star
    assert bound.dual_bound(2 * W, 2 * G, problem, 1.0, peaks) == pytest.approx(value, abs=1e-12)
    assert bound.dual_bound(0 * W, 0 * G, problem, 1.0, peaks) == 0.0


def test_the_rounding_bounds_scale_with_the_peaks():
    errors = bound.rounding_of(np.ones((4, 3)), np.array([1.0, 2.0]))
    assert errors[0].shape == (1, 2) and errors[0][0, 1] == 2 * errors[0][0, 0] and errors[1] > 0
