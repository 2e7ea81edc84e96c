"""MRC-FOM: a first-order method on a smoothed worst-case risk, then MRC-CCG from its active rows for the certificate.

The worst-case risk (eq. 3) is ``R(mu) = 1 - tau.mu + max_i psi_i(mu) + lambda.|mu|``, with ``psi_i`` the
largest subset value of sample ``i`` (eq. 9).  Its maximum over the samples is replaced by Nesterov's smoothing
(Nesterov, "Smooth minimization of non-smooth functions", 2005), the log-sum-exp at temperature ``beta``::

    F_beta(mu) = f_beta(mu) + lambda.|mu|,   f_beta(mu) = 1 - tau.mu + beta log sum_i exp(psi_i(mu) / beta)

with ``max_i psi_i <= beta log sum_i exp(psi_i / beta) <= max_i psi_i + beta log n``.  The gradient of the
smooth part is ``Psi^T W - tau`` with ``W[i, y] = w_i [y in S_i] / |S_i|``, ``w = softmax(psi / beta)`` and
``S_i`` the best subset of sample ``i`` (:func:`~mrc_pyomo.oracles.primal.most_violated_subsets`, the
sorted-prefix oracle).  FISTA (Beck and Teboulle, 2009) minimises ``F_beta``: ``lambda.|mu|`` by
soft-thresholding, the step ``1 / L`` by backtracking (``L`` doubled until the quadratic model holds, lowered a
little at each iteration), the momentum restarted when ``F_beta`` rises (O'Donoghue and Candes, 2015), ``beta``
halved every ``beta_every`` iterations (a continuation in the smoothing, as glmnet's in ``lambda``; :class:`FOMConfig`).

Each iteration is one backward pass ``Psi^T W`` at the extrapolated point (whose scores combine the last two
points': no pass) and one forward pass ``Psi mu^T``, which gives the new point's exact ``R`` (more when
backtracking, :mod:`mrc_pyomo.oracles.passes`); the best point is the rule returned.  Only the coefficients the
reduction leaves free move (:mod:`mrc_pyomo.problem.reduction`: a fixed one has ``tau = lambda = 0`` and a zero
gradient, its label blocked wherever its feature is nonzero), so an iteration's vectors hold those alone.  Its
weights give no usable lower bound (:mod:`mrc_pyomo.oracles.certificate` needs ``|g_j - tau_j| <= lambda_j`` nearly
everywhere), so MRC-CCG goes on from its active rows (:func:`active_rows`; :mod:`mrc_pyomo.methods.first_order`).
"""

from dataclasses import dataclass

import numpy as np

from ..data import array_namespace
from ..oracles.passes import backward, forward, soft_threshold
from ..oracles.primal import most_violated_subsets, near_active_rows, psi_values, risk
from .ccg.config import multi_class_text
from .deadline import deadline_of
from .first_order import FirstOrderConfig, register_first_order
from .history import FIRST_ORDER, HISTORY_COLUMNS
from .result import Outcome, Status, reported

#: the columns of the history of a fit: those of MRC-CCG's records, then the iterations' own
FIT_COLUMNS = HISTORY_COLUMNS + ["beta", "L"]


@dataclass(frozen=True)
class FOMConfig(FirstOrderConfig):
    """Every setting of MRC-FOM: those of every first-order method
    (:class:`~mrc_pyomo.methods.first_order.FirstOrderConfig`; ``certify=False``: lower end 0; its certificate's
    loop removes rows as MRC-CCG does, ``keep_rows`` False: FISTA's point is far from the optimum, its near rows
    are not the final ones), and its own: ``beta`` starts at ``beta_start``, halved every ``beta_every`` iterations
    down to ``beta_floor`` (docs/benchmarks.md, "The library's choices", "FISTA's smoothing"); the iterations stop
    once their best R improved by less than ``tolerance`` (relative) over the last ``beta_every``.  ``chain``: the
    certificate's first master holds, of each sample, every row of eq. 9's chain (its ``k`` largest scores) within
    ``near`` of ``varphi`` at FISTA's rule, not only its most violated; None: on sparse text of more than two classes
    (:func:`~mrc_pyomo.methods.ccg.config.multi_class_text`), where it was measured to pay, and not on images
    (docs/benchmarks.md, "The library's choices", "FISTA's active rows")."""

    beta_start: float = 0.1
    beta_every: int = 80
    beta_floor: float = 1e-4
    tolerance: float = 1e-2
    chain: bool = None


