"""Feature maps ``Psi: X -> R^D``.

The MRC feature vector of a pair is ``Phi(x, y) = e_y (kron) Psi(x)`` (paper, Section 2.1); the library never
materialises ``Phi``.  A fitted map's ``transform(X)`` returns ``Psi(X)``, ``(n, D)``, its first column the constant
1 with ``fit_intercept=True``: a C-contiguous float64 array, or a CSR float64 matrix for scipy.sparse input.

:class:`RandomFourierFeatures` undoes scikit-learn's RBFSampler's factor ``sqrt(2 / n_components)``: ``Psi`` holds
unit-amplitude cosines.  ``R`` and the rule are invariant under that factor in exact arithmetic
(:mod:`mrc_pyomo.problem.scaling`), not in floating point: on columns of 1e5 next to 1e-5 the unit cosines close
the gap to round-off where RBFSampler's scale stalls (a derandomised property test).

Each map gives a row the same bits whatever rows it is transformed with (:mod:`mrc_pyomo.data`: a row fetched for
the master equals that row in a pass).  In the Fourier map's product ``X W^T`` OpenBLAS computes the rows past its
kernel's last whole tile in another order, so ``X`` is padded with zero rows to a multiple of :data:`ROW_TILE`.
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
    """What the fit of a map of this module reads of ``X``, its number of columns: ``X`` itself, or its first row
    in memory for a Dask array or another data source (:mod:`mrc_pyomo.data`)."""
    if isinstance(X, DataSource):
        return X.rows([0])
    return X[:1].compute() if is_dask_array(X) else X


def _variance(X, weights=None):
    """The variance of all entries of ``X`` (an array, a Dask array or a data source), row ``i``'s weighted by
    ``weights[i]`` if given: one pass over the canonical blocks (:mod:`mrc_pyomo.data`), the blocks' counts, means
    and centred sums of squares merged by Chan, Golub and LeVeque's update (no cancellation far from 0)."""
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

    ``Psi(x) = [x, cos(W x + b)]`` (the cosines alone with ``include_original=False``), ``W ~ N(0, 2 gamma I)`` of
    shape ``(m, d)``, ``b ~ U[0, 2 pi)``, ``m = n_components``, one cosine with a random phase per feature, so that
    ``(2 / m) cos(W x + b).cos(W x' + b) ~ exp(-gamma ||x - x'||^2)``.  The paper augments tabular data with 400 such
    features.  scikit-learn's :class:`~sklearn.kernel_approximation.RBFSampler` (``sampler_``, its draws in
    ``sampler_.random_weights_`` and ``sampler_.random_offset_``) draws ``W`` and ``b``; its output
    ``sqrt(2 / m) cos(W x + b)`` is multiplied back by ``sqrt(m / 2)`` (module docstring).  ``gamma="scale"`` is
    ``gamma_ = 1 / (d * X.var())`` over all entries of ``X`` (1 when ``X.var() == 0``), as scikit-learn's SVC defines
    it.  The same ``random_state`` gives the same features; sparse input a CSR result.
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
        data source: one pass for its variance); ``sample_weight`` weights the rows in the variance of ``"scale"``."""
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
        """``[x, cos(W x + b)]`` per row (the cosines alone with ``include_original=False``), CSR for sparse ``X``."""
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

    ``base``, any scikit-learn transformer, is cloned, not modified; ``transform`` gives float64, C-contiguous or CSR.
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
    """``Z``, ``feature_map.transform``'s dense or sparse output, if real and finite; else ``ValueError`` saying why."""
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
