"""Initial rows and features of MRC-CCG (paper, Section "Initialization").

The centroid of class ``k``, ``xhat_k = tau^k / p_k`` (eq. 13, ``p_k`` the proportion of class ``k``), is the mean of
``Psi(x_i)`` over class ``k``.  Its row ``(xhat_k, C)`` is the average of the rows ``(x_i, C)`` of those samples, hence
implied by the full LP: adding it never changes the optimum.  The distribution with weights ``p`` on the pairs
``(xhat_k, k)`` has expectation ``tau``, so the LP over the ``K (2^K - 1)`` rows of the centroids, the initial ``I`` for
few classes, is bounded.  For many classes the initial ``I`` is each centroid's own class and the set of all classes,
plus the row ``objective >= 0``, which holds at the optimum (``R* >= 0``) and keeps the master bounded.  In the large
``n`` and ``m`` regime the initial ``J`` holds the intercept features, if any (:mod:`mrc_pyomo.methods.ccg` grows it).
"""

import numpy as np

from ..oracles.rows import all_subsets
from .estimates import class_sums_of

# up to this many classes every non-empty label subset of every centroid is an initial row (K = 6: 378 rows)
MAX_CLASSES_ALL_SUBSETS = 6


def class_centroids(Psi, y_idx, n_classes, weights=None):
    """``xhat_k``: the mean of ``Psi(x_i)`` over the samples of class ``k``, weighted as ``tau`` is (so that
    ``tau^k = p_k xhat_k``), ``(K, D)``; one pass over ``Psi`` (an array or a :class:`~mrc_pyomo.data.DataSource`)."""
    if y_idx is None:
        raise ValueError("the class centroids need the labels: this problem was made without them "
                         "(MRCProblem.from_arrays with y=None)")
    counts = np.bincount(y_idx, weights, minlength=n_classes)
    return class_sums_of(Psi, y_idx, n_classes, weights=weights) / counts[:, None]


def initial_rows(n_samples, n_classes):
    """``(samples, subsets, objective_floor)`` of the initial master; centroid ``k`` has sample id ``n + k``."""
    centroids = n_samples + np.arange(n_classes)
    if n_classes <= MAX_CLASSES_ALL_SUBSETS:
        subsets = all_subsets(n_classes)
        return np.repeat(centroids, len(subsets)), np.tile(subsets, (n_classes, 1)), False
    own = np.eye(n_classes, dtype=bool)
    everything = np.ones((n_classes, n_classes), dtype=bool)
    return np.concatenate([centroids, centroids]), np.concatenate([own, everything]), True


def initial_features(n_classes, n_features, regime, fit_intercept):
    """All ``K D`` features in the large-``n`` regime; the intercept features (or none) in the other."""
    if regime == "n":
        return np.arange(n_classes * n_features)
    if fit_intercept:
        return np.arange(n_classes) * n_features
    return np.zeros(0, dtype=np.int64)
