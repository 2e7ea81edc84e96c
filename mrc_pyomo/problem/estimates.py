"""Mean and confidence vectors of the uncertainty set (paper, eq. 2).

``tau = (1/n) sum_i Phi(x_i, y_i)`` and ``lambda = lambda0 * s`` with ``s`` the component-wise population
standard deviation (ddof = 0) of ``Phi(x_i, y_i)``.  Since ``Phi(x, y) = e_y (kron) Psi(x)``, the entry
``(y, j)`` of ``Phi(x_i, y_i)`` is ``[y_i = y] Psi_ij``; both are computed per class from ``Psi`` without
forming ``Phi``, and stored with shape ``(K, D)``.
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


def class_sums_of(data, y_idx, n_classes, square=False):
    """:func:`class_sums` of ``Psi`` (of ``Psi * Psi`` if ``square``) in one pass over ``data`` (an array or a
    :class:`~mrc_pyomo.data.DataSource`)."""
    def sums(block, start, y):
        if square:
            block = block.multiply(block).tocsr() if sp.issparse(block) else block * block
        return class_sums(block, y, n_classes)
    return as_source(data).map_reduce(sums, sum, np.asarray(y_idx))


def mean_and_confidence(Psi, y_idx, n_classes, lambda0):
    """``(tau, lambda)``, each of shape ``(K, D)``, in two passes over ``Psi`` (an array or a
    :class:`~mrc_pyomo.data.DataSource`).

    The variance of entry ``(y, j)`` is ``(1/n) [sum_{y_i = y} (Psi_ij - tau_yj)^2 + (n - n_y) tau_yj^2]``:
    the centred form, exact for dense data; for sparse data the centred sum is expanded so that sparsity is
    kept.
    """
    data = as_source(Psi)
    n = data.n_samples
    sums = class_sums_of(data, y_idx, n_classes)
    tau = sums / n
    counts = np.bincount(y_idx, minlength=n_classes)
    if data.sparse:
        squares = class_sums_of(data, y_idx, n_classes, square=True)
        centred = squares - 2.0 * tau * sums + counts[:, None] * tau**2
    else:
        def centred_squares(block, start, y):
            out = np.empty_like(tau)
            for k in range(n_classes):
                out[k] = ((block[y == k] - tau[k]) ** 2).sum(axis=0)
            return out
        centred = data.map_reduce(centred_squares, sum, np.asarray(y_idx))
    variance = (np.maximum(centred, 0.0) + (n - counts)[:, None] * tau**2) / n
    return tau, lambda0 * np.sqrt(variance)
