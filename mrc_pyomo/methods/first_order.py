"""MRC-FOM: a first-order method on a smoothed worst-case risk, then MRC-CCG from its active rows for the certificate.

The worst-case risk (eq. 3) is ``R(mu) = 1 - tau.mu + max_i psi_i(mu) + lambda.|mu|``, with ``psi_i`` the
largest subset value of sample ``i`` (eq. 9).  Its maximum over the samples is replaced by Nesterov's smoothing
(Nesterov, "Smooth minimization of non-smooth functions", 2005), the log-sum-exp at temperature ``beta``::

    F_beta(mu) = f_beta(mu) + lambda.|mu|,   f_beta(mu) = 1 - tau.mu + beta log sum_i exp(psi_i(mu) / beta)

with ``max_i psi_i <= beta log sum_i exp(psi_i / beta) <= max_i psi_i + beta log n``.  The gradient of the
smooth part is ``Psi^T W - tau`` with ``W[i, y] = w_i [y in S_i] / |S_i|``, ``w = softmax(psi / beta)`` and
``S_i`` the best subset of sample ``i`` (:func:`~mrc_pyomo.oracles.primal.most_violated_subsets`, the
sorted-prefix oracle).  FISTA (Beck and Teboulle, 2009) minimises ``F_beta``: the ``lambda.|mu|`` part by
soft-thresholding, the step ``1 / L`` by backtracking (``L`` doubled until the quadratic model holds, and
lowered a little at each iteration), the momentum restarted when ``F_beta`` rises (O'Donoghue and Candes,
2015).  ``beta`` starts at ``beta_start`` and is halved every ``beta_every`` iterations down to ``beta_floor``
(a continuation in the smoothing, as glmnet's is in ``lambda``; :class:`FOMConfig`).

Each iteration is one backward pass ``Psi^T W`` at the extrapolated point and one forward pass ``Psi mu^T`` at
the new point (more when backtracking), each a map-reduce over the blocks of the data source
(:mod:`mrc_pyomo.data`), so a Dask array is fitted by the same code.  The scores at the extrapolated point are
the same combination of the two last points' scores (the scores are linear in ``mu``): no pass.  The exact
``R`` of every new point comes from the scores of its forward pass; the best point is the rule returned.

Its own weights ``w`` give no usable lower bound (the Lagrangian bound of :mod:`mrc_pyomo.oracles.certificate`
needs ``|g_j - tau_j| <= lambda_j`` nearly everywhere, which the smoothed weights are far from).  So the method
goes on with MRC-CCG (:mod:`mrc_pyomo.methods.ccg`, regime ``"n"``) from a first master
(:class:`~mrc_pyomo.master.RestrictedMaster`, all features) over the rows of its best point within
``seed_delta`` of its largest ``psi`` and the class centroids' rows, its best rule a candidate: the loop's
duals give the lower end and its stopping rule the status.  ``certify=False`` stops after the first-order
phase (lower end 0).  Every setting, its tuning included, is a field of :class:`FOMConfig`; the method offers
its phase to the default fit (:mod:`mrc_pyomo.methods.registry`; on images, :mod:`mrc_pyomo.methods.route`).
"""

from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np

from ..data import array_namespace, as_source, is_numpy
from ..display.log import LOG_HEADER, format_record
from ..oracles.incumbent import Incumbent
from ..oracles.primal import class_scores, most_violated_subsets, near_active_rows, psi_values, risk
from . import ccg
from .ccg.config import CCGConfig
from .deadline import deadline_of
from .phased import after_phase, phase_result
from .registry import Method, register_method
from .result import Outcome, Start, Status

PHASE_COLUMNS = ["iteration", "phase", "beta", "L", "R_mu", "lower", "upper", "seconds_elapsed"]
#: the columns of the history of a fit: those of MRC-CCG's records, then the first-order phase's own
FIT_COLUMNS = ccg.HISTORY_COLUMNS + ["beta", "L"]
#: the iteration log shows every this many first-order iterations
LOG_EVERY = 10


