"""Feature maps ``Psi: X -> R^D``.

The MRC feature vector of a pair is ``Phi(x, y) = e_y (kron) Psi(x)`` (paper, Section 2.1); the library never
materialises ``Phi`` and works with ``Psi`` alone.  A fitted map's ``transform(X)`` returns ``Psi(X)`` with
shape ``(n, D)``; with ``fit_intercept=True`` its first column is the constant 1.  Dense input gives a dense
C-contiguous float64 array, scipy.sparse input a CSR float64 matrix (the linear map keeps it sparse).

The random Fourier features are drawn and computed by scikit-learn's
:class:`~sklearn.kernel_approximation.RBFSampler` (``W ~ N(0, 2 gamma I)`` then ``b ~ U[0, 2 pi)``: one cosine
with a random phase per feature, not cos/sin pairs), composed with this package's ``gamma="scale"`` default and
``include_original``.  RBFSampler's constant factor ``sqrt(2 / n_components)`` is undone: ``Psi`` holds the
unit-amplitude cosines ``cos(W x + b)``.  ``R``, the rule and its predictions are invariant under that factor in
exact arithmetic (:mod:`mrc_pyomo.problem.scaling`), not in floating point: on badly scaled data (columns of 1e5
next to 1e-5, so ``gamma`` ~ 1e-11 and nearly constant cosines) a derandomised example of the property tests
closes its gap to 2e-11 on the unit cosines and stalls at a gap of 0.10 on RBFSampler's scale.

Each map gives a row the same bits whatever rows it is transformed with (:mod:`mrc_pyomo.data`: a row fetched for
the master equals that row in a pass, in memory or on Dask).  The Fourier map's product ``X W^T`` is the one
step where this needs care: OpenBLAS computes the rows of a product beyond the last multiple of its kernel's
tile by other kernels, in another order, so the product is taken on ``X`` padded with zero rows to a multiple of
:data:`ROW_TILE` rows.
"""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn import config_context
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context, clone
from sklearn.kernel_approximation import RBFSampler
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, has_fit_parameter, validate_data

from .data import DataSource, as_source, is_dask_array

#: the Fourier map's products are taken on a multiple of this many rows (see the module docstring)
ROW_TILE = 16


def first_row(X):
    """What the fit of a map of this module reads of ``X``: ``X`` itself, or for a Dask array or another data
    source (:mod:`mrc_pyomo.data`) its first row, in memory (the maps learn the number of columns from it;
    :class:`RandomFourierFeatures` its variance too, by a pass)."""
    if isinstance(X, DataSource):
        return X.rows([0])
    return X[:1].compute() if is_dask_array(X) else X


def _variance(X, weights=None):
    """The variance of all entries of ``X`` (an array, a Dask array or a data source), each row's entries
    weighted by its sample weight if ``weights`` are given (an integer weight counts as that many copies of the
    row): one pass over its canonical blocks (:mod:`mrc_pyomo.data`, the same number in memory and on Dask),
    each block's count, mean and centred sum of squares merged by Chan, Golub and LeVeque's update (no
    cancellation on data far from 0)."""
    def moments(block, start, *w):
        if w:
            return _weighted_moments(block, w[0])
        size = block.shape[0] * block.shape[1]
        mean = block.sum() / size if size else 0.0
        if sp.issparse(block):   # the zeros' share of the centred squares, without densifying
            return size, mean, float(((block.data - mean) ** 2).sum() + (size - block.nnz) * mean * mean)
        return size, mean, float(((block - mean) ** 2).sum())

    def merge(parts):
        count, mean, squares = 0, 0.0, 0.0
        for n, m, s in parts:
            if n:
                total = count + n
                delta = m - mean
                mean, squares, count = mean + delta * n / total, squares + s + delta * delta * count * n / total, total
        return squares / count if count else 0.0

    extra = () if weights is None else (np.asarray(weights, dtype=float),)
    return float(as_source(X).map_reduce(moments, merge, *extra))


def _weighted_moments(block, w):
    """``(count, mean, centred squares)`` of a block's entries, row ``i``'s weighted by ``w[i]``."""
    n, d = block.shape
    size = float(w.sum()) * d
    mean = float(w @ np.asarray(block.sum(axis=1)).ravel()) / size if size else 0.0
    if sp.issparse(block):   # per row: its stored entries' centred squares, and its zeros' share
        block = sp.csr_matrix(block)
        stored = np.diff(block.indptr)
        # float sums for every row, also of a block without stored entries (bincount of nothing gives integers)
        per_row = np.bincount(np.repeat(np.arange(n), stored), (block.data - mean) ** 2, minlength=n).astype(float)
        per_row += (d - stored) * mean * mean
    else:
        per_row = ((block - mean) ** 2).sum(axis=1)
    return size, mean, float(w @ per_row)


class LinearFeatures(TransformerMixin, BaseEstimator):
    """The identity map ``Psi(x) = x``; scipy.sparse input stays sparse."""

    def fit(self, X, y=None, sample_weight=None):
        """Learn the number of columns of ``X`` (``sample_weight`` is not used: the map has no parameter)."""
        validate_data(self, first_row(X), accept_sparse="csr", dtype=np.float64)
        return self

    def transform(self, X):
        check_is_fitted(self)
        return validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)


