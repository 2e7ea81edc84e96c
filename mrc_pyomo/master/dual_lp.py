"""A backend that solves the master through its dual LP (eq. 8) in HiGHS: the full LP's fastest form
(:mod:`mrc_pyomo.methods.full_lp` states the measurements), not a solver name of its own.

The dual of ``P_{I,J}`` (without the floor row)::

    max -b_I.alpha   s.t.   tau_J - lambda_J <= F_{I,J}^T alpha <= tau_J + lambda_J,   sum(alpha) = 1,   alpha >= 0

has ``|J| + 1`` rows and one column per row of ``I``: half the primal's entries and a basis of size ``|J| + 1``, not
``|I|``.  Column blocks are loaded in bulk as rows are added; ``mu = row_dual[:m]``, ``nu = -row_dual[m]`` (HiGHS's
signs), ``alpha`` its column values, ``R^k = -`` its objective.  Any other change rebuilds it at the next solve: the
form pays for a master solved once, not for the loop's warm re-solves.
"""

import time

import numpy as np

from .backend import Backend, Capabilities
from .highs_backend import HighsBackend
from .highs_setup import INF, highspy, quiet_highs, run_with_limit, set_option
from .solution import BackendSolution, solve_error


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
        """The batch's rows as columns: each holds its row's entries of ``F``, then 1 in ``sum(alpha) = 1``."""
        if self.highs is None and master.n_rows == len(block.samples):   # the first batch: a new LP
            self._build(master)
        if self.highs is None or self.n_columns != master.n_rows - len(block.samples):
            self._stale()
            return
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
        self._stale()
        for block in master.pyomo_model.batches:
            self.rows_added(master, block)

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
        status = self.highs.getModelStatus()
        text = self.highs.modelStatusToString(status)
        if status != highspy.HighsModelStatus.kOptimal:
            method = self.options.get("solver", "choose")
            raise solve_error(f"HiGHS ({method}) did not solve the dual LP of the master ({master.n_rows} columns, "
                              f"{len(master.features) + 1} rows) to optimality: model status '{text}'",
                              status == highspy.HighsModelStatus.kTimeLimit)
        solution = self.highs.getSolution()
        duals = np.asarray(solution.row_dual)
        m = len(master.features)
        objective = -self.highs.getInfo().objective_function_value
        return BackendSolution(status=text, objective=objective, mu=duals[:m].copy(), nu=-float(duals[m]),
                               columns=np.zeros(0), row_duals=np.asarray(solution.col_value))