@dataclass(frozen=True)
class FOMConfig:
    """Every setting of MRC-FOM, its tuning with its measurements.

    ``eps_1``: the certified gap of the certificate's loop; ``max_iter``: first-order iterations at most (and
    masters of the certificate's loop).  The smoothing temperature starts at ``beta_start`` and is halved every
    ``beta_every`` iterations down to ``beta_floor`` (measured: docs/benchmarks.md, "The library's choices",
    "FISTA's smoothing").  The phase ends once its best R improved by less than ``tolerance`` (relative) over the last
    ``beta_every`` iterations: 1e-2 before the certificate (and before MRC-CCG in the default fit), 1e-4 for
    the first-order method alone (:data:`ALONE_TOLERANCE`, ``certify=False``).  The certificate's first master
    holds the rows of the best point with ``psi_i`` within ``seed_delta`` of the largest, kept for good if
    ``keep_seed``; its loop runs with ``certificate``'s settings (regime ``"n"``, as MRC-FOM's ``regime_``).
    """

    eps_1: float = 1e-3
    max_iter: int = 1000
    beta_start: float = 0.1
    beta_every: int = 80
    beta_floor: float = 1e-4
    tolerance: float = 1e-2
    certify: bool = True
    seed_delta: float = 1e-2
    keep_seed: bool = True
    certificate: CCGConfig = field(default_factory=lambda: CCGConfig(regime="n"))
    #: the regime of every master it solves (all features), a constant of the method, not a setting
    regime: ClassVar[str] = "n"


#: the stall tolerance of the first-order method alone (``certify=False``)
ALONE_TOLERANCE = 1e-4


def configure(settings, problem):
    """The :class:`FOMConfig` of the estimator's :class:`~mrc_pyomo.methods.registry.Settings`: its certificate's
    loop in the regime ``"n"``, whatever regime was asked for."""
    certificate = ccg.configure(replace(settings, regime="n"), problem)
    return FOMConfig(eps_1=settings.eps_1, max_iter=FOMConfig.max_iter if settings.max_iter is None
                     else settings.max_iter, certificate=certificate)


def forward(data, mu):
    """The class scores ``V = Psi mu^T`` of every sample, shape ``(n, K)``: one pass, in the namespace of the data
    and ``mu`` (:mod:`mrc_pyomo.data.namespace`)."""
    xp = array_namespace(mu)
    concat = np.concatenate if is_numpy(xp) else xp.concat
    return as_source(data).map_reduce(lambda block, start: class_scores(block, mu), concat)


def backward(data, W):
    """``Psi^T W`` as a ``(K, D)`` array for per-sample class weights ``W`` (shape ``(n, K)``): one pass, in the
    namespace of the data and ``W``."""
    xp = array_namespace(W)
    if is_numpy(xp):
        return as_source(data).map_reduce(lambda block, start, part: np.asarray(block.T @ part).T, sum, W)
    transpose = xp.matrix_transpose
    return as_source(data).map_reduce(lambda block, start, part: transpose(transpose(block) @ part), sum, W)


def smoothed(V, mu, tau, beta, blocked=None):
    """``(f_beta(mu), W, varphi(mu))`` from the scores ``V`` of ``mu``: the smooth part of the objective (module
    docstring), the class weights of its gradient ``Psi^T W - tau`` and the exact ``varphi(mu) = max_i psi_i``, in
    the namespace of ``V``."""
    xp = array_namespace(V)
    psi, subsets = most_violated_subsets(V, blocked)
    top = float(xp.max(psi))
    z = xp.exp((psi - top) / beta)
    total = xp.sum(z)
    counts = xp.sum(xp.astype(subsets, V.dtype), axis=1)
    weights = xp.astype(subsets, V.dtype) * (z / (total * counts))[:, None]
    return 1.0 - float(xp.sum(tau * mu)) + top + beta * float(xp.log(total)), weights, top


def soft_threshold(z, threshold):
    """The proximal map of ``threshold . |mu|``: ``sign(z) max(|z| - threshold, 0)``, in the namespace of ``z``."""
    xp = array_namespace(z)
    return xp.sign(z) * xp.maximum(xp.abs(z) - threshold, 0.0)


