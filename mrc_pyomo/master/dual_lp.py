"""A backend that solves the master through its dual LP (eq. 8) in HiGHS: the full LP's fastest form
(:mod:`mrc_pyomo.methods.full_lp` states the measurements), not a solver name of its own.

The dual of ``P_{I,J}`` (without the floor row)::

    max -b_I.alpha   s.t.   tau_J - lambda_J <= F_{I,J}^T alpha <= tau_J + lambda_J,   sum(alpha) = 1,   alpha >= 0

has ``|J| + 1`` rows and one column per row of ``I``: half the primal's entries and a basis of size ``|J| + 1``, not
``|I|``.  Column blocks are loaded in bulk as rows are added; ``mu = row_dual[:m]``, ``nu = -row_dual[m]`` (HiGHS's
signs), ``alpha`` its column values, ``R^k = -`` its objective.  :class:`DualLPBackend` rebuilds it at the next
solve after any other change (the full LP: a master solved once); :class:`WarmDualBackend` follows the loop's
removals too and keeps its basis (MRC-CCG's masters of few classes, :func:`mrc_pyomo.methods.ccg.config.master_form`).
"""

import time

import numpy as np

from .backend import Backend, Capabilities
from .highs_backend import HighsBackend, forget_basis, warm_runs
from .highs_setup import INF, highspy, quiet_highs, run_with_limit, set_option
from .solution import BackendSolution, solve_error

#: HiGHS's ``simplex_strategy`` of its primal simplex: rows added to a master are columns of its dual LP at their
#: bound 0, so the last basis stays primal feasible
PRIMAL_SIMPLEX = 4


class DualLPBackend(Backend):
    """``P_{I,J}`` solved as its dual LP in a ``highspy.Highs`` instance (see the module docstring)."""

    # the dual form is written for the paper's rows (i, C): items have no columns of their own
    capabilities = Capabilities(limits_inside_solve=True, bulk_loading=True, warm_start=False, item_columns=False)

    def __init__(self, solver="highs", objective_floor=False, options=None):
        if objective_floor:
            raise ValueError("the dual-LP backend solves masters without the row objective >= 0")
        super().__init__(solver, objective_floor, options)
        self.highs = None     # built with the first rows; None: to be (re)built at the next solve
        self.n_columns = 0    # rows of I loaded as columns

    check_available = HighsBackend.check_available
    check_options = HighsBackend.check_options

    def _stale(self, *change):
        """A change the dual LP does not follow: it is rebuilt at the next solve."""
        self.highs, self.n_columns = None, 0

    features_added = removing_rows = row_bounds_changed = _stale

    def _build(self, master):
        """A new instance with the rows ``tau - lambda <= F^T alpha <= tau + lambda`` and ``sum(alpha) = 1``."""
        self.highs = quiet_highs(self.options)
        t, l = master.tau.ravel()[master.features], master.lam.ravel()[master.features]
        empty_i, empty_f = np.zeros(0, dtype=np.int32), np.zeros(0)
        self.highs.addRows(len(t) + 1, np.concatenate([t - l, [1.0]]), np.concatenate([t + l, [1.0]]), 0,
                           empty_i, empty_i, empty_f)
        self.n_columns = 0

    def rows_added(self, master, block):
        """The batch's rows as columns (:meth:`add_columns`), the first batch in a new LP; a batch that does not follow
        the columns loaded makes the LP stale."""
        if self.highs is None and master.n_rows == len(block.samples):   # the first batch: a new LP
            self._build(master)
        if self.highs is None or self.n_columns != master.n_rows - len(block.samples):
            self._stale()
            return
        self.add_columns(master, block)

    def add_columns(self, master, block):
        """Each row of the batch ``block`` as a column: its row's entries of ``F``, then 1 in ``sum(alpha) = 1``."""
        m = len(master.features)
        F = master.block(block.samples, block.subsets, master.features).mu.tocsr()
        F.sort_indices()
        r = F.shape[0]
        counts = np.diff(F.indptr) + 1
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        ends = starts + counts - 1
        index, value = np.empty(F.nnz + r, dtype=np.int32), np.empty(F.nnz + r)
        entries = np.ones(F.nnz + r, dtype=bool)
        entries[ends] = False
        index[entries], value[entries] = F.indices, F.data
        index[ends], value[ends] = m, 1.0
        self.highs.addCols(r, np.asarray(block.upper, dtype=float), np.zeros(r), np.full(r, INF), len(index),
                           starts.astype(np.int32), index, value)
        self.n_columns += r

    def load(self, master):
        """The whole ``master`` in a new LP: its batches of rows as columns."""
        self._build(master)
        for block in master.pyomo_model.batches:
            self.add_columns(master, block)

    def set_option(self, name, value):
        super().set_option(name, value)
        if self.highs is not None:
            set_option(self.highs, name, value)

    def refine(self):
        """Nothing to forget: the next solve starts from the last basis with the options set since
        (:func:`mrc_pyomo.methods.full_lp.steps`)."""

    def solve(self, master, time_limit=None, budget=None):
        if self.highs is None:
            self.load(master)
        tic = time.perf_counter()
        run_with_limit(self.highs, time_limit)
        self.seconds = {"build": 0.0, "handover": 0.0, "solve": time.perf_counter() - tic}
        return self.point(master, self.highs.modelStatusToString(self.highs.getModelStatus()))

    def point(self, master, text):
        """The :class:`~mrc_pyomo.master.solution.BackendSolution` of HiGHS's solution, or the error of a solve that
        did not end optimal, its model status in the words ``text``."""
        status = self.highs.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            raise solve_error(f"{self.solver_words(master)} to optimality: model status '{text}'",
                              status == highspy.HighsModelStatus.kTimeLimit)
        solution = self.highs.getSolution()
        duals = np.asarray(solution.row_dual)
        m = len(master.features)
        objective = -self.highs.getInfo().objective_function_value
        return BackendSolution(status=text, objective=objective, mu=duals[:m].copy(), nu=-float(duals[m]),
                               columns=np.zeros(0), row_duals=np.asarray(solution.col_value))

    def solver_words(self, master):
        """What did not solve what, for an error."""
        method = self.options.get("solver", "choose")
        return (f"HiGHS ({method}) did not solve the dual LP of the master ({master.n_rows} columns, "
                f"{len(master.features) + 1} rows)")


