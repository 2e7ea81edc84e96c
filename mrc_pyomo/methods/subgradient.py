"""MRC-SUB: the accelerated subgradient method of the MRC literature (paper's baseline [MazRomGrun:23]).

It minimises ``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` (eq. 3) directly, with Nesterov's
extrapolation for non-smooth problems (Tao et al., 2019), as MRCpy's ``nesterov_optimization_mrc``::

    y_k     = w_k + theta_k (1/theta_{k-1} - 1) (w_k - w_{k-1})
    g_k     = lambda * sign(y_k) - tau + (1/|C*|) sum_{y in C*} e_y (kron) Psi(x_{i*})
    w_{k+1} = y_k - (k + 1)^{-3/2} g_k,      theta_{k+1} = 2 / (k + 1)

where ``(i*, C*)`` attains ``varphi(y_k)`` (the most violated row).  Each iteration is one full oracle pass,
``O(n nnz(Psi) K)``; the best point is returned, and no LP is solved.  The uniform average of the rows met,
restarted at every power of two (the early rows are poor points'), is a weight vector in the simplex whose
Lagrangian bound (:mod:`mrc_pyomo.oracles.certificate`) certifies a lower bound on ``R*``; the best is kept.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..data import InMemorySource
from ..oracles.certificate import lagrangian_bound
from ..oracles.primal import class_scores, most_violated_subsets, risk
from ..oracles.rounding import gamma
from ..oracles.rows import right_hand_sides
from .deadline import deadline_of
from .registry import Method, register_method
from .result import FitResult, Start, Status, reported, status_of

HISTORY_COLUMNS = ["iteration", "lambda0", "R_mu", "lower", "upper", "seconds_elapsed"]
#: the iteration log shows every this many steps
LOG_EVERY = 100


@dataclass(frozen=True)
class SubgradientConfig:
    """The settings of MRC-SUB: ``eps_1``, the certified gap at which it stops, and ``max_iter`` steps at most
    (MRCpy's default, the paper's baseline).  It works on the whole problem at once (``regime == "full"``)."""

    eps_1: float = 1e-3
    max_iter: int = 10_000
    regime = "full"


def configure(settings, problem):
    """The :class:`SubgradientConfig` of the estimator's :class:`~mrc_pyomo.estimator.parameters.Settings`."""
    return SubgradientConfig(eps_1=settings.eps_1, max_iter=SubgradientConfig.max_iter if settings.max_iter is None
                             else settings.max_iter)


def log_line(record):
    """A step's line in the iteration log, every :data:`LOG_EVERY` steps."""
    if record["iteration"] % LOG_EVERY == 0:
        return (f"{record['iteration']:7d} R(y_k) = {record['R_mu']:.8f}  certified interval [{record['lower']:.8f}, "
                f"{record['upper']:.8f}]  {record['seconds_elapsed']:8.1f} s")
    return None


def _risk_and_subgradient_row(Psi, mu, tau, lam):
    psi, subsets = most_violated_subsets(class_scores(Psi, mu))
    i = int(np.argmax(psi))
    return risk(mu, psi[i], tau, lam), i, subsets[i]


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """MRC-SUB on ``problem`` (its data in memory: thousands of passes), a generator of its iterations' records,
    until ``config.max_iter``, the ``deadline``, a certified gap at most ``max(config.eps_1, GAP_FLOOR)`` or a
    stop sent; of ``start`` only ``iterations_before`` is used.  Returns a
    :class:`~mrc_pyomo.methods.result.FitResult` (no master; ``objective = upper = R(mu)``) whose records (keys
    :data:`HISTORY_COLUMNS`) hold the exact ``R`` at the extrapolated point and the certified interval so far.
    """
    config, deadline = SubgradientConfig() if config is None else config, deadline_of(deadline)
    if not isinstance(problem.data, InMemorySource):
        raise ValueError("method='subgradient' takes thousands of passes over the data: it needs the data in memory "
                         "(a NumPy array or a SciPy sparse matrix), not a Dask array")
    Psi, tau, lam = problem.data.array, problem.tau, problem.lam
    max_iter = config.max_iter
    w = np.zeros_like(tau)
    w_prev = np.zeros_like(tau)
    theta, theta_prev = 1.0, 1.0
    best_mu = w.copy()
    best, _, _ = _risk_and_subgradient_row(Psi, w, tau, lam)
    lower = 0.0
    rows_g, rows_minus_b, rows_count = np.zeros_like(tau), 0.0, 0
    # each column's largest |Psi_ij|: the average of the rows met is off by at most gamma(count + K + 2) times it
    peaks = np.asarray(abs(Psi).max(axis=0).todense() if sp.issparse(Psi) else np.abs(Psi).max(axis=0)).ravel()
    history, stopped, before = [], Status.MAX_ITER, (start or Start()).iterations_before
    for k in range(1, max_iter + 1):
        y = w + theta * (1.0 / theta_prev - 1.0) * (w - w_prev)
        value, i, subset = _risk_and_subgradient_row(Psi, y, tau, lam)
        if value < best:
            best, best_mu = value, y
        row = Psi[i].toarray().ravel() if sp.issparse(Psi) else Psi[i]
        if k & (k - 1) == 0:  # a power of two: restart the average of the rows met
            rows_g[:], rows_minus_b, rows_count = 0.0, 0.0, 0
        rows_g[subset] += row / subset.sum()
        rows_minus_b -= float(right_hand_sides(subset[None])[0])
        rows_count += 1
        errors = (gamma(rows_count + tau.shape[0] + 2) * peaks[None, :], gamma(rows_count + 2))
        rho = problem.radius(best)
        lower = max(lower, lagrangian_bound(rows_g / rows_count, rows_minus_b / rows_count, tau, lam, rho, errors))
        g = lam * np.sign(y) - tau
        g[subset] += row / subset.sum()
        theta_prev, theta = theta, 2.0 / (k + 1)
        w_prev, w = w, y - g / (k + 1) ** 1.5
        history.append({"iteration": before + k, "lambda0": problem.lambda0, "R_mu": value, "lower": lower,
                        "upper": best, "seconds_elapsed": deadline.elapsed()})
        stopped = (yield from reported(history[-1], log, deadline)) or Status.MAX_ITER
        if stopped != Status.MAX_ITER or status_of(lower, best, config.eps_1) == Status.CONVERGED:
            break
    value, _, _ = _risk_and_subgradient_row(Psi, w, tau, lam)
    if value < best:
        best, best_mu = value, w
        history[-1] = {**history[-1], "upper": best}  # the last step's point is part of the last iteration
    status = status_of(lower, best, config.eps_1, stopped)
    return FitResult(master=None, mu=best_mu, objective=best, lower=lower, upper=best, status=status,
                     history=history, columns=tuple(HISTORY_COLUMNS))


METHOD = register_method(Method(
    name="subgradient", title="MRC-SUB", configure=configure, steps=steps,
    summary="MRC-SUB, the accelerated subgradient method of the paper's comparisons", columns=tuple(HISTORY_COLUMNS),
    masters=False, reduces=False, log_line=log_line))
