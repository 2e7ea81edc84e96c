import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from benchmarks.data import load



def random_problem(n, d, n_classes, sparse=False, seed=0, density=0.4):
    """Labels with some signal in the features, so that the MRC is not trivial."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)  # every class present
    centres = rng.normal(scale=1.5, size=(n_classes, d))
    X = centres[y] + rng.normal(size=(n, d))
    if sparse:
        X[rng.random(X.shape) > density] = 0.0
        X = sp.csr_matrix(X)
    return X, y


def all_subsets(n_classes):
    return [c for size in range(1, n_classes + 1) for c in itertools.combinations(range(n_classes), size)]


def explicit_F(Psi, n_classes):
    """Every row (i, C) of the full LP's F, by enumeration: shape (n (2^K - 1), K D), and b."""
    Psi = Psi.toarray() if sp.issparse(Psi) else Psi
    n, D = Psi.shape
    rows, b = [], []
    for i in range(n):
        for C in all_subsets(n_classes):
            row = np.zeros((n_classes, D))
            row[list(C)] = Psi[i] / len(C)
            rows.append(row.ravel())
            b.append(1.0 / len(C) - 1.0)
    return np.array(rows), np.array(b)


def load_dataset(name, n=None, seed=0):
    """A benchmark data set, read as the benchmarks read it (:mod:`benchmarks.data`); the test is skipped
    where the data are not available."""
    try:
        return load(name, n=n, seed=seed)
    except FileNotFoundError as error:
        pytest.skip(str(error))


def reference_R_star(Psi, y_idx, n_classes, lambda0):
    """R* of the full LP (paper, eq. 4), independently of the library.

    ``Phi(x_i, y_i)`` is formed explicitly, ``tau`` and ``lambda`` are its mean and ``lambda0`` times its
    standard deviation, every row ``(i, C)`` of ``F`` is enumerated, and scipy's HiGHS solves the LP.  The
    columns of ``Psi`` are first divided by their largest absolute entry (R is invariant under a positive
    rescaling of a column), so that the reference is accurate on badly scaled data too.
    """
    Psi = np.asarray(Psi.todense()) if sp.issparse(Psi) else np.asarray(Psi, dtype=float)
    peak = np.abs(Psi).max(axis=0)
    Psi = Psi / np.where(peak > 0, peak, 1.0)
    n, D = Psi.shape
    Phi = np.zeros((n, n_classes * D))
    for i in range(n):
        Phi[i, y_idx[i] * D:(y_idx[i] + 1) * D] = Psi[i]
    tau, lam = Phi.mean(axis=0), lambda0 * Phi.std(axis=0)
    F, b = explicit_F(Psi, n_classes)
    c = np.concatenate([-(tau - lam), tau + lam, [1.0]])
    A = np.hstack([F, -F, -np.ones((F.shape[0], 1))])
    res = linprog(c, A_ub=A, b_ub=b, bounds=[(0, None)] * (2 * F.shape[1]) + [(None, None)], method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0, res.message
    return res.fun


def R_star_of(clf, X, y):
    """:func:`reference_R_star` for the data, feature map and ``lambda0`` of a fitted ``MRCClassifier``."""
    y_idx = np.searchsorted(clf.classes_, y)
    return reference_R_star(clf.feature_map_.transform(X), y_idx, len(clf.classes_), clf.lambda0)
