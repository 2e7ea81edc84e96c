"""Every backend of the master reaches the same R*: the built-in HiGHS, Pyomo's persistent interfaces (handed the
model once, then each change) and Pyomo's other solvers (handed the model at each solve)."""

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.datasets import load_wine

from conftest import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master.pyomo_backends import PersistentBackend, PyomoBackend

PERSISTENT = ["appsi_highs", "gurobi_persistent", "appsi_gurobi", "cplex_persistent"]
OTHERS = ["glpk", "cbc"]


def _needs(solver):
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        pytest.skip(f"{solver} is not available here")


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
    """Rows added and removed, features added (regime "nm"): one ``set_instance`` for the whole fit, and the
    Pyomo constraints of a batch are built once, unless features were added after it was built."""
    _needs(solver)
    X, y = random_problem(60, 12, 3, sparse=True, seed=2, density=0.4)
    built = []
    original = PersistentBackend.solve

    def counting_solve(self, master, *args):
        result = original(self, master, *args)
        built.append(master.pyomo_model.n_rows)
        return result

    monkeypatch.setattr(PersistentBackend, "solve", counting_solve)
    reference = MRCClassifier(regime="nm", lambda0=0.2, eps_1=0.0, n_max=8, m_max=5).fit(X, y)
    clf = MRCClassifier(regime="nm", lambda0=0.2, eps_1=1e-6, n_max=8, m_max=5, solver=solver).fit(X, y)
    assert len(built) == clf.n_iter_ >= 3
    assert (clf.history_.features_added.iloc[1:] > 0).any() and (clf.history_.rows_added.iloc[1:] > 0).any()
    assert clf.master_.backend.instances == 1
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-6)


def test_regime_n_removes_rows_from_a_persistent_solver():
    X, y = random_problem(150, 4, 4, seed=7)
    reference = MRCClassifier(eps_1=0.0, n_max=10).fit(X, y)
    clf = MRCClassifier(solver="appsi_highs", eps_1=1e-7, n_max=10).fit(X, y)
    assert (clf.history_.rows_removed > 0).any()
    assert clf.master_.backend.instances == 1
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-7)
    # the solver's copy is the model: solving the model from scratch gives the last master's value
    m = clf.master_.model
    pyo.SolverFactory("appsi_highs").solve(m)
    assert pyo.value(m.objective) == pytest.approx(clf.objective_, abs=1e-7)
    assert np.isfinite(clf.lower_)


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
