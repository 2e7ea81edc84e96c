"""The feature maps (:mod:`mrc_pyomo.feature_maps`) against their definitions, dense and sparse: the linear map,
the random Fourier features (scikit-learn's ``RBFSampler``), a user's transformer; their parameters and their
output checked before a fit uses them."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.datasets import load_iris, load_wine
from sklearn.kernel_approximation import RBFSampler
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import check_estimator

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.feature_maps import FeatureMap, RandomFourierFeatures, make_feature_map


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


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("gamma", ["scale", 0.3])
def test_fourier_features_are_scikit_learn_s_rbf_sampler(sparse, gamma):
    """The features of ``RBFSampler(gamma, n_components, random_state)`` times ``sqrt(m / 2)``, after the
    original columns; ``gamma="scale"`` is ``1 / (d X.var())`` over all entries, as RBFSampler's own "scale"."""
    X, _ = random_problem(50, 4, 3, sparse=sparse, seed=7)
    rff = RandomFourierFeatures(n_components=30, gamma=gamma, random_state=3).fit(X)
    reference = RBFSampler(n_components=30, gamma=gamma, random_state=3).fit(X)
    Z = rff.transform(X)
    assert sp.issparse(Z) == sparse
    Z = Z.toarray() if sparse else Z
    Xd = X.toarray() if sparse else X
    assert np.array_equal(Z[:, :4], Xd)
    assert np.allclose(Z[:, 4:], np.sqrt(30 / 2) * reference.transform(X), rtol=1e-15, atol=1e-15)
    assert np.array_equal(rff.sampler_.random_weights_, reference.random_weights_)
    expected_gamma = 1.0 / (4 * Xd.var()) if gamma == "scale" else gamma
    assert rff.gamma_ == pytest.approx(expected_gamma, rel=1e-12)
    only = RandomFourierFeatures(n_components=30, gamma=gamma, include_original=False, random_state=3).fit(X)
    W = only.transform(X)
    assert np.array_equal(W.toarray() if sparse else W, Z[:, 4:])


def test_fourier_features_are_the_previous_cosines_and_rbf_sampler_s_scale_gives_the_same_mrc():
    """``cos(W x + b)`` with ``W`` then ``b`` drawn from the seed, as the hand-written map before RBFSampler;
    an MRC on RBFSampler's own scale ``sqrt(2 / m) cos(W x + b)`` has the same minimax risk and rule."""
    X, y = random_problem(80, 3, 3, seed=2)
    rff = RandomFourierFeatures(n_components=25, include_original=False, random_state=5).fit(X)
    rng = np.random.RandomState(5)
    W = rng.normal(scale=np.sqrt(2.0 * rff.gamma_), size=(3, 25))
    b = rng.uniform(0.0, 2.0 * np.pi, size=25)
    assert np.allclose(rff.transform(X), np.cos(X @ W + b), rtol=0, atol=1e-14)

    class SamplerScale(RandomFourierFeatures):
        def transform(self, X):
            return np.hstack([X, self.sampler_.transform(X)])

    a = MRCClassifier(phi=RandomFourierFeatures(n_components=25, random_state=5), eps_1=1e-7).fit(X, y)
    s = MRCClassifier(phi=SamplerScale(n_components=25, random_state=5), eps_1=1e-7).fit(X, y)
    assert a.status_ == s.status_ == "converged"
    assert a.upper_ == pytest.approx(s.upper_, abs=1e-6)
    assert np.array_equal(a.predict(X), s.predict(X))


def test_fourier_gamma_scale_of_constant_data_is_one():
    X = np.full((10, 3), 2.0)
    assert RandomFourierFeatures(n_components=5).fit(X).gamma_ == 1.0
    assert RandomFourierFeatures(n_components=5).fit(sp.csr_matrix(X)).gamma_ == 1.0


def test_fourier_kernel_approximation():
    """cos features approximate the Gaussian kernel: 2/m sum cos(w.x+b) cos(w.x'+b) ~ exp(-gamma |x-x'|^2)."""
    X, _ = random_problem(30, 3, 2, seed=3)
    rff = RandomFourierFeatures(n_components=20000, gamma=0.2, include_original=False, random_state=0).fit(X)
    Z = rff.transform(X)
    K_approx = 2.0 / 20000 * Z @ Z.T
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    assert np.abs(K_approx - np.exp(-0.2 * sq)).max() < 0.05


def test_fourier_map_is_a_scikit_learn_transformer():
    check_estimator(RandomFourierFeatures(n_components=20))


@pytest.mark.parametrize("params,name", [
    ({"gamma": -1.0}, "gamma"),
    ({"gamma": 0.0}, "gamma"),
    ({"gamma": "auto"}, "gamma"),
    ({"n_components": 0}, "n_components"),
    ({"n_components": 2.5}, "n_components"),
    ({"include_original": "yes"}, "include_original"),
    ({"random_state": "seed"}, "random_state"),
])
def test_bad_fourier_parameters(params, name):
    X, _ = random_problem(10, 2, 2)
    with pytest.raises(InvalidParameterError, match=f"The '{name}' parameter of RandomFourierFeatures"):
        RandomFourierFeatures(**params).fit(X)


