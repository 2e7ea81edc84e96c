"""The backend seam (:mod:`mrc_pyomo.master.backend`): a new backend is one class registered under a name, and the
loop asks only its capabilities."""

import runpy

import pytest

from helpers import ROOT, random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import Capabilities, solver_backends
from mrc_pyomo.master.dual_lp import DualLPBackend
from mrc_pyomo.master.highs_backend import HighsBackend

EXAMPLES = ROOT / "examples"


@pytest.fixture
def linprog_backend():
    """The backend of the architecture page's worked example (examples/new_backend.py), which registers it as
    "scipy_linprog"."""
    yield runpy.run_path(str(EXAMPLES / "new_backend.py"), run_name="example")["LinprogBackend"]
    solver_backends._BACKENDS.pop("scipy_linprog")


def test_a_registered_backend_reaches_the_same_certified_answer(linprog_backend):
    X, y = random_problem(150, 4, 3, seed=21)
    reference = MRCClassifier(eps_1=1e-7).fit(X, y)
    clf = MRCClassifier(solver="scipy_linprog", eps_1=1e-7).fit(X, y)
    assert isinstance(clf.master_.backend, linprog_backend) and clf.status_ == "converged"
    assert clf.upper_ == pytest.approx(reference.upper_, abs=1e-6)
    assert clf.lower_ <= reference.upper_ + 1e-9 and clf.upper_ - clf.lower_ <= 1e-7
    # no time limit is passed to a backend that cannot honour it: the loop asks the capability
    assert not clf.master_.capabilities.limits_inside_solve
    # the master's Pyomo model is built from the record of I and J on any backend
    assert len(clf.master_.model.component_map()) > 0


def test_capabilities_of_the_built_in_backends():
    assert HighsBackend.capabilities == Capabilities(limits_inside_solve=True, bulk_loading=True, warm_start=True)
    assert DualLPBackend.capabilities.limits_inside_solve and not DualLPBackend.capabilities.warm_start
    with pytest.raises(ValueError, match="objective >= 0"):
        DualLPBackend("highs", objective_floor=True)
