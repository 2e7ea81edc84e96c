"""Regularisation continuation: the MRC LP (eq. 4) solved along a decreasing sequence of ``lambda0`` values,
each stage warm-started from the one before (the pathwise warm starts of glmnet and of homotopy methods for
the lasso).

``lambda = lambda0 * s`` (eq. 2, ``s`` the standard deviations of ``Phi``) enters the LP only through the costs
of ``mu1`` and ``mu2``: ``-(tau - lambda)`` and ``tau + lambda``.  So the final master ``P_{I,J}`` of one stage
is a master of the next, with new costs: its rows and features are kept (with the centroid rows put back), and
its first solve, which has no basis to start from, is made by the interior point method on the built-in HiGHS
backend (:meth:`~mrc_pyomo.master.RestrictedMaster.with_costs`, which states the measurements).  The problem at each
``lambda0`` is the same prepared problem (:meth:`~mrc_pyomo.problem.MRCProblem.at`): no new pass over the data.  A
larger ``lambda0`` makes a better posed LP (a sparser ``mu``, fewer active rows), which MRC-CCG solves in few masters;
its final master then holds most of the rows the next stage needs.

Every stage's rule is a candidate for the rules of the later stages: each is evaluated exactly (``R`` at the
later stage's ``lambda``) before that stage's first master, so the rule returned at the last ``lambda0`` is at
least as good there as any rule seen on the way, and a fit stopped by its time limit in an earlier stage
returns the best of them, with a lower bound from the last master's duals (the Lagrangian bound of
:mod:`mrc_pyomo.oracles.certificate` holds for any weights, whatever ``lambda`` they were computed at).

:func:`path_steps` (:func:`solve_path`) is the core of :func:`mrc_pyomo.mrc_path` (a sequence the user gives) and
of every MRC-CCG fit of :class:`~mrc_pyomo.MRCClassifier` (:func:`steps`: the user's ``lambda0`` alone, or
through the :func:`schedule` of ``continuation=True``).
"""

import time
from dataclasses import replace

import numpy as np

from ..master import MasterSolveError
from ..oracles.certificate import lower_bound
from ..oracles.incumbent import Incumbent
from ..problem.scaling import column_means
from . import ccg
from .result import FitResult, Start, Status, finish

#: each stage's lambda0 is this many times the next one's
FACTOR = 3.0
#: the continuation of a single fit starts at most this many stages above the user's lambda0
MAX_STAGES = 3
#: the certified gap at which a stage before the last stops (the last stops at the user's eps_1)
STAGE_EPS = 1e-2


def zero_rule_lambda0(problem):
    """A ``lambda0`` at and above which ``mu = 0`` is a minimiser of ``R``: the uniform weights on the rows
    ``(i, Y)`` give ``g_yj = mean_i Psi_ij / K``, and 0 is optimal once ``|g_yj - tau_yj| <= lambda0 s_yj`` for
    every feature (the optimality condition at 0, with ``varphi``'s subgradient ``g``).  ``inf`` if a feature
    with ``s_yj = 0`` has ``g_yj != tau_yj``.  One pass over the problem's data."""
    mean = column_means(problem.data) / problem.n_classes
    excess = np.abs(mean[None, :] - problem.tau)
    std = problem.std
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(std > 0, excess / std, np.where(excess > 1e-12, np.inf, 0.0))
    return float(ratio.max())


def schedule(lambda0, zero_rule=np.inf, factor=FACTOR, max_stages=MAX_STAGES):
    """The ``lambda0`` values a single fit passes through, largest first and ``lambda0`` last: up to
    ``max_stages`` values ``lambda0 * factor^k`` below ``zero_rule`` (the stages at or above it have the rule
    ``mu = 0`` and teach nothing).  ``lambda0 = 0`` passes through ``factor^k * 1e-3``."""
    base = lambda0 if lambda0 > 0 else 1e-3 / factor
    stages = [base * factor ** k for k in range(max_stages, 0, -1) if base * factor ** k < zero_rule]
    return stages + [lambda0]


def solve_path(problem, lambda0s, config=None, *, log=None, callback=None, stage_eps=None, candidates=()):
    """:func:`path_steps` run to its end, every master of every stage shown to ``callback`` (if given), whose true
    return value stops the path (:func:`~mrc_pyomo.methods.result.finish`): the list of ``(lambda0, FitResult)``
    of the stages run."""
    return finish(path_steps(problem, lambda0s, config, log=log, stage_eps=stage_eps, candidates=candidates),
                  callback)


