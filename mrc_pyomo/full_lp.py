"""``method="lp"``: the full MRC LP (paper, eq. 4) over all ``n (2^K - 1)`` rows and ``K D`` features.

It is the reference the generation loop is checked against, and the direct method for problems of moderate
size.  Its answer is certified like every other fit (:mod:`mrc_pyomo.certificate`): ``upper = R(mu)`` of the
best of the LP's ``mu`` and ``0`` (and of the segment between them), ``lower`` the Lagrangian bound of its
duals.

**Which LP HiGHS is given.**  The primal LP (eq. P) has ``R = n (2^K - 1)`` rows and ``2m + 1`` columns
(``m = K D``, ``mu1``, ``mu2``, ``nu``) and ``2 nnz(F) + R`` nonzeros; its dual (eq. D)::

    max -b.alpha   s.t.   tau - lambda <= F^T alpha <= tau + lambda,   sum(alpha) = 1,   alpha >= 0

has ``m + 1`` rows, ``R`` columns and ``nnz(F) + R`` nonzeros: half the entries (no ``mu1`` / ``mu2`` split),
and a basis of size ``m + 1`` instead of ``R``.  With the default HiGHS backend the dual LP is built in bulk
(columns added in blocks of samples, never through Pyomo) in its own ``highspy.Highs`` instance and solved
once; ``mu`` is the vector of its row duals (HiGHS's sign convention for a minimisation of ``b.alpha``:
``mu = row_dual[:m]``, ``nu = -row_dual[m]``), ``alpha`` its column values, ``R* = -`` its objective.  The
returned :class:`~mrc_pyomo.master.RestrictedMaster` still holds the primal full LP (all rows and features,
loaded in bulk, so ``clf.master_`` can be inspected and exported as before); it is not solved again, its
``solution`` is the one computed from the dual (loading it costs about 3% of the solve: 0.7 s against
24 s on pulsar with 2,000 samples).

**Which algorithm** (:func:`choose_method`): interior point (IPX) with crossover on the dual LP when both ``K D >=
IPM_MIN_FEATURES`` and ``K nnz(Psi) >= IPM_MIN_SIZE``, else dual simplex. ``K nnz(Psi)`` counts the entries of
``Phi(x_i, y)`` over every sample and class: the intrinsic size of the LP, without the ``2^(K-1)`` factor of the
label subsets, which multiplies the cost of a simplex iteration and of an interior-point iteration alike. Measured
with ``python -m benchmarks.full_lp_forms`` (records in ``benchmarks/results/full_lp_forms.jsonl``; HiGHS 1.15.1, 2
shared cores; seconds of ``Highs.run``; certified gap ``R(mu) - lower`` of each answer; columns: ``K nnz(Psi)``,
then dual LP simplex / IPM with crossover / primal LP default (dual simplex) / primal LP IPM):

======================  ==  ==========  ============  ========  ==============  ==========
case                    K   K nnz(Psi)  dual simplex  dual IPM  primal default  primal IPM
======================  ==  ==========  ============  ========  ==============  ==========
dense n=60, d=4         3   900         0.0025        0.0052    0.0051          0.0084
pulsar linear, n=5000   2   90,000      0.18          0.65      0.26
optdigits, n=50         10  32,500      47.7          176       293             248
dry_bean linear, n=500  7   59,500      10.1          32.6      13.5
satellite, n=500        6   111,000     18.0          37.1      63.9            72.2
satellite, n=1000       6   222,000     78.5          93.7      116             161
satellite + RFF, n=100  6   262,200     35.0          41.1      95.9
pulsar + RFF, n=300     2   245,400     1.18          1.33
pulsar + RFF, n=500     2   409,000     6.2           5.4       9.0             11.4
pulsar + RFF, n=700     2   572,600     6.2           4.1
pulsar + RFF, n=1000    2   818,000     41.6          16.6      34.2            30.9
pulsar + RFF, n=2000    2   1,636,000   96.3          42.0      118             99.8
======================  ==  ==========  ============  ========  ==============  ==========

The dual LP is the faster form in every case.  The ratio simplex / IPM grows with ``K nnz(Psi)`` (0.3 below
1e5, 0.85 at 2.2e5 - 2.6e5, 1.1 - 2.5 above 4e5), hence :data:`IPM_MIN_SIZE`.  With few
features the dual LP has only ``K D + 1`` rows, a basis the simplex factorises at no cost whatever ``n`` (pulsar
linear: 19 rows, 0.18 s against 0.65 s by IPM), hence :data:`IPM_MIN_FEATURES`.  Crossover costs little and
returns a vertex, certified to round-off (gaps ``1e-13`` and below); without it the certified gap was
``1e-10`` to ``4e-9``, enough for the default ``eps_1`` but not for ``eps_1 = 0``.

**The primal LP, when it has fewer rows** (``n_rows < K D``: sparse text, where the reduced LP of
:mod:`mrc_pyomo.reduction` keeps about one row per sample): the dual LP would then have the larger basis, and
its dual simplex did not finish in 240 s on the tweets' 3,200-sample subset (62,250 rows, 3,216 columns).
The master's own HiGHS instance solves the primal LP by the interior point method without crossover
(``"primal_ipm"``): 0.86 s there (dual simplex on the primal 4.1 s), and on all 16,612 training samples
(16,808 rows, 217,370 features) 10.8 s against 26.6 s with crossover, certified gaps ``1e-10`` and
``2.5e-12`` (with crossover ``2.6e-7``: the crossover's vertex was the less accurate).  These form
comparisons were made with a one-off script (the forms through ``solver_options``); the benchmark harness
records the chosen method: ``python -m benchmarks.run_case tweets lp --quick`` 1.0 s, all samples 11.8 s
(docs/benchmarks.md).

**If the certificate does not close** (a simplex run stopped within HiGHS's feasibility tolerances ``1e-7``
can leave a certified gap of about ``1e-9``), the same instance is re-solved once with the simplex (the dual
LP warm started from its basis, the primal LP from scratch), with tolerances ``1e-10``
(:data:`~mrc_pyomo.master.REFINED_TOLERANCE`); if that does not close it either, the status is ``"solver_error"``.

Any other ``solver`` (a Pyomo solver name, e.g. ``"glpk"``) solves the primal LP through the
:class:`~mrc_pyomo.master.RestrictedMaster` and its Pyomo model, as the generation loop does.
"""

