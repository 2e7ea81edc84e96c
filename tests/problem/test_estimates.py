"""tau and lambda (:mod:`mrc_pyomo.problem.estimates`) against their definitions, dense and sparse."""

import numpy as np
import pytest
import scipy.sparse as sp

from helpers import random_problem
from mrc_pyomo.problem.estimates import mean_and_confidence


def explicit_phi(Psi, y, n_classes):
    Psi = Psi.toarray() if sp.issparse(Psi) else Psi
    Phi = np.zeros((Psi.shape[0], n_classes, Psi.shape[1]))
    Phi[np.arange(len(y)), y] = Psi
    return Phi


@pytest.mark.parametrize("sparse", [False, True])
def test_tau_lambda_match_explicit_phi(sparse):
    Psi, y = random_problem(80, 6, 4, sparse=sparse, seed=5)
    Psi = Psi + 100.0 if not sparse else Psi  # a large offset tests the centred variance
    tau, lam = mean_and_confidence(Psi, y, 4, 0.3)
    Phi = explicit_phi(Psi, y, 4)
    assert np.allclose(tau, Phi.mean(axis=0), atol=1e-12)
    assert np.allclose(lam, 0.3 * Phi.std(axis=0), atol=1e-10)
