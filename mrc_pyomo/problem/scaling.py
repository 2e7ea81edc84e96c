"""Internal column scaling of ``Psi``: the fit works on ``Psi D``, ``D = diag(d)``, ``d > 0``.

The minimax risk is invariant under a positive rescaling of the columns of ``Psi``.  With ``Psi' = Psi D`` the estimates
(eq. 2) scale as ``tau' = tau D`` and ``lambda' = lambda D``, and ``mu' = D^{-1} mu`` gives the same scores
``Psi' mu'_y = Psi mu_y``; so ``tau'.mu' = tau.mu``, ``lambda'.|mu'| = lambda.|mu|``, ``varphi'(mu') = varphi(mu)`` and
``R'(mu') = R(mu)`` (eq. 3): the same LP up to the scale of ``mu1``, ``mu2``, ``mu* = D mu'*``.

The scale ``d_j = 1 / rms_j``, with ``rms_j = sqrt(mean_i Psi_ij^2)`` (1 for an all-zero column and the intercept),
makes every column of ``Psi'`` of unit mean square.  The masters' coefficients (``Psi' / |C|``), costs
(``tau' -+ lambda'``) and solutions become of order one whatever the user's units, and the certificate's loss from a
dual residual ``e_j``, ``rho max_j e_j / lambda'_j`` (:mod:`mrc_pyomo.oracles.certificate`), has
``lambda'_yj = lambda0 std_i([y_i = y] Psi'_ij)`` of order ``lambda0`` for every column that carries information.

Without regularisation (``lambda0 = 0``) ``R`` is invariant under *any* invertible linear map ``Psi' = Psi A``
(``tau' = tau A``, ``mu' = A^{-1} mu``), and nothing bounds ``mu``: a column far from zero (``x + 1e6``) is then nearly
collinear with the intercept and the masters ill-conditioned.  :func:`center_columns` subtracts from each column its
mean times the intercept column, ``A = [[1, -c^T], [0, I]]``, before the scale is chosen; the fit maps back with
:func:`uncenter` after undoing the scale.  With ``lambda > 0`` this is not R-invariant and not done.
"""

import numpy as np
import scipy.sparse as sp

from ..data import DataSource, array_namespace, as_source, to_numpy


def block_peaks(block, start):
    """``max_i |Psi_ij|`` of a block of samples, on the host (0 for a column without entries): a NumPy array, a sparse
    matrix or an array of another library of the array API standard (on its device)."""
    if not (sp.issparse(block) or isinstance(block, np.ndarray)):
        xp = array_namespace(block)
        return to_numpy(xp.max(xp.abs(block), axis=0)) if block.shape[0] else np.zeros(block.shape[1])
    if not sp.issparse(block):
        return np.abs(block).max(axis=0) if block.shape[0] else np.zeros(block.shape[1])
    block = sp.csc_matrix(block)
    peak = np.zeros(block.shape[1])
    nonempty = np.diff(block.indptr) > 0
    if block.nnz:
        peak[nonempty] = np.maximum.reduceat(np.abs(block.data), block.indptr[:-1][nonempty])
    return peak


def column_peaks(Psi):
    """``max_i |Psi_ij|`` per column of ``Psi`` (array or :class:`~mrc_pyomo.data.DataSource`): one pass, on host."""
    return as_source(Psi).map_reduce(block_peaks, lambda parts: np.max(parts, axis=0))


def _normalised_squares(unit):
    """The block function ``sum_i (Psi_ij / unit_j)^2``."""
    def squares(block, start):
        if sp.issparse(block):
            normalised = block @ sp.diags(1.0 / unit)
            return np.asarray(normalised.multiply(normalised).sum(axis=0)).ravel()
        return np.sum((block / unit) ** 2, axis=0)
    return squares


def column_scales(Psi):
    """``d_j = 1 / sqrt(mean_i Psi_ij^2)`` (1 for an all-zero column) without over- or underflow, in two passes over
    ``Psi`` (array or :class:`~mrc_pyomo.data.DataSource`): the columns' peaks, then their mean squares over them."""
    data = as_source(Psi)
    peak = column_peaks(data)
    unit = np.where(peak > 0, peak, 1.0)
    mean_square = data.map_reduce(_normalised_squares(unit), sum) / max(data.n_samples, 1)
    if not data.n_samples:
        mean_square = np.full(data.n_features, np.nan)
    rms = np.sqrt(mean_square) * unit
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        d = np.where(rms > 0, 1.0 / np.where(rms > 0, rms, 1.0), 1.0)
    if not np.all(np.isfinite(d)):
        columns = np.flatnonzero(~np.isfinite(d))[:5].tolist()
        raise ValueError(f"the feature map's columns {columns} are too small to rescale in floating point "
                         f"(root mean square {rms[columns[0]]:.3g}): rescale the data")
    return d


def scale_columns(Psi, d):
    """``Psi D`` as a new array (dense) or CSR matrix; ``Psi`` is not modified."""
    if sp.issparse(Psi):
        return sp.csr_matrix(Psi @ sp.diags(d))
    return np.ascontiguousarray(Psi * d)


def column_means(Psi):
    """``mean_i Psi_ij`` per column, one pass over ``Psi`` (an array or a :class:`~mrc_pyomo.data.DataSource`)."""
    data = as_source(Psi)
    return data.map_reduce(lambda block, start: np.asarray(block.sum(axis=0)).ravel(), sum) / data.n_samples


def center_block(block, c):
    """A block of ``Psi`` with the columns after the first minus ``c`` (a new array)."""
    centred = np.array(block, dtype=float)
    centred[:, 1:] -= c
    return centred


def center_columns(Psi):
    """``(Psi A, c)``: the columns after the first (the intercept, all ones) minus their means ``c``; ``Psi`` an array
    or a :class:`~mrc_pyomo.data.DataSource` (then the result is a source too)."""
    c = column_means(Psi)[1:]
    if isinstance(Psi, DataSource):
        return Psi.map_blocks(lambda block: center_block(block, c)), c
    return center_block(Psi, c), c


def uncenter(mu, tau, c):
    """Map ``mu' = A^{-1} mu`` and ``tau' = tau A`` (shape ``(K, D)``) of :func:`center_columns` back to ``mu`` and
    ``tau``: ``mu_y0 = mu'_y0 - c.mu'_y[1:]`` and ``tau_y[1:] = tau'_y[1:] + tau'_y0 c``."""
    mu, tau = mu.copy(), tau.copy()
    mu[:, 0] -= mu[:, 1:] @ c
    tau[:, 1:] += np.outer(tau[:, 0], c)
    return mu, tau
