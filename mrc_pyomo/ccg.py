"""MRC-CCG: the constraint and column generation loop (paper, Algorithm 1), with a certified stopping rule.

Each iteration ``k`` solves the restricted master ``P_{I,J}`` (eq. 7) for ``(mu^k, nu^k)``, its dual (eq. 8)
for ``alpha^k`` and the value ``R^k``; then, in NumPy, without trusting the solver's value or status:

* CONSTR (:mod:`mrc_pyomo.primal_oracle`) finds, for every sample, its most violated row, with violation
  ``psi(x_i) + 1 - nu^k``, and the exact ``R(mu^k)`` (eq. 3);
* FEAT (:mod:`mrc_pyomo.dual_oracle`) computes ``g = F_I^T alpha^k`` and the dual violations of every feature;
* the certificate (:mod:`mrc_pyomo.certificate`) turns ``alpha^k`` and ``g`` into a lower bound on ``R*``.

The loop keeps the certified interval ``[lower, upper]``: ``upper = min_k R(mu^k)`` (``R(0) = 1 - 1/K`` before
the first master), the value of the best rule found, which is the result; ``lower`` the largest lower bound
found (at least 0).  It stops as ``"converged"`` only when ``upper - lower <= max(eps_1, GAP_FLOOR)``, in both
regimes.  While the gap is open it adds the ``n_max`` most violated rows (violation above round-off,
``eps_1`` being the certified target), and in the regime ``"nm"`` the ``m_max`` features whose dual violation
exceeds ``eps_2`` or, when there are none, those of largest relative violation ``|g_j - tau_j| / lambda_j > 1``
(the quantity the certificate pays for): Theorem 2's ``eps_2 ||mu*||_1`` is thus closed too.  If the gap is
open and nothing is left to add, the master is re-solved from scratch once (a warm-started LP solver may call
a master optimal that is not); if that does not help, the loop stops with ``"solver_error"``.  It also stops
at ``max_iter``, at ``time_limit`` (the HiGHS backend stops inside a solve too) or when the callback says so.
On the HiGHS backend a warm-started simplex that runs :data:`STALL_FACTOR` times longer than the largest solve
before it has stalled: the interior point method solves that master instead (:func:`simplex_budget`).
A loop that stops with an open gap returns the best rule on a few segments (``R`` is convex along each, see
:func:`improve_on_segments`): at least as good as the best rule found, and often with the last master's
predictions when the best rule found is still ``mu = 0``.

Two regimes (Section 3):

* ``"n"`` (many samples, few features): all features in ``J``, FEAT gives only the certificate; CONSTR adds
  rows and removes the over-satisfied ones (negative violation, zero dual; without regularisation only after
  three such masters in a row, :func:`row_age`).  ``R^k`` is non-decreasing
  (Theorem 1).
* ``"nm"`` (many samples and features): rows and features are added, nothing is removed.  The first
  iterations run FEAT alone on the initial rows (column generation as in the paper's initialisation) until no
  feature is violated or :data:`INIT_FEATURE_ROUNDS` rounds have passed.

The loop only sequences the oracles and the master; each iteration leaves a record (see :func:`fit_ccg`).
"""

import time
from dataclasses import dataclass, replace

import numpy as np

from .certificate import lower_bound
from .dual_oracle import dual_correlations, feature_violations, relative_feature_violations
from .initialization import class_centroids, initial_features, initial_rows
from .master import MasterSolveError, RestrictedMaster, row_keys
from .primal_oracle import class_scores, most_violated_subsets, risk, risk_on_segment, subset_values
from .result import FitResult
from .selection import NUMERICAL_FLOOR, most_violated, over_satisfied

# "auto" picks the large n and m regime when the LP has more than this many features m = K * D ...
LARGE_M = 10_000
# ... unless the full LP has at most this many rows: it is then solved directly (regime "full") ...
FULL_LP_MAX_ROWS = 50_000
# ... or the feature map has more than this fraction of nonzeros (dense features): regime "n" (choose_regime)
SPARSE_DENSITY = 0.1
INIT_FEATURE_ROUNDS = 3
# the smallest certified gap the loop aims at: eps_1 = 0 means "to this round-off level"
GAP_FLOOR = 1e-9
# In-out separation, a variant of the loop under measurement (benchmarks/loop_variants.py), off by default:
# rows are separated at IN_OUT * best + (1 - IN_OUT) * (mu^k, nu^k) (0: at mu^k)
IN_OUT = 0.0
# Stall protection: a warm-started simplex gets STALL_FACTOR times the largest solve so far (at least
# STALL_FLOOR seconds) before the interior point method solves the master instead (None: no budget)
STALL_FACTOR = 3.0
STALL_FLOOR = 1.0
# rows leave the master after this many consecutive over-satisfied masters when lambda0 = 0 (row_age)
UNREGULARISED_ROW_AGE = 3

