"""The paper's rows ``(i, C)`` of the MRC LP (eq. 4, eq. 5): their label subsets, coefficients and right-hand sides.

The row ``(i, C)`` of ``F`` holds ``[y in C] Psi_ij / |C|`` at feature ``(y, j)`` (flat id ``f = y * D + j``) and
``b_(i,C) = 1/|C| - 1``: the row reads ``F_(i,C).mu - nu <= b_(i,C)``.  The certificate weighs these rows whatever the
master's formulation (:mod:`mrc_pyomo.oracles.certificate`); ``F`` is only formed for the rows and features asked for.
"""

import itertools

import numpy as np
import scipy.sparse as sp


def all_subsets(n_classes):
    """Every non-empty label subset as a boolean ``(2^K - 1, K)`` array, by increasing size."""
    rows = []
    for size in range(1, n_classes + 1):
        for combo in itertools.combinations(range(n_classes), size):
            row = np.zeros(n_classes, dtype=bool)
            row[list(combo)] = True
            rows.append(row)
    return np.array(rows)


def right_hand_sides(subsets):
    """``b_(i,C) = 1/|C| - 1``."""
    return 1.0 / subsets.sum(axis=1) - 1.0


def constraint_block(points, samples, subsets, features, n_features):
    """``F_{I,J}`` as CSR of shape ``(len(samples), len(features))``, columns in the order of ``features``.

    ``points(ids, columns)`` returns ``Psi[ids][:, columns]`` (dense or sparse); ``n_features`` is ``D``.  One gather of
    the distinct columns of ``Psi`` serves every class: row ``(i, C)`` holds ``Psi(x_i) / |C|`` for each ``y in C`` at
    the position of feature ``(y, j)`` in ``features`` (if in ``J``).  Explicit zeros of ``Psi`` are dropped."""
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
