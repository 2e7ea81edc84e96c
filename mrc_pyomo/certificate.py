"""The certified interval ``[lower, upper]`` around the minimax risk ``R*`` (SPEC, "Certificates").

Neither end is taken from the LP solver: both are evaluated in NumPy from the oracles' arrays, so that a
solver's tolerances cannot turn into a silently wrong answer.

**Upper end.**  ``R(mu) >= R*`` for every ``mu``; :func:`mrc_pyomo.primal_oracle.worst_case_risk` evaluates
``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` (eq. 3) exactly, one pass over the samples.

**Lower end (Lagrangian duality).**  Let ``alpha >= 0`` be weights on rows ``r = (i, C)`` of the LP (eq. 4)
with ``sum(alpha) = 1``, ``g = F^T alpha`` and ``b_r = 1/|C| - 1``.  Every row satisfies
``F_r mu - b_r <= varphi(mu) + 1``, hence ``varphi(mu) + 1 >= g.mu - b.alpha`` and, for every ``mu``::

    R(mu) >= -b.alpha + sum_j [(g_j - tau_j) mu_j + lambda_j |mu_j|]
          >= -b.alpha + sum_j (lambda_j - |g_j - tau_j|) |mu_j|.

On the set ``{mu : lambda.|mu| <= rho}`` the last sum is at least ``-rho max(0, max_j r_j - 1)`` with
``r_j = |g_j - tau_j| / lambda_j``, so::

    R* >= -b.alpha - rho max(0, max_j r_j - 1)                                            (*)

for any ``rho >= lambda.|mu*|``.  Taking ``C = {y_i}`` for every sample and averaging gives
``varphi(mu) >= tau.mu - 1``, i.e. ``R(mu) >= lambda.|mu|`` for every ``mu``: so ``R* >= 0`` and
``rho = R(mu)`` of any ``mu`` is valid (``lambda.|mu*| <= R* <= R(mu)``).  When ``alpha`` is an optimal dual
of the full LP (eq. 6), ``r_j <= 1`` and (*) equals ``R*``: the bound is tight at the optimum.  The rows may be
training rows or the centroid rows of the initialisation (averages of training rows, never above
``varphi``).  The master's duals are clipped at 0 and normalised; the extra row of the master
(the row ``objective >= 0`` of the many-class initialisation) only serves the LP and is left out.

**Features with** ``lambda_j = 0`` carry no penalty, so (*) needs ``g_j = tau_j`` exactly (``r_j`` is then
taken as 0; otherwise the bound is ``-inf`` and only ``R* >= 0`` remains).  With ``lambda0 > 0`` such a
feature ``(y, j)`` is one whose column ``[y_i = y] Psi_ij`` is identically zero (an all-zero column, a word
never seen in class ``y``), so ``tau_j = 0``.  An LP solver meets these equality constraints only to its
tolerance (about 1e-10), far above round-off; so ``alpha`` is first moved, on its support, by the least-squares
step that makes ``g_j = tau_j`` for these features and keeps ``sum(alpha) = 1`` (:func:`project_free_features`;
any ``alpha >= 0`` gives a valid bound, and this one stays next to the solver's).  If that step would make a
weight negative, the rows with positive weight that have a nonzero entry in such a feature are dropped
from ``alpha`` instead, which makes ``g_j = 0`` exactly (a weaker bound).  With ``lambda0 = 0`` every feature
is of this kind and ``g = tau`` can only hold to round-off: ``g_j = tau_j`` is accepted within
:data:`mrc_pyomo.dual_oracle.ROUND_OFF` relative, so such a certificate holds to round-off, not exactly.
"""

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lsqr

from .dual_oracle import dual_correlations, relative_feature_violations
from .formulation import constraint_block


def lagrangian_bound(g, minus_b_alpha, tau, lam, rho):
    """The bound (*) for weights in the simplex with ``g = F^T alpha`` and ``-b.alpha``; ``-inf`` if unusable."""
    excess = max(0.0, float(relative_feature_violations(g, tau, lam).max()) - 1.0)
    return -np.inf if np.isinf(excess) else float(minus_b_alpha) - rho * excess


def rows_touching(points, samples, subsets, features):
    """Mask of the rows ``(i, C)`` with a nonzero entry ``[y in C] Psi_ij`` in a feature ``(y, j)`` of the mask."""
    columns = np.flatnonzero(features.any(axis=0))
    nonzero = points(samples, columns) != 0
    nonzero = sp.csr_matrix(nonzero, dtype=float) if sp.issparse(nonzero) else nonzero.astype(float)
    hits = np.asarray(nonzero @ features[:, columns].T.astype(float))   # (rows, K): touched classes
    return ((hits > 0) & subsets).any(axis=1)


def project_free_features(points, samples, subsets, alpha, tau, lam):
    """``alpha`` (summing to 1) moved on its support by the least-squares step to ``F_Z^T alpha = tau_Z`` and
    ``sum(alpha) = 1``, where ``Z`` are the features with ``lambda_j = 0`` that its rows touch; ``None`` if a
    weight would become negative (then the step is no valid weighting)."""
    support = np.flatnonzero(alpha > 0)
    free = np.flatnonzero(lam.ravel() <= 0)
    if not len(support) or not len(free):
        return None
    block = constraint_block(points, samples[support], subsets[support], free, tau.shape[1]).tocsc()
    touched = np.flatnonzero(np.diff(block.indptr))
    A = sp.vstack([block[:, touched].T, sp.csr_matrix(np.ones((1, len(support))))], format="csr")
    target = np.concatenate([tau.ravel()[free[touched]], [1.0]])
    step = lsqr(A, A @ alpha[support] - target, atol=0.0, btol=0.0, conlim=1e14, iter_lim=10 * A.shape[0] + 100)[0]
    moved = alpha.copy()
    moved[support] -= step
    return moved if np.all(moved[support] >= 0) else None


def lower_bound(points, samples, subsets, alpha, tau, lam, rho, g=None):
    """``max(0, (*))`` for the rows ``(samples[r], subsets[r])`` weighted by ``alpha`` (clipped, normalised).

    ``points(ids, columns)`` returns rows of ``Psi`` (see :class:`~mrc_pyomo.master.RestrictedMaster`);
    ``g``, if given, is ``F_I^T alpha`` for the unnormalised ``alpha`` (the dual oracle computes it anyway).
    """
    alpha = np.maximum(np.asarray(alpha, dtype=float), 0.0)
    total = alpha.sum()
    if not total > 0:
        return 0.0
    if g is None:
        g = dual_correlations(points, samples, subsets, alpha)
    alpha, g = alpha / total, g / total
    unmatched = np.isinf(relative_feature_violations(g, tau, lam))
    if unmatched.any():
        moved = project_free_features(points, samples, subsets, alpha, tau, lam)
        if moved is not None:
            g_moved = dual_correlations(points, samples, subsets, moved)
            if not np.isinf(relative_feature_violations(g_moved, tau, lam)).any():
                alpha, g, unmatched = moved, g_moved, np.zeros_like(unmatched)
    if unmatched.any() and np.all(tau[unmatched] == 0):
        positive = np.flatnonzero(alpha > 0)
        drop = positive[rows_touching(points, samples[positive], subsets[positive], unmatched)]
        alpha = alpha.copy()
        alpha[drop] = 0.0
        total = alpha.sum()
        if not total > 0:
            return 0.0
        alpha /= total
        g = dual_correlations(points, samples, subsets, alpha)
    minus_b_alpha = float(alpha @ (1.0 - 1.0 / subsets.sum(axis=1)))
    return max(0.0, lagrangian_bound(g, minus_b_alpha, tau, lam, rho))
