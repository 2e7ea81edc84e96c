"""The path at the core: a prepared problem solved along a decreasing sequence of ``lambda0`` values, each stage
by a registered method started from the stage before, the pathwise warm starts of glmnet and of homotopy methods
for the lasso.  :func:`mrc_pyomo.mrc_path` is :func:`path_steps` behind validation; every fit of
:class:`~mrc_pyomo.MRCClassifier` is :func:`fit_steps`: its ``lambda0`` alone, or through the larger values of
:func:`schedule` (``continuation=True``), after the first-order phases of its route (:mod:`mrc_pyomo.methods.route`).

``lambda = lambda0 * s`` (eq. 2, ``s`` the standard deviations of ``Phi``) enters the LP only through the costs
of ``mu1`` and ``mu2``, ``-(tau - lambda)`` and ``tau + lambda``: the final master ``P_{I,J}`` of one stage is a
master of the next with new costs (:func:`mrc_pyomo.methods.ccg.warm_master`), and the problem at each
``lambda0`` is the same prepared problem (:meth:`~mrc_pyomo.problem.MRCProblem.at`, no new pass).  A larger
``lambda0`` makes a better posed LP (a sparser ``mu``, fewer active rows), solved in few masters, whose final
master holds most of the rows the next stage needs.  Every stage's rule is a candidate at the later stages: a fit
stopped early returns the best of them, with the last master's Lagrangian bound, which holds for weights computed
at any ``lambda`` (:mod:`mrc_pyomo.oracles.certificate`).

**The first-order phases** (:class:`Phase`; :mod:`mrc_pyomo.methods.first_order`) run each from the
:class:`~mrc_pyomo.methods.result.Outcome` of the one before, then the stages from the master of the rows the
last names active (:func:`certificate_master`), keeping them where its config's ``keep_rows`` says
(:func:`keeping_rows`: MRC-PDHG's support), each master's point joined to the phases' rule by segments
(:func:`with_segments`): the masters' lower end reaches ``R*`` before their points do.  A single fit, a path, a
fold and a warm start are all this runner; records are made with their ``lambda0`` and number
(``Start.iterations_before``), never edited after.
"""

import time
from dataclasses import dataclass, fields, replace

import numpy as np

from ..oracles.certificate import gap_tolerance, lower_bound
from ..oracles.incumbent import Incumbent, improve_on_segments
from ..problem.scaling import column_means
from .ccg.record import IterationState
from .ccg.start import initial_master
from .deadline import deadline_of
from .result import FitResult, Start, Status

#: each stage's lambda0 is this many times the next one's
FACTOR = 3.0
#: the continuation of a single fit starts at most this many stages above the user's lambda0
MAX_STAGES = 3
#: the certified gap at which a stage before the last stops (the last stops at the user's eps_1)
STAGE_EPS = 1e-2


@dataclass(frozen=True)
class Phase:
    """A first-order phase before a fit's loop: the registered ``method`` whose ``iterations`` run, with ``config``."""

    method: object
    config: object


def zero_rule_lambda0(problem):
    """A ``lambda0`` at and above which ``mu = 0`` minimises ``R``: the uniform weights on the rows ``(i, Y)``
    give ``varphi``'s subgradient ``g_yj = mean_i Psi_ij / K``, and 0 is optimal once ``|g_yj - tau_yj| <=
    lambda0 s_yj`` for every feature (``inf`` if one with ``s_yj = 0`` has ``g_yj != tau_yj``).  One pass."""
    mean = column_means(problem.data) / problem.n_classes
    excess = np.abs(mean[None, :] - problem.tau)
    std = problem.std
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(std > 0, excess / std, np.where(excess > 1e-12, np.inf, 0.0))
    return float(ratio.max())


def schedule(lambda0, zero_rule=np.inf, factor=FACTOR, max_stages=MAX_STAGES):
    """The ``lambda0`` values a single fit passes through, largest first, ``lambda0`` last: up to ``max_stages``
    values ``lambda0 * factor^k`` below ``zero_rule`` (at or above it the rule is 0 and teaches nothing);
    ``lambda0 = 0`` passes through ``factor^k * 1e-3``."""
    base = lambda0 if lambda0 > 0 else 1e-3 / factor
    stages = [base * factor ** k for k in range(max_stages, 0, -1) if base * factor ** k < zero_rule]
    return stages + [lambda0]


