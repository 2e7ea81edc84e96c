"""The master's Pyomo model (:mod:`mrc_pyomo.master.model`): the same LP as the backend's at every iteration, with
the master's solution, duals and values loaded; written to LP and MPS files that solve to R^k; on a persistent
solver each row built once, and removed rows removed from the solver's copy."""

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master.highs_backend import quiet_highs


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
    assert "mu_pos(" in text and "nu" in text
    # the names docs/export.rst gives: the Pyomo model's, and the files' as Pyomo's writers make them
    row = master.pyomo_model.row_constraints()[-1]
    block, (sample, subset) = row.parent_block().name, row.index()
    assert row.name == f"{block}.row[{sample},{subset}]" and sample.startswith(("x", "centroid"))
    assert f"c_u_{block}_row({sample}_{subset})_" in text


def test_duals_and_values_are_loaded_into_the_model():
    X, y = random_problem(60, 3, 3, seed=1)
    clf = MRCClassifier(eps_1=0.0).fit(X, y)
    m, s = clf.master_.model, clf.master_.solution
    duals = np.array([m.dual[c] for c in clf.master_.pyomo_model.row_constraints()])
    assert np.allclose(-duals, s.alpha)
    assert s.alpha.sum() == pytest.approx(1.0 - s.beta, abs=1e-9)  # dual constraint of nu
    assert m.nu.value == pytest.approx(s.nu)


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
