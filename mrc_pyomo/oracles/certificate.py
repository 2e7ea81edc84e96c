"""The certified interval ``[lower, upper]`` around ``R*`` (docs/theory.rst, "The certified interval").

Neither end comes from the solver: both are computed in NumPy from the oracles' arrays, so a solver's tolerances cannot
make them wrong.  **Upper end:** ``R(mu) >= R*`` for every ``mu``; :func:`mrc_pyomo.oracles.primal.worst_case_risk`
evaluates ``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` (eq. 3) exactly.

**Lower end (Lagrangian duality).**  Let ``alpha >= 0`` be weights on rows ``r = (i, C)`` of the LP (eq. 4) with
``sum(alpha) = 1``, ``g = F^T alpha`` and ``b_r = 1/|C| - 1``.  Every row satisfies ``F_r mu - b_r <= varphi(mu) + 1``,
hence ``varphi(mu) + 1 >= g.mu - b.alpha`` and, for every ``mu``::

    R(mu) >= -b.alpha + sum_j [(g_j - tau_j) mu_j + lambda_j |mu_j|]
          >= -b.alpha + sum_j (lambda_j - |g_j - tau_j|) |mu_j|.

On the set ``{mu : lambda.|mu| <= rho}`` the last sum is at least ``-rho max(0, max_j r_j - 1)`` with
``r_j = |g_j - tau_j| / lambda_j``, so::

    R* >= -b.alpha - rho max(0, max_j r_j - 1)                                            (*)

for any ``rho >= lambda.|mu*|``.  Since ``-b_r >= 0``, a finite ``R*`` (a feasible dual, eq. 6) is at least 0.
Taking ``C = {y_i}`` for every sample and averaging gives ``varphi(mu) >= tau.mu - 1`` where ``tau`` is that average
(as :func:`~mrc_pyomo.problem.prepare` makes it), i.e. ``R(mu) >= lambda.|mu|`` for every ``mu``: ``rho = R(mu)`` of any
``mu`` is valid (``lambda.|mu*| <= R* <= R(mu)``); for a ``tau`` given otherwise,
:meth:`~mrc_pyomo.problem.MRCProblem.radius` widens it by the distance of ``tau`` to that average.  When ``alpha``
is an optimal dual of the full LP (eq. 6), ``r_j <= 1`` and (*) equals ``R*``: the bound is tight at the optimum.
``alpha`` is the master's duals on training or centroid rows (averages of training rows, never above ``varphi``),
clipped at 0 and normalised; the row ``objective >= 0`` of the many-class initialisation only serves the LP and is
left out.

**Features with** ``lambda_j = 0`` carry no penalty, so (*) needs ``g_j = tau_j`` (``r_j`` is then 0; otherwise the
bound is ``-inf`` and only ``R* >= 0`` remains).  With ``lambda0 > 0`` such a feature ``(y, j)`` has an all-zero column
``[y_i = y] Psi_ij``, so ``tau_j = 0``; with ``lambda0 = 0`` every feature is of this kind.  An LP solver meets the dual
constraints only to its tolerances, which for ``lambda_j > 0`` costs ``rho`` times the residual over ``lambda_j`` in (*)
and for ``lambda_j = 0`` makes (*) ``-inf``.  So ``alpha`` is first moved on its support (:func:`repair_alpha`, when
:func:`lower_bound` says) by the least-squares step onto ``g_j = tau_j + clip(g_j - tau_j, -lambda_j, lambda_j)`` for
the features with ``lambda_j = 0`` and those with ``r_j > 1``, keeping ``sum(alpha) = 1``; any ``alpha >= 0`` gives a
valid bound, and the better of the two is kept.  If that fails for an unmatched ``lambda_j = 0`` feature, the rows with
positive weight and a nonzero entry in such a feature (``tau_j = 0``) are dropped from ``alpha``, which makes
``g_j = 0`` exactly (a far weaker bound).  ``g_j = tau_j`` for ``lambda_j = 0`` is accepted within
:data:`mrc_pyomo.oracles.dual.ROUND_OFF` relative: at ``lambda0 = 0`` the lower end holds to that round-off only.

**Safe in floating point.**  Each end is rigorous for the numbers it is computed from: ``R(mu)`` is raised and (*)
lowered by bounds on the rounding of their sums (:func:`~mrc_pyomo.oracles.primal.risk_upper_bound`,
:func:`rounding_errors`), each rounded outward (:mod:`~mrc_pyomo.oracles.rounding`, after Neumaier and Shcherbina,
2004).  The upper end is computed in the user's units (:meth:`~mrc_pyomo.problem.MRCProblem.rule`), the lower end in the
LP's rescaled columns: the margins cover the rounding of that change of units (``tests/oracles/test_certificate.py``).
"""

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lsqr

