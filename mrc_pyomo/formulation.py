"""The MRC linear program, solver-agnostic: coefficient blocks and their Pyomo form.

The 0-1 MRC LP (paper, eq. 5, problem P) over a subset ``I`` of rows and ``J`` of features (eq. 9)::

    min   -(tau - lambda)_J . mu1 + (tau + lambda)_J . mu2 + nu
    s.t.  F_{I,J} (mu1 - mu2) - nu 1 <= b_I,        mu1, mu2 >= 0,  nu free,

where the row ``(i, C)`` of ``F`` holds ``[y in C] Psi_ij / |C|`` at feature ``(y, j)`` and ``b_(i,C) = 1/|C| - 1``.
Features are flat ids ``f = y * D + j``.  Rows are pairs (sample id, label subset); sample ids ``>= n`` are
the class centroids of the initialisation.  The optional row ``objective >= 0`` (many-class initialisation)
is written ``(tau - lambda) . mu1 - (tau + lambda) . mu2 - nu <= 0``.

Every solver path builds its coefficients here, from the same arrays the oracles hold, so the HiGHS bulk path
and the Pyomo model agree to the bit.  ``F`` is only ever formed for the rows and features asked for.
"""

import numpy as np
import pyomo.environ as pyo
import scipy.sparse as sp
from pyomo.core.expr.numeric_expr import LinearExpression


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
# The Pyomo form.

def new_model(with_objective_floor):
    """An empty master: ``features`` / ``rows`` index sets, ``mu_pos`` (mu1), ``mu_neg`` (mu2), ``nu``, the
    constraints ``row[sample, subset]``, the objective, the optional row ``objective_floor`` and an import
    suffix ``dual``."""
    m = pyo.ConcreteModel(name="MRC restricted master P_IJ")
    m.features = pyo.Set(dimen=2, ordered=True, doc="(class index, feature index) pairs in J")
    m.mu_pos = pyo.Var(m.features, domain=pyo.NonNegativeReals, doc="mu1: positive part of mu")
    m.mu_neg = pyo.Var(m.features, domain=pyo.NonNegativeReals, doc="mu2: negative part of mu")
    m.nu = pyo.Var(domain=pyo.Reals, doc="nu = varphi(mu) + 1 at an optimum")
    m.rows = pyo.Set(dimen=2, ordered=True, doc="(sample, label subset) pairs in I")
    m.row = pyo.Constraint(m.rows, doc="(1/|C|) sum_{y in C} Psi(x).(mu1 - mu2)_y - nu <= 1/|C| - 1")
    m.objective = pyo.Objective(expr=m.nu, sense=pyo.minimize, doc="R: the worst-case error probability")
    if with_objective_floor:
        m.objective_floor = pyo.Constraint(expr=m.nu >= 0, doc="objective >= 0 (many-class initialisation)")
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    return m


def feature_keys(features, n_features):
    return [(int(y), int(j)) for y, j in zip(*np.divmod(features, n_features))]


def add_features(m, keys):
    for key in keys:
        m.features.add(key)
        m.mu_pos[key]
        m.mu_neg[key]


def linear_expression(m, keys, coefs, constant=0.0, nu_coef=0.0):
    """``constant + sum_k coefs[k] (mu1 - mu2)[keys[k]] + nu_coef nu`` as a flat Pyomo LinearExpression."""
    coefs = [float(c) for c in coefs]
    linear_vars = [m.mu_pos[k] for k in keys] + [m.mu_neg[k] for k in keys]
    linear_coefs = coefs + [-c for c in coefs]
    if nu_coef:
        linear_vars.append(m.nu)
        linear_coefs.append(float(nu_coef))
    return LinearExpression(constant=float(constant), linear_coefs=linear_coefs, linear_vars=linear_vars)


def set_objective(m, keys, tau_j, lam_j):
    """Objective ``-(tau - lambda).mu1 + (tau + lambda).mu2 + nu`` and, if present, its floor row."""
    linear_vars = [m.mu_pos[k] for k in keys] + [m.mu_neg[k] for k in keys] + [m.nu]
    coefs = [float(c) for c in np.concatenate([-(tau_j - lam_j), tau_j + lam_j, [1.0]])]
    m.objective.expr = LinearExpression(constant=0.0, linear_coefs=coefs, linear_vars=linear_vars)
    if hasattr(m, "objective_floor"):
        floor = LinearExpression(constant=0.0, linear_coefs=list(coefs), linear_vars=list(linear_vars))
        m.objective_floor.set_value(floor >= 0)


def set_rows(m, row_keys, block, feature_keys_, rhs):
    """Create or overwrite ``row[key]`` for each key from the CSR ``block`` (columns = ``feature_keys_``)."""
    for r, key in enumerate(row_keys):
        lo, hi = block.indptr[r], block.indptr[r + 1]
        keys = [feature_keys_[c] for c in block.indices[lo:hi]]
        body = linear_expression(m, keys, block.data[lo:hi], nu_coef=-1.0)
        if key not in m.rows:
            m.rows.add(key)
        m.row[key] = body <= float(rhs[r])


def remove_rows(m, row_keys):
    for key in row_keys:
        del m.row[key]
        m.rows.remove(key)
