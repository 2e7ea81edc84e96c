"""What the tests share, imported by name (``from helpers import random_problem``) from any folder of ``tests/``.

``tests/conftest.py`` puts this folder on ``sys.path`` (pytest's default import mode does too, for the root
conftest's folder), so the import works from ``tests/oracles/test_primal.py`` as from ``tests/test_*.py``;
fixtures live in ``tests/conftest.py``.  Sections: the repository, problems, independent references (brute force
enumeration and full LPs solved by SciPy, without the library's solvers), checks of a fit, solvers, the command
line.
"""

import itertools
import warnings
from pathlib import Path

import numpy as np
import pyomo.environ as pyo
import pytest
import scipy.sparse as sp
import sklearn
from hypothesis import strategies as st
from scipy.optimize import linprog
from sklearn.exceptions import ConvergenceWarning

from mrc_pyomo import MRCClassifier, RandomFourierFeatures
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.scaling import column_scales, scale_columns

# -- the repository ------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
#: the installed scikit-learn's (major, minor), for the tests of its own behaviour that changed between releases
SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])


# -- problems ------------------------------------------------------------------------------------------------

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


def standard_problem(seed=0):
    X, y = random_problem(60, 4, 3, seed=seed)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def scaled_problem(n, d, K, sparse, seed, lambda0=0.01):
    """``(Psi, y_idx, tau, lam)`` as the classifier builds them (column-scaled Psi)."""
    X, y = random_problem(n, d, K, sparse=sparse, seed=seed)
    y_idx = np.unique(y, return_inverse=True)[1]
    Psi = make_feature_map("linear").fit(X).transform(X)
    Psi = scale_columns(Psi, column_scales(Psi))
    tau, lam = mean_and_confidence(Psi, y_idx, K, lambda0)
    return Psi, y_idx, tau, lam


def load_dataset(name, n=None, seed=0):
    """A benchmark data set, read as the benchmarks read it (:mod:`benchmarks.data`, imported by
    ``tests/conftest.py`` from the repository); the test is skipped where the data are not available."""
    from benchmarks.data import load
    try:
        return load(name, n=n, seed=seed)
    except FileNotFoundError as error:
        pytest.skip(str(error))


@st.composite
def problems(draw):
    """The property test's small problems (``tests/estimator/test_property.py``, whose docstring describes them):
    K in 2..6, dense or sparse, linear or Fourier features, degenerate data, columns rescaled by 10^-6..10^6."""
    K = draw(st.integers(2, 6))
    n = draw(st.integers(K + 2, 5 * K + 6))
    d = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = draw(st.sampled_from(["overlapping", "separable", "duplicated rows", "one-sample class"]))
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)
    if shape == "one-sample class":
        y[K:] = rng.integers(0, K - 1, n - K)
    centres = rng.normal(scale=6.0 if shape == "separable" else 1.0, size=(K, d))
    X = centres[y] + rng.normal(scale=0.1 if shape == "separable" else 1.0, size=(n, d))
    if shape == "duplicated rows":
        half = n // 2
        X[half:2 * half], y[half:2 * half] = X[:half], y[:half]
    if draw(st.booleans()):
        X = np.hstack([X, np.zeros((n, 1))])
    if draw(st.booleans()):
        X = np.hstack([X, np.full((n, 1), 3.0)])
    exponents = draw(st.lists(st.integers(-6, 6), min_size=X.shape[1], max_size=X.shape[1]))
    X = X * 10.0 ** np.array(exponents)
    if draw(st.booleans()):
        X[rng.random(X.shape) < 0.4] = 0.0
        X = sp.csr_matrix(X)
    phi = draw(st.sampled_from(["linear", "fourier"]))
    params = {
        "phi": RandomFourierFeatures(n_components=4, random_state=0) if phi == "fourier" else "linear",
        "fit_intercept": draw(st.booleans()),
        "lambda0": draw(st.sampled_from([0.001, 0.01, 1.0])),
        "regime": draw(st.sampled_from(["n", "nm"])),
        "n_max": draw(st.integers(3, 40)),
        "m_max": draw(st.integers(2, 10)),
    }
    return X, y, params


# -- independent references ----------------------------------------------------------------------------------

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


# the reference LP is solved to 1e-10 on normalised columns; this is what "holds R*" allows for it
REFERENCE_TOL = 1e-7


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


