"""Dual oracle FEAT: violation of the dual constraints of every feature (paper, Section 3.1).

The dual of the restricted master (eq. 8) constrains each feature ``(y, j)`` by
``tau_yj - lambda_yj <= (F_{I,(y,j)})^T alpha <= tau_yj + lambda_yj``.  Its violation is ``|g_yj - tau_yj| - lambda_yj``
with ``g = F_I^T alpha``, computed without forming ``F``: row ``(i, C)`` of ``F`` holds ``Psi(x_i) / |C|`` in the blocks
of ``y in C``, so ``g_y = sum_r W[r, y] Psi(x_{i_r}) = (Psi_I^T W)_y`` with ``W[r, y] = alpha_r [y in C_r] / |C_r|`` (a
sample's rows merged).  Cost ``O(nnz(Psi_I) K)``.  With the row ``objective >= 0`` of the many-class initialisation
(dual ``beta >= 0``), the column of ``mu_1`` gains ``(tau - lambda)`` and that of ``mu_2`` ``-(tau + lambda)``: the
constraints become ``(1 - beta)(tau - lambda) <= g <= (1 - beta)(tau + lambda)`` and the violation
``|g - (1 - beta) tau| - (1 - beta) lambda``.
"""

import numpy as np
import scipy.sparse as sp

# |g_j - tau_j| below this (relative to 1 + |tau_j|) counts as g_j = tau_j for a feature with lambda_j = 0
ROUND_OFF = 1e-12


def merged_row_weights(samples, subsets, alpha):
    """``(ids, W)``: the distinct samples of the rows with ``alpha > 0`` and their merged class weights."""
    keep = alpha > 0
    sub = subsets[keep]
    weights = sub * (alpha[keep] / sub.sum(axis=1))[:, None]
    ids, inverse = np.unique(samples[keep], return_inverse=True)
    merged = np.zeros((len(ids), subsets.shape[1]))
    np.add.at(merged, inverse, weights)
    return ids, merged


def dual_correlations(points, samples, subsets, alpha):
    """``g = F_I^T alpha``, ``(K, D)``; ``points(ids)`` returns the rows ``Psi(x)`` of the ids (dense or sparse)."""
    ids, merged = merged_row_weights(samples, subsets, alpha)
    rows = points(ids)
    g = rows.T @ merged
    return np.asarray(g.todense() if sp.issparse(g) else g).T


def feature_violations(g, tau, lam, beta=0.0):
    """``|g - (1 - beta) tau| - (1 - beta) lambda`` for every feature, shape ``(K, D)``."""
    scale = 1.0 - beta
    return np.abs(g - scale * tau) - scale * lam


def relative_feature_violations(g, tau, lam, error=0.0):
    """``|g_j - tau_j| / lambda_j`` for ``g = F^T alpha`` with ``sum(alpha) = 1``: the ratio the Lagrangian certificate
    pays for above 1 (:mod:`mrc_pyomo.oracles.certificate`).  ``error``, a bound on the rounding of ``g``, is added to
    ``|g_j - tau_j|`` (with that of the subtraction) for an upper bound.  Where ``lambda_j = 0`` the ratio is 0 if
    ``g_j = tau_j`` to :data:`ROUND_OFF` (relative to ``1 + |tau_j|``, a round-off test: no ``error``), else ``inf``."""
    residual = np.abs(g - tau)
    free = lam <= 0
    if np.any(error):   # the features with lambda_j = 0 keep their round-off test: the error bounds it already
        residual = np.where(free, residual, (residual + error) * (1.0 + 4 * np.finfo(np.float64).eps))
    return relative_residuals(residual, tau, lam)


def relative_residuals(residual, tau, lam):
    """``residual_j / lambda_j`` for residuals ``|g_j - tau_j|`` (or bounds on them) per feature; where ``lambda_j
    = 0``, 0 if the residual is within :data:`ROUND_OFF` (relative to ``1 + |tau_j|``), else ``inf``."""
    free = lam <= 0
    ratio = residual / np.where(free, 1.0, lam)
    ratio[free] = np.where(residual[free] > ROUND_OFF * (1.0 + np.abs(tau[free])), np.inf, 0.0)
    return ratio
