"""The certified lower bound of a dual iterate ``W`` of MRC-PDHG, and its rescue.

**The bound.**  A ``W`` in the simplex is the image of the distribution over rows ``(i, C_k)`` of its nested
decomposition (:func:`~mrc_pyomo.methods.pdhg.saddle.nested_rows`), whose ``g = F^T alpha`` is ``Psi^T W`` and
whose ``-b.alpha = sum alpha_r (1 - 1/|C_r|) = 1 - h(W)``: the Lagrangian bound (*) of
:mod:`mrc_pyomo.oracles.certificate` applies, with ``rho = R`` of the best rule, its rounding bounded.  No master
and no extra pass: ``G = Psi^T W`` is the backward pass the next primal step needs.

**The rescue, valid for any** ``W``.  The distribution ``alpha_0`` with weight ``w_i / sum w`` on each row
``(i, {y_i})`` has ``-b.alpha_0 = 0`` and ``g = m``, the mean of those rows: ``tau`` itself as
:func:`~mrc_pyomo.problem.prepare` makes it, within ``label_gap`` of it for a ``tau`` given
(:meth:`~mrc_pyomo.problem.MRCProblem.from_arrays`).  The mixture ``alpha_theta = (1 - theta) alpha + theta
alpha_0`` of the two distributions over rows has ``g_theta - tau = (1 - theta)(g - tau) + theta (m - tau)`` and
``-b.alpha_theta = (1 - theta)(1 - h(W))``.  At ``1 - theta = 1 / max_j r_j`` (``r_j = |g_j - tau_j| /
lambda_j``) every ``r`` of the mixture is at most 1 where ``m = tau``, and (*) is ``(1 - h(W)) / max_j r_j``, with no
penalty.  (*) is evaluated on the mixture's numbers as computed, ``theta |m - tau|`` and the rounding bounded: valid
whatever ``theta``.  The better bound is kept (the rescue's early on, or when a few tiny ``lambda_j`` keep ``max_j
r_j`` far above 1).
"""

import numpy as np

from ...data import array_namespace, to_numpy
from ...oracles.certificate import lagrangian_bound
from ...oracles.dual import relative_feature_violations
from ...oracles.rounding import gamma


def rounding_of(W, peaks):
    """``(g_error, b_error)``: bounds on the rounding of ``g = Psi^T W / sum W`` per feature (shape ``(1, D)``)
    and of ``-b.alpha = 1 - h(W) / sum W``, for ``W`` of shape ``(n, K)``; ``peaks``: ``max_i |Psi_ij|`` per
    feature (:func:`~mrc_pyomo.problem.scaling.column_peaks`)."""
    n, K = W.shape
    return gamma(n + K + 2) * (1.0 + gamma(n * K)) * peaks[None, :], gamma(n * K + 2)


def dual_bound(W, G, problem, rho, peaks):
    """The certified lower bound on ``R*`` of the dual iterate ``W`` (``G = Psi^T W``; any namespace) with ``rho``
    from ``R`` of the best rule (:meth:`~mrc_pyomo.problem.MRCProblem.radius`): the Lagrangian bound (*) of ``W`` and
    of its rescue (module docstring), the better, at least 0 (``R* >= 0``)."""
    xp = array_namespace(W)
    total = float(xp.sum(W))
    if not total > 0:
        return 0.0
    g = to_numpy(G) / total
    minus_b = 1.0 - float(xp.sum(xp.max(W, axis=1))) / total
    errors = rounding_of(W, peaks)
    tau, lam = problem.tau, problem.lam
    bound = lagrangian_bound(g, minus_b, tau, lam, rho, errors)
    worst = float(relative_feature_violations(g, tau, lam, errors[0]).max())   # max_j r_j, as (*) reads it
    if 1.0 < worst < np.inf:
        share = 1.0 / worst   # 1 - theta
        gap = 0.0 if problem.label_gap is None else (1.0 - share) * problem.label_gap   # theta |m - tau|
        mixed = (errors[0] + gamma(3) * peaks[None, :] + gap, errors[1] + gamma(2))   # |g|, |tau| <= peaks
        rescued = lagrangian_bound(share * g + (1.0 - share) * tau, share * minus_b, tau, lam, rho, mixed)
        bound = max(bound, rescued)
    return max(0.0, bound)