HISTORY_COLUMNS = [
    "iteration", "lambda0", "phase", "R_master", "R_mu", "lower", "upper", "max_primal_violation",
    "max_dual_violation", "n_rows", "n_features", "rows_added", "rows_removed", "rows_readded", "features_added",
    "seconds_oracle", "seconds_update", "seconds_build", "seconds_handover", "seconds_solve", "seconds_elapsed",
    "solver_status",
]


def choose_regime(n_classes, n_features, full_lp_rows=None, density=0.0):
    """The regime of ``regime="auto"``: ``"n"`` when ``m = K D <= LARGE_M``; else ``"full"`` when the full LP
    has at most :data:`FULL_LP_MAX_ROWS` rows (``full_lp_rows``; ``None``: unknown, taken as more); else
    ``"nm"`` when the features are sparse (``density``, the fraction of nonzeros of ``Psi``, at most
    :data:`SPARSE_DENSITY`) and ``"n"`` when they are dense.

    ``"full"`` is the master with every row and feature: the full LP (:mod:`mrc_pyomo.full_lp`).  Measured on
    the tweets (TF-IDF of words and word pairs, K = 2, docs/benchmarks.md): all 16,612 training samples give a
    reduced full LP of 16,808 rows and 217,370 features, solved and certified in 12.3 s by the interior point
    method, while the regime ``"nm"`` had not converged after 600 s (the previous benchmark run); on the
    3,200 samples of ``python -m benchmarks.run_case tweets ccg --quick``, 0.94 s against 124.5 s for ``"nm"``.
    With few features (``m <= LARGE_M``) the full LP is the slower by far (pulsar + 400 RFF, 2,000 samples:
    42 s against 3.2 s), so the regime ``"n"`` is kept there whatever the size.

    Column generation pays when a feature is nonzero on few samples (text): the master's columns stay few and
    sparse.  With dense features (random Fourier features, images) every feature outside ``J`` has a dual
    violation on the rows of ``I`` and the certificate of the regime ``"nm"`` (SPEC "Certificates") stays
    near 0 until ``J`` holds nearly all of them.  Measured on the harness's 26 classes with 400 random
    Fourier features (``K D = 26 x 417``, density 1; ``python -m benchmarks.run_case many_classes_26_rff
    ccg --quick --time-limit 120 --regime nm``, then ``--regime n``): ``"nm"`` certified ``[0, 0.519]`` in
    11 masters, ``"n"`` ``[0.095, 0.538]`` in 15 (docs/theory.rst; docs/benchmarks.md for all samples).
    """
    if n_classes * n_features <= LARGE_M:
        return "n"
    if full_lp_rows is not None and full_lp_rows <= FULL_LP_MAX_ROWS:
        return "full"
    return "nm" if density <= SPARSE_DENSITY else "n"


def feature_density(Psi):
    """The fraction of nonzero entries of ``Psi`` (dense array or sparse matrix)."""
    size = Psi.shape[0] * Psi.shape[1]
    if not size:
        return 0.0
    return (Psi.nnz if hasattr(Psi, "nnz") else np.count_nonzero(Psi)) / size


