"""Every HiGHS instance of the library (:mod:`mrc_pyomo.master.highs_setup`): quiet when made, whatever highspy
prints; its log on only through the user's ``solver_options``; its options checked against HiGHS's own answer
(on the built-in backend and Pyomo's HiGHS interfaces); a time limit that bounds one run and is not left on the
master."""

import os

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem, scaled_problem, standard_problem
from mrc_pyomo import MasterSolveError, MRCClassifier


def test_a_time_limit_is_not_left_on_the_master():
    # before: a fit stopped by time_limit inside HiGHS left the limit on master_: its next solve failed
    clf = MRCClassifier(eps_1=0.0, eps_2=0.0, n_max=50, time_limit=0.5)
    with pytest.warns(ConvergenceWarning):
        clf.fit(*random_problem(3000, 30, 10, seed=12))
    assert clf.status_ == "time_limit"
    master = clf.master_
    assert master.backend.highs.getOptionValue("time_limit")[1] == np.inf
    master.refine()
    with pytest.raises(MasterSolveError, match="[Tt]ime limit"):
        master.solve(time_limit=0.0)   # no time left: HiGHS stops at once
    assert np.isfinite(master.solve().objective)   # and the next solve has no limit


@pytest.mark.parametrize("solver", ["appsi_highs", "highs"])
def test_highs_checks_its_options_and_says_why_it_stopped(solver):
    # before: Pyomo's HiGHS ignored a misspelt option; an iteration limit passed on Pyomo's advice about
    # load_solutions, which a user of the estimator cannot act on
    X, y = standard_problem()
    with pytest.raises(ValueError, match="HiGHS rejected the option no_such_option"):
        MRCClassifier(solver=solver, solver_options={"no_such_option": 1}).fit(X, y)
    with pytest.raises(MasterSolveError, match="maxIterations|Iteration limit") as error:
        MRCClassifier(solver=solver, solver_options={"simplex_iteration_limit": 1}).fit(X, y)
    assert "load_solutions" not in str(error.value)


def test_master_the_solver_cannot_solve():
    X, y = random_problem(30, 2, 2)
    with pytest.raises(MasterSolveError, match="limit"):
        MRCClassifier(solver_options={"simplex_iteration_limit": 0}).fit(X, y)
    with pytest.raises(ValueError, match="HiGHS rejected the option"):
        MRCClassifier(solver_options={"no_such_option": 1}).fit(X, y)


def test_solver_options_turn_the_solver_log_on(capfd):
    """Only the user's solver_options show HiGHS's own log."""
    X, y = random_problem(60, 3, 3, seed=1)
    MRCClassifier(solver_options={"output_flag": True}).fit(X, y)
    out, _ = capfd.readouterr()
    assert "Model status" in out


def test_a_highs_that_prints_when_made_is_silenced(capfd, monkeypatch):
    """Whatever highspy version is installed: a ``Highs`` whose constructor writes to file descriptor 1 (as
    highspy 1.16's banner does, from C++) prints nothing through the library, and the library's own output
    around it keeps its order."""
    import highspy
    import mrc_pyomo.master.highs_backend as backend

    class Loud(highspy.Highs):
        def __init__(self):
            super().__init__()
            os.write(1, b"Running HiGHS 9.9.9: Copyright (c)\n")

    monkeypatch.setattr(backend.highspy, "Highs", Loud)
    print("before", flush=True)
    backend.quiet_highs()
    print("after", flush=True)
    X, y = random_problem(60, 3, 3, seed=1)
    MRCClassifier().fit(X, y)
    MRCClassifier(method="lp").fit(X, y)
    out, err = capfd.readouterr()
    assert out == "before\nafter\n" and err == ""


def test_the_log_asked_for_goes_where_python_prints(capfd):
    """``solver_options={"tee": True}`` with the built-in HiGHS: its log lands in ``contextlib.redirect_stdout``
    (a notebook's cell captures ``sys.stdout`` the same way) and not on the process's file descriptor, where it
    went before, uncaptured; with no log asked for, nothing is printed."""
    import contextlib
    import io

    from helpers import random_problem
    from mrc_pyomo import MRCClassifier
    X, y = random_problem(60, 3, 3, seed=2)
    caught = io.StringIO()
    with contextlib.redirect_stdout(caught):
        MRCClassifier(solver_options={"tee": True}).fit(X, y)
    # two lines of the log of every run (the banner "Running HiGHS ..." is not one: from highspy 1.16 the
    # constructor prints it, before any option can be set, and quiet_highs discards it)
    assert "Objective value" in caught.getvalue() and "HiGHS run time" in caught.getvalue()
    assert capfd.readouterr().out == ""
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet):
        MRCClassifier().fit(X, y)
    assert quiet.getvalue() == "" and capfd.readouterr().out == ""


def test_pdlp_run_in_three_steps_gives_highs_s_optimum_and_an_unfinished_point_in_the_lp_s_own_space():
    """:func:`~mrc_pyomo.master.highs_setup.run_pdlp`: ended optimal, the point of ``highs.run()`` bit for bit;
    stopped short (here its iteration limit), a point of the LP's own columns and rows, of the objective HiGHS
    reports for it, where ``highs.run()`` stopped keeps none (highspy 1.15: its point is the presolved LP's) or,
    from highspy 1.16, the same point."""
    import highspy
    from mrc_pyomo.master.highs_setup import quiet_highs, run_pdlp
    from mrc_pyomo.methods import full_lp
    from mrc_pyomo.problem import MRCProblem
    Psi, y_idx, tau, lam = scaled_problem(300, 8, 2, True, seed=4)
    master = full_lp.full_master(MRCProblem.from_arrays(Psi, y_idx, tau, lam), "highs", {"solver": "pdlp"}, 100)

    def fresh(**options):
        highs = quiet_highs({"solver": "pdlp", **options})
        highs.passModel(master.backend.highs.getLp())
        return highs

    whole, split = fresh(), fresh()
    whole.run()
    assert run_pdlp(split, None) == (highspy.HighsModelStatus.kOptimal, True)
    assert whole.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert np.array_equal(whole.getSolution().col_value, split.getSolution().col_value)
    assert np.array_equal(whole.getSolution().row_dual, split.getSolution().row_dual)
    stopped = fresh(pdlp_iteration_limit=40)
    status, iterate = run_pdlp(stopped, None)
    assert status == highspy.HighsModelStatus.kIterationLimit and iterate
    point, lp = stopped.getSolution(), stopped.getLp()
    assert len(point.col_value) == lp.num_col_ and len(point.row_dual) == lp.num_row_
    assert np.dot(lp.col_cost_, point.col_value) == pytest.approx(stopped.getInfo().objective_function_value)
    assert np.all(np.asarray(point.row_dual) <= 0) and np.sum(point.row_dual) < 0   # the rows' duals, <= 0
    alone = fresh(pdlp_iteration_limit=40)
    alone.run()
    own = alone.getSolution()   # HiGHS's own run, stopped: no point of the LP's (1.15), or from 1.16 the same point
    assert not own.value_valid or (np.array_equal(own.col_value, point.col_value)
                                   and np.array_equal(own.row_dual, point.row_dual))
