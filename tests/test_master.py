"""The restricted master: its Pyomo model is the same LP as the bulk HiGHS instance, at every iteration."""

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.exceptions import ConvergenceWarning

from conftest import random_problem
from mrc_pyomo import MRCClassifier, RestrictedMaster
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.oracles.rows import all_subsets
from mrc_pyomo.problem.initialization import class_centroids
from mrc_pyomo.master.highs import quiet_highs


def _solve_file(path):
    h = quiet_highs()
    h.readModel(str(path))
    h.run()
    assert h.modelStatusToString(h.getModelStatus()) == "Optimal"
    return h.getInfo().objective_function_value


@pytest.mark.parametrize("regime,K", [("n", 3), ("nm", 3), ("n", 8)])
def test_pyomo_model_and_exports_give_R_k(tmp_path, regime, K):
    X, y = random_problem(80, 6, K, seed=K)
    with pytest.warns(ConvergenceWarning, match="max_iter"):  # four masters: an intermediate one
        clf = MRCClassifier(regime=regime, n_max=10, m_max=6, max_iter=4, continuation=False).fit(X, y)
    master = clf.master_
    m = master.model
    rows = list(m.component_data_objects(pyo.Constraint, active=True))
    assert len(rows) == master.n_rows + (1 if master.objective_floor else 0)
    assert len(m.features) == len(master.features)
    # the loaded solution is the master's, and feasible for the Pyomo model
    assert pyo.value(m.objective) == pytest.approx(clf.objective_, abs=1e-9)
    # another solver on the Pyomo model gives the same value
    pyo.SolverFactory("highs").solve(m)
    assert pyo.value(m.objective) == pytest.approx(clf.objective_, abs=1e-7)
    for suffix in ("lp", "mps"):
        path = master.write(tmp_path / f"master.{suffix}")
        assert _solve_file(path) == pytest.approx(clf.objective_, abs=1e-7)
    text = (tmp_path / "master.lp").read_text()
    assert "row(x" in text and "mu_pos(" in text and "nu" in text


def test_duals_and_values_are_loaded_into_the_model():
    X, y = random_problem(60, 3, 3, seed=1)
    clf = MRCClassifier(eps_1=0.0).fit(X, y)
    m, s = clf.master_.model, clf.master_.solution
    duals = np.array([m.dual[c] for c in clf.master_.pyomo_model.row_constraints()])
    assert np.allclose(-duals, s.alpha)
    assert s.alpha.sum() == pytest.approx(1.0 - s.beta, abs=1e-9)  # dual constraint of nu
    assert m.nu.value == pytest.approx(s.nu)


def _new_master(solver, K=3, seed=0):
    X, y = random_problem(50, 4, K, seed=seed)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y, K, 0.01)
    master = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y, K), solver=solver)
    return master, Psi


def test_incremental_updates_agree_between_paths():
    """The same sequence of additions and removals on the three backends: the built-in HiGHS, Pyomo's persistent
    APPSI HiGHS (handed the model once, then each change) and GLPK (handed the model at each solve)."""
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


def test_default_path_warm_starts_from_the_previous_basis():
    """After adding violated rows, HiGHS re-solves from the kept basis: far fewer simplex iterations."""
    from mrc_pyomo.oracles.primal import class_scores, most_violated_subsets
    X, y = random_problem(400, 8, 4, seed=3)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, lam = mean_and_confidence(Psi, y, 4, 0.01)
    subsets = all_subsets(4)
    rng = np.random.default_rng(0)
    first = (rng.integers(0, 400, 600), subsets[rng.integers(0, 15, 600)])

    warm = RestrictedMaster(Psi, tau, lam, centroids=class_centroids(Psi, y, 4))
    warm.add_features(np.arange(4 * Psi.shape[1]))
    warm.add_rows(np.repeat(400 + np.arange(4), 15), np.tile(subsets, (4, 1)))
    warm.add_rows(*first)
    solution = warm.solve()
    psi, best = most_violated_subsets(class_scores(Psi, solution.mu))
    worst = np.argsort(-(psi + 1 - solution.nu))[:20]
    assert (psi[worst] + 1 - solution.nu > 1e-6).all()
    second = (worst, best[worst])
    warm.add_rows(*second)
    R_warm = warm.solve().objective
    warm_iterations = warm.backend.lp.simplex_iterations()  # iterations of the last run
    warm.backend.highs.clearSolver()                      # forget the basis: the same LP from scratch
    R_cold = warm.solve().objective
    assert R_warm == pytest.approx(R_cold, abs=1e-9)
    assert 0 < warm_iterations < warm.backend.lp.simplex_iterations() / 2