def simplex_budget(solve_seconds):
    """Seconds a warm-started simplex may take on the next master: :data:`STALL_FACTOR` times the largest of
    the solves so far, at least :data:`STALL_FLOOR`; no budget for the first master.

    Masters grow along the loop, so each solve takes about as long as the largest before it; a warm simplex
    that takes several times longer has stalled on a degenerate master (thousands of pivots at a constant
    objective), and the interior point method, whose time depends on the master's size and not on its
    degeneracy, solves it from scratch instead.  Measured (docs/benchmarks.md, records of
    ``benchmarks/results/full.jsonl``): in every regime-"n" run of the harness each master took at most 3x the
    largest before it but one, the 133rd master of mnist (all samples), which ran 248 s against at most 41.5 s
    before it, until the time limit stopped it; its final master solves cold in 38.9 s.  A budget relative to
    the median solve instead (3x) handed many ordinary masters to the interior point method: mnist, 900 s,
    certified gap 0.42 against 0.24 without a budget (``python -m benchmarks.loop_variants mnist
    --time-limit 900 --variants eps_1=1e-4 stall=3,eps_1=1e-4`` with that rule).
    """
    if STALL_FACTOR is None or not len(solve_seconds):
        return None
    return max(STALL_FLOOR, STALL_FACTOR * float(np.max(solve_seconds)))


def row_age(lambda0):
    """The ``row_age`` of a fit at ``lambda0`` (:class:`CCGConfig`): 1 (the paper's rule) with regularisation,
    :data:`UNREGULARISED_ROW_AGE` without.

    Without ``lambda.|mu|`` nothing but the rows bounds ``mu``, and removing a row at its first zero dual turns
    the loop into a cutting-plane zigzag: on satellite at ``lambda0 = 0`` every master added 400 rows and
    dropped the 400 added just before (``R(mu^k)`` between 5 and 43), until ``max_iter``.  Keeping a row for
    three over-satisfied masters, it converges: 2.4 s instead of the 60 s limit on the harness's quick case,
    3.9 s on all 6,435 samples (10: 6.0 s, never removed: 7.0 s).  With regularisation the same ageing made
    every quick case slower, 1.05x to 2.6x (median 1.38x: ``python -m benchmarks.compare
    benchmarks/results/quick_before_row_age.jsonl benchmarks/results/quick_after_row_age.jsonl``), so it is
    used without regularisation only.
    """
    return UNREGULARISED_ROW_AGE if lambda0 == 0 else 1


def gap_tolerance(eps_1):
    """The certified gap at which the loop stops: ``max(eps_1, GAP_FLOOR)``."""
    return max(eps_1, GAP_FLOOR)


@dataclass(frozen=True)
class CCGConfig:
    """The settings of MRC-CCG (Algorithm 1), as :class:`~mrc_pyomo.MRCClassifier` passes them.

    ``regime``: ``"n"`` (all features, rows added and removed) or ``"nm"`` (rows and features added);
    ``eps_1``: the certified gap at which the loop stops (and the threshold of the rows' violations);
    ``eps_2``: the threshold of the features' dual violations; ``n_max`` / ``m_max``: the rows / features
    added per iteration at most; ``max_iter``: masters at most; ``time_limit``: seconds (None: none);
    ``solver`` / ``solver_options``: the master's backend (:mod:`mrc_pyomo.master`); ``fit_intercept``: the
    first column of ``Psi`` is the constant 1 (an initial feature in the regime ``"nm"``); ``row_age``: in the
    regime ``"n"`` a row leaves the master after this many consecutive masters in which it was over-satisfied
    (1: at the first, as in the paper; row ageing, as in the column generation literature); ``ipm_fraction``:
    a master changed by more rows (added and removed) than this fraction of its own is solved by the interior
    point method with crossover instead of a warm simplex (None: never; built-in HiGHS backend).
    """

    regime: str = "n"
    fit_intercept: bool = True
    eps_1: float = 1e-3
    eps_2: float = 1e-5
    n_max: int = 400
    m_max: int = 400
    max_iter: int = 1000
    time_limit: float = None
    solver: str = "highs"
    solver_options: dict = None
    row_age: int = 1
    ipm_fraction: float = None


@dataclass
class Best:
    """The best rule so far: ``mu`` with the smallest ``R(mu)``, its scores ``Psi mu^T`` and
    ``nu = varphi(mu) + 1`` (the point ``(mu, nu)`` satisfies every row)."""

    mu: np.ndarray
    risk: float
    scores: np.ndarray
    nu: float

    @classmethod
    def evaluate(cls, Psi, mu, tau, lam, blocked=None):
        """``mu`` with ``R(mu)`` evaluated over all samples (``R'`` of :mod:`mrc_pyomo.reduction` if ``blocked``)."""
        scores = class_scores(Psi, mu)
        varphi = most_violated_subsets(scores, blocked)[0].max()
        return cls(mu, risk(mu, varphi, tau, lam), scores, float(varphi) + 1.0)

    @classmethod
    def best_of(cls, Psi, mus, tau, lam, blocked=None):
        """The best of ``mu = 0`` and the rules ``mus``, each evaluated by :meth:`evaluate` (the first of equals)."""
        best = cls.evaluate(Psi, np.zeros_like(tau), tau, lam, blocked)
        for mu in mus:
            candidate = cls.evaluate(Psi, mu, tau, lam, blocked)
            best = candidate if candidate.risk < best.risk else best
        return best


