"""The registry of backends (:mod:`mrc_pyomo.master.solvers`): the one place for solver names; an unknown solver is
refused by its name."""

import pytest

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import Backend, register_backend
from mrc_pyomo.master.highs import HighsBackend
from mrc_pyomo.master.solvers import backend_class, registered_backends


def test_the_registry_is_the_one_place_for_solver_names():
    assert registered_backends() == {"highs": HighsBackend}
    assert backend_class("highs") is HighsBackend
    with pytest.raises(ValueError, match="non-empty name"):
        register_backend("", HighsBackend)
    with pytest.raises(TypeError):
        Backend("x")   # solve is abstract


def test_unknown_solver_is_refused_by_name():
    X, y = random_problem(20, 2, 2)
    with pytest.raises(ValueError, match="unknown solver 'no_such_solver'") as error:
        MRCClassifier(solver="no_such_solver").fit(X, y)
    assert "did you mean" not in str(error.value)
    # a name a letter's case or a typo away from a known one says which
    for typed, meant in [("HiGHS", "highs"), ("GLPK", "glpk"), ("gurobi_persistant", "gurobi_persistent")]:
        with pytest.raises(ValueError, match=f"unknown solver '{typed}'.*did you mean '{meant}'"):
            MRCClassifier(solver=typed).fit(X, y)
    with pytest.raises(ValueError, match="solver must be 'highs' or a Pyomo solver name"):
        MRCClassifier(solver="").fit(X, y)