def test_bad_phi():
    with pytest.raises(ValueError, match="unknown phi"):
        make_feature_map("poly")
    with pytest.raises(ValueError, match="phi must be"):
        make_feature_map(3)


def test_custom_transformer_is_cloned():
    from sklearn.preprocessing import StandardScaler
    scaler = StandardScaler()
    X, _ = random_problem(10, 2, 2)
    fmap = FeatureMap(base=scaler).fit(X)
    assert not hasattr(scaler, "mean_")
    assert np.allclose(fmap.transform(X)[:, 1:], StandardScaler().fit_transform(X))


@pytest.mark.parametrize("phi,name", [
    (RandomFourierFeatures(n_components=0), "n_components"),       # was a ZeroDivisionError in scikit-learn
    (RandomFourierFeatures(gamma=-1), "gamma"),                      # was an unbounded master, or complex Psi
    (RandomFourierFeatures(gamma=0.0), "gamma"),
    (RandomFourierFeatures(include_original="yes"), "include_original"),
    (make_pipeline(StandardScaler(), RandomFourierFeatures(n_components=-3)), "n_components"),
])
@pytest.mark.parametrize("data", [load_iris, load_wine])
def test_the_feature_map_s_parameters_are_checked_before_it_is_fitted(phi, name, data):
    """A bad parameter of the user's map is a ValueError naming it, never an error from inside scikit-learn
    or a master solve; the user's map is left as it was given."""
    X, y = data(return_X_y=True)
    given = clone(phi)
    with pytest.raises(ValueError, match=rf"'{name}' parameter of"):
        MRCClassifier(phi=phi).fit(X, y)
    assert repr(phi.get_params()) == repr(given.get_params()) and not hasattr(phi, "sampler_")


def _sparse(Z):
    return sp.csr_matrix(Z)


@pytest.mark.parametrize("func,match", [
    (lambda Z: Z + 1j, "complex values"),
    (lambda Z: _sparse(Z.toarray() + 1j) if sp.issparse(Z) else _sparse(Z + 1j), "complex values"),
    (lambda Z: np.where(Z > 1, np.nan, Z), "NaN or infinite"),
    (lambda Z: _sparse(np.where(np.abs(Z) > 1, np.inf, Z)), "NaN or infinite"),
    (lambda Z: np.asarray(Z).astype(str), "not numbers"),
])
def test_a_feature_map_s_output_must_be_real_and_finite(func, match):
    """Complex or non-finite output of any map, dense or sparse, is refused before the fit uses it (complex
    values were cast to their real part with only a warning, and the fit "converged")."""
    X, y = random_problem(60, 3, 3, seed=2)
    with pytest.raises(ValueError, match=rf"the feature map FunctionTransformer returned .*{match}"):
        MRCClassifier(phi=FunctionTransformer(func, accept_sparse=True)).fit(X, y)


@pytest.mark.parametrize("sparse", [False, True])
def test_a_row_is_mapped_to_the_same_bits_whatever_rows_it_is_mapped_with(sparse):
    """A row fetched for the master equals that row in a pass (in memory or on Dask): the Fourier map gives a row
    the same bits alone, with a few rows or with all (OpenBLAS computes the rows past the last whole tile of a
    product by other kernels: before the padding to whole tiles, a row mapped alone differed in its last bits), in
    C or Fortran order."""
    X, _ = random_problem(301, 36, 3, sparse=sparse, seed=5)
    feature_map = make_feature_map("fourier", random_state=0).fit(X)
    Z = feature_map.transform(X)
    Z = Z.toarray() if sparse else Z
    for ids in ([5], [300], [0, 1, 2], list(range(17)), np.random.default_rng(1).choice(301, 37, replace=False)):
        part = feature_map.transform(X[ids])
        assert np.array_equal(part.toarray() if sparse else part, Z[ids])
    if not sparse:
        assert np.array_equal(feature_map.transform(np.asfortranarray(X)), Z)


@pytest.mark.parametrize("rows", [[], [3]])
def test_weighted_scale_of_sparse_data_with_empty_rows(rows):
    """``gamma="scale"`` with sample weights on sparse data whose rows store no entry (all of them, or all but one):
    the weighted variance is that of the dense data (it crashed: ``np.bincount`` of no entries gives integers)."""
    dense = np.zeros((20, 3))
    dense[rows, 1] = 2.0
    weights = np.arange(1.0, 21.0)
    expected = RandomFourierFeatures(n_components=5, random_state=0).fit(dense, sample_weight=weights).gamma_
    fmap = RandomFourierFeatures(n_components=5, random_state=0).fit(sp.csr_matrix(dense), sample_weight=weights)
    assert fmap.gamma_ == pytest.approx(expected, rel=1e-12)
    y = np.arange(20) % 2
    clf = MRCClassifier(phi="fourier", random_state=0).fit(sp.csr_matrix(dense), y, sample_weight=weights)
    assert clf.upper_ == pytest.approx(MRCClassifier(phi="fourier", random_state=0).fit(dense, y, sample_weight=weights)
                                       .upper_, abs=1e-9)