@dataclass
class Check:
    """The oracles' verdict on one master solution: violations, the certified interval, what to change next.

    ``primal_violations[i] = psi(x_i) + 1 - nu`` (the most violated row of each sample),
    ``dual_violations[y, j] = |g_yj - (1 - beta) tau_yj| - (1 - beta) lambda_yj``, ``risk = R(mu)``;
    ``best`` is the best rule once ``mu^k`` is counted and ``lower`` the best lower bound on ``R*``.
    """

    risk: float
    best: Best
    lower: float
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

    @property
    def gap(self):
        """The certified gap ``upper - lower``: ``R(mu_best) - R* <= gap``."""
        return self.best.risk - self.lower


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
    def lower(self):
        return self.check.lower

    @property
    def upper(self):
        return self.check.best.risk

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


def check_solution(master, solution, Psi, tau, lam, config, best, lower, blocked=None):
    """Run CONSTR, FEAT and the certificate on a master solution (one full pass over samples and features):
    the **check** step of the loop.

    ``config``: a :class:`CCGConfig` (regime, ``eps_1``, ``eps_2``, ``n_max``, ``m_max``); ``blocked``: the
    labels left out of each sample's subsets (:mod:`mrc_pyomo.reduction`), or None."""
    regime, eps_1, eps_2, n_max, m_max = config.regime, config.eps_1, config.eps_2, config.n_max, config.m_max
    mu, nu = solution.mu, solution.nu
    scores = class_scores(Psi, mu)
    psi, subsets = most_violated_subsets(scores, blocked)
    violations = psi + 1.0 - nu
    value = risk(mu, psi.max(), tau, lam)
    separation = (violations, subsets)
    if IN_OUT > 0:
        # in-out (Ben-Ameur and Neto): separate at a point between the best rule, whose (mu, varphi + 1)
        # satisfies every row, and (mu^k, nu^k); scores are linear in mu, so no extra product with Psi
        a = IN_OUT
        mu_s, nu_s = a * best.mu + (1 - a) * mu, a * best.nu + (1 - a) * nu
        scores_s = a * best.scores + (1 - a) * scores
        psi_s, subsets_s = most_violated_subsets(scores_s, blocked)
        value_s = risk(mu_s, psi_s.max(), tau, lam)
        if (psi_s + 1.0 - nu_s > NUMERICAL_FLOOR).any():
            separation = (psi_s + 1.0 - nu_s, subsets_s)
        if value_s < min(value, best.risk):
            best = Best(mu_s, value_s, scores_s, float(psi_s.max()) + 1.0)
    if value < best.risk:
        best = Best(mu, value, scores, float(psi.max()) + 1.0)

    g = dual_correlations(master.points, master.samples, master.subsets, solution.alpha)
    lower = max(lower, lower_bound(master.points, master.samples, master.subsets, solution.alpha, tau, lam,
                                   rho=best.risk, g=g, target=best.risk - gap_tolerance(eps_1)))
    gap_open = best.risk - lower > gap_tolerance(eps_1)

    picked = np.zeros(0, dtype=np.int64)
    if gap_open:
        sep_violations, sep_subsets = separation
        candidates = np.flatnonzero(sep_violations > NUMERICAL_FLOOR)
        eligible = ~master.contains_rows(candidates, sep_subsets[candidates])
        picked = candidates[most_violated(sep_violations[candidates], 0.0, n_max, eligible)]
        subsets = sep_subsets

    feature_violation = feature_violations(g, tau, lam, solution.beta).ravel()
    new_features = np.zeros(0, dtype=np.int64)
    if regime == "nm" and gap_open:
        outside = np.ones(feature_violation.size, dtype=bool)
        outside[master.features] = False
        new_features = most_violated(feature_violation, eps_2, m_max, outside)
        if not len(new_features):
            ratio = relative_feature_violations(g / solution.alpha[solution.alpha > 0].sum(), tau, lam).ravel()
            new_features = most_violated(ratio - 1.0, 0.0, m_max, outside)

    remove = np.zeros(master.n_rows, dtype=bool)
    if regime == "n":
        row_scores = class_scores(master.points(master.samples), mu)
        remove = over_satisfied(subset_values(row_scores, master.subsets) + 1.0 - nu, solution.alpha)
    return Check(risk=value, best=best, lower=lower, primal_violations=violations,
                 dual_violations=feature_violation.reshape(tau.shape), new_samples=picked,
                 new_subsets=subsets[picked], new_features=new_features, remove=remove)


