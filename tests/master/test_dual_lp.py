"""The dual form as a backend (:mod:`mrc_pyomo.master.dual_lp`): the full LP is solved through the same master
interface as MRC-CCG's masters, and MRC-CCG's masters of few classes through their dual LP kept warm."""

import numpy as np
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


def test_a_pickled_dual_master_of_several_batches_solves_to_its_value():
    """A dual-form master loaded anew (after pickling) holds every batch of its rows, not only a master of one."""
    import pickle

    from mrc_pyomo.master import RestrictedMaster
    from mrc_pyomo.oracles.rows import all_subsets
    Psi, _, tau, lam = scaled_problem(30, 3, 2, False, seed=4)
    master = RestrictedMaster(Psi, tau, lam, backend=DualLPBackend)
    master.add_features(np.arange(tau.size))
    for first in (0, 15):
        samples = np.repeat(np.arange(first, first + 15), 3)
        master.add_rows(samples, np.tile(all_subsets(2), (15, 1)))
    value = master.solve().objective
    again = pickle.loads(pickle.dumps(master))
    assert isinstance(again.backend, DualLPBackend) and again.solve().objective == pytest.approx(value, abs=1e-9)


def primal_and_dual_masters(seed=3):
    """The same master of a two-class problem on the primal form's backend and the warm dual form's."""
    from mrc_pyomo.master import RestrictedMaster
    from mrc_pyomo.master.dual_lp import WarmDualBackend
    from mrc_pyomo.oracles.rows import all_subsets
    Psi, _, tau, lam = scaled_problem(60, 4, 2, False, seed=seed)
    masters = [RestrictedMaster(Psi, tau, lam, backend=backend) for backend in (HighsBackend, WarmDualBackend)]
    for master in masters:
        master.add_features(np.arange(tau.size))
        master.add_rows(np.repeat(np.arange(20), 3), np.tile(all_subsets(2), (20, 1)))
    return masters


def test_the_loop_s_masters_in_their_dual_form_follow_every_change_and_keep_their_basis():
    """MRC-CCG's changes to a master (its slack rows removed, new rows added) reach the warm dual form as columns
    deleted and added: each re-solve has the primal form's value and rule, starts from the last basis (fewer simplex
    iterations than the same master cold), and its duals are the rows' weights."""
    import copy

    from mrc_pyomo.master.dual_lp import WarmDualBackend
    from mrc_pyomo.oracles.rows import all_subsets
    primal, dual = primal_and_dual_masters()
    for step in range(3):
        solutions = [master.solve() for master in (primal, dual)]
        assert solutions[1].objective == pytest.approx(solutions[0].objective, abs=1e-9)
        assert np.allclose(solutions[1].mu, solutions[0].mu, atol=1e-6)
        assert solutions[1].alpha.sum() == pytest.approx(1.0) and np.all(solutions[1].alpha >= -1e-9)
        if step:
            warm = dual.backend.highs.getInfo().simplex_iteration_count
            cold = copy.deepcopy(dual)
            cold.solve()
            assert warm < cold.backend.highs.getInfo().simplex_iteration_count
        slack = solutions[1].alpha <= 1e-12
        new = np.arange(20 + 10 * step, 30 + 10 * step)
        for master in (primal, dual):
            master.remove_rows(slack)
            master.add_rows(np.repeat(new, 3), np.tile(all_subsets(2), (10, 1)))
    assert isinstance(dual.backend, WarmDualBackend) and dual.backend.n_columns == dual.n_rows


def test_a_large_change_of_a_dual_form_master_is_solved_by_the_interior_point_method_and_refine_forgets():
    """As the primal form's: the solve after a large change is by the interior point method (its status says
    so), the next ones by the simplex, or by the interior point method past the simplex's budget; refine forgets
    the basis and tightens the tolerances, unless set."""
    primal, dual = primal_and_dual_masters(seed=5)
    value = primal.solve().objective
    dual.large_change()
    assert dual.solve().objective == pytest.approx(value, abs=1e-8) and dual.solver_status == "Optimal (IPM: a large change)"
    dual.solve()
    assert dual.solver_status == "Optimal"
    from mrc_pyomo.oracles.rows import all_subsets
    for master in (primal, dual):   # a change the warm simplex cannot finish within its budget: IPM instead
        master.add_rows(np.repeat(np.arange(20, 60), 3), np.tile(all_subsets(2), (40, 1)))
    value = primal.solve().objective
    assert dual.solve(budget=1e-9).objective == pytest.approx(value, abs=1e-8)
    assert dual.solver_status == "Optimal (IPM: the simplex stalled for 1e-09 s)"
    dual.refine()
    highs = dual.backend.highs
    assert highs.getOptionValue("primal_feasibility_tolerance")[1] == pytest.approx(1e-10)
    assert dual.solve().objective == pytest.approx(value, abs=1e-9)