import time

import numpy as np
import scipy.sparse as sp

from . import formulation
from .generation import Best, gap_tolerance
from .certificate import lower_bound
from .initialization import all_subsets
from .master import BUILTIN_SOLVER, REFINED_TOLERANCE, MasterSolution, MasterSolveError, RestrictedMaster
from .master.highs import quiet_highs, run_with_limit, set_option
from .primal_oracle import risk_on_segment
from .result import FitResult

MAX_ROWS = 2_000_000
MAX_NONZEROS = 100_000_000
# the interior point method beats the simplex on the dual LP when K D and K nnz(Psi) reach both of these
# (module docstring)
IPM_MIN_FEATURES = 350
IPM_MIN_SIZE = 400_000
METHODS = ("simplex", "ipm", "primal_ipm")
# HiGHS options of each method: the first two on the dual LP, the third on the primal LP (the master)
METHOD_OPTIONS = {
    "simplex": {"solver": "simplex", "simplex_strategy": 1},   # dual simplex
    "ipm": {"solver": "ipm", "run_crossover": "on"},
    "primal_ipm": {"solver": "ipm", "run_crossover": "off"},
}


def full_lp_size(Psi, n_classes):
    """``(rows, nonzeros)`` of the full LP: ``n (2^K - 1)`` rows, ``2 nnz(Psi) K 2^(K-1) + rows`` entries."""
    n = Psi.shape[0]
    rows = n * (2**n_classes - 1)
    return rows, 2 * _nonzeros(Psi) * n_classes * 2 ** (n_classes - 1) + rows


def _nonzeros(Psi):
    return int(Psi.nnz if sp.issparse(Psi) else np.count_nonzero(Psi))