def improve_on_segments(Psi, best, mu, tau, lam, blocked=None):
    """The best rule on the segments from ``best.mu`` to ``mu`` and to ``c(mu)``, and from 0 to ``c(mu)``.

    ``c(mu) = mu - mean_y mu_y`` has the same scores up to a shift common to all classes, hence the same
    predictions as ``mu``.  At ``mu = 0`` every row ``(i, Y)`` is active, so the slope of ``R`` from 0 towards
    ``mu`` holds ``max_i mean_y Psi(x_i).mu_y``, which can make every ``t mu`` worse than 0; towards ``c(mu)``
    that term is 0 and the slope is ``-tau.c(mu) + lambda.|c(mu)|``, negative for a rule that scores the
    true class above the mean.  So an early stop keeps the masters' predictions more often than not.
    """
    centred = mu - mu.mean(axis=0)
    for start, end in ((best.mu, mu), (best.mu, centred), (np.zeros_like(mu), centred)):
        candidate, value = risk_on_segment(Psi, start, end, tau, lam, blocked=blocked)
        if value < best.risk:
            best = Best.evaluate(Psi, candidate, tau, lam, blocked)
    return best


def centroid_rows(n, n_classes, reduction=None):
    """The rows of the first master (:func:`~mrc_pyomo.initialization.initial_rows`: the class centroids'),
    without those a reduction leaves out: ``(samples, subsets, floor)``.  They keep every master bounded."""
    samples, subsets, floor = initial_rows(n, n_classes)
    if reduction is not None:
        kept = reduction.kept_rows(samples, subsets)
        samples, subsets = samples[kept], subsets[kept]
    return samples, subsets, floor


def initial_master(Psi, y_idx, tau, lam, config, reduction=None):
    """The first master: the class-centroid rows and the initial features (:mod:`mrc_pyomo.initialization`),
    without the rows and features a reduction leaves out.  Returns the master and its changes, as recorded."""
    n, n_features = Psi.shape
    n_classes = tau.shape[0]
    samples, subsets, floor = centroid_rows(n, n_classes, reduction)
    features = initial_features(n_classes, n_features, config.regime, config.fit_intercept)
    if reduction is not None:
        features = features[~reduction.fixed.ravel()[features]]
    master = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y_idx, n_classes),
                              objective_floor=floor, solver=config.solver, solver_options=config.solver_options)
    master.add_features(features)
    master.add_rows(samples, subsets)
    return master, ((master.samples, master.subsets), (samples[:0], subsets[:0]), features)


def solve_master(master, history, first, remaining, solve_times=()):
    """The **solve** step: solve the master warm, with the stall budget of :func:`simplex_budget`; if the warm
    start fails on a later master, once more from scratch.  ``remaining``: a function giving the seconds left
    (None: no limit), which bounds the solve on the HiGHS backend except on the ``first`` master (without it
    there is no master to return).  ``solve_times``: the seconds of earlier solves of the same fit (a previous
    stage's), which count for the stall budget too.  Raises :class:`MasterSolveError`."""
    limit = lambda: None if first or not master.bulk else remaining()  # noqa: E731
    budget = simplex_budget(list(solve_times) + [record["seconds_solve"] for record in history])
    try:
        return master.solve(time_limit=limit(), budget=budget)
    except MasterSolveError:
        left = remaining()
        if first or (left is not None and left <= 0):
            raise
        master.refine()  # a warm start gone wrong: once more from scratch
        return master.solve(time_limit=limit())


