"""What a backend returns and what the master makes of it (:mod:`mrc_pyomo.master.solution`): the errors
(:class:`MasterTimeLimit` is a :class:`MasterSolveError`, which is a ``RuntimeError``; :func:`solve_error` picks
by the solver's status), the frozen :class:`BackendSolution` and :class:`Changes` (its ``rows_added`` and
``rows_removed`` pairs, on the changes a real master's update reports) and :class:`MasterSolution`."""

import dataclasses

import numpy as np
import pytest

from helpers import random_problem
from mrc_pyomo import RestrictedMaster
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.master.solution import (BackendSolution, Changes, MasterSolution, MasterSolveError, MasterTimeLimit,
                                       solve_error)
from mrc_pyomo.oracles.rows import all_subsets
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.initialization import class_centroids, initial_rows


def test_a_time_limit_is_a_solve_error_and_a_runtime_error():
    assert issubclass(MasterTimeLimit, MasterSolveError) and issubclass(MasterSolveError, RuntimeError)
    with pytest.raises(MasterSolveError, match="stopped at 2 s"):
        raise MasterTimeLimit("stopped at 2 s")


@pytest.mark.parametrize("time_limit_reached", [True, False])
def test_solve_error_follows_the_solver_s_status_not_its_words(time_limit_reached):
    # the message speaks of a time limit in both cases: only the status decides
    error = solve_error("HiGHS: time limit reached?", time_limit_reached)
    assert type(error) is (MasterTimeLimit if time_limit_reached else MasterSolveError)
    assert str(error) == "HiGHS: time limit reached?"


def changes(n_added=3, n_removed=2, K=3):
    rng = np.random.default_rng(0)
    subsets = all_subsets(K)
    return Changes(rng.integers(0, 9, n_added), subsets[rng.integers(0, len(subsets), n_added)],
                   rng.integers(0, 9, n_removed), subsets[rng.integers(0, len(subsets), n_removed)],
                   np.array([4, 1]))


def test_changes_give_the_rows_added_and_removed_as_pairs():
    change = changes()
    samples, subsets = change.rows_added
    assert samples is change.added_samples and subsets is change.added_subsets
    samples, subsets = change.rows_removed
    assert samples is change.removed_samples and subsets is change.removed_subsets
    assert change.removed_mask is None


@pytest.mark.parametrize("frozen", [changes(), BackendSolution("optimal", 0.5, np.zeros(2), 1.0, np.zeros(0),
                                                                 np.ones(3))])
def test_changes_and_a_backend_s_solution_are_frozen(frozen):
    field = dataclasses.fields(frozen)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(frozen, field, None)


def test_a_backend_solution_without_the_floor_row_has_beta_zero():
    solved = BackendSolution("optimal", 0.25, np.array([1.0, -2.0]), 1.5, np.zeros(0), np.array([0.5, 0.5]))
    assert solved.beta == 0.0


def test_master_solutions_keep_their_own_time_split():
    a = MasterSolution(np.zeros((2, 3)), 1.0, np.ones(2), 0.0, 0.5, np.ones(2), np.zeros(0))
    b = MasterSolution(np.zeros((2, 3)), 1.0, np.ones(2), 0.0, 0.5, np.ones(2), np.zeros(0))
    a.seconds["solve"] = 1.0
    assert b.seconds == {}


def test_the_changes_of_a_real_update_are_what_the_master_gained_and_lost():
    """A master's update (remove some items, add rows, add features) reports :class:`Changes` whose pairs are the
    items that left and the items that joined, and whose mask is over the items it had."""
    X, y = random_problem(20, 3, 3, seed=3)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y, 3, 0.01)
    master = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y, 3))
    master.add_features(np.arange(8))
    master.add_rows(*initial_rows(20, 3)[:2])
    before_samples, before_subsets = master.samples.copy(), master.subsets.copy()
    remove = np.zeros(master.n_rows, dtype=bool)
    remove[[0, 5]] = True
    subsets = all_subsets(3)
    change = master.update(remove, np.array([4, 9, 4]), subsets[[0, 6, 0]], np.array([8, 11]))
    assert isinstance(change, Changes) and np.array_equal(change.removed_mask, remove)
    removed_samples, removed_subsets = change.rows_removed
    assert np.array_equal(removed_samples, before_samples[remove])
    assert np.array_equal(removed_subsets, before_subsets[remove])
    added_samples, added_subsets = change.rows_added
    assert np.array_equal(added_samples, [4, 9]) and np.array_equal(added_subsets, subsets[[0, 6]])  # once each
    assert np.array_equal(master.samples, np.concatenate([before_samples[~remove], added_samples]))
    assert np.array_equal(change.features, [8, 11]) and set(change.features) <= set(master.features)
