"""The path at the core (:mod:`mrc_pyomo.methods.pathwise`): a single fit through larger lambda0 values reaches the
same R* as the loop alone, certified; its schedule, the value of lambda0 from which ``mu = 0`` is optimal, a fit
stopped in an earlier stage; ``first_order`` validated by name.  The first-order phases before the loop:
``tests/methods/test_phased.py``; the path of fits at the user's values: ``tests/estimator/test_path.py``."""

import warnings
from dataclasses import replace

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from helpers import random_problem, reference_R_star
from mrc_pyomo import MRCClassifier
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.methods import get_method, pathwise
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
    stages = finish(pathwise.path_steps(problem, lambda0s, ccg, config, stage_eps=pathwise.STAGE_EPS))
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


def test_first_order_is_validated_by_name():
    X, y = random_problem(30, 2, 2, seed=0)
    with pytest.raises(ValueError, match="first_order"):
        MRCClassifier(first_order="sometimes").fit(X, y)
