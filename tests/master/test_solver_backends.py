"""The registry of backends (:mod:`mrc_pyomo.master.solver_backends`): the one place for solver names; an unknown solver is
refused by its name."""

import pytest

from helpers import needs_solver, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import Backend, register_backend, solver_backends
from mrc_pyomo.master.highs_backend import HighsBackend
from mrc_pyomo.master.solver_backends import backend_class, backend_options, registered_backends


def test_the_registry_is_the_one_place_for_solver_names():
    assert registered_backends() == {"highs": HighsBackend}
    assert backend_class("highs") is HighsBackend
    with pytest.raises(ValueError, match="non-empty name"):
        register_backend("", HighsBackend)
    with pytest.raises(TypeError):
        Backend("x")   # solve is abstract


def test_unknown_solver_is_refused_by_name():
    X, y = random_problem(20, 2, 2)
    with pytest.raises(ValueError, match="unknown solver 'no_such_solver'") as error:
        MRCClassifier(solver="no_such_solver").fit(X, y)
    assert "did you mean" not in str(error.value)
    # a name a letter's case or a typo away from a known one says which
    for typed, meant in [("HiGHS", "highs"), ("GLPK", "glpk"), ("gurobi_persistant", "gurobi_persistent")]:
        with pytest.raises(ValueError, match=f"unknown solver '{typed}'.*did you mean '{meant}'"):
            MRCClassifier(solver=typed).fit(X, y)
    with pytest.raises(ValueError, match="solver must be 'highs', a Pyomo solver name or a Pyomo solver instance"):
        MRCClassifier(solver="").fit(X, y)


@pytest.mark.parametrize("solver", ["highs", "appsi_highs", "glpk", "cbc", "gurobi_persistent"])
def test_tee_shows_the_solver_s_own_log_on_every_backend(solver, capfd):
    # before: GLPK and CBC were passed "--tee" and failed (MasterSolveError), HiGHS rejected an unknown option
    if solver != "highs":
        needs_solver(solver)
    X, y = random_problem(40, 3, 2)
    options = {"tee": True}
    clf = MRCClassifier(solver=solver, solver_options=options).fit(X, y)
    shown = capfd.readouterr().out
    assert clf.status_ == "converged" and options == {"tee": True}   # the user's dict is not modified
    assert {"highs": "HiGHS", "appsi_highs": "HiGHS", "glpk": "GLPK", "cbc": "CBC", "gurobi_persistent": "Gurobi"}[
        solver] in shown
    MRCClassifier(solver=solver, solver_options={"tee": False}).fit(X, y)
    assert not capfd.readouterr().out


def test_tee_can_be_set_from_a_callback_and_is_checked():
    X, y = random_problem(40, 3, 2)
    for solver in ("highs", "appsi_highs"):
        calls = []
        clf = MRCClassifier(solver=solver, callback=lambda state: calls.append(
            state.master.set_solver_option("tee", False))).fit(X, y)
        assert len(calls) == clf.n_iter_ and clf.master_.solver_options == {"tee": False}
    assert backend_options("highs", {"tee": True, "output_flag": False}) == {"output_flag": False}
    assert backend_options("glpk", {"tee": True}) == {"tee": True}   # Pyomo's backends take it themselves
    with pytest.raises(ValueError, match=r"solver_options\['tee'\] must be True or False"):
        MRCClassifier(solver_options={"tee": "yes"}).fit(X, y)
    register_backend("no_log", HighsBackend)
    try:
        with pytest.raises(ValueError, match="has no log option known to the library"):
            backend_options("no_log", {"tee": True})
    finally:
        solver_backends._BACKENDS.pop("no_log")