def update_master(master, check, phase):
    """The **update** step: remove the rows the check found over-satisfied, add the rows and features it
    picked (in the initial ``"features"`` phase of the regime ``"nm"``, the features only).  Returns the
    changes as ``(rows added, rows removed, features added)``."""
    removed = (master.samples[check.remove], master.subsets[check.remove])
    master.remove_rows(check.remove)
    new_rows = (check.new_samples, check.new_subsets)
    if phase == "features" and len(check.new_features):
        new_rows = (new_rows[0][:0], new_rows[1][:0])  # column generation on the initial rows first
    master.add_rows(*new_rows)
    master.add_features(check.new_features)
    return new_rows, removed, check.new_features


def iteration_record(known, phase, solution, check, lower, master, seconds_oracle, start):
    """The **record** step: the record of a master (keys :data:`HISTORY_COLUMNS`), from what was known before
    it was solved (``known``: its size, the changes that made it, ``seconds_update`` and the solve's time
    split), its solution and its check."""
    return {**known, "phase": phase, "R_master": solution.objective, "R_mu": check.risk, "lower": lower,
            "upper": check.best.risk, "max_primal_violation": check.max_primal_violation,
            "max_dual_violation": check.max_dual_violation, "seconds_oracle": seconds_oracle,
            "seconds_elapsed": time.perf_counter() - start, "solver_status": master.solver_status}


