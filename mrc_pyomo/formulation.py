"""The MRC linear program, solver-agnostic: its coefficient blocks and the names of its rows.

The 0-1 MRC LP (paper, eq. 4, problem P) over a subset ``I`` of rows and ``J`` of features (eq. 7)::

    min   -(tau - lambda)_J . mu1 + (tau + lambda)_J . mu2 + nu
    s.t.  F_{I,J} (mu1 - mu2) - nu 1 <= b_I,        mu1, mu2 >= 0,  nu free,

where the row ``(i, C)`` of ``F`` holds ``[y in C] Psi_ij / |C|`` at feature ``(y, j)`` and ``b_(i,C) = 1/|C| - 1``.
Features are flat ids ``f = y * D + j``.  Rows are pairs (sample id, label subset); sample ids ``>= n`` are
the class centroids of the initialisation.  The optional row ``objective >= 0`` (many-class initialisation)
is written ``(tau - lambda) . mu1 - (tau + lambda) . mu2 - nu <= 0``.

Every backend builds its coefficients here, from the same arrays the oracles hold, so the HiGHS backend and
the Pyomo model (:mod:`mrc_pyomo.master.model`) agree to the bit.  ``F`` is only ever formed for the rows and
features asked for.
"""

import numpy as np
import scipy.sparse as sp


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