def choose_method(n_classes, n_features, psi_nonzeros, n_rows=None):
    """The LP HiGHS is given and its algorithm, from ``K``, ``D = n_features``, ``nnz(Psi)`` and the number of
    rows ``n_rows`` of the primal LP (``None``: more than ``K D``).

    ``"primal_ipm"`` (the primal LP, interior point without crossover) when the primal LP has fewer rows than
    the dual (``n_rows < K D``: sparse text); else, on the dual LP, ``"ipm"`` (interior point with crossover)
    when ``K D >= IPM_MIN_FEATURES`` and ``K nnz(Psi) >= IPM_MIN_SIZE``, and ``"simplex"`` (dual simplex)
    otherwise.  See the module docstring for the measurements behind the rule.
    """
    m, size = n_classes * n_features, n_classes * psi_nonzeros
    if n_rows is not None and n_rows < m:
        return "primal_ipm"
    return "ipm" if m >= IPM_MIN_FEATURES and size >= IPM_MIN_SIZE else "simplex"


def _check_size(Psi, n_classes):
    rows, nonzeros = full_lp_size(Psi, n_classes)
    if rows > MAX_ROWS or nonzeros > MAX_NONZEROS:
        raise ValueError(
            f"the full LP would have {rows:,} rows and {nonzeros:,} nonzeros (limits {MAX_ROWS:,} and "
            f"{MAX_NONZEROS:,}): use method='ccg'")


def _full_master(Psi, tau, lam, solver, solver_options, block_size, reduction=None):
    """The :class:`RestrictedMaster` of the full primal LP: every feature, every row, in sample blocks (with a
    :class:`~mrc_pyomo.reduction.Reduction`: those of the reduced LP)."""
    n_classes, n_features = tau.shape
    master = RestrictedMaster(Psi, tau, lam, solver=solver, solver_options=solver_options)
    features = np.arange(n_classes * n_features)
    master.add_features(features if reduction is None else features[~reduction.fixed.ravel()])
    subsets = all_subsets(n_classes)
    for first in range(0, Psi.shape[0], block_size):
        samples = np.arange(first, min(first + block_size, Psi.shape[0]))
        rows = np.repeat(samples, len(subsets)), np.tile(subsets, (len(samples), 1))
        if reduction is not None:
            kept = reduction.kept_rows(*rows)
            rows = rows[0][kept], rows[1][kept]
        master.add_rows(*rows)
    return master


class DualLP:
    """The dual of the full LP in its own ``highspy.Highs`` instance, loaded in bulk from the master's rows.

    Rows ``0 .. m-1``: ``tau - lambda <= F^T alpha <= tau + lambda`` (features in the master's order), row
    ``m``: ``sum(alpha) = 1``; column ``r``: ``alpha_r`` of the master's row ``r``, cost ``b_r`` (minimised).
    """

    def __init__(self, master, options=None, block_size=2000):
        import highspy

        self.highspy = highspy
        self.h = quiet_highs(options)
        features = master.features
        m = len(features)
        self.m = m
        t, l = master.tau.ravel()[features], master.lam.ravel()[features]
        empty_i, empty_f = np.zeros(0, dtype=np.int32), np.zeros(0)
        self.h.addRows(m + 1, np.concatenate([t - l, [1.0]]), np.concatenate([t + l, [1.0]]), 0,
                       empty_i, empty_i, empty_f)
        inf = highspy.kHighsInf
        for first in range(0, master.n_rows, block_size * 2 ** master.n_classes):
            rows = slice(first, min(first + block_size * 2 ** master.n_classes, master.n_rows))
            samples, subsets = master.samples[rows], master.subsets[rows]
            block = master.block(samples, subsets, features).tocsr()
            block.sort_indices()
            r = block.shape[0]
            # column r of the dual: the entries of the master's row r, then 1 in the row sum(alpha) = 1
            counts = np.diff(block.indptr) + 1
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
            ends = starts + counts - 1
            index = np.empty(block.nnz + r, dtype=np.int32)
            value = np.empty(block.nnz + r)
            entries = np.ones(block.nnz + r, dtype=bool)
            entries[ends] = False
            index[entries], value[entries] = block.indices, block.data
            index[ends], value[ends] = m, 1.0
            self.h.addCols(r, formulation.right_hand_sides(subsets), np.zeros(r), np.full(r, inf), len(index),
                           starts.astype(np.int32), index, value)

    def set_option(self, name, value):
        set_option(self.h, name, value)

    def solve(self, time_limit=None):
        """Run HiGHS (for ``time_limit`` seconds at most); return ``(status_text, MasterSolution or None)``
        (``mu`` flat, in the master's order)."""
        run_with_limit(self.h, time_limit)
        status = self.h.getModelStatus()
        text = self.h.modelStatusToString(status)
        if status != self.highspy.HighsModelStatus.kOptimal:
            return text, None
        solution = self.h.getSolution()
        duals = np.asarray(solution.row_dual)
        alpha = np.asarray(solution.col_value)
        objective = -self.h.getInfo().objective_function_value
        return text, MasterSolution(mu=duals[:self.m].copy(), nu=-float(duals[self.m]), alpha=alpha, beta=0.0,
                                    objective=float(objective))


