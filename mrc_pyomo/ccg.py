"""MRC-CCG: the constraint and column generation loop (paper, Algorithm 1).

Each iteration ``k`` solves the restricted master ``P_{I,J}`` (eq. 9) for ``(mu^k, nu^k)``, its dual (eq. 10)
for ``alpha^k`` and the value ``R^k``; then

* CONSTR (:mod:`mrc_pyomo.primal_oracle`) finds, for every sample, its most violated row with violation
  ``psi(x_i) + 1 - nu^k`` and selects the ``n_max`` most violated above ``eps_1``;
* FEAT (:mod:`mrc_pyomo.dual_oracle`) computes ``|F_I^T alpha^k - tau| - lambda`` for every feature and
  selects the ``m_max`` most violated above ``eps_2``.

It stops when nothing is added (then ``R* - eps_1 <= R^k <= R* + eps_2 ||mu*||_1``, Theorem 2), at
``max_iter`` or at ``time_limit``; in the regime ``"n"`` also as soon as the best certified value found,
``min_k R(mu^k)``, is within ``eps_1`` of ``R^k`` (a lower bound on ``R*`` when every feature is in the
master), which gives the same guarantee ``R* <= upper <= R* + eps_1``.

The loop keeps the best ``mu`` found, the one with the smallest certified ``R(mu^k)`` (``mu = 0``, with
``R(0) = 1 - 1/K``, before the first master): it is the result, also when a limit stops the loop early.

Two regimes (Section 3):

* ``"n"`` (many samples, few features): all features in ``J``, FEAT disabled; CONSTR adds rows and removes
  the over-satisfied ones (negative violation, zero dual).  ``R^k`` is non-decreasing (Theorem 1).
* ``"nm"`` (many samples and features): rows and features are added, nothing is removed.  The first
  iterations run FEAT alone on the initial rows (column generation as in the paper's initialisation) until no
  feature is violated or :data:`INIT_FEATURE_ROUNDS` rounds have passed.

The loop only sequences the oracles and the master; each iteration leaves a record (see :func:`fit_ccg`).
"""

import time
from dataclasses import dataclass, field

import numpy as np

from .dual_oracle import dual_correlations, feature_violations
from .initialization import class_centroids, initial_features, initial_rows
from .master import MasterSolveError, RestrictedMaster
from .primal_oracle import class_scores, most_violated_subsets, risk, subset_values
from .selection import NUMERICAL_FLOOR, most_violated, over_satisfied

# "auto" picks the large n and m regime when the LP has more than this many features m = K * D
LARGE_M = 10_000
INIT_FEATURE_ROUNDS = 3

HISTORY_COLUMNS = [
    "iteration", "phase", "R_master", "R_mu", "max_primal_violation", "max_dual_violation", "n_rows",
    "n_features", "R_best", "rows_added", "rows_removed", "features_added", "seconds_oracle", "seconds_update",
    "seconds_solve", "seconds_elapsed", "solver_status",
]


def choose_regime(n_classes, n_features):
    """``"nm"`` when ``m = K * D`` exceeds :data:`LARGE_M`, else ``"n"``."""
    return "nm" if n_classes * n_features > LARGE_M else "n"


@dataclass
class CCGResult:
    """What the loop returns: the last master and its solution, the records, and why it stopped."""

    master: RestrictedMaster
    mu: np.ndarray
    nu: float
    objective: float
    status: str
    history: list = field(default_factory=list)


@dataclass
class Best:
    """The best rule so far: ``mu`` with the smallest ``R(mu)`` and ``nu = varphi(mu) + 1``."""

    mu: np.ndarray
    nu: float
    risk: float

    @classmethod
    def evaluate(cls, Psi, mu, tau, lam):
        """``mu`` with ``varphi(mu)`` and ``R(mu)`` evaluated over all samples."""
        psi = most_violated_subsets(class_scores(Psi, mu))[0]
        return cls(mu, float(psi.max()) + 1.0, risk(mu, psi.max(), tau, lam))


@dataclass
class Check:
    """The oracles' verdict on one master solution: violations, and what to add and remove next.

    ``primal_violations[i] = psi(x_i) + 1 - nu`` (the most violated row of each sample),
    ``dual_violations[y, j] = |g_yj - (1 - beta) tau_yj| - (1 - beta) lambda_yj``, ``risk = R(mu)``;
    ``best`` is the best rule once ``mu^k`` is counted.
    """

    risk: float
    best: Best
    primal_violations: np.ndarray
    dual_violations: np.ndarray
    new_samples: np.ndarray
    new_subsets: np.ndarray
    new_features: np.ndarray
    remove: np.ndarray

    @property
    def max_primal_violation(self):
        return float(self.primal_violations.max())

    @property
    def max_dual_violation(self):
        return float(self.dual_violations.max())


