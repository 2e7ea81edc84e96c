"""The built-in backend (``solver="highs"``, the default): the master held in a persistent ``highspy.Highs``.

Blocks of rows and columns go to HiGHS in bulk (``addRows`` / ``addCols`` from CSR / CSC arrays), not through
Pyomo expressions.  HiGHS keeps its basis across these changes, so each re-solve is warm-started: new rows enter
with a basic slack, new columns at their zero bound, and only rows with positive slack are deleted.

Column layout: column 0 is ``nu``; each batch of features appends a ``mu1`` / ``mu2`` pair per feature, each batch
of items its own columns (:mod:`mrc_pyomo.formulations`), recorded in :attr:`HighsMaster.mu_columns` and
:attr:`HighsMaster.item_columns` as columns come and go (in the paper's formulation, feature ``p`` of ``J`` has
``mu1`` at column ``1 + 2p``, ``mu2`` at ``2 + 2p``).  Row layout: the fixed rows first (the row ``objective >= 0``
of the many-class initialisation, if any), then the LP rows of ``I`` in order.
"""

import time

import numpy as np
import scipy.sparse as sp

from ..formulations.paper import objective_coefficients
from .backend import Backend, Capabilities
from .highs_setup import INF, check_options, highspy, quiet_highs, run_pdlp, run_with_limit, set_option
from .solution import BackendSolution, solve_error


def _interleave(values):
    """``[v0, -v0, v1, -v1, ...]``: the mu1 / mu2 pair of every entry."""
    out = np.empty(2 * len(values))
    out[0::2] = values
    out[1::2] = -values
    return out


# HiGHS's feasibility tolerances after refine() (its defaults are 1e-7)
REFINED_TOLERANCE = 1e-10


def plain_run(highs, time_limit):
    """Run ``highs`` within ``time_limit``: ``(model status, False)``, as :meth:`HighsMaster._run` answers."""
    run_with_limit(highs, time_limit)
    return highs.getModelStatus(), False


def warm_runs(highs, time_limit, budget, by_ipm, run=plain_run):
    """The runs of a warm-started master's solve in ``highs``, each by ``run(highs, limit)`` (``(status, iterate)``):
    ``by_ipm``, one run by the interior point method with crossover (a large change); else the warm simplex within
    ``budget`` (and ``time_limit``), and past the budget, a simplex stalled on a degenerate master, the solve from
    scratch by the interior point method, whose time depends on size, not degeneracy.  Returns ``(status, iterate,
    text)``, ``text`` the model status in words, saying which runs were by the interior point method and why."""
    start = highs.getRunTime()
    if by_ipm:
        status, iterate = run_ipm(highs, time_limit, run)
        budget = None
    else:
        first = budget if time_limit is None else time_limit if budget is None else min(budget, time_limit)
        status, iterate = run(highs, first)
    text = highs.modelStatusToString(status) + (" (IPM: a large change)" if by_ipm else "")
    stalled = (budget is not None and status == highspy.HighsModelStatus.kTimeLimit
               and (time_limit is None or budget < time_limit))
    if stalled:
        highs.clearSolver()
        remaining = None if time_limit is None else time_limit - (highs.getRunTime() - start)
        status, iterate = run_ipm(highs, remaining, run)
        text = f"{highs.modelStatusToString(status)} (IPM: the simplex stalled for {budget:.2g} s)"
    return status, iterate, text


def run_ipm(highs, time_limit, run=plain_run):
    """``run(highs, time_limit)`` by HiGHS's interior point method (with crossover) for this run only, the solver
    restored afterwards."""
    solver = highs.getOptionValue("solver")[1]
    set_option(highs, "solver", "ipm")
    try:
        return run(highs, time_limit)
    finally:
        set_option(highs, "solver", solver)


def forget_basis(highs, options):
    """Make ``highs``'s next run start from scratch, at feasibility tolerances :data:`REFINED_TOLERANCE` unless
    ``options`` set them: a warm simplex can stop on a basis it calls optimal that the certificate refutes."""
    highs.clearSolver()
    for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
        if name not in options:
            set_option(highs, name, REFINED_TOLERANCE)