def _master_solution(master, flat):
    """``flat`` (``mu`` in the order of ``master.features``) as the master's ``(K, D)`` solution."""
    mu = np.zeros(master.n_classes * master.n_features)
    mu[master.features] = flat.mu
    return MasterSolution(mu=mu.reshape(master.n_classes, master.n_features), nu=flat.nu, alpha=flat.alpha,
                          beta=0.0, objective=flat.objective)


def solve_full_lp(Psi, tau, lam, solver="highs", solver_options=None, block_size=2000, method=None,
                  reduction=None):
    """Solve the full LP; return ``(master, solution, seconds_update, seconds_solve)``.

    With the HiGHS backend (``solver="highs"``) the explicit dual LP
    is solved by ``method`` (``"simplex"`` or ``"ipm"``; ``None``: :func:`choose_method`), ``solver_options``
    applied after the method's own options; ``master.full_lp_method`` says which method ran (``"pyomo"`` on
    the other path, where the primal LP is solved through the master's Pyomo model).  Raises ``ValueError``
    when the LP is beyond :data:`MAX_ROWS` rows or :data:`MAX_NONZEROS` nonzeros,
    :class:`~mrc_pyomo.master.MasterSolveError` when the solver does not return an optimal solution.
    """
    master, solution, _, seconds_update, seconds_solve = _solve(Psi, tau, lam, solver, solver_options,
                                                               block_size, method, reduction)
    return master, solution, seconds_update, seconds_solve


def _solve(Psi, tau, lam, solver, solver_options, block_size, method, reduction=None, time_limit=None):
    """:func:`solve_full_lp`, also returning the :class:`DualLP` (``None`` on the Pyomo path) for a re-solve;
    ``time_limit`` (seconds from the start, HiGHS backend only) bounds the solve."""
    n_classes = tau.shape[0]
    _check_size(Psi, n_classes)
    if method is not None and method not in METHODS:
        raise ValueError(f"method must be one of {METHODS} or None, got {method!r}")
    start = time.perf_counter()
    remaining = lambda: None if time_limit is None else time_limit - (time.perf_counter() - start)  # noqa: E731
    master = _full_master(Psi, tau, lam, solver, solver_options, block_size, reduction)
    if solver != BUILTIN_SOLVER:
        seconds_update = time.perf_counter() - start
        start = time.perf_counter()
        solution = master.solve()
        master.full_lp_method = "pyomo"
        return master, solution, None, seconds_update, time.perf_counter() - start
    if method is None:
        method = choose_method(n_classes, tau.shape[1], _nonzeros(Psi), master.n_rows)
    options = {**METHOD_OPTIONS[method], **(solver_options or {})}
    master.full_lp_method = method
    if method == "primal_ipm":
        for name, value in options.items():
            master.set_solver_option(name, value)
        seconds_update = time.perf_counter() - start
        start = time.perf_counter()
        solution = master.solve(time_limit=remaining())
        return master, solution, None, seconds_update, time.perf_counter() - start
    dual = DualLP(master, options, block_size=block_size)
    seconds_update = time.perf_counter() - start
    limit = remaining()
    start = time.perf_counter()
    status, flat = dual.solve(limit)
    seconds_solve = time.perf_counter() - start
    master.solver_status = status
    if flat is None:
        raise MasterSolveError(f"HiGHS ({method}) did not solve the full LP's dual ({master.n_rows} columns, "
                               f"{len(master.features) + 1} rows) to optimality: model status '{status}'")
    master.solution = _master_solution(master, flat)
    return master, master.solution, dual, seconds_update, seconds_solve


