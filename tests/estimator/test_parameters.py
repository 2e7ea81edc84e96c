"""The estimator's parameters (:mod:`mrc_pyomo.estimator.parameters`): scikit-learn's parameter validation names the
parameter and the value; every valid kind of value is accepted."""

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from helpers import SKLEARN_VERSION, random_problem
from mrc_pyomo import MRCClassifier, MRCClassifierCV
from mrc_pyomo.estimator.parameters import API_PAGE, validate_parameters


@pytest.mark.parametrize("params,value", [
    ({"phi": "polynomial"}, "'polynomial'"),
    ({"phi": 3}, "3"),
    ({"lambda0": -1.0}, "-1.0"),
    ({"lambda0": np.inf}, "inf"),
    ({"lambda0": True}, "True"),
    ({"fit_intercept": "yes"}, "'yes'"),
    ({"eps_1": -0.1}, "-0.1"),
    ({"eps_2": np.nan}, "nan"),
    ({"n_max": 0}, "0"),
    ({"m_max": 2.5}, "2.5"),
    ({"max_iter": 0}, "0"),
    ({"max_iter": True}, "True"),
    ({"method": "simplex"}, "'simplex'"),
    ({"regime": "big"}, "'big'"),
    ({"solver": 3}, "3"),
    ({"time_limit": -1.0}, "-1.0"),
    ({"solver_options": "fast"}, "'fast'"),
    ({"callback": "stop"}, "'stop'"),
    ({"random_state": "seed"}, "'seed'"),
    ({"verbose": 5}, "5"),
    ({"verbose": -1}, "-1"),
    ({"class_weight": "auto"}, "'auto'"),
    ({"class_weight": [1, 2]}, r"\[1, 2\]"),
    ({"warm_start": "yes"}, "'yes'"),
])
def test_bad_parameters(params, value):
    """scikit-learn's parameter validation: the error (a ValueError) names the parameter and the value."""
    X, y = random_problem(20, 2, 2)
    (name,) = params
    with pytest.raises(InvalidParameterError, match=rf"The '{name}' parameter of MRCClassifier .* Got {value} "):
        MRCClassifier(**params).fit(X, y)
    with pytest.raises(InvalidParameterError, match=f"'{name}'"):
        validate_parameters(MRCClassifier(**params))   # what the command line calls before it prints


def test_valid_parameter_values_are_accepted():
    from sklearn.preprocessing import StandardScaler
    X, y = random_problem(30, 2, 2)
    clf = MRCClassifier(phi=StandardScaler(), lambda0=0, fit_intercept=np.bool_(False), n_max=np.int64(5),
                        time_limit=30, solver_options={}, random_state=np.random.RandomState(0), verbose=0,
                        callback=lambda state: False).fit(X, y)
    assert clf.status_ == "converged"


def test_an_estimator_with_a_solver_instance_pyomo_cannot_copy_is_cloned_with_one_made_like_it():
    """sklearn.clone (GridSearchCV's first step) deep-copies a parameter that is not an estimator, which Pyomo's
    HiGHS interface refuses with a TypeError: the clone gets a solver of the same name with the instance's
    options, the user's instance untouched; copyable instances and names are cloned as scikit-learn does."""
    import copy
    import pyomo.environ as pyo
    from sklearn.base import clone
    from mrc_pyomo import MRCClassifierCV
    highs = pyo.SolverFactory("highs")
    highs.options["time_limit"] = 100.0
    with pytest.raises(Exception):
        copy.deepcopy(highs)   # what scikit-learn's own clone would do
    for estimator in (MRCClassifier(solver=highs, lambda0=0.1), MRCClassifierCV(solver=highs)):
        made = clone(estimator)
        assert made.solver is not highs and type(made.solver) is type(highs)
        assert dict(made.solver.options) == {"time_limit": 100.0}
        assert made.get_params()["eps_1"] == estimator.eps_1 and estimator.solver is highs
    assert isinstance(clone(MRCClassifier(lambda0=0.1)), MRCClassifier)
    glpk = pyo.SolverFactory("glpk")
    assert type(clone(MRCClassifier(solver=glpk)).solver) is type(glpk)


@pytest.mark.parametrize("make, given, hint", [
    ("MRCClassifier", {"lamda0": 0.1}, "; did you mean 'lambda0'?"),
    ("MRCClassifier", {"eps1": 1e-3}, "; did you mean 'eps_1'?"),
    ("MRCClassifierCV", {"lambdas0": 3}, "; did you mean 'lambda0s'?"),
    ("MRCClassifier", {"colour": "blue"}, ""),
])
def test_a_misspelt_parameter_is_named_with_its_class_and_the_closest_name(make, given, hint):
    """The error of an unknown keyword names the class (Python's named neither it nor a close parameter), and the
    parameter meant, as a misspelt solver name gets one."""
    import mrc_pyomo
    with pytest.raises(TypeError) as error:
        getattr(mrc_pyomo, make)(**given)
    name = next(iter(given))
    assert str(error.value) == f"{make}(): got an unexpected keyword argument {name!r}{hint}"


@pytest.mark.parametrize("estimator, anchor", [(MRCClassifier(lambda0=0.1), "mrc_pyomo.MRCClassifier"),
                                               (MRCClassifierCV(cv=3), "mrc_pyomo.estimator.cv.MRCClassifierCV")])
def test_the_html_repr_links_to_the_api_page_and_shows_every_parameter_s_help(estimator, anchor):
    """A notebook's HTML repr links to the estimator's entry in the guide's API page (docs/api.rst: Sphinx's anchor
    is the class's documented dotted name) and shows each parameter's help from the class docstring (no link, and
    no help, before; nor for n_max and m_max, documented together, or the CV's parameters shared with MRCClassifier);
    the CV's shared parameters show MRCClassifier's own entries."""
    html = estimator._repr_html_()
    assert f'href="{API_PAGE}#{anchor}"' in html
    if SKLEARN_VERSION < (1, 8):   # scikit-learn's repr shows the parameters' help from 1.8 on
        return
    names = estimator.get_params(deep=False)
    assert html.count('class="param-doc-description"') == len(names)
    for name in names:
        if SKLEARN_VERSION >= (1, 9):   # each parameter's CSS anchor, from 1.9 on
            assert f"anchor-name: --doc-link-{name};" in html, name
        assert f"{API_PAGE}#{anchor}#:~:text={name}," in html, name
    if isinstance(estimator, MRCClassifierCV):
        assert "Rows added per iteration at most." in html and "refit" in html
