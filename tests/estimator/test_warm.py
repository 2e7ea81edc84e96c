"""The warm start of ``MRCClassifier`` (:mod:`mrc_pyomo.estimator.warm`): a fit of a fitted estimator with
``warm_start=True`` starts from the previous fit (its rule a candidate, its master's rows and features in the first
master), takes fewer masters at a nearby ``lambda0`` and is certified as a fit from scratch is; an incompatible
previous fit is refused by name; ``warm_start=False`` and the methods that do not warm-start ignore it."""

import numpy as np
import pytest

from helpers import random_problem
from mrc_pyomo import MRCClassifier, mrc_path
from mrc_pyomo.estimator import warm
from mrc_pyomo.estimator.warm import problem_columns
from mrc_pyomo.problem import prepare


def blobs(n=600, d=8, K=4, seed=3):
    X, y = random_problem(n, d, K, seed=seed)
    return X, y


def test_a_warm_refit_at_another_lambda0_takes_fewer_masters_and_is_certified():
    """Measured: 600 samples, 4 classes, lambda0 0.02 then 0.01 (and back up to 0.015): the warm fits need fewer
    masters than those from scratch, converge, and their certified intervals hold the same R* as the cold fits'."""
    X, y = blobs()
    clf = MRCClassifier(lambda0=0.02, eps_1=1e-4, warm_start=True).fit(X, y)
    for lambda0 in (0.01, 0.015):
        cold = MRCClassifier(lambda0=lambda0, eps_1=1e-4).fit(X, y)
        clf.set_params(lambda0=lambda0).fit(X, y)
        assert clf.status_ == "converged" and cold.status_ == "converged"
        assert clf.n_iter_ < cold.n_iter_, (lambda0, clf.n_iter_, cold.n_iter_)
        # both intervals hold R*: they meet, each within eps_1
        assert clf.lower_ <= cold.upper_ + 1e-12 and cold.lower_ <= clf.upper_ + 1e-12
        assert clf.upper_ - clf.lower_ <= 1e-4
        assert clf.history_["lambda0"].eq(lambda0).all()


def test_the_first_master_holds_the_previous_rows_and_the_previous_rule_is_a_candidate(monkeypatch):
    X, y = blobs(300)
    clf = MRCClassifier(lambda0=0.02, warm_start=True).fit(X, y)
    before = clf.master_
    seen = {}
    original = warm.warm_start_of

    def spy(*args):
        seen["start"] = start = original(*args)
        if start is not None:   # the rows of the first master, before the loop changes it
            seen["rows"] = {(s, tuple(c)) for s, c in zip(start.master.samples, start.master.subsets)}
        return start
    monkeypatch.setattr("mrc_pyomo.estimator.classifier.warm_start_of", spy)
    clf.set_params(lambda0=0.01).fit(X, y)
    start = seen["start"]
    assert {(s, tuple(c)) for s, c in zip(before.samples, before.subsets) if s < 300} <= seen["rows"]
    assert len(start.candidates) == 1 and start.candidates[0].shape == clf.mu_.shape
    # a second fit of the same estimator from scratch (warm_start=False) does not look at the previous one
    seen.clear()
    clf.set_params(warm_start=False).fit(X, y)
    assert seen["start"] is None


def test_the_previous_rule_is_brought_into_the_problem_s_columns():
    """problem_columns inverts MRCProblem.rule: scale, centring (lambda0 = 0) and the reduction's fixed features."""
    X, y = random_problem(80, 4, 3, seed=2)
    X = X * np.array([1e-3, 1.0, 30.0, 5.0])
    mu = np.random.default_rng(0).normal(size=(3, 5))
    for lambda0, centre in ((0.1, None), (0.0, True)):
        problem = prepare(X, y, lambda0=lambda0, centre=centre)
        assert (problem.centre is not None) == bool(centre)
        assert np.allclose(problem.rule(problem_columns(problem, mu)).mu, mu, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("change,match", [
    (lambda X, y: (X, y % 2), "classes"),
    (lambda X, y: (X[:, :3], y), "shape"),
])
def test_a_previous_fit_that_is_no_start_is_refused_by_name(change, match):
    X, y = blobs(200)
    clf = MRCClassifier(warm_start=True).fit(X, y)
    mu = clf.mu_.copy()
    with pytest.raises(ValueError, match=f"warm_start=True.*{match}.*warm_start=False"):
        clf.fit(*change(X, y))
    assert np.array_equal(clf.mu_, mu)   # the failed fit left the estimator as it was
    clf.set_params(warm_start=False).fit(*change(X, y))   # from scratch: fine


def test_other_data_of_the_same_shape_start_from_the_previous_rule_and_are_certified():
    X, y = blobs(400)
    clf = MRCClassifier(lambda0=0.01, eps_1=1e-4, warm_start=True).fit(X[:200], y[:200])
    clf.fit(X[200:], y[200:])
    cold = MRCClassifier(lambda0=0.01, eps_1=1e-4).fit(X[200:], y[200:])
    assert clf.status_ == "converged" and clf.lower_ <= cold.upper_ + 1e-12 and cold.lower_ <= clf.upper_ + 1e-12


def test_methods_that_do_not_warm_start_ignore_it_and_a_path_refuses_it():
    X, y = blobs(150)
    clf = MRCClassifier(method="lp", warm_start=True).fit(X, y)
    again = clf.fit(X, y % 2)   # no start is taken: other classes are no error
    assert list(again.classes_) == [0, 1]
    with pytest.raises(TypeError, match="warm_start"):
        mrc_path(X, y, [0.1, 0.01], warm_start=True)
