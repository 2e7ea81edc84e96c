"""Pyomo's solvers as instances (:mod:`mrc_pyomo.master.pyomo_solve`): ``solver=pyo.SolverFactory(name)`` wherever a
name is taken (the estimator, ``mrc_path``, the master), the instance's options kept and the instance itself left as
it was (the backend solves with its own solver made like it); an estimator holding one cloned and pickled; an
instance that is not available, not known, or not a solver refused by name."""

import pickle

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.base import clone

from helpers import OTHERS, PERSISTENT, needs_solver, random_problem
from mrc_pyomo import MRCClassifier, mrc_path
from mrc_pyomo.master import RestrictedMaster, check_solver
from mrc_pyomo.master.pyomo_backends import PersistentBackend, PyomoBackend
from mrc_pyomo.master.pyomo_solve import make_solver, solver_name

PROBLEM = random_problem(60, 3, 3, seed=4)


@pytest.fixture(scope="module")
def reference():
    X, y = PROBLEM
    return MRCClassifier(eps_1=1e-7).fit(X, y).upper_


@pytest.mark.parametrize("name", PERSISTENT + OTHERS)
def test_an_instance_is_taken_where_a_name_is(name, reference):
    # before: "solver must be 'highs' or a Pyomo solver name, got <...GLPKSHELL object ...>"
    needs_solver(name)
    X, y = PROBLEM
    opt = pyo.SolverFactory(name)
    clf = MRCClassifier(solver=opt, eps_1=1e-6).fit(X, y)
    assert clf.status_ == "converged" and clf.upper_ == pytest.approx(reference, abs=1e-6)
    backend = clf.master_.backend
    assert isinstance(backend, PersistentBackend if name in PERSISTENT else PyomoBackend)
    assert backend.name == name and clf.solver is opt
    if name in PERSISTENT:   # the backend's own solver, made like the instance: the instance holds no model
        assert backend.opt is not opt and isinstance(backend.opt, type(opt))


def test_the_instance_s_options_are_kept_and_the_instance_is_not_changed():
    needs_solver("appsi_highs")
    X, y = PROBLEM
    opt = pyo.SolverFactory("appsi_highs")
    opt.options["simplex_strategy"] = 4    # primal simplex: HiGHS's own option, kept
    opt.config.time_limit = 100.0
    clf = MRCClassifier(solver=opt, eps_1=1e-6).fit(X, y)
    own = clf.master_.backend.opt
    assert own.options["simplex_strategy"] == 4 and own.config.time_limit == 100.0
    # the library's own settings went to its solver, not to the user's
    assert own.config.load_solution is False and opt.config.load_solution is True
    assert opt.update_config.check_for_new_or_removed_constraints is True
    assert dict(opt.options) == {"simplex_strategy": 4}
    glpk = pyo.SolverFactory("glpk")
    glpk.options["tmlim"] = 1000
    made = make_solver(glpk)
    assert made is not glpk and dict(made.options) == {"tmlim": 1000}


def test_an_instance_s_options_reach_the_solver():
    needs_solver("glpk")
    X, y = PROBLEM
    opt = pyo.SolverFactory("glpk")
    opt.options["no-such-option"] = 1
    from mrc_pyomo import MasterSolveError
    with pytest.raises(MasterSolveError, match="glpk"):   # glpsol rejects it: the instance's options are used
        MRCClassifier(solver=opt).fit(X, y)


def test_mrc_path_and_the_master_take_an_instance(reference):
    needs_solver("appsi_highs")
    needs_solver("glpk")
    X, y = PROBLEM
    path = mrc_path(X, y, [0.1, 0.01], solver=pyo.SolverFactory("appsi_highs"), eps_1=1e-6)
    assert path.estimators[-1].upper_ == pytest.approx(reference, abs=1e-6)
    tau, lam = np.ones((2, 3)) * 0.1, np.ones((2, 3)) * 0.01
    master = RestrictedMaster(np.eye(3), tau, lam, solver=pyo.SolverFactory("glpk"))
    assert isinstance(master.backend, PyomoBackend) and master.backend.name == "glpk"