class WarmDualBackend(DualLPBackend):
    """MRC-CCG's masters through their dual LP, kept warm from one master to the next.  A row of ``I`` removed (slack
    at the last optimum: ``alpha = 0``, its column at its bound) is its column deleted, and rows added are columns at
    their bound 0, so the last basis stays primal feasible: HiGHS's primal simplex goes on from it
    (``simplex_strategy`` 4 unless the options set it).  As the primal form's backend
    (:class:`~mrc_pyomo.master.highs_backend.HighsBackend`): a master marked a large change, or whose warm simplex
    ran past its ``budget``, is solved by the interior point method with crossover (the same runs,
    :func:`~mrc_pyomo.master.highs_backend.warm_runs`), and :meth:`refine` forgets the basis and tightens the
    tolerances to 1e-10 (unless set; :func:`~mrc_pyomo.master.highs_backend.forget_basis`)."""

    capabilities = Capabilities(limits_inside_solve=True, bulk_loading=True, warm_start=True, item_columns=False)

    def __init__(self, solver="highs", objective_floor=False, options=None):
        super().__init__(solver, objective_floor, options)
        self.ipm_next = False   # the next solve by the interior point method (large_change)

    def solver_words(self, master):
        """What did not solve what, for an error: the restricted master, as the primal form's backend says it."""
        return (f"HiGHS did not solve the restricted master ({master.n_rows} rows, {len(master.features)} features) "
                f"by its dual LP")

    def _build(self, master):
        super()._build(master)
        if "simplex_strategy" not in self.options:
            set_option(self.highs, "simplex_strategy", PRIMAL_SIMPLEX)

    def removing_rows(self, master, mask):
        if self.highs is not None:
            columns = np.flatnonzero(master.pyomo_model.lp_rows(mask)).astype(np.int32)
            if len(columns):
                self.highs.deleteCols(len(columns), columns)
                self.n_columns -= len(columns)

    def large_change(self):
        """No useful basis: the next solve is by the interior point method with crossover, unless ``solver`` is set."""
        self.ipm_next = "solver" not in self.options

    def refine(self):
        if self.highs is not None:
            forget_basis(self.highs, self.options)

    def solve(self, master, time_limit=None, budget=None):
        if self.highs is None:
            self.load(master)
        tic = time.perf_counter()
        by_ipm, self.ipm_next = self.ipm_next, False
        _, _, text = warm_runs(self.highs, time_limit, budget, by_ipm)
        self.seconds = {"build": 0.0, "handover": 0.0, "solve": time.perf_counter() - tic}
        return self.point(master, text)