@dataclass
class IterationState:
    """What a ``callback`` sees after master ``k`` is solved and checked.

    ``rows_added`` / ``rows_removed`` (pairs ``(samples, subsets)``) and ``features_added`` are the changes
    that made this master; ``next_rows``, ``next_features`` and ``next_removed`` (a mask over the master's
    rows) what the oracles chose for the next one.  ``model`` is the Pyomo model of the master (built on
    first access on the default path) with this solution loaded.
    """

    iteration: int
    master: RestrictedMaster
    solution: object
    check: Check
    record: dict
    rows_added: tuple
    rows_removed: tuple
    features_added: np.ndarray

    @property
    def model(self):
        return self.master.model

    @property
    def mu(self):
        return self.solution.mu

    @property
    def nu(self):
        return self.solution.nu

    @property
    def alpha(self):
        return self.solution.alpha

    @property
    def primal_violations(self):
        return self.check.primal_violations

    @property
    def dual_violations(self):
        return self.check.dual_violations

    @property
    def next_rows(self):
        return self.check.new_samples, self.check.new_subsets

    @property
    def next_features(self):
        return self.check.new_features

    @property
    def next_removed(self):
        return self.check.remove


def check_solution(master, solution, Psi, tau, lam, regime, eps_1, eps_2, n_max, m_max, best=None):
    """Run CONSTR and FEAT on a master solution (one full pass over the samples and features)."""
    mu, nu = solution.mu, solution.nu
    psi, subsets = most_violated_subsets(class_scores(Psi, mu))
    violations = psi + 1.0 - nu
    value = risk(mu, psi.max(), tau, lam)
    if best is None or value < best.risk:
        best = Best(mu, float(psi.max()) + 1.0, value)

    picked = np.zeros(0, dtype=np.int64)
    if (violations > eps_1).any():
        candidates = np.flatnonzero(violations > NUMERICAL_FLOOR)
        eligible = ~master.contains_rows(candidates, subsets[candidates])
        picked = candidates[most_violated(violations[candidates], 0.0, n_max, eligible)]

    g = dual_correlations(master.points, master.samples, master.subsets, solution.alpha)
    feature_violation = feature_violations(g, tau, lam, solution.beta).ravel()
    outside = np.ones(feature_violation.size, dtype=bool)
    outside[master.features] = False
    new_features = np.zeros(0, dtype=np.int64)
    if regime == "nm":
        new_features = most_violated(feature_violation, eps_2, m_max, outside)

    remove = np.zeros(master.n_rows, dtype=bool)
    if regime == "n":
        row_scores = class_scores(master.points(master.samples), mu)
        remove = over_satisfied(subset_values(row_scores, master.subsets) + 1.0 - nu, solution.alpha)
    return Check(risk=value, best=best, primal_violations=violations,
                 dual_violations=feature_violation.reshape(tau.shape), new_samples=picked,
                 new_subsets=subsets[picked], new_features=new_features, remove=remove)


