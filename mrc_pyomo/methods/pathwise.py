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

**The first-order phases** (``first_order``, :mod:`mrc_pyomo.methods.route`; ``method="fom"`` and
``method="pdhg"``, :mod:`mrc_pyomo.methods.first_order`): a fit may start with first-order phases
(:class:`Phase`: a registered method's ``iterations`` with its config), each from the
:class:`~mrc_pyomo.methods.result.Outcome` of the one before (FISTA's rule and its smoothed weights, where MRC-PDHG's
iterations start), then the stages from the master of the rows the last phase names active
(:func:`certificate_master`), which they keep (:func:`keeping_rows`): such a master holds nearly the final rows,
and a row removed there comes back in a later master.  Each master's point is joined to the phases' rule by a few
segments (:func:`with_segments`): the masters' lower end reaches ``R*`` before their points do.  The fit's rule is
the best of both, its lower end the better of the phases' bound and the loop's.

A single fit, a path, a fold of the cross-validation (a path) and a warm start (a single fit from a
:class:`~mrc_pyomo.methods.result.Start`) are all this runner, with another list of ``lambda0`` values, of phases and
another start.  Records are made with their ``lambda0`` and their number in the fit (``Start.iterations_before``):
nothing here edits a record after it was made.
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
    """A first-order phase before a fit's loop: the registered ``method`` whose ``iterations`` it runs, and their
    ``config``."""

    method: object
    config: object


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


def keeping_rows(config):
    """``config`` whose loop keeps every row of its master (``row_age`` None), where it has that setting: for a
    loop from a master that a first-order phase made, which holds nearly the final rows already."""
    return replace(config, row_age=None) if "row_age" in {f.name for f in fields(config)} else config


def path_steps(problem, lambda0s, method, config, *, deadline=None, log=None, stage_eps=None, start=None):
    """Fit ``problem`` at each ``lambda0`` of the decreasing sequence ``lambda0s`` (module docstring) by the
    registered ``method`` (:class:`~mrc_pyomo.methods.registry.Method`) with ``config``, each stage started from
    the one before (``Start.previous``, for a method that warm-starts) with the earlier stages' rules as
    candidates, the first from ``start`` (a :class:`~mrc_pyomo.methods.result.Start`: its master, its candidates,
    rules of ``problem``, which every stage takes, and the iterations before it): a generator of every stage's
    iterations (:mod:`mrc_pyomo.methods.result`; a stop sent ends the path).

    ``deadline`` bounds all stages together and ``config.max_iter`` the iterations of all stages; ``stage_eps``:
    the certified gap at which the stages before the last stop (None: ``config.eps_1`` for all).  Each stage's
    records carry its ``lambda0`` and number on from the stage before.  Returns the list of ``(lambda0,
    FitResult)`` of the stages run (a stage the deadline or ``max_iter`` leaves no room for, or no iteration, is
    not)."""
    deadline, start = deadline_of(deadline), start or Start()
    results, used = [], 0
    for position, lambda0 in enumerate(lambda0s):
        if results and (deadline.expired() or used >= getattr(config, "max_iter", np.inf)):
            break
        last = position == len(lambda0s) - 1
        eps_1 = getattr(config, "eps_1", None)
        stage = stage_config(config, eps_1 if last or stage_eps is None else max(eps_1, stage_eps), used)
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


def fit_steps(problem, lambda0s, method, config, *, deadline=None, log=None, phases=(), start=None):
    """The fit of ``problem`` at its ``lambda0`` by ``method`` through the larger values of ``lambda0s`` (the
    last must be ``problem.lambda0``; the stages before it stop at :data:`STAGE_EPS`), from ``start`` (a
    :class:`~mrc_pyomo.methods.result.Start`: a warm start's master and rules) or after the first-order
    ``phases`` (a tuple of :class:`Phase`; module docstring): a generator of its iterations that returns the
    :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0`` (:func:`at_last_stage`).

    The phases run one after the other, each from the :class:`~mrc_pyomo.methods.result.Outcome` of the one
    before.  A phase's stop sent, the deadline, or a gap closed by a phase's own bound (MRC-PDHG's) ends the fit
    with the phases' rule (:func:`phase_result`); otherwise the stages run from the master of the last phase's
    active rows (:func:`certificate_master`), keeping its rows, the phases' rule a candidate, with after each
    master the best rule on the segments from it to the master's point (:func:`with_segments`); the result's
    lower end is the better of the phases' bound and the loop's."""
    deadline, start = deadline_of(deadline), start or Start()
    lambda0s = list(lambda0s)
    if lambda0s[-1] != problem.lambda0:
        raise ValueError(f"the last stage ({lambda0s[-1]}) must be the problem's lambda0 ({problem.lambda0})")
    if not phases:
        stages = yield from path_steps(problem, lambda0s, method, config, deadline=deadline, log=log,
                                       stage_eps=STAGE_EPS, start=start)
        return at_last_stage(problem, lambda0s, stages, start.candidates, deadline)
    found, history, status = None, [], None
    for phase in phases:
        found, records, status = yield from phase.method.iterations(
            problem, phase.config, start=found, deadline=deadline, log=log, iterations_before=len(history))
        history = history + records
        if status in (Status.CONVERGED, Status.CALLBACK, Status.TIME_LIMIT) or deadline.expired():
            break
    columns = method.columns
    if status in (Status.CONVERGED, Status.CALLBACK, Status.TIME_LIMIT) or deadline.expired() or (
            found.risk - found.lower <= gap_tolerance(config.eps_1)):
        return phase_result(found, history, status or Status.TIME_LIMIT, config.eps_1, columns)
    start = Start(master=certificate_master(problem, found, phases[-1]), candidates=(found.mu,),
                  iterations_before=len(history))
    result = yield from with_segments(fit_steps(problem, lambda0s, method, keeping_rows(config), deadline=deadline,
                                                log=log, start=start), problem, found, config.eps_1)
    result = replace(result, history=history + result.history, lower=max(result.lower, found.lower),
                     columns=history_columns(history, columns=result.columns))
    if result.upper - result.lower <= gap_tolerance(config.eps_1):
        result = replace(result, status=Status.CONVERGED)
    return result


def certificate_master(problem, found, phase):
    """The first master of the loop after the first-order ``phase`` (a :class:`Phase`) whose outcome is ``found``:
    the rows its method names active there (its registry entry's ``active_rows(problem, found, config)``: the
    supports of MRC-PDHG's dual and primal, the nearly active rows of FISTA's rule), each class centroid's row of
    its own label and all features, for the solver of its config's ``certificate`` (the one builder,
    :func:`~mrc_pyomo.methods.ccg.start.initial_master`), marked a large change: its first solve is cold, by the
    interior point method where the solver has one."""
    config = phase.config
    master = initial_master(problem, config.certificate, rows=phase.method.active_rows(problem, found, config),
                            own_labels_only=True)
    master.large_change()
    return master


def with_segments(loop, problem, best, eps_1):
    """The steps of MRC-CCG's ``loop`` (its generator), passed on, with after each master the best rule on the
    segments from the incumbent ``best`` (the phases' rule) to the master's point
    (:func:`~mrc_pyomo.oracles.incumbent.improve_on_segments`: ``R`` is convex along each, a few dozen passes)
    while such a search took less time than the master's solve.  The masters' lower end reaches ``R*`` before
    their points do: once the rule found closes the gap to the loop's lower end, the loop is stopped and its
    result takes that rule, "converged".  A stop sent by the caller stays a stop."""
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
    """The columns of a history made of several methods' records: ``columns`` first, then every other key of the
    records, in the order met."""
    found = dict.fromkeys(columns)
    for history in histories:
        for record in history:
            found.update(dict.fromkeys(record))
    return tuple(found)


def phase_result(found, history, status, eps_1, columns=()):
    """The :class:`~mrc_pyomo.methods.result.FitResult` of a fit that ends with its first-order phases: their best
    rule and bound ``found`` (an :class:`~mrc_pyomo.methods.result.Outcome`), ``upper = R(mu)``, no master,
    ``"converged"`` when the gap is within the tolerance of ``eps_1``, else ``status``; its history's columns
    ``columns``, then the phases'."""
    status = Status.CONVERGED if found.risk - found.lower <= gap_tolerance(eps_1) else status
    return FitResult(master=None, mu=found.mu, objective=np.nan, lower=found.lower, upper=found.risk, status=status,
                     history=history, columns=history_columns(history, columns=columns))
