"""The backend seam: a new backend is one class registered under a name, and the loop asks only its
capabilities; the full LP is solved through the same master interface (its dual form as a backend)."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from mrc_pyomo import MRCClassifier
from mrc_pyomo.formulation import objective_coefficients
from mrc_pyomo.master import Backend, Capabilities, MasterSolveError, register_backend
from mrc_pyomo.master.dual_lp import DualLPBackend
from mrc_pyomo.master.highs import HighsBackend
from mrc_pyomo.master.registry import backend_class, registered_backends

from conftest import random_problem
from mrc_pyomo import full_lp
from test_full_lp_fast import scaled_problem


class LinprogBackend(Backend):
    """``P_{I,J}`` rebuilt from the master's record at every solve and solved by ``scipy.optimize.linprog``:
    no copy to keep in step, so no change hook is needed."""

    capabilities = Capabilities()

    def solve(self, master, time_limit=None, budget=None):
        features = master.features
        F = master.block(master.samples, master.subsets, features)
        cost_pos, cost_neg = objective_coefficients(master.tau, master.lam, features)
        # columns: mu1 (|J|), mu2 (|J|), nu; rows: F (mu1 - mu2) - nu <= upper
        A = sp.hstack([F, -F, -np.ones((master.n_rows, 1))], format="csr")
        bounds = [(0, None)] * (2 * len(features)) + [(None, None)]
        result = linprog(np.concatenate([cost_pos, cost_neg, [1.0]]), A_ub=A, b_ub=master.pyomo_model.upper,
                         bounds=bounds, method="highs")
        if result.status != 0:
            raise MasterSolveError(f"linprog: {result.message}")
        x, q = result.x, len(features)
        return result.message, result.fun, x[:q] - x[q:2 * q], x[-1], -result.ineqlin.marginals, 0.0


@pytest.fixture
def linprog_solver():
    register_backend("scipy_linprog", LinprogBackend)
    yield "scipy_linprog"
    from mrc_pyomo.master import registry
    registry._BACKENDS.pop("scipy_linprog")


def test_a_registered_backend_reaches_the_same_certified_answer(linprog_solver):
    X, y = random_problem(150, 4, 3, seed=21)
    reference = MRCClassifier(eps_1=1e-7).fit(X, y)
    clf = MRCClassifier(solver=linprog_solver, eps_1=1e-7).fit(X, y)
    assert isinstance(clf.master_.backend, LinprogBackend) and clf.status_ == "converged"
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-6)
    assert clf.lower_ <= reference.upper_ + 1e-9 and clf.upper_ - clf.lower_ <= 1e-7
    # no time limit is passed to a backend that cannot honour it: the loop asks the capability
    assert not clf.master_.capabilities.limits_inside_solve
    # the master's Pyomo model is built from the record of I and J on any backend
    assert len(clf.master_.model.component_map()) > 0


def test_the_registry_is_the_one_place_for_solver_names():
    assert registered_backends() == {"highs": HighsBackend}
    assert backend_class("highs") is HighsBackend
    with pytest.raises(ValueError, match="non-empty name"):
        register_backend("", LinprogBackend)
    with pytest.raises(TypeError):
        Backend("x")   # solve is abstract


def test_capabilities_of_the_built_in_backends():
    assert HighsBackend.capabilities == Capabilities(limits_inside_solve=True, bulk_loading=True, warm_start=True)
    assert DualLPBackend.capabilities.limits_inside_solve and not DualLPBackend.capabilities.warm_start
    with pytest.raises(ValueError, match="objective >= 0"):
        DualLPBackend("highs", objective_floor=True)


def test_the_full_lp_is_a_master_on_the_dual_backend():
    """The full LP is a RestrictedMaster whose backend is the dual form: mu, nu and alpha come back through the
    master's interface in its (K, D) convention, equal to the primal LP's on the built-in backend."""
    Psi, _, tau, lam = scaled_problem(40, 3, 3, False, seed=2)
    dual, dual_solution, _, _ = full_lp.solve_full_lp(Psi, tau, lam, method="simplex")
    primal, primal_solution, _, _ = full_lp.solve_full_lp(Psi, tau, lam, method="primal_ipm")
    assert isinstance(dual.backend, DualLPBackend) and isinstance(primal.backend, HighsBackend)
    assert dual_solution.mu.shape == tau.shape and dual_solution.alpha.shape == (dual.n_rows,)
    assert dual_solution.objective == pytest.approx(primal_solution.objective, abs=1e-7)
    assert dual_solution.nu == pytest.approx(primal_solution.nu, abs=1e-6)
    # a new master of the same rows and features keeps the backend class and solves to the same value
    again = dual.with_costs(tau, lam)
    assert isinstance(again.backend, DualLPBackend)
    assert again.solve().objective == pytest.approx(dual_solution.objective, abs=1e-9)
