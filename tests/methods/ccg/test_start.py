"""The first master of MRC-CCG's loop (:mod:`mrc_pyomo.methods.ccg.start`), each of the three: the paper's initial
master (the centroids' rows and the regime's features, less what a reduction leaves out; bounded, below ``R*``),
a master given by the caller (as it is), and the previous stage's final master with this stage's costs and the
centroid rows it dropped put back (a warm start, bounded); each with the :class:`Changes` that make it from
nothing."""

import numpy as np
import pytest

from helpers import REFERENCE_TOL, random_problem, reference_R_star, scaled_problem
from mrc_pyomo.master.solution import Changes
from mrc_pyomo.methods.ccg.config import CCGConfig
from mrc_pyomo.methods.ccg.start import as_added, centroid_rows, first_master, initial_master, warm_master
from mrc_pyomo.methods.result import FitResult, Start, Status
from mrc_pyomo.problem import MRCProblem, prepare
from mrc_pyomo.problem.initialization import class_centroids, initial_rows
from mrc_pyomo.problem.reduction import Reduction

N = 24


def make_problem(K=3, lambda0=0.01, reduction=None, seed=0):
    Psi, y_idx, tau, lam = scaled_problem(N, 2, K, False, seed=seed, lambda0=lambda0)
    return MRCProblem.from_arrays(Psi, y_idx, tau, lam, reduction=reduction), Psi


def pairs(samples, subsets):
    return {(int(i), tuple(np.flatnonzero(c))) for i, c in zip(samples, subsets)}


def a_reduction(problem):
    """Label 2 blocked for samples 0 and 1 (and so for the centroid of their classes), feature (2, 1) fixed."""
    K, D = problem.tau.shape
    blocked = np.zeros((N, K), dtype=bool)
    blocked[[0, 1], 2] = True
    centroid_blocked = np.zeros((K, K), dtype=bool)
    centroid_blocked[problem.y[[0, 1]], 2] = True
    fixed = np.zeros((K, D), dtype=bool)
    fixed[2, 1] = True
    return Reduction(fixed=fixed, direction=-1.0 * fixed, blocked=blocked, centroid_blocked=centroid_blocked)


def test_centroid_rows_are_the_initial_rows_less_those_a_reduction_leaves_out():
    problem, _ = make_problem()
    assert all(np.array_equal(a, b) for a, b in zip(centroid_rows(N, 3), initial_rows(N, 3)))
    reduction = a_reduction(problem)
    samples, subsets, floor = centroid_rows(N, 3, reduction)
    everything = pairs(*initial_rows(N, 3)[:2])
    blocked_centroids = {N + k for k in problem.y[[0, 1]]}
    assert pairs(samples, subsets) == {(i, c) for i, c in everything if not (i in blocked_centroids and 2 in c)}
    assert floor is False and len(samples) < len(everything)


@pytest.mark.parametrize("regime,K", [("n", 3), ("nm", 3), ("n", 7)])
def test_the_initial_master_holds_the_centroid_rows_and_the_regime_s_features(regime, K):
    problem, Psi = make_problem(K=K)
    config = CCGConfig(regime=regime)
    master = initial_master(problem, config)
    D = problem.n_features
    samples, subsets, floor = initial_rows(N, K)
    assert pairs(master.samples, master.subsets) == pairs(samples, subsets) and master.n_rows == len(samples)
    assert master.objective_floor is floor is (K > 6)
    expected = np.arange(K * D) if regime == "n" else np.arange(K) * D
    assert np.array_equal(np.sort(master.features), expected)
    np.testing.assert_allclose(master.centroids, class_centroids(Psi, problem.y, K), rtol=1e-14)
    assert master.solver == config.solver and master.formulation.name == config.formulation
    # bounded and at least 0; with every feature (regime "n") at most R*, having fewer rows than the full LP
    solution = master.solve()
    assert solution.objective >= -1e-9
    if regime == "n":
        assert solution.objective <= reference_R_star(Psi, problem.y, K, 0.01) + REFERENCE_TOL


