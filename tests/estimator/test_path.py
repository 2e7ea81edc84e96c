"""Regularisation paths (:mod:`mrc_pyomo.estimator.path`, ``mrc_path``): every stage certified at its own lambda0 and
equal to an independent fit there; the values checked and sorted; the masters shown at verbose=2; the regime
of a path where a single fit would solve the full LP.  Continuation inside one fit:
``tests/methods/test_continuation.py``; cross-validation over the path: ``test_cv.py``."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from helpers import random_problem, reference_R_star
from mrc_pyomo import MRCClassifier, mrc_path


EPS = 1e-6


def _problems():
    X, y = load_wine(return_X_y=True)
    yield "wine", StandardScaler().fit_transform(X), y
    yield "random K=4", *random_problem(120, 4, 4, seed=7)
    yield "random sparse K=3", *random_problem(100, 6, 3, sparse=True, seed=8)


@pytest.mark.parametrize("name,X,y", list(_problems()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_stage_of_a_path_is_the_fit_at_its_lambda0(name, X, y):
    lambda0s = [0.5, 0.1, 0.02, 0.0]
    path = mrc_path(X, y, lambda0s, eps_1=EPS)
    table = path.table
    assert list(table.lambda0) == lambda0s and len(path.coefs) == len(path.estimators) == 4
    assert (table.status == "converged").all() and (table.gap <= EPS + 1e-12).all()
    for (_, row), mu, estimator in zip(table.iterrows(), path.coefs, path.estimators):
        R_star = reference_R_star(estimator.feature_map_.transform(X), np.searchsorted(estimator.classes_, y),
                                  len(estimator.classes_), row.lambda0)
        assert row.lower <= R_star + 1e-9 and row.upper == pytest.approx(R_star, abs=EPS + 1e-9)
        assert np.array_equal(mu, estimator.mu_) and estimator.lambda0 == row.lambda0
        assert (estimator.history_.lambda0 == row.lambda0).all() and row.n_iter == estimator.n_iter_
        alone = MRCClassifier(lambda0=row.lambda0, continuation=False, eps_1=EPS).fit(X, y)
        assert row.upper == pytest.approx(alone.upper_, abs=2 * EPS)
    # R* grows with lambda0
    assert np.all(np.diff(table.upper.to_numpy()) <= 2 * EPS)


def test_a_path_is_given_in_decreasing_order_and_checked():
    X, y = random_problem(60, 3, 3, seed=1)
    path = mrc_path(X, y, [0.01, 0.3], eps_1=1e-4)
    assert list(path.table.lambda0) == [0.3, 0.01]
    with pytest.raises(ValueError, match="lambda0s"):
        mrc_path(X, y, [0.1, -1.0])
    lp = mrc_path(X, y, [0.3, 0.01], method="lp", eps_1=1e-9)   # any registered method, stage by stage
    assert list(lp.table.status) == ["converged", "converged"]
    assert lp.table.upper.iloc[1] == pytest.approx(MRCClassifier(method="lp", eps_1=1e-9).fit(X, y).upper_, abs=1e-9)


@pytest.mark.parametrize("params, error, match", [
    ({"lambda0": 0.1}, TypeError, "give lambda0s, not lambda0"),
    ({"continuation": True}, TypeError, "a path is its own continuation"),
    ({"first_order": True}, ValueError, "runs no first-order phase"),
    ({"method": "nope"}, ValueError, "method"),
])
def test_a_path_refuses_what_a_single_fit_takes(params, error, match):
    """lambda0, continuation and a forced first-order phase are a single fit's (they were silently ignored)."""
    X, y = random_problem(60, 3, 3, seed=1)
    with pytest.raises(error, match=match):
        mrc_path(X, y, [0.3, 0.1], **params)


def test_a_path_shows_its_masters_at_verbose_2(capfd):
    X, y = random_problem(80, 3, 3, seed=6)
    path = mrc_path(X, y, [0.3, 0.03], eps_1=1e-4, verbose=2)
    out, err = capfd.readouterr()
    lines = out.splitlines()
    first, second = path.table.n_iter
    assert err == "" and len(lines) == 3 + first + second
    # each stage begins with a line that names its lambda0; one header for all
    assert lines[0] == "--- lambda0 = 0.3 ---" and lines[1].split()[0] == "it."
    assert lines[2 + first] == "--- lambda0 = 0.03 ---"
    numbers = [int(line.split()[0]) for line in lines[2:2 + first] + lines[3 + first:]]
    assert numbers == list(range(1, first + second + 1))


def test_path_of_a_small_full_lp_follows_the_density_rule():
    """Where ``regime="auto"`` solves the full LP (K D > LARGE_M, few rows), a path generates rows instead, in
    the regime "auto" would pick without the full LP: "n" for dense features, "nm" for sparse ones."""
    import scipy.sparse as sp
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 15)
    dense = rng.normal(size=(30, 5001)) + y[:, None]
    assert MRCClassifier(max_iter=1).fit(dense, y).regime_ == "full"
    path = mrc_path(dense, y, [0.5, 0.1], eps_1=0.1)
    assert [e.regime_ for e in path.estimators] == ["n", "n"]
    sparse = sp.random(30, 5001, density=0.01, random_state=0, format="lil")
    sparse[np.arange(30), y] = 1.0
    sparse = sparse.tocsr()
    path = mrc_path(sparse, y, [0.5, 0.1], eps_1=0.1)
    assert [e.regime_ for e in path.estimators] == ["nm", "nm"]


