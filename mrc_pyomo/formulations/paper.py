"""The paper's formulation (``formulation="paper"``, the default): one LP row per item ``(i, C)``.

The 0-1 MRC LP (paper, eq. 4, problem P) over a subset ``I`` of rows and ``J`` of features (eq. 7)::

    min   -(tau - lambda)_J . mu1 + (tau + lambda)_J . mu2 + nu
    s.t.  F_{I,J} (mu1 - mu2) - nu 1 <= b_I,        mu1, mu2 >= 0,  nu free,

with ``F`` and ``b`` of :mod:`mrc_pyomo.oracles.rows` (sample ids ``>= n`` are the class centroids of the
initialisation).  The optional row ``objective >= 0`` (many-class initialisation) is written
``(tau - lambda) . mu1 - (tau + lambda) . mu2 - nu <= 0``.  An item ``(i, C)`` of the master is the row ``(i, C)``
itself, with no column of its own.  Every backend builds its coefficients here, from the same arrays the oracles hold,
so the HiGHS backend and the Pyomo model (:mod:`mrc_pyomo.master.model`) agree to the bit.
"""

from functools import partial

import numpy as np
import scipy.sparse as sp

from ..oracles.primal import subset_values
from ..oracles.rows import all_subsets, constraint_block, right_hand_sides
from .base import Formulation, LPBlock, item_keys, label_counts, label_nonzeros

__all__ = ["PaperFormulation", "objective_coefficients", "sample_label", "subset_label"]


def objective_coefficients(tau, lam, features):
    """Costs of ``mu1`` and ``mu2`` for the given flat feature ids."""
    t, l = tau.ravel()[features], lam.ravel()[features]
    return -(t - l), t + l


def sample_label(sample, n_samples):
    """``"x17"`` for training sample 17, ``"centroid3"`` for the centroid of class 3."""
    return f"x{sample}" if sample < n_samples else f"centroid{sample - n_samples}"


def subset_label(subset):
    """``"C0_2"`` for the label subset {0, 2} (class indices into ``classes_``)."""
    return "C" + "_".join(str(y) for y in np.flatnonzero(subset))


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

    def full_lp_size(self, labels, n_classes, row_nonzeros):
        """``sum_i (2^(k_i) - 1)`` rows (``n (2^K - 1)`` unreduced) and ``sum_i 2 nnz(Psi_i) k_i 2^(k_i - 1) + rows``
        entries (a label is in ``2^(k - 1)`` of the ``k`` labels' subsets; ``mu1``, ``mu2`` and ``nu``)."""
        rows = sum(count * (2**k - 1) for k, count in label_counts(labels).items())
        entries = sum(2 * total * k * 2 ** (k - 1) for k, total in label_nonzeros(labels, row_nonzeros).items())
        return rows, entries + rows
