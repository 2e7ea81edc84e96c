"""The fitted attributes (:mod:`mrc_pyomo.estimator.fitted`) follow SPEC.md, and are written as one transaction."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from helpers import random_problem
from mrc_pyomo import MRCClassifier, MRCClassifierCV, Status, prepare
from mrc_pyomo.methods.history import HISTORY_COLUMNS
from mrc_pyomo.oracles.primal import worst_case_risk


def test_fitted_attributes_follow_the_spec():
    X, y = random_problem(90, 4, 3, seed=2)
    labels = np.array(["cat", "dog", "emu"])[y]
    clf = MRCClassifier(eps_1=0.0).fit(X, labels)
    assert list(clf.classes_) == ["cat", "dog", "emu"]
    assert clf.n_features_in_ == 4
    assert clf.tau_.shape == clf.lambda_.shape == clf.mu_.shape == (3, 5)
    Psi = clf.feature_map_.transform(X)
    assert Psi.shape == (90, 5) and np.all(Psi[:, 0] == 1.0)
    R = worst_case_risk(Psi, clf.mu_, clf.tau_, clf.lambda_)
    assert R < clf.upper_ <= R + 1e-14   # R(mu_) raised by the bound on its rounding (safe in floating point)
    assert isinstance(clf.history_, pd.DataFrame) and list(clf.history_.columns) == HISTORY_COLUMNS
    assert len(clf.history_) == clf.n_iter_ >= 1
    assert (clf.history_.seconds_solve >= 0).all() and (clf.history_.seconds_update >= 0).all()
    proba = clf.predict_proba(X)
    assert proba.shape == (90, 3) and np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(clf.predict(X), clf.classes_[np.argmax(Psi @ clf.mu_.T, axis=1)])
    assert clf.score(X, labels) > 0.6
    # nu = varphi(mu) + 1 at the master's optimum, up to the master's missing rows: upper_ >= R^k
    assert clf.upper_ >= clf.objective_ - 1e-9


class Stop(Exception):
    pass


def raise_at_the_second_master(exception):
    def callback(state):
        if state.iteration == 2:
            raise exception
    return callback


@pytest.mark.parametrize("exception", [Stop("from the callback"), KeyboardInterrupt()])
def test_an_interrupted_refit_leaves_the_previous_fit_intact(exception):
    """A fit is a transaction: a refit on new data (new labels, a new feature count) that raises keeps every
    attribute of the previous fit, so that predict still maps the old rule to the old labels."""
    X, y = random_problem(90, 4, 3, seed=2)
    clf = MRCClassifier().fit(X, np.array(["cat", "dog", "emu"])[y])
    before = {name: getattr(clf, name) for name in vars(clf) if name.endswith("_")}
    predicted = clf.predict(X)
    X2, y2 = random_problem(120, 6, 4, seed=3)
    clf.set_params(callback=raise_at_the_second_master(exception))
    with pytest.raises(type(exception)):
        clf.fit(X2, np.array(["a", "b", "c", "d"])[y2])
    assert sorted(name for name in vars(clf) if name.endswith("_")) == sorted(before)
    assert all(getattr(clf, name) is value for name, value in before.items())
    assert clf.n_features_in_ == 4 and np.array_equal(clf.predict(X), predicted)


def test_an_interrupted_first_fit_leaves_an_unfitted_estimator():
    X, y = random_problem(90, 4, 3, seed=2)
    clf = MRCClassifier(callback=raise_at_the_second_master(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        clf.fit(X, y)
    assert not [name for name in vars(clf) if name.endswith("_")]
    with pytest.raises(NotFittedError):
        clf.predict(X)


def test_an_interrupted_cross_validation_keeps_its_previous_fit(monkeypatch):
    from mrc_pyomo.estimator import folds

    X, y = random_problem(90, 4, 3, seed=2)
    search = MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2).fit(X, y)
    before = {name: getattr(search, name) for name in vars(search) if name.endswith("_")}

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(folds, "mrc_path", interrupted)
    with pytest.raises(KeyboardInterrupt):
        search.fit(*random_problem(60, 5, 2, seed=4))
    assert sorted(name for name in vars(search) if name.endswith("_")) == sorted(before)
    assert all(getattr(search, name) is value for name, value in before.items())
    assert search.n_features_in_ == 4 and search.predict(X).shape == (90,)


def test_the_status_follows_the_certificate_not_the_solver():
    # the fit's status is the interval's in the user's units (methods/result.py's status_of, tests/methods)
    X, y = random_problem(60, 3, 3, seed=4)

    def stop_at_once(state):   # the callback stops the loop at a master whose gap is already closed
        return True

    clf = MRCClassifier(eps_1=1.0, callback=stop_at_once).fit(X, y)
    assert clf.status_ == "converged" and clf.upper_ - clf.lower_ <= 1.0


def iris_labels():
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True)
    return X, np.array(["setosa", "versicolor", "virginica"])[y]


@pytest.mark.parametrize("params, cause", [
    ({"max_iter": 2}, r"stopped \(max_iter\) with a certified gap .*a larger max_iter"),
    ({"time_limit": 0.0, "method": "subgradient"},
     r"stopped \(time_limit\) with a certified gap .*a larger time_limit"),
    ({"lambda0": 100.0}, r"lambda0 = 100 is so large that the constant rule mu = 0 is a minimax rule"),
])
def test_a_class_never_predicted_is_blamed_on_what_stopped_the_rule(params, cause):
    """A rule that misses a class because the fit stopped early or the regularisation makes it constant is told
    so, not that its feature map is too poor (the advice of a converged fit, as on iris with the linear map)."""
    X, labels = iris_labels()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = MRCClassifier(**params).fit(X, labels)
    missing = [str(w.message) for w in caught if "never predicts" in str(w.message)]
    assert len(missing) == 1 and re.search(cause, missing[0]), missing
    assert "fourier" not in missing[0] and "too poor" not in missing[0]
    gap = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    if "lambda0" in params:
        assert clf.status_ == "converged" and not gap
    else:
        stop = next(name for name in params if name != "method")
        assert clf.status_ == stop and len(gap) == 1 and f"{stop} = " in gap[0] and f"a larger {stop}" in gap[0]


def test_subgradient_takes_mrcpy_s_steps_by_default_and_names_its_stop():
    """MRC-SUB runs 10,000 steps unless told (MRCpy's default, the paper's baseline; its 1,000 steps left the
    trivial rule on digits); stopped by max_iter with a class never predicted, it says so, not "try phi"."""
    from sklearn.datasets import load_digits

    from mrc_pyomo.estimator.parameters import settings_of
    from mrc_pyomo.methods import get_method
    X, y = load_digits(return_X_y=True)
    problem = prepare(X, y)
    config = {name: get_method(name).configure(settings_of(MRCClassifier(method=name)), problem)
              for name in ("subgradient", "ccg", "fom")}
    assert config["subgradient"].max_iter == 10_000 and config["ccg"].max_iter == config["fom"].max_iter == 1000
    with pytest.warns(UserWarning, match=r"stopped \(max_iter\).*not yet the minimax rule") as caught:
        with pytest.warns(ConvergenceWarning, match="max_iter = 300 was reached"):
            MRCClassifier(method="subgradient", max_iter=300).fit(X, y)
    assert not any("fourier" in str(w.message) for w in caught)


def test_a_fitted_model_round_trips_through_skops_with_the_library_s_types_trusted():
    """``skops.io.dumps`` of a fitted MRCClassifier, a PathStage and an MRCClassifierCV (it raised on ``history_``, a
    DataFrame, then recursed without end into ``master_``, a Pyomo model): loaded with the types skops lists, all of
    them the library's :data:`~mrc_pyomo.estimator.fitted.SKOPS_TYPES`, each predicts as it did; ``history_`` is the
    same DataFrame (a first-order phase's columns too), ``master_`` None, ``status_`` a Status.  The estimator saved
    is left as it was, and pickle keeps the master."""
    import pickle
    sio = pytest.importorskip("skops.io")
    from mrc_pyomo import mrc_path
    from mrc_pyomo.estimator.fitted import SKOPS_TYPES
    X, y = random_problem(90, 4, 3, seed=2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    models = [MRCClassifier(first_order=True).fit(frame, y), MRCClassifier(phi="fourier", random_state=0).fit(X, y),
              mrc_path(X, y, [0.1, 0.01]).estimators[-1], MRCClassifierCV(lambda0s=[0.1, 0.01], cv=2).fit(frame, y)]
    for model in models:
        data = frame if hasattr(model, "feature_names_in_") else X
        blob = sio.dumps(model)
        trusted = sio.get_untrusted_types(data=blob)
        assert set(trusted) <= set(SKOPS_TYPES)
        loaded = sio.loads(blob, trusted=trusted)
        assert np.array_equal(loaded.predict(data), model.predict(data))
        assert np.array_equal(loaded.predict_proba(data), model.predict_proba(data))
        pd.testing.assert_frame_equal(loaded.history_, model.history_)
        assert loaded.master_ is None and model.master_ is not None
        assert type(loaded.status_) is Status and loaded.status_ == model.status_
        assert isinstance(model.history_, pd.DataFrame)   # dumps left the model as it was
        assert pickle.loads(pickle.dumps(model)).master_.n_rows == model.master_.n_rows
