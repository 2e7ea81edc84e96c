"""The path at the core: a prepared problem solved along a decreasing sequence of ``lambda0`` values, each stage
by a registered method (:mod:`mrc_pyomo.methods.registry`) started from the stage before, the pathwise warm
starts of glmnet and of homotopy methods for the lasso.  :func:`mrc_pyomo.mrc_path` is :func:`path_steps`
behind validation; every fit of :class:`~mrc_pyomo.MRCClassifier` is :func:`fit_steps`: its ``lambda0`` alone,
or through the larger values of :func:`schedule` (``continuation=True``), after the first-order phases of its route
(:mod:`mrc_pyomo.methods.route`).

``lambda = lambda0 * s`` (eq. 2, ``s`` the standard deviations of ``Phi``) enters the LP only through the costs
of ``mu1`` and ``mu2``: ``-(tau - lambda)`` and ``tau + lambda``.  So the final master ``P_{I,J}`` of one stage
is a master of the next, with new costs (:func:`mrc_pyomo.methods.ccg.warm_master`: MRC-CCG's warm start, its
first solve by the interior point method on the built-in HiGHS backend).  The problem at each ``lambda0`` is the
same prepared problem (:meth:`~mrc_pyomo.problem.MRCProblem.at`): no new pass over the data.  A larger
``lambda0`` makes a better posed LP (a sparser ``mu``, fewer active rows), which MRC-CCG solves in few masters;
its final master then holds most of the rows the next stage needs.

Every stage's rule is a candidate for the rules of the later stages: each is evaluated exactly (``R`` at the
later stage's ``lambda``) before that stage's first master, so the rule returned at the last ``lambda0`` is at
least as good there as any rule seen on the way, and a fit stopped by its deadline in an earlier stage returns
the best of them, with a lower bound from the last master's duals (the Lagrangian bound of
:mod:`mrc_pyomo.oracles.certificate` holds for any weights, whatever ``lambda`` they were computed at).

**The first-order phases** (``first_order``, :mod:`mrc_pyomo.methods.route`): a fit may start with the phases of
its route, then the stages from the master the last phase made (:mod:`mrc_pyomo.methods.phased`).
"""

from dataclasses import fields, replace

import numpy as np

from ..oracles.certificate import lower_bound
from ..oracles.incumbent import Incumbent
from ..problem.scaling import column_means
from .deadline import deadline_of
from .phased import keeping_rows, phased_steps
from .result import FitResult, Start, Status

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


def stage_config(config, eps_1, used):
    """``config`` for a stage: the certified gap ``eps_1`` and the iterations ``used`` by the stages before taken
    from its ``max_iter``, where it has those settings."""
    names = {f.name for f in fields(config)}
    changes = {"eps_1": eps_1} if "eps_1" in names else {}
    if "max_iter" in names:
        changes["max_iter"] = config.max_iter - used
    return replace(config, **changes)