def stage_config(config, eps_1, used):
    """``config`` at the gap ``eps_1``, its ``max_iter`` less the ``used`` iterations, where it has those settings."""
    names = {f.name for f in fields(config)}
    changes = {"eps_1": eps_1} if "eps_1" in names else {}
    if "max_iter" in names:
        changes["max_iter"] = config.max_iter - used
    return replace(config, **changes)


def keeping_rows(config):
    """``config`` whose loop keeps every row (``row_age`` None), where it has that setting: for a loop from the
    master of a phase whose rows are nearly the final ones (``keep_rows``: MRC-PDHG's support)."""
    return replace(config, row_age=None) if "row_age" in {f.name for f in fields(config)} else config


def path_steps(problem, lambda0s, method, config, *, deadline=None, log=None, stage_eps=None, start=None,
               shared_budget=False):
    """Fit ``problem`` at each ``lambda0`` of the decreasing ``lambda0s`` (module docstring) by the registered
    ``method``, each stage from the one before with the earlier stages' rules as candidates, the first from
    ``start`` (a :class:`~mrc_pyomo.methods.result.Start`): a generator of every stage's iterations.  ``deadline``
    bounds all stages together, ``config.max_iter`` each stage (as scikit-learn's ``LogisticRegressionCV`` applies
    ``max_iter`` to each ``C``), or all stages together with ``shared_budget`` (a single fit's continuation, whose
    ``max_iter`` is the fit's); ``stage_eps``: the gap at which the stages before the last stop (None:
    ``config.eps_1``).  Returns the ``(lambda0, FitResult)`` of the stages reached (with an iteration)."""
    deadline, start = deadline_of(deadline), start or Start()
    results, used = [], 0
    for position, lambda0 in enumerate(lambda0s):
        if results and (deadline.expired() or (shared_budget and used >= getattr(config, "max_iter", np.inf))):
            break
        last = position == len(lambda0s) - 1
        eps_1 = getattr(config, "eps_1", None)
        stage = stage_config(config, eps_1 if last or stage_eps is None else max(eps_1, stage_eps),
                             used if shared_budget else 0)
        stage_start = Start(master=None if results else start.master, previous=results[-1][1] if results else None,
                            candidates=tuple(start.candidates) + tuple(result.mu for _, result in results),
                            solve_times=tuple(record["seconds_solve"] for _, result in results
                                              for record in result.history if "seconds_solve" in record),
                            iterations_before=start.iterations_before + used)
        result = yield from method.steps(problem.at(lambda0), stage, start=stage_start, deadline=deadline, log=log)
        if results and result.status == Status.TIME_LIMIT and not result.history:
            break   # the deadline left this stage no iteration: it is not reached
        results.append((lambda0, result))
        used += len(result.history)
        if result.status == Status.CALLBACK:
            break
    return results


def at_last_stage(problem, lambda0s, stages, candidates, deadline):
    """The :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0`` of the ``stages`` run, its history
    every stage's.  If the last stage was not reached: the best of the stages' rules and ``candidates`` there, the
    last master's duals' bound, and what stopped the path."""
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


