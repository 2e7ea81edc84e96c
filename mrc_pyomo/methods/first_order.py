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
2015).  ``beta`` starts at :data:`BETA_START` and is halved every :data:`BETA_EVERY` iterations down to
:data:`BETA_FLOOR` (a continuation in the smoothing, as glmnet's is in ``lambda``).

Each iteration is one backward pass ``Psi^T W`` at the extrapolated point and one forward pass ``Psi mu^T`` at
the new point (more when backtracking), each a map-reduce over the blocks of the data source
(:mod:`mrc_pyomo.data`), so a Dask array is fitted by the same code.  The scores at the extrapolated point are
the same combination of the two last points' scores (the scores are linear in ``mu``): no pass.  The exact
``R`` of every new point comes from the scores of its forward pass; the best point is the rule returned.

Its own weights ``w`` give no usable lower bound (the Lagrangian bound of :mod:`mrc_pyomo.oracles.certificate`
needs ``|g_j - tau_j| <= lambda_j`` nearly everywhere, which the smoothed weights are far from).  So the method
goes on with MRC-CCG (:mod:`mrc_pyomo.methods.ccg`, regime ``"n"``) from a first master
(:class:`~mrc_pyomo.master.RestrictedMaster`, all features) over the rows of its best point within
:data:`SEED_DELTA` of its largest ``psi`` and the class centroids' rows, its best rule a candidate: the loop's
duals give the lower end and its stopping rule the status.  ``certify=False`` stops after the first-order
phase (lower end 0).
"""

import time
from dataclasses import replace

import numpy as np

from ..data import as_source
from ..master import MasterSolveError
from ..oracles.certificate import gap_tolerance
from ..oracles.incumbent import Incumbent
from ..oracles.primal import class_scores, most_violated_subsets
from . import ccg
from .ccg.config import CCGConfig
from .result import FitResult, Start, Status, finish

HISTORY_COLUMNS = ["iteration", "phase", "beta", "L", "R_mu", "lower", "upper", "seconds_elapsed"]
#: the columns of the history of a fit: those of MRC-CCG's records, then the first-order phase's own
COLUMNS = ccg.HISTORY_COLUMNS + ["beta", "L"]

#: the smoothing temperature of the first iterations, halved every BETA_EVERY iterations down to BETA_FLOOR.
#: Measured on mnist_8000 (6,400 images; R* 0.3739), best R at 10 / 30 / 60 s, one core each, two at a time:
#: every 40 down to 1e-3: 0.481 / 0.434 / 0.431; every 60 to 1e-4: 0.485 / 0.420 / 0.415; every 80 to 1e-4:
#: 0.494 / 0.419 / 0.407; every 120 to 1e-5: 0.525 / 0.426 / 0.399; halving when F_beta fell by less than
#: 1e-3 in 20 (40) iterations: 0.483 / 0.473 / 0.471 (0.481 / 0.434 / 0.433)
BETA_START, BETA_EVERY, BETA_FLOOR = 0.1, 80, 1e-4
#: the rows of the certificate's master: those of the best point with ``psi_i`` within this of the largest
SEED_DELTA = 1e-2
#: the rows of that master are kept for good (never dropped by the loop)
KEEP_SEED = True
#: the phase ends once its best R improved by less than this (relative) over the last BETA_EVERY iterations:
#: before the certificate's loop (method "fom") and before MRC-CCG in the default fit (first_order="auto")
PHASE_TOLERANCE = 1e-2
#: the same, for the first-order method alone (certify=False)
STALL_TOLERANCE = 1e-4


def forward(data, mu):
    """The class scores ``V = Psi mu^T`` of every sample, shape ``(n, K)``: one pass."""
    return as_source(data).map_reduce(lambda block, start: class_scores(block, mu), np.concatenate)


def backward(data, W):
    """``Psi^T W`` as a ``(K, D)`` array for per-sample class weights ``W`` (shape ``(n, K)``): one pass."""
    return as_source(data).map_reduce(lambda block, start, part: np.asarray(block.T @ part).T, sum, W)


def smoothed(V, mu, tau, beta, blocked=None):
    """``(f_beta(mu), W, varphi(mu))`` from the scores ``V`` of ``mu``: the smooth part of the objective (module
    docstring), the class weights of its gradient ``Psi^T W - tau`` and the exact ``varphi(mu) = max_i psi_i``."""
    psi, subsets = most_violated_subsets(V, blocked)
    top = float(psi.max())
    z = np.exp((psi - top) / beta)
    total = z.sum()
    weights = subsets * (z / (total * subsets.sum(axis=1)))[:, None]
    return 1.0 - float(np.sum(tau * mu)) + top + beta * np.log(total), weights, top


def soft_threshold(z, threshold):
    """The proximal map of ``threshold . |mu|``: ``sign(z) max(|z| - threshold, 0)``."""
    return np.sign(z) * np.maximum(np.abs(z) - threshold, 0.0)


def certificate_master(problem, V, config):
    """The first restricted master of the certificate: MRC-CCG's first master in the regime ``"n"`` (the class
    centroids' rows, all features: :func:`~mrc_pyomo.methods.ccg.initial_master`) and the rows of a point with
    scores ``V`` whose ``psi_i`` is within :data:`SEED_DELTA` of the largest, each with its best subset."""
    psi, subsets = most_violated_subsets(V, problem.blocked)
    near = np.flatnonzero(psi >= psi.max() - SEED_DELTA)
    master, _ = ccg.initial_master(problem, replace(config, regime="n"))
    master.add_rows(near, subsets[near])
    return master


def phase(problem, config, *, tolerance=PHASE_TOLERANCE, log=None, callback=None):
    """:func:`phase_steps` run to its end, each iteration's record shown to ``callback`` (if given), whose true
    return value stops the phase (:func:`~mrc_pyomo.methods.result.finish`): ``(best, history, status)``."""
    return finish(phase_steps(problem, config, tolerance=tolerance, log=log), callback)


def phase_steps(problem, config, *, tolerance=PHASE_TOLERANCE, log=None):
    """The first-order phase on ``problem``: FISTA on ``F_beta`` (module docstring) from ``mu = 0`` until
    ``config.max_iter`` iterations, ``config.time_limit`` seconds, a stop sent to the generator (which yields
    each iteration's history record, :mod:`mrc_pyomo.methods.result`) or a stall: the best ``R`` improved by less
    than ``tolerance`` (relative) over the last :data:`BETA_EVERY` iterations.

    Returns ``(best, history, status)``: the best rule as an :class:`~mrc_pyomo.oracles.incumbent.Incumbent`
    (its ``R`` from one exact pass), one record per iteration (:data:`HISTORY_COLUMNS` and ``lambda0``:
    ``phase`` ``"first-order"``, ``beta``, ``L``, the iterate's exact ``R_mu``, the best ``upper``, ``lower``
    0) and the :class:`~mrc_pyomo.methods.result.Status` of a stop by a limit or the callback (None for a
    stall).
    """
    data, tau, lam, blocked = problem.data, problem.tau, problem.lam, problem.blocked
    fixed = np.zeros(tau.shape, dtype=bool) if problem.reduction is None else problem.reduction.fixed
    began = time.perf_counter()
    elapsed = lambda: time.perf_counter() - began  # noqa: E731
    x = x_prev = np.zeros_like(tau)
    V = V_prev = np.zeros((problem.n_samples, problem.n_classes))
    top = float(most_violated_subsets(V, blocked)[0].max())   # R(0) = 1 + varphi(0) = 1 - 1/K
    best = Incumbent(x, 1.0 + top, 1.0 + top)
    t, L, status, history, bests = 1.0, 1.0, Status.MAX_ITER, [], []
    F_x = np.inf   # F_beta at x, for the restart test
    for k in range(1, config.max_iter + 1):
        beta = max(BETA_FLOOR, BETA_START * 0.5 ** ((k - 1) // BETA_EVERY))
        if k == 1 or (k - 1) % BETA_EVERY == 0:   # a new objective: the momentum restarts
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
                        "R_mu": value, "lower": 0.0, "upper": best.risk, "seconds_elapsed": elapsed()})
        if log is not None:
            log(history[-1])
        if (yield history[-1]):
            status = Status.CALLBACK
            break
        if config.time_limit is not None and elapsed() >= config.time_limit:
            status = Status.TIME_LIMIT
            break
        if k > BETA_EVERY and bests[-1 - BETA_EVERY] - best.risk < tolerance * bests[-1 - BETA_EVERY]:
            status = None
            break
    # one exact pass, as every method's upper end
    return Incumbent.evaluate(data, best.mu, tau, lam, blocked), history, status


def phase_result(best, history, status, config):
    """The :class:`~mrc_pyomo.methods.result.FitResult` of a fit that ends with its first-order :func:`phase`:
    its best rule, ``upper = R(mu)``, no master and ``lower = 0``, so ``"converged"`` only when ``R(mu)`` is
    within the gap tolerance of ``config.eps_1``, else ``status``."""
    status = Status.CONVERGED if best.risk <= gap_tolerance(config.eps_1) else status
    return FitResult(master=None, mu=best.mu, objective=np.nan, lower=0.0, upper=best.risk, status=status,
                     history=history, columns=tuple(COLUMNS))


def continued(log, history, seconds, lambda0):
    """A log for the records of a method run after a first-order phase of ``history`` that took ``seconds``:
    each record's ``iteration`` and ``seconds_elapsed`` go on from the phase's, and it has a ``lambda0`` (the
    given one unless it has its own, a stage's), before ``log`` (if any) sees it."""
    done = len(history)

    def shifted(record):
        record.update(iteration=record["iteration"] + done, seconds_elapsed=record["seconds_elapsed"] + seconds)
        record.setdefault("lambda0", lambda0)
        if log is not None:
            log(record)
    return shifted


def after_phase(loop, best, history, began, config, log, lambda0):
    """The :class:`~mrc_pyomo.methods.result.FitResult` of ``loop(remaining, log)``, the steps of a method
    (a generator whose iterations this one passes on) run after a first-order :func:`phase` of ``history``
    (best rule ``best``) in a fit begun at ``began`` (``perf_counter``):
    the time left of ``config.time_limit`` (None: none) and the log that goes on from the phase's
    (:func:`continued`).  Its history follows the phase's.  A fit with no time left, or whose loop's first master
    the time limit stopped (``MasterSolveError`` once the time is up; the error itself otherwise), returns the
    phase's rule with ``lower = 0`` and status ``"time_limit"`` (:func:`phase_result`)."""
    seconds = time.perf_counter() - began
    remaining = None if config.time_limit is None else config.time_limit - seconds
    if remaining is not None and remaining <= 0:
        return phase_result(best, history, Status.TIME_LIMIT, config)
    try:
        result = yield from loop(remaining, continued(log, history, seconds, lambda0))
    except MasterSolveError:
        if config.time_limit is None or time.perf_counter() - began < config.time_limit:
            raise
        return phase_result(best, history, Status.TIME_LIMIT, config)
    return replace(result, history=history + result.history, columns=tuple(COLUMNS))


def solve(problem, config=None, *, start=None, log=None, callback=None, certify=True):
    """Run MRC-FOM on ``problem``: :func:`steps` to its end, each iteration (the phase's records, then the loop's
    states) shown to ``callback`` (if given), whose true return value stops the fit
    (:func:`~mrc_pyomo.methods.result.finish`)."""
    return finish(steps(problem, config, start=start, log=log, certify=certify), callback)


def steps(problem, config=None, *, start=None, log=None, certify=True):
    """MRC-FOM on ``problem``, a generator of its iterations (:mod:`mrc_pyomo.methods.result`): the first-order
    :func:`phase` (its stall tolerance :data:`PHASE_TOLERANCE`,
    or :data:`STALL_TOLERANCE` without ``certify``); then, with ``certify`` and time left, MRC-CCG from the
    master of its active rows (:func:`certificate_master`, module docstring) with the time left,
    ``config.max_iter`` masters at most.

    Returns a :class:`~mrc_pyomo.methods.result.FitResult`: the best rule of both phases, its exact ``R`` as
    ``upper``, the loop's ``lower`` (0 without it) and status (``"converged"`` only when the certified gap is at
    most ``max(eps_1, GAP_FLOOR)``), the last master.  ``history`` (columns :data:`COLUMNS`): the phase's
    records, then the loop's, numbered and timed on.  ``start`` is not used.  A fit whose time limit is reached
    in the phase, while the certificate's first master is built or in its first solve returns the phase's rule
    with ``lower = 0`` and status ``"time_limit"``.
    """
    config = CCGConfig() if config is None else config
    began = time.perf_counter()
    best, history, status = yield from phase_steps(problem, config, log=log,
                                                   tolerance=PHASE_TOLERANCE if certify else STALL_TOLERANCE)
    if not certify or status in (Status.CALLBACK, Status.TIME_LIMIT):
        return phase_result(best, history, status or Status.MAX_ITER, config)
    # the certificate: constraint generation from the master of the rows the first-order point makes active
    master = certificate_master(problem, forward(problem.data, best.mu), config)
    return (yield from after_phase(lambda remaining, log: ccg.steps(
        problem, replace(config, regime="n", time_limit=remaining),
        start=Start(master=master, candidates=(best.mu,), keep=KEEP_SEED), log=log),
        best, history, began, config, log, problem.lambda0))
