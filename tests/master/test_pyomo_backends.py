"""Pyomo's solvers as backends of the master (:mod:`mrc_pyomo.master.pyomo_backends`): every backend reaches the same
R* as the built-in HiGHS, Pyomo's persistent interfaces (handed the model once, then each change) and Pyomo's
other solvers (handed the model at each solve); the time split of each path; an all-zero column on the
file-based solvers; solver options passed on; a solver that is not installed named."""

import numpy as np
import pyomo.environ as pyo
import pytest
from sklearn.datasets import load_breast_cancer, load_wine

from helpers import OTHERS, PERSISTENT, assert_exact, needs_solver, random_problem, standard_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master.pyomo_backends import PersistentBackend, PyomoBackend


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return X, y, MRCClassifier(method="lp", eps_1=0.0).fit(X, y).upper_


@pytest.mark.parametrize("solver", PERSISTENT + OTHERS)
def test_every_backend_reaches_R_star(wine, solver):
    needs_solver(solver)
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
    needs_solver(solver)
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


@pytest.mark.parametrize("solver", ["highs", "appsi_highs", "glpk"])
def test_the_time_split_names_where_the_time_went(wine, solver):
    """``history_``: building the Pyomo model, handing it over and solving are told apart on every path."""
    needs_solver(solver)
    X, y, _ = wine
    h = MRCClassifier(solver=solver).fit(X, y).history_
    parts = h[["seconds_oracle", "seconds_update", "seconds_build", "seconds_handover", "seconds_solve"]]
    assert (parts >= 0).all().all() and (h.seconds_solve > 0).all()
    assert parts.to_numpy().sum() <= h.seconds_elapsed.iloc[-1] + 1e-6
    if solver == "highs":      # loaded in bulk with the changes: nothing is built in Pyomo
        assert (h.seconds_build == 0).all() and (h.seconds_handover == 0).all()
    else:                      # every master has new rows to build in Pyomo and hand over
        assert (h.seconds_build > 0).all() and (h.seconds_handover > 0).all()


@pytest.mark.parametrize("solver", ["glpk", "cbc"])
def test_file_based_solvers_and_an_all_zero_column(solver):
    # before: "No value for uninitialized VarData object mu_pos[...]" from inside Pyomo
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        pytest.skip(f"{solver} not installed")
    X, y = standard_problem()
    X = np.hstack([X, np.zeros((len(X), 1))])
    # CBC's and GLPK's duals are accurate to their tolerances (about 1e-7): the certificate closes to that
    clf = MRCClassifier(solver=solver, eps_1=1e-6).fit(X, y)
    assert_exact(clf, X, y)
    assert np.all(clf.mu_[:, -1] == 0)


def test_solver_not_installed():
    if pyo.SolverFactory("baron").available(exception_flag=False):
        pytest.skip("baron is installed here")
    X, y = random_problem(20, 2, 2)
    with pytest.raises(RuntimeError, match="not available"):
        MRCClassifier(solver="baron").fit(X, y)


@pytest.mark.parametrize("solver", ["highs", "glpk", "cbc"])
def test_general_solver_path_reaches_the_same_R(solver):
    import pyomo.environ as pyo
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        pytest.skip(f"{solver} not installed")
    X, y = random_problem(70, 3, 3, seed=9)
    ref = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(X, y)
    # the file-based solvers' duals are accurate to their tolerances (about 1e-7): certify to 1e-6
    clf = MRCClassifier(eps_1=1e-6, eps_2=0.0, solver=solver).fit(X, y)
    assert clf.status_ == "converged" and clf.lower_ - 1e-9 <= ref.upper_ <= clf.upper_ + 1e-9
    assert clf.upper_ == pytest.approx(ref.upper_, abs=1e-6)


PROBLEMS = {"random": random_problem(70, 3, 3, seed=9), "breast_cancer": load_breast_cancer(return_X_y=True)}


