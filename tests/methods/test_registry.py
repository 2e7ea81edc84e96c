"""The registry of methods (:mod:`mrc_pyomo.methods.registry`): a method added in one file, without touching the
library (``examples/new_method.py``, Kelley's cutting planes), is a valid ``method`` of the estimator, of a path
and of the command line, stepped and certified as the built-in ones; the built-in ones and the first-order phase
are found by name."""

import runpy

import numpy as np
import pytest
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from helpers import ROOT
from mrc_pyomo import MRCClassifier, mrc_path
from mrc_pyomo.cli.arguments import build_parser
from mrc_pyomo.methods import METHODS, get_method
from mrc_pyomo.methods.registry import Method, register_method


@pytest.fixture(scope="module")
def kelley():
    before = dict(METHODS)
    runpy.run_path(str(ROOT / "examples" / "new_method.py"), run_name="example")
    yield METHODS["kelley"]
    METHODS.clear()
    METHODS.update(before)


def test_the_built_in_methods_are_registered():
    assert {"ccg", "lp", "subgradient", "fom", "pdhg"} <= set(METHODS)
    assert get_method("ccg").title == "MRC-CCG" and get_method("ccg").warm_starts
    assert all(get_method(name).iterations is not None and get_method(name).active_rows is not None
               for name in ("fom", "pdhg"))
    with pytest.raises(ValueError, match="unknown method 'nope'.*registered ones"):
        get_method("nope")
    with pytest.raises(TypeError, match="takes a Method"):
        register_method("ccg")


def test_a_method_from_an_example_fits_as_a_built_in_one(kelley):
    """The example's method reaches MRC-CCG's R*, certified, through fit, steps, a path and the command line."""
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ccg = MRCClassifier(method="ccg", eps_1=1e-6).fit(X, y)
    clf = MRCClassifier(method="kelley", eps_1=1e-6).fit(X, y)
    assert clf.status_ == "converged" and clf.regime_ == "n" and clf.n_iter_ > ccg.n_iter_
    assert clf.lower_ - 1e-9 <= ccg.upper_ and ccg.lower_ - 1e-9 <= clf.upper_
    assert set(kelley.columns) | {"lambda0"} == set(clf.history_.columns)
    stepped = MRCClassifier(method="kelley")
    states = []
    with pytest.warns(Warning):
        for state in stepped.steps(X, y):
            states.append(state)
            if len(states) == 2:
                break
    assert stepped.status_ == "callback" and stepped.n_iter_ == 2
    path = mrc_path(X, y, [0.1, 0.01], method="kelley", eps_1=1e-4)
    assert list(path.table.status) == ["converged", "converged"]
    assert "kelley" in build_parser().parse_args(["fit", "data.csv", "--method", "kelley"]).method
    assert isinstance(kelley, Method) and np.isfinite(clf.upper_)


def test_a_registered_method_stops_at_the_time_limit_and_shows_its_progress(kelley, capsys):
    """The example's method inside a solve the time limit stops (the solver's MasterTimeLimit) says "time_limit";
    its records show at verbose=1 without the fields of MRC-CCG's (the live line read "n_features")."""
    from sklearn.datasets import load_digits
    from sklearn.exceptions import ConvergenceWarning
    X, y = load_digits(return_X_y=True)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        clf = MRCClassifier(method="kelley", time_limit=1e-4).fit(X[:300], y[:300])
    assert clf.status_ == "time_limit" and 0 <= clf.lower_ <= clf.upper_
    X, y = load_wine(return_X_y=True)
    MRCClassifier(method="kelley", verbose=1).fit(StandardScaler().fit_transform(X), y)
    assert "Kelley" in capsys.readouterr().err