def fit_ccg(Psi, y_idx, tau, lam, config=None, *, log=None, callback=None, reduction=None, master=None,
            candidates=(), solve_times=()):
    """Run MRC-CCG (Algorithm 1) on ``Psi`` (``(n, D)``) with class indices ``y_idx``, estimates ``tau``,
    ``lam`` and the settings ``config`` (a :class:`CCGConfig`; None: the defaults).

    The loop only sequences its steps: :func:`solve_master`, :func:`check_solution`, :func:`iteration_record`
    and :func:`update_master`.  Returns a :class:`FitResult` whose ``history`` has one record per master
    solved (keys :data:`HISTORY_COLUMNS`).  Record ``k`` describes master ``k``: ``rows_added`` /
    ``rows_removed`` / ``features_added`` are the changes that made it from master ``k - 1`` (the initial
    blocks for ``k = 1``), ``rows_readded`` how many of the rows added had been removed by this fit before
    (the churn: work done twice), ``seconds_update`` the time to apply them (on the built-in HiGHS backend:
    computing the blocks and loading them into HiGHS), ``seconds_build`` the time to build the Pyomo
    components they need (Pyomo's solvers only), ``seconds_handover`` the time to hand them to the solver (a
    persistent solver's ``set_instance`` or incremental calls; writing and reading the files of a file-based
    solver), ``seconds_solve`` the solver's own time, ``R_master`` its value ``R^k`` (as the solver reports
    it), ``R_mu`` the exact ``R(mu^k)``, ``lower`` / ``upper`` the certified interval after its check, the
    violations and ``seconds_oracle`` those of the check, ``solver_status`` what the solver said.  ``log``,
    if given, is called with each record; ``callback``, if given, with an :class:`IterationState`, and a
    true return value stops the loop.

    With a :class:`~mrc_pyomo.reduction.Reduction` the loop solves the reduced LP (no fixed feature, no row
    with a blocked label; ``R*`` unchanged): ``mu`` has zeros on the fixed features and ``upper`` is ``R'(mu)``,
    which :func:`mrc_pyomo.reduction.complete` turns into a ``mu`` of the full problem with the same ``R``.

    If the solver fails on master ``k > 1`` (an error, or a limit reached), the loop stops with the best rule
    found, which is still certified; the failure is the last record of the history (``R_master`` NaN) and the
    status is ``"solver_error"`` (or ``"time_limit"``).  A failure on the first master raises
    ``MasterSolveError``.

    Warm start (:mod:`mrc_pyomo.continuation`): ``master``, if given, is the first master instead of
    :func:`initial_master` (e.g. the final master of a fit at a larger ``lambda0``, with this fit's costs), and
    each ``mu`` of ``candidates`` (e.g. that fit's rule) is a rule the result may be, evaluated at this ``tau``
    and ``lam`` before the first master.  A given master's first solve is bounded by the time limit like the
    others (the candidates are rules to return), and ``solve_times`` (that fit's) count for its stall budget.
    """
    config = CCGConfig() if config is None else config
    start = time.perf_counter()
    elapsed = lambda: time.perf_counter() - start  # noqa: E731
    remaining = lambda: None if config.time_limit is None else config.time_limit - elapsed()  # noqa: E731
    out_of_time = lambda: config.time_limit is not None and elapsed() >= config.time_limit  # noqa: E731
    blocked = None if reduction is None else reduction.blocked
    warm = master
    if master is None:
        master, added = initial_master(Psi, y_idx, tau, lam, config, reduction)
    else:
        added = ((master.samples, master.subsets), (master.samples[:0], master.subsets[:0]), master.features)
    best = Best.best_of(Psi, candidates, tau, lam, blocked)
    lower, seconds_update = 0.0, elapsed()
    history, status, solution, refined = [], "max_iter", None, False
    idle = np.zeros(master.n_rows, dtype=np.int64)   # per row of the master: masters over-satisfied in a row
    dropped = row_keys(master.samples[:0], master.subsets[:0])   # the rows this fit removed
    for k in range(1, config.max_iter + 1):
        phase = "features" if config.regime == "nm" and k <= INIT_FEATURE_ROUNDS else "ccg"
        known = {"iteration": k, "n_rows": master.n_rows, "n_features": len(master.features),
                 "rows_added": len(added[0][0]), "rows_removed": len(added[1][0]),
                 "rows_readded": int(np.isin(row_keys(*added[0]), dropped).sum()) if len(dropped) else 0,
                 "features_added": len(added[2]), "seconds_update": seconds_update}
        tic = time.perf_counter()
        try:
            new_solution = solve_master(master, history, solution is None and warm is None, remaining,
                                        solve_times)
        except MasterSolveError as error:
            if solution is None:
                raise
            history.append({**known, "phase": phase, "R_master": np.nan, "R_mu": np.nan, "lower": lower,
                            "upper": best.risk, "max_primal_violation": np.nan, "max_dual_violation": np.nan,
                            "seconds_oracle": 0.0, "seconds_build": 0.0, "seconds_handover": 0.0,
                            "seconds_solve": time.perf_counter() - tic, "seconds_elapsed": elapsed(),
                            "solver_status": str(error)})
            if log is not None:
                log(history[-1])
            status = "time_limit" if out_of_time() else "solver_error"
            break
        solution = new_solution
        split = master.backend.seconds
        known["seconds_build"], known["seconds_handover"] = split.get("build", 0.0), split.get("handover", 0.0)
        known["seconds_solve"] = time.perf_counter() - tic - known["seconds_build"] - known["seconds_handover"]

        tic = time.perf_counter()
        check = check_solution(master, solution, Psi, tau, lam, config, best, lower, blocked)
        best, lower = check.best, check.lower
        idle = np.where(check.remove, idle + 1, 0)
        check = replace(check, remove=idle >= config.row_age)
        record = iteration_record(known, phase, solution, check, lower, master, time.perf_counter() - tic, start)
        history.append(record)
        if log is not None:
            log(record)
        if callback is not None and callback(IterationState(k, master, solution, check, record, *added)):
            status = "callback"
            break
        if check.gap <= gap_tolerance(config.eps_1):
            status = "converged"
            break
        if out_of_time():
            status = "time_limit"
            break
        if k == config.max_iter:
            break
        stalled = not (len(check.new_samples) or len(check.new_features))
        if stalled and refined:
            record["solver_status"] += f"; stalled: nothing left to add with a certified gap of {check.gap:.3g}"
            status = "solver_error"
            break

        tic = time.perf_counter()
        if stalled:  # the gap is open and nothing is violated: the master's solution is not what it claims
            master.refine()
            refined = True
        added = update_master(master, check, phase)
        changed = len(added[0][0]) + len(added[1][0])
        if config.ipm_fraction is not None and changed > config.ipm_fraction * master.n_rows:
            master.large_change()
        if len(added[1][0]):
            dropped = np.unique(np.concatenate([dropped, row_keys(*added[1])]))
        idle = idle[~check.remove]
        idle = np.concatenate([idle, np.zeros(master.n_rows - len(idle), dtype=np.int64)])   # the new rows
        seconds_update = time.perf_counter() - tic

    if status != "converged" and solution is not None:
        best = improve_on_segments(Psi, best, solution.mu, tau, lam, blocked)
    return FitResult(master=master, mu=best.mu, objective=solution.objective, lower=lower,
                     upper=best.risk, status=status, history=history)