def fit_steps(problem, lambda0s, method, config, *, deadline=None, log=None, phases=(), start=None):
    """The fit of ``problem`` by ``method`` through the larger values of ``lambda0s`` (the last must be
    ``problem.lambda0``; the stages before it stop at :data:`STAGE_EPS`), from ``start`` (a warm start's) or
    after the first-order ``phases`` (:class:`Phase`; module docstring): a generator of its iterations that
    returns the :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0``.  A stop sent, the deadline or
    a gap closed by a phase ends the fit with the phases' rule (:func:`phase_result`)."""
    deadline, start = deadline_of(deadline), start or Start()
    lambda0s = list(lambda0s)
    if lambda0s[-1] != problem.lambda0:
        raise ValueError(f"the last stage ({lambda0s[-1]}) must be the problem's lambda0 ({problem.lambda0})")
    if not phases:
        stages = yield from path_steps(problem, lambda0s, method, config, deadline=deadline, log=log,
                                       stage_eps=STAGE_EPS, start=start, shared_budget=True)
        return at_last_stage(problem, lambda0s, stages, start.candidates, deadline)
    found, history, status = None, [], None
    for phase in phases:
        found, records, status = yield from phase.method.iterations(
            problem, phase.config, start=found, deadline=deadline, log=log, iterations_before=len(history))
        history = history + records
        ended = status in (Status.CONVERGED, Status.CALLBACK, Status.TIME_LIMIT) or deadline.expired()
        if ended:
            break
    columns = method.columns
    if ended or found.risk - found.lower <= gap_tolerance(config.eps_1):
        return phase_result(found, history, status or Status.TIME_LIMIT, config.eps_1, columns)
    start = Start(master=certificate_master(problem, found, phases[-1]), candidates=(found.mu,),
                  iterations_before=len(history))
    loop_config = keeping_rows(config) if phases[-1].config.keep_rows else config
    result = yield from with_segments(fit_steps(problem, lambda0s, method, loop_config, deadline=deadline, log=log,
                                                start=start), problem, found, config.eps_1)
    result = replace(result, history=history + result.history, lower=max(result.lower, found.lower),
                     columns=history_columns(history, columns=result.columns))
    if result.upper - result.lower <= gap_tolerance(config.eps_1):
        result = replace(result, status=Status.CONVERGED)
    return result


def certificate_master(problem, found, phase):
    """The first master of the loop after the first-order ``phase`` whose outcome is ``found``
    (:func:`~mrc_pyomo.methods.ccg.start.initial_master`): the rows its method's ``active_rows`` names, each class
    centroid's row of its own label and all features, marked a large change (its first solve cold, by the
    interior point method where the solver has one)."""
    config = phase.config
    master = initial_master(problem, config.certificate, rows=phase.method.active_rows(problem, found, config),
                            own_labels_only=True)
    master.large_change()
    return master


def with_segments(loop, problem, best, eps_1):
    """MRC-CCG's ``loop`` (its generator) passed on, with after each master the best rule on the segments from
    ``best`` (the phases' rule) to the master's point (:func:`~mrc_pyomo.oracles.incumbent.improve_on_segments`)
    while a search takes less time than the master's solve.  Once that rule closes the gap to the loop's lower
    end, the loop stops and its result takes it, "converged".  A stop sent by the caller stays a stop."""
    searching, closed = True, False
    try:
        item = next(loop)
        while True:
            stop = yield item
            if not stop and searching and isinstance(item, IterationState):
                started = time.perf_counter()
                best = improve_on_segments(problem, best, item.mu)
                searching = time.perf_counter() - started < item.record.get("seconds_solve", 0.0)
                closed = stop = best.risk - item.record["lower"] <= gap_tolerance(eps_1)
            item = loop.send(bool(stop))
    except StopIteration as end:
        result = end.value
    if best.risk < result.upper:
        result = replace(result, mu=best.mu, upper=best.risk)
    return replace(result, status=Status.CONVERGED) if closed else result


def history_columns(*histories, columns=()):
    """The columns of a history of several methods' records: ``columns``, then every other key, in the order met."""
    found = dict.fromkeys(columns)
    for history in histories:
        for record in history:
            found.update(dict.fromkeys(record))
    return tuple(found)


def phase_result(found, history, status, eps_1, columns=()):
    """The :class:`~mrc_pyomo.methods.result.FitResult` of a fit that ends with its first-order phases' outcome
    ``found``: no master, ``"converged"`` when the gap is within ``eps_1``'s tolerance, else ``status``; its
    history's columns ``columns``, then the phases'."""
    status = Status.CONVERGED if found.risk - found.lower <= gap_tolerance(eps_1) else status
    return FitResult(master=None, mu=found.mu, objective=np.nan, lower=found.lower, upper=found.risk, status=status,
                     history=history, columns=history_columns(history, columns=columns))
