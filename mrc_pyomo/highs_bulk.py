"""The default solver path: the restricted master held in a persistent ``highspy.Highs`` instance.

Blocks of rows and columns are passed to HiGHS in bulk (``addRows`` / ``addCols`` from CSR / CSC arrays, a
few tens of nanoseconds per nonzero) instead of through Pyomo expressions (microseconds per nonzero).  HiGHS
keeps its simplex basis across these changes, so each re-solve is warm-started: new rows enter with a basic
slack, new columns at their zero bound, and only rows with positive slack (basic slack) are deleted.

Column layout: column 0 is ``nu``; the feature at position ``p`` of ``J`` has ``mu1`` at column ``1 + 2p`` and
``mu2`` at ``2 + 2p``.  Row layout: the optional ``objective >= 0`` row first, then the rows of ``I`` in order.
"""

import numpy as np

try:
    import highspy
except ImportError:  # pragma: no cover - highspy is a dependency; a clear error is raised on use
    highspy = None

INF = 1e30 if highspy is None else highspy.kHighsInf


def _interleave(values):
    """``[v0, -v0, v1, -v1, ...]``: the mu1 / mu2 pair of every entry."""
    out = np.empty(2 * len(values))
    out[0::2] = values
    out[1::2] = -values
    return out


class HighsMaster:
    """The LP ``P_{I,J}`` loaded in bulk into HiGHS (see the module docstring for the layout)."""

    def __init__(self, with_objective_floor, options=None):
        if highspy is None:
            raise ImportError("the default solver 'appsi_highs' needs the package highspy: pip install highspy")
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)
        for name, value in (options or {}).items():
            self.set_option(name, value)
        empty_i, empty_f = np.zeros(0, dtype=np.int32), np.zeros(0)
        self.highs.addCols(1, np.array([1.0]), np.array([-INF]), np.array([INF]), 0,
                           empty_i, empty_i, empty_f)
        self.n_fixed_rows = 0
        if with_objective_floor:
            self.highs.addRows(1, np.array([-INF]), np.array([0.0]), 1,
                               np.array([0], dtype=np.int32), np.array([0], dtype=np.int32), np.array([-1.0]))
            self.n_fixed_rows = 1

    def set_option(self, name, value):
        if self.highs.setOptionValue(name, value) != highspy.HighsStatus.kOk:
            raise ValueError(f"HiGHS rejected the option {name}={value!r}")

    def add_features(self, cost_pos, cost_neg, block, floor_pos=None, floor_neg=None):
        """Append the columns of new features.

        ``block`` is ``F_{I,new}`` (CSR or CSC, rows of ``I`` by new features); ``floor_*`` are the coefficients
        of mu1 / mu2 in the ``objective >= 0`` row, if it exists.
        """
        q = block.shape[1]
        block = block.tocsc()
        counts = np.diff(block.indptr)
        rows = block.indices.astype(np.int64) + self.n_fixed_rows
        values = block.data
        if self.n_fixed_rows:
            # prepend the floor-row entry (row 0) to every column
            counts = counts + 1
            starts = np.concatenate([[0], np.cumsum(counts)])[:-1]
            new_rows = np.zeros(len(rows) + q, dtype=np.int64)
            new_vals = np.empty(len(rows) + q)
            mask = np.ones(len(new_rows), dtype=bool)
            mask[starts] = False
            new_rows[mask] = rows
            new_vals[mask] = values
            new_vals[starts] = 0.0
            rows, values, floor_starts = new_rows, new_vals, starts
        # each feature gives two columns with the same rows: mu1 (+values) and mu2 (-values)
        col_counts = np.repeat(counts, 2)
        col_starts = np.concatenate([[0], np.cumsum(col_counts)])[:-1]
        seg_starts = np.concatenate([[0], np.cumsum(counts)])
        total = 2 * len(rows)
        idx = np.empty(total, dtype=np.int32)
        val = np.empty(total)
        # positions of column 2p's entries and column 2p+1's entries in the output
        within = np.arange(len(rows)) - np.repeat(seg_starts[:-1], counts)
        pos_mu1 = np.repeat(col_starts[0::2], counts) + within
        pos_mu2 = np.repeat(col_starts[1::2], counts) + within
        idx[pos_mu1] = rows
        idx[pos_mu2] = rows
        val[pos_mu1] = values
        val[pos_mu2] = -values
        if self.n_fixed_rows:
            val[col_starts[0::2]] = floor_pos
            val[col_starts[1::2]] = floor_neg
        costs = np.empty(2 * q)
        costs[0::2], costs[1::2] = cost_pos, cost_neg
        self.highs.addCols(2 * q, costs, np.zeros(2 * q), np.full(2 * q, INF), total,
                           col_starts.astype(np.int32), idx, val)

    def add_rows(self, block, rhs):
        """Append the rows ``block (mu1 - mu2) - nu <= rhs`` (``block``: CSR, columns = positions in ``J``)."""
        r = block.shape[0]
        block = block.tocsr()
        starts = block.indptr[:-1] * 2 + np.arange(r)
        total = 2 * block.nnz + r
        idx = np.empty(total, dtype=np.int32)
        val = np.empty(total)
        others = np.ones(total, dtype=bool)
        others[starts] = False
        idx[starts], val[starts] = 0, -1.0
        pair_idx = np.empty(2 * block.nnz, dtype=np.int64)
        pair_idx[0::2] = 1 + 2 * block.indices
        pair_idx[1::2] = 2 + 2 * block.indices
        idx[others] = pair_idx
        val[others] = _interleave(block.data)
        self.highs.addRows(r, np.full(r, -INF), np.asarray(rhs, dtype=float), total,
                           starts.astype(np.int32), idx, val)

    def delete_rows(self, positions):
        """Delete rows of ``I`` at the given positions (0-based in ``I``)."""
        if len(positions):
            index = np.asarray(positions, dtype=np.int32) + self.n_fixed_rows
            self.highs.deleteRows(len(index), index)

    def solve(self):
        """Run HiGHS; return ``(status_text, objective, mu1, mu2, nu, row_duals_of_I, floor_dual)``.

        Row duals are HiGHS's (``<= 0`` for ``<=`` rows of a minimisation); ``alpha = -row_dual``.
        """
        self.highs.run()
        status = self.highs.getModelStatus()
        text = self.highs.modelStatusToString(status)
        if status != highspy.HighsModelStatus.kOptimal:
            return text, None, None, None, None, None, None
        solution = self.highs.getSolution()
        x = np.asarray(solution.col_value)
        duals = np.asarray(solution.row_dual)
        floor = float(duals[0]) if self.n_fixed_rows else 0.0
        objective = self.highs.getInfo().objective_function_value
        return text, objective, x[1::2], x[2::2], float(x[0]), duals[self.n_fixed_rows:], floor

    def simplex_iterations(self):
        return self.highs.getInfo().simplex_iteration_count
