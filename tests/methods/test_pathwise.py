"""The runner of every fit (:mod:`mrc_pyomo.methods.pathwise`): a single fit through larger lambda0 values reaches the
same R* as the loop alone, certified; its schedule, the value of lambda0 from which ``mu = 0`` is optimal, a fit
stopped in an earlier stage; ``first_order`` validated by name.  A first-order phase, then the loop that certifies:
a fit with MRC-PDHG's phase is certified like any other (``upper_`` the exact ``R(mu_)``, ``lower_ <= R*`` of an
independent full LP), never returns a worse rule than its phase's, and keeps the rows of the phase's master; its
limits, callback, history and log cover both phases; FISTA's phase hands MRC-PDHG's its point.  The path of fits
at the user's values: ``tests/estimator/test_path.py``."""

import warnings
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import REFERENCE_TOL, problems, random_problem, reference_R_star
from mrc_pyomo import MRCClassifier
from mrc_pyomo.display.log import LOG_HEADER
from mrc_pyomo.estimator.parameters import Settings
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.methods import get_method, pathwise, pdhg
from mrc_pyomo.methods.ccg import CCGConfig
from mrc_pyomo.methods.fista import FOMConfig
from mrc_pyomo.methods.plan import STAGE_EPS, Phase, Plan, schedule, zero_rule_lambda0
from mrc_pyomo.methods.result import finish
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem import MRCProblem, prepare
from mrc_pyomo.problem.estimates import mean_and_confidence


EPS = 1e-6


def test_the_first_stage_at_the_zero_rule_value_has_the_rule_mu_0():
    """At and above zero_rule_lambda0, mu = 0 is optimal: R* = R(0) = 1 - 1/K."""
    X, y = random_problem(150, 4, 3, seed=2)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, std = mean_and_confidence(Psi, y, 3, 1.0)
    zero_rule = zero_rule_lambda0(MRCProblem.from_arrays(Psi, y, tau, std))
    assert 0 < zero_rule < np.inf
    clf = MRCClassifier(lambda0=zero_rule * (1 + 1e-9), eps_1=1e-9, continuation=False).fit(X, y)
    assert clf.upper_ == pytest.approx(1 - 1 / 3, abs=1e-8)
    below = MRCClassifier(lambda0=zero_rule * 0.5, eps_1=1e-9, continuation=False).fit(X, y)
    assert below.upper_ <= 1 - 1 / 3


def test_the_schedule_descends_to_the_user_s_lambda0():
    assert schedule(0.01) == pytest.approx([0.27, 0.09, 0.03, 0.01])
    assert schedule(0.01, zero_rule=0.1) == pytest.approx([0.09, 0.03, 0.01])
    assert schedule(0.5, zero_rule=0.4) == [0.5]
    assert schedule(0.0)[-1] == 0.0 and schedule(0.0)[0] > 0


