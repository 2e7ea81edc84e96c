"""tau, lambda and the feature maps against their definitions, dense and sparse."""

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import random_problem
from mrc_pyomo.estimates import mean_and_confidence
from mrc_pyomo.feature_maps import FeatureMap, RandomFourierFeatures, make_feature_map


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


def test_linear_map_keeps_sparse_and_adds_intercept():
    X, _ = random_problem(10, 3, 2, sparse=True)
    fmap = make_feature_map("linear").fit(X)
    Z = fmap.transform(X)
    assert sp.isspmatrix_csr(Z) or sp.issparse(Z)
    assert Z.shape == (10, 4)
    assert np.all(Z.toarray()[:, 0] == 1.0)
    assert np.allclose(Z.toarray()[:, 1:], X.toarray())
    Z = make_feature_map("linear", fit_intercept=False).fit(X.toarray()).transform(X.toarray())
    assert np.allclose(Z, X.toarray())


def test_fourier_map_is_seeded_and_augments():
    X, _ = random_problem(20, 3, 2)
    a = make_feature_map("fourier", random_state=0).fit(X).transform(X)
    b = make_feature_map("fourier", random_state=0).fit(X).transform(X)
    c = make_feature_map("fourier", random_state=1).fit(X).transform(X)
    assert a.shape == (20, 1 + 3 + 400)
    assert np.array_equal(a, b) and not np.allclose(a, c)
    assert np.allclose(a[:, 1:4], X) and np.all(np.abs(a[:, 4:]) <= 1.0)
    Xs = sp.csr_matrix(X)
    s = make_feature_map("fourier", random_state=0).fit(Xs).transform(Xs)
    assert sp.issparse(s) and np.allclose(s.toarray(), a)


def test_fourier_kernel_approximation():
    """cos features approximate the Gaussian kernel: 2/m sum cos(w.x+b) cos(w.x'+b) ~ exp(-gamma |x-x'|^2)."""
    X, _ = random_problem(30, 3, 2, seed=3)
    rff = RandomFourierFeatures(n_components=20000, gamma=0.2, include_original=False, random_state=0).fit(X)
    Z = rff.transform(X)
    K_approx = 2.0 / 20000 * Z @ Z.T
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    assert np.abs(K_approx - np.exp(-0.2 * sq)).max() < 0.05


def test_bad_phi_and_gamma():
    with pytest.raises(ValueError, match="unknown phi"):
        make_feature_map("poly")
    with pytest.raises(ValueError, match="phi must be"):
        make_feature_map(3)
    X, _ = random_problem(10, 2, 2)
    with pytest.raises(ValueError, match="gamma"):
        RandomFourierFeatures(gamma=-1.0).fit(X)
    with pytest.raises(ValueError, match="n_components"):
        RandomFourierFeatures(n_components=0).fit(X)


def test_custom_transformer_is_cloned():
    from sklearn.preprocessing import StandardScaler
    scaler = StandardScaler()
    X, _ = random_problem(10, 2, 2)
    fmap = FeatureMap(base=scaler).fit(X)
    assert not hasattr(scaler, "mean_")
    assert np.allclose(fmap.transform(X)[:, 1:], StandardScaler().fit_transform(X))
