"""The full LP's dual form as a backend (:mod:`mrc_pyomo.master.dual_lp`): the full LP is solved through the same
master interface as MRC-CCG's masters."""

import pytest

from helpers import scaled_problem
from mrc_pyomo.master.dual_lp import DualLPBackend
from mrc_pyomo.master.highs_backend import HighsBackend
from mrc_pyomo.methods import full_lp
from mrc_pyomo.problem import MRCProblem


def test_the_full_lp_is_a_master_on_the_dual_backend():
    """The full LP is a RestrictedMaster whose backend is the dual form: mu, nu and alpha come back through the
    master's interface in its (K, D) convention, equal to the primal LP's on the built-in backend."""
    Psi, _, tau, lam = scaled_problem(40, 3, 3, False, seed=2)
    dual, dual_solution, _, _ = full_lp.solve_full_lp(MRCProblem.from_arrays(Psi, None, tau, lam), form="simplex")
    primal, primal_solution, _, _ = full_lp.solve_full_lp(MRCProblem.from_arrays(Psi, None, tau, lam),
                                                          form="primal_ipm")
    assert isinstance(dual.backend, DualLPBackend) and isinstance(primal.backend, HighsBackend)
    assert dual_solution.mu.shape == tau.shape and dual_solution.alpha.shape == (dual.n_rows,)
    assert dual_solution.objective == pytest.approx(primal_solution.objective, abs=1e-7)
    assert dual_solution.nu == pytest.approx(primal_solution.nu, abs=1e-6)
    # a new master of the same rows and features keeps the backend class and solves to the same value
    again = dual.with_costs(tau, lam)
    assert isinstance(again.backend, DualLPBackend)
    assert again.solve().objective == pytest.approx(dual_solution.objective, abs=1e-9)