def certificate_master(problem, mu, config):
    """The first restricted master of the certificate: MRC-CCG's first master in the regime ``"n"`` (the class
    centroids' rows, all features: :func:`~mrc_pyomo.methods.ccg.initial_master`) and the rows of the rule ``mu``
    whose ``psi_i`` is within ``config.seed_delta`` of the largest, each with its best subset
    (:func:`~mrc_pyomo.oracles.primal.near_active_rows`)."""
    master = ccg.initial_master(problem, config.certificate)
    master.add_rows(*near_active_rows(problem.data, mu, config.seed_delta, problem.blocked))
    return master




def phase_steps(problem, config=None, *, start=None, deadline=None, log=None):
    """The first-order phase on ``problem``: FISTA on ``F_beta`` (module docstring) from ``mu = 0`` (or the rule of
    ``start``, another phase's :class:`~mrc_pyomo.methods.result.Outcome`) until
    ``config.max_iter`` iterations (``config``: a :class:`FOMConfig`), the ``deadline``, a stop sent to the
    generator (which yields each iteration's history record, :mod:`mrc_pyomo.methods.result`) or a stall: the
    best ``R`` improved by less than ``config.tolerance`` (relative) over the last ``config.beta_every``
    iterations.

    Returns ``(best, history, status)``: the best rule as an :class:`~mrc_pyomo.methods.result.Outcome` (its ``R``
    from one exact pass; its ``W`` the weights of the gradient of ``F_beta`` there at the last ``beta``, a point
    of the simplex where MRC-PDHG's iterations can start; no lower bound), one record per iteration
    (:data:`PHASE_COLUMNS` and ``lambda0``:
    ``phase`` ``"first-order"``, ``beta``, ``L``, the iterate's exact ``R_mu``, the best ``upper``, ``lower``
    0, ``seconds_elapsed`` the deadline's) and the :class:`~mrc_pyomo.methods.result.Status` of a stop by a
    limit or a stop sent (None for a stall).
    """
    config = FOMConfig() if config is None else config
    data, tau, lam, blocked = problem.data, problem.tau, problem.lam, problem.blocked
    fixed = np.zeros(tau.shape, dtype=bool) if problem.reduction is None else problem.reduction.fixed
    deadline, every = deadline_of(deadline), config.beta_every
    x = x_prev = np.zeros_like(tau) if start is None else np.array(start.mu, dtype=float)
    V = V_prev = np.zeros((problem.n_samples, problem.n_classes)) if start is None else forward(data, x)
    top = float(psi_values(V, blocked).max())   # R(0) = 1 + varphi(0) = 1 - 1/K
    best = Incumbent(x, risk(x, top, tau, lam), 1.0 + top)
    t, L, status, history, bests = 1.0, 1.0, Status.MAX_ITER, [], []
    F_x = np.inf   # F_beta at x, for the restart test
    for k in range(1, config.max_iter + 1):
        beta = max(config.beta_floor, config.beta_start * 0.5 ** ((k - 1) // every))
        if k == 1 or (k - 1) % every == 0:   # a new objective: the momentum restarts
            t, F_x = 1.0, smoothed(V, x, tau, beta, blocked)[0] + float(np.sum(lam * np.abs(x)))
        t_next = (1.0 + np.sqrt(1.0 + 4.0 * t * t)) / 2.0
        momentum = (t - 1.0) / t_next
        y, V_y = x + momentum * (x - x_prev), V + momentum * (V - V_prev)
        f_y, W, _ = smoothed(V_y, y, tau, beta, blocked)
        g = backward(data, W) - tau
        g[fixed] = 0.0
        L *= 0.8
        while True:
            x_new = soft_threshold(y - g / L, lam / L)
            V_new = forward(data, x_new)
            f_new, _, top = smoothed(V_new, x_new, tau, beta, blocked)
            step = x_new - y
            if f_new <= f_y + float(np.sum(g * step)) + 0.5 * L * float(np.sum(step * step)) + 1e-12 * abs(f_y):
                break
            L *= 2.0
        penalty = float(np.sum(lam * np.abs(x_new)))
        t = 1.0 if f_new + penalty > F_x else t_next
        F_x = f_new + penalty
        x_prev, V_prev, x, V = x, V, x_new, V_new
        value = 1.0 - float(np.sum(tau * x)) + top + penalty
        if value < best.risk:
            best = Incumbent(x, value, top + 1.0)
        bests.append(best.risk)
        history.append({"iteration": k, "lambda0": problem.lambda0, "phase": "first-order", "beta": beta, "L": L,
                        "R_mu": value, "lower": 0.0, "upper": best.risk, "seconds_elapsed": deadline.elapsed()})
        if log is not None:
            log(history[-1])
        if (yield history[-1]):
            status = Status.CALLBACK
            break
        if deadline.expired():
            status = Status.TIME_LIMIT
            break
        if k > every and bests[-1 - every] - best.risk < config.tolerance * bests[-1 - every]:
            status = None
            break
    # one exact pass, as every method's upper end, and the weights of the gradient there
    V = forward(data, best.mu)
    weights = smoothed(V, best.mu, tau, history[-1]["beta"] if history else config.beta_start, blocked)[1]
    top = float(psi_values(V, blocked).max())
    return Outcome(best.mu, risk(best.mu, top, tau, lam), top + 1.0, W=weights), history, status




def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """MRC-FOM on ``problem``, a generator of its iterations (:mod:`mrc_pyomo.methods.result`): the first-order
    :func:`phase`; then, with ``config.certify`` and time left, MRC-CCG from the master of its active rows
    (:func:`certificate_master`, module docstring) within ``deadline``, ``config.max_iter`` masters at most
    (:func:`~mrc_pyomo.methods.phased.after_phase`).

    Returns a :class:`~mrc_pyomo.methods.result.FitResult`: the best rule of both phases, its exact ``R`` as
    ``upper``, the loop's ``lower`` (0 without it) and status (``"converged"`` only when the certified gap is at
    most ``max(eps_1, GAP_FLOOR)``), the last master.  ``history`` (columns :data:`FIT_COLUMNS`): the phase's
    records, then the loop's, numbered on.  ``start`` is not used.  A fit whose time runs out in the phase or
    in the certificate's first master returns the phase's rule with ``lower = 0`` and status ``"time_limit"``.
    """
    config, deadline = FOMConfig() if config is None else config, deadline_of(deadline)
    best, history, status = yield from phase_steps(problem, config, deadline=deadline, log=log)
    if not config.certify:
        return phase_result(best, history, status or Status.MAX_ITER, config.eps_1, FIT_COLUMNS)
    certificate = replace(config.certificate, eps_1=config.eps_1, max_iter=config.max_iter)
    return (yield from after_phase(lambda log: ccg.steps(
        problem, certificate, deadline=deadline, log=log, start=Start(
            master=certificate_master(problem, best.mu, config), candidates=(best.mu,),
            keep=config.keep_seed)), best, history, status, config.eps_1, deadline, log, problem.lambda0, FIT_COLUMNS))


def log_line(record):
    """A record's line in the iteration log: a first-order iteration's every :data:`LOG_EVERY` iterations, a
    master of the certificate's loop as MRC-CCG words it."""
    if record.get("phase") != "first-order":
        return format_record(record)
    if record["iteration"] % LOG_EVERY == 0:
        return (f"{record['iteration']:6d} {record['phase']:11s}  beta {record['beta']:7.1e}  R(mu_k) = "
                f"{record['R_mu']:.8f}  R* in [{record['lower']:.8f}, {record['upper']:.8f}] "
                f"{record['seconds_elapsed']:7.1f} s")
    return None


METHOD = register_method(Method(
    name="fom", title="MRC-FOM", configure=configure, steps=steps, phase=phase_steps,
    summary="MRC-FOM: FISTA on the smoothed worst-case risk, then MRC-CCG from its active rows, for the certificate",
    columns=tuple(FIT_COLUMNS), log_line=log_line, log_header=LOG_HEADER))
