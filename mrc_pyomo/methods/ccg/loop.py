"""MRC-CCG: the constraint and column generation loop (paper, Algorithm 1), with a certified stopping rule.

Each iteration ``k`` solves the restricted master ``P_{I,J}`` (eq. 7) for ``(mu^k, nu^k)``, its dual (eq. 8) for
``alpha^k`` and the value ``R^k``, then checks that solution (:mod:`~mrc_pyomo.methods.ccg.check`).

The loop keeps the certified interval ``[lower, upper]``: ``upper = min_k R(mu^k)`` (``R(0) = 1 - 1/K`` before the first
master), the value of the best rule found, which is the result, and ``lower`` the largest lower bound found (at least
0).  It stops as ``"converged"`` only when ``upper - lower <= max(eps_1, GAP_FLOOR)``, in both regimes.  While the gap
is open it adds the ``n_max`` most violated rows and, in the regime ``"nm"``, the ``m_max`` features whose dual
violation exceeds ``eps_2`` or, when there are none, those of largest relative violation
``|g_j - tau_j| / lambda_j > 1`` (the quantity the certificate pays for), which closes Theorem 2's ``eps_2 ||mu*||_1``
too.  Its other stops are :func:`stop_reason`'s.  A loop stopped with the gap open returns the best rule on a few
segments (``R`` is convex along each, :func:`improve_on_segments`).

Two regimes (Section 3):

* ``"n"`` (many samples, few features): all features in ``J``, FEAT gives only the certificate; CONSTR adds rows and
  removes the over-satisfied ones (negative violation, zero dual; without regularisation only after three such masters
  in a row, :func:`~mrc_pyomo.methods.ccg.config.row_age`).  ``R^k`` is non-decreasing (Theorem 1).
* ``"nm"`` (many samples and features): rows and features are added, nothing is removed.  The first iterations run FEAT
  alone on the initial rows (as in the paper's initialisation) until no feature is violated or
  :data:`INIT_FEATURE_ROUNDS` rounds have passed.

The loop only sequences (as PyROS's and Coluna's do) named steps, :func:`solve_step`, :func:`check_step`,
:func:`stop_reason` and :func:`update_step`, written against the master's interface
(:class:`~mrc_pyomo.master.interface.Master`) and its neighbours in :mod:`~mrc_pyomo.methods.ccg`."""

from dataclasses import dataclass, field, replace

import numpy as np

from ...master import MasterSolveError, MasterTimeLimit
from ...master.solution import Changes
from ...oracles.incumbent import Incumbent, improve_on_segments
from ..deadline import deadline_of
from ..result import FitResult, Start, Status, status_of
from .check import check_solution
from .config import INIT_FEATURE_ROUNDS, CCGConfig, simplex_budget
from ..history import HISTORY_COLUMNS, failure_record, iteration_record
from .record import IterationState
from .row_history import RowHistory
from .start import as_added, first_master


@dataclass
class Loop:
    """What the loop carries from one master to the next: the ``master``, the :class:`Changes` that made it, the
    incumbent ``best``, the best ``lower`` bound, its ``rows``' memory, the kind of ``first`` master, the last
    ``solution`` (None before the first), whether the master was ``refined`` (re-solved from scratch), the last update's
    seconds, the ``history`` and the ``removed_violations`` of the rows last removed (at the removing master)."""

    master: object
    changes: Changes
    best: Incumbent
    rows: RowHistory
    first: str = "initial"
    lower: float = 0.0
    solution: object = None
    refined: bool = False
    seconds_update: float = 0.0
    history: list = field(default_factory=list)
    removed_violations: np.ndarray = None


def solve_master(master, history, remaining, config, solve_times=()):
    """Solve a master warm, with the stall budget of :func:`simplex_budget` and the time ``remaining()`` (None: no
    limit) on a backend that can stop inside a solve; if it fails with time left, once more from scratch (no basis,
    tighter tolerances), the first master too (HiGHS called one unbounded for weights spread over 12 orders of
    magnitude).  ``solve_times``: the fit's earlier solves (a previous stage's), counted for the budget.  Raises
    :class:`MasterSolveError` (:class:`MasterTimeLimit` for the solver's time limit)."""
    limit = lambda: remaining() if master.capabilities.limits_inside_solve else None  # noqa: E731
    budget = simplex_budget(list(solve_times) + [record["seconds_solve"] for record in history], config)
    try:
        return master.solve(time_limit=limit(), budget=budget)
    except MasterSolveError:
        left = remaining()
        if left is not None and left <= 0:
            raise
        master.refine()  # a warm start or the default tolerances gone wrong: once more from scratch
        return master.solve(time_limit=limit())


