"""MRC-CCG: the constraint and column generation loop (paper, Algorithm 1), with a certified stopping rule.

Each iteration ``k`` solves the restricted master ``P_{I,J}`` (eq. 7) for ``(mu^k, nu^k)``, its dual (eq. 8)
for ``alpha^k`` and the value ``R^k``; then, in NumPy, without trusting the solver's value or status, in one
pass over the samples of the data source (:mod:`mrc_pyomo.data`) and one over the master's rows:

* CONSTR (:mod:`mrc_pyomo.oracles.primal`) finds, for every sample, its most violated row, with violation
  ``psi(x_i) + 1 - nu^k``, and the exact ``R(mu^k)`` (eq. 3);
* FEAT (:mod:`mrc_pyomo.oracles.dual`) computes ``g = F_I^T alpha^k`` and the dual violations of every feature;
* the certificate (:mod:`mrc_pyomo.oracles.certificate`) turns ``alpha^k`` and ``g`` into a lower bound on ``R*``.

The loop keeps the certified interval ``[lower, upper]``: ``upper = min_k R(mu^k)`` (``R(0) = 1 - 1/K`` before
the first master), the value of the best rule found, which is the result; ``lower`` the largest lower bound
found (at least 0).  It stops as ``"converged"`` only when ``upper - lower <= max(eps_1, GAP_FLOOR)``, in both
regimes.  While the gap is open it adds the ``n_max`` most violated rows (violation above round-off,
``eps_1`` being the certified target), and in the regime ``"nm"`` the ``m_max`` features whose dual violation
exceeds ``eps_2`` or, when there are none, those of largest relative violation ``|g_j - tau_j| / lambda_j > 1``
(the quantity the certificate pays for): Theorem 2's ``eps_2 ||mu*||_1`` is thus closed too.  If the gap is
open and nothing is left to add, the master is re-solved from scratch once (a warm-started LP solver may call
a master optimal that is not); if that does not help, the loop stops with ``"stalled"`` (every solve optimal,
but the solver's precision cannot narrow the gap further; the gap is in the last record's ``solver_status``
and in the estimator's warning).  A solver that fails stops it with ``"solver_error"``.  It also stops
at ``max_iter``, when its deadline expires (``"time_limit"``: checked after each master, and on a backend that
can, inside each solve, the first included) or when a stop is sent to it (``"callback"``).
On the HiGHS backend a warm-started simplex that runs ``stall_factor`` times longer than the largest solve
before it has stalled: the interior point method solves that master instead
(:func:`~mrc_pyomo.methods.ccg.config.simplex_budget`).
A loop that stops with an open gap returns the best rule on a few segments (``R`` is convex along each, see
:func:`improve_on_segments`): at least as good as the best rule found, and often with the last master's
predictions when the best rule found is still ``mu = 0``.

Two regimes (Section 3):

* ``"n"`` (many samples, few features): all features in ``J``, FEAT gives only the certificate; CONSTR adds
  rows and removes the over-satisfied ones (negative violation, zero dual; without regularisation only after
  three such masters in a row, :func:`~mrc_pyomo.methods.ccg.config.row_age`).  ``R^k`` is non-decreasing
  (Theorem 1).
* ``"nm"`` (many samples and features): rows and features are added, nothing is removed.  The first
  iterations run FEAT alone on the initial rows (column generation as in the paper's initialisation) until no
  feature is violated or :data:`INIT_FEATURE_ROUNDS` rounds have passed.

The loop only sequences (as PyROS's and Coluna's do) a few named steps, :func:`solve_step`,
:func:`check_step`, :func:`stop_reason` and :func:`update_step`, written against the master's interface
(:class:`~mrc_pyomo.master.interface.Master`), the check and its policy (:mod:`~mrc_pyomo.methods.ccg.check`), the
record (:mod:`~mrc_pyomo.methods.ccg.record`), the first master (:mod:`~mrc_pyomo.methods.ccg.start`) and the
memory of its rows (:mod:`~mrc_pyomo.methods.ccg.row_history`), every setting in one
:class:`~mrc_pyomo.methods.ccg.config.CCGConfig` and the time in the fit's
:class:`~mrc_pyomo.methods.deadline.Deadline`.
"""