class RandomFourierFeatures(TransformerMixin, BaseEstimator):
    """Random Fourier features of the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` (Rahimi and Recht, 2008).

    ``Psi(x) = [x, cos(W x + b)]`` with ``W ~ N(0, 2 gamma I)`` of shape ``(m, d)``, ``b ~ U[0, 2 pi)`` and
    ``m = n_components``, so that ``(2 / m) cos(W x + b).cos(W x' + b) ~ exp(-gamma ||x - x'||^2)``; with
    ``include_original=False`` only the cosines.  The paper augments tabular data with 400 such features.
    ``W`` and ``b`` are drawn, and the cosines computed, by scikit-learn's
    :class:`~sklearn.kernel_approximation.RBFSampler` (fitted as ``sampler_``, its draws in
    ``sampler_.random_weights_`` and ``sampler_.random_offset_``), whose output ``sqrt(2 / m) cos(W x + b)`` is
    multiplied back by ``sqrt(m / 2)`` (see the module docstring for why).  This class's default
    ``gamma="scale"`` is ``gamma_ = 1 / (d * X.var())`` (1 when ``X.var() == 0``), the variance over all entries
    of ``X``, as scikit-learn's SVC and RBFSampler define it.  The same ``random_state`` gives the same features.
    Sparse input gives a CSR result.
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0, np.inf, closed="neither")],
        "include_original": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, n_components=400, gamma="scale", include_original=True, random_state=None):
        self.n_components = n_components
        self.gamma = gamma
        self.include_original = include_original
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, sample_weight=None):
        """Set ``gamma_`` and draw ``W`` and ``b`` (``sampler_``) for the ``d`` columns of ``X`` (a Dask array or a
        data source: its variance by one pass, nothing else of it read); ``sample_weight``: the weights of the
        rows in the variance of ``gamma="scale"`` (an integer weight is that many copies of the row)."""
        data = X if isinstance(X, DataSource) or is_dask_array(X) else None
        X = validate_data(self, first_row(X), accept_sparse="csr", dtype=np.float64)
        if isinstance(self.gamma, str):   # "scale", the only string the constraints accept
            rows = X if data is None else data
            if sample_weight is not None:
                sample_weight = _check_sample_weight(sample_weight, np.empty((rows.shape[0], 0)), dtype=np.float64,
                                                     ensure_non_negative=True)
            variance = _variance(rows, sample_weight)
            self.gamma_ = 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        else:
            self.gamma_ = float(self.gamma)
        self.sampler_ = RBFSampler(gamma=self.gamma_, n_components=self.n_components,
                                   random_state=self.random_state).fit(X)
        return self

    def transform(self, X):
        """``[x, cos(W x + b)]`` per row (the cosines alone with ``include_original=False``): dense, or CSR for
        sparse ``X``."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        n = X.shape[0]
        if not sp.issparse(X) and n % ROW_TILE:   # a product on whole tiles (module docstring)
            X = np.vstack([X, np.zeros((-n % ROW_TILE, X.shape[1]))])
        with config_context(assume_finite=True):   # X was checked just above
            waves = self.sampler_.transform(X)[:n]
        waves *= np.sqrt(self.sampler_.n_components / 2.0)   # RBFSampler's sqrt(2 / m) cos(W x + b) -> cos(W x + b)
        if not self.include_original:
            return sp.csr_matrix(waves) if sp.issparse(X) else waves
        if sp.issparse(X):
            return sp.hstack([X, sp.csr_matrix(waves)], format="csr")
        return np.hstack([X[:n], waves])


class FeatureMap(TransformerMixin, BaseEstimator):
    """``Psi(x) = [1, base(x)]`` with ``fit_intercept=True``, else ``base(x)``: the map an MRC is fitted on.

    ``base`` is any scikit-learn transformer (it is cloned, never modified); ``transform`` returns float64,
    dense C-contiguous or CSR.
    """

    def __init__(self, base=None, fit_intercept=True):
        self.base = base
        self.fit_intercept = fit_intercept

    def fit(self, X, y=None, sample_weight=None):
        """Fit a clone of ``base`` on ``X``, with ``sample_weight`` if given and its ``fit`` takes them."""
        base = clone(LinearFeatures() if self.base is None else self.base)
        weighted = sample_weight is not None and has_fit_parameter(base, "sample_weight")
        self.base_ = base.fit(X, sample_weight=sample_weight) if weighted else base.fit(X)
        return self

    def transform(self, X):
        check_is_fitted(self)
        Z = check_map_output(self.base_.transform(X), self.base_)
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
        return np.ascontiguousarray(Z)


def check_map_output(Z, feature_map):
    """``Z``, the output of ``feature_map.transform``, if it is real and finite; else ``ValueError`` saying what
    is wrong with it (dense or scipy.sparse)."""
    name = type(feature_map).__name__
    values = Z.data if sp.issparse(Z) else np.asarray(Z)
    if np.iscomplexobj(values):
        raise ValueError(f"the feature map {name} returned complex values: Psi(x) must be real")
    if not (np.issubdtype(values.dtype, np.number) or values.dtype == bool):
        raise ValueError(f"the feature map {name} returned values of type {values.dtype}, not numbers")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"the feature map {name} returned NaN or infinite values")
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
