"""The estimator's boundary for data in memory or on Dask: validation that reads a Dask array only in passes, and
predictions that stay lazy on a Dask array (Dask-ML's convention: a Dask array out for a Dask array in)."""

import numpy as np
import pandas as pd
from sklearn import get_config
from sklearn.utils._array_api import get_namespace_and_device
from sklearn.utils.validation import _check_sample_weight, column_or_1d, validate_data

from .convert import is_dask_array
from .namespace import is_standard_array, to_numpy
from .source import DataSource


def validate_training_data(estimator, X, y):
    """``(X, y)`` validated by :func:`sklearn.utils.validation.validate_data` for data in memory; a Dask ``X`` is
    checked lazily (2-d, numbers, one pass for finite values) and cast to float64, a
    :class:`~mrc_pyomo.data.DataSource` taken as it is, and ``y`` computed: ``n`` labels fit in memory."""
    X, y = on_host(X), on_host(y)
    if not (is_dask_array(X) or isinstance(X, DataSource)):
        check_numeric_columns(X)
        return validate_data(estimator, X, y, accept_sparse="csr", dtype=np.float64)
    if is_dask_array(X):
        _check_dask(X, "X")
        X = X.astype(np.float64)
    y = column_or_1d(np.asarray(y.compute() if is_dask_array(y) else y), warn=True)
    if len(y) != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} samples but y has {len(y)} labels")
    estimator.n_features_in_ = int(X.shape[1])
    return X, y


def validate_sample_weight(X, y, sample_weight):
    """``(X, y, weights)`` for the validated ``(X, y)`` and ``sample_weight`` (checked by scikit-learn): the samples
    of weight 0 left out (they enter neither ``tau``, ``lambda`` nor the maximum in ``R``), ``weights`` those kept
    divided by the largest (only ratios matter; huge ones would overflow the sums), or None when all are equal (the
    estimates of no weights, bit for bit).  Nothing given is modified."""
    if sample_weight is None:
        return X, y, None
    sample_weight = on_host(sample_weight)
    if is_dask_array(sample_weight):
        sample_weight = sample_weight.compute()
    weights = _check_sample_weight(sample_weight, np.empty((X.shape[0], 0)), dtype=np.float64,
                                   ensure_non_negative=True)
    if not weights.any():   # scikit-learn refuses them from 1.9 on; before, the division below found no sample
        raise ValueError("Sample weights must contain at least one non-zero number.")
    weights = weights / weights.max()   # only their ratios matter: no overflow in the weighted sums (1e306)
    keep = weights > 0
    if not keep.all():
        if isinstance(X, DataSource):
            raise ValueError("sample_weight has zeros, which leave samples out, and X is a DataSource, which "
                             "cannot leave rows out: drop those samples from the source instead")
        X, y, weights = X[keep], y[keep], weights[keep]
    return X, y, (None if np.all(weights == weights[0]) else weights)


def validate_prediction_data(estimator, X):
    """``X`` for ``predict`` and its kin: validated like the training data (same number of features)."""
    X = on_host(X)
    if not (is_dask_array(X) or isinstance(X, DataSource)):
        check_numeric_columns(X)
        return validate_data(estimator, X, accept_sparse="csr", dtype=np.float64, reset=False)
    if is_dask_array(X):
        _check_dask(X, "X", finite=False)
        X = X.astype(np.float64)
    if X.shape[1] != estimator.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
                         f"{estimator.n_features_in_} features as input")
    return X


def on_host(data):
    """``data`` as the estimator takes it: an array of another array API library (CuPy, PyTorch, array-api-strict)
    as a NumPy array on the host (:func:`~mrc_pyomo.data.namespace.to_numpy`), whatever ``array_api_dispatch``;
    anything else as it is (a fit through the estimator runs on the host: docs/architecture.rst, "a GPU array")."""
    return to_numpy(data) if is_standard_array(data) else data


def in_namespace_of(X, result):
    """``result`` (a NumPy array computed for ``X``) in ``X``'s namespace and on its device where ``X`` is another
    array API library's and ``array_api_dispatch`` is on; otherwise, or for labels that are not numbers, as it is."""
    if not (is_standard_array(X) and get_config().get("array_api_dispatch", False)):
        return result
    if np.asarray(result).dtype.kind not in "biuf":
        return result
    xp, _, device = get_namespace_and_device(X)
    return xp.asarray(result, device=device)


def check_numeric_columns(X):
    """Raise a ``ValueError`` naming the columns of a data frame ``X`` (anything with ``dtypes``) that do not hold
    numbers (text, categories, dates): a categorical column is to be encoded first (``OneHotEncoder``)."""
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(dtypes, "items"):
        return
    bad = [(name, dtype) for name, dtype in dtypes.items()
           if not (pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype))
           or pd.api.types.is_complex_dtype(dtype)]
    if bad:
        shown = ", ".join(f"{name!r} ({dtype})" for name, dtype in bad[:5]) + (", ..." if len(bad) > 5 else "")
        raise ValueError(f"X has {len(bad)} column(s) that do not hold numbers: {shown}. The features must be "
                         f"numbers: encode a categorical column first, e.g. with "
                         f"sklearn.preprocessing.OneHotEncoder in a ColumnTransformer")


def _check_dask(X, name, finite=True):
    from .dask_source import check_chunks, check_known_rows
    check_chunks(X)
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-d array of samples by features for {name}, got a {X.ndim}-d Dask array")
    if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool) or np.iscomplexobj(np.empty(0, X.dtype)):
        raise ValueError(f"{name} must hold real numbers, got the type {X.dtype}")
    check_known_rows(X, f"the Dask array {name}")
    if finite and X.shape[0] == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required: the Dask "
                         f"array {name} has no rows")
    if finite and not bool(np.isfinite(X).all().compute()):
        raise ValueError(f"Input {name} contains NaN or infinity.")


def map_rows(X, fn, n_columns=None):
    """``fn(X)`` for ``X`` in memory; for a Dask ``X``, a lazy Dask array of ``fn`` by chunks (``n_columns``
    columns, or one value per row if None); for another data source, by blocks, concatenated in memory."""
    if isinstance(X, DataSource):
        return X.map_reduce(lambda block, start: fn(block), np.concatenate)
    if not is_dask_array(X):
        return fn(X)
    if len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    if n_columns is None:
        return X.map_blocks(fn, drop_axis=1, dtype=fn(X[:1].compute()).dtype)
    return X.map_blocks(fn, chunks=(X.chunks[0], (n_columns,)), dtype=np.float64)