from dataclasses import dataclass, field, replace

import numpy as np

from ...master import MasterSolveError, MasterTimeLimit
from ...master.solution import Changes
from ...oracles.certificate import gap_tolerance
from ...oracles.incumbent import Incumbent, improve_on_segments
from ..deadline import deadline_of
from ..result import FitResult, Start, Status
from .check import check_solution
from .config import INIT_FEATURE_ROUNDS, CCGConfig, simplex_budget
from .record import HISTORY_COLUMNS, IterationState, failure_record, iteration_record
from .row_history import RowHistory
from .start import as_added, first_master


@dataclass
class Loop:
    """What the loop carries from one master to the next: the ``master``, the :class:`Changes` that made it,
    the incumbent ``best`` and the best ``lower`` bound, the memory of its ``rows``, what the first master was
    (``first``: ``"initial"``, ``"given"`` or ``"warm"``, :func:`~mrc_pyomo.methods.ccg.start.first_master`), the
    last ``solution`` (None before the first), whether the master was ``refined`` (re-solved from scratch), the
    seconds of the last update, the ``history`` of records, and the violations of the rows the last update removed
    at the master that removed them (``removed_violations``, None where not known)."""

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
    """The solve of a master: warm, with the stall budget of :func:`simplex_budget` (``config``'s ``stall_factor``
    and ``stall_floor``) and the time ``remaining()`` (None: no limit) on a backend that can stop inside a solve;
    if it fails with time left, once more from scratch (no basis, tighter tolerances), the first master too
    (HiGHS called it unbounded for weights spread over 12 orders of magnitude).  ``solve_times``: the seconds of
    earlier solves of the same fit (a previous stage's), which count for the stall budget too.  Raises
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
    """The record's fields known before master ``k`` is solved: its number in the fit (after
    ``start.iterations_before``), its ``lambda0``, its size, the changes that made it, the rows added back (the
    churn), the seconds of that update, and whether it is of the first rounds of the regime ``"nm"``, which add
    features only."""
    changes = loop.changes
    return {"iteration": start.iterations_before + k, "lambda0": problem.lambda0,
            "features_only": config.regime == "nm" and k <= INIT_FEATURE_ROUNDS, "n_rows": loop.master.n_rows,
            "n_features": len(loop.master.features),
            "rows_added": len(changes.added_samples), "rows_removed": len(changes.removed_samples),
            "rows_readded": loop.rows.readded(changes.rows_added), "features_added": len(changes.features),
            "seconds_update": loop.seconds_update}


def solve_step(loop, known, config, deadline, solve_times):
    """The **solve** step: :func:`solve_master` within the time left (but the paper's initial master, small, which
    is solved whatever the time: a fit whose time is up before it still returns a master's rule), its time split
    added to ``known`` (the solve's seconds also when it fails)."""
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
    """The **check** step (:func:`~mrc_pyomo.methods.ccg.check.check_solution`), the rows aged; appends and
    returns the master's record with the :class:`~mrc_pyomo.methods.ccg.check.Check`."""
    tic = deadline.elapsed()
    check = check_solution(loop.master, loop.solution, problem, config, loop.best, loop.lower)
    loop.best, loop.lower = check.best, check.lower
    check = replace(check, remove=loop.rows.age(check.remove, config.row_age))
    record = iteration_record(known, loop.solution, check, loop.lower, loop.master, deadline.elapsed() - tic,
                              deadline)
    loop.history.append(record)
    return check, record


def stop_reason(loop, check, config, deadline, k):
    """Why the loop stops after master ``k`` (None: it goes on): the certified gap within ``eps_1``, the
    deadline, ``max_iter``, or nothing left to add with the gap open after a re-solve from scratch
    (``"stalled"``, said in the record)."""
    if check.gap <= gap_tolerance(config.eps_1):
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
    """The **update** step: remove the rows the check found over-satisfied, add the rows and features it picked
    (in the first rounds of the regime ``"nm"``, ``features_only``, the features only); with nothing to add, the
    master is re-solved from scratch instead (its solver called a master optimal that the certificate refutes)."""
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
    """MRC-CCG (Algorithm 1) on the prepared ``problem`` (a :class:`~mrc_pyomo.problem.MRCProblem`) with the
    settings ``config`` (a :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`; None: the defaults), one master at a
    time: a generator that yields an :class:`IterationState` after each master is solved and checked and is sent
    whether to stop there (a true value: status ``"callback"``; :mod:`mrc_pyomo.methods.result`).

    The loop only sequences its steps (:func:`solve_step`, :func:`check_step`, :func:`stop_reason`,
    :func:`update_step`), within ``deadline`` (a :class:`~mrc_pyomo.methods.deadline.Deadline`; None: none).  Returns a
    :class:`~mrc_pyomo.methods.result.FitResult` whose ``history`` has one record per master solved (keys
    :data:`HISTORY_COLUMNS`).  Record ``k`` describes master ``k``: ``rows_added`` / ``rows_removed`` /
    ``features_added`` are the changes that made it from master ``k - 1`` (the initial blocks for ``k = 1``),
    ``rows_readded`` how many of the rows added had been removed by this fit before (the churn: work done twice),
    ``seconds_update`` the time to apply them (on the built-in HiGHS backend: computing the blocks and loading them into
    HiGHS), ``seconds_build`` the time to build the Pyomo components they need (Pyomo's solvers only),
    ``seconds_handover`` the time to hand them to the solver (a persistent solver's ``set_instance`` or incremental
    calls; writing and reading the files of a file-based solver), ``seconds_solve`` the solver's own time, ``R_master``
    its value ``R^k`` (as the solver reports it), ``R_mu`` the exact ``R(mu^k)``, ``lower`` / ``upper`` the certified
    interval after its check, the violations and ``seconds_oracle`` those of the check, ``solver_status`` what the
    solver said.  ``log``, if given, is called with each record.

    With a reduction (``problem.reduction``) the loop solves the reduced LP (no fixed feature, no row with a
    blocked label; ``R*`` unchanged): ``mu`` has zeros on the fixed features and ``upper`` is ``R'(mu)``, which
    :meth:`~mrc_pyomo.problem.MRCProblem.rule` completes into a rule of the full problem with the same ``R``.

    If the solver fails on master ``k > 1`` (an error, or a limit reached), the loop stops with the best rule
    found, which is still certified; the failure is the last record of the history (``R_master`` NaN) and the
    status is ``"solver_error"`` (or ``"time_limit"``).  A failure on the first master raises
    ``MasterSolveError``.

    Warm start (:mod:`mrc_pyomo.methods.pathwise`): ``start`` (a :class:`~mrc_pyomo.methods.result.Start`)
    may give the first master instead of :func:`initial_master` (e.g. the final master of a fit at a larger
    ``lambda0``, with this problem's costs), rules ``candidates`` the result may be (evaluated on this problem
    before the first master), the ``solve_times`` of earlier masters for the stall budget and the iterations of
    the fit before the loop's, from which its records number on.  A given master's
    first solve is bounded by the time limit like the others (the candidates are rules to return).
    """
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
        best = improve_on_segments(problem, best, loop.solution.mu)
    return FitResult(master=loop.master, mu=best.mu, objective=loop.solution.objective, lower=loop.lower,
                     upper=best.risk, status=status, history=loop.history, columns=tuple(HISTORY_COLUMNS))


def first_solve_failed(problem, config, start, deadline, log, loop, error):
    """The steps after the first solve of a loop failed with ``error``: with the time up, the best of the start's
    candidates (``mu = 0`` among them) with ``lower = 0`` and the status ``"time_limit"``, no master; for a warm
    master (a previous stage's, unbounded in a direction the earlier penalty ruled out), the loop again from
    the initial master; otherwise the error."""
    if deadline.expired() or isinstance(error, MasterTimeLimit):
        return FitResult(master=None, mu=loop.best.mu, objective=float("nan"), lower=0.0, upper=loop.best.risk,
                         status=Status.TIME_LIMIT, history=[], columns=tuple(HISTORY_COLUMNS))
    if loop.first != "warm":
        raise error
    return (yield from steps(problem, config, start=replace(start, previous=None), deadline=deadline, log=log))