from .dual import dual_correlations, relative_feature_violations
from .rounding import gamma, round_down
from .rows import constraint_block, right_hand_sides

#: the smallest certified gap a method aims at: ``eps_1 = 0`` means "to this round-off level"
GAP_FLOOR = 1e-9
#: the relative margin on ``rho`` in a bound safe in floating point (:func:`lagrangian_bound`)
RHO_MARGIN = 1e-6
# steps of repair_alpha at most: each drops the rows the last made negative, or adds the features it pushed over
REPAIR_ROUNDS = 5
#: the relative margin inside ``|g_j - tau_j| <= lambda_j`` that :func:`repair_alpha` aims at, room for the rounding of
#: ``g`` and the least-squares step: its weights pay no penalty, so they need no ``rho`` (an infinite one included)
REPAIR_MARGIN = 1e-9


def gap_tolerance(eps_1):
    """The certified gap at which a fit has converged: ``max(eps_1, GAP_FLOOR)``."""
    return max(eps_1, GAP_FLOOR)


def lagrangian_bound(g, minus_b_alpha, tau, lam, rho, errors=None):
    """The bound (*) for weights in the simplex with ``g = F^T alpha`` and ``-b.alpha``; ``-inf`` if unusable.

    ``errors``: None, or ``(g_error, b_error)``, bounds on the rounding of ``g`` (per feature) and of ``-b.alpha``
    (:func:`rounding_errors`); the bound is then lowered by them, with ``rho`` raised by :data:`RHO_MARGIN`
    (``rho = R(mu)`` as computed, whose rounding only touches (*) through the excess), and rounded down: (*) in exact
    arithmetic for the weights as given."""
    g_error, b_error = (0.0, 0.0) if errors is None else errors
    excess = max(0.0, float(relative_feature_violations(g, tau, lam, g_error).max()) - 1.0)
    if excess == 0.0:
        rho = 0.0   # no penalty to pay: (*) is -b.alpha whatever rho (even an infinite one, MRCProblem.radius)
    elif np.isinf(excess) or np.isinf(rho):
        return -np.inf
    if errors is None:
        return float(minus_b_alpha) - rho * excess
    return round_down(float(minus_b_alpha), b_error + rho * (1.0 + RHO_MARGIN) * excess)


def rounding_errors(points, samples, subsets, alpha):
    """``(g_error, b_error)``: bounds on the rounding of ``g = F^T alpha`` and ``-b.alpha`` for weights ``alpha >= 0``
    summing to 1 (up to rounding) on rows ``(samples, subsets)`` (:mod:`~mrc_pyomo.oracles.rounding`), and for any such
    weights on a part of the support of ``alpha`` (fewer samples, smaller peaks).  ``g_yj = sum_i W[i, y] Psi_ij``
    (:func:`~mrc_pyomo.oracles.dual.dual_correlations`) is a sum over the distinct samples ``I`` of the support, whose
    merged weights ``W[i, y]`` each add at most ``K`` of the row weights ``alpha_r / |C_r|``, with
    ``sum_i W[i, y] <= sum(alpha) <= 1 + gamma(n)``: so its rounding is at most
    ``gamma(|I| + K + 2) (1 + gamma(n)) max_{i in I} |Psi_ij|``.  ``-b.alpha`` is a sum of ``n`` products of numbers in
    ``[0, 1)`` with weights summing to about 1: at most ``gamma(n + 2)``."""
    positive = alpha > 0
    ids = np.unique(samples[positive])
    n_classes = subsets.shape[1]
    if not len(ids):
        return 0.0, 0.0
    rows = points(ids)
    peaks = np.asarray(abs(rows).max(axis=0).todense() if sp.issparse(rows) else np.abs(rows).max(axis=0)).ravel()
    size = gamma(len(ids) + n_classes + 2) * (1.0 + gamma(len(alpha)))
    return size * peaks[None, :], gamma(len(alpha) + 2)


def rows_touching(points, samples, subsets, features):
    """Mask of the rows ``(i, C)`` with a nonzero entry ``[y in C] Psi_ij`` in a feature ``(y, j)`` of the mask."""
    columns = np.flatnonzero(features.any(axis=0))
    nonzero = points(samples, columns) != 0
    nonzero = sp.csr_matrix(nonzero, dtype=float) if sp.issparse(nonzero) else nonzero.astype(float)
    hits = np.asarray(nonzero @ features[:, columns].T.astype(float))   # (rows, K): touched classes
    return ((hits > 0) & subsets).any(axis=1)