def enumerated_R_star(X, y, lambda0=0.01):
    """The LP P of the paper built from an enumerated F and solved by scipy's linprog (the linear map with an
    intercept, the library's ``tau`` and ``lambda``)."""
    classes, y_idx = np.unique(y, return_inverse=True)
    K = len(classes)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y_idx, K, lambda0)
    F, b = explicit_F(Psi, K)
    m = F.shape[1]
    c = np.concatenate([-(tau - lam).ravel(), (tau + lam).ravel(), [1.0]])
    A = np.hstack([F, -F, -np.ones((F.shape[0], 1))])
    bounds = [(0, None)] * (2 * m) + [(None, None)]
    res = linprog(c, A_ub=A, b_ub=b, bounds=bounds, method="highs")
    assert res.status == 0
    return res.fun


# -- checks of a fit -----------------------------------------------------------------------------------------

def assert_exact(clf, X, y, tol=1e-6):
    """Converged, the certified interval holds the independent R* and is closed to ``tol``."""
    R_star = R_star_of(clf, X, y)
    assert clf.status_ == "converged"
    assert clf.lower_ - 1e-7 <= R_star <= clf.upper_ + 1e-7
    assert clf.upper_ - clf.lower_ <= tol and clf.upper_ - R_star <= tol
    Psi = clf.feature_map_.transform(X)
    assert clf.upper_ == pytest.approx(worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_), rel=1e-12)


def assert_certified(fits, X, y, lambda0):
    """For fits of one problem: ``upper_`` is ``R(mu_)`` raised by the bound on its rounding, the interval holds
    the R* of an independent full LP, and "converged" means a gap within eps_1."""
    classes, y_idx = np.unique(y, return_inverse=True)
    Psi = fits[0].feature_map_.transform(X)
    R_star = reference_R_star(Psi, y_idx, len(classes), lambda0)
    for clf in fits:
        R = worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_)
        assert R <= clf.upper_ <= R + 1e-9
        assert clf.lower_ - REFERENCE_TOL <= R_star <= clf.upper_ + REFERENCE_TOL
        assert (clf.status_ == "converged") == (clf.upper_ - clf.lower_ <= max(clf.eps_1, 1e-9))


def fits_in_memory_and_on_dask(X, y, **params):
    """``(in_memory, on_dask)``: ``MRCClassifier(**params)`` fitted on ``X`` and on ``X`` as a Dask array of
    70-row chunks (Dask's synchronous scheduler; the fits' convergence warnings silenced), for tests that the
    two give the same fit."""
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    with dask.config.set(scheduler="sync"), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        memory = MRCClassifier(**params).fit(X, y)
        on_dask = MRCClassifier(**params).fit(da.from_array(X, chunks=(70, X.shape[1])), y)
    return memory, on_dask


# -- solvers -------------------------------------------------------------------------------------------------

PERSISTENT = ["appsi_highs", "gurobi_persistent", "appsi_gurobi", "cplex_persistent"]
OTHERS = ["glpk", "cbc"]


COMMERCIAL = {"gurobi": "gurobipy", "cplex": "cplex"}

# what a solver prints when it is not silenced
SOLVER_BANNERS = ("Running HiGHS", "Copyright", "licence", "GLPSOL", "GLPK Simplex")


def needs_solver(solver):
    """Skip the test where the Pyomo solver ``solver`` is not available, saying how to install it."""
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        package = next((p for name, p in COMMERCIAL.items() if name in solver), None)
        how = (f"the package {package} is in the extra 'commercial': pip install \".[commercial]\"" if package
               else "apt-get install glpk-utils coinor-cbc" if solver in OTHERS else "")
        pytest.skip(f"{solver} is not available here ({how})" if how else f"{solver} is not available here")


# -- the command line ----------------------------------------------------------------------------------------

PREFIX = "mrc-pyomo: error:"


def cli(args):
    """``mrc-pyomo args`` in this process (paths as strings); its exit code."""
    from mrc_pyomo.cli.main import main as cli_main
    return cli_main([str(a) for a in args])


def cli_error(capsys, args):
    """The one-line error of ``mrc-pyomo args`` (in this process): exit code 1, nothing on stdout (no header
    line, no fit), one line on stderr."""
    code = cli(args)
    out, err = capsys.readouterr()
    assert code == 1 and out == "", out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX), err
    return lines[0]


def zipf_words(n=400, d=6001, n_classes=2, seed=0, words=15, noise=0.3):
    """``n`` documents of ``words`` words drawn by Zipf's law from ``d``, one leaning to its class, log term
    frequencies, 30% of the labels redrawn: sparse text that no rule separates (R* > 0)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    p = 1.0 / np.arange(1, d + 1)
    cols = rng.choice(d, n * words, p=p / p.sum())
    cols[::words] = (y * 7 + rng.integers(0, 20, n)) % d
    X = sp.csr_matrix((np.ones(n * words), (np.repeat(np.arange(n), words), cols)), shape=(n, d))
    X.data = np.log1p(X.data)
    return X, np.where(rng.random(n) < noise, rng.integers(0, n_classes, n), y)
