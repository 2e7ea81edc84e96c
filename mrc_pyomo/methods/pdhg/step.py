"""One step of MRC-PDHG on the saddle form (:mod:`~mrc_pyomo.methods.pdhg.saddle`), after PDLP (Applegate et al.,
2021, "Practical large-scale linear programming using primal-dual hybrid gradient").

With per-coordinate primal steps ``T`` and per-sample dual steps ``S``, one PDHG step ``z -> P(z)`` is::

    mu+ = soft_threshold(mu - T (Psi^T W - tau), T lambda)         (Psi^T W: the backward pass of the last step)
    W+  = prox_{S h, simplex}(W + S Psi (2 mu+ - mu)^T)             (Psi mu+^T: one forward pass)

the dual prox exact (:func:`~mrc_pyomo.methods.pdhg.saddle.dual_prox`).  The steps are Pock and Chambolle's
diagonal preconditioning, ``T0_j = 1 / sum_i |Psi_ij|`` and ``S0_i = 1 / sum_j |Psi_ij|`` (the preconditioned
operator's norm at most 1, :func:`operator_norm`), times a step scale and the primal weight: ``T = eta T0 /
omega``, ``S = eta omega S0``.  A step's :func:`movement` gives both its fixed-point residual (:func:`residual`)
and its step limit (:func:`step_limit`); the sequencing is :mod:`~mrc_pyomo.methods.pdhg.restarted`'s.

**Every iterate is certified**: ``P(z)``'s exact ``R`` from its forward pass's scores (:func:`risk_of`), its
``W``'s lower bound (:mod:`~mrc_pyomo.methods.pdhg.bound`) from the backward pass the next step needs.  The arrays
live in the data's namespace (:mod:`mrc_pyomo.data.namespace`); the bound's few ``(K, D)`` numbers come to the host.
"""

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ...data import array_namespace, as_source, to_numpy
from ...oracles.primal import psi_values
from ...oracles.passes import backward, forward, soft_threshold
from .saddle import dual_prox


def data_namespace(problem):
    """The namespace the iterations run in: that of the problem's data (NumPy's for NumPy, SciPy and Dask data)."""
    return getattr(as_source(problem.data), "xp", None) or array_namespace(np.empty(0))


def absolute_sums(block, start):
    """``(sum_i |Psi_ij| per feature, sum_j |Psi_ij| per sample)`` of a block of samples, on the host."""
    if sp.issparse(block):
        absolute = abs(block)
        return np.asarray(absolute.sum(axis=0)).ravel(), np.asarray(absolute.sum(axis=1)).ravel()
    xp = array_namespace(block)
    absolute = xp.abs(block)
    return to_numpy(xp.sum(absolute, axis=0)), to_numpy(xp.sum(absolute, axis=1))


def preconditioner(problem):
    """``(T0, S0)`` on the host (module docstring), shapes ``(D,)`` and ``(n,)``, by one pass; an all-zero
    column or row gets 1."""
    parts = as_source(problem.data).map_reduce(absolute_sums, list)
    columns = np.sum([part[0] for part in parts], axis=0)
    rows = np.concatenate([part[1] for part in parts])
    with np.errstate(divide="ignore"):
        return np.where(columns > 0, 1.0 / columns, 1.0), np.where(rows > 0, 1.0 / rows, 1.0)


def operator_norm(problem, T0, S0, iterations, xp):
    """``||S0^(1/2) Psi T0^(1/2)||`` (at most 1) by ``iterations`` power steps (1 if none), raised by 1%: the
    estimate is from below."""
    if iterations <= 0:
        return 1.0
    root_T, root_S = xp.sqrt(xp.asarray(T0))[None, :], xp.sqrt(xp.asarray(S0))[:, None]
    x = xp.asarray(np.random.default_rng(0).normal(size=problem.tau.shape))
    value = 1.0
    for _ in range(iterations):
        norm = float(xp.sqrt(xp.sum(x * x)))
        if norm == 0.0:
            return 1.0
        x = x / norm
        x = root_T * backward(problem.data, root_S * root_S * forward(problem.data, root_T * x))
        value = math.sqrt(float(xp.sqrt(xp.sum(x * x))))
    return min(1.0, 1.01 * value) if value > 0 else 1.0