class HighsMaster:
    """The LP ``P_{I,J}`` loaded in bulk into HiGHS (layout: the module docstring).  ``fixed_rows``: pairs
    ``(coefficient of nu, upper bound)``; their coefficients on the features come with each block of features."""

    def __init__(self, fixed_rows=(), options=None):
        self.highs = quiet_highs(options)
        self.mu_columns = np.zeros((0, 2), dtype=np.int64)   # the columns of mu1 and mu2 of each feature of J
        self.item_columns = np.zeros(0, dtype=np.int64)      # the items' own columns, in order
        self.n_columns = 1
        self.ipm_next = False   # the next solve by the interior point method (HighsBackend.large_change)
        empty_i, empty_f = np.zeros(0, dtype=np.int32), np.zeros(0)
        self.highs.addCols(1, np.array([1.0]), np.array([-INF]), np.array([INF]), 0,
                           empty_i, empty_i, empty_f)
        self.n_fixed_rows = len(fixed_rows)
        for nu_coef, upper in fixed_rows:
            self.highs.addRows(1, np.array([-INF]), np.array([float(upper)]), 1,
                               np.array([0], dtype=np.int32), np.array([0], dtype=np.int32),
                               np.array([float(nu_coef)]))

    def set_option(self, name, value):
        set_option(self.highs, name, value)

    def add_features(self, cost_pos, cost_neg, block, fixed_pos, fixed_neg):
        """Append the columns of new features: ``mu1`` (``+block``) and ``mu2`` (``-block``) of each, interleaved.
        ``block``: the coefficients of ``mu`` in the LP rows of ``I``; ``fixed_pos`` / ``fixed_neg`` (shape
        ``(fixed rows, new features)``): those of ``mu1`` / ``mu2`` in the fixed rows."""
        q = block.shape[1]
        pos = sp.vstack([sp.csr_matrix(np.reshape(fixed_pos, (self.n_fixed_rows, q))), block])
        neg = sp.vstack([sp.csr_matrix(np.reshape(fixed_neg, (self.n_fixed_rows, q))), -block])
        interleave = np.arange(2 * q).reshape(2, q).T.ravel()      # mu1 of feature p, then its mu2
        columns = sp.hstack([pos, neg], format="csc")[:, interleave]
        costs = np.empty(2 * q)
        costs[0::2], costs[1::2] = cost_pos, cost_neg
        self.highs.addCols(2 * q, costs, np.zeros(2 * q), np.full(2 * q, INF), columns.nnz,
                           columns.indptr[:-1].astype(np.int32), columns.indices.astype(np.int32),
                           columns.data.astype(float))
        self.mu_columns = np.concatenate([self.mu_columns, self.n_columns + np.arange(2 * q).reshape(q, 2)])
        self.n_columns += 2 * q

    def add_rows(self, lp, rhs):
        """Append the LP rows ``lp.mu.(mu1 - mu2) + lp.nu nu + lp.columns.u <= rhs`` of a batch (an
        :class:`~mrc_pyomo.formulations.LPBlock`, ``mu`` by positions in ``J``), then the items' own columns."""
        block = lp.mu.tocsr()
        r = block.shape[0]
        n_rows = self.highs.getNumRow()
        with_nu = np.asarray(lp.nu) != 0
        counts = 2 * np.diff(block.indptr) + with_nu
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        total = int(counts.sum())
        idx = np.empty(total, dtype=np.int32)
        val = np.empty(total)
        others = np.ones(total, dtype=bool)
        others[starts[with_nu]] = False
        idx[starts[with_nu]], val[starts[with_nu]] = 0, np.asarray(lp.nu)[with_nu]
        pair_idx = np.empty(2 * block.nnz, dtype=np.int64)
        pair_idx[0::2] = self.mu_columns[block.indices, 0]
        pair_idx[1::2] = self.mu_columns[block.indices, 1]
        idx[others] = pair_idx
        val[others] = _interleave(block.data)
        self.highs.addRows(r, np.full(r, -INF), np.asarray(rhs, dtype=float), total,
                           starts.astype(np.int32), idx, val)
        columns = lp.columns.tocsc()
        q = columns.shape[1]
        if q:
            self.highs.addCols(q, np.zeros(q), np.zeros(q), np.full(q, INF), columns.nnz,
                               columns.indptr[:-1].astype(np.int32), (columns.indices + n_rows).astype(np.int32),
                               columns.data.astype(float))
            self.item_columns = np.concatenate([self.item_columns, self.n_columns + np.arange(q)])
            self.n_columns += q

    def set_row_upper(self, positions, upper):
        """Change the upper bounds of LP rows of I at the given positions (0-based in ``I``)."""
        if len(positions):
            index = np.asarray(positions, dtype=np.int32) + self.n_fixed_rows
            self.highs.changeRowsBounds(len(index), index, np.full(len(index), -INF), np.asarray(upper, float))

    def delete_rows(self, positions, columns=()):
        """Delete the LP rows of ``I`` at ``positions`` and the item columns at ``columns`` (0-based among them)."""
        if len(positions):
            index = np.asarray(positions, dtype=np.int32) + self.n_fixed_rows
            self.highs.deleteRows(len(index), index)
        if len(columns):
            gone = np.sort(self.item_columns[np.asarray(columns, dtype=np.int64)])
            self.highs.deleteCols(len(gone), gone.astype(np.int32))
            self.item_columns = np.delete(self.item_columns, columns)
            self.item_columns -= np.searchsorted(gone, self.item_columns)
            self.mu_columns -= np.searchsorted(gone, self.mu_columns)
            self.n_columns -= len(gone)

    @staticmethod
    def _run(highs, time_limit):
        """Run ``highs`` within ``time_limit``; return the model status and whether ``highs.getSolution()`` holds the
        solve's point whatever the status (PDLP's: :func:`~mrc_pyomo.master.highs_setup.run_pdlp`)."""
        if highs.getOptionValue("solver")[1] == "pdlp":
            return run_pdlp(highs, time_limit)
        return plain_run(highs, time_limit)

    def solve(self, time_limit=None, budget=None, what="the restricted master"):
        """Run HiGHS; return the :class:`~mrc_pyomo.master.solution.BackendSolution`, or raise
        :class:`~mrc_pyomo.master.MasterSolveError` (:class:`~mrc_pyomo.master.MasterTimeLimit` at HiGHS's time
        limit) naming ``what`` was solved.  Duals are ``-`` HiGHS's row duals, so ``>= 0``.

        ``time_limit`` (seconds) bounds this solve, ``budget`` (seconds) the warm simplex: past it the simplex has
        stalled on a degenerate master, solved again from scratch by the interior point method with crossover,
        whose time depends on size, not degeneracy (the status says so), as is the solve after
        :meth:`HighsBackend.large_change`."""
        by_ipm, self.ipm_next = self.ipm_next, False
        status, iterate, text = warm_runs(self.highs, time_limit, budget, by_ipm, self._run)
        if status != highspy.HighsModelStatus.kOptimal:
            timed_out = status == highspy.HighsModelStatus.kTimeLimit
            raise solve_error(f"HiGHS did not solve {what} to optimality: model status '{text}'", timed_out,
                              self.point(text) if timed_out and iterate else None)
        return self.point(text)

    def point(self, status):
        """The :class:`~mrc_pyomo.master.solution.BackendSolution` of HiGHS's solution, with the words ``status``."""
        solution = self.highs.getSolution()
        x = np.asarray(solution.col_value)
        duals = -np.asarray(solution.row_dual)
        return BackendSolution(status=status, objective=self.highs.getInfo().objective_function_value,
                               mu=x[self.mu_columns[:, 0]] - x[self.mu_columns[:, 1]], nu=float(x[0]),
                               columns=x[self.item_columns], row_duals=duals[self.n_fixed_rows:],
                               beta=float(duals[0]) if self.n_fixed_rows else 0.0)

    def simplex_iterations(self):
        return self.highs.getInfo().simplex_iteration_count