def before_solve(loop, k, problem, config, start):
    """The record's fields known before master ``k`` is solved: its number (after ``start.iterations_before``),
    ``lambda0``, size, the changes that made it, the rows added back (the churn), the update's seconds, and
    ``features_only`` (the first rounds of the regime ``"nm"``)."""
    changes = loop.changes
    return {"iteration": start.iterations_before + k, "lambda0": problem.lambda0,
            "features_only": config.regime == "nm" and k <= INIT_FEATURE_ROUNDS, "n_rows": loop.master.n_rows,
            "n_features": len(loop.master.features),
            "rows_added": len(changes.added_samples), "rows_removed": len(changes.removed_samples),
            "rows_readded": loop.rows.readded(changes.rows_added), "features_added": len(changes.features),
            "seconds_update": loop.seconds_update}


def solve_step(loop, known, config, deadline, solve_times):
    """The **solve** step: :func:`solve_master` within the time left (the paper's small initial master whatever the
    time, so that a fit out of time still returns a master's rule), its time split added to ``known``."""
    tic = deadline.elapsed()
    unlimited = loop.first == "initial" and not loop.history
    try:
        loop.solution = solve_master(loop.master, loop.history, (lambda: None) if unlimited else deadline.remaining,
                                     config, solve_times)
    finally:
        known["seconds_solve"] = deadline.elapsed() - tic
    split = loop.solution.seconds
    known["seconds_build"], known["seconds_handover"] = split.get("build", 0.0), split.get("handover", 0.0)
    known["seconds_solve"] -= known["seconds_build"] + known["seconds_handover"]


def check_step(loop, problem, config, known, deadline):
    """The **check** step (:func:`~mrc_pyomo.methods.ccg.check.check_solution`), the rows aged; appends and returns the
    master's record with the :class:`~mrc_pyomo.methods.ccg.check.Check`."""
    tic = deadline.elapsed()
    check = check_solution(loop.master, loop.solution, problem, config, loop.best, loop.lower)
    loop.best, loop.lower = check.best, check.lower
    check = replace(check, remove=loop.rows.age(check.remove, config.row_age))
    record = iteration_record(known, loop.solution, check, loop.lower, loop.master, deadline.elapsed() - tic,
                              deadline)
    loop.history.append(record)
    return check, record


def stop_reason(loop, check, config, deadline, k):
    """Why the loop stops after master ``k`` (None: it goes on): the gap within ``eps_1``, the deadline, ``max_iter``,
    or nothing to add with the gap open after a re-solve from scratch (``"stalled"``, noted in the record)."""
    if status_of(check.lower, check.best.risk, config.eps_1) == Status.CONVERGED:
        return Status.CONVERGED
    if deadline.expired():
        return Status.TIME_LIMIT
    if k == config.max_iter:
        return Status.MAX_ITER
    if not (len(check.new_samples) or len(check.new_features)) and loop.refined:
        loop.history[-1]["solver_status"] += f"; stalled: nothing left to add with a certified gap of {check.gap:.3g}"
        return Status.STALLED
    return None