def test_the_initial_master_of_a_reduced_problem_leaves_out_the_fixed_features_and_blocked_rows():
    problem, _ = make_problem()
    reduction = a_reduction(problem)
    reduced = MRCProblem.from_arrays(problem.data, problem.y, problem.tau, problem.lam, reduction=reduction)
    master = initial_master(reduced, CCGConfig(regime="n"))
    D = problem.n_features
    assert 2 * D + 1 not in master.features and len(master.features) == 3 * D - 1
    assert pairs(master.samples, master.subsets) == pairs(*centroid_rows(N, 3, reduction)[:2])


def test_as_added_adds_every_item_and_feature_and_removes_none():
    problem, _ = make_problem()
    master = initial_master(problem, CCGConfig(regime="nm"))
    change = as_added(master)
    assert isinstance(change, Changes)
    assert np.array_equal(change.added_samples, master.samples) and np.array_equal(change.added_subsets,
                                                                                  master.subsets)
    assert np.array_equal(change.features, master.features)
    assert change.removed_samples.shape == (0,) and change.removed_subsets.shape == (0, 3)


def test_the_warm_master_has_the_new_costs_and_its_centroid_rows_back():
    """The previous stage's master, some centroid rows removed and training rows added: the warm master keeps its
    rows and features, puts the centroid rows back, takes this stage's ``tau`` and ``lambda`` and is bounded."""
    previous_problem, Psi = make_problem(lambda0=0.1)
    previous = initial_master(previous_problem, CCGConfig(regime="n"))
    previous.remove_rows(np.arange(previous.n_rows) % 3 == 0)
    rows = (np.array([0, 5, 9]), np.array([[True, False, False], [False, True, True], [True, True, True]]))
    previous.add_rows(*rows)
    held = pairs(previous.samples, previous.subsets)
    problem = previous_problem.at(0.0)
    master = warm_master(previous, problem)
    assert master is not previous
    assert pairs(master.samples, master.subsets) == held | pairs(*initial_rows(N, 3)[:2])
    assert np.array_equal(np.sort(master.features), np.sort(previous.features))
    assert np.array_equal(master.tau, problem.tau) and np.array_equal(master.lam, problem.lam)
    assert not np.array_equal(master.lam, previous.lam) and not master.lam.any()
    solution = master.solve()
    assert -1e-9 <= solution.objective <= reference_R_star(Psi, problem.y, 3, 0.0) + REFERENCE_TOL


def test_first_master_says_which_of_the_three_it_is():
    problem, _ = make_problem()
    config = CCGConfig(regime="n")
    given = initial_master(problem, config)
    master, kind = first_master(problem, config, Start(master=given))
    assert master is given and kind == "given"
    previous = FitResult(master=given, mu=np.zeros_like(problem.tau), objective=0.0, lower=0.0, upper=1.0,
                         status=Status.CONVERGED)
    master, kind = first_master(problem.at(0.001), config, Start(previous=previous))
    assert kind == "warm" and master is not given and np.array_equal(master.lam, problem.at(0.001).lam)
    for start in (Start(), Start(previous=FitResult(master=None, mu=None, objective=np.nan, lower=0.0, upper=1.0,
                                                    status=Status.TIME_LIMIT))):
        master, kind = first_master(problem, config, start)
        assert kind == "initial" and pairs(master.samples, master.subsets) == pairs(*initial_rows(N, 3)[:2])


@pytest.mark.parametrize("n_classes", [3, 12])
def test_a_first_master_of_the_centroids_own_labels_is_bounded(n_classes):
    """``own_labels_only``: one row ``(n + k, {k})`` per class (and the many-class floor), and the master of those
    rows alone solves to a finite value at most R* (its dual is feasible: the rows' mixture has g = tau)."""
    X, y = random_problem(40 if n_classes == 3 else 60, 2, n_classes, seed=3)
    problem = prepare(X, y, lambda0=0.1)
    master = initial_master(problem, CCGConfig(regime="n"), own_labels_only=True)
    samples, subsets = np.asarray(master.samples), np.asarray(master.subsets)
    assert list(samples) == list(problem.n_samples + np.arange(n_classes))
    assert np.array_equal(subsets, np.eye(n_classes, dtype=bool))
    value = master.solve().objective
    assert np.isfinite(value)
    if n_classes == 3:
        assert value <= reference_R_star(np.asarray(problem.data.array), problem.y, 3, 0.1) + 1e-7