def repair_alpha(points, samples, subsets, alpha, g, tau, lam):
    """``alpha`` (``>= 0``, summing to 1, with ``g = F^T alpha``) moved on its support by the least-squares step to
    ``F_Z^T alpha' = tau_Z + clip(g_Z - tau_Z, -l_Z, l_Z)`` and ``sum(alpha') = 1``, ``Z`` the features with
    ``lambda_j = 0`` or ``|g_j - tau_j| > l_j``, ``l = (1 -`` :data:`REPAIR_MARGIN` ``) lambda``.  Rows it would make
    negative leave the support, features it pushes over ``r_j = 1`` join ``Z``, and it is taken again
    (:data:`REPAIR_ROUNDS` steps at most); ``None`` if none gave weights ``>= 0``."""
    support = np.flatnonzero(alpha > 0)
    D = tau.shape[1]
    inner = lam * (1.0 - REPAIR_MARGIN)
    target = (tau + np.clip(g - tau, -inner, inner)).ravel()
    chosen = (lam.ravel() <= 0) | (relative_feature_violations(g, tau, inner).ravel() > 1.0)
    best = None
    for _ in range(REPAIR_ROUNDS):
        features = np.flatnonzero(chosen)
        if not len(support) or not len(features):
            break
        block = constraint_block(points, samples[support], subsets[support], features, D).tocsc()
        touched = np.flatnonzero(np.diff(block.indptr))
        A = sp.vstack([block[:, touched].T, sp.csr_matrix(np.ones((1, len(support))))], format="csr")
        residual = np.concatenate([target[features[touched]], [1.0]]) - A @ alpha[support]
        step = lsqr(A, residual, atol=0.0, btol=0.0, conlim=1e14, iter_lim=10 * A.shape[0] + 100)[0]
        weights = alpha[support] + step
        if np.any(weights < 0):
            support = support[weights > 0]
            continue
        best = np.zeros_like(alpha)
        best[support] = weights
        pushed = relative_feature_violations(dual_correlations(points, samples, subsets, best), tau, inner).ravel() > 1
        if not (pushed & ~chosen).any():
            break
        chosen |= pushed
    return best


def lower_bound(points, samples, subsets, alpha, tau, lam, rho, g=None, target=None):
    """``max(0, (*))`` for the rows ``(samples[r], subsets[r])`` weighted by ``alpha`` (clipped, normalised), lowered by
    the bound on its rounding (:func:`rounding_errors`) and rounded down.  ``points(ids, columns)`` returns rows of
    ``Psi`` (:class:`~mrc_pyomo.master.RestrictedMaster`); ``g``, if given, is ``F_I^T alpha`` for the unnormalised
    ``alpha``.  ``alpha`` is repaired (:func:`repair_alpha`) when a ``lambda_j = 0`` feature is unmatched, or when
    ``target`` (the bound needed) is given and only dual residuals keep (*) below it (``-b.alpha >= target``)."""
    alpha = np.maximum(np.asarray(alpha, dtype=float), 0.0)
    total = alpha.sum()
    if not total > 0:
        return 0.0
    if g is None:
        g = dual_correlations(points, samples, subsets, alpha)
    alpha, g = alpha / total, g / total
    minus_b = -right_hand_sides(subsets)
    # the weights below (repaired, or with rows dropped) live on the support of alpha: its bounds hold for them
    errors = rounding_errors(points, samples, subsets, alpha)

    def bound_of(weights, g):
        return lagrangian_bound(g, float(weights @ minus_b), tau, lam, rho, errors)

    bound = bound_of(alpha, g)
    if bound == -np.inf or (target is not None and bound < target <= float(alpha @ minus_b)):
        moved = repair_alpha(points, samples, subsets, alpha, g, tau, lam)
        if moved is not None:
            moved = moved / moved.sum()
            bound = max(bound, bound_of(moved, dual_correlations(points, samples, subsets, moved)))
    unmatched = np.isinf(relative_feature_violations(g, tau, lam))
    if bound == -np.inf and unmatched.any() and np.all(tau[unmatched] == 0):
        positive = np.flatnonzero(alpha > 0)
        drop = positive[rows_touching(points, samples[positive], subsets[positive], unmatched)]
        alpha = alpha.copy()
        alpha[drop] = 0.0
        total = alpha.sum()
        if not total > 0:
            return 0.0
        alpha /= total
        bound = bound_of(alpha, dual_correlations(points, samples, subsets, alpha))
    return max(0.0, bound)
