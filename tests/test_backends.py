"""Every backend of the master reaches the same R*: the built-in HiGHS, Pyomo's persistent interfaces (handed the
model once, then each change) and Pyomo's other solvers (handed the model at each solve)."""

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.datasets import load_wine

from conftest import random_problem
from mrc_pyomo import MRCClassifier, RestrictedMaster
from mrc_pyomo.problem.estimates import mean_and_confidence
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.oracles.rows import right_hand_sides
from mrc_pyomo.oracles.rows import all_subsets
from mrc_pyomo.problem.initialization import class_centroids
from mrc_pyomo.master.pyomo_backends import PersistentBackend, PyomoBackend

PERSISTENT = ["appsi_highs", "gurobi_persistent", "appsi_gurobi", "cplex_persistent"]
OTHERS = ["glpk", "cbc"]


COMMERCIAL = {"gurobi": "gurobipy", "cplex": "cplex"}


def _needs(solver):
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        package = next((p for name, p in COMMERCIAL.items() if name in solver), None)
        how = (f"the package {package} is in the extra 'commercial': pip install \".[commercial]\"" if package
               else "apt-get install glpk-utils coinor-cbc" if solver in OTHERS else "")
        pytest.skip(f"{solver} is not available here ({how})" if how else f"{solver} is not available here")


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return X, y, MRCClassifier(method="lp", eps_1=0.0).fit(X, y).upper_


@pytest.mark.parametrize("solver", PERSISTENT + OTHERS)
def test_every_backend_reaches_R_star(wine, solver):
    _needs(solver)
    X, y, R_star = wine
    clf = MRCClassifier(solver=solver, eps_1=1e-6).fit(X, y)
    assert clf.status_ == "converged" and clf.n_iter_ >= 3
    assert clf.upper_ == pytest.approx(R_star, abs=1e-6)
    assert clf.lower_ <= R_star + 1e-9
    backend = clf.master_.backend
    assert isinstance(backend, PersistentBackend if solver in PERSISTENT else PyomoBackend)


@pytest.mark.parametrize("solver", PERSISTENT)
def test_a_persistent_solver_is_handed_the_model_once(solver, monkeypatch):
    """Rows and features added along the fit (regime "nm"): one ``set_instance`` for the whole fit, every
    master solved by the persistent backend, and the same R* as the built-in backend."""
    _needs(solver)
    X, y = random_problem(60, 12, 3, sparse=True, seed=2, density=0.4)
    solves = []
    original = PersistentBackend.solve
    monkeypatch.setattr(PersistentBackend, "solve", lambda self, *a: solves.append(1) or original(self, *a))
    reference = MRCClassifier(regime="nm", lambda0=0.2, eps_1=0.0, n_max=8, m_max=5).fit(X, y)
    clf = MRCClassifier(regime="nm", lambda0=0.2, eps_1=1e-6, n_max=8, m_max=5, solver=solver).fit(X, y)
    assert len(solves) == clf.n_iter_ >= 3
    assert (clf.history_.features_added.iloc[1:] > 0).any() and (clf.history_.rows_added.iloc[1:] > 0).any()
    assert clf.master_.backend.instances == 1
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-6)


def test_regime_n_builds_each_row_once_and_removes_rows_from_a_persistent_solver(monkeypatch):
    """Regime "n" (all features from the start, rows added and removed): each row's Pyomo constraint is built
    once, when its batch is first handed over, and removed rows leave the solver's copy."""
    from mrc_pyomo.master.model import MasterModel
    built = []
    original = MasterModel.materialise
    monkeypatch.setattr(MasterModel, "materialise",
                        lambda self, *a: (lambda out: built.append(len(out[1])) or out)(original(self, *a)))
    X, y = random_problem(150, 4, 4, seed=7)
    reference = MRCClassifier(eps_1=0.0, n_max=10).fit(X, y)
    clf = MRCClassifier(solver="appsi_highs", eps_1=1e-7, n_max=10).fit(X, y)
    h = clf.history_
    assert (h.rows_removed > 0).any() and clf.master_.backend.instances == 1
    # rows ever added, plus the floor objective >= 0 if the master has it: nothing is built twice
    assert sum(built) == h.rows_added.sum() + (1 if clf.master_.objective_floor else 0)
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-7)
    # the solver's copy is the model: solving the model from scratch gives the last master's value
    m = clf.master_.model
    pyo.SolverFactory("appsi_highs").solve(m)
    assert pyo.value(m.objective) == pytest.approx(clf.objective_, abs=1e-7)


@pytest.mark.parametrize("solver", ["highs", "appsi_highs", "glpk"])
def test_the_time_split_names_where_the_time_went(wine, solver):
    """``history_``: building the Pyomo model, handing it over and solving are told apart on every path."""
    _needs(solver)
    X, y, _ = wine
    h = MRCClassifier(solver=solver).fit(X, y).history_
    parts = h[["seconds_oracle", "seconds_update", "seconds_build", "seconds_handover", "seconds_solve"]]
    assert (parts >= 0).all().all() and (h.seconds_solve > 0).all()
    assert parts.to_numpy().sum() <= h.seconds_elapsed.iloc[-1] + 1e-6
    if solver == "highs":      # loaded in bulk with the changes: nothing is built in Pyomo
        assert (h.seconds_build == 0).all() and (h.seconds_handover == 0).all()
    else:                      # every master has new rows to build in Pyomo and hand over
        assert (h.seconds_build > 0).all() and (h.seconds_handover > 0).all()


@pytest.mark.parametrize("solver", ["appsi_highs", "gurobi_persistent", "glpk"])
def test_a_row_bound_changes_on_every_backend(solver):
    """Relaxing the binding rows of a solved master (upper = +inf), then restoring them: every backend solves
    the same changed LPs as the built-in one, and the Pyomo model shows the bounds of the master solved."""
    _needs(solver)
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
