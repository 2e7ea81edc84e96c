import importlib.metadata
import importlib.util
import itertools
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

import mrc_pyomo

ROOT = Path(__file__).resolve().parents[1]


def _check_the_installed_package():
    """The tests exercise the installed package, not the source tree beside them: a package that installs
    incompletely (a subpackage or a data file left out of the wheel) must fail them.  An editable install
    (``pip install -e .``) is the source tree by the developer's choice."""
    # an installed distribution, not the metadata a build leaves in the source tree (mrc_pyomo.egg-info)
    installed = [d for d in importlib.metadata.distributions(name="mrc_pyomo")
                 if not Path(str(d.locate_file(""))).resolve().is_relative_to(ROOT)]
    if not installed:
        pytest.exit('mrc_pyomo is not installed: pip install -c constraints.txt ".[test]"', returncode=4)
    direct_url = json.loads(installed[0].read_text("direct_url.json") or "{}")
    editable = direct_url.get("dir_info", {}).get("editable", False)
    if Path(mrc_pyomo.__file__).resolve().is_relative_to(ROOT) and not editable:
        pytest.exit(f"the tests imported mrc_pyomo from the source tree ({mrc_pyomo.__file__}), not the installed "
                    "package: run 'pytest' from the project's root, not 'python -m pytest', which puts the "
                    "current directory first on sys.path", returncode=4)


def _import_the_benchmarks():
    """The benchmark harness (``benchmarks/``, not part of the installed package), imported from the repository
    without putting the repository on ``sys.path``, where it would hide the installed ``mrc_pyomo``."""
    if "benchmarks" in sys.modules:
        return
    spec = importlib.util.spec_from_file_location("benchmarks", ROOT / "benchmarks" / "__init__.py",
                                                  submodule_search_locations=[str(ROOT / "benchmarks")])
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks"] = module
    spec.loader.exec_module(module)


def harness_process(tmp_path):
    """``(cwd, env)`` for a subprocess that runs ``python -m benchmarks...`` against the installed package: the
    current directory of a ``python -m`` is first on its ``sys.path``, so it is a folder that holds only a link
    to ``benchmarks/``, not the repository."""
    folder = tmp_path / "harness"
    folder.mkdir(exist_ok=True)
    if not (folder / "benchmarks").exists():
        (folder / "benchmarks").symlink_to(ROOT / "benchmarks", target_is_directory=True)
    return folder, dict(os.environ, PYTHONPATH=str(folder))


_check_the_installed_package()
_import_the_benchmarks()

from benchmarks.data import load  # noqa: E402



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
