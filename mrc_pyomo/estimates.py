"""Mean and confidence vectors of the uncertainty set (paper, eq. 2).

``tau = (1/n) sum_i Phi(x_i, y_i)`` and ``lambda = lambda0 * s`` with ``s`` the component-wise population
standard deviation (ddof = 0) of ``Phi(x_i, y_i)``.  Since ``Phi(x, y) = e_y (kron) Psi(x)``, the entry
``(y, j)`` of ``Phi(x_i, y_i)`` is ``[y_i = y] Psi_ij``; both are computed per class from ``Psi`` without
forming ``Phi``, and stored with shape ``(K, D)``.
"""

import numpy as np
import scipy.sparse as sp


def class_sums(Psi, y_idx, n_classes):
    """``S[y] = sum_{i: y_i = y} Psi_i`` as a dense ``(K, D)`` array (dense or CSR ``Psi``)."""
    indicator = sp.csr_matrix(
        (np.ones(len(y_idx)), (y_idx, np.arange(len(y_idx)))), shape=(n_classes, len(y_idx))
    )
    return np.asarray((indicator @ Psi).todense() if sp.issparse(Psi) else indicator @ Psi)


def mean_and_confidence(Psi, y_idx, n_classes, lambda0):
    """``(tau, lambda)``, each of shape ``(K, D)``.

    The variance of entry ``(y, j)`` is ``(1/n) [sum_{y_i = y} (Psi_ij - tau_yj)^2 + (n - n_y) tau_yj^2]``:
    the centred form, exact for dense data; for sparse data the centred sum is expanded so that sparsity is
    kept.
    """
    n = Psi.shape[0]
    tau = class_sums(Psi, y_idx, n_classes) / n
    counts = np.bincount(y_idx, minlength=n_classes)
    if sp.issparse(Psi):
        squares = class_sums(Psi.multiply(Psi).tocsr(), y_idx, n_classes)
        first = class_sums(Psi, y_idx, n_classes)
        centred = squares - 2.0 * tau * first + counts[:, None] * tau**2
    else:
        centred = np.empty_like(tau)
        for y in range(n_classes):
            rows = Psi[y_idx == y]
            centred[y] = ((rows - tau[y]) ** 2).sum(axis=0)
    variance = (np.maximum(centred, 0.0) + (n - counts)[:, None] * tau**2) / n
    return tau, lambda0 * np.sqrt(variance)
