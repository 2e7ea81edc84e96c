"""The backend seam: a new backend is one class registered under a name, and the loop asks only its
capabilities; the full LP is solved through the same master interface (its dual form as a backend)."""

import runpy
from pathlib import Path

import pytest

from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import Backend, Capabilities, register_backend, registry
from mrc_pyomo.master.dual_lp import DualLPBackend
from mrc_pyomo.master.highs import HighsBackend
from mrc_pyomo.master.registry import backend_class, registered_backends
from mrc_pyomo.methods import full_lp
from mrc_pyomo.problem import MRCProblem

from conftest import random_problem
from test_full_lp_fast import scaled_problem

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def linprog_backend():
    """The backend of the architecture page's worked example (examples/new_backend.py), which registers it as
    "scipy_linprog"."""
    yield runpy.run_path(str(EXAMPLES / "new_backend.py"), run_name="example")["LinprogBackend"]
    registry._BACKENDS.pop("scipy_linprog")


def test_a_registered_backend_reaches_the_same_certified_answer(linprog_backend):
    X, y = random_problem(150, 4, 3, seed=21)
    reference = MRCClassifier(eps_1=1e-7).fit(X, y)
    clf = MRCClassifier(solver="scipy_linprog", eps_1=1e-7).fit(X, y)
    assert isinstance(clf.master_.backend, linprog_backend) and clf.status_ == "converged"
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
        register_backend("", HighsBackend)
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
    dual, dual_solution, _, _ = full_lp.solve_full_lp(MRCProblem.from_arrays(Psi, None, tau, lam), method="simplex")
    primal, primal_solution, _, _ = full_lp.solve_full_lp(MRCProblem.from_arrays(Psi, None, tau, lam), method="primal_ipm")
    assert isinstance(dual.backend, DualLPBackend) and isinstance(primal.backend, HighsBackend)
    assert dual_solution.mu.shape == tau.shape and dual_solution.alpha.shape == (dual.n_rows,)
    assert dual_solution.objective == pytest.approx(primal_solution.objective, abs=1e-7)
    assert dual_solution.nu == pytest.approx(primal_solution.nu, abs=1e-6)
    # a new master of the same rows and features keeps the backend class and solves to the same value
    again = dual.with_costs(tau, lam)
    assert isinstance(again.backend, DualLPBackend)
    assert again.solve().objective == pytest.approx(dual_solution.objective, abs=1e-9)