def _certify(Psi, master, solution, tau, lam, blocked=None):
    """``(best, lower)``: the best rule on the segment from ``0`` to the LP's ``mu`` and the duals' bound."""
    best = Best.evaluate(Psi, np.zeros_like(tau), tau, lam, blocked)
    mu, value = risk_on_segment(Psi, best.mu, solution.mu, tau, lam, blocked=blocked)
    if value < best.risk:
        best = Best.evaluate(Psi, mu, tau, lam, blocked)
    lower = lower_bound(master.points, master.samples, master.subsets, solution.alpha, tau, lam, rho=best.risk)
    return best, lower


def _refine(master, dual, solver_options):
    """Re-solve with the simplex at tolerances ``1e-10`` (unless the user set them): the dual LP warm started, or
    the primal LP (``dual`` None) from scratch; a solution or ``None``."""
    if dual is None:
        master.refine()
        master.set_solver_option("solver", "simplex")
        try:
            return master.solve()
        except MasterSolveError:
            return None
    for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
        if name not in (solver_options or {}):
            dual.set_option(name, REFINED_TOLERANCE)
    dual.set_option("solver", "simplex")
    status, flat = dual.solve()
    master.solver_status = status
    return None if flat is None else _master_solution(master, flat)


def fit_full_lp(Psi, tau, lam, eps_1=1e-3, solver="highs", solver_options=None, method=None,
                reduction=None, time_limit=None):
    """Solve the full LP and certify its answer: a :class:`~mrc_pyomo.result.FitResult` (no history).

    The status is ``"converged"`` when the certified gap is at most ``max(eps_1, GAP_FLOOR)``, else
    ``"solver_error"``: the solver's "optimal" is not taken on trust.  On the HiGHS backend an open gap
    first gets one refined re-solve (module docstring).  With a :class:`~mrc_pyomo.reduction.Reduction` the
    reduced LP is solved (as :func:`mrc_pyomo.generation.loop.fit_ccg` does).  ``time_limit`` (seconds, HiGHS backend)
    bounds the solve; if it is reached the result is ``mu = 0`` with the interval ``[0, R(0)]`` and the status
    ``"time_limit"`` (the solver's unfinished iterate is not certified).
    """
    blocked = None if reduction is None else reduction.blocked
    try:
        master, solution, dual, _, _ = _solve(Psi, tau, lam, solver, solver_options, 2000, method, reduction,
                                              time_limit)
    except MasterSolveError as error:
        if time_limit is None or "Time limit" not in str(error):
            raise
        best = Best.evaluate(Psi, np.zeros_like(tau), tau, lam, blocked)
        return FitResult(master=None, mu=best.mu, objective=np.nan, lower=0.0, upper=best.risk,
                         status="time_limit", history=[])
    best, lower = _certify(Psi, master, solution, tau, lam, blocked)
    if best.risk - lower > gap_tolerance(eps_1) and master.bulk:
        refined = _refine(master, dual, solver_options)
        if refined is not None:
            better, refined_lower = _certify(Psi, master, refined, tau, lam, blocked)
            if better.risk - refined_lower < best.risk - lower:
                master.solution, solution, best, lower = refined, refined, better, refined_lower
    status = "converged" if best.risk - lower <= gap_tolerance(eps_1) else "solver_error"
    return FitResult(master=master, mu=best.mu, objective=solution.objective, lower=lower,
                     upper=best.risk, status=status, history=[])
