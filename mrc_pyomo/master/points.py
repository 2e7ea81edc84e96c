"""The rows of ``Psi`` a restricted master reads (:attr:`RestrictedMaster.points
<mrc_pyomo.master.restricted.RestrictedMaster>`): the training samples', from the data source (:mod:`mrc_pyomo.data`),
and the class centroids', ids ``n, ..., n + K - 1`` (:mod:`mrc_pyomo.problem.initialization`).  A fitted estimator
keeps only the rows its master's items use, in memory (:meth:`Points.compacted`).
"""

import numpy as np
import scipy.sparse as sp

from ..data import InMemorySource


class Points:
    """``points(ids, columns=None)``: ``Psi[ids][:, columns]``, ids ``>= n_samples`` (default: the data's) being
    rows of ``centroids`` (dense or CSR as ``data`` is); ``stored_ids``: the training ids ``data`` holds (None: all)."""

    def __init__(self, data, centroids, stored_ids=None, n_samples=None):
        self.data, self.centroids, self.stored_ids = data, np.asarray(centroids), stored_ids
        self.n_samples = data.n_samples if n_samples is None else n_samples

    def __call__(self, ids, columns=None):
        ids = np.asarray(ids, dtype=np.int64)
        train = ids < self.n_samples
        local = ids[train]
        if self.stored_ids is not None:
            local = np.minimum(np.searchsorted(self.stored_ids, local), max(len(self.stored_ids) - 1, 0))
            if len(local) and (not len(self.stored_ids) or not np.array_equal(self.stored_ids[local], ids[train])):
                raise ValueError("this compacted master only holds the samples of its rows")
        if len(local):
            rows = self.data.rows(local, columns)
        else:   # no training row: a source is never asked for none
            width = self.centroids.shape[1] if columns is None else len(columns)
            rows = sp.csr_matrix((0, width)) if self.data.sparse else np.empty((0, width))
        if train.all():
            return rows
        extra = self.centroids[ids[~train] - self.n_samples]
        if columns is not None:
            extra = extra[:, np.asarray(columns, dtype=np.int64)]
        if self.data.sparse:
            stacked = sp.vstack([rows, sp.csr_matrix(extra)], format="csr")
            return stacked[np.argsort(np.concatenate([np.flatnonzero(train), np.flatnonzero(~train)]))]
        out = np.empty((len(ids), rows.shape[1]))
        out[train], out[~train] = rows, extra
        return out

    def compacted(self, samples):
        """The same points holding only the training rows of ``samples`` (a master's items), in memory."""
        ids = samples[samples < self.n_samples]
        ids = np.unique(ids) if self.stored_ids is None else self.stored_ids[np.isin(self.stored_ids, ids)]
        return Points(InMemorySource(self(ids)), self.centroids, stored_ids=ids, n_samples=self.n_samples)