class HighsBackend(Backend):
    """The built-in backend on a :class:`HighsMaster`, loaded in bulk with each change; no Pyomo component is built.
    ``seconds``: only ``solve`` (loading is timed with the changes, in the loop's ``seconds_update``)."""

    capabilities = Capabilities(limits_inside_solve=True, bulk_loading=True, warm_start=True)

    def __init__(self, solver="highs", objective_floor=False, options=None):
        super().__init__(solver, objective_floor, options)
        # the fixed row, if any, is ``objective >= 0`` as ``-objective <= 0``
        self.lp = HighsMaster([(-1.0, 0.0)] if objective_floor else [], self.options)

    @classmethod
    def check_available(cls, solver):
        if highspy is None:
            raise RuntimeError(f"solver {solver!r} needs the package highspy: pip install highspy")

    @classmethod
    def check_options(cls, solver, options):
        check_options(options)

    @property
    def highs(self):
        return self.lp.highs

    def features_added(self, master, features, with_rows=True):
        """Load the columns of new features, with their entries in the rows of I (``with_rows``) or none; in the
        floor ``-objective <= 0``, if any, their coefficients are minus their costs."""
        cost_pos, cost_neg = objective_coefficients(master.tau, master.lam, features)
        if with_rows:
            block = master.block(master.samples, master.subsets, features).mu
        else:
            block = sp.csr_matrix((0, len(features)))
        rows = 1 if self.objective_floor else 0
        self.lp.add_features(cost_pos, cost_neg, block, np.tile(-cost_pos, (rows, 1)), np.tile(-cost_neg, (rows, 1)))

    def load(self, master):
        """Load the whole master into this (new) backend: its features, then its batches of rows."""
        self.features_added(master, master.features, with_rows=False)
        for block in master.pyomo_model.batches:
            self.rows_added(master, block)

    def rows_added(self, master, block):
        self.lp.add_rows(master.block(block.samples, block.subsets, master.features), block.upper)

    def removing_rows(self, master, mask):
        model = master.pyomo_model
        self.lp.delete_rows(np.flatnonzero(model.lp_rows(mask)), np.flatnonzero(model.lp_columns(mask)))

    def row_bounds_changed(self, master, mask):
        positions = np.flatnonzero(master.pyomo_model.lp_rows(mask))
        self.lp.set_row_upper(positions, master.pyomo_model.upper[positions])

    def set_option(self, name, value):
        self.lp.set_option(name, value)
        self.options[name] = value

    def large_change(self):
        """No useful basis: the next solve is by the interior point method with crossover, unless ``solver`` is set."""
        self.lp.ipm_next = "solver" not in self.options

    def refine(self):
        """Forget the basis, so that the next solve starts from scratch, at tolerances 1e-10 (unless set)."""
        forget_basis(self.lp.highs, self.options)

    def solve(self, master, time_limit=None, budget=None):
        tic = time.perf_counter()
        try:
            return self.lp.solve(time_limit, budget, what=f"the restricted master ({master.n_rows} rows, "
                                                          f"{len(master.features)} features)")
        finally:
            self.seconds = {"build": 0.0, "handover": 0.0, "solve": time.perf_counter() - tic}
