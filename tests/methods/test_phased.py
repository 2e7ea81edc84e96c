"""A first-order phase, then the loop that certifies (:mod:`mrc_pyomo.methods.phased`): a fit with MRC-PDHG's phase
is certified like any other (``upper_`` the exact ``R(mu_)``, ``lower_ <= R*`` of an independent full LP), never
returns a worse rule than its phase's, and keeps the rows of the phase's master; its limits, callback, history and log
cover both phases; FISTA's phase hands MRC-PDHG's its point; the segments join the phases' rule to each master's."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import REFERENCE_TOL, problems, random_problem, reference_R_star
from mrc_pyomo import MRCClassifier
from mrc_pyomo.display.log import LOG_HEADER
from mrc_pyomo.methods import first_order, get_method, pdhg
from mrc_pyomo.methods.ccg import CCGConfig
from mrc_pyomo.methods.phased import Phase, keeping_rows, phased_steps
from mrc_pyomo.methods.result import finish
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem import prepare


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_the_phase_keeps_the_certificate_and_never_worsens_the_rule(problem):
    """On 25 of the property test's problems: with MRC-PDHG's phase (``first_order=True``), ``upper_`` is ``R(mu_)``
    (raised by the bound on its rounding), the interval holds the R* of an independent full LP, "converged" means a
    gap of at most eps_1, the rule is no worse than the phase's (to the end, and after 4 iterations and 4
    masters), and the loop from the phase's master removes no row."""
    X, y, params = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = {fo: MRCClassifier(first_order=fo, **params).fit(X, y) for fo in (True, False)}
        short = {fo: MRCClassifier(first_order=fo, max_iter=4, **params).fit(X, y) for fo in (True, False)}
    classes, y_idx = np.unique(y, return_inverse=True)
    Psi = fits[True].feature_map_.transform(X)
    R_star = reference_R_star(Psi, y_idx, len(classes), params["lambda0"])
    for clf in (fits[True], short[True]):
        R = worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_)
        assert R <= clf.upper_ <= R + 1e-9
        assert clf.lower_ - REFERENCE_TOL <= R_star <= clf.upper_ + REFERENCE_TOL
        assert (clf.status_ == "converged") == (clf.upper_ - clf.lower_ <= max(clf.eps_1, 1e-9))
        assert clf.history_.phase.iloc[0] == "first-order"
    if fits[True].regime_ == "full":
        return   # the full LP: no phase (the fit is method="lp")
    for clf in (fits[True], short[True]):
        history = clf.history_
        assert clf.upper_ <= history.upper[history.phase == "first-order"].min() + 1e-12   # the phase's rule at worst
        assert history.rows_removed[history.phase != "first-order"].sum() == 0   # the loop keeps the phase's rows


def test_limits_callback_history_and_log(capsys):
    """``max_iter`` bounds each phase; the history numbers and times the phases on and the best ``upper`` never
    rises; the callback sees the phase's records, then the loop's states, and stops either; a time limit that
    ends in the phase returns its rule, uncertified; ``verbose=2`` logs both phases."""
    X, y = random_problem(300, 4, 3, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = MRCClassifier(first_order=True, max_iter=7, eps_1=0.0).fit(X, y)
    phases = list(clf.history_.phase)
    assert phases[:7] == ["first-order"] * 7 and 1 <= len(phases) - 7 <= 7 and set(phases[7:]) == {"generation"}
    assert list(clf.history_.iteration) == list(range(1, len(phases) + 1)) and clf.n_iter_ == len(phases)
    assert np.all(np.diff(clf.history_.seconds_elapsed) >= 0) and np.all(np.diff(clf.history_.upper) <= 1e-15)
    assert list(clf.history_.columns) == pdhg.FIT_COLUMNS and (clf.history_.lambda0 == 0.01).all()
    seen = []
    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(first_order=True, callback=lambda s: seen.append(s) or len(seen) == 3).fit(X, y)
    assert clf.status_ == "callback" and clf.n_iter_ == 3 and clf.master_ is None and clf.lower_ >= 0.0
    assert all(isinstance(s, dict) and s["phase"] == "first-order" for s in seen)
    seen.clear()
    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(first_order=True, max_iter=5,
                            callback=lambda s: seen.append(s) or not isinstance(s, dict)).fit(X, y)
    assert clf.status_ == "callback" and clf.n_iter_ == 6 and clf.master_ is not None and clf.lower_ > 0
    assert [isinstance(s, dict) for s in seen] == [True] * 5 + [False] and seen[-1].iteration == 1
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(first_order=True, time_limit=0.0).fit(X, y)
    assert clf.status_ == "time_limit" and clf.n_iter_ == 1 and clf.master_ is None
    assert clf.upper_ == pytest.approx(worst_case_risk(clf.feature_map_.transform(X), clf.mu_, clf.tau_,
                                                       clf.lambda_), abs=1e-12)
    capsys.readouterr()
    MRCClassifier(first_order=True, verbose=2, eps_1=1e-2, max_iter=30).fit(X, y)   # 30 iterations, then masters
    out = capsys.readouterr().out
    assert "PDHG" in out and LOG_HEADER in out and "converged" in out
    assert out.index("PDHG") < out.index(LOG_HEADER)


def test_fista_s_phase_hands_pdhg_s_its_point_and_the_log_words_each():
    """FISTA then MRC-PDHG (the route of images): PDHG's iterations start from FISTA's outcome (its rule the first
    incumbent, its smoothed weights the first dual point), each phase's records are its own, and the loop
    certifies after them; ``verbose=2`` words each phase's lines by its own method."""
    X, y = random_problem(300, 4, 3, seed=2)
    problem = prepare(X, y)
    fista = Phase(get_method("fom"), first_order.FOMConfig(max_iter=40, tolerance=0.0))
    primal_dual = Phase(get_method("pdhg"), pdhg.PDHGConfig(max_iter=30))
    ccg = get_method("ccg")
    result = finish(phased_steps(problem, (fista, primal_dual), lambda start, log: ccg.steps(
        problem, keeping_rows(CCGConfig(eps_1=1e-6)), start=start, log=log), 1e-6, columns=ccg.columns))
    history = result.history
    assert [("beta" in record, "omega" in record) for record in history[:70]] == [(True, False)] * 40 + [
        (False, True)] * 30
    assert history[40]["upper"] <= history[39]["upper"]   # PDHG's incumbent starts at FISTA's rule
    assert result.status == "converged" and result.upper - result.lower <= 1e-6
    assert result.upper == pytest.approx(worst_case_risk(problem.data, result.mu, problem.tau, problem.lam), abs=1e-12)
    start = finish(first_order.phase_steps(problem, fista.config))[0]   # FISTA's W: its gradient's weights, in the simplex
    assert start.W.shape == (300, 3) and np.all(start.W >= 0) and start.W.sum() == pytest.approx(1.0)


def test_keeping_rows_keeps_only_where_the_config_has_row_age():
    assert keeping_rows(CCGConfig()).row_age is None and keeping_rows(pdhg.PDHGConfig()) == pdhg.PDHGConfig()
