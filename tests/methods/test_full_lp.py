"""The full LP (``method="lp"``, :mod:`mrc_pyomo.methods.full_lp`): against an LP built from an enumerated F
(``helpers.enumerated_R_star``); on the HiGHS backend the explicit dual LP, by the simplex or the interior point
method as :func:`mrc_pyomo.methods.full_lp.choose_method` says, gives R* of an independent LP
(``helpers.reference_R_star``) and a closed certified interval; a Pyomo solver solves the primal LP; sizes,
errors and time limits."""

import pickle

import numpy as np
import pyomo.environ as pyo
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from helpers import enumerated_R_star, random_problem, reference_R_star, scaled_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import MasterSolveError
from mrc_pyomo.methods import full_lp
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.full_lp import LPConfig
from mrc_pyomo.oracles.primal import class_scores, psi_values, worst_case_risk
from mrc_pyomo.problem import MRCProblem
from mrc_pyomo.methods.result import finish


@pytest.mark.parametrize("n_classes,sparse", [(2, False), (3, True), (4, False)])
def test_full_lp_matches_enumerated_reference(n_classes, sparse):
    X, y = random_problem(30, 3, n_classes, sparse=sparse, seed=n_classes)
    clf = MRCClassifier(method="lp").fit(X, y)
    R_star = enumerated_R_star(X, y)
    assert clf.objective_ == pytest.approx(R_star, abs=1e-7)
    assert clf.upper_ == pytest.approx(R_star, abs=1e-7)  # R(mu*) = R* at the LP optimum
    assert clf.n_iter_ == 0 and clf.status_ == "converged"
    assert clf.lower_ <= R_star + 1e-9 and clf.upper_ - clf.lower_ <= 1e-8  # the LP's own certificate


@pytest.mark.parametrize("method", ["simplex", "ipm"])
@pytest.mark.parametrize("K,sparse", [(2, False), (2, True), (3, False), (3, True), (4, False), (4, True),
                                      (5, False), (5, True)])
def test_fast_path_gives_R_star(K, sparse, method):
    Psi, y_idx, tau, lam = scaled_problem(40, 3, K, sparse, seed=10 * K + sparse)
    R_star = reference_R_star(Psi, y_idx, K, 0.01)
    result = finish(full_lp.steps(MRCProblem.from_arrays(Psi, y_idx, tau, lam), LPConfig(eps_1=0.0, form=method)))
    assert result.status == "converged"
    assert result.objective == pytest.approx(R_star, abs=1e-7)
    assert result.upper == pytest.approx(R_star, abs=1e-7)
    assert result.lower <= R_star + 1e-9 and result.upper - result.lower <= 1e-9
    assert result.upper == pytest.approx(worst_case_risk(Psi, result.mu, tau, lam), abs=1e-12)
    master = result.master
    assert master.full_lp_method == method and master.capabilities.bulk_loading
    # the master holds the primal full LP, its solution computed by its backend from the dual LP
    assert master.n_rows == Psi.shape[0] * (2**K - 1) and len(master.features) == tau.size
    assert len(master.solution.alpha) == master.n_rows and master.solution.beta == 0.0
    assert master.solution.alpha.sum() == pytest.approx(1.0, abs=1e-9)
    # nu = varphi(mu) + 1 at the optimum
    assert master.solution.nu == pytest.approx(psi_values(class_scores(Psi, master.solution.mu)).max() + 1.0,
                                               abs=1e-7)