def smoothed(V, mu, tau, beta, blocked=None):
    """``(f_beta(mu), W, varphi(mu))`` from the scores ``V`` of ``mu`` (module docstring): the smooth part, the
    weights of its gradient ``Psi^T W - tau`` and the exact ``max_i psi_i``, in the namespace of ``V``."""
    xp = array_namespace(V)
    psi, subsets = most_violated_subsets(V, blocked)
    top, z, total = soft_maximum(psi, beta)
    members = xp.astype(subsets, V.dtype)
    weights = members * (z / (total * xp.sum(members, axis=1)))[:, None]
    return smooth_part(mu, tau, beta, top, total), weights, top


def smoothed_value(V, mu, tau, beta, blocked=None):
    """``(f_beta(mu), varphi(mu))``: :func:`smoothed`'s value, bit for bit, without the gradient's weights, whose
    subsets cost more than ``psi`` alone: for the points a step only tries."""
    top, _, total = soft_maximum(psi_values(V, blocked), beta)
    return smooth_part(mu, tau, beta, top, total), top


def soft_maximum(psi, beta):
    """``(max_i psi_i, z, sum_i z_i)`` with ``z_i = exp((psi_i - max psi) / beta)``: the terms of ``beta log sum_i
    exp(psi_i / beta)``, shifted by the maximum."""
    xp = array_namespace(psi)
    top = float(xp.max(psi))
    z = xp.exp((psi - top) / beta)
    return top, z, xp.sum(z)


def smooth_part(mu, tau, beta, top, total):
    """``f_beta(mu) = 1 - tau.mu + max_i psi_i + beta log sum_i z_i`` from :func:`soft_maximum`'s ``top`` and
    ``total`` (module docstring)."""
    xp = array_namespace(mu)
    return 1.0 - float(xp.sum(tau * mu)) + top + beta * float(xp.log(total))


def active_rows(problem, found, config):
    """One block ``(samples, subsets)``: the rows at ``found.mu`` within ``config.near`` of ``varphi``, each sample's
    most violated or, with ``config.chain``, each of its chain's
    (:func:`~mrc_pyomo.oracles.primal.near_active_rows`)."""
    chain = multi_class_text(problem) if config.chain is None else config.chain
    return [near_active_rows(problem.data, found.mu, config.near, problem.blocked, chain=chain)]