def fit_ccg(Psi, y_idx, tau, lam, *, regime="n", fit_intercept=True, eps_1=1e-2, eps_2=1e-5, n_max=400,
            m_max=400, max_iter=1000, time_limit=None, solver="appsi_highs", solver_options=None, log=None,
            callback=None):
    """Run MRC-CCG on ``Psi`` (``(n, D)``) with class indices ``y_idx`` and estimates ``tau``, ``lam``.

    Returns a :class:`CCGResult` whose ``history`` has one record per master solved (keys
    :data:`HISTORY_COLUMNS`).  Record ``k`` describes master ``k``: ``rows_added`` / ``rows_removed`` /
    ``features_added`` are the changes that made it from master ``k - 1`` (the initial blocks for ``k = 1``),
    ``seconds_update`` the time to apply them, ``seconds_solve`` the solver's time, ``R_master`` its value
    ``R^k``, ``R_mu`` the exact ``R(mu^k)``, the violations and ``seconds_oracle`` those of the check of its
    solution, ``solver_status`` what the solver said.  ``log``, if given, is called with each record;
    ``callback``, if given, with an :class:`IterationState`, and a true return value stops the loop.

    If the solver fails on master ``k > 1`` (an error, or a limit reached), the loop stops with the solution of
    master ``k - 1``, which is still valid; the failure is the last record of the history (``R_master`` NaN)
    and the status is ``"solver_error"``.  A failure on the first master raises ``MasterSolveError``.
    """
    start = time.perf_counter()
    n, n_features = Psi.shape
    n_classes = tau.shape[0]
    samples, subsets, floor = initial_rows(n, n_classes)
    best = Best.evaluate(Psi, np.zeros_like(tau), tau, lam)
    master = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y_idx, n_classes),
                              objective_floor=floor, solver=solver, solver_options=solver_options)
    features = initial_features(n_classes, n_features, regime, fit_intercept)
    master.add_features(features)
    master.add_rows(samples, subsets)
    added = ((master.samples, master.subsets), (samples[:0], subsets[:0]), features)
    seconds_update = time.perf_counter() - start
    history = []
    status = "max_iter"
    solution = None
    for k in range(1, max_iter + 1):
        # what is known of master k before it is solved: its size and the changes that made it
        known = {"iteration": k, "n_rows": master.n_rows, "n_features": len(master.features),
                 "rows_added": len(added[0][0]), "rows_removed": len(added[1][0]), "features_added": len(added[2]),
                 "seconds_update": seconds_update}
        tic = time.perf_counter()
        if time_limit is not None and master.bulk and solution is not None:
            # HiGHS stops at the remaining time; the loop then keeps the last valid master's solution
            # (the first master is always solved: without it there is no result)
            master.set_solver_option("time_limit", master.solver_clock() + max(time_limit - (tic - start), 1e-3))
        try:
            new_solution = master.solve()
        except MasterSolveError as error:
            if solution is None:
                raise
            history.append({**known, "phase": "ccg", "R_master": np.nan, "R_mu": np.nan,
                            "max_primal_violation": np.nan, "max_dual_violation": np.nan, "R_best": best.risk,
                            "seconds_oracle": 0.0, "seconds_solve": time.perf_counter() - tic,
                            "seconds_elapsed": time.perf_counter() - start, "solver_status": str(error)})
            if log is not None:
                log(history[-1])
            timed_out = time_limit is not None and time.perf_counter() - start >= time_limit
            status = "time_limit" if timed_out else "solver_error"
            break
        solution = new_solution
        seconds_solve = time.perf_counter() - tic

        tic = time.perf_counter()
        check = check_solution(master, solution, Psi, tau, lam, regime, eps_1, eps_2, n_max, m_max, best)
        best = check.best
        seconds_oracle = time.perf_counter() - tic

        record = {
            **known, "phase": "features" if regime == "nm" and k <= INIT_FEATURE_ROUNDS else "ccg",
            "R_master": solution.objective, "R_mu": check.risk,
            "max_primal_violation": check.max_primal_violation, "max_dual_violation": check.max_dual_violation,
            "R_best": best.risk, "seconds_oracle": seconds_oracle, "seconds_solve": seconds_solve,
            "seconds_elapsed": time.perf_counter() - start, "solver_status": master.solver_status,
        }
        history.append(record)
        if log is not None:
            log(record)
        if callback is not None and callback(IterationState(k, master, solution, check, record, *added)):
            status = "callback"
            break
        # regime "n": R^k <= R* <= R(mu_best), so a gap below eps_1 certifies as much as Theorem 2
        gap_closed = regime == "n" and best.risk - solution.objective <= max(eps_1, NUMERICAL_FLOOR)
        if gap_closed or not (len(check.new_samples) or len(check.new_features)):
            status = "converged"
            break
        if time_limit is not None and time.perf_counter() - start >= time_limit:
            status = "time_limit"
            break
        if k == max_iter:
            break

        tic = time.perf_counter()
        removed = (master.samples[check.remove], master.subsets[check.remove])
        master.remove_rows(check.remove)
        new_rows = (check.new_samples, check.new_subsets)
        if record["phase"] == "features" and len(check.new_features):
            new_rows = (new_rows[0][:0], new_rows[1][:0])  # column generation on the initial rows first
        master.add_rows(*new_rows)
        master.add_features(check.new_features)
        added = (new_rows, removed, check.new_features)
        seconds_update = time.perf_counter() - tic

    return CCGResult(master=master, mu=best.mu, nu=best.nu, objective=solution.objective,
                     status=status, history=history)


def format_record(record):
    """One line of the iteration log (with the solver's message when it failed)."""
    if record["R_master"] != record["R_master"]:  # NaN: the solver failed on this master
        return f"{record['iteration']:5d}  solver failed: {record['solver_status']}"
    return ("{iteration:5d} {R_master:12.8f} {R_mu:12.8f} {max_primal_violation:10.2e} "
            "{max_dual_violation:10.2e} {R_best:12.8f} {n_rows:7d} {n_features:7d} {rows_added:+6d} {rows_removed:6d} "
            "{features_added:+6d} {seconds_oracle:7.2f} {seconds_update:7.2f} {seconds_solve:7.2f}").format(**record)


LOG_HEADER = ("  it.    R_master         R(mu)   primal_v     dual_v       R_best    rows  feats  +rows  -rows  +feat "
              " oracle  update   solve")