@pytest.mark.parametrize("name", ["glpk", "appsi_highs"])
def test_an_estimator_holding_an_instance_is_cloned_and_pickled(name, reference):
    needs_solver(name)
    X, y = PROBLEM
    opt = pyo.SolverFactory(name)
    opt.options["presolve" if name == "appsi_highs" else "tmlim"] = "on" if name == "appsi_highs" else 1000
    twin = clone(MRCClassifier(solver=opt, eps_1=1e-6))   # scikit-learn deep-copies the instance
    assert twin.solver is not opt and dict(twin.solver.options) == dict(opt.options)
    clf = twin.fit(X, y)
    assert clf.upper_ == pytest.approx(reference, abs=1e-6)
    # the master pickles: Pyomo's shell solvers as they are, APPSI's (classes made inside a function) by name
    master = pickle.loads(pickle.dumps(clf.master_))
    assert master.solve().objective == pytest.approx(clf.master_.solution.objective, abs=1e-7)
    assert isinstance(master.solver, str) == (name == "appsi_highs")


def test_a_persistent_instance_that_cannot_be_copied_is_made_by_name():
    needs_solver("gurobi_persistent")
    opt = pyo.SolverFactory("gurobi_persistent")
    opt.options["Threads"] = 1
    made = make_solver(opt)   # deepcopy fails (it holds the gurobipy module): SolverFactory(name) and its options
    assert made is not opt and solver_name(made) == "gurobi_persistent" and dict(made.options) == {"Threads": 1}


def test_what_is_not_a_usable_solver_is_refused_by_name():
    X, y = PROBLEM
    with pytest.raises(ValueError, match="'solver' parameter of MRCClassifier"):
        MRCClassifier(solver=3).fit(X, y)
    with pytest.raises(ValueError, match="got 3 of type int"):
        check_solver(3)
    with pytest.raises(ValueError, match="unknown solver 'no_such_solver'"):
        check_solver(pyo.SolverFactory("no_such_solver"))
    if not pyo.SolverFactory("baron").available(exception_flag=False):
        with pytest.raises(RuntimeError, match="'baron' is known to Pyomo but not available"):
            MRCClassifier(solver=pyo.SolverFactory("baron")).fit(X, y)
    from pyomo.contrib.appsi.solvers import Highs
    with pytest.raises(ValueError, match="APPSI solver object: pass the one Pyomo's SolverFactory makes"):
        MRCClassifier(solver=Highs()).fit(X, y)


def test_a_failed_solve_carries_the_solver_s_own_message(capfd, caplog):
    """``solver="glpk", solver_options={"foo": 1}``: the error says glpsol's own words (it said only "did not exit
    normally", the cause being in Pyomo's log lines, printed once per attempt), and nothing is printed."""
    needs_solver("glpk")
    from mrc_pyomo import MasterSolveError
    X, y = PROBLEM
    with pytest.raises(MasterSolveError, match=r"did not exit normally: Invalid option '--foo'"):
        MRCClassifier(solver="glpk", solver_options={"foo": 1}).fit(X, y)
    out, err = capfd.readouterr()
    assert "Invalid option" not in out + err and not [r for r in caplog.records if r.name.startswith("pyomo")]


def test_the_errors_of_a_solve_that_succeeds_are_logged_as_pyomo_logs_them(caplog):
    import logging
    from mrc_pyomo.master.pyomo_solve import solver_errors, solver_message
    with solver_errors() as said:
        logging.getLogger("pyomo.opt").error("Solver log:\nfirst\n\nsecond")
        logging.getLogger("pyomo.opt").warning("a warning passes")
    assert said == ["Solver log:\nfirst\n\nsecond"] and solver_message(said) == "first / second"
    assert [r.getMessage() for r in caplog.records] == ["a warning passes", "Solver log:\nfirst\n\nsecond"]
