"""The runner of every fit: a :class:`~mrc_pyomo.methods.plan.Plan` run on a prepared problem (:func:`fit_steps`),
in three plain steps: its first-order phases, the start of its certificate, and its stages, the path at the core:
the problem solved along a decreasing sequence of ``lambda0`` values, each stage by the plan's method started from
the stage before (:func:`path_steps`), the pathwise warm starts of glmnet and of homotopy methods for the lasso.  A
single fit of :class:`~mrc_pyomo.MRCClassifier`, :func:`mrc_pyomo.mrc_path`, a fold of
:class:`~mrc_pyomo.MRCClassifierCV` and a warm start are all this runner; what runs is the plan's
(:mod:`mrc_pyomo.methods.plan`).

``lambda = lambda0 * s`` (eq. 2, ``s`` the standard deviations of ``Phi``) enters the LP only through the costs
of ``mu1`` and ``mu2``, ``-(tau - lambda)`` and ``tau + lambda``: the final master ``P_{I,J}`` of one stage is a
master of the next with new costs (:func:`mrc_pyomo.methods.ccg.warm_master`), and the problem at each
``lambda0`` is the same prepared problem (:meth:`~mrc_pyomo.problem.MRCProblem.at`, no new pass).  Every stage's
rule is a candidate at the later stages: a fit stopped early returns the best of them, with the last master's
Lagrangian bound, which holds for weights computed at any ``lambda`` (:mod:`mrc_pyomo.oracles.certificate`).

**After first-order phases** (:mod:`mrc_pyomo.methods.first_order`), each run from the
:class:`~mrc_pyomo.methods.result.Outcome` of the one before, the stages start from the master of the rows the last
names active (:func:`certificate_master`), keeping them where its config's ``keep_rows`` says (MRC-PDHG's
support), each master's point joined to the phases' rule by segments (:func:`with_segments`): the masters' lower
end reaches ``R*`` before their points do.  **With a give-up time** (:attr:`~mrc_pyomo.methods.plan.Plan.give_up`),
stages still far from certifying by then (:func:`giving_up`) hand over to the plan's fallback phases, which run to
the deadline from the stages' rule.  Records are made with their ``lambda0`` and number
(``Start.iterations_before``), never edited after.
"""

import time
from dataclasses import dataclass, fields, replace

import numpy as np

from ..oracles.certificate import lower_bound
from ..oracles.incumbent import Incumbent, improve_on_segments
from .ccg.config import certificate_options
from .ccg.record import IterationState
from .ccg.start import initial_master
from .deadline import deadline_of
from .result import FitResult, Outcome, Start, Status, status_of


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
                                     rho=problem.radius(best.risk)))
    status = result.status if result.status in (Status.CALLBACK, Status.STALLED, Status.SOLVER_ERROR) else (
        Status.TIME_LIMIT if deadline.expired() else Status.MAX_ITER)
    return FitResult(master=master, mu=best.mu, objective=np.nan, lower=lower, upper=best.risk, status=status,
                     history=history, columns=result.columns)


@dataclass
class Found:
    """What a fit's phases leave: their ``outcome`` (None before any), ``history`` and ``status`` (None: they
    handed over)."""

    outcome: object = None
    history: list = None
    status: object = None

    def __post_init__(self):
        self.history = [] if self.history is None else self.history

    def ended(self, deadline, eps_1):
        """Whether the fit ends with the phases: a stop sent, the deadline, or their own gap closed."""
        return (self.status in (Status.CONVERGED, Status.CALLBACK, Status.TIME_LIMIT) or deadline.expired()
                or status_of(self.outcome.lower, self.outcome.risk, eps_1) == Status.CONVERGED)


def run_phases(problem, phases, found, deadline, log):
    """The first-order ``phases`` (:class:`~mrc_pyomo.methods.plan.Phase`), each from the outcome of the one before,
    the first from ``found``'s (a :class:`Found`), its records numbered on: a generator of their iterations that
    returns the :class:`Found` after them (they stop at a stop sent, the deadline or a closed gap)."""
    for phase in phases:
        outcome, records, status = yield from phase.method.iterations(
            problem, phase.config, start=found.outcome, deadline=deadline, log=log,
            iterations_before=len(found.history))
        found = Found(outcome, found.history + records, status)
        if found.ended(deadline, phase.config.eps_1):
            break
    return found