@dataclass
class Iterate:
    """A point: ``mu``, ``V = Psi mu^T``, ``W``, ``G = Psi^T W``, and ``shift``, the simplex's shift of the prox
    that made ``W`` (None if none did), where the next prox's search starts."""

    mu: object
    V: object
    W: object
    G: object
    shift: float = None

    def combined(self, a, other, b, anchor, c):
        """``a self + b other + c anchor``, every part (the passes are linear: no pass); its shift ``self``'s."""
        return Iterate(*(a * x + b * y + c * z for x, y, z in zip(
            (self.mu, self.V, self.W, self.G), (other.mu, other.V, other.W, other.G),
            (anchor.mu, anchor.V, anchor.W, anchor.G))), shift=self.shift)


@dataclass
class Arrays:
    """The problem's arrays in the iterations' namespace: ``tau``, ``lam``, the ``fixed`` features of the
    reduction and its ``blocked`` labels (None if none)."""

    tau: object
    lam: object
    fixed: object
    blocked: object

    @classmethod
    def of(cls, problem, xp):
        fixed = np.zeros(problem.tau.shape, dtype=bool) if problem.reduction is None else problem.reduction.fixed
        blocked = None if problem.blocked is None else xp.asarray(problem.blocked)
        return cls(xp.asarray(problem.tau), xp.asarray(problem.lam), xp.asarray(fixed), blocked)


def pdhg_step(z, problem, arrays, T, S):
    """``P(z)``: one PDHG step from ``z`` with the primal steps ``T`` (shape ``(K, D)``) and the dual steps ``S``
    (per sample), two passes (module docstring)."""
    xp = array_namespace(z.mu)
    mu = soft_threshold(z.mu - T * (z.G - arrays.tau), T * arrays.lam)
    mu = xp.where(arrays.fixed, 0.0, mu)
    V = forward(problem.data, mu)
    W, shift = dual_prox(z.W + S[:, None] * (2.0 * V - z.V), S, arrays.blocked, guess=z.shift)
    return Iterate(mu, V, W, backward(problem.data, W), shift)


def movement(old, new, scales):
    """``(||dmu||^2_{1/T0}, ||dW||^2_{1/S0}, <dW, dV>)`` of the step from ``old`` to ``new`` (``scales``: ``(T0,
    S0)``; ``dV = Psi dmu^T``, no pass), read back to the host at once.  The ``(n, K)`` sums run per sample
    (``vecdot``), making no ``(n, K)`` product."""
    xp, (T0, S0) = array_namespace(old.mu), scales
    dmu, dW = new.mu - old.mu, new.W - old.W
    sums = xp.stack([xp.sum(dmu * dmu / T0[None, :]), xp.sum(xp.vecdot(dW, dW) / S0),
                     xp.sum(xp.vecdot(dW, new.V - old.V))])
    return tuple(float(value) for value in to_numpy(sums))


def residual(moved, eta, omega):
    """The fixed-point residual ``||z - P(z)||`` of a step with the steps ``T = eta T0 / omega``, ``S = eta omega
    S0`` in PDHG's metric ``[[1/T, -K^T], [-K, 1/S]]`` (``K mu = Psi mu^T``), from its :func:`movement`."""
    primal, dual, coupling = moved
    return math.sqrt(max(primal * omega / eta + dual / (eta * omega) - 2.0 * coupling, 0.0))


def step_limit(moved, omega):
    """PDLP's largest step scale at which a step of :func:`movement` ``moved`` is accepted: ``(omega
    ||dmu||^2_{1/T0} + ||dW||^2_{1/S0} / omega) / (2 |<dW, dV>|)``; inf if the coupling is 0."""
    primal, dual, coupling = moved
    if coupling == 0.0:
        return math.inf
    return (omega * primal + dual / omega) / (2.0 * abs(coupling))


def risk_of(it, arrays):
    """``(R(mu), varphi(mu))`` of the iterate's ``mu`` from its scores (paper, eq. 3), each a 0-d array of its
    namespace: nothing read back to the host."""
    xp = array_namespace(it.mu)
    top = xp.max(psi_values(it.V, arrays.blocked))
    return 1.0 - xp.sum(arrays.tau * it.mu) + top + xp.sum(arrays.lam * xp.abs(it.mu)), top