def test_the_rule():
    # measured (module docstring): the interior point method once K D and K nnz(Psi) are both large
    assert full_lp.choose_method(3, 5, 60 * 5) == "simplex"                 # small dense problem
    assert full_lp.choose_method(6, 37, 1000 * 37) == "simplex"             # satellite, 1,000 samples
    assert full_lp.choose_method(10, 65, 50 * 65) == "simplex"              # optdigits, 50 samples
    assert full_lp.choose_method(6, 437, 100 * 437) == "simplex"            # satellite + 400 RFF, 100 samples
    assert full_lp.choose_method(2, 409, 500 * 409) == "ipm"                # pulsar + 400 RFF, 500 samples
    assert full_lp.choose_method(2, 409, 2000 * 409) == "ipm"               # pulsar + 400 RFF, 2,000 samples
    size, m = full_lp.IPM_MIN_SIZE, full_lp.IPM_MIN_FEATURES
    assert full_lp.choose_method(2, m // 2, size // 2 - 1) == "simplex"
    assert full_lp.choose_method(2, m // 2, size // 2) == "ipm"
    assert full_lp.choose_method(2, m // 2 - 1, 10 * size) == "simplex"     # few features: the simplex


@pytest.mark.parametrize("sparse", [False, True])
def test_the_classifier_runs_the_rule(sparse, monkeypatch):
    X, y = random_problem(50, 4, 3, sparse=sparse, seed=3)
    clf = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    Psi = clf.feature_map_.transform(X)
    nnz = Psi.nnz if sp.issparse(Psi) else np.count_nonzero(Psi)
    assert clf.master_.full_lp_method == full_lp.choose_method(3, Psi.shape[1], nnz) == "simplex"
    monkeypatch.setattr(full_lp, "IPM_MIN_SIZE", 3 * nnz)
    monkeypatch.setattr(full_lp, "IPM_MIN_FEATURES", 3 * Psi.shape[1])
    ipm = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    assert ipm.master_.full_lp_method == "ipm" and ipm.status_ == "converged"
    assert ipm.upper_ == pytest.approx(clf.upper_, abs=1e-9)
    R_star = reference_R_star(Psi, np.searchsorted(clf.classes_, y), 3, 0.01)
    assert clf.upper_ == pytest.approx(R_star, abs=1e-7) and clf.upper_ - clf.lower_ <= 1e-9


def test_an_inaccurate_solve_is_refined(monkeypatch):
    # a simplex run with loose tolerances stops far from the optimum; the refined re-solve closes the gap
    monkeypatch.setitem(full_lp.FORM_OPTIONS, "simplex", {
        "solver": "simplex", "primal_feasibility_tolerance": 1e-2, "dual_feasibility_tolerance": 1e-2})
    Psi, y_idx, tau, lam = scaled_problem(60, 4, 3, False, seed=3)
    problem = MRCProblem.from_arrays(Psi, y_idx, tau, lam)
    master, solution, _, _ = full_lp.solve_full_lp(problem, form="simplex")
    best, lower = full_lp.certify(problem, master, solution)
    assert best.risk - lower > 1e-3   # the first answer alone is not certified
    result = finish(full_lp.steps(problem, LPConfig(eps_1=0.0, form="simplex")))
    assert result.status == "converged" and result.upper - result.lower <= 1e-9
    assert result.upper == pytest.approx(reference_R_star(Psi, y_idx, 3, 0.01), abs=1e-7)


def test_the_master_can_be_exported_and_pickled(tmp_path):
    X, y = random_problem(30, 3, 3, seed=5)
    clf = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    m = clf.master_.model
    rows = clf.master_.pyomo_model.row_constraints()
    assert len(rows) == 30 * 7 and all(row.model() is m for row in rows)
    assert m.nu.value == pytest.approx(clf.master_.solution.nu)
    duals = np.array([-m.dual[row] for row in rows])
    assert np.allclose(duals, clf.master_.solution.alpha)
    path = clf.master_.write(tmp_path / "full.lp")
    assert path.stat().st_size > 0
    copy = pickle.loads(pickle.dumps(clf))
    assert copy.master_.full_lp_method == "simplex"
    # unpickled, its backend (the dual form) is loaded again: solving it gives R* again
    assert copy.master_.solve().objective == pytest.approx(clf.objective_, abs=1e-9)


def test_a_pyomo_solver_solves_the_primal_lp():
    if not pyo.SolverFactory("glpk").available(exception_flag=False):
        pytest.skip("glpk not installed")
    X, y = random_problem(30, 3, 3, seed=5)
    clf = MRCClassifier(method="lp", solver="glpk", eps_1=1e-6).fit(X, y)
    assert clf.master_.full_lp_method == "pyomo" and clf.status_ == "converged"
    fast = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    assert clf.upper_ == pytest.approx(fast.upper_, abs=1e-6)


def test_solver_errors_and_the_size_guard():
    Psi, _, tau, lam = scaled_problem(30, 3, 3, False, seed=1)
    problem = MRCProblem.from_arrays(Psi, None, tau, lam)
    with pytest.raises(MasterSolveError, match="simplex.*Iteration limit"):
        finish(full_lp.steps(problem, LPConfig(solver_options={"simplex_iteration_limit": 0}, form="simplex")))
    with pytest.raises(ValueError, match="form must be"):
        finish(full_lp.steps(problem, LPConfig(form="barrier")))
    # optdigits: 5,620 samples, 64 features, 10 classes: 5.7 million rows
    big = np.ones((5620, 65))
    with pytest.raises(ValueError, match="use method='ccg'"):
        full_lp.solve_full_lp(MRCProblem.from_arrays(big, None, np.zeros((10, 65)), np.zeros((10, 65))))


@pytest.mark.parametrize("method", ["simplex", "primal_ipm", "primal_pdlp"])
def test_a_time_limit_stops_the_full_lp_with_a_certified_answer(method):
    Psi, _, tau, lam = scaled_problem(200, 6, 4, False, seed=2)
    problem = MRCProblem.from_arrays(Psi, None, tau, lam)
    # eps_1 = 0: PDLP's point, however far its first checks let it go, is not certified to round-off
    result = finish(full_lp.steps(problem, LPConfig(form=method, eps_1=0.0), deadline=Deadline(0.0)))
    assert result.status == "time_limit"
    assert result.upper == pytest.approx(worst_case_risk(Psi, result.mu, tau, lam))
    if method == "primal_pdlp":   # its last point, certified
        R_star = finish(full_lp.steps(problem, LPConfig(form="simplex", eps_1=1e-9))).upper
        assert result.lower <= R_star + 1e-9 <= result.upper + 2e-9
    else:
        assert result.lower == 0.0 and np.all(result.mu == 0)
    # without the limit the same LP solves; a failure that is not the time limit still raises
    assert finish(full_lp.steps(problem, LPConfig(form=method), deadline=Deadline(60.0))).status == "converged"


def test_an_lp_solved_with_its_gap_open_when_the_deadline_has_passed_ends_time_limit_not_stalled():
    """The LP solved before the deadline's first check (a small LP: PDLP converges before its first look at the
    clock), its gap still open at eps_1 = 0 and no time left for a re-solve: the deadline stopped the fit (it had
    ended "stalled", and the time-limit test above did so whenever PDLP converged before its first check)."""
    Psi, _, tau, lam = scaled_problem(200, 6, 4, False, seed=2)
    problem = MRCProblem.from_arrays(Psi, None, tau, lam)

    class SolvedThenExpired(Deadline):
        """No limit for the solve; expired for everything after it."""

        def remaining(self):
            return None

        def expired(self):
            return True

    # PDLP's tolerance leaves a gap above round-off, which the re-solves would close given time
    result = finish(full_lp.steps(problem, LPConfig(form="primal_pdlp", eps_1=0.0), deadline=SolvedThenExpired()))
    assert result.status == "time_limit" and 1e-9 < result.upper - result.lower
    assert result.upper == pytest.approx(worst_case_risk(Psi, result.mu, tau, lam))
    R_star = finish(full_lp.steps(problem, LPConfig(form="simplex", eps_1=1e-9))).upper
    assert result.lower <= R_star + 1e-9 <= result.upper + 2e-9


def test_the_classifier_passes_its_time_limit_to_the_full_lp():
    from sklearn.exceptions import ConvergenceWarning
    X, y = random_problem(200, 6, 4, seed=2)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(method="lp", time_limit=0.0).fit(X, y)
    assert clf.status_ == "time_limit" and clf.master_ is None and clf.lower_ == 0.0


def test_full_lp_too_large_is_refused():
    X, y = random_problem(200_000, 3, 6, seed=1)
    with pytest.raises(ValueError, match="use method='ccg'"):
        MRCClassifier(method="lp").fit(X, y)


def test_a_formulation_that_changes_the_paper_s_rows_is_solved_in_its_primal_form():
    """The full LP's dual form is written for the paper's coefficients: a subclass of the paper's formulation
    that scales its rows (examples/new_formulation.py) is solved in its primal form, to R* (the dual form made of
    it was infeasible, or "stalled" at [0, R(0)])."""
    import runpy
    from helpers import ROOT
    from mrc_pyomo.formulations import FORMULATIONS
    before = dict(FORMULATIONS)
    runpy.run_path(str(ROOT / "examples" / "new_formulation.py"), run_name="example")
    try:
        X, y = load_wine(return_X_y=True)
        X = StandardScaler().fit_transform(X)
        paper = MRCClassifier(method="lp", eps_1=1e-9).fit(X, y)
        scaled = MRCClassifier(method="lp", formulation="scaled_rows", eps_1=1e-6).fit(X, y)
        assert scaled.status_ == "converged" and scaled.master_.full_lp_method == "ipm"
        assert scaled.upper_ == pytest.approx(paper.upper_, abs=1e-6)
    finally:
        FORMULATIONS.clear()
        FORMULATIONS.update(before)


def test_two_class_lps_of_many_rows_and_fewer_than_K_D_take_pdlp():
    """Sparse text's primal LP (fewer rows than ``K D``) by IPX without crossover, except with two classes from
    ``PDLP_MIN_ROWS`` rows on, where HiGHS's PDLP is the faster (module docstring of ``full_lp``)."""
    rows = full_lp.PDLP_MIN_ROWS
    assert full_lp.choose_method(2, 50_000, 900_000, rows) == "primal_pdlp"
    assert full_lp.choose_method(2, 50_000, 900_000, rows - 1) == "primal_ipm"
    assert full_lp.choose_method(3, 50_000, 900_000, rows) == "primal_ipm"
    assert full_lp.choose_method(2, rows // 4, 900_000, rows) != "primal_pdlp"   # K D <= rows: the dual LP


@pytest.mark.parametrize("sparse", [False, True])
def test_the_primal_lp_by_pdlp_is_certified_and_an_unfinished_pdlp_hands_over_to_ipx(sparse):
    """PDLP solves the primal LP to its tolerances (1e-7 relative): the certificate, from its duals and the exact
    ``R`` of its rule, closes within ``eps_1``.  Stopped short of them (its iteration limit, here 1), it is not an
    error: the interior point method solves the LP, and the master says so."""
    Psi, y_idx, tau, lam = scaled_problem(60, 4, 2, sparse, seed=3)
    R_star = reference_R_star(Psi, y_idx, 2, 0.01)
    problem = MRCProblem.from_arrays(Psi, y_idx, tau, lam)
    result = finish(full_lp.steps(problem, LPConfig(eps_1=1e-4, form="primal_pdlp")))
    assert result.status == "converged" and result.master.full_lp_method == "primal_pdlp"
    assert result.lower <= R_star + 1e-9 and R_star <= result.upper + 1e-9 and result.upper - result.lower <= 1e-4
    stopped = finish(full_lp.steps(problem, LPConfig(eps_1=1e-6, form="primal_pdlp",
                                                     solver_options={"pdlp_iteration_limit": 1})))
    assert stopped.status == "converged" and stopped.master.full_lp_method == "primal_ipm"
    assert stopped.lower <= R_star + 1e-9 and stopped.upper - stopped.lower <= 1e-6


def test_a_pdlp_stopped_by_the_time_limit_returns_its_last_point_certified(monkeypatch):
    """PDLP's last point when the time limit stops it (here its 800th iteration, reported as the time limit) is
    the fit's, certified like any rule: ``upper = R(mu)`` of its best on the segment from 0, ``lower`` the
    Lagrangian bound of its duals, around R*; the master kept (before: ``mu = 0`` on ``[0, R(0)]``)."""
    import highspy
    from mrc_pyomo.master import highs_backend, highs_setup

    def stopped(highs, time_limit):
        highs.setOptionValue("pdlp_iteration_limit", 800)
        status, iterate = highs_setup.run_pdlp(highs, time_limit)
        assert status == highspy.HighsModelStatus.kIterationLimit
        return highspy.HighsModelStatus.kTimeLimit, iterate

    Psi, y_idx, tau, lam = scaled_problem(400, 12, 2, True, seed=5)
    R_star = reference_R_star(Psi, y_idx, 2, 0.01)
    problem = MRCProblem.from_arrays(Psi, y_idx, tau, lam)
    monkeypatch.setattr(highs_backend, "run_pdlp", stopped)
    result = finish(full_lp.steps(problem, LPConfig(form="primal_pdlp", eps_1=1e-9)))
    assert result.status == "time_limit" and result.master.full_lp_method == "primal_pdlp"
    assert result.upper == pytest.approx(worst_case_risk(Psi, result.mu, tau, lam), abs=1e-12)
    assert 0 < result.lower <= R_star + 1e-9 <= result.upper + 2e-9 and result.upper < 0.5   # R(0) = 1 - 1/K


def test_pdlp_stops_at_a_hundredth_of_eps_1_and_a_gap_left_open_is_solved_again_at_highs_s_tolerance(monkeypatch):
    """PDLP's relative tolerance is a hundredth of ``eps_1`` (HiGHS's 1e-7 at the least, the user's own
    ``kkt_tolerance`` kept): the certificate says when the LP is solved.  Loosened so far that its point leaves the
    gap open (here the tolerance 0.1), the LP is solved again at 1e-7, and certified."""
    assert full_lp.pdlp_tolerance(1e-3) == pytest.approx(1e-5)
    assert full_lp.pdlp_tolerance(1e-6) is None and full_lp.pdlp_tolerance(0.0) is None
    assert full_lp.pdlp_tolerance(1e-3, {"kkt_tolerance": 1e-6}) is None
    Psi, y_idx, tau, lam = scaled_problem(400, 12, 2, True, seed=5)
    R_star = reference_R_star(Psi, y_idx, 2, 0.01)
    problem = MRCProblem.from_arrays(Psi, y_idx, tau, lam)
    result = finish(full_lp.steps(problem, LPConfig(form="primal_pdlp", eps_1=1e-3)))
    assert result.status == "converged" and result.lower <= R_star + 1e-9 <= result.upper + 2e-9
    assert result.master.backend.highs.getOptionValue("kkt_tolerance")[1] == pytest.approx(1e-5)
    certified, certify = [], full_lp.certify

    def counted(problem, master, solution, eps_1=None):
        certified.append(solution)
        return certify(problem, master, solution, eps_1)

    monkeypatch.setattr(full_lp, "PDLP_TOLERANCE_SHARE", 1e3)
    monkeypatch.setattr(full_lp, "certify", counted)
    result = finish(full_lp.steps(problem, LPConfig(form="primal_pdlp", eps_1=1e-4)))
    assert result.status == "converged" and result.lower <= R_star + 1e-9 <= result.upper + 2e-9
    assert result.master.backend.highs.getOptionValue("kkt_tolerance")[1] == full_lp.KKT_TOLERANCE
    assert result.master.full_lp_method == "primal_pdlp" and len(certified) == 2   # the loose point, the tight