def fit_steps(problem, plan, *, deadline=None, log=None):
    """The fit of ``problem`` by ``plan`` (a :class:`~mrc_pyomo.methods.plan.Plan`; its last stage at
    ``problem.lambda0``): a generator of its iterations that returns the
    :class:`~mrc_pyomo.methods.result.FitResult` at ``problem.lambda0``.  Three steps: the **phases**, whose rule
    ends the fit if a stop was sent, the deadline passed, their gap closed or no method follows
    (:func:`phase_result`); the **start** of the stages (the plan's, or after phases the master of the rows the last
    names active); the **stages** (:func:`path_steps`, joined by segments to the phases' rule), given up after the
    plan's give-up time while far from certifying (:func:`giving_up`), the plan's fallback phases then taking the rest
    of the time from the stages' rule."""
    deadline = deadline_of(deadline)
    lambda0s = list(plan.stages)
    if lambda0s[-1] != problem.lambda0:
        raise ValueError(f"the last stage ({lambda0s[-1]}) must be the problem's lambda0 ({problem.lambda0})")
    found = yield from run_phases(problem, plan.phases, Found(), deadline, log)
    columns = plan.method.columns if plan.method is not None else plan.phases[-1].method.columns
    if plan.phases and (plan.method is None or found.ended(deadline, plan.eps_1)):
        stopped = found.status or (Status.TIME_LIMIT if deadline.expired() else Status.MAX_ITER)
        return phase_result(found.outcome, found.history, stopped, plan.eps_1, columns)
    start, config = plan.start or Start(), plan.config
    if plan.phases:
        start = Start(master=certificate_master(problem.at(lambda0s[0]), found.outcome, plan.phases[-1]),
                      candidates=(found.outcome.mu,), iterations_before=len(found.history))
        config = keeping_rows(config) if plan.keeps_rows else config
    stages = path_steps(problem, lambda0s, plan.method, config, deadline=deadline, log=log,
                        stage_eps=plan.stage_eps, start=start, shared_budget=plan.shared_budget)
    if plan.phases:
        stages = with_segments(stages, problem, Incumbent(found.outcome.mu, found.outcome.risk, found.outcome.nu),
                               plan.eps_1)
    gave_up = False
    if plan.give_up is not None:
        block = min(getattr(config, "n_max", 0), problem.n_samples)
        stages, gave_up = yield from giving_up(stages, plan.give_up, block, deadline)
    else:
        stages = yield from stages
    result = at_last_stage(problem, lambda0s, stages, start.candidates, deadline)
    if plan.phases:
        result = replace(result, history=found.history + result.history, lower=max(result.lower, found.outcome.lower),
                         columns=history_columns(found.history, columns=result.columns))
    stopped = Status.TIME_LIMIT if gave_up else result.status
    result = replace(result, status=status_of(result.lower, result.upper, plan.eps_1, stopped))
    if gave_up and result.status == Status.TIME_LIMIT and not deadline.expired():
        result = yield from fall_back(problem, plan, result, deadline, log)
    return result


def giving_up(stages, give_up, block, deadline):
    """The ``stages`` (a generator of the loop's iterations) passed on until the first master checked ``give_up``
    seconds into the fit or later whose check still picked a full ``block`` of samples (``n_max`` violated samples, or
    every sample where there are fewer: the loop's active set still grows at a block a master, far from certifying,
    where fewer name its last rows): there the stages are stopped.  Returns ``(stages, gave_up)``: the stages'
    ``(lambda0, FitResult)`` and whether they were stopped so.  A stop sent by the caller stays the caller's."""
    gave_up = False
    try:
        item = next(stages)
        while True:
            stop = yield item
            if (not stop and isinstance(item, IterationState) and deadline.elapsed() >= give_up
                    and len(item.check.new_samples) >= block):
                stop = gave_up = True
            item = stages.send(bool(stop))
    except StopIteration as end:
        return end.value, gave_up


