"""
A new solver backend in one class: the restricted master solved by SciPy's ``linprog``
======================================================================================

A backend holds the solver's copy of the master ``P_{I,J}`` (or, as here, none: it rebuilds the LP from the
master's record of its items and features at every solve), declares what it can do, and is registered under a
solver name.  The generation loop never asks which backend it has: it asks its capabilities.  The LP rows and
columns of the items come from the formulation as sparse blocks (``master.block``), so the backend solves
every formulation.
"""

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier
from mrc_pyomo.formulations.paper import objective_coefficients
from mrc_pyomo.master import Backend, BackendSolution, Capabilities, MasterSolveError, register_backend


class LinprogBackend(Backend):
    """``P_{I,J}`` (paper, eq. 7, in any formulation) built from the master's record at every solve and solved
    by ``linprog``: no copy to keep in step with the master, so none of the change hooks is needed."""

    capabilities = Capabilities()   # no limits inside a solve, nothing loaded in bulk, no warm start

    def solve(self, master, time_limit=None, budget=None):
        features = master.features
        lp = master.block(master.samples, master.subsets, features)   # the items' LP rows, never all of F
        cost_pos, cost_neg = objective_coefficients(master.tau, master.lam, features)
        q, p = len(features), lp.columns.shape[1]
        # columns mu1 (q), mu2 (q), nu, the items' own u (p); rows lp.mu (mu1 - mu2) + lp.nu nu + lp.columns u <= upper
        A = sp.hstack([lp.mu, -lp.mu, lp.nu[:, None], lp.columns], format="csr")
        bounds = [(0, None)] * (2 * q) + [(None, None)] + [(0, None)] * p
        result = linprog(np.concatenate([cost_pos, cost_neg, [1.0], np.zeros(p)]), A_ub=A,
                         b_ub=master.pyomo_model.upper, bounds=bounds, method="highs")
        if result.status != 0:
            raise MasterSolveError(f"linprog: {result.message}")
        x = result.x
        # mu_J, nu, u, and the duals alpha >= 0 of the rows (linprog's marginals of <= rows are <= 0)
        return BackendSolution(status=result.message, objective=result.fun, mu=x[:q] - x[q:2 * q], nu=x[2 * q],
                               columns=x[2 * q + 1:], row_duals=-result.ineqlin.marginals)


register_backend("scipy_linprog", LinprogBackend)

if __name__ == "__main__":
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    for solver in ("highs", "scipy_linprog"):
        for formulation in ("paper", "compact"):
            clf = MRCClassifier(solver=solver, formulation=formulation).fit(X, y)
            print(f"{solver:>13}, {formulation:>7}: R* in [{clf.lower_:.6f}, {clf.upper_:.6f}], {clf.n_iter_:2d} "
                  f"masters, backend {type(clf.master_.backend).__name__}")
