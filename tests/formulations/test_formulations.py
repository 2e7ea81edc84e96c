"""The formulation seam (:mod:`mrc_pyomo.formulations`: a formulation chosen by name, or given as an object): the
paper's and the compact formulation certify one R*, on the property test's problems and by the full LP,
against each other and an independent full LP; a formulation a backend cannot solve is refused by name.  The
compact formulation piece by piece: ``tests/formulations/test_compact.py``.

The property problems are ``helpers.problems``, the property test's (now ``tests/estimator/test_property.py``;
the test's own docstring still says ``tests/test_property.py``: Hypothesis derives the derandomised examples
from the test function's source, docstring included, so the source is kept byte for byte and the examples stay
the 120 it has always drawn).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from helpers import problems, random_problem, reference_R_star
from mrc_pyomo import MRCClassifier, RestrictedMaster
from mrc_pyomo.formulations import CompactFormulation, PaperFormulation, get_formulation
from mrc_pyomo.master.dual_lp import DualLPBackend
from mrc_pyomo.problem.estimates import mean_and_confidence

PAPER = PaperFormulation()


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problems())
def test_both_formulations_certify_one_R_star_on_the_property_problems(problem):
    """The property test's random, badly scaled, sparse and degenerate problems (tests/test_property.py), fitted
    to a gap of round-off in each formulation: the two certified intervals meet and their upper ends agree to
    1e-9 (measured: 1.5e-12 at most over these 120); a compact fit at the defaults holds R* as well."""
    X, y, params = problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        paper = MRCClassifier(eps_1=0.0, eps_2=0.0, **params).fit(X, y)
        compact = MRCClassifier(eps_1=0.0, eps_2=0.0, formulation="compact", **params).fit(X, y)
    assert compact.status_ == "converged"
    assert max(paper.lower_, compact.lower_) <= min(paper.upper_, compact.upper_) + 1e-12
    assert abs(compact.upper_ - paper.upper_) <= 1e-9
    # at the defaults (eps_1 = 1e-3) the compact fit's certified interval holds R* too, within eps_1 of it
    default = MRCClassifier(formulation="compact", **params).fit(X, y)
    assert default.status_ == "converged"
    assert default.lower_ - 1e-9 <= paper.upper_ and paper.lower_ <= default.upper_ + 1e-9
    assert default.upper_ - paper.lower_ <= default.eps_1 + 1e-9


def test_the_full_lp_in_both_formulations_has_one_R_star():
    X, y = random_problem(60, 3, 4, seed=11)
    paper = MRCClassifier(method="lp", eps_1=0.0).fit(X, y)
    compact = MRCClassifier(method="lp", formulation="compact", eps_1=0.0).fit(X, y)
    assert compact.status_ == paper.status_ == "converged"
    assert compact.master_.n_rows == 60 and paper.master_.n_rows == 60 * 15
    assert abs(compact.upper_ - paper.upper_) <= 1e-9 and abs(compact.lower_ - paper.lower_) <= 1e-9
    Psi = np.hstack([np.ones((60, 1)), X])
    R_star = reference_R_star(Psi, np.unique(y, return_inverse=True)[1], 4, 0.01)
    assert compact.lower_ - 1e-7 <= R_star <= compact.upper_ + 1e-7


def test_a_formulation_a_backend_cannot_solve_is_refused_by_name():
    X, y = random_problem(20, 2, 3)
    tau, lam = mean_and_confidence(np.hstack([np.ones((20, 1)), X]), y, 3, 0.1)
    with pytest.raises(ValueError, match="DualLPBackend cannot solve the formulation 'compact'"):
        RestrictedMaster(np.hstack([np.ones((20, 1)), X]), tau, lam, backend=DualLPBackend, formulation="compact")
    with pytest.raises(InvalidParameterError, match="formulation"):
        MRCClassifier(formulation="pairs").fit(X, y)
    with pytest.raises(ValueError, match="formulation must be one of"):
        get_formulation("pairs")
    assert MRCClassifier(formulation=CompactFormulation()).fit(X, y).status_ == "converged"
    assert sp.issparse(PAPER.block(lambda i, c=None: X[np.ix_(i, c)], np.array([0]), np.ones((1, 3), bool),
                                   np.arange(2), 2).mu)
