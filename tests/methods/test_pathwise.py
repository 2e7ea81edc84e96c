"""The path at the core (:mod:`mrc_pyomo.methods.pathwise`): a single fit through larger lambda0 values reaches the
same R* as the loop alone, certified; its schedule, the value of lambda0 from which ``mu = 0`` is optimal, a fit
stopped in an earlier stage; and the default fit's first-order phase: where ``first_order="auto"`` runs it, that
a fit with it is certified like any other (``upper_`` the exact ``R(mu_)``, ``lower_ <= R*`` of an independent
full LP) and never returns a worse rule than MRC-CCG alone with the same masters, and that its limits, callback,
history and log cover both phases.  The path of fits at the user's values: ``tests/estimator/test_path.py``."""

import warnings
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning

from helpers import REFERENCE_TOL, problems, random_problem, reference_R_star
from mrc_pyomo import MRCClassifier
from mrc_pyomo.display.log import LOG_HEADER
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.methods import first_order, get_method, pathwise
from mrc_pyomo.methods.ccg import CCGConfig
from mrc_pyomo.methods.result import finish
from mrc_pyomo.oracles.primal import worst_case_risk
from mrc_pyomo.problem import MRCProblem
from mrc_pyomo.problem.estimates import mean_and_confidence


EPS = 1e-6


def test_the_first_stage_at_the_zero_rule_value_has_the_rule_mu_0():
    """At and above zero_rule_lambda0, mu = 0 is optimal: R* = R(0) = 1 - 1/K."""
    X, y = random_problem(150, 4, 3, seed=2)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, std = mean_and_confidence(Psi, y, 3, 1.0)
    zero_rule = pathwise.zero_rule_lambda0(MRCProblem.from_arrays(Psi, y, tau, std))
    assert 0 < zero_rule < np.inf
    clf = MRCClassifier(lambda0=zero_rule * (1 + 1e-9), eps_1=1e-9, continuation=False).fit(X, y)
    assert clf.upper_ == pytest.approx(1 - 1 / 3, abs=1e-8)
    below = MRCClassifier(lambda0=zero_rule * 0.5, eps_1=1e-9, continuation=False).fit(X, y)
    assert below.upper_ <= 1 - 1 / 3


def test_the_schedule_descends_to_the_user_s_lambda0():
    assert pathwise.schedule(0.01) == pytest.approx([0.27, 0.09, 0.03, 0.01])
    assert pathwise.schedule(0.01, zero_rule=0.1) == pytest.approx([0.09, 0.03, 0.01])
    assert pathwise.schedule(0.5, zero_rule=0.4) == [0.5]
    assert pathwise.schedule(0.0)[-1] == 0.0 and pathwise.schedule(0.0)[0] > 0


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


def test_a_fit_stopped_before_the_last_stage_returns_the_best_rule_seen():
    """Every stage's rule is a candidate at the user's lambda0: stopped by max_iter in an earlier stage, the
    fit returns the best of them there, with a valid lower bound from the last master's duals."""
    X, y = random_problem(300, 5, 4, seed=4)
    Psi = make_feature_map("linear").fit(X).transform(X)
    tau, std = mean_and_confidence(Psi, y, 4, 1.0)
    lambda0s = [0.3, 0.1, 0.03, 0.01]
    config, ccg = CCGConfig(eps_1=1e-9), get_method("ccg")
    problem = MRCProblem.from_arrays(Psi, y, tau, std)
    stages = pathwise.solve_path(problem, lambda0s, ccg, config, stage_eps=pathwise.STAGE_EPS)
    first_two = sum(len(r.history) for _, r in stages[:2])
    stopped = finish(pathwise.fit_steps(problem.at(lambda0s[-1]), lambda0s, ccg, replace(config, max_iter=first_two)))
    reached = set(record["lambda0"] for record in stopped.history)
    assert 0.01 not in reached and stopped.status == "max_iter"
    lam = 0.01 * std
    seen = [worst_case_risk(Psi, r.mu, tau, lam) for _, r in stages[:2]] + [worst_case_risk(Psi, 0 * tau, tau, lam)]
    assert stopped.upper == pytest.approx(min(seen), abs=1e-12)
    assert stopped.upper == pytest.approx(worst_case_risk(Psi, stopped.mu, tau, lam), abs=1e-12)
    R_star = reference_R_star(Psi, y, 4, 0.01)
    assert 0 <= stopped.lower <= R_star + 1e-9


def test_auto_runs_the_phase_on_wide_dense_masters_over_many_samples():
    """``"auto"``: the regime ``"n"``, ``K D >= AUTO_COLUMNS`` and ``n K D >= AUTO_ENTRIES``; ``True`` and
    ``False`` decide alone."""
    def problem(n, K, D):
        return SimpleNamespace(n_samples=n, n_classes=K, n_features=D)
    mnist_8000, mnist_1000 = problem(6400, 10, 785), problem(800, 10, 785)
    assert pathwise.runs_phase(mnist_8000, "n") and pathwise.runs_phase(mnist_1000, "n")
    assert not pathwise.runs_phase(mnist_8000, "nm")                    # sparse features: the columns come later
    assert not pathwise.runs_phase(problem(5148, 6, 437), "n")          # satellite + 400 RFF: K D = 2,622
    assert not pathwise.runs_phase(problem(200, 10, 785), "n")          # n K D = 1.6e6: the loop is quick
    assert pathwise.runs_phase(problem(10, 2, 3), "n", True) and not pathwise.runs_phase(mnist_8000, "n", False)
    X, y = random_problem(300, 4, 3, seed=2)
    clf = MRCClassifier().fit(X, y)   # "auto" on a small problem: MRC-CCG alone, as before
    assert "first-order" not in set(clf.history_.phase)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_the_phase_keeps_the_certificate_and_never_worsens_the_rule(problem):
    """On 25 of the property test's problems: with the phase, ``upper_`` is ``R(mu_)`` (raised by the bound on its
    rounding), the interval holds the R* of an independent full LP, "converged" means a gap of at most eps_1;
    with 4 masters and the same 4 masters, the rule is no worse than MRC-CCG's alone."""
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
    assert short[True].upper_ <= short[False].upper_ + 1e-12
    loop = short[True].history_[short[True].history_.phase != "first-order"]
    assert np.array_equal(loop.n_rows, short[False].history_.n_rows)   # the same masters


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
    assert list(clf.history_.columns) == first_order.COLUMNS and (clf.history_.lambda0 == 0.01).all()
    seen = []
    with pytest.warns(ConvergenceWarning, match="callback"):
        clf = MRCClassifier(first_order=True, callback=lambda s: seen.append(s) or len(seen) == 3).fit(X, y)
    assert clf.status_ == "callback" and clf.n_iter_ == 3 and clf.master_ is None and clf.lower_ == 0.0
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
    MRCClassifier(first_order=True, verbose=2, eps_1=1e-2).fit(X, y)
    out = capsys.readouterr().out
    assert "first-order" in out and LOG_HEADER in out and "converged" in out
    assert out.index("first-order") < out.index(LOG_HEADER)


def test_first_order_is_validated_by_name():
    X, y = random_problem(30, 2, 2, seed=0)
    with pytest.raises(ValueError, match="first_order"):
        MRCClassifier(first_order="sometimes").fit(X, y)
