"""A new solver backend in one class: the restricted master solved by SciPy's ``linprog``.

A backend holds the solver's copy of the master ``P_{I,J}`` (or, as here, none: it rebuilds the LP from the
master's record of its rows and features at every solve), declares what it can do, and is registered under a
solver name.  The generation loop never asks which backend it has: it asks its capabilities.
"""

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier
from mrc_pyomo.formulation import objective_coefficients
from mrc_pyomo.master import Backend, Capabilities, MasterSolveError, register_backend


class LinprogBackend(Backend):
    """``P_{I,J}`` (paper, eq. 7) built from the master's record at every solve and solved by ``linprog``:
    no copy to keep in step with the master, so none of the change hooks is needed."""

    capabilities = Capabilities()   # no limits inside a solve, nothing loaded in bulk, no warm start

    def solve(self, master, time_limit=None, budget=None):
        features = master.features
        F = master.block(master.samples, master.subsets, features)        # F_{I,J}, never all of F
        cost_pos, cost_neg = objective_coefficients(master.tau, master.lam, features)
        # columns mu1 (|J|), mu2 (|J|), nu; rows F (mu1 - mu2) - nu <= b
        A = sp.hstack([F, -F, -np.ones((master.n_rows, 1))], format="csr")
        bounds = [(0, None)] * (2 * len(features)) + [(None, None)]
        result = linprog(np.concatenate([cost_pos, cost_neg, [1.0]]), A_ub=A, b_ub=master.pyomo_model.upper,
                         bounds=bounds, method="highs")
        if result.status != 0:
            raise MasterSolveError(f"linprog: {result.message}")
        x, q = result.x, len(features)
        # mu_J, nu, and the duals alpha >= 0 of the rows (linprog's marginals of <= rows are <= 0)
        return result.message, result.fun, x[:q] - x[q:2 * q], x[-1], -result.ineqlin.marginals, 0.0


register_backend("scipy_linprog", LinprogBackend)

if __name__ == "__main__":
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    for solver in ("highs", "scipy_linprog"):
        clf = MRCClassifier(solver=solver).fit(X, y)
        print(f"{solver:>13}: R* in [{clf.lower_:.6f}, {clf.upper_:.6f}], {clf.n_iter_} masters, "
              f"backend {type(clf.master_.backend).__name__}")