@pytest.mark.parametrize("lambda0s", [0.1, "0.1", ["a", "b"], [[0.1, 0.01]], np.array(0.1)])
def test_lambda0s_not_a_sequence_of_numbers_is_refused_by_name(lambda0s):
    """A scalar, strings or a 2-d list: a ValueError naming lambda0s, not NumPy's AxisError or a conversion
    error that names nothing."""
    X, y = random_problem(40, 3, 2, seed=1)
    with pytest.raises(ValueError, match="lambda0s must be a one-dimensional sequence"):
        mrc_path(X, y, lambda0s)


def test_a_path_honours_its_callback_and_reports_every_value():
    """mrc_path calls the callback after every master, as a fit does: a true return value stops it; the values it
    did not reach are in the table ('not_reached', NaN bounds, None estimators), with a ConvergenceWarning; an
    exception raised in the callback goes through."""
    from sklearn.exceptions import ConvergenceWarning

    X, y = random_problem(150, 4, 3, seed=2)
    seen = []

    def stop_in_the_second_stage(state):
        seen.append(state.iteration)
        return len(seen) > 1 and state.record["lambda0"] == 0.1

    with pytest.warns(ConvergenceWarning, match="after 2 of 4 values"):
        path = mrc_path(X, y, [1.0, 0.1, 0.01, 0.001], callback=stop_in_the_second_stage)
    table = path.table
    assert list(table.lambda0) == [1.0, 0.1, 0.01, 0.001] and seen
    assert list(table.status) == [table.status[0], "callback", "not_reached", "not_reached"]
    assert table.iloc[2:][["lower", "upper", "gap"]].isna().all().all() and list(table.n_iter[2:]) == [0, 0]
    assert path.estimators[2:] == [None, None] and path.coefs[2:] == [None, None]
    assert path.estimators[1].status_ == "callback" and path.estimators[1].lower_ <= path.estimators[1].upper_

    def fail(state):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        mrc_path(X, y, [0.1, 0.01], callback=fail)


def test_max_iter_bounds_each_stage_of_a_path_as_logistic_regression_cv_bounds_each_c():
    """``max_iter=2`` gives every ``lambda0`` its own two masters (it spent them once over the whole path, leaving
    the smaller values "not_reached"); a stage it stops says "max_iter", and the path goes on without a warning."""
    X, y = random_problem(150, 4, 3, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        path = mrc_path(X, y, [0.3, 0.03, 0.003], max_iter=2)
    assert "not_reached" not in set(path.table.status) and "max_iter" in set(path.table.status)
    assert list(path.table.n_iter) == [2, 2, 2] and all(coef is not None for coef in path.coefs)
    unbounded = mrc_path(X, y, [0.3, 0.03, 0.003])
    assert unbounded.table.n_iter.sum() > 6   # max_iter=2 did stop stages


@pytest.mark.parametrize("limit, stop", [({"callback": lambda state: True}, "callback"),
                                         ({"time_limit": 1e-9}, "time_limit")])
def test_a_path_stopped_early_names_its_limit(limit, stop):
    """The warning of a path that did not reach its last lambda0 names the limit that stopped it (it named the
    last stage's own status, "converged")."""
    X, y = random_problem(80, 3, 3, seed=6)
    with pytest.warns(ConvergenceWarning, match=rf"the path stopped \({stop}\) after 1 of 3 values"):
        path = mrc_path(X, y, [1.0, 0.1, 0.01], **limit)
    assert list(path.table.status[1:]) == ["not_reached", "not_reached"]


def test_a_path_and_a_cross_validation_take_a_solver_instance_pyomo_cannot_copy():
    """mrc_path clones its stages' template, and the CV runs paths: with SolverFactory("highs"), which Pyomo
    cannot deep-copy, both crashed inside copy.deepcopy (TypeError: 'bool' object is not callable)."""
    import pyomo.environ as pyo
    from mrc_pyomo import MRCClassifierCV
    X, y = random_problem(90, 3, 3, seed=5)
    solver = pyo.SolverFactory("highs")
    path = mrc_path(X, y, lambda0s=[0.1, 0.01], solver=solver)
    reference = mrc_path(X, y, lambda0s=[0.1, 0.01])
    assert path.table["upper"].to_numpy() == pytest.approx(reference.table["upper"].to_numpy(), abs=2e-3)
    cv = MRCClassifierCV(lambda0s=2, cv=3, solver=solver).fit(X, y)
    assert cv.lambda0_ in (1.0, 0.001) and cv.best_estimator_.lower_ <= cv.best_estimator_.upper_