def update_step(loop, check, deadline):
    """The **update** step: remove the over-satisfied rows, add the rows and features picked (only features in the first
    rounds of the regime ``"nm"``); with nothing to add, re-solve from scratch (the certificate refutes the master)."""
    tic = deadline.elapsed()
    if not (len(check.new_samples) or len(check.new_features)):
        loop.master.refine()
        loop.refined = True
    samples, subsets = check.new_samples, check.new_subsets
    if loop.history[-1]["features_only"] and len(check.new_features):
        samples, subsets = samples[:0], subsets[:0]   # column generation on the initial rows first
    loop.changes = loop.master.update(check.remove, samples, subsets, check.new_features)
    loop.removed_violations = (None if check.item_violations is None
                               else check.item_violations[loop.changes.removed_mask])
    loop.rows.updated(loop.changes.removed_mask, loop.changes.rows_removed, loop.changes.rows_added,
                      loop.solution.objective)
    loop.seconds_update = deadline.elapsed() - tic


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """MRC-CCG (Algorithm 1) on the prepared ``problem`` (a :class:`~mrc_pyomo.problem.MRCProblem`) with ``config`` (a
    :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`; None: the defaults) within ``deadline`` (a
    :class:`~mrc_pyomo.methods.deadline.Deadline`; None: none): a generator that yields an :class:`IterationState` after
    each master is solved and checked and is sent whether to stop there (a true value: status ``"callback"``;
    :mod:`mrc_pyomo.methods.result`), calling ``log``, if given, with each record.

    Returns a :class:`~mrc_pyomo.methods.result.FitResult` whose ``history`` has one record per master solved (keys
    :data:`HISTORY_COLUMNS`).  Record ``k`` describes master ``k``: ``rows_added`` / ``rows_removed`` /
    ``features_added`` are the changes from master ``k - 1`` (the initial blocks for ``k = 1``), ``rows_readded`` how
    many rows added this fit had removed before (the churn), ``seconds_update`` the time to apply them (on the built-in
    HiGHS backend: computing the blocks and loading them), ``seconds_build`` to build the Pyomo components they need
    (Pyomo's solvers only), ``seconds_handover`` to hand them to the solver (``set_instance`` or incremental calls; a
    file-based solver's files), ``seconds_solve`` the solver's own time, ``R_master`` its value ``R^k`` as the solver
    reports it, ``R_mu`` the exact ``R(mu^k)``, ``lower`` / ``upper`` the certified interval after the check, the
    violations and ``seconds_oracle`` the check's, ``solver_status`` what the solver said.

    With a reduction (``problem.reduction``) the loop solves the reduced LP (``R*`` unchanged): ``mu`` is zero on the
    fixed features and ``upper`` is ``R'(mu)``, which :meth:`~mrc_pyomo.problem.MRCProblem.rule` completes (same ``R``).

    If the solver fails on master ``k > 1`` (an error, or a limit reached), the loop stops with the best rule found,
    still certified: the failure is the last record (``R_master`` NaN), the status ``"solver_error"`` (or
    ``"time_limit"``).  A failure on the first master raises ``MasterSolveError``.

    Warm start (:mod:`mrc_pyomo.methods.pathwise`): ``start`` (a :class:`~mrc_pyomo.methods.result.Start`) may give the
    first master instead of :func:`initial_master` (a given master's first solve is time-limited like the others), rules
    ``candidates`` the result may be (evaluated before the first master), the ``solve_times`` of earlier masters for the
    stall budget, and the fit's iterations before the loop's, from which its records number on."""
    config, start, deadline = CCGConfig() if config is None else config, start or Start(), deadline_of(deadline)
    master, first = first_master(problem, config, start)
    loop = Loop(master, as_added(master), Incumbent.best_of(problem, start.candidates),
                RowHistory(idle=np.zeros(master.n_rows, dtype=np.int64)), first=first)
    status = Status.MAX_ITER
    for k in range(1, config.max_iter + 1):
        known = before_solve(loop, k, problem, config, start)
        try:
            solve_step(loop, known, config, deadline, start.solve_times)
        except MasterSolveError as error:
            if len(loop.history) == 0:
                return (yield from first_solve_failed(problem, config, start, deadline, log, loop, error))
            status = Status.TIME_LIMIT if deadline.expired() or isinstance(error, MasterTimeLimit) else \
                Status.SOLVER_ERROR
            loop.history.append(failure_record(known, loop.lower, loop.best.risk, error, deadline,
                                               timed_out=status is Status.TIME_LIMIT))
            if log is not None:
                log(loop.history[-1])
            break
        check, record = check_step(loop, problem, config, known, deadline)
        if log is not None:
            log(record)
        if (yield IterationState(record["iteration"], loop.master, loop.solution, check, record,
                                 loop.changes.rows_added, loop.changes.rows_removed, loop.changes.features,
                                 problem.data, problem.blocked, problem, loop.removed_violations)):
            status = Status.CALLBACK
            break
        status = stop_reason(loop, check, config, deadline, k)
        if status is not None:
            break
        update_step(loop, check, deadline)
    best = loop.best
    if status != Status.CONVERGED:
        best = improve_on_segments(problem, best, loop.solution.mu, config.eps_1)
    return FitResult(master=loop.master, mu=best.mu, objective=loop.solution.objective, lower=loop.lower,
                     upper=best.risk, status=status, history=loop.history, columns=tuple(HISTORY_COLUMNS))


def first_solve_failed(problem, config, start, deadline, log, loop, error):
    """The steps after the loop's first solve failed with ``error``: with the time up, no master, the best of the
    start's candidates (``mu = 0`` among them), ``lower = 0`` and status ``"time_limit"``; for a warm master (a previous
    stage's, unbounded where the earlier penalty was not), the loop again from the initial master; else the error."""
    if deadline.expired() or isinstance(error, MasterTimeLimit):
        return FitResult(master=None, mu=loop.best.mu, objective=float("nan"), lower=0.0, upper=loop.best.risk,
                         status=Status.TIME_LIMIT, history=[], columns=tuple(HISTORY_COLUMNS))
    if loop.first != "warm":
        raise error
    return (yield from steps(problem, config, start=replace(start, previous=None), deadline=deadline, log=log))
