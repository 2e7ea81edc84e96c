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
at ``max_iter``, at ``time_limit`` (the HiGHS backend stops inside a solve too) or when the callback says so.
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

The loop only sequences (as PyROS's and Coluna's do): the master's interface
(:class:`~mrc_pyomo.master.RestrictedMaster`), the check and its policy (:mod:`~mrc_pyomo.methods.ccg.check`),
the record (:mod:`~mrc_pyomo.methods.ccg.record`), every setting in one
:class:`~mrc_pyomo.methods.ccg.config.CCGConfig`.
"""

import time
from dataclasses import dataclass, field, replace

import numpy as np

from ...formulations import item_keys
from ...master import MasterSolveError, RestrictedMaster
from ...oracles.certificate import gap_tolerance
from ...oracles.incumbent import Incumbent, improve_on_segments
from ...problem.initialization import class_centroids, initial_features, initial_rows
from ..result import FitResult, Start, Status, finish
from .check import check_solution
from .config import INIT_FEATURE_ROUNDS, CCGConfig, simplex_budget
from .record import HISTORY_COLUMNS, IterationState, failure_record, iteration_record


def centroid_rows(n, n_classes, reduction=None):
    """The rows of the first master (:func:`~mrc_pyomo.problem.initialization.initial_rows`: the class centroids'),
    without those a reduction leaves out: ``(samples, subsets, floor)``.  They keep every master bounded."""
    samples, subsets, floor = initial_rows(n, n_classes)
    if reduction is not None:
        kept = reduction.kept_rows(samples, subsets)
        samples, subsets = samples[kept], subsets[kept]
    return samples, subsets, floor


def initial_master(problem, config):
    """The first master of ``problem``: the class-centroid rows and the initial features
    (:mod:`mrc_pyomo.problem.initialization`), without the rows and features its reduction leaves out.  Returns the
    master and its changes, as recorded."""
    n_classes, reduction = problem.n_classes, problem.reduction
    samples, subsets, floor = centroid_rows(problem.n_samples, n_classes, reduction)
    features = initial_features(n_classes, problem.n_features, config.regime, config.fit_intercept)
    if reduction is not None:
        features = features[~reduction.fixed.ravel()[features]]
    master = RestrictedMaster(problem.data, problem.tau, problem.lam,
                              centroids=class_centroids(problem.data, problem.y, n_classes, problem.weights),
                              objective_floor=floor, solver=config.solver, solver_options=config.solver_options,
                              formulation=config.formulation)
    master.add_features(features)
    master.add_rows(samples, subsets)
    return master, ((master.samples, master.subsets), (samples[:0], subsets[:0]), features)


def solve_master(master, history, first, remaining, config, solve_times=()):
    """The **solve** step: solve the master warm, with the stall budget of :func:`simplex_budget` (``config``'s
    ``stall_factor`` and ``stall_floor``); if it fails with time left, once more from scratch (no basis, tighter
    tolerances), the first master too (HiGHS called it unbounded for weights spread over 12 orders of magnitude).
    ``remaining``: a function giving the seconds left (None: no limit), which bounds the solve on a backend that
    can stop inside a solve, except on the ``first`` master (without it there is no master to return).
    ``solve_times``: the seconds of earlier solves of the same fit (a previous stage's), which count for the
    stall budget too.  Raises :class:`MasterSolveError`."""
    limit = lambda: None if first or not master.capabilities.limits_inside_solve else remaining()  # noqa: E731
    budget = simplex_budget(list(solve_times) + [record["seconds_solve"] for record in history], config)
    try:
        return master.solve(time_limit=limit(), budget=budget)
    except MasterSolveError:
        left = remaining()
        if left is not None and left <= 0:
            raise
        master.refine()  # a warm start or the default tolerances gone wrong: once more from scratch
        return master.solve(time_limit=limit())


def update_master(master, check, phase):
    """The **update** step: remove the items the check found over-satisfied, add the items the formulation
    makes of the rows it picked (removing the items they replace, :meth:`~mrc_pyomo.formulations.Formulation.
    merge`) and the features it picked (in the initial ``"features"`` phase of the regime ``"nm"``, the
    features only).  Returns the changes as ``(items added, items removed, features added)`` and the mask of
    the items removed."""
    new_rows = (check.new_samples, check.new_subsets)
    if phase == "features" and len(check.new_features):
        new_rows = (new_rows[0][:0], new_rows[1][:0])  # column generation on the initial rows first
    kept = np.flatnonzero(~check.remove)
    replaced, new_rows = master.formulation.merge(master.samples[kept], master.subsets[kept], *new_rows)
    remove = check.remove.copy()
    remove[kept[replaced]] = True
    removed = (master.samples[remove], master.subsets[remove])
    master.remove_rows(remove)
    master.add_items(*new_rows)   # merged already
    master.add_features(check.new_features)
    return (new_rows, removed, check.new_features), remove


#: the rise of the master's value ``R^k``, relative to ``max(1, |R^k|)``, below which it has not progressed
CYCLE_TOLERANCE = 1e-9


@dataclass
class RowHistory:
    """What the loop remembers of its rows beyond the master.

    Per row of the master: for how many masters in a row it has been over-satisfied (``idle``, row ageing) and
    whether it is kept for good (``pinned``).  Per row this fit removed (``dropped``, by its key): the master's
    value ``R^k`` when it was last removed, to count the rows added again (the churn) and to stop cycles.

    **Anti-cycling.**  Removing only over-satisfied rows keeps ``R^k`` non-decreasing (Theorem 1), but at equal
    values the loop can go round the same masters for ever (seen on the compact formulation at ``lambda0 = 0``:
    four rows removed and added again in turn, ``R^k = 0`` throughout, until ``max_iter``).  A row added again
    while ``R^k`` has not risen (by :data:`CYCLE_TOLERANCE`) since its removal is pinned: never removed again.
    Each row can then leave once per value of ``R^k``; the values are non-decreasing, so the loop cannot cycle.
    """

    idle: np.ndarray
    pinned: np.ndarray = None
    dropped: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.pinned is None:
            self.pinned = np.zeros(len(self.idle), dtype=bool)

    def readded(self, rows):
        """How many of the rows ``(samples, subsets)`` this fit had removed before."""
        return sum(key.tobytes() in self.dropped for key in item_keys(*rows))

    def age(self, remove, row_age):
        """Count a master: ``remove`` (over-satisfied rows) ages its rows; the mask of those that leave now (none
        that is pinned)."""
        self.idle = np.where(remove, self.idle + 1, 0)
        return (self.idle >= row_age) & ~self.pinned

    def updated(self, removed_mask, removed_rows, added_rows, value):
        """After a master of value ``value``, the master lost the rows at ``removed_mask`` (``removed_rows``: their
        pairs) and gained ``added_rows`` at its end: those removed before at a value not below ``value`` (less
        :data:`CYCLE_TOLERANCE`) come back pinned."""
        for key in item_keys(*removed_rows):
            self.dropped[key.tobytes()] = value
        floor = value - CYCLE_TOLERANCE * max(1.0, abs(value))
        cycled = np.array([self.dropped.get(key.tobytes(), -np.inf) >= floor for key in item_keys(*added_rows)],
                          dtype=bool)
        self.idle = np.concatenate([self.idle[~removed_mask], np.zeros(len(cycled), dtype=np.int64)])
        self.pinned = np.concatenate([self.pinned[~removed_mask], cycled])


def solve(problem, config=None, *, start=None, log=None, callback=None):
    """Run MRC-CCG (Algorithm 1) on the prepared ``problem``: :func:`steps` to its
    :class:`~mrc_pyomo.methods.result.FitResult`, each master's :class:`IterationState` shown to ``callback`` (if
    given), whose true return value stops the loop (:func:`~mrc_pyomo.methods.result.finish`)."""
    return finish(steps(problem, config, start=start, log=log), callback)


def steps(problem, config=None, *, start=None, log=None):
    """MRC-CCG (Algorithm 1) on the prepared ``problem`` (a :class:`~mrc_pyomo.problem.MRCProblem`) with the
    settings ``config`` (a :class:`~mrc_pyomo.methods.ccg.config.CCGConfig`; None: the defaults), one master at a
    time: a generator that yields an :class:`IterationState` after each master is solved and checked and is sent
    whether to stop there (a true value: status ``"callback"``; :mod:`mrc_pyomo.methods.result`).

    The loop only sequences its steps: :func:`solve_master`, :func:`check_solution`, :func:`iteration_record`
    and :func:`update_master`.  Returns a :class:`~mrc_pyomo.methods.result.FitResult` whose ``history`` has one
    record per master solved (keys :data:`HISTORY_COLUMNS`).  Record ``k`` describes master ``k``:
    ``rows_added`` / ``rows_removed`` / ``features_added`` are the changes that made it from master ``k - 1``
    (the initial blocks for ``k = 1``), ``rows_readded`` how many of the rows added had been removed by this fit
    before (the churn: work done twice), ``seconds_update`` the time to apply them (on the built-in HiGHS
    backend: computing the blocks and loading them into HiGHS), ``seconds_build`` the time to build the Pyomo
    components they need (Pyomo's solvers only), ``seconds_handover`` the time to hand them to the solver (a
    persistent solver's ``set_instance`` or incremental calls; writing and reading the files of a file-based
    solver), ``seconds_solve`` the solver's own time, ``R_master`` its value ``R^k`` (as the solver reports
    it), ``R_mu`` the exact ``R(mu^k)``, ``lower`` / ``upper`` the certified interval after its check, the
    violations and ``seconds_oracle`` those of the check, ``solver_status`` what the solver said.  ``log``,
    if given, is called with each record.

    With a reduction (``problem.reduction``) the loop solves the reduced LP (no fixed feature, no row with a
    blocked label; ``R*`` unchanged): ``mu`` has zeros on the fixed features and ``upper`` is ``R'(mu)``, which
    :meth:`~mrc_pyomo.problem.MRCProblem.rule` completes into a rule of the full problem with the same ``R``.

    If the solver fails on master ``k > 1`` (an error, or a limit reached), the loop stops with the best rule
    found, which is still certified; the failure is the last record of the history (``R_master`` NaN) and the
    status is ``"solver_error"`` (or ``"time_limit"``).  A failure on the first master raises
    ``MasterSolveError``.

    Warm start (:mod:`mrc_pyomo.methods.continuation`): ``start`` (a :class:`~mrc_pyomo.methods.result.Start`)
    may give the first master instead of :func:`initial_master` (e.g. the final master of a fit at a larger
    ``lambda0``, with this problem's costs), rules ``candidates`` the result may be (evaluated on this problem
    before the first master) and the ``solve_times`` of earlier masters for the stall budget.  A given master's
    first solve is bounded by the time limit like the others (the candidates are rules to return).
    """
    config = CCGConfig() if config is None else config
    start_at = Start() if start is None else start
    data, tau, lam, blocked = problem.data, problem.tau, problem.lam, problem.blocked
    start = time.perf_counter()
    elapsed = lambda: time.perf_counter() - start  # noqa: E731
    remaining = lambda: None if config.time_limit is None else config.time_limit - elapsed()  # noqa: E731
    out_of_time = lambda: config.time_limit is not None and elapsed() >= config.time_limit  # noqa: E731
    master = warm = start_at.master
    if master is None:
        master, added = initial_master(problem, config)
    else:
        added = ((master.samples, master.subsets), (master.samples[:0], master.subsets[:0]), master.features)
    best = Incumbent.best_of(data, start_at.candidates, tau, lam, blocked)
    lower, seconds_update = 0.0, elapsed()
    history, status, solution, refined = [], Status.MAX_ITER, None, False
    rows = RowHistory(idle=np.zeros(master.n_rows, dtype=np.int64),
                      pinned=np.full(master.n_rows, start_at.keep and start_at.master is not None))
    for k in range(1, config.max_iter + 1):
        phase = "features" if config.regime == "nm" and k <= INIT_FEATURE_ROUNDS else "ccg"
        known = {"iteration": k, "n_rows": master.n_rows, "n_features": len(master.features),
                 "rows_added": len(added[0][0]), "rows_removed": len(added[1][0]),
                 "rows_readded": rows.readded(added[0]), "features_added": len(added[2]),
                 "seconds_update": seconds_update}
        tic = time.perf_counter()
        try:
            new_solution = solve_master(master, history, solution is None and warm is None, remaining, config,
                                        start_at.solve_times)
        except MasterSolveError as error:
            if solution is None:
                raise
            history.append(failure_record(known, phase, lower, best.risk, time.perf_counter() - tic, elapsed(),
                                          error))
            if log is not None:
                log(history[-1])
            status = Status.TIME_LIMIT if out_of_time() else Status.SOLVER_ERROR
            break
        solution = new_solution
        split = master.backend.seconds
        known["seconds_build"], known["seconds_handover"] = split.get("build", 0.0), split.get("handover", 0.0)
        known["seconds_solve"] = time.perf_counter() - tic - known["seconds_build"] - known["seconds_handover"]

        tic = time.perf_counter()
        check = check_solution(master, solution, problem, config, best, lower)
        best, lower = check.best, check.lower
        check = replace(check, remove=rows.age(check.remove, config.row_age))
        record = iteration_record(known, phase, solution, check, lower, master, time.perf_counter() - tic, start)
        history.append(record)
        if log is not None:
            log(record)
        if (yield IterationState(k, master, solution, check, record, *added, data, blocked)):
            status = Status.CALLBACK
            break
        if check.gap <= gap_tolerance(config.eps_1):
            status = Status.CONVERGED
            break
        if out_of_time():
            status = Status.TIME_LIMIT
            break
        if k == config.max_iter:
            break
        stalled = not (len(check.new_samples) or len(check.new_features))
        if stalled and refined:
            record["solver_status"] += f"; stalled: nothing left to add with a certified gap of {check.gap:.3g}"
            status = Status.STALLED
            break

        tic = time.perf_counter()
        if stalled:  # the gap is open and nothing is violated: the master's solution is not what it claims
            master.refine()
            refined = True
        added, removed = update_master(master, check, phase)
        rows.updated(removed, added[1], added[0], solution.objective)
        seconds_update = time.perf_counter() - tic

    if status != "converged" and solution is not None:
        best = improve_on_segments(data, best, solution.mu, tau, lam, blocked)
    return FitResult(master=master, mu=best.mu, objective=solution.objective, lower=lower, upper=best.risk,
                     status=status, history=history, columns=tuple(HISTORY_COLUMNS))