def fall_back(problem, plan, result, deadline, log):
    """The plan's fallback phases from the rule of the stages' ``result`` (they gave up), to the deadline or their
    stall (then ``"max_iter"``, as phases alone): the better rule of the two, the better lower end, every record."""
    rule = Incumbent.evaluate(problem, result.mu)
    start = Found(Outcome(rule.mu, rule.risk, rule.nu), result.history)
    found = yield from run_phases(problem, plan.fallback, start, deadline, log)
    outcome = found.outcome
    best = (outcome.mu, outcome.risk) if outcome.risk < result.upper else (result.mu, result.upper)
    lower = max(result.lower, outcome.lower)
    stopped = found.status or (Status.TIME_LIMIT if deadline.expired() else Status.MAX_ITER)   # as phases alone
    status = status_of(lower, best[1], plan.eps_1, stopped)
    return replace(result, mu=best[0], upper=best[1], lower=lower, status=status, history=found.history,
                   columns=history_columns(found.history, columns=result.columns))


def certificate_master(problem, found, phase):
    """The first master of the loop after the first-order ``phase`` whose outcome is ``found``
    (:func:`~mrc_pyomo.methods.ccg.start.initial_master`), with ``problem``'s costs (those of the first stage): the
    rows its method's ``active_rows`` names, each class centroid's row of its own label and all features, marked a
    large change (its first solve cold, by the interior point method where the solver has one), solved with
    :func:`~mrc_pyomo.methods.ccg.config.certificate_options`."""
    config = phase.config
    certificate = replace(config.certificate, solver_options=certificate_options(config.certificate))
    master = initial_master(problem, certificate, rows=phase.method.active_rows(problem, found, config),
                            own_labels_only=True)
    master.large_change()
    return master


def with_segments(loop, problem, best, eps_1):
    """The ``loop`` (a generator of stages' iterations) passed on, with after each master the best rule on the
    segments from ``best`` (the phases' rule) to the master's point
    (:func:`~mrc_pyomo.oracles.incumbent.improve_on_segments`) while a search takes less time than the master's solve.
    Once that rule closes the gap to the loop's lower end, the loop stops; the result (the stages') takes that rule
    where it is better, and the fit's status is decided from its interval (:func:`fit_steps`).  A stop sent by the
    caller stays a stop."""
    searching, closed = True, False
    try:
        item = next(loop)
        while True:
            stop = yield item
            if not stop and searching and isinstance(item, IterationState):
                started = time.perf_counter()
                best = improve_on_segments(problem, best, item.mu, eps_1)
                searching = time.perf_counter() - started < item.record.get("seconds_solve", 0.0)
                closed = stop = status_of(item.record["lower"], best.risk, eps_1) == Status.CONVERGED
            item = loop.send(bool(stop))
    except StopIteration as end:
        stages = end.value
    lambda0, result = stages[-1]
    if best.risk < result.upper:
        result = replace(result, mu=best.mu, upper=best.risk)
    if closed:
        result = replace(result, status=Status.CONVERGED)
    return stages[:-1] + [(lambda0, result)]


def history_columns(*histories, columns=()):
    """The columns of a history of several methods' records: ``columns``, then every other key, in the order met."""
    found = dict.fromkeys(columns)
    for history in histories:
        for record in history:
            found.update(dict.fromkeys(record))
    return tuple(found)


def phase_result(found, history, status, eps_1, columns=()):
    """The :class:`~mrc_pyomo.methods.result.FitResult` of a fit that ends with its first-order phases' outcome
    ``found``: no master, the status of its interval (:func:`~mrc_pyomo.methods.result.status_of`) and ``status``;
    its history's columns ``columns``, then the phases'."""
    return FitResult(master=None, mu=found.mu, objective=np.nan, lower=found.lower, upper=found.risk,
                     status=status_of(found.lower, found.risk, eps_1, status), history=history,
                     columns=history_columns(history, columns=columns))