def path_steps(problem, lambda0s, config=None, *, log=None, stage_eps=None, candidates=()):
    """Fit the MRC LP of ``problem`` at each ``lambda0`` of the decreasing sequence ``lambda0s`` (module
    docstring), each stage by MRC-CCG (:func:`mrc_pyomo.methods.ccg.steps`) warm-started from the one before: a
    generator of every stage's masters (:mod:`mrc_pyomo.methods.result`; a stop sent ends the path).

    ``config``: the :class:`~mrc_pyomo.methods.ccg.config.CCGConfig` of every stage; its ``time_limit`` bounds all
    stages together and its ``max_iter`` the masters of all stages.  ``stage_eps``: the certified gap at which the
    stages before the last stop (None: ``config.eps_1`` for all).  Each record of a stage's history gains
    ``lambda0``, and ``iteration`` and ``seconds_elapsed`` count from the start of the first stage.  Returns the
    list of ``(lambda0, FitResult)`` of the stages run (a stage the time limit leaves no time for is not run).
    ``candidates``: rules of ``problem`` (e.g. a first-order phase's) that every stage's result may be.
    """
    config = ccg.CCGConfig() if config is None else config
    start = time.perf_counter()
    results, master, offset = [], None, 0
    for position, lambda0 in enumerate(lambda0s):
        last = position == len(lambda0s) - 1
        left = None if config.time_limit is None else config.time_limit - (time.perf_counter() - start)
        if results and ((left is not None and left <= 0) or offset >= config.max_iter):
            break
        stage_problem = problem.at(lambda0)
        eps_1 = config.eps_1 if last or stage_eps is None else max(config.eps_1, stage_eps)
        stage = replace(config, eps_1=eps_1, time_limit=left, max_iter=config.max_iter - offset)

        def stage_log(record, lambda0=lambda0, offset=offset, since=time.perf_counter() - start):
            record["lambda0"] = lambda0
            record["iteration"] += offset
            record["seconds_elapsed"] += since
            if log is not None:
                log(record)

        warm = None
        if master is not None:
            # the previous final master with this stage's costs; the centroid rows it dropped keep it bounded
            warm = master.with_costs(stage_problem.tau, stage_problem.lam)
            warm.add_rows(*ccg.centroid_rows(master.n_samples, problem.n_classes, problem.reduction)[:2])
        stage_candidates = tuple(candidates) + tuple(r.mu for _, r in results)
        solve_times = tuple(record["seconds_solve"] for _, r in results for record in r.history)
        try:
            result = yield from ccg.steps(stage_problem, stage, log=stage_log, start=Start(
                master=warm, candidates=stage_candidates, solve_times=solve_times))
        except MasterSolveError:
            if warm is None:
                raise
            if config.time_limit is not None and time.perf_counter() - start >= config.time_limit:
                break   # the time limit stopped the stage's first master: the stages so far are the result
            # the warm master fails at this lambda (unbounded in a direction the earlier penalty ruled out):
            # this stage starts from the first master instead
            result = yield from ccg.steps(stage_problem, stage, log=stage_log, start=Start(candidates=stage_candidates))
        results.append((lambda0, result))
        master, offset = result.master, offset + len(result.history)
        if result.status == Status.CALLBACK:
            break
    return results


def solve(problem, config=None, *, lambda0s=None, log=None, callback=None, candidates=()):
    """:func:`steps` run to its end, every master shown to ``callback`` (if given), whose true return value stops
    the fit (:func:`~mrc_pyomo.methods.result.finish`)."""
    return finish(steps(problem, config, lambda0s=lambda0s, log=log, candidates=candidates), callback)


def steps(problem, config=None, *, lambda0s=None, log=None, candidates=()):
    """The fit of ``problem`` at its ``lambda0`` through the larger values of ``lambda0s`` (None: none; the
    last must be ``problem.lambda0``), by :func:`path_steps`, the stages before the last stopping at
    :data:`STAGE_EPS`: a generator of the masters (:mod:`mrc_pyomo.methods.result`) that returns a
    :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0`` whose history holds every stage's
    records.  If the last stage was not reached, its rule is the best of the stages' rules at that ``lambda0``,
    its lower bound that of the last master's duals there."""
    config = ccg.CCGConfig() if config is None else config
    lambda0s = [problem.lambda0] if lambda0s is None else list(lambda0s)
    if lambda0s[-1] != problem.lambda0:
        raise ValueError(f"the last stage ({lambda0s[-1]}) must be the problem's lambda0 ({problem.lambda0})")
    stages = yield from path_steps(problem, lambda0s, config, log=log, stage_eps=STAGE_EPS, candidates=candidates)
    history = [record for _, result in stages for record in result.history]
    reached, result = stages[-1]
    if reached == lambda0s[-1]:
        return replace(result, history=history)
    best = Incumbent.best_of(problem.data, list(candidates) + [stage.mu for _, stage in stages], problem.tau,
                             problem.lam, problem.blocked)
    master, lower = result.master, 0.0
    if master is not None and master.solution is not None:
        lower = max(0.0, lower_bound(master.points, *master.certificate_rows(), problem.tau, problem.lam,
                                     rho=best.risk))
    status = result.status if result.status in (Status.CALLBACK, Status.STALLED, Status.SOLVER_ERROR) else (
        Status.TIME_LIMIT if config.time_limit is not None else Status.MAX_ITER)
    return FitResult(master=master, mu=best.mu, objective=np.nan, lower=lower, upper=best.risk, status=status,
                     history=history, columns=result.columns)
