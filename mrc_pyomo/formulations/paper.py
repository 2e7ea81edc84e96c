"""The paper's formulation (``formulation="paper"``, the default): one LP row per item ``(i, C)``.

The 0-1 MRC LP (paper, eq. 4, problem P) over a subset ``I`` of rows and ``J`` of features (eq. 7)::

    min   -(tau - lambda)_J . mu1 + (tau + lambda)_J . mu2 + nu
    s.t.  F_{I,J} (mu1 - mu2) - nu 1 <= b_I,        mu1, mu2 >= 0,  nu free,

where the row ``(i, C)`` of ``F`` holds ``[y in C] Psi_ij / |C|`` at feature ``(y, j)`` and ``b_(i,C) = 1/|C| - 1``.
Features are flat ids ``f = y * D + j``.  Rows are pairs (sample id, label subset); sample ids ``>= n`` are
the class centroids of the initialisation.  The optional row ``objective >= 0`` (many-class initialisation)
is written ``(tau - lambda) . mu1 - (tau + lambda) . mu2 - nu <= 0``.

An item ``(i, C)`` of the master is the row ``(i, C)`` itself, with no column of its own.  These rows are also
the certificate's language (:mod:`mrc_pyomo.certificate`): every formulation's duals are turned into weights on
them.  Every backend builds its coefficients here, from the same arrays the oracles hold, so the HiGHS backend
and the Pyomo model (:mod:`mrc_pyomo.master.model`) agree to the bit.  ``F`` is only ever formed for the rows
and features asked for.
"""

from functools import partial

import numpy as np
import scipy.sparse as sp

from ..initialization import all_subsets
from ..primal_oracle import subset_values
from .base import Formulation, LPBlock, item_keys

__all__ = ["PaperFormulation", "constraint_block", "objective_coefficients", "right_hand_sides", "sample_label",
           "subset_label"]


def objective_coefficients(tau, lam, features):
    """Costs of ``mu1`` and ``mu2`` for the given flat feature ids."""
    t, l = tau.ravel()[features], lam.ravel()[features]
    return -(t - l), t + l


def right_hand_sides(subsets):
    """``b_(i,C) = 1/|C| - 1``."""
    return 1.0 / subsets.sum(axis=1) - 1.0


def constraint_block(points, samples, subsets, features, n_features):
    """``F_{I,J}`` as CSR of shape ``(len(samples), len(features))``, columns in the order of ``features``.

    ``points(ids, columns)`` returns ``Psi[ids][:, columns]`` (dense or sparse); ``n_features`` is ``D``.
    One gather of the distinct columns of ``Psi`` serves every class: the entries of row ``(i, C)`` are those
    of ``Psi(x_i) / |C|`` repeated for each ``y in C``, placed at the position of feature ``(y, j)`` in
    ``features`` (skipped where ``(y, j)`` is not in ``J``).  Explicit zeros of ``Psi`` are dropped.
    """
    classes, columns = np.divmod(np.asarray(features, dtype=np.int64), n_features)
    shape = (len(samples), len(features))
    distinct = np.unique(columns)
    # position in `features` of feature (y, distinct[c]), -1 if it is not in J
    position = np.full((subsets.shape[1], len(distinct)), -1, dtype=np.int64)
    position[classes, np.searchsorted(distinct, columns)] = np.arange(len(features))
    pair_rows, pair_classes = np.nonzero(subsets)          # the (row, y in C) pairs, row-major
    pair_scale = 1.0 / subsets.sum(axis=1)[pair_rows]
    block = points(samples, distinct)
    if sp.issparse(block):
        block = block.tocsr()[pair_rows]                    # one row of Psi per pair
        counts = np.diff(block.indptr)
        owner = np.repeat(np.arange(len(pair_rows)), counts)
        cols = position[pair_classes[owner], block.indices]
        rows, vals = pair_rows[owner], block.data * pair_scale[owner]
        keep = (cols >= 0) & (vals != 0)
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
    else:
        vals = block[pair_rows] * pair_scale[:, None]
        cols = position[pair_classes]
        keep = (cols >= 0) & (vals != 0)
        rows = np.broadcast_to(pair_rows[:, None], keep.shape)[keep]
        cols, vals = cols[keep], vals[keep]
    return sp.csr_matrix((vals, (rows, cols)), shape=shape)


# ----------------------------------------------------------------------------------------------------------
# Names: what a row or a column of the written model is.

def sample_label(sample, n_samples):
    """``"x17"`` for training sample 17, ``"centroid3"`` for the centroid of class 3."""
    return f"x{sample}" if sample < n_samples else f"centroid{sample - n_samples}"


def subset_label(subset):
    """``"C0_2"`` for the label subset {0, 2} (class indices into ``classes_``)."""
    return "C" + "_".join(str(y) for y in np.flatnonzero(subset))


# ----------------------------------------------------------------------------------------------------------
# The formulation seam (:mod:`mrc_pyomo.formulations.base`).

def _held(keys, ids, sets):
    return np.isin(item_keys(ids, sets), keys)


class PaperFormulation(Formulation):
    """The rows ``(i, C)`` of eq. 4: an item is one row ``F_(i,C).(mu1 - mu2) - nu <= b_(i,C)``."""

    name = "paper"

    def shape(self, subsets):
        return np.ones(len(subsets), dtype=np.int64), np.zeros(len(subsets), dtype=np.int64)

    def upper(self, subsets):
        return right_hand_sides(subsets)

    def block(self, points, samples, subsets, features, n_features):
        mu = constraint_block(points, samples, subsets, features, n_features)
        return LPBlock(mu=mu, nu=np.full(len(samples), -1.0), columns=sp.csc_matrix((len(samples), 0)))

    def names(self, samples, subsets, n_samples):
        return [(sample_label(int(i), n_samples), subset_label(c)) for i, c in zip(samples, subsets)], []

    def merge(self, samples, subsets, new_samples, new_subsets):
        first = np.sort(np.unique(item_keys(new_samples, new_subsets), return_index=True)[1])
        keep = first[~self.covers(samples, subsets)(new_samples[first], new_subsets[first])]
        return np.zeros(len(samples), dtype=bool), (new_samples[keep], new_subsets[keep])

    def covers(self, samples, subsets):
        return partial(_held, item_keys(samples, subsets))

    def item_values(self, scores, subsets):
        return subset_values(scores, subsets)

    def item_duals(self, subsets, row_duals):
        return row_duals

    def certificate_rows(self, samples, subsets, row_duals):
        return samples, subsets, row_duals

    def full_items(self, samples, n_classes, reduction=None):
        subsets = all_subsets(n_classes)
        rows = np.repeat(samples, len(subsets)), np.tile(subsets, (len(samples), 1))
        if reduction is None:
            return rows
        kept = reduction.kept_rows(*rows)
        return rows[0][kept], rows[1][kept]

    def full_lp_size(self, n_samples, n_classes, psi_nonzeros):
        """``n (2^K - 1)`` rows, ``2 nnz(Psi) K 2^(K-1) + rows`` entries."""
        rows = n_samples * (2**n_classes - 1)
        return rows, 2 * psi_nonzeros * n_classes * 2 ** (n_classes - 1) + rows
