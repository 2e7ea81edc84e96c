"""The dual oracles (:mod:`mrc_pyomo.oracles.dual`) against an explicit F: ``g = F^T alpha`` and the violations
of the dual constraints."""

import numpy as np
import pytest

from helpers import all_subsets, explicit_F, random_problem
from mrc_pyomo.oracles.dual import dual_correlations, feature_violations


@pytest.mark.parametrize("sparse", [False, True])
def test_dual_correlations_equal_F_transpose_alpha(sparse):
    rng = np.random.default_rng(2)
    n_classes = 4
    Psi, _ = random_problem(12, 3, n_classes, sparse=sparse, seed=2)
    F, _ = explicit_F(Psi, n_classes)
    subsets_list = all_subsets(n_classes)
    n_sub = len(subsets_list)
    chosen = rng.choice(F.shape[0], size=25, replace=False)
    samples = chosen // n_sub
    subsets = np.zeros((25, n_classes), dtype=bool)
    for r, c in enumerate(chosen % n_sub):
        subsets[r, list(subsets_list[c])] = True
    alpha = rng.random(25)
    alpha[rng.random(25) < 0.3] = 0.0
    g = dual_correlations(lambda ids: Psi[ids], samples, subsets, alpha)
    assert np.allclose(g.ravel(), F[chosen].T @ alpha, atol=1e-12)
    tau, lam = rng.normal(size=g.shape), rng.random(g.shape)
    v = feature_violations(g, tau, lam)
    assert np.allclose(v, np.abs(F[chosen].T @ alpha - tau.ravel()).reshape(g.shape) - lam)
    beta = 0.25
    v = feature_violations(g, tau, lam, beta)
    # the dual constraints (1 - beta)(tau - lam) <= g <= (1 - beta)(tau + lam)
    lower, upper = (1 - beta) * (tau - lam) - g, g - (1 - beta) * (tau + lam)
    assert np.allclose(v, np.maximum(lower, upper))
