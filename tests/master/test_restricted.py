"""The restricted master (:mod:`mrc_pyomo.master.restricted`): the same sequence of additions, removals and row
bound changes gives the same LPs on every backend (the built-in HiGHS, Pyomo's persistent interfaces, Pyomo's
other solvers); a row already held is not added twice."""

import numpy as np
import pytest

from helpers import PERSISTENT, needs_solver, random_problem
from mrc_pyomo import RestrictedMaster
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.oracles.rows import all_subsets, right_hand_sides
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.problem.initialization import class_centroids


def _new_master(solver, K=3, seed=0):
    X, y = random_problem(50, 4, K, seed=seed)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y, K, 0.01)
    master = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y, K), solver=solver)
    return master, Psi


def test_incremental_updates_agree_between_paths():
    """The same sequence of additions and removals on the three backends: the built-in HiGHS, Pyomo's persistent
    APPSI HiGHS (handed the model once, then each change) and GLPK (handed the model at each solve)."""
    needs_solver("glpk")
    rng = np.random.default_rng(0)
    masters = [_new_master("highs")[0], _new_master("appsi_highs")[0], _new_master("glpk")[0]]
    subsets = all_subsets(3)
    cent = 50 + np.arange(3)
    steps = [
        ("features", np.array([0, 5, 10])),
        ("rows", (np.repeat(cent, 7), np.tile(subsets, (3, 1)))),
        ("features", np.arange(15)[~np.isin(np.arange(15), [0, 5, 10])][:6]),
        ("rows", (rng.integers(0, 50, 20), subsets[rng.integers(0, 7, 20)])),
        ("remove", rng.random(41) < 0.3),
        ("features", np.array([1, 2, 3])[[0]] + 10),
        ("rows", (rng.integers(0, 50, 10), subsets[rng.integers(0, 7, 10)])),
    ]
    for kind, arg in steps:
        values = []
        for master in masters:
            if kind == "features":
                master.add_features(arg[~np.isin(arg, master.features)])
            elif kind == "rows":
                master.add_rows(*arg)
            else:
                keep_centroids = master.samples >= 50
                master.remove_rows(arg[:master.n_rows] & ~keep_centroids)
            if master.n_rows:
                values.append(master.solve().objective)
        if values:
            assert values[1:] == pytest.approx([values[0]] * 2, abs=1e-8)
    assert masters[0].n_rows == masters[1].n_rows == masters[2].n_rows
    assert np.array_equal(masters[0].features, masters[1].features)
    assert masters[1].backend.instances == 1   # never handed over again


def test_duplicate_rows_are_skipped():
    master, _ = _new_master("highs")
    subsets = all_subsets(3)
    assert master.add_rows([1, 1, 2], subsets[[0, 0, 3]]) == 2
    assert master.add_rows([1], subsets[[0]]) == 0
    assert master.n_rows == 2


@pytest.mark.parametrize("solver", ["appsi_highs", "gurobi_persistent", "glpk"])
def test_a_row_bound_changes_on_every_backend(solver):
    """Relaxing the binding rows of a solved master (upper = +inf), then restoring them: every backend solves
    the same changed LPs as the built-in one, and the Pyomo model shows the bounds of the master solved."""
    needs_solver(solver)
    X, y = random_problem(40, 3, 3, seed=5)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y, 3, 0.05)
    masters = {}
    for name in ("highs", solver):
        master = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y, 3), solver=name)
        master.add_features(np.arange(3 * Psi.shape[1]))
        master.add_rows(np.repeat(np.arange(40), 7), np.tile(all_subsets(3), (40, 1)))
        masters[name] = master
    binding = masters["highs"].solve().alpha > 1e-9
    b = right_hand_sides(masters["highs"].subsets[binding])
    values = {}
    for name, master in masters.items():
        first = master.solve().objective
        master.set_row_upper(binding, np.inf)
        relaxed = master.solve().objective
        relaxed_rows = master.pyomo_model.row_constraints(binding)   # built on the Pyomo backends only
        assert not any(c.active for c in relaxed_rows) and len(relaxed_rows) == (0 if name == "highs" else b.size)
        master.set_row_upper(binding, b)
        restored = master.solve().objective
        assert np.allclose(master.pyomo_model.upper[binding], b)
        assert all(c.active and c.upper == pytest.approx(v) for c, v in
                   zip(master.pyomo_model.row_constraints(binding), b))
        values[name] = (first, relaxed, restored)
    first, relaxed, restored = values["highs"]
    assert relaxed < first - 1e-6 and restored == pytest.approx(first, abs=1e-9)
    assert values[solver] == pytest.approx(values["highs"], abs=1e-7)
    if solver in PERSISTENT:
        assert masters[solver].backend.instances == 1


def test_repr_says_size_centroids_solver_and_value():
    """``repr(master)`` is one short line: rows x features, the centroids, the solver, solved or not and ``R^k``."""
    master, _ = _new_master("highs")
    assert repr(master) == ("<RestrictedMaster: 0 rows x 0 features of 3 classes x 5 columns, 3 centroids, "
                            "solver 'highs', not solved>")
    master.add_features(np.arange(15))
    master.add_rows(np.repeat(50 + np.arange(3), 7), np.tile(all_subsets(3), (3, 1)))
    value = master.solve().objective
    text = repr(master)
    assert text.startswith("<RestrictedMaster: 21 rows x 15 features of 3 classes x 5 columns, 3 centroids, ")
    assert text.endswith(f"solved: R^k {value:.6g}>") and len(text) < 160
    master.add_rows([0], [[True, False, False]])
    assert repr(master).startswith("<RestrictedMaster: 22 rows") and repr(master).endswith("not solved>")
    import pyomo.environ as pyo   # an instance of Pyomo's own HiGHS is not the built-in 'highs'
    instance, _ = _new_master(pyo.SolverFactory("highs"))
    assert "solver SolverFactory('highs'), not solved" in repr(instance)
