"""From an estimator's parameters and data to the core's fit (:mod:`mrc_pyomo.estimator.fitting`): :func:`problem_of`
validates and prepares the data (``tau`` and ``lambda`` of eq. 2, the method's reduction, the samples of weight 0
left out) and returns the input attributes without writing any attribute into the estimator, fitted or not;
:func:`plan_of` gives the method's config from the estimator's settings and the first-order phase exactly where
the method takes them, those the planner's :func:`~mrc_pyomo.methods.plan.route` names."""

import copy
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.estimator import fitting
from mrc_pyomo.estimator.fitting import plan_of, problem_of
from mrc_pyomo.estimator.parameters import settings_of
from mrc_pyomo.methods import get_method
from mrc_pyomo.methods import plan as plan_module
from mrc_pyomo.methods.plan import Phase
from mrc_pyomo.problem.estimates import mean_and_confidence


def frame(n=24, d=3, K=3, seed=0):
    """Labelled data whose first column is positive on class ``a`` and 0 elsewhere: features ``(b, f0)`` and
    ``(c, f0)`` are fixed and block the labels ``b`` and ``c`` for the samples of class ``a`` (an exact
    reduction, :mod:`mrc_pyomo.problem.reduction`)."""
    X, y = random_problem(n, d, K, seed=seed)
    X[:, 0] = np.where(y == 0, 1.0 + np.abs(X[:, 0]), 0.0)
    return pd.DataFrame(X, columns=[f"f{j}" for j in range(d)]), np.array(["a", "b", "c", "d"])[:K][y]


def state(estimator):
    """What an estimator holds: its attribute names and each value's identity."""
    return {name: id(value) for name, value in vars(estimator).items()}