def path_steps(problem, lambda0s, method, config, *, deadline=None, log=None, stage_eps=None, candidates=(),
               master=None):
    """Fit ``problem`` at each ``lambda0`` of the decreasing sequence ``lambda0s`` (module docstring) by the
    registered ``method`` (:class:`~mrc_pyomo.methods.registry.Method`) with ``config``, each stage started from
    the one before (``Start.previous``, for a method that warm-starts) with the earlier stages' rules and
    ``candidates`` (rules of ``problem``, e.g. a first-order phase's) as candidates: a generator of every stage's
    iterations (:mod:`mrc_pyomo.methods.result`; a stop sent ends the path).

    ``deadline`` bounds all stages together and ``config.max_iter`` the iterations of all stages; ``stage_eps``:
    the certified gap at which the stages before the last stop (None: ``config.eps_1`` for all); ``master``: the
    first stage's first master (None: the method's own).  Each record of
    a stage gains ``lambda0``, and ``iteration`` counts from the start of the first stage.  Returns the list of
    ``(lambda0, FitResult)`` of the stages run (a stage the deadline or ``max_iter`` leaves no room for, or no
    iteration, is not)."""
    deadline = deadline_of(deadline)
    results, used = [], 0
    for position, lambda0 in enumerate(lambda0s):
        if results and (deadline.expired() or used >= getattr(config, "max_iter", np.inf)):
            break
        last = position == len(lambda0s) - 1
        eps_1 = getattr(config, "eps_1", None)
        stage = stage_config(config, eps_1 if last or stage_eps is None else max(eps_1, stage_eps), used)

        def stage_log(record, lambda0=lambda0, offset=used):
            record["lambda0"] = lambda0
            record["iteration"] += offset
            if log is not None:
                log(record)

        start = Start(master=None if results else master, previous=results[-1][1] if results else None,
                      candidates=tuple(candidates) + tuple(result.mu for _, result in results),
                      solve_times=tuple(record["seconds_solve"] for _, result in results for record in result.history
                                        if "seconds_solve" in record))
        result = yield from method.steps(problem.at(lambda0), stage, start=start, deadline=deadline, log=stage_log)
        if results and result.status == Status.TIME_LIMIT and not result.history:
            break   # the deadline left this stage no iteration: it is not reached
        results.append((lambda0, result))
        used += len(result.history)
        if result.status == Status.CALLBACK:
            break
    return results




def at_last_stage(problem, lambda0s, stages, candidates, deadline):
    """The :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0`` of the ``stages`` run, whose history
    holds every stage's records.  If the last stage was not reached, its rule is the best of the stages' rules
    (and ``candidates``) at that ``lambda0``, its lower bound that of the last master's duals there, its status
    what stopped the path."""
    history = [record for _, result in stages for record in result.history]
    reached, result = stages[-1]
    if reached == lambda0s[-1]:
        return replace(result, history=history)
    best = Incumbent.best_of(problem, list(candidates) + [stage.mu for _, stage in stages])
    master, lower = result.master, 0.0
    if master is not None and master.solution is not None:
        lower = max(0.0, lower_bound(master.points, *master.certificate_rows(), problem.tau, problem.lam,
                                     rho=best.risk))
    status = result.status if result.status in (Status.CALLBACK, Status.STALLED, Status.SOLVER_ERROR) else (
        Status.TIME_LIMIT if deadline.expired() else Status.MAX_ITER)
    return FitResult(master=master, mu=best.mu, objective=np.nan, lower=lower, upper=best.risk, status=status,
                     history=history, columns=result.columns)


def fit_steps(problem, lambda0s, method, config, *, deadline=None, log=None, phases=(), candidates=(), master=None):
    """The fit of ``problem`` at its ``lambda0`` by ``method`` through the larger values of ``lambda0s`` (the
    last must be ``problem.lambda0``; the stages before it stop at :data:`STAGE_EPS`), after the first-order
    ``phases`` (a tuple of :class:`~mrc_pyomo.methods.phased.Phase`, each started from the one before:
    :func:`~mrc_pyomo.methods.phased.phased_steps`): a generator of its
    iterations that returns the :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0``
    (:func:`at_last_stage`).  ``master``: the first stage's first master (a phase's), whose rows the stages keep
    (:func:`~mrc_pyomo.methods.phased.keeping_rows`); ``candidates``: rules of ``problem`` the result may be."""
    deadline = deadline_of(deadline)
    lambda0s = list(lambda0s)
    if lambda0s[-1] != problem.lambda0:
        raise ValueError(f"the last stage ({lambda0s[-1]}) must be the problem's lambda0 ({problem.lambda0})")
    if phases:
        return (yield from phased_steps(problem, phases, lambda start, log: fit_steps(
            problem, lambda0s, method, config, deadline=deadline, log=log, candidates=start.candidates,
            master=start.master), config.eps_1, deadline=deadline, log=log, columns=method.columns))
    if master is not None:
        config = keeping_rows(config)
    stages = yield from path_steps(problem, lambda0s, method, config, deadline=deadline, log=log,
                                   stage_eps=STAGE_EPS, candidates=candidates, master=master)
    return at_last_stage(problem, lambda0s, stages, candidates, deadline)
