"""Feature maps ``Psi: X -> R^D``.

The MRC feature vector of a pair is ``Phi(x, y) = e_y (kron) Psi(x)`` (paper, Section 2.1); the library never
materialises ``Phi`` and works with ``Psi`` alone.  A fitted map's ``transform(X)`` returns ``Psi(X)`` with
shape ``(n, D)``; with ``fit_intercept=True`` its first column is the constant 1.  Dense input gives a dense
C-contiguous float64 array, scipy.sparse input a CSR float64 matrix (the linear map keeps it sparse).
"""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data


class LinearFeatures(TransformerMixin, BaseEstimator):
    """The identity map ``Psi(x) = x``; scipy.sparse input stays sparse."""

    def fit(self, X, y=None):
        validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        return self

    def transform(self, X):
        check_is_fitted(self)
        return validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)


class RandomFourierFeatures(TransformerMixin, BaseEstimator):
    """Random Fourier features of the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` (Rahimi and Recht, 2008).

    ``Psi(x) = [x, cos(W x + b)]`` with ``W ~ N(0, 2 gamma I)`` of shape ``(n_components, d)`` and
    ``b ~ U[0, 2 pi)``; with ``include_original=False`` only the cosines.  The paper augments tabular data
    with 400 such features.  ``gamma="scale"`` uses ``1 / (d * X.var())``, as scikit-learn's SVC does.
    Sparse input gives a CSR result.
    """

    def __init__(self, n_components=400, gamma="scale", include_original=True, random_state=None):
        self.n_components = n_components
        self.gamma = gamma
        self.include_original = include_original
        self.random_state = random_state

    def fit(self, X, y=None):
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        if not isinstance(self.n_components, numbers.Integral) or self.n_components < 1:
            raise ValueError(f"n_components must be a positive integer, got {self.n_components!r}")
        if isinstance(self.gamma, str):
            if self.gamma != "scale":
                raise ValueError(f"gamma must be 'scale' or a positive number, got {self.gamma!r}")
            if sp.issparse(X):
                variance = X.multiply(X).mean() - X.mean() ** 2
            else:
                variance = X.var()
            gamma = 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        elif isinstance(self.gamma, numbers.Real) and self.gamma > 0:
            gamma = float(self.gamma)
        else:
            raise ValueError(f"gamma must be 'scale' or a positive number, got {self.gamma!r}")
        rng = check_random_state(self.random_state)
        self.gamma_ = gamma
        self.frequencies_ = rng.normal(scale=np.sqrt(2.0 * gamma), size=(X.shape[1], self.n_components))
        self.phases_ = rng.uniform(0.0, 2.0 * np.pi, size=self.n_components)
        return self

    def transform(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        waves = np.cos(np.asarray(X @ self.frequencies_) + self.phases_)
        if not self.include_original:
            return sp.csr_matrix(waves) if sp.issparse(X) else waves
        if sp.issparse(X):
            return sp.hstack([X, sp.csr_matrix(waves)], format="csr")
        return np.hstack([X, waves])


class FeatureMap(TransformerMixin, BaseEstimator):
    """``Psi(x) = [1, base(x)]`` with ``fit_intercept=True``, else ``base(x)``: the map an MRC is fitted on.

    ``base`` is any scikit-learn transformer (it is cloned, never modified); ``transform`` returns float64,
    dense C-contiguous or CSR.
    """

    def __init__(self, base=None, fit_intercept=True):
        self.base = base
        self.fit_intercept = fit_intercept

    def fit(self, X, y=None):
        base = LinearFeatures() if self.base is None else self.base
        self.base_ = clone(base).fit(X)
        return self

    def transform(self, X):
        check_is_fitted(self)
        Z = self.base_.transform(X)
        if sp.issparse(Z):
            Z = sp.csr_matrix(Z, dtype=np.float64)
            if self.fit_intercept:
                Z = sp.hstack([np.ones((Z.shape[0], 1)), Z], format="csr")
            Z.sum_duplicates()
            return Z
        Z = np.asarray(Z, dtype=np.float64)
        if Z.ndim != 2:
            raise ValueError(f"the feature map must return a 2-d array, got shape {Z.shape}")
        if self.fit_intercept:
            Z = np.hstack([np.ones((Z.shape[0], 1)), Z])
        Z = np.ascontiguousarray(Z)
        if not np.all(np.isfinite(Z)):
            raise ValueError("the feature map produced NaN or infinite values")
        return Z


def make_feature_map(phi, fit_intercept=True, random_state=None):
    """The unfitted :class:`FeatureMap` for ``phi`` = ``"linear"``, ``"fourier"`` or a transformer object."""
    if isinstance(phi, str):
        if phi == "linear":
            base = LinearFeatures()
        elif phi == "fourier":
            base = RandomFourierFeatures(random_state=random_state)
        else:
            raise ValueError(f"unknown phi {phi!r}: use 'linear', 'fourier' or a transformer with fit/transform")
    elif hasattr(phi, "fit") and hasattr(phi, "transform"):
        base = phi
    else:
        raise ValueError(f"phi must be 'linear', 'fourier' or an object with fit and transform, got {phi!r}")
    return FeatureMap(base=base, fit_intercept=fit_intercept)