@pytest.mark.parametrize("regime", ["n", "nm"])
@pytest.mark.parametrize("lambda0", [0.01, 0.0])
def test_continuation_reaches_the_same_R_star(regime, lambda0):
    X, y = random_problem(150, 5, 3, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        direct = MRCClassifier(lambda0=lambda0, continuation=False, regime=regime, eps_1=EPS).fit(X, y)
    continued = MRCClassifier(lambda0=lambda0, continuation=True, regime=regime, eps_1=EPS).fit(X, y)
    R_star = reference_R_star(continued.feature_map_.transform(X), y, 3, lambda0)
    assert continued.status_ == "converged" and continued.lower_ <= R_star + 1e-9
    assert continued.upper_ == pytest.approx(R_star, abs=EPS + 1e-9)
    assert continued.upper_ == pytest.approx(worst_case_risk(continued.feature_map_.transform(X), continued.mu_,
                                                             continued.tau_, continued.lambda_), abs=1e-12)
    h = continued.history_
    assert list(h.iteration) == list(range(1, len(h) + 1)) and continued.n_iter_ == len(h)
    stages = list(dict.fromkeys(h.lambda0))
    assert stages == sorted(stages, reverse=True) and stages[-1] == lambda0 and len(stages) > 1
    if direct.status_ == "converged":
        assert continued.upper_ == pytest.approx(direct.upper_, abs=2 * EPS)


def test_max_iter_bounds_each_stage_of_a_path_and_the_whole_of_a_single_fit():
    """A path (``mrc_path``, the folds of ``MRCClassifierCV``) gives each ``lambda0`` its own ``max_iter``, as
    scikit-learn's ``LogisticRegressionCV`` does each ``C`` (it spent ``max_iter`` once over the path, leaving the
    smaller values unreached); a single fit through larger values (``continuation=True``) keeps the user's
    ``max_iter`` as the bound of the whole fit, its stages together, with the records numbered on across them."""
    X, y = random_problem(300, 5, 4, seed=4)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, std = mean_and_confidence(Psi, y, 4, 1.0)
    lambda0s = [0.3, 0.1, 0.03, 0.01]
    problem, ccg = MRCProblem.from_arrays(Psi, y, tau, std), get_method("ccg")
    config = CCGConfig(eps_1=1e-9, max_iter=2)
    stages = finish(pathwise.path_steps(problem, lambda0s, ccg, config))
    assert [lambda0 for lambda0, _ in stages] == lambda0s
    assert [len(result.history) for _, result in stages] == [2, 2, 2, 2]
    assert [record["iteration"] for _, result in stages for record in result.history] == list(range(1, 9))
    single = finish(pathwise.fit_steps(problem.at(0.01), Plan(ccg, config, stages=tuple(lambda0s))))
    assert len(single.history) == 2 and single.status == "max_iter"


def test_a_fit_stopped_before_the_last_stage_returns_the_best_rule_seen():
    """Every stage's rule is a candidate at the user's lambda0: stopped by max_iter in an earlier stage, the
    fit returns the best of them there, with a valid lower bound from the last master's duals."""
    X, y = random_problem(300, 5, 4, seed=4)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, std = mean_and_confidence(Psi, y, 4, 1.0)
    lambda0s = [0.3, 0.1, 0.03, 0.01]
    config, ccg = CCGConfig(eps_1=1e-9), get_method("ccg")
    problem = MRCProblem.from_arrays(Psi, y, tau, std)
    stages = finish(pathwise.path_steps(problem, lambda0s, ccg, config, stage_eps=STAGE_EPS))
    first_two = sum(len(r.history) for _, r in stages[:2])
    plan = Plan(ccg, replace(config, max_iter=first_two), stages=tuple(lambda0s), stage_eps=STAGE_EPS)
    stopped = finish(pathwise.fit_steps(problem.at(lambda0s[-1]), plan))
    reached = set(record["lambda0"] for record in stopped.history)
    assert 0.01 not in reached and stopped.status == "max_iter"
    lam = 0.01 * std
    seen = [worst_case_risk(Psi, r.mu, tau, lam) for _, r in stages[:2]] + [worst_case_risk(Psi, 0 * tau, tau, lam)]
    assert stopped.upper == pytest.approx(min(seen), abs=1e-12)
    assert stopped.upper == pytest.approx(worst_case_risk(Psi, stopped.mu, tau, lam), abs=1e-12)
    R_star = reference_R_star(Psi, y, 4, 0.01)
    assert 0 <= stopped.lower <= R_star + 1e-9


def test_first_order_is_validated_by_name():
    X, y = random_problem(30, 2, 2, seed=0)
    with pytest.raises(ValueError, match="first_order"):
        MRCClassifier(first_order="sometimes").fit(X, y)


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
    assert [isinstance(s, dict) for s in seen] == [True] * 5 + [False] and seen[-1].iteration == 6   # numbered on
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
    fista = Phase(get_method("fom"), FOMConfig(max_iter=40, tolerance=0.0))
    primal_dual = Phase(get_method("pdhg"), pdhg.PDHGConfig(max_iter=30))
    plan = Plan(get_method("ccg"), CCGConfig(eps_1=1e-6), phases=(fista, primal_dual), stages=(problem.lambda0,))
    result = finish(pathwise.fit_steps(problem, plan))
    history = result.history
    assert [("beta" in record, "omega" in record) for record in history[:70]] == [(True, False)] * 40 + [
        (False, True)] * 30
    assert history[40]["upper"] <= history[39]["upper"]   # PDHG's incumbent starts at FISTA's rule
    assert result.status == "converged" and result.upper - result.lower <= 1e-6
    assert result.upper == pytest.approx(worst_case_risk(problem.data, result.mu, problem.tau, problem.lam), abs=1e-12)
    start = finish(get_method("fom").iterations(problem, fista.config))[0]   # FISTA's W: its gradient's weights, in the simplex
    assert start.W.shape == (300, 3) and np.all(start.W >= 0) and start.W.sum() == pytest.approx(1.0)


def test_keeping_rows_keeps_only_where_the_config_has_row_age():
    assert pathwise.keeping_rows(CCGConfig()).row_age is None and pathwise.keeping_rows(pdhg.PDHGConfig()) == pdhg.PDHGConfig()


def test_the_loop_keeps_its_rows_after_pdhg_only(monkeypatch):
    """After MRC-PDHG (whose support names nearly the final rows: ``keep_rows``) the loop keeps every row; after
    FISTA (whose point is far from the optimum) it removes rows as MRC-CCG does."""
    problem = prepare(*random_problem(200, 4, 3, seed=2))
    loops = []
    real = pathwise.path_steps

    def spy(problem, lambda0s, method, config, **kwargs):
        if kwargs.get("start") is not None and kwargs["start"].master is not None:
            loops.append(config.row_age)
        return real(problem, lambda0s, method, config, **kwargs)

    monkeypatch.setattr(pathwise, "path_steps", spy)
    for name in ("fom", "pdhg"):
        method = get_method(name)
        config = replace(method.configure(Settings(), problem), max_iter=30)
        plan = Plan(get_method("ccg"), config.certificate, phases=(Phase(method, config),), stages=(problem.lambda0,))
        finish(pathwise.fit_steps(problem, plan))
    assert loops == [CCGConfig().row_age, None]