@pytest.mark.parametrize("problem", list(PROBLEMS))
@pytest.mark.parametrize("solver", ["highs", "glpk", "cbc"])
def test_three_solvers_reach_the_same_R_star(problem, solver):
    if not pyo.SolverFactory(solver).available(exception_flag=False):
        pytest.skip(f"{solver} not installed")
    X, y = PROBLEMS[problem]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    ref = MRCClassifier(eps_1=0.0, eps_2=0.0).fit(X, y)
    # the file-based solvers' duals are accurate to their tolerances (about 1e-7): certify to 1e-6
    clf = MRCClassifier(eps_1=1e-6, eps_2=0.0, solver=solver).fit(X, y)
    assert clf.status_ == "converged" and clf.lower_ - 1e-9 <= ref.upper_ <= clf.upper_ + 1e-9
    assert clf.upper_ == pytest.approx(ref.upper_, abs=1e-6)


def test_solver_options_reach_pyomo_solve():
    if not pyo.SolverFactory("glpk").available(exception_flag=False):
        pytest.skip("glpk not installed")
    X, y = random_problem(40, 3, 2)
    from mrc_pyomo import MasterSolveError
    with pytest.raises(MasterSolveError, match="glpk"):  # glpsol rejects an unknown option: not ignored
        MRCClassifier(solver="glpk", solver_options={"no-such-option": 1}).fit(X, y)


def test_appsi_reads_every_row_with_pyomo_s_compiled_extension_and_the_collector_paused(monkeypatch):
    """docs/solvers.rst, "What each backend costs": APPSI's ``use_extensions``, reset by its ``set_instance``, is set
    again after it, before any row is handed over (the first master's too), and Python's cyclic collector is
    paused while rows are handed over."""
    needs_solver("appsi_highs")
    from pyomo.contrib.appsi import base as appsi_base
    from pyomo.contrib.appsi.cmodel import cmodel_available
    if not cmodel_available:
        pytest.skip("Pyomo's compiled extensions are not built here (pyomo build-extensions)")
    import gc
    handed = []
    original = appsi_base.PersistentBase.add_constraints
    monkeypatch.setattr(appsi_base.PersistentBase, "add_constraints", lambda self, cons: handed.append(
        (len(cons), self.use_extensions, gc.isenabled())) or original(self, cons))
    X, y = random_problem(150, 4, 4, seed=7)
    clf = MRCClassifier(solver="appsi_highs", eps_1=1e-7, n_max=10).fit(X, y)
    rows = [(extensions, collecting) for n, extensions, collecting in handed if n]
    assert sum(n for n, *_ in handed) == clf.history_.rows_added.sum() + clf.master_.objective_floor
    assert rows and all(extensions and not collecting for extensions, collecting in rows)


@pytest.mark.parametrize("solver", ["appsi_highs", "glpk"])
def test_fits_in_threads_take_turns_at_pyomo_s_solves(capfd, solver):
    """Six fits in six threads (scikit-learn's threading backend, a web server's workers) with a Pyomo solver: each
    gives the fit it gives alone, and ``verbose=0`` prints nothing.  Pyomo's output capture is process-wide: six
    appsi_highs fits crashed the process (an exception in Pyomo's reader thread), hung, or printed HiGHS's log."""
    import threading
    import warnings
    needs_solver(solver)
    problems = [random_problem(200, 4, 3, seed=k) for k in range(6)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = [MRCClassifier(solver=solver).fit(X, y).upper_ for X, y in problems]
        capfd.readouterr()
        found, errors = {}, []

        def fit(k):
            try:
                found[k] = MRCClassifier(solver=solver).fit(*problems[k]).upper_
            except Exception as error:   # noqa: BLE001 - the test reports any
                errors.append(repr(error))
        threads = [threading.Thread(target=fit, args=(k,)) for k in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert not errors and not any(thread.is_alive() for thread in threads)
    assert [found[k] for k in range(6)] == pytest.approx(alone, abs=1e-9)
    out, err = capfd.readouterr()
    assert out == "" and "HiGHS" not in err and "deadlock" not in err
