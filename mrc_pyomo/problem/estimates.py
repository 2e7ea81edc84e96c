"""Mean and confidence vectors of the uncertainty set (paper, eq. 2).

``tau = (1/n) sum_i Phi(x_i, y_i)`` and ``lambda = lambda0 * s`` with ``s`` the component-wise population standard
deviation (ddof = 0) of ``Phi(x_i, y_i)``.  With sample weights ``w_i > 0`` both are weighted,
``tau = sum_i w_i Phi(x_i, y_i) / sum_i w_i`` and ``s^2 = sum_i w_i (Phi(x_i, y_i) - tau)^2 / sum_i w_i``, so an integer
weight is that many copies of the sample.  As ``Phi(x, y) = e_y (kron) Psi(x)`` has entry ``(y, j)``
``[y_i = y] Psi_ij``, both are computed per class from ``Psi``, without forming ``Phi``, with shape ``(K, D)``.
"""

import numpy as np
import scipy.sparse as sp

from ..data import as_source


def class_sums(Psi, y_idx, n_classes):
    """``S[y] = sum_{i: y_i = y} Psi_i`` as a dense ``(K, D)`` array (dense or CSR ``Psi``)."""
    indicator = sp.csr_matrix(
        (np.ones(len(y_idx)), (y_idx, np.arange(len(y_idx)))), shape=(n_classes, len(y_idx))
    )
    return np.asarray((indicator @ Psi).todense() if sp.issparse(Psi) else indicator @ Psi)


def class_sums_of(data, y_idx, n_classes, square=False, weights=None):
    """:func:`class_sums` of ``Psi`` (of ``Psi * Psi`` if ``square``; each sample's row times its weight, if ``weights``
    are given) in one pass over ``data`` (an array or a :class:`~mrc_pyomo.data.DataSource`)."""
    def sums(block, start, y, *w):
        if square:
            block = block.multiply(block).tocsr() if sp.issparse(block) else block * block
        if w:
            block = block.multiply(w[0][:, None]).tocsr() if sp.issparse(block) else block * w[0][:, None]
        return class_sums(block, y, n_classes)
    extra = () if weights is None else (np.asarray(weights, dtype=float),)
    return as_source(data).map_reduce(sums, sum, np.asarray(y_idx), *extra)


def mean_and_confidence(Psi, y_idx, n_classes, lambda0, weights=None):
    """``(tau, lambda)``, each ``(K, D)``, in two passes over ``Psi`` (array or :class:`~mrc_pyomo.data.DataSource`);
    ``weights``: positive sample weights (None: all 1).  With ``W = sum_i w_i`` and ``W_y`` the weight of class ``y``,
    the variance of entry ``(y, j)`` is ``(1/W) [sum_{y_i = y} w_i (Psi_ij - tau_yj)^2 + (W - W_y) tau_yj^2]``: the
    centred form, exact for dense data; for sparse data the centred sum is expanded so that sparsity is kept."""
    data = as_source(Psi)
    if weights is None:
        n, counts, extra = data.n_samples, np.bincount(y_idx, minlength=n_classes), ()
    else:
        weights = np.asarray(weights, dtype=float)
        n, counts, extra = weights.sum(), np.bincount(y_idx, weights, minlength=n_classes), (weights,)
    sums = class_sums_of(data, y_idx, n_classes, weights=weights)
    tau = sums / n
    if data.sparse:
        squares = class_sums_of(data, y_idx, n_classes, square=True, weights=weights)
        centred = squares - 2.0 * tau * sums + counts[:, None] * tau**2
    else:
        def centred_squares(block, start, y, *w):
            out = np.empty_like(tau)
            for k in range(n_classes):
                deviations = (block[y == k] - tau[k]) ** 2
                out[k] = (w[0][y == k] @ deviations) if w else deviations.sum(axis=0)
            return out
        centred = data.map_reduce(centred_squares, sum, np.asarray(y_idx), *extra)
    variance = (np.maximum(centred, 0.0) + (n - counts)[:, None] * tau**2) / n
    return tau, lambda0 * np.sqrt(variance)