@pytest.mark.parametrize("method", ["ccg", "subgradient"])
def test_prepared_makes_the_problem_and_writes_nothing_into_the_estimator(method):
    X, y = frame()
    clf = MRCClassifier(method=method)
    before = state(clf)
    problem, inputs = problem_of(clf, X, y, None, 0.1, get_method(method))
    assert state(clf) == before and not hasattr(clf, "n_features_in_")
    assert inputs["n_features_in_"] == 3 and list(inputs["feature_names_in_"]) == list(X.columns)
    assert problem.lambda0 == 0.1 and list(problem.classes) == ["a", "b", "c"]
    assert np.array_equal(problem.classes[problem.y], y)
    assert problem.n_samples == 24 and problem.n_features == 4   # 3 features and the intercept
    tau, std = mean_and_confidence(problem.data, problem.y, 3, 1.0)
    np.testing.assert_allclose(problem.tau, tau, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(problem.lam, 0.1 * std, rtol=1e-14, atol=1e-15)
    # the method's reduction: MRC-CCG solves the reduced LP, MRC-SUB the LP as it is
    assert (problem.reduction is not None) == get_method(method).reduces
    if problem.reduction is not None:
        assert np.array_equal(problem.reduction.blocked[:, 1:].any(axis=1), problem.y == 0)


def test_prepared_leaves_a_fitted_estimator_as_it_was():
    X, y = frame()
    clf = MRCClassifier().fit(X, y)
    before, fitted = state(clf), copy.copy(vars(clf))
    other = pd.DataFrame(np.random.default_rng(1).normal(size=(10, 5)), columns=list("vwxyz"))
    _, inputs = problem_of(clf, other, np.arange(10) % 2, None, 0.01, get_method("ccg"))
    assert inputs["n_features_in_"] == 5 and list(inputs["feature_names_in_"]) == list("vwxyz")
    assert state(clf) == before and clf.n_features_in_ == fitted["n_features_in_"] == 3


def test_prepared_leaves_out_the_samples_of_weight_zero_and_passes_its_options_on():
    X, y = frame()
    weights = np.where(np.arange(24) % 4 == 0, 0.0, 2.0)
    weights[1] = 4.0
    problem, _ = problem_of(MRCClassifier(), X, y, weights, 0.0, get_method("ccg"))
    assert problem.n_samples == np.count_nonzero(weights)
    assert np.array_equal(problem.weights, weights[weights > 0] / weights.max())
    assert problem.centre is not None   # lambda0 = 0 centres dense data with an intercept ...
    problem, _ = problem_of(MRCClassifier(), X, y, None, 0.0, get_method("ccg"), centre=False)
    assert problem.centre is None       # ... unless told not to


def test_prepared_checks_the_solver_first():
    X, y = frame()
    clf = MRCClassifier(solver="no_such_solver")
    before = state(clf)
    with pytest.raises(ValueError, match="no_such_solver"):
        problem_of(clf, X, y, None, 0.01, get_method("ccg"))
    assert state(clf) == before


@pytest.mark.parametrize("method", ["ccg", "lp", "fom"])
@pytest.mark.parametrize("first_order", ["auto", True, False])
@pytest.mark.parametrize("names", [(), ("pdhg",), ("fom", "pdhg")])
def test_planned_runs_the_phases_of_the_route_where_the_method_takes_them(monkeypatch, method, first_order, names):
    """:func:`plan_of` asks the planner's :func:`~mrc_pyomo.methods.plan.route` (here answering ``names``) about the
    problem, the config's regime, the estimator's ``first_order`` and its map, for a method that runs after phases;
    each phase is that registered method's with its config from the same settings and the changes of the route; a
    first-order method's plan is its own phase; the estimator is left as it was."""
    X, y = frame(seed=2)
    clf = MRCClassifier(method=method, first_order=first_order, eps_1=0.05, n_max=7)
    registered = get_method(method)
    problem, _ = problem_of(clf, X, y, None, 0.01, registered)
    asked = []

    def route(problem, regime, setting="auto", linear=True, host=True):
        asked.append((problem, regime, setting, linear, host))
        return tuple((name, {"max_iter": 3}) for name in names)

    monkeypatch.setattr(plan_module, "route", route)
    before = state(clf)
    plan = plan_of(clf, registered, problem)
    assert state(clf) == before
    settings = settings_of(clf)
    if registered.iterations is not None:   # method="fom": its phase, then MRC-CCG for the certificate
        assert [phase.method for phase in plan.phases] == [registered] and asked == []
        assert plan.phases[0].config == registered.configure(settings, problem) and plan.eps_1 == 0.05
        return
    assert plan.config == registered.configure(settings, problem) and plan.config.eps_1 == 0.05
    if not registered.routed:
        assert plan.phases == () and asked == []
        return
    assert asked == [(problem, plan.config.regime, first_order, True, True)]
    assert [phase.method.name for phase in plan.phases] == list(names)
    for phase in plan.phases:   # each with its config from the same settings, and the route's changes
        assert isinstance(phase, Phase) and phase.method.iterations is not None
        assert phase.config == replace(phase.method.configure(settings, problem), max_iter=3)


def test_planned_on_a_small_problem_runs_no_phase_by_default_and_pdhg_s_when_asked():
    """With the planner's real route: ``"auto"`` on tens of samples runs none, ``first_order=True`` MRC-PDHG's."""
    X, y = frame(seed=3)
    for first_order, expected in (("auto", []), (True, ["pdhg"]), (False, [])):
        clf = MRCClassifier(first_order=first_order)
        problem, _ = problem_of(clf, X, y, None, 0.01, get_method("ccg"))
        plan = plan_of(clf, get_method("ccg"), problem)
        assert [phase.method.name for phase in plan.phases] == expected


def test_class_sample_weight_multiplies_and_leaves_the_weightless_samples_out():
    from mrc_pyomo.estimator.fitting import class_sample_weight
    y = np.array(["a", "a", "b", "c"])
    w = np.array([1.0, 3.0, 0.0, 2.0])
    assert class_sample_weight(None, y, w) is w and class_sample_weight(None, y) is None
    # class b's only sample weighs 0: b is no class of the fit, its weight in the dict is not used
    assert np.array_equal(class_sample_weight({"a": 2.0, "b": 9.0}, y, w), [2.0, 6.0, 0.0, 2.0])
    # "balanced" over the weighted class sums of the samples kept: a 4, c 2 of 6 -> 6 / (2 * 4), 6 / (2 * 2)
    assert np.allclose(class_sample_weight("balanced", y, w), [0.75, 2.25, 0.0, 3.0])
    assert np.array_equal(w, [1.0, 3.0, 0.0, 2.0])