def iterations(problem, config=None, *, start=None, deadline=None, log=None, iterations_before=0):
    """FISTA on ``F_beta`` (module docstring) from ``mu = 0`` or ``start``'s rule, a first-order method's
    iterations (:mod:`mrc_pyomo.methods.first_order`) until ``config.max_iter``, the ``deadline``, a stop sent or
    a stall (:class:`FOMConfig`).  Its records (``beta``, ``L``, ``R_mu``, the best ``upper``, ``lower`` 0)
    number on from ``iterations_before``.  Returns ``(found, history, status)``, ``found``'s ``W`` the weights of
    ``F_beta``'s gradient at the best rule, a point of the simplex where MRC-PDHG's iterations can start (no lower
    bound); ``status`` None for a stall."""
    config = FOMConfig() if config is None else config
    data, tau, lam, blocked = problem.data, problem.tau, problem.lam, problem.blocked
    fixed = np.zeros(tau.shape, dtype=bool) if problem.reduction is None else problem.reduction.fixed
    deadline, every = deadline_of(deadline), config.beta_every
    # the iterations move the free coefficients only, one vector in the order of mu^T's entries (the forward pass's
    # operand, written in place): the fixed ones, whose tau, lambda and gradient are 0, keep the start's values
    base = np.zeros(tau.shape) if start is None else np.where(fixed, start.mu, 0.0)
    free = np.flatnonzero(~fixed.T)
    tau_free, lam_free, operand = np.take(tau.T, free), np.take(lam.T, free), np.array(base.T)

    def rule(values, out=None):
        """The ``(K, D)`` rule of the free coefficients ``values`` (written into ``out``, a ``mu^T``, if given)."""
        transposed = np.array(base.T) if out is None else out
        np.put(transposed, free, values)
        return transposed.T

    x = x_prev = np.zeros(len(free)) if start is None else np.take(np.asarray(start.mu, dtype=float).T, free)
    V = V_prev = np.zeros((problem.n_samples, problem.n_classes)) if start is None else forward(data, rule(x))
    top = float(psi_values(V, blocked).max())   # R(0) = 1 + varphi(0) = 1 - 1/K
    best_x, best_risk = x, risk(x, top, tau_free, lam_free)
    t, L, status, history, bests = 1.0, 1.0, Status.MAX_ITER, [], []
    F_x = np.inf   # F_beta at x, for the restart test
    for k in range(1, config.max_iter + 1):
        beta = max(config.beta_floor, config.beta_start * 0.5 ** ((k - 1) // every))
        if k == 1 or (k - 1) % every == 0:   # a new objective: the momentum restarts
            t = 1.0
            F_x = smoothed_value(V, x, tau_free, beta, blocked)[0] + float(np.sum(lam_free * np.abs(x)))
        t_next = (1.0 + np.sqrt(1.0 + 4.0 * t * t)) / 2.0
        momentum = (t - 1.0) / t_next
        y, V_y = x + momentum * (x - x_prev), V + momentum * (V - V_prev)
        f_y, W, _ = smoothed(V_y, y, tau_free, beta, blocked)
        g = np.take(backward(data, W).T, free) - tau_free
        L *= 0.8
        while True:
            x_new = soft_threshold(y - g / L, lam_free / L)
            V_new = forward(data, rule(x_new, operand))
            f_new, top = smoothed_value(V_new, x_new, tau_free, beta, blocked)
            step = x_new - y
            if f_new <= f_y + float(g @ step) + 0.5 * L * float(step @ step) + 1e-12 * abs(f_y):
                break
            L *= 2.0
        penalty = float(np.sum(lam_free * np.abs(x_new)))
        t = 1.0 if f_new + penalty > F_x else t_next
        F_x = f_new + penalty
        x_prev, V_prev, x, V = x, V, x_new, V_new
        value = 1.0 - float(np.sum(tau_free * x)) + top + penalty
        if value < best_risk:
            best_x, best_risk = x, value
        bests.append(best_risk)
        history.append({"iteration": iterations_before + k, "lambda0": problem.lambda0, "phase": FIRST_ORDER,
                        "beta": beta, "L": L, "R_mu": value, "lower": 0.0, "upper": best_risk,
                        "seconds_elapsed": deadline.elapsed()})
        status = (yield from reported(history[-1], log, deadline)) or Status.MAX_ITER
        if status != Status.MAX_ITER:
            break
        if k > every and bests[-1 - every] - best_risk < config.tolerance * bests[-1 - every]:
            status = None
            break
    best = np.ascontiguousarray(rule(best_x))
    # one exact pass, as every method's upper end, and the weights of the gradient there
    V = forward(data, best)
    _, weights, top = smoothed(V, best, tau, history[-1]["beta"] if history else config.beta_start, blocked)
    return Outcome(best, risk(best, top, tau, lam), top + 1.0, W=weights), history, status


METHOD = register_first_order(
    "fom", "MRC-FOM", "MRC-FOM: FISTA on the smoothed worst-case risk, then MRC-CCG from its active rows, for the "
    "certificate", FOMConfig, iterations, active_rows, FIT_COLUMNS, label="FISTA")
